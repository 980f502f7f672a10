"""The bot's own pace under Discord's global rate limit: at most so many REST requests in any one second.

Discord allows a bot 50 requests a second over all its routes (interaction responses and their follow-ups apart,
which go through the webhook adapter, not here) and answers more with a 429 that makes everyone wait. Forty tables
starting together would pass it; this keeps under it instead, so no request ever needs a 429 to slow down. Requests
wait their turn in arrival order.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from functools import wraps
from typing import Any


class GlobalPace:
    def __init__(self, per_second: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second = per_second
        self._clock = clock
        self._sent: deque[float] = deque()  # when each request of the last second left
        self._turn = asyncio.Lock()

    async def wait(self) -> None:
        """Return once a request may leave without passing `per_second` in any one second."""
        async with self._turn:
            now = self._forget_older()
            if len(self._sent) >= self.per_second:
                await asyncio.sleep(self._sent[0] + 1 - now)
                now = self._forget_older()
            self._sent.append(now)

    def _forget_older(self) -> float:
        now = self._clock()
        while self._sent and now - self._sent[0] >= 1:
            self._sent.popleft()
        return now

    def paced(self, request: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        @wraps(request)
        async def paced_request(*args: Any, **kwargs: Any) -> Any:
            await self.wait()
            return await request(*args, **kwargs)
        return paced_request
