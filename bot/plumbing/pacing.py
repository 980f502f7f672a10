"""The bot's own pace under Discord's global rate limit: at most so many REST requests in any one second.

Discord allows a bot 50 requests a second over all its routes (interaction responses and their follow-ups apart,
which go through the webhook adapter, not here) and answers more with a 429 that makes everyone wait. Forty tables
starting together would pass it; this keeps under it instead, so no request ever needs a 429 to slow down. Requests
wait their turn in arrival order, evenly spaced, so that a burst never crowds one second.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from functools import wraps
from typing import Any


class GlobalPace:
    """A request leaves every 1/per_second seconds, with up to `burst` at once after a quiet spell (the generic
    cell rate algorithm), so any one second holds at most per_second + burst - 1 of them."""

    def __init__(self, per_second: int, *, burst: int = 4, clock: Callable[[], float] = time.monotonic) -> None:
        self._interval = 1 / per_second
        self._ahead = (burst - 1) * self._interval  # how far a request may leave before its even turn
        self._clock = clock
        self._due = 0.0  # when the next request's even turn comes
        self._turn = asyncio.Lock()

    async def wait(self) -> None:
        """Return once a request may leave."""
        async with self._turn:
            now = self._clock()
            self._due = max(self._due, now)
            if (early := self._due - self._ahead - now) > 0:
                await asyncio.sleep(early)
            self._due += self._interval

    def paced(self, request: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        @wraps(request)
        async def paced_request(*args: Any, **kwargs: Any) -> Any:
            await self.wait()
            return await request(*args, **kwargs)
        return paced_request
