"""The Warhammer 40,000 app's "Export list" text (10th and 11th edition, English or French labels), and the same
layout as other builders write it: the header above the units (name, total, factions, battle size, detachments, Force
Disposition, in whatever order) and where the units begin."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.armies.lists.common import BULLET, DETACHMENT_POINTS, POINTS, battle_size, clean_name, detachment_names, number
from bot.armies.lists.model import BattleSize, ParsedList
from bot.armies.lists.text_units import listed_unit, unit_drafts

_SECTIONS = {
    "characters", "character", "battleline", "dedicated transports", "other datasheets", "allied units",
    "attached units", "epic hero", "personnages", "ligne", "transports assignés", "transport assigné",
    "autres fiches techniques", "unités attachées", "unités alliées",
}
_ATTACHED_GROUP = re.compile(r"^(?:attached unit \d+|unité \d+ attachée)$", re.I)
# "Force Disposition: X" records the player's choice; "Force Dispositions: X, Y" lists what the detachments grant.
_DISPOSITION = re.compile(r"^(?:force\s+disposition|disposition\s+des\s+forces)\s*:\s*(?P<name>.*)$", re.I)
_DISPOSITIONS = re.compile(r"^(?:force\s+dispositions|dispositions\s+des\s+forces)\s*:", re.I)


def parse_app(lines: list[str]) -> ParsedList:
    start = _body_start(lines)
    header = _AppHeader()
    for line in (line.strip() for line in lines[:start]):
        if line:
            header.read(line)
    drafts = unit_drafts(lines[start:])
    faction, detachments, unsure = header.placed()
    return ParsedList(
        format="app",
        name=header.name,
        faction=faction,
        detachments=detachments,
        battle_size=header.battle_size,
        points_stated=header.points,
        points_limit=header.limit,
        units=tuple(listed_unit(draft) for draft in drafts),
        disposition=header.chosen_disposition(),
        faction_or_detachment=unsure,
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
    """The lines above the units, in whatever order the app or a builder writes them: the list's name and total,
    factions (broad to specific), battle size, detachments and the Force Disposition. Detachments come bare (10th
    edition, under the battle size; some builders above it) or with their cost in Detachment Points (11th edition:
    one line per detachment, or one line naming several, "A and B (3 Detachment Points)"), above or under the
    battle size."""

    name: str | None = None
    points: int | None = None
    battle_size: BattleSize | None = None
    limit: int | None = None  # set with the battle size
    above: list[str] = field(default_factory=list)  # bare lines before the battle size and any counted detachment
    below: list[str] = field(default_factory=list)  # bare lines after the battle size, before any counted detachment
    counted: list[str] = field(default_factory=list)  # the detachments of "(N Detachment Points)" lines
    counted_lines: int = 0
    after_counted: list[tuple[int, str]] = field(default_factory=list)  # (counted lines above it, bare line)
    disposition: str | None = None  # "Force Disposition: X"
    lines_read: int = 0
    last: list | None = None  # where the last bare line went, as its last item

    def read(self, line: str) -> None:
        self.lines_read += 1
        last, self.last = self.last, None
        total = POINTS.search(line)
        size = battle_size(line)
        counted = DETACHMENT_POINTS.match(line)
        chosen = _DISPOSITION.match(line)
        if size:
            self.battle_size, self.limit = size
        elif self.lines_read == 1 and total and not line[total.end():].strip():  # the title: "Hunt (1,995 Points)"
            self.name = clean_name(line[: total.start()]) or None
            self.points = number(total["points"])
        elif counted:
            names = detachment_names(counted["names"])
            if not counted["names"].strip() and last:  # "A and B", then "(3 Detachment Points)": a wrapped paste
                written = last.pop()
                names = detachment_names(written[1] if isinstance(written, tuple) else written)
            self.counted += names
            self.counted_lines += 1
        elif chosen:
            self.disposition = clean_name(chosen["name"]) or None
        elif _DISPOSITIONS.match(line) or total or line.lower().startswith("exported with"):
            return
        elif not (name := clean_name(line)):
            return
        elif self.counted_lines:
            self.after_counted.append((self.counted_lines, name))
            self.last = self.after_counted
        else:
            self.last = self.above if self.limit is None else self.below
            self.last.append(name)

    def placed(self) -> tuple[str | None, tuple[str, ...], tuple[str, ...]]:
        """(the most specific faction, the detachments, the lines that may name either) as the layout tells them."""
        if self.counted:
            factions = self.above or self.below
            return (factions[-1] if factions else None), tuple(self.counted), ()
        if self.above and self.below:  # factions, battle size, detachments
            return self.above[-1], tuple(self.below), ()
        if self.below:  # nothing above the battle size: the names under it may be the faction or detachments
            return None, tuple(self.below), tuple(self.below)
        # Nothing under the battle size: "Necrons / Awakened Dynasty" and "Space Marines / Space Wolves" look alike.
        return (self.above[-1] if self.above else None), (), tuple(self.above)

    def chosen_disposition(self) -> str | None:
        """The labelled choice, or else the one bare line under the last detachment line: newer exports write the
        player's Force Disposition there unlabelled. Bare lines between detachment lines are what each grants."""
        if self.disposition or len(self.after_counted) != 1:
            return self.disposition
        lines_above, name = self.after_counted[0]
        return name if lines_above == self.counted_lines else None
