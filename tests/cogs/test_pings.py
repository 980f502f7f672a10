"""Pings: when play passes to a player the bot notifies exactly that player, once; nobody else; never when off."""

from __future__ import annotations

import re


from bot.engine.chapter_approved.state import Status
from tests.cogs.game_table import Table
from tests.cogs.harness import Harness
from tests.discord_model import Sent

MENTION = re.compile(r"<@!?(\d+)>")
CHANNEL_MESSAGE = 4  # the interaction callback that posts a new message (7 edits the pressed one)


def notified(sent: Sent) -> set[int]:
    """Who Discord notifies: the users mentioned in the content that its allowed mentions let through."""
    mentioned = {int(m) for m in MENTION.findall(sent.content)}
    allowed = sent.body.get("allowed_mentions") or sent.body.get("data", {}).get("allowed_mentions")
    assert allowed is not None, "discord.py always sends allowed mentions (the client's default)"
    if "users" in allowed.get("parse", []):
        return mentioned
    return mentioned & {int(u) for u in allowed.get("users", [])}


def pings(harness: Harness, start: int) -> list[tuple[set[int], str]]:
    """(notified users, content) of each new message the bot posted since `start` (edits never notify)."""
    new = [s for s in harness.model.sent[start:] if s.message is not None and (
        s.kind in ("message", "followup") or (s.kind == "response" and s.type == CHANNEL_MESSAGE))]
    return [(notified(s), s.content) for s in new if notified(s)]


async def test_each_step_of_a_game_notifies_the_player_it_passes_to(table: Table, harness: Harness, alice,
                                                                      bob) -> None:
    await table.challenge_only()
    start = len(harness.model.sent)
    await table.accept()
    winner = table.user((await table.state()).sides_rolloff.winner)
    # The accepting player is at the screen: only a roll-off winner who is not them is notified.
    assert pings(harness, start) == ([({alice.id}, f"<@{alice.id}>, you won the roll-off: choose Attacker or "
                                                    "Defender.")] if winner == alice else [])

    await table.press("attacker", winner)
    start = len(harness.model.sent)
    await table.choose(alice, ("cleanse", "assassination"))
    assert [who for who, _ in pings(harness, start)] == [{bob.id}]  # Bob still has to choose
    assert "cleanse" not in pings(harness, start)[0][1].lower()  # a ping shows nothing secret

    await table.choose(bob, None)
    state = await table.state()
    first = table.user(state.deploys_first)
    start = len(harness.model.sent)
    await table.press("deployed", first)
    assert [who for who, _ in pings(harness, start)] == [{table.other(first).id}]

    start = len(harness.model.sent)
    await table.press("deployed", table.other(first))
    state = await table.state()
    active = await table.active_user()
    expected = [] if active != first else [{active.id}]  # the player who pressed last is not pinged for their turn
    assert [who for who, _ in pings(harness, start) if "your turn" in _] == expected

    await table.answer_all()
    start = len(harness.model.sent)
    await table.press("endcmd", active)
    await table.press("endturn", active)
    await table.press("done", table.other(active))  # the player whose turn it is must finish too: pinged, once
    assert [who for who, _ in pings(harness, start)] == [{active.id}]
    start = len(harness.model.sent)
    await table.press("done", active)
    assert not (await table.state()).discard_queue  # the seed's first cards are kept: the turn passes at once
    # The turn passes: the next player is told once, by name, and nobody else is notified. (Had they pressed
    # the last Done scoring themselves, they would be at the screen already: no ping.)
    turn_pings = [(who, text) for who, text in pings(harness, start) if "your turn" in text]
    assert [who for who, _ in turn_pings] == [{table.other(active).id}]
    assert turn_pings[0][1].startswith(f"<@{table.other(active).id}>, your turn (battle round 1).")
    assert all(len(who) == 1 for who, _ in pings(harness, start))


async def test_pings_off_keeps_the_message_but_notifies_nobody(table: Table, harness: Harness, alice, bob,
                                                                carol) -> None:
    await table.start()
    refused = await table.slash("game pings", carol, strict=False, setting="off")
    assert refused.ephemeral and "Only the players" in refused.content
    reply = await table.slash("game pings", bob, setting="off")
    assert reply.ephemeral and "Pings off" in reply.content
    await table.press("attacker", table.user((await table.state()).sides_rolloff.winner))
    start = len(harness.model.sent)
    await table.choose(alice, ("cleanse", "assassination"))
    messages = [s for s in harness.model.sent[start:] if s.kind == "message" and f"<@{bob.id}>" in s.content]
    assert len(messages) == 1 and notified(messages[0]) == set()  # named with the button, not notified
    assert pings(harness, start) == []

    await table.slash("game pings", bob, setting="on")
    await table.choose(bob, None)
    first = table.user((await table.state()).deploys_first)
    start = len(harness.model.sent)
    await table.press("deployed", first)
    assert [who for who, _ in pings(harness, start)] == [{table.other(first).id}]
    assert (await table.state()).status == Status.DEPLOYMENT


async def test_a_request_to_abandon_notifies_the_opponent_only(table: Table, harness: Harness, alice, bob) -> None:
    await table.start()
    start = len(harness.model.sent)
    reply = await table.slash("game end", alice)
    assert f"<@{bob.id}>" in reply.content and f"<@{alice.id}>" in reply.content
    assert pings(harness, start) == [({bob.id}, reply.content)]
    assert reply.response.body["data"]["allowed_mentions"]["users"] == [bob.id]
