"""Games and tournaments stored by an earlier version keep loading and replaying after every change.

The fixture is a real database written by the version-1 bot (tests/fixtures/README.md); it is upgraded
by the Alembic migrations exactly as a user's database is at start-up.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.decks import default_catalog
from bot.engine.actions import SpendCp
from bot.engine.game import replay
from bot.engine.state import Status
from bot.service import GameService
from bot.store.db import make_engine, make_sessionmaker, upgrade_database
from bot.store.repository import GameRepository
from bot.tournament_service import TournamentService

FIXTURE = Path(__file__).parent.parent / "fixtures" / "stored_v1.sql"
CATALOG = default_catalog()
GAME_IDS = range(1, 9)


@pytest.fixture
async def stored(tmp_path):
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.executescript(FIXTURE.read_text())
    url = f"sqlite+aiosqlite:///{path}"
    await upgrade_database(url)
    engine = make_engine(url)
    yield make_sessionmaker(engine)
    await engine.dispose()


async def test_every_stored_game_loads_as_a_version_1_game(stored):
    repo = GameRepository(stored)
    for game_id in GAME_IDS:
        record = await repo.get_game(game_id)
        assert record.setup.version == 1
        assert record.state.setup == record.setup


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_every_stored_game_replays_to_its_snapshot(stored, game_id):
    repo = GameRepository(stored)
    record = await repo.get_game(game_id)
    log = await repo.list_actions(game_id)
    assert replay(CATALOG, record.setup, [e.action for e in log]) == record.state


async def test_the_stored_game_in_progress_can_be_played_on_and_undone(stored):
    service = GameService(CATALOG, stored)
    record = await service.get_state(game_id=8)
    assert record.state.status == Status.BATTLE
    spender = next(p for p in record.state.players if p.cp > 0)
    spent = await service.act(SpendCp(actor=spender.id, amount=1, reason="Grenade"), game_id=8)
    assert spent.state.player(spender.id).cp == spender.cp - 1
    undone = await service.undo(record.channel_id, spender.id)
    assert undone.state == record.state
    assert undone.version == record.version + 2


async def test_the_stored_tournament_loads_with_its_pending_report(stored):
    service = TournamentService(stored)
    record = await service.current(1)
    assert [r.number for r in record.state.event.rounds] == [1, 2]
    assert len(record.state.pending) == 1
    assert record.state.names
