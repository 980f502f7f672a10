"""`python -m bot backup FILE`: a consistent copy of the SQLite database while games are being played."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.engine.chapter_approved.game import replay
from bot.services.games import GameService
from bot.store.backup import BackupError, backup_sqlite
from bot.store.db import make_engine, make_sessionmaker, upgrade_database
from bot.store.repository import GameRepository
from tests.store.conftest import ALICE, BOB

PG_URL = "postgresql+asyncpg://bot:pw@db:5432/missiondeck"


@pytest.fixture
async def live(tmp_path: Path, catalog):
    """A SQLite database in use by a GameService, as the bot runs it (WAL, one writer connection)."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    await upgrade_database(url)
    engine = make_engine(url)
    yield url, GameService(catalog, make_sessionmaker(engine))
    await engine.dispose()


async def read_copy(path: Path, catalog) -> dict[int, int]:
    """Each game of a copy -> its version, after checking that its log replays to its snapshot."""
    engine = make_engine(f"sqlite+aiosqlite:///{path}")
    repo = GameRepository(make_sessionmaker(engine))
    versions = {}
    try:
        for game_id in range(1, 100):
            record = await repo.get_game(game_id)
            if record is None:
                break
            log = await repo.list_actions(game_id)
            assert replay(catalog, record.setup, [e.action for e in log]) == record.state
            assert [e.seq for e in log] == list(range(1, record.version + 1))  # no undo in these games
            versions[game_id] = record.version
    finally:
        await engine.dispose()
    return versions


async def test_copies_taken_while_games_are_played_are_consistent(live, tmp_path: Path, catalog, setup, play):
    url, service = live
    games = [setup.model_copy(update={"seed": f"backup-{n}"}) for n in range(3)]

    async def play_game(channel: int, game_setup) -> None:
        await service.start_game(1, channel, game_setup)
        for action in play(game_setup, scores_per_turn=2):
            await service.act(action, channel_id=channel)
            await asyncio.sleep(0)  # let the other games and the back-ups in

    players = asyncio.gather(*(play_game(100 + n, s) for n, s in enumerate(games)))
    copies = []
    while not players.done():
        path = tmp_path / f"copy-{len(copies)}.db"
        await asyncio.to_thread(backup_sqlite, url, path)  # in a thread, as the CLI runs beside the bot
        copies.append(path)
        await asyncio.sleep(0.05)
    await players

    assert len(copies) >= 3
    seen = [await read_copy(path, catalog) for path in copies]
    assert any(0 < sum(v.values()) for v in seen[:-1])  # caught mid-game, not only before or after
    for earlier, later in zip(seen, seen[1:]):  # copies are in time order: nothing goes backwards
        assert all(later.get(game, 0) >= version for game, version in earlier.items())
    final = tmp_path / "final.db"
    report = backup_sqlite(url, final)
    assert report.games == 3 and report.tournaments == 0 and report.size == final.stat().st_size
    finished = await service.repo.get_game(1)
    assert (await read_copy(final, catalog))[1] == finished.version


def test_refuses_postgresql_with_the_pg_dump_command(tmp_path: Path):
    with pytest.raises(BackupError, match="pg_dump --format=custom") as refused:
        backup_sqlite(PG_URL, tmp_path / "copy.db")
    assert "pg_restore" in str(refused.value)
    assert not (tmp_path / "copy.db").exists()


async def test_refuses_to_overwrite_and_a_missing_database(live, tmp_path: Path):
    url, _ = live
    existing = tmp_path / "existing.db"
    existing.write_text("keep me")
    with pytest.raises(BackupError, match="already exists"):
        backup_sqlite(url, existing)
    assert existing.read_text() == "keep me"
    with pytest.raises(BackupError, match="There is no database at"):
        backup_sqlite(f"sqlite:///{tmp_path / 'nowhere.db'}", tmp_path / "copy.db")
    assert sorted(p.name for p in tmp_path.iterdir() if "copy" in p.name) == []


async def test_the_command(live, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys, setup):
    url, service = live
    await service.start_game(1, 5, setup)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)  # a back-up needs no token
    monkeypatch.setenv("DATABASE_URL", url)
    assert await asyncio.to_thread(main, ["backup", "nightly.db"]) == 0
    assert capsys.readouterr().out.startswith("Backed up 1 games and 0 tournaments to nightly.db (")
    engine = make_engine(f"sqlite:///{tmp_path / 'nightly.db'}")
    record = await GameRepository(make_sessionmaker(engine)).get_game(1)
    await engine.dispose()
    assert record.setup.players == (ALICE, BOB)

    monkeypatch.setenv("DATABASE_URL", PG_URL)
    assert main(["backup", "other.db"]) == 2
    assert "pg_dump" in capsys.readouterr().err
