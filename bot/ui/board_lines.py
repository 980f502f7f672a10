"""Lines every pack's board and result card show: the chess clock and the mark of a replayed seed."""

from __future__ import annotations

from typing import Any


def clock_text(state: Any) -> str:
    """Both players' time. The running one is a Discord timestamp that counts down by itself on every
    reader's screen, so the board is edited only when play passes, not every second."""
    clock = state.clock
    lines = []
    for player in state.players:
        left = clock.left_ms(player.id)
        if player.id in clock.out:
            text = f"⌛ out of time ({_minutes(-left)} over when last counted)"
        elif clock.ticking(player.id) and state.status == "battle":
            text = f"⏱️ {_minutes(left)} left at the last move · runs out <t:{clock.deadline_ms // 1000}:R>"
        else:
            text = f"{_minutes(left)} left"
        lines.append(f"**{player.name}**: {text}")
    if clock.paused_by is not None:
        asked = f"; {state.player(clock.resume_asked_by).name} asks to resume" if clock.resume_asked_by else ""
        lines.append(f"⏸️ Paused by {state.player(clock.paused_by).name}{asked}.")
    if clock.out:
        lines.append("When time runs out: " + ("the opponent may claim the game." if clock.expiry == "claim"
                                               else "play on."))
    return "\n".join(lines)


def _minutes(ms: int) -> str:
    seconds = max(0, ms) // 1000
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}" if seconds >= 3600 \
        else f"{seconds // 60}:{seconds % 60:02d}"


def replay_mark(state: Any) -> str:
    """A line marking a game whose seed a player fixed: its shuffles were never secret."""
    fixer = state.setup.seed_fixed_by
    if fixer is None:
        return ""
    return f"\n🔁 **Replay** of seed `` {state.setup.seed} `` fixed by {state.player(fixer).name}: no secret shuffles."
