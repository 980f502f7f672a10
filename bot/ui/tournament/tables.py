"""A published round's table threads (a team round's match threads, each with its board), opened in the
background, and closed as their results come in.

Discord opens about one thread a second in a channel, so a round of 150 tables takes minutes in one channel: the
organiser's answer comes at once and is edited as the tables open ("Opening tables: 37 of 150"). Tables open in
table order, in blocks among the channels the organisers named for them (each channel opens its block at Discord's
pace, side by side), each saved with its game as it opens. The round being opened is stored: cut by a restart, the
opening resumes at start-up where it stopped, adopting a thread that opened before the cut (its name says its round
and table) and the game started in it, so no table is ever opened twice.

A table's thread is archived once its result is in, which keeps the server within Discord's count of active
threads (a message in it opens it again); the round's last threads are archived when the next round opens.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable

import discord

from bot.engine.errors import GameError
from bot.engine.tournament import event as tournament
from bot.plumbing.changes import Change
from bot.services.game_log import OVER
from bot.services.team_rounds import team_event
from bot.store.tournament_repository import TournamentRecord
from bot.ui.teams.board import match_thread_name, open_match
from bot.ui.threads import archive
from bot.ui.tournament.posting import archive_table_threads, open_table, table_channels
from bot.ui.tournament.texts import table_thread_name

_log = logging.getLogger(__name__)

PROGRESS_SECONDS = 2.0  # between two edits of the organiser's answer while tables open
Report = Callable[[str, bool], Awaitable[None]]  # the progress in words, and whether the opening is over


class TableThreads:
    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._opening: dict[int, asyncio.Task] = {}  # event -> its opening in progress
        self._next: dict[int, tuple[discord.abc.Messageable | None, Progress]] = {}  # event -> the opening after it
        self._results: dict[int, tuple[int, frozenset[int]]] = {}  # event -> its round, its tables with a result

    # --- opening ------------------------------------------------------------------------------

    def open(self, record: TournamentRecord, fallback: discord.abc.Messageable | None,
             report: Report | None = None, *, head: str = "") -> bool:
        """Open the current round's tables (a team round's matches) still without a thread, in the background,
        `report` told of the progress after `head`; False if an opening of the event is under way already (it opens
        them)."""
        _, total, noun = opening(record)
        progress = Progress(report, head, total, noun)
        if self.busy(record.id):  # a round published while the one before still opens: its turn comes next
            self._next[record.id] = (fallback, progress)
            return False
        self._opening[record.id] = asyncio.get_running_loop().create_task(
            self._run(record.id, fallback, progress), name=f"mission-deck: the tables of event {record.id}")
        return True

    def busy(self, tournament_id: int) -> bool:
        """Whether the event's tables are opening."""
        running = self._opening.get(tournament_id)
        return running is not None and not running.done()

    async def resume(self) -> int:
        """At start-up: the openings a restart cut, in this process's servers, carried on; how many."""
        resumed = 0
        for record in await self.client.tournaments.repo.all_active():  # type: ignore[attr-defined]
            if record.state.opening is None or self.client.get_guild(record.guild_id) is None:
                continue
            if opening(record)[0] != record.state.opening:  # a later round was published meanwhile
                continue
            fallback = self.client.get_channel(record.state.tables_channel_id or 0)
            resumed += self.open(record, fallback if isinstance(fallback, discord.abc.Messageable) else None)
        return resumed

    async def idle(self) -> None:
        """Wait for the openings under way (tests)."""
        await asyncio.gather(*self._opening.values(), return_exceptions=True)

    async def stop(self) -> None:
        """The bot closes: the openings under way stop where they are, for the next start to resume; waited for, as
        a task cancelled inside a database call still closes its connection (before the engine is disposed)."""
        for task in self._opening.values():
            task.cancel()
        await asyncio.gather(*self._opening.values(), return_exceptions=True)

    async def _run(self, tournament_id: int, fallback: discord.abc.Messageable | None, progress: Progress) -> None:
        while True:
            await self._open(tournament_id, fallback, progress)
            if (queued := self._next.pop(tournament_id, None)) is None:
                return
            fallback, progress = queued

    async def _open(self, tournament_id: int, fallback: discord.abc.Messageable | None, progress: Progress) -> None:
        tournaments = self.client.tournaments  # type: ignore[attr-defined]
        record = await tournaments.get(tournament_id)
        number, total, _ = opening(record)
        what = "match threads" if record.state.teams is not None else "table threads"
        try:
            channels = await table_channels(self.client, record, fallback)
            record = await tournaments.set_opening(record.id, number)
            if record.state.teams is not None:
                done = await self._open_matches(record, channels[0], progress)
            else:
                done = await self._open_tables(record, channels, progress)
            await tournaments.set_opening(record.id, None, was=number)
            await progress.finish(done)
        except (GameError, discord.HTTPException) as exc:
            reason = getattr(exc, "text", None) or str(exc)
            _log.info("Opening the %s of event %s stopped: %s", what, tournament_id, reason)
            await progress.finish(f"Stopped after {progress.done} of {total} {what}: {reason} "
                                  "`/tournament tables` opens the rest.")
        except Exception:
            _log.exception("Opening the %s of event %s failed", what, tournament_id)
            await progress.finish(f"Stopped after {progress.done} of {total} {what} by an error of mine (it is in "
                                  "my log): `/tournament tables` opens the rest.")

    async def _open_tables(self, record: TournamentRecord, channels: list[discord.TextChannel],
                           progress: Progress) -> str:
        current = record.state.event.rounds[-1]
        tables = sorted(current.pairings.tables, key=lambda p: p.table)
        linked = {g.table for g in record.state.table_games if g.round_number == current.number}
        progress.done = len(linked)
        blocks = spread(tables, channels)
        existing = await self._threads_of(channels, record, f"R{current.number} · ")
        failures = [f for f in await asyncio.gather(
            *(self._open_block(record.id, current.number, channel, [p for p in block if p.table not in linked],
                               existing, progress) for channel, block in blocks),
            return_exceptions=True) if f is not None]
        if failures:
            raise failures[0]
        archived = await archive_table_threads(self.client, record, current.number - 1)
        return opened_text(record, current.number, blocks, archived)

    async def _open_matches(self, record: TournamentRecord, channel: discord.TextChannel, progress: Progress) -> str:
        """A team round: a thread a match with its board, in match order, those with a board already kept."""
        current = team_event(record).rounds[-1]
        boarded = {b.match for b in record.state.match_boards if b.round_number == current.number}
        progress.done = len(boarded)
        existing = await self._threads_of([channel], record, f"R{current.number} ")
        for pair in current.matches:
            if pair.number not in boarded:
                record = await self.client.tournaments.get(record.id)  # type: ignore[attr-defined]
                place = existing.get(match_thread_name(record, current.number, pair))
                await open_match(self.client, record, channel, current.number, pair, place)
                await progress.one_more()
        count = len(current.matches)
        return (f"Opened the {count} match thread{'s' if count != 1 else ''} of round {current.number} in "
                f"<#{channel.id}>, each with its pairing board.")

    async def _open_block(self, tournament_id: int, number: int, channel: discord.TextChannel,
                          block: list[tournament.Pairing], existing: dict[str, discord.Thread],
                          progress: Progress) -> None:
        tournaments = self.client.tournaments  # type: ignore[attr-defined]
        for pairing in block:
            record = await tournaments.get(tournament_id)  # names and lists as they are now
            place = existing.get(table_thread_name(record, number, pairing))
            link = await open_table(self.client, record, channel, number, pairing, place=place)
            await tournaments.link_games(tournament_id, [link])
            await progress.one_more()

    async def _threads_of(self, channels: list[discord.TextChannel], record: TournamentRecord,
                          prefix: str) -> dict[str, discord.Thread]:
        """The bot's active threads in the table channels, named from `prefix`, that no table or match links to yet,
        by name: those a cut opening left behind."""
        assert self.client.user is not None
        linked = {g.thread_id for g in record.state.table_games} | {b.thread_id for b in record.state.match_boards}
        ids = {c.id for c in channels}
        found = await channels[0].guild.active_threads()
        return {t.name: t for t in found if t.parent_id in ids and t.owner_id == self.client.user.id
                and t.id not in linked and t.name.startswith(prefix)}

    # --- closing ------------------------------------------------------------------------------

    async def on_change(self, change: Change) -> None:
        """A subscriber of the change stream: a table whose result an organiser entered or a report confirmed has
        its thread archived (a table game's own end archives its thread after saying what was recorded)."""
        if change.kind != "event" or change.what != "event":
            return
        try:
            record = await self.client.tournaments.get(change.id)  # type: ignore[attr-defined]
        except GameError:
            return
        if not record.state.event.rounds or self.client.get_guild(record.guild_id) is None:
            return
        current = record.state.event.rounds[-1]
        now = frozenset(r.table for r in current.results)
        seen = self._results.get(record.id)
        self._results[record.id] = (current.number, now)
        if seen is None:  # first seen since the start: what was in before has been archived already
            return
        before = seen[1] if seen[0] == current.number else frozenset()
        for link in record.state.table_games:
            if link.round_number == current.number and link.table in now - before \
                    and not await self._game_over(link.game_id):
                await archive(self.client, link.thread_id, f"{record.name}: table {link.table}'s result is in")

    async def _game_over(self, game_id: int) -> bool:
        game = await self.client.service.repo.get_game(game_id)  # type: ignore[attr-defined]
        return game is not None and game.state.status in OVER


