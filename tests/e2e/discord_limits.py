"""Discord's REST rate limits, as the fake Discord (tests/e2e/fake_discord.py) enforces them when asked to.

Per-route buckets keyed by (bucket kind, major parameter) and the bot's global limit (webhooks and interaction callbacks aside), all fixed windows: a
bucket's first request opens a window of `per` seconds, and its count starts again when the window closes. Time is
the event loop's clock; `time_scale` shrinks every window (0.1: ten times shorter) to keep tests fast.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

# Bucket kind -> (requests, seconds) per major parameter.
BUCKETS: dict[str, tuple[int, float]] = {
    "message-create": (5, 5.0),
    "message-edit": (5, 5.0),
    "message-delete": (5, 1.0),
    "thread-create": (5, 5.0),  # per parent channel, with or without a starter message
    "thread-member": (5, 5.0),
    "channel-edit": (5, 5.0),  # Discord's is stricter for renames; archiving is what the bot does
    "webhook": (5, 2.0),  # interaction follow-ups and edits, per token
}
ROUTES: dict[tuple[str, str], str] = {
    ("POST", "/channels/{channel}/messages"): "message-create",
    ("PATCH", "/channels/{channel}/messages/{message}"): "message-edit",
    ("DELETE", "/channels/{channel}/messages/{message}"): "message-delete",
    ("POST", "/channels/{channel}/threads"): "thread-create",
    ("POST", "/channels/{channel}/messages/{message}/threads"): "thread-create",
    ("PUT", "/channels/{channel}/thread-members/{user}"): "thread-member",
    ("PATCH", "/channels/{channel}"): "channel-edit",
}
OTHER = (50, 1.0)  # any other route, per route and major parameter
GLOBAL = (50, 1.0)  # every request with the bot token, webhooks and interaction callbacks aside
MAJOR = ("channel", "guild", "token")  # the route parameters Discord keys buckets by


def bucket_hash(kind: str) -> str:
    """A stable X-RateLimit-Bucket value for a bucket kind."""
    return hashlib.sha1(kind.encode()).hexdigest()[:32]


def _ceil_ms(seconds: float) -> float:
    # Rounded up: a client that waits exactly this long must find the window closed.
    return math.ceil(round(seconds * 1000, 6)) / 1000


@dataclass
class Window:
    ends: float
    count: int = 0


@dataclass(frozen=True)
class Verdict:
    """What the limits say of one request: the headers its answer carries, and why it is refused (if it is)."""

    headers: dict[str, str]
    refused: str | None = None  # "route" or "global"
    retry_after: float = 0.0

    def body(self) -> dict[str, Any]:
        """The 429's JSON."""
        return {"message": "You are being rate limited.", "retry_after": self.retry_after,
                "global": self.refused == "global", "code": 0}


class RateLimits:
    def __init__(self, *, time_scale: float = 1.0, clock: Callable[[], float] | None = None,
                 wall: Callable[[], float] = time.time) -> None:
        self.time_scale = time_scale
        self._clock = clock or (lambda: asyncio.get_running_loop().time())
        self._wall = wall  # X-RateLimit-Reset is epoch seconds
        self._windows: dict[tuple[str, str], Window] = {}

    def bucket(self, method: str, template: str, params: Mapping[str, str]) -> tuple[str, str, int, float] | None:
        """(kind, major parameter, limit, window seconds) of a route; None for interaction callbacks (unlimited)."""
        if template.startswith("/interactions/"):
            return None
        kind = "webhook" if template.startswith("/webhooks/") else ROUTES.get((method, template), f"{method} {template}")
        limit, per = BUCKETS.get(kind, OTHER)
        major = next((params[name] for name in MAJOR if name in params), "")
        return kind, major, limit, per * self.time_scale

    def check(self, method: str, template: str, params: Mapping[str, str]) -> Verdict | None:
        """Count one request (unless refused); None when the route has no limit."""
        found = self.bucket(method, template, params)
        if found is None:
            return None
        kind, major, limit, per = found
        now = self._clock()
        route = self._window((kind, major), per, now)
        glob = None if kind == "webhook" else self._window(("global", ""), GLOBAL[1] * self.time_scale, now)
        # A refused request counts toward nothing.
        if glob is not None and glob.count >= GLOBAL[0]:
            return self._refuse(kind, route, limit, now, glob, "global")
        if route.count >= limit:
            return self._refuse(kind, route, limit, now, route, "route")
        for key, window in (((kind, major), route), (("global", ""), glob)):
            if window is not None:
                window.count += 1
                self._windows[key] = window
        return Verdict(self._headers(kind, route, limit, now))

    def _window(self, key: tuple[str, str], per: float, now: float) -> Window:
        """The bucket's open window, or a fresh one (stored only once a request counts in it)."""
        window = self._windows.get(key)
        return window if window is not None and now < window.ends else Window(now + per)

    def _headers(self, kind: str, route: Window, limit: int, now: float) -> dict[str, str]:
        reset_after = _ceil_ms(route.ends - now)
        return {
            "X-RateLimit-Limit": str(limit), "X-RateLimit-Remaining": str(max(limit - route.count, 0)),
            "X-RateLimit-Reset": f"{self._wall() + reset_after:.3f}", "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket_hash(kind),
        }

    def _refuse(self, kind: str, route: Window, limit: int, now: float, full: Window, scope: str) -> Verdict:
        retry_after = _ceil_ms(full.ends - now)
        headers = self._headers(kind, route, limit, now) | {
            "Retry-After": str(math.ceil(retry_after)),  # whole seconds, as Discord's header; the body has the float
            "X-RateLimit-Scope": "global" if scope == "global" else "user",
            "Via": "1.1 google",  # discord.py takes a 429 without it for a Cloudflare ban and does not retry
        }
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        return Verdict(headers, scope, retry_after)
