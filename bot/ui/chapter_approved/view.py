"""How a Chapter Approved game is shown and run in Discord (the PackView of bot/ui/packs.py): its briefing, board,
calls, result card and score sheet, and its buttons and menus (controls.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.state import GameState
from bot.engine.events import Event
from bot.engine.packs import Packs
from bot.present import GameModel
from bot.present.asks import mission_deck_waits
from bot.ui.chapter_approved import controls
from bot.ui.chapter_approved.briefing import briefing
from bot.ui.chapter_approved.result_card import result_embed, sheet_file
from bot.ui.pack_controls import ForwardsToControls

if TYPE_CHECKING:
    from bot.services.games import ActResult
    from bot.store.repository import GameRecord
    from bot.ui.desk_api import Desk


async def units_form(desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str,
                     version: int | None) -> None:
    """The form a When Drawn question is answered with (controls.UnitsModal): unit names, or an objective."""
    await interaction.response.send_modal(controls.UnitsModal(desk, record, str(interaction.user.id)))


class MissionDeckView(ForwardsToControls):
    simple_actions = controls.SIMPLE_ACTIONS
    unversioned = controls.UNVERSIONED
    forms = frozenset({"units"})  # Marked for Death's unit names: a form must be the press's first answer
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

    def buttons(self, game_id: int, state: GameState, version: int) -> list[discord.ui.Item]:
        catalog = self.catalog_of(state)
        twist = state.mission.twist
        primaries = [catalog.primary(p) for p in state.primaries]
        redraw = "swap" if catalog.rules.swap else "neworders"
        return controls.board_buttons(
            game_id, state, version, adapt_or_die=twist is not None and catalog.twist(twist).adapt_or_die,
            ritual=any(p.sets_up_objectives for p in primaries),
            redraw=redraw if controls.new_orders_allowed(catalog, state) else None,
            corner=any(p.random_setup == "hidden_supplies" for p in primaries)
            and state.mission.hidden_supplies_corner is None,
            mirror=twist is not None and catalog.twist(twist).primary_effect == "mirror_roll")

    def waits(self, state: GameState) -> set[tuple[str, ...]]:
        return mission_deck_waits(state)

    def result_card(self, model: GameModel, state: GameState) -> dict:
        return dict(embed=result_embed(model, state), file=self.sheet_file(state, model.game))

    def sheet_file(self, state: GameState, game_id: int) -> discord.File:
        return sheet_file(self.catalog_of(state), state, game_id)

    def headline(self, result: ActResult) -> str | None:
        """No news besides the board and its calls: the secret choices are revealed on the board."""
        return None
