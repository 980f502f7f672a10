"""`python -m bot pages`: the web pages without a Discord connection, over the bot's database. With PostgreSQL it
serves the pages of games played through any bot process (their changes come by LISTEN/NOTIFY), so the pages can
run on a machine of their own. It changes no game or event."""

from __future__ import annotations

import asyncio
import logging

from bot.plumbing.changes import ChangeStream
from bot.engine.chapter_approved.catalog import Catalog
from bot.services.judges import JudgeService
from bot.services.games import GameService
from bot.plumbing.settings import Settings
from bot.store.db import is_postgres, make_engine, make_sessionmaker, upgrade_database
from bot.services.teams import TeamService
from bot.store.desk import DeskRepository
from bot.store.shares import ShareRepository
from bot.services.tournaments import TournamentService
from bot.web.discord_api import DiscordApi
from bot.web.limits import RateLimits
from bot.web.server import WebSurface

_log = logging.getLogger(__name__)


async def serve_pages(settings: Settings, catalog: Catalog, *, ready: asyncio.Event | None = None) -> None:
    """Serve until cancelled. `settings.web_port` is required."""
    assert settings.web_port is not None
    await upgrade_database(settings.database_url)
    engine = make_engine(settings.database_url)
    sessions = make_sessionmaker(engine)
    changes = ChangeStream()
    if is_postgres(settings.database_url):
        from bot.plumbing.change_relay import PgRelay  # asyncpg: installed with the postgres extra
        await changes.connect(PgRelay(settings.database_url))
    service = GameService(catalog, sessions, changes=changes)
    tournaments = TournamentService(sessions, changes=changes)
    web = WebSurface(service, tournaments, ShareRepository(sessions), teams=TeamService(tournaments),
                     judges=JudgeService(sessions, changes=changes), desks=DeskRepository(sessions),
                     public_url=settings.web_url, limits=RateLimits.of(settings), discord=DiscordApi.of(settings, None))
    await web.start(settings.web_host, settings.web_port)
    if ready is not None:
        ready.set()
    try:
        await asyncio.Event().wait()
    finally:
        await web.stop()
        await changes.close()
        await engine.dispose()
