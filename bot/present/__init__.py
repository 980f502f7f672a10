"""What a game or an event shows publicly, words included, for every surface: the Discord board renders a game's
model (bot/ui/board_embed.py), the web pages, overlays and the Activity read it as JSON (bot/web). One presenter per
family of packs (mission_deck.py, table.py) and one for events (event.py); below every surface, it imports nothing of
them. A model holds only what anyone may see: no hidden choice before its reveal, no deck order, no seed before the
game is over."""

from __future__ import annotations

from typing import Any

from bot.engine.packs import Packs, is_mission_deck
from bot.present import mission_deck, table
from bot.present.common import Links
from bot.present.model import GameModel

__all__ = ["GameModel", "Links", "game_model"]


def game_model(packs: Packs, state: Any, *, game_id: int, version: int, recent: list[str],
               links: Links = Links()) -> GameModel:
    """The public model of a game of any pack (its JSON is what the pages read)."""
    if is_mission_deck(state):
        catalog = packs.rules(state.setup.pack).catalog
        return mission_deck.model(catalog, state, game_id=game_id, version=version, recent=recent, links=links)
    return table.model(packs.rules(state.setup.pack), state, game_id=game_id, version=version, recent=recent,
                       links=links)
