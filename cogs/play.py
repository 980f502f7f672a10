"""In-game commands beside the board's buttons: Secondary Missions, VP, CP and the Challenger card."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.state import Source
from bot.engine.errors import GameError
from bot.engine.names import resolve
from bot.engine.packs import is_mission_deck
from bot.engine.table import actions as t
from bot.ui.chapter_approved import controls as mission_deck_controls
from bot.ui.table import controls as table_controls
from bot.ui.limits import AUTOCOMPLETE_CHOICES
from bot.ui.text import title_case
from bot.engine.sides import seat_of
from cogs.base import BotCog



async def own_cards(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The caller's own active Secondary Missions in this channel's game."""
    try:
        record = await interaction.client.service.get_state(channel_id=interaction.channel_id)
    except GameError:
        return []
    seat = seat_of(record.setup, str(interaction.user.id))
    if seat is None or not is_mission_deck(record.state):  # no Secondary Mission cards in the older packs
        return []
    player = record.state.player(seat)
    catalog = interaction.client.desk.catalog_of(record.state)
    names = [(title_case(catalog.secondary(c).name), c) for c in player.hand]
    return [app_commands.Choice(name=n, value=c) for n, c in names if current.lower() in n.lower()][
        :AUTOCOMPLETE_CHOICES]


