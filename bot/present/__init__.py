"""What a game or an event shows publicly, as plain data for any surface that is not Discord's board: the web pages
and overlays (bot/web) read it. One presenter per family of packs (mission_deck.py, table.py) and one for events
(event.py). A model holds only what the Discord board would show anyone: no hidden choice before its reveal, no deck
order, no seed before the game is over. Its words come from the same functions the board's do."""

from __future__ import annotations

from typing import Any

from bot.engine.packs import Packs, is_mission_deck
from bot.present import mission_deck, table
from bot.present.common import Links

__all__ = ["Links", "game_model"]


def game_model(packs: Packs, state: Any, *, game_id: int, version: int, recent: list[str], links: Links) -> dict:
    """The public model of a game of any pack (the schema is docs/web.md's)."""
    if is_mission_deck(state):
        catalog = packs.rules(state.setup.pack).catalog
        return mission_deck.model(catalog, state, game_id=game_id, version=version, recent=recent, links=links)
    return table.model(packs.rules(state.setup.pack), state, game_id=game_id, version=version, recent=recent,
                       links=links)
