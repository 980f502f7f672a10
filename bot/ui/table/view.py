"""How a table game (Grand Tournament 2020, 4th edition) is shown and run in Discord (the PackView of
bot/ui/packs.py): its briefing and result card (board.py), its calls, and its menus and forms (controls.py); what it
offers is bot/present/table_offers.py, its score sheet bot/present/pictures/table_sheet.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.events import Event
from bot.engine.packs import Packs
from bot.engine.table.rules import TableRules
from bot.engine.table.state import TableState
from bot.present import GameModel
from bot.present.asks import table_waits
from bot.present.pictures.table_sheet import table_sheet_picture
from bot.present.table_offers import DEPLOYING
from bot.ui.files import attached
from bot.ui.pack_controls import ForwardsToControls
from bot.ui.table import board, controls

if TYPE_CHECKING:
    from bot.services.games import ActResult


class TableView(ForwardsToControls):
    controls = controls
    presses = dict.fromkeys(DEPLOYING, controls.deploy)

    def __init__(self, packs: Packs) -> None:
        self.packs = packs

    def rules(self, state: TableState) -> TableRules:
        return self.packs.rules(state.pack)

    def briefing(self, model: GameModel, state: TableState, events: tuple[Event, ...]) -> dict:
        return dict(embeds=board.briefing(model, self.rules(state), state, events), files=[])

    def waits(self, state: TableState) -> set[tuple[str, ...]]:
        return table_waits(self.rules(state), state)

    def result_card(self, model: GameModel, state: TableState) -> dict:
        """A game VP do not decide (4th edition Alpha) has no score sheet."""
        rules = self.rules(state)
        if not rules.scores_vp(state):
            return dict(embed=board.result_embed(model, rules, state, None))
        sheet = table_sheet_picture(rules, state, model.game)
        return dict(embed=board.result_embed(model, rules, state, sheet.name), file=attached(sheet))

    def headline(self, result: ActResult) -> str | None:
        """Secret selections revealed by this action are told to both players at once."""
        return board.reveal_text(self.rules(result.state), result.previous, result.state)
