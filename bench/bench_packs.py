"""What a game of each pack costs through the service: act latency, snapshot size, replay time.

Run from the repository root:  .venv/bin/python -m bench.bench_packs [--url URL] [--games N]
On a fresh SQLite file (WAL, the bot's settings), or on --url instead (a scratch database: the bench leaves its
games there), it plays N scripted games of each installed pack through GameService.act (lock, load, engine,
version-checked save) and prints per pack: p50/p99 of an action, the snapshot's size at the start and the end,
and the time to replay the whole game from its setup. Chapter Approved games are played by the storage tests'
scripted player (tests/store/conftest.py: scripted_game), the older packs' by scripted_table_game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.store.conftest

from bench import run_on  # noqa: E402
from bot.decks import default_catalog  # noqa: E402
from bot.engine.chapter_approved.state import GameSetup  # noqa: E402
from bot.engine.packs import ChapterApprovedRules  # noqa: E402
from bot.engine.table.state import TableSetup  # noqa: E402
from bot.services.games import GameService  # noqa: E402
from bot.store.codec import dump_state  # noqa: E402
from bot.store.db import make_engine, make_sessionmaker, upgrade_database  # noqa: E402
from tests.store.conftest import scripted_game, scripted_table_game  # noqa: E402

SCORES_PER_TURN = 10
PLAYERS, NAMES = ("1001", "1002"), ("Alice", "Bob")


def game_of(service: GameService, pack: str, n: int) -> tuple[object, list[object]]:
    """The setup and scripted actions of game `n` of `pack`."""
    seed = f"bench-{pack}-{n}"
    rules = service.packs.rules(pack)
    if isinstance(rules, ChapterApprovedRules):
        challenger = not rules.catalog.force_dispositions  # 2026-27 has no Challenger deck
        setup = GameSetup(size="strike-force", players=PLAYERS, names=NAMES, seed=seed, pack=pack,
                          challenger_cards=challenger)
        return setup, scripted_game(rules.catalog, setup, SCORES_PER_TURN)
    fields = {"size": "strike-force"} if pack == "gt-2020" else {"level": "omega"}
    setup = TableSetup(pack=pack, players=PLAYERS, names=NAMES, seed=seed, **fields)
    return setup, scripted_table_game(service.packs.rules(pack), setup, SCORES_PER_TURN)


async def bench(url: str, games: int) -> None:
    await upgrade_database(url)
    engine = make_engine(url)
    service = GameService(default_catalog(), make_sessionmaker(engine))
    channel = time.time_ns() // 1000  # fresh channel ids: a rerun on the same database does not collide
    print(f"database: {engine.url.render_as_string(hide_password=True)}")
    for rules in service.packs:
        times: list[float] = []
        for n in range(games):
            setup, actions = game_of(service, rules.pack, n)
            channel += 1
            started = await service.start_game(1, channel, setup)
            for action in actions:
                t0 = time.perf_counter()
                result = await service.act(action, channel_id=channel)
                times.append(time.perf_counter() - t0)
            if n == 0:
                sizes = len(dump_state(started.state).encode()), len(dump_state(result.state).encode())
                t0 = time.perf_counter()
                assert service.packs.replay(setup, actions) == result.state
                replayed, length = time.perf_counter() - t0, len(actions)
        cuts = statistics.quantiles(times, n=100, method="inclusive")
        print(f"{rules.pack:>12}: act p50 {cuts[49] * 1000:.2f} ms  p99 {cuts[98] * 1000:.2f} ms "
              f"({len(times)} actions); snapshot {sizes[0]} -> {sizes[1]} bytes; "
              f"replay of {length} actions {replayed * 1000:.1f} ms")
    await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="database to use instead of a fresh SQLite file")
    parser.add_argument("--games", type=int, default=3, help="games of each pack to play (default 3)")
    args = parser.parse_args()
    run_on(args.url, bench, args.games)


if __name__ == "__main__":
    main()
