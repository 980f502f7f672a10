"""What a game waits on, and what it asks of whom, in words: every surface says it the same way (the Discord
board's call names the players, the Activity and the pages list it). Nothing hidden is ever named: a wait says
what is wanted, never what a player chose or what the deck holds."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, cast

from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.state import GameState, Phase, PromptKind, Status
from bot.engine.models import settled
from bot.engine.table.rules import TableRules
from bot.engine.table.state import Step, TableState


class Wait(NamedTuple):
    """One thing a game waits on: `player` to do `verb`, and what it is about (`details`, by verb: the battle round
    and turn for turn, discard, deployed and done; the battle round for rounddone; a prompt's kind and card for
    answer; who asked for resume; nothing for the rest).

    Each family's waits are given flat, (player, verb, *details), and a stored call keeps them flat as a JSON list:
    `Wait.of(flat)` reads either, `flat()` gives it back, so a wait compares and is stored as it always was."""

    player: str
    verb: str
    details: tuple[str, ...] = ()

    @classmethod
    def of(cls, flat: Sequence[str]) -> Wait:
        return cls(flat[0], flat[1], tuple(flat[2:]))

    def flat(self) -> tuple[str, ...]:
        return (self.player, self.verb, *self.details)


# verb -> what is asked; {round}: the battle round.
ASKS: dict[str, str] = {
    "turn": "your turn (battle round {round}).",
    "sides": "you won the roll-off: choose Attacker or Defender.",
    "disposition": "pick your Force Disposition.",
    "choose": "choose your Secondary Missions.",
    "select": "select your secondary objectives.",
    "deployed": "press Deployment done once your army is set up.",
    "done": "finish scoring, then press Done scoring.",
    "rounddone": "battle round {round} is over: score what scores at the end of the battle round, then press Done "
                 "scoring.",
    "discard": "discard or keep your Tactical Missions.",
    "resume": "your opponent asks to resume the clock.",
    "attacker": "you won the roll-off: choose Attacker or Defender.",
    "defender": "you won the roll-off: choose Attacker or Defender.",
    "gofirst": "you won the roll-off: take the first or the second turn.",
    "gosecond": "you won the roll-off: take the first or the second turn.",
    "pickmission": "you won the Strategy Roll: choose the mission.",
}
PROMPTS: dict[PromptKind, str] = {
    PromptKind.OPTIONAL_RESHUFFLE: "{card} was drawn: keep it or draw again?",
    PromptKind.DISCARD_IF: "{card} was drawn: does its condition hold (discard it and draw again)?",
    PromptKind.ALPHA_TARGETS: "{owner} drew {card}: select three of your units as their Alpha Targets.",
    PromptKind.GAMMA_TARGET: "{card}: select an enemy unit as your Gamma Target, or none.",
    PromptKind.TEMPTING_OBJECTIVE: "{owner} drew {card}: select their Tempting Target.",
    PromptKind.ADAPT_KEEP: "Adapt or Die: which of your two cards do you keep?",
    PromptKind.BEACON_UNIT: "you drew {card}: name the unit it follows.",
}


def ask(catalog_of: Callable[[Any], Catalog | None], state: Any, player: str, wait: Wait) -> str:
    """What `wait` asks of `player`, addressed to them ("your turn (battle round 2).")."""
    if wait.verb == "answer":
        kind = wait.details[0]
        prompt = next(q for q in state.prompts if q.player == player and q.kind.value == kind)
        card = catalog_of(state).secondary(prompt.card).name  # type: ignore[union-attr]  # a Mission Deck game's
        return PROMPTS[prompt.kind].format(card=card, owner=state.player(prompt.owner).name)
    battle_round = wait.details[0] if wait.verb in ("turn", "rounddone") else getattr(state, "round", "")
    return ASKS[wait.verb].format(round=battle_round)


def mission_deck_waits(state: GameState) -> set[tuple[str, ...]]:
    """(player, verb, ...) for each turn and decision a Mission Deck game waits on: the roll-off winner's side, the
    player whose turn it is, prompts to answer, the next discard, and once one player has chosen, deployed or
    finished scoring, the other."""
    waiting: set[tuple[str, ...]] = {(q.player, "answer", q.kind.value, q.card) for q in state.prompts}
    if state.status == Status.SIDES:
        waiting.add((state.sides_rolloff.winner, "sides"))
    if state.status == Status.BATTLE and state.active is not None:
        waiting.add((state.active, "turn", str(state.round), str(state.turn)))
    if state.phase == Phase.DISCARDS and state.discard_queue:
        waiting.add((state.discard_queue[0], "discard", str(state.round), str(state.turn)))
    if state.clock is not None and state.clock.resume_asked_by is not None:
        # a resume is asked of the player who paused: asking sets resume_asked_by only on a paused clock
        waiting.add((cast(str, state.clock.paused_by), "resume", str(state.clock.resume_asked_by)))
    if state.status == Status.SECONDARIES and any(p.choice for p in state.players):
        waiting |= {(p.id, "choose") for p in state.players if p.choice is None}
    if state.status == Status.DISPOSITIONS:
        # once one has picked, the other; and a player whose army's detachments leave them a choice to make
        anyone = any(p.disposition_choice for p in state.players)
        waiting |= {(p.id, "disposition") for p in state.players
                    if p.disposition_choice is None and (anyone or any(a.to_choose for a in p.armies))}
    for confirmed, verb in ((state.deployed if state.status == Status.DEPLOYMENT else (), "deployed"),
                            (state.scoring_done, "done")):
        for p in state.players:
            if confirmed and p.id not in confirmed:
                waiting.add((p.id, verb, str(state.round), str(state.turn)))
    return waiting


def table_waits(rules: TableRules, state: TableState) -> set[tuple[str, ...]]:
    """(player, verb, ...) for each turn and decision a table game (Grand Tournament 2020, 4th edition) waits on."""
    waiting: set[tuple[str, ...]] = set()
    if state.status == Step.BATTLE:
        # the battle begins with the first player chosen, so there is a player whose turn it is
        waiting.add((cast(str, state.active), "turn", str(state.round), str(state.turn)))
    if state.status == Step.MISSION:
        waiting.add((settled(state.strategy_roll).winner, "pickmission"))
    if state.status == Step.ROUND_END:
        waiting |= {(p, "rounddone", str(state.round)) for p in rules.round_scorers(state)
                    if p not in state.scoring_done}
    if state.status == Step.SIDES:  # a choice of two: the call carries both buttons
        waiting |= {(settled(state.sides_rolloff).winner, verb) for verb in ("attacker", "defender")}
    if state.status == Step.FIRST_TURN:
        waiting |= {(settled(state.first_turn_rolloff).winner, verb) for verb in ("gofirst", "gosecond")}
    if state.status == Step.SECONDARIES and any(p.secret for p in state.players):
        waiting |= {(p.id, "select") for p in state.players if p.secret is None}
    for confirmed, step, verb in ((state.deployed, Step.DEPLOYMENT, "deployed"),
                                  (state.scoring_done, Step.END_GAME, "done")):
        if state.status == step and confirmed:
            waiting |= {(p.id, verb) for p in state.players if p.id not in confirmed}
    if state.clock is not None and state.clock.resume_asked_by is not None:
        waiting.add((cast(str, state.clock.paused_by), "resume", state.clock.resume_asked_by))  # asked: paused
    return waiting
