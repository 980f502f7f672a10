"""The real bot, started through its own entry point, against a fake Discord on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from pathlib import Path

from bot.__main__ import BAD_TOKEN, NO_TOKEN, run
from bot.engine.chapter_approved.catalog import Catalog
from bot.plumbing.settings import Settings
from tests.discord_model import GUILD_ID
from tests.e2e.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)  # members, presences, message content


@contextlib.asynccontextmanager
async def running_bot(fake: FakeDiscord, catalog: Catalog, tmp_path: Path):
    settings = Settings(
        _env_file=None, discord_token=fake.token, test_guild_id=GUILD_ID,
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
    )
    task = asyncio.create_task(run(settings, catalog), name="bot-under-test")
    try:
        ready = asyncio.create_task(fake.ready.wait())
        done, _ = await asyncio.wait({task, ready}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            task.result()  # the bot stopped: show why
        assert ready in done, "the bot did not identify on the fake gateway in time"
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 15)


async def test_the_bot_connects_syncs_and_answers(fake_discord: FakeDiscord, catalog: Catalog, tmp_path: Path) -> None:
    async with running_bot(fake_discord, catalog, tmp_path):
        model = fake_discord.model
        assert fake_discord.identify["token"] == fake_discord.token
        assert fake_discord.identify["intents"] & PRIVILEGED_INTENTS == 0
        assert {"card", "faq", "roll", "rolloff"} <= set(model.command_names())
        assert all(c["id"] for c in model.commands[GUILD_ID])
        alice, bob = model.add_user("alice"), model.add_user("bob")

        sent = await fake_discord.interact(model.autocomplete("card", "name", "horde", alice, None, {}))
        assert sent[0].choices[0] == {"name": "Cull the Horde · Secondary Mission", "value": "secondary:cull-the-horde"}

        sent = await fake_discord.interact(model.slash("card", alice, None, {"name": "secondary:cull-the-horde"}))
        assert sent[0].embeds[0]["title"] == "Cull the Horde"
        assert not sent[0].ephemeral

        sent = await fake_discord.interact(model.slash("roll", alice, None, {"dice": "2D6"}))
        assert sent[0].content.startswith(f"🎲 {alice.mention} rolled **2D6**: ")
        total = int(sent[0].content.rsplit("**", 2)[-2])
        assert 2 <= total <= 12

        sent = await fake_discord.interact(model.slash("roll", alice, None, {"dice": "nonsense"}))
        assert sent[0].ephemeral and "Use D6" in sent[0].content

        sent = await fake_discord.interact(model.slash("rolloff", alice, None, {"opponent": bob}))
        assert "wins the roll-off" in sent[0].content.splitlines()[-1]

        assert fake_discord.heartbeats >= 1
    assert fake_discord.unhandled == []


async def run_entry_point(code: str, cwd: Path, env: dict[str, str], timeout: float = 60) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", code, cwd=cwd, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    _, stderr = await asyncio.wait_for(process.communicate(), timeout)
    return process.returncode, stderr.decode()


def clean_env() -> dict[str, str]:
    """The environment of a user who has not configured the bot yet."""
    env = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "TEST_GUILD_ID", "DATABASE_URL", "LOG_LEVEL", "DECK_PACK"}}
    env["PYTHONPATH"] = str(ROOT)
    return env


async def test_python_m_bot_without_a_token_explains_and_exits_2(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=\nTEST_GUILD_ID=\n", encoding="utf-8")
    code = "import runpy; runpy.run_module('bot', run_name='__main__')"
    returncode, stderr = await run_entry_point(code, tmp_path, clean_env())
    assert returncode == 2
    assert stderr == NO_TOKEN + "\n"


async def test_a_refused_token_explains_and_exits_2(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    # main() exactly as `python -m bot` runs it, with discord.py pointed at the fake Discord.
    code = (
        "import sys, discord.http; "
        f"discord.http.Route.BASE = {fake_discord.api_base!r}; "
        "from bot.__main__ import main; sys.exit(main())"
    )
    env = {**clean_env(), "DISCORD_TOKEN": "not-the-token"}
    returncode, stderr = await run_entry_point(code, tmp_path, env)
    assert returncode == 2
    assert stderr.strip().splitlines()[-1] == BAD_TOKEN
    assert "Traceback" not in stderr
    assert "not-the-token" not in stderr
    assert ("GET", "/api/v10/users/@me") in fake_discord.requests
