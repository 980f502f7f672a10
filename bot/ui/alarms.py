"""One way to wait for a stored moment: the moment lives in the database, an alarm is armed from it after each
change and at start-up, and what it fires checks the stored state again (so a restart, a second timer or a
second process never does it twice). Alarms are keyed: arming a key again moves its alarm."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Hashable

_log = logging.getLogger(__name__)

LATE_S = 0.05  # wake just after the moment, so whatever checks it sees it as passed


class Alarms:
    def __init__(self) -> None:
        self._armed: dict[Hashable, tuple[float, asyncio.Task]] = {}  # key -> (moment in epoch seconds, timer)

    def moment(self, key: Hashable) -> float | None:
        return self._armed[key][0] if key in self._armed else None

    def arm(self, key: Hashable, at: float | None, fire: Callable[[], Awaitable[object]]) -> None:
        """Call `fire` at `at` (epoch seconds); None drops the key's alarm. The same moment again changes nothing."""
        armed = self._armed.get(key)
        if armed is not None and armed[0] == at:
            return
        self.drop(key)
        if at is not None:
            task = asyncio.create_task(self._sleep_until(key, at, fire), name=f"alarm-{key}")
            self._armed[key] = (at, task)

    def drop(self, key: Hashable) -> None:
        armed = self._armed.pop(key, None)
        if armed is not None:
            armed[1].cancel()

    def stop(self) -> None:
        for _, task in self._armed.values():
            task.cancel()
        self._armed.clear()

    async def _sleep_until(self, key: Hashable, at: float, fire: Callable[[], Awaitable[object]]) -> None:
        await asyncio.sleep(max(0.0, at - time.time()) + LATE_S)
        if self._armed.get(key, (None, None))[1] is asyncio.current_task():
            del self._armed[key]
        try:
            await fire()
        except Exception:
            _log.exception("Alarm %s failed", key)
