"""A whole game played from the Activity alone, in Chromium (the SDK's mock outside Discord, the fake Discord's
OAuth2 and Activity instances): both players open the table in the call, one challenges from the lobby, the other
accepts there, both set their army (a list pasted, a list file), and they play a Chapter Approved 2025-26 game to
its result card with every form of the pack (Set army, Name units), while the Discord board in the call's chat
follows every move. Then a turn of each older pack, with theirs (a Codex objective's name, an objective's VP)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.engine.chapter_approved.state import Phase, PromptKind, Status
from tests.cogs.game_table import Table, battle_steps, find_seed
from tests.discord_model import GUILD_ID, VOICE, FakeUser
from tests.web.browser import browser  # noqa: F401
from tests.web.fake_oauth import FakeOAuth
from tests.web.test_activity_play import LIST

WAIT_MS = 10_000
ALICE_FIXED = ("cleanse", "assassination")


class Pages:
    """Each player's Activity page, and the game's table in the call's chat."""

    def __init__(self, table: Table, pages: dict[int, Any]) -> None:
        self.table, self.by_id = table, pages

    def of(self, player: str) -> Any:
        return self.by_id[int(player)]

    async def shown(self, version: int | None = None) -> int:
        """Every page shows `version` (default: the game's current one), and so does the Discord board."""
        version = await self.table.version() if version is None else version
        for page in self.by_id.values():
            try:
                await page.wait_for_selector(f'body[data-version="{version}"]', timeout=WAIT_MS)
            except Exception as exc:  # say what the page said: a refusal on it is the likely cause
                said = [await p.inner_text("#you-error") for p in self.by_id.values()]
                raise AssertionError(f"version {version} not shown; the pages say {said}") from exc
        await self.table.h.bot.desk.idle()
        assert f"move {version}" in (await self.table.board())["embeds"][0]["footer"]["text"]
        return version

    async def press(self, player: str, verb: str) -> int:
        """A control with no menu: the game moves on by one."""
        version = await self.table.version()
        await self.of(player).click(f'#you [data-verb="{verb}"]')
        return await self.shown(version + 1)


async def open_table(browser: Any, harness, oauth: FakeOAuth, instance: str, user: FakeUser,  # noqa: F811
                     errors: list[str]) -> Any:
    page = await browser.new_page(viewport={"width": 1280, "height": 800})
    page.on("pageerror", lambda error: errors.append(str(error)))
    code = oauth.code_for(user.id, user.name)
    await page.goto(f"{harness.bot.web.public_url}/activity/?instance={instance}&mock_code={code}")
    await page.wait_for_selector(f'body[data-signed-in="{user.id}"]', timeout=WAIT_MS)
    return page


async def open_menu(page: Any, verb: str) -> None:
    await page.click(f'#you [data-verb="{verb}"]')
    await page.wait_for_selector("#menu", timeout=WAIT_MS)


async def fill_form(page: Any, typed: dict[str, str], file: tuple[str, bytes] | None = None) -> None:
    await page.wait_for_selector("form#menu", timeout=WAIT_MS)
    for name, text in typed.items():
        await page.fill(f'#menu [name="{name}"]', text)
    if file is not None:
        await page.set_input_files('#menu input[type="file"]',
                                   files=[{"name": file[0], "mimeType": "text/plain", "buffer": file[1]}])
    await page.click("#form-send")


@pytest.fixture
def voice(harness) -> Any:
    return harness.channel("table-voice", type=VOICE)


