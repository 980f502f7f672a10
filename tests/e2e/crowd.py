"""Many games at once through the fake Discord, as when a tournament round starts ("Forty tables at once").

The bot runs as separate processes (`python -m bot`'s main(), one per shard), so its CPU time is its own; the
fake Discord and the players stay in this process. Each game gets a channel and two players who press, as
soon as the game lets them, what the bot shows them: /game new, Accept, a side, Tactical Missions, Deployment
done, then turns (End Command phase, End turn, Done scoring, discards, When Drawn answers, units named in a
form) until the board says battle round 2. Who acts next is read from the bot's database (GameRepository); which button to press is
read from the channel: the board's first, else any other message of the game showing it at the game's
current version (a call), so a board re-posted or merged with its calls is still found.

CrowdDiscord times what the tables issue measures: each interaction's acknowledgement (INTERACTION_CREATE
sent to its callback), every REST request, and every write of a game's board. Figures are left to the caller
(bench/bench_tables.py); tests/e2e/test_e2e_crowd.py asserts that nothing was lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import resource
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import web

from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.game import replay
from bot.engine.chapter_approved.state import GameState, Phase, Status
from bot.store.db import make_engine, make_sessionmaker
from bot.store.repository import GameRepository
from tests.cogs.game_table import CUSTOM_ID
from tests.discord_model import EPHEMERAL, LOADING, MODAL, FakeChannel, FakeUser, walk_components
from tests.e2e.fake_discord import FakeDiscord, Handler, bot_command, stop_bot
from tests.e2e.test_e2e_foundation import clean_env

WAIT = 60.0  # seconds for any one step of a game (an answer, a button to appear): bounded, even when crowded
ACK_LIMIT = 3.0  # Discord's: an interaction not acknowledged by then fails for the user
ROUND = re.compile(r"Battle round \*\*(\d+)/5\*\*")
NOT_BOARD = frozenset({"accept", "accept-first", "decline", "rematch"})  # a challenge or result card's buttons
# When Drawn: the plain answer, a form naming units (Marked for Death's targets...), or a menu's first option.
ANSWERS = ("no", "units", "objective", "keep")
FORMS = frozenset({"units"})  # buttons that open a form: the player fills it in and submits it at once
T = TypeVar("T")
Think = float | tuple[float, float]  # seconds a player reads the board before a move: one figure, or from-to


# --- the fake Discord, timed ----------------------------------------------------------------------------------

class CrowdDiscord(FakeDiscord):
    """FakeDiscord that also times acknowledgements, REST requests and board writes, and wakes the players of one
    channel only when something changed there (a crowd of waiters on one condition would scan everything)."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.acked_at: dict[str, float] = {}  # interaction token -> its callback
        self.later: Counter[str] = Counter()  # interaction token -> follow-ups and edits after the callback
        self.rest: list[tuple[float, str, str]] = []  # (time, method, route) of every request served
        self.board_writes: dict[int, list[tuple[float, int]]] = defaultdict(list)  # channel -> (time, version)
        self._in_channel: dict[int, dict[int, None]] = defaultdict(dict)  # channel -> message ids, oldest first
        self._changes: dict[int, asyncio.Event] = {}

    def _routes(self) -> list[tuple[str, str, Handler]]:
        return [(method, path, self._watched(method, path, handler)) for method, path, handler in super()._routes()]

    def _watched(self, method: str, path: str, handler: Handler) -> Handler:
        def handle(request: web.Request, body: Any, files: list[tuple[str, bytes]]) -> Any:
            now = time.perf_counter()
            self.rest.append((now, method, path))
            result = handler(request, body, files)  # a refusal (DiscordError) changed nothing: not seen
            self._seen(now, path, request.match_info, result)
            return result
        return handle

    def _seen(self, now: float, path: str, info: Any, result: Any) -> None:
        token = info.get("token")
        message = result
        if path.endswith("/callback"):
            self.acked_at.setdefault(token, now)
            message = (result.get("resource") or {}).get("message")
        elif token is not None:
            self.later[token] += 1
        if token is not None:
            channel = self.model.interactions[token].channel_id
        else:
            channel = int(info.get("channel", 0))
        if isinstance(message, dict) and "channel_id" in message:
            channel = int(message["channel_id"])
            self._in_channel[channel][int(message["id"])] = None
            board = board_version(message)
            if board is not None:
                self.board_writes[channel].append((now, board))
        event = self._changes.pop(channel, None)
        if event is not None:
            event.set()

    def messages(self, channel: int) -> list[dict[str, Any]]:
        """The channel's messages as they stand, oldest first (not copies: read them, do not change them)."""
        return [self.model.messages[i] for i in self._in_channel[channel] if i in self.model.messages]

    async def changed(self, channel: int, timeout: float) -> None:
        """Return at the next write in the channel, or after `timeout` seconds."""
        event = self._changes.setdefault(channel, asyncio.Event())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)

    async def until(self, channel: int, check: Callable[[], T], what: str) -> T:
        """check()'s first true answer, looked for now and after each write in the channel."""
        deadline = time.perf_counter() + WAIT
        while not (found := check()):
            if time.perf_counter() > deadline:
                raise TimeoutError(f"timed out waiting for {what}")
            await self.changed(channel, deadline - time.perf_counter())
        return found


