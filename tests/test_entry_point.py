"""Settings and the start-up checks of `main()` that need no Discord (the e2e tests cover the rest)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import NO_TOKEN, main
from bot.client import MissionBot, ShardedMissionBot, make_bot
from bot.engine.chapter_approved.catalog import Catalog
from bot.plumbing.settings import DEFAULT_DATABASE_URL, Settings

VARIABLES = ("DISCORD_TOKEN", "DATABASE_URL", "TEST_GUILD_ID", "LOG_LEVEL", "DECK_PACK", "SHARD_COUNT", "SHARD_IDS")


@pytest.fixture
def fresh_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory and environment with nothing configured."""
    monkeypatch.chdir(tmp_path)
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def test_defaults(fresh_dir: Path) -> None:
    settings = Settings()
    assert settings.discord_token is None
    assert settings.database_url == DEFAULT_DATABASE_URL == "sqlite+aiosqlite:///./missiondeck.db"
    assert settings.test_guild_id is None
    assert settings.log_level == "INFO"
    assert settings.deck_pack == "ca-2025-26"
    assert settings.shard_count is None and settings.shard_ids is None and settings.syncs_commands


def test_the_env_example_values_read_as_unset(fresh_dir: Path) -> None:
    example = (Path(__file__).resolve().parents[1] / ".env.example").read_text(encoding="utf-8")
    (fresh_dir / ".env").write_text(example, encoding="utf-8")
    settings = Settings()
    assert settings.discord_token is None and settings.test_guild_id is None
    assert settings.database_url == DEFAULT_DATABASE_URL


def test_dot_env_and_environment(fresh_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (fresh_dir / ".env").write_text("DISCORD_TOKEN= secret-token \nTEST_GUILD_ID=123\nlog_level=debug\n", encoding="utf-8")
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://bot:pw@db/missiondeck")
    settings = Settings()
    assert settings.discord_token.get_secret_value() == "secret-token"
    assert settings.test_guild_id == 123
    assert settings.log_level == "DEBUG"
    assert settings.database_url == "postgresql+asyncpg://bot:pw@db/missiondeck"


def test_the_token_never_shows(fresh_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "secret-token")
    settings = Settings()
    assert "secret-token" not in repr(settings) and "secret-token" not in str(settings)


def test_main_without_a_token(fresh_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert capsys.readouterr().err == NO_TOKEN + "\n"


def test_main_with_a_bad_setting(fresh_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (fresh_dir / ".env").write_text("DISCORD_TOKEN=secret-token\nTEST_GUILD_ID=my-server\nLOG_LEVEL=LOUD\n", encoding="utf-8")
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Invalid setting in the environment or .env: TEST_GUILD_ID")
    assert "LOG_LEVEL: Value error, use one of DEBUG, INFO" in err
    assert "secret-token" not in err and err.count("\n") == 1


def test_main_with_a_missing_pack(fresh_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "secret-token")
    monkeypatch.setenv("DECK_PACK", "no-such-pack")
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("The mission pack 'no-such-pack' could not be loaded: ")
    assert "pack.yaml: file missing" in err


@pytest.mark.parametrize(("count", "ids", "expected"), [
    ("2", "0", (0,)), ("2", "1", (1,)), ("4", "0,1", (0, 1)), ("4", "0-3", (0, 1, 2, 3)),
    ("8", " 4-5, 7 ", (4, 5, 7)),
])
def test_shard_settings(fresh_dir: Path, monkeypatch: pytest.MonkeyPatch, count: str, ids: str,
                        expected: tuple[int, ...]) -> None:
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    settings = Settings()
    assert (settings.shard_count, settings.shard_ids) == (int(count), expected)
    assert settings.syncs_commands == (0 in expected)  # one process publishes the commands


@pytest.mark.parametrize(("env", "message"), [
    ("SHARD_COUNT=2\n", "SHARD_COUNT and SHARD_IDS go together: set both (e.g. SHARD_COUNT=2, SHARD_IDS=0) or neither"),
    ("SHARD_IDS=0\n", "SHARD_COUNT and SHARD_IDS go together"),
    ("SHARD_COUNT=2\nSHARD_IDS=0,2\n", "SHARD_IDS names shard 2, but SHARD_COUNT=2 numbers the shards 0 to 1"),
    ("SHARD_COUNT=4\nSHARD_IDS=0-2,1\n", "SHARD_IDS names a shard twice: 0,1,2,1"),
    ("SHARD_COUNT=4\nSHARD_IDS=3-1\n", "SHARD_IDS: Value error, the range '3-1' runs backwards: write it as 1-3"),
    ("SHARD_COUNT=4\nSHARD_IDS=first\n", "SHARD_IDS: Value error, 'first' is not a shard id or range: write them"),
    ("SHARD_COUNT=0\nSHARD_IDS=0\n", "SHARD_COUNT: Value error, the number of shards is 1 or more"),
])
def test_main_with_bad_shard_settings(fresh_dir: Path, capsys: pytest.CaptureFixture[str], env: str,
                                      message: str) -> None:
    (fresh_dir / ".env").write_text("DISCORD_TOKEN=secret-token\n" + env, encoding="utf-8")
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Invalid setting in the environment or .env: ") and message in err
    assert err.count("\n") == 1


async def test_the_shard_settings_choose_the_client(catalog: Catalog) -> None:
    # Built, not started: nothing to close.
    plain = make_bot(Settings(_env_file=None), catalog)
    assert type(plain) is MissionBot and plain.shard_count is None
    sharded = make_bot(Settings(_env_file=None, shard_count=4, shard_ids="2-3"), catalog)
    assert isinstance(sharded, ShardedMissionBot) and isinstance(sharded, MissionBot)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [2, 3])
