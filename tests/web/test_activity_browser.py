"""The Activity in Chromium, outside Discord: the page runs the Embedded App SDK's mock, and its sign-in goes
through the fake Discord's OAuth2. Both players sign in and play a whole turn in it (choose, score, end the turn)
while the channel's board follows; each sees only their own secret; a press that is not yours is refused; a third
user watches, read-only."""

from __future__ import annotations

from typing import Any

from tests.cogs.game_table import Table
from tests.discord_model import GUILD_ID, FakeUser
from tests.web.browser import browser  # noqa: F401
from tests.web.fake_oauth import FakeOAuth

WAIT_MS = 8000


async def open_activity(browser: Any, table: Table, oauth: FakeOAuth, user: FakeUser,  # noqa: F811
                        errors: list[str]) -> Any:
    page = await browser.new_page(viewport={"width": 1280, "height": 720})
    page.on("pageerror", lambda error: errors.append(str(error)))
    channel = (table.channel or table.h.default_channel).id
    instance = next((i for i, found in oauth.instances.items() if found["location"]["channel_id"] == str(channel)),
                    None) or oauth.launch(channel, GUILD_ID)
    if str(user.id) not in oauth.instances[instance]["users"]:
        oauth.join(instance, user.id)
    code = oauth.code_for(user.id, user.name)
    await page.goto(f"{table.h.bot.web.public_url}/activity/?instance={instance}&mock_code={code}")
    await page.wait_for_selector(f'body[data-signed-in="{user.id}"]', timeout=WAIT_MS)
    return page


async def shown(table: Table, pages: list[Any], version: int | None = None) -> int:
    """Every page shows `version` of the game (default: the current one), and so does the Discord board."""
    version = await table.version() if version is None else version
    for page in pages:
        await page.wait_for_selector(f'body[data-version="{version}"]', timeout=WAIT_MS)
    await table.h.bot.desk.idle()  # the board's edit, scheduled when the change was published
    assert (await table.board())["embeds"][0]["footer"]["text"].endswith(f"move {version}")
    return version


async def press(page: Any, verb: str) -> None:
    await page.click(f'#you [data-verb="{verb}"]')


async def test_both_players_play_a_turn_in_the_activity(
    browser: Any, table: Table, oauth: FakeOAuth, alice: FakeUser, bob: FakeUser, carol: FakeUser,  # noqa: F811
) -> None:
    await table.start(seed="activity-browser")
    errors: list[str] = []
    pages = {u.name: await open_activity(browser, table, oauth, u, errors) for u in (alice, bob, carol)}
    everyone = list(pages.values())
    await shown(table, everyone)
    watcher = pages["carol"]
    assert await watcher.get_attribute("#you", "data-seat") == "watch"
    assert await watcher.query_selector('#you [data-verb]') is None

    state = await table.state()
    by_id = {str(alice.id): pages["alice"], str(bob.id): pages["bob"]}
    winner, other = by_id[state.sides_rolloff.winner], by_id[state.opponent(state.sides_rolloff.winner).id]
    version = await table.version()
    await press(other, "attacker")  # the roll-off is not theirs: refused, nothing moves
    await other.wait_for_selector("#you-error:not([hidden])", timeout=WAIT_MS)
    assert await table.version() == version
    await press(winner, "attacker")
    version = await shown(table, everyone, version + 1)

    # Alice's Fixed pick is on her screen alone until Bob has chosen.
    await press(pages["alice"], "choose")
    await pages["alice"].wait_for_selector("#menu", timeout=WAIT_MS)
    boxes = await pages["alice"].query_selector_all('#menu input[type="checkbox"]')
    picked = [await box.get_attribute("value") for box in boxes[:2]]
    for box in boxes[:2]:
        await box.check()
    await pages["alice"].click("#menu-confirm")
    version = await shown(table, everyone, version + 1)
    secret = await pages["alice"].inner_text("#you")
    assert "Your secret choice" in secret
    for page in (pages["bob"], watcher):
        text = (await page.inner_text("body")).lower()
        assert "your secret choice" not in text and all(p.replace("-", " ") not in text for p in picked)
    await press(pages["bob"], "choose")
    await pages["bob"].wait_for_selector('#menu [data-verb="tactical"]', timeout=WAIT_MS)
    await pages["bob"].click('#menu [data-verb="tactical"]')
    version = await shown(table, everyone, version + 1)

    # Deployment on the board in the chat; then the first turn in the Activity.
    await table.deploy()
    await table.answer_all()
    version = await shown(table, everyone)
    active = by_id[(await table.state()).active]
    await press(active, "endcmd")
    version = await shown(table, everyone, version + 1)
    await press(active, "endturn")
    version = await shown(table, everyone, version + 1)

    # The end of the turn: the active player scores their card with its own options, then both are done.
    await press(active, "score")
    await active.wait_for_selector("#menu", timeout=WAIT_MS)
    option = await active.query_selector("#menu input")
    await option.check()
    await active.click("#menu-confirm")
    version = await shown(table, everyone, version + 1)
    assert (await table.state()).total_vp(next(i for i, p in by_id.items() if p is active)) > 0
    opponent = pages["bob"] if active is pages["alice"] else pages["alice"]
    for page in (active, opponent):
        await press(page, "done")
        version = await shown(table, everyone, version + 1)
    assert (await table.state()).phase != "end_of_turn"  # the turn is over: its discards, or the next turn
    assert errors == []
