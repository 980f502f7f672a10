"""The organiser's desk: one live page per event to run the whole day, signed in with Discord (bot/web/desk_auth.py).

    GET  /desk/<event>               the page (off to Discord's sign-in first, when not signed in)
    GET  /desk/callback              Discord's answer to the sign-in
    POST /desk/signout               ends the session
    GET  /desk/<event>/api/stream    the desk's model now and at every change (server-sent events)
    POST /desk/<event>/api/act       {action, ...}: one action, through the same services as the commands
    GET  /desk/<event>/api/members   ?query=: the server's members, to add a late entrant
    GET  /desk/<event>/export/<name> a CSV export, as a download
    GET  /desk/<event>/list/<id>     a player's list, as text

Organisers (Manage Server, or the event's organiser role) run everything; judges (the event's judge role) see the
round and the calls, and claim and resolve calls; anyone else is refused. Each action is checked again against
Discord (bot/web/desk_auth.py), refused with one line that changes nothing, and logged with who took it. What needs
Discord (a round's threads, an announcement, a thread told of its extra minutes) is asked of the process serving
the event's server on the change stream (bot/services/tournaments/requests.py).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.engine.errors import GameError, NotAPlayer
from bot.engine.tournament import draft
from bot.engine.tournament.rules import PairingRules
from bot.plumbing.changes import Change
from bot.present.desk import desk_model, for_judges, named
from bot.present.exports import exports
from bot.present.entrants import name_of
from bot.services.games import GameService
from bot.services.judges import EXTRA_MINUTES, JudgeService, tables_of
from bot.services.teams import TeamService
from bot.services.tournaments import TournamentService
from bot.services.tournaments.requests import DiscordAsk
from bot.services.tournaments.rounds import draft_digest
from bot.store.desk import DeskRepository
from bot.store.desk_models import DeskSession
from bot.store.tournament_models import TournamentStatus
from bot.store.tournament_repository import TournamentRecord
from bot.web.desk_auth import SIGNED_OUT, DeskAuth, Standing
from bot.web.json_api import error, json_body

_log = logging.getLogger(__name__)

REFUSED = ("This desk is for the event's organisers (Manage Server, or the event's organiser role) and judges (its "
           "judge role): Discord says you are neither.")
ORGANISERS = "Only an organiser can do that at the desk."
UNREADABLE = "The desk sent something this server cannot read: reload the desk."


@dataclass(frozen=True)
class Signed:
    """A request's user and what they are at this event, as Discord says now."""

    session: DeskSession
    record: TournamentRecord
    standing: Standing


Action = Callable[["Desk", Signed, dict[str, Any]], Awaitable[str]]


