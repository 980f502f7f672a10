"""How a Chapter Approved game is shown and run in Discord (the PackView of bot/ui/packs.py): its briefing, calls and
result card, and its menus and forms (controls.py); what it offers is bot/present/mission_deck_offers.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.state import GameState
from bot.engine.events import Event
from bot.engine.packs import Packs
from bot.present import GameModel
from bot.present.asks import mission_deck_waits
from bot.present.pictures.mission_deck_sheet import score_sheet_picture
from bot.ui.chapter_approved import controls
from bot.ui.chapter_approved.briefing import briefing
from bot.ui.chapter_approved.result_card import result_embed
from bot.ui.files import attached
from bot.ui.pack_controls import ForwardsToControls
from bot.ui.seats import acting_seat

if TYPE_CHECKING:
    from bot.services.games import ActResult
    from bot.store.repository import GameRecord
    from bot.ui.desk_api import Desk


async def units_form(desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str,
                     version: int | None) -> None:
    """The form a When Drawn question is answered with (controls.UnitsModal): unit names, or an objective."""
    await interaction.response.send_modal(controls.UnitsModal(desk, record, acting_seat(interaction, record.setup)))


class MissionDeckView(ForwardsToControls):
    controls = controls
    presses = {"units": units_form}

    def __init__(self, packs: Packs) -> None:
        self.packs = packs

    def catalog_of(self, state: GameState) -> Catalog:
        """The decks of the Chapter Approved season the game is played with."""
        return self.packs.rules(state.pack).catalog

    def briefing(self, model: GameModel, state: GameState, events: tuple[Event, ...]) -> dict:
        embeds, files = briefing(model, self.catalog_of(state), state, events)
        return dict(embeds=embeds, files=files)

    def waits(self, state: GameState) -> set[tuple[str, ...]]:
        return mission_deck_waits(state)

    def result_card(self, model: GameModel, state: GameState) -> dict:
        sheet = score_sheet_picture(self.catalog_of(state), state, model.game)
        return dict(embed=result_embed(model, state), file=attached(sheet))

    def headline(self, result: ActResult) -> str | None:
        """No news besides the board and its calls: the secret choices are revealed on the board."""
        return None
