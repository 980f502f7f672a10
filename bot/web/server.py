"""The web surface, in the bot's process: read-only live pages of a shared game or event (aiohttp.web, which
discord.py brings). Off unless WEB_PORT is set; links are PUBLIC_URL's (docs/admins/web.md puts it behind HTTPS).

    /g/<token>                       a game's live board          /e/<token>                    an event's screen
    /g/<token>/overlay/<kind>        an OBS overlay of the game   /e/<token>/table/<n>[/...]    its table n's game
    .../stream                       the page's server-sent events (the whole public model at each change)
    .../map.png, .../sheet.png       the game's map and, once it is over, its score sheet
    /activity/...                    the Discord Activity (bot/web/activity.py), when its OAuth2 client is set

A token is a share link's secret (bot/store/shares.py); a revoked one opens nothing and stops its open pages.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
from collections.abc import Awaitable, Callable
from functools import cache
from pathlib import Path

from aiohttp import web

from bot.plumbing.changes import Change
from bot.engine.errors import GameError
from bot.engine.packs import is_mission_deck
from bot.present import event as event_view
from bot.services.games import GameService
from bot.store.repository import GameRecord
from bot.store.share_models import ShareKind
from bot.store.shares import ShareRepository
from bot.services.tournaments import TournamentService
from bot.present.pictures.map import table_map
from bot.present.pictures.sheets import score_sheet
from bot.services.judges import JudgeService
from bot.services.teams import TeamService
from bot.store.desk import DeskRepository
from bot.web.activity import Activity
from bot.web.desk import Desk, Signed
from bot.web.desk_auth import DESK_CLOSED, SESSION_COOKIE, DeskAuth
from bot.web.activity_sessions import LEFT_CALL
from bot.web.discord_api import DiscordApi
from bot.web.feeds import CLOSE, GONE, UNSHARED, LiveFeeds
from bot.web.limits import RateLimits, client_address
from bot.plumbing.drawing import drawn

_log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"  # served as they are: the script and the stylesheet
PAGES = Path(__file__).parent / "pages"  # each page's body, in the one head below
HEAD = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
{screen}<title>{title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/web.css">
<script src="/static/{script}" defer></script>
</head>
"""
# A page read on a screen is dark and fits a phone; an overlay keeps the browser's defaults, so OBS sees through it.
SCREEN = '<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="color-scheme" content="dark">\n'
SHELLS = {"board": ("Live game", SCREEN), "event": ("Event", SCREEN), "overlay": ("Overlay", ""),
          "activity": ("The table", SCREEN), "desk": ("Organiser's desk", SCREEN)}
SCRIPTS = {"desk": "desk.js"}  # every other page is drawn by live.js

OVERLAYS = ("scoreboard", "cards", "mission", "clock")
HEARTBEAT_SECONDS = 15.0  # a comment line keeps proxies from closing a quiet stream
RETRY_MS = 2000  # how soon a page reconnects after the stream ends (a restart)
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the link's secret is in its path
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
# The Activity runs in Discord's frame, through its proxy: its own origin (the URL mapping) and Discord's frames only.
ACTIVITY_HEADERS = {**SECURITY_HEADERS, "Content-Security-Policy": CSP.replace(
    "frame-ancestors 'none'", "frame-ancestors https://discord.com https://*.discord.com https://*.discordsays.com")}
NOT_FOUND = "This link opens nothing: it was revoked, mistyped, or what it showed is gone."

Target = tuple[str, int]


@cache
def shell(name: str) -> str:
    """A page as the browser gets it: the head, its body (bot/web/pages), then live.js fills it in. The board page and
    the Activity show the same table (pages/table.html, where a body says <!--table-->)."""
    title, screen = SHELLS[name]
    body = (PAGES / f"{name}.html").read_text(encoding="utf-8")
    body = body.replace("<!--table-->\n", (PAGES / "table.html").read_text(encoding="utf-8"))
    return HEAD.format(title=title, screen=screen, script=SCRIPTS.get(name, "live.js")) + body + "</html>\n"


