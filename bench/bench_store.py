"""How fast the store applies actions, against what one bare commit costs on this machine.

Run from the repository root:  .venv/bin/python -m bench.bench_store [--postgres URL] [--url URL] [--games N]
It runs on a fresh SQLite file (WAL, the bot's settings), or on --url instead, then on PostgreSQL when
--postgres (or the BENCH_POSTGRES_URL environment variable) names one: give a scratch database, as the
bench migrates it and leaves its games there. For each database it prints:
  - p50/p99 of GameService.act (lock, load, engine, version-checked save with its commit),
  - p50/p99 of a bare single-row UPDATE + commit through the same engine, and the ratio
    (with the CPU time of both, which a busy machine disturbs less than the wall-clock times),
  - the snapshot's size in bytes at the start and the end of a long game,
  - the time to replay a ~300-action game from its setup.
Games are played by the storage tests' scripted player (tests/store/conftest.py: scripted_game).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

from sqlalchemy import text

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.store.conftest

from bench import run_on  # noqa: E402
from bot.decks import default_catalog  # noqa: E402
from bot.engine.chapter_approved.game import replay  # noqa: E402
from bot.engine.chapter_approved.state import GameSetup
from bot.services.games import GameService  # noqa: E402
from bot.store.codec import dump_state  # noqa: E402
from bot.store.db import make_engine, make_sessionmaker, upgrade_database  # noqa: E402
from tests.store.conftest import scripted_game  # noqa: E402

SCORES_PER_TURN = 25  # primary VP entries per turn: brings a battle to ~300 actions


def percentiles(samples: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49] * 1000, cuts[98] * 1000


def setup_for(n: int) -> GameSetup:
    return GameSetup(size="strike-force", players=("1001", "1002"), names=("Alice", "Bob"), seed=f"bench-{n}")


async def bench(url: str, games: int) -> None:
    catalog = default_catalog()
    await upgrade_database(url)
    engine = make_engine(url)
    service = GameService(catalog, make_sessionmaker(engine))
    channels = time.time_ns() // 1000  # fresh channel ids: a rerun on the same database does not collide
    # The bare commit touches a game of its own, so both measurements share the machine's ups and downs.
    spare = await service.start_game(1, channels - 1, setup_for(-1))
    bare_update = text("UPDATE game SET version = version + 1 WHERE id = :id")

    act_times: list[float] = []
    commit_times: list[float] = []
    cpu = {"act": 0.0, "bare": 0.0}  # CPU time of all threads: steadier than wall time on a busy machine
    for n in range(games):
        setup = setup_for(n)
        actions = scripted_game(catalog, setup, SCORES_PER_TURN)
        started = await service.start_game(1, channels + n, setup)
        for action in actions:
            t0, c0 = time.perf_counter(), time.process_time()
            result = await service.act(action, channel_id=channels + n)
            t1, c1 = time.perf_counter(), time.process_time()
            async with engine.begin() as conn:
                await conn.execute(bare_update, {"id": spare.game_id})
            t2, c2 = time.perf_counter(), time.process_time()
            act_times.append(t1 - t0)
            commit_times.append(t2 - t1)
            cpu["act"] += c1 - c0
            cpu["bare"] += c2 - c1
        if n == 0:
            first_size = len(dump_state(started.state).encode())
            last_size = len(dump_state(result.state).encode())
            t0 = time.perf_counter()
            replayed = replay(catalog, setup, actions)
            replay_time = time.perf_counter() - t0
            assert replayed == result.state
            long_game = len(actions)
    await engine.dispose()

    act50, act99 = percentiles(act_times)
    bare50, bare99 = percentiles(commit_times)
    print(f"database: {engine.url.render_as_string(hide_password=True)}")
    print(f"act through the service ({len(act_times)} actions): p50 {act50:.2f} ms   p99 {act99:.2f} ms")
    print(f"bare single-row commit   ({len(commit_times)} commits): p50 {bare50:.2f} ms   p99 {bare99:.2f} ms")
    print(f"ratio act / bare commit: p50 {act50 / bare50:.1f}x   p99 {act99 / bare99:.1f}x   (target: within 3x)")
    print(f"CPU time per act {cpu['act'] / len(act_times) * 1000:.2f} ms, per bare commit "
          f"{cpu['bare'] / len(commit_times) * 1000:.2f} ms: ratio {cpu['act'] / cpu['bare']:.1f}x")
    print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"snapshot size: {first_size} bytes at the start, {last_size} bytes after {long_game} actions")
    print(f"replay of the {long_game}-action game from its setup: {replay_time * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="database to use instead of a fresh SQLite file")
    parser.add_argument("--postgres", default=os.environ.get("BENCH_POSTGRES_URL"),
                        help="a scratch PostgreSQL database to measure too (default: $BENCH_POSTGRES_URL)")
    parser.add_argument("--games", type=int, default=4, help="games of ~300 actions to play (default 4)")
    args = parser.parse_args()
    run_on(args.url, bench, args.games)
    if args.postgres:
        print()
        asyncio.run(bench(args.postgres, args.games))


if __name__ == "__main__":
    main()
