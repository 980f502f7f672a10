"""Secret selections on SQLite and PostgreSQL: kept once, revealed exactly once, by whichever save completes the pair."""

from __future__ import annotations

import asyncio

import pytest

from bot.engine.errors import InvalidValue
from bot.store.picks import SecretPicks

A, B = "100000000000000001", "100000000000000002"


async def test_a_selection_is_kept_once_and_revealed_with_the_second(sessionmaker) -> None:
    picks = SecretPicks(sessionmaker)
    assert await picks.pick(7, A, ("linebreaker", "assassinate", "codex")) is None
    assert await picks.has_picked(7, A) and not await picks.has_picked(7, B)
    with pytest.raises(InvalidValue, match="already selected"):
        await picks.pick(7, A, ("domination", "assassinate", "codex"))
    both = await picks.pick(7, B, ("domination", "thin-their-ranks", "outflank"))
    assert both == {A: ("linebreaker", "assassinate", "codex"), B: ("domination", "thin-their-ranks", "outflank")}
    assert await picks.pick(8, A, ("domination", "thin-their-ranks", "outflank")) is None  # another mission


async def test_two_selections_saved_at_the_same_moment_are_revealed_once(sessionmaker) -> None:
    picks = SecretPicks(sessionmaker)
    results = await asyncio.gather(picks.pick(9, A, ("linebreaker", "assassinate", "codex")),
                                   picks.pick(9, B, ("domination", "thin-their-ranks", "outflank")))
    assert [r is not None for r in results].count(True) == 1
