"""The Discord side of a Chapter Approved game's controls (what it offers: bot/present/mission_deck_offers.py): a
menu opened privately for the presser, a choice in it played, the form a When Drawn question is answered with. The
desk (bot/ui/desk.py) runs them through the same service, version checks and board edits as every pack's."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.present.mission_deck_offers import menu, select_action, units_answer, units_form
from bot.present.pictures.map import table_map
from bot.ui.controls import menu_view
from bot.ui.errors import reply_privately
from bot.ui.files import attached
from bot.ui.forms import Form
from bot.plumbing.drawing import drawn
from bot.ui.seats import acting_seat

if TYPE_CHECKING:
    from bot.store.repository import GameRecord
    from bot.ui.desk_api import Desk


async def open_menu(desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str) -> None:
    """Menus open privately for the presser, drawn from what they may pick right now."""
    me = acting_seat(interaction, record.setup, "do that")
    offered = menu(desk.catalog_of(record.state), record.state, me, verb)
    await reply_privately(interaction, offered.content, view=menu_view(offered, record.id, record.version))


async def on_select(desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str,
                    values: list[str], version: int | None) -> None:
    game_id = record.id
    action = select_action(str(interaction.user.id), verb, values)
    result = await desk.perform(interaction, action, game_id=game_id, version=version)
    if result is not None and verb == "corner" and interaction.channel is not None:
        # The briefing's map was drawn before the markers were placed: show where they are now, the board under it.
        picture = await drawn(table_map, desk.catalog_of(result.state), result.state)
        await interaction.channel.send(file=attached(picture))
        await desk.move_board(game_id, notify=set())


class UnitsModal(Form):
    """Names typed for a When Drawn question: Marked for Death's three Alpha Targets (the opponent) and Gamma Target
    (the drawer); CA 2026-27's Beacon unit (the drawer) and, with no map to pick from, A Tempting Target's
    objective (the opponent)."""

    def __init__(self, desk: Desk, record: GameRecord, me: str) -> None:
        super().__init__(units_form(record.state, me))
        self.desk, self.record, self.me = desk, record, me

    async def submit(self, interaction: discord.Interaction, values: dict[str, str]) -> None:
        answer = units_answer(self.record.state, self.me, values)
        # At the version it was shown: a form left open while the game moved on is refused like an outdated board.
        await self.desk.perform(interaction, answer, game_id=self.record.id, version=self.record.version)