def desk_page(name: str, signed: Signed | None, refusal: str) -> str:
    """The desk's page: its shell, told who is signed in, what they are at the event and the token their actions
    carry; or, refused, why."""
    attributes = {"data-name": name, "data-refused": refusal}
    if signed is not None:
        attributes |= {"data-standing": signed.standing.value, "data-csrf": signed.session.csrf,
                       "data-event": str(signed.record.id)}
    said = " ".join(f'{key}="{html.escape(value, quote=True)}"' for key, value in attributes.items())
    return shell("desk").replace('data-desk=""', said, 1)


class WebSurface:
    def __init__(self, service: GameService, tournaments: TournamentService, shares: ShareRepository, *,
                 teams: TeamService, judges: JudgeService, desks: DeskRepository, public_url: str,
                 limits: RateLimits | None = None, discord: DiscordApi | None = None) -> None:
        self.service, self.tournaments, self.shares = service, tournaments, shares
        self.public_url = public_url.rstrip("/")
        # The Discord Activity and the organiser's desk, when the application's OAuth2 client and token are
        # configured (bot/web/activity.py, bot/web/desk.py).
        self.activity = Activity(service, discord) if discord is not None else None
        self.desk = Desk(service, tournaments, teams, judges, desks, DeskAuth(discord, desks, self.public_url)) \
            if discord is not None else None
        self.feeds = LiveFeeds(service, tournaments, shares)
        self.feeds.judges, self.feeds.desk = judges, self.desk
        self.limits = limits or RateLimits()
        service.changes.subscribe(self.feeds.on_change)
        if tournaments.changes is not service.changes:
            tournaments.changes.subscribe(self.feeds.on_change)
        self._runner: web.AppRunner | None = None

    # ---- links -------------------------------------------------------------------------------------

    async def share(self, kind: ShareKind, target_id: int, *, guild_id: int | None, by: str) -> str:
        """A new link's secret."""
        return await self.shares.create(kind, target_id, guild_id=guild_id, created_by=by)

    async def unshare(self, kind: ShareKind, target_id: int) -> int:
        """Revoke every link to it, and stop the pages open with them in every process: how many links."""
        count = await self.shares.revoke(kind, target_id)
        await self.service.changes.publish(Change(kind, target_id, 0, UNSHARED))
        return count

    def game_links(self, token: str) -> dict[str, str]:
        base = f"{self.public_url}/g/{token}"
        return {"board": base, **{kind: f"{base}/overlay/{kind}" for kind in OVERLAYS}}

    def event_links(self, token: str) -> dict[str, str]:
        base = f"{self.public_url}/e/{token}"
        return {"screen": base, "table": f"{base}/table/1", "overlay": f"{base}/table/1/overlay/scoreboard",
                "match": f"{base}/overlay/match?match=1"}

    # ---- the server --------------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard])
        for prefix in ("/g/{token}", "/e/{token}/table/{table:[0-9]+}"):
            app.router.add_get(prefix, self._page("board"))
            app.router.add_get(prefix + "/overlay/{kind}", self._overlay)
            app.router.add_get(prefix + "/stream", self._stream)
            app.router.add_get(prefix + "/map.png", self._map)
            app.router.add_get(prefix + "/sheet.png", self._sheet)
        app.router.add_get("/e/{token}", self._event_page)
        app.router.add_get("/e/{token}/overlay/match", self._page("overlay"))  # a team event's match
        app.router.add_get("/e/{token}/stream", self._stream)
        app.router.add_static("/static", STATIC, append_version=False)
        if self.activity is not None:
            app.router.add_get("/activity/", self._activity_page)
            app.router.add_get("/activity/api/config", self.activity.config)
            app.router.add_post("/activity/api/session", self.activity.sign_in)
            app.router.add_get("/activity/api/stream", self._activity_stream)
            app.router.add_post("/activity/api/lobby", self.activity.lobby)
            app.router.add_post("/activity/api/new", self.activity.new_game)
            app.router.add_post("/activity/api/menu", self.activity.menu)
            app.router.add_post("/activity/api/form", self.activity.form)
            app.router.add_post("/activity/api/act", self.activity.act)
            app.router.add_get("/activity/api/map.png", self._activity_picture(self._map_of))
            app.router.add_get("/activity/api/sheet.png", self._activity_picture(self._sheet_of))
            app.router.add_static("/activity/static", STATIC, append_version=False)  # through Discord's proxy
        if self.desk is not None:
            desk = self.desk
            app.router.add_get("/desk/callback", self._desk_callback)
            app.router.add_post("/desk/signout", self._desk_signout)
            app.router.add_get("/desk/{event:[0-9]+}", self._desk_page)
            app.router.add_get("/desk/{event:[0-9]+}/api/stream", self._desk_stream)
            app.router.add_post("/desk/{event:[0-9]+}/api/act", desk.act)
            app.router.add_get("/desk/{event:[0-9]+}/api/members", desk.members)
            app.router.add_get("/desk/{event:[0-9]+}/export/{name}", desk.download)
            app.router.add_get("/desk/{event:[0-9]+}/list/{list:[0-9]+}", desk.list_text)
        app.on_shutdown.append(self._on_shutdown)
        return app

    async def start(self, host: str, port: int) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None)  # an access log would write every link's secret
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        _log.info("Web pages on %s:%s, linked as %s", host, port, self.public_url)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.feeds.stop()

    async def _on_shutdown(self, app: web.Application) -> None:
        for viewer in tuple(self.feeds.viewers()):  # every stream ends; the pages reconnect to the next process
            viewer.send(CLOSE, "")

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """Rate limits per client, and the security headers on every answer, refusals included: the Activity's
        (framed by Discord alone) under /activity/, the pages' (framed by nobody) elsewhere. The Activity's requests
        all come through Discord's proxy, from a few addresses for every call: its users are Discord's, signed in."""
        activity = request.path.startswith("/activity/")
        headers = ACTIVITY_HEADERS if activity else SECURITY_HEADERS
        wait = None if activity else self.limits.take(client_address(request))
        if wait is not None:
            raise web.HTTPTooManyRequests(text="Too many requests: wait a moment.",
                                          headers={"Retry-After": str(wait), **headers})
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            exc.headers.update(headers)
            exc.headers.setdefault("Cache-Control", "no-store")
            raise
        if not response.prepared:  # a stream sent its headers already
            response.headers.update(headers)
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    # ---- what a token opens ----------------------------------------------------------------------

    async def _target(self, request: web.Request) -> Target:
        """The game or event a request's link opens, or 404."""
        link = await self.shares.resolve(request.match_info["token"])
        expected = ShareKind.GAME if request.path.startswith("/g/") else ShareKind.EVENT
        if link is None or link.kind != expected:
            raise web.HTTPNotFound(text=NOT_FOUND)
        if expected == ShareKind.GAME:
            return ("game", link.target_id)
        if "table" not in request.match_info:
            return ("event", link.target_id)
        try:
            record = await self.tournaments.get(link.target_id)
        except GameError:
            raise web.HTTPNotFound(text=NOT_FOUND) from None
        game_id = event_view.table_games(record).get(int(request.match_info["table"]))
        if game_id is None:
            raise web.HTTPNotFound(text="That table has no game in this round.")
        return ("game", game_id)

    async def _record(self, request: web.Request):
        kind, target_id = await self._target(request)
        try:
            return await self.service.get_state(game_id=target_id)
        except GameError:
            raise web.HTTPNotFound(text=NOT_FOUND) from None

    # ---- handlers ---------------------------------------------------------------------------------

    def _page(self, name: str) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        async def page(request: web.Request) -> web.StreamResponse:
            await self._target(request)
            return web.Response(text=shell(name), content_type="text/html")
        return page

    async def _event_page(self, request: web.Request) -> web.StreamResponse:
        """The venue screen; with the desk on, a link to it for the organisers (who sign in there)."""
        _, event_id = await self._target(request)
        page = shell("event")
        if self.desk is not None:
            page = page.replace('<a id="desk-link" class="e-desk" hidden>', f'<a id="desk-link" class="e-desk" '
                                f'href="/desk/{event_id}">', 1)
        return web.Response(text=page, content_type="text/html")

    async def _overlay(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["kind"] not in OVERLAYS:
            raise web.HTTPNotFound(text=f"Overlays: {', '.join(OVERLAYS)}.")
        await self._target(request)
        return web.Response(text=shell("overlay"), content_type="text/html")

    async def _map(self, request: web.Request) -> web.Response:
        return await self._map_of(await self._record(request))

    async def _sheet(self, request: web.Request) -> web.Response:
        return await self._sheet_of(await self._record(request))

    async def _map_of(self, record: GameRecord) -> web.Response:
        state = record.state
        if not is_mission_deck(state):
            raise web.HTTPNotFound(text="This game's pack draws no map.")
        catalog = self.service.packs.rules(state.pack).catalog
        if not catalog.has_map(state.mission.deployment):
            raise web.HTTPNotFound(text="This game's deployment has no map.")
        picture = await drawn(table_map, catalog, state)
        return web.Response(body=picture.png, content_type="image/png")

    async def _sheet_of(self, record: GameRecord) -> web.Response:
        if record.state.status != "ended":
            raise web.HTTPNotFound(text="The score sheet is drawn once the game is over.")
        try:
            sheet = await drawn(score_sheet, self.service.packs, record.state, record.id)
        except GameError as exc:  # a game VP do not decide has none
            raise web.HTTPNotFound(text=exc.message) from None
        return web.Response(body=sheet.png, content_type="image/png")

    async def _stream(self, request: web.Request) -> web.StreamResponse:
        target = await self._target(request)
        return await self._serve(request, target, request.match_info["token"], SECURITY_HEADERS)

    async def _activity_page(self, request: web.Request) -> web.Response:
        return web.Response(text=shell("activity"), content_type="text/html")

    def _activity_picture(self, draw: Callable[[GameRecord], Awaitable[web.Response]]):
        async def picture(request: web.Request) -> web.Response:
            assert self.activity is not None
            session = await self.activity.session(request.query.get("session"))
            return await draw(await self.activity.game_of(session))
        return picture

    async def _activity_stream(self, request: web.Request) -> web.StreamResponse:
        """The game of the session's voice channel, with the user's own part in each model, for as long as Discord
        counts the user in the call."""
        activity = self.activity
        assert activity is not None
        session = await activity.session(request.query.get("session"))
        record = await activity.game_of(session)

        pictures = f"api/{{}}?session={session.token}"  # the page's own, through Discord's proxy

        async def own(data: str) -> str:
            model = json.loads(data)
            current = await self.service.get_state(game_id=record.id, version=model["version"])
            model["mission"]["map"] = model["mission"]["map"] and pictures.format("map.png")
            model["sheet"] = model["sheet"] and pictures.format("sheet.png")
            model["you"] = await activity.you(current, session)
            return json.dumps(model, separators=(",", ":"))

        async def still_in_call() -> bool:
            try:
                await activity.session(session.token)
            except web.HTTPException:
                return False
            return True
        return await self._serve(request, ("game", record.id), None, ACTIVITY_HEADERS, own, still_in_call,
                                 every=activity.discord.ttl)

    # ---- the organiser's desk (bot/web/desk.py) -----------------------------------------------------

    async def _desk_page(self, request: web.Request) -> web.Response:
        """The desk, for an organiser or a judge; anyone else is told why not. Not signed in: off to Discord."""
        desk = self.desk
        assert desk is not None
        session = await desk.auth.session(request)
        if session is None:
            raise desk.auth.sign_in(int(request.match_info["event"]))
        try:
            signed = await desk.signed(request)
        except web.HTTPException as exc:
            if exc.status not in (403, 404):
                raise
            return web.Response(text=desk_page(session.name, None, json.loads(exc.text or "{}").get("error", "")),
                                content_type="text/html", status=exc.status)
        return web.Response(text=desk_page(session.name, signed, ""), content_type="text/html")

    async def _desk_callback(self, request: web.Request) -> web.Response:
        assert self.desk is not None
        raise await self.desk.auth.callback(request)

    async def _desk_signout(self, request: web.Request) -> web.Response:
        assert self.desk is not None
        session = await self.desk.auth.session(request)
        if session is not None and not self.desk.auth.same_site(request, session):
            raise web.HTTPForbidden(text="Sign out from the desk's own page.")
        await self.desk.auth.sign_out(request)
        response = web.json_response({"ok": True})
        response.del_cookie(SESSION_COOKIE, path="/desk")
        return response

    async def _desk_stream(self, request: web.Request) -> web.StreamResponse:
        """The desk's model for as long as Discord says the user may see it (checked every few seconds)."""
        desk = self.desk
        assert desk is not None
        signed = await desk.signed(request)
        target = desk.target(signed)

        async def still_allowed() -> bool:
            try:
                again = await desk.signed(request)
            except web.HTTPException:
                return False
            return desk.target(again) == target
        return await self._serve(request, target, None, SECURITY_HEADERS, None, still_allowed,
                                 every=desk.auth.discord.member_ttl, refused=DESK_CLOSED)

    async def _serve(self, request: web.Request, target: Target, token: str | None, headers: dict[str, str],
                     own: Callable[[str], Awaitable[str]] | None = None,
                     allowed: Callable[[], Awaitable[bool]] | None = None, *, every: float = HEARTBEAT_SECONDS,
                     refused: str = LEFT_CALL) -> web.StreamResponse:
        """A page's stream: the model now, then at every change; `own` adds the viewer's own part to a model;
        `allowed` is asked again every `every` seconds (as often as Discord's answer is trusted: the Activity's user
        still in the call, a desk's user still an organiser), and ends the stream with `refused` when it says no."""
        client = client_address(request) if token is not None else None  # the Activity's: see _guard
        if client is not None and not self.limits.stream_started(client):
            raise web.HTTPTooManyRequests(text="Too many pages open from here.")
        try:
            viewer = await self.feeds.watch(target, token)
        except GameError:
            if client is not None:
                self.limits.stream_ended(client)
            raise web.HTTPNotFound(text=NOT_FOUND) from None
        loop = asyncio.get_running_loop()
        response = web.StreamResponse(headers={**headers, "Content-Type": "text/event-stream",
                                               "Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        try:
            await response.prepare(request)
            await response.write(f"retry: {RETRY_MS}\n\n".encode())
            checked = loop.time()
            while True:
                wait = HEARTBEAT_SECONDS if allowed is None else min(HEARTBEAT_SECONDS, every)
                try:
                    event, data = await asyncio.wait_for(viewer.frames.get(), wait)
                except TimeoutError:
                    event, data = "", ""
                if allowed is not None and loop.time() - checked >= every:
                    checked = loop.time()
                    if not await allowed():
                        event, data = GONE, json.dumps({"message": refused})
                if not event:
                    await response.write(b": still here\n\n")
                    continue
                if event == CLOSE:
                    break
                if event == "model" and own is not None:
                    data = await own(data)
                await response.write(f"event: {event}\ndata: {data}\n\n".encode())
                if event == GONE:
                    break
        except (ConnectionResetError, ConnectionError):
            pass  # the page went away
        finally:
            self.feeds.leave(viewer)
            if client is not None:
                self.limits.stream_ended(client)
        return response
