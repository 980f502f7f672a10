"""The bot's pace under Discord's global rate limit: never more than so many requests in any one second (the pace
and its small burst), in the order they came, and every one of them sent."""

from __future__ import annotations

import asyncio
import time

from bot.plumbing.pacing import GlobalPace


async def test_no_second_ever_holds_more_requests_than_the_pace_allows() -> None:
    pace, left = GlobalPace(5, burst=2), []

    async def request(n: int) -> int:
        left.append((time.monotonic(), n))
        return n

    paced = pace.paced(request)
    answers = await asyncio.gather(*(paced(n) for n in range(12)))
    assert answers == list(range(12)) and [n for _, n in left] == list(range(12))  # all sent, in order
    times = [t for t, _ in left]
    for i, start in enumerate(times):
        assert sum(1 for t in times[i:] if t - start < 1) <= 5 + 2 - 1
