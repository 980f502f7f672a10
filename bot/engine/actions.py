"""Everything a player can do to a game, as JSON-serialisable records for the action log."""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, TypeAdapter

from bot.engine.state import Frozen, Source


class _Action(Frozen):
    actor: str = Field(description="Discord user id of the player acting")
    at: int | None = Field(None, description="Unix milliseconds the bot received it: stamped on the actions of a "
                                            "game with a chess clock, which counts from these stamps only")


class ChooseSide(_Action):
    kind: Literal["choose_side"] = "choose_side"
    side: Literal["attacker", "defender"]


class DeclareBattleReady(_Action):
    kind: Literal["battle_ready"] = "battle_ready"
    ready: bool


class ChooseSecondaries(_Action):
    kind: Literal["choose_secondaries"] = "choose_secondaries"
    mode: Literal["tactical", "fixed"]
    cards: tuple[str, ...] = ()


class DeploymentDone(_Action):
    """A player's army is set up (version 2): once both have confirmed, the first turn is determined."""

    kind: Literal["deployment_done"] = "deployment_done"


class AnswerPrompt(_Action):
    """Answer the first open prompt addressed to the actor."""

    kind: Literal["answer"] = "answer"
    accept: bool | None = None  # OPTIONAL_RESHUFFLE, DISCARD_IF
    units: tuple[str, ...] = ()  # ALPHA_TARGETS (empty: no units on the battlefield), GAMMA_TARGET
    objective: str | None = None  # TEMPTING_OBJECTIVE
    keep: str | None = None  # ADAPT_KEEP


class NewOrders(_Action):
    kind: Literal["new_orders"] = "new_orders"
    card: str


class EndCommandPhase(_Action):
    kind: Literal["end_command_phase"] = "end_command_phase"


class EndTurn(_Action):
    """Battle phases done: open the end-of-turn scoring window."""

    kind: Literal["end_turn"] = "end_turn"


class DoneScoring(_Action):
    """The actor has finished the end-of-turn scoring; once both have (version 1: the player whose turn
    it is), the window closes: achieved cards go, then the discard decisions."""

    kind: Literal["done_scoring"] = "done_scoring"


class Discard(_Action):
    """End-of-turn discard decision (possibly none) of a Tactical player."""

    kind: Literal["discard"] = "discard"
    cards: tuple[str, ...] = ()


class Score(_Action):
    kind: Literal["score"] = "score"
    source: Source
    card: str | None = None
    option: str | None = None
    count: int | None = Field(None, description="How many counted items, for 'per' options")
    vp: int | None = Field(None, description="VP to record when no option is given")
    objective: str | None = Field(None, description="The objective marker a burn or deny option removes")


class HiddenSuppliesCorner(_Action):
    """Hidden Supplies: the corner the players moved the centre marker towards."""

    kind: Literal["hidden_supplies_corner"] = "hidden_supplies_corner"
    corner: str


class CompleteRitual(_Action):
    """The Ritual: the actor's Action completed at the end of their turn and set up a marker in No Man's Land."""

    kind: Literal["complete_ritual"] = "complete_ritual"


class SpendCp(_Action):
    kind: Literal["spend_cp"] = "spend_cp"
    amount: int
    reason: str = ""


class GainCp(_Action):
    kind: Literal["gain_cp"] = "gain_cp"
    amount: int
    reason: str = ""


class UseChallenger(_Action):
    kind: Literal["use_challenger"] = "use_challenger"
    use: Literal["stratagem", "mission"]


class AdaptOrDieDraw(_Action):
    """Tactical, twice per battle: after drawing a card, draw another and shuffle one back."""

    kind: Literal["adapt_draw"] = "adapt_draw"
    card: str


class AdaptOrDieSwap(_Action):
    """Fixed, once per battle, end of own turn after scoring: swap a Fixed card (version 2: in the discard
    step, the end-of-turn scoring being over, so the new card scores from the next window)."""

    kind: Literal["adapt_swap"] = "adapt_swap"
    card: str
    replacement: str


class Concede(_Action):
    kind: Literal["concede"] = "concede"


class Abandon(_Action):
    kind: Literal["abandon"] = "abandon"


class PauseClock(_Action):
    kind: Literal["pause_clock"] = "pause_clock"


class ResumeClock(_Action):
    """The player who paused resumes; the other's press asks them to."""

    kind: Literal["resume_clock"] = "resume_clock"


class TimeOut(_Action):
    """The actor's time has run out: applied by the bot at the moment it does, for the actor."""

    kind: Literal["time_out"] = "time_out"


class ClaimTime(_Action):
    """With the clock's claim setting: the actor claims the game once the opponent's time has run out."""

    kind: Literal["claim_time"] = "claim_time"


Action = Annotated[
    Union[
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