class Progress:
    """The organiser's answer while tables open, `head` first: edited every PROGRESS_SECONDS at most, and at the end."""

    def __init__(self, report: Report | None, head: str, total: int, noun: str = "tables") -> None:
        self.report, self.head, self.total, self.noun = report, head, total, noun
        self.done = 0
        self._shown = time.monotonic()  # the answer says "0 of ..." as the opening starts

    async def one_more(self) -> None:
        self.done += 1
        if self.report is not None and time.monotonic() - self._shown >= PROGRESS_SECONDS:
            self._shown = time.monotonic()
            await self._say(f"Opening {self.noun}: {self.done} of {self.total}.", False)

    async def finish(self, text: str) -> None:
        if self.report is not None:
            await self._say(text, True)

    async def _say(self, text: str, over: bool) -> None:
        try:
            await self.report(f"{self.head} {text}".strip(), over)  # type: ignore[misc]
        except discord.HTTPException:  # the answer's token ran out (15 minutes): the tables open all the same
            _log.info("Could not show the tables' progress: %s", text)


def opening(record: TournamentRecord) -> tuple[int, int, str]:
    """The current round's number, how many threads it opens, and what they are called in its progress."""
    if record.state.teams is not None:
        matches = team_event(record).rounds
        return (matches[-1].number, len(matches[-1].matches), "match threads") if matches else (0, 0, "")
    rounds = record.state.event.rounds
    return (rounds[-1].number, len(rounds[-1].pairings.tables), "tables") if rounds else (0, 0, "")


