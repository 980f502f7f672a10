"""Units in a text list (the app's export or the compact format): one header line, e.g. "Char1: 10x Grey Hunters
(90 pts): …", then its bullets, read into drafts and then into `ListedUnit`s with their models, enhancements and
warlord mark."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.armies.lists.common import BULLET, NUMBER, POINTS, battle_size, clean_name, enhancement_name, number
from bot.armies.lists.model import MAX_UNITS, ListedUnit

_COUNT = re.compile(r"^(?P<count>\d{1,4})\s*[x×]\s+(?P<rest>\S.*)$", re.I)
_WARLORD = re.compile(r"^(?:warlord|seigneur de guerre)$", re.I)
_ENHANCEMENT = re.compile(r"^(?:enhancements?|optimisations?)\s*:\s*(?P<name>.+)$", re.I)
_COSTED_UPGRADE = re.compile(rf"^(?P<name>[^()]+?)\s*\(\s*\+\s*(?:{NUMBER})\s*(?:pts?|points?)\s*\)$", re.I)


@dataclass(frozen=True)
class _Line:
    indent: int
    bullet: bool
    text: str  # stripped, bullet removed


@dataclass
class Draft:
    name: str
    points: int
    count: int | None
    tag: str | None  # "Char1" in compact lists, which the header's warlord and enhancements refer to
    gear: list[str]  # the compact format's inline "Warlord, Frostfang, Enhancement: …"
    lines: list[_Line] = field(default_factory=list)
    enhancements: list[str] = field(default_factory=list)
    warlord: bool = False


_UNIT_PREFIX = re.compile(
    r"^(?:&+\s*)?(?:(?P<tag>[A-Za-z]{1,12}\d{1,3})\s*:\s*)?(?:(?P<count>\d{1,4})\s*[x×]\s+)?(?P<name>.*)$", re.I | re.S
)


def unit_header(line: str) -> Draft | None:
    """The unit a line starts, if it is a unit's header: a name with "(N pts)" after it, and maybe ": gear"."""
    stripped = line.strip()
    if BULLET.match(stripped):
        return None
    points = POINTS.search(stripped)
    if points is None:
        return None
    rest = stripped[points.end():].strip()
    if rest and not rest.startswith(":"):
        return None
    prefix = _UNIT_PREFIX.match(stripped[: points.start()].strip())  # matches any text: each part is optional
    name = clean_name(prefix["name"])
    if not name or battle_size(name) or _ENHANCEMENT.match(name):
        return None
    gear = [item.strip() for item in rest[1:].split(",") if item.strip()]
    count = int(prefix["count"]) if prefix["count"] else None
    return Draft(name, number(points["points"]), count, prefix["tag"], gear)


def _line(raw: str) -> _Line:
    stripped = raw.strip()
    bullet = BULLET.match(stripped)
    text = stripped[bullet.end():].strip() if bullet else stripped
    return _Line(len(raw) - len(raw.lstrip()), bullet is not None, text)


def unit_drafts(lines: Iterable[str]) -> list[Draft]:
    """Unit drafts from a list's body; lines outside any unit (section headers, notes) are skipped."""
    drafts: list[Draft] = []
    for raw in lines:
        if not raw.strip():
            continue
        draft = unit_header(raw)
        if draft is not None:
            drafts.append(draft)
        elif drafts:
            drafts[-1].lines.append(_line(raw))
    for draft in drafts[:MAX_UNITS]:
        _read_details(draft)
    return drafts[:MAX_UNITS]


def _read_details(draft: Draft) -> None:
    """The draft's warlord mark and enhancements, from its inline gear and its lines."""
    for item in draft.gear + [line.text for line in draft.lines]:
        enhancement = _ENHANCEMENT.match(item)
        upgrade = _COSTED_UPGRADE.match(item)  # NewRecruit's "• Favoured of Khorne (+20 pts)"
        if _WARLORD.match(item):
            draft.warlord = True
        elif enhancement:
            draft.enhancements.append(enhancement_name(enhancement["name"]))
        elif upgrade and not _COUNT.match(item):
            draft.enhancements.append(enhancement_name(upgrade["name"]))


def _models(draft: Draft) -> int:
    """Models in the unit: the header's count, else the "Nx" lines that carry their own wargear bullets beneath
    them (the app nests a squad's wargear under each model, but lists a lone model's wargear flat), else flat "Nx"
    lines named like the unit (a squad written without wargear), else one."""
    if draft.count:
        return draft.count
    lines = draft.lines
    nested = sum(
        int(count["count"])
        for index, line in enumerate(lines)
        if line.bullet and (count := _COUNT.match(line.text))
        and index + 1 < len(lines) and lines[index + 1].bullet and lines[index + 1].indent > line.indent
    )
    if nested:
        return nested
    stem = _first_stem(draft.name)
    named = sum(
        int(count["count"])
        for line in lines
        if line.bullet and (count := _COUNT.match(line.text)) and _first_stem(count["rest"]) == stem
    )
    return max(named, 1)


def _first_stem(name: str) -> str:
    words = name.lower().split()
    return words[0].removesuffix("s") if words else ""


def listed_unit(draft: Draft) -> ListedUnit:
    enhancements = tuple(dict.fromkeys(name for name in draft.enhancements if name))
    return ListedUnit(draft.name, _models(draft), draft.points, enhancements, draft.warlord)
