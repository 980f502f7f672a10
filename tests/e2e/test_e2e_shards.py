"""Two real bot processes, one per shard, over one PostgreSQL and the fake Discord on 127.0.0.1.

Each process is `bot.__main__.main()` in a subprocess with SHARD_COUNT=2 and its own SHARD_IDS, pointed at
the fake Discord, which gives each connection only the servers of its shard and sends each server's
interactions on that connection alone. Two servers (one per shard) each play two games in two channels
and run a tournament, all at once; the process of shard 1 is killed while a press is in flight and started
again, and the games go on from the boards posted before. The database then shows every game's log
contiguous and replaying to its snapshot, each action once, and every press answered once.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.game import replay
from bot.engine.chapter_approved.state import Status
from bot.store.db import make_engine, make_sessionmaker
from bot.store.repository import GameRecord, GameRepository
from bot.store.tournament_models import TournamentStatus
from bot.store.tournament_repository import TournamentRepository
from tests.cogs.game_table import CUSTOM_ID, verbs
from tests.discord_model import MEMBER_PERMISSIONS, FakeChannel, FakeUser, Sent, shard_of, walk_components
from tests.e2e.fake_discord import FakeDiscord, bot_command, stop_bot
from tests.e2e.test_e2e_foundation import clean_env
from tests.store.conftest import scratch_postgres

SHARDS = 2
WAIT = 30.0  # seconds for any one step: generous on a busy machine, still bounded
MANAGE_SERVER = MEMBER_PERMISSIONS | discord.Permissions(manage_guild=True).value


@pytest.fixture
async def database_url() -> AsyncIterator[str]:
    """An empty PostgreSQL database (skipped without TEST_POSTGRES_URL): both processes migrate it at once."""
    async for url in scratch_postgres(None):
        yield url


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[AsyncEngine]:
    engine = make_engine(database_url)
    yield engine
    await engine.dispose()


async def until(check: Callable[[], Awaitable[bool]], what: str, timeout: float = WAIT) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def answers(fake: FakeDiscord, payload: dict[str, Any]) -> list[Sent]:
    """Deliver an interaction; what the bot answered to it (other games go on at the same time)."""
    sent = await fake.interact(payload, timeout=WAIT)
    return [s for s in sent if s.interaction_id == int(payload["id"])]


class BotProcess:
    """`python -m bot`'s main() for one shard, as a child process talking to the fake Discord."""

    def __init__(self, fake: FakeDiscord, shard: int, database_url: str, tmp_path: Path) -> None:
        self.fake, self.shard, self.database_url = fake, shard, database_url
        self.logs = tmp_path / f"shard-{shard}.log"
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        env = {**clean_env(), "DISCORD_TOKEN": self.fake.token, "DATABASE_URL": self.database_url,
               "SHARD_COUNT": str(SHARDS), "SHARD_IDS": str(self.shard), "LOG_LEVEL": "INFO"}
        identified = self.identifies()
        with self.logs.open("ab") as logs:
            self.process = await asyncio.create_subprocess_exec(
                *bot_command(self.fake), cwd=self.logs.parent, env=env, stdout=logs, stderr=logs)

        async def connected() -> bool:
            if self.process.returncode is not None:
                raise AssertionError(f"shard {self.shard} stopped:\n{self.log()}")
            return self.identifies() > identified and self.shard in self.fake.shards
        await until(connected, f"shard {self.shard} to identify", timeout=60)

    def identifies(self) -> int:
        return sum(1 for i in self.fake.identifies if i.get("shard") == [self.shard, SHARDS])

    async def kill(self) -> None:
        """As a crash or `kill -9` would: no clean-up at all."""
        self.process.kill()
        await self.process.wait()
        await until(self._disconnected, f"shard {self.shard}'s connection to drop")

    async def stop(self) -> None:
        if self.process is not None:
            await stop_bot(self.process)

    async def _disconnected(self) -> bool:
        return self.shard not in self.fake.shards

    def log(self) -> str:
        return self.logs.read_text(encoding="utf-8", errors="replace")


