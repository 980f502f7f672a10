"""Start-up settings, read from the environment and from a `.env` file in the working directory.

Names are case-insensitive: DISCORD_TOKEN, DATABASE_URL, TEST_GUILD_ID, LOG_LEVEL, DECK_PACK.
The token is a SecretStr so it never shows up in a repr, a log line or a traceback.
"""

from __future__ import annotations

import logging

from pydantic import SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.decks import DEFAULT_PACK

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./missiondeck.db"


class Settings(BaseSettings):
    # An empty value (`TEST_GUILD_ID=` as in .env.example) means "not set", not "invalid".
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", env_ignore_empty=True, extra="ignore"
    )

    # Optional so that `python -m bot` can explain what is missing instead of a validation dump.
    discord_token: SecretStr | None = None
    database_url: str = DEFAULT_DATABASE_URL
    # Commands are copied to this server and appear there at once (global sync can take a while).
    test_guild_id: int | None = None
    log_level: str = "INFO"
    deck_pack: str = DEFAULT_PACK

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if not isinstance(logging.getLevelName(level), int):
            raise ValueError("use one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
        return level

    @field_validator("discord_token")
    @classmethod
    def _strip_token(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value().strip():
            return None
        return SecretStr(value.get_secret_value().strip())
