"""A round just published, as Discord shows it: the announcement, then the table threads with their games opening in
the background (a team round's match threads with their boards), the round before's threads archived. The Publish
button runs it at once; an organiser's desk asks for it on the change stream (bot/ui/tournament/requests.py)."""

from __future__ import annotations

import discord

from bot.store.tournament_repository import TournamentRecord
from bot.ui.teams.board import announce_team_round
from bot.ui.tournament.posting import announce, announcement_channel
from bot.ui.tournament.tables import Report, opening
from bot.ui.tournament.texts import announced_text


async def open_round(client: discord.Client, record: TournamentRecord, fallback: discord.abc.Messageable | None,
                     report: Report | None = None) -> str:
    """A round just published, in Discord: announced in the event's channel (else `fallback`), and a thread a table
    with its game opening in the background (a team round: a thread a match, with its pairing board). What was done,
    in words for the organiser: returned, and told to `report` as it goes, which then hears the threads' progress."""
    number, total, noun = opening(record)
    if report is not None:  # a big round's announcement waits on its channel's allowance: say so at once
        await report(f"Round {number} is published: announcing it…", False)
    if record.state.teams is not None:
        done, threads = await announce_team_round(client, record, fallback), True
    else:
        threads = bool(record.state.table_channels) or isinstance(
            await announcement_channel(client, record, fallback), discord.TextChannel)
        where, count = await announce(client, record, fallback, tables_pinged=threads)
        done = f"Round {number} is published. {announced_text(record, where, count)}"
    answer = f"{done} Opening {noun}: 0 of {total}." if threads else done
    if report is not None:
        await report(answer, False)
    if threads:  # after the answer, which the progress then replaces
        client.tables.open(record, fallback, report, head=done)  # type: ignore[attr-defined]
    return answer
