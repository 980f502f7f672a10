"""The armies of the current edition, as data: the battle sizes with their Detachment Point budget, factions,
detachments (each with its Force Disposition, its cost in Detachment Points and its type tags), units with their
points brackets and enhancements with their cost. Read from the compact extract of the 40kdc dataset
(bot/armies/data/40kdc.json, CC BY 4.0), which scripts/armies/regenerate.sh rebuilds from a pinned version of
the package; tests/armies/test_army_data.py holds it against that version.

Names as people type them are read with `bot.engine.names`: an id as autocomplete sends it, a name in any case, a
close typo ("space wolfs") when one name stands clearly first, or else a refusal naming the closest."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rapidfuzz import fuzz, process

from bot.engine.errors import GameError
from bot.engine.names import UnknownName, likeness, normalised, resolve

EXTRACT = Path(__file__).parent / "data" / "40kdc.json"
ACCEPT_TYPO = 85  # a typed name this alike (0-100) to one name, and clearly more than to any other, is that name
AHEAD_BY = 6
POINTS_LIMITS = {"incursion": 1000, "strike-force": 2000, "onslaught": 3000}
# What lists and players call a faction that the data names otherwise ("Space Marines" would otherwise read as a
# part of "Chaos Space Marines").
FACTION_ALIASES = {"space marines": "adeptus-astartes", "imperial agents": "agents-of-the-imperium"}


@dataclass(frozen=True)
class BattleSizeRules:
    """A battle size as the data gives it: its points limit and its Detachment Point budget (None: not given)."""

    id: str
    points: int | None
    detachment_points: int | None


@dataclass(frozen=True)
class Faction:
    id: str
    name: str
    parent: str | None
    provisional: bool


@dataclass(frozen=True)
class Detachment:
    """A detachment: the Force Disposition it grants, what it costs of the army's Detachment Point budget (1 to 3;
    None where the data has not set it) and its type tags (an army takes at most one detachment of a tag)."""

    id: str
    name: str
    faction: str
    disposition: str | None
    provisional: bool
    detachment_points: int | None = None
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Bracket:
    """A unit's cost for a size of it (`models` to `models_max`), while the army holds `copies_min` to `copies_max`
    (None: any more) units of that datasheet."""

    models: int
    models_max: int
    cost: int
    copies_min: int
    copies_max: int | None


@dataclass(frozen=True)
class Unit:
    id: str
    name: str
    faction: str
    brackets: tuple[Bracket, ...]
    provisional: bool


@dataclass(frozen=True)
class Enhancement:
    id: str
    name: str
    detachment: str
    cost: int


class ArmyData:
    """The extract, indexed. A faction's own detachments and units include its parent's: a Space Wolves army may
    take Adeptus Astartes detachments and datasheets."""

    def __init__(self, raw: dict) -> None:
        self.source: dict[str, str] = raw["source"]
        self.battle_sizes = {b["id"]: BattleSizeRules(**b) for b in raw.get("battle_sizes", [])}
        self.factions = {f["id"]: Faction(**f) for f in raw["factions"]}
        # Ids repeat across factions (each chapter's Gladius Task Force): keyed by (faction, id).
        self.detachments = {(d["faction"], d["id"]): Detachment(**{**d, "tags": tuple(d.get("tags", ()))})
                            for d in raw["detachments"]}
        self.dispositions = frozenset(d.disposition for d in self.detachments.values() if d.disposition)
        self._detachments_named: dict[str, list[Detachment]] = {}
        for d in self.detachments.values():
            self._detachments_named.setdefault(normalised(d.name), []).append(d)
        self.units = {(u["faction"], u["id"]): Unit(u["id"], u["name"], u["faction"],
                                                    tuple(Bracket(*b) for b in u["points"]), u["provisional"])
                      for u in raw["units"]}
        self.enhancements = {e["id"]: Enhancement(**e) for e in raw["enhancements"]}

    @property
    def version(self) -> str:
        return self.source["version"]

    @property
    def credit(self) -> str:
        return f"{self.source['credit']} · data version {self.version}"

    def detachment_budget(self, battle_size: str | None) -> int | None:
        """The Detachment Points an army of that battle size may spend; None where the data gives no budget."""
        found = self.battle_sizes.get(battle_size or "")
        return found.detachment_points if found else None

    def faction_name(self, faction: str) -> str:
        """The faction's name; an id this version of the data no longer has (a game stored earlier) as it is."""
        found = self.factions.get(faction)
        return found.name if found else faction

    def detachment_name(self, faction: str, detachment: str) -> str:
        """The detachment's name (a chapter's may be its parent's); an id the data no longer has as it is."""
        if faction in self.factions:
            for found in self.detachments_of(faction):
                if found.id == detachment:
                    return found.name
        return detachment

    def family(self, faction: str) -> tuple[str, ...]:
        """The faction and the one it belongs to (Space Wolves, then Adeptus Astartes)."""
        parent = self.factions[faction].parent
        return (faction, parent) if parent else (faction,)

    def detachments_of(self, faction: str) -> list[Detachment]:
        return _own_first([d for d in self.detachments.values() if d.faction in self.family(faction)], faction)

    def units_of(self, faction: str) -> list[Unit]:
        return _own_first([u for u in self.units.values() if u.faction in self.family(faction)], faction)

    def faction(self, typed: str) -> Faction:
        alias = FACTION_ALIASES.get(normalised(typed))
        if alias in self.factions:
            return self.factions[alias]
        return self.factions[forgiving(typed, {f.id: f.name for f in self.factions.values()}, "a faction")]

    def detachment(self, faction: str, typed: str) -> Detachment:
        name = self.factions[faction].name
        own = {d.id: d for d in self.detachments_of(faction)}
        return own[forgiving(typed, {d.id: d.name for d in own.values()}, f"a detachment of {name}")]

    def faction_of_detachment(self, typed: str) -> Faction | None:
        """The faction whose detachment is typed, when a list names its detachment and not its faction."""
        owners = self.owners_of_detachment(typed)
        return self.factions[owners[0]] if len(owners) == 1 else None

    def owners_of_detachment(self, typed: str) -> list[str]:
        """The factions (ids, sorted) with a detachment of exactly that name (any case and punctuation)."""
        return sorted({d.faction for d in self._detachments_named.get(normalised(typed), ())})

    def unit_choices(self, faction: str) -> dict[str, str]:
        return {u.id: u.name for u in self.units_of(faction)}


