"""A real MissionBot behind the interaction harness, its players, and a game table between two of them."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_asyncio

from bot.client import MissionBot
from bot.engine.chapter_approved.catalog import Catalog
from bot.plumbing.settings import Settings
from tests.cogs.game_table import Table
from tests.cogs.harness import Harness
from tests.discord_model import GUILD_ID, FakeUser


def harness_settings(database_url: str, **overrides: object) -> Settings:
    # _env_file=None: a developer's own .env must not leak into the tests. The harness plays a game's worth of
    # requests in a moment: Discord's pace (bot/plumbing/pacing.py) is tested on its own and measured in bench/.
    overrides.setdefault("requests_per_second", 10_000)
    return Settings(
        _env_file=None, discord_token="harness-token", test_guild_id=GUILD_ID, database_url=database_url, **overrides
    )


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """A fresh SQLite file per test, so no test sees another's games."""
    return f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"


@pytest.fixture
async def harness(catalog: Catalog, database_url: str):
    async with Harness(MissionBot(harness_settings(database_url), catalog)) as h:
        yield h


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_harness(catalog: Catalog, tmp_path_factory: pytest.TempPathFactory):
    """One bot for a whole module, for look-up commands that keep no state (tests/cogs/lookups.py)."""
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('bot') / 'bot.db'}"
    async with Harness(MissionBot(harness_settings(url), catalog)) as h:
        yield h


@pytest.fixture
def alice(harness: Harness) -> FakeUser:
    return harness.user("alice")


@pytest.fixture
def bob(harness: Harness) -> FakeUser:
    return harness.user("bob")


@pytest.fixture
def carol(harness: Harness) -> FakeUser:
    """A third member of the server: not a player of the table's game."""
    return harness.user("carol")


@pytest.fixture
def table(harness: Harness, alice: FakeUser, bob: FakeUser) -> Table:
    return Table(harness, alice, bob)
