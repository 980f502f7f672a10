"""Publishing a big round at Discord's rate limits: how soon the organiser hears, and how soon the last table's game is
ready (GitHub issue "Discord's real limits, at the size of a Grand Tournament").

Run from the repository root:  .venv/bin/python -m bench.bench_publish [--tables 50 150] [--channels 1 3]
[--postgres URL]
The bot runs as its own process (`python -m bot`) against the fake Discord, which answers as Discord does under its
rate limits (each channel's 5 messages in 5 s, about 5 new threads in 5 s per channel, the global 50 requests a
second: tests/e2e/discord_limits.py). For each number of tables and of table channels (`/tournament tables`), an event
of twice as many players (registered in the database beforehand) is paired by its organiser, who presses Publish.
Each run prints:
  - Publish acknowledged: INTERACTION_CREATE to its callback (the private "thinking…");
  - the organiser's answer: its first words ("Round 1 is published: announcing it…"), the round announced with
    "Opening tables: 0 of N", how many times it was edited with the progress, and when it said the last table was open;
  - the first and the last table's game offered in its thread (both players pinged, which brings them in);
  - REST requests under Discord's global limit (all but interaction callbacks and webhooks): how many, their
    busiest second, and how many Discord refused (429) over all routes.
Times are from the press. Figures only: nothing is asserted about time.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
from aiohttp import web

from bench.bench_tables import busiest_second, covered
from bot.services.tournaments import TournamentService
from bot.store.db import make_engine, make_sessionmaker
from tests.discord_model import GUILD_ID, MEMBER_PERMISSIONS, FakeChannel, FakeUser
from tests.e2e.crowd import BotProcess
from tests.e2e.fake_discord import FakeDiscord, Handler
from tests.store.conftest import POSTGRES_ENV, database_named, drop_database, run_admin

MANAGE_SERVER = MEMBER_PERMISSIONS | discord.Permissions(manage_guild=True).value
CHALLENGE = "accepts it to begin"  # in every table's challenge
WAIT = 900.0  # seconds a run may take at most


@dataclass(frozen=True)
class Served:
    at: float  # perf_counter()
    method: str
    path: str  # the route
    body: Any
    token: str | None  # an interaction's, on its callback and webhook routes

    @property
    def text(self) -> str:
        return (self.body or {}).get("content") or ""

    def challenge(self) -> bool:
        return self.method == "POST" and self.path == "/channels/{channel}/messages" and CHALLENGE in self.text


class TimedDiscord(FakeDiscord):
    """The fake Discord with Discord's limits, timing every request it served."""

    def __init__(self) -> None:
        super().__init__(limits=True, lifetime=3600)
        self.served: list[Served] = []

    def _routes(self) -> list[tuple[str, str, Handler]]:
        return [(method, path, self._timed(method, path, handler)) for method, path, handler in super()._routes()]

    def _timed(self, method: str, path: str, handler: Handler) -> Handler:
        def handle(request: web.Request, body: Any, files: list[tuple[str, bytes]]) -> Any:
            result = handler(request, body, files)  # a refusal (a DiscordError) is not served
            self.served.append(Served(time.perf_counter(), method, path, body, request.match_info.get("token")))
            return result
        return handle


async def run(tables: int, channels: int, database_url: str, workdir: Path) -> None:
    async with TimedDiscord() as fake:
        model = fake.model
        organiser = model.add_user("organiser", permissions=MANAGE_SERVER)
        news = model.add_channel("pairings")
        players = [model.add_user(f"player{i}") for i in range(2 * tables)]
        named = [model.add_channel(f"tables-{n + 1}") for n in range(channels)] if channels > 1 else []
        bot = BotProcess(fake, database_url, workdir, 0, 1)
        await bot.start()
        try:
            await interact(fake, "tournament create", organiser, news,
                           {"name": "Bench GT", "rounds": 5, "announce-channel": news})
            await register(database_url, players)
            if named:
                await interact(fake, "tournament tables", organiser, news,
                               {"channel" if n == 0 else f"channel-{n + 1}": c for n, c in enumerate(named)})
            draft = await interact(fake, "tournament pair", organiser, news, {})
            publish, message_id = await publish_button(fake, draft)
            first = len(fake.served)
            pressed = time.perf_counter()
            payload = model.component(publish, organiser, message_id, None)
            await fake.dispatch("INTERACTION_CREATE", payload)
            token = payload["token"]
            await fake.wait_for(lambda: challenges(fake, first) >= tables and opened(fake, token, first), timeout=WAIT)
            report(fake, first, pressed, token, tables, channels)
        finally:
            await bot.stop()


async def interact(fake: FakeDiscord, command: str, user: FakeUser, channel: FakeChannel,
                   options: dict[str, Any]) -> str:
    payload = fake.model.slash(command, user, channel, options)
    await fake.interact(payload, timeout=60)
    record = fake.model.interactions[payload["token"]]
    await fake.wait_for(lambda: not _loading(fake, record.original_id), timeout=60)
    return payload["token"]


