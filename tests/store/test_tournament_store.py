"""Tournaments in a real database: the version-checked save, concurrency, restarts, reproducible pairing."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text

from bot.engine.errors import GameError
from bot.engine.tournament.event import Outcome, Reason
from bot.store.codec import SnapshotError
from bot.store.db import make_engine, make_sessionmaker
from bot.store.versioned import StaleVersion
from bot.store.tournament_models import TournamentStatus
from bot.store.tournament_repository import ActiveTournamentExists, EventState, TournamentRepository
from bot.services.tournaments import CHANGED_MESSAGE, STALE_REPORT, TournamentService, report_digest

GUILD = 1_100_000_000_000_000_002
PLAYERS = [str(900_000_000_000_000_000 + i) for i in range(8)]


@pytest.fixture
def service(sessionmaker) -> TournamentService:
    return TournamentService(sessionmaker)


async def published(service: TournamentService, guild: int = GUILD):
    """Pair the next round and publish the draft as it was drawn."""
    draft = await service.pair(guild)
    current = draft.state.event.rounds[-1]
    return await service.publish(draft.id, current.number, current.draw)


async def started(service: TournamentService, players=PLAYERS, seed: str = "event-seed", rounds: int = 3):
    await service.create(GUILD, "Club GT", rounds, seed=seed, bye_vp=20)
    for i, p in enumerate(players):
        await service.register(GUILD, p, f"Player {i}")
    return await published(service)


async def test_one_running_tournament_per_server(sessionmaker) -> None:
    repo = TournamentRepository(sessionmaker)
    first = await repo.create(guild_id=GUILD, name="A", rounds_planned=3, announce_channel_id=None,
                              organiser_role_id=None, seed="s", state=EventState())
    with pytest.raises(ActiveTournamentExists):
        await repo.create(guild_id=GUILD, name="B", rounds_planned=3, announce_channel_id=None,
                          organiser_role_id=None, seed="s", state=EventState())
    other_server = await repo.create(guild_id=GUILD + 1, name="C", rounds_planned=3, announce_channel_id=None,
                                     organiser_role_id=None, seed="s", state=EventState())
    await repo.save_if_version(first, first.state, TournamentStatus.FINISHED)
    second = await repo.create(guild_id=GUILD, name="B", rounds_planned=3, announce_channel_id=None,
                               organiser_role_id=None, seed="s", state=EventState())
    assert (await repo.active(GUILD)).id == second.id
    assert (await repo.latest(GUILD)).id == second.id
    assert (await repo.latest(GUILD + 1)).id == other_server.id
    assert second.id > first.id


async def test_a_stale_version_is_refused_and_writes_nothing(service: TournamentService) -> None:
    record = await started(service)
    ahead = await service.repo.save_if_version(record, record.state.model_copy(update={"names": {"x": "first"}}))
    with pytest.raises(StaleVersion):
        await service.repo.save_if_version(record, record.state.model_copy(update={"names": {"x": "second"}}))
    stored = await service.repo.get(record.id)
    assert stored.version == ahead.version == record.version + 1
    assert stored.state.names == {"x": "first"}


async def test_concurrent_reports_are_all_kept(service: TournamentService) -> None:
    record = await started(service)
    tables = record.state.event.rounds[-1].pairings.tables
    # Players report their own tables, and an organiser enters others, all at the same moment.
    reports = [service.report(GUILD, p.a, p.table, "a_wins", 60, 40, organiser=False) for p in tables[:2]]
    entries = [service.report(GUILD, "organiser", p.table, "b_wins", 30, 70, organiser=True) for p in tables[2:]]
    await asyncio.gather(*reports, *entries)
    stored = (await service.current(GUILD)).state
    assert {r.table for r in stored.pending} == {p.table for p in tables[:2]}
    assert {r.table for r in stored.event.rounds[-1].results} == {p.table for p in tables[2:]}
    assert (await service.current(GUILD)).version == record.version + len(tables)


async def test_a_second_process_cannot_overwrite_a_report(database_url: str, service: TournamentService) -> None:
    record = await started(service)
    tables = record.state.event.rounds[-1].pairings.tables
    engine = make_engine(database_url)  # another bot process: its own connection and its own locks
    try:
        other = TournamentService(make_sessionmaker(engine))
        outcomes = await asyncio.gather(
            *(s.report(GUILD, "organiser", p.table, "draw", 50, 50, organiser=True)
              for s, p in zip([service, other] * 2, tables)),
            return_exceptions=True,
        )
    finally:
        await engine.dispose()
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert all(isinstance(o, GameError) and o.message == CHANGED_MESSAGE for o in refused)
    done = {o.table.table for o in outcomes if not isinstance(o, Exception)}
    stored = await service.current(GUILD)
    assert {r.table for r in stored.state.event.rounds[-1].results} == done  # nothing accepted was lost
    assert stored.version == record.version + len(done)


async def test_refused_changes_write_nothing(service: TournamentService) -> None:
    record = await started(service)
    table = record.state.event.rounds[-1].pairings.tables[0]
    refusals = [
        service.register(GUILD, PLAYERS[0], "again"),  # already registered
        service.drop(GUILD, "404"),  # not registered
        service.pair(GUILD),  # round 1 has no results yet
        service.report(GUILD, table.a, 99, "a_wins", 1, 0, organiser=False),  # no such table
        service.report(GUILD, table.a, table.table, "a_wins", 101, 0, organiser=False),  # VP out of range
        service.report(GUILD, "stranger", table.table, "a_wins", 10, 0, organiser=False),  # not at that table
        service.report(GUILD, table.a, table.table, "a_wins", 40, 80, organiser=False),  # contradicts the VP
        service.report(GUILD, "organiser", table.table, "draw", 40, 80, organiser=True),  # contradicts the VP
        service.report(GUILD, table.a, table.table, "a_wins", 0, 0, organiser=False, reason="no_show"),  # organisers
        service.report(GUILD, table.a, table.table, "a_wins", 0, 0, organiser=False, reason="concession"),  # a won
        service.finish(GUILD),  # results missing
    ]
    for attempt in refusals:
        with pytest.raises(GameError):
            await attempt
    stored = await service.current(GUILD)
    assert (stored.version, stored.state) == (record.version, record.state)


async def test_pairing_waits_for_every_result_and_names_the_missing_tables(service: TournamentService) -> None:
    record = await started(service)
    tables = record.state.event.rounds[-1].pairings.tables
    for p in tables[1:3]:
        await service.report(GUILD, "organiser", p.table, "a_wins", 80, 20, organiser=True)
    with pytest.raises(GameError) as refused:
        await service.pair(GUILD)
    missing = [p.table for p in tables if p not in tables[1:3]]
    assert refused.value.message == f"Round 1 is missing results for tables {', '.join(map(str, missing))}."


async def test_confirmation_needs_the_opponent_and_the_current_report(service: TournamentService) -> None:
    record = await started(service)
    table = record.state.event.rounds[-1].pairings.tables[0]
    first = await service.report(GUILD, table.a, table.table, "a_wins", 70, 50, organiser=False)
    old = report_digest(record.id, first.pending)
    # The opponent disagrees and reports their own version: the first report's button is now stale.
    second = await service.report(GUILD, table.b, table.table, "b_wins", 50, 70, organiser=False)
    new = report_digest(record.id, second.pending)
    with pytest.raises(GameError, match="out of date"):
        await service.confirm(record.id, 1, table.table, old, table.b, organiser=False)
    with pytest.raises(GameError, match="Your opponent confirms"):
        await service.confirm(record.id, 1, table.table, new, table.b, organiser=False)
    elsewhere = next(p for p in PLAYERS if p not in (table.a, table.b))
    with pytest.raises(GameError, match=f"Only <@{table.a}>"):
        await service.confirm(record.id, 1, table.table, new, elsewhere, organiser=False)
    done = await service.confirm(record.id, 1, table.table, new, table.a, organiser=False)
    assert (done.result.outcome, done.result.vp_a, done.result.vp_b) == (Outcome.B_WINS, 50, 70)
    assert done.record.state.pending == ()
    with pytest.raises(GameError) as again:  # a double click
        await service.confirm(record.id, 1, table.table, new, table.a, organiser=False)
    assert again.value.message == STALE_REPORT
    with pytest.raises(GameError, match="already has a confirmed result"):
        await service.report(GUILD, table.a, table.table, "a_wins", 70, 50, organiser=False)
    corrected = await service.report(GUILD, "organiser", table.table, "draw", 60, 60, organiser=True)
    assert corrected.corrected == done.result and corrected.result.outcome == Outcome.DRAW


async def test_the_vp_decide_unless_a_concession_or_a_no_show_is_recorded(service: TournamentService) -> None:
    record = await started(service)
    first, second, third = record.state.event.rounds[-1].pairings.tables[:3]
    # No outcome given: the player with more VP wins once the opponent confirms.
    report = await service.report(GUILD, first.a, first.table, None, 40, 80, organiser=False)
    assert (report.pending.outcome, report.pending.reason) == (Outcome.B_WINS, Reason.SCORE)
    done = await service.confirm(record.id, 1, first.table, report_digest(record.id, report.pending), first.b,
                                 organiser=False)
    assert (done.result.outcome, done.result.reason) == (Outcome.B_WINS, Reason.SCORE)
    # The player who conceded reports it; their opponent confirms; the VP do not decide.
    conceded = await service.report(GUILD, second.b, second.table, "a_wins", 20, 55, organiser=False,
                                    reason="concession")
    done = await service.confirm(record.id, 1, second.table, report_digest(record.id, conceded.pending), second.a,
                                 organiser=False)
    assert (done.result.outcome, done.result.reason, done.result.vp_b) == (Outcome.A_WINS, Reason.CONCESSION, 55)
    # An organiser records a no-show at once.
    absent = await service.report(GUILD, "organiser", third.table, "b_wins", 0, 0, organiser=True, reason="no_show")
    assert (absent.result.outcome, absent.result.reason) == (Outcome.B_WINS, Reason.NO_SHOW)
    stored = await service.current(GUILD)
    assert {r.table: r.reason for r in stored.state.event.rounds[-1].results if r.b} == {
        first.table: Reason.SCORE, second.table: Reason.CONCESSION, third.table: Reason.NO_SHOW}


async def test_restart_keeps_everything(database_url: str) -> None:
    engine = make_engine(database_url)
    service = TournamentService(make_sessionmaker(engine))
    record = await started(service)
    table = record.state.event.rounds[-1].pairings.tables[0]
    pending = await service.report(GUILD, table.a, table.table, "a_wins", 70, 50, organiser=False)
    await engine.dispose()

    engine = make_engine(database_url)  # a new process
    try:
        service = TournamentService(make_sessionmaker(engine))
        stored = await service.current(GUILD)
        assert stored.state == pending.record.state and stored.version == pending.record.version
        assert stored.state.names[PLAYERS[3]] == "Player 3"
        digest = report_digest(stored.id, stored.state.pending[0])
        done = await service.confirm(stored.id, 1, table.table, digest, table.b, organiser=False)
        assert done.result.vp_a == 70
    finally:
        await engine.dispose()


async def test_pairing_is_reproducible_from_the_seed(sessionmaker, database_url: str) -> None:
    odd = PLAYERS[:7]
    runs = []
    for guild in (GUILD, GUILD + 1):
        service = TournamentService(sessionmaker)
        await service.create(guild, "GT", 3, seed="same-seed", bye_vp=20)
        for p in odd:
            await service.register(guild, p, p)
        first = await published(service, guild)
        for p in first.state.event.rounds[-1].pairings.tables:
            await service.report(guild, "organiser", p.table, "a_wins", 60 + p.table, 40, organiser=True)
        runs.append(await published(service, guild))
    assert runs[0].state.event.rounds == runs[1].state.event.rounds
    assert runs[0].state.event.rounds[0].pairings.bye.vp_a == 20
    other = TournamentService(sessionmaker)
    await other.create(GUILD + 2, "GT", 3, seed="another-seed")
    for p in odd:
        await other.register(GUILD + 2, p, p)
    assert (await other.pair(GUILD + 2)).state.event.rounds[0].pairings != runs[0].state.event.rounds[0].pairings


async def test_rounds_planned_and_finish(service: TournamentService) -> None:
    record = await started(service, PLAYERS[:4], rounds=1)
    for p in record.state.event.rounds[-1].pairings.tables:
        await service.report(GUILD, "organiser", p.table, "draw", 50, 50, organiser=True)
    with pytest.raises(GameError, match="All 1 planned rounds"):
        await service.pair(GUILD)
    finished = await service.finish(GUILD)
    assert finished.status == TournamentStatus.FINISHED
    with pytest.raises(GameError, match="no tournament running"):
        await service.current(GUILD)
    assert (await service.latest(GUILD)).id == record.id
    assert (await service.create(GUILD, "Next", 2)).id != record.id


async def test_bad_settings_are_refused(service: TournamentService) -> None:
    for name, rounds, bye_vp in [("", 3, 0), ("x" * 101, 3, 0), ("GT", 0, 0), ("GT", 21, 0), ("GT", 3, 101)]:
        with pytest.raises(GameError):
            await service.create(GUILD, name, rounds, bye_vp=bye_vp)
    assert await service.repo.latest(GUILD) is None


async def test_an_unknown_state_schema_is_refused(service: TournamentService, sessionmaker) -> None:
    record = await started(service)
    async with sessionmaker() as session, session.begin():
        await session.exec(text("UPDATE tournament SET state_json = '{\"schema_version\": 99}' WHERE id = :i")
                           .bindparams(i=record.id))
    with pytest.raises(SnapshotError, match="schema version 99"):
        await service.repo.get(record.id)
