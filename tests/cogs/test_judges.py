"""Judges at an event's tables through Discord: a table calls (the board's Call a judge, /judge call), the judges'
channel gets the call and the list of open calls, a judge claims and resolves it, an organiser gives the table time;
a call nobody claims is raised again once, across a restart too; and every bad input is a private line that changes
nothing."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta

import pytest
from sqlalchemy import update

from bot.client import MissionBot
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.state import Status
from bot.engine.errors import GameError
from bot.services.judges import DEFAULT_RERAISE_MINUTES, tables_of
from bot.store.db import make_engine
from bot.store.judge_models import JudgeCall
from bot.store.models import utcnow
from tests.cogs.conftest import harness_settings
from tests.cogs.game_table import Table
from tests.cogs.harness import Harness, Reply
from tests.cogs.judge_room import Room, buttons, has_call_button, notified, notified_roles, open_room, private
from tests.cogs.test_table_games import event, thread_tables  # noqa: F401
from tests.cogs.test_tournament_commands import (
    MANAGE_SERVER, current, enter_round, open_event, publish,
)
from tests.discord_model import DiscordModel, FakeUser

__all__ = ["event"]  # a fixture shared with the table games tests


@pytest.fixture
async def room(harness: Harness, organiser: FakeUser, event: list[Table]) -> Room:
    return await open_room(harness, organiser, event)


def refused(reply: Reply, text: str) -> None:
    """A private one-liner saying `text`."""
    shown = [s for s in reply if s.message is not None]
    assert shown and all(s.ephemeral for s in shown), [(s.kind, s.content) for s in shown]
    assert text in shown[-1].content and "\n" not in shown[-1].content, shown[-1].content


async def test_a_call_reaches_the_judges_and_a_judge_is_told_apart_from_the_players(room: Room) -> None:
    table = room.tables[0]
    state = await table.state()
    a, b = state.setup.players
    assert has_call_button(await table.board())
    called = await room.call(table, table.first)
    assert not called.main.ephemeral and "called a judge to table 1" in called.main.content
    assert notified(called.main) == set()  # the thread hears it; nobody is pinged
    [message] = room.call_messages()
    text = message["content"]
    assert "**Table 1** calls a judge: round 1 of **Club GT**" in text
    assert f"<@{a}> vs <@{b}>" in text and f"<#{table.channel.id}>" in text
    assert "no round clock" in text and buttons(message) == ["claim", "resolve", "time"]
    [sent] = [s for s in room.harness.model.sent if s.kind == "message" and s.message["id"] == message["id"]]
    assert notified(sent) == {room.judge.id}  # the judge on duty, and not the players named
    [listing] = room.list_messages()
    assert "**Table 1** (round 1)" in listing["embeds"][0]["description"]
    assert room.harness.messages(room.channel)[-1]["id"] == listing["id"]  # moved under the call

    # The opponent's /judge call while one waits: a private line, nothing stored.
    again = await table.slash("judge call", table.second, note="me too")
    refused(again, "already waiting")
    assert len(await room.calls()) == 1


async def test_judge_call_in_the_thread_takes_a_note_and_shows_the_round_clock(room: Room) -> None:
    await room.harness.slash("tournament round start", user=room.organiser, minutes=120)
    table = room.tables[1]
    await table.slash("judge call", table.second, note="@everyone line of *sight*")
    [call] = await room.calls()
    assert (call.table_number, call.caller, call.note) == (2, str(table.second.id), "@everyone line of *sight*")
    text = room.call_message(2)["content"]
    assert "**Note:** @\u200beveryone line of \\*sight\\*" in text  # as typed, pinging nobody
    assert re.search(r"\*\*Round time:\*\* 1(19|20) min left, ends <t:\d+:t>", text)
    assert "line of" not in "".join(s.content for s in room.thread_lines(table))  # the note is the judges'


async def test_claim_tells_the_thread_and_resolved_keeps_the_ruling(room: Room) -> None:
    table = room.tables[0]
    a, b = (await table.state()).setup.players
    await room.call(table, table.first)
    claimed = await room.press(1, "claim", room.judge)
    assert claimed.response.type == 7  # the call's message is updated, not answered
    text = room.call_message(1)["content"]
    assert f"**Claimed** by <@{room.judge.id}>" in text and buttons(room.call_message(1)) == ["resolve", "time"]
    coming = room.thread_lines(table)[-1]
    assert f"judge <@{room.judge.id}> is on the way to table 1" in coming.content
    assert notified(coming) == {int(a), int(b)}
    allowed = coming.body["allowed_mentions"]
    assert sorted(map(str, allowed["users"])) == sorted([a, b]) and allowed["parse"] == []
    assert "nobody yet" not in room.list_messages()[0]["embeds"][0]["description"]

    await room.resolve(1, room.judge, "Cover applies: the unit is more than half obscured.")
    [call] = await room.calls()
    assert call.resolved_by == str(room.judge.id) and call.ruling.startswith("Cover applies")
    message = room.call_message(1)
    assert "**Resolved** by" in message["content"] and "Cover applies" in message["content"]
    assert buttons(message) == ["time"]
    assert "Ruling: Cover applies" in room.thread_lines(table)[-1].content
    assert "No call is waiting." in room.list_messages()[0]["embeds"][0]["description"]
    # The table may call again once its call is closed.
    await room.call(table, table.second)
    assert len(await room.calls()) == 2


async def test_an_organiser_gives_the_table_five_minutes(room: Room) -> None:
    await room.harness.slash("tournament round start", user=room.organiser, minutes=60)
    table = room.tables[0]
    a, b = (await table.state()).setup.players
    await room.call(table, table.first)
    refused(await room.press(1, "time", room.judge, strict=False), "Only an organiser")
    given = await room.press(1, "time", room.organiser)
    assert given.response.type == 7
    told = room.thread_lines(table)[-1]
    assert "gave table 1 5 more minutes (5 in all this round)" in told.content and "Your round now ends" in told.content
    assert notified(told) == {int(a), int(b)}
    assert "with 5 extra minutes for this table" in room.call_message(1)["content"]
    event_id = await room.event_id()
    assert await room.bot.judges.service.extension(event_id, 1, 1) == 5


async def test_a_call_from_outside_a_table_or_by_a_stranger_is_refused(room: Room, harness: Harness) -> None:
    table = room.tables[0]
    refused(await harness.slash("judge call", user=table.first, note="here?"), "not a table of the event's round")
    stranger = harness.user("stranger")
    refused(await room.call(table, stranger, strict=False), "Only the players at table 1")
    refused(await room.call(table, room.organiser, strict=False), "Only the players at table 1")
    other = room.tables[1]
    refused(await other.slash("judge call", table.first, strict=False), "Only the players at table 2")
    assert await room.calls() == [] and room.call_messages() == []


async def test_claims_and_resolutions_out_of_turn_are_refused(room: Room, harness: Harness) -> None:
    table = room.tables[0]
    await room.call(table, table.first)
    [before] = await room.calls()
    refused(await room.press(1, "claim", table.first, strict=False), "Only a judge")
    refused(await room.press(1, "resolve", room.judge, strict=False), "Claim this call first")
    assert await room.calls() == [before]

    # Two judges press Claim at the same moment: the second is told who has it.
    second = harness.user("second judge", roles=(room.role.id,))
    message = room.call_message(1)
    presses = [harness.model.component(f"mdj:{before.id}:claim", who, int(message["id"]), None)
               for who in (room.judge, second)]
    await harness.feed(presses[0])
    late = await harness.feed(presses[1], strict=False)
    refused(late, "Judge has claimed this call already")
    [claimed] = await room.calls()
    assert claimed.claimed_by == str(room.judge.id)

    # Both open the ruling form; the second submission finds the call closed.
    forms = [await room.press(1, "resolve", who) for who in (room.judge, second)]
    await harness.submit(forms[0].modal["custom_id"], {"ruling": ""}, user=room.judge)
    late = await harness.submit(forms[1].modal["custom_id"], {"ruling": "Another ruling"}, user=second, strict=False)
    refused(late, "closed already")
    [closed] = await room.calls()
    assert closed.resolved_by == str(room.judge.id) and closed.ruling is None


async def test_only_judges_go_on_duty_and_set_up_is_for_organisers(room: Room, harness: Harness) -> None:
    player = room.tables[0].first
    refused(await harness.slash("judge duty on", user=player), "Only a judge")
    refused(await harness.slash("judge setup", user=room.judge, options={"channel": room.channel}),
            "Only an organiser")
    refused(await harness.slash("judge calls", user=player), "Only a judge")
    assert [d.judge_id for d in await room.bot.judges.service.on_duty(await room.event_id())] == [str(room.judge.id)]
    assert "off duty" in private(await harness.slash("judge duty off", user=room.judge))
    assert "nobody" in room.list_messages()[0]["embeds"][0]["description"]
    # With nobody on duty a call notifies the judge role and nobody else, says so, and how to go on duty.
    await room.call(room.tables[0], room.tables[0].first)
    [sent] = [s for s in harness.model.sent if s.kind == "message" and "calls a judge" in s.content]
    assert notified(sent) == set() and notified_roles(sent) == {room.role.id}
    assert f"nobody, so calls go to <@&{room.role.id}>" in sent.content and "`/judge duty on`" in sent.content


async def test_a_call_nobody_claims_is_raised_again_once(room: Room, harness: Harness) -> None:
    table = room.tables[0]
    await room.call(table, table.first)
    [call] = await room.calls()
    moment = room.bot.desk.alarms.moment(("judge", call.id))
    assert moment == pytest.approx((call.raised_at + timedelta(minutes=DEFAULT_RERAISE_MINUTES)).timestamp())
    first = room.call_message(1)
    assert await room.bot.judges.reraise(call.id)
    assert not await room.bot.judges.reraise(call.id)  # once
    [again] = room.call_messages()  # the call moved to the bottom: the first message is gone
    assert again["id"] != first["id"] and "**Raised again**" in again["content"]
    [sent] = [s for s in harness.model.sent if s.kind == "message" and "**Raised again**" in s.content]
    assert notified(sent) == {room.judge.id}
    assert harness.messages(room.channel)[-1]["id"] == room.list_messages()[0]["id"]
    await room.press(1, "claim", room.judge)  # the moved call's buttons work
    assert (await room.calls())[0].claimed_by == str(room.judge.id)


async def test_a_claimed_call_is_not_raised_again(room: Room) -> None:
    table = room.tables[0]
    await room.call(table, table.first)
    [call] = await room.calls()
    await room.press(1, "claim", room.judge)
    assert room.bot.desk.alarms.moment(("judge", call.id)) is None
    assert not await room.bot.judges.reraise(call.id)
    assert all("Raised again" not in m["content"] for m in room.call_messages())


async def test_the_button_is_on_event_tables_only_and_leaves_with_the_round(
    harness: Harness, organiser: FakeUser, players: list[FakeUser], event: list[Table],
) -> None:
    elsewhere = Table(harness, players[4], players[5])
    await elsewhere.start()
    assert not has_call_button(await elsewhere.board())
    table = event[0]
    await table.to_battle()
    assert has_call_button(await table.board())
    await table.slash("game concede", table.first)
    assert (await table.state()).status == Status.ENDED
    assert not has_call_button(await table.board())  # a game over calls nobody
    # The next round's publication: the boards of the round before offer no call any more.
    await enter_round(harness, organiser, {1: ("a_wins", 60, 40), 2: ("draw", 50, 50)})
    await publish(harness, organiser)
    other = event[1]
    await other.slash("game status", other.first)
    assert not has_call_button(await other.board())
    assert all(t.round_number == 2 for t in harness.bot.judges.tables.values())


async def test_a_call_waiting_over_a_restart_is_raised_again_once(catalog: Catalog, tmp_path) -> None:
    settings = harness_settings(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    model = DiscordModel()
    organiser = model.add_user("organiser", permissions=MANAGE_SERVER)
    people = [model.add_user(f"player{i}") for i in range(4)]
    async with Harness(MissionBot(settings, catalog), model) as harness:
        await open_event(harness, organiser, people, **{"announce-channel": harness.channel("pairings")})
        await publish(harness, organiser, mission="C")
        room = await open_room(harness, organiser, await thread_tables(harness, people))
        await room.call(room.tables[0], room.tables[0].first)
        [call] = await room.calls()
        event_id = (await current(harness)).id
    engine = make_engine(settings.database_url)  # the bot is down while the five minutes pass
    async with engine.begin() as conn:
        await conn.execute(update(JudgeCall).values(
            raised_at=utcnow() - timedelta(minutes=DEFAULT_RERAISE_MINUTES, seconds=1)))
    await engine.dispose()
    async with Harness(MissionBot(settings, catalog), model) as harness:
        judges = harness.bot.judges
        for _ in range(200):
            if (await judges.service.get(call.id)).reraised_at is not None and \
                    any("Raised again" in m["content"] for m in room.call_messages()):
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.1)
        raised = [s for s in harness.model.sent if s.kind == "message" and "**Raised again**" in s.content]
        assert len(raised) == 1 and notified(raised[0]) == {room.judge.id}
        assert await judges.watch_stored() == 0  # nothing left to raise again
        assert not await judges.reraise(call.id)
        assert len(judges.tables) == 2 and call.game_id in judges.tables  # the boards know their tables again
        room.harness = harness
        await room.press(1, "claim", room.judge)  # a button posted before the restart
        assert (await judges.service.get(call.id)).claimed_by == str(room.judge.id)
        assert [c.id for c in await judges.service.open_calls(event_id)] == [call.id]



async def test_both_players_calling_at_once_leave_one_call(room: Room) -> None:
    record = await current(room.harness)
    [table] = [t for t in tables_of(record) if t.table == 1]
    service = room.bot.judges.service
    done = await asyncio.gather(*(service.call(table, player) for player in table.players), return_exceptions=True)
    assert sorted(type(d).__name__ for d in done) == ["GameError", "JudgeCall"]
    assert "already waiting" in next(str(d) for d in done if isinstance(d, GameError))
    assert len(await room.calls()) == 1


@pytest.mark.parametrize("roles", ["organiser", "none"])
async def test_with_nobody_on_duty_and_no_judge_role_a_call_goes_to_the_organisers_role(
    harness: Harness, organiser: FakeUser, players: list[FakeUser], roles: str,
) -> None:
    """Judges forget `/judge duty on`: a call then notifies the judge role, else the organisers' role, and says
    so; with neither, it says what to set up, notifying nobody."""
    to_role = harness.role("TO") if roles == "organiser" else None
    await open_event(harness, organiser, players[:4], **{"organiser-role": to_role} if to_role else {})
    await publish(harness, organiser, mission="C")
    tables = await thread_tables(harness, players)
    await harness.slash("judge setup", user=organiser, options={"channel": harness.channel("judges")})
    await tables[0].slash("judge call", tables[0].first)
    [sent] = [s for s in harness.model.sent if s.kind == "message" and "calls a judge" in s.content]
    assert notified(sent) == set()
    if to_role is not None:
        assert notified_roles(sent) == {to_role.id} and f"nobody, so calls go to <@&{to_role.id}>" in sent.content
    else:
        assert notified_roles(sent) == set() and "no judge role to call" in sent.content


async def test_the_event_sets_when_a_call_is_raised_again_through_a_restart(catalog: Catalog, tmp_path) -> None:
    settings = harness_settings(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    model = DiscordModel()
    organiser = model.add_user("organiser", permissions=MANAGE_SERVER)
    people = [model.add_user(f"player{i}") for i in range(4)]
    async with Harness(MissionBot(settings, catalog), model) as harness:
        await open_event(harness, organiser, people, **{"announce-channel": harness.channel("pairings")})
        await publish(harness, organiser, mission="C")
        room = await open_room(harness, organiser, await thread_tables(harness, people))
        await room.call(room.tables[0], room.tables[0].first)
        [call] = await room.calls()
        key = ("judge", call.id)
        assert harness.bot.desk.alarms.moment(key) == pytest.approx((call.raised_at + timedelta(minutes=5)).timestamp())
        refused(await harness.slash("judge setup", user=organiser, strict=False, **{"reraise-minutes": 0}), "1 to 120 minutes")
        reply = await harness.slash("judge setup", user=organiser, **{"reraise-minutes": 12})
        assert "raised again after 12 minutes" in private(reply)
        # The call already waiting is raised at the new moment.
        assert harness.bot.desk.alarms.moment(key) == pytest.approx((call.raised_at + timedelta(minutes=12)).timestamp())
    async with Harness(MissionBot(settings, catalog), model) as harness:
        await harness.bot.judges.watch_stored()
        assert harness.bot.desk.alarms.moment(key) == pytest.approx((call.raised_at + timedelta(minutes=12)).timestamp())
        room.harness = harness
        assert await harness.bot.judges.reraise(call.id)
        assert "nobody has claimed this call for 12 minutes" in room.call_message(1)["content"]
