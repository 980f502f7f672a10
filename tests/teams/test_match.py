"""The captains' pairing (bot/engine/teams/match.py): the modules each team size runs, every step secret until both
captains have chosen, refused Attackers back in the pool or facing each other, forced steps filled in, the layouts,
and every bad choice refused with nothing changed."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine.errors import InvalidValue, NotYourTurn
from bot.engine.teams.match import (
    GameKind, Module, Step, TeamMatch, choose, new_match, options, random_picks, secret_choices,
)


def pools(size: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(f"a{i}" for i in range(size)), tuple(f"b{i}" for i in range(size))


def play(match: TeamMatch, rng: random.Random) -> TeamMatch:
    while not match.done:
        for side in match.waiting_on():
            match = choose(match, side, random_picks(match, side, rng))
    return match


@pytest.mark.parametrize(("size", "modules", "games", "choices"), [
    (3, 1, 3, 2), (4, 2, 4, 3), (5, 2, 5, 5), (6, 3, 6, 6), (7, 3, 7, 8), (8, 4, 8, 9)])
def test_every_team_size_runs_its_modules_to_one_game_per_player(size: int, modules: int, games: int,
                                                                 choices: int) -> None:
    done = play(new_match(("A", "B"), pools(size), round_number=1), random.Random(size))
    assert len(done.modules) == modules and len(done.games) == games
    players = [p for game in done.games for p in game.players]
    assert sorted(players) == sorted(pools(size)[0] + pools(size)[1])  # everyone plays once
    assert all(g.players[0].startswith("a") and g.players[1].startswith("b") for g in done.games)
    assert secret_choices(done) == choices  # Defenders, Attackers and choices, forced steps left out
    assert all(g.layout in ("A", "B", "C") for g in done.games)


def test_eight_players_pair_in_three_rounds_of_choices_from_pools_of_eight_six_and_four() -> None:
    match, seen = new_match(("A", "B"), pools(8), round_number=2), []
    rng = random.Random(8)
    while not match.done:
        if match.step == Step.DEFENDER:
            seen.append((match.current, len(match.pools[0])))
        for side in match.waiting_on():
            match = choose(match, side, random_picks(match, side, rng))
    assert seen == [(Module.SKIRMISH, 8), (Module.SKIRMISH, 6), (Module.MAIN, 4)]
    assert [g.kind for g in match.games].count(GameKind.CHAMPION) == 1
    assert [g.layout for g in match.games if g.kind != GameKind.DEFENDER] == ["B", "B"]  # round 2: layout B


def test_a_choice_is_sealed_until_both_captains_are_in_then_revealed_together() -> None:
    match = new_match(("A", "B"), pools(5), round_number=1)
    one = choose(match, 0, ("a2",))
    assert one.reveals == () and one.defenders == (None, None) and one.sealed == (("a2",), None)
    assert one.waiting_on() == (1,)
    both = choose(one, 1, ("b4",))
    assert both.defenders == ("a2", "b4") and both.reveals[-1].picks == (("a2",), ("b4",))
    assert both.step == Step.ATTACKERS and both.sealed == (None, None)
    assert "a2" not in both.pools[0] and "b4" not in both.pools[1]


def test_refused_attackers_go_back_to_the_pool_in_a_skirmish_and_meet_in_the_main_engagement() -> None:
    match = new_match(("A", "B"), pools(5), round_number=3)
    for side, picks in ((0, ("a0",)), (1, ("b0",)), (0, ("a1", "a2")), (1, ("b1", "b2"))):
        match = choose(match, side, picks)
    assert options(match, 0) == ("b1", "b2")  # Team A's Defender picks among Team B's Attackers
    match = choose(choose(match, 0, ("b1",)), 1, ("a2",))
    assert [(g.players, g.defender) for g in match.games] == [(("a0", "b1"), "a0"), (("a2", "b0"), "b0")]
    assert sorted(match.pools[0]) == ["a1", "a3", "a4"] and sorted(match.pools[1]) == ["b2", "b3", "b4"]
    assert match.step == Step.LAYOUT
    match = choose(choose(match, 0, ("C",)), 1, ("A",))
    assert [g.layout for g in match.games] == ["C", "A"]
    # The Main Engagement from pools of three: the Attackers are forced, the refused pair play each other.
    match = choose(choose(match, 0, ("a1",)), 1, ("b3",))
    assert match.step == Step.CHOICE and match.reveals[-1].forced
    assert [sorted(a) for a in match.attackers] == [["a3", "a4"], ["b2", "b4"]]
    match = choose(choose(match, 0, ("b4",)), 1, ("a3",))
    refused = match.games[-1]
    assert refused.kind == GameKind.REFUSED and refused.players == ("a4", "b2") and refused.defender is None
    assert refused.layout == "C"  # round 3: layout C
    match = choose(choose(match, 0, ("B",)), 1, ("B",))
    assert match.done and len(match.games) == 5


def test_layouts_in_turn_show_the_first_defender_s_at_once() -> None:
    match = new_match(("A", "B"), pools(3), round_number=1, layouts_in_turn=True)
    match = choose(choose(match, 0, ("a0",)), 1, ("b0",))
    match = choose(choose(match, 0, ("b1",)), 1, ("a1",))
    assert match.step == Step.LAYOUT and match.waiting_on() == (0,)
    with pytest.raises(NotYourTurn, match="declares their layout first"):
        choose(match, 1, ("A",))
    match = choose(match, 0, ("B",))
    assert match.reveals[-1].picks == (("B",), ())  # shown before Team B's Defender declares
    match = choose(match, 1, ("A",))
    assert match.done and [g.layout for g in match.games] == ["B", "A", "A"]


@pytest.mark.parametrize(("side", "picks", "message"), [
    (0, ("b0",), "still in the pool"),  # a player of the other team
    (0, ("a0", "a1"), "exactly 1"),
    (0, ("zz",), "still in the pool"),  # nobody of the event
    (1, ("b1", "b1"), "each player once"),
])
def test_a_bad_choice_is_refused_and_changes_nothing(side: int, picks: tuple[str, ...], message: str) -> None:
    match = new_match(("A", "B"), pools(5), round_number=1)
    with pytest.raises(InvalidValue, match=message):
        choose(match, side, picks)


def test_a_choice_after_the_lock_and_a_player_already_used_are_refused() -> None:
    match = choose(new_match(("A", "B"), pools(5), round_number=1), 0, ("a0",))
    with pytest.raises(NotYourTurn, match="locked in"):
        choose(match, 0, ("a1",))
    match = choose(match, 1, ("b0",))
    with pytest.raises(InvalidValue, match="still in the pool"):
        choose(match, 0, ("a0", "a1"))  # the Defender cannot attack too
    with pytest.raises(InvalidValue, match="exactly 2"):
        choose(match, 0, ("a1",))


def test_sizes_out_of_range_are_refused() -> None:
    with pytest.raises(InvalidValue):
        new_match(("A", "B"), pools(2), round_number=1)
    with pytest.raises(InvalidValue):
        new_match(("A", "B"), (pools(5)[0], pools(4)[1]), round_number=1)


@given(st.integers(3, 8), st.integers(1, 6), st.randoms(use_true_random=False))
def test_any_run_of_choices_pairs_everyone_exactly_once(size: int, round_number: int, rng: random.Random) -> None:
    done = play(new_match(("A", "B"), pools(size), round_number=round_number), rng)
    assert sorted(p for g in done.games for p in g.players) == sorted(pools(size)[0] + pools(size)[1])
    assert done.pools == ((), ()) or all(len(p) == 0 for p in done.pools)
    assert all(g.kind != GameKind.DEFENDER or g.defender in g.players for g in done.games)