class Channel:
    """Two players at a game in one channel, pressing what the fake Discord shows them; the state and the
    board's id are read from the database, as no test code runs inside the bot processes."""

    def __init__(self, fake: FakeDiscord, games: GameRepository, channel: FakeChannel, first: FakeUser,
                 second: FakeUser) -> None:
        self.fake, self.model, self.games = fake, fake.model, games
        self.channel, self.first, self.second = channel, first, second
        self.game_id = 0
        self.board_id = 0

    async def record(self) -> GameRecord:
        record = await self.games.get_game(self.game_id)
        assert record is not None
        return record

    async def record_is(self, version: int) -> bool:
        return (await self.record()).version == version

    def user(self, player_id: str) -> FakeUser:
        return self.first if player_id == str(self.first.id) else self.second

    def board(self) -> dict[str, Any]:
        return self.model.messages[self.board_id]

    def board_version(self) -> int | None:
        ids = list(verbs(self.board()).values())
        return int(CUSTOM_ID.match(ids[0])["version"]) if ids else None

    async def current_board(self) -> dict[str, Any]:
        """The live board (it moves to the bottom when the game calls someone) once the bot has drawn it for the
        game's latest version."""
        async def drawn() -> bool:
            boards = await self.games.board_messages(self.game_id)
            if not boards or boards[-1].message_id not in self.model.messages:
                return False
            self.board_id = boards[-1].message_id
            return self.board_version() == (await self.record()).version
        await until(drawn, f"the board of game {self.game_id} to show the latest version")
        return self.board()

    async def interact(self, payload: dict[str, Any]) -> list[Sent]:
        return await answers(self.fake, payload)

    async def start(self, seed: str) -> None:
        await self.interact(self.model.slash("game new", self.first, self.channel,
                                             {"size": "strike-force", "opponent": self.second, "seed": seed}))

        def challenges() -> list[dict[str, Any]]:  # it follows the acknowledgement
            return [m for m in self.model.channel_messages(self.channel.id) if "accept" in verbs(m)]

        async def challenged() -> bool:
            return bool(challenges())
        await until(challenged, f"the challenge in {self.channel.name}")
        challenge = challenges()[-1]
        self.game_id = int(CUSTOM_ID.match(verbs(challenge)["accept"])["game"])
        await self.interact(self.model.component(verbs(challenge)["accept"], self.second, int(challenge["id"]), None))

        async def posted() -> bool:
            boards = await self.games.board_messages(self.game_id)
            return bool(boards) and boards[0].message_id in self.model.messages
        await until(posted, f"the board of game {self.game_id}")
        self.board_id = (await self.games.board_messages(self.game_id))[0].message_id

    async def press(self, verb: str, user: FakeUser) -> list[Sent]:
        """Press a board button; the bot answers first ("thinking…") and acts after: wait for the action."""
        board = await self.current_board()
        return await self.act(self.model.component(verbs(board)[verb], user, self.board_id, None))

    async def act(self, payload: dict[str, Any]) -> list[Sent]:
        version = (await self.record()).version
        sent = await self.interact(payload)

        async def applied() -> bool:
            return (await self.record()).version > version
        await until(applied, f"a press on game {self.game_id} to be applied")
        return sent

    async def to_battle(self) -> None:
        """Sides, both players pick the first two Fixed Missions offered (no draws, so no questions), deploy."""
        await self.press("attacker", self.user((await self.record()).state.sides_rolloff.winner))
        for user in (self.first, self.second):
            board = await self.current_board()
            payload = self.model.component(verbs(board)["choose"], user, self.board_id, None)
            await self.interact(payload)
            record = self.model.interactions[payload["token"]]

            async def menu_sent() -> bool:  # it follows the acknowledgement, privately
                return any("fixed" in verbs(self.model.messages.get(i, {})) for i in record.followup_ids)
            await until(menu_sent, f"{user.name}'s menu")
            menu = next(self.model.messages[i] for i in record.followup_ids if "fixed" in verbs(self.model.messages[i]))
            offered = [o["value"] for c in walk_components(menu["components"]) if c["type"] == 3 for o in c["options"]]
            await self.act(self.model.component(verbs(menu)["fixed"], user, int(menu["id"]), offered[:2]))
        for user in (self.first, self.second):
            await self.press("deployed", user)
        await self.current_board()
        assert (await self.record()).state.status == Status.BATTLE

    async def turn(self) -> None:
        """The active player's turn: End Command phase, End turn, then both players press Done scoring."""
        active = self.user((await self.record()).state.active)
        for verb in ("endcmd", "endturn", "done"):
            await self.press(verb, active)
        await self.press("done", self.first if active == self.second else self.second)
        await self.current_board()


