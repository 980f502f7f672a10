"""`python -m bot backup FILE`: a consistent copy of the SQLite database, taken while the bot runs.

SQLite's online backup API copies the database inside one read transaction, so the copy is the database
as it stood at one instant, every game with its action log, even while the bot keeps writing (in WAL mode
readers never block the writer, nor the writer them). Copying the file with `cp` could catch a write
half-way or miss what is still in the -wal file.

PostgreSQL has its own tool for the same job, pg_dump (docs/admins/backups.md).
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

from bot.store.db import SQLITE_BUSY_TIMEOUT_MS, async_url

PG_DUMP_HINT = (
    "DATABASE_URL points at PostgreSQL: back it up with PostgreSQL's own tool, for example "
    "`pg_dump --format=custom --file=missiondeck.dump postgresql://USER@HOST:5432/DBNAME`, "
    "and restore with `pg_restore --clean --if-exists --dbname=postgresql://USER@HOST:5432/DBNAME "
    "missiondeck.dump` (docs/admins/backups.md)."
)


class BackupError(Exception):
    """Why no back-up was made, for the user."""


@dataclass(frozen=True)
class BackupReport:
    path: Path
    size: int
    games: int
    tournaments: int


def sqlite_file(url: str) -> Path:
    """The file behind a SQLite DATABASE_URL; BackupError for PostgreSQL or a database in memory."""
    parsed = async_url(url)
    if parsed.get_backend_name() != "sqlite":
        raise BackupError(PG_DUMP_HINT)
    if parsed.database in (None, "", ":memory:"):
        raise BackupError("DATABASE_URL names an in-memory SQLite database: there is no file to back up.")
    return Path(parsed.database)


def backup_sqlite(url: str, target: Path) -> BackupReport:
    """Copy the SQLite database of `url` to `target` (a new file), consistent as of one instant."""
    source = sqlite_file(url)
    if not source.is_file():
        raise BackupError(f"There is no database at {source} (DATABASE_URL {make_url(url)!s}).")
    if target.exists():
        raise BackupError(f"{target} already exists: give the name of a new file.")
    partial = target.with_name(target.name + ".partial")  # never leaves a half-written file under the name
    try:
        with closing(sqlite3.connect(source, timeout=SQLITE_BUSY_TIMEOUT_MS / 1000)) as db, \
                closing(sqlite3.connect(partial)) as copy:
            db.backup(copy)  # all pages in one step: one read transaction, one instant
            games, tournaments = _counts(copy)
            if copy.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise BackupError(f"The copy of {source} failed SQLite's integrity check; nothing was kept.")
        os.replace(partial, target)
    except sqlite3.Error as exc:
        raise BackupError(f"SQLite could not copy {source}: {exc}") from None
    finally:
        partial.unlink(missing_ok=True)
    return BackupReport(target, target.stat().st_size, games, tournaments)


def _counts(copy: sqlite3.Connection) -> tuple[int, int]:
    tables = {name for (name,) in copy.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    games = copy.execute("SELECT count(*) FROM game").fetchone()[0] if "game" in tables else 0
    tournaments = copy.execute("SELECT count(*) FROM tournament").fetchone()[0] if "tournament" in tables else 0
    return games, tournaments
