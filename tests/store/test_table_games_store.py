"""The older packs' games go through the same service and store as Chapter Approved games (SQLite and PostgreSQL):
one table naming each game's pack, version-checked saves, their own action log, undo, a restart."""

from __future__ import annotations

import asyncio
import json

import pytest
from sqlalchemy import text

from bot.decks import installed_packs
from bot.engine.chapter_approved import actions as a
from bot.engine.errors import GameError
from bot.engine.table import actions as t
from bot.engine.table.state import TABLE_SCHEMA, Step, TableSetup
from bot.services.games import GameService, StaleBoard
from bot.store.codec import SnapshotError, dump_state, load_state
from tests.store.conftest import scripted_table_game

CHANNEL = 4_444_444_444_444_444_444
ALICE, BOB = "100000000000000001", "100000000000000002"
PICKS = ("assassinate", "engage-on-all-fronts", "investigate-sites")


def gt_setup(**fields) -> TableSetup:
    return TableSetup(pack="gt-2020", players=(ALICE, BOB), names=("Alice", "Bob"), size="incursion",
                      seed="store-gt", **fields)


@pytest.fixture
def service(catalog, sessionmaker) -> GameService:
    return GameService(catalog, sessionmaker)


async def test_a_table_game_is_stored_with_its_pack_and_replays_after_a_restart(service, catalog, sessionmaker):
    started = await service.start_game(None, CHANNEL, gt_setup())
    await service.act(t.SelectSecondaries(actor=ALICE, picks=PICKS), channel_id=CHANNEL)
    revealed = await service.act(t.SelectSecondaries(actor=BOB, picks=PICKS), channel_id=CHANNEL)
    assert revealed.state.status == Step.SIDES
    async with sessionmaker() as session:
        row = (await session.exec(text("SELECT pack, pack_schema FROM game"))).one()
    assert tuple(row) == ("gt-2020", TABLE_SCHEMA)

    restarted = GameService(catalog, sessionmaker)  # nothing in memory: everything from the database
    record = await restarted.get_state(game_id=started.game_id)
    assert record.pack == "gt-2020" and record.state == revealed.state
    log = await restarted.repo.list_actions(started.game_id)
    assert [e.action for e in log] == [t.SelectSecondaries(actor=ALICE, picks=PICKS),
                                       t.SelectSecondaries(actor=BOB, picks=PICKS)]
    assert restarted.packs.replay(record.setup, [e.action for e in log]) == record.state


async def test_undo_of_a_table_game_takes_back_only_what_showed_nothing(service):
    await service.start_game(None, CHANNEL, gt_setup())
    chosen = await service.act(t.SelectSecondaries(actor=ALICE, picks=PICKS), channel_id=CHANNEL)
    undone = await service.undo(CHANNEL, ALICE)  # still secret: she may select again
    assert undone.state.player(ALICE).secret is None and undone.version == chosen.version + 1
    await service.act(t.SelectSecondaries(actor=ALICE, picks=PICKS), channel_id=CHANNEL)
    await service.act(t.SelectSecondaries(actor=BOB, picks=PICKS), channel_id=CHANNEL)
    with pytest.raises(GameError, match="cannot be undone"):
        await service.undo(CHANNEL, BOB)  # the reveal and the roll-off were seen


async def test_two_presses_at_once_apply_once(service):
    started = await service.start_game(None, CHANNEL, gt_setup())
    ready = a.DeclareBattleReady(actor=ALICE, ready=True)
    results = await asyncio.gather(*(service.act(ready, game_id=started.game_id, expected_version=0)
                                     for _ in range(2)), return_exceptions=True)
    assert sorted(type(r).__name__ for r in results) == ["ActResult", "StaleBoard"]
    assert isinstance(next(r for r in results if isinstance(r, Exception)), StaleBoard)
    assert (await service.get_state(game_id=started.game_id)).version == 1


async def test_both_selections_at_the_same_moment_reveal_once(service):
    """Both players select at once (their menus carry no version): both are kept, and exactly one save reveals."""
    await service.start_game(None, CHANNEL, gt_setup())
    results = await asyncio.gather(*(service.act(t.SelectSecondaries(actor=who, picks=PICKS), channel_id=CHANNEL)
                                     for who in (ALICE, BOB)))
    reveals = [r for r in results if any("Attacker and Defender roll-off" in e.text for e in r.events)]
    assert len(reveals) == 1 and reveals[0].state.status == Step.SIDES
    assert [p.objectives for p in reveals[0].state.players] == [PICKS, PICKS]


async def test_a_move_of_another_pack_is_refused_and_nothing_is_written(service):
    started = await service.start_game(None, CHANNEL, gt_setup())
    with pytest.raises(GameError, match="no such move"):
        await service.act(a.NewOrders(actor=ALICE, card="cleanse"), channel_id=CHANNEL)
    assert (await service.get_state(game_id=started.game_id)).version == 0
    assert await service.repo.list_actions(started.game_id) == []


def test_a_snapshot_of_an_unknown_pack_is_refused_by_name():
    with pytest.raises(SnapshotError, match="'9th-edition'"):
        load_state("{}", "9th-edition")


@pytest.mark.parametrize("pack, fields", [("gt-2020", {"size": "incursion"}), ("4th-edition", {"level": "gamma"})])
def test_a_table_snapshot_round_trips_through_its_compact_form(pack, fields):
    """The tallies are stored as rows of values (TALLY_COLUMNS), capped ones included, and read back exactly."""
    rules = installed_packs().rules(pack)
    setup = TableSetup(pack=pack, players=(ALICE, BOB), names=("Alice", "Bob"), seed=f"codec-{pack}", **fields)
    state = rules.replay(setup, scripted_table_game(rules, setup, scores_per_turn=12))
    assert any(v.capped_by for v in state.vp) == (pack == "gt-2020")  # 12 primary VP a turn, rounds 2-5: over 45VP
    text_form = dump_state(state)
    assert load_state(text_form, pack) == state and dump_state(load_state(text_form, pack)) == text_form
    assert json.loads(text_form)["vp"][0] == [0, state.vp[0].objective, 1, 1, 1]
