"""How fast community memory reads a big server: 100,000 finished games over 2,000 players.

Run from the repository root:  .venv/bin/python -m bench.bench_community [--url URL] [--games N] [--players N]
On a fresh SQLite file (the bot's settings), or on --url (a scratch database: the bench migrates it and leaves its
rows there). The summaries are those of real games: a few battles are played by the storage tests' scripted
player and their summaries (bot/services/summaries.py) are dealt out to random pairs of players over a year. The game rows
behind them carry a placeholder snapshot, since these queries read only the summaries. It prints p50/p99 of:
  - /game history (a player's newest page),
  - /stats player (the player's rows and their record; the picture is timed apart),
  - /stats server (the server's tallies and the summary),
  - /ladder standings (the first page),
  - /stats faction (the faction records summed in the database, and their text; the picture timed apart), each
    seat given a random detachment of the army data (its LIKE for the snapshots of armies of several detachments
    finds none in the placeholders),
and the time to recompute the ladder from scratch over every game (query, ratings, and writing the table).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import insert

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.store.conftest

from bench import run_on  # noqa: E402
from bot.armies.data import army_data  # noqa: E402
from bot.decks import default_catalog, installed_packs  # noqa: E402
from bot.engine.chapter_approved.game import replay  # noqa: E402
from bot.engine.chapter_approved.state import GameSetup
from bot.services.games import GameService  # noqa: E402
from bot.store.codec import dump_setup  # noqa: E402
from bot.store.community_models import GameSummary, Ladder  # noqa: E402
from bot.store.db import make_engine, make_sessionmaker, upgrade_database  # noqa: E402
from bot.store.history import add_tallies  # noqa: E402
from bot.store.models import Game  # noqa: E402
from bot.services.summaries import summary_row  # noqa: E402
from bot.present.pictures.stats import (  # noqa: E402
    faction_picture, faction_stats, player_picture, player_stats, server_stats,
)
from tests.store.conftest import scripted_game  # noqa: E402

GUILD = 1
SAMPLES = 200
BATCH = 5000


def percentiles(samples: list[float]) -> str:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return f"p50 {cuts[49] * 1000:7.2f} ms   p99 {cuts[98] * 1000:7.2f} ms"


async def timed(samples: int, call) -> list[float]:
    times = []
    for i in range(samples):
        start = time.perf_counter()
        await call(i)
        times.append(time.perf_counter() - start)
    return times


def real_summaries(count: int) -> list[dict]:
    """Summaries of `count` battles played to their end by the scripted player."""
    catalog = default_catalog()
    packs = installed_packs(catalog)
    found = []
    for n in range(count):
        setup = GameSetup(size="strike-force", players=("1", "2"), names=("A", "B"), seed=f"community-{n}")
        state = replay(catalog, setup, scripted_game(catalog, setup))
        found.append(summary_row(packs, state, game_id=0, guild_id=GUILD, channel_id=0))
    return found


async def fill(service: GameService, engine, games: int, players: int) -> None:
    templates = real_summaries(12)
    rng = random.Random(7)
    detachments = list(army_data().detachments.values())
    start = datetime(2025, 11, 1, tzinfo=UTC)
    setup_json = dump_setup(GameSetup(size="strike-force", players=("1", "2"), names=("A", "B"), seed="x"))
    for first in range(0, games, BATCH):
        game_rows, summaries = [], []
        for n in range(first, min(games, first + BATCH)):
            a, b = rng.sample(range(1, players + 1), 2)
            template = rng.choice(templates)
            ended = start + timedelta(seconds=n * 315)  # a year of games
            swap = {template["player_a"]: str(a), template["player_b"]: str(b)}
            game_rows.append(dict(id=n + 1, guild_id=GUILD, channel_id=n + 1, status="ended", version=1,
                                  pack="ca-2025-26", pack_schema=1, setup_json=setup_json, state_json="{}",
                                  seed_hash="0" * 64, created_at=ended, updated_at=ended))
            army_a, army_b = rng.choice(detachments), rng.choice(detachments)
            summaries.append({**template, "game_id": n + 1, "channel_id": n + 1, "player_a": str(a),
                              "faction_a": army_a.faction, "detachment_a": army_a.id,
                              "faction_b": army_b.faction, "detachment_b": army_b.id,
                              "player_b": str(b), "name_a": f"Player {a}", "name_b": f"Player {b}",
                              "winner": swap.get(template["winner"]), "first": swap.get(template["first"]),
                              "challenger": swap.get(template["challenger"]), "ended_at": ended})
        async with engine.begin() as conn:
            await conn.execute(insert(Game.__table__), game_rows)
            await conn.execute(insert(GameSummary.__table__), summaries)
            await add_tallies(conn, summaries)


async def bench(url: str, games: int, players: int) -> None:
    await upgrade_database(url)
    engine = make_engine(url)
    service = GameService(default_catalog(), make_sessionmaker(engine))
    started = time.perf_counter()
    await fill(service, engine, games, players)
    print(f"{games} finished games over {players} players stored in {time.perf_counter() - started:.1f} s ({url})")
    rng = random.Random(11)
    history = service.history

    async def one_history(_):
        await history.history(GUILD, str(rng.randint(1, players)), limit=10)

    async def one_player(_):
        player = str(rng.randint(1, players))
        player_stats(await history.rows(GUILD, player), player)

    async def one_server(_):
        server_stats(await history.server_counts(GUILD))

    print(f"/game history    {percentiles(await timed(SAMPLES, one_history))}")
    print(f"/stats player    {percentiles(await timed(SAMPLES, one_player))}")
    print(f"/stats server    {percentiles(await timed(SAMPLES // 4, one_server))}")
    player = "1"
    stats = player_stats(await history.rows(GUILD, player), player)
    drawing = await timed(20, lambda _: asyncio.to_thread(player_picture, stats))
    print(f"  its picture    {percentiles(drawing)} (in a worker thread)")

    data = army_data()

    async def one_faction(_):
        faction_stats(await history.factions(GUILD), "on this server", data.faction_name, data.detachment_name).text()

    print(f"/stats faction   {percentiles(await timed(SAMPLES // 4, one_faction))}")
    factions = faction_stats(await history.factions(GUILD), "on this server", data.faction_name,
                             data.detachment_name)
    drawing = await timed(20, lambda _: asyncio.to_thread(faction_picture, factions))
    print(f"  its picture    {percentiles(drawing)} (in a worker thread)")

    ladders = service.ladders
    ladder = Ladder(guild_id=GUILD, name="Bench", started_by="0", started_at=datetime(2025, 1, 1, tzinfo=UTC))
    await ladders.repo.start([ladder])
    started = time.perf_counter()
    table = await ladders.recompute(ladder)
    print(f"ladder recompute {time.perf_counter() - started:7.2f} s for {games} games, {len(table)} players")

    async def one_page(i):
        await ladders.repo.page(ladder.id, (i % 10) * 20, 20)

    print(f"/ladder standings {percentiles(await timed(SAMPLES, one_page))}")
    await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="a scratch database (default: a fresh SQLite file)")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    args = parser.parse_args()
    run_on(args.url, bench, args.games, args.players)


if __name__ == "__main__":
    main()
