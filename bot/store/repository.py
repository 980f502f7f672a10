"""Reading and writing games. Each method is one transaction: it commits whole or not at all.

Writers never overwrite blindly: a save names the version it was computed from and is refused when
someone else saved first (StaleVersion, bot/store/versioned.py, as for events), so no update is ever lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, func, insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.packs import family
from bot.store.codec import dump_setup, dump_state, game_status, load_setup, load_state
from bot.store.community_models import GameSummary
from bot.store.history import add_tallies
from bot.store.models import BoardMessage, Game, GameAction, GameStatus, QuietPlayer, utcnow
from bot.store.versioned import StaleVersion, bump_statement, bumped, insert_unique, save_bump


# An action's write runs on a plain connection with statements built once, not through an ORM session:
# the session's bookkeeping and building the statements anew cost more than the commit itself
# (bench/bench_store.py). SQLAlchemy caches their compiled form.
GAME, ACTION = Game.__table__, GameAction.__table__
BUMP = bump_statement(GAME, "state_json", "status", "pack_schema")
LOG_ACTION = insert(ACTION)
ADD_SUMMARY = insert(GameSummary.__table__)
LAST_SEQ = select(func.max(ACTION.c.seq)).where(ACTION.c.game_id == bindparam("game_id")).scalar_subquery()
DROP_LAST_ACTION = delete(ACTION).where(ACTION.c.game_id == bindparam("game_id"), ACTION.c.seq == LAST_SEQ)


class ActiveGameExists(Exception):
    """The channel already has a game in progress: nothing was written."""


@dataclass(frozen=True)
class GameRecord:
    id: int
    guild_id: int | None
    channel_id: int
    status: GameStatus
    version: int
    setup: Any  # the pack's setup and state models (bot/engine/packs.py)
    state: Any
    seed_hash: str
    created_at: datetime
    updated_at: datetime

    @property
    def pack(self) -> str:
        return self.state.pack


@dataclass(frozen=True)
class ActionRecord:
    seq: int
    actor: str
    action: Any
    created_at: datetime


class GameRepository:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self._sessionmaker = sessionmaker
        self._engine: AsyncEngine = sessionmaker.kw["bind"]

    async def create_game(
        self, *, guild_id: int | None, channel_id: int, setup: Any, state: Any, seed_hash: str
    ) -> GameRecord:
        now = utcnow()
        row = Game(
            guild_id=guild_id, channel_id=channel_id, status=game_status(state), version=0,
            pack=state.pack, pack_schema=family(state.pack).schema,
            setup_json=dump_setup(setup), state_json=dump_state(state), seed_hash=seed_hash,
            created_at=now, updated_at=now,
        )
        taken = ActiveGameExists(f"Channel {channel_id} already has a game in progress")
        return _record(await insert_unique(self._sessionmaker, row, taken))

    async def get_game(self, game_id: int) -> GameRecord | None:
        async with self._sessionmaker() as session, session.begin():
            row = await session.get(Game, game_id)
        return _record(row) if row is not None else None

    async def get_active_game(self, channel_id: int) -> GameRecord | None:
        query = select(Game).where(Game.channel_id == channel_id, Game.status == GameStatus.ACTIVE)
        async with self._sessionmaker() as session, session.begin():
            row = (await session.exec(query)).one_or_none()
        return _record(row) if row is not None else None

    async def channels_playing(self, channel_ids: list[int]) -> set[int]:
        """Which of these channels have a game in progress."""
        query = select(Game.channel_id).where(col(Game.channel_id).in_(channel_ids), Game.status == GameStatus.ACTIVE)
        async with self._sessionmaker() as session, session.begin():
            return set((await session.exec(query)).all())

    async def clocked_games(self) -> list[GameRecord]:
        """The active games with a chess clock (at start-up, to watch their clocks again)."""
        query = select(Game).where(Game.status == GameStatus.ACTIVE, col(Game.state_json).like('%"clock":{%'))
        async with self._sessionmaker() as session, session.begin():
            rows = (await session.exec(query)).all()
        return [_record(row) for row in rows]

    async def get_latest_game(self, channel_id: int) -> GameRecord | None:
        """The channel's newest game, whatever its status."""
        query = select(Game).where(Game.channel_id == channel_id).order_by(col(Game.id).desc()).limit(1)
        async with self._sessionmaker() as session, session.begin():
            row = (await session.exec(query)).first()
        return _record(row) if row is not None else None

    async def save_if_version(self, game: GameRecord, new_state: Any, new_action: Any | None,
                              summary: dict[str, Any] | None = None) -> GameRecord:
        """Store the snapshot that `new_action` led to, if the game is still at `game.version`.

        The action goes into the log in the same transaction, numbered by the version it produced
        (an undo leaves a gap, so the log shows it), and so does the `summary` of a game it ends
        (bot/services/summaries.py). Raises StaleVersion when someone saved first.
        """
        saved = _saved(game, new_state)
        state_json = dump_state(new_state)  # encoded before the transaction, which stays short
        action_json = family(game.pack).actions.dump_json(new_action).decode() if new_action is not None else None
        async with self._engine.begin() as conn:
            await _bump(conn, game, saved, state_json)
            if new_action is not None:
                await conn.execute(LOG_ACTION, {
                    "game_id": game.id, "seq": saved.version, "actor": new_action.actor,
                    "action_json": action_json, "created_at": saved.updated_at,
                })
            if summary is not None:
                summary = {**summary, "ended_at": saved.updated_at}
                await conn.execute(ADD_SUMMARY, summary)
                await add_tallies(conn, [summary])
        return saved

    async def pop_last_action(self, game: GameRecord, new_state: Any) -> GameRecord:
        """Undo: drop the last logged action and store the snapshot replayed without it.

        The version still goes up, so a board drawn before the undo is seen as out of date.
        """
        saved = _saved(game, new_state)
        state_json = dump_state(new_state)
        async with self._engine.begin() as conn:
            await _bump(conn, game, saved, state_json)
            result = await conn.execute(DROP_LAST_ACTION, {"game_id": game.id})
            if result.rowcount != 1:
                raise StaleVersion(f"Game {game.id} has no action to undo")
        return saved

    async def list_actions(self, game_id: int) -> list[ActionRecord]:
        query = select(GameAction).where(GameAction.game_id == game_id).order_by(col(GameAction.seq))
        async with self._sessionmaker() as session, session.begin():
            pack = (await session.exec(select(Game.pack).where(Game.id == game_id))).one_or_none()
            rows = (await session.exec(query)).all()
        actions = family(pack).actions if pack is not None else None
        return [ActionRecord(r.seq, r.actor, actions.validate_json(r.action_json), r.created_at) for r in rows]

    async def add_board_message(self, game_id: int, channel_id: int, message_id: int) -> None:
        async with self._sessionmaker() as session, session.begin():
            session.add(BoardMessage(game_id=game_id, channel_id=channel_id, message_id=message_id))

    async def drop_board_message(self, message_id: int) -> None:
        async with self._sessionmaker() as session, session.begin():
            await session.exec(delete(BoardMessage).where(col(BoardMessage.message_id) == message_id))

    async def board_messages(self, game_id: int) -> list[BoardMessage]:
        query = select(BoardMessage).where(BoardMessage.game_id == game_id).order_by(col(BoardMessage.message_id))
        async with self._sessionmaker() as session, session.begin():
            return list((await session.exec(query)).all())

    async def set_pings(self, game_id: int, player_id: str, on: bool) -> None:
        async with self._sessionmaker() as session, session.begin():
            row = await session.get(QuietPlayer, (game_id, player_id))
            if on and row is not None:
                await session.delete(row)
            elif not on and row is None:
                session.add(QuietPlayer(game_id=game_id, player_id=player_id))

    async def quiet_players(self, game_id: int) -> set[str]:
        """Players who turned the bot's pings off in this game."""
        query = select(QuietPlayer.player_id).where(QuietPlayer.game_id == game_id)
        async with self._sessionmaker() as session, session.begin():
            return set((await session.exec(query)).all())


def _saved(game: GameRecord, new_state: Any) -> GameRecord:
    return bumped(game, state=new_state, status=game_status(new_state))


async def _bump(conn: AsyncConnection, game: GameRecord, saved: GameRecord, state_json: str) -> None:
    await save_bump(conn, BUMP, game, saved, "Game", state_json=state_json, status=saved.status.value,
                    pack_schema=family(game.pack).schema)


def _record(row: Game) -> GameRecord:
    assert row.id is not None
    state, setup = load_state(row.state_json, row.pack), load_setup(row.setup_json, row.pack)
    return GameRecord(
        id=row.id, guild_id=row.guild_id, channel_id=row.channel_id, status=GameStatus(row.status),
        version=row.version, setup=state.setup if setup == state.setup else setup, state=state,  # one copy in memory
        seed_hash=row.seed_hash, created_at=row.created_at, updated_at=row.updated_at,
    )
