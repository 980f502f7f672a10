"""Rate limits of the web pages, per client: a token bucket of requests, and a cap on open streams. A page costs
a few requests (the page, its script and style, its stream, its pictures), then one long-lived stream."""

from __future__ import annotations

import math
import time
from collections import OrderedDict, defaultdict
from typing import Any

from aiohttp import web

CLIENTS_KEPT = 10_000  # buckets remembered; the least recently seen client is forgotten first
PROXIES = ("127.0.0.1", "::1")  # a reverse proxy on this machine: the client is the one it names


def client_address(request: web.Request) -> str:
    """The client's address; behind a reverse proxy on this machine, the last address it appended."""
    remote = request.remote or "?"
    forwarded = request.headers.get("X-Forwarded-For")
    if remote in PROXIES and forwarded:
        return forwarded.rsplit(",", 1)[-1].strip()
    return remote


class RateLimits:
    def __init__(self, *, per_minute: int = 240, streams: int = 60) -> None:
        """Per client: `per_minute` requests, twice that at once; `streams` pages open at once (a venue screen and
        a stream's overlays are far below it, a scraper is not). Both are settings (bot/plumbing/settings.py)."""
        self.rate, self.burst, self.streams = per_minute / 60, 2 * per_minute, streams
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # client -> (tokens, at)
        self._open: defaultdict[str, int] = defaultdict(int)

    @classmethod
    def of(cls, settings: Any) -> RateLimits:
        return cls(per_minute=settings.web_requests_per_minute, streams=settings.web_pages_per_client)

    def take(self, client: str) -> int | None:
        """Count a request: None when allowed, else the seconds to wait."""
        now = time.monotonic()
        tokens, at = self._buckets.pop(client, (float(self.burst), now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < 1:
            self._buckets[client] = (tokens, now)
            return math.ceil((1 - tokens) / self.rate)
        self._buckets[client] = (tokens - 1, now)
        while len(self._buckets) > CLIENTS_KEPT:
            self._buckets.popitem(last=False)
        return None

    def stream_started(self, client: str) -> bool:
        if self._open[client] >= self.streams:
            return False
        self._open[client] += 1
        return True

    def stream_ended(self, client: str) -> None:
        self._open[client] -= 1
        if self._open[client] <= 0:
            del self._open[client]
