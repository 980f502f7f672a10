"""A team event on the venue screen: each match's captains' pairing shown as it is revealed, step by step, never a
sealed choice; then its games with their VP and Battle Points, and the team score against the margin. Over the
stream, and in Chromium."""

from __future__ import annotations

from typing import Any

import aiohttp

from bot.engine.teams.match import WANTED, options
from tests.cogs.harness import Harness
from tests.cogs.test_team_events import Board, publish_round, team_event
from tests.discord_model import FakeUser
from tests.web.browser import browser  # noqa: F401
from tests.web.conftest import open_stream
from tests.web.test_event_screen import share_event

WAIT_MS = 8000


async def test_the_venue_screen_reveals_a_team_match_step_by_step(
    harness: Harness, organiser: FakeUser, http: aiohttp.ClientSession, browser: Any,  # noqa: F811
) -> None:
    rosters = await team_event(harness, organiser, 3, 2)
    await publish_round(harness, organiser)
    links = await share_event(harness, organiser)
    screen = await open_stream(http, links["screen"])
    page = await browser.new_page(viewport={"width": 1920, "height": 1080})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.goto(links["screen"])
    await page.wait_for_selector("#teams:not([hidden]) .e-match", timeout=WAIT_MS)

    people = {str(p.id): p for roster in rosters for p in roster}
    board = Board(harness, 1, 1)
    record = await board.record()
    names = record.state.names
    seen = await screen.model()
    [match] = seen["teams"]
    assert match["step"] == "Main Engagement: Defenders" and match["revealed"] == []
    steps = 0
    while not (pair := await board.pair()).match.done:
        captains = [people[record.state.teams.team(t).captain] for t in pair.teams]
        side = pair.match.waiting_on()[0]
        picks = list(options(pair.match, side)[:WANTED[pair.match.step]])
        before = len(pair.match.reveals)
        await board.choose(captains[side], picks)
        after = (await board.pair()).match
        seen = await screen.model(after=-1)
        while seen["teams"][0]["locked"] != [after.sealed[i] is not None for i in (0, 1)] \
                or len(seen["teams"][0]["revealed"]) != len(after.reveals):
            seen = await screen.model(after=-1)
        text = await page.inner_text("#teams")
        if len(after.reveals) == before:  # sealed: neither the stream nor the screen shows the pick
            hidden = [names[p] for p in picks if p in names and not any(
                names[p] in ", ".join(r["picks"]) for r in seen["teams"][0]["revealed"])]
            for name in hidden:
                assert name not in str(seen) and name not in text
        else:  # revealed: both picks on the screen at once
            # the n-th revealed line attached (wait_for_function's polling is refused by the page's CSP)
            shown = page.locator("#teams .m-revealed li").nth(min(len(after.reveals), 4) - 1)
            await shown.wait_for(state="attached", timeout=WAIT_MS)
            steps += 1
    await page.wait_for_selector("#teams .m-games li", timeout=WAIT_MS)
    shown = await page.inner_text("#teams")
    assert "Pairing complete" in shown and "a win needs a lead of 4 of 60" in shown
    assert steps >= 3 and len((await screen.model(after=-1))["teams"][0]["games"]) == 3
    await page.screenshot(path="/tmp/team-screen.png")

    # The stream's overlay of the match: both teams and their Battle Points.
    overlay = await browser.new_page(viewport={"width": 1920, "height": 1080})
    overlay.on("pageerror", lambda error: errors.append(str(error)))
    await overlay.goto(links["screen"] + "/overlay/match?match=1&bg=solid")
    await overlay.wait_for_selector('[data-f="team-a"]:not(:empty)', timeout=WAIT_MS)
    final = seen["teams"][0]
    shown = await overlay.text_content("#ov")
    assert all(team in shown for team in final["teams"]) and "Round 1 · match 1" in shown
    await overlay.screenshot(path="/tmp/team-overlay.png")
    assert errors == []
