"""Where a game lives: a text channel, a thread, a forum post, a voice channel's text chat, a thread of its own."""

from __future__ import annotations

import pytest

from bot.engine.chapter_approved.state import Status
from bot.services.games import NoGame
from tests.cogs.game_table import Table, verbs
from tests.cogs.harness import Harness
from tests.discord_model import FORUM, PUBLIC_THREAD, TEXT, VOICE, FakeChannel, FakeUser


def place(harness: Harness, kind: str) -> FakeChannel:
    match kind:
        case "text channel":
            return harness.channel("tables", type=TEXT)
        case "voice channel":
            return harness.channel("Voice table", type=VOICE)
        case "thread":
            return harness.channel("game night", type=PUBLIC_THREAD, parent=harness.default_channel)
        case "forum post":
            forum = harness.channel("games-forum", type=FORUM)
            return harness.channel("Alice vs Bob", type=PUBLIC_THREAD, parent=forum)
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["text channel", "voice channel", "thread", "forum post"])
async def test_a_game_runs_the_same_in_every_kind_of_place(kind: str, harness: Harness, alice: FakeUser,
                                                           bob: FakeUser) -> None:
    where = place(harness, kind)
    table = Table(harness, alice, bob, channel=where)
    await table.start()
    assert (await harness.bot.service.get_state(channel_id=where.id)).id == table.game_id
    board = await table.board()
    assert int(board["channel_id"]) == where.id
    assert harness.pins(where) == [] and harness.messages(where)[-1]["id"] == board["id"]  # at the bottom there too
    await table.to_battle()
    await table.end_turn_plain()
    assert (await table.state()).turn == 2
    sheet = await table.slash("game sheet", alice)
    assert sheet.main.message["attachments"][0]["filename"] == f"score-sheet-{table.game_id}.png"
    await table.slash("game concede", bob)
    assert (await table.state()).status == Status.ENDED
    # Everything the bot said about the game is in its place; the default channel heard nothing.
    assert harness.messages() == []
    assert any(m["embeds"] and m["embeds"][0]["title"].startswith("Result") for m in harness.messages(where))


async def test_thread_true_opens_a_thread_for_the_game(harness: Harness, alice: FakeUser, bob: FakeUser) -> None:
    reply = await harness.slash("game new", user=alice, size="strike-force", opponent=bob, seed="table",
                                thread=True)
    threads = [c for c in harness.model.channels.values() if c.is_thread]
    assert len(threads) == 1
    thread = threads[0]
    assert thread.parent_id == harness.default_channel.id and thread.name == "Alice vs Bob (strike force)"
    assert harness.model.thread_members[thread.id] == {alice.id, bob.id}
    # Alice is told where the game is; the challenge is in the thread, pinging Bob alone.
    game_id = (await harness.bot.service.get_state(channel_id=thread.id)).id
    note = next(s for s in reply if thread.mention in s.content)
    assert note.ephemeral and note.content == f"Game {game_id} is in {thread.mention}."
    challenge = next(s for s in reply if s.kind == "message")
    assert int(challenge.message["channel_id"]) == thread.id and "accept" in verbs(challenge.message)
    assert challenge.body["allowed_mentions"]["users"] == [bob.id]

    table = Table(harness, alice, bob, channel=thread)
    table.challenge, table.game_id = reply, game_id
    await table.accept()
    await table.to_battle()
    assert int((await table.board())["channel_id"]) == thread.id
    # The parent channel can hold another game at the same time.
    other = await harness.slash("game new", user=alice, size="incursion", opponent=bob, thread=True)
    assert not other.errors and len([c for c in harness.model.channels.values() if c.is_thread]) == 2


async def test_a_refused_challenge_leaves_no_thread_behind(harness: Harness, alice: FakeUser) -> None:
    reply = await harness.slash("game new", user=alice, size="strike-force", opponent=alice, thread=True)
    assert reply.ephemeral and "yourself" in reply.content
    assert not [c for c in harness.model.channels.values() if c.is_thread]


@pytest.mark.parametrize("kind", ["voice channel", "thread"])
async def test_thread_true_is_refused_where_no_thread_can_open(kind: str, harness: Harness, alice: FakeUser,
                                                               bob: FakeUser) -> None:
    where = place(harness, kind)
    reply = await harness.slash("game new", user=alice, channel=where, size="strike-force", opponent=bob,
                                thread=True)
    assert reply.ephemeral and "thread" in reply.content
    assert len([c for c in harness.model.channels.values() if c.is_thread]) == (kind == "thread")
    with pytest.raises(NoGame):
        await harness.bot.service.get_state(channel_id=where.id)


async def test_a_board_in_an_archived_thread_is_unarchived_to_be_updated(harness: Harness, alice: FakeUser,
                                                                         bob: FakeUser) -> None:
    where = place(harness, "thread")
    table = Table(harness, alice, bob, channel=where)
    await table.start()
    harness.model.archived.add(where.id)  # the thread archived itself while nobody played
    harness.bot.desk.request_refresh(table.game_id)
    await table.settle()
    assert where.id not in harness.model.archived
    assert harness.model.sent[-1].kind == "edit" and int(harness.model.sent[-1].message["id"]) == int(
        (await table.board())["id"])
