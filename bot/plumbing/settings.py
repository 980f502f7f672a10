"""Start-up settings, read from the environment and from a `.env` file in the working directory.

Names are case-insensitive: DISCORD_TOKEN, DATABASE_URL, TEST_GUILD_ID, LOG_LEVEL, DECK_PACK, SHARD_COUNT,
SHARD_IDS, REQUESTS_PER_SECOND. The token is a SecretStr so it never shows up in a repr, a log line or a traceback.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

from pydantic import SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

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
    # Discord's sharding, both or neither: this process serves the shards SHARD_IDS out of SHARD_COUNT.
    shard_count: int | None = None
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None  # "0,1" or "0-3", not JSON
    # REST requests a second this process makes at most (bot/plumbing/pacing.py). Discord's global limit is 50 for the whole
    # bot: with several processes, share it out (20 each for two).
    requests_per_second: int = 40
    # The web pages (bot/web): off unless WEB_PORT is set. WEB_HOST is where they listen (a reverse proxy on this
    # machine serves them over HTTPS); PUBLIC_URL starts every link the bot posts.
    web_port: int | None = None
    web_host: str = "127.0.0.1"
    public_url: str | None = None
    # The Discord Activity (bot/web/activity.py), on the web pages: the application's OAuth2 client secret (and its
    # id, which the bot reads from Discord when it logs in; `python -m bot pages` needs it set).
    discord_client_secret: SecretStr | None = None
    discord_client_id: int | None = None
    discord_api_url: str = "https://discord.com/api/v10"  # tests point it at their fake Discord
    # Per client address (bot/web/limits.py): pages open at once, and requests a minute (twice that at once).
    web_pages_per_client: int = 60
    web_requests_per_minute: int = 240

    @property
    def web_url(self) -> str:
        return (self.public_url or f"http://localhost:{self.web_port}").rstrip("/")

    @property
    def syncs_commands(self) -> bool:
        """One process publishes the slash commands: the one serving shard 0 (or the only one)."""
        return self.shard_ids is None or 0 in self.shard_ids

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

    @field_validator("public_url")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("https://", "http://")):
            raise ValueError("write the address the players open, with https:// (e.g. https://deck.example.org)")
        return value

    @field_validator("shard_count")
    @classmethod
    def _positive_count(cls, value: int | None) -> int | None:
        if value is not None and value < 1:
            raise ValueError("the number of shards is 1 or more")
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _parse_shard_ids(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        ids: list[int] = []
        for part in value.replace(" ", "").split(","):
            low, dash, high = part.partition("-")
            if not (low.isdigit() and (not dash or high.isdigit())):
                raise ValueError(f"{part!r} is not a shard id or range: write them as 0,1 or 0-3")
            if dash and int(high) < int(low):
                raise ValueError(f"the range {part!r} runs backwards: write it as {high}-{low}")
            ids += range(int(low), int(high or low) + 1)
        return tuple(ids)

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if (self.shard_count is None) != (self.shard_ids is None):
            raise ValueError("SHARD_COUNT and SHARD_IDS go together: set both (e.g. SHARD_COUNT=2, SHARD_IDS=0) "
                             "or neither")
        if self.shard_ids is not None and self.shard_count is not None:
            if len(set(self.shard_ids)) != len(self.shard_ids):
                raise ValueError(f"SHARD_IDS names a shard twice: {','.join(map(str, self.shard_ids))}")
            if outside := [i for i in self.shard_ids if i >= self.shard_count]:
                raise ValueError(f"SHARD_IDS names shard {','.join(map(str, outside))}, but SHARD_COUNT="
                                 f"{self.shard_count} numbers the shards 0 to {self.shard_count - 1}")
        return self
