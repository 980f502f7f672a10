"""The organiser's edits to a draft round before it is published, and what an edited draft breaks.

Edits exchange seats or table numbers, so every player of the draft stays seated exactly once. A refused edit
raises `InvalidValue` and leaves the round as it was. The draft's `rematches` and `pair_downs` keep counting the
draw the engine made; `draft_problems` says what the edited draft breaks, table by table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from bot.engine.errors import InvalidValue
from bot.engine.models import Frozen
from bot.engine.tournament.event import Round, Tournament, tables_played
from bot.engine.tournament.pairing import Pairing
from bot.engine.tournament.rules import PairingRules, avoids_clubs, club_key

ProblemKind = Literal["rematch", "friendly-fire", "repeat-table", "pin"]


class Problem(Frozen):
    kind: ProblemKind
    message: str


def swap_players(r: Round, p1: str, p2: str) -> Round:
    """Exchange two players' seats: at two tables, or a table's and the bye (the bye's result follows it)."""
    _draft(r)
    if p1 == p2:
        raise InvalidValue("Pick two different players.")
    t1, t2 = _table_of(r, p1), _table_of(r, p2)
    if t1 == t2:
        raise InvalidValue(f"<@{p1}> and <@{p2}> already play each other at table {t1}: swapping them would change "
                           "nothing.")
    other = {p1: p2, p2: p1}

    def seat(p: str) -> str:
        return other.get(p, p)

    tables = tuple(x.model_copy(update={"a": seat(x.a), "b": seat(x.b)}) for x in r.pairings.tables)
    bye = r.pairings.bye
    if bye is not None:
        bye = bye.model_copy(update={"a": seat(bye.a)})
    results = tuple(bye if res.table == 0 and bye is not None else res for res in r.results)
    return r.model_copy(update={"pairings": r.pairings.model_copy(update={"tables": tables, "bye": bye}),
                                "results": results})


def move_table(r: Round, table: int, to_table: int) -> Round:
    """Exchange the table numbers of two tables."""
    _draft(r)
    for t in (table, to_table):
        _has_table(r, t)
    if table == to_table:
        raise InvalidValue("Pick two different tables.")
    number = {table: to_table, to_table: table}
    tables = sorted((x.model_copy(update={"table": number.get(x.table, x.table)}) for x in r.pairings.tables),
                    key=lambda x: x.table)
    return r.model_copy(update={"pairings": r.pairings.model_copy(update={"tables": tuple(tables)})})


def pin_player(r: Round, player: str, table: int) -> Round:
    """Seat `player`'s pair at `table`, by exchanging its number with the pair's; already there, nothing changes."""
    _draft(r)
    _has_table(r, table)
    current = _table_of(r, player)
    if current == 0:
        raise InvalidValue(f"<@{player}> has the bye this round: there is no table to seat them at.")
    return r if current == table else move_table(r, current, table)


def draft_problems(
    t: Tournament, r: Round, rules: PairingRules | None = None, clubs: Mapping[str, str] | None = None,
    pins: Mapping[str, int] | None = None,
) -> dict[int, list[Problem]]:
    """Table number -> what its pairing breaks: a rematch (always), players of one club (when the rules keep
    clubs apart this round), a table a player sat at before (with fresh tables; a pinned player at their own
    table excepted: their pin asks for it), a pinned player elsewhere than their table (always)."""
    earlier = [past for past in t.rounds if past.number < r.number]
    met: dict[frozenset[str], list[int]] = {}
    for past in earlier:
        for res in past.results:
            if res.b is not None:
                met.setdefault(frozenset((res.a, res.b)), []).append(past.number)
    played = tables_played(earlier) if rules is not None and rules.fresh_tables else {}
    apart = avoids_clubs(rules, r.number)
    clubs, pins = clubs or {}, pins or {}
    problems: dict[int, list[Problem]] = {}
    for x in r.pairings.tables:
        found: list[Problem] = []
        if rounds := met.get(frozenset((x.a, x.b))):
            found.append(Problem(kind="rematch", message=f"<@{x.a}> and <@{x.b}> met in {_rounds(rounds)}"))
        if apart and club_key(clubs.get(x.a)) and club_key(clubs.get(x.a)) == club_key(clubs.get(x.b)):
            found.append(Problem(kind="friendly-fire",
                                 message=f"<@{x.a}> and <@{x.b}> are both of {clubs[x.a].strip()}"))
        for p in (x.a, x.b):
            if (rounds := played.get(p, {}).get(x.table)) and pins.get(p) != x.table:
                found.append(Problem(kind="repeat-table", message=f"<@{p}> played table {x.table} in {_rounds(rounds)}"))
        for p in (x.a, x.b):
            if p in pins and pins[p] != x.table:
                found.append(Problem(kind="pin", message=f"<@{p}> is pinned to table {pins[p]}"))
        if found:
            problems[x.table] = found
    return problems


def _rounds(numbers: list[int]) -> str:
    """'round 2', 'rounds 1 and 3', 'rounds 1, 2 and 4'."""
    if len(numbers) == 1:
        return f"round {numbers[0]}"
    return "rounds " + ", ".join(str(n) for n in numbers[:-1]) + f" and {numbers[-1]}"


def _draft(r: Round) -> None:
    if r.published:
        raise InvalidValue(f"Round {r.number} is published: only a draft can be edited.")


def _table_of(r: Round, player: str) -> int:
    """The player's table in the draft; 0 for the bye."""
    if r.pairings.bye is not None and r.pairings.bye.a == player:
        return 0
    found: Pairing | None = next((x for x in r.pairings.tables if player in (x.a, x.b)), None)
    if found is None:
        raise InvalidValue(f"<@{player}> is not in round {r.number}'s draft.")
    return found.table


def _has_table(r: Round, table: int) -> None:
    if not any(x.table == table for x in r.pairings.tables):
        raise InvalidValue(f"Round {r.number} has no table {table} (tables 1-{len(r.pairings.tables)}).")
