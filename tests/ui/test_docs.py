"""The documentation site says what the bot does: its first-game steps are /help's, and the README reaches every
page (the site's own links and navigation are checked by `mkdocs build --strict` in CI)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.ui.help_text import FIRST_GAME

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.md"))


@pytest.mark.parametrize("number, step", list(enumerate(FIRST_GAME.steps, start=1)))
def test_the_first_game_page_gives_the_steps_help_gives(number: int, step: str) -> None:
    page = (ROOT / "docs" / "players" / "first-game.md").read_text(encoding="utf-8")
    assert f"{number}. {step}" in page


@pytest.mark.parametrize("page", PAGES)
def test_the_readme_links_every_page(page: str) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"]({page})" in readme


def test_the_readme_fits_one_screen() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 150


def test_every_page_is_in_the_navigation() -> None:
    nav = set(re.findall(r":\s*(\S+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M))
    assert {page.removeprefix("docs/") for page in PAGES} == nav
