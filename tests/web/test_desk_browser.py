"""A 16-player event day run from the organiser's desk in a real browser (Chromium through Playwright): signed in
through Discord's OAuth2 (the fake's), check-in closed, round 1 paired and published, round 2's draft edited (a swap
that makes a rematch is marked, undone; a player pinned to table 1), published, a result entered and another
corrected, a table given five minutes, a judge call resolved, the standings downloaded; a player and a judge who
sign in get only what is theirs, and a role removed in Discord closes the organiser's desk. A doubles pair's lists
are named by player."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from bot.engine.tournament.draft import draft_problems
from tests.cogs.harness import Harness
from tests.cogs.test_event_lists import ARMIES, PACK, app_list
from tests.cogs.test_tournament_commands import current, enter_round
from tests.discord_model import FakeFile, FakeUser
from tests.web.browser import browser  # noqa: F401
from tests.web.fake_oauth import FakeOAuth
from tests.web.test_desk import threads_opened

__all__ = ["browser"]
TIMEOUT = 10_000


async def open_desk(browser: Any, harness: Harness, oauth: FakeOAuth, user: FakeUser, event_id: int):
    """A browser of its own for `user`, signed in to Discord as them, opening the event's desk."""
    oauth.browser_user = user
    context = await browser.new_context(accept_downloads=True)
    page = await context.new_page()
    await page.goto(f"{harness.bot.web.public_url}/desk/{event_id}")
    return context, page


async def row_of(page: Any, table: int) -> Any:
    return page.locator(f'#tables tr[data-table="{table}"]')


