"""Calls: what the game asks of whom, said in the live board's content ("<@bob>, choose your Secondary Missions.").

What a game waits on follows from its state, and what it asks is said in bot/present/asks.py, as every surface says
it; here are the mentions. The board (bot/ui/live_board.py) carries the call and moves to the bottom when someone
new is called. Nothing hidden is ever named: a call says what is wanted, never what a player chose or what the deck
holds.

A few calls are messages of their own, stored with the waits they ask about (CallMessage): the request to abandon
a game (/game end), and the calls an earlier version posted. Each is deleted once none of its waits is left.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from typing import Any

import discord

from bot.engine.chapter_approved.catalog import Catalog
from bot.services.game_log import OVER
from bot.present.asks import Wait, ask
from bot.store.community import CommunityRepository
from bot.engine.sides import mentions

_log = logging.getLogger(__name__)


def call_line(catalog_of: Callable[[Any], Catalog], state: Any, waits: Iterable[Wait]) -> str:
    """"<@alice>, your turn (battle round 2). <@bob>, finish scoring, then press Done scoring." — what the game
    asks of each player, the seats in order; players asked the same thing share one sentence."""
    by_player: dict[str, list[Wait]] = {}
    for wait in sorted(waits, key=lambda w: (w.verb != "turn", w)):  # the turn first
        by_player.setdefault(wait.player, []).append(wait)
    asked: dict[str, list[str]] = {}  # what is asked -> of whom
    for player in (p for p in state.setup.players if p in by_player):
        asks = dict.fromkeys(ask(catalog_of, state, player, wait) for wait in by_player[player])
        asked.setdefault(" ".join(_sentence(a) for a in asks), []).append(player)
    return " ".join(f"{' and '.join(mentions(state.setup, p) for p in players)}, {text}"
                    for text, players in asked.items())


class StoredCalls:
    def __init__(self, bot: discord.Client, repo: CommunityRepository) -> None:
        self.bot, self.repo = bot, repo

    async def remember(self, message: discord.Message, game_id: int, player: str, waits: list[Wait]) -> None:
        """A message asking `player` for something, to delete once its waits are gone."""
        await self.repo.add_call(message.id, game_id, message.channel.id, player,
                                 json.dumps([w.flat() for w in waits]))

    async def close_answered(self, game_id: int, state: Any, now: set[Wait]) -> None:
        """Delete every call of the game none of whose waits is still in `now` (what the game waits on)."""
        for call in await self.repo.calls_of(game_id):
            waits = [Wait.of(w) for w in json.loads(call.wait_key)]
            # A request to abandon the game (/game end) waits on the opponent for as long as the game goes on.
            if any(w in now or (w.verb == "endby" and state.status not in OVER) for w in waits):
                continue
            await self.repo.drop_call(call.message_id)
            message = self.bot.get_partial_messageable(call.channel_id).get_partial_message(call.message_id)
            try:
                await message.delete()
            except (discord.NotFound, discord.Forbidden):
                _log.info("Call %s of game %s is gone", call.message_id, game_id)


def _sentence(text: str) -> str:
    return text if text.endswith((".", "?", "!")) else text + "."