class Desk:
    def __init__(self, service: GameService, tournaments: TournamentService, teams: TeamService,
                 judges: JudgeService, repo: DeskRepository, auth: DeskAuth) -> None:
        self.service, self.tournaments, self.teams, self.judges = service, tournaments, teams, judges
        self.repo, self.auth = repo, auth

    # ---- who ----------------------------------------------------------------------------------------

    async def signed(self, request: web.Request, *, act: bool = False) -> Signed:
        """The request's session and standing at the event it names, or the refusal: 401 without a session, 403
        for someone Discord names neither organiser nor judge, or an action from another site."""
        session = await self.auth.session(request)
        if session is None:
            raise error(web.HTTPUnauthorized, SIGNED_OUT)
        if act and not self.auth.same_site(request, session):
            raise error(web.HTTPForbidden, "This request did not come from the desk's own page: reload the desk.")
        record = await self._record(request)
        judge_role = (await self.judges.settings(record.id)).role_id
        try:
            standing = await self.auth.standing(record, session.user_id, judge_role)
        except GameError as exc:
            raise error(web.HTTPServiceUnavailable, exc.message) from None
        if standing == Standing.NOBODY:
            raise error(web.HTTPForbidden, REFUSED)
        return Signed(session, record, standing)

    async def organiser(self, request: web.Request) -> Signed:
        """As `signed`, for what only an organiser sees: 403 for a judge too."""
        signed = await self.signed(request)
        if signed.standing != Standing.ORGANISER:
            raise error(web.HTTPForbidden, ORGANISERS)
        return signed

    async def _record(self, request: web.Request) -> TournamentRecord:
        try:
            return await self.tournaments.get(int(request.match_info["event"]))
        except (GameError, ValueError):
            raise error(web.HTTPNotFound, "There is no such event.") from None

    # ---- what it shows --------------------------------------------------------------------------------

    async def model(self, event_id: int, games: dict[int, Any]) -> dict[str, Any]:
        record = await self.tournaments.get(event_id)
        return desk_model(record, games, await self.judges.venue(event_id), await self.repo.entries(event_id),
                          now_ms=time.time_ns() // 1_000_000)

    @staticmethod
    def target(signed: Signed) -> tuple[str, int]:
        return ("desk" if signed.standing == Standing.ORGANISER else "judges", signed.record.id)

    @staticmethod
    def view(target_kind: str, model: dict[str, Any]) -> dict[str, Any]:
        return model if target_kind == "desk" else for_judges(model)

    # ---- acting -----------------------------------------------------------------------------------------

    async def act(self, request: web.Request) -> web.Response:
        signed = await self.signed(request, act=True)
        body = await _body(request)
        name = body.get("action")
        found = ACTIONS.get(name) if isinstance(name, str) else None
        if found is None:
            raise error(web.HTTPBadRequest, "The desk sent an action this server does not know: reload the desk.")
        judges_too, action = found
        if signed.standing != Standing.ORGANISER and not judges_too:
            raise error(web.HTTPForbidden, ORGANISERS)
        if signed.record.status != TournamentStatus.ACTIVE and name not in ("call.claim", "call.resolve"):
            raise error(web.HTTPBadRequest, "This event has finished.")
        try:
            done = await action(self, signed, body)
        except Confirm as ask:
            return web.json_response({"confirm": ask.problems}, status=409)
        except NotAPlayer as exc:
            raise error(web.HTTPForbidden, named(signed.record, exc.message)) from None
        except GameError as exc:
            raise error(web.HTTPBadRequest, named(signed.record, exc.message)) from None
        except (KeyError, TypeError, ValueError):
            raise error(web.HTTPBadRequest, UNREADABLE) from None
        await self.repo.log(signed.record.id, signed.session.user_id, signed.session.name, name, done)
        await self.tournaments.changes.publish(Change("event", signed.record.id, 0, "desk"))
        return web.json_response({"ok": True, "done": done})

    async def ask(self, signed: Signed, what: str, *args: object) -> None:
        """Ask the event's Discord side to carry something out (bot/ui/tournament/requests.py)."""
        ask = DiscordAsk(what, signed.session.user_id, tuple(str(a) for a in args))
        await self.tournaments.changes.publish(ask.change(signed.record.id))

    async def members(self, request: web.Request) -> web.Response:
        signed = await self.organiser(request)
        query = request.query.get("query", "").strip()
        if not 1 <= len(query) <= 100:
            return web.json_response({"members": []})
        try:
            found = await self.auth.discord.search_members(signed.record.guild_id, query)
        except GameError as exc:
            raise error(web.HTTPServiceUnavailable, exc.message) from None
        registered = {*signed.record.state.event.players, *signed.record.state.partners.values()}
        return web.json_response({"members": [{"id": u, "name": n, "registered": u in registered}
                                              for u, n in found]})

    async def download(self, request: web.Request) -> web.Response:
        signed = await self.organiser(request)
        name = request.match_info["name"]
        files = exports(signed.record, await self.judges.calls(signed.record.id))
        if name not in files:
            raise error(web.HTTPNotFound, "There is no such export.")
        text = files[name]
        filename = f"tournament-{signed.record.id}-{name}.csv"
        return web.Response(text=text, content_type="text/csv",
                            headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    async def list_text(self, request: web.Request) -> web.Response:
        signed = await self.organiser(request)
        list_id = int(request.match_info["list"])
        if not any(e.army.list_id == list_id for e in signed.record.state.lists.values()):
            raise error(web.HTTPNotFound, "That list is not one of this event's.")
        found = await self.service.lists.get(list_id)
        if found is None:
            raise error(web.HTTPNotFound, "That list is no longer kept.")
        row, checked = found
        flags = "".join(f"\n! {flag}" for flag in checked.flags)
        return web.Response(text=f"{row.text}\n{flags}".strip() + "\n", content_type="text/plain")


class Confirm(Exception):
    """An action that asks the organiser to confirm first (publishing a draft that breaks a rule)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("confirm")
        self.problems = problems


# ---- the actions: (judges may take it too, what it does) ----------------------------------------------------

def _player(signed: Signed, body: dict[str, Any], key: str = "player") -> str:
    player = str(body[key])
    if player not in signed.record.state.event.players:
        raise GameError("That player is not registered in this event.")
    return player


def _draft_edit(edit: Callable[[Signed, dict[str, Any]], tuple[Callable, str]]) -> Action:
    async def act(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
        change, said = edit(signed, body)
        await desk.tournaments.edit_draft(signed.record.id, int(body["number"]), int(body["draw"]),
                                          str(body["digest"]), change)
        return said
    return act


async def _checkin_open(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
    await desk.tournaments.open_checkin(signed.record.guild_id)
    return "Check-in opened."


async def _checkin_close(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
    saved = await desk.tournaments.close_checkin(signed.record.id, str(body["digest"]))
    dropped = len(saved.state.event.dropped) - len(signed.record.state.event.dropped)
    return f"Check-in closed: {dropped} player{'s' if dropped != 1 else ''} who had not checked in dropped."


async def _player_add(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
    user = str(body["user"])
    member = await desk.auth.discord.member(signed.record.guild_id, user)
    if member is None:
        raise GameError("That person is not a member of the event's server.")
    disposition = body.get("disposition") or None
    await desk.tournaments.register(signed.record.guild_id, user, member.name, disposition, body.get("club") or None)
    return f"{member.name} registered."


async def _player_drop(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
    player = _player(signed, body)
    await desk.tournaments.drop(signed.record.guild_id, player)
    return f"{name_of(signed.record, player)} dropped."


async def _player_reinstate(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
    player = _player(signed, body)
    await desk.tournaments.reinstate(signed.record.guild_id, player)
    return f"{name_of(signed.record, player)} reinstated."


async def _player_club(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
    player = _player(signed, body)
    club = str(body.get("club") or "").strip()
    await desk.tournaments.set_club(signed.record.id, player, club)
    return f"{name_of(signed.record, player)}'s club: {club or 'none'}."


async def _rules(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
    rules = PairingRules(friendly_fire=body["friendly_fire"], fresh_tables=bool(body["fresh_tables"]))
    await desk.tournaments.set_rules(signed.record.id, rules)
    fire = {"off": "off", "first": "round 1", "every": "every round"}[rules.friendly_fire]
    return f"Pairing rules: friendly fire {fire}, fresh tables {'on' if rules.fresh_tables else 'off'}."


async def _pin(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
    player = _player(signed, body)
    table = int(body["table"]) if body.get("table") not in (None, "", 0) else None
    await desk.tournaments.pin(signed.record.id, player, table)
    who = name_of(signed.record, player)
    return f"{who} pinned to table {table}." if table else f"{who} unpinned."


async def _pair(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
    saved = await desk.tournaments.pair(signed.record.guild_id, body.get("mission") or None)
    current = saved.state.event.rounds[-1]
    return f"Round {current.number} paired as a draft."


async def _repair(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
    saved = await desk.tournaments.repair(signed.record.id, int(body["number"]), int(body["draw"]))
    return f"Round {saved.state.event.rounds[-1].number} re-paired."


def _swap(signed: Signed, body: dict[str, Any]) -> tuple[Callable, str]:
    a, b = _player(signed, body, "a"), _player(signed, body, "b")
    return (lambda r: draft.swap_players(r, a, b),
            f"Swapped {name_of(signed.record, a)} and {name_of(signed.record, b)}.")


def _move(signed: Signed, body: dict[str, Any]) -> tuple[Callable, str]:
    table, to = int(body["table"]), int(body["to"])
    return (lambda r: draft.move_table(r, table, to), f"Table {table} moved to table {to}.")


async def _publish(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
    record = signed.record
    current = record.state.event.rounds[-1] if record.state.event.rounds else None
    if current is None or current.published:
        raise GameError("There is no draft to publish: pair the next round first.")
    if record.announce_channel_id is None and record.state.tables_channel_id is None:  # created by an older version
        raise GameError("This event names no channel for its rounds, so its first round is published from Discord "
                        "(`/tournament pair`, then Publish); the desk publishes the rounds after it there.")
    if record.state.teams is None and not body.get("confirm"):
        problems = draft.draft_problems(record.state.event, current, record.state.pairing_rules, record.state.clubs,
                                        record.state.pins)
        if problems:
            raise Confirm([f"Table {t}: {named(record, p.message)}" for t, found in sorted(problems.items())
                           for p in found])
    if draft_digest(current) != body.get("digest"):
        raise GameError("The draft changed since your desk showed it: look at it again, then publish.")
    await desk.tournaments.publish(record.id, current.number, current.draw)
    await desk.ask(signed, "publish")
    return f"Round {current.number} published: its threads are opening in Discord."


async def _announce(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
    rounds = signed.record.state.event.rounds
    if not rounds or not rounds[-1].published:
        raise GameError("No round is published yet: there is nothing to announce.")
    await desk.ask(signed, "announce")
    return f"Round {rounds[-1].number} announced again."


async def _clock(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
    record = signed.record
    channel = record.announce_channel_id or record.state.tables_channel_id
    if channel is None:
        raise GameError("This event has no channel to post the round's reminders in: start the clock from Discord "
                        "(`/tournament round start`).")
    minutes = int(body["minutes"])
    await desk.tournaments.start_clock(record.guild_id, minutes, channel, int(time.time()))
    await desk.ask(signed, "clock")
    return f"Round clock started: {minutes} minutes."


async def _minutes(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
    number, minutes = int(body["table"]), int(body.get("minutes") or EXTRA_MINUTES)
    table = next((t for t in tables_of(signed.record) if t.table == number), None)
    if table is None:
        raise GameError(f"Table {number} has no game in the round being played.")
    total = await desk.judges.give_minutes(table, minutes, signed.session.user_id)
    await desk.ask(signed, "minutes", number, minutes, total)
    return f"Table {number} given {minutes} more minutes ({total} in all this round)."


async def _result(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
    round_number = int(body["round"]) if body.get("round") else None
    done = await desk.tournaments.report(
        signed.record.guild_id, signed.session.user_id, int(body["table"]), body.get("outcome") or None,
        int(body["vp_a"]), int(body["vp_b"]), organiser=True, reason=str(body.get("reason") or "score"),
        round_number=round_number)
    assert done.result is not None
    was = f" (corrected from {done.corrected.vp_a}–{done.corrected.vp_b})" if done.corrected else ""
    return (f"Round {done.result.round_number}, table {done.result.table}: {done.result.vp_a}–{done.result.vp_b}"
            f"{was}.")


async def _call_claim(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
    call = await desk.judges.claim(int(body["call"]), signed.session.user_id, signed.session.name)
    await desk.ask(signed, "call", call.id)
    return f"Table {call.table_number}'s call claimed."


async def _call_resolve(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
    call = await desk.judges.resolve(int(body["call"]), signed.session.user_id, signed.session.name,
                                     str(body.get("ruling") or "") or None)
    await desk.ask(signed, "call", call.id)
    return f"Table {call.table_number}'s call resolved."


async def _late_pick(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
    round_number, match = int(body["round"]), int(body["match"])
    saved, _ = await desk.teams.choose_for_late(signed.record.id, round_number, match, int(body["step"]))
    await desk.ask(signed, "late", round_number, match)
    return f"Match {match}: the bot chose at random for the late side."


async def _finish(desk: Desk, signed: Signed, body: dict[str, Any]) -> str:
    await desk.tournaments.finish(signed.record.guild_id)
    return "The event is finished."


ACTIONS: dict[str, tuple[bool, Action]] = {
    "checkin.open": (False, _checkin_open), "checkin.close": (False, _checkin_close),
    "player.add": (False, _player_add), "player.drop": (False, _player_drop),
    "player.reinstate": (False, _player_reinstate), "player.club": (False, _player_club),
    "rules.set": (False, _rules), "pin.set": (False, _pin),
    "round.pair": (False, _pair), "round.repair": (False, _repair),
    "draft.swap": (False, _draft_edit(_swap)), "draft.move": (False, _draft_edit(_move)),
    "round.publish": (False, _publish), "round.announce": (False, _announce), "clock.start": (False, _clock),
    "table.minutes": (False, _minutes), "result.enter": (False, _result),
    "call.claim": (True, _call_claim), "call.resolve": (True, _call_resolve),
    "team.late": (False, _late_pick), "finish": (False, _finish),
}


async def _body(request: web.Request) -> dict[str, Any]:
    return await json_body(request, UNREADABLE)
