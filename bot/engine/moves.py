"""The moves every pack has, as JSON records for the action log: sides, Battle Ready, deployment, the end of a
Command phase and of a turn, Done scoring, CP spent, concession, abandoning and the chess clock. Each pack's own
moves are in its actions module."""

from __future__ import annotations


from typing import Literal

from pydantic import Field


from bot.engine.models import Army, Frozen


class Move(Frozen):
    """A record of one move: who made it and, in a clocked game, when."""

    actor: str = Field(description="Discord user id of the player acting")
    at: int | None = Field(None, description="Unix milliseconds the bot received it: stamped on the actions of a "
                                            "game with a chess clock, which counts from these stamps only")


class SetArmy(Move):
    """The actor's army, before the battle begins (again to change it)."""

    kind: Literal["set_army"] = "set_army"
    army: Army
    partner: bool = Field(False, description="Doubles: the army of the side's second player")


class ChooseSide(Move):
    kind: Literal["choose_side"] = "choose_side"
    side: Literal["attacker", "defender"]


class DeclareBattleReady(Move):
    kind: Literal["battle_ready"] = "battle_ready"
    ready: bool


class DeploymentDone(Move):
    """A player's army is set up (version 2): once both have confirmed, the first turn is determined."""

    kind: Literal["deployment_done"] = "deployment_done"


class EndCommandPhase(Move):
    kind: Literal["end_command_phase"] = "end_command_phase"


class EndTurn(Move):
    """Battle phases done: open the end-of-turn scoring window."""

    kind: Literal["end_turn"] = "end_turn"


class DoneScoring(Move):
    """The actor has finished the end-of-turn scoring; once both have (version 1: the player whose turn
    it is), the window closes: achieved cards go, then the discard decisions."""

    kind: Literal["done_scoring"] = "done_scoring"


class SpendCp(Move):
    kind: Literal["spend_cp"] = "spend_cp"
    amount: int
    reason: str = ""


class Concede(Move):
    kind: Literal["concede"] = "concede"


class Abandon(Move):
    kind: Literal["abandon"] = "abandon"


class PauseClock(Move):
    kind: Literal["pause_clock"] = "pause_clock"


class ResumeClock(Move):
    """The player who paused resumes; the other's press asks them to."""

    kind: Literal["resume_clock"] = "resume_clock"


class TimeOut(Move):
    """The actor's time has run out: applied by the bot at the moment it does, for the actor."""

    kind: Literal["time_out"] = "time_out"


class ClaimTime(Move):
    """With the clock's claim setting: the actor claims the game once the opponent's time has run out."""

    kind: Literal["claim_time"] = "claim_time"
