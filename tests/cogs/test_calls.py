"""Calls that say what they want on the board and go away once answered, and menus that close once used."""

from __future__ import annotations

import discord

from bot.client import MissionBot
from bot.engine.chapter_approved.catalog import Catalog
from tests.cogs.conftest import harness_settings
from tests.cogs.game_table import CUSTOM_ID, Table, menu_values, said, verbs
from tests.cogs.harness import Harness
from tests.cogs.test_pings import notified
from tests.discord_model import MEMBER_PERMISSIONS, DiscordModel, walk_components


async def live_buttons_answer_something(harness: Harness, table: Table) -> None:
    """Every message of the channel that still has a game button is the board or a call still waiting."""
    boards = {b.message_id for b in await harness.bot.service.repo.board_messages(table.game_id)}
    calls = {c.message_id for c in await harness.bot.service.community.calls_of(table.game_id)}
    for message in harness.messages():
        if harness.model.ephemeral_owner.get(int(message["id"])):
            continue  # menus are checked on their own
        ids = [c.get("custom_id", "") for c in walk_components(message.get("components") or [])]
        if any(CUSTOM_ID.match(i) and not i.endswith(":rematch") for i in ids):  # a result card's Rematch works
            assert int(message["id"]) in boards | calls, message["content"]


async def board_content(table: Table) -> str:
    return (await table.board())["content"]


async def test_each_call_is_the_board_moved_to_the_bottom_naming_what_is_wanted(table: Table, harness: Harness,
                                                                              alice, bob) -> None:
    await table.challenge_only()
    await table.accept()
    state = await table.state()
    winner = table.user(state.sides_rolloff.winner)
    assert await board_content(table) == f"<@{winner.id}>, you won the roll-off: choose Attacker or Defender."
    first = await table.board_ids()
    await table.press("attacker", winner)
    assert await table.board_ids() == first and await board_content(table) == ""  # answered: edited in place

    reply = await table.choose(alice, ("cleanse", "assassination"))
    board = await table.board()
    assert await table.board_ids() != first and first[0] not in harness.model.messages  # moved: the old one is gone
    assert board["content"] == f"<@{bob.id}>, choose your Secondary Missions."
    assert notified(said(reply, "choose your Secondary Missions")) == {bob.id}
    assert "choose" in verbs(board) and "Cleanse" not in board["content"]  # the button is on it; nothing secret
    await live_buttons_answer_something(harness, table)
    await table.choose(bob, None)
    assert await board_content(table) == ""
    await table.deploy()
    await live_buttons_answer_something(harness, table)
    assert "your turn (battle round 1)" in await board_content(table)
    assert not any(m["content"].startswith("✓") for m in harness.messages())  # answered calls leave nothing


async def test_undo_and_the_end_of_the_game_take_the_call_back(table: Table, harness: Harness, alice, bob) -> None:
    await table.start()
    state = await table.state()
    await table.press("attacker", table.user(state.sides_rolloff.winner))
    await table.choose(alice, None)
    assert f"<@{bob.id}>" in await board_content(table)
    await table.press("undo", alice)  # Alice takes her choice back: nothing waits on Bob any more
    assert await board_content(table) == ""
    await table.choose(alice, None)
    moderator = harness.user("mod", permissions=MEMBER_PERMISSIONS | discord.Permissions(manage_channels=True).value)
    await table.slash("game end", moderator)
    assert await board_content(table) == "" and verbs(await table.board()) == {}
    await live_buttons_answer_something(harness, table)


async def test_a_board_posted_before_a_restart_takes_its_answer_after_it(catalog: Catalog, tmp_path) -> None:
    settings = harness_settings(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    model = DiscordModel()
    alice, bob = model.add_user("alice"), model.add_user("bob")
    async with Harness(MissionBot(settings, catalog), model) as harness:
        table = Table(harness, alice, bob)
        await table.start()
        state = await table.state()
        await table.press("attacker", table.user(state.sides_rolloff.winner))
        await table.choose(alice, None)
        board = await table.board()
    async with Harness(MissionBot(settings, catalog), model) as harness:
        table.h = harness
        await harness.press(verbs(board)["choose"], user=bob, message_id=int(board["id"]))
        menu = next(m for m in reversed(harness.messages()) if "tactical" in verbs(m))
        await harness.press(verbs(menu)["tactical"], user=bob, message_id=int(menu["id"]))
        await harness.bot.desk.idle()
        assert harness.message(board["id"])["content"] == ""  # Bob answered: the call is gone from the board


async def test_a_private_menu_closes_once_used_and_says_what_was_chosen(table: Table, harness: Harness, alice,
                                                                        bob) -> None:
    await table.start()
    state = await table.state()
    await table.press("attacker", table.user(state.sides_rolloff.winner))
    menu = await table.press("choose", alice)
    assert menu.ephemeral and set(verbs(menu.main.message)) == {"fixed", "tactical"}
    await table.press_on(menu, "tactical", alice)
    used = harness.message(menu.main.message["id"])
    assert used["components"] == [] and "Tactical" in used["content"]
    menu = await table.press("choose", bob)
    await table.pick(menu, "fixed", ["cleanse", "assassination"], bob)
    used = harness.message(menu.main.message["id"])
    assert used["components"] == [] and "Cleanse" in used["content"] and "Assassination" in used["content"]


async def test_a_menu_whose_effect_is_on_the_board_goes_once_used(table: Table, harness: Harness, alice,
                                                                  bob) -> None:
    await table.start()
    await table.to_battle(first_fixed=None, second_fixed=None)
    await table.answer_all()
    user = await table.active_user()
    await table.press("endcmd", user)
    await table.press("endturn", user)
    menu = await table.press("score", user)
    assert menu.main.components, "with this seed the player has a Secondary Mission to score"
    scored = await table.pick(menu, "score", [menu_values(menu)[0]], user)
    assert int(menu.main.message["id"]) not in harness.model.messages  # deleted: the board shows the VP
    assert not [s for s in scored if s.kind in ("message", "followup")]  # and nothing else was said
