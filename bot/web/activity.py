"""The table inside the voice call: a Discord Activity (an embedded app) showing the game of the voice channel's
chat at full size, where its players play and anyone else in the call watches.

The page (bot/web/pages/activity.html, its script bundled with Discord's Embedded App SDK: scripts/activity) signs
its user in: the SDK's authorize gives a code, which this server exchanges at Discord's OAuth2 endpoint with the
client secret, then reads `users/@me`. Only that answer says who the user is: nothing the page sends does. The
session (an opaque token, for one channel, expiring) then reads the game's model with the user's own part (their
seat, their controls, their private lines), opens the menus the Discord board would, and acts through the same
service and rules; the change stream then moves the Discord board and every other page.

    GET  /activity/                the page            POST /activity/api/session  {code[, channel]}
    GET  /activity/api/config      the client id       GET  /activity/api/stream   ?session&channel
    POST /activity/api/menu        a control's menu    POST /activity/api/act      {session, game, version, verb, values}
"""

from __future__ import annotations

import json
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import aiohttp
from aiohttp import web

from bot.engine.errors import GameError, NotAPlayer
from bot.engine.names import title_case
from bot.engine.packs import is_mission_deck
from bot.service import GameService
from bot.store.repository import GameRecord
from bot.ui.chapter_approved import controls as ca_controls
from bot.ui.controls import BUTTONS, GameButton, GameSelect
from bot.ui.packs import PackViews

SESSION_SECONDS = 3600  # then the page signs in again
SESSIONS_KEPT = 10_000
NOT_SIGNED_IN = "Your session has expired: reopen the Activity to sign in again."
OTHER_GAME = "This Activity plays the game of its own voice channel."


@dataclass
class Session:
    token: str
    user: str
    name: str
    channel: int | None  # the voice channel whose game it plays: given at sign-in or by its first stream
    expires_at: float
    private: tuple[int, tuple[str, ...]] = (-1, ())  # the version their last move made, and its lines for them alone


class Sessions:
    """Signed-in users, in this process's memory: a restart signs everyone in again (the page does it by itself)."""

    def __init__(self) -> None:
        self._by_token: OrderedDict[str, Session] = OrderedDict()
        self.now = time.time  # tests move it

    def open(self, user: str, name: str, channel: int | None) -> Session:
        session = Session(secrets.token_urlsafe(24), user, name, channel, self.now() + SESSION_SECONDS)
        self._by_token[session.token] = session
        while len(self._by_token) > SESSIONS_KEPT:
            self._by_token.popitem(last=False)
        return session

    def get(self, token: object) -> Session:
        """The live session of `token`; an expired one is forgotten, and refused like an unknown one."""
        session = self._by_token.get(token) if isinstance(token, str) else None
        if session is not None and session.expires_at <= self.now():
            del self._by_token[session.token]
            session = None
        if session is None:
            raise error(web.HTTPUnauthorized, NOT_SIGNED_IN)
        return session


class DiscordIdentity:
    """Who a code from the SDK's authorize belongs to, as Discord says (OAuth2 code grant, then users/@me)."""

    @classmethod
    def of(cls, settings: Any, application_id: int | None) -> DiscordIdentity | None:
        """The Activity's sign-in, when the settings give the client secret (None: no Activity)."""
        client_id = settings.discord_client_id or application_id
        if settings.discord_client_secret is None or client_id is None:
            return None
        return cls(str(client_id), settings.discord_client_secret.get_secret_value(), settings.discord_api_url)

    def __init__(self, client_id: str, client_secret: str, api: str) -> None:
        self.client_id, self._secret, self.api = client_id, client_secret, api.rstrip("/")

    async def user(self, code: str) -> tuple[str, str]:
        """(user id, display name); a GameError when Discord refuses the code."""
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as http:
            async with http.post(f"{self.api}/oauth2/token", data={
                "client_id": self.client_id, "client_secret": self._secret, "grant_type": "authorization_code",
                "code": code,
            }) as answer:
                if answer.status != 200:
                    raise GameError("Discord did not confirm who you are: reopen the Activity to sign in again.")
                token = (await answer.json())["access_token"]
            async with http.get(f"{self.api}/users/@me", headers={"Authorization": f"Bearer {token}"}) as answer:
                if answer.status != 200:
                    raise GameError("Discord did not say who you are: reopen the Activity to sign in again.")
                me = await answer.json()
        return str(me["id"]), me.get("global_name") or me["username"]


def error(status: type[web.HTTPException], message: str) -> web.HTTPException:
    return status(text=json.dumps({"error": message}), content_type="application/json")


