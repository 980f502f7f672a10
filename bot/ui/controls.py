"""Buttons and menus of a game, as DynamicItems so they keep working after a restart: the Discord rendering of what
a game offers (bot/present/offers.py).

Every custom id carries the game id, the board version it was drawn at and a verb (at most 100
characters): a press on an outdated board is refused, and a menu from an old board can never act twice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.present.offers import LABELS, Control, Menu, Pick
from bot.ui.dynamic import WORD, CustomId, Persistent

if TYPE_CHECKING:
    from bot.ui.desk_api import Presses

BUTTON_ID = CustomId("mdb:{game}:{version}:{verb}", verb=WORD)
SELECT_ID = CustomId("mds:{game}:{version}:{verb}", verb=WORD)

STYLES = {"primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
          "success": discord.ButtonStyle.success, "danger": discord.ButtonStyle.danger}


def _desk(interaction: discord.Interaction) -> Presses:
    return interaction.client.desk  # type: ignore[attr-defined]


class GameButton(Persistent, discord.ui.DynamicItem[discord.ui.Button], custom_id=BUTTON_ID):
    what = "Button {verb} of game {game}"

    def __init__(self, game: int, version: int, verb: str, *, disabled: bool = False) -> None:
        label, style = LABELS[verb]
        super().__init__(discord.ui.Button(
            label=label, style=STYLES[style], custom_id=self.custom_ids.format(game=game, version=version, verb=verb),
            disabled=disabled,
        ))
        self.game, self.version, self.verb = game, version, verb

    async def act(self, interaction: discord.Interaction) -> None:
        await _desk(interaction).on_button(interaction, self.game, self.version, self.verb)


class GameSelect(Persistent, discord.ui.DynamicItem[discord.ui.Select], custom_id=SELECT_ID):
    what = "Menu {verb} of game {game}"

    def __init__(self, game: int, version: int, verb: str, *, placeholder: str = "Choose…",
                 options: list[tuple[str, str]] | None = None, min_values: int = 1,
                 max_values: int = 1) -> None:
        options = options or [("—", "-")]
        super().__init__(discord.ui.Select(
            custom_id=self.custom_ids.format(game=game, version=version, verb=verb), placeholder=placeholder,
            options=[discord.SelectOption(label=label, value=value) for label, value in options],
            min_values=min_values, max_values=min(max_values, len(options)),
        ))
        self.game, self.version, self.verb = game, version, verb

    async def act(self, interaction: discord.Interaction) -> None:
        await _desk(interaction).on_select(interaction, self.game, self.version, self.verb, list(self.item.values))


def item_of(piece: Pick | Control, game: int, version: int) -> discord.ui.Item:
    """A menu's list or button as Discord draws it."""
    if isinstance(piece, Control):
        return GameButton(game, version, piece.verb)
    return GameSelect(game, version, piece.verb, placeholder=piece.placeholder,
                      options=[(o.label, o.value) for o in piece.options], min_values=piece.least,
                      max_values=piece.at_most)


def menu_view(menu: Menu, game: int, version: int) -> discord.ui.View:
    return view_of(*(item_of(piece, game, version) for piece in menu.items))


def view_of(*items: discord.ui.Item) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
