"""The organiser's edits to a draft round, and the problems an edited draft shows."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.engine.errors import InvalidValue
from bot.engine.tournament.draft import Problem, draft_problems, move_table, pin_player, swap_players
from bot.engine.tournament.event import Outcome, Pairing, Pairings, Result, Round, Tournament, start_round
from bot.engine.tournament.rules import PairingRules
from tests.engine.test_tournament_pairing import simulate

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def seated(r: Round) -> Counter[str]:
    bye = [r.pairings.bye.a] if r.pairings.bye else []
    return Counter([p for x in r.pairings.tables for p in (x.a, x.b)] + bye)


def seat(r: Round, player: str) -> int | None:
    if r.pairings.bye and r.pairings.bye.a == player:
        return 0
    return next((x.table for x in r.pairings.tables if player in (x.a, x.b)), None)


edits = st.lists(st.tuples(st.sampled_from(["swap", "move", "pin"]), st.integers(0, 12), st.integers(0, 12)),
                 min_size=1, max_size=12)


@SETTINGS
@given(st.randoms(use_true_random=False), st.integers(2, 11), st.integers(0, 3), edits)
def test_edits_never_lose_or_duplicate_a_player_and_refusals_change_nothing(rnd, players, rounds, steps) -> None:
    t = simulate(rnd, players, rounds, 0.0, 0.1)
    r = start_round(t, rnd, published=False).rounds[-1]
    everyone = seated(r)
    names = sorted(everyone) + ["ghost"]
    for op, i, j in steps:
        before, snapshot = r, r.model_dump()
        p1, p2 = names[i % len(names)], names[j % len(names)]
        t1, t2 = i % (len(r.pairings.tables) + 2), j % (len(r.pairings.tables) + 2)  # table 0 and n + 1: none
        try:
            if op == "swap":
                r = swap_players(r, p1, p2)
                assert (seat(r, p1), seat(r, p2)) == (seat(before, p2), seat(before, p1))
            elif op == "move":
                r = move_table(r, t1, t2)
                assert [x.a for x in r.pairings.tables if x.table in (t1, t2)] == [
                    x.a for x in before.pairings.tables if x.table in (t2, t1)][::-1]
            else:
                r = pin_player(r, p1, t2)
                assert seat(r, p1) == t2
        except InvalidValue:
            assert r is before and r.model_dump() == snapshot
            event("refused")
            continue
        event("edited")
        assert seated(r) == everyone
        assert [x.table for x in r.pairings.tables] == list(range(1, len(r.pairings.tables) + 1))
        assert r.results == ((r.pairings.bye,) if r.pairings.bye else ()) and not r.published


def draft_of(*pairs: tuple[str, str], bye: str | None = None, number: int = 2) -> Round:
    result = None if bye is None else Result(round_number=number, table=0, a=bye, outcome=Outcome.A_WINS, vp_a=45)
    tables = tuple(Pairing(table=i, a=a, b=b) for i, (a, b) in enumerate(pairs, 1))
    return Round(number=number, pairings=Pairings(round_number=number, tables=tables, bye=result),
                 results=(result,) if result else (), published=False)


def test_swapping_two_players_exchanges_their_seats() -> None:
    r = draft_of(("a", "b"), ("c", "d"))
    swapped = swap_players(r, "a", "d")
    assert [(x.table, x.a, x.b) for x in swapped.pairings.tables] == [(1, "d", "b"), (2, "c", "a")]


def test_swapping_with_the_bye_moves_the_bye_and_its_result() -> None:
    r = draft_of(("a", "b"), ("c", "d"), bye="e")
    swapped = swap_players(r, "e", "c")
    assert [(x.a, x.b) for x in swapped.pairings.tables] == [("a", "b"), ("e", "d")]
    bye = swapped.pairings.bye
    assert bye is not None and (bye.a, bye.table, bye.vp_a, bye.outcome) == ("c", 0, 45, Outcome.A_WINS)
    assert swapped.results == (bye,)
    assert swap_players(swapped, "c", "e") == r


@pytest.mark.parametrize("p1, p2, message", [
    ("a", "a", r"^Pick two different players\.$"),
    ("a", "zed", r"^<@zed> is not in round 2's draft\.$"),
    ("zed", "a", r"^<@zed> is not in round 2's draft\.$"),
    ("b", "a", r"^<@b> and <@a> already play each other at table 1: swapping them would change nothing\.$"),
])
def test_a_swap_that_cannot_be_made_is_refused(p1: str, p2: str, message: str) -> None:
    with pytest.raises(InvalidValue, match=message):
        swap_players(draft_of(("a", "b"), ("c", "d"), bye="e"), p1, p2)


def test_moving_a_table_exchanges_two_table_numbers() -> None:
    r = draft_of(("a", "b"), ("c", "d"), ("e", "f"))
    moved = move_table(r, 3, 1)
    assert [(x.table, x.a) for x in moved.pairings.tables] == [(1, "e"), (2, "c"), (3, "a")]
    with pytest.raises(InvalidValue, match=r"^Round 2 has no table 4 \(tables 1-3\)\.$"):
        move_table(r, 1, 4)
    with pytest.raises(InvalidValue, match=r"^Pick two different tables\.$"):
        move_table(r, 2, 2)


def test_pinning_a_player_seats_their_table_there() -> None:
    r = draft_of(("a", "b"), ("c", "d"), ("e", "f"), bye="g")
    pinned = pin_player(r, "f", 1)
    assert [(x.table, x.a, x.b) for x in pinned.pairings.tables] == [(1, "e", "f"), (2, "c", "d"), (3, "a", "b")]
    assert pin_player(pinned, "e", 1) is pinned  # already there
    with pytest.raises(InvalidValue, match=r"^<@g> has the bye this round: there is no table to seat them at\.$"):
        pin_player(r, "g", 1)
    with pytest.raises(InvalidValue, match=r"^Round 2 has no table 0 \(tables 1-3\)\.$"):
        pin_player(r, "a", 0)
    with pytest.raises(InvalidValue, match=r"^<@x> is not in round 2's draft\.$"):
        pin_player(r, "x", 2)


def test_a_published_round_is_not_edited() -> None:
    r = draft_of(("a", "b"), ("c", "d")).model_copy(update={"published": True})
    for edit in (lambda: swap_players(r, "a", "c"), lambda: move_table(r, 1, 2), lambda: pin_player(r, "a", 2)):
        with pytest.raises(InvalidValue, match=r"^Round 2 is published: only a draft can be edited\.$"):
            edit()


# --- problems -----------------------------------------------------------------------------------------

PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank")


def played(number: int, *pairs: tuple[str, str]) -> Round:
    tables = tuple(Pairing(table=i, a=a, b=b) for i, (a, b) in enumerate(pairs, 1))
    results = tuple(Result(round_number=number, table=x.table, a=x.a, b=x.b, outcome=Outcome.A_WINS, vp_a=60, vp_b=40)
                    for x in tables)
    return Round(number=number, pairings=Pairings(round_number=number, tables=tables), results=results)


EVENT = Tournament(players=PLAYERS, rounds=(
    played(1, ("alice", "bob"), ("carol", "dave"), ("erin", "frank")),
    played(2, ("alice", "carol"), ("bob", "erin"), ("dave", "frank")),
))
DRAFT = draft_of(("alice", "bob"), ("carol", "erin"), ("dave", "frank"), number=3)
CLUBS = {"carol": "Iron Wolves", "erin": " iron wolves", "alice": "", "bob": ""}
PINS = {"alice": 1, "carol": 1}


def messages(problems: dict[int, list[Problem]]) -> dict[int, list[tuple[str, str]]]:
    return {table: [(p.kind, p.message) for p in found] for table, found in problems.items()}


def test_problems_name_each_rule_a_draft_table_breaks() -> None:
    rules = PairingRules(friendly_fire="every", fresh_tables=True)
    assert messages(draft_problems(EVENT, DRAFT, rules, CLUBS, PINS)) == {
        1: [("rematch", "<@alice> and <@bob> met in round 1"),
            ("repeat-table", "<@bob> played table 1 in round 1")],  # alice is pinned there: her table by right
        2: [("friendly-fire", "<@carol> and <@erin> are both of Iron Wolves"),
            ("repeat-table", "<@carol> played table 2 in round 1"),
            ("repeat-table", "<@erin> played table 2 in round 2"),
            ("pin", "<@carol> is pinned to table 1")],
        3: [("rematch", "<@dave> and <@frank> met in round 2"),
            ("repeat-table", "<@dave> played table 3 in round 2"),
            ("repeat-table", "<@frank> played table 3 in rounds 1 and 2")],
    }


def test_problems_follow_the_rules_of_the_event() -> None:
    pins_only = {2: [("pin", "<@carol> is pinned to table 1")]}
    rematches = {1: [("rematch", "<@alice> and <@bob> met in round 1")],
                 3: [("rematch", "<@dave> and <@frank> met in round 2")]}
    for rules in (None, PairingRules(), PairingRules(friendly_fire="first")):  # friendly fire "first": round 1 only
        assert messages(draft_problems(EVENT, DRAFT, rules, CLUBS, PINS)) == {**rematches, **pins_only}
    first_round = draft_of(("carol", "erin"), ("alice", "bob"), number=1)
    assert messages(draft_problems(Tournament(players=PLAYERS), first_round, PairingRules(friendly_fire="first"),
                                   CLUBS)) == {1: [("friendly-fire", "<@carol> and <@erin> are both of Iron Wolves")]}
    assert draft_problems(Tournament(players=PLAYERS), first_round) == {}


def test_an_edit_clears_the_problem_it_fixes() -> None:
    rules = PairingRules(fresh_tables=True)
    pinned = pin_player(DRAFT, "carol", 1)  # carol and erin to table 1, alice and bob to table 2
    found = messages(draft_problems(EVENT, pinned, rules, CLUBS, {"carol": 1}))
    assert 1 not in found  # carol played table 1 in round 2, but she is pinned there
    assert found[2] == [("rematch", "<@alice> and <@bob> met in round 1"),
                        ("repeat-table", "<@bob> played table 2 in round 2")]
    swapped = swap_players(DRAFT, "erin", "frank")  # no more club pair at table 2 nor rematch at table 3
    assert messages(draft_problems(EVENT, swapped, PairingRules(friendly_fire="every"), CLUBS)) == {
        1: [("rematch", "<@alice> and <@bob> met in round 1")]}


def test_a_round_trip_through_start_round_with_rules_then_edits_keeps_everyone() -> None:
    t = simulate(random.Random(3), 9, 2, 0.0, 0.0)
    clubs = {p: "Ravens" if i % 2 else "Crows" for i, p in enumerate(t.players)}
    rules = PairingRules(friendly_fire="every", fresh_tables=True)
    draft = start_round(t, random.Random(4), rules=rules, clubs=clubs, published=False).rounds[-1]
    problems = draft_problems(t, draft, rules, clubs)
    assert all(p.kind in ("rematch", "friendly-fire", "repeat-table", "pin") for found in problems.values()
               for p in found)
    players = seated(draft)
    bye = draft.pairings.bye
    assert bye is not None
    edited = swap_players(draft, bye.a, draft.pairings.tables[0].a)
    assert seated(edited) == players
