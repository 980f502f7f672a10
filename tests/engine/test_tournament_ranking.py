"""Records, standings and result entry of a Swiss event."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.errors import InvalidValue
from bot.engine.tournament.event import (
    Outcome,
    Reason,
    Result,
    Tournament,
    add_player,
    drop_player,
    record_result,
    records,
    standings,
    start_round,
)
from bot.engine.tournament.ranking import PlayerRecord, player_records, rank

W, B, D = Outcome.A_WINS, Outcome.B_WINS, Outcome.DRAW


def game(rnd: int, table: int, a: str, b: str, outcome: Outcome, vp_a: int = 50, vp_b: int | None = None) -> Result:
    """A game decided by the score; unless told, the winner scored 10VP more."""
    if vp_b is None:
        vp_b = vp_a + {W: -10, B: 10, D: 0}[outcome]
    return Result(round_number=rnd, table=table, a=a, b=b, outcome=outcome, vp_a=vp_a, vp_b=vp_b)


def bye(rnd: int, a: str, vp: int = 45) -> Result:
    return Result(round_number=rnd, table=0, a=a, outcome=W, vp_a=vp)


# --- property: the order follows record, then opponents' win percentage, then VP -----------------------


@st.composite
def finished_events(draw: st.DrawFn) -> Tournament:
    rnd = draw(st.randoms(use_true_random=False))
    t = Tournament(bye_vp=draw(st.integers(0, 100)))
    for i in range(draw(st.integers(2, 24))):
        t = add_player(t, f"p{i:02d}")
    for _ in range(draw(st.integers(1, 5))):
        t = start_round(t, rnd)
        for x in t.rounds[-1].pairings.tables:
            vp_a, vp_b = draw(st.integers(0, 4)) * 25, draw(st.integers(0, 4)) * 25  # coarse: ties happen
            conceded = draw(st.sampled_from([None, W, B]))  # a concession stands whatever the VP
            t = record_result(t, x.table, conceded, vp_a, vp_b, Reason.CONCESSION if conceded else Reason.SCORE)
        if len(t.players) - len(t.dropped) > 3 and draw(st.booleans()):
            t = drop_player(t, draw(st.sampled_from([p for p in t.players if p not in t.dropped])))
    return t


def merit_from_results(t: Tournament) -> dict[str, tuple]:
    """(score, wins, -losses), opponents' win percentage, VP, recomputed straight from the results."""
    results = [r for rnd in t.rounds for r in rnd.results]
    games: dict[str, list[tuple[str | None, str, int]]] = {p: [] for p in t.players}  # (opponent, W/D/L, VP)
    for r in results:
        letter_a = {W: "W", B: "L", D: "D"}[r.outcome]
        games[r.a].append((r.b, letter_a, r.vp_a))
        if r.b is not None:
            games[r.b].append((r.a, {"W": "L", "L": "W", "D": "D"}[letter_a], r.vp_b))

    def rate(p: str) -> Fraction:
        g = games[p]
        return Fraction(sum({"W": 2, "D": 1, "L": 0}[x] for _, x, _ in g), 2 * len(g)) if g else Fraction(0)

    merit = {}
    for p, g in games.items():
        wins, draws, losses = (sum(x == c for _, x, _ in g) for c in "WDL")
        opponents = [o for o, _, _ in g if o is not None]  # a bye adds no opponent
        owp = sum((rate(o) for o in opponents), Fraction(0)) / len(opponents) if opponents else Fraction(0)
        merit[p] = ((2 * wins + draws, wins, -losses), owp, sum(vp for _, _, vp in g))
    return merit


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(finished_events())
def test_standings_follow_record_then_opponents_win_percentage_then_vp(t: Tournament) -> None:
    merit = merit_from_results(t)
    table = standings(t)
    assert sorted(s.player for s in table) == sorted(t.players)  # dropped players keep their place
    keys = [(merit[s.player], s.player) for s in table]
    assert keys == sorted(keys, key=lambda k: (tuple(-x for x in k[0][0]), -k[0][1], -k[0][2], k[1]))
    for s in table:
        assert s.rank == 1 + sum(merit[o] > merit[s.player] for o in t.players)  # shared only on a full tie
        assert s.opponents_win_pct == round(float(merit[s.player][1]) * 100, 2)
        assert (s.wins, s.draws, s.losses) == (
            merit[s.player][0][1],
            merit[s.player][0][0] - 2 * merit[s.player][0][1],
            -merit[s.player][0][2],
        )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(finished_events())
