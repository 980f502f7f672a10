"""A fake Discord on 127.0.0.1, with discord.py pointed at it for the length of one test; the settings the
real entry point reads to reach it; the bots it starts; the errors they log; the crowd's databases."""

from __future__ import annotations

import logging
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import discord
import pytest
import yarl

from bot.client import MissionBot
from bot.plumbing.settings import Settings
from tests.discord_model import GUILD_ID
from tests.e2e.fake_discord import FakeDiscord
from tests.store.conftest import database_named, drop_database, postgres_admin_url, run_admin


@pytest.fixture
async def fake_discord(monkeypatch: pytest.MonkeyPatch):
    async with FakeDiscord(lifetime=60) as fake:
        monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
        monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
        yield fake


@pytest.fixture
def bot_settings(fake_discord: FakeDiscord, tmp_path: Path) -> Settings:
    """What `python -m bot` reads from .env, pointed at the fake Discord and a fresh SQLite file."""
    return Settings(_env_file=None, discord_token=fake_discord.token, test_guild_id=GUILD_ID,
                    database_url=f"sqlite+aiosqlite:///{tmp_path / 'e2e.db'}")


@pytest.fixture
def bots(monkeypatch: pytest.MonkeyPatch) -> list[MissionBot]:
    """Every MissionBot the entry point creates, so the test can wait for its board edits."""
    started: list[MissionBot] = []
    setup_hook = MissionBot.setup_hook

    async def recording_setup_hook(self: MissionBot) -> None:
        await setup_hook(self)
        started.append(self)

    monkeypatch.setattr(MissionBot, "setup_hook", recording_setup_hook)
    return started


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def logged_errors() -> Iterator[list[logging.LogRecord]]:
    """Every ERROR logged during the test (the end-to-end tests expect none)."""
    handler = _Errors()
    logging.getLogger().addHandler(handler)
    yield handler.records
    logging.getLogger().removeHandler(handler)


@pytest.fixture(params=["sqlite", "postgresql"])
async def crowd_database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A SQLite file, then a scratch PostgreSQL database when TEST_POSTGRES_URL is set (the bot processes migrate
    it; dropped afterwards)."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'crowd.db'}"
        return
    admin_url = postgres_admin_url()
    name = f"crowd_{uuid.uuid4().hex[:12]}"
    await run_admin(admin_url, f'CREATE DATABASE "{name}"')
    try:
        yield database_named(admin_url, name)
    finally:
        await drop_database(admin_url, name)
