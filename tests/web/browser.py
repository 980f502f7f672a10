"""A real browser for the page tests: Debian's chromium driven by Playwright (its own browser download is not
needed). Where neither can be had, the tests using it are skipped with one line saying so."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator

import pytest

CANDIDATES = ("chromium", "chromium-browser", "google-chrome")


def chromium_path() -> str | None:
    return os.environ.get("CHROMIUM") or next((p for p in map(shutil.which, CANDIDATES) if p), None)


def unavailable(reason: str) -> None:
    """Skip, or fail where a browser is required (CI sets REQUIRE_BROWSER=1)."""
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(f"REQUIRE_BROWSER=1, but {reason}")
    pytest.skip(reason)


@pytest.fixture
async def browser() -> AsyncIterator[object]:
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        unavailable("Playwright is not installed: pip install -e '.[test]' for the browser tests")
    path = chromium_path()
    if path is None:
        unavailable("no Chromium here: apt-get install chromium (or set CHROMIUM) for the browser tests")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=path, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            await launched.close()
