"""What a game or an event shows publicly, words included, for every surface: the Discord board renders a game's
model (bot/ui/board_embed.py), the web pages, overlays and the Activity read it as JSON (bot/web). One presenter per
family of packs (mission_deck.py, table.py) and one for events (event.py); below every surface, it imports nothing of
them. A model holds only what anyone may see: no hidden choice before its reveal, no deck order, no seed before the
game is over."""

from __future__ import annotations

from typing import Any, cast

from bot.engine.packs import ChapterApprovedRules, Packs, is_mission_deck
from bot.engine.table.rules import TableRules
from bot.present import mission_deck, table
from bot.present.common import Links
from bot.present.model import GameModel

__all__ = ["GameModel", "Links", "game_model"]


def game_model(packs: Packs, state: Any, *, game_id: int, version: int, recent: list[str],
               links: Links = Links()) -> GameModel:
    """The public model of a game of any pack (its JSON is what the pages read)."""
    # a Mission Deck game's pack is installed as ChapterApprovedRules, a table game's as TableRules
    if is_mission_deck(state):
        catalog = cast(ChapterApprovedRules, packs.rules(state.setup.pack)).catalog
        return mission_deck.model(catalog, state, game_id=game_id, version=version, recent=recent, links=links)
    return table.model(cast(TableRules, packs.rules(state.setup.pack)), state, game_id=game_id, version=version,
                       recent=recent, links=links)
