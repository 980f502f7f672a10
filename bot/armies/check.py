"""A parsed list (bot/armies/lists/) held against the army data: its faction and detachments found, each unit
matched to a datasheet (an unknown one gets a suggestion, one of another faction is named so), the total recomputed
from the data's points brackets, the detachments' Detachment Points held to the battle size's budget and their type
tags to one detachment a tag, the Force Disposition the list records held to those its detachments grant, and what
differs flagged. A flag never refuses a list: the data may lag a points update, so the player and the organiser see
the flags and decide."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from pydantic import BaseModel, ConfigDict

from bot.armies.data import POINTS_LIMITS, ArmyData, Bracket, Detachment, Faction, army_data
from bot.armies.lists import ListError, ParsedList, parse_file, parse_text
from bot.engine.errors import GameError
from bot.engine.models import Army
from bot.engine.names import normalised, ranked

MAX_DETACHMENTS = 12  # an army fields three at most; more names than this are not read
_JOINED_PARTS = 4  # a detachment whose own name holds "and" or commas, parted by the reader, is joined from so many


class CheckedUnit(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str  # as the list wrote it
    datasheet: str | None  # the unit's id in the data; None: not found
    models: int
    points: int | None  # as listed
    data_points: int | None  # the data's, enhancements included
    enhancements: tuple[str, ...] = ()
    warlord: bool = False


class CheckedList(BaseModel):
    """What is kept of a list: enough to show it, count it and flag it, whatever format it came in. Lists kept
    before the army took several detachments read with the fields added since at their defaults."""

    model_config = ConfigDict(frozen=True)

    format: str
    name: str | None
    faction: str
    faction_name: str
    detachment: str | None  # the first of `detachments`
    detachment_name: str | None
    # The Force Disposition chosen: the one the list records if its detachments grant it, else the one they grant
    # when they grant one only; None: the player has still to choose among `dispositions`.
    disposition: str | None
    battle_size: str | None
    points_stated: int | None
    points: int  # recomputed from the data
    limit: int | None
    units: tuple[CheckedUnit, ...]
    flags: tuple[str, ...] = ()
    data_version: str
    detachments: tuple[str, ...] = ()  # every detachment of the army found, as ids, in the list's order
    detachment_names: tuple[str, ...] = ()
    dispositions: tuple[str, ...] = ()  # the Force Dispositions those detachments grant, as ids
    detachment_points: int | None = None  # what they cost; None: no detachment found
    detachment_budget: int | None = None  # what the battle size allows; None: not stated, or the data gives none


def check_list(parsed: ParsedList, data: ArmyData, *, faction: str | None = None,
               detachment: str | None = None) -> CheckedList:
    """The list checked; `faction` and `detachment` (typed by the player) win over what the list names. Raises
    ListError only when no faction can be told (nothing to count the units against)."""
    parsed = _placed(parsed, data)
    names = _joined(parsed.detachments[:MAX_DETACHMENTS], data)
    found = _faction(parsed, names, data, faction)
    flags: list[str] = []
    chosen, disposition_line = _detachments(names, data, found, detachment, flags)
    if not parsed.detachments and not detachment:
        flags.append("The list names no detachment.")
    detachment_points, budget = _detachment_points(chosen, parsed, data, flags)
    _tags(chosen, flags)
    dispositions = tuple(dict.fromkeys(d.disposition for d in chosen if d.disposition))
    disposition = _disposition(parsed.disposition or disposition_line, dispositions, data, flags)
    own = {normalised(u.name): u for u in data.units_of(found.id)}
    others = {normalised(u.name): data.factions[u.faction].name for u in data.units.values()
              if u.faction not in data.family(found.id)}
    chosen_ids = {d.id for d in chosen}
    enhancements = {normalised(e.name): e.cost for e in data.enhancements.values()
                    if not chosen or e.detachment in chosen_ids}
    copies: Counter[str] = Counter()
    units = []
    for listed in parsed.units:
        key = normalised(listed.name)
        unit = own.get(key)
        if unit is None:
            if key in others:
                flags.append(f"{listed.name} is a unit of {others[key]}, not of {found.name}.")
            else:
                names_of = {u.id: u.name for u in own.values()}
                near = ranked(listed.name, names_of, 1)
                hint = f" Did you mean {names_of[near[0]]}?" if near else ""
                flags.append(f"{listed.name} is not a {found.name} datasheet in the army data.{hint}")
            units.append(CheckedUnit(name=listed.name, datasheet=None, models=listed.models, points=listed.points,
                                     data_points=None, enhancements=listed.enhancements, warlord=listed.warlord))
            continue
        copies[unit.id] += 1
        cost = _cost(unit.brackets, listed.models, copies[unit.id])
        if cost is None:
            flags.append(f"{listed.name}: {listed.models} models is not a size the army data prices.")
        extra = 0
        for name in listed.enhancements:
            price = enhancements.get(normalised(name))
            if price is None:
                flags.append(f"{name} is not an enhancement of {_either([d.name for d in chosen]) or found.name}.")
            else:
                extra += price
        units.append(CheckedUnit(name=listed.name, datasheet=unit.id, models=listed.models, points=listed.points,
                                 data_points=None if cost is None else cost + extra,
                                 enhancements=listed.enhancements, warlord=listed.warlord))
    total = sum(u.data_points or u.points or 0 for u in units)
    limit = parsed.points_limit or POINTS_LIMITS.get(parsed.battle_size or "")
    if parsed.points_stated is not None and parsed.points_stated != total:
        flags.append(f"The list states {parsed.points_stated} points; the army data counts {total}.")
    if limit is not None and max(total, parsed.points_stated or 0) > limit:
        flags.append(f"{max(total, parsed.points_stated or 0)} points is over the {limit}-point limit.")
    if any(own[normalised(u.name)].provisional for u in units if u.datasheet):
        flags.append("Some of these points are provisional in the army data.")
    first = chosen[0] if chosen else None
    return CheckedList(
        format=parsed.format, name=parsed.name, faction=found.id, faction_name=found.name,
        detachment=first.id if first else None, detachment_name=first.name if first else None,
        disposition=disposition, battle_size=parsed.battle_size,
        points_stated=parsed.points_stated, points=total, limit=limit, units=tuple(units),
        flags=tuple(dict.fromkeys(flags)), data_version=data.version,
        detachments=tuple(d.id for d in chosen), detachment_names=tuple(d.name for d in chosen),
        dispositions=dispositions, detachment_points=detachment_points, detachment_budget=budget)


def _placed(parsed: ParsedList, data: ArmyData) -> ParsedList:
    """The list with the header lines its reader could not place (faction or detachment?) placed by the data: the
    most specific line naming a faction is the faction, and the lines after it are detachments. A line naming a
    detachment exactly is never the faction (nor is the list's faction, where it names one)."""
    lines = parsed.faction_or_detachment
    if not lines:
        if parsed.faction and data.owners_of_detachment(parsed.faction) and _as_faction(parsed.faction, data) is None:
            # "Necrons / Awakened Dynasty / Strike Force / Take and Hold": the last line above is the detachment
            return replace(parsed, faction=None, detachments=(parsed.faction, *parsed.detachments))
        return parsed
    for index in range(len(lines) - 1, -1, -1):
        if not data.owners_of_detachment(lines[index]) and _as_faction(lines[index], data) is not None:
            return replace(parsed, faction=lines[index], detachments=lines[index + 1:])
    return replace(parsed, faction=None, detachments=lines)


def _joined(names: tuple[str, ...], data: ArmyData) -> list[str]:
    """The detachment names with the parts of one name joined again: a reader parts "Legends of Saga and Song" (one
    detachment) as it parts "A and B" (two), and only the data can tell."""
    out: list[str] = []
    at = 0
    while at < len(names):
        for end in range(min(len(names), at + _JOINED_PARTS), at + 1, -1):
            # "A and B" or "A, B": the data's names are compared without their punctuation
            whole = next((joined for glue in (" and ", ", ") if data.owners_of_detachment(joined := glue.join(
                names[at:end]))), None)
            if whole is not None:
                out.append(whole)
                at = end
                break
        else:
            out.append(names[at])
            at += 1
    return out


def _as_faction(written: str | None, data: ArmyData) -> Faction | None:
    for candidate in _faction_names(written):
        try:
            return data.faction(candidate)
        except GameError:
            continue
    return None


def _faction(parsed: ParsedList, names: list[str], data: ArmyData, typed: str | None) -> Faction:
    if typed:
        return data.faction(typed)
    found = _as_faction(parsed.faction, data)
    if found is not None:
        return found
    for name in names:
        owner = data.faction_of_detachment(name)
        if owner is not None:
            return owner
    raise ListError("I could not tell this list's faction: name it with `faction:`.")


def _faction_names(written: str | None) -> list[str]:
    """'Imperium - Adeptus Astartes - Space Wolves' -> the most specific part first, then the whole."""
    if not written:
        return []
    parts = [p.strip() for p in written.replace("–", "-").split(" - ") if p.strip()]
    return [*reversed(parts), written] if len(parts) > 1 else [written]


def _detachments(names: list[str], data: ArmyData, faction: Faction, typed: str | None,
                 flags: list[str]) -> tuple[list[Detachment], str | None]:
    """The army's detachments, each once, in the list's order, and a Force Disposition written among them (a layout
    whose disposition line reads as one more detachment). A name of another faction's detachment, or of none, is
    flagged and left out."""
    if typed:
        return typed_detachments(data, faction.id, typed), None
    own: dict[str, Detachment] = {}
    for d in data.detachments_of(faction.id):  # the faction's own before its parent's
        own.setdefault(normalised(d.name), d)
    family = data.family(faction.id)
    chosen: list[Detachment] = []
    disposition = None
    for name in names:
        found = own.get(normalised(name))
        if found is None:
            owners = [o for o in data.owners_of_detachment(name) if o not in family]
            if owners:
                # a chapter's copy of a parent's detachment is the parent's
                owners = [o for o in owners if data.factions[o].parent not in owners]
                flags.append(f"{name} is a detachment of {_either([data.faction_name(o) for o in owners[:3]])}, "
                             f"not of {faction.name}.")
                continue
            if disposition is None and _slug(name) in data.dispositions:
                disposition = name
                continue
            try:
                found = data.detachment(faction.id, name)
            except GameError:
                flags.append(f"{name} is not a detachment of {faction.name} in the army data.")
                continue
        if found not in chosen:
            chosen.append(found)
    return chosen, disposition


def _detachment_points(chosen: list[Detachment], parsed: ParsedList, data: ArmyData,
                       flags: list[str]) -> tuple[int | None, int | None]:
    """What the detachments cost in Detachment Points, and the battle size's budget (the size the list states, or
    the one its points limit is); over the budget is flagged."""
    size = parsed.battle_size or next((b.id for b in data.battle_sizes.values()
                                       if parsed.points_limit and b.points == parsed.points_limit), None)
    budget = data.detachment_budget(size)
    spent = sum(d.detachment_points or 0 for d in chosen) if chosen else None
    if budget is not None and spent is not None and spent > budget:
        name = (size or "").replace("-", " ").title()
        flags.append(f"The detachments cost {spent} Detachment Points; {name} allows {budget}.")
    return spent, budget


def _tags(chosen: list[Detachment], flags: list[str]) -> None:
    """An army takes at most one detachment of each type tag."""
    for tag in sorted({tag for d in chosen for tag in d.tags}):
        sharing = [d.name for d in chosen if tag in d.tags]
        if len(sharing) > 1:
            flags.append(f"{_both(sharing)} are {'both' if len(sharing) == 2 else 'all'} {tag} detachments: an army "
                         "may take only one.")


def _disposition(written: str | None, granted: tuple[str, ...], data: ArmyData, flags: list[str]) -> str | None:
    """The Force Disposition chosen: the one the list records, if its detachments grant it (a name the data does not
    know, as in a French list, is set aside); else the one they grant when they grant one only."""
    recorded = _slug(written) if written else None
    if recorded in data.dispositions:
        if recorded in granted or not granted:
            return recorded
        flags.append(f"The list's Force Disposition, {written}, is not one its detachments grant.")
    return granted[0] if len(granted) == 1 else None


def _slug(name: str) -> str:
    """'Take and Hold' -> 'take-and-hold', the data's id for it."""
    return normalised(name).replace(" ", "-")


def _either(names: list[str]) -> str:
    return f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else "".join(names)


def _both(names: list[str]) -> str:
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _cost(brackets: tuple[Bracket, ...], models: int, copy: int) -> int | None:
    """The bracket's cost for this size of unit and this copy of the datasheet (the third costs more)."""
    for b in brackets:
        if b.models <= models <= b.models_max and b.copies_min <= copy <= (b.copies_max or copy):
            return b.cost
    # A character or vehicle listed with its wargear as "models" still costs its one bracket.
    sized = [b for b in brackets if b.copies_min <= copy <= (b.copies_max or copy)]
    return sized[0].cost if len(sized) == 1 else None


def typed_detachments(data: ArmyData, faction: str, typed: str) -> list[Detachment]:
    """The detachments a player typed: one name, or several parted by commas, "and" or "+" ("Pantheon of Woe and
    Skyshroud Spearhead", as autocomplete writes them "pantheon-of-woe, skyshroud-spearhead"), each read forgivingly
    and each once. A name that holds "and" itself (Legends of Saga and Song) is one detachment. Raises GameError
    naming a part that names no detachment of the faction."""
    parts = [_bare(part) for part in TYPED_SEPARATOR.split(typed)]
    parts = [part for part in parts if part]
    if len(parts) > 1 and not data.owners_of_detachment(typed):
        names = _joined(tuple(parts[:MAX_DETACHMENTS]), data)
    else:
        names = [_bare(typed)] if _bare(typed) else []
    found: list[Detachment] = []
    for name in names:
        detachment = data.detachment(faction, name)
        if detachment not in found:
            found.append(detachment)
    return found


TYPED_SEPARATOR = re.compile(r"\s*,\s*|\s+and\s+|\s*\+\s*", re.IGNORECASE)


def _bare(name: str) -> str:
    """A typed detachment without what autocomplete's label adds ("Saga of the Hunter · Disruption")."""
    return name.split(" · ", 1)[0].strip()


def army_from(data: ArmyData, faction: str, detachment: str | None, checked: CheckedList | None = None,
              list_id: int | None = None) -> Army:
    """The army a player typed (names read forgivingly, several detachments parted by commas or "and"), or the one
    their checked list names. Its Force Disposition is the one its detachments grant, or among several the one the
    list records; with several and none recorded it is left to choose (`Army.dispositions`)."""
    if checked is not None and not faction:
        faction = checked.faction
    found = data.faction(faction)
    typed = typed_detachments(data, found.id, detachment) if detachment else []
    recorded = checked.disposition if checked is not None and checked.faction == found.id else None
    if typed:
        ids, names = tuple(d.id for d in typed), tuple(d.name for d in typed)
        granted = tuple(dict.fromkeys(d.disposition for d in typed if d.disposition))
    elif checked is not None and checked.faction == found.id:
        # the list's detachments name the army; its disposition is the one the list's detachments settle
        ids = checked.detachments or ((checked.detachment,) if checked.detachment else ())
        names = checked.detachment_names or ((checked.detachment_name,) if checked.detachment_name else ())
        granted = checked.dispositions or ((checked.disposition,) if checked.disposition else ())
    else:
        ids, names, granted = (), (), ()
    disposition = granted[0] if len(granted) == 1 else recorded if recorded in granted else None
    return Army(faction=found.id, faction_name=found.name, detachment=ids[0] if ids else None,
                detachment_name=names[0] if names else None, disposition=disposition,
                points=checked.points if checked else None, list_id=list_id,
                more_detachments=ids[1:], more_detachment_names=names[1:],
                dispositions=granted if len(granted) > 1 else ())


def read_list(text: str | None = None, *, file: tuple[str, bytes] | None = None, faction: str | None = None,
              detachment: str | None = None) -> tuple[str, CheckedList]:
    """A pasted or attached list, parsed and checked: (the text kept, the checked list). ListError: unreadable."""
    parsed = parse_file(*file) if file is not None else parse_text(text or "")
    kept = text if file is None else _text_of_file(*file)
    return kept or "", check_list(parsed, army_data(), faction=faction or None, detachment=detachment or None)


def _text_of_file(name: str, data: bytes) -> str:
    """What `/army show`'s full list gives for a file: the text itself, or for a roster its name (the units are
    kept, checked, beside it)."""
    if name.lower().endswith((".rosz", ".ros")):
        return f"(from {name})"
    for encoding in ("utf-8-sig", "latin-1"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return ""
