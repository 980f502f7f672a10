"""The Adapt or Die Twist from the board: Tactical draws again after a draw, Fixed swaps a card once."""

from __future__ import annotations

import pytest

from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.state import Phase, PromptKind
from bot.engine.rng import stream_of
from tests.cogs.game_table import Table, menu_values
from tests.cogs.harness import Harness
from tests.cogs.test_game_buttons import refusal
from tests.discord_model import FakeUser

FIXED = ("cleanse", "assassination")


def adapt_or_die_seed(catalog: Catalog) -> str:
    """A seed whose Twist draw is Adapt or Die (the Twist comes from the seed's own stream)."""
    for n in range(500):
        seed = f"adapt-{n}"
        if stream_of(seed, "twist").choice(catalog.twists).adapt_or_die:
            return seed
    raise AssertionError("no seed draws Adapt or Die")


@pytest.fixture
async def table(harness: Harness, alice: FakeUser, bob: FakeUser) -> Table:
    t = Table(harness, alice, bob)
    await t.start(twist=True, seed=adapt_or_die_seed(harness.bot.catalog))
    return t


async def test_tactical_player_draws_again_and_keeps_one(table: Table) -> None:
    await table.to_battle(first_fixed=None, second_fixed=None)
    await table.answer_all()
    user = await table.active_user()
    before = (await table.state()).player(str(user.id))
    assert "adapt" in await table.board_verbs()

    menu = await table.press("adapt", user)
    drawn = menu_values(menu)
    assert drawn and set(drawn) <= set(before.hand)
    await table.pick(menu, "adaptdraw", drawn[:1], user)
    state = await table.state()
    prompt = state.prompts[0]
    assert prompt.kind == PromptKind.ADAPT_KEEP and prompt.player == str(user.id)
    new_card = prompt.other_card
    assert new_card not in before.hand and new_card in state.player(str(user.id)).hand

    answer = await table.press("answer", user)
    await table.pick(answer, "keep", [new_card], user)
    after = (await table.state()).player(str(user.id))
    assert new_card in after.hand and drawn[0] not in after.hand and drawn[0] in after.deck
    assert len(after.hand) == 2 and after.adapt_or_die_uses == 1


async def test_fixed_player_swaps_once_when_both_players_have_finished_scoring(table: Table) -> None:
    await table.to_battle(first_fixed=FIXED, second_fixed=FIXED)
    user = await table.active_user()
    refusal(await table.pick(await table.press("adapt", user), "adaptswap",
                             ["cleanse|behind-enemy-lines"], user), "once both players have finished scoring")
    await table.press("endcmd", user)
    await table.press("endturn", user)
    await table.press("done", user)
    assert "adapt" not in await table.board_verbs()  # the opponent is still scoring
    await table.press("done", table.other(user))
    state = await table.state()
    assert state.phase == Phase.DISCARDS and state.discard_queue == (str(user.id),)

    menu = await table.press("discard", user)  # the discard step offers the swap, or keeping the cards
    assert "cleanse|behind-enemy-lines" in menu_values(menu)
    assert not any(v.endswith("|defend-stronghold") for v in menu_values(menu))  # no Fixed symbol
    await table.pick(menu, "adaptswap", ["cleanse|behind-enemy-lines"], user)
    state = await table.state()
    player = state.player(str(user.id))
    assert player.hand == ("behind-enemy-lines", "assassination") and "cleanse" in player.discard
    assert state.active != str(user.id) and state.phase == Phase.COMMAND  # the swap ended the turn

    await table.end_turn_plain()  # the opponent keeps their Fixed Missions in their own discard step
    again = await table.press("adapt", user)
    refusal(await table.pick(again, "adaptswap", [menu_values(again)[0]], user), "once per battle")


async def test_no_adapt_or_die_button_without_the_twist(harness: Harness, alice: FakeUser, bob: FakeUser) -> None:
    t = Table(harness, alice, bob)
    await t.start()
    await t.to_battle()
    assert "adapt" not in await t.board_verbs()
