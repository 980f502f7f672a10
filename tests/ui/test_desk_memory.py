"""What the desk keeps in memory per game stays bounded, however many games are never finished."""

from __future__ import annotations

from types import SimpleNamespace

import discord

from bot.present.recent import RecentEvents
from bot.ui.board_feed import RECENT_EVENTS, RECENT_GAMES
from bot.ui.live_board import PRESSES_KEPT, LiveBoards


def test_recent_events_keep_the_last_lines_of_the_most_recent_games() -> None:
    recent = RecentEvents(games=2, lines=3)
    recent.add(1, ["a", "b"])
    recent.add(2, ["c"])
    recent.add(1, ["d", "e"])  # game 1 is now the most recent, and keeps its last three lines
    assert recent.lines(1) == ["b", "d", "e"]
    recent.add(3, ["f"])  # game 2, the least recently active, goes
    assert recent.lines(2) == [] and recent.lines(3) == ["f"] and len(recent) == 2
    recent.forget(3)
    assert recent.lines(3) == [] and len(recent) == 1


def test_recent_events_stay_within_their_bounds_however_many_games() -> None:
    recent = RecentEvents(RECENT_GAMES, RECENT_EVENTS)
    for game in range(3 * RECENT_GAMES):
        recent.add(game, [f"line {n}" for n in range(2 * RECENT_EVENTS)])
    assert len(recent) == RECENT_GAMES
    assert recent.lines(0) == [] and len(recent.lines(3 * RECENT_GAMES - 1)) == RECENT_EVENTS


def _press_on_board(message_id: int):
    """A press acknowledged as an update of the board `message_id`, as discord.py shows one to the live board."""
    message = SimpleNamespace(id=message_id, flags=SimpleNamespace(ephemeral=False))
    response = SimpleNamespace(type=discord.InteractionResponseType.deferred_message_update)
    return SimpleNamespace(message=message, response=response)


def test_the_last_press_is_kept_for_the_newest_boards_only() -> None:
    boards = LiveBoards(None, None, None, None)  # type: ignore[arg-type]
    for board in range(PRESSES_KEPT + 10):
        boards.pressed(_press_on_board(board))
    assert boards._press_on(9) is None and boards._press_on(10) is not None  # the oldest ten are forgotten
    boards.pressed(_press_on_board(10))  # pressed again: the newest now
    boards.pressed(_press_on_board(PRESSES_KEPT + 10))
    assert boards._press_on(10) is not None and boards._press_on(11) is None
    assert len(boards._presses) == PRESSES_KEPT
