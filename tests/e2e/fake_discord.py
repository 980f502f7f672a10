"""A fake Discord on 127.0.0.1 that a real, unmodified discord.py client connects to.

It speaks the gateway (HELLO, IDENTIFY -> READY -> GUILD_CREATE, heartbeat ACKs, plain-text JSON frames,
no zlib) and the REST routes the bot uses, answering from a DiscordModel (tests/discord_model.py),
the same model the in-process harness uses. A test injects INTERACTION_CREATE events over the gateway
and reads what the bot did from `model.sent`.

Sharding as Discord does it: IDENTIFY names the connection's shard [id, count]; READY and GUILD_CREATE
give that connection only the servers of its shard, and a server's events go only to the connection of
its shard, (server id >> 22) % count, whichever process opened it.

With `limits=True`, Discord's REST rate limits too (tests/e2e/discord_limits.py): every answer carries the
X-RateLimit headers, and a request past its bucket or the global limit gets Discord's 429 and changes nothing.
`time_scale` shrinks every window (0.1: ten times shorter) for fast tests.

Point a client at it with `discord.http.Route.BASE = fake.api_base` and
`discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)`. The server stops on
`stop()` or, at the latest, `lifetime` seconds after it started.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import WSMsgType, web

from tests.discord_model import DiscordError, DiscordModel, Sent, shard_of
from tests.e2e.discord_limits import RateLimits

API = "/api/v10"
HEARTBEAT_INTERVAL_MS = 41_250

Handler = Callable[[web.Request, Any, list[tuple[str, bytes]]], Any]


class FakeDiscord:
    def __init__(self, model: DiscordModel | None = None, *, token: str = "e2e-token", lifetime: float = 60.0,
                 limits: bool = False, time_scale: float = 1.0) -> None:
        self.model = model or DiscordModel()
        self.token = token
        self.lifetime = lifetime
        self.limits = RateLimits(time_scale=time_scale) if limits else None
        self.requests: list[tuple[str, str]] = []  # (method, path) of every REST request
        self.request_times: list[tuple[float, str, str]] = []  # (loop time, method, path) of every REST request
        self.refused: list[tuple[str, str, str]] = []  # (method, path, "route" or "global") of every 429
        self.unhandled: list[tuple[str, str]] = []
        self.identify: dict[str, Any] | None = None  # the last IDENTIFY
        self.identifies: list[dict[str, Any]] = []
        self.shard_count = 1
        self.shards: dict[int, web.WebSocketResponse] = {}  # shard id -> the connection that identified for it
        self.heartbeats = 0
        self.ready = asyncio.Event()  # READY and GUILD_CREATE were sent
        self._changed = asyncio.Condition()
        self._sockets: set[web.WebSocketResponse] = set()
        self._sequence = 0
        self._runner: web.AppRunner | None = None
        self._watchdog: asyncio.TimerHandle | None = None
        self.port = 0

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # --- life cycle -------------------------------------------------------------------------

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        for method, path, handler in self._routes():
            app.router.add_route(method, API + path, self._rest(method, path, handler))
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._watchdog = asyncio.get_running_loop().call_later(self.lifetime, lambda: asyncio.ensure_future(self.stop()))

    async def stop(self) -> None:
        if self._watchdog is not None:
            self._watchdog.cancel()
        for socket in list(self._sockets):
            await socket.close()
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    # --- what a test does -------------------------------------------------------------------

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway DISPATCH event: a server's to the connection of its shard, others to every client."""
        if "guild_id" in data:
            shard = shard_of(int(data["guild_id"]), self.shard_count)
            if shard not in self.shards:
                raise AssertionError(f"no client is connected for shard {shard} of {self.shard_count}")
            sockets = [self.shards[shard]]
        else:
            sockets = list(self._sockets)
        if not sockets:
            raise AssertionError("no client is connected to the gateway")
        for socket in sockets:
            await self._send(socket, event, data)

    async def _send(self, socket: web.WebSocketResponse, event: str, data: dict[str, Any]) -> None:
        self._sequence += 1
        await socket.send_str(json.dumps({"op": 0, "t": event, "s": self._sequence, "d": data}))

    async def interact(self, payload: dict[str, Any], *, timeout: float = 10.0) -> list[Sent]:
        """Deliver an interaction and return what the bot did until it answered it."""
        first = len(self.model.sent)
        record = self.model.interactions[payload["token"]]
        await self.dispatch("INTERACTION_CREATE", payload)
        await self.wait_for(lambda: record.response_type is not None, timeout=timeout)
        return self.model.sent[first:]

    async def wait_for(self, predicate: Callable[[], bool], *, timeout: float) -> None:
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(predicate), timeout)

    # --- gateway ----------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self._sockets.add(socket)
        try:
            await socket.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}}))
            async for message in socket:
                if message.type == WSMsgType.TEXT:
                    await self._on_frame(socket, json.loads(message.data))
        finally:
            self._sockets.discard(socket)
            for shard in [shard for shard, held in self.shards.items() if held is socket]:
                del self.shards[shard]
        return socket

    async def _on_frame(self, socket: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        op = frame.get("op")
        if op == 1:  # heartbeat
            self.heartbeats += 1
            await socket.send_str(json.dumps({"op": 11}))
        elif op == 2:  # identify
            self.identify = frame["d"]
            self.identifies.append(frame["d"])
            if frame["d"].get("token") != self.token:
                await socket.close(code=4004, message=b"Authentication failed.")
                return
            shard, self.shard_count = frame["d"].get("shard") or (0, 1)
            self.shards[shard] = socket
            guilds = [g for g in self.model.guilds if shard_of(g, self.shard_count) == shard]
            ready = {
                "v": 10, "user": {**self.model.bot_user.payload(), "verified": True, "mfa_enabled": False},
                "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
                "session_id": f"fake-session-{shard}", "resume_gateway_url": self.gateway_url,
                "shard": [shard, self.shard_count], "application": {"id": str(self.model.app_id), "flags": 0},
            }
            await self._send(socket, "READY", ready)
            for guild in guilds:
                await self._send(socket, "GUILD_CREATE", self.model.guild_payload(guild))
            self.ready.set()
            async with self._changed:
                self._changed.notify_all()
        elif op == 8:  # request guild members: the bot asks for no member lists, answer empty anyway
            chunk = {"guild_id": frame["d"]["guild_id"], "members": [], "chunk_index": 0, "chunk_count": 1,
                     "nonce": frame["d"].get("nonce")}
            await self._send(socket, "GUILD_MEMBERS_CHUNK", chunk)

    # --- REST -------------------------------------------------------------------------------

    def _routes(self) -> list[tuple[str, str, Handler]]:
        m = self.model

        def n(request: web.Request, name: str) -> int:
            return int(request.match_info[name])

        def info(request: web.Request, name: str) -> str:
            return request.match_info[name]

        return [
            ("GET", "/gateway", lambda r, b, f: {"url": self.gateway_url}),
            ("GET", "/gateway/bot", lambda r, b, f: {
                "url": self.gateway_url, "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1},
            }),
            ("GET", "/users/@me", lambda r, b, f: m.bot_user.payload()),
            ("GET", "/oauth2/applications/@me", lambda r, b, f: m.application_payload()),
            ("PUT", "/applications/{app}/commands", lambda r, b, f: m.overwrite_commands(None, b)),
            ("GET", "/applications/{app}/commands", lambda r, b, f: m.global_commands()),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", lambda r, b, f: m.overwrite_commands(n(r, "guild"), b)),
            ("POST", "/interactions/{id}/{token}/callback",
             lambda r, b, f: m.interaction_callback(n(r, "id"), info(r, "token"), b, f)),
            ("POST", "/webhooks/{app}/{token}", lambda r, b, f: m.execute_webhook(n(r, "app"), info(r, "token"), b, f)),
            ("GET", "/webhooks/{app}/{token}/messages/{message}",
             lambda r, b, f: m.get_webhook_message(n(r, "app"), info(r, "token"), info(r, "message"))),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message}",
             lambda r, b, f: m.edit_webhook_message(n(r, "app"), info(r, "token"), info(r, "message"), b, f)),
            ("DELETE", "/webhooks/{app}/{token}/messages/{message}",
             lambda r, b, f: m.delete_webhook_message(n(r, "app"), info(r, "token"), info(r, "message"))),
            ("POST", "/channels/{channel}/messages", lambda r, b, f: m.create_message(n(r, "channel"), b, f)),
            ("GET", "/channels/{channel}/messages/{message}",
             lambda r, b, f: m.get_message(n(r, "channel"), n(r, "message"))),
            ("PATCH", "/channels/{channel}/messages/{message}",
             lambda r, b, f: m.edit_message(n(r, "channel"), n(r, "message"), b, f)),
            ("DELETE", "/channels/{channel}/messages/{message}",
             lambda r, b, f: m.delete_message(n(r, "channel"), n(r, "message"))),
            ("PUT", "/channels/{channel}/messages/pins/{message}", lambda r, b, f: m.pin(n(r, "channel"), n(r, "message"))),
            ("DELETE", "/channels/{channel}/messages/pins/{message}",
             lambda r, b, f: m.pin(n(r, "channel"), n(r, "message"), pinned=False)),
            ("GET", "/channels/{channel}", lambda r, b, f: m.channel(n(r, "channel"))),
            ("PATCH", "/channels/{channel}", lambda r, b, f: m.edit_channel(n(r, "channel"), b)),
            ("DELETE", "/channels/{channel}", lambda r, b, f: m.delete_channel(n(r, "channel"))),
            ("POST", "/channels/{channel}/threads", lambda r, b, f: m.create_thread(n(r, "channel"), b)),
            ("PUT", "/channels/{channel}/thread-members/{user}",
             lambda r, b, f: m.add_thread_member(n(r, "channel"), n(r, "user"))),
            ("GET", "/guilds/{guild}/threads/active", lambda r, b, f: m.active_threads(n(r, "guild"))),
        ]

    def _rest(self, method: str, path: str, handler: Handler) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def serve(request: web.Request) -> web.Response:
            self.requests.append((request.method, request.path))
            self.request_times.append((asyncio.get_running_loop().time(), request.method, request.path))
            webhook = request.path.startswith((f"{API}/interactions/", f"{API}/webhooks/"))
            if not webhook and request.headers.get("Authorization") != f"Bot {self.token}":
                return _json({"message": "401: Unauthorized", "code": 0}, status=401)
            body, files = await _read_body(request)
            verdict = self.limits.check(method, path, request.match_info) if self.limits else None
            headers = verdict.headers if verdict else {}
            if verdict is not None and verdict.refused:
                self.refused.append((request.method, request.path, verdict.refused))
                return _json(verdict.body(), status=429, headers=headers)
            try:
                result = handler(request, body, files)
            except DiscordError as exc:
                return _json(exc.payload(), status=exc.status, headers=headers)
            finally:
                async with self._changed:
                    self._changed.notify_all()
            return web.Response(status=204, headers=headers) if result is None else _json(result, headers=headers)

        return serve

    async def _unknown(self, request: web.Request) -> web.Response:
        self.unhandled.append((request.method, request.path))
        return _json({"message": "404: Not Found", "code": 0}, status=404)