def test_records_fold_every_result_and_byes_add_no_opponent(t: Tournament) -> None:
    recs = records(t)
    results = [r for rnd in t.rounds for r in rnd.results]
    for p, r in recs.items():
        mine = [x for x in results if p in (x.a, x.b)]
        assert len(r.path) == r.wins + r.draws + r.losses == len(mine)
        assert len(r.opponents) == sum(x.b is not None for x in mine)
        assert r.had_bye == any(x.b is None and x.a == p for x in mine)
        assert r.dropped == (p in t.dropped)
    assert Tournament.model_validate_json(t.model_dump_json()) == t  # the store persists it as JSON


# --- focused cases ------------------------------------------------------------------------------------


def test_vp_decides_when_record_and_opponents_win_percentage_tie() -> None:
    # a and d finish 2-1, each having faced b (1-2), c (1-2) and the other: both 4/9. d scored more VP.
    results = [
        game(1, 1, "a", "b", W), game(1, 2, "c", "d", W),
        game(2, 1, "a", "c", W), game(2, 2, "d", "b", W),
        game(3, 1, "b", "c", W), game(3, 2, "d", "a", W, vp_a=90, vp_b=10),
    ]
    table = rank("abcd", results)
    assert [(s.player, s.rank) for s in table[:2]] == [("d", 1), ("a", 2)]
    assert table[0].opponents_win_pct == table[1].opponents_win_pct == pytest.approx(100 * 4 / 9, abs=0.01)


def test_opponents_win_percentage_outranks_vp() -> None:
    # x and y both 1-0; x beat a player who then won, y beat a player who then lost. y scored more VP.
    results = [
        game(1, 1, "x", "p", W, vp_a=40), game(1, 2, "y", "q", W, vp_a=90),
        game(2, 1, "p", "q", W), game(2, 2, "x", "y", D),
    ]
    table = rank(["x", "y", "p", "q"], results)
    assert [s.player for s in table[:2]] == ["x", "y"]
    assert table[0].vp < table[1].vp


def test_players_share_a_rank_only_when_every_criterion_ties() -> None:
    results = [game(1, 1, "a", "b", D, 50, 50), game(1, 2, "c", "d", D, 50, 50)]
    table = rank("dcba", results)
    assert [s.player for s in table] == ["a", "b", "c", "d"]  # player id only orders the list
    assert [s.rank for s in table] == [1, 1, 1, 1]
    results[1] = game(1, 2, "c", "d", D, 49, 49)
    assert [s.rank for s in rank("dcba", results)] == [1, 1, 3, 3]


def test_a_bye_is_a_win_with_the_events_bye_vp_and_no_opponent() -> None:
    recs = player_records("abc", [game(1, 1, "a", "b", W), bye(1, "c", vp=45)])
    assert recs["c"].record == (1, 0, 0) and recs["c"].path == "W" and recs["c"].vp == 45
    assert recs["c"].opponents == () and recs["c"].had_bye
    table = rank("abc", [game(1, 1, "a", "b", W), bye(1, "c", vp=45)])
    assert next(s for s in table if s.player == "c").opponents_win_pct == 0


def test_a_draw_is_half_a_win_and_wins_break_an_equal_score() -> None:
    def key(wins: int, draws: int, losses: int) -> tuple[int, int, int]:
        return PlayerRecord(player="p", wins=wins, draws=draws, losses=losses).record_key

    assert key(1, 1, 0) > key(1, 0, 1) > key(0, 2, 0) > key(0, 1, 1) > key(0, 0, 2)


