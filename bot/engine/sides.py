"""Who plays a seat. A game has two seats, one a side of the table; in doubles a side is two players, whose seat is
its first player's id (the engine plays seats: one Command point pool, one deck, one score). Every surface asks here
which seat a person acts for and whom a seat's call reaches, so that either partner plays the side's turn and sees
its secrets, and both hear its calls."""

from __future__ import annotations

from typing import Any

JOINED = " & "  # between the names of a side's two players


def partners(setup: Any) -> tuple[str, str] | None:
    """Each side's second player, in doubles (None: a game of two players; the older packs have none)."""
    return getattr(setup, "partners", None)


def seat_of(setup: Any, user: str) -> str | None:
    """The seat `user` plays: their own, their partner's in doubles, or None (not a player of the game)."""
    if user in setup.players:
        return user
    second = partners(setup)
    if second is not None and user in second:
        return setup.players[second.index(user)]
    return None


def members(setup: Any, seat: str) -> tuple[str, ...]:
    """Who plays `seat`: its player, or in doubles both players of its side."""
    second = partners(setup)
    return (seat,) if second is None else (seat, second[setup.players.index(seat)])


def everyone(setup: Any) -> tuple[str, ...]:
    """Every player of the game, seat by seat."""
    return tuple(p for seat in setup.players for p in members(setup, seat))


def mentions(setup: Any, seat: str) -> str:
    """The seat's players as Discord mentions: '<@a>' or '<@a> <@b>'."""
    return " ".join(f"<@{p}>" for p in members(setup, seat))


def side_name(first: str, second: str) -> str:
    return f"{first}{JOINED}{second}"


def only_players(setup: Any) -> str:
    """How a refusal to someone outside the game begins."""
    return f"Only the {'four' if partners(setup) else 'two'} players of this game"
