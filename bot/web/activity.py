"""The table inside the voice call: a Discord Activity (an embedded app) showing the game of the voice channel's
chat at full size, where its players play a whole game and anyone else in the call watches.

Discord alone says who and where (bot/web/discord_api.py): the user from the OAuth2 code the SDK's authorize gave
the page, the voice channel from the Activity instance the page runs in, which must count the user among its
connected users. A session (an opaque token, expiring) is bound to that instance and asks Discord again, at most
every INSTANCE_SECONDS, whether its user is still in the call: one who left loses the session at the next request,
and their stream ends. Nothing the page sends names a user or a channel that the server believes.

A session reads the game's model with the user's own part (their seat, their controls, their private lines), opens
the menus and forms the Discord board would, and plays through the same moves, service and rules; the change stream
then moves the Discord board and every other page. With no game in the channel, the page starts one: the challenge
is posted in the voice channel's chat, and the opponent accepts it from the call or from the chat.

    GET  /activity/                the page              POST /activity/api/session  {code, instance}
    GET  /activity/api/config      the client id         GET  /activity/api/stream   ?session
    POST /activity/api/lobby       who can be challenged POST /activity/api/new      {session, opponent, pack, size}
    POST /activity/api/menu        a control's menu      POST /activity/api/form     {session, game, version, verb[, values]}
    POST /activity/api/act         {session, game, version, verb[, values][, typed][, file]}
"""

from __future__ import annotations

import base64
import binascii
from typing import Any, Protocol

from aiohttp import web

from bot.armies.lists import MAX_FILE_BYTES
from bot.engine.errors import GameError, NotAPlayer
from bot.engine.names import title_case
from bot.engine.packs import is_mission_deck
from bot.engine.sides import only_players, seat_of
from bot.services.games import GameService
from bot.store.models import GameStatus
from bot.store.repository import GameRecord
from bot.present import play
from bot.present.offers import ARMY_FORM, LABELS, army_values
from bot.services.armies import army_move
from bot.services.game_options import GameOptions, pack_choices
from bot.web.activity_sessions import LEFT_CALL, Session, Sessions
from bot.web.json_api import error, json_body
from bot.web.discord_api import DiscordApi

OTHER_GAME = "This Activity plays the game of its own voice channel."
ACCEPTED_KEPT = 10_000  # games known to have their board posted
NO_GAME = "There is no game in this voice channel's chat yet: start one here."
SIZES = (("strike-force", "Strike Force"), ("incursion", "Incursion"), ("asymmetric-war", "Asymmetric War"))
ANSWERS = frozenset({"accept", "accept-first", "decline"})  # a challenge's buttons


class CallTable(Protocol):
    """What only the bot's Discord side can do for the Activity (the desk, bot/ui/desk.py): post a challenge in the
    call's chat, and answer one (the board is posted, the challenge says who answered)."""

    async def offer_in_call(self, guild_id: int | None, channel_id: int, setup: Any) -> int: ...

    async def answer_challenge(self, game_id: int, me: str, verb: str) -> None: ...