def test_results_for_unknown_players_are_refused() -> None:
    with pytest.raises(InvalidValue, match="<@zz> is not registered"):
        player_records("ab", [game(1, 1, "a", "zz", W)])


def test_malformed_results_cannot_be_built() -> None:
    with pytest.raises(ValueError):
        Result(round_number=1, table=0, a="a", outcome=B, vp_a=0)  # a bye is a win
    with pytest.raises(ValueError):
        Result(round_number=1, table=2, a="a", outcome=W, vp_a=0)  # a real table needs two players
    with pytest.raises(ValueError):
        game(1, 1, "a", "a", W)


# --- result entry -------------------------------------------------------------------------------------


def event(players: int = 5, bye_vp: int = 60) -> Tournament:
    t = Tournament(bye_vp=bye_vp)
    for i in range(players):
        t = add_player(t, f"{i}")
    return start_round(t, random.Random(1))


def test_recording_a_result_updates_the_standings_and_can_be_corrected() -> None:
    t = event()
    x = t.rounds[-1].pairings.tables[0]
    t = record_result(t, 1, "a_wins", 70, 30)
    assert records(t)[x.a].record == (1, 0, 0) and records(t)[x.b].record == (0, 0, 1)
    t = record_result(t, 1, Outcome.B_WINS, 30, 70)  # the organiser corrects a mistake
    assert records(t)[x.a].record == (0, 0, 1) and records(t)[x.a].vp == 30
    assert len(t.rounds[-1].results) == 2  # the bye and table 1, once


def test_the_bye_is_recorded_when_the_round_is_paired() -> None:
    t = event(players=5, bye_vp=60)
    given_bye = t.rounds[-1].pairings.bye
    assert given_bye is not None and t.rounds[-1].results == (given_bye,)
    r = records(t)[given_bye.a]
    assert (r.record, r.vp, r.path, r.had_bye) == ((1, 0, 0), 60, "W", True)


@pytest.mark.parametrize(
    ("table", "outcome", "vp_a", "vp_b", "message"),
    [
        (9, W, 50, 50, "Round 1 has no table 9 .tables 1-2"),
        (1, "win", 50, 50, "Unknown outcome 'win'"),
        (1, W, 101, 50, "VP must be between 0 and 100; got 101"),
        (1, W, 50, -1, "VP must be between 0 and 100; got -1"),
    ],
)
def test_bad_results_are_refused_and_change_nothing(table, outcome, vp_a, vp_b, message) -> None:
    t = event()
    with pytest.raises(InvalidValue, match=message):
        record_result(t, table, outcome, vp_a, vp_b)
    assert t.rounds[-1].results == (t.rounds[-1].pairings.bye,)


@pytest.mark.parametrize(
    ("outcome", "vp_a", "vp_b", "message"),
    [
        (W, 40, 80, "40–80 is a win for <@{b}>, not a win for <@{a}>"),
        (W, 50, 50, "50–50 is a draw, not a win for <@{a}>"),
        (B, 80, 40, "80–40 is a win for <@{a}>, not a win for <@{b}>"),
        (B, 0, 0, "0–0 is a draw, not a win for <@{b}>"),
        (D, 61, 60, "61–60 is a win for <@{a}>, not a draw"),
        (D, 60, 61, "60–61 is a win for <@{b}>, not a draw"),
    ],
)
def test_an_outcome_that_contradicts_the_vp_is_refused(outcome, vp_a, vp_b, message) -> None:
    t = event()
    x = t.rounds[-1].pairings.tables[0]
    with pytest.raises(InvalidValue, match=message.format(a=x.a, b=x.b)) as refused:
        record_result(t, x.table, outcome, vp_a, vp_b)
    assert "the player with more VP wins and equal VP is a draw" in refused.value.message
    assert t.rounds[-1].results == (t.rounds[-1].pairings.bye,)


