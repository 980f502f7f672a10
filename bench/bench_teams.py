"""Team events at scale, through the interaction harness (no network): a round of 64 teams of 8 paired, and its 32
team matches pairing at once (512 players), every captain pressing Choose and picking in the same moment as the
other 63.

Run from the repository root:  .venv/bin/python -m bench.bench_teams [--teams 64] [--postgres URL]
It prints:
  - how long pairing a round of the teams takes (the engine, rounds 1 to 3, with records that differ);
  - for the captains' pairing: how many presses, their acknowledgements (INTERACTION_CREATE delivered until the
    interaction's first response: p50/p99/max), and the wall time from the first press to the last board; first
    with each step's presses arriving over --spread seconds (captains reading their menus), then all at once;
  - on SQLite, and on PostgreSQL too with --postgres (or TEST_POSTGRES_URL).
Figures only: nothing is asserted about time.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import logging
import os
import random
import statistics
import tempfile
import time
import uuid

from bot.client import MissionBot
from bot.decks import default_catalog
from bot.engine.teams import event as teams
from bot.engine.teams.match import WANTED, options
from bot.store.db import upgrade_database
from tests.cogs.conftest import harness_settings
from tests.store.conftest import database_named, drop_database, run_admin
from tests.cogs.harness import Harness
from tests.cogs.test_tournament_commands import MANAGE_SERVER
from tests.discord_model import GUILD_ID, walk_components

CALLBACK = ("POST", "/interactions/{webhook_id}/{webhook_token}/callback")
DISPOSITIONS = ("purge-the-foe", "take-and-hold", "reconnaissance", "priority-assets", "disruption")


def percentiles(samples: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49] * 1000, cuts[98] * 1000


def pairing_times(count: int) -> list[float]:
    """Seconds to pair round 1, 2 and 3 of `count` teams of 8 (records and histories of earlier rounds)."""
    ev = teams.TeamEvent(rules=teams.TeamRules(size=8))
    for t in range(count):
        ev = teams.add_team(ev, f"T{t}", f"{t}-0", [f"{t}-{i}" for i in range(8)])
    rng, times = random.Random(1), []
    for number in (1, 2, 3):
        base = teams.team_records(ev, {})
        records = {k: v.model_copy(update={
            "team_points": rng.randint(number, 3 * number), "game_wins": rng.randint(0, 8 * number),
            "opponents": tuple(rng.sample(sorted(base), number - 1))}) for k, v in base.items()}
        start = time.perf_counter()
        teams.pair_teams(ev, records, number, rng)
        times.append(time.perf_counter() - start)
    return times


class Acks:
    """When each interaction was delivered and first answered."""

    def __init__(self, harness: Harness) -> None:
        self.sent: dict[str, float] = {}
        self.acked: dict[str, float] = {}
        callback = harness.routes[CALLBACK]

        def timed(params: dict[str, str], body, files):
            self.acked.setdefault(params["webhook_token"], time.perf_counter())
            return callback(params, body, files)
        harness.route(*CALLBACK, timed)


async def deliver(harness: Harness, acks: Acks, payloads: list[dict], spread: float, rng: random.Random) -> None:
    """As the gateway delivers them: all in the same instant (`spread` 0), or each at a random moment of the next
    `spread` seconds, as captains reading their menus press; then until every one is answered and the bot is idle."""
    async def one(payload: dict, delay: float) -> None:
        await asyncio.sleep(delay)
        acks.sent[payload["token"]] = time.perf_counter()
        harness.bot._connection.parse_interaction_create(copy.deepcopy(payload))
    await asyncio.gather(*(one(p, rng.uniform(0, spread)) for p in payloads))
    while any(p["token"] not in acks.acked for p in payloads):
        await asyncio.sleep(0.005)
    while [t for t in asyncio.all_tasks() if t.get_name().startswith(Harness.TASK_PREFIXES) and not t.done()]:
        await asyncio.sleep(0.01)


async def run(database_url: str, count: int, spread: float) -> None:
    await upgrade_database(database_url)
    settings = harness_settings(database_url)
    async with Harness(MissionBot(settings, default_catalog()), timeout=300) as harness:
        organiser = harness.user("organiser", permissions=MANAGE_SERVER)
        await harness.slash("tournament create", user=organiser, name="Bench Teams", rounds=3, pack="ca-2026-27",
                            **{"team-size": 8, "announce-channel": harness.channel("pairings"),
                               "pairing-minutes": 60})
        people = {}
        for t in range(count):  # registered through the services: the bench times the pairing
            members = {str(harness.user(f"b{t}-{i}").id): f"P{t}-{i}" for i in range(8)}
            people |= {p: harness.model.users[int(p)] for p in members}
            await harness.bot.teams.register(GUILD_ID, f"Team {t}", next(iter(members)), members)
            for i, player in enumerate(members):
                await harness.bot.tournaments.register(GUILD_ID, player, members[player], DISPOSITIONS[i % 5])
        draft = await harness.slash("tournament pair", user=organiser)
        [publish] = [c for c in draft[-1].custom_ids if c.endswith(":publish")]
        await harness.press(publish, user=organiser)
        acks, presses, start, rng = Acks(harness), 0, time.perf_counter(), random.Random(7)
        while True:
            record = await harness.bot.tournaments.current(GUILD_ID)
            waiting = []
            for pair in record.state.teams.rounds[-1].matches:
                if pair.match.done:
                    continue
                board = next(b for b in record.state.match_boards if b.match == pair.number)
                message = harness.message(board.message_id)
                choose = next(c["custom_id"] for row in message["components"] for c in row["components"]
                              if c["custom_id"].startswith("mdtc:"))
                for side in pair.match.waiting_on():
                    captain = people[record.state.teams.team(pair.teams[side]).captain]
                    picks = list(options(pair.match, side)[:WANTED[pair.match.step]])
                    waiting.append((choose, captain, board.message_id, picks))
            if not waiting:
                break
            await deliver(harness, acks, [harness.model.component(c, u, m, None) for c, u, m, _ in waiting],
                          spread, rng)
            selects = []
            for (_, captain, _, picks) in waiting:
                menu = next(m for m in reversed(list(harness.model.messages.values()))
                            if harness.model.ephemeral_owner.get(int(m["id"])) == captain.id
                            and any(c.get("custom_id", "").startswith("mdtp:")
                                    for c in walk_components(m.get("components") or [])))
                select = next(c["custom_id"] for c in walk_components(menu["components"]) if "custom_id" in c)
                selects.append(harness.model.component(select, captain, int(menu["id"]), picks))
            await deliver(harness, acks, selects, spread, rng)
            presses += len(waiting) * 2
        wall = time.perf_counter() - start
        samples = [acks.acked[t] - acks.sent[t] for t in acks.sent]
        p50, p99 = percentiles(samples)
        record = await harness.bot.tournaments.current(GUILD_ID)
        games = sum(len(p.match.games) for p in record.state.teams.rounds[-1].matches)
        kind = "PostgreSQL" if database_url.startswith("postgresql") else "SQLite"
        when = f"each press within {spread:g} s of its step" if spread else "every press of a step in the same instant"
        print(f"  {kind}, {when}: {presses} presses by {2 * (count // 2)} captains in {count // 2} matches, {games} games "
              f"fixed · ack p50 {p50:.0f} ms · p99 {p99:.0f} ms · max {max(samples) * 1000:.0f} ms · "
              f"wall {wall:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--teams", type=int, default=64, help="teams of 8 (default 64: 32 matches, 512 players)")
    parser.add_argument("--spread", type=float, default=2.0,
                        help="seconds over which a step's presses arrive (default 2; a run with 0 follows)")
    parser.add_argument("--postgres", default=os.environ.get("TEST_POSTGRES_URL"),
                        help="a PostgreSQL URL to run on too (default: TEST_POSTGRES_URL)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    times = pairing_times(args.teams)
    print(f"Pairing a round of {args.teams} teams of 8: " + " · ".join(
        f"round {n} {t * 1000:.0f} ms" for n, t in enumerate(times, 1)))
    print(f"The captains' pairing of {args.teams // 2} team matches at once:")
    for spread in (args.spread, 0.0):
        with tempfile.TemporaryDirectory() as tmp:
            asyncio.run(run(f"sqlite+aiosqlite:///{tmp}/teams.db", args.teams, spread))
        if args.postgres:
            asyncio.run(on_postgres(args.postgres, args.teams, spread))


async def on_postgres(admin_url: str, count: int, spread: float) -> None:
    """On a scratch PostgreSQL database, dropped afterwards."""
    name = f"bench_{uuid.uuid4().hex[:12]}"
    await run_admin(admin_url, f'CREATE DATABASE "{name}"')
    try:
        await run(database_named(admin_url, name), count, spread)
    finally:
        await drop_database(admin_url, name)


if __name__ == "__main__":
    main()
