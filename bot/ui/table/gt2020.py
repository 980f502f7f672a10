"""A Grand Tournament 2020 mission as players read it: the roll, the briefing, the objectives and what comes next."""

from __future__ import annotations

import discord

from bot.decks import grand_tournament
from bot.engine.errors import GameError
from bot.engine.gt2020.catalog import GrandTournament, Mission, Objective, Secondary
from bot.engine.gt2020.missions import RolledGtMission
from bot.engine.gt2020.selection import check_selection, options
from bot.present.table_words import KINDS
from bot.ui.dynamic import DIGITS, CustomId, Field, Persistent
from bot.ui.embeds import Section, build_embed
from bot.ui.text import clip, field_value, pinging

COLOUR = discord.Colour.dark_red()
CODE = Field(r"[is][123][123]")  # a mission: see mission_code
SELECT_ID = CustomId("mgs:{code}:{a}:{b}", code=CODE, a=DIGITS, b=DIGITS)
PICK_ID = CustomId("mgp:{message_id}:{code}:{a}:{b}", code=CODE, a=DIGITS, b=DIGITS)
def objective_text(objective: Objective) -> str:
    return "\n".join((f"*{KINDS[objective.kind]} Objective.* {objective.flavour}", *objective.text))


def gt_mission_embed(pack: GrandTournament, rolled: RolledGtMission) -> discord.Embed:
    mission = pack.mission(rolled.mission)
    size = rolled.size.replace("-", " ").title()
    if rolled.d33 is None:
        how = f"**{mission.name}** (chosen)"
    else:
        tens, units = rolled.d33
        how = f"D33: {tens} then {units} = **{tens}{units}** → **{mission.name}**"
    embed = discord.Embed(title=f"Grand Tournament 2020: {mission.name} ({size})", colour=COLOUR,
                          description=f"{how}. Battlefield at least {pack.pack.battlefields[rolled.size]}.")
    embed.add_field(name="Mission briefing", value=field_value("\n".join(mission.briefing)), inline=False)
    if mission.rules:
        embed.add_field(name="Mission rules", value=field_value("\n".join(mission.rules)), inline=False)
    for primary in mission.primaries:
        embed.add_field(name=f"Primary objective: {primary.name}", value=field_value(objective_text(primary)),
                        inline=False)
    secondary = mission.secondary
    category = pack.category(secondary.category).name if secondary.category else "category not given in the pack"
    embed.add_field(name=f"Mission secondary: {secondary.name} ({category})", value=field_value(
        "\n".join((mission.secondary_intro, objective_text(secondary)))), inline=False)
    caps = pack.pack.caps
    embed.add_field(name="Next", value=field_value("\n".join((
        f"• Each player secretly selects {pack.pack.secondaries_selected} secondary objectives, at most one per "
        f"category ({', '.join(c.name for c in pack.categories)}), with the button below; both are revealed "
        "together.",
        f"• {pack.pack.attacker_and_defender} (`/rolloff`)",
        f"• After deployment: {pack.pack.first_turn} (`/rolloff`)",
        f"• Caps: {caps.primary}VP primary, {caps.each_secondary}VP each secondary, "
        f"{caps.secondaries}VP secondaries, {caps.battle_ready}VP Battle Ready, {caps.total}VP in all.",
    ))), inline=False)
    for note in mission.notes:
        embed.add_field(name="Designer's note", value=field_value(note.split(":", 1)[-1].strip()), inline=False)
    embed.set_footer(text=clip(f"Seed {rolled.seed}: the D33 is the stream labelled gt:d33 ('Verify a game' in the docs).",
                               2048))
    return embed


# A mission is named in custom ids by its size and D33 (i11 … s33): ids must stay under 100 characters.
def mission_code(mission: Mission) -> str:
    return f"{mission.size[0]}{mission.d33}"


def mission_of(pack: GrandTournament, code: str) -> Mission:
    return pack.by_roll("incursion" if code[0] == "i" else "strike-force", int(code[1:]))