async def test_an_event_day_from_the_desk_in_a_browser(harness: Harness, oauth: FakeOAuth,
                                                       browser: Any) -> None:
    oauth.model = harness.model
    to_role, judges_role = harness.role("TO"), harness.role("Judges")
    organiser = harness.user("organiser", roles=(to_role.id,))
    players = [harness.user(f"player{i:02}") for i in range(16)]
    await harness.slash("tournament create", user=harness.user("admin", permissions=1 << 5 | 1 << 10), name="Club GT",
                        rounds=3, **{"announce-channel": harness.channel("pairings"), "organiser-role": to_role})
    for p in players:
        await harness.slash("tournament register", user=p)
    event_id = (await current(harness)).id
    await harness.slash("tournament checkin", user=organiser, action="open")
    for p in players[:15]:  # their Check in button's service (tested in tests/cogs); the last one forgets
        await harness.bot.tournaments.check_in(event_id, str(p.id))

    context, page = await open_desk(browser, harness, oauth, organiser, event_id)
    await page.wait_for_selector("body[data-version]", timeout=TIMEOUT)
    assert await page.locator("#who").text_content() == "Organiser"
    page.on("dialog", lambda dialog: asyncio.ensure_future(dialog.accept("1")))

    # Check-in closes, dropping the one who did not check in; round 1 is paired and published.
    await page.get_by_role("button", name="Close check-in (drops 1)").click()
    await page.wait_for_selector("#players tr.dropped", timeout=TIMEOUT)
    await page.get_by_role("button", name="Pair round 1").click()
    await page.wait_for_selector("#tables tr.state-draft", timeout=TIMEOUT)
    assert await page.locator("#tables tbody tr").count() == 7 and await page.locator("#bye").is_visible()
    await page.get_by_role("button", name="Publish").click()
    await page.locator("#round-state", has_text="published").wait_for(timeout=TIMEOUT)
    await threads_opened(harness, 7)
    record = await current(harness)
    await enter_round(harness, organiser, {t.table: ("a_wins", 60, 40) for t in record.state.event.rounds[0]
                                           .pairings.tables})

    # Round 2's draft: a swap that makes a rematch is marked on its table; Undo takes it back.
    await page.get_by_role("button", name="Pair round 2").click()
    await page.wait_for_selector("#tables tr.state-draft", timeout=TIMEOUT)
    record = await current(harness)
    met = record.state.event.rounds[0].pairings.tables[0]
    names = record.state.names
    r2 = record.state.event.rounds[1].pairings
    first = next(t for t in r2.tables if met.a in (t.a, t.b))
    opponent = first.b if first.a == met.a else first.a
    if met.b in (first.a, first.b) or record.state.event.rounds[1].pairings.bye and met.b == r2.bye.a:
        met = record.state.event.rounds[0].pairings.tables[1]
        first = next(t for t in r2.tables if met.a in (t.a, t.b))
        opponent = first.b if first.a == met.a else first.a
    await page.locator(".d-player", has_text=names[met.b]).click()
    await page.locator(".d-player", has_text=names[opponent]).click()
    await page.wait_for_selector(".d-problem.rematch", timeout=TIMEOUT)
    assert "met in round 1" in await page.locator(".d-problem.rematch").first.text_content()
    await page.get_by_role("button", name="Undo last swap").click()
    await page.wait_for_selector(".d-problem.rematch", state="detached", timeout=TIMEOUT)

    # A player pinned to table 1 (the prompt answers "1"), then published.
    pinned = r2.tables[3].a
    row = await row_of(page, 4)
    await row.locator(".d-seat", has_text=names[pinned]).get_by_role("button", name="Pin").click()
    await (await row_of(page, 1)).locator(".d-player", has_text=names[pinned]).wait_for(timeout=TIMEOUT)
    record = await current(harness)
    assert record.state.pins == {pinned: 1}
    assert draft_problems(record.state.event, record.state.event.rounds[-1], record.state.pairing_rules,
                          record.state.clubs, record.state.pins) == {}
    await page.get_by_role("button", name="Publish").click()
    await page.locator("#round-state", has_text="published").wait_for(timeout=TIMEOUT)
    await threads_opened(harness, 14)

    # One result entered, another corrected; five more minutes for table 3.
    for table, (a, b) in ((1, (70, 30)), (2, (55, 50))):
        row = await row_of(page, table)
        await row.get_by_role("button", name="Enter result").click()
        await row.locator('input[name="vp_a"]').fill(str(a))
        await row.locator('input[name="vp_b"]').fill(str(b))
        await row.get_by_role("button", name="Save").click()
        await row.locator(".d-tag", has_text="confirmed").wait_for(timeout=TIMEOUT)
    row = await row_of(page, 2)
    await row.get_by_role("button", name="Correct").click()
    await row.locator('input[name="vp_a"]').fill("50")
    await row.locator('input[name="vp_b"]').fill("55")
    await row.get_by_role("button", name="Save").click()
    await row.locator(".d-tag", has_text="confirmed 50–55").wait_for(timeout=TIMEOUT)
    row = await row_of(page, 3)
    await row.get_by_role("button", name="+5 min").click()
    await row.locator("td", has_text="+5′").wait_for(timeout=TIMEOUT)

    # A judge call from table 4's thread, resolved at the desk.
    record = await current(harness)
    link = next(g for g in record.state.table_games if (g.round_number, g.table) == (2, 4))
    pairing = next(p for p in record.state.event.rounds[1].pairings.tables if p.table == 4)
    caller = next(p for p in players if str(p.id) == pairing.a)
    await harness.slash("judge call", user=caller, channel=harness.model.channels[link.thread_id], note="LOS")
    call = page.locator(".d-call", has_text="Table 4")
    await call.wait_for(timeout=TIMEOUT)
    await call.get_by_role("button", name="Claim").click()
    await call.locator('input[name="ruling"]').fill("True line of sight")
    await call.get_by_role("button", name="Resolved").click()
    await call.wait_for(state="detached", timeout=TIMEOUT)
    [resolved] = await harness.bot.judges.service.calls(event_id)
    assert resolved.ruling == "True line of sight" and resolved.resolved_name == "Organiser"

    # The standings, downloaded.
    async with page.expect_download() as download:
        await page.locator("#exports a", has_text="standings.csv").click()
    saved = await (await download.value).path()
    assert open(saved).read().startswith("rank,player_id,name")

    # A player is told the desk is not theirs; a judge gets the judges' part only.
    player_context, player_page = await open_desk(browser, harness, oauth, players[0], event_id)
    await player_page.wait_for_selector("#refused:not([hidden])", timeout=TIMEOUT)
    assert "organisers" in await player_page.locator("#refused").text_content()
    assert await player_page.locator("#tables tbody tr").count() == 0
    await harness.slash("judge setup", user=organiser, role=judges_role)
    judge = harness.user("judge", roles=(judges_role.id,))
    judge_context, judge_page = await open_desk(browser, harness, oauth, judge, event_id)
    await judge_page.wait_for_selector("body[data-version]", timeout=TIMEOUT)
    assert await judge_page.locator("#tables tbody tr").count() == 7
    assert not await judge_page.locator("#players-box").is_visible()
    assert await judge_page.get_by_role("button", name="+5 min").count() == 0

    # The organiser's role removed in Discord: their desk closes within seconds.
    harness.bot.web.desk.auth.discord.member_ttl = 0.5
    harness.model.users[organiser.id] = replace(organiser, roles=())
    await page.wait_for_selector("#gone:not([hidden])", timeout=TIMEOUT + 10_000)
    assert "no longer counts you" in await page.locator("#gone").text_content()
    for c in (context, player_context, judge_context):
        await c.close()


async def test_a_doubles_pairs_lists_are_named_by_player_at_the_desk(harness: Harness, oauth: FakeOAuth,
                                                                     organiser: FakeUser, browser: Any) -> None:
    oauth.model = harness.model
    ann, cy, bob, di = (harness.user(n) for n in ("Ann", "Cy", "Bob", "Di"))
    await harness.slash("tournament create", user=organiser, name="Doubles GT", rounds=2, pack=PACK, doubles=True,
                        lists="closed")
    await harness.slash("tournament register", user=ann, partner=cy)
    await harness.slash("tournament register", user=bob, partner=di)
    for player, army in zip((ann, cy, bob), ARMIES):
        await harness.slash("tournament list submit", user=player, file=FakeFile("l.txt", app_list(*army).encode()))
    context, page = await open_desk(browser, harness, oauth, organiser, (await current(harness)).id)
    rows = page.locator("#players tbody tr")
    await rows.first.wait_for(timeout=TIMEOUT)
    assert await rows.nth(0).locator("a").all_inner_texts() == ["Ann: list", "Cy: list"]
    assert await rows.nth(1).locator("a").all_inner_texts() == ["Bob: list"]  # Di's is still to come
    assert "Space Wolves & Necrons" in await rows.nth(0).inner_text()
    await context.close()
