"""The Discord side of a table game's controls (Grand Tournament 2020, 4th edition; what it offers:
bot/present/table_offers.py): a menu opened privately for the presser, Deployment done with its Battle Ready
question, a choice played or the form it asks first. The desk (bot/ui/desk.py) runs them as it runs a Chapter
Approved game's, through the same service, version checks and board edits."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.engine.errors import GameError
from bot.present.offers import FormSpec
from bot.present.table_offers import READY_MENU, deploy_moves, menu, select_action, select_form
from bot.ui.controls import menu_view
from bot.ui.errors import reply_privately
from bot.ui.forms import Form

if TYPE_CHECKING:
    from bot.store.repository import GameRecord
    from bot.ui.desk_api import Desk


async def deploy(desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str,
                 version: int | None) -> None:
    """Deployment done, with the Battle Ready question first where it is still open (deploy_moves)."""
    me = str(interaction.user.id)
    found = deploy_moves(desk.service.packs.rules(record.pack), record.state, me, verb)
    if found is None:
        await interaction.followup.send(READY_MENU.content, ephemeral=True,
                                        view=menu_view(READY_MENU, record.id, record.version))
        return
    *first, done = found
    for move in first:  # the Battle Ready answer holds however the board moved
        if await desk.perform(interaction, move, game_id=record.id) is None:
            return
    await desk.perform(interaction, done, game_id=record.id, version=version)


async def open_menu(desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str) -> None:
    """Menus open privately for the presser, drawn from what they may pick right now."""
    me = str(interaction.user.id)
    if me not in record.setup.players:
        raise GameError("Only the two players of this game can do that.")
    offered = menu(desk.service.packs.rules(record.pack), record.state, me, verb)
    await reply_privately(interaction, offered.content, view=menu_view(offered, record.id, record.version))


async def on_select(desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str,
                    values: list[str], version: int | None) -> None:
    me = str(interaction.user.id)
    form = select_form(desk.service.packs.rules(record.pack), record.state, me, verb, values)
    if form is not None:
        await interaction.response.send_modal(SelectForm(desk, form, record.id, me, verb, tuple(values)))
        return
    await desk.perform(interaction, select_action(me, verb, values), game_id=record.id, version=version)


class SelectForm(Form):
    """What a menu choice asks before it is a move (select_form): the Codex objective's name, shown when the
    selections are revealed, or how many VP an objective scored."""

    def __init__(self, desk: Desk, spec: FormSpec, game_id: int, me: str, verb: str, values: tuple[str, ...]) -> None:
        super().__init__(spec)
        self.desk, self.game_id, self.me, self.verb, self.values = desk, game_id, me, verb, values

    async def submit(self, interaction: discord.Interaction, values: dict[str, str]) -> None:
        action = select_action(self.me, self.verb, list(self.values), values)
        # Unversioned: the opponent scoring meanwhile must not refuse it; the engine checks the objective and step.
        await self.desk.perform(interaction, action, game_id=self.game_id)
