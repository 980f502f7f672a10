"""Rate limits of the web pages (bot/web/limits.py), per client address, and a slow page that only ever holds the
newest model (bot/web/feeds.py)."""

from __future__ import annotations

import aiohttp

from bot.web.feeds import Viewer
from bot.web.limits import RateLimits
from tests.cogs.game_table import Table
from tests.discord_model import FakeUser
from tests.web.conftest import open_stream, shared_links


def test_a_client_gets_twice_its_minute_at_once_then_waits() -> None:
    limits = RateLimits(per_minute=60, streams=2)
    assert [limits.take("a") for _ in range(120)] == [None] * 120
    assert limits.take("a") == 1  # one a second after the burst
    assert limits.take("b") is None  # another client is not held up
    assert limits.stream_started("a") and limits.stream_started("a") and not limits.stream_started("a")
    limits.stream_ended("a")
    assert limits.stream_started("a")


async def test_too_many_requests_and_pages_are_refused_with_429(
    table: Table, alice: FakeUser, http: aiohttp.ClientSession
) -> None:
    await table.start()
    links = await shared_links(table, alice)
    table.h.bot.web.limits = RateLimits(per_minute=3, streams=1)
    first = await open_stream(http, links["board"])
    await first.model()
    async with http.get(links["board"] + "/stream") as second:
        assert second.status == 429
    for _ in range(5):
        async with http.get(links["board"]) as page:
            status, headers = page.status, page.headers
    assert status == 429 and int(headers["Retry-After"]) >= 1
    assert "default-src 'none'" in headers["Content-Security-Policy"]


def test_a_slow_page_holds_only_the_newest_model() -> None:
    viewer = Viewer(("game", 1), "token")
    for version in range(5):
        viewer.send("model", str(version))
    assert viewer.frames.qsize() == 1 and viewer.frames.get_nowait() == ("model", "4")
