"""The public model of a team event's matches, for every surface: the match's board in Discord, the venue screen
and the stream pages. Each match of the round being played with what its captains' pairing has revealed (never a
sealed choice), its games (with their live VP where the surface has the games' states) and Battle Points, and the
team score against the margin it needs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.teams import event as teams
from bot.engine.teams.match import MODULE_NAMES, STEP_NAMES, GameKind, TeamMatch
from bot.engine.teams.scoring import GAME_BP, MARGINS, battle_points, result_bp
from bot.present.entrants import name_of
from bot.store.tournament_repository import TournamentRecord
from bot.services.team_rounds import results_by_round, round_results, team_event

KINDS = {GameKind.DEFENDER: "", GameKind.REFUSED: " (refused pair: roll-off for the roles)",
         GameKind.CHAMPION: " (Champions: roll-off for the roles)"}


def team_name(record: TournamentRecord, team_id: str) -> str:
    return team_event(record).team(team_id).name


def step_title(match: TeamMatch) -> str:
    """'Initial Skirmish 2: Attackers', 'Main Engagement: Layouts', 'Pairing complete'."""
    if match.done:
        return "Pairing complete"
    module = match.current
    assert module is not None
    number = f" {match.modules[:match.module + 1].count(module)}" if match.modules.count(module) > 1 else ""
    return f"{MODULE_NAMES[module]}{number}: {STEP_NAMES[match.step]}"


def pick_name(record: TournamentRecord, pick: str) -> str:
    """A pick as shown once revealed: a player's name, or a layout's letter."""
    return pick if pick in ("A", "B", "C") else name_of(record, pick)


def matches(record: TournamentRecord, games: Mapping[int, Any]) -> list[dict] | None:
    """`games`: the states of the round's table games, by game id (live VP). None for a singles event."""
    ev = record.state.teams
    if ev is None:
        return None
    current = next((r for r in reversed(ev.rounds) if r.published), None)
    if current is None:
        return []
    found = [match(record, current.number, pair, games) for pair in current.matches]
    if current.bye is not None:
        found.append({"number": None, "teams": [ev.team(current.bye).name, None], "bye": True})
    return found


def match(record: TournamentRecord, round_number: int, pair: teams.TeamPair, games: Mapping[int, Any]) -> dict:
    """One match of round `round_number`; `games`: the states of its table games by game id (live VP), or none."""
    ev = team_event(record)
    results = round_results(record, round_number)
    linked = {g.table: g.game_id for g in record.state.table_games if g.round_number == round_number}
    match, size = pair.match, ev.rules.size
    revealed = [{"what": STEP_NAMES[r.step], "forced": r.forced,
                 "picks": [" and ".join(pick_name(record, p) for p in picks) for picks in r.picks]}
                for r in match.reveals]
    score = teams.match_score(ev, pair, results)  # the reported games' BP
    rows, bp = [], list(score.bp)
    vp: list[int] | list[None]
    got: list[int] | list[None]
    for table, game in zip(pair.tables, match.games):
        done, state = results.get(table), games.get(linked.get(table, -1))
        if done is not None:
            order = 1 if done.a == game.players[0] else -1  # as match_score reads it: the game's sides in order
            vp, got, status = [done.vp_a, done.vp_b][::order], list(result_bp(done))[::order], "done"
        elif state is not None:
            vp = [state.total_vp(p) for p in game.players]
            got, status = list(battle_points(*vp)), "playing"
            bp = [bp[0] + got[0], bp[1] + got[1]]  # live, on top of the reported ones
        else:
            vp, got, status = [None, None], [None, None], "waiting"
        rows.append({"table": table, "names": [name_of(record, p) for p in game.players], "layout": game.layout,
                     "kind": game.kind.value, "note": KINDS[game.kind], "vp": vp, "bp": got, "state": status})
    return {"number": pair.number, "teams": [ev.team(t).name for t in pair.teams], "bye": False,
            "step": step_title(match), "locked": [match.sealed[i] is not None for i in (0, 1)],
            "revealed": revealed, "games": rows, "bp": bp, "reported": score.played, "total": GAME_BP * size,
            "margin": MARGINS[size], "outcome": score.outcome.value if score.outcome else None}


def standings(record: TournamentRecord) -> list[dict] | None:
    ev = record.state.teams
    if ev is None:
        return None
    results = results_by_round(record)
    # In the venue screen's columns: the record, then Team Points where singles show opponents, then BP for VP.
    return [{"rank": rank, "name": ev.team(r.team).name, "army": None, "dropped": False,
             "record": f"{r.wins}-{r.losses}" + (f"-{r.draws}" if r.draws else ""), "opponents": f"{r.team_points} TP",
             "vp": r.bp} for rank, r in teams.standings(ev, results)]
