from __future__ import annotations

import asyncio
import json
from datetime import UTC

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.game import apply, new_game, seed_hash
from bot.engine.chapter_approved.state import GameSetup, GameState, SCHEMA_VERSION, Status
from bot.store.codec import SnapshotError, dump_state, load_state
from bot.store.models import GameStatus
from bot.store.repository import ActiveGameExists, GameRepository
from bot.store.versioned import StaleVersion

CHANNEL = 1_234_567_890_123_456_789  # Discord snowflakes do not fit in 32 bits
OTHER_CHANNEL = 1_234_567_890_123_456_790
GUILD = 987_654_321_098_765_432
ALICE, BOB = "111111111111111111", "222222222222222222"  # the players of the `setup` fixture


@pytest.fixture
def repo(sessionmaker: async_sessionmaker[AsyncSession]) -> GameRepository:
    return GameRepository(sessionmaker)


async def create(repo: GameRepository, setup: GameSetup, state: GameState, channel: int = CHANNEL):
    return await repo.create_game(
        guild_id=GUILD, channel_id=channel, setup=setup, state=state, seed_hash=seed_hash(setup.seed)
    )


def bumped(state: GameState) -> GameState:
    """A different, still valid snapshot (the store does not care how it was reached)."""
    return state.model_copy(update={"shuffles": state.shuffles + 1})


def ended(state: GameState) -> GameState:
    return state.model_copy(update={"status": Status.ENDED})


async def test_create_and_read_back(repo, setup, first_state):
    record = await create(repo, setup, first_state)
    assert (record.version, record.status, record.channel_id, record.guild_id) == (0, GameStatus.ACTIVE, CHANNEL, GUILD)
    for loaded in (await repo.get_game(record.id), await repo.get_active_game(CHANNEL)):
        assert loaded is not None
        assert (loaded.id, loaded.version, loaded.setup, loaded.state) == (record.id, 0, setup, first_state)
        assert loaded.seed_hash == seed_hash(setup.seed)
        assert loaded.created_at.tzinfo == UTC
    assert await repo.get_active_game(OTHER_CHANNEL) is None
    assert await repo.get_game(record.id + 1000) is None


async def test_save_bumps_version_and_logs_action(repo, setup, first_state):
    record = await create(repo, setup, first_state)
    action = a.GainCp(actor=ALICE, amount=1, reason="test")
    saved = await repo.save_if_version(record, bumped(first_state), action)
    assert (saved.version, saved.state) == (1, bumped(first_state))
    loaded = await repo.get_game(record.id)
    assert loaded == saved  # what the save returns is what a fresh read gives
    assert loaded.updated_at >= loaded.created_at
    [entry] = await repo.list_actions(record.id)
    assert (entry.seq, entry.actor, entry.action) == (1, ALICE, action)
    assert entry.created_at.tzinfo == UTC


async def test_stale_version_is_refused_and_writes_nothing(repo, setup, first_state):
    record = await create(repo, setup, first_state)
    await repo.save_if_version(record, bumped(first_state), a.GainCp(actor=ALICE, amount=1))
    with pytest.raises(StaleVersion):
        await repo.save_if_version(record, ended(first_state), a.Concede(actor=BOB))
    loaded = await repo.get_game(record.id)
    assert (loaded.version, loaded.state, loaded.status) == (1, bumped(first_state), GameStatus.ACTIVE)
    assert [e.seq for e in await repo.list_actions(record.id)] == [1]


async def test_concurrent_saves_of_one_version_let_exactly_one_through(repo, setup, first_state):
    record = await create(repo, setup, first_state)
    attempts = [repo.save_if_version(record, bumped(first_state), a.GainCp(actor=ALICE, amount=n))
                for n in range(1, 6)]
    results = await asyncio.gather(*attempts, return_exceptions=True)
    assert sum(not isinstance(r, Exception) and r.version == 1 for r in results) == 1
    assert sum(isinstance(r, StaleVersion) for r in results) == 4
    assert (await repo.get_game(record.id)).version == 1
    assert len(await repo.list_actions(record.id)) == 1