async def test_a_whole_game_from_the_call(browser: Any, harness, voice, oauth: FakeOAuth, catalog,  # noqa: F811
                                          alice: FakeUser, bob: FakeUser, monkeypatch: pytest.MonkeyPatch) -> None:
    # Bob's first draw is Marked for Death, so both its forms come up (the engine finds the seed; the page
    # picks no seed of its own, so the bot's new one is this).
    players = (str(alice.id), str(bob.id))
    seed = find_seed(catalog, players, lambda s: any(q.kind == PromptKind.ALPHA_TARGETS for q in s.prompts),
                     steps=battle_steps(*players, ALICE_FIXED, None), prefix="call")
    monkeypatch.setattr("bot.services.game_options.new_seed", lambda: seed)
    instance = oauth.launch(voice.id, GUILD_ID, alice.id, bob.id)
    errors: list[str] = []
    alice_page = await open_table(browser, harness, oauth, instance, alice, errors)
    bob_page = await open_table(browser, harness, oauth, instance, bob, errors)

    # The lobby: Alice challenges Bob from the call; Bob's page finds the challenge and accepts it.
    await alice_page.wait_for_selector(f'#lobby-opponent option[value="{bob.id}"]', state="attached", timeout=WAIT_MS)
    await alice_page.select_option("#lobby-pack", "ca-2025-26")
    await alice_page.select_option("#lobby-size", "strike-force")
    await alice_page.click("#lobby-send")
    await bob_page.wait_for_selector('#you [data-verb="accept"]', timeout=WAIT_MS)
    table = Table(harness, alice, bob, channel=voice)
    table.game_id = (await harness.bot.service.get_state(channel_id=voice.id)).id
    await bob_page.click('#you [data-verb="accept"]')
    await bob_page.wait_for_selector('#you [data-verb="army"]', timeout=WAIT_MS)
    await harness.bot.desk.idle()
    challenge, board = harness.model.channel_messages(voice.id)
    assert challenge["content"].endswith("✅ Bob accepted.") and board["components"]
    pages = Pages(table, {alice.id: alice_page, bob.id: bob_page})
    await pages.shown()

    # Armies: Alice pastes her list, Bob chooses his list's file.
    version = await table.version()
    await open_menu(alice_page, "army")
    await fill_form(alice_page, {"list": LIST})
    version = await pages.shown(version + 1)
    await open_menu(bob_page, "army")
    await fill_form(bob_page, {}, file=("army.txt", LIST.encode()))
    version = await pages.shown(version + 1)
    assert all(p.army is not None and p.army.list_id for p in (await table.state()).players)

    # Sides, the secret choices (Alice's stays on her page alone), deployment.
    state = await table.state()
    await pages.press(state.sides_rolloff.winner, "attacker")
    await open_menu(alice_page, "choose")
    for card in ALICE_FIXED:
        await alice_page.check(f'#menu input[value="{card}"]')
    await alice_page.click("#menu-confirm")
    await pages.shown(version + 2)
    assert "Your secret choice" in await alice_page.inner_text("#you")
    assert "cleanse" not in (await bob_page.inner_text("body")).lower()
    await open_menu(bob_page, "choose")
    await bob_page.click('#menu [data-verb="tactical"]')
    await pages.shown(version + 3)
    for player in players:
        await pages.press(player, "deployed")

    # The battle, to the end, every move from the pages.
    named = await play_to_the_end(pages)
    assert named == {"Alpha Targets", "Gamma Target"}

    state = await table.state()
    assert state.status == Status.ENDED and state.result is not None
    for page in (alice_page, bob_page):
        await page.wait_for_selector("#result:not([hidden])", timeout=WAIT_MS)
        await page.wait_for_selector("#sheet:not([hidden])", timeout=WAIT_MS)
        assert await page.get_attribute("#you", "data-seat") in ("0", "1")
    result = await alice_page.inner_text("#result")
    assert result and ("wins" in result or "draw" in result.lower()), result
    await harness.bot.desk.idle()
    card = harness.model.channel_messages(voice.id)[-1]
    assert card["embeds"] and card["attachments"], "the result card with its score sheet, in the call's chat"
    await alice_page.screenshot(path=str(Path("/tmp") / "activity-game-over.png"), full_page=True)

    # The next game starts from the call too: Bob's page, still on the result, takes up the new challenge.
    await alice_page.click('#you [data-verb="newgame"]')
    await alice_page.wait_for_selector("#lobby-back", timeout=WAIT_MS)
    await alice_page.select_option("#lobby-pack", "gt-2020")
    await alice_page.click("#lobby-send")
    await bob_page.wait_for_selector('#you [data-verb="accept"]', timeout=WAIT_MS)
    assert (await harness.bot.service.get_state(channel_id=voice.id)).pack == "gt-2020"
    assert errors == []


async def play_to_the_end(pages: Pages) -> set[str]:
    """Press, on the right page, what the game waits on, until it ends: the titles of the forms filled in."""
    table, named, scored = pages.table, set(), False
    for _ in range(400):
        state = await table.state()
        if state.status != Status.BATTLE:
            return named
        if state.prompts:
            named |= await answer(pages, state.prompts[0].player, named)
        elif state.phase == Phase.DISCARDS:
            await pages.press(state.discard_queue[0], "keep")
        elif state.phase == Phase.COMMAND:
            await pages.press(state.active, "endcmd")
        elif state.phase == Phase.BATTLE:
            await pages.press(state.active, "endturn")
        elif state.phase == Phase.END_OF_TURN:
            if not scored and state.active == str(table.first.id):  # once, through the Score menu
                await score_once(pages, state.active)
                scored = True
            else:
                await pages.press(next(p.id for p in state.players if p.id not in state.scoring_done), "done")
    raise AssertionError("the game did not end")


async def score_once(pages: Pages, player: str) -> None:
    """The Score menu's first option, if anything of theirs scores now."""
    page = pages.of(player)
    version = await pages.table.version()
    await page.click('#you [data-verb="score"]')
    await page.wait_for_selector("#menu, #you-error:not([hidden])", timeout=WAIT_MS)
    if await page.query_selector("#menu") is None:  # nothing scores: one line says so
        return
    await page.check("#menu input")
    await page.click("#menu-confirm")
    await pages.shown(version + 1)


