"""The board's objective controls: the Hidden Supplies corner, The Ritual's markers, burning a named marker."""

from __future__ import annotations

from bot.engine.chapter_approved.objectives import HIDDEN_SUPPLIES_ID
from bot.engine.chapter_approved.state import Phase
from tests.cogs.game_table import Table, battle_steps, find_seed, menu_values, public_text
from tests.cogs.harness import Harness


async def test_the_hidden_supplies_corner_from_the_board(table: Table, harness: Harness) -> None:
    await table.start(mission="I")  # Hidden Supplies on Search and Destroy
    board = public_text(await table.board())
    assert 'Centre marker, to move 6" towards a corner (not recorded yet)' in board
    alice = table.first
    menu = await table.press("corner", alice)
    assert menu.ephemeral and menu_values(menu) == ["top left", "bottom right"]
    before = len(harness.calls)
    await table.pick(menu, "corner", ["bottom right"], alice)
    state = await table.state()
    assert state.mission.hidden_supplies_corner == "bottom right"
    assert any("deployment.png" in call.files for call in harness.calls[before:])  # the map, redrawn
    board_message = await table.board()
    board = public_text(board_message)
    assert 'Centre marker, moved 6" towards the bottom right corner' in board
    assert 'Hidden Supplies marker, 6" from the centre towards the top left corner' in board
    assert "corner" not in await table.board_verbs()  # recorded once


async def test_a_ritual_marker_from_the_board(table: Table, harness: Harness, catalog) -> None:
    first, second = str(table.first.id), str(table.second.id)
    seed = find_seed(catalog, (first, second), lambda s: s.mission.primary == "the-ritual" and not s.prompts,
                     steps=battle_steps(first, second, ("cleanse", "assassination"), ("cleanse", "assassination")),
                     prefix="ritual")
    await table.start(seed=seed)
    await table.to_battle(first_fixed=("cleanse", "assassination"), second_fixed=("cleanse", "assassination"))
    active = await table.active_user()
    assert "ritual" not in await table.board_verbs()
    await table.press("endcmd", active)
    await table.press("endturn", active)
    await table.press("ritual", active)
    state = await table.state()
    assert state.phase == Phase.END_OF_TURN and [m.id for m in state.ritual_markers] == ["ritual-1"]
    assert "Ritual marker 1 (" in public_text(await table.board())


async def test_burning_a_marker_from_the_score_menu(table: Table, harness: Harness) -> None:
    await table.start(mission="D")  # Scorched Earth
    await table.to_battle(first_fixed=("cleanse", "assassination"), second_fixed=("cleanse", "assassination"))
    while (await table.state()).round < 2:
        await table.end_turn_plain()
    active = await table.active_user()
    menu = await table.press("score", active)
    burns = [v for v in menu_values(menu) if v.startswith("primary||burn-nml|")]
    assert [v.split("|")[-1] for v in burns] == ["centre", "nml-1", "nml-2"]
    await table.pick(menu, "score", [burns[1]], active)
    state = await table.state()
    assert state.removed_objectives == ("nml-1",)
    assert "~~No Man’s Land, top left~~ removed" in public_text(await table.board())
    menu = await table.press("score", active)
    assert not any(v.endswith("|nml-1") for v in menu_values(menu))
    assert HIDDEN_SUPPLIES_ID not in menu_values(menu)
