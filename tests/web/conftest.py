"""The web pages served by a harnessed bot (WEB_PORT set, on 127.0.0.1), and a reader of their live streams."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.client import MissionBot
from bot.engine.chapter_approved.catalog import Catalog
from tests.cogs.conftest import alice, bob, carol, database_url, harness_settings, table  # noqa: F401
from tests.cogs.game_table import Table
from tests.cogs.harness import Harness
from tests.discord_model import FakeUser


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
async def oauth():
    """Discord's OAuth2 endpoints for the Activity's sign-in, faked on 127.0.0.1."""
    from tests.web.fake_oauth import FakeOAuth
    fake = FakeOAuth()
    fake.api = await fake.start()
    yield fake
    await fake.stop()


@pytest.fixture
async def harness(catalog: Catalog, database_url: str, oauth):  # noqa: F811
    from tests.web.fake_oauth import CLIENT_ID, CLIENT_SECRET
    port = free_port()
    settings = harness_settings(database_url, web_port=port, public_url=f"http://127.0.0.1:{port}",
                                discord_client_id=CLIENT_ID, discord_client_secret=CLIENT_SECRET,
                                discord_api_url=oauth.api)
    async with Harness(MissionBot(settings, catalog)) as h:
        yield h


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def shared_links(table: Table, asker: FakeUser) -> dict[str, str]:  # noqa: F811
    """/game share by `asker`, agreed by the opponent: the links the bot posted, by name."""
    ask = await table.slash("game share", asker)
    [agree] = ask.custom_ids
    agreed = await table.h.press(agree, user=table.other(asker), message_id=int(ask.main.message["id"]))
    return links_in(agreed.main.content)


def links_in(text: str) -> dict[str, str]:
    """'Board: <url>', 'scoreboard <url>' ...: each link by the word before it."""
    found = {}
    words = text.replace("<", " <").split()
    for before, word in zip(words, words[1:]):
        if word.startswith("<http"):
            found[before.rstrip(":").lower()] = word.strip("<>").split(">")[0]
    return found


class Stream:
    """A page's server-sent events, read as the browser would: (event, data) frames."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response

    async def frame(self, timeout: float = 5.0) -> tuple[str, Any]:
        event, data = "message", []
        while True:
            raw = await asyncio.wait_for(self.response.content.readline(), timeout)
            if not raw:
                raise EOFError("the stream ended")
            line = raw.decode().rstrip("\n")
            if line == "" and data:
                return event, json.loads("\n".join(data))
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data.append(line[6:])

    async def model(self, *, after: int = -1, timeout: float = 5.0) -> dict[str, Any]:
        """The first model newer than version `after`."""
        while True:
            event, data = await self.frame(timeout)
            if event == "model" and data["version"] > after:
                return data


async def open_stream(http: aiohttp.ClientSession, page: str) -> Stream:
    response = await http.get(page.split("?")[0].removesuffix("/") + "/stream" if "/overlay/" not in page
                              else page.split("/overlay/")[0] + "/stream")
    assert response.status == 200, await response.text()
    return Stream(response)
