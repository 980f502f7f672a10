"""Everything a player can do to a table game, as JSON records for the action log. The moves every pack has
(sides, Battle Ready, deployment, the end of a turn, CP spent, concession, the clock) are the Chapter Approved
pack's own action records; what differs is here."""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, TypeAdapter

from bot.engine.moves import (
    Abandon, ChooseSide, ClaimTime, Concede, DeclareBattleReady, DeploymentDone, DoneScoring, EndCommandPhase, EndTurn,
    Move, PauseClock, ResumeClock, SetArmy, SpendCp, TimeOut,
)

MAX_VP = 10_000  # 4th edition Victory Points are units' points values


class SelectSecondaries(Move):
    """GT 2020: the actor's secret selection of secondary objectives (`codex`: the name of a Codex one)."""

    kind: Literal["select_secondaries"] = "select_secondaries"
    picks: tuple[str, ...]
    codex: str | None = None


class ChooseMission(Move):
    """4th edition: the Strategy Roll winner chooses the mission."""

    kind: Literal["choose_mission"] = "choose_mission"
    mission: str


class ChooseTurn(Move):
    """The first-turn roll-off winner takes the first or the second turn."""

    kind: Literal["choose_turn"] = "choose_turn"
    first: bool


class ScoreObjective(Move):
    """VP for an objective in the current battle round (or at the end of the battle)."""

    kind: Literal["score_objective"] = "score_objective"
    objective: str
    vp: int = Field(ge=1, le=MAX_VP)


class GainCp(Move):
    """CP gained. `mission_rule`: a mission rule gave it in the actor's Command phase, outside the 1CP limit."""

    kind: Literal["gain_cp"] = "gain_cp"
    amount: int
    reason: str = ""
    mission_rule: bool = False


class MissionResult(Move):
    """4th edition, a level without Victory Points: who achieved the mission's objective (None: nobody)."""

    kind: Literal["mission_result"] = "mission_result"
    winner: str | None


TableAction = Annotated[
    Union[
        SetArmy, SelectSecondaries, ChooseMission, ChooseSide, DeclareBattleReady, DeploymentDone, ChooseTurn,
        EndCommandPhase, EndTurn, ScoreObjective, SpendCp, GainCp, MissionResult, DoneScoring, Concede, Abandon,
        PauseClock, ResumeClock, TimeOut, ClaimTime,
    ],
    Field(discriminator="kind"),
]

TABLE_ACTIONS: TypeAdapter[TableAction] = TypeAdapter(TableAction)