async def answer(pages: Pages, player: str, named: set[str]) -> set[str]:
    """A When Drawn question: by name through its form the first time each form comes up, else the plain way."""
    page = pages.of(player)
    version = await pages.table.version()
    await open_menu(page, "answer")
    buttons = [await b.get_attribute("data-verb") for b in await page.query_selector_all("#menu [data-verb]")]
    if "units" in buttons:
        await page.click('#menu [data-verb="units"]')
        await page.wait_for_selector("form#menu", timeout=WAIT_MS)
        title = await page.text_content("form#menu .menu-title")
        await fill_form(page, {"name1": "Lictor"})
        await pages.shown(version + 1)
        return {title}
    plain = next((v for v in ("no", "nounits", "nogamma") if v in buttons), None)
    if plain is not None:
        await page.click(f'#menu [data-verb="{plain}"]')
    else:
        await page.check("#menu input")
        await page.click("#menu-confirm")
    await pages.shown(version + 1)
    return set()


async def test_a_turn_of_each_older_pack_from_the_call(browser: Any, harness, oauth: FakeOAuth,  # noqa: F811
                                                       alice: FakeUser, bob: FakeUser) -> None:
    errors: list[str] = []
    table = Table(harness, alice, bob)
    await table.start(pack="gt-2020", size="incursion", seed="gt-call")
    instance = oauth.launch(harness.default_channel.id, GUILD_ID, alice.id, bob.id)
    pages = Pages(table, {u.id: await open_table(browser, harness, oauth, instance, u, errors) for u in (alice, bob)})
    await pages.shown()

    # Grand Tournament 2020: the secret selection with a Codex objective (its name in a form), sides, deployment
    # with the Battle Ready question, the first turn with an objective's VP typed in a form.
    version = await table.version()
    for user in (alice, bob):
        page = pages.by_id[user.id]
        await open_menu(page, "select")
        for value in ("assassinate", "engage-on-all-fronts", "codex"):
            await page.check(f'#menu input[value="{value}"]')
        await page.click("#menu-confirm")
        await fill_form(page, {"codex": f"{user.name}'s oath"})
        version = await pages.shown(version + 1)
    assert [p.codex for p in (await table.state()).players] == ["alice's oath", "bob's oath"]
    state = await table.state()
    await pages.press(state.sides_rolloff.winner, "attacker")
    for user in (alice, bob):
        page, version = pages.by_id[user.id], await table.version()
        await open_menu(page, "deployed")
        await page.click('#menu [data-verb="readydeploy"]')
        await pages.shown(version + 2)  # Battle Ready, then deployment done
    state = await table.state()
    await pages.press(state.first_turn_rolloff.winner, "gofirst")
    active = (await table.state()).active
    page, version = pages.of(active), await table.version()
    await open_menu(page, "score")
    if await page.query_selector("#menu input"):
        await page.check("#menu input")
        await page.click("#menu-confirm")
        await fill_form(page, {"vp": "3"})
        version = await pages.shown(version + 1)
    await pages.press(active, "endturn")

    # 4th edition, in another call: the Strategy Roll winner chooses the mission from its menu.
    table = Table(harness, alice, bob, channel=harness.channel("fourth", type=VOICE))
    await table.start(pack="4th-edition", size=None, level="alpha", seed="4e-call-browser")
    instance = oauth.launch(table.channel.id, GUILD_ID, alice.id, bob.id)
    pages = Pages(table, {u.id: await open_table(browser, harness, oauth, instance, u, errors) for u in (alice, bob)})
    await pages.shown()
    state = await table.state()
    if state.status == "mission":
        picker, version = pages.of(state.strategy_roll.winner), await table.version()
        await picker.click('#you [data-verb="pickmission"]')
        await picker.wait_for_selector("#menu input", timeout=WAIT_MS)
        await picker.check("#menu input")
        await picker.click("#menu-confirm")
        await pages.shown(version + 1)
    # Then to its first turn's end, every step from the pages.
    for _ in range(10):
        state = await table.state()
        if state.status == "sides":
            await pages.press(state.sides_rolloff.winner, "attacker")
        elif state.status == "deployment":
            await pages.press(next(p.id for p in state.players if p.id not in state.deployed), "deployed")
        elif state.status == "first_turn":
            await pages.press(state.first_turn_rolloff.winner, "gofirst")
        elif state.status == "battle" and state.turn == 1:
            await pages.press(state.active, "endturn")
        else:
            break
    state = await table.state()
    assert state.status == "battle" and (state.round, state.turn) == (1, 2)
    assert errors == []
