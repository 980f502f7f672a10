"""A whole game over the network: the real bot, started by its entry point, against the fake Discord.

The bot logs in on the fake gateway, syncs its commands over REST and gets every press as an
INTERACTION_CREATE frame; two users play a complete Strike Force game, a third is refused, a double
click applies once, and the bot is restarted mid-game and carries on from the board it posted before.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
from collections.abc import AsyncIterator
from typing import Any


from bot.__main__ import run
from bot.client import MissionBot
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.state import Phase, Status
from bot.plumbing.settings import Settings
from tests.cogs.game_table import (
    Table, battle_steps, find_seed, fixed_turn, public_text, score_first_card_option, tactical_turn, verbs,
)
from tests.cogs.harness import Harness, Reply
from tests.discord_model import FakeChannel, FakeUser
from tests.e2e.fake_discord import FakeDiscord

BOB_FIXED = ("cleanse", "no-prisoners")


class Gateway:
    """The harness's way of playing (press, select, slash), over the fake Discord's gateway instead."""

    def __init__(self, fake: FakeDiscord, bot: MissionBot) -> None:
        self.fake, self.bot, self.model = fake, bot, fake.model

    async def feed(self, payload: dict[str, Any]) -> Reply:
        first = len(self.model.sent)
        await self.fake.interact(payload)
        await self._settle()
        return Reply(self.model.sent[first:], [])

    async def press(self, custom_id: str, *, user: FakeUser, message_id: int | None = None, **_: Any) -> Reply:
        return await self.feed(self.model.component(custom_id, user, message_id, None))

    async def select(self, custom_id: str, values: list[str], *, user: FakeUser, message_id: int | None = None,
                     **_: Any) -> Reply:
        return await self.feed(self.model.component(custom_id, user, message_id, values))

    async def slash(self, command: str, *, user: FakeUser, channel: FakeChannel | None = None, strict: bool = True,
                    **options: Any) -> Reply:
        return await self.feed(self.model.slash(command, user, channel, options))

    def message(self, message_id: int | str) -> dict[str, Any]:
        return copy.deepcopy(self.model.messages[int(message_id)])

    def messages(self) -> list[dict[str, Any]]:
        return self.model.channel_messages(self.model.default_channel.id)

    async def _settle(self) -> None:
        """Wait until the bot has finished with the interaction (follow-ups, board edits)."""
        while True:
            pending = [t for t in asyncio.all_tasks()
                       if t.get_name().startswith(Harness.TASK_PREFIXES) and not t.done()]
            if not pending:
                break
            await asyncio.wait(pending, timeout=10)
        await self.bot.desk.idle()


@contextlib.asynccontextmanager
async def running(fake: FakeDiscord, settings: Settings, catalog: Catalog, bots: list[MissionBot]
                  ) -> AsyncIterator[Gateway]:
    """`python -m bot`'s run() as a task, until the block ends (then cancelled, as Ctrl-C would)."""
    fake.ready.clear()
    task = asyncio.create_task(run(settings, catalog), name="bot-under-test")
    try:
        ready = asyncio.create_task(fake.ready.wait())
        done, _ = await asyncio.wait({task, ready}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            task.result()
        assert ready in done, "the bot did not identify on the fake gateway in time"
        yield Gateway(fake, bots[-1])
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 15)


