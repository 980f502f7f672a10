"""An event's lists: submitted by each player (or an organiser for them), checked and kept, shown as the event's
list policy allows, and reviewed by the organisers (who is missing, whose list is flagged, what was corrected)."""

from __future__ import annotations

import discord

from bot.armies.check import army_from, read_list
from bot.armies.data import army_data
from bot.armies.lists import ListError
from bot.engine.errors import GameError
from bot.present.entrants import player_name
from bot.store.tournament_repository import EntryList, TournamentRecord
from bot.present.offers import army_fields, army_values
from bot.ui.armies import list_message
from bot.ui.dynamic import CustomId, Persistent
from bot.present.offers import FormSpec
from bot.ui.forms import Form
from bot.ui.tournament import is_organiser, line_embeds

POLICIES = {"none": "no lists", "closed": "closed lists (organisers only)",
            "open": "open lists (each player sees their opponent's at pairing)"}


async def submit(client: discord.Client, interaction: discord.Interaction, record: TournamentRecord,
                 player: discord.abc.User, *, faction: str | None, detachment: str | None, text: str | None = None,
                 file: tuple[str, bytes] | None = None) -> None:
    """Check and keep the list, then enter it for `player`; the answer, private, shows it with its flags."""
    organiser = is_organiser(interaction, record)
    me, owner = str(interaction.user.id), str(player.id)
    if owner != me and not organiser:
        raise GameError("Only an organiser can submit someone else's list.")
    if not text and file is None:
        raise GameError("Paste your list (leave the options empty for a form) or attach it as a file.")
    service = client.tournaments  # type: ignore[attr-defined]
    service.list_refusal(record.state, owner, by=me, organiser=organiser)  # refused before anything is kept
    try:
        kept, checked = read_list(text, file=file, faction=faction, detachment=detachment)
    except ListError as exc:
        raise GameError(str(exc)) from None
    lists = client.service.lists  # type: ignore[attr-defined]
    list_id = await lists.add(owner=owner, guild_id=record.guild_id, text=kept, checked=checked,
                              tournament_id=record.id)
    army = army_from(army_data(), faction or "", detachment, checked, list_id)
    saved = await service.submit_list(record.guild_id, owner, EntryList(army=army, flags=len(checked.flags)), by=me,
                                      organiser=organiser)
    whose = "Your list" if owner == me else f"{player_name(saved, owner)}'s list"
    message = list_message(checked, player_name(saved, owner), list_id)
    content = f"{whose} for **{discord.utils.escape_markdown(saved.name)}** is in."
    state = saved.state
    if not state.event.pool and state.to_choose(owner):
        # CA 2026-27: several Force Dispositions granted and none recorded: chosen here, among those only
        names = dispositions_named(client, saved, state.granted(state.entrant_of(owner)))
        whose = "Your pair's lists grant" if state.doubles else "Its detachments grant"
        content += (f" {whose} {' and '.join(f'**{n}**' for n in names.values())}: pick the Force "
                    "Disposition it plays below (or record it on the list, `Force Disposition: …`): nobody else sees "
                    "it before the pairings.")
        message["view"].add_item(ListDisposition(saved.id, list_id, list(names.items())))
    await interaction.followup.send(content, **message, ephemeral=True)


def dispositions_named(client: discord.Client, record: TournamentRecord, ids: tuple[str, ...]) -> dict[str, str]:
    """The Force Dispositions by id, named as the event's deck names them."""
    catalog = client.service.packs.rules(record.state.pack).catalog  # type: ignore[attr-defined]
    named = {d.id: d.name for d in catalog.dispositions}
    return {d: named.get(d, d) for d in ids}


