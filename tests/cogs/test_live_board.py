"""The channel is a table, not a log: whole games played through Discord, the channel read after every move.

After every move of a running game its live board is the newest bot message of the channel (or directly under one
call of its own, the request to abandon). Every time the game starts waiting on a player, the board is posted anew
naming them, and it notifies exactly them. At the end the channel holds a handful of messages, and each player was
sent few private ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

from bot.client import MissionBot
from bot.engine.chapter_approved.state import Status
from bot.engine.table.state import Step
from bot.plumbing.budget import ChannelBudget
from bot.store.models import GameStatus
from bot.present.asks import Wait
from tests.cogs.conftest import harness_settings
from tests.cogs.game_table import Table, tactical_turn, verbs
from tests.cogs.harness import Harness
from tests.cogs.test_ca_2026_27 import a_turn
from tests.cogs.test_table_game import GT_PICKS, play_out, select_secondaries, to_battle
from tests.discord_model import EPHEMERAL, DiscordModel

MENTION = re.compile(r"<@(\d+)>")
MOST_PUBLIC, MOST_PRIVATE = 8, 14
WINDOW = 1.0  # seconds: far longer than a few presses in the harness take


class WatchedTable(Table):
    """A table whose channel is read after every move, as a player glancing at it would."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.checked = 0
        self.board_posts = 0
        self._seen: tuple[set[Wait], int | None, int] = (set(), None, 0)

    async def settle(self) -> None:
        await super().settle()
        if self.game_id is not None:
            await self.check()

    async def check(self) -> None:
        record = await self.h.bot.service.get_state(game_id=self.game_id)
        boards = await self.board_ids()
        waits = self.h.bot.desk.waits(record.state)
        before, board_before, sent_before = self._seen
        self._seen = (waits, boards[-1] if boards else None, len(self.h.model.sent))
        if not boards or record.status != GameStatus.ACTIVE:
            return
        assert len(boards) == 1, f"{len(boards)} live boards"
        public = [int(m["id"]) for m in self.h.messages(self.channel) if not m["flags"] & EPHEMERAL]
        below = public[public.index(boards[0]) + 1:]
        calls = {c.message_id for c in await self.h.bot.service.community.calls_of(self.game_id)}
        assert below == [] or (len(below) == 1 and below[0] in calls), "the board is not at the bottom"
        self.checked += 1
        called = {w.player for w in waits - before}
        if not called or board_before is None:
            return
        # Someone new is waited on: the board was posted anew, naming them, and notified exactly them.
        assert boards[0] != board_before, f"{called} were called without a new board"
        post = next(s for s in self.h.model.sent[sent_before:]
                    if s.kind == "message" and s.message and int(s.message["id"]) == boards[0])
        self.board_posts += 1
        named = set(MENTION.findall(post.content))
        notified = {str(u) for u in post.body["allowed_mentions"]["users"]}
        assert called <= named, f"the board calls {named}, not {called}"
        assert notified <= named <= set(record.setup.players)  # news (a reveal) names and notifies both

    def public_messages(self) -> list[dict[str, Any]]:
        return [m for m in self.h.messages(self.channel) if not m["flags"] & EPHEMERAL]

    def private_counts(self) -> dict[int, int]:
        counts = {self.first.id: 0, self.second.id: 0}
        for owner in self.h.model.ephemeral_owner.values():
            counts[owner] = counts.get(owner, 0) + 1
        return counts


@contextlib.asynccontextmanager
async def watched_table(catalog, tmp_path) -> AsyncIterator[WatchedTable]:
    """Alice and Bob at a watched table, on a bot of their own."""
    model = DiscordModel()
    alice, bob = model.add_user("alice"), model.add_user("bob")
    settings = harness_settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'table.db'}")
    async with Harness(MissionBot(settings, catalog), model) as h:
        yield WatchedTable(h, alice, bob)


async def test_a_whole_mission_deck_game_keeps_the_board_at_the_bottom(catalog, tmp_path) -> None:
    async with watched_table(catalog, tmp_path) as table:
        h = table.h
        await table.start()
        await table.to_battle(first_fixed=None, second_fixed=None)
        await table.slash("score add", await table.active_user(), source="primary", vp=5)
        await table.press("undo", await table.active_user())
        while (state := await table.state()).status == Status.BATTLE:
            if state.discard_queue:  # the opponent's end-of-turn discards
                await table.press_discard_keep(table.user(state.discard_queue[0]))
            else:
                await tactical_turn(table, table.user(state.active), discard=state.round % 2 == 0)
        assert state.round == 5 and state.status == Status.ENDED

        # Three messages tell the whole game: the challenge with its briefing, the board, the result card.
        public = table.public_messages()
        assert len(public) <= MOST_PUBLIC, [m["content"][:60] for m in public]
        assert "✅ Bob accepted." in public[0]["content"] and "Accept?" not in public[0]["content"]
        assert not any(m["content"].startswith("✓") for m in public)
        assert public[-1]["embeds"][0]["title"].startswith("Result")
        assert all(count <= MOST_PRIVATE for count in table.private_counts().values()), table.private_counts()
        assert table.checked > 60 and table.board_posts >= 20  # every move was looked at; calls moved the board
        assert h.pins() == []  # a board that moves is never pinned: no "pinned a message" trail