async def test_a_whole_game_over_the_fake_discord(fake_discord: FakeDiscord, catalog: Catalog,
                                                  bot_settings: Settings, bots: list[MissionBot],
                                                  logged_errors: list[logging.LogRecord]) -> None:
    model = fake_discord.model
    alice, bob, carol = model.add_user("alice"), model.add_user("bob"), model.add_user("carol")
    a_id, b_id = str(alice.id), str(bob.id)
    seed = find_seed(catalog, (a_id, b_id), lambda s: s.active == a_id and s.shuffles > 0 and not s.prompts,
                     steps=battle_steps(a_id, b_id, None, BOB_FIXED), prefix="e2e")
    async with running(fake_discord, bot_settings, catalog, bots) as gateway:
        assert {"game", "secondary", "score", "cp", "challenger"} <= set(model.command_names())
        table = Table(gateway, alice, bob)  # type: ignore[arg-type]
        await table.start(seed=seed)
        assert [a["filename"] for a in table.challenge.main.message["attachments"]] == ["deployment.png"]

        # A third user is refused, privately, and nothing changes.
        board = await table.board()
        reply = await gateway.press(verbs(board)["attacker"], user=carol, message_id=int(board["id"]))
        assert reply.ephemeral and "Only the two players" in reply.content
        assert await table.version() == 0

        await table.to_battle(first_fixed=None, second_fixed=BOB_FIXED)
        assert "first battle round is replaced" in public_text(await table.board())

        # A double click on End Command phase applies once; the second press is told.
        board = await table.board()
        endcmd = verbs(board)["endcmd"]
        version = await table.version()
        first, second = await asyncio.gather(
            gateway.press(endcmd, user=alice, message_id=int(board["id"])),
            gateway.press(endcmd, user=alice, message_id=int(board["id"])),
        )
        assert await table.version() == version + 1 and (await table.state()).phase == Phase.BATTLE
        told = {s.message["id"] for s in [*first, *second]
                if s.message and s.ephemeral and "out of date" in s.content}
        assert len(told) == 1
        await table.press("endturn", alice)
        await score_first_card_option(table, alice)
        await table.done_scoring(alice)
        if (await table.state()).discard_queue:
            await table.press_discard_keep(alice)
        await fixed_turn(table, bob, primary=15)
        await tactical_turn(table, alice, new_orders=True)
        await fixed_turn(table, bob)
        assert (await table.state()).round == 3
        board_id = (await table.board_ids())[-1]

    # Restarted: the same database, the same Discord; the old board's buttons carry on.
    async with running(fake_discord, bot_settings, catalog, bots) as gateway:
        assert len(bots) == 2
        table = Table(gateway, alice, bob)  # type: ignore[arg-type]
        table.game_id = 1
        await table.answer_all()
        reply = await gateway.press(verbs(gateway.message(board_id))["endcmd"], user=alice, message_id=board_id)
        assert reply.response is not None and (await table.state()).phase == Phase.BATTLE
        await table.press("endturn", alice)
        await table.done_scoring(alice)
        if (await table.state()).discard_queue:
            await table.press_discard_keep(alice)
        await fixed_turn(table, bob)
        for _ in (4, 5):
            await tactical_turn(table, alice)
            await fixed_turn(table, bob, primary=3)
        state = await table.state()
        assert state.status == Status.ENDED and state.result.winner == b_id
        result = next(m for m in gateway.messages() if m["embeds"] and m["embeds"][0]["title"].startswith("Result"))
        assert "**Bob** wins." in public_text(result) and seed in public_text(result)
    assert [r.getMessage() for r in logged_errors] == []
    assert fake_discord.unhandled == []


async def test_a_game_in_its_own_thread_over_the_fake_discord(fake_discord: FakeDiscord, catalog: Catalog,
                                                              bot_settings: Settings, bots: list[MissionBot],
                                                              logged_errors: list[logging.LogRecord]) -> None:
    """/game new thread:true over real REST calls: the thread is created, both players added, the game played in it."""
    model = fake_discord.model
    alice, bob = model.add_user("alice"), model.add_user("bob")
    async with running(fake_discord, bot_settings, catalog, bots) as gateway:
        reply = await gateway.slash("game new", user=alice, size="strike-force", opponent=bob, seed="table",
                                    thread=True)
        thread = next(c for c in model.channels.values() if c.is_thread)
        assert model.thread_members[thread.id] == {alice.id, bob.id}
        table = Table(gateway, alice, bob, channel=thread)  # type: ignore[arg-type]
        table.challenge = reply
        table.game_id = (await gateway.bot.service.get_state(channel_id=thread.id)).id
        await table.accept()
        await table.to_battle()
        board = await table.board()
        assert int(board["channel_id"]) == thread.id and not board["pinned"]
        await table.end_turn_plain()
        assert (await table.state()).turn == 2
        assert [m for m in gateway.messages() if not m["flags"] & 64] == []  # only Alice saw a note there
    assert [r.getMessage() for r in logged_errors] == []
    assert fake_discord.unhandled == []
