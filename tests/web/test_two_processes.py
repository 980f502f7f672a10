"""Two processes over one PostgreSQL: a press handled by one updates a page served by the other, through the
database's LISTEN/NOTIFY (bot/plumbing/change_relay.py). The other is `python -m bot pages`, a process of its own."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.plumbing.changes import ChangeStream
from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.state import GameSetup
from bot.services.games import GameService
from bot.store.db import make_engine, make_sessionmaker, upgrade_database
from bot.plumbing.change_relay import PgRelay
from bot.store.share_models import ShareKind
from bot.store.shares import ShareRepository
from tests.store.conftest import ALICE, BOB, scratch_postgres
from tests.web.conftest import Stream, free_port

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def postgres_url():
    async for url in scratch_postgres(None):
        yield url


async def started(port: int, process: subprocess.Popen, http: aiohttp.ClientSession) -> None:
    for _ in range(200):
        if process.poll() is not None:
            raise AssertionError(f"python -m bot pages stopped: {process.stderr.read().decode()[-2000:]}")
        try:
            async with http.get(f"http://127.0.0.1:{port}/static/live.js") as response:
                if response.status == 200:
                    return
        except aiohttp.ClientConnectionError:
            pass
        await asyncio.sleep(0.1)
    raise AssertionError("python -m bot pages did not start in 20 seconds")


async def test_a_press_in_one_process_updates_a_page_served_by_another(
    postgres_url: str, catalog: Catalog, tmp_path: Path
) -> None:
    await upgrade_database(postgres_url)
    engine = make_engine(postgres_url)
    changes = ChangeStream()
    await changes.connect(PgRelay(postgres_url))
    service = GameService(catalog, make_sessionmaker(engine), changes=changes)
    started_game = await service.start_game(None, 1, GameSetup(size="strike-force", players=(ALICE, BOB),
                                                               names=("Alice", "Bob"), seed="two-processes"))
    token = await ShareRepository(make_sessionmaker(engine)).create(ShareKind.GAME, started_game.game_id,
                                                                    guild_id=None, created_by=ALICE)
    port = free_port()
    env = {**os.environ, "DATABASE_URL": postgres_url, "WEB_PORT": str(port), "PYTHONPATH": str(ROOT)}
    pages = subprocess.Popen([sys.executable, "-m", "bot", "pages"], cwd=tmp_path, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        async with aiohttp.ClientSession() as http:
            await started(port, pages, http)
            async with http.get(f"http://127.0.0.1:{port}/g/{token}/stream") as response:
                stream = Stream(response)
                seen = await stream.model()
                assert seen["version"] == started_game.version
                winner = started_game.state.sides_rolloff.winner
                acted = await service.act(a.ChooseSide(actor=winner, side="attacker"), game_id=started_game.game_id)
                seen = await stream.model(after=seen["version"])
                assert seen["version"] == acted.version
                assert seen["players"][[ALICE, BOB].index(winner)]["role"] == "Attacker"
    finally:
        pages.terminate()
        pages.wait(10)
        await changes.close()
        await engine.dispose()
