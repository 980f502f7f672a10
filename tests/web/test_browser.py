"""The pages in Chromium while a whole game is pressed through the fake Discord: every change of the board reaches
the board page and the scoreboard overlay, a secret choice never shows before its reveal, a revoked link stops."""

from __future__ import annotations

from typing import Any

from tests.cogs.game_table import Table
from tests.discord_model import FakeUser
from tests.web.browser import browser  # noqa: F401
from tests.web.conftest import shared_links

WAIT_MS = 5000


async def open_page(browser: Any, url: str, errors: list[str]) -> Any:  # noqa: F811
    page = await browser.new_page()
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.goto(url)
    return page


async def follows(table: Table, pages: list[Any]) -> int:
    """Every page shows the game's current version (its body's data-version) within WAIT_MS."""
    version = await table.version()
    for page in pages:
        await page.wait_for_selector(f'body[data-version="{version}"]', timeout=WAIT_MS)
    return version


async def test_a_whole_game_appears_on_the_pages_as_it_is_pressed(
    browser: Any, table: Table, alice: FakeUser, bob: FakeUser  # noqa: F811
) -> None:
    await table.start(seed="browser")
    links = await shared_links(table, alice)
    errors: list[str] = []
    board = await open_page(browser, links["board"], errors)
    overlay = await open_page(browser, links["scoreboard"], errors)
    pages = [board, overlay]
    await follows(table, pages)

    state = await table.state()
    await table.press("attacker", table.user(state.sides_rolloff.winner))
    await follows(table, pages)
    await table.choose(alice, ("cleanse", "assassination"))
    await follows(table, pages)
    assert "Cleanse" not in await board.inner_text("body")  # secret until Bob has chosen
    await table.choose(bob, None)
    await follows(table, pages)
    seat = 0 if state.players[0].id == str(alice.id) else 1
    assert "Cleanse" in await board.inner_text(f"#p{seat}-cards")
    await table.deploy()
    while (await table.state()).status != "ended":
        state = await table.state()
        if state.round == 2:  # enough turns: the active player concedes
            await table.slash("game concede", await table.active_user())
            break
        await table.end_turn_plain()
        await follows(table, pages)
        now = await table.state()
        for page in pages:
            assert [await page.inner_text(f"#p{i}-vp") for i in (0, 1)] == [str(now.total_vp(p.id))
                                                                             for p in now.players]
    await follows(table, pages)
    assert "wins" in await board.inner_text("#status")
    await board.wait_for_selector('img[src$="sheet.png"]', timeout=WAIT_MS)
    assert errors == []


async def test_a_revoked_link_stops_the_page(browser: Any, table: Table, alice: FakeUser,  # noqa: F811
                                             bob: FakeUser) -> None:
    await table.start()
    links = await shared_links(table, alice)
    errors: list[str] = []
    overlay = await open_page(browser, links["clock"], errors)
    await follows(table, [overlay])
    await table.slash("game share", bob, stop=True)
    await overlay.wait_for_selector("#gone:not([hidden])", timeout=WAIT_MS)
    assert "revoked" in await overlay.inner_text("#gone")
