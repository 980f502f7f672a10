"""`/card name: pack:` shows any card of a pack: Chapter Approved's missions, Challenger cards, twists, deployments,
layouts and pool missions; Grand Tournament 2020's missions and secondary objectives; the 4th edition generator's
missions, levels and special rules. Without `pack:`, the pack of the channel's game (else Chapter Approved)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import MissionBot
from bot.decks import DEFAULT_PACK
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.errors import GameError, InvalidValue
from bot.engine.fourth_edition.catalog import MissionGenerator
from bot.engine.gt2020.catalog import GrandTournament, Mission
from bot.engine.names import ranked
from bot.engine.packs import FOURTH_PACK, GT_PACK, ChapterApprovedRules
from bot.ui.chapter_approved.cards import card_embed, card_title, kind_label
from bot.ui.table import fourth_edition as fourth_ui
from bot.ui.table import gt2020 as gt_ui
from bot.ui.limits import AUTOCOMPLETE_CHOICES, CHOICE_NAME


_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(text.lower().replace("\u2019", "").replace("'", "")))


@dataclass(frozen=True)
class CardEntry:
    key: str  # the autocomplete value, e.g. "secondary:cleanse", "pool:A" or "gt:mission:crossfire"
    title: str
    kind: str
    card: object  # the pack's model of the card
    show: Callable[[], discord.Embed] = field(compare=False, repr=False)  # the card's embed

    @property
    def label(self) -> str:
        label = f"{self.title} · {self.kind}"
        return label if len(label) <= CHOICE_NAME else label[: CHOICE_NAME - 1] + "…"


def chapter_approved_cards(catalog: Catalog) -> tuple[CardEntry, ...]:
    groups = [
        ("secondary", catalog.secondaries),
        ("primary", catalog.primaries),
        ("challenger", catalog.challengers),
        ("twist", catalog.twists),
        ("deployment", catalog.deployments),
        ("layout", catalog.layouts),
        ("pool", catalog.pool),
        ("disposition", catalog.dispositions),
        ("deployment", catalog.deployment_cards),
    ]
    return tuple(
        CardEntry(
            key=f"{prefix}:{card.letter if prefix == 'pool' else card.id}",
            title=card_title(card, catalog),
            kind=kind_label(card),
            card=card,
            show=partial(card_embed, card, catalog),
        )
        for prefix, cards in groups
        for card in cards
    )


def grand_tournament_cards(pack: GrandTournament) -> tuple[CardEntry, ...]:
    """The 18 secondary objectives (by category), the 18 missions, and the missions' own secondary objectives
    (one card for one serving several missions; named apart from a mission of the same name)."""
    entries = [CardEntry(f"gt:secondary:{s.id}", s.name, gt_ui.secondary_kind(pack, s), s,
                         partial(gt_ui.gt_secondary_card, pack, s)) for s in pack.secondaries]
    entries += [CardEntry(f"gt:mission:{m.id}", m.name, gt_ui.mission_kind(m), m,
                          partial(gt_ui.gt_mission_card, pack, m)) for m in pack.missions]
    taken = {words(entry.title) for entry in entries}
    own: dict[str, tuple[Mission, ...]] = {}
    for mission in pack.missions:
        own.setdefault(mission.secondary.id, gt_ui.missions_with_secondary(pack, mission.secondary.id))
    for secondary_id, missions in own.items():
        name = missions[0].secondary.name
        title = f"{name} (secondary objective)" if words(name) in taken else name
        entries.append(CardEntry(
            f"gt:mission-secondary:{secondary_id}", title, gt_ui.mission_secondary_kind(missions),
            missions[0].secondary, partial(gt_ui.gt_mission_secondary_card, pack, missions, title)))
    return tuple(entries)


def fourth_edition_cards(generator: MissionGenerator) -> tuple[CardEntry, ...]:
    """The Standard Missions, the mission levels and the scenario special rules."""
    return (
        *(CardEntry(f"4e:mission:{m.id}", m.name, fourth_ui.MISSION_KIND, m,
                    partial(fourth_ui.mission_card, generator, m)) for m in generator.missions),
        *(CardEntry(f"4e:level:{level.id}", level.name, fourth_ui.LEVEL_KIND, level,
                    partial(fourth_ui.level_card, generator, level)) for level in generator.levels),
        *(CardEntry(f"4e:rule:{r.id}", r.name, fourth_ui.RULE_KIND, r,
                    partial(fourth_ui.special_rule_card, generator, r)) for r in generator.special_rules),
    )


class CardIndex:
    """Every card of a pack under a unique title, searchable by words anywhere in it: a Chapter Approved catalog's
    cards, or any pack's entries."""

    def __init__(self, cards: Catalog | Iterable[CardEntry]) -> None:
        self.entries = chapter_approved_cards(cards) if isinstance(cards, Catalog) else tuple(cards)
        self._by_key = {entry.key: entry for entry in self.entries}
        if len(self._by_key) != len(self.entries):
            raise ValueError("two cards share a key")

    def by_key(self, key: str) -> CardEntry | None:
        return self._by_key.get(key)

    def complete(self, text: str, limit: int = AUTOCOMPLETE_CHOICES) -> list[CardEntry]:
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
        return [self._by_key[key] for key in ranked(text, {e.key: e.title for e in self.entries}, count)]


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


# --- the `pack:` option ------------------------------------------------------------------------------------------