@given(st.integers(0, 100), st.integers(0, 100))
def test_the_vp_decide_the_outcome(vp_a: int, vp_b: int) -> None:
    t = event()
    expected = W if vp_a > vp_b else B if vp_b > vp_a else D
    for given_outcome in (None, expected, expected.value):  # left out, or stated in agreement
        [result] = [r for r in record_result(t, 1, given_outcome, vp_a, vp_b).rounds[-1].results if r.table == 1]
        assert (result.outcome, result.reason) == (expected, Reason.SCORE)


@given(st.sampled_from([Reason.CONCESSION, Reason.NO_SHOW, "concession", "no_show"]), st.sampled_from([W, B]),
       st.integers(0, 100), st.integers(0, 100))
def test_a_concession_or_a_no_show_stands_whatever_the_vp(reason, winner: Outcome, vp_a: int, vp_b: int) -> None:
    t = record_result(event(), 1, winner, vp_a, vp_b, reason)
    [result] = [r for r in t.rounds[-1].results if r.table == 1]
    assert (result.outcome, result.reason, result.vp_a, result.vp_b) == (winner, Reason(reason), vp_a, vp_b)
    x = t.rounds[-1].pairings.tables[0]
    winner_id, loser_id = (x.a, x.b) if winner == W else (x.b, x.a)
    assert records(t)[winner_id].record == (1, 0, 0) and records(t)[loser_id].record == (0, 0, 1)
    assert records(t)[x.a].vp == vp_a and records(t)[x.b].vp == vp_b  # the VP still count for the standings


@pytest.mark.parametrize(
    ("outcome", "reason", "message"),
    [
        (None, Reason.CONCESSION, "A concession has a winner"),
        (D, Reason.CONCESSION, "A concession has a winner"),
        (None, Reason.NO_SHOW, "A no-show has a winner"),
        (D, "no_show", "A no-show has a winner"),
        (W, Reason.AS_ENTERED, "Unknown reason 'as_entered'"),  # only results stored before reasons
        (W, "forfeit", "Unknown reason 'forfeit'"),
    ],
)
def test_a_concession_or_a_no_show_needs_a_winner(outcome, reason, message) -> None:
    t = event()
    with pytest.raises(InvalidValue, match=message):
        record_result(t, 1, outcome, 30, 30, reason)
    assert t.rounds[-1].results == (t.rounds[-1].pairings.bye,)


def test_a_result_decided_by_the_score_cannot_contradict_it() -> None:
    with pytest.raises(ValueError, match="follows from its VP"):
        game(1, 1, "a", "b", W, 40, 80)
    with pytest.raises(ValueError, match="has a winner"):
        Result(round_number=1, table=1, a="a", b="b", outcome=D, vp_a=1, vp_b=1, reason=Reason.NO_SHOW)
    with pytest.raises(ValueError, match="a bye is a win"):
        Result(round_number=1, table=0, a="a", outcome=W, vp_a=1, reason=Reason.CONCESSION)
    kept = Result(round_number=1, table=1, a="a", b="b", outcome=D, vp_a=40, vp_b=80, reason=Reason.AS_ENTERED)
    assert player_records("ab", [kept])["a"].record == (0, 1, 0)  # a stored result keeps its outcome


def test_no_result_before_the_first_round() -> None:
    with pytest.raises(InvalidValue, match="No round has been paired yet"):
        record_result(Tournament(players=("a", "b")), 1, W, 50, 50)


def test_registration_and_drops_are_checked() -> None:
    t = add_player(Tournament(), "1")
    with pytest.raises(InvalidValue, match="<@1> is already registered"):
        add_player(t, "1")
    with pytest.raises(InvalidValue, match="<@2> is not registered in this event"):
        drop_player(t, "2")
    t = drop_player(t, "1")
    with pytest.raises(InvalidValue, match="<@1> has already dropped"):
        drop_player(t, "1")
    assert records(t)["1"].dropped
