"""Fixtures shared by every test folder."""

from __future__ import annotations

import pytest
from hypothesis import settings

from bot.decks import default_catalog
from bot.engine.chapter_approved.catalog import Catalog
from tests.discord_model import MANAGE_SERVER, FakeUser

# Tests never assert on time (bench/ measures it): no Hypothesis deadline, which flakes on a busy machine.
settings.register_profile("no-deadline", deadline=None)
settings.load_profile("no-deadline")


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    """The shipped Chapter Approved 2025-26 pack, loaded from decks/ once per test run."""
    return default_catalog()


@pytest.fixture
def organiser(harness) -> FakeUser:
    """The server's organiser (Manage Server), in the tests that have a `harness` (tests/cogs, tests/web)."""
    return harness.user("organiser", permissions=MANAGE_SERVER)


@pytest.fixture
def players(harness) -> list[FakeUser]:
    """Eight members of the server, player0 to player7."""
    return [harness.user(f"player{i}") for i in range(8)]