class PackOption:
    """The `pack:` option of the look-up commands: the installed packs offered by title (the value is the pack's
    id); left out, the pack of the channel's game, in progress or else the latest, and Chapter Approved without one."""

    def __init__(self, bot: MissionBot, packs: Iterable[str] | None = None) -> None:
        self.bot = bot
        wanted = None if packs is None else set(packs)
        self.titles = {rules.pack: rules.title for rules in bot.service.packs
                       if wanted is None or rules.pack in wanted}

    def choices(self, current: str) -> list[app_commands.Choice[str]]:
        typed = words(current)
        return [app_commands.Choice(name=title[:CHOICE_NAME], value=pack) for pack, title in self.titles.items()
                if all(any(w.startswith(t) for w in words(f"{title} {pack}")) for t in typed)][:AUTOCOMPLETE_CHOICES]

    def find(self, text: str) -> str | None:
        """The pack meant by an id, a title or words of one (what is typed without picking from the list)."""
        typed = text.strip().casefold()
        for pack, title in self.titles.items():
            if typed in (pack, title.casefold()):
                return pack
        query = words(text)
        found = [pack for pack, title in self.titles.items()
                 if query and all(any(w.startswith(q) for w in words(f"{title} {pack}")) for q in query)]
        return found[0] if len(found) == 1 else None

    async def of_channel(self, channel_id: int | None) -> str:
        if channel_id is None:
            return DEFAULT_PACK
        service = self.bot.service
        try:
            record = await service.get_state(channel_id=channel_id)
        except GameError:  # no game in progress here
            try:
                record = await service.latest_game(channel_id)
            except GameError:  # no game ever played here
                return DEFAULT_PACK
        pack = getattr(record.state, "pack", DEFAULT_PACK)
        return pack if pack in self.titles else DEFAULT_PACK

    async def chosen(self, interaction: discord.Interaction, given: str | None) -> str:
        """The pack to look in; an unknown `pack:` is refused with the list of packs."""
        if not given:
            return await self.of_channel(interaction.channel_id)
        pack = self.find(given)
        if pack is None:
            shown = discord.utils.escape_markdown(given.strip()[:80])
            raise InvalidValue(f"No pack called '{shown}'. Pick one from the list: {', '.join(self.titles.values())}.")
        return pack


# --- /card -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PackCards:
    pack: str
    title: str
    index: CardIndex


def cards_of(rules: object) -> tuple[CardEntry, ...]:
    """The cards of a pack: every Chapter Approved season's decks; the older systems' missions and objectives."""
    if isinstance(rules, ChapterApprovedRules):
        return chapter_approved_cards(rules.catalog)
    readers: dict[str, Callable[[object], tuple[CardEntry, ...]]] = {
        GT_PACK: grand_tournament_cards, FOURTH_PACK: fourth_edition_cards}
    reader = readers.get(rules.pack)  # type: ignore[attr-defined]
    return reader(rules.data) if reader else ()  # type: ignore[attr-defined]


class Cards(commands.Cog):
    def __init__(self, bot: MissionBot) -> None:
        self.bot = bot
        self.packs = {rules.pack: PackCards(rules.pack, rules.title, CardIndex(cards))
                      for rules in bot.service.packs if (cards := cards_of(rules))}
        self.index = self.packs[DEFAULT_PACK].index  # Chapter Approved's
        self.pack_option = PackOption(bot, self.packs)

    @app_commands.command(name="card", description="Show a card of a mission pack: a mission, secondary, twist, "
                                                   "deployment, layout, level or rule.")
    @app_commands.describe(name="Start typing a card name, e.g. Cleanse, Tipping Point, Layout 3, Mission A",
                           pack="The mission pack (default: this channel's game's, else Chapter Approved)",
                           private="Only you see the card")
    async def card(self, interaction: discord.Interaction, name: str, pack: str | None = None,
                   private: bool = False) -> None:
        cards = self.packs[await self.pack_option.chosen(interaction, pack)]
        entry = cards.index.find(name)
        if entry is None and not pack:  # a card picked from another pack's list, say as a game began
            entry = next((found for other in self.packs.values() if (found := other.index.by_key(name))), None)
        if entry is None:
            raise InvalidValue(self._unknown(name, cards))
        await interaction.response.send_message(embed=entry.show(), ephemeral=private)

    @card.autocomplete("name")
    async def card_name(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            cards = self.packs[await self.pack_option.chosen(interaction, interaction.namespace.pack)]
        except InvalidValue:  # an unknown pack: the command will say so
            return []
        return [app_commands.Choice(name=entry.label, value=entry.key) for entry in cards.index.complete(current)]

    @card.autocomplete("pack")
    async def card_pack(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return self.pack_option.choices(current)

    def _unknown(self, name: str, cards: PackCards) -> str:
        shown = discord.utils.escape_markdown(name.strip()[:80])
        where = "" if cards.pack == DEFAULT_PACK else f" in the {cards.title}"
        matches = cards.index.complete(name, 6)
        if len(matches) > 1:
            options = ", ".join(entry.title for entry in matches[:5])
            return f"'{shown}' matches several cards{where}: {options}. Pick one from the list as you type."
        suggestions = cards.index.suggest(name)
        hint = f" Did you mean {', '.join(entry.title for entry in suggestions)}?" if suggestions else ""
        return f"No card called '{shown}'{where}.{hint} Pick a name from the list as you type."


async def setup(bot: MissionBot) -> None:
    await bot.add_cog(Cards(bot))
