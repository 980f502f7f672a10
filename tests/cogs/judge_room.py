"""An event round whose tables can call judges: a judges' channel, a judge role and a judge on duty, and short ways
to find the calls' messages and press their buttons (shared by the judge tests in tests/cogs and tests/web)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.store.judge_models import JudgeCall
from tests.cogs.game_table import Table
from tests.cogs.harness import Harness, Reply
from tests.cogs.test_tournament_commands import current
from tests.discord_model import FakeChannel, FakeRole, FakeUser, walk_components

MENTION = re.compile(r"<@!?(\d+)>")
ROLE_MENTION = re.compile(r"<@&(\d+)>")


@dataclass
class Room:
    harness: Harness
    organiser: FakeUser
    judge: FakeUser
    role: FakeRole
    channel: FakeChannel  # the judges'
    tables: list[Table]

    @property
    def bot(self) -> Any:
        return self.harness.bot

    async def event_id(self) -> int:
        return (await current(self.harness)).id

    async def calls(self) -> list[JudgeCall]:
        return await self.bot.judges.service.calls(await self.event_id())

    def call_messages(self) -> list[dict[str, Any]]:
        """The calls' messages in the judges' channel, oldest first."""
        return [m for m in self.harness.messages(self.channel) if "calls a judge" in (m.get("content") or "")]

    def call_message(self, table: int) -> dict[str, Any]:
        return next(m for m in reversed(self.call_messages()) if f"**Table {table}** calls" in m["content"])

    def list_messages(self) -> list[dict[str, Any]]:
        """The message listing the open calls (one, edited in place)."""
        return [m for m in self.harness.messages(self.channel)
                if any((e.get("title") or "").startswith("Judge calls") for e in m.get("embeds") or [])]

    async def call(self, table: Table, user: FakeUser, *, strict: bool = True) -> Reply:
        """`user` presses the board's Call a judge."""
        board = await table.board()
        reply = await self.harness.press(call_button(board), user=user, message_id=int(board["id"]), strict=strict)
        await table.settle()
        return reply

    async def press(self, table: int, action: str, user: FakeUser, *, strict: bool = True) -> Reply:
        """`user` presses a button (claim, resolve, time) of table `table`'s call message."""
        message = self.call_message(table)
        return await self.harness.press(button(message, action), user=user, message_id=int(message["id"]),
                                        strict=strict)

    async def resolve(self, table: int, user: FakeUser, ruling: str = "", *, strict: bool = True) -> Reply:
        """Resolved, and the ruling form submitted."""
        form = await self.press(table, "resolve", user)
        assert form.modal is not None, [s.content for s in form]
        return await self.harness.submit(form.modal["custom_id"], {"ruling": ruling}, user=user, strict=strict)

    def thread_lines(self, table: Table) -> list[Any]:
        """What the bot posted in a table's thread about its judge calls (the Sent, in order)."""
        return [s for s in self.harness.model.sent if s.kind in ("message", "response") and s.message is not None
                and int(s.message["channel_id"]) == table.channel.id
                and any(mark in s.content for mark in ("🛎️", "🧑‍⚖️", "✅ Judge", "⏱️"))]


def private(reply: Reply) -> str:
    """What the user alone was told (the last private message of the reply)."""
    [*_, last] = [s for s in reply if s.message is not None and s.ephemeral]
    return last.content


def call_button(board: dict[str, Any]) -> str:
    [found] = [c["custom_id"] for c in walk_components(board.get("components") or [])
               if c.get("custom_id", "").startswith("mdjc:")]
    return found


def has_call_button(board: dict[str, Any]) -> bool:
    return any(c.get("custom_id", "").startswith("mdjc:") for c in walk_components(board.get("components") or []))


def button(message: dict[str, Any], action: str) -> str:
    [found] = [c["custom_id"] for c in walk_components(message.get("components") or [])
               if c.get("custom_id", "").startswith("mdj:") and c["custom_id"].endswith(f":{action}")]
    return found


def buttons(message: dict[str, Any]) -> list[str]:
    return [c["custom_id"].rsplit(":", 1)[1] for c in walk_components(message.get("components") or [])
            if c.get("custom_id", "").startswith("mdj:")]


def notified(sent: Any) -> set[int]:
    """Who Discord notifies: the users mentioned in the content that its allowed mentions let through."""
    mentioned = {int(m) for m in MENTION.findall(sent.content)}
    allowed = sent.body.get("allowed_mentions") or sent.body.get("data", {}).get("allowed_mentions") or {}
    if "users" in allowed.get("parse", []):
        return mentioned
    return mentioned & {int(u) for u in allowed.get("users", [])}


def notified_roles(sent: Any) -> set[int]:
    """The roles Discord notifies: those mentioned in the content that its allowed mentions let through."""
    mentioned = {int(m) for m in ROLE_MENTION.findall(sent.content)}
    allowed = sent.body.get("allowed_mentions") or sent.body.get("data", {}).get("allowed_mentions") or {}
    if "roles" in allowed.get("parse", []):
        return mentioned
    return mentioned & {int(r) for r in allowed.get("roles", [])}


async def open_room(harness: Harness, organiser: FakeUser, tables: list[Table]) -> Room:
    """The organiser names a judges' channel and a judge role; the judge goes on duty."""
    role = harness.role("Judges")
    judge = harness.user("judge", roles=(role.id,))
    channel = harness.channel("judges")
    reply = await harness.slash("judge setup", user=organiser, options={"channel": channel}, role=role)
    assert f"<#{channel.id}>" in private(reply)
    assert "on duty" in private(await harness.slash("judge duty on", user=judge))
    return Room(harness, organiser, judge, role, channel, tables)
