"""The docs' pictures of the web pages (docs/organisers/screens.md), drawn from a real game and event pressed
through the fake Discord and shot in Chromium:  .venv/bin/python -m tests.web.screenshots [docs/images/web]"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from playwright.async_api import async_playwright

from bot.client import MissionBot
from bot.decks import default_catalog
from bot.plumbing.settings import Settings
from tests.cogs.conftest import harness_settings
from tests.cogs.game_table import Table
from tests.cogs.harness import Harness
from tests.cogs.test_table_games import thread_tables
from tests.cogs.test_tournament_commands import open_event, publish
from tests.discord_model import GUILD_ID, MANAGE_SERVER
from tests.web.browser import chromium_path
from tests.web.conftest import free_port, links_in, shared_links
from tests.web.fake_oauth import CLIENT_ID, CLIENT_SECRET, FakeOAuth


@asynccontextmanager
async def shooting() -> AsyncIterator[tuple[Harness, Settings, FakeOAuth, Any]]:
    """A bot on a database and a web port of its own, its users signed in through the fake Discord's OAuth2, and a
    Chromium to shoot its pages."""
    port = free_port()
    oauth = FakeOAuth()
    api = await oauth.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            settings = harness_settings(f"sqlite+aiosqlite:///{tmp}/shots.db", web_port=port,
                                        public_url=f"http://127.0.0.1:{port}", discord_client_id=CLIENT_ID,
                                        discord_client_secret=CLIENT_SECRET, discord_api_url=api)
            async with Harness(MissionBot(settings, default_catalog())) as h, async_playwright() as playwright:
                oauth.model = h.model
                browser = await playwright.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
                try:
                    yield h, settings, oauth, browser
                finally:
                    await browser.close()
    finally:
        await oauth.stop()


async def shoot(page, url: str, path: Path, *, width: int, height: int, full: bool = False) -> None:
    await page.set_viewport_size({"width": width, "height": height})
    await page.goto(url)
    await page.wait_for_selector("body[data-version]")
    await page.wait_for_timeout(500)  # pictures and fonts
    await page.screenshot(path=str(path), full_page=full)
    print(f"wrote {path}")


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    async with shooting() as (h, settings, oauth, browser):
        page = await browser.new_page()
        alice, bob = h.user("Alice"), h.user("Bob")
        table = Table(h, alice, bob)
        await table.start(seed="screens", clock=150, faction="Space Wolves", detachment="Saga of the Hunter")
        await table.to_battle(first_fixed=None, second_fixed=("bring-it-down", "engage-on-all-fronts"))
        for _ in range(3):
            await table.end_turn_plain()
        links = await shared_links(table, alice)
        await shoot(page, links["board"], out / "board.png", width=1280, height=900, full=True)
        await shoot(page, links["board"], out / "board-phone.png", width=390, height=844)
        call = oauth.launch(h.default_channel.id, GUILD_ID, alice.id, bob.id)
        activity = f"{settings.web_url}/activity/?instance={call}&mock_code={oauth.code_for(alice.id, 'Alice')}"
        await page.set_viewport_size({"width": 1280, "height": 720})
        await page.goto(activity)
        await page.wait_for_selector("body[data-version]")
        await page.wait_for_timeout(500)
        await page.screenshot(path=str(out / "activity.png"))
        print(f"wrote {out / 'activity.png'}")
        await shoot(page, links["scoreboard"] + "?bg=solid", out / "overlay-scoreboard.png", width=1920,
                    height=1080)
        await shoot(page, links["scoreboard"].rsplit("/", 1)[0] + "/cards?side=1&bg=solid",
                    out / "overlay-cards.png", width=1920, height=1080)

        organiser = h.user("organiser", permissions=MANAGE_SERVER)
        players = [h.user(name) for name in ("Aleksandra", "Bruno", "Chidi", "Dana", "Emeka", "Fatima",
                                             "Gwen", "Hiro", "Ines", "Jonas", "Kaito", "Lena")]
        await open_event(h, organiser, players, **{"announce-channel": h.channel("pairings")})
        await publish(h, organiser, mission="C")
        tables = await thread_tables(h, players)
        for played in tables[:3]:
            await played.to_battle()
            await played.end_turn_plain()
        shared = await h.slash("tournament share", user=organiser)
        await shoot(page, links_in(shared.main.content)["screen"], out / "event.png", width=1920, height=1080)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images/web")))
