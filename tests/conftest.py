"""Fixtures shared by every test folder."""

from __future__ import annotations

import pytest

from bot.decks import default_catalog
from bot.engine.catalog import Catalog


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    """The shipped Chapter Approved 2025-26 pack, loaded from decks/ once per test run."""
    return default_catalog()
