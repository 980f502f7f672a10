"""Calls: a message asking one named player for something, with the button for it, that goes away once answered.

What a game waits on follows from its state (`waits` of each pack). A call is posted when a wait appears, stored
with the waits it asks about (bot/store/community_models.py, CallMessage), and after every action, undo included,
each call whose waits have all gone is edited to one line saying so, without its buttons. Nothing hidden is ever
named: a call says what is wanted, never what a player chose or what the deck holds.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.chapter_approved.state import PromptKind
from bot.game_log import OVER

if TYPE_CHECKING:
    from bot.ui.desk import GameDesk

_log = logging.getLogger(__name__)

Wait = tuple[str, ...]  # (player, verb, ...) as `waits` gives it

# verb -> (what is asked, what the call says once answered); {name}: the player, {round}: the battle round.
ASKS: dict[str, tuple[str, str]] = {
    "turn": ("your turn (battle round {round}).", "{name}'s turn (battle round {round}) is over."),
    "sides": ("you won the roll-off: choose Attacker or Defender on the board.", "{name} chose a side."),
    "choose": ("choose your Secondary Missions.", "{name} chose their Secondary Missions."),
    "select": ("select your secondary objectives.", "{name} selected their secondary objectives."),
    "deployed": ("press Deployment done once your army is set up.", "{name} deployed."),
    "done": ("finish scoring, then press Done scoring.", "{name} finished scoring."),
    "rounddone": ("battle round {round} is over: score what scores at the end of the battle round, then press Done "
                  "scoring.", "{name} finished scoring battle round {round}."),
    "discard": ("discard or keep your Tactical Missions.", "{name} decided their discards."),
    "resume": ("your opponent asks to resume the clock.", "{name} answered about the clock."),
    "attacker": ("you won the roll-off: choose Attacker or Defender.", "{name} chose a side."),
    "defender": ("you won the roll-off: choose Attacker or Defender.", "{name} chose a side."),
    "gofirst": ("you won the roll-off: take the first or the second turn.", "{name} chose who goes first."),
    "gosecond": ("you won the roll-off: take the first or the second turn.", "{name} chose who goes first."),
    "pickmission": ("you won the Strategy Roll: choose the mission.", "{name} chose the mission."),
    "endby": ("", "The request to abandon the game is closed: the game is over."),
}
PROMPTS: dict[PromptKind, str] = {
    PromptKind.OPTIONAL_RESHUFFLE: "{card} was drawn: keep it or draw again?",
    PromptKind.DISCARD_IF: "{card} was drawn: does its condition hold (discard it and draw again)?",
    PromptKind.ALPHA_TARGETS: "{owner} drew {card}: select three of your units as their Alpha Targets.",
    PromptKind.GAMMA_TARGET: "{card}: select an enemy unit as your Gamma Target, or none.",
    PromptKind.TEMPTING_OBJECTIVE: "{owner} drew {card}: select their Tempting Target.",
    PromptKind.ADAPT_KEEP: "Adapt or Die: which of your two cards do you keep?",
}


def call_text(desk: GameDesk, state: Any, player: str, waits: list[Wait]) -> str:
    """"<@bob>, choose your Secondary Missions." — what the game asks of `player`, one sentence per wait."""
    asks = []
    for wait in waits:
        if wait[1] == "answer":
            prompt = next(q for q in state.prompts if q.player == player and q.kind.value == wait[2])
            card = desk.catalog_of(state).secondary(prompt.card).name
            asks.append(PROMPTS[prompt.kind].format(card=card, owner=state.player(prompt.owner).name))
        else:
            asks.append(ASKS[wait[1]][0].format(round=_round(wait, state)))
    unique = list(dict.fromkeys(asks))  # a choice of two buttons asks once
    return f"<@{player}>, " + " ".join(_sentence(a) for a in unique)


def closed_text(state: Any, player: str, waits: list[Wait]) -> str:
    name = state.player(player).name
    lines = ["{name} answered." if w[1] == "answer" else ASKS[w[1]][1] for w in waits]
    return "✓ " + " ".join(dict.fromkeys(line.format(name=name, round=_round(w, state))
                                         for line, w in zip(lines, waits)))


class Calls:
    def __init__(self, desk: GameDesk) -> None:
        self.desk = desk
        self.repo = desk.service.community

    async def post(self, channel: discord.abc.Messageable, game_id: int, state: Any, player: str,
                   waits: list[Wait], view: discord.ui.View | None, mentions: discord.AllowedMentions) -> None:
        message = await channel.send(call_text(self.desk, state, player, waits), view=view,
                                     allowed_mentions=mentions)
        await self.remember(message, game_id, player, waits)

    async def remember(self, message: discord.Message, game_id: int, player: str, waits: list[Wait]) -> None:
        """A message asking `player` for something, to close once its waits are gone."""
        await self.repo.add_call(message.id, game_id, message.channel.id, player, json.dumps(waits))

    async def close_answered(self, game_id: int, state: Any, now: set[Wait]) -> None:
        """Edit every call of the game none of whose waits is still in `now` (what the game waits on) to one line
        without buttons, and forget it."""
        for call in await self.repo.calls_of(game_id):
            waits = [tuple(w) for w in json.loads(call.wait_key)]
            # A request to abandon the game (/game end) waits on the opponent for as long as the game goes on.
            if any(w in now or (w[1] == "endby" and state.status not in OVER) for w in waits):
                continue
            await self.repo.drop_call(call.message_id)
            message = self.desk.bot.get_partial_messageable(call.channel_id).get_partial_message(call.message_id)
            try:
                await message.edit(content=closed_text(state, call.player_id, waits), view=None,
                                   allowed_mentions=discord.AllowedMentions.none())
            except (discord.NotFound, discord.Forbidden):
                _log.info("Call %s of game %s is gone", call.message_id, game_id)


def _round(wait: Wait, state: Any) -> str:
    return wait[2] if wait[1] in ("turn", "rounddone") else str(getattr(state, "round", ""))


def _sentence(text: str) -> str:
    return text if text.endswith((".", "?", "!")) else text + "."
