"""The public model of a team event's matches, for the venue screen and the stream pages: each match of the round
being played with what its captains' pairing has revealed (never a sealed choice), its games' live VP and Battle
Points, and the team score against the margin it needs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.teams import event as teams
from bot.engine.teams.match import MODULE_NAMES, STEP_NAMES, Step
from bot.engine.teams.scoring import GAME_BP, MARGINS, battle_points, result_bp
from bot.store.tournament_repository import TournamentRecord
from bot.team_rounds import results_by_round
from bot.present.entrants import name_of

STEPS = {Step.DEFENDER: "Defenders", Step.ATTACKERS: "Attackers", Step.CHOICE: "Choosing Attackers",
         Step.LAYOUT: "Declaring layouts"}


def matches(record: TournamentRecord, games: Mapping[int, Any]) -> list[dict] | None:
    """`games`: the states of the round's table games, by game id (live VP). None for a singles event."""
    ev = record.state.teams
    if ev is None:
        return None
    current = next((r for r in reversed(ev.rounds) if r.published), None)
    if current is None:
        return []
    results = {r.table: r for r in record.state.event.rounds[current.number - 1].results}
    linked = {g.table: g.game_id for g in record.state.table_games if g.round_number == current.number}
    found = [_match(record, ev, pair, results, linked, games) for pair in current.matches]
    if current.bye is not None:
        found.append({"number": None, "teams": [ev.team(current.bye).name, None], "bye": True})
    return found


def _match(record: TournamentRecord, ev: teams.TeamEvent, pair: teams.TeamPair, results: Mapping[int, Any],
           linked: Mapping[int, int], games: Mapping[int, Any]) -> dict:
    match, size = pair.match, ev.rules.size
    revealed = [{"what": STEP_NAMES[r.step], "forced": r.forced,
                 "picks": [", ".join(p if p in ("A", "B", "C") else name_of(record, p) for p in picks)
                           for picks in r.picks]} for r in match.reveals]
    rows, bp = [], [0, 0]
    for table, game in zip(pair.tables, match.games):
        done, state = results.get(table), games.get(linked.get(table, -1))
        if done is not None:
            vp, got, status = [done.vp_a, done.vp_b], list(result_bp(done)), "done"
        elif state is not None:
            vp = [state.total_vp(p) for p in game.players]
            got, status = list(battle_points(*vp)), "playing"
        else:
            vp, got, status = [None, None], [None, None], "waiting"
        if got[0] is not None:
            bp = [bp[0] + got[0], bp[1] + got[1]]
        rows.append({"table": table, "names": [name_of(record, p) for p in game.players], "layout": game.layout,
                     "kind": game.kind.value, "vp": vp, "bp": got, "state": status})
    score = teams.match_score(ev, pair, results)
    module = match.current
    step = "Pairing complete" if match.done else f"{MODULE_NAMES[module]}: {STEPS[match.step]}"  # type: ignore[index]
    return {"number": pair.number, "teams": [ev.team(t).name for t in pair.teams], "bye": False, "step": step,
            "locked": [match.sealed[i] is not None for i in (0, 1)], "revealed": revealed, "games": rows,
            "bp": bp, "total": GAME_BP * size, "margin": MARGINS[size],
            "outcome": score.outcome.value if score.outcome else None}


def standings(record: TournamentRecord) -> list[dict] | None:
    ev = record.state.teams
    if ev is None:
        return None
    results = results_by_round(record)
    # In the venue screen's columns: the record, then Team Points where singles show opponents, then BP for VP.
    return [{"rank": rank, "name": ev.team(r.team).name, "army": None, "dropped": False,
             "record": f"{r.wins}-{r.losses}" + (f"-{r.draws}" if r.draws else ""), "opponents": f"{r.team_points} TP",
             "vp": r.bp} for rank, r in teams.standings(ev, results)]
