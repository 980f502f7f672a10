"""What the desk keeps in memory per game stays bounded, however many games are never finished."""

from __future__ import annotations

from bot.ui.desk import RECENT_EVENTS, RECENT_GAMES, RecentEvents


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
