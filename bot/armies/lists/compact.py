"""The compact (WTC-style) text that tournament list tools print: "+ KEY: value" header lines, then units whose
warlord and enhancements the header may name instead of the unit lines."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.armies.lists.common import (
    DETACHMENT_POINTS, NUMBER, battle_size, clean_name, detachment_names, enhancement_name, number,
)
from bot.armies.lists.model import BattleSize, ParsedList
from bot.armies.lists.text_units import Draft, listed_unit, unit_drafts, unit_header

_COMPACT_KEY = re.compile(r"^\+\s*(?P<key>[A-Za-z][A-Za-z ]{1,30}?)\s*:\s*(?P<value>.*)$")
_COMPACT_KEYS = {
    "faction keyword", "detachment", "detachments", "total army points", "warlord", "enhancement", "enhancements",
    "number of units", "secondary", "battle size", "force disposition", "force dispositions",
}
_REFERENCE = re.compile(r"^(?:(?P<tag>[A-Za-z]{1,12}\d{1,3})\s*:\s*)?(?P<name>.+)$")
_ENHANCEMENT_ON = re.compile(r"^(?P<enhancement>.+?)\s*\(\s*on\s+(?P<unit>.+)\)$", re.I)
_TRAILING_NOTE = re.compile(r"\s*\([^()]*\)$")


def is_compact(lines: list[str]) -> bool:
    for line in lines:
        key = _COMPACT_KEY.match(line.strip())
        if key and key["key"].strip().lower() in _COMPACT_KEYS:
            return True
        draft = unit_header(line)
        if draft and (draft.tag or draft.gear):
            return True
    return False


@dataclass
class _CompactHeader:
    faction: str | None = None
    detachments: list[str] = field(default_factory=list)
    disposition: str | None = None
    points: int | None = None
    battle_size: BattleSize | None = None
    limit: int | None = None
    warlord: tuple[str | None, str] | None = None  # (tag, unit name)
    enhancements: list[tuple[str, str | None, str]] = field(default_factory=list)  # (enhancement, tag, unit name)
    key: str = ""

    def read(self, line: str) -> None:
        """One header line: "+ KEY: value", or "& value" going on with the key above (more enhancements)."""
        keyed = _COMPACT_KEY.match(line)
        if keyed:
            self.key, value = keyed["key"].strip().lower(), keyed["value"].strip()
        elif line.startswith("&"):
            value = line.lstrip("&").strip()
        else:
            return
        if self.key == "faction keyword":
            self.faction = clean_name(re.split(r"\s+[-–]\s+", value)[-1]) or None
        elif self.key in ("detachment", "detachments"):
            # "A, B" or, as the app writes them, "A and B (3 Detachment Points)"; a note in brackets after a name
            # ("Berzerker Warband (Relentless Rage)") is its rule or its cost
            counted = DETACHMENT_POINTS.match(value)
            self.detachments += (detachment_names(counted["names"]) if counted
                                 else detachment_names(_TRAILING_NOTE.sub("", value), words=False))
        elif self.key == "force disposition":  # the player's choice ("force dispositions" lists what is granted)
            self.disposition = clean_name(value) or self.disposition
        elif self.key == "total army points" and (total := re.match(rf"({NUMBER})", value)):
            self.points = number(total[1])
        elif self.key == "battle size" and (size := battle_size(value)):
            self.battle_size, self.limit = size
        elif self.key == "warlord" and (reference := _REFERENCE.match(value)):
            self.warlord = (reference["tag"], clean_name(reference["name"]))
        elif self.key in ("enhancement", "enhancements") and (on := _ENHANCEMENT_ON.match(value)):
            unit = _REFERENCE.match(on["unit"].strip())
            if unit:
                self.enhancements.append((enhancement_name(on["enhancement"]), unit["tag"], clean_name(unit["name"])))


def parse_compact(lines: list[str]) -> ParsedList:
    header = _CompactHeader()
    body: list[str] = []
    for line in lines:
        stripped = line.strip()
        if not body and stripped.startswith(("+", "&")):
            header.read(stripped)
        elif body or unit_header(line):
            body.append(line)
    drafts = unit_drafts(body)
    _apply_header_marks(header, drafts)
    return ParsedList(
        format="compact",
        name=None,
        faction=header.faction,
        detachments=tuple(header.detachments),
        battle_size=header.battle_size,
        points_stated=header.points,
        points_limit=header.limit,
        units=tuple(listed_unit(draft) for draft in drafts),
        disposition=header.disposition,
    )


def _apply_header_marks(header: _CompactHeader, drafts: list[Draft]) -> None:
    """The header's warlord and enhancements, for lists whose unit lines leave them out."""
    if header.warlord and not any(draft.warlord for draft in drafts):
        unit = _referenced(drafts, *header.warlord)
        if unit:
            unit.warlord = True
    if not any(draft.enhancements for draft in drafts):
        for enhancement, tag, name in header.enhancements:
            unit = _referenced(drafts, tag, name)
            if unit:
                unit.enhancements.append(enhancement)


def _referenced(drafts: list[Draft], tag: str | None, name: str) -> Draft | None:
    """The unit a header line names, by tag and name, else by name alone (tools do not always number alike)."""
    same_name = [draft for draft in drafts if draft.name.lower() == name.lower()]
    tagged = [draft for draft in same_name if tag and draft.tag and draft.tag.lower() == tag.lower()]
    return (tagged or same_name or [None])[0]
