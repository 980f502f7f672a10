"""The base of a Chapter Approved battle: one action's worth of work on a local state, the checks every step
shares, and the dispatch of an action to its `_do_<kind>` step (bot/engine/chapter_approved/battle.py)."""

from __future__ import annotations

from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.state import GameState, Phase, PlayerState, Status
from bot.engine.errors import GameError, InvalidValue, NotAPlayer, NotYourTurn, WrongPhase
from bot.engine.events import Event
from bot.engine.models import settled

MAX_UNIT_NAME = 80


class Core:
    """One action's worth of work: a local, replaceable state and the events it produced."""

    def __init__(self, catalog: Catalog, state: GameState) -> None:
        self.catalog = catalog
        self.rules = catalog.rules
        self.state = state
        self.events: list[Event] = []

    # ---- helpers -------------------------------------------------------------------------------

    def say(self, text: str, player: str | None = None, private_to: str | None = None) -> None:
        self.events.append(Event(text, player, private_to))

    def update(self, **changes) -> None:
        self.state = self.state.model_copy(update=changes)

    def update_player(self, player_id: str, **changes) -> None:
        self.update(players=tuple(
            p.model_copy(update=changes) if p.id == player_id else p for p in self.state.players
        ))

    def p(self, player_id: str) -> PlayerState:
        return self.state.player(player_id)

    def name(self, player_id: str) -> str:
        return self.p(player_id).name

    def card_name(self, card_id: str) -> str:
        return self.catalog.secondary(card_id).name

    def require_battle(self) -> None:
        if self.state.status != Status.BATTLE:
            raise WrongPhase({
                Status.DISPOSITIONS: "The battle has not started: both players pick their Force Disposition first.",
                Status.SIDES: "The battle has not started: the Attacker and Defender are not chosen yet.",
                Status.SECONDARIES: "The battle has not started: both players must choose their Secondary Missions.",
                Status.DEPLOYMENT: "The battle has not started: both players must confirm their deployment "
                                   "(Deployment done).",
                Status.ENDED: "This game has ended.",
                Status.ABANDONED: "This game was abandoned.",
            }[self.state.status])

    def require_active(self, actor: str, what: str) -> None:
        self.require_battle()
        if actor != self.state.active:
            raise NotYourTurn(f"It is {self.name(settled(self.state.active))}'s turn: only they can {what}.")

    def require_phase(self, phase: Phase, what: str) -> None:
        if self.state.phase != phase:
            raise WrongPhase(f"You can {what} only in the {phase_name(phase)}; "
                             f"it is the {phase_name(self.state.phase)}.")

    def require_no_prompts(self, player_id: str | None = None) -> None:
        waiting = [q for q in self.state.prompts if player_id is None or q.owner == player_id or q.player == player_id]
        if waiting:
            q = waiting[0]
            raise WrongPhase(f"Waiting for {self.name(q.player)} to answer about {self.card_name(q.card)} first.")

    # ---- dispatch ------------------------------------------------------------------------------

    def apply(self, action: a.Action) -> None:
        if self.state.status in (Status.ENDED, Status.ABANDONED):
            raise WrongPhase("This game is over: start a new one with /game new.")
        # A moderator may abandon a game too: who may is decided by the service (Manage Channels).
        if not isinstance(action, a.Abandon) and action.actor not in self.state.setup.players:
            raise NotAPlayer("Only the two players of this game can act on it.")
        handler = getattr(self, f"_do_{action.kind}")
        handler(action)

    def _confirm(self, field: str, actor: str, already: str, done: str) -> bool:
        """Record `actor`'s confirmation of a step each player confirms once (the players listed in `field`);
        True once both have."""
        confirmed = getattr(self.state, field)
        if actor in confirmed:
            raise GameError(f"{already}: waiting for {self.state.opponent(actor).name}.")
        self.update(**{field: confirmed + (actor,)})
        self.say(f"{self.name(actor)} {done}.")
        return len(confirmed) + 1 == len(self.state.players)

    def _turn_order(self) -> tuple[str, str]:
        active = settled(self.state.active)
        return active, self.state.opponent(active).id


def times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    out = list(items)
    out.remove(item)
    return tuple(out)


def yes_no(accept: bool | None) -> bool:
    if accept is None:
        raise InvalidValue("Answer yes or no.")
    return accept


def unit_names(units: tuple[str, ...], at_most: int) -> tuple[str, ...]:
    names = tuple(u.strip() for u in units if u.strip())
    if len(names) > at_most:
        raise InvalidValue(f"Name at most {at_most} unit{'s' if at_most > 1 else ''}.")
    if any(len(n) > MAX_UNIT_NAME for n in names):
        raise InvalidValue(f"Unit names are at most {MAX_UNIT_NAME} characters.")
    return names


def phase_name(phase: Phase | None) -> str:
    return {
        Phase.COMMAND: "Command phase",
        Phase.BATTLE: "Movement to Fight phases",
        Phase.END_OF_TURN: "end of the turn",
        Phase.DISCARDS: "end-of-turn discards",
        None: "time between turns",
    }[phase]