@dataclass(frozen=True)
class Control:
    """A button or menu of a game, as its custom id names it."""

    custom_id: str
    game: int
    version: int
    verb: str
    options: tuple[str, ...] = ()  # a menu's values


def controls(message: dict[str, Any]) -> list[Control]:
    found = []
    for component in walk_components(message.get("components") or []):
        match = CUSTOM_ID.match(component.get("custom_id", ""))
        if match:
            options = tuple(o["value"] for o in component.get("options", []))
            found.append(Control(match[0], int(match["game"]), int(match["version"]), match["verb"], options))
    return found


def board_version(message: dict[str, Any]) -> int | None:
    """The version a board shows: a public message with an embed and the buttons of a game in play."""
    if message.get("flags", 0) & EPHEMERAL or not message.get("embeds"):
        return None
    versions = [c.version for c in controls(message) if c.verb not in NOT_BOARD]
    return max(versions) if versions else None


# --- the players ----------------------------------------------------------------------------------------------

@dataclass
class Press:
    verb: str
    token: str
    sent: float
    acked: float | None = None
    version: int | None = None  # the game's version this press made (None: it made none)

    @property
    def ack(self) -> float | None:
        return None if self.acked is None else self.acked - self.sent


@dataclass
class Game:
    """One table: its channel and players, and what happened there."""

    channel: FakeChannel
    first: FakeUser
    second: FakeUser
    game_id: int = 0
    presses: list[Press] = field(default_factory=list)
    accepted: int = 0  # moves the bot took (the game's version went up by one)
    refused: list[str] = field(default_factory=list)  # what the bot said to presses it did not take
    failed: str | None = None  # why it did not start
    stuck: str | None = None  # why it stopped before battle round 2
    reached: bool = False  # the board showed battle round 2
    challenged: float | None = None  # seconds from /game new to its challenge in the channel


def next_move(state: GameState) -> tuple[str, str, tuple[str, ...]]:
    """Who acts next, on which board button, and what they then press in the private menu it opens (if any)."""
    if state.prompts:
        return state.prompts[0].player, "answer", ANSWERS
    if state.status == Status.SIDES:
        return state.sides_rolloff.winner, "attacker", ()
    if state.status == Status.SECONDARIES:
        return next(p.id for p in state.players if p.choice is None), "choose", ("tactical",)
    if state.status == Status.DEPLOYMENT:
        order = (state.deploys_first, state.opponent(state.deploys_first).id)
        return next(p for p in order if p not in state.deployed), "deployed", ()
    active = state.active
    if state.phase == Phase.COMMAND:
        return active, "endcmd", ()
    if state.phase == Phase.BATTLE:
        return active, "endturn", ()
    if state.phase == Phase.END_OF_TURN:
        return (active if active not in state.scoring_done else state.opponent(active).id), "done", ()
    return state.discard_queue[0], "discard", ("keep",)


