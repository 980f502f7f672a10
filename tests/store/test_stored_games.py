"""Games and tournaments stored by an earlier version keep loading and replaying after every change.

The fixture is a real database written by the version-1 bot (tests/fixtures/README.md); it is upgraded
by the Alembic migrations exactly as a user's database is at start-up.
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from sqlalchemy import text

from bot.decks import default_catalog
from bot.engine.chapter_approved.game import replay
from bot.engine.chapter_approved.state import SCHEMA_VERSION, Status
from bot.engine.errors import GameError
from bot.engine.moves import SpendCp
from bot.engine.tournament.event import Outcome, Reason, records, standings
from bot.services.games import GameService
from bot.store.db import make_engine, make_sessionmaker
from bot.store.repository import GameRepository
from bot.store.tournament_repository import load_event
from bot.services.tournaments import TournamentService, report_digest
from bot.present.exports import result_notes
from tests.store.conftest import STORED_V1, stored_v1_database

CATALOG = default_catalog()
GAME_IDS = range(1, 9)


@pytest.fixture
async def stored(tmp_path):
    engine = make_engine(await stored_v1_database(tmp_path / "old.db"))
    yield make_sessionmaker(engine)
    await engine.dispose()


async def test_every_stored_game_loads_as_a_version_1_game(stored):
    repo = GameRepository(stored)
    for game_id in GAME_IDS:
        record = await repo.get_game(game_id)
        assert record.setup.version == 1
        assert record.state.setup == record.setup


async def test_every_stored_game_is_a_chapter_approved_game_with_its_snapshot_schema(stored):
    """Migration 0005 names each game's pack and the schema version its stored snapshot was written with."""
    async with stored() as session:
        rows = (await session.exec(text("SELECT pack, pack_schema, state_json FROM game ORDER BY id"))).all()
    assert len(rows) == len(GAME_IDS)
    for pack, schema, state_json in rows:
        assert (pack, schema) == ("ca-2025-26", json.loads(state_json)["schema_version"])


async def test_a_stored_game_saved_again_carries_the_current_schema(stored):
    service = GameService(CATALOG, stored)
    record = await service.get_state(game_id=8)
    spender = next(p for p in record.state.players if p.cp > 0)
    await service.act(SpendCp(actor=spender.id, amount=1), game_id=8)
    async with stored() as session:
        schema = (await session.exec(text("SELECT pack_schema FROM game WHERE id = 8"))).scalar_one()
    assert schema == SCHEMA_VERSION


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_every_stored_game_replays_to_its_snapshot(stored, game_id):
    repo = GameRepository(stored)
    record = await repo.get_game(game_id)
    log = await repo.list_actions(game_id)
    assert replay(CATALOG, record.setup, [e.action for e in log]) == record.state


async def test_the_stored_game_in_progress_can_be_played_on_and_undone(stored):
    service = GameService(CATALOG, stored)
    record = await service.get_state(game_id=8)
    assert record.state.status == Status.BATTLE
    spender = next(p for p in record.state.players if p.cp > 0)
    spent = await service.act(SpendCp(actor=spender.id, amount=1, reason="Grenade"), game_id=8)
    assert spent.state.player(spender.id).cp == spender.cp - 1
    undone = await service.undo(record.channel_id, spender.id)
    assert undone.state == record.state
    assert undone.version == record.version + 2


def stored_tournament_json() -> str:
    """The tournament's state exactly as the version-1 bot wrote it."""
    return re.search(r"INSERT INTO tournament VALUES\(.*?'v1-tournament','(\{.*\})',", STORED_V1.read_text())[1]


async def test_the_stored_tournament_loads_with_its_pending_report(stored):
    service = TournamentService(stored)
    record = await service.current(1)
    assert record.state.schema_version == 4
    assert record.state.table_games == ()
    assert [r.number for r in record.state.event.rounds] == [1, 2]
    # Rounds were public as soon as they were paired, and never re-paired.
    assert [(r.published, r.draw) for r in record.state.event.rounds] == [(True, 0), (True, 0)]
    # Every stored result agreed with its VP: each is now a result decided by the score.
    results = [(r.round_number, r.table, r.outcome, r.vp_a, r.vp_b, r.reason)
               for rnd in record.state.event.rounds for r in rnd.results]
    assert sorted(results) == [
        (1, 0, Outcome.A_WINS, 0, 0, Reason.SCORE), (1, 1, Outcome.A_WINS, 70, 50, Reason.SCORE),
        (1, 2, Outcome.A_WINS, 70, 50, Reason.SCORE), (2, 0, Outcome.A_WINS, 0, 0, Reason.SCORE),
    ]
    assert all(r.pairings.bye.reason == Reason.SCORE for r in record.state.event.rounds)
    [pending] = record.state.pending
    assert (pending.table, pending.outcome, pending.vp_a, pending.vp_b, pending.reason) == \
        (1, Outcome.B_WINS, 40, 60, Reason.SCORE)
    assert record.state.names


def test_a_version_2_event_loads_with_its_rounds_published():
    """Events written by the version before drafts (schema 2) had no `published` nor `draw`."""
    upgraded = json.loads(load_event(stored_tournament_json()).model_dump_json())
    for r in upgraded["event"]["rounds"]:
        del r["published"], r["draw"]
    event = load_event(json.dumps({**upgraded, "schema_version": 2})).event
    assert [(r.published, r.draw) for r in event.rounds] == [(True, 0), (True, 0)]
    assert event == load_event(stored_tournament_json()).event


