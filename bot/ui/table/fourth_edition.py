"""A rolled 4th edition mission as players read it, and the menu the Strategy Roll winner picks a mission with."""

from __future__ import annotations

from collections import OrderedDict

import discord

from bot.decks import fourth_edition
from bot.engine.errors import GameError
from bot.engine.fourth_edition.catalog import Level, Mission, MissionGenerator, SpecialRule
from bot.engine.fourth_edition.generator import BattleStart, RolledMission, roll_mission, start_battle
from bot.engine.rng import new_seed
from bot.ui.dynamic import DIGITS, CustomId, Field, Persistent
from bot.ui.embeds import Section, build_embed
from bot.ui.text import clip, field_value, pinging

COLOUR = discord.Colour.dark_teal()
PICK_ID = CustomId("m4p:{ratings}:{level}:{a}:{b}:{seed}", ratings=Field(r"[1-3]{2}"),
                   level=Field(r"[a-z]+|-"), a=DIGITS, b=DIGITS, seed=Field(r"[A-Za-z0-9_-]{1,32}"))  # -: level rolled
DEPLOYED_ID = CustomId("m4d:{level}:{a}:{b}", level=Field(r"[a-z]+"), a=DIGITS, b=DIGITS)
LABELS = "4e:mission, 4e:strategy, 4e:level, 4e:set-up, 4e:tokens, 4e:first-token"


def _who(player: str) -> str:
    return f"<@{player}>"


def mission_embed(generator: MissionGenerator, rolled: RolledMission) -> discord.Embed:
    level = generator.level(rolled.level)
    mission = generator.mission(rolled.mission) if rolled.mission else None
    a, b = rolled.players
    title = f"4th edition: {mission.name if mission else 'mission to choose'} · {level.name}"
    lines = []
    if rolled.mission_roll is None:
        lines.append(f"Mission: **{mission.name}** (chosen).")
    elif rolled.strategy_roll is not None:
        winner = _who(rolled.strategy_roll.winner)
        ratings = " and ".join(f"{_who(p)} {r}D6" for p, r in zip(rolled.players, rolled.strategy_ratings))
        picked = f"{winner} chose **{mission.name}**." if mission else f"{winner} chooses the mission below."
        lines.append(f"Mission: D6 = **6** → chosen by the Strategy Roll winner. Strategy Roll ({ratings}, highest "
                     f"die): {rolled.strategy_roll.text}: {picked}")
    else:
        lines.append(f"Mission: D6 = **{rolled.mission_roll}** → **{mission.name}**.")
    how = "chosen" if rolled.level_roll is None else f"D3 = **{rolled.level_roll}**"
    lines.append(f"Level: {how} → **{level.name}**.")
    embed = discord.Embed(title=title, description="\n".join(lines), colour=COLOUR)
    if mission is not None:
        embed.add_field(name="Objective", value=field_value(mission.objective), inline=False)
        embed.add_field(name="Set Up", value=field_value(
            "\n".join(f"{n}) {step}" for n, step in enumerate(mission.set_up, start=1))), inline=False)
    embed.add_field(name="Rolls", value=field_value("\n".join(roll_lines(rolled, mission))), inline=False)
    rounds = f"{level.battle_rounds} Battle Rounds"
    if "random-game-length" in level.special_rules:
        rounds += " (Random Game Length: up to 3 more)"
    embed.add_field(name="Game length", value=rounds, inline=True)
    rules = [generator.rule(r) for r in level.special_rules]
    embed.add_field(name="Scenario special rules", value=", ".join(r.name for r in rules) or "None.", inline=True)
    if mission is not None and "victory-points" in level.special_rules:
        embed.add_field(name="Victory Points bonus", value=field_value("\n".join(
            f"• {line}" for line in mission.victory_points)), inline=False)
    for rule in rules:
        embed.add_field(name=rule.name, value=field_value(rule.text), inline=False)
    embed.set_footer(text=clip(f"Seed {rolled.seed}: every roll above follows from it (SHA-256 streams "
                               f"labelled {LABELS}; 'Verify a game' in the docs).", 2048))
    return embed