class Table:
    """Two players at one game, each press made as soon as the game allows it."""

    def __init__(self, fake: CrowdDiscord, games: GameRepository, game: Game, seed: str,
                 started: Callable[[Game], Awaitable[None]] | None = None, think: Think = 0.0) -> None:
        self.fake, self.model, self.games, self.game, self.seed = fake, fake.model, games, game, seed
        self.channel = game.channel.id
        self.started = started  # told of the game once its board is up (bench/bench_web.py opens its pages)
        self.think = think if isinstance(think, tuple) else (think, think)  # seconds before each move: from, to
        self._pace = random.Random(seed)  # each table its own pace, the same at every run

    async def play(self) -> None:
        try:
            if await self._start():
                if self.started is not None:
                    await self.started(self.game)
                await self._to_round_two()
        except Exception as exc:  # one table's trouble is a figure, not the end of the crowd
            self.game.stuck = f"{type(exc).__name__}: {exc}"

    async def _send(self, payload: dict[str, Any], verb: str) -> Press:
        press = Press(verb, payload["token"], time.perf_counter())
        self.game.presses.append(press)
        await self.fake.dispatch("INTERACTION_CREATE", payload)
        press.acked = await self.fake.until(self.channel, lambda: self.fake.acked_at.get(press.token),
                                            f"the answer to {verb} in game {self.game.game_id}")
        return press

    async def _reply(self, press: Press) -> dict[str, Any]:
        """The bot's answer to a press (a private menu): its response, or a follow-up (the pressed board, which a
        deferred update leaves as it is, is not it)."""
        def reply() -> dict[str, Any] | None:
            record = self.model.interactions[press.token]
            own = record.original_id if record.original_id != record.message_id else None
            for message_id in (own, *record.followup_ids):
                message = self.model.messages.get(message_id)
                if message is not None and not message["flags"] & LOADING:
                    return message
            return None
        return await self.fake.until(self.channel, reply, f"the answer to {press.verb} in game {self.game.game_id}")

    async def _start(self) -> bool:
        """/game new and Accept; False (the game failed to start) unless both are answered in time, without error."""
        game = self.game
        options = {"opponent": game.second, "size": "strike-force", "seed": self.seed}
        press = await self._send(self.model.slash("game new", game.first, game.channel, options), "/game new")
        # The challenge may be the answer itself or come after a private "thinking…".
        found = await self.fake.until(self.channel, lambda: self._refusal(press) or self._challenge(),
                                      "the challenge or a refusal")
        if isinstance(found, str):
            game.failed = f"/game new answered: {found[:100]!r}"
            return False
        challenge, accept = found
        game.game_id, game.challenged = accept.game, time.perf_counter() - press.sent
        if press.ack > ACK_LIMIT:
            game.failed = f"/game new answered after {press.ack:.1f} s"
            return False
        press = await self._send(self.model.component(accept.custom_id, game.second, int(challenge["id"]), None),
                                 "accept")
        if press.ack > ACK_LIMIT:
            game.failed = f"Accept answered after {press.ack:.1f} s"
            return False
        found = await self.fake.until(
            self.channel, lambda: self._refusal(press) or bool(self.fake.board_writes[self.channel]),
            f"the board of game {game.game_id} or a refusal")
        if isinstance(found, str):
            game.failed = f"Accept answered: {found[:100]!r}"
        return game.failed is None

    def _challenge(self) -> tuple[dict[str, Any], Control] | None:
        for message in reversed(self.fake.messages(self.channel)):
            accept = next((c for c in controls(message) if c.verb == "accept"), None)
            if accept is not None and not message["flags"] & EPHEMERAL:
                return message, accept
        return None

    def _refusal(self, press: Press) -> str | None:
        """What the bot told the presser alone about a press that should have had public answers only."""
        record = self.model.interactions[press.token]
        for message_id in (record.original_id, *record.followup_ids):
            message = self.model.messages.get(message_id)
            if message is not None and message["flags"] & EPHEMERAL and not message["flags"] & LOADING:
                return message["content"] or "(no text)"
        return None

    async def _to_round_two(self) -> None:
        refusals = 0
        while True:
            record = await self.games.get_game(self.game.game_id)
            state = record.state
            if state.status == Status.BATTLE and state.round >= 2:
                break
            if state.status in (Status.ENDED, Status.ABANDONED):
                raise AssertionError(f"the game ended: {state.status}")
            player, verb, then = next_move(state)
            await asyncio.sleep(self._pace.uniform(*self.think))  # a player reading the board (0: pressing at once)
            user = self.game.first if player == str(self.game.first.id) else self.game.second
            message, control = await self.fake.until(
                self.channel, lambda: self._offered(verb, record.version),
                f"{verb} at version {record.version} of game {self.game.game_id}")
            if then:  # a private menu first
                opened = await self._send(self.model.component(control.custom_id, user, int(message["id"]), None), verb)
                message = await self._reply(opened)
                control = next((c for want in then for c in controls(message) if c.verb == want), None)
                if control is None:
                    self.game.refused.append(f"{verb} at version {record.version}: {message['content']}")
            if control is not None and await self._act(user, message, control, record.version):
                refusals = 0
                continue
            refusals += 1
            if refusals > 3:
                raise AssertionError(f"{verb} refused {refusals} times in a row")
        await self.fake.until(self.channel, lambda: self._board_round() >= 2,
                              f"the board of game {self.game.game_id} to show battle round 2")
        self.game.reached = True

    def _offered(self, verb: str, version: int) -> tuple[dict[str, Any], Control] | None:
        """The newest public message offering `verb` at `version`: a board (it has an embed) before any other."""
        other = None
        for message in reversed(self.fake.messages(self.channel)):
            if message["flags"] & EPHEMERAL:
                continue
            for control in controls(message):
                if (control.game, control.verb, control.version) == (self.game.game_id, verb, version):
                    if message["embeds"]:
                        return message, control
                    other = other or (message, control)
        return other

    def _shown_version(self) -> int:
        return max((c.version for m in self.fake.messages(self.channel) if not m["flags"] & EPHEMERAL
                    for c in controls(m) if c.game == self.game.game_id), default=-1)

    def _board_round(self) -> int:
        return max((int(found[1]) for m in self.fake.messages(self.channel) if not m["flags"] & EPHEMERAL
                    for embed in m["embeds"] if (found := ROUND.search(embed.get("description") or ""))), default=0)

    def _filled(self, user: FakeUser, opened_by: int) -> dict[str, Any]:
        """The submission of the form the press `opened_by` opened, every text input filled in."""
        form = next(m for owner, m, by in reversed(self.model.modals) if by == opened_by)
        inputs = [c["custom_id"] for c in walk_components(form["components"]) if c["type"] == 4]
        return self.model.modal_submit(form["custom_id"], user, {c: f"Squad {i + 1}" for i, c in enumerate(inputs)})

    async def _act(self, user: FakeUser, message: dict[str, Any], control: Control, version: int) -> bool:
        """Press a control that moves the game; True once the bot took the move, False if it refused it."""
        values = list(control.options[:1]) if control.options else None
        press = await self._send(self.model.component(control.custom_id, user, int(message["id"]), values),
                                 control.verb)
        if control.verb in FORMS:
            record = self.model.interactions[press.token]
            if record.response_type != MODAL:  # refused instead of the form
                self.game.refused.append(f"{control.verb} at version {version}: {self._refusal(press)}")
                return False
            press = await self._send(self._filled(user, record.id), "form")
        deadline = time.perf_counter() + WAIT
        asked = time.perf_counter()
        while time.perf_counter() < deadline:
            moved = self._shown_version() > version
            if not moved and (self.fake.later[press.token] or time.perf_counter() - asked > 1.0):
                # A follow-up may be a refusal or the mover's private lines: the database tells which.
                asked = time.perf_counter()
                moved = (await self.games.get_game(self.game.game_id)).version > version
                if not moved and self.fake.later[press.token]:
                    self.game.refused.append(f"{control.verb} at version {version}: {self._refusal(press)}")
                    return False
            if moved:
                press.version = version + 1
                self.game.accepted += 1
                return True
            await self.fake.changed(self.channel, 0.5)
        raise TimeoutError(f"{control.verb} in game {self.game.game_id} was neither taken nor refused")


