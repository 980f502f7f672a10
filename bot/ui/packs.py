"""What each family of packs gives the desk (bot/ui/desk.py) to show and run its games in Discord, beside what its
games offer (bot/present/play.py): the list a new family fills in. The Mission Deck's is
bot/ui/chapter_approved/view.py, the table games' (Grand Tournament 2020, 4th edition) bot/ui/table/view.py;
`PackViews.of(state)` says which one shows a game. Both hand their presses and menu choices to their controls module
with bot/ui/pack_controls.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.engine.events import Event
from bot.engine.packs import Packs, is_mission_deck
from bot.present import GameModel
from bot.ui.chapter_approved.view import MissionDeckView
from bot.ui.table.view import TableView

if TYPE_CHECKING:
    from bot.services.games import ActResult
    from bot.store.repository import GameRecord
    from bot.ui.desk_api import Desk


class PackView(Protocol):
    def briefing(self, model: GameModel, state: Any, events: tuple[Event, ...]) -> dict:
        """The challenge's embeds (and pictures), read before the game starts, headed by the game's public model."""

    def waits(self, state: Any) -> set[tuple[str, ...]]:
        """(player, verb, ...) for each turn and decision the game waits on: the calls (bot/ui/calls.py)."""

    def result_card(self, model: GameModel, state: Any) -> dict:
        """The result card's embed (its title and verdict the game's public model's), and its score sheet picture
        where the game has one."""

    async def press(self, desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str,
                    version: int | None) -> None:
        """A button of the game's that is not a simple action (the desk runs those, and Undo)."""

    async def select(self, desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str,
                     values: list[str], version: int | None) -> None:
        """A choice in one of the game's menus."""

    def headline(self, result: ActResult) -> str | None:
        """News of an action for both players besides the board's calls (the board moves to bring it), or None."""


class PackViews:
    """Every family's view."""

    def __init__(self, packs: Packs) -> None:
        self.mission_deck = MissionDeckView(packs)
        self.table = TableView(packs)

    def of(self, state: Any) -> PackView:
        return self.mission_deck if is_mission_deck(state) else self.table
