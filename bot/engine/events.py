"""What an action tells the players, and what it leads to: the same for every pack."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Event:
    """Something to tell the players; `private_to` keeps it for one player's eyes only."""

    text: str
    player: str | None = None
    private_to: str | None = None


@dataclass(frozen=True)
class Played:
    """What a move or a new game played out to: the new state and the events it made."""

    state: Any  # the pack's state model
    events: tuple[Event, ...]


def result_text(result: Any, name: Callable[[str], str], *, vp: bool = True) -> str:
    """How a game ended, for everyone: `result` is the state's Result, `name` gives a player's name; `vp` False
    for a game VP do not decide."""
    score = " – ".join(f"{name(pid)} {points}VP" for pid, points in result.vp.items()) if vp else ""
    if result.reason == "abandoned":
        return "The game was abandoned." + (f" {score}." if vp else "")
    if result.winner is None:
        return "The battle ends in a draw" + (f": {score}." if vp else ".")
    how = {"concession": " (concession)", "time": " (on time)"}.get(result.reason, "")
    return f"{name(result.winner)} wins{how}" + (f": {score}." if vp else ".")
