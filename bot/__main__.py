"""`python -m bot` (or `mission-deck-bot`): check the settings and the decks, then run the bot.

`python -m bot verify FILE` checks a finished game's `/game log` export against its seed instead. Two
commands work on the database named by DATABASE_URL (docs/admins/backups.md):
`python -m bot backup FILE` and `python -m bot migrate-to URL [--replace]`. `python -m bot pages` serves the web
pages alone (docs/admins/web.md).

Every start-up problem a user can fix ends with one clear line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

import discord
from pydantic import ValidationError

from bot.services import verification
from bot.client import make_bot
from bot.decks import DeckError, fourth_edition, grand_tournament, installed_packs, load_catalog, pack_dir
from bot.engine.chapter_approved.catalog import Catalog
from bot.plumbing.settings import Settings
from bot.store.backup import BackupError, backup_sqlite
from bot.store.transfer import TransferError, migrate_to
from bot.web.pages_only import serve_pages

USAGE_ERROR = 2

NO_TOKEN = (
    "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token there "
    "(see README, 'Create the bot application')."
)
BAD_TOKEN = (
    "Discord refused the bot token in DISCORD_TOKEN: copy it again from the Developer Portal "
    "(Bot > Reset Token) into .env."
)


async def run(settings: Settings, catalog: Catalog) -> None:
    """Log in and serve until the connection ends or the task is cancelled."""
    if settings.discord_token is None:
        raise ValueError(NO_TOKEN)
    async with make_bot(settings, catalog) as client:
        await client.start(settings.discord_token.get_secret_value())


def parser() -> argparse.ArgumentParser:
    """No command runs the bot; each command is one subparser."""
    root = argparse.ArgumentParser(prog="python -m bot", description="The Mission Deck Discord bot: with no "
                                   "command, run it (settings from the environment or .env).")
    commands = root.add_subparsers(dest="command", metavar="command")
    check = commands.add_parser("verify", help="check a finished game's /game log export against its seed")
    check.add_argument("file", type=Path, help="the JSON file /game log posted (game-N.json)")
    backup = commands.add_parser("backup", help="copy the SQLite database to FILE while the bot runs")
    backup.add_argument("file", type=Path, metavar="FILE", help="the copy to write (a new file)")
    move = commands.add_parser("migrate-to", help="copy every game and tournament to a PostgreSQL database, "
                               "then check it")
    move.add_argument("url", metavar="URL", help="the PostgreSQL database, e.g. postgresql://user:pw@host:5432/missiondeck")
    move.add_argument("--replace", action="store_true", help="delete what the target already holds first")
    commands.add_parser("pages", help="serve the web pages only, with no Discord connection (WEB_PORT; with "
                        "PostgreSQL, on any machine that reaches the database)")
    return root


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "verify":
        return verification.main(args.file, installed_packs())
    try:
        settings = Settings()
    except ValidationError as exc:
        # A rule over several settings (SHARD_COUNT with SHARD_IDS) has no single field: its message names them.
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])).upper()}: {e['msg']}" if e["loc"] else e["msg"]
                             for e in exc.errors())
        return _fail(f"Invalid setting in the environment or .env: {problems}")
    if args.command == "backup":
        return _backup(settings, args.file)
    if settings.discord_token is None and args.command is None:
        return _fail(NO_TOKEN)
    if args.command == "pages" and settings.web_port is None:
        return _fail("WEB_PORT is not set: the web pages need a port to listen on (and PUBLIC_URL for their links).")

    try:
        catalog = load_catalog(pack_dir(settings.deck_pack))
    except DeckError as exc:
        return _fail(f"The mission pack {settings.deck_pack!r} could not be loaded: {exc}")
    try:
        fourth_edition(), grand_tournament()  # validated at start-up, as the pack is: /mission reads them
    except DeckError as exc:
        return _fail(f"An older mission pack could not be loaded: {exc}")
    if args.command == "migrate-to":
        return _migrate(settings, catalog, args.url, args.replace)

    discord.utils.setup_logging(level=logging.getLevelName(settings.log_level))

    try:
        asyncio.run(serve_pages(settings, catalog) if args.command == "pages" else run(settings, catalog))
    except discord.LoginFailure:
        return _fail(BAD_TOKEN)
    except KeyboardInterrupt:
        pass
    return 0


def _backup(settings: Settings, file: Path) -> int:
    try:
        report = backup_sqlite(settings.database_url, file)
    except BackupError as exc:
        return _fail(str(exc))
    print(f"Backed up {report.games} games and {report.tournaments} tournaments to {report.path} "
          f"({report.size} bytes).")
    return 0


def _migrate(settings: Settings, catalog: Catalog, url: str, replace: bool) -> int:
    try:
        report = asyncio.run(migrate_to(settings.database_url, url, installed_packs(catalog), replace=replace))
    except (TransferError, BackupError) as exc:  # BackupError: DATABASE_URL names no SQLite file
        return _fail(str(exc))
    print(report.summary())
    return 0 if report.ok else 1


def _fail(message: str) -> int:
    print(message, file=sys.stderr)
    return USAGE_ERROR


if __name__ == "__main__":
    sys.exit(main())