async def play_on(sessionmaker) -> tuple:
    """Confirm the stored event's pending report (its opponent presses), enter its other table's result and finish
    it: its final state and standings."""
    service = TournamentService(sessionmaker)
    record = await service.current(1)
    await service.confirm(1, 2, 1, report_digest(1, record.state.pending[0]), "100000000000000000", organiser=False)
    await service.report(1, "organiser", 2, None, 55, 50, organiser=True)
    finished = await service.finish(1)
    return finished.state, standings(finished.state.event)


async def test_an_event_stored_before_doubles_loads_as_singles_and_plays_on_the_same(stored, tmp_path):
    """Events stored before doubles events have neither `doubles` nor `partners`: one loads as a singles event with
    its players named as before, and plays to its end exactly as the same event stored with both fields does."""
    record = await TournamentService(stored).current(1)
    assert '"doubles"' not in stored_tournament_json() and '"partners"' not in stored_tournament_json()
    state = record.state
    assert (state.doubles, state.partners) == (False, {})
    assert all(state.entrant_of(p) == p and state.name_of(p) == state.names[p] for p in state.event.players)
    engine = make_engine(await stored_v1_database(tmp_path / "rewritten.db"))
    try:
        rewritten = make_sessionmaker(engine)
        async with rewritten() as session, session.begin():  # the same event, written with the new fields
            await session.exec(text("UPDATE tournament SET state_json = :state").bindparams(
                state=state.model_dump_json()))
        assert await play_on(stored) == await play_on(rewritten)
    finally:
        await engine.dispose()


async def test_the_stored_report_is_confirmed_with_the_button_posted_before_the_upgrade(stored):
    service = TournamentService(stored)
    raw_report = re.search(r'"pending":\[(\{.*?\})\]', stored_tournament_json())[1]
    old_button = hashlib.sha256(f"1|{raw_report}".encode()).hexdigest()[:12]  # the version-1 digest
    done = await service.confirm(1, 2, 1, old_button, "100000000000000000", organiser=False)
    assert (done.result.outcome, done.result.vp_a, done.result.vp_b, done.result.reason) == \
        (Outcome.B_WINS, 40, 60, Reason.SCORE)


async def test_a_stored_report_that_contradicts_its_vp_cannot_be_confirmed(stored):
    # The version-1 bot accepted any outcome: the same pending report, but claiming a win for the 40VP player.
    raw_report = re.search(r'"pending":\[(\{.*?\})\]', stored_tournament_json())[1]
    contradicting = raw_report.replace('"b_wins"', '"a_wins"')
    async with stored() as session, session.begin():
        state = stored_tournament_json().replace(raw_report, contradicting)
        await session.exec(text("UPDATE tournament SET state_json = :state").bindparams(state=state))
    service = TournamentService(stored)
    before = await service.current(1)
    old_button = hashlib.sha256(f"1|{contradicting}".encode()).hexdigest()[:12]
    reporter, opponent = "100000000000000003", "100000000000000000"  # players A and B of table 1
    with pytest.raises(GameError, match=f"40–60 is a win for <@{opponent}>, not a win for <@{reporter}>"):
        await service.confirm(1, 2, 1, old_button, opponent, organiser=False)
    after = await service.current(1)
    assert (after.version, after.state) == (before.version, before.state)


def test_a_stored_result_that_contradicts_its_vp_keeps_its_outcome_marked_as_entered():
    # The version-1 bot accepted any outcome: the same event with table 1 of round 1 confirmed as B winning 70-50.
    agreed = '"table":1,"a":"100000000000000000","b":"100000000000000001","outcome":"a_wins","vp_a":70'
    text = stored_tournament_json().replace(agreed, agreed.replace("a_wins", "b_wins"))
    event = load_event(text).event
    result = next(r for r in event.rounds[0].results if r.table == 1)
    assert (result.outcome, result.vp_a, result.vp_b, result.reason) == (Outcome.B_WINS, 70, 50, Reason.AS_ENTERED)
    assert records(event)["100000000000000001"].wins == 1  # the standings do not change under anyone's feet
    notes = result_notes(event)
    assert notes["100000000000000000"] == notes["100000000000000001"] == ["R1 as entered"]  # shown to organisers


async def test_games_that_ended_before_summaries_are_summarised_once_at_start_up(stored):
    """Migration 0007 adds the summaries; the seven finished games of the version-1 bot get theirs at start-up, from
    their stored snapshots, once (a second start-up finds nothing to do)."""
    service = GameService(CATALOG, stored)
    assert await service.backfill_summaries() == 7
    assert await service.backfill_summaries() == 0
    for game_id in GAME_IDS:
        record = await service.repo.get_game(game_id)
        summary = await service.history.summary(game_id)
        if record.state.status != Status.ENDED:
            assert summary is None  # still in progress
            continue
        a, b = record.state.players
        assert (summary.player_a, summary.player_b, summary.name_a) == (a.id, b.id, a.name)
        assert (summary.vp_a, summary.vp_b) == (record.state.result.vp[a.id], record.state.result.vp[b.id])
        assert summary.winner == record.state.result.winner and summary.ended_at == record.updated_at
        primary = CATALOG.primary(record.state.mission.primary).name
        assert summary.mission.casefold() == primary.casefold() and summary.mission != primary.upper()
