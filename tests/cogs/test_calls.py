"""Calls that say what they want and go away, and menus that close once used (the quiet table)."""

from __future__ import annotations

import discord

from bot.client import MissionBot
from bot.engine.chapter_approved.catalog import Catalog
from tests.cogs.conftest import harness_settings
from tests.cogs.game_table import CUSTOM_ID, Table, said, verbs
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


async def test_each_call_names_what_is_wanted_and_closes_once_answered(table: Table, harness: Harness, alice,
                                                                       bob) -> None:
    await table.challenge_only()
    await table.accept()
    state = await table.state()
    winner = table.user(state.sides_rolloff.winner)
    opening = next(m for m in harness.messages() if m["content"].startswith(f"<@{winner.id}>, you won the roll-off"))
    await table.press("attacker", winner)
    assert harness.message(opening["id"])["content"] == f"✓ {winner.name.title()} chose a side."

    reply = await table.choose(alice, ("cleanse", "assassination"))
    call = said(reply, "choose your Secondary Missions")
    assert call.content == f"<@{bob.id}>, choose your Secondary Missions." and notified(call) == {bob.id}
    assert verbs(call.message).keys() == {"choose"}
    assert "Cleanse" not in call.content  # nothing secret
    await live_buttons_answer_something(harness, table)
    await table.choose(bob, None)
    closed = harness.message(call.message["id"])
    assert closed["components"] == [] and closed["content"] == "✓ Bob chose their Secondary Missions."
    await table.deploy()
    await live_buttons_answer_something(harness, table)
    assert await harness.bot.service.community.calls_of(table.game_id) != []  # the turn's call waits


async def test_undo_and_the_end_of_the_game_close_the_calls(table: Table, harness: Harness, alice, bob) -> None:
    await table.start()
    state = await table.state()
    await table.press("attacker", table.user(state.sides_rolloff.winner))
    await table.choose(alice, None)
    assert len(await harness.bot.service.community.calls_of(table.game_id)) == 1  # Bob's
    await table.press("undo", alice)  # Alice takes her choice back: nothing waits on Bob any more
    assert await harness.bot.service.community.calls_of(table.game_id) == []
    await table.choose(alice, None)
    moderator = harness.user("mod", permissions=MEMBER_PERMISSIONS | discord.Permissions(manage_channels=True).value)
    await table.slash("game end", moderator)
    assert await harness.bot.service.community.calls_of(table.game_id) == []
    await live_buttons_answer_something(harness, table)


async def test_a_call_posted_before_a_restart_closes_when_answered_after_it(catalog: Catalog, tmp_path) -> None:
    settings = harness_settings(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    model = DiscordModel()
    alice, bob = model.add_user("alice"), model.add_user("bob")
    async with Harness(MissionBot(settings, catalog), model) as harness:
        table = Table(harness, alice, bob)
        await table.start()
        state = await table.state()
        await table.press("attacker", table.user(state.sides_rolloff.winner))
        call = said(await table.choose(alice, None), "choose your Secondary Missions")
    async with Harness(MissionBot(settings, catalog), model) as harness:
        table.h = harness
        harness.bot.desk.coalesce_seconds = 0
        await harness.press(verbs(call.message)["choose"], user=bob, message_id=int(call.message["id"]))
        menu = next(m for m in reversed(harness.messages()) if "tactical" in verbs(m))
        await harness.press(verbs(menu)["tactical"], user=bob, message_id=int(menu["id"]))
        assert harness.message(call.message["id"])["components"] == []


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