class Activity:
    """The Activity's API, beside the web pages (bot/web/server.py adds its routes)."""

    def __init__(self, service: GameService, discord: DiscordApi) -> None:
        self.service, self.discord = service, discord
        self.sessions = Sessions()
        self.table: CallTable | None = None  # in the bot's own process; `python -m bot pages` has no Discord side
        self._accepted: set[int] = set()  # games whose challenge is answered: their board is posted

    # ---- signing in ---------------------------------------------------------------------------------

    async def config(self, request: web.Request) -> web.Response:
        return web.json_response({"client_id": self.discord.client_id})

    async def sign_in(self, request: web.Request) -> web.Response:
        body = await _body(request)
        code, instance_id = body.get("code"), body.get("instance")
        if not isinstance(code, str) or not isinstance(instance_id, str):
            raise error(web.HTTPBadRequest, "Sign in from the Activity in a voice channel.")
        try:
            user, name = await self.discord.user(code)
            instance = await self.discord.instance(instance_id, with_user=user)
        except GameError as exc:
            raise error(web.HTTPUnauthorized, exc.message) from None
        if instance is None or user not in instance.users:
            raise error(web.HTTPForbidden, LEFT_CALL)
        session = self.sessions.open(user, name, instance)
        return web.json_response({"session": session.token, "user": {"id": user, "name": name},
                                  "expires_at_ms": int(session.expires_at * 1000)})

    async def session(self, token: object) -> Session:
        """The live session of `token` whose user is still in its call, as Discord says now."""
        session = self.sessions.get(token)
        try:
            instance = await self.discord.instance(session.instance)
        except GameError as exc:
            raise error(web.HTTPServiceUnavailable, exc.message) from None
        if instance is None or session.user not in instance.users:
            self.sessions.forget(session)
            raise error(web.HTTPForbidden, LEFT_CALL)
        return session

    # ---- what a user sees -------------------------------------------------------------------------

    async def game_of(self, session: Session, game_id: object = None) -> GameRecord:
        """The game in progress in the session's voice channel, or the one it last showed there once it is over
        (its result and score sheet stay up); refused for any other game."""
        try:
            record = await self.service.get_state(channel_id=session.channel)
        except GameError:
            record = await self._last_game(session)
        if game_id is not None and game_id != record.id:
            raise error(web.HTTPForbidden, OTHER_GAME)
        session.game = record.id
        return record

    async def _last_game(self, session: Session) -> GameRecord:
        try:
            record = await self.service.get_state(game_id=session.game) if session.game is not None else None
        except GameError:
            record = None
        if record is None or record.channel_id != session.channel:
            raise error(web.HTTPNotFound, NO_GAME)
        return record

    async def you(self, record: GameRecord, session: Session) -> dict[str, Any]:
        """The user's own part of the model: their seat, the controls the board offers them, their private lines."""
        state = record.state
        me = seat_of(record.setup, session.user)  # in doubles, either player of a side plays its seat
        if me is None:
            return {"seat": None, "name": session.name, "private": [], "controls": []}
        made, lines = session.private  # shown while the game is as their move left it
        seat = record.setup.players.index(me)
        if record.status != GameStatus.ACTIVE:  # over: the next game starts here too
            controls = [{"verb": "newgame", "label": "New game", "kind": "lobby"}]
        elif not await self._answered(record):
            controls = _challenge_controls(seat)
        else:
            controls = [c.as_dict() for c in play.controls(self.service.packs, state, me)]
        return {"seat": seat, "name": session.name, "controls": controls,
                "private": [*self._secrets(state, me), *(lines if made == record.version else ())]}

    async def _answered(self, record: GameRecord) -> bool:
        """Whether the game's challenge was accepted (its board is posted): until then the players answer it."""
        if record.id not in self._accepted and await self.service.repo.board_messages(record.id):
            if len(self._accepted) >= ACCEPTED_KEPT:  # forgotten ones are read again: one query each
                self._accepted.clear()
            self._accepted.add(record.id)
        return record.id in self._accepted

    def _secrets(self, state: Any, me: str) -> list[str]:
        """What only this player may see: their secret pick before the reveal."""
        if not is_mission_deck(state):
            secret = state.player(me).secret
            if secret is None or all(p.secret for p in state.players):
                return []
            return ["Your secret selection is in (shown once both have selected)."]
        catalog = self.service.packs.rules(state.pack).catalog
        player = state.player(me)
        lines = []
        if player.choice is not None and player.mode is None:
            cards = " and ".join(title_case(catalog.secondary(c).name) for c in player.choice.fixed_cards)
            lines.append(f"Your secret choice: {player.choice.mode.title()} Missions{': ' + cards if cards else ''} "
                         "(shown once both have chosen).")
        if player.disposition_choice is not None and player.disposition is None:
            lines.append(f"Your secret Force Disposition: {title_case(catalog.disposition(player.disposition_choice).name)}"
                         " (shown once both have picked).")
        return lines

    # ---- starting a game --------------------------------------------------------------------------

    async def lobby(self, request: web.Request) -> web.Response:
        """Whether the channel has a game, and who in the call could be challenged: those signed in to it."""
        session = await self.session((await _body(request)).get("session"))
        try:
            game = (await self.service.get_state(channel_id=session.channel)).id
        except GameError:
            game = None
        people = [{"id": s.user, "name": s.name} for s in self.sessions.in_call(session.instance)
                  if s.user != session.user]
        return web.json_response({"game": game, "can_start": self.table is not None, "people": people,
                                  "packs": [{"id": p, "title": t} for p, t in pack_choices(self.service.packs)],
                                  "sizes": [{"id": s, "title": t} for s, t in SIZES]})

    async def new_game(self, request: web.Request) -> web.Response:
        """A challenge to someone in the call, posted in the call's chat as /game new posts it."""
        body = await _body(request)
        session = await self.session(body.get("session"))
        if self.table is None:
            raise error(web.HTTPBadRequest, "Start the game from the chat with /game new: this server only shows it.")
        opponent = next((s for s in self.sessions.in_call(session.instance)
                         if s.user == body.get("opponent") and s.user != session.user), None)
        if opponent is None or not await self._still_in_call(opponent):
            raise error(web.HTTPBadRequest, "Challenge someone in this call who has the table open.")
        pack, size = body.get("pack"), body.get("size") or None
        if not isinstance(pack, str) or size not in (None, *dict(SIZES)):
            raise error(web.HTTPBadRequest, "Pick a pack and a size.")
        try:
            setup = GameOptions(pack=pack, size=size).setup(self.service.packs, (session.user, opponent.user),
                                                             (session.name, opponent.name))
            game_id = await self.table.offer_in_call(session.guild, session.channel, setup)
        except GameError as exc:
            raise error(web.HTTPBadRequest, exc.message) from None
        return web.json_response({"ok": True, "game": game_id})

    async def _still_in_call(self, session: Session) -> bool:
        instance = await self.discord.instance(session.instance)
        return instance is not None and session.user in instance.users

    # ---- playing ------------------------------------------------------------------------------------

    async def menu(self, request: web.Request) -> web.Response:
        body = await _body(request)
        session = await self.session(body.get("session"))
        record = await self.game_of(session, body.get("game"))
        me = _require_player(record, session)
        try:
            offered = play.menu(self.service.packs, record.state, me, str(body.get("verb")))
        except GameError as exc:
            raise error(web.HTTPBadRequest, exc.message) from None
        return web.json_response(offered.as_dict())

    async def form(self, request: web.Request) -> web.Response:
        """What a control's form asks: Set army, Name units, or what a menu choice asks before it is a move."""
        body = await _body(request)
        session = await self.session(body.get("session"))
        record = await self.game_of(session, body.get("game"))
        me = _require_player(record, session)
        try:
            spec = play.form(self.service.packs, record.state, me, body.get("verb"), _values(body))
        except GameError as exc:
            raise error(web.HTTPBadRequest, exc.message) from None
        if spec is None:
            raise error(web.HTTPBadRequest, "That control has no form.")
        return web.json_response(spec.as_dict())

    async def act(self, request: web.Request) -> web.Response:
        body = await _body(request)
        session = await self.session(body.get("session"))
        record = await self.game_of(session, body.get("game"))
        me = _require_player(record, session)
        verb, values, version, typed = body.get("verb"), _values(body), body.get("version"), body.get("typed")
        if not isinstance(version, int):
            raise error(web.HTTPBadRequest, "The page sent no version: reload it.")
        if typed is not None and not (isinstance(typed, dict) and all(isinstance(v, str) for v in typed.values())):
            raise error(web.HTTPBadRequest, "The form sent something this server cannot read: reload the page.")
        try:
            if verb in ANSWERS:
                return await self._answer(record, session, str(verb))
            form = play.form(self.service.packs, record.state, me, verb, values) if verb != "army" \
                else ARMY_FORM
            if form is not None and typed is None:  # the page shows the form, then sends it back with `typed`
                return web.json_response({"form": form.as_dict()})
            if verb == "undo":
                result = await self.service.undo(record.channel_id, session.user, expected_version=version)
            elif verb == "army":
                result = await self._set_army(record, session, typed or {}, body.get("file"))
            else:
                result = None
                for move, checked in play.moves(self.service.packs, record.state, me, verb, values, typed):
                    result = await self.service.act(move, game_id=record.id,
                                                    expected_version=version if checked else None)
        except NotAPlayer as exc:
            raise error(web.HTTPForbidden, exc.message) from None
        except GameError as exc:
            raise error(web.HTTPBadRequest, exc.message) from None
        assert result is not None
        lines = (*session.pending, *(e.text for e in result.events if e.private_to == me))
        session.private, session.pending = (result.version, lines), ()
        # In the answer too: the stream may have sent this version's model before these lines were known.
        return web.json_response({"ok": True, "version": result.version, "private": lines})

    async def _set_army(self, record: GameRecord, session: Session, typed: dict[str, str], file: object):
        """The army form: what the Discord form takes, and a list file the page read (base64)."""
        move, checked = await army_move(self.service, session.user, session.guild, record.id,
                                        file=_file(file), **army_values(typed))
        result = await self.service.act(move, game_id=record.id)
        if checked is not None:  # the list's flags, for the player alone, as Discord's private answer
            session.pending = tuple(f"Your list: {flag}" for flag in checked.flags)
        return result

    async def _answer(self, record: GameRecord, session: Session, verb: str) -> web.Response:
        """Accept or decline the challenge from the call: the board is posted in the chat as a press there would."""
        if self.table is None:
            raise GameError("Answer the challenge in the chat: this server only shows the game.")
        await self.table.answer_challenge(record.id, session.user, verb)
        return web.json_response({"ok": True, "version": record.version})