async def test_a_whole_grand_tournament_game_keeps_the_board_at_the_bottom(catalog, tmp_path) -> None:
    async with watched_table(catalog, tmp_path) as table:
        alice, bob = table.first, table.second
        await table.start(pack="gt-2020", size="incursion", seed="gt-table")
        await select_secondaries(table, alice, GT_PICKS)
        await select_secondaries(table, bob, ["linebreaker", "thin-their-ranks", "codex"], codex="Oath of Moment")
        await to_battle(table)
        await play_out(table)
        state = await table.state()
        assert state.status == Step.END_GAME or state.status.value == "ended"
        while "done" in await table.board_verbs():
            pending = [p for p in state.setup.players if p not in state.scoring_done]
            await table.press("done", table.user(pending[0]))
            state = await table.state()

        public = table.public_messages()
        assert len(public) <= MOST_PUBLIC, [m["content"][:60] for m in public]
        assert all(count <= MOST_PRIVATE for count in table.private_counts().values()), table.private_counts()
        assert table.checked > 20 and table.board_posts >= 10
        assert set(verbs(public[-1])) == {"rematch"}  # the result card


async def test_a_lone_press_edits_the_board_at_once(catalog, tmp_path) -> None:
    async with watched_table(catalog, tmp_path) as table:
        await table.start()
        desk = table.h.bot.desk
        board = await table.board()
        await table.h.press(verbs(board)["ready"], user=table.first)  # only the board changes
        await asyncio.wait_for(desk.idle(), timeout=5)
        edited = table.h.message(board["id"])
        assert edited["edited_timestamp"] is not None and "move 1" in edited["embeds"][0]["footer"]["text"]


def edits_of(h, board_id: int, first: int) -> list[dict]:
    return [s.message for s in h.model.sent[first:] if s.kind == "edit" and int(s.message["id"]) == board_id]


async def test_edits_through_the_channel_go_at_once_while_its_allowance_has_room(catalog, tmp_path) -> None:
    """Edits nobody pressed the board for (a command, a clock) spend the channel's allowance as Discord counts it:
    each goes at once while it has room; past it the refreshes wait for room and ride on one edit showing the
    newest state, and no window ever holds more edits of the channel than it allows."""
    async with watched_table(catalog, tmp_path) as table:
        await table.start()
        h, boards = table.h, table.h.bot.desk.board.boards
        await table.to_battle(first_fixed=None, second_fixed=None)
        await table.answer_all()
        await h.slash("game status", user=table.first)  # a board nobody has pressed yet: edits use the channel
        await boards.idle()
        boards.budget = ChannelBudget(limit=2, per=WINDOW)
        (board_id,) = await table.board_ids()
        first = len(h.model.sent)
        for command, options in (("cp spend", {"amount": 1}), ("game undo", {})):  # the allowance's room
            await h.slash(command, user=table.first, **options)
            await asyncio.wait_for(boards.idle(), timeout=WINDOW / 2)  # at once
        for command, options in (("cp spend", {"amount": 1}), ("game undo", {}), ("cp spend", {"amount": 1})):
            await h.slash(command, user=table.first, **options)  # past it: they wait, and ride on one edit
        assert len(boards._scheduled) == 1
        await boards.idle()
        edits = edits_of(h, board_id, first)
        footers = [edit["embeds"][0]["footer"]["text"] for edit in edits]
        version = await table.version()
        assert len(edits) == 3 and footers[-1] == f"Game 1 · move {version}"
        times = [datetime.fromisoformat(edit["edited_timestamp"]) for edit in edits]
        assert (times[2] - times[0]).total_seconds() >= WINDOW * 0.9


async def test_a_burst_of_presses_shows_each_move_without_a_window(catalog, tmp_path) -> None:
    """Presses on the board edit it with their own token, which the channel does not count: a press made while
    the edit before it is in flight rides on one more edit made as soon as it is done, however many edits the
    channel's allowance would let through."""
    async with watched_table(catalog, tmp_path) as table:
        await table.start()
        h, boards = table.h, table.h.bot.desk.board.boards
        boards.budget = ChannelBudget(limit=1, per=30)  # the channel's room spent for the whole test
        boards.budget.reserve(h.default_channel.id)
        (board_id,) = await table.board_ids()
        first = len(h.model.sent)
        await h.press(verbs(h.message(board_id))["ready"], user=table.first)
        await asyncio.wait_for(boards.idle(), timeout=5)
        await h.press(verbs(h.message(board_id))["ready"], user=table.second)
        await asyncio.wait_for(boards.idle(), timeout=5)
        footers = [edit["embeds"][0]["footer"]["text"] for edit in edits_of(h, board_id, first)]
        assert footers == ["Game 1 · move 1", "Game 1 · move 2"]


