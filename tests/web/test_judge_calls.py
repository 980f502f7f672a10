"""An event round with a judge call, played through Discord and watched on the venue screen: a table calls, a judge
claims it (the thread is told) and resolves it with a ruling, an organiser gives the table five minutes; the screen
shows the call while it is open (never its note) and drops it when resolved, and the export keeps it."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from typing import Any

import aiohttp

from tests.cogs.game_table import Table
from tests.cogs.harness import Harness
from tests.cogs.judge_room import notified, open_room
from tests.cogs.test_table_games import event  # noqa: F401
from tests.discord_model import FakeUser
from tests.web.browser import browser  # noqa: F401
from tests.web.conftest import Stream, open_stream
from tests.web.test_browser import WAIT_MS, open_page
from tests.web.test_event_screen import share_event

NOTE = "He measured from the base, I say the hull"


async def seen(screen: Stream, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first model the screen is sent that `wanted` holds of."""
    while not wanted(model := await screen.model(after=-1)):
        pass
    return model


def exported(harness: Harness, reply) -> dict[str, str]:
    attachments = next(s for s in reply if s.message is not None and s.message.get("attachments")).message
    return {a["filename"]: harness.model.files[int(a["id"])].decode() for a in attachments["attachments"]}


async def test_a_table_calls_a_judge_who_claims_and_rules_while_the_venue_screen_follows(
    harness: Harness, organiser: FakeUser, players: list[FakeUser], event: list[Table],  # noqa: F811
    http: aiohttp.ClientSession,
) -> None:
    room = await open_room(harness, organiser, event)
    await harness.slash("tournament round start", user=organiser, minutes=150)
    screen = await open_stream(http, (await share_event(harness, organiser))["screen"])
    model = await seen(screen, lambda m: "judges" in m)
    assert model["judges"] == {"calls": [], "on_duty": ["Judge"]}

    table = next(t for t in event if t.game_id == model["pairings"][0]["game"])
    number = model["pairings"][0]["table"]
    a, b = (await table.state()).setup.players
    called = await table.slash("judge call", table.first, note=NOTE)
    assert f"called a judge to table {number}" in called.main.content and NOTE not in called.main.content
    text = room.call_message(number)["content"]
    assert NOTE in text and f"<@{a}> vs <@{b}>" in text and "round 1 of **Club GT**" in text
    assert "min left" in text and f"<#{table.channel.id}>" in text

    model = await seen(screen, lambda m: m["judges"]["calls"])
    [call] = model["judges"]["calls"]
    assert (call["table"], call["round"], call["claimed_by"]) == (number, 1, None) and call["raised_ms"] > 0
    assert NOTE not in json.dumps(model)  # the note is the judges', not the hall's

    await room.press(number, "claim", room.judge)
    told = room.thread_lines(table)[-1]
    assert f"judge <@{room.judge.id}> is on the way to table {number}" in told.content
    assert notified(told) == {int(a), int(b)}
    model = await seen(screen, lambda m: m["judges"]["calls"] and m["judges"]["calls"][0]["claimed_by"])
    assert model["judges"]["calls"][0]["claimed_by"] == "Judge"

    await room.press(number, "time", organiser)
    model = await seen(screen, lambda m: any(p.get("extra_minutes") for p in m["pairings"]))
    assert {p["table"]: p["extra_minutes"] for p in model["pairings"]}[number] == 5

    await room.resolve(number, room.judge, "Measure from the base: the charge is 9\" and fails.")
    assert "Ruling: Measure from the base" in room.thread_lines(table)[-1].content
    model = await seen(screen, lambda m: not m["judges"]["calls"])
    assert model["judges"]["on_duty"] == ["Judge"]
    assert {p["table"]: p["extra_minutes"] for p in model["pairings"]}[number] == 5  # the time stays given

    record = await harness.bot.tournaments.current(harness.model.guild_id)
    files = exported(harness, await harness.slash("tournament export", user=organiser))
    [row] = list(csv.DictReader(io.StringIO(files[f"tournament-{record.id}-calls.csv"])))
    assert (row["round"], row["table"], row["called_by_id"], row["note"]) == ("1", str(number), str(table.first.id),
                                                                             NOTE)
    assert (row["claimed_by_id"], row["claimed_by"], row["resolved_by"]) == (str(room.judge.id), "Judge", "Judge")
    assert row["ruling"].startswith("Measure from the base") and row["extra_minutes"] == "5"
    assert row["raised_at"] <= row["claimed_at"] <= row["resolved_at"] and row["raised_again_at"] == ""
    # A player's export has the standings and results, not the judges' notes and rulings.
    files = exported(harness, await harness.slash("tournament export", user=players[0]))
    assert not any(name.endswith("-calls.csv") for name in files)


async def test_the_venue_screen_shows_the_waiting_call_and_who_is_on_duty_in_a_browser(
    harness: Harness, organiser: FakeUser, event: list[Table], browser: Any,  # noqa: F811
) -> None:
    room = await open_room(harness, organiser, event)
    screen = (await share_event(harness, organiser))["screen"]
    errors: list[str] = []
    page = await open_page(browser, screen, errors)
    await page.wait_for_selector("#judges:not([hidden])", timeout=WAIT_MS)
    assert await page.inner_text("#duty") == "On duty: Judge"
    table = room.tables[0]
    await table.slash("judge call", table.first, note=NOTE)
    number = (await room.calls())[0].table_number
    await page.wait_for_selector("#calls .e-call", timeout=WAIT_MS)
    shown = await page.inner_text("#calls")
    assert f"Table {number}" in shown and "waiting for a judge" in shown and NOTE not in await page.inner_text("body")
    await room.press(number, "claim", room.judge)
    await page.wait_for_selector("#calls .e-call.claimed", timeout=WAIT_MS)
    assert "Judge on the way" in await page.inner_text("#calls")
    await room.press(number, "time", organiser)
    await page.wait_for_selector('#pairings .tbl[data-extra="+5′"]', timeout=WAIT_MS)
    await room.resolve(number, room.judge, "")
    # No wait_for_function: its evaluation is refused by the page's Content Security Policy when it must poll.
    await page.wait_for_selector("#calls .e-call", state="detached", timeout=WAIT_MS)
    assert errors == []
