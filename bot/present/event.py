"""The public model of an event for the venue screen: the published round, its clock, each table's live VP and the
standings. A draft round the organiser is still reviewing is not shown."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.tournament import event as tournament
from bot.present.entrants import factions_of, name_of, record_text
from bot.present.teams import matches as team_matches
from bot.present.teams import standings as team_standings
from bot.store.tournament_repository import TournamentRecord


def current_round(record: TournamentRecord) -> tournament.Round | None:
    return next((r for r in reversed(record.state.event.rounds) if r.published), None)


def table_games(record: TournamentRecord) -> dict[int, int]:
    """The games of the published round, by table number."""
    current = current_round(record)
    if current is None:
        return {}
    return {link.table: link.game_id for link in record.state.table_games if link.round_number == current.number}


def model(record: TournamentRecord, games: Mapping[int, Any], *, now_ms: int) -> dict:
    """`games`: the states of the round's table games, by game id (the live VP of a game not over yet)."""
    current = current_round(record)
    played = current.number if current else 0
    clock = record.state.clock
    ends = clock.ends_at * 1000 if clock is not None and clock.round_number == played else None

    pairings = []
    vp: list[int] | list[None]
    if current is not None:
        results = {r.table: r for r in current.results}
        linked = table_games(record)
        for pairing in current.pairings.tables:
            state = games.get(linked.get(pairing.table, -1))
            done = results.get(pairing.table)
            if done is not None:
                vp, status = [done.vp_a, done.vp_b], "done"
            elif state is not None:
                vp, status = [state.total_vp(pairing.a), state.total_vp(pairing.b)], "playing"
            else:
                vp, status = [None, None], "waiting"
            pairings.append({"table": pairing.table, "names": [name_of(record, pairing.a), name_of(record, pairing.b)],
                             "armies": [factions_of(record, pairing.a), factions_of(record, pairing.b)],
                             "vp": vp, "state": status,
                             "game": linked.get(pairing.table)})
        if current.pairings.bye is not None:
            bye = current.pairings.bye.a
            pairings.append({"table": None, "names": [name_of(record, bye), None],
                             "armies": [factions_of(record, bye), None],
                             "vp": [current.pairings.bye.vp_a, None], "state": "bye", "game": None})
    over = record.status == "finished"
    return {"kind": "event", "event": record.id, "version": record.version, "name": record.name,
            "status_text": status_text(record, current), "round": played, "rounds": record.rounds_planned,
            "round_ends_at_ms": None if over else ends, "pairings": pairings, "standings": standings(record),
            "teams": team_matches(record, games),
            "updated_ms": now_ms}


def status_text(record: TournamentRecord, current: tournament.Round | None) -> str:
    """Where the event is: registration, the round shown with its results in, or the final standings."""
    if record.status == "finished":
        return "Final standings"
    if current is None:
        return "Registration"
    results_in = sum(1 for r in current.results if r.table)
    return (f"Round {current.number} of {record.rounds_planned} · {results_in} of {len(current.pairings.tables)} "
            "results in")


def standings(record: TournamentRecord) -> list[dict[str, Any]]:
    """The standings once a result is in: each player's place, or a team event's teams' (each player's own record
    stays in /tournament)."""
    if not any(r.table for rnd in record.state.event.rounds for r in rnd.results):  # byes apart
        return []
    if record.state.teams is not None:
        return team_standings(record) or []

    return [{"rank": s.rank, "name": name_of(record, s.player), "record": record_text(s.wins, s.draws, s.losses),
             "opponents": f"{s.opponents_win_pct:.0f}%", "vp": s.vp, "army": factions_of(record, s.player),
             "dropped": s.dropped}
            for s in tournament.standings(record.state.event)]
