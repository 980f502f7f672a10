"""What the organiser's desk shows of an event (bot/web/desk.py): everything an organiser runs the day with, as one
model the page redraws at every change. What is missing first (check-ins, lists, results, captains still pairing);
then the round, one row a table, with its players, what its game or its result says, who a report waits on, its
judge call and its time; the draft, when the round is one, with each rule its edits break; the players; the judges'
calls; the standings; what was done at the desk, by whom.

Judges see the judges' part only (`for_judges`). Hidden things stay hidden here too: a team match's sealed picks,
a game's secret choices (the desk shows a game's public model's VP and battle round only)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.chapter_approved.state import GameState, Status
from bot.engine.tournament import event as tournament
from bot.engine.tournament.draft import draft_problems
from bot.engine.tournament.pairing import Pairing
from bot.present import event as event_view
from bot.present.entrants import factions_of, name_of, player_name
from bot.present.teams import matches as team_matches
from bot.services.judges import Venue
from bot.services.team_rounds import unfinished_matches
from bot.services.tournaments.entries import absent_digest, not_checked_in
from bot.services.tournaments.rounds import draft_digest
from bot.store.desk_models import DeskEntry
from bot.store.judge_models import JudgeCall
from bot.store.tournament_repository import PendingReport, TournamentRecord

MENTION = re.compile(r"<@!?(\d+)>")
LOG_SHOWN = 30


def named(record: TournamentRecord, text: str) -> str:
    """A message of the rules with its player mentions as names (the desk is no Discord message)."""
    return MENTION.sub(lambda m: name_of(record, m.group(1)), text)


def desk_model(record: TournamentRecord, games: Mapping[int, Any], venue: Venue, log: Sequence[DeskEntry], *,
               now_ms: int) -> dict[str, Any]:
    """The whole desk, as its organisers see it. `games`: the states of the round's table games, by game id."""
    state, event = record.state, record.state.event
    current = event.rounds[-1] if event.rounds else None
    shown = event_view.current_round(record)
    return {
        "kind": "desk", "event": record.id, "version": record.version, "name": record.name,
        "status": record.status, "team_event": state.teams is not None,
        "status_text": event_view.status_text(record, shown) if current is None or current.published
        else f"Round {current.number} of {record.rounds_planned} · a draft",
        "rounds_planned": record.rounds_planned, "rounds_paired": len(event.rounds), "pool": event.pool,
        "lists": state.list_policy, "rules": state.pairing_rules.model_dump(),
        "todo": _todo(record, current),
        "checkin": _checkin(record),
        "round": _round(record, current, games, venue, now_ms) if current is not None else None,
        "players": _players(record),
        "judges": _judges(record, venue),
        "standings": event_view.standings(record),
        "teams": team_matches(record, games),
        "rosters": _rosters(record), "late": _late(record, now_ms),
        "log": [{"at_ms": int(e.at.timestamp() * 1000), "by": e.user_name, "action": e.action, "detail": e.detail}
                for e in log[:LOG_SHOWN]],
        "updated_ms": now_ms,
    }


def for_judges(model: dict[str, Any]) -> dict[str, Any]:
    """The judges' part of the desk: the round's tables (no draft), the calls, the time; nothing to run."""
    current = model["round"]
    shown = current if current is None or current["published"] else None
    return {"kind": "desk", "judges_only": True, "event": model["event"], "version": model["version"],
            "name": model["name"], "status_text": model["status_text"], "round": shown, "judges": model["judges"],
            "updated_ms": model["updated_ms"]}


def _todo(record: TournamentRecord, current: tournament.Round | None) -> list[str]:
    """What the day waits on, in words, most urgent first."""
    state = record.state
    todo = []
    if state.checkin_open and (absent := not_checked_in(record)):
        todo.append(f"Check-in: {len(absent)} not checked in yet.")
    if state.list_policy != "none" and not (current is not None and current.published):
        missing = [m for p in state.event.players if p not in state.event.dropped for m in state.members(p)
                   if m not in state.lists]
        if missing:
            todo.append(f"Lists: {len(missing)} still to come ({_few(record, missing)}).")
        flagged = [p for p, e in state.lists.items() if e.flags]
        if flagged:
            todo.append(f"Lists: {len(flagged)} with something to check ({_few(record, flagged)}).")
    if current is not None and not current.published:
        todo.append(f"Round {current.number} is a draft: review it, then publish it.")
    if current is not None and current.published:
        if pending := unfinished_matches(record):
            todo.append(f"Captains still pairing: match {', '.join(str(m.number) for m in pending)}.")
        if missing_tables := tournament.missing_tables(current):
            todo.append(f"Results: {len(missing_tables)} of {len(current.pairings.tables)} tables still to come.")
    return todo


def _few(record: TournamentRecord, players: list[str], shown: int = 5) -> str:
    names = [player_name(record, p) for p in players[:shown]]
    return ", ".join(names) + (f" and {len(players) - shown} more" if len(players) > shown else "")


def _checkin(record: TournamentRecord) -> dict[str, Any]:
    state = record.state
    active = [p for p in state.event.players if p not in state.event.dropped]
    absent = not_checked_in(record) if state.checkin_open else []
    return {"open": state.checkin_open, "in": len(active) - len(absent) if state.checkin_open else None,
            "of": len(active), "absent": [{"id": p, "name": name_of(record, p)} for p in absent],
            "digest": absent_digest(absent)}


def _seat(record: TournamentRecord, player: str) -> dict[str, Any]:
    return {"id": player, "name": name_of(record, player), "faction": factions_of(record, player),
            "club": record.state.clubs.get(player), "pinned": record.state.pins.get(player)}