def roll_lines(rolled: RolledMission, mission: Mission | None) -> list[str]:
    setup = rolled.set_up_roll
    loser = next(p for p in rolled.players if p != setup.winner)
    where = "a corner (the other player deploys in the opposite corner)" if mission and mission.id == "cleanse" \
        else "the long table edge to deploy from"
    lines = [f"Set-up roll-off {setup.text}: {_who(setup.winner)} chooses {where}."]
    if mission is not None:
        first = setup.winner if mission.deploys_first == "winner" else loser
        lines.append(f"{_who(first)} deploys first.")
    if rolled.token_d3 is not None:
        lines.append(f"Tokens: D3 = {rolled.token_d3}, so **{rolled.token_d3 + 2}** tokens; coin flip: "
                     f"{_who(rolled.first_token)} places the first token.")
    lines.append("Once both armies are deployed, press **Armies deployed** for the first turn roll-off"
                 " (and the level's other rolls): nobody can know them while deploying.")
    return lines


def battle_start_text(start: BattleStart) -> str:
    lines = []
    if start.infiltrate_first is not None:
        lines.append(f"Infiltrate: if both sides have Infiltrators, {_who(start.infiltrate_first)} deploys them first "
                     "(coin flip).")
    lines.append(f"First turn roll-off {start.first_turn_roll.text}: {_who(start.first_turn_roll.winner)} may "
                 "choose to go first or second.")
    if start.dusk_and_dawn is not None:
        night = {1: "the first Battle Round uses Night Fighting",
                 6: "the 6th and later Battle Rounds use Night Fighting"}.get(start.dusk_and_dawn, "no Night Fighting")
        lines.append(f"Dusk & Dawn: D6 = {start.dusk_and_dawn}: {night}.")
    lines.append(f"Seed {start.seed} (labels 4e:infiltrate, 4e:first-turn, 4e:dusk-and-dawn), made just now.")
    return "\n".join(lines)


def mission_view(generator: MissionGenerator, rolled: RolledMission, chosen_level: str | None) -> discord.ui.View:
    """The Strategy Roll winner's menu while the mission is open, then the Armies deployed button."""
    view = discord.ui.View(timeout=None)
    if rolled.chooser:
        view.add_item(PickMission(rolled, chosen_level, generator))
    else:
        view.add_item(ArmiesDeployed(rolled.players, rolled.level))
    return view


class PickMission(Persistent, discord.ui.DynamicItem[discord.ui.Select], custom_id=PICK_ID):
    """The Strategy Roll winner's choice of mission; the seed in the id completes the same rolls after a restart."""

    what = "Picking a 4th edition mission (seed {seed})"

    def __init__(self, rolled: RolledMission, chosen_level: str | None, generator: MissionGenerator) -> None:
        a, b = rolled.players
        super().__init__(discord.ui.Select(
            custom_id=self.custom_ids.format(ratings="".join(map(str, rolled.strategy_ratings)),
                                             level=chosen_level or "-", a=a, b=b, seed=rolled.seed),
            placeholder="Strategy Roll winner: choose the mission",
            options=[discord.SelectOption(label=m.name, value=m.id) for m in generator.missions]))
        self.rolled, self.chosen_level = rolled, chosen_level

    @classmethod
    async def from_custom_id(cls, interaction, item, match) -> PickMission:
        level = None if match["level"] == "-" else match["level"]
        ratings = (int(match["ratings"][0]), int(match["ratings"][1]))
        rolled = roll_mission(fourth_edition(), match["seed"], (match["a"], match["b"]), level=level,
                              strategy_ratings=ratings)
        return cls(rolled, level, fourth_edition())

    async def act(self, interaction: discord.Interaction) -> None:
        generator = fourth_edition()
        rolled = roll_mission(generator, self.rolled.seed, self.rolled.players, level=self.chosen_level,
                              strategy_ratings=self.rolled.strategy_ratings,
                              picked=(str(interaction.user.id), self.item.values[0]))
        await interaction.response.edit_message(embed=mission_embed(generator, rolled),
                                                view=mission_view(generator, rolled, self.chosen_level))


