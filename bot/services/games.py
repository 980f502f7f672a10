"""The one way the bot changes a game: per-channel lock -> load -> engine -> version-checked save.

The lock is held only across that sequence, never across a Discord call. It keeps actions in one
channel in order within this process; the version check in the store catches everything else (another
shard or process, a board drawn before the game moved on).

Active games are kept in memory as last loaded or saved, so an action costs one write transaction.
The copy is only a cache, of the most recent CACHED_GAMES games. Another process may have changed a game
since (it should not: a channel belongs to one shard, and a shard to one process): the version check at
the save catches that, a board newer than the copy is checked against a fresh read,
and any refusal is checked against a fresh read before it is reported, so a stale copy never loses an
action nor refuses one wrongly.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.plumbing.changes import Change, ChangeStream
from bot.decks import installed_packs
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.errors import GameError, NotAPlayer
from bot.engine.events import Event
from bot.engine.moves import Abandon
from bot.engine.packs import ChapterApprovedRules, Packs, is_mission_deck
from bot.engine.rng import seed_hash
from bot.engine.table.rules import TableRules
from bot.engine.sides import only_players, seat_of
from bot.services.game_log import export_game
from bot.services.ladders import Ladders
from bot.plumbing.locks import KeyedLocks
from bot.store.army_lists import ArmyListRepository
from bot.store.codec import game_status
from bot.store.community import CommunityRepository
from bot.store.history import HistoryRepository
from bot.store.ladders import LadderRepository
from bot.store.models import GameStatus
from bot.store.repository import ActiveGameExists, GameRecord, GameRepository
from bot.store.versioned import StaleVersion, found
from bot.services.summaries import summary_row
from bot.services.table_log import export_table_game


class StaleBoard(GameError):
    """The board the player pressed was drawn before the game last changed."""


class NoGame(GameError):
    pass


class ChannelBusy(GameError):
    pass


STALE_MESSAGE = "This board is out of date: the game has moved on since it was drawn. Check the new board."
CACHED_GAMES = 4096  # about 14 KiB each (bench/bench_interactions.py): some 56 MiB at most


@dataclass(frozen=True)
class ActResult:
    game_id: int
    state: Any  # the pack's state model
    events: tuple[Event, ...]
    version: int
    previous: Any = None  # the state the action was applied to (None: a new game)


class GameService:
    def __init__(self, catalog: Catalog, sessionmaker: async_sessionmaker[AsyncSession],
                 packs: Packs | None = None, changes: ChangeStream | None = None) -> None:
        self.catalog = catalog
        self.packs = packs or installed_packs(catalog)  # the games of every pack go through the same steps
        self.repo = GameRepository(sessionmaker)
        self.community = CommunityRepository(sessionmaker)  # open challenges, time zones, reminders
        self.history = HistoryRepository(sessionmaker)  # finished games as history and stats read them
        self.lists = ArmyListRepository(sessionmaker)  # army lists beside the games and event entries using them
        self.ladders = Ladders(self.history, LadderRepository(sessionmaker))
        self._games = _ActiveGames(CACHED_GAMES)
        self.now_ms: Callable[[], int] = lambda: time.time_ns() // 1_000_000  # stamps clocked games' actions
        self._lock = KeyedLocks()  # one per channel
        self.changes = changes or ChangeStream()  # every change, published once the lock is released (bot/plumbing/changes.py)

    async def start_game(self, guild_id: int | None, channel_id: int, setup: Any) -> ActResult:
        """A new game of the pack `setup` names."""
        async with self._lock(channel_id):
            if await self.repo.get_active_game(channel_id) is not None:
                raise ChannelBusy(_BUSY)
            outcome = self.packs.new_game(setup)
            digest = seed_hash(setup.seed)
            try:
                record = await self.repo.create_game(
                    guild_id=guild_id, channel_id=channel_id, setup=setup, state=outcome.state, seed_hash=digest
                )
            except ActiveGameExists:  # started at the same moment by another process
                raise ChannelBusy(_BUSY) from None
            self._games.put(record)
        result = ActResult(record.id, outcome.state, outcome.events + (_seed_notice(outcome.state, digest),),
                           record.version)
        await self.changes.publish(Change("game", record.id, record.version, "start", result))
        return result

    async def backfill_summaries(self) -> int:
        """Summarise the games that ended before summaries were written (once, at start-up): how many."""
        # a game read back from the database has its id
        return await self.history.backfill(lambda game, state: summary_row(
            self.packs, state, game_id=cast(int, game.id), guild_id=game.guild_id, channel_id=game.channel_id))

    async def get_state(self, *, channel_id: int | None = None, game_id: int | None = None,
                        version: int | None = None) -> GameRecord:
        """A game by id (even over), or the game in progress in a channel.

        `version` is the one the caller saw (a board): if it is newer than the memory copy, another
        process moved the game on, and the database decides. (Versions only grow, undo included.)
        """
        record = self._games.by_game(game_id) if game_id is not None else self._games.by_channel(channel_id)
        if record is not None and (version is None or version <= record.version):
            return record
        if game_id is not None:
            record = await self.repo.get_game(game_id)
        elif channel_id is not None:
            record = await self.repo.get_active_game(channel_id)
        else:
            raise ValueError("give a channel_id or a game_id")
        if record is None:
            raise NoGame(_NO_GAME if game_id is None else _GONE)
        self._games.put(record)
        return record

    async def latest_game(self, channel_id: int) -> GameRecord:
        """The channel's newest game, even one that is over (for /game log after the end)."""
        return found(await self.repo.get_latest_game(channel_id), NoGame("No game has been played in this channel yet."))

    async def act(
        self, action: Any, *, channel_id: int | None = None, game_id: int | None = None,
        expected_version: int | None = None,
    ) -> ActResult:
        """Apply a player's action. `expected_version` is the version the pressed board showed."""
        if game_id is not None:  # a button: it names the game, the game names its channel
            channel_id = (await self.get_state(game_id=game_id)).channel_id
        if channel_id is None:
            raise ValueError("give a channel_id or a game_id")
        async with self._lock(channel_id):
            record = await self.get_state(channel_id=channel_id, game_id=game_id)
            result = await self._checked(record, lambda game: self._apply(game, action, expected_version))
        return await self._published(result, action.kind, seat_of(result.state.setup, action.actor) or action.actor)

    async def abandon(self, channel_id: int, actor: str, *, moderator: bool = False) -> ActResult:
        """End the game without a winner: a player may, and so may a moderator the cog has vouched for."""
        async with self._lock(channel_id):
            record = await self.get_state(channel_id=channel_id)
            result = await self._checked(record, lambda game: self._apply(game, Abandon(actor=actor), None, moderator))
        return await self._published(result, "abandon", seat_of(result.state.setup, actor) or actor)

    async def undo(self, channel_id: int, actor: str, *, expected_version: int | None = None) -> ActResult:
        """Take back the last action by replaying the log without it."""
        async with self._lock(channel_id):
            record = found(await self.repo.get_active_game(channel_id), NoGame(_NO_GAME))  # rare: not in memory
            self._games.put(record)
            actor = _require_player(record, actor)
            _require_version(record, expected_version)
            log = await self.repo.list_actions(record.id)
            if not log:
                raise GameError("There is nothing to undo.")
            if log[-1].action.kind == "time_out":
                raise GameError("A player's time running out on the clock cannot be undone.")
            state = self.packs.replay(record.setup, [entry.action for entry in log[:-1]])
            if self.packs.rules(record.pack).revealed(state, record.state):
                raise GameError("The last action drew, shuffled or revealed cards or made a roll, so it cannot be "
                                "undone.")
            if log[-1].actor != actor:
                # Otherwise a player could wipe the opponent's moves, such as their secret choice.
                raise GameError(f"The last action was {record.state.player(log[-1].actor).name}'s: "
                                "only they can undo it.")
            saved = await self._save(self.repo.pop_last_action(record, state))
        what = log[-1].action.kind.replace("_", " ")
        event = Event(f"{state.player(actor).name} undid the last action ({what}).")
        return await self._published(ActResult(record.id, state, (event,), saved.version, record.state), "undo", actor)

    async def _published(self, result: ActResult, what: str, actor: str | None) -> ActResult:
        """Tell every surface (bot/plumbing/changes.py), outside the lock: the Discord board's edits are slow."""
        await self.changes.publish(Change("game", result.game_id, result.version, what, result, actor))
        return result

    async def export_log(self, game_id: int) -> dict[str, Any]:
        """The game as anyone may see it (bot/services/game_log.py, bot/services/table_log.py): the seed once public, hidden choices
        redacted."""
        record = found(await self.repo.get_game(game_id), NoGame(_GONE))
        log = [(e.seq, e.actor, e.created_at.isoformat(), e.action) for e in await self.repo.list_actions(game_id)]
        rules = self.packs.rules(record.pack)
        # a Mission Deck game's pack is installed as ChapterApprovedRules, a table game's as TableRules
        if is_mission_deck(record.state):
            export = partial(export_game, cast(ChapterApprovedRules, rules).catalog)
        else:
            export = partial(export_table_game, cast(TableRules, rules))
        return export(
            record.state, log,
            game_id=record.id, guild_id=record.guild_id, channel_id=record.channel_id,
            status=record.status.value, created_at=record.created_at.isoformat(),
            updated_at=record.updated_at.isoformat(), seed_hash=record.seed_hash,
        )

    async def _checked(self, record: GameRecord, attempt: Callable[[GameRecord], Awaitable[ActResult]]) -> ActResult:
        """Run `attempt` on the memory copy; if it is refused, retry once if the copy was out of date."""
        try:
            return await attempt(record)
        except GameError:
            fresh = await self.repo.get_game(record.id)
            if fresh is None or fresh.version == record.version:
                raise  # the refusal stands
            self._games.put(fresh)
        return await attempt(fresh)

    async def _apply(
        self, record: GameRecord, action: Any, expected_version: int | None, moderator: bool = False
    ) -> ActResult:
        if not moderator:  # in doubles either player of a side acts for its seat
            action = action.model_copy(update={"actor": _require_player(record, action.actor)})
        _require_version(record, expected_version)
        if record.state.clock is not None:
            action = action.model_copy(update={"at": self.now_ms()})
        outcome = self.packs.apply(record.state, action)  # a GameError here writes nothing
        summary = None
        if game_status(outcome.state) != GameStatus.ACTIVE:  # it ends here: history, stats and ladders read this
            summary = summary_row(self.packs, outcome.state, game_id=record.id, guild_id=record.guild_id,
                                  channel_id=record.channel_id)
        saved = await self._save(self.repo.save_if_version(record, outcome.state, action, summary))
        events = outcome.events
        if saved.status != GameStatus.ACTIVE:
            events += (Event(f"The seed was {record.setup.seed!r} (SHA-256 {record.seed_hash}): "
                             "anyone can now check every shuffle and roll of this game."),)
        return ActResult(record.id, outcome.state, events, saved.version, record.state)

    async def _save(self, write: Awaitable[GameRecord]) -> GameRecord:
        """Run a version-checked write of `record` and keep the memory copy in step with it."""
        try:
            saved = await write
        except StaleVersion:  # someone else saved first (_checked then retries on a fresh read)
            raise StaleBoard(STALE_MESSAGE) from None
        self._games.put(saved)
        return saved