def _json(data: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py reads JSON only when the Content-Type is exactly application/json (no charset).
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


async def _read_body(request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
    if request.content_type.startswith("multipart/"):
        body: Any = None
        files = []
        reader = await request.multipart()
        async for part in reader:
            content = await part.read()  # type: ignore[union-attr]
            if part.name == "payload_json":  # type: ignore[union-attr]
                body = json.loads(content)
            else:
                files.append((part.filename or part.name or "file", bytes(content)))  # type: ignore[union-attr]
        return body, files
    raw = await request.read()
    return (json.loads(raw) if raw else None), []


def bot_command(fake: FakeDiscord) -> list[str]:
    """`python -m bot`'s main() in a child process, pointed at `fake` (its environment says the rest)."""
    code = ("import sys, yarl, discord.http, discord.gateway; "
            f"discord.http.Route.BASE = {fake.api_base!r}; "
            f"discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL({fake.gateway_url!r}); "
            "from bot.__main__ import main; sys.exit(main())")
    return [sys.executable, "-c", code]


async def stop_bot(process: asyncio.subprocess.Process) -> None:
    """Ctrl-C, as a user stops it (the bot closes its connections); killed if it does not stop within 15 s."""
    if process.returncode is None:
        process.send_signal(signal.SIGINT)
        try:
            await asyncio.wait_for(process.wait(), 15)
        except TimeoutError:
            process.kill()
            await process.wait()
