"""What every presenter writes the same way: the clock, the result, the links to pictures."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.engine.events import result_text
from bot.game_log import OVER



@dataclass(frozen=True)
class Links:
    """Where the page finds a game's pictures (None: the game has none)."""

    map: str | None = None
    sheet: str | None = None


def plain(text: str) -> str:
    """Discord's markdown and mentions out of a line written for the board."""
    return re.sub(r"\*\*|~~|<@\d+>|<t:\d+:\w>", "", text).strip()


def seat(state: Any, player: str | None) -> int | None:
    return None if player is None else [p.id for p in state.players].index(player)


def clock(state: Any) -> dict | None:
    """Both players' time as of `at_ms`; the running side counts down from there on the page."""
    watch = state.clock
    if watch is None:
        return None
    at = watch.since_ms or 0
    running = watch.running if state.status == "battle" and watch.ticking(watch.running or "") else None
    return {"remaining_ms": [watch.left_ms(p.id) for p in state.players], "running": seat(state, running),
            "at_ms": at, "expired": [p.id in watch.out for p in state.players], "paused": watch.paused_by is not None}


def result(state: Any, *, vp: bool = True) -> dict | None:
    if state.result is None:
        return None
    return {"winner": seat(state, state.result.winner),
            "text": result_text(state.result, lambda player: state.player(player).name, vp=vp)}


def status(state: Any, battle: tuple[str, ...] = ("battle",)) -> str:
    if state.status in OVER:
        return str(state.status)
    return "battle" if state.status in battle else "setup"
