"""What the desk (bot/ui/desk.py) offers the helpers around it, as Protocols: the packs' controls, the buttons and
the open challenges name these, never the desk itself, so the modules of ui/ import each other in no circle and
each can be read alone."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

import discord

from bot.engine import moves
from bot.engine.chapter_approved.catalog import Catalog
from bot.services.games import ActResult, GameService
from bot.store.repository import GameRecord
from bot.ui.alarms import Alarms
from bot.present.asks import Wait


class Presses(Protocol):
    """Where a game's buttons and menus send their presses."""

    async def on_button(self, interaction: discord.Interaction, game_id: int, version: int, verb: str) -> None: ...

    async def on_select(self, interaction: discord.Interaction, game_id: int, version: int, verb: str,
                        values: list[str]) -> None: ...


class Desk(Protocol):
    """What a pack's controls and the open challenges use to run a game."""

    bot: discord.Client
    service: GameService
    alarms: Alarms

    def catalog_of(self, state: Any) -> Catalog: ...

    async def briefing(self, started: ActResult) -> dict: ...

    def waits(self, state: Any) -> set[Wait]: ...

    async def perform(self, interaction: discord.Interaction, action: moves.Move, *, game_id: int | None = None,
                      version: int | None = None) -> ActResult | None: ...

    async def open_board(self, record: GameRecord, *, actor: str) -> None: ...

    async def schedule(self, game_id: int, channel_id: int, starts_at: datetime) -> None: ...

    async def move_board(self, game_id: int, *, notify: set[str], headline: str | None = None,
                         first: bool = False) -> bool: ...
