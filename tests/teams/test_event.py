"""A team event's teams, rosters, pairing and standings (bot/engine/teams/event.py)."""

from __future__ import annotations

import random

import pytest

from bot.engine.errors import InvalidValue
from bot.engine.teams import event as teams
from bot.engine.teams.match import choose, random_picks
from bot.engine.teams.scoring import MatchOutcome
from bot.engine.tournament.ranking import Outcome, Result


def event(size: int = 5, n: int = 4, **rules) -> teams.TeamEvent:
    ev = teams.TeamEvent(rules=teams.TeamRules(size=size, **rules))
    for t in range(n):
        members = [f"{t}-{i}" for i in range(size)]
        ev = teams.add_team(ev, f"Team {t}", members[0], members)
    return ev


def test_a_team_is_registered_with_its_captain_and_members_and_checked() -> None:
    ev = teams.TeamEvent(rules=teams.TeamRules(size=3))
    ev = teams.add_team(ev, "  Iron   Hands ", "c", ["x"])
    [team] = ev.teams
    assert (team.name, team.captain, team.members) == ("Iron Hands", "c", ("c", "x"))
    with pytest.raises(InvalidValue, match="already a team called"):
        teams.add_team(ev, "iron hands", "d", [])
    with pytest.raises(InvalidValue, match="already plays for Iron Hands"):
        teams.add_team(ev, "Other", "d", ["x"])
    with pytest.raises(InvalidValue, match="3 players"):
        teams.add_member(teams.add_member(ev, team.id, "y"), team.id, "z")
    ev = teams.replace_member(teams.add_member(ev, team.id, "y"), team.id, "c", "n")
    assert ev.teams[0].captain == "n" and ev.teams[0].members == ("n", "x", "y")  # the new member captains
    ev = teams.set_leaders(ev, team.id, "x", "y")
    assert (ev.teams[0].captain, ev.teams[0].stand_in) == ("x", "y")
    with pytest.raises(InvalidValue, match="lead their own team"):
        teams.set_leaders(ev, team.id, "zz", None)


def test_roster_problems_name_who_breaks_which_rule() -> None:
    ev = event(size=5, n=1)
    team = ev.teams[0]
    armies = {p: (f"F{i}", f"D{i}") for i, p in enumerate(team.members)}
    assert teams.roster_problems(ev, team, armies) == []
    armies[team.members[1]] = ("F0", "D1")  # two of one faction keyword
    armies[team.members[2]] = ("F2", "D0")  # a disposition twice in a team of five
    problems = teams.roster_problems(ev, team, armies)
    assert any(f"<@{team.members[0]}> and <@{team.members[1]}> both field F0" in p for p in problems)
    assert any("uses D0 2 times" in p for p in problems)
    eight = event(size=8, n=1)
    armies = {p: (f"F{i}", f"D{i % 5}") for i, p in enumerate(eight.teams[0].members)}
    assert teams.roster_problems(eight, eight.teams[0], armies) == []  # eight: each disposition up to twice
    short = teams.remove_member(ev, team.id, team.members[-1])
    assert any("has 4 of its 5 players" in p for p in teams.roster_problems(short, short.teams[0], {}))


def test_rosters_are_fixed_once_round_one_is_paired() -> None:
    ev = event(n=2)
    ev = ev.model_copy(update={"rounds": (teams.pair_teams(ev, teams.team_records(ev, {}), 1, random.Random(1)),)})
    with pytest.raises(InvalidValue, match="fixed once round 1"):
        teams.add_team(ev, "Late", "z", [])