def _own_first(records: list, faction: str) -> list:
    """One record per id, the faction's own before its parent's (a chapter's Gladius Task Force)."""
    found: dict[str, object] = {}
    for record in sorted(records, key=lambda r: r.faction != faction):
        found.setdefault(record.id, record)
    return list(found.values())


def forgiving(typed: str, names: dict[str, str], what: str) -> str:
    """The id `typed` names (`bot.engine.names.resolve`), or the one name a typo is clearly closest to."""
    try:
        return resolve(typed, names.items(), what)
    except UnknownName:
        best = process.extract(normalised(typed), {k: normalised(v) for k, v in names.items()}, scorer=likeness,
                               limit=2)
        if best and best[0][1] >= ACCEPT_TYPO and (len(best) < 2 or best[0][1] - best[1][1] >= AHEAD_BY):
            return best[0][2]
        raise


def choices(typed: str, names: dict[str, str], limit: int) -> list[tuple[str, str]]:
    """(id, name) for autocomplete: names holding what was typed first, then the closest, at most `limit`."""
    key = normalised(typed)
    within = [(i, n) for i, n in names.items() if key in normalised(n)]
    within.sort(key=lambda pair: (not normalised(pair[1]).startswith(key), pair[1]))
    if len(within) < limit and key:
        seen = {i for i, _ in within}
        close = process.extract(key, {k: normalised(v) for k, v in names.items() if k not in seen},
                                scorer=fuzz.partial_ratio, limit=limit - len(within), score_cutoff=70)
        within += [(k, names[k]) for _, _, k in close]
    return within[:limit]


@cache
def army_data() -> ArmyData:
    try:
        return ArmyData(json.loads(EXTRACT.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError) as exc:  # a broken install: say which file
        raise GameError(f"The army data ({EXTRACT.name}) could not be read: {exc}") from exc
