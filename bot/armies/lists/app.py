"""The Warhammer 40,000 app's "Export list" text (10th and 11th edition, English or French labels): the header
above the units (name, total, factions, battle size, detachments) and where the units begin."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.armies.lists.common import BULLET, POINTS, battle_size, clean_name, number
from bot.armies.lists.model import BattleSize, ParsedList
from bot.armies.lists.text_units import listed_unit, unit_drafts

_SECTIONS = {
    "characters", "character", "battleline", "dedicated transports", "other datasheets", "allied units",
    "attached units", "epic hero", "personnages", "ligne", "transports assignés", "transport assigné",
    "autres fiches techniques", "unités attachées", "unités alliées",
}
_ATTACHED_GROUP = re.compile(r"^(?:attached unit \d+|unité \d+ attachée)$", re.I)
_DETACHMENT_POINTS = re.compile(
    r"^(?P<names>.+?)\s*\(\s*\d{1,2}\s*(?:/\s*\d{1,2}\s*)?"
    r"(?:detachment\s+points?|points?\s+de\s+d[ée]tachement)\s*\)$",
    re.I,
)
_DETACHMENT_JOIN = re.compile(r"\s+(?:and|et|&)\s+", re.I)
_DISPOSITIONS = re.compile(r"^(?:force\s+dispositions?|dispositions\s+des\s+forces)\s*:", re.I)


def parse_app(lines: list[str]) -> ParsedList:
    start = _body_start(lines)
    header = _AppHeader()
    for line in (line.strip() for line in lines[:start]):
        if line:
            header.read(line)
    drafts = unit_drafts(lines[start:])
    return ParsedList(
        format="app",
        name=header.name,
        faction=header.factions[-1] if header.factions else None,
        detachments=tuple(header.counted_detachments or header.bare_detachments),
        battle_size=header.battle_size,
        points_stated=header.points,
        points_limit=header.limit,
        units=tuple(listed_unit(draft) for draft in drafts),
    )


def _body_start(lines: list[str]) -> int:
    """Where the units begin: at the first section header, or at the unit whose bullet comes first."""
    previous = None
    for index, raw in enumerate(lines):
        line = raw.strip()
        if not line:
            continue
        if line.lower() in _SECTIONS or _ATTACHED_GROUP.match(line):
            return index
        if BULLET.match(line):
            return index if previous is None else previous
        previous = index
    return len(lines)


@dataclass
class _AppHeader:
    """The lines above the units: the list's name and total, factions (broad to specific), battle size, and
    detachments, either bare (10th edition, under the battle size) or joined on one line with their cost in
    detachment points (11th edition)."""

    name: str | None = None
    points: int | None = None
    factions: list[str] = field(default_factory=list)
    battle_size: BattleSize | None = None
    limit: int | None = None  # set with the battle size, which every list states after its factions
    counted_detachments: list[str] = field(default_factory=list)
    bare_detachments: list[str] = field(default_factory=list)
    lines_read: int = 0

    def read(self, line: str) -> None:
        self.lines_read += 1
        total = POINTS.search(line)
        size = battle_size(line)
        detachments = _DETACHMENT_POINTS.match(line)
        if size:
            self.battle_size, self.limit = size
        elif self.lines_read == 1 and total and not line[total.end():].strip():  # the title: "Hunt (1,995 Points)"
            self.name = clean_name(line[: total.start()]) or None
            self.points = number(total["points"])
        elif detachments:
            names = _DETACHMENT_JOIN.split(detachments["names"])
            self.counted_detachments += [name for name in map(clean_name, names) if name]
        elif _DISPOSITIONS.match(line) or total or line.lower().startswith("exported with"):
            return
        elif not (name := clean_name(line)):
            return
        elif self.limit is None and not self.counted_detachments:
            self.factions.append(name)
        elif not self.counted_detachments:
            self.bare_detachments.append(name)
        # A bare line after an 11th-edition detachment line is its Force Disposition, which newer exports leave
        # unlabelled: nothing the list needs.
