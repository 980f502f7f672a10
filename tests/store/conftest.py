"""Storage fixtures: every test gets a fresh database, built by the Alembic migrations.

Tests taking `database_url` run on SQLite (a file in tmp_path) and on PostgreSQL when TEST_POSTGRES_URL
points at a server whose user may create databases (.ci/start-postgres.sh prints one). Each PostgreSQL
test gets its own scratch database, dropped afterwards: a copy of one template migrated once per run.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from functools import partial
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.decks import default_catalog
from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.game import apply, new_game
from bot.engine.chapter_approved.state import GameSetup, GameState, Phase, PromptKind, Source, Status
from bot.engine.table import actions as t
from bot.engine.table.rules import TableRules
from bot.engine.table.state import Step, TableSetup, TableState
from bot.store.db import make_engine, make_sessionmaker, upgrade_database

POSTGRES_ENV = "TEST_POSTGRES_URL"
STORED_V1 = Path(__file__).parent.parent / "fixtures" / "stored_v1.sql"
ALICE, BOB = "111111111111111111", "222222222222222222"


def postgres_admin_url() -> str:
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(f"{POSTGRES_ENV} is not set: run `export \"$(.ci/start-postgres.sh)\"` to test PostgreSQL too")
    return url


async def run_admin(admin_url: str, sql: str) -> None:
    """CREATE/DROP DATABASE, which cannot run inside a transaction."""
    admin = create_async_engine(make_url(admin_url), isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            await conn.exec_driver_sql(sql)
    finally:
        await admin.dispose()


async def drop_database(admin_url: str, name: str) -> None:
    """Drop a scratch database despite two kinds of late visitor. A connection a test left open is ended by FORCE.
    An autovacuum worker makes FORCE fail for a role that is not superuser (CI's is not), but the plain DROP tells
    it to leave and waits for it. Either may come back in between, so try both a few times."""
    for attempt in range(3):
        for force in (" WITH (FORCE)", ""):
            try:
                await run_admin(admin_url, f'DROP DATABASE IF EXISTS "{name}"{force}')
                return
            except DBAPIError:
                if attempt == 2 and not force:
                    raise
        await asyncio.sleep(1)


def database_named(admin_url: str, name: str) -> str:
    return make_url(admin_url).set(database=name).render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def postgres_template() -> Iterator[str | None]:
    """A PostgreSQL database migrated to head once, copied for each test (None without PostgreSQL)."""
    admin_url = os.environ.get(POSTGRES_ENV)
    if not admin_url:
        yield None
        return
    name = f"template_{uuid.uuid4().hex[:12]}"
    asyncio.run(run_admin(admin_url, f'CREATE DATABASE "{name}"'))
    try:
        asyncio.run(upgrade_database(database_named(admin_url, name)))
        yield name
    finally:
        asyncio.run(drop_database(admin_url, name))


async def scratch_postgres(template: str | None) -> AsyncIterator[str]:
    admin_url = postgres_admin_url()
    name = f"test_{uuid.uuid4().hex[:12]}"
    await run_admin(admin_url, f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    try:
        yield database_named(admin_url, name)
    finally:
        await drop_database(admin_url, name)


async def stored_v1_database(path: Path) -> str:
    """A SQLite database as the version-1 bot left it (tests/fixtures/README.md), upgraded by the migrations
    exactly as a user's database is at start-up; its URL."""
    with sqlite3.connect(path) as db:
        db.executescript(STORED_V1.read_text())
    url = f"sqlite+aiosqlite:///{path}"
    await upgrade_database(url)
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
async def empty_database_url(request: pytest.FixtureRequest, tmp_path) -> AsyncIterator[str]:
    """A database with no tables at all."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    else:
        async for url in scratch_postgres(None):
            yield url


@pytest.fixture(params=["sqlite", "postgresql"])
async def database_url(request: pytest.FixtureRequest, tmp_path, postgres_template: str | None) -> AsyncIterator[str]:
    """A database migrated to head."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
        await upgrade_database(url)
        yield url
    else:
        async for url in scratch_postgres(postgres_template):
            yield url


@pytest.fixture
async def sessionmaker(database_url: str) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    engine = make_engine(database_url)
    yield make_sessionmaker(engine)
    await engine.dispose()


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return default_catalog()


@pytest.fixture
def setup() -> GameSetup:
    return GameSetup(size="strike-force", players=(ALICE, BOB), names=("Alice", "Bob"), seed="test-seed")


@pytest.fixture
def first_state(catalog: Catalog, setup: GameSetup) -> GameState:
    return new_game(catalog, setup).state


@pytest.fixture
def play(catalog: Catalog) -> Callable[..., list[a.Action]]:
    """scripted_game for the pack's catalog: play(setup, scores_per_turn=0) -> the actions of a whole battle."""
    return partial(scripted_game, catalog)


def next_action(catalog: Catalog, state: GameState, scores_per_turn: int = 0) -> a.Action:
    """A legal move that keeps the game going: the players take Tactical Missions, answer every
    prompt plainly, score `scores_per_turn` primary VP in each turn's battle phases, and discard nothing. In a
    Force Disposition season (CA 2026-27) each picks the first disposition."""
    if state.status == Status.DISPOSITIONS:
        picker = next(p for p in state.players if p.disposition_choice is None)
        return a.ChooseDisposition(actor=picker.id, disposition=catalog.dispositions[0].id)
    if state.status == Status.SIDES:
        return a.ChooseSide(actor=state.sides_rolloff.winner, side="attacker")
    if state.status == Status.SECONDARIES:
        chooser = next(p for p in state.players if p.choice is None)
        return a.ChooseSecondaries(actor=chooser.id, mode="tactical")
    if state.status == Status.DEPLOYMENT:
        return a.DeploymentDone(actor=next(p.id for p in state.players if p.id not in state.deployed))
    if state.prompts:
        return _answer(catalog, state)
    active = state.active
    assert active is not None
    if state.phase == Phase.COMMAND:
        return a.EndCommandPhase(actor=active)
    if state.phase == Phase.BATTLE:
        scored = sum(1 for e in state.vp if (e.round, e.turn, e.source) == (state.round, state.turn, Source.PRIMARY)
                     and e.note is None)
        if scored < scores_per_turn:
            return a.Score(actor=active, source=Source.PRIMARY, vp=1)
        return a.EndTurn(actor=active)
    if state.phase == Phase.END_OF_TURN:  # both players finish, the player whose turn it is first
        return a.DoneScoring(actor=active if active not in state.scoring_done else state.opponent(active).id)
    return a.Discard(actor=state.discard_queue[0])


def _answer(catalog: Catalog, state: GameState) -> a.Action:
    prompt = state.prompts[0]
    match prompt.kind:
        case PromptKind.OPTIONAL_RESHUFFLE | PromptKind.DISCARD_IF:
            return a.AnswerPrompt(actor=prompt.player, accept=False)
        case PromptKind.ALPHA_TARGETS:
            return a.AnswerPrompt(actor=prompt.player, units=("Intercessor Squad",))
        case PromptKind.GAMMA_TARGET:
            return a.AnswerPrompt(actor=prompt.player, units=())
        case PromptKind.BEACON_UNIT:
            return a.AnswerPrompt(actor=prompt.player, units=("Scout Squad",))
        case PromptKind.TEMPTING_OBJECTIVE if not catalog.has_map(state.mission.deployment):
            return a.AnswerPrompt(actor=prompt.player, objective="the north No Man's Land objective")
        case PromptKind.TEMPTING_OBJECTIVE:
            objectives = catalog.deployment(state.mission.deployment).objectives
            choice = next(o.id for o in objectives if o.area == "no_mans_land" and o.id not in state.removed_objectives)
            return a.AnswerPrompt(actor=prompt.player, objective=choice)
        case PromptKind.ADAPT_KEEP:
            return a.AnswerPrompt(actor=prompt.player, keep=prompt.card)
    raise AssertionError(f"unexpected prompt {prompt.kind}")


def scripted_game(catalog: Catalog, setup: GameSetup, scores_per_turn: int = 0) -> list[a.Action]:
    """Every action of a whole battle played by next_action, checked by the engine as it goes."""
    state, log = new_game(catalog, setup).state, []
    while state.status not in (Status.ENDED, Status.ABANDONED):
        action = next_action(catalog, state, scores_per_turn)
        state = apply(catalog, state, action).state
        log.append(action)
    return log


GT_PICKS = ("assassinate", "engage-on-all-fronts", "investigate-sites")


def next_table_action(rules: TableRules, state: TableState, scores_per_turn: int = 0) -> object:
    """A legal move of a table game (Grand Tournament 2020, 4th edition) that keeps it going: the set-up steps,
    `scores_per_turn` scores of 1VP for the player whose turn it is (what scores first), then Done scoring (4th edition Alpha: the
    mission's outcome first)."""
    waiting = lambda done: next(p.id for p in state.players if p.id not in done)  # noqa: E731
    match state.status:
        case Step.MISSION:
            return t.ChooseMission(actor=state.strategy_roll.winner, mission=rules.data.missions[0].id)
        case Step.SECONDARIES:
            return t.SelectSecondaries(actor=next(p.id for p in state.players if p.secret is None), picks=GT_PICKS)
        case Step.SIDES:
            return a.ChooseSide(actor=state.sides_rolloff.winner, side="attacker")
        case Step.DEPLOYMENT:
            return a.DeploymentDone(actor=waiting(state.deployed))
        case Step.FIRST_TURN:
            return t.ChooseTurn(actor=state.first_turn_rolloff.winner, first=True)
        case Step.BATTLE:
            objective = rules.scorable(state, state.active)
            scored = sum(1 for v in state.vp if (v.player, v.round) == (state.active, state.round))
            if objective and scored < scores_per_turn:
                return t.ScoreObjective(actor=state.active, objective=objective[0].id, vp=1)
            return a.EndTurn(actor=state.active)
    player = waiting(state.scoring_done)
    if not rules.objectives(state, player) and not state.mission_decided:
        return t.MissionResult(actor=player, winner=player)
    return a.DoneScoring(actor=player)


def scripted_table_game(rules: TableRules, setup: TableSetup, scores_per_turn: int = 0) -> list[object]:
    """Every action of a whole table game played by next_table_action, checked by the engine as it goes."""
    state, log = rules.new_game(setup).state, []
    while not state.over:
        action = next_table_action(rules, state, scores_per_turn)
        state = rules.apply(state, action).state
        log.append(action)
    return log