def _loading(fake: FakeDiscord, message_id: int | None) -> bool:
    message = fake.model.messages.get(message_id or 0)
    return message is not None and bool(message["flags"] & 128)


async def register(database_url: str, players: list[FakeUser]) -> None:
    """The players registered, as /tournament register would have done one by one."""
    engine = make_engine(database_url)
    try:
        service = TournamentService(make_sessionmaker(engine))
        record = await service.current(GUILD_ID)
        ids = tuple(str(p.id) for p in players)
        event = record.state.event.model_copy(update={"players": ids})
        state = record.state.model_copy(update={"event": event, "names": {str(p.id): p.name for p in players}})
        await service.repo.save_if_version(record, state)
    finally:
        await engine.dispose()


async def publish_button(fake: FakeDiscord, token: str) -> tuple[str, int]:
    """The Publish button of the draft the organiser was shown, and its message."""
    record = fake.model.interactions[token]

    def found() -> tuple[str, int] | None:
        for message_id in (record.original_id, *record.followup_ids):
            message = fake.model.messages.get(message_id or 0)
            for row in (message or {}).get("components", []):
                for component in row.get("components", []):
                    if str(component.get("custom_id", "")).endswith(":publish"):
                        return component["custom_id"], message_id
        return None
    await fake.wait_for(lambda: found() is not None, timeout=60)
    return found()  # type: ignore[return-value]


def challenges(fake: TimedDiscord, first: int) -> int:
    return sum(1 for served in fake.served[first:] if served.challenge())


def answers(fake: TimedDiscord, token: str, first: int) -> list[Served]:
    """The organiser's answer as it was edited."""
    return [s for s in fake.served[first:] if s.method == "PATCH" and s.path.startswith("/webhooks/")
            and s.token == token]


def opened(fake: TimedDiscord, token: str, first: int) -> bool:
    said = answers(fake, token, first)
    return bool(said) and ("Opened the" in said[-1].text or "Stopped after" in said[-1].text)


def report(fake: TimedDiscord, first: int, pressed: float, token: str, tables: int, channels: int) -> None:
    served = fake.served[first:]
    acked = next(s.at for s in served if s.token == token and s.path.endswith("/callback"))
    said = answers(fake, token, first)
    offered = [s.at for s in served if s.challenge()]
    limited = [s.at for s in served if covered(s.path)]
    threads = sum(1 for s in served if s.method == "POST" and s.path.endswith("/threads"))
    wall = offered[-1] - pressed
    print(f"\n{tables} tables ({2 * tables} players) · {channels} table channel{'s' if channels > 1 else ''}")
    print(f"  Publish acknowledged: {(acked - pressed) * 1000:.0f} ms")
    announced = next(a for a in said if "Opening tables" in a.text)
    print(f"  the organiser's answer: first at {said[0].at - pressed:.2f} s ({said[0].text!r}); the round announced "
          f"at {announced.at - pressed:.2f} s ({announced.text[-26:]!r}); {len(said) - 3} progress edits; the last at "
          f"{said[-1].at - pressed:.1f} s: {said[-1].text.split('. ', 2)[-1][:300]!r}")
    print(f"  games offered: the first table's at {offered[0] - pressed:.2f} s, the last table's at {wall:.1f} s")
    print(f"  REST: {len(served)} requests, {threads} threads opened; under the global limit {len(limited)} "
          f"({len(limited) / wall:.1f}/s, busiest second {busiest_second(limited)}); refused (429): "
          f"{len(fake.refused)}")


async def bench(sizes: list[int], channel_counts: list[int], postgres: str | None) -> None:
    for tables in sizes:
        for channels in channel_counts:
            with tempfile.TemporaryDirectory() as tmp:
                if postgres:
                    name = f"bench_{uuid.uuid4().hex[:12]}"
                    await run_admin(postgres, f'CREATE DATABASE "{name}"')
                    try:
                        await run(tables, channels, database_named(postgres, name), Path(tmp))
                    finally:
                        await drop_database(postgres, name)
                else:
                    await run(tables, channels, f"sqlite+aiosqlite:///{tmp}/bench.db", Path(tmp))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 150], help="tables of the round (default 50 150)")
    parser.add_argument("--channels", type=int, nargs="+", default=[1, 3],
                        help="channels the table threads open from, a run each (default 1 3)")
    parser.add_argument("--postgres", default=None,
                        help=f"a PostgreSQL URL whose user may create databases (e.g. ${POSTGRES_ENV}; default SQLite)")
    args = parser.parse_args()
    asyncio.run(bench(args.tables, args.channels, args.postgres or None))


if __name__ == "__main__":
    main()
