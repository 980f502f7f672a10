"""A parsed list (bot/armies/lists/) held against the army data: its faction and detachment found, each unit
matched to a datasheet (an unknown one gets a suggestion, one of another faction is named so), the total recomputed
from the data's points brackets, and what differs flagged. A flag never refuses a list: the data may lag a points
update, so the player and the organiser see the flags and decide."""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, ConfigDict

from bot.armies.data import POINTS_LIMITS, ArmyData, Bracket, Detachment, Faction, army_data
from bot.armies.lists import ListError, ParsedList, parse_file, parse_text
from bot.engine.errors import GameError
from bot.engine.models import Army
from bot.engine.names import normalised, ranked


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
    """What is kept of a list: enough to show it, count it and flag it, whatever format it came in."""

    model_config = ConfigDict(frozen=True)

    format: str
    name: str | None
    faction: str
    faction_name: str
    detachment: str | None
    detachment_name: str | None
    disposition: str | None
    battle_size: str | None
    points_stated: int | None
    points: int  # recomputed from the data
    limit: int | None
    units: tuple[CheckedUnit, ...]
    flags: tuple[str, ...] = ()
    data_version: str


def check_list(parsed: ParsedList, data: ArmyData, *, faction: str | None = None,
               detachment: str | None = None) -> CheckedList:
    """The list checked; `faction` and `detachment` (typed by the player) win over what the list names. Raises
    ListError only when no faction can be told (nothing to count the units against)."""
    found = _faction(parsed, data, faction)
    flags: list[str] = []
    chosen = _detachment(parsed, data, found, detachment, flags)
    own = {normalised(u.name): u for u in data.units_of(found.id)}
    others = {normalised(u.name): data.factions[u.faction].name for u in data.units.values()
              if u.faction not in data.family(found.id)}
    enhancements = {normalised(e.name): e.cost for e in data.enhancements.values()
                    if chosen is None or e.detachment == chosen.id}
    copies: Counter[str] = Counter()
    units = []
    for listed in parsed.units:
        key = normalised(listed.name)
        unit = own.get(key)
        if unit is None:
            if key in others:
                flags.append(f"{listed.name} is a unit of {others[key]}, not of {found.name}.")
            else:
                names = {u.id: u.name for u in own.values()}
                near = ranked(listed.name, names, 1)
                hint = f" Did you mean {names[near[0]]}?" if near else ""
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
                flags.append(f"{name} is not an enhancement of {chosen.name if chosen else found.name}.")
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
    return CheckedList(
        format=parsed.format, name=parsed.name, faction=found.id, faction_name=found.name,
        detachment=chosen.id if chosen else None, detachment_name=chosen.name if chosen else None,
        disposition=chosen.disposition if chosen else None, battle_size=parsed.battle_size,
        points_stated=parsed.points_stated, points=total, limit=limit, units=tuple(units),
        flags=tuple(dict.fromkeys(flags)), data_version=data.version)


def _faction(parsed: ParsedList, data: ArmyData, typed: str | None) -> Faction:
    if typed:
        return data.faction(typed)
    for candidate in _faction_names(parsed.faction):
        try:
            return data.faction(candidate)
        except GameError:
            continue
    for name in parsed.detachments:
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


def _detachment(parsed: ParsedList, data: ArmyData, faction: Faction, typed: str | None,
                flags: list[str]) -> Detachment | None:
    if typed:
        return data.detachment(faction.id, typed)
    for name in parsed.detachments:
        try:
            return data.detachment(faction.id, name)
        except GameError:
            flags.append(f"{name} is not a detachment of {faction.name} in the army data.")
    if not parsed.detachments:
        flags.append("The list names no detachment.")
    return None


def _cost(brackets: tuple[Bracket, ...], models: int, copy: int) -> int | None:
    """The bracket's cost for this size of unit and this copy of the datasheet (the third costs more)."""
    for b in brackets:
        if b.models <= models <= b.models_max and b.copies_min <= copy <= (b.copies_max or copy):
            return b.cost
    # A character or vehicle listed with its wargear as "models" still costs its one bracket.
    sized = [b for b in brackets if b.copies_min <= copy <= (b.copies_max or copy)]
    return sized[0].cost if len(sized) == 1 else None


def army_from(data: ArmyData, faction: str, detachment: str | None, checked: CheckedList | None = None,
              list_id: int | None = None) -> Army:
    """The army a player typed (names read forgivingly), or the one their checked list names."""
    if checked is not None and not faction:
        faction = checked.faction
    found = data.faction(faction)
    chosen = data.detachment(found.id, detachment) if detachment else None
    if chosen is None and checked is not None and checked.faction == found.id and checked.detachment:
        chosen = data.detachment(found.id, checked.detachment)
    return Army(faction=found.id, faction_name=found.name, detachment=chosen.id if chosen else None,
                detachment_name=chosen.name if chosen else None, disposition=chosen.disposition if chosen else None,
                points=checked.points if checked else None, list_id=list_id)


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