class Activity:
    """The Activity's API, beside the web pages (bot/web/server.py adds its routes)."""

    def __init__(self, service: GameService, views: PackViews, identity: DiscordIdentity) -> None:
        self.service, self.views, self.identity = service, views, identity
        self.sessions = Sessions()

    # ---- signing in ---------------------------------------------------------------------------------

    async def config(self, request: web.Request) -> web.Response:
        return web.json_response({"client_id": self.identity.client_id})

    async def sign_in(self, request: web.Request) -> web.Response:
        body = await _body(request)
        code, channel = body.get("code"), body.get("channel")
        if not isinstance(code, str) or not (channel is None or str(channel).isdigit()):
            raise error(web.HTTPBadRequest, "Sign in from the Activity in a voice channel.")
        try:
            user, name = await self.identity.user(code)
        except GameError as exc:
            raise error(web.HTTPUnauthorized, exc.message) from None
        session = self.sessions.open(user, name, int(channel) if channel is not None else None)
        return web.json_response({"session": session.token, "user": {"id": user, "name": name},
                                  "expires_at_ms": int(session.expires_at * 1000)})

    # ---- what a user sees -------------------------------------------------------------------------

    def bind(self, session: Session, channel: object) -> None:
        """The session plays the game of `channel` (its stream names it), and no other."""
        if session.channel is None and str(channel).isdigit():
            session.channel = int(str(channel))
        if str(session.channel) != str(channel):
            raise error(web.HTTPForbidden, OTHER_GAME)

    async def game_of(self, session: Session, game_id: object = None) -> GameRecord:
        """The game in progress in the session's channel; refused for any other game."""
        if session.channel is None:
            raise error(web.HTTPBadRequest, "The page has not said which voice channel it is in: reload it.")
        try:
            record = await self.service.get_state(channel_id=session.channel)
        except GameError:
            raise error(web.HTTPNotFound, "There is no game in this voice channel's chat: start one there with "
                                          "/game new.") from None
        if game_id is not None and game_id != record.id:
            raise error(web.HTTPForbidden, OTHER_GAME)
        return record

    def you(self, record: GameRecord, session: Session) -> dict[str, Any]:
        """The user's own part of the model: their seat, the controls the board offers them, their private lines."""
        state = record.state
        if session.user not in record.setup.players:
            return {"seat": None, "name": session.name, "private": [], "controls": []}
        made, lines = session.private  # shown while the game is as their move left it
        return {"seat": record.setup.players.index(session.user), "name": session.name,
                "private": [*self._secrets(state, session.user), *(lines if made == record.version else ())],
                "controls": self._controls(record)}

    def _secrets(self, state: Any, me: str) -> list[str]:
        """What only this player may see: their secret pick before the reveal."""
        if not is_mission_deck(state):
            return []
        catalog = self.views.mission_deck.catalog_of(state)
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

    def _controls(self, record: GameRecord) -> list[dict[str, Any]]:
        """The board's buttons that the Activity can run: a move at once, a menu, or undo (forms stay in Discord)."""
        view = self.views.of(record.state)
        menus = ca_controls.MENUS if is_mission_deck(record.state) else frozenset()
        found = []
        for item in view.buttons(record.id, record.state, record.version):
            verb = getattr(item, "verb", None)
            if verb in view.simple_actions or verb == "undo" or verb in menus:
                found.append({"verb": verb, "label": BUTTONS[verb][0], "menu": verb in menus})
        return found

    # ---- playing ------------------------------------------------------------------------------------

    async def menu(self, request: web.Request) -> web.Response:
        body = await _body(request)
        session = self.sessions.get(body.get("session"))
        record = await self.game_of(session, body.get("game"))
        verb = body.get("verb")
        if not is_mission_deck(record.state) or verb not in ca_controls.MENUS:
            raise error(web.HTTPBadRequest, "That control has no menu here: use the board in Discord.")
        _require_player(record, session)
        catalog = self.views.mission_deck.catalog_of(record.state)
        try:
            content, items = ca_controls.menu(catalog, record.state, session.user, record.id, record.version, verb)
        except GameError as exc:
            raise error(web.HTTPBadRequest, exc.message) from None
        return web.json_response({"content": content, "items": [_item(i) for i in items]})

    async def act(self, request: web.Request) -> web.Response:
        body = await _body(request)
        session = self.sessions.get(body.get("session"))
        record = await self.game_of(session, body.get("game"))
        _require_player(record, session)
        verb, values, version = body.get("verb"), body.get("values"), body.get("version")
        if not isinstance(version, int):
            raise error(web.HTTPBadRequest, "The page sent no version: reload it.")
        try:
            if verb == "undo":
                result = await self.service.undo(record.channel_id, session.user, expected_version=version)
            else:
                move = self._move(record, session.user, verb, values)
                result = await self.service.act(move, game_id=record.id, expected_version=version)
        except NotAPlayer as exc:
            raise error(web.HTTPForbidden, exc.message) from None
        except GameError as exc:
            raise error(web.HTTPBadRequest, exc.message) from None
        session.private = (result.version, tuple(e.text for e in result.events if e.private_to == session.user))
        return web.json_response({"ok": True, "version": result.version})

    def _move(self, record: GameRecord, me: str, verb: object, values: object) -> Any:
        view = self.views.of(record.state)
        if isinstance(values, list) and all(isinstance(v, str) for v in values) and is_mission_deck(record.state):
            try:
                return ca_controls.select_action(me, str(verb), values)
            except (ValueError, KeyError):  # a value no menu offers
                raise GameError("That choice is not on the menu.") from None
        if values is None and verb in view.simple_actions:
            return view.simple_actions[verb](me, record.state)
        raise GameError("That control is not available here.")


def _require_player(record: GameRecord, session: Session) -> None:
    if session.user not in record.setup.players:
        raise error(web.HTTPForbidden, "You are watching this game: only its two players can play it.")


def _item(item: Any) -> dict[str, Any]:
    """A menu's select or button as the page draws it."""
    if isinstance(item, GameSelect):
        select = item.item
        return {"kind": "select", "verb": item.verb, "placeholder": select.placeholder,
                "options": [{"label": o.label, "value": o.value, "description": o.description}
                            for o in select.options],
                "min": select.min_values, "max": select.max_values}
    assert isinstance(item, GameButton)
    return {"kind": "button", "verb": item.verb, "label": BUTTONS[item.verb][0]}


async def _body(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        body = None
    if not isinstance(body, dict):
        raise error(web.HTTPBadRequest, "The page sent something this server cannot read: reload it.")
    return body
