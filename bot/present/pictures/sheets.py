"""The score sheet picture of a game of any pack."""

from __future__ import annotations

from typing import Any, cast

from bot.engine.errors import GameError
from bot.engine.packs import ChapterApprovedRules, Packs, is_mission_deck
from bot.engine.table.rules import TableRules
from bot.present.pictures import Picture
from bot.present.pictures.mission_deck_sheet import score_sheet_picture
from bot.present.pictures.table_sheet import table_sheet_picture


def score_sheet(packs: Packs, state: Any, game_id: int) -> Picture:
    """The sheet of `state`'s game (public information only, so it may be shown at any time)."""
    if is_mission_deck(state):  # a Mission Deck game's pack is installed as ChapterApprovedRules
        return score_sheet_picture(cast(ChapterApprovedRules, packs.rules(state.pack)).catalog, state, game_id)
    rules = cast(TableRules, packs.rules(state.pack))  # a table game's, as TableRules
    if not rules.scores_vp(state):
        raise GameError(f"A {rules.data.level(state.level).name} mission scores no VP, so it has no score "
                        "sheet: its result card says who achieved the mission's objective.")
    return table_sheet_picture(rules, state, game_id)
