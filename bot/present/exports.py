"""An event as CSV files to download, the same from every surface (`/tournament export`, the organiser's desk): the
standings and every result; a team event's team standings and each player's games with their Battle Points; every
judge call (the organisers' alone: it holds the callers' notes and the rulings)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from datetime import datetime

from bot.engine.teams import event as teams
from bot.engine.teams.scoring import result_bp
from bot.engine.tournament import event as tournament
from bot.present.entrants import factions_of, name_of, record_text
from bot.services.team_rounds import results_by_round, team_event
from bot.store.judge_models import JudgeCall
from bot.store.tournament_repository import TournamentRecord

# A result not decided by the score, as the standings note it: (for the winner, for the loser).
REASON_NOTES = {
    tournament.Reason.CONCESSION: ("won by concession", "conceded"),
    tournament.Reason.NO_SHOW: ("won by no-show", "no-show"),
    tournament.Reason.AS_ENTERED: ("as entered", "as entered"),
}


def exports(record: TournamentRecord, calls: Sequence[JudgeCall] | None = None) -> dict[str, str]:
    """Every file of the event by its name (tournament-<id>-<name>.csv); the calls' only when `calls` are given."""
    files = {"standings": standings_csv(record), "results": results_csv(record)}
    if record.state.teams is not None:
        files |= {"teams": team_standings_csv(record), "team-games": team_players_csv(record)}
    if calls is not None:
        files["calls"] = calls_csv(record, calls)
    return files


def result_notes(event: tournament.Tournament) -> dict[str, list[str]]:
    """Each player's games not decided by the score: 'R2 conceded', 'R3 won by no-show'."""
    notes: dict[str, list[str]] = {}
    for r in event.rounds:
        for res in sorted(r.results, key=lambda x: x.table):
            if res.reason not in REASON_NOTES:
                continue
            won, lost = REASON_NOTES[res.reason]
            loser = tournament.loser(res)
            for player in (res.a, res.b):
                assert player is not None  # a bye is decided by the score
                notes.setdefault(player, []).append(f"R{r.number} {lost if player == loser else won}")
    return notes


def list_columns(record: TournamentRecord, player: str | None) -> list[str | int]:
    """A player's list in a row: faction, detachments ("A + B" for several), points, flags; empty without one."""
    entry = record.state.lists.get(player or "")
    if entry is None:
        return ["", "", "", ""]
    army = entry.army
    return [army.faction_name, army.detachments_text, army.points if army.points is not None else "", entry.flags]


def partner_columns(record: TournamentRecord, entrant: str | None) -> list[str]:
    """A doubles pair's second player, id and name, after a row's columns (its `name` is the pair's: "A & B"); a
    singles event's rows have none, so its files read as they always did."""
    if not record.state.doubles:
        return []
    partner = record.state.partners.get(entrant or "")
    return [partner, name_of(record, partner)] if partner else ["", ""]


def standings_csv(record: TournamentRecord) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["rank", "player_id", "name", "record", "wins", "draws", "losses", "opponents_win_pct", "vp",
                     "path", "had_bye", "dropped", "notes", "faction", "detachment", "list_points", "list_flags",
                     *(["partner_id", "partner", "partner_faction", "partner_detachment", "partner_list_points",
                        "partner_list_flags"] if record.state.doubles else [])])
    notes = result_notes(record.state.event)
    for s in tournament.standings(record.state.event):
        partner = [*partner_columns(record, s.player), *list_columns(record, record.state.partners.get(s.player))]
        writer.writerow([s.rank, s.player, name_of(record, s.player), record_text(s.wins, s.draws, s.losses),
                         s.wins, s.draws, s.losses,
                         f"{s.opponents_win_pct:.2f}", s.vp, s.path, s.had_bye, s.dropped,
                         "; ".join(notes.get(s.player, ())), *list_columns(record, s.player),
                         *(partner if record.state.doubles else [])])
    return out.getvalue()


def results_csv(record: TournamentRecord) -> str:
    """Every game of every round, in table order; a bye is table 0 with no player B."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["round", "mission", "table", "player_a_id", "player_a", "player_b_id", "player_b",
                     "outcome", "vp_a", "vp_b", "reason", "faction_a", "faction_b",
                     *(["partner_a_id", "partner_a", "partner_b_id", "partner_b"] if record.state.doubles else [])])

    def faction(player: str | None) -> str:
        return (factions_of(record, player) if player else None) or ""

    for r in record.state.event.rounds:
        for res in sorted(r.results, key=lambda x: x.table):
            writer.writerow([r.number, r.mission or "", res.table, res.a, name_of(record, res.a), res.b or "",
                             name_of(record, res.b) if res.b else "", res.outcome.value, res.vp_a, res.vp_b,
                             res.reason.value, faction(res.a), faction(res.b),
                             *partner_columns(record, res.a), *partner_columns(record, res.b)])
    return out.getvalue()


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


def calls_csv(record: TournamentRecord, calls: Sequence[JudgeCall]) -> str:
    """Every call of the event: its table and round, who called and why, when it was raised, claimed and resolved,
    by whom, the ruling and the minutes it gave the table. Times are UTC, ISO 8601."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["call", "round", "table", "player_a_id", "player_a", "player_b_id", "player_b", "called_by_id",
                     "called_by", "note", "raised_at", "raised_again_at", "claimed_by_id", "claimed_by",
                     "claimed_at", "resolved_by_id", "resolved_by", "resolved_at", "ruling", "extra_minutes"])

    def stamp(moment: datetime | None) -> str:
        return moment.isoformat() if moment is not None else ""

    for call in calls:
        a, b = (call.player_ids + ("", ""))[:2]
        writer.writerow([call.id, call.round_number, call.table_number, a, name_of(record, a), b, name_of(record, b),
                         call.caller, name_of(record, call.caller), call.note or "", stamp(call.raised_at),
                         stamp(call.reraised_at), call.claimed_by or "", call.claimed_name or "",
                         stamp(call.claimed_at), call.resolved_by or "", call.resolved_name or "",
                         stamp(call.resolved_at), call.ruling or "", call.extra_minutes])
    return out.getvalue()