def _challenge_controls(seat: int) -> list[dict[str, Any]]:
    """The challenged player accepts or declines; the challenger may call it off."""
    verbs = ["accept", "decline"] if seat == 1 else ["decline"]
    return [{"verb": v, "label": LABELS[v][0] if v != "decline" or seat == 1 else "Call the game off", "kind": "move"}
            for v in verbs]


def _require_player(record: GameRecord, session: Session) -> str:
    """The seat the session's user plays; a watcher is refused."""
    seat = seat_of(record.setup, session.user)
    if seat is None:
        raise error(web.HTTPForbidden, f"You are watching this game: {only_players(record.setup).lower()} can play it.")
    return seat


def _values(body: dict[str, Any]) -> list[str] | None:
    values = body.get("values")
    if values is None:
        return None
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise error(web.HTTPBadRequest, "That choice is not on the menu.")
    return values


def _file(file: object) -> tuple[str, bytes] | None:
    """A list file the page read: {name, data} with the bytes in base64, held to the size a list file may have."""
    if file is None:
        return None
    if not isinstance(file, dict) or not isinstance(file.get("name"), str) or not isinstance(file.get("data"), str):
        raise GameError("The file did not arrive whole: choose it again.")
    if len(file["data"]) > (MAX_FILE_BYTES * 4) // 3 + 4:
        raise GameError(f"That file is too large: a list file is at most {MAX_FILE_BYTES // 1000:,} KB.")
    try:
        return file["name"][:100], base64.b64decode(file["data"], validate=True)
    except (binascii.Error, ValueError):
        raise GameError("The file did not arrive whole: choose it again.") from None


async def _body(request: web.Request) -> dict[str, Any]:
    return await json_body(request, "The page sent something this server cannot read: reload it.")
