"""A round just published, as Discord shows it: the announcement, the table threads with their games (a team
round's match threads with their boards), the round before's threads archived. The Publish button runs it at once;
an organiser's desk asks for it on the change stream (bot/ui/tournament/requests.py)."""

from __future__ import annotations

import discord

from bot.store.tournament_repository import TournamentRecord
from bot.ui.teams.board import publish_team_round
from bot.ui.tournament.posting import announce, announcement_channel, archive_table_threads, open_table_threads
from bot.ui.tournament.texts import announced_text


async def open_round(client: discord.Client, record: TournamentRecord,
                     fallback: discord.abc.Messageable | None) -> str:
    """A round just published, in Discord: announced in the event's channel (else `fallback`), a thread a table with
    its game (a team round: a thread a match, with its pairing board), the round before's threads archived; what
    was done, in words for the organiser."""
    if record.state.teams is not None:
        return await publish_team_round(client, record, fallback)
    number = record.state.event.rounds[-1].number
    threads = isinstance(await announcement_channel(client, record, fallback), discord.TextChannel)
    where, count = await announce(client, record, fallback, tables_pinged=threads)
    _, opened = await open_table_threads(client, record, fallback)
    archived = await archive_table_threads(client, record, number - 1)
    tidied = f" Archived the {archived} table threads of round {number - 1}." if archived else ""
    return (f"Round {number} is published. {announced_text(record, where, count)} Opened {opened} table "
            f"thread{'s' if opened != 1 else ''} there, each with its game ready.{tidied}")
