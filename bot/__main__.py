"""`python -m bot` (or `mission-deck-bot`): check the settings and the decks, then run the bot.

`python -m bot verify FILE` checks a finished game's `/game log` export against its seed instead.
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

from bot import verify
from bot.client import make_bot
from bot.decks import DeckError, default_catalog, load_catalog, pack_dir
from bot.engine.catalog import Catalog
from bot.settings import Settings

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
    return root


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "verify":
        return verify.main(args.file, default_catalog())
    return run_bot()


def run_bot() -> int:
    try:
        settings = Settings()
    except ValidationError as exc:
        # A rule over several settings (SHARD_COUNT with SHARD_IDS) has no single field: its message names them.
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])).upper()}: {e['msg']}" if e["loc"] else e["msg"]
                             for e in exc.errors())
        return _fail(f"Invalid setting in the environment or .env: {problems}")
    if settings.discord_token is None:
        return _fail(NO_TOKEN)

    try:
        catalog = load_catalog(pack_dir(settings.deck_pack))
    except DeckError as exc:
        return _fail(f"The mission pack {settings.deck_pack!r} could not be loaded: {exc}")

    discord.utils.setup_logging(level=logging.getLevelName(settings.log_level))

    try:
        asyncio.run(run(settings, catalog))
    except discord.LoginFailure:
        return _fail(BAD_TOKEN)
    except KeyboardInterrupt:
        pass
    return 0


def _fail(message: str) -> int:
    print(message, file=sys.stderr)
    return USAGE_ERROR


if __name__ == "__main__":
    sys.exit(main())
