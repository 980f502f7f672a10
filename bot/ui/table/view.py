"""How a table game (Grand Tournament 2020, 4th edition) is shown and run in Discord (the PackView of
bot/ui/packs.py): its briefing and board (board.py), calls, result card and score sheet (sheet.py), and its buttons
and menus (controls.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.engine.errors import GameError
from bot.engine.events import Event
from bot.engine.packs import Packs
from bot.engine.table.rules import TableRules
from bot.engine.table.state import TableState
from bot.present import GameModel
from bot.present.asks import table_waits
from bot.ui.pack_controls import ForwardsToControls
from bot.ui.table import board, controls
from bot.ui.table.sheet import table_sheet_file

if TYPE_CHECKING:
    from bot.services.games import ActResult


class TableView(ForwardsToControls):
    simple_actions = controls.SIMPLE_ACTIONS
    unversioned = controls.UNVERSIONED
    forms: frozenset[str] = frozenset()
    controls = controls
    presses = dict.fromkeys(controls.DEPLOYING, controls.deploy)

    def __init__(self, packs: Packs) -> None:
        self.packs = packs

    def rules(self, state: TableState) -> TableRules:
        return self.packs.rules(state.pack)

    def briefing(self, model: GameModel, state: TableState, events: tuple[Event, ...]) -> dict:
        return dict(embeds=board.briefing(model, self.rules(state), state, events), files=[])

    def buttons(self, game_id: int, state: TableState, version: int) -> list[discord.ui.Item]:
        return controls.board_buttons(self.rules(state), game_id, state, version)

    def waits(self, state: TableState) -> set[tuple[str, ...]]:
        return table_waits(self.rules(state), state)

    def result_card(self, model: GameModel, state: TableState) -> dict:
        """A game VP do not decide (4th edition Alpha) has no score sheet."""
        rules = self.rules(state)
        if not rules.scores_vp(state):
            return dict(embed=board.result_embed(model, rules, state, None))
        sheet = self.sheet_file(state, model.game)
        return dict(embed=board.result_embed(model, rules, state, sheet.filename), file=sheet)

    def sheet_file(self, state: TableState, game_id: int) -> discord.File:
        rules = self.rules(state)
        if not rules.scores_vp(state):
            raise GameError(f"A {rules.data.level(state.level).name} mission scores no VP, so it has no score "
                            "sheet: its result card says who achieved the mission's objective.")
        return table_sheet_file(rules, state, game_id)

    def headline(self, result: ActResult) -> str | None:
        """Secret selections revealed by this action are told to both players at once."""
        return board.reveal_text(self.rules(result.state), result.previous, result.state)
