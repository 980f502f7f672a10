"""Everything a player can do to a Chapter Approved game, as JSON-serialisable records for the action log: the
moves every pack has (bot/engine/moves.py) and the Mission Deck's own."""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, TypeAdapter

from bot.engine.chapter_approved.state import Source
from bot.engine.moves import (
    Abandon, ChooseSide, ClaimTime, Concede, DeclareBattleReady, DeploymentDone, DoneScoring, EndCommandPhase, EndTurn,
    Move, PauseClock, ResumeClock, SetArmy, SpendCp, TimeOut,
)


class ChooseDisposition(Move):
    """CA 2026-27: the actor's Force Disposition, secret until both players have picked."""

    kind: Literal["choose_disposition"] = "choose_disposition"
    disposition: str


class AgreeMirrorMission(Move):
    """CA 2026-27, Mirrored World: the mission the actor agrees to play instead of the D6 (None: roll)."""

    kind: Literal["agree_mirror"] = "agree_mirror"
    mission: str | None


class ChooseSecondaries(Move):
    kind: Literal["choose_secondaries"] = "choose_secondaries"
    mode: Literal["tactical", "fixed"]
    cards: tuple[str, ...] = ()


class AnswerPrompt(Move):
    """Answer the first open prompt addressed to the actor."""

    kind: Literal["answer"] = "answer"
    accept: bool | None = None  # OPTIONAL_RESHUFFLE, DISCARD_IF
    units: tuple[str, ...] = ()  # ALPHA_TARGETS (empty: no units on the battlefield), GAMMA_TARGET
    objective: str | None = None  # TEMPTING_OBJECTIVE
    keep: str | None = None  # ADAPT_KEEP


class NewOrders(Move):
    kind: Literal["new_orders"] = "new_orders"
    card: str


class Discard(Move):
    """End-of-turn discard decision (possibly none) of a Tactical player."""

    kind: Literal["discard"] = "discard"
    cards: tuple[str, ...] = ()


class Score(Move):
    kind: Literal["score"] = "score"
    source: Source
    card: str | None = None
    option: str | None = None
    count: int | None = Field(None, description="How many counted items, for 'per' options")
    vp: int | None = Field(None, description="VP to record when no option is given")
    objective: str | None = Field(None, description="The objective marker a burn or deny option removes")
    end_of_battle: bool = Field(False, description="VP typed by hand that a card gives at the end of the battle: "
                                                   "outside the per-round caps, as its end-of-battle options")


class HiddenSuppliesCorner(Move):
    """Hidden Supplies: the corner the players moved the centre marker towards."""

    kind: Literal["hidden_supplies_corner"] = "hidden_supplies_corner"
    corner: str


class CompleteRitual(Move):
    """The Ritual: the actor's Action completed at the end of their turn and set up a marker in No Man's Land."""

    kind: Literal["complete_ritual"] = "complete_ritual"


class GainCp(Move):
    kind: Literal["gain_cp"] = "gain_cp"
    amount: int
    reason: str = ""


class UseChallenger(Move):
    kind: Literal["use_challenger"] = "use_challenger"
    use: Literal["stratagem", "mission"]


class AdaptOrDieDraw(Move):
    """Tactical, twice per battle: after drawing a card, draw another and shuffle one back."""

    kind: Literal["adapt_draw"] = "adapt_draw"
    card: str


class AdaptOrDieSwap(Move):
    """Fixed, once per battle, end of own turn after scoring: swap a Fixed card (version 2: in the discard
    step, the end-of-turn scoring being over, so the new card scores from the next window)."""

    kind: Literal["adapt_swap"] = "adapt_swap"
    card: str
    replacement: str


Action = Annotated[
    Union[
        SetArmy, ChooseDisposition, AgreeMirrorMission,
        ChooseSide, DeclareBattleReady, ChooseSecondaries, DeploymentDone, AnswerPrompt, NewOrders, EndCommandPhase,
        EndTurn, DoneScoring, Discard, Score, SpendCp, GainCp, UseChallenger, AdaptOrDieDraw,
        AdaptOrDieSwap, Concede, Abandon, HiddenSuppliesCorner, CompleteRitual, PauseClock, ResumeClock, TimeOut,
        ClaimTime,
    ],
    Field(discriminator="kind"),
]

ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


def parse_action(data: str | bytes) -> Action:
    return ACTION_ADAPTER.validate_json(data)


def dump_action(action: Action) -> str:
    return ACTION_ADAPTER.dump_json(action).decode()
