"""Shared helpers for the engine rule tests: a `Table` that plays a real game on the real catalog.

The engine is a pure function of its state, so a test may rig the state between two actions
(`Table.rig`, `Table.set_player`): that is how a card is put on top of a Tactical deck before a draw.
For the very first draw (made while both players reveal) `Table.find_seed` searches seeds instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any, get_args

import pytest

from bot.decks import default_catalog
from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.catalog import Catalog, WhenDrawnKind
from bot.engine.chapter_approved.game import Event, apply, new_game
from bot.engine.chapter_approved.objectives import table_objectives
from bot.engine.chapter_approved.state import (
    GameSetup, GameState, Phase, PlayerState, PromptKind, SETUP_VERSION, Status,
)
from bot.engine.errors import GameError
from bot.engine.rng import roll_off, stream_of

CATALOG: Catalog = default_catalog()
P1, P2, OUTSIDER = "100000000000000001", "100000000000000002", "100000000000000003"
NAMES = {P1: "Alice", P2: "Bob"}
ALL_CARDS: tuple[str, ...] = tuple(c.id for c in CATALOG.secondaries)
# Cards whose When Drawn section asks nothing: a game drawing only these never waits on a prompt.
QUIET_CARDS = frozenset(
    c.id for c in CATALOG.secondaries if c.when_drawn is None or c.when_drawn.kind == WhenDrawnKind.DEFINITION
)
FIXED_PAIR = ("cleanse", "assassination")
ACTIONS: dict[str, type] = {cls.model_fields["kind"].default: cls for cls in get_args(get_args(a.Action)[0])}


def deck_order(seed: str, player: str) -> tuple[str, ...]:
    """The Tactical deck a player gets from this seed (rng label documented in bot/engine/rng.py)."""
    deck = list(ALL_CARDS)
    stream_of(seed, f"deck:{player}").shuffle(deck)
    return tuple(deck)


def find_seed(test: Callable[[str], bool], prefix: str = "seed") -> str:
    """The first seed `prefix-N` that passes `test`: a deterministic search, the same on every run."""
    for n in range(200_000):
        seed = f"{prefix}-{n}"
        if test(seed):
            return seed
    raise AssertionError(f"no seed with prefix {prefix!r} passes the test")


@cache
def quiet_seed(depth: int = 4) -> str:
    """A seed whose Tactical decks start with `depth` cards that open no When Drawn prompt, for both players."""
    return find_seed(lambda s: all(set(deck_order(s, p)[:depth]) <= QUIET_CARDS for p in (P1, P2)), "quiet")


def public(events: Iterable[Event]) -> list[str]:
    """Texts everyone in the channel sees."""
    return [e.text for e in events if e.private_to is None]


def texts(events: Iterable[Event]) -> str:
    return "\n".join(e.text for e in events)


class Table:
    """One game between Alice (P1) and Bob (P2), played action by action."""

    P1, P2, OUTSIDER = P1, P2, OUTSIDER
    ALL_CARDS, QUIET_CARDS, FIXED_PAIR = ALL_CARDS, QUIET_CARDS, FIXED_PAIR
    catalog = CATALOG
    deck_order = staticmethod(deck_order)
    find_seed = staticmethod(find_seed)
    public = staticmethod(public)
    texts = staticmethod(texts)

    def __init__(self, *, seed: str | None = None, size: str = "strike-force", mission: str | None = "A",
                 twist: bool = False, challenger_cards: bool = True, version: int = SETUP_VERSION) -> None:
        self.setup = GameSetup(size=size, players=(P1, P2), names=(NAMES[P1], NAMES[P2]), twist=twist,
                               challenger_cards=challenger_cards, mission=mission, seed=seed or quiet_seed(),
                               version=version)
        out = new_game(CATALOG, self.setup)
        self.state: GameState = out.state
        self.events: list[Event] = list(out.events)
        self.log: list[a.Action] = []

    # ---- who is who ----------------------------------------------------------------------------

    @property
    def first(self) -> str:
        """Who takes (or will take) the first turn: the test knows the seed, so it knows the roll-off to come."""
        if self.state.first is not None:
            return self.state.first
        if self.setup.size == "asymmetric-war":
            if self.state.attacker is None:
                raise AssertionError("in Asymmetric War the first player is known once the Attacker is chosen")
            return self.state.attacker
        return roll_off(self.setup, "first-turn").winner

    @property
    def second(self) -> str:
        return self.other(self.first)

    @property
    def active(self) -> str:
        assert self.state.active is not None, "no turn is being played"
        return self.state.active

    @staticmethod
    def other(player: str) -> str:
        return P2 if player == P1 else P1

    @staticmethod
    def name(player: str) -> str:
        return NAMES[player]

    def player(self, player: str) -> PlayerState:
        return self.state.player(player)

    # ---- acting --------------------------------------------------------------------------------

    def action(self, kind: str, actor: str | None = None, **fields: Any) -> a.Action:
        return ACTIONS[kind](actor=actor or self.active, **fields)

    def apply(self, action: a.Action) -> tuple[Event, ...]:
        out = apply(CATALOG, self.state, action)
        self.state = out.state
        self.log.append(action)
        self.events.extend(out.events)
        return out.events

    def act(self, kind: str, actor: str | None = None, **fields: Any) -> tuple[Event, ...]:
        """Apply an action by its kind; the actor defaults to the player whose turn it is."""
        return self.apply(self.action(kind, actor, **fields))

    def refuse(self, kind: str, actor: str | None = None, *, error: type[GameError] = GameError,
               match: str | None, **fields: Any) -> GameError:
        """Assert the action is refused with `error` whose message contains `match` (None: any message),
        leaving the state as it was."""
        action = self.action(kind, actor, **fields)
        before = self.state
        snapshot = before.model_dump()
        with pytest.raises(error, match=None if match is None else re.escape(match)) as info:
            apply(CATALOG, before, action)
        assert before.model_dump() == snapshot
        assert self.state is before
        return info.value

    def score(self, source: str, actor: str | None = None, **fields: Any) -> tuple[Event, ...]:
        return self.act("score", actor, source=source, **fields)

    def last_vp(self):
        return self.state.vp[-1]

    # ---- rigging the state (the engine is a pure function of it) -------------------------------

    def set_player(self, player: str, **changes: Any) -> None:
        self.state = self.state.model_copy(update={"players": tuple(
            p.model_copy(update=changes) if p.id == player else p for p in self.state.players
        )})

    def rig(self, player: str, *, hand: tuple[str, ...] | None = None, top: tuple[str, ...] = ()) -> None:
        """Give a Tactical player this hand and put `top` on top of their deck; every other card keeps its pile."""
        p = self.player(player)
        new_hand = hand if hand is not None else tuple(c for c in p.hand if c not in top)
        wanted = set(new_hand) | set(top)
        assert not set(new_hand) & set(top), "a card cannot be both in the hand and on the deck"
        discard = tuple(c for c in p.discard if c not in wanted)
        rest = tuple(c for c in p.deck + p.hand if c not in wanted)
        deck = tuple(top) + rest
        assert sorted(deck + new_hand + discard) == sorted(ALL_CARDS)
        targets = {k: v for k, v in p.targets.items() if k in new_hand}
        self.set_player(player, hand=new_hand, deck=deck, discard=discard, targets=targets)

    # ---- fast-forward --------------------------------------------------------------------------

    def choose_sides(self, attacker: str | None = None) -> None:
        """The roll-off winner picks; `attacker` says who should end up the Attacker (default: the winner)."""
        winner = self.state.sides_rolloff.winner
        side = "attacker" if attacker in (None, winner) else "defender"
        self.act("choose_side", winner, side=side)

    def to_deployment(self, first: str = "tactical", second: str = "tactical", *,
                      first_cards: tuple[str, ...] = FIXED_PAIR, second_cards: tuple[str, ...] = FIXED_PAIR,
                      attacker: str | None = None) -> None:
        """Choose sides, then Secondary Missions for the player who will go first and second: they are
        revealed (a version-1 game goes straight to the battle)."""
        self.choose_sides(attacker)
        for player, mode, cards in ((self.first, first, first_cards), (self.second, second, second_cards)):
            self.act("choose_secondaries", player, mode=mode, cards=cards if mode == "fixed" else ())

    def deploy(self) -> tuple[Event, ...]:
        """Both players confirm their deployment, the one who deploys first first: the battle begins.

        Returns the events of the second confirmation (the first turn, the start of the battle)."""
        first = self.state.deploys_first
        self.act("deployment_done", first)
        return self.act("deployment_done", self.other(first))

    def to_battle(self, first: str = "tactical", second: str = "tactical", *,
                  first_cards: tuple[str, ...] = FIXED_PAIR, second_cards: tuple[str, ...] = FIXED_PAIR,
                  attacker: str | None = None) -> None:
        """Sides, Secondary Missions, deployment: the battle begins."""
        self.to_deployment(first, second, first_cards=first_cards, second_cards=second_cards, attacker=attacker)
        if self.state.status == Status.DEPLOYMENT:
            self.deploy()
        assert self.state.status == Status.BATTLE

    def settle(self) -> None:
        """Answer every open prompt the neutral way: keep the card, name three units, the first objective."""
        while self.state.prompts:
            q = self.state.prompts[0]
            match q.kind:
                case PromptKind.OPTIONAL_RESHUFFLE | PromptKind.DISCARD_IF:
                    self.act("answer", q.player, accept=False)
                case PromptKind.ALPHA_TARGETS:
                    self.act("answer", q.player, units=("Unit A", "Unit B", "Unit C"))
                case PromptKind.GAMMA_TARGET:
                    self.act("answer", q.player, units=())
                case PromptKind.TEMPTING_OBJECTIVE:
                    self.act("answer", q.player, objective=self.no_mans_land()[0])
                case PromptKind.ADAPT_KEEP:
                    self.act("answer", q.player, keep=q.card)

    def to_end_of_turn(self) -> None:
        """From the Command phase or the battle phases to the end-of-turn scoring window."""
        self.settle()
        if self.state.phase == Phase.COMMAND:
            self.act("end_command_phase")
        if self.state.phase == Phase.BATTLE:
            self.act("end_turn")
        assert self.state.phase == Phase.END_OF_TURN

    def end_turn(self) -> tuple[Event, ...]:
        """Finish the turn: end the Command phase and the turn, done scoring, everyone keeps their cards.

        Returns the events of the last action: the start of the next turn (its draws, its prompts)."""
        self.settle()
        if self.state.phase in (Phase.COMMAND, Phase.BATTLE):
            self.to_end_of_turn()
        events: tuple[Event, ...] = ()
        if self.state.phase == Phase.END_OF_TURN:
            events = self.done_scoring()
        while self.state.phase == Phase.DISCARDS:
            events = self.act("discard", self.state.discard_queue[0], cards=())
        return events

    def done_scoring(self) -> tuple[Event, ...]:
        """Both players finish the end-of-turn scoring, the player whose turn it is first (version 1: only
        they press). Returns the events of the press that closed the window."""
        events = self.act("done_scoring")
        if self.state.phase == Phase.END_OF_TURN:
            events = self.act("done_scoring", self.other(self.active))
        return events

    def to_turn(self, round_: int, turn: int) -> None:
        """Fast-forward to the Command phase of that turn."""
        while (self.state.round, self.state.turn) < (round_, turn):
            self.end_turn()
        assert (self.state.round, self.state.turn) == (round_, turn)
        assert self.state.phase == Phase.COMMAND

    def to_round(self, round_: int) -> None:
        self.to_turn(round_, 1)

    def draw_for(self, player: str, top: tuple[str, ...], keep: tuple[str, ...] = ()) -> tuple[Event, ...]:
        """Rig `player`'s hand and deck top, then end the opponent's turn: `player` draws at their Command phase."""
        assert self.active != player, "draw_for ends the opponent's turn"
        self.settle()
        self.rig(player, hand=keep, top=top)
        events = self.end_turn()
        assert self.active == player and self.state.phase == Phase.COMMAND
        return events

    # ---- the map -------------------------------------------------------------------------------

    def objectives(self):
        return CATALOG.deployment(self.state.mission.deployment).objectives

    def no_mans_land(self) -> list[str]:
        """The objective markers in No Man's Land still on the table."""
        return [o.id for o in table_objectives(CATALOG, self.state) if o.area == "no_mans_land"]

    def home(self, player: str) -> str:
        """The objective marker in that player's deployment zone."""
        side = "attacker" if player == self.state.attacker else "defender"
        return next(o.id for o in self.objectives() if o.area == side)


@pytest.fixture
def table() -> Table:
    """A Strike Force game of Tournament mission A (Take and Hold) with quiet Tactical decks."""
    return Table()


@pytest.fixture
def make_table() -> type[Table]:
    return Table
