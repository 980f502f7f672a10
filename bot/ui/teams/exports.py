"""A team event's CSV exports: the team standings, and each player's games with their Battle Points and team."""

from __future__ import annotations

import csv
import io

from bot.engine.teams import event as teams
from bot.engine.teams.scoring import result_bp
from bot.present.entrants import name_of
from bot.store.tournament_repository import TournamentRecord
from bot.services.team_rounds import results_by_round, team_event


def team_standings_csv(record: TournamentRecord) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["rank", "team_id", "team", "captain_id", "team_points", "wins", "draws", "losses",
                     "game_wins", "battle_points", "had_bye", "members"])
    ev = team_event(record)
    for rank, r in teams.standings(ev, results_by_round(record)):
        team = ev.team(r.team)
        writer.writerow([rank, team.id, team.name, team.captain, r.team_points, r.wins, r.draws, r.losses,
                         r.game_wins, r.bp, r.had_bye, " ".join(team.members)])
    return out.getvalue()


def team_players_csv(record: TournamentRecord) -> str:
    """Every game of every team match: round, match, table, each player with their team, VP and BP."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["round", "match", "table", "kind", "layout", "player_id", "player", "team", "vp", "bp",
                     "opponent_id", "opponent", "opponent_team", "opponent_vp", "opponent_bp"])
    ev, results = team_event(record), results_by_round(record)
    for r in ev.rounds:
        for pair in r.matches:
            names = [ev.team(t).name for t in pair.teams]
            for table, game in zip(pair.tables, pair.match.games):
                result = results.get(r.number, {}).get(table)
                vp = (result.vp_a, result.vp_b) if result else ("", "")
                bp = result_bp(result) if result else ("", "")
                one, two = game.players
                writer.writerow([r.number, pair.number, table, game.kind.value, game.layout or "", one,
                                 name_of(record, one), names[0], vp[0], bp[0], two, name_of(record, two), names[1],
                                 vp[1], bp[1]])
    return out.getvalue()
