"""Many games at once, as when a tournament round starts (GitHub issue "Forty tables at once").

Run from the repository root:  .venv/bin/python -m bench.bench_tables [--games 1 10 40 100] [--postgres URL]
[--processes 2] [--postgres-only] [--think 1-2 0] [--requests-per-second 40] [--no-limits]
For each number of games, on SQLite and (with --postgres or TEST_POSTGRES_URL, a user who may create databases)
on PostgreSQL (with --postgres-only, there alone), the bot runs as separate processes against the fake Discord and
every game starts at the same moment; the players press whatever the game lets them (forms submitted at once),
until battle round 2 (tests/e2e/crowd.py), at each pace of --think: a player reads the board for that many seconds
before each move (1-2: between 1 and 2 s, tables at play; 0: every table pressing again the moment its board shows the
last press, which measures how many presses the bot serves more than how soon one shows). The fake Discord answers
as Discord does under its rate limits (each channel's 5 messages and 5 edits in 5 s, 5 deletes a second, the global
50 a second: tests/e2e/discord_limits.py), so every figure is the one a real server would see; --no-limits lifts
them. PostgreSQL runs of 100 games or more use
--processes bot processes, one shard each. --requests-per-second sets the bot's own pace under Discord's global
limit (REQUESTS_PER_SECOND; a value far above 50 shows what the limit costs, though a real Discord would refuse it).
Each run prints one block:
  - games started and failed to start (/game new or Accept refused, or unanswered within 3 s), presses (forms
    among them: units named for When Drawn cards);
  - acknowledgements (INTERACTION_CREATE sent -> the interaction's callback): p50/p99/max, how many over 1 s
    and over 3 s (Discord then shows "This interaction failed"), and the slowest kinds of press;
  - press -> board edit: a move the bot took to the first write of its game's board showing it, and
    /game new to its challenge in the channel (which may follow a private "thinking…" acknowledgement);
  - REST requests per second: all, those under Discord's global limit (all but /interactions and /webhooks)
    and their busiest 1-second window (Discord allows 50), the requests Discord refused (429), and the routes most
    used;
  - wall time, the bot processes' CPU seconds and CPU % (of one core; the fake Discord and players apart).
Figures only: nothing is asserted about time.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import re
import statistics
import tempfile
import uuid
from collections import Counter, defaultdict
from pathlib import Path

from bot.decks import default_catalog
from bot.engine.chapter_approved.catalog import Catalog
from tests.e2e.crowd import Crowd, Think, play_crowd
from tests.store.conftest import POSTGRES_ENV, database_named, drop_database, run_admin

SHARDED_FROM = 100  # games: PostgreSQL runs this big use --processes bot processes


def percentiles(samples: list[float]) -> tuple[float, float]:
    if not samples:
        return float("nan"), float("nan")
    if len(samples) < 2:
        return samples[0] * 1000, samples[0] * 1000
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49] * 1000, cuts[98] * 1000


def covered(path: str) -> bool:
    """Counted by Discord's global rate limit: every route but interaction callbacks and their webhooks."""
    return not path.startswith(("/interactions/", "/webhooks/"))


def busiest_second(times: list[float]) -> int:
    """The most requests in any 1-second window."""
    times, most, first = sorted(times), 0, 0
    for last, t in enumerate(times):
        while t - times[first] >= 1.0:
            first += 1
        most = max(most, last - first + 1)
    return most


def report(crowd: Crowd, title: str) -> None:
    games = crowd.games
    started = [g for g in games if g.game_id and g.failed is None]
    presses = crowd.presses
    acks = crowd.acks()
    unanswered = sum(1 for p in presses if p.ack is None)
    a50, a99 = percentiles(acks)
    e50, e99 = percentiles(crowd.board_edits())
    by_verb = defaultdict(list)
    for press in presses:
        if press.ack is not None:
            by_verb[press.verb].append(press.ack)
    slowest = sorted(by_verb, key=lambda v: -max(by_verb[v]))[:3]
    requests = crowd.requests()
    limited = [t for t, _, path in requests if covered(path)]
    routes = Counter(f"{method} {path}" for _, method, path in requests).most_common(4)
    errors = [line for line in crowd.logs.splitlines() if re.search(r"\bERROR\b", line) or line.startswith("Traceback")]
    wall = crowd.wall
    print(f"\n{title}")
    print(f"  games: {len(started)} started, {sum(1 for g in games if g.failed)} failed to start, "
          f"{sum(1 for g in games if g.stuck)} stuck, {sum(1 for g in games if g.reached)} reached battle round 2; "
          f"moves lost: {len(crowd.lost)}")
    print(f"  presses: {len(presses)} ({sum(g.accepted for g in games)} moves taken, "
          f"{sum(len(g.refused) for g in games)} refused, {unanswered} unanswered; "
          f"{sum(1 for p in presses if p.verb == 'form')} forms submitted)")
    print(f"  ack: p50 {a50:.0f} ms · p99 {a99:.0f} ms · max {max(acks, default=0) * 1000:.0f} ms · "
          f"over 1 s: {sum(1 for a in acks if a > 1)} · over 3 s: {sum(1 for a in acks if a > 3) + unanswered}")
    print("  slowest acks: " + " · ".join(f"{verb} p50 {percentiles(by_verb[verb])[0]:.0f} / max "
                                         f"{max(by_verb[verb]) * 1000:.0f} ms" for verb in slowest))
    c50, c99 = percentiles([g.challenged for g in games if g.challenged is not None])
    print(f"  press -> board edit: p50 {e50:.0f} ms · p99 {e99:.0f} ms; /game new -> challenge posted: "
          f"p50 {c50:.0f} ms · p99 {c99:.0f} ms")
    refused = f", refused {len(crowd.fake.refused)}" if crowd.fake.limits else " (limits off)"
    print(f"  REST: {len(requests)} requests, {len(requests) / wall:.1f}/s; under the global limit {len(limited)}, "
          f"{len(limited) / wall:.1f}/s, busiest second {busiest_second(limited)}{refused}")
    print("  routes: " + " · ".join(f"{route} {count}" for route, count in routes))
    print(f"  wall {wall:.1f} s · bot CPU {crowd.bot_cpu:.1f} s ({crowd.bot_cpu / wall * 100:.0f} %) · "
          f"fake Discord and players CPU {crowd.driver_cpu:.1f} s")
    for game in games:
        if game.failed or game.stuck:
            print(f"  game {game.game_id or '?'} in {game.channel.name}: {game.failed or game.stuck}")
            break  # one is enough to see why
    refusals = [f"game {g.game_id}: {r}" for g in games for r in g.refused]
    for problem in (refusals + crowd.lost)[:3]:
        print(f"  {problem[:200]}")
    if errors:
        print(f"  bot log: {len(errors)} errors, the first: {errors[0][:200]}")
    if crowd.fake.unhandled:
        print(f"  routes the fake Discord lacks: {sorted(set(crowd.fake.unhandled))}")