def played(ev: teams.TeamEvent, number: int, winners: dict[str, int], rng: random.Random
           ) -> tuple[teams.TeamEvent, dict[int, Result]]:
    """Pair round `number`, run every captains' pairing, and record each game: a winner's team takes it 30-10."""
    r = teams.pair_teams(ev, teams.team_records(ev, {}), number, rng).model_copy(update={"published": True})
    results, matches = {}, []
    for pair in r.matches:
        match = pair.match
        while not match.done:
            for side in match.waiting_on():
                match = choose(match, side, random_picks(match, side, rng))
        first = (pair.number - 1) * ev.rules.size + 1
        tables = tuple(range(first, first + len(match.games)))
        matches.append(pair.model_copy(update={"match": match, "tables": tables}))
        for table, game in zip(tables, match.games):
            a_wins = winners.get(pair.teams[0], 0) >= winners.get(pair.teams[1], 0)
            results[table] = Result(round_number=number, table=table, a=game.players[0], b=game.players[1],
                                    outcome=Outcome.A_WINS if a_wins else Outcome.B_WINS,
                                    vp_a=30 if a_wins else 10, vp_b=10 if a_wins else 30)
    return ev.model_copy(update={"rounds": (*ev.rounds, r.model_copy(update={"matches": tuple(matches)}))}), results


def test_a_match_scores_battle_points_and_team_points() -> None:
    ev, results = played(event(n=2), 1, {"1": 1}, random.Random(3))
    [pair] = ev.rounds[0].matches
    score = teams.match_score(ev, pair, results)
    side = pair.teams.index("1")
    assert score.complete and score.bp[side] == 5 * 13 and score.bp[1 - side] == 5 * 7
    assert score.outcome == (MatchOutcome.WIN if side == 0 else MatchOutcome.LOSS)
    records = teams.team_records(ev, {1: results})
    assert (records["1"].team_points, records["1"].game_wins, records["1"].bp) == (3, 5, 65)
    assert (records["2"].team_points, records["2"].losses) == (1, 1)
    partial = {t: r for t, r in results.items() if t != min(results)}
    assert not teams.match_score(ev, pair, partial).complete  # a game still to play: no outcome yet


def test_teams_are_paired_by_team_points_without_rematches_and_an_odd_field_has_one_bye_each() -> None:
    ev = event(size=3, n=5)
    rng = random.Random(7)
    byes, all_results = [], {}
    for number in (1, 2, 3, 4, 5):
        records = teams.team_records(ev, all_results)
        r = teams.pair_teams(ev, records, number, rng).model_copy(update={"published": True})
        met = {frozenset(p.teams) for old in ev.rounds for p in old.matches}
        if number <= 4:  # five teams meet each other once in five rounds, with a bye each
            assert not met & {frozenset(p.teams) for p in r.matches}
        if number > 1:  # the leaders meet: the pairing follows Team Points
            top = max(records.values(), key=lambda rec: rec.team_points).team
            assert top == r.bye or any(top in p.teams for p in r.matches)
        byes.append(r.bye)
        ev = ev.model_copy(update={"rounds": (*ev.rounds, r)})
    assert sorted(byes) == ["1", "2", "3", "4", "5"]  # never twice while another can take it


def test_standings_rank_by_team_points_then_game_wins_then_battle_points() -> None:
    ev = event(size=3, n=3)
    a, b, c = (teams.TeamRecord(team=t, team_points=6, game_wins=w, bp=bp) for t, w, bp in
               (("1", 4, 70), ("2", 5, 60), ("3", 4, 75)))
    assert [r.team for r in sorted((a, b, c), key=teams._rank_key)] == ["2", "3", "1"]
    ranked = teams.standings(ev, {})
    assert [rank for rank, _ in ranked] == [1, 1, 1]  # nothing played: all equal


def test_a_bye_scores_as_the_organiser_set() -> None:
    for bye, points in ((MatchOutcome.WIN, 3), (MatchOutcome.DRAW, 2), (MatchOutcome.LOSS, 1)):
        ev = event(size=5, n=3, bye=bye)
        r = teams.pair_teams(ev, teams.team_records(ev, {}), 1, random.Random(2)).model_copy(
            update={"published": True})
        ev = ev.model_copy(update={"rounds": (r,)})
        record = teams.team_records(ev, {})[r.bye]
        assert record.team_points == points and record.had_bye and record.game_wins == 0
    assert teams.team_records(event(size=5, n=3), {}) != {}
