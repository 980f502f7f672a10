"""Settings and the start-up checks of `main()` that need no Discord (the e2e tests cover the rest)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import NO_TOKEN, main
from bot.settings import DEFAULT_DATABASE_URL, Settings

VARIABLES = ("DISCORD_TOKEN", "DATABASE_URL", "TEST_GUILD_ID", "LOG_LEVEL", "DECK_PACK")


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
