"""Selecting secondary objectives (Grand Tournament 2020, step 7): each player secretly selects three, no more than
one from each category, from the pack's list, the mission's own objective, or their Codex."""

from __future__ import annotations

from bot.engine.errors import InvalidValue
from bot.engine.gt2020.catalog import GrandTournament, Mission
from bot.engine.models import settled

CODEX = "codex"  # a secondary from the player's Codex: not in the pack, named by the player when revealed
MAX_CODEX_NAME = 80


def options(pack: GrandTournament, mission: Mission) -> list[tuple[str, str, str]]:
    """(id, name, category name) of everything a player may select in this mission."""
    listed = [(s.id, s.name, pack.category(settled(s.category)).name) for s in pack.secondaries]
    own = mission.secondary
    return [*listed, (own.id, own.name, f"{mission.name}'s own objective"),
            (CODEX, "A secondary from my Codex", "named when revealed")]


def check_selection(pack: GrandTournament, mission: Mission, picks: list[str]) -> tuple[str, ...]:
    """The selection as the pack allows it, or InvalidValue saying why not. A mission's own objective and a
    Codex one have no category the pack's text gives, so no other pick can clash with them."""
    wanted = pack.pack.secondaries_selected
    if len(picks) != wanted or len(set(picks)) != wanted:
        raise InvalidValue(f"Select {wanted} different secondary objectives.")
    known = {o[0] for o in options(pack, mission)}
    if unknown := [p for p in picks if p not in known]:
        raise InvalidValue(f"{unknown[0]!r} is not a secondary objective of this mission.")
    seen: dict[str, str] = {}
    for secondary in (s for s in pack.secondaries if s.id in picks):
        category_id = settled(secondary.category)
        if category_id in seen:
            category = pack.category(category_id).name
            raise InvalidValue(f"{seen[category_id]} and {secondary.name} are both {category}: select no more "
                               "than one from each category.")
        seen[category_id] = secondary.name
    return tuple(p for p in picks)
