"""compose.yaml: PostgreSQL and two bot processes on two shard ranges, checked without a Docker engine."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from sqlalchemy.engine import make_url

from bot.plumbing.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))


def expand(value: str) -> str:
    """Compose's ${NAME:-default}, with nothing set: the default."""
    return re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", value)


def test_two_bots_serve_every_shard_once_over_the_database_service() -> None:
    services = compose()["services"]
    bots = {name: service for name, service in services.items() if name.startswith("bot")}
    assert len(bots) == 2
    shards: list[int] = []
    paces = 0
    for service in bots.values():
        env = {key.lower(): expand(str(value)) for key, value in service["environment"].items()}
        settings = Settings(_env_file=None, discord_token="token", **env)  # the bot's own validation
        assert settings.shard_count == 2 and settings.shard_ids is not None
        shards += settings.shard_ids
        paces += settings.requests_per_second
        url = make_url(settings.database_url)
        database = services["db"]["environment"]
        assert (url.drivername, url.host, url.port) == ("postgresql+asyncpg", "db", 5432)
        assert (url.username, url.password, url.database) == (
            database["POSTGRES_USER"], expand(database["POSTGRES_PASSWORD"]), database["POSTGRES_DB"])
        assert service["depends_on"]["db"]["condition"] == "service_healthy"
        assert service["env_file"] == ".env" and service["build"] == "."
    assert sorted(shards) == [0, 1]
    assert paces <= 45  # the processes share Discord's global limit of 50 a second, with room for a burst
    assert Settings(_env_file=None, **{k.lower(): expand(str(v)) for k, v in bots["bot-0"]["environment"].items()}
                    ).syncs_commands


def test_the_image_installs_the_project_and_never_the_secrets() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "pip install --no-cache-dir '.[postgres]'" in dockerfile
    assert dockerfile.strip().splitlines()[-1] == 'CMD ["python", "-m", "bot"]'
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert {".env", ".venv", "*.db"} <= set(ignored)


def test_the_database_keeps_its_data_and_reports_when_ready() -> None:
    config = compose()
    database = config["services"]["db"]
    assert database["image"].startswith("postgres:")
    assert database["volumes"] == ["pgdata:/var/lib/postgresql/data"] and "pgdata" in config["volumes"]
    assert "pg_isready" in " ".join(database["healthcheck"]["test"])
