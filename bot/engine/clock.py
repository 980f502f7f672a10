"""The chess clock: each player's time, counted from the times the bot stamped on the actions.

The engine never reads the wall clock. The service stamps each action of a clocked game with the moment it
was received (`at`, Unix milliseconds, kept in the action log), so replaying the log, an undo and
`python -m bot verify` all give the same clock. Before each action the running player is charged the time
since the last switch; after it, the clock runs for whoever the game now waits on (each pack's `runner`).
"""

from __future__ import annotations

from typing import Any

from bot.engine.errors import InvalidValue, NotYourTurn, WrongPhase
from bot.engine.events import Event
from bot.engine.models import Clock, Expiry

MAX_CLOCK_MINUTES = 600


def new_clock(minutes: int, expiry: Expiry) -> Clock:
    if not 1 <= minutes <= MAX_CLOCK_MINUTES:
        raise InvalidValue(f"A clock gives each player 1 to {MAX_CLOCK_MINUTES} minutes; got {minutes}.")
    return Clock(budget_ms=minutes * 60_000, expiry=expiry)


def charge(clock: Clock, at_ms: int) -> Clock:
    """Count the running player's time up to `at_ms`."""
    if clock.running is None or clock.paused_by is not None or clock.since_ms is None:
        return clock
    spent = max(0, at_ms - clock.since_ms)  # a stamp earlier than the last one (clock skew between processes)
    used = {**clock.used_ms, clock.running: clock.used_ms.get(clock.running, 0) + spent}
    return clock.model_copy(update={"used_ms": used, "since_ms": max(at_ms, clock.since_ms)})


def switch(clock: Clock, player: str | None, at_ms: int) -> Clock:
    """The clock runs for `player` from `at_ms` (charged up to then already)."""
    if player == clock.running:
        return clock
    return clock.model_copy(update={"running": player, "since_ms": at_ms})


def pause(clock: Clock, actor: str) -> Clock:
    if clock.paused_by is not None:
        raise WrongPhase("The clock is already paused.")
    return clock.model_copy(update={"paused_by": actor, "resume_asked_by": None})


def resume(clock: Clock, actor: str, at_ms: int) -> tuple[Clock, bool]:
    """The player who paused resumes; the other asks them to (both must agree): the clock, and whether it
    runs again."""
    if clock.paused_by is None:
        raise WrongPhase("The clock is not paused.")
    if actor != clock.paused_by:
        if clock.resume_asked_by == actor:
            raise NotYourTurn("You already asked to resume: the player who paused presses Resume to agree.")
        return clock.model_copy(update={"resume_asked_by": actor}), False
    return clock.model_copy(update={"paused_by": None, "resume_asked_by": None, "since_ms": at_ms}), True


def run_out(clock: Clock, player: str) -> Clock:
    """Record that `player`'s time has run out (their clock was charged up to now)."""
    if player in clock.out:
        raise WrongPhase("That player's time has already run out.")
    if clock.left_ms(player) > 0:
        raise InvalidValue("That player still has time left.")
    return clock.model_copy(update={"out": (*clock.out, player)})


def move(state: Any, action: Any) -> tuple[Clock, Event, str | None]:
    """A clock action (pause, resume, time out, claim) in a game of any pack: the new clock, what to tell the
    players, and the player who claimed the game on time (None: the game goes on)."""
    clock, me = state.clock, action.actor
    if clock is None:
        raise InvalidValue("This game has no clock: start one with `/game new clock:`.")
    name = lambda player: state.player(player).name  # noqa: E731
    match action.kind:
        case "pause_clock":
            return pause(clock, me), Event(f"{name(me)} paused the clock."), None
        case "resume_clock":
            resumed, running = resume(clock, me, action.at if action.at is not None else clock.since_ms)
            if running:
                return resumed, Event(f"{name(me)} resumed the clock."), None
            return resumed, Event(f"{name(me)} asks to resume the clock: {name(clock.paused_by)}, press Resume to "
                                  "agree.", player=clock.paused_by), None
        case "time_out":
            clock = run_out(clock, me)
            then = (f"{state.opponent(me).name} may claim the game (Claim on the board), or you play on."
                    if clock.expiry == "claim" else "The game plays on.")
            return clock, Event(f"{name(me)}'s time has run out. {then}"), None
    # claim_time
    if clock.expiry != "claim":
        raise WrongPhase("This game's clock plays on when time runs out: there is no game to claim.")
    opponent = state.opponent(me).id
    if opponent not in clock.out:
        raise InvalidValue(f"{name(opponent)}'s time has not run out: there is nothing to claim.")
    return clock, Event(f"{name(me)} claims the game: {name(opponent)}'s time ran out."), me