class ListDisposition(Persistent, discord.ui.DynamicItem[discord.ui.Select],
                      custom_id=CustomId("mdld:{tournament}:{list_id}")):
    """CA 2026-27: the Force Disposition an event list plays, among those its detachments grant, when it records
    none; under the list its player (or an organiser) just submitted, privately."""

    what = "The Force Disposition of list {list_id} in tournament {tournament}"

    def __init__(self, tournament: int, list_id: int, options: list[tuple[str, str]] | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=self.custom_ids.format(tournament=tournament, list_id=list_id),
            placeholder="The Force Disposition your list plays",
            options=[discord.SelectOption(label=name, value=value) for value, name in options or ()]))
        self.tournament, self.list_id = tournament, list_id

    async def act(self, interaction: discord.Interaction) -> None:
        service = interaction.client.tournaments  # type: ignore[attr-defined]
        record = await service.get(self.tournament)
        chosen = self.item.values[0]
        saved = await service.choose_disposition(self.tournament, self.list_id, chosen, by=str(interaction.user.id),
                                                 organiser=is_organiser(interaction, record))
        name = dispositions_named(interaction.client, saved, (chosen,))[chosen]
        await interaction.response.send_message(f"The list plays **{name}**: the pairings will show it.",
                                                ephemeral=True)


async def show(client: discord.Client, interaction: discord.Interaction, record: TournamentRecord,
               player: discord.abc.User) -> None:
    """A player's list, privately: their own or their doubles partner's, any to an organiser, anyone's at an
    open-list event."""
    owner, state = str(player.id), record.state
    allowed = (state.entrant_of(owner) == state.entrant_of(str(interaction.user.id))
               or is_organiser(interaction, record) or state.list_policy == "open")
    if not allowed:
        raise GameError("This event's lists are closed: only the organisers see them.")
    entry = record.state.lists.get(owner)
    lists = client.service.lists  # type: ignore[attr-defined]
    found = await lists.get(entry.army.list_id) if entry and entry.army.list_id else None
    if found is None:
        raise GameError(f"{player_name(record, owner)} has no list in this event yet.")
    await interaction.followup.send(**list_message(found[1], player_name(record, owner), found[0].id), ephemeral=True)


def review_embeds(record: TournamentRecord) -> list[discord.Embed]:
    """For the organisers: every entrant's list or its absence, flags first, then the changes after the lock."""
    state = record.state
    active = [m for p in state.event.players if p not in state.event.dropped for m in state.members(p)]
    missing = [p for p in active if p not in state.lists]
    flagged = [p for p in active if p in state.lists and state.lists[p].flags]
    lines = [f"❌ {discord.utils.escape_markdown(player_name(record, p))}: no list" for p in missing]
    for p in sorted(active, key=lambda p: (p not in flagged, player_name(record, p).casefold())):
        if p in state.lists:
            entry = state.lists[p]
            mark = f"⚠️ {entry.flags} to check" if entry.flags else "✅"
            lines.append(f"{mark} {discord.utils.escape_markdown(player_name(record, p))}: {entry.army.label}"
                         + (f" · {entry.army.points} pts" if entry.army.points is not None else "")
                         + (" · ⏳ Force Disposition to choose" if state.to_choose(p) else ""))
    for change in state.list_changes:
        lines.append(f"✏️ <t:{int(change.at.timestamp())}:f> <@{change.by}> changed "
                     f"{discord.utils.escape_markdown(player_name(record, change.player))}'s list")
    deadline = (f"deadline <t:{int(state.list_deadline.timestamp())}:f>" if state.list_deadline
                else "no deadline")
    title = f"{record.name}: lists ({POLICIES[state.list_policy]}, {deadline})"
    embeds = line_embeds(lines or ["Nobody has registered yet."], title)
    embeds[-1].set_footer(text=f"{len(state.lists)} of {len(active)} in, {len(missing)} missing, "
                               f"{len(flagged)} flagged · /tournament list show player: to read one")
    return embeds


class EventListForm(Form):
    """A list pasted for an event, with its faction and detachment where the list does not say them."""

    def __init__(self, client: discord.Client, tournament_id: int, player: discord.abc.User) -> None:
        super().__init__(FormSpec("Your list for the event", army_fields(list_required=True)))
        self.client, self.tournament_id, self.player = client, tournament_id, player

    async def submit(self, interaction: discord.Interaction, values: dict[str, str]) -> None:
        record = await self.client.tournaments.get(self.tournament_id)  # type: ignore[attr-defined]
        await submit(self.client, interaction, record, self.player, **army_values(values))

