"""How a pack's view (bot/ui/packs.py) hands presses and menu choices to its controls module: a press opens the
presser's menu unless the view names the verb in `presses`, a menu choice goes to the module's `on_select`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Protocol

import discord

if TYPE_CHECKING:
    from bot.store.repository import GameRecord
    from bot.ui.desk_api import Desk

Press = Callable[["Desk", discord.Interaction, "GameRecord", str, "int | None"], Awaitable[None]]


class PackControls(Protocol):
    """What a pack's controls module gives: its menus, and what a choice in one does."""

    async def open_menu(self, desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str) -> None:
        """Open the presser's menu for `verb`, privately."""

    async def on_select(self, desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str,
                        values: list[str], version: int | None) -> None:
        """Play the presser's choice in a menu."""


class ForwardsToControls:
    """A pack view's `press` and `select`, forwarded to `controls`; `presses` are the verbs that do not open a menu."""

    controls: PackControls
    presses: Mapping[str, Press] = {}

    async def press(self, desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str,
                    version: int | None) -> None:
        own = self.presses.get(verb)
        if own is not None:
            await own(desk, interaction, record, verb, version)
        else:
            await self.controls.open_menu(desk, interaction, record, verb)

    async def select(self, desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str,
                     values: list[str], version: int | None) -> None:
        await self.controls.on_select(desk, interaction, record, verb, values, version)
