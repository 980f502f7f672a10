"""Judge calls in a real database (SQLite, and PostgreSQL when TEST_POSTGRES_URL is set): one open call per table
however many press at once, a call claimed, resolved and raised again exactly once, the minutes given per table,
duty and settings."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.engine.errors import GameError, NotAPlayer
from bot.services.judges import MAX_EXTRA_MINUTES, EventTable, JudgeService

A, B, JUDGE, OTHER = "900000000000000001", "900000000000000002", "900000000000000003", "900000000000000004"


def table(number: int = 1, round_number: int = 1, event: int = 7) -> EventTable:
    return EventTable(event_id=event, guild_id=1_100_000_000_000_000_002, round_number=round_number, table=number,
                      players=(A, B), thread_id=1_200_000_000_000_000_000 + number, game_id=number)


@pytest.fixture
def service(sessionmaker) -> JudgeService:
    return JudgeService(sessionmaker)


async def test_one_open_call_per_table_however_many_press(service: JudgeService) -> None:
    done = await asyncio.gather(*(service.call(table(), p) for p in (A, B, A, B)), return_exceptions=True)
    assert sum(not isinstance(d, Exception) for d in done) == 1
    assert all("already waiting" in str(d) for d in done if isinstance(d, Exception))
    with pytest.raises(NotAPlayer):
        await service.call(table(2), JUDGE)
    await service.call(table(1, round_number=2), A)  # the same number in the next round is another table
    await service.call(table(1, event=8), A)  # and in another event
    assert [(c.round_number, c.table_number) for c in await service.open_calls(7)] == [(1, 1), (2, 1)]


async def test_a_call_is_claimed_resolved_and_raised_again_once(service: JudgeService) -> None:
    call = await service.call(table(), A, "note")
    assert call.id is not None and call.note == "note" and call.player_ids == (A, B)
    assert [c.id for c in await service.waiting()] == [call.id]
    with pytest.raises(GameError, match="Claim this call first"):
        await service.resolve(call.id, JUDGE, "Judge", "ruling")
    claims = await asyncio.gather(*(service.claim(call.id, j, n) for j, n in ((JUDGE, "Judge"), (OTHER, "Other"))),
                                  return_exceptions=True)
    won = [c for c in claims if not isinstance(c, Exception)]
    assert len(won) == 1 and "has claimed this call already" in str(next(c for c in claims if c not in won))
    assert await service.waiting() == [] and await service.reraise(call.id) is None  # claimed: not raised again
    resolved = await service.resolve(call.id, won[0].claimed_by, won[0].claimed_name, "  Cover applies  ")
    assert resolved.ruling == "Cover applies" and resolved.resolved_at >= resolved.claimed_at
    with pytest.raises(GameError, match="closed already"):
        await service.resolve(call.id, JUDGE, "Judge")
    with pytest.raises(GameError, match="closed already"):
        await service.claim(call.id, JUDGE, "Judge")
    assert await service.open_calls(7) == []

    second = await service.call(table(), B)
    assert await service.reraise_at(second) == second.raised_at + timedelta(minutes=5)
    raised = await asyncio.gather(service.reraise(second.id), service.reraise(second.id))
    assert sum(r is not None for r in raised) == 1 and await service.waiting() == []


async def test_minutes_given_add_up_per_table_and_round(service: JudgeService) -> None:
    first = await service.call(table(), A)
    assert (await service.extend(first.id))[1] == 5
    await service.claim(first.id, JUDGE, "Judge")
    await service.resolve(first.id, JUDGE, "Judge")
    second = await service.call(table(), B)
    called, total = await service.extend(second.id)
    assert (called.extra_minutes, total) == (5, 10)
    await service.call(table(2), A)
    assert (await service.venue(7)).extensions == {(1, 1): 10}
    while total + 5 <= MAX_EXTRA_MINUTES:
        total = (await service.extend(second.id))[1]
    with pytest.raises(GameError, match=f"at most {MAX_EXTRA_MINUTES}"):
        await service.extend(second.id)
    assert await service.extension(7, 1, 1) == MAX_EXTRA_MINUTES


async def test_duty_and_settings(service: JudgeService) -> None:
    assert await service.duty(7, JUDGE, "Judge", True)
    assert not await service.duty(7, JUDGE, "Judge", True)
    assert await service.duty(7, OTHER, "Other", True)
    assert [d.name for d in await service.on_duty(7)] == ["Judge", "Other"]
    assert await service.duty(7, JUDGE, "Judge", False) and [d.judge_id for d in await service.on_duty(7)] == [OTHER]
    assert (await service.settings(7)).channel_id is None
    await service.configure(7, channel_id=5, role_id=6)
    await service.configure(7, board_channel_id=5, board_message_id=9)
    settings = await service.settings(7)
    assert (settings.channel_id, settings.role_id, settings.board_message_id) == (5, 6, 9)
