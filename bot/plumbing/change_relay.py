"""Changes between processes over PostgreSQL's own LISTEN/NOTIFY: no broker besides the database the processes
share already. Each process listens on one channel and tells the others each of its changes (its ids and version:
the listeners read the record themselves). With SQLite there is one process, and nothing to relay."""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
from sqlalchemy.engine import make_url

from bot.plumbing.changes import Change

_log = logging.getLogger(__name__)

CHANNEL = "mission_deck_changes"
RECONNECT_SECONDS = (1, 2, 5, 10, 30)


class PgRelay:
    def __init__(self, database_url: str) -> None:
        self._dsn = make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)
        self.origin = uuid.uuid4().hex  # this process: its own notifications come back to it, and are skipped
        self._deliver: Callable[[Change], Awaitable[None]] | None = None
        self._conn: Any = None
        self._send_lock = asyncio.Lock()  # one query at a time on the connection
        self._tasks: set[asyncio.Task] = set()
        self._closed = False

    async def start(self, deliver: Callable[[Change], Awaitable[None]]) -> None:
        self._deliver = deliver
        await self._connect()

    async def _connect(self) -> None:
        self._conn = await asyncpg.connect(self._dsn)
        await self._conn.add_listener(CHANNEL, self._heard)
        self._conn.add_termination_listener(self._lost)

    async def send(self, change: Change) -> None:
        payload = json.dumps({**change.wire(), "origin": self.origin})
        async with self._send_lock:
            await self._conn.execute("SELECT pg_notify($1, $2)", CHANNEL, payload)

    async def close(self) -> None:
        self._closed = True
        for task in tuple(self._tasks):
            task.cancel()
        if self._conn is not None and not self._conn.is_closed():
            await self._conn.close()

    def _heard(self, connection: Any, pid: int, channel: str, payload: str) -> None:
        data = json.loads(payload)
        if data.get("origin") == self.origin or self._deliver is None:
            return
        self._spawn(self._deliver(Change.from_wire(data)))

    def _lost(self, connection: Any) -> None:
        if not self._closed:
            _log.warning("Lost the database's change notifications: reconnecting")
            self._spawn(self._reconnect())

    async def _reconnect(self) -> None:
        for delay in (*RECONNECT_SECONDS, *[RECONNECT_SECONDS[-1]] * 1000):
            await asyncio.sleep(delay)
            try:
                await self._connect()
                _log.info("Change notifications are back")
                return
            except (OSError, asyncpg.PostgresError) as exc:
                _log.warning("Change notifications: still no connection (%s)", exc)

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
