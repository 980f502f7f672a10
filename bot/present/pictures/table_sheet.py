"""The score sheets of the table games (Grand Tournament 2020, 4th edition): as a picture for the result card and
as monospaced text for /game log, from public information only (never a secondary selection before both players
have chosen, never the seed before the game ends unless a player fixed it: a replay).

Each pack draws its own sheet (gt2020_sheet.py, fourth_edition_sheet.py); `SHEETS` says which pack has which: a
new table pack adds its module there.
"""

from __future__ import annotations

from typing import Any, Protocol

from bot.engine.packs import FOURTH_PACK, GT_PACK
from bot.engine.table.rules import TableRules
from bot.engine.table.state import Seat, TableState
from bot.present.pictures import Picture, fourth_edition_sheet, gt2020_sheet
from bot.present.pictures.drawing import sheet_filename
from bot.present.pictures.table_sheet_content import TableSheet, heading, sections_order
from bot.present.pictures.table_sheet_image import render_table_sheet


class PackSheet(Protocol):
    """What a pack's sheet module provides."""

    def sheet(self, rules: Any, state: TableState, game_id: int | None) -> TableSheet:
        """Every string of the picture."""

    def text_lines(self, rules: Any, state: TableState, seat: Seat, side: str | None) -> list[str]:
        """One player's table for /game log, at most 32 characters wide."""


SHEETS: dict[str, PackSheet] = {GT_PACK: gt2020_sheet, FOURTH_PACK: fourth_edition_sheet}


def pack_sheet(state: TableState) -> PackSheet:
    try:
        return SHEETS[state.pack]
    except KeyError:
        raise ValueError(f"no table sheet for the {state.pack!r} pack") from None


def table_sheet_content(rules: TableRules, state: TableState, game_id: int | None = None) -> TableSheet:
    """Every string of the sheet of a table game, from public information only."""
    return pack_sheet(state).sheet(rules, state, game_id)


def table_sheet_text(rules: TableRules, state: TableState) -> dict[str, str]:
    """Section heading (the player, with their side once known) -> a monospaced table in a code block, at most
    32 characters wide so it fits a phone's Discord message."""
    text_lines = pack_sheet(state).text_lines
    out: dict[str, str] = {}
    for seat, side in sections_order(state):
        title = heading(seat, side)
        key = title if title not in out else f"{title} (2)"  # two players of the same name
        out[key] = "```\n" + "\n".join(line.rstrip() for line in text_lines(rules, state, seat, side)) + "\n```"
    return out


def table_sheet_picture(rules: TableRules, state: TableState, game_id: int) -> Picture:
    """The sheet picture: public information only, so it may be posted at any time."""
    png = render_table_sheet(table_sheet_content(rules, state, game_id))
    return Picture(sheet_filename(game_id), png)  # one name for every pack's sheet
