"""A browser-like client of the organiser's desk (bot/web/desk.py), for tests: it signs in through the fake Discord's
OAuth2 (tests/web/fake_oauth.py) as a person, keeps the session cookie, reads the desk's stream and posts actions
as the desk's page does (same origin, the session's token)."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import aiohttp

from tests.discord_model import FakeUser
from tests.web.fake_oauth import FakeOAuth

DATA = re.compile(r'data-([a-z]+)="([^"]*)"')


class DeskClient:
    def __init__(self, base: str, event_id: int) -> None:
        self.base, self.event_id = base.rstrip("/"), event_id
        self.http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.page: dict[str, str] = {}
        self.stream: aiohttp.ClientResponse | None = None

    @property
    def url(self) -> str:
        return f"{self.base}/desk/{self.event_id}"

    async def sign_in(self, oauth: FakeOAuth, user: FakeUser) -> int:
        """Open the desk as `user` (signed in to Discord in this browser): the page's status."""
        oauth.browser_user = user
        async with self.http.get(self.url) as answer:
            text = await answer.text()
            self.page = {k: v for k, v in DATA.findall(text)}
            return answer.status

    async def act(self, action: str, *, origin: str | None = "same", token: str | None = None,
                  **body: Any) -> tuple[int, dict[str, Any]]:
        headers = {"X-Desk-Token": self.page.get("csrf", "") if token is None else token}
        if origin is not None:
            headers["Origin"] = self.base if origin == "same" else origin
        async with self.http.post(f"{self.url}/api/act", json={"action": action, **body}, headers=headers) as answer:
            return answer.status, await answer.json()

    async def get(self, path: str) -> tuple[int, str, dict[str, str]]:
        async with self.http.get(f"{self.url}/{path}") as answer:
            return answer.status, await answer.text(), dict(answer.headers)

    async def watch(self) -> dict[str, Any]:
        """Open the stream: its first model."""
        self.stream = await self.http.get(f"{self.url}/api/stream")
        assert self.stream.status == 200, await self.stream.text()
        return await self.next_model()

    async def frame(self, timeout: float = 5.0) -> tuple[str, Any]:
        assert self.stream is not None
        event, data = "", ""
        while True:
            line = (await asyncio.wait_for(self.stream.content.readline(), timeout)).decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data = line[6:]
            elif line == "" and event:
                return event, json.loads(data)

    async def next_model(self, *, after: int | None = None, where: Any = None,
                         timeout: float = 5.0) -> dict[str, Any]:
        """The next model (past version `after`, or one `where(model)` holds for)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            event, data = await self.frame(max(0.1, end - loop.time()))
            if event != "model":
                raise AssertionError(f"the stream said {event}: {data}")
            if (after is None or data["version"] > after) and (where is None or where(data)):
                return data

    async def close(self) -> None:
        if self.stream is not None:
            self.stream.close()
        await self.http.close()
