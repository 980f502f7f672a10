"""A channel's allowance of one kind of request, as Discord counts it: so many in any `per` seconds (5 edits of
a channel's messages in 5 s). The board asks it before an edit through the channel, so that an edit goes at once
while the allowance has room and waits (gathering the presses that come meanwhile) only when it has none: discord.py
would wait too, but then send a board drawn before the wait."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

CHANNELS_KEPT = 4096  # channels whose recent requests are remembered (an older one has long had room again)


class ChannelBudget:
    def __init__(self, limit: int = 5, per: float = 5.0, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.per = limit, per
        self._clock = clock
        self._slots: dict[int, deque[float]] = {}  # channel -> when its last `limit` requests go (or went)

    def reserve(self, channel_id: int) -> float:
        """Take the channel's next free slot: the seconds to wait before the request may go (0: at once)."""
        now = self._clock()
        slots = self._slots.pop(channel_id, None) or deque(maxlen=self.limit)
        self._slots[channel_id] = slots  # the newest at the end, so the oldest are dropped first
        at = max(now, slots[0] + self.per) if len(slots) == self.limit else now
        slots.append(at)
        while len(self._slots) > CHANNELS_KEPT:
            del self._slots[next(iter(self._slots))]
        return at - now