class _ActiveGames:
    """The latest known record of the active games this process touched, the most recent `size` of them."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._by_game: OrderedDict[int, GameRecord] = OrderedDict()
        self._by_channel: dict[int, int] = {}

    def by_game(self, game_id: int) -> GameRecord | None:
        return self._by_game.get(game_id)

    def by_channel(self, channel_id: int | None) -> GameRecord | None:
        game_id = self._by_channel.get(channel_id) if channel_id is not None else None
        return self._by_game.get(game_id) if game_id is not None else None

    def put(self, record: GameRecord) -> None:
        known = self._by_game.get(record.id)
        if known is not None and known.version > record.version:
            return  # a read that started before a save ended after it: keep the newer copy
        self.forget(record)
        if record.status != GameStatus.ACTIVE:
            return
        self._by_game[record.id] = record
        self._by_channel[record.channel_id] = record.id
        while len(self._by_game) > self._size:
            self.forget(next(iter(self._by_game.values())))

    def forget(self, record: GameRecord) -> None:
        self._by_game.pop(record.id, None)
        if self._by_channel.get(record.channel_id) == record.id:
            del self._by_channel[record.channel_id]


_NO_GAME = "There is no game in progress here."
_GONE = "That game no longer exists."
_BUSY = "This channel already has a game in progress: finish or end it first, or play in a thread."


def _seed_notice(state: Any, digest: str) -> Event:
    """A bot-made seed is committed to by its hash; a seed a player fixed is public and promises nothing."""
    fixer = state.setup.seed_fixed_by
    if fixer is None:
        return Event(f"Shuffles and rolls come from a secret seed, revealed when the game ends: its SHA-256 begins "
                     f"`{digest[:16]}` (the whole hash is in `/game log`).")
    return Event(f"Replay: {state.player(fixer).name} fixed the seed {state.setup.seed!r}, so every shuffle "
                 "and roll of this game can be known in advance; it has no secret shuffles.")


def _require_player(record: GameRecord, actor: str) -> str:
    """The seat `actor` plays (theirs, or their side's in doubles); anyone else is refused."""
    seat = seat_of(record.setup, actor)
    if seat is None:
        raise NotAPlayer(f"{only_players(record.setup)} can act on it.")
    return seat


def _require_version(record: GameRecord, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != record.version:
        raise StaleBoard(STALE_MESSAGE)