async def test_a_move_replaces_the_edit_still_waiting_and_later_edits_still_come(catalog, tmp_path) -> None:
    async with watched_table(catalog, tmp_path) as table:
        await table.start()
        h, boards = table.h, table.h.bot.desk.board.boards
        await table.to_battle(first_fixed=None, second_fixed=None)
        await table.answer_all()
        await h.slash("game status", user=table.first)
        await boards.idle()
        boards.budget = ChannelBudget(limit=1, per=30)  # an edit through the channel that would wait long
        boards.budget.reserve(h.default_channel.id)
        await h.slash("cp spend", user=table.first, amount=1)
        assert len(boards._scheduled) == 1
        await h.slash("game status", user=table.first)  # the board moves, drawn from the newest state
        await asyncio.wait_for(boards.idle(), timeout=5)
        board = await table.board()
        footer = board["embeds"][0]["footer"]["text"]
        assert board["edited_timestamp"] is None and footer == f"Game 1 · move {await table.version()}"
        boards.budget = ChannelBudget()
        await h.slash("game undo", user=table.first)  # a later edit is made
        await asyncio.wait_for(boards.idle(), timeout=5)
        assert h.message(board["id"])["edited_timestamp"] is not None


async def test_presses_on_the_board_change_it_through_their_own_token(catalog, tmp_path) -> None:
    """Requests made with an interaction's token are outside Discord's global limit: a press on the board edits
    it, or deletes it when it moves, that way; only the new board's post goes through the channel."""
    async with watched_table(catalog, tmp_path) as table:
        await table.start()
        await table.to_battle(first_fixed=None, second_fixed=None)
        await table.answer_all()
        first = len(table.h.calls)
        active = await table.active_user()
        for verb in ("endcmd", "endturn"):
            await table.press(verb, active)
        await table.done_scoring(active)  # each Done calls someone new: the board moves
        routes = [(c.method, c.route.split("/")[1]) for c in table.h.calls[first:]]
        assert ("PATCH", "webhooks") in routes and ("DELETE", "webhooks") in routes
        assert ("PATCH", "channels") not in routes and ("DELETE", "channels") not in routes
        assert ("POST", "channels") in routes  # the new board, at the bottom


async def test_a_board_and_a_call_an_earlier_version_posted_go_at_the_next_move(catalog, tmp_path) -> None:
    """An earlier version pinned its board and posted calls of their own: the game goes on from that board, which
    is deleted when the board next moves (its pin with it); the call goes once answered."""
    async with watched_table(catalog, tmp_path) as table:
        h = table.h
        await table.start()
        (old_board,) = await table.board_ids()
        h.model.pin(h.default_channel.id, old_board)  # as the earlier version left it
        winner = table.user((await table.state()).sides_rolloff.winner)
        call = h.model.create_message(h.default_channel.id, {"content": f"<@{winner.id}>, you won the roll-off"}, [])
        await h.bot.service.community.add_call(int(call["id"]), table.game_id, h.default_channel.id, str(winner.id),
                                               json.dumps([[str(winner.id), "sides"]]))
        await table.press("attacker", winner)  # pressed on the old board: it still works
        assert int(call["id"]) not in h.model.messages  # answered: the old call is gone
        await table.choose(table.first, None)  # Bob is called: the board moves
        assert old_board not in h.model.messages and h.pins() == []
        assert await h.bot.service.community.calls_of(table.game_id) == []


async def test_a_whole_2026_27_game_keeps_the_board_at_the_bottom(catalog, tmp_path) -> None:
    async with watched_table(catalog, tmp_path) as table:
        await table.start(pack="ca-2026-27", seed="live-2026", size=None)
        for user, disposition in ((table.first, "reconnaissance"), (table.second, "disruption")):
            menu = await table.press("disposition", user)
            await table.pick(menu, "disposition", [disposition], user)
        await table.to_battle(first_fixed=None, second_fixed=None)
        while (await table.state()).status == Status.BATTLE:
            await a_turn(table)
        public = table.public_messages()
        assert len(public) <= MOST_PUBLIC and public[-1]["embeds"][0]["title"].startswith("Result")
        assert all(count <= MOST_PRIVATE for count in table.private_counts().values()), table.private_counts()
        assert table.checked > 60
