"""The organiser's desk at the size of a Grand Tournament (GitHub issue "The organiser's desk"): an event of
2 x --tables players whose round is published, its desk open in --desks browsers (their streams), results entered.

Run from the repository root:  .venv/bin/python -m bench.bench_desk [--tables 150] [--desks 10] [--results 150]
The bot runs behind the interaction harness (tests/cogs/harness.py: discord.py's own code, no network to Discord)
with its web pages on 127.0.0.1, and the desk's clients sign in through the fake Discord's OAuth2. Prints:
  - the desk's first load: the page (bytes, ms to its answer) and the stream's first model (bytes, ms);
  - a result's change on the desk: from a result's confirmation (an organiser's entry, from its start: its save
    included) to the first model showing it confirmed on each open desk, p50/p99/max over every (result, desk);
  - the acknowledgements of presses at the tables (each roll-off winner takes Attacker on their board, ten tables at
    once, from the interaction fed to the bot to its answer), p50/p99, with no desk open and with --desks desks open:
    they should not rise.
Figures only: nothing is asserted about time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path

from bench.bench_tables import percentiles
from bot.client import MissionBot
from bot.decks import default_catalog
from bot.ui.tournament.rounds import open_round
from tests.cogs.conftest import harness_settings
from tests.cogs.game_table import verbs
from tests.cogs.harness import Harness
from tests.cogs.test_tournament_commands import MANAGE_SERVER
from tests.web.conftest import free_port
from tests.web.desk_client import DeskClient
from tests.web.fake_oauth import CLIENT_ID, CLIENT_SECRET, FakeOAuth


class Seen:
    """When a desk's stream first showed each table's result confirmed (noted as the models come in)."""

    def __init__(self, client: DeskClient) -> None:
        self.client, self.confirmed_at = client, {}
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while True:
            try:
                event, data = await self.client.frame(timeout=600)
            except Exception:
                return
            if event == "model":
                at = time.perf_counter()
                for t in (data["round"] or {}).get("tables", ()):
                    if t["state"] == "confirmed":
                        self.confirmed_at.setdefault(t["table"], at)

    def confirmed(self, table: int) -> float | None:
        return self.confirmed_at.get(table)


async def acknowledgements(harness: Harness, presses: list[tuple[str, int, object]]) -> list[float]:
    """Press each (custom id, message, user), ten at once as tables play: the time from feeding each to its answer
    (seconds)."""
    answered: dict[str, float] = {}
    callback = harness.model.interaction_callback

    def timed(interaction_id, token, body, files):
        answered.setdefault(token, time.perf_counter())
        return callback(interaction_id, token, body, files)
    harness.model.interaction_callback = timed
    times = []

    async def press(custom_id: str, message: int, user) -> None:
        payload = harness.model.component(custom_id, user, message, None)
        start = time.perf_counter()
        await harness.feed(payload, strict=False)
        if (at := answered.get(payload["token"])) is not None:
            times.append(at - start)
    try:
        for i in range(0, len(presses), 10):
            await asyncio.gather(*(press(*p) for p in presses[i:i + 10]))
    finally:
        harness.model.interaction_callback = callback
    return times


async def bench(tables: int, desks: int, results: int) -> None:
    oauth = FakeOAuth()
    oauth.api = await oauth.start()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        settings = harness_settings(f"sqlite+aiosqlite:///{Path(tmp) / 'desk.db'}", web_port=port,
                                    public_url=f"http://127.0.0.1:{port}", discord_client_id=CLIENT_ID,
                                    discord_client_secret=CLIENT_SECRET, discord_api_url=oauth.api)
        async with Harness(MissionBot(settings, default_catalog())) as h:
            oauth.model = h.model
            organiser = h.user("organiser", permissions=MANAGE_SERVER)
            await h.slash("tournament create", user=organiser, name="Big GT", rounds=5,
                          **{"announce-channel": h.channel("pairings")})
            players = [h.user(f"p{i:03}") for i in range(2 * tables)]
            for p in players:
                await h.bot.tournaments.register(h.guild.id, str(p.id), p.name)
            record = await h.bot.tournaments.pair(h.guild.id)
            current = record.state.event.rounds[-1]
            await h.bot.tournaments.publish(record.id, current.number, current.draw, channel_id=None)
            await open_round(h.bot, await h.bot.tournaments.get(record.id), None)
            record = await h.bot.tournaments.get(record.id)
            print(f"{tables} tables ({2 * tables} players), round 1 published, {len(record.state.table_games)} "
                  "threads open")

            first = DeskClient(h.bot.web.public_url, record.id)
            started = time.perf_counter()
            await first.sign_in(oauth, organiser)
            page_ms = (time.perf_counter() - started) * 1000
            async with first.http.get(first.url) as answer:
                page = await answer.text()
            started = time.perf_counter()
            model = await first.watch()
            stream_ms = (time.perf_counter() - started) * 1000
            size = len(json.dumps(model, separators=(",", ":")))
            print(f"first load: sign-in and page {page_ms:.0f} ms ({len(page.encode()):,} bytes); the stream's first "
                  f"model {stream_ms:.0f} ms ({size:,} bytes)")

            players_by_id = {str(p.id): p for p in players}
            for link in record.state.table_games:  # every challenge accepted: the boards are up
                thread = h.model.channels[link.thread_id]
                [challenge] = [m for m in h.messages(thread) if "accept" in verbs(m)]
                game = await h.bot.service.get_state(game_id=link.game_id)
                await h.press(verbs(challenge)["accept"], user=players_by_id[game.setup.players[1]],
                              message_id=int(challenge["id"]))
            await h.bot.desk.idle()
            sides = []  # each table's roll-off winner takes Attacker: a press at the table, on its board
            for link in record.state.table_games:
                game = await h.bot.service.get_state(game_id=link.game_id)
                [board_id] = await h.bot.service.repo.board_messages(link.game_id)
                board = h.message(board_id.message_id)
                sides.append((verbs(board)["attacker"], int(board["id"]),
                              players_by_id[game.state.sides_rolloff.winner]))
            half = len(sides) // 2
            alone = await acknowledgements(h, sides[:half])

            clients = [first]
            for _ in range(desks - 1):
                client = DeskClient(h.bot.web.public_url, record.id)
                await client.sign_in(oauth, organiser)
                await client.watch()
                clients.append(client)
            seen = [Seen(c) for c in clients]
            watched = await acknowledgements(h, sides[half:])

            latencies = []
            for table in range(1, min(results, tables) + 1):
                saved = time.perf_counter()  # from the entry's start: its save is part of the time
                await h.bot.tournaments.report(h.guild.id, str(organiser.id), table, None, 60, 40, organiser=True)
                for _ in range(500):
                    arrived = [s.confirmed(table) for s in seen]
                    if all(a is not None for a in arrived):
                        break
                    await asyncio.sleep(0.002)
                latencies += [a - saved for a in arrived if a is not None]
            p50, p99 = percentiles(latencies)
            print(f"a result's change on {desks} desks: p50 {p50:.0f} ms, p99 {p99:.0f} ms, "
                  f"max {max(latencies) * 1000:.0f} ms ({len(latencies)} of {min(results, tables) * desks} seen)")
            for name, times in (("no desk open", alone), (f"{desks} desks open", watched)):
                a50, a99 = percentiles(times)
                print(f"acknowledgements at the tables, {name}: p50 {a50:.0f} ms, p99 {a99:.0f} ms "
                      f"({len(times)} presses)")
            for s in seen:
                s.task.cancel()
            for c in clients:
                await c.close()
    await oauth.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--desks", type=int, default=10)
    parser.add_argument("--results", type=int, default=150)
    args = parser.parse_args()
    asyncio.run(bench(args.tables, args.desks, args.results))


if __name__ == "__main__":
    main()
