"""Announcing a big round and opening its table threads: the Discord calls per route, and how long they take
at Discord's rate limits.

Run from the repository root:  .venv/bin/python bench/bench_announce.py [--players N]
Through the interaction harness (the real bot code, no network): an event of N players (default 1,024) is
paired, the organiser's private draft is shown and **Publish** is pressed: it announces the round and opens a
thread per table with both players added and their game offered. It prints every REST call the bot made, by
route, and the time those calls need at Discord's limits:
  - the global limit, 50 requests a second per bot (interaction callbacks and follow-ups are exempt): the
    one Discord publishes, and the one that bounds the threads;
  - sending messages in one channel: 5 messages per 5 seconds (the bucket Discord reports in its rate-limit
    headers for POST /channels/{id}/messages; discord.py waits on those headers by itself). Each thread is
    its own channel, so only the announcement channel's posts queue on one bucket;
  - thread creation in the announcement channel: Discord publishes no figure; the bench shows the time at
    the same 5 per 5 seconds as a cautious bound.
Figures only: nothing is asserted about time.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.cogs

import discord  # noqa: E402

from bot.client import MissionBot  # noqa: E402
from bot.decks import default_catalog  # noqa: E402
from tests.cogs.conftest import harness_settings  # noqa: E402
from tests.cogs.harness import Harness  # noqa: E402
from tests.discord_model import GUILD_ID, MEMBER_PERMISSIONS  # noqa: E402

MANAGE_SERVER = MEMBER_PERMISSIONS | discord.Permissions(manage_guild=True).value
GLOBAL_PER_SECOND = 50
CHANNEL_MESSAGES = (5, 5.0)  # messages, per seconds
EXEMPT = ("/interactions/", "/webhooks/")  # interaction responses and follow-ups: not under the global limit


async def main(players: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
        async with Harness(MissionBot(harness_settings(url), default_catalog()), timeout=120) as harness:
            organiser = harness.user("organiser", permissions=MANAGE_SERVER)
            await harness.slash("tournament create", user=organiser, name="Bench GT", rounds=5)
            service = harness.bot.tournaments  # type: ignore[attr-defined]
            record = await service.current(GUILD_ID)
            ids = [str(10**17 + i) for i in range(players)]
            event = record.state.event.model_copy(update={"players": tuple(ids)})
            state = record.state.model_copy(update={"event": event, "names": {p: f"player{p[-4:]}" for p in ids}})
            await service.repo.save_if_version(record, state)

            first = len(harness.calls)
            started = time.perf_counter()
            draft = await harness.slash("tournament pair", user=organiser)
            paired = time.perf_counter() - started
            started = time.perf_counter()
            await harness.press(draft[-1].custom_ids[0], user=organiser)
            published = time.perf_counter() - started
            made = harness.calls[first:]
            calls = Counter(f"{c.method} {c.route}" for c in made)
            channel = harness.default_channel.id
            in_channel = sum(1 for c in made if c.method == "POST" and c.route == "/channels/{channel_id}/messages"
                             and int(c.params["channel_id"]) == channel)

    print(f"{players} players, {players // 2} tables")
    print(f"bot time (harness, no network): pair + draft {paired:.2f} s, publish + announce {published:.2f} s")
    print("calls by route:")
    for route, count in sorted(calls.items()):
        print(f"  {count:5}  {route}")
    limited = sum(n for route, n in calls.items() if not any(x in route for x in EXEMPT))
    per, seconds = CHANNEL_MESSAGES

    def bucket_time(count: int) -> float:
        return max(0, count - per) / per * seconds  # the first burst goes at once

    threads = calls["POST /channels/{channel_id}/threads"]
    print(f"under the global limit: {limited} calls -> at least {limited / GLOBAL_PER_SECOND:.1f} s")
    print(f"announcement messages in its channel: {in_channel} -> about {bucket_time(in_channel):.0f} s "
          f"at {per} per {seconds:.0f} s")
    print(f"threads opened from that channel: {threads} -> about {bucket_time(threads):.0f} s at {per} per "
          f"{seconds:.0f} s (an assumed bucket); each thread then gets its own 5 per 5 s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1024)
    asyncio.run(main(parser.parse_args().players))
