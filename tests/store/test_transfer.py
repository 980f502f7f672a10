"""`python -m bot migrate-to URL`: every game and tournament copied from SQLite to PostgreSQL, then replayed.

The source holds the version-1 fixture (tests/fixtures/stored_v1.sql: eight games, a tournament) and games
played by this version (a finished one, one in progress with an undo and board messages). The PostgreSQL
tests run when TEST_POSTGRES_URL is set and skip otherwise.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.__main__ import main
from bot.decks import installed_packs
from bot.engine.moves import SpendCp
from bot.engine.table.state import Step, TableSetup
from bot.services.games import GameService
from bot.armies.check import read_list
from bot.store.db import make_engine, make_sessionmaker
from bot.store.share_models import ShareKind
from bot.store.shares import ShareRepository
from bot.store.transfer import TransferError, migrate_to
from bot.services.tournaments import TournamentService
from tests.store.conftest import scratch_postgres, scripted_table_game, stored_v1_database

OLD_GAMES = 8
ARMY_LIST = "Necrons\nStrike Force (2000 points)\nAwakened Dynasty\n\nNecron Warriors (90 points)\n  • 10x Necron Warrior\n"
PACKS = installed_packs()


@pytest.fixture
async def source(tmp_path: Path, catalog, setup, play) -> str:
    """A SQLite database as a user has it: the version-1 fixture upgraded, then new games played."""
    url = await stored_v1_database(tmp_path / "bot.db")
    engine = make_engine(url)
    service = GameService(catalog, make_sessionmaker(engine))
    finished = setup.model_copy(update={"seed": "move-finished", "twist": True})
    await service.start_game(7, 900, finished)
    for action in play(finished, scores_per_turn=3):
        await service.act(action, channel_id=900)
    ongoing = setup.model_copy(update={"seed": "move-ongoing"})
    started = await service.start_game(7, 901, ongoing)
    for action in play(ongoing)[:12]:
        await service.act(action, channel_id=901)
    spender = next(p for p in (await service.get_state(channel_id=901)).state.players if p.cp > 0)
    await service.act(SpendCp(actor=spender.id, amount=1, reason="Grenade"), channel_id=901)
    await service.undo(901, spender.id)
    await service.repo.add_board_message(started.game_id, 901, 1_400_000_000_000_000_001)
    # A share link and a kept list, whose ids the database hands out too.
    await ShareRepository(make_sessionmaker(engine)).create(ShareKind.GAME, started.game_id, guild_id=7,
                                                            created_by=spender.id)
    kept, checked = read_list(ARMY_LIST, file=None, faction=None, detachment=None)
    await service.lists.add(owner=spender.id, guild_id=7, text=kept, checked=checked)
    # A Grand Tournament 2020 game in progress: its pack's rules replay it after the move.
    gt = TableSetup(pack="gt-2020", players=setup.players, names=setup.names, size="incursion", seed="move-gt")
    await service.start_game(7, 904, gt)
    for action in scripted_table_game(service.packs.rules("gt-2020"), gt, scores_per_turn=2)[:20]:
        await service.act(action, channel_id=904)
    # A deleted game: its id must never be handed out again, on PostgreSQL either.
    doomed = await service.start_game(7, 902, setup.model_copy(update={"seed": "move-deleted"}))
    async with engine.begin() as conn:
        await conn.execute(text("DELETE FROM game WHERE id = :id"), {"id": doomed.game_id})
    await engine.dispose()
    return url


@pytest.fixture
async def target():
    """An empty PostgreSQL database, without even the tables (migrate-to runs the migrations)."""
    async for url in scratch_postgres(None):
        yield url


async def test_every_game_and_tournament_is_copied_and_replays(source: str, target: str, catalog, setup):
    report = await migrate_to(source, target, PACKS)
    assert report.ok, report.summary()
    assert report.rows["game"] == OLD_GAMES + 3 and report.replayed == OLD_GAMES + 3
    assert report.rows["tournament"] == 1 and report.rows["board_message"] >= 1
    assert report.rows["game_action"] > 300
    assert "the copy is good" in report.summary()

    engine = make_engine(target)
    try:
        service = GameService(catalog, make_sessionmaker(engine))
        ongoing = await service.get_state(channel_id=901)
        assert [m.message_id for m in await service.repo.board_messages(ongoing.id)] == [1_400_000_000_000_000_001]
        spender = next(p for p in ongoing.state.players if p.cp > 0)
        played = await service.act(SpendCp(actor=spender.id, amount=1, reason="Grenade"), channel_id=901)
        assert played.version == ongoing.version + 1
        old = await service.get_state(game_id=8)  # the version-1 game in progress plays on too
        assert old.setup.version == 1
        # New ids continue after every id SQLite handed out, the deleted game's included.
        fresh = await service.start_game(7, 903, setup.model_copy(update={"seed": "after-the-move"}))
        assert fresh.game_id == OLD_GAMES + 5
        gt = await service.get_state(channel_id=904)
        assert gt.pack == "gt-2020" and gt.state.status == Step.BATTLE
        tournament = await TournamentService(make_sessionmaker(engine)).current(1)
        assert len(tournament.state.pending) == 1
        # A share link and a list made after the move take ids after the copied ones.
        assert await ShareRepository(make_sessionmaker(engine)).create(ShareKind.GAME, fresh.game_id, guild_id=7,
                                                                       created_by="1")
        kept, checked = read_list(ARMY_LIST, file=None, faction=None, detachment=None)
        assert await service.lists.add(owner="1", guild_id=7, text=kept, checked=checked) == 2
    finally:
        await engine.dispose()


async def test_a_target_holding_games_is_refused_unless_replaced(source: str, target: str, catalog):
    assert (await migrate_to(source, target, PACKS)).ok
    with pytest.raises(TransferError, match=r"already holds .*11 game row\(s\).*--replace"):
        await migrate_to(source, target, PACKS)
    again = await migrate_to(source, target, PACKS, replace=True)
    assert again.ok and again.rows["game"] == OLD_GAMES + 3


async def test_a_game_that_does_not_replay_to_its_snapshot_fails_the_check(source: str, target: str, catalog):
    """A snapshot out of step with its log (here: CP edited by hand) is reported, and the command fails."""
    with sqlite3.connect(source.removeprefix("sqlite+aiosqlite:///")) as db:
        (state_json,) = db.execute("SELECT state_json FROM game WHERE channel_id = 900").fetchone()
        state = json.loads(state_json)
        state["players"][0]["cp"] += 5
        db.execute("UPDATE game SET state_json = ? WHERE channel_id = 900", (json.dumps(state),))
    report = await migrate_to(source, target, PACKS)
    assert not report.ok
    [finding] = report.mismatches
    assert re.fullmatch(rf"game {OLD_GAMES + 1} \(channel 900\): replaying its \d+ actions does not give its "
                        "stored snapshot", finding)
    assert "1 problem(s) found" in report.summary()


async def test_the_command(source: str, target: str, monkeypatch: pytest.MonkeyPatch, capsys, tmp_path: Path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("DATABASE_URL", source)
    assert await asyncio.to_thread(main, ["migrate-to", target]) == 0
    out = capsys.readouterr().out
    assert "11 game" in out and "Replayed 11 games" in out and "the copy is good" in out
    assert await asyncio.to_thread(main, ["migrate-to", target]) == 2
    assert "--replace" in capsys.readouterr().err
    with sqlite3.connect(source.removeprefix("sqlite+aiosqlite:///")) as db:
        db.execute("UPDATE game SET state_json = replace(state_json, '\"cp\":', '\"cp\":1') WHERE channel_id = 900")
    assert await asyncio.to_thread(main, ["migrate-to", target, "--replace"]) == 1
    assert "does not give its stored snapshot" in capsys.readouterr().out


async def test_only_from_an_existing_sqlite_file_to_a_reachable_postgresql(tmp_path: Path, catalog):
    sqlite_url = f"sqlite:///{tmp_path / 'a.db'}"
    with pytest.raises(TransferError, match="into PostgreSQL"):
        await migrate_to(sqlite_url, f"sqlite:///{tmp_path / 'b.db'}", PACKS)
    with pytest.raises(TransferError, match="from a SQLite"):
        await migrate_to("postgresql://u@h/db", "postgresql://u@h/other", PACKS)
    with pytest.raises(TransferError, match="There is no SQLite database at"):
        await migrate_to(sqlite_url, "postgresql://u@127.0.0.1:9/db", PACKS)
    assert not (tmp_path / "a.db").exists()  # not created by the attempt
    sqlite3.connect(tmp_path / "a.db").close()
    with pytest.raises(TransferError, match=r"Could not open the target database postgresql\+asyncpg://u:\*\*\*@"):
        await migrate_to(sqlite_url, "postgresql://u:secret@127.0.0.1:9/db", PACKS)  # nothing listens on port 9
