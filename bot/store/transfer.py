"""`python -m bot migrate-to URL`: copy every game and tournament from SQLite to PostgreSQL, then check it.

Run it with the bot stopped (what the bot writes after the copy would stay behind). Both databases are
first brought to the latest schema by the Alembic migrations, as the bot does at start-up. Every table
is copied row by row with its ids, in one transaction, so buttons on boards already posted in Discord
(which carry game ids) keep working; the target's id sequences are then moved past every id SQLite ever
gave, as SQLite never reuses one. Then each game is read back from the target through the repository and
its action log replayed from its setup: the replay must equal the copied snapshot, and each copied row
must equal its original.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Table, delete, func, insert, select, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlmodel import SQLModel

from bot.engine.packs import Packs
from bot.store import metadata
from bot.store.backup import sqlite_file
from bot.store.codec import SnapshotError
from bot.store.db import async_url, make_engine, make_sessionmaker, upgrade_database
from bot.store.repository import GameRepository
from bot.store.tournament_repository import TournamentRepository

BATCH = 500  # rows per INSERT round trip
TABLES: Sequence[Table] = metadata().sorted_tables  # every table, parents before children
# the database hands out their ids
SERIAL_TABLES = ("game", "tournament", "open_challenge", "reminder", "ladder", "judge_call", "share_link", "army_list",
                 "desk_log")


class TransferError(Exception):
    """Why nothing was copied, for the user."""


@dataclass
class TransferReport:
    target: str
    rows: dict[str, int] = field(default_factory=dict)  # table -> rows copied
    replayed: int = 0
    mismatches: list[str] = field(default_factory=list)  # one line per game or row that differs

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def summary(self) -> str:
        copied = ", ".join(f"{n} {table}" for table, n in self.rows.items())
        lines = [f"Copied to {self.target}: {copied}.",
                 f"Replayed {self.replayed} games from their action logs."]
        if self.ok:
            lines.append("Every replay equals its copied snapshot and every row its original: the copy is good.")
        else:
            lines.append(f"{len(self.mismatches)} problem(s) found; the target keeps the copy for inspection:")
            lines += [f"  - {m}" for m in self.mismatches]
        return "\n".join(lines)


async def migrate_to(source_url: str, target_url: str, packs: Packs, *, replace: bool = False) -> TransferReport:
    """Copy the SQLite database at `source_url` into the PostgreSQL database at `target_url` and check it.

    A target that already holds games or tournaments is refused, unless `replace` (they are deleted first).
    """
    if async_url(source_url).get_backend_name() != "sqlite":
        raise TransferError("migrate-to copies from a SQLite DATABASE_URL; this one is not SQLite.")
    if async_url(target_url).get_backend_name() != "postgresql":
        raise TransferError("migrate-to copies into PostgreSQL: give a postgresql:// URL.")
    shown = async_url(target_url).render_as_string(hide_password=True)
    if not (path := sqlite_file(source_url)).is_file():
        raise TransferError(f"There is no SQLite database at {path}: check DATABASE_URL.")
    await upgrade_database(source_url)
    try:
        await upgrade_database(target_url)
    except (OSError, SQLAlchemyError) as exc:
        raise TransferError(f"Could not open the target database {shown}: {exc}") from None
    source, target = make_engine(source_url), make_engine(target_url)
    report = TransferReport(shown)
    try:
        async with source.connect() as reader, target.begin() as writer:
            held = {t.name: await _count(writer, t) for t in TABLES}
            if any(held.values()) and not replace:
                raise TransferError(
                    f"The target already holds {_listing(held)}: migrate-to copies into an empty database. "
                    "Pass --replace to delete what it holds first.")
            for table in reversed(TABLES):  # children first
                await writer.execute(delete(table))
            for table in TABLES:
                report.rows[table.name] = await _copy(reader, writer, table)
            await _move_sequences(reader, writer)
        await _check(source, target, packs, report)
    finally:
        await source.dispose()
        await target.dispose()
    return report


async def _count(conn: AsyncConnection, table: Table) -> int:
    return (await conn.execute(select(func.count()).select_from(table))).scalar_one()


def _listing(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {table} row(s)" for table, n in counts.items() if n)


async def _rows(conn: AsyncConnection, table: Table) -> AsyncIterator[list[dict[str, Any]]]:
    async with conn.stream(select(table).order_by(*table.primary_key.columns)) as result:
        async for batch in result.mappings().partitions(BATCH):
            yield [dict(row) for row in batch]


async def _same_rows(original: AsyncConnection, copy: AsyncConnection, table: Table) -> bool:
    async with aclosing(_rows(original, table)) as originals, aclosing(_rows(copy, table)) as copies:
        async for batch in originals:
            if batch != await anext(copies, None):
                return False
        return await anext(copies, None) is None


async def _copy(reader: AsyncConnection, writer: AsyncConnection, table: Table) -> int:
    copied = 0
    async for batch in _rows(reader, table):
        await writer.execute(insert(table), batch)
        copied += len(batch)
    return copied


async def _move_sequences(reader: AsyncConnection, writer: AsyncConnection) -> None:
    """Next ids on PostgreSQL: past the highest id SQLite ever handed out (sqlite_sequence), deleted ones too."""
    handed_out = dict((await reader.execute(text("SELECT name, seq FROM sqlite_sequence"))).all())
    for name in SERIAL_TABLES:
        table = SQLModel.metadata.tables[name]
        highest = max(handed_out.get(name, 0), (await reader.execute(select(func.max(table.c.id)))).scalar() or 0)
        if highest:
            await writer.execute(text("SELECT setval(pg_get_serial_sequence(:t, 'id'), :n)"),
                                 {"t": name, "n": highest})


async def _check(source: AsyncEngine, target: AsyncEngine, packs: Packs, report: TransferReport) -> None:
    """Every copied row equals its original; every game replays to its snapshot; every tournament loads."""
    async with source.connect() as original, target.connect() as copy:
        for table in TABLES:
            if not await _same_rows(original, copy, table):
                report.mismatches.append(f"table {table.name}: the copied rows differ from the originals")
        game_ids = (await copy.execute(text("SELECT id FROM game ORDER BY id"))).scalars().all()
        tournament_ids = (await copy.execute(text("SELECT id FROM tournament ORDER BY id"))).scalars().all()
    sessions = make_sessionmaker(target)
    games, tournaments = GameRepository(sessions), TournamentRepository(sessions)
    for game_id in game_ids:
        try:
            record = await games.get_game(game_id)
            if record is None:
                raise LookupError("deleted while it was checked")
            log = await games.list_actions(game_id)
            replayed = packs.replay(record.setup, [entry.action for entry in log])
        except Exception as exc:  # whatever stops a game from replaying is a finding to report, not a crash
            report.mismatches.append(f"game {game_id}: cannot be read or replayed ({type(exc).__name__}: {exc})")
            continue
        report.replayed += 1
        if replayed != record.state:
            report.mismatches.append(
                f"game {game_id} (channel {record.channel_id}): replaying its {len(log)} actions does not give "
                "its stored snapshot")
    for tournament_id in tournament_ids:
        try:
            await tournaments.get(tournament_id)  # reads and validates its state
        except SnapshotError as exc:
            report.mismatches.append(f"tournament {tournament_id}: {exc}")
