"""Fixtures shared by every test folder."""

from __future__ import annotations

import pytest
from hypothesis import settings

from bot.decks import default_catalog
from bot.engine.chapter_approved.catalog import Catalog

# Tests never assert on time (bench/ measures it): no Hypothesis deadline, which flakes on a busy machine.
settings.register_profile("no-deadline", deadline=None)
settings.load_profile("no-deadline")


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    """The shipped Chapter Approved 2025-26 pack, loaded from decks/ once per test run."""
    return default_catalog()
