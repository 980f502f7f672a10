"""Mission systems as packs: the engine's one entry, `Packs.apply(state, action)`, hands each game to its pack's
rules module, as python-chess hands a board to its variant.

A pack is its data (decks/<pack>/, validated at start-up) plus one rules module with the same small interface:
`new_game(setup)`, `apply(state, action)`, `runner(state)` (whose clock runs), `revealed(before, after)` (may the
step be undone) and its action records. Its state, setup and action models are named here by the pack's id, so
the store reads any stored game without the pack's data. Adding a pack is adding its data, its rules module and
a line in each table below.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from pydantic import BaseModel, TypeAdapter

from bot.engine import actions as ca_actions
from bot.engine import clock as clocks
from bot.engine import game as ca_game
from bot.engine.catalog import Catalog
from bot.engine.events import Outcome
from bot.engine.state import CA_PACK, SCHEMA_VERSION, GameSetup, GameState, Status
from bot.engine.table.actions import TABLE_ACTIONS
from bot.engine.table.state import TABLE_SCHEMA, TableSetup, TableState

GT_PACK = "gt-2020"
FOURTH_PACK = "4th-edition"

# pack id -> the models its stored games are read with (the store needs no pack data for these)
SETUP_MODELS: dict[str, type[BaseModel]] = {CA_PACK: GameSetup, GT_PACK: TableSetup, FOURTH_PACK: TableSetup}
STATE_MODELS: dict[str, type[BaseModel]] = {CA_PACK: GameState, GT_PACK: TableState, FOURTH_PACK: TableState}
STATE_SCHEMAS: dict[str, int] = {CA_PACK: SCHEMA_VERSION, GT_PACK: TABLE_SCHEMA, FOURTH_PACK: TABLE_SCHEMA}
ACTION_ADAPTERS: dict[str, TypeAdapter[Any]] = {
    CA_PACK: ca_actions.ACTION_ADAPTER, GT_PACK: TABLE_ACTIONS, FOURTH_PACK: TABLE_ACTIONS}


class Rules(Protocol):
    """What every pack's rules module offers the service and the store."""

    pack: str
    title: str

    def new_game(self, setup: Any) -> Outcome: ...

    def apply(self, state: Any, action: Any) -> Outcome: ...

    def replay(self, setup: Any, actions: Sequence[Any]) -> Any: ...

    def runner(self, state: Any) -> str | None: ...

    def revealed(self, before: Any, after: Any) -> bool: ...


class ChapterApprovedRules:
    """The Chapter Approved 2025-26 battle (bot/engine/game.py) behind the packs' interface."""

    pack = CA_PACK

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.title = catalog.title

    def new_game(self, setup: GameSetup) -> Outcome:
        return ca_game.new_game(self.catalog, setup)

    def apply(self, state: GameState, action: ca_actions.Action) -> Outcome:
        return ca_game.apply(self.catalog, state, action)

    def replay(self, setup: GameSetup, actions: Sequence[ca_actions.Action]) -> GameState:
        return ca_game.replay(self.catalog, setup, actions)

    def runner(self, state: GameState) -> str | None:
        return clocks.runner(state)

    def revealed(self, before: GameState, after: GameState) -> bool:
        """A draw, a shuffle, a reveal, the first turn and the start of the battle: undoing it would let a player
        see what comes and choose again (or deploy again)."""
        decks = [(p.deck, q.deck) for p, q in zip(before.players, after.players)]
        decks.append((before.challenger_deck, after.challenger_deck))
        revealed = before.status in (Status.SECONDARIES, Status.DEPLOYMENT) and after.status != before.status
        return revealed or any(old != new for old, new in decks)


class Packs:
    """The installed packs, by id; the first is the default."""

    def __init__(self, *rules: Rules) -> None:
        self._by_id = {r.pack: r for r in rules}
        self.default = rules[0].pack

    def __iter__(self):
        return iter(self._by_id.values())

    def __contains__(self, pack: str) -> bool:
        return pack in self._by_id

    def rules(self, pack: str) -> Rules:
        try:
            return self._by_id[pack]
        except KeyError:
            raise KeyError(f"no pack {pack!r} is installed") from None

    def new_game(self, setup: Any) -> Outcome:
        return self.rules(setup.pack).new_game(setup)

    def apply(self, state: Any, action: Any) -> Outcome:
        return self.rules(state.pack).apply(state, action)

    def replay(self, setup: Any, actions: Sequence[Any]) -> Any:
        return self.rules(setup.pack).replay(setup, actions)
