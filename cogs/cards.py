"""`/card name:` shows any card of the pack: missions, Challenger cards, twists, deployments, layouts, pool missions."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import MissionBot
from bot.engine.catalog import Catalog
from bot.engine.errors import InvalidValue
from bot.ui.card_embeds import Card, card_embed, card_title, kind_label

MAX_CHOICES = 25  # Discord's limit for autocomplete
CHOICE_LIMIT = 100  # characters in a choice's name and value

_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(text.lower().replace("\u2019", "").replace("'", "")))


@dataclass(frozen=True)
class CardEntry:
    key: str  # the autocomplete value, e.g. "secondary:cleanse" or "pool:A"
    title: str
    kind: str
    card: Card

    @property
    def label(self) -> str:
        label = f"{self.title} · {self.kind}"
        return label if len(label) <= CHOICE_LIMIT else label[: CHOICE_LIMIT - 1] + "…"


class CardIndex:
    """Every card of a catalog under a unique title, searchable by words anywhere in it."""

    def __init__(self, catalog: Catalog) -> None:
        groups: list[tuple[str, tuple[Card, ...]]] = [
            ("secondary", catalog.secondaries),
            ("primary", catalog.primaries),
            ("challenger", catalog.challengers),
            ("twist", catalog.twists),
            ("deployment", catalog.deployments),
            ("layout", catalog.layouts),
            ("pool", catalog.pool),
        ]
        self.entries = tuple(
            CardEntry(
                key=f"{prefix}:{card.letter if prefix == 'pool' else card.id}",
                title=card_title(card, catalog),
                kind=kind_label(card),
                card=card,
            )
            for prefix, cards in groups
            for card in cards
        )
        self._by_key = {entry.key: entry for entry in self.entries}

    def complete(self, text: str, limit: int = MAX_CHOICES) -> list[CardEntry]:
        """Entries whose title (or kind) has a word starting with each typed word, best first."""
        return [entry for _, entry in self._ranked(text)[:limit]]

    def find(self, text: str) -> CardEntry | None:
        """The card meant by an autocomplete value or a typed title; None when unknown or ambiguous."""
        if text in self._by_key:
            return self._by_key[text]
        ranked = self._ranked(text)
        if len(ranked) == 1:
            return ranked[0][1]
        # One title equal to, or starting with, what was typed beats looser matches.
        if len(ranked) > 1 and ranked[0][0] <= 1 and ranked[1][0] > ranked[0][0]:
            return ranked[0][1]
        return None

    def _ranked(self, text: str) -> list[tuple[int, CardEntry]]:
        query = words(text)
        if not query:
            return [(3, entry) for entry in self.entries]
        ranked = [(rank, index, entry) for index, entry in enumerate(self.entries)
                  if (rank := _rank(query, entry)) is not None]
        ranked.sort(key=lambda item: item[:2])
        return [(rank, entry) for rank, _, entry in ranked]

    def suggest(self, text: str, count: int = 3) -> list[CardEntry]:
        matches = self.complete(text, count)
        if matches:
            return matches
        titles = {entry.title.lower(): entry for entry in self.entries}
        close = difflib.get_close_matches(text.lower(), titles, n=count, cutoff=0.5)
        return [titles[title] for title in close]


def _rank(query: tuple[str, ...], entry: CardEntry) -> int | None:
    title = words(entry.title)
    if title == query:
        return 0
    if title[: len(query)] == query:
        return 1
    if all(any(w.startswith(q) for w in title) for q in query):
        return 2
    searchable = title + words(entry.kind)
    if all(any(w.startswith(q) for w in searchable) for q in query):
        return 3
    return None


class Cards(commands.Cog):
    def __init__(self, bot: MissionBot) -> None:
        self.bot = bot
        self.index = CardIndex(bot.catalog)

    @app_commands.command(name="card", description="Show a card: a mission, Challenger card, twist, deployment, layout or pool mission.")
    @app_commands.describe(name="Start typing a card name, e.g. Cleanse, Tipping Point, Layout 3, Mission A", private="Only you see the card")
    async def card(self, interaction: discord.Interaction, name: str, private: bool = False) -> None:
        entry = self.index.find(name)
        if entry is None:
            raise InvalidValue(self._unknown(name))
        await interaction.response.send_message(embed=card_embed(entry.card, self.bot.catalog), ephemeral=private)

    @card.autocomplete("name")
    async def card_name(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=entry.label, value=entry.key) for entry in self.index.complete(current)]

    def _unknown(self, name: str) -> str:
        shown = discord.utils.escape_markdown(name.strip()[:80])
        matches = self.index.complete(name, 6)
        if len(matches) > 1:
            options = ", ".join(entry.title for entry in matches[:5])
            return f"'{shown}' matches several cards: {options}. Pick one from the list as you type."
        suggestions = self.index.suggest(name)
        hint = f" Did you mean {', '.join(entry.title for entry in suggestions)}?" if suggestions else ""
        return f"No card called '{shown}'.{hint} Pick a name from the list as you type."


async def setup(bot: MissionBot) -> None:
    await bot.add_cog(Cards(bot))
