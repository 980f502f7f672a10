"""The web pages under a tournament round (GitHub issue "One game, every screen"): 40 games pressed at once through
the fake Discord by their players (tests/e2e/crowd.py), each game watched by 10 live pages.

Run from the repository root:  .venv/bin/python -m bench.bench_web [--games 40] [--viewers 10]
Each round is played twice: every move as soon as the game allows it (the bot's CPU is then the limit), and with
each player waiting --think seconds before each move. Prints, for each with its viewers and with none:
  - press -> page update: from a press sent to the first model of that version or newer on each viewing page,
    p50/p99/max over every (move, page);
  - the acknowledgements p50/p99 (they must not rise with the pages: bench/bench_tables.py measures them alone);
and for a `python -m bot pages` process, its memory (RSS) per open page, with 400 pages open on one game.
Figures only: nothing is asserted about time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import aiohttp

from bench.bench_tables import percentiles
from bot.decks import default_catalog
from bot.engine.chapter_approved.state import GameSetup
from bot.services.games import GameService
from bot.store.db import make_engine, make_sessionmaker, upgrade_database
from bot.store.share_models import ShareKind
from bot.store.shares import ShareRepository
from tests.e2e.crowd import Game, play_crowd
from tests.web.conftest import free_port

ROOT = Path(__file__).resolve().parents[1]


class Viewers:
    """Opens `per_game` pages (their streams) of each game once it starts, and notes when each version arrives."""

    def __init__(self, database_url: str, port: int, per_game: int) -> None:
        self.port, self.per_game = port, per_game
        self.engine = make_engine(database_url)
        self.shares = ShareRepository(make_sessionmaker(self.engine))
        self.seen: dict[int, list[list[tuple[float, int]]]] = defaultdict(list)  # game -> each page's (time, v)
        self.tasks: list[asyncio.Task] = []
        self.http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None),
                                          connector=aiohttp.TCPConnector(limit=0))  # every page its own stream

    async def started(self, game: Game) -> None:
        token = await self.shares.create(ShareKind.GAME, game.game_id, guild_id=None, created_by=str(game.first.id))
        opened = []
        for _ in range(self.per_game):
            frames: list[tuple[float, int]] = []
            self.seen[game.game_id].append(frames)
            ready = asyncio.Event()
            opened.append(ready)
            self.tasks.append(asyncio.create_task(self._watch(f"/g/{token}/stream", frames, ready)))
        await asyncio.gather(*(r.wait() for r in opened))

    async def _watch(self, path: str, frames: list[tuple[float, int]], ready: asyncio.Event) -> None:
        async with self.http.get(f"http://127.0.0.1:{self.port}{path}") as response:
            if response.status != 200:
                ready.set()
                raise AssertionError(f"{path}: {response.status} {await response.text()}")
            async for line in response.content:
                if line.startswith(b"data: "):
                    frames.append((time.perf_counter(), json.loads(line[6:])["version"]))
                    ready.set()

    def updates(self, games: list[Game]) -> list[float]:
        waits = []
        for game in games:
            for press in game.presses:
                if press.version is None:
                    continue
                for frames in self.seen.get(game.game_id, ()):
                    shown = next((t for t, v in frames if t >= press.sent and v >= press.version), None)
                    if shown is not None:
                        waits.append(shown - press.sent)
        return waits

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.http.close()
        await self.engine.dispose()


async def round_with_pages(games: int, viewers: int, think: float) -> None:
    catalog = default_catalog()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{tmp}/bench.db"
        await upgrade_database(url)
        port = free_port()
        watch = Viewers(url, port, viewers) if viewers else None
        # Every page here comes from one address: the limits per client are lifted for the bench.
        env = {"WEB_PORT": str(port), "WEB_PAGES_PER_CLIENT": "100000", "WEB_REQUESTS_PER_MINUTE": "1000000"}
        crowd = await play_crowd(games, url, Path(tmp), catalog, env=env,
                                 on_start=watch.started if watch else None, think=think)
        a50, a99 = percentiles(crowd.acks())
        pace = f"a move every {think:g} s per table" if think else "every move as soon as the game allows it"
        print(f"\n{games} games · {viewers} pages each · {pace} · SQLite · 1 bot process")
        print(f"  moves taken: {sum(g.accepted for g in crowd.games)} · games that reached battle round 2: "
              f"{sum(1 for g in crowd.games if g.reached)}")
        print(f"  ack: p50 {a50:.0f} ms · p99 {a99:.0f} ms · max {max(crowd.acks(), default=0) * 1000:.0f} ms")
        print(f"  wall {crowd.wall:.1f} s · bot CPU {crowd.bot_cpu:.1f} s ({crowd.bot_cpu / crowd.wall * 100:.0f} %) · "
              f"this process (fake Discord, players, pages) {crowd.driver_cpu / crowd.wall * 100:.0f} %")
        if watch is not None:
            updates = watch.updates(crowd.games)
            u50, u99 = percentiles(updates)
            print(f"  press -> page update: p50 {u50:.0f} ms · p99 {u99:.0f} ms · max "
                  f"{max(updates, default=0) * 1000:.0f} ms over {len(updates)} (move, page) pairs")
            await watch.close()


def rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")))


async def memory_per_page(pages: int) -> None:
    """A `python -m bot pages` process: its RSS before and after `pages` pages of one game are open."""
    catalog = default_catalog()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{tmp}/pages.db"
        await upgrade_database(url)
        engine = make_engine(url)
        service = GameService(catalog, make_sessionmaker(engine))
        game = await service.start_game(None, 1, GameSetup(size="strike-force", players=("1", "2"),
                                                           names=("Alice", "Bob"), seed="memory"))
        token = await ShareRepository(make_sessionmaker(engine)).create(ShareKind.GAME, game.game_id,
                                                                        guild_id=None, created_by="1")
        await engine.dispose()
        port = free_port()
        env = {**os.environ, "DATABASE_URL": url, "WEB_PORT": str(port), "PYTHONPATH": str(ROOT),
               "WEB_PAGES_PER_CLIENT": "100000", "WEB_REQUESTS_PER_MINUTE": "1000000"}
        process = subprocess.Popen([sys.executable, "-m", "bot", "pages"], cwd=tmp, env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            viewers = Viewers(url, port, 0)
            for _ in range(100):
                try:
                    async with viewers.http.get(f"http://127.0.0.1:{port}/static/live.js"):
                        break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.1)
            frames: list[tuple[float, int]] = []
            ready = asyncio.Event()
            viewers.tasks.append(asyncio.create_task(viewers._watch(f"/g/{token}/stream", frames, ready)))
            await ready.wait()  # the first page loads what every page shares (the model, the code paths)
            before = rss_kib(process.pid)
            for _ in range(pages):
                ready = asyncio.Event()
                viewers.tasks.append(asyncio.create_task(viewers._watch(f"/g/{token}/stream", [], ready)))
                await ready.wait()
            after = rss_kib(process.pid)
            print(f"\nmemory: {pages} more pages open on one game in a `python -m bot pages` process: RSS "
                  f"{before / 1024:.1f} → {after / 1024:.1f} MiB, {(after - before) / pages:.1f} KiB per page")
            await viewers.close()
        finally:
            process.terminate()
            process.wait(10)


async def bench(games: int, viewers: int, pages: int, think: float) -> None:
    logging.basicConfig(level=logging.ERROR)
    for pace in (0.0, think):
        await round_with_pages(games, 0, pace)
        await round_with_pages(games, viewers, pace)
    await memory_per_page(pages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--viewers", type=int, default=10, help="pages open on each game (default 10)")
    parser.add_argument("--pages", type=int, default=400, help="pages for the memory figure (default 400)")
    parser.add_argument("--think", type=float, default=2.0,
                        help="the paced rounds' seconds before each move (default 2: still faster than a real game)")
    args = parser.parse_args()
    asyncio.run(bench(args.games, args.viewers, args.pages, args.think))


if __name__ == "__main__":
    main()
