"""Mission systems as packs: the engine's one entry, `Packs.apply(state, action)`, hands each game to its pack's
rules module, as python-chess hands a board to its variant.

A pack is its data (decks/<pack>/, validated at start-up) plus one rules module with the same small interface:
`new_game(setup)`, `apply(state, action)`, `replay` and `revealed(before, after)` (may the step be undone). Its
family (below) names the models its games are stored with, so the store reads any stored game without the pack's
data. A new Chapter Approved season is its decks (a catalog with its own pack id, played by an existing season's
flow, or where the flow changes by a subclass of chapter_approved.battle.Battle); an older system is its data and a
rules module on the table-game rules. Either is registered by a line in FAMILIES and one in bot.decks.installed_packs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel, TypeAdapter

from bot.engine.chapter_approved import actions as ca_actions
from bot.engine.chapter_approved import game as ca_game
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.state import CA_PACK, GameSetup, GameState, SCHEMA_VERSION, Status
from bot.engine.events import Played
from bot.engine.table.actions import TABLE_ACTIONS
from bot.engine.table.state import TABLE_SCHEMA, TableSetup, TableState

GT_PACK = "gt-2020"
FOURTH_PACK = "4th-edition"


@dataclass(frozen=True)
class Family:
    """The models a pack's games are stored with: packs of one family share its state, setup and actions (every
    Chapter Approved season the Mission Deck's; the older systems the table game's)."""

    setup: type[BaseModel]
    state: type[BaseModel]
    schema: int  # of the state's snapshots
    actions: TypeAdapter[Any]


MISSION_DECK = Family(GameSetup, GameState, SCHEMA_VERSION, ca_actions.ACTION_ADAPTER)
TABLE_GAME = Family(TableSetup, TableState, TABLE_SCHEMA, TABLE_ACTIONS)
# pack id -> its family: the store reads any stored game with this alone, without the pack's data.
FAMILIES: dict[str, Family] = {CA_PACK: MISSION_DECK, "ca-2026-27": MISSION_DECK, GT_PACK: TABLE_GAME,
                                FOURTH_PACK: TABLE_GAME}


def family(pack: str) -> Family:
    try:
        return FAMILIES[pack]
    except KeyError:
        raise KeyError(f"no pack {pack!r} is known to this bot") from None


def is_mission_deck(state: Any) -> bool:
    """A game of a Chapter Approved season (the Mission Deck's board and controls), not a table game."""
    return isinstance(state, GameState)


class Rules(Protocol):
    """What every pack's rules module offers the service and the store."""

    pack: str
    title: str

    def new_game(self, setup: Any) -> Played: ...

    def apply(self, state: Any, action: Any) -> Played: ...

    def replay(self, setup: Any, actions: Sequence[Any]) -> Any: ...

    def revealed(self, before: Any, after: Any) -> bool: ...


class ChapterApprovedRules:
    """A Chapter Approved season's battle (bot/engine/chapter_approved/game.py over the season's catalog) behind the packs'
    interface: the pack is the catalog's."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.pack = catalog.pack
        self.title = catalog.title

    def new_game(self, setup: GameSetup) -> Played:
        return ca_game.new_game(self.catalog, setup)

    def apply(self, state: GameState, action: ca_actions.Action) -> Played:
        return ca_game.apply(self.catalog, state, action)

    def replay(self, setup: GameSetup, actions: Sequence[ca_actions.Action]) -> GameState:
        return ca_game.replay(self.catalog, setup, actions)

    def revealed(self, before: GameState, after: GameState) -> bool:
        """A draw, a shuffle, a reveal, the first turn and the start of the battle: undoing it would let a player
        see what comes and choose again (or deploy again)."""
        decks = [(p.deck, q.deck) for p, q in zip(before.players, after.players)]
        decks.append((before.challenger_deck, after.challenger_deck))
        revealed = (before.status in (Status.DISPOSITIONS, Status.SECONDARIES, Status.DEPLOYMENT)
                    and after.status != before.status)
        return revealed or any(old != new for old, new in decks)


class Packs:
    """The installed packs, by id."""

    def __init__(self, *rules: Rules) -> None:
        for r in rules:
            family(r.pack)  # a pack the store could not read back is refused at start-up
        self._by_id = {r.pack: r for r in rules}

    def __iter__(self):
        return iter(self._by_id.values())

    def __contains__(self, pack: str) -> bool:
        return pack in self._by_id

    def rules(self, pack: str) -> Rules:
        try:
            return self._by_id[pack]
        except KeyError:
            raise KeyError(f"no pack {pack!r} is installed") from None

    def new_game(self, setup: Any) -> Played:
        return self.rules(setup.pack).new_game(setup)

    def apply(self, state: Any, action: Any) -> Played:
        return self.rules(state.pack).apply(state, action)

    def replay(self, setup: Any, actions: Sequence[Any]) -> Any:
        return self.rules(setup.pack).replay(setup, actions)