async def test_no_lost_update_when_writers_race_and_retry(repo, setup, first_state):
    record = await create(repo, setup, first_state)
    writers = 8

    async def add_one_shuffle(n: int) -> None:
        while True:
            current = await repo.get_game(record.id)
            await asyncio.sleep(0)  # let the others read the same version
            try:
                await repo.save_if_version(current, bumped(current.state), a.GainCp(actor=ALICE, amount=n))
                return
            except StaleVersion:
                continue

    await asyncio.gather(*(add_one_shuffle(n) for n in range(1, writers + 1)))
    final = await repo.get_game(record.id)
    assert (final.version, final.state.shuffles) == (writers, first_state.shuffles + writers)
    log = await repo.list_actions(record.id)
    assert [e.seq for e in log] == list(range(1, writers + 1))
    assert sorted(e.action.amount for e in log) == list(range(1, writers + 1))


async def test_actions_are_numbered_by_the_version_they_made(repo, setup, first_state):
    record = await create(repo, setup, first_state)
    actions = [a.GainCp(actor=ALICE, amount=1), a.SpendCp(actor=BOB, amount=2, reason="x"), a.EndTurn(actor=ALICE)]
    for action in actions[:2]:
        record = await repo.save_if_version(record, bumped(record.state), action)
    record = await repo.save_if_version(record, bumped(record.state), None)  # a save without an action
    record = await repo.save_if_version(record, bumped(record.state), actions[2])
    assert record.version == 4
    log = await repo.list_actions(record.id)
    assert [(e.seq, e.actor, e.action) for e in log] == [(1, ALICE, actions[0]), (2, BOB, actions[1]),
                                                         (4, ALICE, actions[2])]


async def test_pop_last_action_removes_it_and_still_bumps_version(repo, setup, first_state):
    record = await create(repo, setup, first_state)
    one = await repo.save_if_version(record, bumped(first_state), a.GainCp(actor=ALICE, amount=1))
    two = await repo.save_if_version(one, bumped(one.state), a.GainCp(actor=BOB, amount=2))
    undone = await repo.pop_last_action(two, one.state)
    assert (undone.version, undone.state) == (3, one.state)
    assert await repo.get_game(record.id) == undone
    assert [(e.seq, e.actor) for e in await repo.list_actions(record.id)] == [(1, ALICE)]
    # The next action is numbered by its version: the gap shows where the undo was.
    after = await repo.save_if_version(undone, first_state, a.EndTurn(actor=BOB))
    assert [e.seq for e in await repo.list_actions(record.id)] == [1, 4]
    with pytest.raises(StaleVersion):
        await repo.pop_last_action(undone, first_state)
    assert (await repo.get_game(record.id)).version == after.version


async def test_pop_with_nothing_to_pop_rolls_back_the_snapshot(repo, setup, first_state):
    record = await create(repo, setup, first_state)
    with pytest.raises(StaleVersion):
        await repo.pop_last_action(record, bumped(first_state))
    loaded = await repo.get_game(record.id)
    assert (loaded.version, loaded.state) == (0, first_state)


async def test_failure_inside_a_save_leaves_nothing_half_written(repo, sessionmaker, setup, first_state):
    record = await create(repo, setup, first_state)
    await install_failing_trigger(sessionmaker)
    with pytest.raises(DBAPIError):
        await repo.save_if_version(record, ended(first_state), a.Concede(actor=ALICE))
    loaded = await repo.get_game(record.id)
    assert (loaded.version, loaded.state, loaded.status) == (0, first_state, GameStatus.ACTIVE)
    assert await repo.list_actions(record.id) == []