def selection_view(mission: Mission, players: tuple[str, str]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(SelectSecondaries(mission_code(mission), players))
    return view


def _picked_names(pack: GrandTournament, mission: Mission, picks: tuple[str, ...]) -> str:
    names = {option[0]: option[1] for option in options(pack, mission)}
    return ", ".join(f"**{names[p]}**" for p in picks)


class SelectSecondaries(Persistent, discord.ui.DynamicItem[discord.ui.Button], custom_id=SELECT_ID):
    """Either player opens their private menu of the mission's secondary objectives."""

    what = "Opening the secondary objectives menu of mission {code}"

    def __init__(self, code: str, players: tuple[str, str]) -> None:
        a, b = players
        super().__init__(discord.ui.Button(label="Select secondary objectives (secret)",
                                           style=discord.ButtonStyle.primary,
                                           custom_id=self.custom_ids.format(code=code, a=a, b=b)))
        self.code, self.players = code, players

    @classmethod
    async def from_custom_id(cls, interaction, item, match) -> SelectSecondaries:
        return cls(match["code"], (match["a"], match["b"]))

    async def act(self, interaction: discord.Interaction) -> None:
        me = str(interaction.user.id)
        if me not in self.players:
            raise GameError("Only the two players of this mission select its secondary objectives.")
        message_id = interaction.message.id  # type: ignore[union-attr]
        if await interaction.client.picks.has_picked(message_id, me):  # type: ignore[attr-defined]
            raise GameError("You have already selected your secondary objectives for this mission.")
        pack = grand_tournament()
        menu = PickSecondaries(message_id, self.code, self.players, pack)
        await interaction.response.send_message(
            f"Select {pack.pack.secondaries_selected}, no more than one from each category. Nobody sees them "
            "until both of you have selected yours.", view=discord.ui.View(timeout=None).add_item(menu),
            ephemeral=True)


class PickSecondaries(Persistent, discord.ui.DynamicItem[discord.ui.Select], custom_id=PICK_ID):
    """A player's private menu: the selection is kept hidden, then revealed with the opponent's."""

    what = "Selecting secondary objectives of mission {code}"

    def __init__(self, message_id: int, code: str, players: tuple[str, str], pack: GrandTournament) -> None:
        a, b = players
        mission = mission_of(pack, code)
        wanted = pack.pack.secondaries_selected
        super().__init__(discord.ui.Select(
            custom_id=self.custom_ids.format(message_id=message_id, code=code, a=a, b=b),
            placeholder=f"Your {wanted} secondary objectives", min_values=wanted, max_values=wanted,
            options=[discord.SelectOption(label=name, value=value, description=clip(category, 100))
                     for value, name, category in options(pack, mission)]))
        self.message_id, self.code, self.players = message_id, code, players

    @classmethod
    async def from_custom_id(cls, interaction, item, match) -> PickSecondaries:
        return cls(int(match["message_id"]), match["code"], (match["a"], match["b"]), grand_tournament())

    async def act(self, interaction: discord.Interaction) -> None:
        me = str(interaction.user.id)
        if me not in self.players:
            raise GameError("Only the two players of this mission select its secondary objectives.")
        pack = grand_tournament()
        mission = mission_of(pack, self.code)
        picks = check_selection(pack, mission, list(self.item.values))
        both = await interaction.client.picks.pick(self.message_id, me, picks)  # type: ignore[attr-defined]
        opponent = next(p for p in self.players if p != me)
        await interaction.response.edit_message(
            content=f"Recorded: {_picked_names(pack, mission, picks)}. "
                    + ("Both of you have selected: they are revealed below." if both else
                       f"Hidden until <@{opponent}> has selected theirs."), view=None)
        if both is not None:
            await self._reveal(interaction, pack, mission, both)

    async def _reveal(self, interaction: discord.Interaction, pack: GrandTournament, mission: Mission,
                      both: dict[str, tuple[str, ...]]) -> None:
        lines = [f"<@{p}>: {_picked_names(pack, mission, both[p])}" for p in self.players]
        channel = interaction.client.get_partial_messageable(interaction.channel_id)  # type: ignore[arg-type]
        await channel.send(f"🎯 Secondary objectives revealed for **{mission.name}**:\n" + "\n".join(lines),
                           allowed_mentions=pinging(self.players))
        await channel.get_partial_message(self.message_id).edit(view=None)


# --- /card: the pack's missions and secondary objectives, one card each ----------------------------------------

SIZES = {"incursion": "Incursion", "strike-force": "Strike Force"}
NO_CATEGORY = "category not given in the pack"


def secondary_kind(pack: GrandTournament, secondary: Secondary) -> str:
    """'Battlefield Supremacy secondary objective': the category is part of what a player searches for."""
    return f"{pack.category(secondary.category).name} secondary objective"


def mission_kind(mission: Mission) -> str:
    return f"{SIZES[mission.size]} mission"


def missions_with_secondary(pack: GrandTournament, secondary_id: str) -> tuple[Mission, ...]:
    """The missions whose own secondary objective this is (one may serve several: Minimise Losses)."""
    return tuple(m for m in pack.missions if m.secondary.id == secondary_id)


def mission_secondary_kind(missions: tuple[Mission, ...]) -> str:
    return f"Mission secondary objective of {', '.join(m.name for m in missions)}"


def gt_secondary_card(pack: GrandTournament, secondary: Secondary) -> discord.Embed:
    """One of the pack's secondary objectives, with its category and the pack's rules for selecting them."""
    category = pack.category(secondary.category).name
    return build_embed(
        title=secondary.name, description=objective_text(secondary),
        sections=[Section("Category", category, inline=True),
                  Section("Selecting secondary objectives", "\n".join(pack.selection))],
        colour=COLOUR, footer=f"{secondary_kind(pack, secondary)} · {pack.pack.title}")


def gt_mission_secondary_card(pack: GrandTournament, missions: tuple[Mission, ...], title: str) -> discord.Embed:
    """A mission's own secondary objective, with the missions that offer it."""
    secondary = missions[0].secondary
    category = pack.category(secondary.category).name if secondary.category else NO_CATEGORY.capitalize()
    sections = [Section(f"{m.name} ({SIZES[m.size]} mission)", m.secondary_intro) for m in missions]
    sections += [Section("Category", category, inline=True),
                 Section("Selecting secondary objectives", "\n".join(pack.selection))]
    return build_embed(title=title, description=objective_text(secondary), sections=sections, colour=COLOUR,
                       footer=f"{mission_secondary_kind(missions)} · {pack.pack.title}")


def gt_mission_card(pack: GrandTournament, mission: Mission) -> discord.Embed:
    """A mission as its page gives it: briefing, rules, primary objectives and its own secondary objective."""
    secondary = mission.secondary
    category = pack.category(secondary.category).name if secondary.category else NO_CATEGORY
    sections = [Section("Mission briefing", "\n".join(mission.briefing))]
    if mission.rules:
        sections.append(Section("Mission rules", "\n".join(mission.rules)))
    for number, primary in enumerate(mission.primaries):
        text = objective_text(primary)  # the intro ("Victory points are awarded …") leads the first one
        sections.append(Section(f"Primary objective: {primary.name}",
                                text if number else f"{mission.primary_intro}\n{text}"))
    sections.append(Section(f"Mission secondary: {secondary.name} ({category})",
                            "\n".join((mission.secondary_intro, objective_text(secondary)))))
    sections += [Section("Designer's note", note.split(":", 1)[-1].strip()) for note in mission.notes]
    size = SIZES[mission.size]
    return build_embed(
        title=mission.name,
        description=f"{size} mission, D33 result **{mission.d33}**. Battlefield at least "
                    f"{pack.pack.battlefields[mission.size]}.",
        sections=sections, colour=COLOUR, footer=f"{mission_kind(mission)} · {pack.pack.title}")