class Tournament:
    """An organiser runs a one-round event of four in one server; one table reports and confirms by button."""

    def __init__(self, fake: FakeDiscord, channel: FakeChannel, organiser: FakeUser, players: list[FakeUser]) -> None:
        self.fake, self.model, self.channel = fake, fake.model, channel
        self.organiser, self.players = organiser, players

    async def slash(self, command: str, user: FakeUser, **options: Any) -> list[Sent]:
        return await answers(self.fake, self.model.slash(command, user, self.channel, options))

    async def open(self, repo: TournamentRepository) -> None:
        await self.slash("tournament create", self.organiser, name=f"Shard {self.channel.guild_id} GT", rounds=1)
        for player in self.players:
            await self.slash("tournament register", self.organiser, player=player)
        await self.slash("tournament pair", self.organiser)

        async def paired() -> bool:  # the pairing answers "thinking…" first
            record = await repo.active(self.channel.guild_id)
            return record is not None and len(record.state.event.rounds) == 1
        await until(paired, f"round 1 of the tournament of server {self.channel.guild_id}")
        # The round is the organiser's private draft until they press Publish on it.
        record = await repo.active(self.channel.guild_id)
        publish = f"mdtd:{record.id}:1:0:publish"

        async def drafted() -> bool:  # saved first, then shown to the organiser
            return any(s.message and publish in str(s.message) for s in self.model.sent)
        await until(drafted, f"the draft of round 1 of server {self.channel.guild_id}")
        draft = next(s.message for s in reversed(self.model.sent) if s.message and publish in str(s.message))
        await answers(self.fake, self.model.component(publish, self.organiser, int(draft["id"]), None))

    async def results(self, repo: TournamentRepository) -> None:
        record = await repo.active(self.channel.guild_id)
        assert len(record.state.event.players) == len(self.players)
        first, second = record.state.event.rounds[-1].pairings.tables[:2]
        reporter = next(p for p in self.players if str(p.id) == first.a)
        opponent = next(p for p in self.players if str(p.id) == first.b)
        sent = await self.slash("tournament result", reporter, table=first.table, outcome="a_wins", **{"vp-a": 70, "vp-b": 55})
        report = next(s.message for s in sent if s.message and s.message["components"])
        confirm = next(c["custom_id"] for c in walk_components(report["components"]) if "custom_id" in c)
        await answers(self.fake, self.model.component(confirm, opponent, int(report["id"]), None))
        await self.slash("tournament result", self.organiser, table=second.table, outcome="draw", **{"vp-a": 60, "vp-b": 60})
        await self.slash("tournament finish", self.organiser)