# --- the bot, in its own processes ----------------------------------------------------------------------------

class BotProcess:
    """`python -m bot`'s main() for one shard (or unsharded), as a child process talking to the fake Discord."""

    def __init__(self, fake: FakeDiscord, database_url: str, workdir: Path, shard: int, shards: int,
                 env: dict[str, str] | None = None) -> None:
        self.fake, self.database_url, self.shard, self.shards = fake, database_url, shard, shards
        self.env = env or {}
        self.logs = workdir / f"bot-{shard}.log"
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        env = {**clean_env(), "DISCORD_TOKEN": self.fake.token, "DATABASE_URL": self.database_url, "LOG_LEVEL": "INFO",
               **self.env}
        if self.shards > 1:  # the global limit is the bot's: the processes share it, as docs/admins/scaling.md says
            env |= {"SHARD_COUNT": str(self.shards), "SHARD_IDS": str(self.shard),
                    "REQUESTS_PER_SECOND": str(40 // self.shards)}
        with self.logs.open("ab") as logs:
            self.process = await asyncio.create_subprocess_exec(
                *bot_command(self.fake), cwd=self.logs.parent, env=env, stdout=logs, stderr=logs)
        deadline = time.perf_counter() + WAIT
        while self.shard not in self.fake.shards or (self.shard == 0 and "game" not in self.fake.model.command_names()):
            if self.process.returncode is not None or time.perf_counter() > deadline:
                raise AssertionError(f"bot process {self.shard} did not connect:\n{self.log()[-4000:]}")
            await asyncio.sleep(0.05)

    def cpu(self) -> float:
        """Seconds of CPU the process has used (user + system), from /proc."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    async def stop(self) -> None:
        if self.process is not None:
            await stop_bot(self.process)

    def log(self) -> str:
        return self.logs.read_text(encoding="utf-8", errors="replace") if self.logs.exists() else ""


# --- a crowd --------------------------------------------------------------------------------------------------

@dataclass
class Crowd:
    """What one crowd did: its games, the fake's timings, and the time and CPU it took."""

    games: list[Game]
    fake: CrowdDiscord
    started: float  # perf_counter() when the first /game new was sent
    wall: float
    bot_cpu: float
    driver_cpu: float  # this process: the fake Discord and the players
    lost: list[str]  # games whose stored log does not match the moves the bot took
    logs: str

    @property
    def presses(self) -> list[Press]:
        return [p for g in self.games for p in g.presses]

    def acks(self) -> list[float]:
        return [p.ack for p in self.presses if p.ack is not None]

    def board_edits(self) -> list[float]:
        """Each taken move to the first write of its game's board showing it."""
        waits = []
        for game in self.games:
            writes = self.fake.board_writes[game.channel.id]
            for press in game.presses:
                if press.version is not None:
                    shown = next((t for t, v in writes if t >= press.sent and v >= press.version), None)
                    if shown is not None:
                        waits.append(shown - press.sent)
        return waits

    def requests(self) -> list[tuple[float, str, str]]:
        return [r for r in self.fake.rest if self.started <= r[0] <= self.started + self.wall]


async def lost_moves(games: GameRepository, catalog: Catalog, played: list[Game]) -> list[str]:
    """Games whose log is not 1..version, not as long as the moves the bot took, or does not replay to its state."""
    problems = []
    for game in played:
        if not game.game_id:
            continue
        record = await games.get_game(game.game_id)
        log = await games.list_actions(game.game_id)
        if [e.seq for e in log] != list(range(1, record.version + 1)) or len(log) != game.accepted:
            problems.append(f"game {game.game_id}: {len(log)} logged, version {record.version}, "
                            f"{game.accepted} moves taken")
        elif replay(catalog, record.setup, [e.action for e in log]) != record.state:
            problems.append(f"game {game.game_id}: its log does not replay to its state")
    return problems


async def play_crowd(count: int, database_url: str, workdir: Path, catalog: Catalog, *, processes: int = 1,
                     env: dict[str, str] | None = None,
                     on_start: Callable[[Game], Awaitable[None]] | None = None, think: Think = 0.0,
                     limits: bool = False) -> Crowd:
    """`count` games at once against `processes` bot processes (shards) on one database; all started together.
    `env`: more settings of the bot processes; `on_start`: told of each game once its board is up; `think`: seconds
    each player waits before each move (0: they press as soon as the game lets them; (1, 2): between 1 and 2 s);
    `limits`: the fake Discord answers under Discord's rate limits (tests/e2e/discord_limits.py)."""
    async with CrowdDiscord(lifetime=3600, limits=limits) as fake:
        model = fake.model
        guilds = [model.add_guild(f"Server {n}", shard=(n, processes)) for n in range(processes)]
        games = [Game(model.add_channel(f"table-{i}", guilds[i % processes]), model.add_user(f"attacker{i}"),
                      model.add_user(f"defender{i}")) for i in range(count)]
        bots = [BotProcess(fake, database_url, workdir, shard, processes, env) for shard in range(processes)]
        engine = None
        try:
            await asyncio.gather(*(bot.start() for bot in bots))
            engine = make_engine(database_url)
            repo = GameRepository(make_sessionmaker(engine))
            cpu, mine, started = sum(b.cpu() for b in bots), _own_cpu(), time.perf_counter()
            await asyncio.gather(*(Table(fake, repo, g, f"crowd-{i}", on_start, think).play() for i, g in enumerate(games)))
            wall = time.perf_counter() - started
            cpu, mine = sum(b.cpu() for b in bots) - cpu, _own_cpu() - mine
            lost = await lost_moves(repo, catalog, games)
        finally:
            await asyncio.gather(*(bot.stop() for bot in bots))
            if engine is not None:
                await engine.dispose()
        return Crowd(games, fake, started, wall, cpu, mine, lost, "\n".join(bot.log() for bot in bots))


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
