"""How long the bot takes over each game interaction, through the interaction harness (no network).

Run from the repository root:  .venv/bin/python bench/bench_interactions.py [--games N] [--crowd N]
It prints:
  - p50/p99 of handling each main interaction (button press, menu pick, slash command) from the
    INTERACTION_CREATE payload until discord.py's task for it is done, with its first response
    (the acknowledgement Discord wants within 3 s) and the board edit that follows;
  - for --crowd games in as many channels pressing End turn at the same moment: the slowest
    acknowledgement and the time until every board is edited;
  - memory per active game: tracemalloc (the bot's own allocations, the fake Discord left out) and
    the RSS growth, each divided by the number of games.
Figures only: nothing is asserted about time.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import gc
import logging
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.cogs

from bot.client import MissionBot  # noqa: E402
from bot.decks import default_catalog  # noqa: E402
from bot.engine.chapter_approved import actions as a  # noqa: E402
from bot.engine.chapter_approved.catalog import Catalog  # noqa: E402
from bot.engine.chapter_approved.state import GameSetup
from tests.cogs.conftest import harness_settings  # noqa: E402
from tests.cogs.game_table import (  # noqa: E402
    CUSTOM_ID, Table, battle_steps, find_seed, fixed_turn, tactical_turn, verbs,
)
from tests.cogs.harness import Harness  # noqa: E402

CALLBACK = ("POST", "/interactions/{webhook_id}/{webhook_token}/callback")
BOB_FIXED = ("cleanse", "no-prisoners")


def percentiles(samples: list[float]) -> tuple[float, float]:
    if len(samples) < 2:
        return samples[0] * 1000, samples[0] * 1000
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49] * 1000, cuts[98] * 1000


def label(payload: dict[str, Any]) -> str:
    data = payload["data"]
    if payload["type"] == 2:
        names = [data["name"], *(o["name"] for o in data.get("options", []) if o["type"] in (1, 2))]
        return "/" + " ".join(names)
    match = CUSTOM_ID.match(data["custom_id"])
    kind = "menu" if data["custom_id"].startswith("mds") else "button"
    return f"{kind} {match['verb']}" if match else data["custom_id"]


class Clock:
    """Times every interaction the harness feeds: handling, first response, and the board edit after it."""

    def __init__(self, harness: Harness) -> None:
        self.handled: dict[str, list[float]] = defaultdict(list)
        self.acked: dict[str, list[float]] = defaultdict(list)
        self.board_edits: list[float] = []
        self.sent_at: dict[str, float] = {}
        self.ack_at: dict[str, float] = {}
        feed, callback = harness.feed, harness.routes[CALLBACK]

        async def timed_feed(payload: dict[str, Any], *, strict: bool = True):
            token = payload["token"]
            self.sent_at[token] = time.perf_counter()
            reply = await feed(payload, strict=strict)
            done = time.perf_counter()
            self.handled[label(payload)].append(done - self.sent_at[token])
            self.acked[label(payload)].append(self.ack_at[token] - self.sent_at[token])
            t0 = time.perf_counter()
            await harness.bot.desk.idle()
            self.board_edits.append(time.perf_counter() - t0)
            return reply

        def timed_callback(params: dict[str, str], body: Any, files: list[tuple[str, bytes]]) -> Any:
            self.ack_at.setdefault(params["webhook_token"], time.perf_counter())
            return callback(params, body, files)

        harness.feed = timed_feed  # type: ignore[method-assign]
        harness.route(*CALLBACK, timed_callback)


async def play_games(catalog: Catalog, harness: Harness, clock: Clock, games: int) -> None:
    """Complete games in separate channels, by the complete-game test's script."""
    for n in range(games):
        alice, bob = harness.user(f"alice{n}"), harness.user(f"bob{n}")
        a_id, b_id = str(alice.id), str(bob.id)
        seed = find_seed(catalog, (a_id, b_id), lambda s: s.active == a_id,
                         steps=battle_steps(a_id, b_id, None, BOB_FIXED), prefix=f"bench{n}")
        table = Table(harness, alice, bob)
        channel = harness.channel(f"bench-{n}")
        table.challenge = await harness.slash("game new", user=alice, channel=channel, size="strike-force",
                                              opponent=bob, seed=seed)
        table.game_id = int(CUSTOM_ID.match(table.challenge.custom_ids[0])["game"])
        await table.accept()
        await table.to_battle(first_fixed=None, second_fixed=BOB_FIXED)
        for round_number in range(1, 6):
            await tactical_turn(table, alice, new_orders=round_number == 2)
            await fixed_turn(table, bob, primary=3)


