"""What every presenter writes the same way: the clock, the result, a replay's mark, the links to pictures."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine.events import result_text
from bot.services.game_log import OVER
from bot.present.words import Code, Moment, Strong, Text, words


@dataclass(frozen=True)
class Links:
    """Where the page finds a game's pictures (None: the game has none)."""

    map: str | None = None
    sheet: str | None = None


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


def clock_lines(state: Any) -> tuple[Text, ...]:
    """Both players' time. The running one says when it runs out, a moment each surface counts down by itself,
    so a board is redrawn only when play passes, not every second."""
    clock = state.clock
    lines = []
    for player in state.players:
        left = clock.left_ms(player.id)
        if player.id in clock.out:
            text = words(f"⌛ out of time ({_minutes(-left)} over when last counted)")
        elif clock.ticking(player.id) and state.status == "battle":
            text = words(f"⏱️ {_minutes(left)} left at the last move · runs out ", Moment(clock.deadline_ms // 1000))
        else:
            text = words(f"{_minutes(left)} left")
        lines.append(words(Strong(player.name), ": ", text))
    if clock.paused_by is not None:
        asked = f"; {state.player(clock.resume_asked_by).name} asks to resume" if clock.resume_asked_by else ""
        lines.append(words(f"⏸️ Paused by {state.player(clock.paused_by).name}{asked}."))
    if clock.out:
        lines.append(words("When time runs out: " + ("the opponent may claim the game." if clock.expiry == "claim"
                                                     else "play on.")))
    return tuple(lines)


def _minutes(ms: int) -> str:
    seconds = max(0, ms) // 1000
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}" if seconds >= 3600 \
        else f"{seconds // 60}:{seconds % 60:02d}"


def replay_line(state: Any) -> Text:
    """A line marking a game whose seed a player fixed: its shuffles were never secret (empty otherwise)."""
    fixer = state.setup.seed_fixed_by
    if fixer is None:
        return ()
    return words("🔁 ", Strong("Replay"), " of seed ", Code(state.setup.seed),
                 f" fixed by {state.player(fixer).name}: no secret shuffles.")
