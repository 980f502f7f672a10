"""`/roll dice:` rolls dice for the channel to see; `/rolloff opponent:` settles a roll-off between two players."""

from __future__ import annotations

import random

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import MissionBot
from bot.engine import dice as dice_engine
from bot.engine.errors import InvalidValue


class Dice(commands.Cog):
    def __init__(self, bot: MissionBot, rng: random.Random) -> None:
        self.bot = bot
        self.rng = rng

    @app_commands.command(name="roll", description="Roll dice for everyone in the channel to see.")
    @app_commands.describe(dice="D6, 2D6, 3D6, D3, D33 or NdM with a modifier, e.g. 2D6+1 (default D6)")
    async def roll(self, interaction: discord.Interaction, dice: str = "D6") -> None:
        result = dice_engine.roll(dice, self.rng)
        await interaction.response.send_message(f"🎲 {interaction.user.mention} rolled {describe_roll(result)}")

    @app_commands.command(name="rolloff", description="Roll off against another player: both roll a D6, ties roll again.")
    @app_commands.describe(opponent="The player you roll off against")
    async def rolloff(self, interaction: discord.Interaction, opponent: discord.User) -> None:
        if opponent.id == interaction.user.id:
            raise InvalidValue("A roll-off needs two players: pick your opponent.")
        if opponent.bot:
            raise InvalidValue("Bots don't roll off: pick the player you are facing.")
        players = (interaction.user, opponent)
        result = dice_engine.roll_off(self.rng)
        await interaction.response.send_message(describe_roll_off(players, result))


def describe_roll(result: dice_engine.RollResult) -> str:
    if result.expression == "D33":
        tens, units = result.dice
        return f"**D33**: {tens} then {units} = **{result.total}**"
    shown = " + ".join(map(str, result.dice))
    modifier = f" ({result.modifier:+d})" if result.modifier else ""
    if len(result.dice) == 1 and not result.modifier:
        return f"**{result.expression}**: **{result.total}**"
    return f"**{result.expression}**: {shown}{modifier} = **{result.total}**"


def describe_roll_off(players: tuple[discord.abc.User, discord.abc.User], result: dice_engine.RollOff) -> str:
    first, second = (p.mention for p in players)
    lines = [f"🎲 Roll-off: {first} vs {second}"]
    for a, b in result.rolls[:-1]:
        lines.append(f"{a} – {b}: a tie, roll again")
    a, b = result.rolls[-1]
    lines.append(f"{a} – {b}: **{players[result.winner].mention} wins the roll-off**")
    return "\n".join(lines)


async def setup(bot: MissionBot) -> None:
    # Players' dice come from the operating system's generator, not a seedable one.
    await bot.add_cog(Dice(bot, random.SystemRandom()))
