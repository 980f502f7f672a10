"""The chess clock in Discord: /game new clock:, the board's times and buttons, time running out, restarts."""

from __future__ import annotations

import re

import pytest

from bot.engine.chapter_approved.state import Status
from bot.ui.desk import GameDesk
from tests.cogs.game_table import Table, public_text, verbs
from tests.cogs.harness import Harness

START_MS = 1_800_000_000_000
MINUTE = 60_000


class FakeTime:
    """The service's stamp for clocked games' actions, moved on by the test."""

    def __init__(self) -> None:
        self.ms = START_MS

    def __call__(self) -> int:
        return self.ms


@pytest.fixture
def now(harness: Harness) -> FakeTime:
    fake = FakeTime()
    harness.bot.service.now_ms = fake
    return fake


def clock_field(board: dict) -> str:
    return next(f["value"] for f in board["embeds"][0]["fields"] if f["name"] == "Clock")


def sent_with(harness: Harness, text: str) -> list:
    return [s for s in harness.model.sent if s.kind == "message" and text in s.content]


async def started(table: Table, now: FakeTime, **options) -> None:
    await table.start(clock=options.pop("clock", 90), **options)
    await table.to_battle()


async def test_the_board_shows_both_times_and_counts_down_by_itself(table: Table, harness: Harness,
                                                                     now: FakeTime) -> None:
    challenge = await table.challenge_only(clock=90)
    assert "Chess clock: 90 minutes each, from the first turn; when a player's time runs out, play on." \
        in challenge.content
    await table.accept()
    await table.to_battle()
    state = await table.state()
    first, second = state.player(state.active), state.opponent(state.active)
    text = clock_field(await table.board())
    deadline = (START_MS + 90 * MINUTE) // 1000
    assert f"**{first.name}**: ⏱️ 1:30:00 left at the last move · runs out <t:{deadline}:R>" in text
    assert f"**{second.name}**: 1:30:00 left" in text
    assert "pause" in await table.board_verbs()
    assert harness.bot.desk.clocks.deadline(table.game_id) == START_MS + 90 * MINUTE
    now.ms += 5 * MINUTE
    await table.press("endcmd", await table.active_user())
    assert harness.bot.desk.clocks.deadline(table.game_id) == START_MS + 90 * MINUTE  # the same player runs on


async def test_pause_and_resume_with_the_agreement_of_the_player_who_paused(table: Table, harness: Harness,
                                                                            now: FakeTime) -> None:
    await started(table, now)
    active = await table.active_user()
    other = table.other(active)
    await table.press("pause", other)
    assert "⏸️ Paused by" in clock_field(await table.board()) and "resume" in await table.board_verbs()
    assert harness.bot.desk.clocks.deadline(table.game_id) is None  # nothing runs out while paused
    now.ms += 30 * MINUTE
    asked = await table.press("resume", active)
    [ping] = [s for s in asked if s.kind == "message" and "asks to resume the clock" in s.content]  # the board
    assert [int(u) for u in ping.body["allowed_mentions"]["users"]] == [other.id]
    assert "resume" in verbs(ping.message)
    assert (await table.state()).clock.paused_by == str(other.id)
    await table.press_on(asked, "resume", other)
    clock = (await table.state()).clock
    assert clock.paused_by is None and sum(clock.used_ms.values()) == 0  # the pause cost nobody any time
    assert harness.bot.desk.clocks.deadline(table.game_id) == START_MS + 120 * MINUTE


async def test_time_running_out_pings_both_and_the_opponent_may_claim(table: Table, harness: Harness,
                                                                      now: FakeTime) -> None:
    await started(table, now, clock=1, **{"clock-expiry": "claim"})
    out = await table.active_user()
    deadline = harness.bot.desk.clocks.deadline(table.game_id)
    now.ms = deadline + 100
    assert await harness.bot.desk.clocks.time_out(table.game_id, deadline)
    await table.settle()
    [notice] = sent_with(harness, "time has run out")
    assert sorted(int(u) for u in notice.body["allowed_mentions"]["users"]) == sorted([table.first.id, table.second.id])
    assert set(map(int, re.findall(r"<@(\d+)>", notice.content))) == {table.first.id, table.second.id}
    assert not await harness.bot.desk.clocks.time_out(table.game_id, deadline)  # recorded once
    board = await table.board()
    assert "⌛ out of time" in clock_field(board) and "claim" in verbs(board)
    undo = await table.press("undo", out, strict=False)
    assert "cannot be undone" in undo.content and undo.ephemeral
    refused = await table.press("claim", out, strict=False)
    assert "has not run out" in refused.content and refused.ephemeral
    await table.press("claim", table.other(out))
    state = await table.state()
    assert state.status == Status.ENDED and state.result.reason == "time"
    assert state.result.winner == str(table.other(out).id)
    assert "wins on time" in public_text(await table.board())


async def test_undo_gives_the_clock_back(table: Table, harness: Harness, now: FakeTime) -> None:
    await started(table, now)
    active = await table.active_user()
    before = (await table.state()).clock
    now.ms += 3 * MINUTE
    await table.press("pause", active)
    await table.press("undo", active)
    assert (await table.state()).clock == before
    assert harness.bot.desk.clocks.deadline(table.game_id) == before.deadline_ms


async def test_a_restart_watches_the_stored_clock_again(table: Table, harness: Harness, now: FakeTime) -> None:
    await started(table, now)
    deadline = (await table.state()).clock.deadline_ms
    harness.bot.desk.alarms.stop()
    harness.bot.desk = GameDesk(harness.bot, harness.bot.service)  # what a restart remembers
    assert harness.bot.desk.clocks.deadline(table.game_id) is None
    assert await harness.bot.desk.clocks.watch_stored() == 1
    assert harness.bot.desk.clocks.deadline(table.game_id) == deadline
    harness.bot.desk.alarms.stop()


async def test_a_game_without_a_clock_has_no_clock_buttons(table: Table) -> None:
    await table.start()
    await table.to_battle()
    board = await table.board()
    assert not {"pause", "resume", "claim"} & set(verbs(board))
    assert all(f["name"] != "Clock" for f in board["embeds"][0]["fields"])