async def test_two_processes_one_shard_each_over_one_postgres(
        catalog: Catalog, database_url: str, db: AsyncEngine, tmp_path: Path) -> None:
    async with FakeDiscord(lifetime=240) as fake:
        model = fake.model
        guilds = [model.add_guild(f"Server {n}", shard=(n, SHARDS)) for n in range(SHARDS)]
        channels = {g: [model.add_channel(f"table-{n}", g) for n in range(2)] for g in guilds}
        people = [model.add_user(f"player{n}") for n in range(8)]
        organiser = model.add_user("organiser", permissions=MANAGE_SERVER)
        sessions = make_sessionmaker(db)
        games, events = GameRepository(sessions), TournamentRepository(sessions)
        tables = {g: [Channel(fake, games, c, people[2 * n], people[2 * n + 1]) for n, c in enumerate(channels[g])]
                  for g in guilds}
        tournaments = {g: Tournament(fake, channels[g][0], organiser, people[:4]) for g in guilds}
        bots = [BotProcess(fake, shard, database_url, tmp_path) for shard in range(SHARDS)]
        try:
            await asyncio.gather(*(bot.start() for bot in bots))  # both migrate the empty database at once
            assert sorted(tuple(i["shard"]) for i in fake.identifies) == [(0, SHARDS), (1, SHARDS)]
            assert [shard_of(g, SHARDS) for g in guilds] == [0, 1]
            assert {"game", "tournament"} <= set(model.command_names())

            # Both servers, all at once: four games to the battle and one turn each, two tournaments paired.
            every = [t for g in guilds for t in tables[g]]
            await asyncio.gather(*(t.start(f"shards-{n}") for n, t in enumerate(every)),
                                 *(tournaments[g].open(events) for g in guilds))
            await asyncio.gather(*(t.to_battle() for t in every))
            await asyncio.gather(*(t.turn() for t in every))

            # Shard 1's process dies while a press is in flight; shard 0's games go on meanwhile.
            crashed = tables[guilds[1]][0]
            before = (await crashed.record()).version
            board = await crashed.current_board()
            active = crashed.user((await crashed.record()).state.active)
            in_flight = model.component(verbs(board)["endcmd"], active, crashed.board_id, None)
            await fake.dispatch("INTERACTION_CREATE", in_flight)
            await bots[1].kill()
            await asyncio.gather(*(t.turn() for t in tables[guilds[0]]))

            # Started again: the player presses the same button again; it is applied once in all.
            await bots[1].start()
            await crashed.interact(model.component(verbs(board)["endcmd"], active, crashed.board_id, None))
            await until(lambda: crashed.record_is(before + 1), "the pressed-again button to be settled")
            await crashed.current_board()
            assert (await crashed.record()).version == before + 1
            await crashed.press("endturn", active)
            for user in (crashed.first, crashed.second):
                await crashed.press("done", user)
            await asyncio.gather(*(t.turn() for t in every), *(tournaments[g].results(events) for g in guilds))
        finally:
            await asyncio.gather(*(bot.stop() for bot in bots))
        logs = "\n".join(bot.log() for bot in bots)

        # Every game: its log numbered 1..version with nothing missing or doubled, replaying to its snapshot.
        for table in every:
            record = await table.record()
            log = await games.list_actions(table.game_id)
            assert [e.seq for e in log] == list(range(1, record.version + 1))
            assert replay(catalog, record.setup, [e.action for e in log]) == record.state
            assert record.state.status == Status.BATTLE and record.state.round == 2
        kinds = Counter(e.action.kind for e in await games.list_actions(crashed.game_id))
        assert kinds["end_command_phase"] == kinds["end_turn"] == 3 and kinds["done_scoring"] == 6  # both players

        # Every tournament: created, four registrations, a pairing published, its tables' opening marked, each table
        # game linked as it opened, the opening done, a report, its confirmation (the result), the end.
        for guild in guilds:
            event = await events.latest(guild)
            assert (event.status, event.version) == (TournamentStatus.FINISHED, 14)
            assert len(event.state.event.rounds[0].results) == 2

        # Every press answered exactly once (the one in flight at the crash at most once).
        answers = Counter(s.interaction_id for s in model.sent if s.kind == "response")
        pressed = {r.id for r in model.interactions.values()}
        assert set(answers) >= pressed - {int(in_flight["id"])} and set(answers.values()) == {1}
        # Only shard 0's process publishes the commands; nothing went wrong in either process.
        assert fake.requests.count(("PUT", f"/api/v10/applications/{model.app_id}/commands")) == 1
        assert sum(1 for i in fake.identifies if i["shard"] == [1, SHARDS]) == 2
        assert "Traceback" not in logs and not re.search(r"\bERROR\b", logs), logs[-4000:]
        assert fake.unhandled == []