async def own_objectives(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The caller's objectives in this channel's game of an older pack."""
    service = interaction.client.service
    try:
        record = await service.get_state(channel_id=interaction.channel_id)
        if is_mission_deck(record.state):
            return []
        objectives = service.packs.rules(record.pack).objectives(record.state, str(interaction.user.id))
    except (GameError, KeyError):
        return []
    return [app_commands.Choice(name=o.name[:100], value=o.id) for o in objectives
            if current.lower() in o.name.lower()][:AUTOCOMPLETE_CHOICES]


async def typed_cards(interaction: discord.Interaction, *typed: str | None) -> tuple[str, ...]:
    """The caller's active Secondary Missions that they named, as autocomplete sends them (ids) or as they type
    them (names, any case, with or without punctuation); a typo is refused with the closest of their cards."""
    record = await interaction.client.service.get_state(channel_id=interaction.channel_id)
    me = seat_of(record.setup, str(interaction.user.id))
    if not is_mission_deck(record.state) or me is None:
        return tuple(t for t in typed if t)  # refused further on, with the reason that applies
    catalog = interaction.client.desk.catalog_of(record.state)
    hand = [(card, catalog.secondary(card).name) for card in record.state.player(me).hand]
    return tuple(resolve(t, hand, "one of your active Secondary Missions") for t in typed if t)


async def _mission_deck(interaction: discord.Interaction) -> bool:
    """Is this channel's game a Chapter Approved one (its rules refuse what does not belong to it)?"""
    return is_mission_deck((await interaction.client.service.get_state(channel_id=interaction.channel_id)).state)


async def typed_objective(interaction: discord.Interaction, typed: str) -> str:
    """The caller's objective (older packs) they named, by id or as they type its name."""
    service = interaction.client.service
    record = await service.get_state(channel_id=interaction.channel_id)
    me = str(interaction.user.id)
    if me not in record.setup.players:
        return typed  # refused further on
    objectives = service.packs.rules(record.pack).objectives(record.state, me)
    return resolve(typed, [(o.id, o.name) for o in objectives], "one of your objectives")


def _me(interaction: discord.Interaction) -> str:
    """The presser: the game service plays their seat (their side's, in doubles)."""
    return str(interaction.user.id)


class SecondaryCog(BotCog, name="secondary", description="Your Secondary Missions"):
    @app_commands.command(name="choose", description="Secretly choose Tactical, or Fixed with two cards")
    async def choose(self, interaction: discord.Interaction) -> None:
        record = await self.bot.service.get_state(channel_id=interaction.channel_id)
        if not is_mission_deck(record.state):  # the older packs' secret selection (Grand Tournament 2020)
            await table_controls.open_menu(self.bot.desk, interaction, record, "select")
            return
        await mission_deck_controls.open_menu(self.bot.desk, interaction, record, "choose")

    @app_commands.command(name="new-orders", description="New Orders (1CP): discard an active card, draw one")
    @app_commands.autocomplete(card=own_cards)
    async def new_orders(self, interaction: discord.Interaction, card: str) -> None:
        (card,) = await typed_cards(interaction, card)
        await self.bot.desk.perform(interaction, a.NewOrders(actor=_me(interaction), card=card))

    @app_commands.command(name="discard", description="End of turn: discard active cards (none to keep them)")
    @app_commands.autocomplete(card=own_cards, second_card=own_cards)
    @app_commands.rename(second_card="second-card")
    async def discard(self, interaction: discord.Interaction, card: str | None = None,
                      second_card: str | None = None) -> None:
        cards = await typed_cards(interaction, card, second_card)
        await self.bot.desk.perform(interaction, a.Discard(actor=_me(interaction), cards=cards))


class ScoreCog(BotCog, name="score", description="Victory points"):
    @app_commands.command(name="add", description="Record VP (the board's Score button offers the card options)")
    @app_commands.describe(source="Where the VP come from", vp="How many VP",
                           card="The Secondary Mission card (for Secondary VP)",
                           end_of_battle="VP a card gives at the end of the battle (the last turn's end): outside "
                                         "round caps (2026-27)")
    @app_commands.rename(end_of_battle="end-of-battle")
    @app_commands.autocomplete(card=own_cards)
    async def add(self, interaction: discord.Interaction,
                  source: Literal["primary", "secondary", "challenger"],
                  vp: app_commands.Range[int, 1, 50], card: str | None = None, end_of_battle: bool = False) -> None:
        if not await _mission_deck(interaction):
            raise GameError("In this game, record VP by objective: `/score objective` or the board's Score button.")
        if card is not None:
            (card,) = await typed_cards(interaction, card)
        action = a.Score(actor=_me(interaction), source=Source(source), card=card, vp=vp, end_of_battle=end_of_battle)
        await self.bot.desk.perform(interaction, action)

    @app_commands.command(name="objective", description="Record VP for one of your objectives (Grand Tournament "
                                                            "2020, 4th edition)")
    @app_commands.describe(objective="Your objective", vp="How many VP it scored now")
    @app_commands.autocomplete(objective=own_objectives)
    async def objective(self, interaction: discord.Interaction, objective: str,
                        vp: app_commands.Range[int, 1, t.MAX_VP]) -> None:
        if await _mission_deck(interaction):
            raise GameError("Chapter Approved VP come from cards: use the board's Score button or `/score add`.")
        objective = await typed_objective(interaction, objective)
        action = t.ScoreObjective(actor=_me(interaction), objective=objective, vp=vp)
        await self.bot.desk.perform(interaction, action)


class CpCog(BotCog, name="cp", description="Command points"):
    @app_commands.command(name="spend", description="Spend CP on a Stratagem or rule")
    async def spend(self, interaction: discord.Interaction, amount: app_commands.Range[int, 1, 10],
                    reason: app_commands.Range[str, 0, 200] = "") -> None:
        action = a.SpendCp(actor=_me(interaction), amount=amount, reason=reason)
        await self.bot.desk.perform(interaction, action)

    @app_commands.command(name="gain", description="Gain CP from a rule (at most 1CP per battle round)")
    @app_commands.describe(mission_rule="Grand Tournament 2020: a mission rule gives it in your Command phase "
                                        "(outside the 1CP limit)")
    @app_commands.rename(mission_rule="mission-rule")
    async def gain(self, interaction: discord.Interaction, amount: app_commands.Range[int, 1, 10],
                   reason: app_commands.Range[str, 0, 200] = "", mission_rule: bool = False) -> None:
        if await _mission_deck(interaction):
            if mission_rule:
                raise GameError("`mission-rule:` is for the Grand Tournament 2020 pack's mission rules.")
            action = a.GainCp(actor=_me(interaction), amount=amount, reason=reason)
        else:
            action = t.GainCp(actor=_me(interaction), amount=amount, reason=reason, mission_rule=mission_rule)
        await self.bot.desk.perform(interaction, action)


class ChallengerCog(BotCog, name="challenger", description="Your Challenger card"):
    @app_commands.command(name="use", description="Use your Challenger card as its Stratagem or its Mission")
    @app_commands.rename(use_as="as")
    async def use(self, interaction: discord.Interaction, use_as: Literal["stratagem", "mission"]) -> None:
        await self.bot.desk.perform(interaction, a.UseChallenger(actor=_me(interaction), use=use_as))


async def setup(bot: commands.Bot) -> None:
    for cog in (SecondaryCog, ScoreCog, CpCog, ChallengerCog):
        await bot.add_cog(cog(bot))