class ArmiesDeployed(Persistent, discord.ui.DynamicItem[discord.ui.Button], custom_id=DEPLOYED_ID):
    """Either player, once both armies are deployed: the rolls of the start of the battle, from a seed made at
    that moment, posted once (the button goes with the first press)."""

    what = "Rolling the start of a 4th edition battle ({level})"

    def __init__(self, players: tuple[str, str], level: str) -> None:
        a, b = players
        super().__init__(discord.ui.Button(label="Armies deployed: roll for the first turn",
                                           style=discord.ButtonStyle.primary,
                                           custom_id=self.custom_ids.format(level=level, a=a, b=b)))
        self.players, self.level = players, level

    @classmethod
    async def from_custom_id(cls, interaction, item, match) -> ArmiesDeployed:
        return cls((match["a"], match["b"]), match["level"])

    async def act(self, interaction: discord.Interaction) -> None:
        if str(interaction.user.id) not in self.players:
            raise GameError("Only the two players of this mission roll for their first turn.")
        message_id = interaction.message.id if interaction.message else interaction.id
        rolled = interaction.client.get_cog("mission").deployed  # type: ignore[union-attr]
        if message_id in rolled:
            raise GameError("The first turn has already been rolled for this mission.")
        rolled.add(message_id)  # before any await: a second press at the same moment finds it
        start = start_battle(fourth_edition(), new_seed(), self.players, self.level)
        await interaction.response.send_message(
            f"{' '.join(_who(p) for p in self.players)} armies deployed:\n{battle_start_text(start)}",
            allowed_mentions=pinging(self.players))
        if interaction.message is not None:
            await interaction.message.edit(view=None)


class RecentIds:
    """The most recent `size` message ids seen (memory stays bounded: an older message lost its button long
    ago)."""

    def __init__(self, size: int) -> None:
        self._ids: OrderedDict[int, None] = OrderedDict()
        self._size = size

    def __contains__(self, message_id: int) -> bool:
        return message_id in self._ids

    def add(self, message_id: int) -> None:
        self._ids[message_id] = None
        if len(self._ids) > self._size:
            self._ids.popitem(last=False)


# --- /card: the generator's missions, levels and special rules, one card each ---------------------------------

MISSION_KIND = "Standard Mission"
LEVEL_KIND = "Mission level"
RULE_KIND = "Scenario special rule"


def mission_card(generator: MissionGenerator, mission: Mission) -> discord.Embed:
    """A mission as the SRD gives it: objective, set-up and the Victory Points bonus of Gamma and Omega."""
    rolls = [str(entry.roll) for entry in generator.mission_table if entry.mission == mission.id]
    chosen = next((entry.text for entry in generator.mission_table if entry.mission is None and entry.text), None)
    how = f"D6 mission roll: **{', '.join(rolls)}**" + (f" (6: {chosen})" if chosen else "") + "."
    levels = [level.name for level in _levels_with(generator, "victory-points")]
    sections = [
        Section("Set Up", "\n".join(f"{n}) {step}" for n, step in enumerate(mission.set_up, start=1))),
        Section(f"Victory Points bonus ({', '.join(levels)})" if levels else "Victory Points bonus",
                "\n".join(f"• {line}" for line in mission.victory_points)),
    ]
    return build_embed(title=mission.name, description=f"{mission.objective}\n\n{how}", sections=sections,
                       colour=COLOUR, footer=f"{MISSION_KIND} · {generator.title}")


def level_card(generator: MissionGenerator, level: Level) -> discord.Embed:
    """A mission level: its D3 roll, its game length and the text of each of its special rules."""
    rolls = ", ".join(str(entry.roll) for entry in generator.level_table if entry.level == level.id)
    rules = [generator.rule(r) for r in level.special_rules]
    rounds = f"{level.battle_rounds} Battle Rounds"
    if "random-game-length" in level.special_rules:
        rounds += " (Random Game Length: up to 3 more)"
    sections = [Section("Game length", rounds, inline=True),
                Section("Scenario special rules", ", ".join(r.name for r in rules) or "None.", inline=True),
                *(Section(rule.name, rule.text) for rule in rules)]
    return build_embed(title=level.name, description=f"D3 mission level roll: **{rolls}**.", sections=sections,
                       colour=COLOUR, footer=f"{LEVEL_KIND} · {generator.title}")


def special_rule_card(generator: MissionGenerator, rule: SpecialRule) -> discord.Embed:
    """A scenario special rule and the mission levels that use it (Night Fighting and Reserves: other rules)."""
    levels = ", ".join(level.name for level in _levels_with(generator, rule.id))
    return build_embed(title=rule.name, description=rule.text,
                       sections=[Section("Mission levels", levels)] if levels else [],
                       colour=COLOUR, footer=f"{RULE_KIND} · {generator.title}")


def _levels_with(generator: MissionGenerator, rule_id: str) -> list[Level]:
    return [level for level in generator.levels if rule_id in level.special_rules]
