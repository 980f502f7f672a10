"""The snapshot codec: compact VP ledger rows (schema 3), read back exactly, older snapshots upgraded.

"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.chapter_approved.game import apply, new_game, replay
from bot.engine.chapter_approved.state import GameSetup, GameState, SCHEMA_VERSION, Source, Status, VpEntry
from bot.engine.moves import DeclareBattleReady
from bot.store.codec import VP_COLUMNS, SnapshotError, dump_state, load_state
from tests.engine.test_game_properties import CATALOG, setups
from tests.store.conftest import ALICE, BOB, next_action


@settings(max_examples=25, derandomize=True, database=None)
@given(setup=setups(), scores_per_turn=st.integers(0, 8), ready=st.booleans())
def test_every_snapshot_of_a_real_game_reads_back_equal(setup: GameSetup, scores_per_turn: int, ready: bool):
    """Every state of whole battles (random missions, twists, Challenger cards, capped scores, Battle
    Ready) stores and reads back as the same state, and stores again as the same text."""
    state = new_game(CATALOG, setup).state
    if ready:
        state = apply(CATALOG, state, DeclareBattleReady(actor=setup.players[1], ready=True)).state
    while True:
        text = dump_state(state)
        assert load_state(text) == state
        assert dump_state(load_state(text)) == text
        if state.status in (Status.ENDED, Status.ABANDONED):
            break
        state = apply(CATALOG, state, next_action(CATALOG, state, scores_per_turn)).state


@pytest.fixture
def long_game(catalog, setup: GameSetup, play) -> GameState:
    """A whole battle with twists, Challenger cards and capped scores: every kind of ledger entry."""
    setup = setup.model_copy(update={"seed": "codec-long", "twist": True})
    return replay(catalog, setup, play(setup, scores_per_turn=12))


def test_every_entry_field_is_a_column():
    """A field added to VpEntry must get a column (and a schema version), or the codec would drop it."""
    assert sorted(VP_COLUMNS) == sorted(VpEntry.model_fields)


def test_a_long_game_round_trips(long_game: GameState):
    assert any(e.capped_by for e in long_game.vp)
    text = dump_state(long_game)
    assert load_state(text) == long_game
    assert dump_state(load_state(text)) == text


def test_the_ledger_is_stored_as_rows_with_the_player_as_a_place(catalog, setup: GameSetup):
    state = new_game(catalog, setup).state.model_copy(update={"vp": (
        VpEntry(player=BOB, source=Source.PRIMARY, card="supply-drop", round=1, turn=2, claimed=5, awarded=5),
        VpEntry(player=ALICE, source=Source.SECONDARY, card="cleanse", option="one", round=2, turn=1,
                claimed=4, awarded=2, capped_by="Secondary 40VP", note="capped"),
        VpEntry(player=ALICE, source=Source.CHALLENGER, round=3, turn=1, claimed=3, awarded=3),
    )})
    stored = json.loads(dump_state(state))
    assert stored["schema_version"] == SCHEMA_VERSION == 4
    assert stored["vp"] == [
        [1, "primary", 1, 2, 5, 5, "supply-drop"],
        [0, "secondary", 2, 1, 4, 2, "cleanse", "one", "Secondary 40VP", "capped"],
        [0, "challenger", 3, 1, 3, 3],
    ]
    assert load_state(json.dumps(stored)) == state


def test_a_version_2_snapshot_is_upgraded(long_game: GameState):
    """Version 2 stored the ledger as objects, as pydantic writes them."""
    old = json.loads(long_game.model_dump_json()) | {"schema_version": 2}
    assert isinstance(old["vp"][0], dict)
    upgraded = load_state(json.dumps(old))
    assert upgraded == long_game
    assert json.loads(dump_state(upgraded))["vp"] == json.loads(dump_state(long_game))["vp"]


@pytest.mark.parametrize("row", [[2, "primary", 1, 1, 1, 1], ["x", "primary", 1, 1, 1, 1],
                                 [0, "primary", 1, 1, 1, 1, None, None, None, None, None, "extra"], 7])
def test_a_malformed_ledger_row_is_refused_clearly(first_state: GameState, row):
    data = json.loads(dump_state(first_state)) | {"vp": [row]}
    with pytest.raises(SnapshotError, match="VP ledger row"):
        load_state(json.dumps(data))


def test_a_bad_value_in_a_row_is_refused_by_the_model(first_state: GameState):
    data = json.loads(dump_state(first_state)) | {"vp": [[0, "not-a-source", 1, 1, 1, 1]]}
    with pytest.raises(SnapshotError, match="does not match schema version"):
        load_state(json.dumps(data))


def test_a_played_snapshot_keeps_applying_the_same(catalog, setup: GameSetup, play):
    """An action applied to a reloaded snapshot gives what it gives to the live state."""
    state = new_game(catalog, setup).state
    for action in play(setup, scores_per_turn=3)[:60]:
        assert apply(catalog, load_state(dump_state(state)), action) == apply(catalog, state, action)
        state = apply(catalog, state, action).state
