"""Calls: what the game asks of whom, said in the live board's content ("<@bob>, choose your Secondary Missions.").

What a game waits on follows from its state (`waits` of each pack); the board (bot/ui/live_board.py) carries the
call and moves to the bottom when someone new is called. Nothing hidden is ever named: a call says what is wanted,
never what a player chose or what the deck holds.

A few calls are messages of their own, stored with the waits they ask about (CallMessage): the request to abandon
a game (/game end), and the calls an earlier version posted. Each is deleted once none of its waits is left.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

import discord

from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.state import PromptKind
from bot.game_log import OVER
from bot.store.community import CommunityRepository

_log = logging.getLogger(__name__)


class Wait(NamedTuple):
    """One thing a game waits on: `player` to do `verb`, and what it is about (`details`, by verb: the battle round
    and turn for turn, discard, deployed and done; the battle round for rounddone; a prompt's kind and card for
    answer; who asked for resume; nothing for the rest).

    Each pack's `waits` gives it flat, (player, verb, *details), and a stored call keeps it flat as a JSON list:
    `Wait.of(flat)` reads either, `flat()` gives it back, so a wait compares and is stored as it always was."""

    player: str
    verb: str
    details: tuple[str, ...] = ()

    @classmethod
    def of(cls, flat: Sequence[str]) -> Wait:
        return cls(flat[0], flat[1], tuple(flat[2:]))

    def flat(self) -> tuple[str, ...]:
        return (self.player, self.verb, *self.details)


# verb -> what is asked; {round}: the battle round.
ASKS: dict[str, str] = {
    "turn": "your turn (battle round {round}).",
    "sides": "you won the roll-off: choose Attacker or Defender.",
    "disposition": "pick your Force Disposition.",
    "choose": "choose your Secondary Missions.",
    "select": "select your secondary objectives.",
    "deployed": "press Deployment done once your army is set up.",
    "done": "finish scoring, then press Done scoring.",
    "rounddone": "battle round {round} is over: score what scores at the end of the battle round, then press Done "
                 "scoring.",
    "discard": "discard or keep your Tactical Missions.",
    "resume": "your opponent asks to resume the clock.",
    "attacker": "you won the roll-off: choose Attacker or Defender.",
    "defender": "you won the roll-off: choose Attacker or Defender.",
    "gofirst": "you won the roll-off: take the first or the second turn.",
    "gosecond": "you won the roll-off: take the first or the second turn.",
    "pickmission": "you won the Strategy Roll: choose the mission.",
}
PROMPTS: dict[PromptKind, str] = {
    PromptKind.OPTIONAL_RESHUFFLE: "{card} was drawn: keep it or draw again?",
    PromptKind.DISCARD_IF: "{card} was drawn: does its condition hold (discard it and draw again)?",
    PromptKind.ALPHA_TARGETS: "{owner} drew {card}: select three of your units as their Alpha Targets.",
    PromptKind.GAMMA_TARGET: "{card}: select an enemy unit as your Gamma Target, or none.",
    PromptKind.TEMPTING_OBJECTIVE: "{owner} drew {card}: select their Tempting Target.",
    PromptKind.ADAPT_KEEP: "Adapt or Die: which of your two cards do you keep?",
    PromptKind.BEACON_UNIT: "you drew {card}: name the unit it follows.",
}


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
    return " ".join(f"{' and '.join(f'<@{p}>' for p in players)}, {text}" for text, players in asked.items())


def ask(catalog_of: Callable[[Any], Catalog], state: Any, player: str, wait: Wait) -> str:
    if wait.verb == "answer":
        kind = wait.details[0]
        prompt = next(q for q in state.prompts if q.player == player and q.kind.value == kind)
        card = catalog_of(state).secondary(prompt.card).name
        return PROMPTS[prompt.kind].format(card=card, owner=state.player(prompt.owner).name)
    battle_round = wait.details[0] if wait.verb in ("turn", "rounddone") else getattr(state, "round", "")
    return ASKS[wait.verb].format(round=battle_round)


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