def _round(record: TournamentRecord, current: tournament.Round, games: Mapping[int, Any], venue: Venue,
           now_ms: int) -> dict[str, Any]:
    state = record.state
    linked = {g.table: g.game_id for g in state.table_games if g.round_number == current.number}
    results = {r.table: r for r in current.results if r.table}
    reports = {p.table: p for p in state.pending if p.round_number == current.number}
    calls = {c.table_number: c for c in venue.calls if c.round_number == current.number}
    extra = {table: minutes for (number, table), minutes in venue.extensions.items() if number == current.number}
    clock = state.clock if state.clock is not None and state.clock.round_number == current.number else None
    problems = {} if current.published else draft_problems(state.event, current, state.pairing_rules, state.clubs,
                                                            state.pins)
    tables = []
    for pairing in current.pairings.tables:
        row = {"table": pairing.table, "players": [_seat(record, pairing.a), _seat(record, pairing.b)],
               **_progress(record, pairing, results.get(pairing.table), reports.get(pairing.table),
                           games.get(linked.get(pairing.table, -1)), current.published),
               "call": _call(calls.get(pairing.table)), "extra_minutes": extra.get(pairing.table, 0),
               "ends_ms": None if clock is None else (clock.ends_at + 60 * extra.get(pairing.table, 0)) * 1000,
               "problems": [{"kind": p.kind, "message": named(record, p.message)}
                            for p in problems.get(pairing.table, ())]}
        tables.append(row)
    bye = current.pairings.bye
    return {"number": current.number, "published": current.published, "draw": current.draw,
            "digest": draft_digest(current), "mission": current.mission, "tables": tables,
            "bye": _seat(record, bye.a) if bye is not None else None,
            "ends_ms": clock.ends_at * 1000 if clock is not None else None, "now_ms": now_ms,
            "problems": sum(len(p) for p in problems.values())}


def _progress(record: TournamentRecord, pairing: Pairing, result: tournament.Result | None,
              report: PendingReport | None, game: GameState | None, published: bool) -> dict[str, Any]:
    """Where a table stands: not started, setting up, playing (battle round and VP), reported and waiting on whom,
    confirmed; a game that ended with no result (abandoned) says so."""
    if not published:
        return {"state": "draft"}
    if result is not None:
        how = "" if result.reason == tournament.Reason.SCORE else result.reason.value.replace("_", " ")
        return {"state": "confirmed", "vp": [result.vp_a, result.vp_b], "outcome": result.outcome.value,
                "how": how}
    if report is not None:
        waiting = pairing.b if report.reporter == pairing.a else pairing.a
        return {"state": "reported", "vp": [report.vp_a, report.vp_b], "waiting_on": name_of(record, waiting),
                "reported_by": name_of(record, report.reporter)}
    if game is None:
        return {"state": "not started"}
    if game.status == Status.ENDED:
        return {"state": "ended", "vp": [game.total_vp(pairing.a), game.total_vp(pairing.b)]}  # abandoned: no result
    if game.status == Status.BATTLE:
        return {"state": "playing", "vp": [game.total_vp(pairing.a), game.total_vp(pairing.b)],
                "battle_round": game.round}
    return {"state": "setting up"}


def _call(call: JudgeCall | None) -> dict[str, Any] | None:
    if call is None:
        return None
    return {"id": call.id, "raised_ms": int(call.raised_at.timestamp() * 1000), "claimed_by": call.claimed_name,
            "note": call.note}


def _players(record: TournamentRecord) -> list[dict[str, Any]]:
    state = record.state
    return [{**_seat(record, p), "dropped": p in state.event.dropped, "checked_in": p in state.checked_in,
             "lists": [{"id": e.army.list_id, "flags": e.flags, "label": e.army.label, "of": player_name(record, m)}
                       for m in state.members(p) if (e := state.lists.get(m))]}  # in doubles, each player's
            for p in state.event.players]


def _judges(record: TournamentRecord, venue: Venue) -> dict[str, Any]:
    return {"calls": [{"id": c.id, "table": c.table_number, "round": c.round_number,
                       "players": [name_of(record, p) for p in c.player_ids[:2]],  # A and B: a pair by its name
                       "caller": name_of(record, c.caller),
                       "note": c.note, "raised_ms": int(c.raised_at.timestamp() * 1000),
                       "claimed_by": c.claimed_name} for c in venue.calls],
            "on_duty": [d.name for d in venue.on_duty]}


def _rosters(record: TournamentRecord) -> list[dict[str, Any]] | None:
    """A team event's teams with their captains and players."""
    ev = record.state.teams
    if ev is None:
        return None
    return [{"name": t.name, "captain": name_of(record, t.captain), "dropped": t.dropped,
             "players": [name_of(record, p) for p in t.members]} for t in ev.teams]


def _late(record: TournamentRecord, now_ms: int) -> list[dict[str, Any]]:
    """The matches whose captains' pairing is past its step's deadline: the organiser may let the bot choose for
    the late side (bot/ui/teams/board.py calls them in the match's thread too)."""
    ev = record.state.teams
    late: list[dict[str, Any]] = []
    if ev is None:
        return late
    for board in record.state.match_boards:
        pair = next((m for r in ev.rounds if r.number == board.round_number for m in r.matches
                     if m.number == board.match), None)
        if pair is not None and not pair.match.done and board.step == pair.match.steps and board.deadline \
                and board.deadline * 1000 < now_ms:
            late.append({"round": board.round_number, "match": board.match, "step": board.step,
                         "waiting": [ev.team(pair.teams[side]).name for side in pair.match.waiting_on()]})
    return late
