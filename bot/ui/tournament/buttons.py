"""The tournament's persistent buttons (confirm a result, publish or re-pair a draft, nudge, check in, close
check-in), the organiser check they share with the commands, and the private draft that carries two of them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.engine.errors import GameError
from bot.store.tournament_repository import TournamentRecord
from bot.ui.teams.board import send_team_draft
from bot.ui.tournament.organisers import is_organiser
from bot.ui.dynamic import DIGEST, CustomId, Persistent, one_of
from bot.ui.tournament.posting import event_catalog, post
from bot.ui.tournament.rounds import open_round
from bot.ui.tournament.texts import (
    checkin_closed_text, draft_messages, mission_title, nudge_messages, score_line,
)

if TYPE_CHECKING:
    from bot.services.tournaments import TournamentService


DRAFT_ID = CustomId("mdtd:{tournament}:{round_number}:{draw}:{action}", action=one_of("publish", "repair"))
CHECKIN_ID = CustomId("mdtk:{tournament}")
CLOSE_ID = CustomId("mdtkc:{tournament}:{digest}", digest=DIGEST)
NUDGE_ID = CustomId("mdtn:{tournament}:{round_number}")
CONFIRM_ID = CustomId("mdt:{tournament}:{round_number}:{table}:{digest}", digest=DIGEST)


def _service(interaction: discord.Interaction) -> TournamentService:
    return interaction.client.tournaments  # type: ignore[attr-defined]


def draft_view(record: TournamentRecord) -> discord.ui.View:
    current = record.state.event.rounds[-1]
    view = discord.ui.View(timeout=None)
    for action in ("publish", "repair"):
        view.add_item(DraftButton(record.id, current.number, current.draw, action))
    return view


async def send_draft(interaction: discord.Interaction, record: TournamentRecord) -> None:
    """The draft round, privately to the organiser (after a deferred response), buttons on its last message."""
    if record.state.teams is not None:
        await send_team_draft(interaction, record, draft_view(record))
        return
    catalog = event_catalog(interaction.client, record)
    current = record.state.event.rounds[-1]
    redrawn = f" (draw {current.draw + 1})" if current.draw else ""
    intro = (f"Round {current.number} of **{discord.utils.escape_markdown(record.name)}** is paired{redrawn}: "
             f"{len(current.pairings.tables)} tables, {mission_title(catalog, current.mission)}. Only you see this "
             "draft: **Publish** announces it (players are notified); **Re-pair** draws again among equal players.")
    messages = draft_messages(catalog, record)
    for i, embeds in enumerate(messages):
        last = i == len(messages) - 1
        await interaction.followup.send(intro if i == 0 else "", embeds=embeds, ephemeral=True,
                                        allowed_mentions=discord.AllowedMentions.none(),
                                        **({"view": draft_view(record)} if last else {}))


class ConfirmResult(Persistent, discord.ui.DynamicItem[discord.ui.Button], custom_id=CONFIRM_ID):
    """The opponent's confirmation of one exact report: the custom id carries its digest, so a button
    for a report that was replaced, corrected or belongs to an earlier round is refused."""

    what = "Confirming a result of tournament {tournament}"

    def __init__(self, tournament: int, round_number: int, table: int, digest: str) -> None:
        super().__init__(discord.ui.Button(
            label="Confirm", style=discord.ButtonStyle.success,
            custom_id=self.custom_ids.format(tournament=tournament, round_number=round_number, table=table,
                                             digest=digest),
        ))
        self.tournament, self.round_number, self.table, self.digest = tournament, round_number, table, digest

    async def act(self, interaction: discord.Interaction) -> None:
        service = _service(interaction)
        organiser = is_organiser(interaction, await service.get(self.tournament))
        done = await service.confirm(self.tournament, self.round_number, self.table, self.digest,
                                     str(interaction.user.id), organiser=organiser)
        assert done.result is not None
        text = (f"✅ **{done.record.name}** round {self.round_number}, table {self.table}: "
                f"{score_line(done.record, done.table, done.result)}. "
                f"Confirmed by {interaction.user.mention}.")
        await interaction.response.edit_message(content=text, view=None,
                                                allowed_mentions=discord.AllowedMentions.none())


class DraftButton(Persistent, discord.ui.DynamicItem[discord.ui.Button], custom_id=DRAFT_ID):
    """Publish or Re-pair one exact draw of a draft round (organisers): a button for a draw that was
    re-paired or published since is refused."""

    what = "The draft of tournament {tournament}"

    def __init__(self, tournament: int, round_number: int, draw: int, action: str) -> None:
        publish = action == "publish"
        super().__init__(discord.ui.Button(
            label="Publish" if publish else "Re-pair",
            style=discord.ButtonStyle.success if publish else discord.ButtonStyle.secondary,
            custom_id=self.custom_ids.format(tournament=tournament, round_number=round_number, draw=draw,
                                             action=action),
        ))
        self.tournament, self.round_number, self.draw, self.action = tournament, round_number, draw, action

    async def act(self, interaction: discord.Interaction) -> None:
        service = _service(interaction)
        if not is_organiser(interaction, await service.get(self.tournament)):
            raise GameError("Only an organiser (Manage Server, or the event's organiser role) can publish or "
                            "re-pair a round.")
        await interaction.response.defer(ephemeral=True, thinking=True)  # pairing a big field takes a moment
        if self.action == "repair":
            await send_draft(interaction, await service.repair(self.tournament, self.round_number, self.draw))
            return
        record = await service.publish(self.tournament, self.round_number, self.draw,
                                       channel_id=interaction.channel_id)
        async def answer(text: str, over: bool) -> None:  # then follows the tables as they open
            await interaction.edit_original_response(content=text)
        await open_round(interaction.client, record, interaction.channel, answer)  # type: ignore[arg-type]


class NudgeButton(Persistent, discord.ui.DynamicItem[discord.ui.Button], custom_id=NUDGE_ID):
    """An organiser's reminder to the players a round still waits for, mentioning exactly them."""

    what = "Nudging the players of tournament {tournament}"

    def __init__(self, tournament: int, round_number: int) -> None:
        super().__init__(discord.ui.Button(
            label="Nudge them", style=discord.ButtonStyle.primary,
            custom_id=self.custom_ids.format(tournament=tournament, round_number=round_number)))
        self.tournament, self.round_number = tournament, round_number

    async def act(self, interaction: discord.Interaction) -> None:
        record = await _service(interaction).get(self.tournament)
        if not is_organiser(interaction, record):
            raise GameError("Only an organiser (Manage Server, or the event's organiser role) can nudge players.")
        if len(record.state.event.rounds) != self.round_number:
            raise GameError(f"Round {self.round_number} is over: `/tournament status` shows the current one.")
        messages = nudge_messages(record)
        if not messages:
            raise GameError(f"Every table of round {self.round_number} has its result: nobody to nudge.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        where, _ = await post(interaction.client, record, interaction.channel, messages)  # type: ignore[arg-type]
        count = sum(len(m.users) for m in messages)
        await interaction.followup.send(f"Nudged {count} player{'s' if count != 1 else ''} in {where}.",
                                        ephemeral=True)


class CheckInButton(Persistent, discord.ui.DynamicItem[discord.ui.Button], custom_id=CHECKIN_ID):
    """A registered player's check-in, on the public check-in message."""

    what = "Checking in to tournament {tournament}"

    def __init__(self, tournament: int) -> None:
        super().__init__(discord.ui.Button(label="Check in", style=discord.ButtonStyle.success,
                                           custom_id=self.custom_ids.format(tournament=tournament)))
        self.tournament = tournament

    async def act(self, interaction: discord.Interaction) -> None:
        saved = await _service(interaction).check_in(self.tournament, str(interaction.user.id))
        who = "Your pair is" if saved.state.doubles else "You are"  # either player checks the pair in
        await interaction.response.send_message(f"✅ {who} checked in for **{saved.name}**.", ephemeral=True)


class CloseCheckInButton(Persistent, discord.ui.DynamicItem[discord.ui.Button], custom_id=CLOSE_ID):
    """The organiser's confirmation: close check-in and drop exactly the players they were shown."""

    what = "Closing the check-in of tournament {tournament}"

    def __init__(self, tournament: int, digest: str) -> None:
        super().__init__(discord.ui.Button(label="Drop them and close check-in", style=discord.ButtonStyle.danger,
                                           custom_id=self.custom_ids.format(tournament=tournament, digest=digest)))
        self.tournament, self.digest = tournament, digest

    async def act(self, interaction: discord.Interaction) -> None:
        service = _service(interaction)
        if not is_organiser(interaction, await service.get(self.tournament)):
            raise GameError("Only an organiser (Manage Server, or the event's organiser role) can close check-in.")
        saved = await service.close_checkin(self.tournament, self.digest)
        await interaction.response.edit_message(content=checkin_closed_text(saved), view=None,
                                                allowed_mentions=discord.AllowedMentions.none())