async def install_failing_trigger(sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    """Make every insert into the action log fail, after the snapshot UPDATE has already run."""
    async with sessionmaker() as session, session.begin():
        if session.bind.dialect.name == "sqlite":
            await session.exec(text(
                "CREATE TRIGGER fail_action BEFORE INSERT ON game_action BEGIN SELECT RAISE(ABORT, 'boom'); END"
            ))
        else:
            await session.exec(text(
                "CREATE FUNCTION fail_action() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$ "
                "LANGUAGE plpgsql"
            ))
            await session.exec(text(
                "CREATE TRIGGER fail_action BEFORE INSERT ON game_action FOR EACH ROW EXECUTE FUNCTION fail_action()"
            ))


async def test_one_active_game_per_channel_is_enforced_by_the_database(repo, sessionmaker, setup, first_state):
    first = await create(repo, setup, first_state)
    with pytest.raises(ActiveGameExists):
        await create(repo, setup, first_state)
    # The index itself refuses it, whatever the application checks.
    with pytest.raises(IntegrityError):
        async with sessionmaker() as session, session.begin():
            await session.exec(text(
                "INSERT INTO game (guild_id, channel_id, status, version, setup_json, state_json, seed_hash, "
                "created_at, updated_at) VALUES (1, :channel, 'active', 0, '{}', '{}', 'x', "
                "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            ).bindparams(channel=CHANNEL))
    await create(repo, setup, first_state, channel=OTHER_CHANNEL)
    # Once the game is over the channel is free again; the ended game stays readable.
    await repo.save_if_version(first, ended(first_state), None)
    second = await create(repo, setup, first_state)
    assert (await repo.get_active_game(CHANNEL)).id == second.id
    assert (await repo.get_game(first.id)).status == GameStatus.ENDED


async def test_racing_starts_in_one_channel_create_one_game(repo, setup, first_state):
    results = await asyncio.gather(*(create(repo, setup, first_state) for _ in range(4)), return_exceptions=True)
    assert sum(isinstance(r, ActiveGameExists) for r in results) == 3
    [winner] = [r for r in results if not isinstance(r, Exception)]
    assert (await repo.get_active_game(CHANNEL)).id == winner.id


async def test_game_ids_are_not_reused(repo, sessionmaker, setup, first_state):
    first = await create(repo, setup, first_state)
    async with sessionmaker() as session, session.begin():
        await session.exec(text("DELETE FROM game WHERE id = :id").bindparams(id=first.id))
    second = await create(repo, setup, first_state)
    assert second.id > first.id


async def test_board_messages(repo, setup, first_state):
    record = await create(repo, setup, first_state)
    await repo.add_board_message(record.id, CHANNEL, 1_300_000_000_000_000_002)
    await repo.add_board_message(record.id, CHANNEL, 1_300_000_000_000_000_001)
    assert [(m.game_id, m.channel_id, m.message_id) for m in await repo.board_messages(record.id)] == [
        (record.id, CHANNEL, 1_300_000_000_000_000_001), (record.id, CHANNEL, 1_300_000_000_000_000_002),
    ]
    with pytest.raises(IntegrityError):  # foreign keys are on, SQLite included
        await repo.add_board_message(record.id + 1000, CHANNEL, 1_300_000_000_000_000_003)


async def test_unreadable_snapshot_gives_a_clear_error(repo, sessionmaker, setup, first_state):
    record = await create(repo, setup, first_state)
    future = json.loads(dump_state(first_state)) | {"schema_version": SCHEMA_VERSION + 1}
    async with sessionmaker() as session, session.begin():
        await session.exec(text("UPDATE game SET state_json = :s WHERE id = :id")
                           .bindparams(s=json.dumps(future), id=record.id))
    with pytest.raises(SnapshotError, match=f"schema version {SCHEMA_VERSION + 1}.*reads version {SCHEMA_VERSION}"):
        await repo.get_game(record.id)


# ---- codec (no database) ----------------------------------------------------------------------


def test_codec_round_trips_a_game_in_progress(catalog: Catalog, setup: GameSetup, play):
    setup = setup.model_copy(update={"seed": "codec", "twist": True})
    state = new_game(catalog, setup).state
    for action in play(setup, scores_per_turn=2)[:40]:
        state = apply(catalog, state, action).state
    assert state.vp and state.players[0].hand  # a state with content in its nested models
    text_form = dump_state(state)
    assert load_state(text_form) == state
    assert dump_state(load_state(text_form)) == text_form


@pytest.mark.parametrize("version", [0, SCHEMA_VERSION + 1, "1", None])
def test_codec_refuses_unknown_schema_versions(first_state: GameState, version):
    data = json.loads(dump_state(first_state))
    if version is None:
        del data["schema_version"]
    else:
        data["schema_version"] = version
    with pytest.raises(SnapshotError, match=r"schema version .*this bot reads version"):
        load_state(json.dumps(data))


def test_codec_refuses_garbage(first_state: GameState):
    with pytest.raises(SnapshotError, match="not valid JSON"):
        load_state("{not json")
    broken = json.loads(dump_state(first_state)) | {"round": "first"}
    with pytest.raises(SnapshotError, match="does not match schema version"):
        load_state(json.dumps(broken))