async def on_postgres(admin_url: str, count: int, processes: int, catalog: Catalog, tmp: Path, think: Think,
                      env: dict[str, str], limits: bool) -> Crowd:
    """A crowd on a scratch PostgreSQL database, dropped afterwards (the bot processes migrate it)."""
    name = f"bench_{uuid.uuid4().hex[:12]}"
    await run_admin(admin_url, f'CREATE DATABASE "{name}"')
    try:
        return await play_crowd(count, database_named(admin_url, name), tmp, catalog, processes=processes,
                                think=think, env=env, limits=limits)
    finally:
        await drop_database(admin_url, name)


def pace(text: str) -> Think:
    """'2' -> 2.0; '1-2' -> (1.0, 2.0)."""
    low, _, high = text.partition("-")
    return (float(low), float(high)) if high else float(low)


def pace_name(think: Think) -> str:
    if isinstance(think, tuple):
        return f"a move every {think[0]:g} to {think[1]:g} s per table"
    return f"a move every {think:g} s per table" if think else "every table pressing as fast as its board shows"


async def bench(counts: list[int], postgres: str | None, processes: int, sqlite: bool, paces: list[Think],
                requests_per_second: int | None, limits: bool) -> None:
    logging.basicConfig(level=logging.ERROR)
    catalog = default_catalog()
    env = {"REQUESTS_PER_SECOND": str(requests_per_second)} if requests_per_second else {}
    limit = (f" · {requests_per_second} requests/s" if requests_per_second else "") + \
        ("" if limits else " · Discord's rate limits lifted")
    for count, think in ((c, t) for c in counts for t in paces):
        games = f"{count} game{'s' if count > 1 else ''} at once · {pace_name(think)}{limit}"
        if sqlite:
            with tempfile.TemporaryDirectory() as tmp:
                crowd = await play_crowd(count, f"sqlite+aiosqlite:///{tmp}/bench.db", Path(tmp), catalog,
                                         think=think, env=env, limits=limits)
                report(crowd, f"{games} · SQLite · 1 bot process")
        if postgres:
            shards = processes if count >= SHARDED_FROM else 1
            with tempfile.TemporaryDirectory() as tmp:
                crowd = await on_postgres(postgres, count, shards, catalog, Path(tmp), think, env, limits)
                report(crowd, f"{games} · PostgreSQL · {shards} bot process{'es' if shards > 1 else ''}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, nargs="+", default=[1, 10, 40],
                        help="numbers of games to run at once (default 1 10 40)")
    parser.add_argument("--postgres", default=os.environ.get(POSTGRES_ENV),
                        help=f"a PostgreSQL URL whose user may create databases (default: ${POSTGRES_ENV})")
    parser.add_argument("--processes", type=int, default=2,
                        help=f"bot processes for the PostgreSQL runs of {SHARDED_FROM} games or more (default 2)")
    parser.add_argument("--postgres-only", action="store_true", help="skip the SQLite runs")
    parser.add_argument("--think", type=pace, nargs="+", default=[(1.0, 2.0), 0.0],
                        help="seconds each player reads the board before each move, a run each: a figure, or a "
                             "range such as 1-2 (default 1-2 0)")
    parser.add_argument("--no-limits", action="store_true", help="lift Discord's rate limits in the fake Discord")
    parser.add_argument("--requests-per-second", type=int,
                        help="the bot's pace under the global limit (default: its own, 40)")
    args = parser.parse_args()
    if args.postgres_only and not args.postgres:
        parser.error(f"--postgres-only needs --postgres or ${POSTGRES_ENV}")
    asyncio.run(bench(args.games, args.postgres, args.processes, sqlite=not args.postgres_only, paces=args.think,
                      requests_per_second=args.requests_per_second, limits=not args.no_limits))


if __name__ == "__main__":
    main()