async def crowd(catalog: Catalog, harness: Harness, clock: Clock, games: int) -> tuple[float, float, float, float]:
    """`games` boards in as many channels, each in the Movement-to-Fight phases; End turn on all at once.

    Returns the slowest acknowledgement, the time until every board was edited, and memory per game
    (tracemalloc of the bot's own allocations, RSS growth).
    """
    service, desk = harness.bot.service, harness.bot.desk
    gc.collect()
    rss_before = rss()
    tracemalloc.start(5)  # enough frames to leave out the fake Discord's storage, few enough to stay quick
    before = tracemalloc.take_snapshot()
    presses = []
    for n in range(games):
        alice, bob = harness.user(f"crowd-a{n}"), harness.user(f"crowd-b{n}")
        channel = harness.channel(f"crowd-{n}")
        setup = GameSetup(size="strike-force", players=(str(alice.id), str(bob.id)), names=("Alice", "Bob"),
                          seed=f"crowd-{n}")
        started = await service.start_game(harness.model.guild_id, channel.id, setup)
        for action in battle_steps(str(alice.id), str(bob.id), ("cleanse", "assassination"), BOB_FIXED)(
                started.state):
            result = await service.act(action, channel_id=channel.id)
        result = await service.act(a.EndCommandPhase(actor=result.state.active), channel_id=channel.id)
        record = await service.get_state(game_id=result.game_id)
        board = await desk.board.boards.move(record.id, notify=set(), first=True)
        active = alice if result.state.active == str(alice.id) else bob
        presses.append((verbs(harness.message(board.id))["endturn"], active, board.id))
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    rss_after = rss()
    outside = tracemalloc.Filter(False, "*/tests/*", all_frames=True)  # the fake Discord's own storage
    grown = sum(s.size_diff for s in after.filter_traces([outside]).compare_to(
        before.filter_traces([outside]), "filename"))

    payloads = [harness.model.component(custom_id, user, message_id, None) for custom_id, user, message_id in presses]
    start = time.perf_counter()
    # Delivered as the gateway does, one event after another, without waiting for the bot in between (the
    # harness's feed() waits for each interaction's tasks: thousands at once would time the harness).
    for payload in payloads:
        harness.bot._connection.parse_interaction_create(copy.deepcopy(payload))
    while any(p["token"] not in clock.ack_at for p in payloads):
        await asyncio.sleep(0.01)
    slowest_ack = max(clock.ack_at[p["token"]] - start for p in payloads)
    while [t for t in asyncio.all_tasks() if t.get_name().startswith(Harness.TASK_PREFIXES) and not t.done()]:
        await asyncio.sleep(0.05)
    await desk.idle()
    all_edited = time.perf_counter() - start
    return slowest_ack, all_edited, grown / games, (rss_after - rss_before) / games


def rss() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096


async def bench(games: int, crowd_size: int, tmp: str) -> None:
    logging.basicConfig(level=logging.ERROR)
    catalog = default_catalog()
    settings = harness_settings(database_url=f"sqlite+aiosqlite:///{tmp}/bench.db")
    async with Harness(MissionBot(settings, catalog), timeout=120) as harness:
        clock = Clock(harness)
        await play_games(catalog, harness, clock, games)
        print(f"{games} complete games through the harness (SQLite file, board edits not coalesced):")
        print(f"{'interaction':<28}{'count':>6}{'handled p50':>13}{'p99':>9}{'ack p50':>10}{'p99':>9}  (ms)")
        for name in sorted(clock.handled, key=lambda k: -len(clock.handled[k])):
            h50, h99 = percentiles(clock.handled[name])
            a50, a99 = percentiles(clock.acked[name])
            print(f"{name:<28}{len(clock.handled[name]):>6}{h50:>13.1f}{h99:>9.1f}{a50:>10.1f}{a99:>9.1f}")
        e50, e99 = percentiles(clock.board_edits)
        print(f"{'board edit after it':<28}{len(clock.board_edits):>6}{e50:>13.1f}{e99:>9.1f}")

        slowest, edited, traced, grown_rss = await crowd(catalog, harness, clock, crowd_size)
        print(f"\n{crowd_size} games pressing End turn at the same moment:")
        print(f"  slowest acknowledgement: {slowest * 1000:.0f} ms (Discord's limit: 3000 ms)")
        print(f"  every board edited after: {edited * 1000:.0f} ms")
        print(f"memory per active game: {traced / 1024:.1f} KiB traced (bot only), "
              f"{grown_rss / 1024:.1f} KiB RSS growth")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="complete games to time (default 3)")
    parser.add_argument("--crowd", type=int, default=200, help="games pressing End turn at once (default 200)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(bench(args.games, args.crowd, tmp))


if __name__ == "__main__":
    main()
