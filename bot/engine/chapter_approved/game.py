"""A Chapter Approved battle as a pure function: state + action -> new state + events.

`new_game` sets the mission and makes the roll-offs; `apply` checks an action against every rule
and either returns the next state or raises a GameError that leaves the state untouched;
`replay` folds an action log from the setup, which must give the stored snapshot exactly.

The sequence both seasons share is `Battle` (bot/engine/chapter_approved/battle.py); each season is a subclass that
implements its hooks where the flow differs (season_2025.py, season_2026.py), and its data decides the numbers
(caps, draws, costs). `season` picks the subclass from the catalog.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import clock as clocks
from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.battle import Battle
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.core import MAX_UNIT_NAME
from bot.engine.chapter_approved.season_2025 import Season2025
from bot.engine.chapter_approved.season_2026 import Season2026
from bot.engine.chapter_approved.state import GameSetup, GameState, Phase, Status
from bot.engine.chapter_approved.victory import MAX_MANUAL_VP
from bot.engine.errors import InvalidValue
from bot.engine.events import Event, Played
from bot.engine.rng import seed_hash

__all__ = ["Event", "Played", "new_game", "apply", "replay", "runner", "seed_hash", "MAX_UNIT_NAME",
           "MAX_MANUAL_VP"]


def season(catalog: Catalog) -> type[Battle]:
    """The season whose flow plays this catalog: the one place it is chosen. Force Dispositions are CA 2026-27's;
    any other catalog (2025-26, or a new season's decks alone) plays the 2025-26 flow."""
    return Season2026 if catalog.force_dispositions else Season2025


def new_game(catalog: Catalog, setup: GameSetup) -> Played:
    if setup.players[0] == setup.players[1]:
        raise InvalidValue("You cannot play against yourself: pick another opponent.")
    if not setup.seed:
        raise InvalidValue("A game needs a seed.")
    return season(catalog).begin(catalog, setup)


def apply(catalog: Catalog, state: GameState, action: a.Action) -> Played:
    """A clocked game charges the running player up to the action's stamp, applies the rules, then runs the
    clock for whoever the game waits on next."""
    clock, at = state.clock, action.at
    if clock is not None and at is not None:
        state = state.model_copy(update={"clock": clocks.charge(clock, at)})
    game = season(catalog)(catalog, state)
    game.apply(action)
    after = game.state
    if clock is not None and at is not None and after.clock is not None:
        after = after.model_copy(update={"clock": clocks.switch(after.clock, runner(after), at)})
    return Played(after, tuple(game.events))


def runner(state: GameState) -> str | None:
    """Whose time runs: nobody's before the first turn or after the end; in the battle, the player a decision
    waits on (a When Drawn answer, the next end-of-turn discard), else the player whose turn it is, or their
    opponent once they finished their end-of-turn scoring and only the opponent's Done scoring is missing."""
    if state.status != Status.BATTLE or state.active is None:
        return None
    if state.prompts:
        return state.prompts[0].player
    if state.phase == Phase.DISCARDS and state.discard_queue:
        return state.discard_queue[0]
    if state.active in state.scoring_done:
        return state.opponent(state.active).id
    return state.active


def replay(catalog: Catalog, setup: GameSetup, actions: Sequence[a.Action]) -> GameState:
    state = new_game(catalog, setup).state
    for action in actions:
        state = apply(catalog, state, action).state
    return state