def unopened(record: TournamentRecord) -> int:
    """How many threads the published current round still lacks: its tables', or a team round's matches'."""
    if record.state.teams is not None:
        rounds = team_event(record).rounds
        if not rounds or not rounds[-1].published:
            return 0
        boarded = {b.match for b in record.state.match_boards if b.round_number == rounds[-1].number}
        return sum(pair.number not in boarded for pair in rounds[-1].matches)
    current = record.state.event.rounds[-1] if record.state.event.rounds else None
    if current is None or not current.published:
        return 0
    linked = {g.table for g in record.state.table_games if g.round_number == current.number}
    return sum(p.table not in linked for p in current.pairings.tables)


def spread(tables: list[tournament.Pairing],
           channels: list[discord.TextChannel]) -> list[tuple[discord.TextChannel, list[tournament.Pairing]]]:
    """The tables in table order, in blocks among the channels: the first block in the first channel."""
    size = max(1, math.ceil(len(tables) / len(channels)))
    return [(channel, tables[i * size:(i + 1) * size]) for i, channel in enumerate(channels) if tables[i * size:]]


def span(block: list[tournament.Pairing]) -> str:
    return f"table {block[0].table}" if len(block) == 1 else f"tables {block[0].table}–{block[-1].table}"


def opened_text(record: TournamentRecord, number: int,
                blocks: list[tuple[discord.TextChannel, list[tournament.Pairing]]], archived: int) -> str:
    """Where the round's tables opened, block by block."""
    if not blocks:
        return f"Round {number} has no table to open (only a bye)."
    count = sum(len(b) for _, b in blocks)
    opened = f"Opened the {count} table thread{'s' if count != 1 else ''} of round {number}"
    if len(blocks) == 1:
        opened += f" in <#{blocks[0][0].id}>"
    else:
        opened += ": " + ", ".join(f"{span(block)} in <#{channel.id}>" for channel, block in blocks)
    tidied = f" Archived {archived} table thread{'s' if archived != 1 else ''} of round {number - 1} still open." \
        if archived else ""
    return f"{opened}, each with its game ready.{tidied}"
