"""Games in the table threads of a tournament: their results reach the standings by themselves."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.plumbing.changes import ChangeStream
from bot.engine import moves
from bot.engine.chapter_approved.state import Status
from bot.ui.tournament import report_table_game
from tests.cogs.game_table import Table, verbs
from tests.cogs.harness import Harness
from tests.cogs.test_tournament_commands import by_id, current, enter_round, open_event, publish
from tests.discord_model import GUILD_ID, FakeChannel, FakeUser


async def thread_tables(harness: Harness, players: list[FakeUser]) -> list[Table]:
    """The round's table threads, each as a Table whose second player accepted the game."""
    record = await current(harness)
    people = by_id(players)
    tables = []
    for link in record.state.table_games:
        if link.round_number != len(record.state.event.rounds):
            continue
        game = await harness.bot.service.get_state(game_id=link.game_id)
        first, second = (people[p] for p in game.setup.players)
        thread: FakeChannel = harness.model.channels[link.thread_id]
        table = Table(harness, first, second, channel=thread)
        table.game_id = link.game_id
        [challenge] = [m for m in harness.messages(thread) if "accept" in verbs(m)]
        await harness.press(verbs(challenge)["accept"], user=second, message_id=int(challenge["id"]))
        await table.settle()
        tables.append(table)
    return tables


def thread_notes(harness: Harness, table: Table) -> list[dict[str, Any]]:
    """What the bot posted in the thread about the tournament (the bodies it sent)."""
    return [{"body": s.body} for s in harness.model.sent
            if s.kind == "message" and int(s.message["channel_id"]) == table.channel.id
            and ("counts as confirmed" in s.content or "already has a confirmed result" in s.content)]


async def table_result(harness: Harness, table_number: int, round_number: int = 1):
    event = (await current(harness)).state.event
    return next((r for r in event.rounds[round_number - 1].results if r.table == table_number), None)


@pytest.fixture
async def event(harness: Harness, organiser: FakeUser, players: list[FakeUser]) -> list[Table]:
    await open_event(harness, organiser, players[:4], **{"announce-channel": harness.channel("pairings")})
    await publish(harness, organiser, mission="C")
    return await thread_tables(harness, players)


async def test_publish_links_each_table_to_the_game_in_its_thread(harness: Harness, event: list[Table]) -> None:
    record = await current(harness)
    links = sorted(record.state.table_games, key=lambda g: g.table)
    assert [(g.round_number, g.table) for g in links] == [(1, 1), (1, 2)]
    for link, pairing in zip(links, record.state.event.rounds[0].pairings.tables):
        game = await harness.bot.service.get_state(channel_id=link.thread_id)
        assert game.id == link.game_id and game.setup.players == (pairing.a, pairing.b)


async def test_a_concession_in_the_thread_is_recorded_as_confirmed(harness: Harness, event: list[Table]) -> None:
    table = event[0]
    pairing = (await current(harness)).state.event.rounds[0].pairings.tables[0]
    # The winner had reported a score by hand; the game's end replaces the report awaiting confirmation.
    await harness.slash("tournament report", user=table.second, **{"my-vp": 10, "opponent-vp": 5})
    await table.to_battle()
    await table.slash("game concede", user=table.first)
    result = await table_result(harness, 1)
    assert (result.outcome, result.reason) == ("b_wins", "concession")
    assert (result.vp_a, result.vp_b) == (0, 0)  # the VP as scored when the game ended
    assert (await current(harness)).state.pending == ()
    [note] = thread_notes(harness, table)
    allowed = note["body"]["allowed_mentions"]
    assert sorted(map(int, allowed["users"])) == sorted([int(pairing.a), int(pairing.b)]) and allowed["parse"] == []
    assert set(re.findall(r"<@(\d+)>", note["body"]["content"])) == {pairing.a, pairing.b}
    assert "round 1, table 1" in note["body"]["content"] and "conceded" in note["body"]["content"]


async def test_a_battle_played_to_the_end_reaches_the_standings_with_its_vp(
    harness: Harness, organiser: FakeUser, event: list[Table]
) -> None:
    table = event[1]
    await table.to_battle(first_fixed=None)
    await table.slash("score add", user=await table.active_user(), source="primary", vp=7)
    while (await table.state()).status == Status.BATTLE:
        await table.end_turn_plain()
    state = await table.state()
    vp = state.result.vp
    pairing = (await current(harness)).state.event.rounds[0].pairings.tables[1]
    result = await table_result(harness, 2)
    assert (result.vp_a, result.vp_b) == (vp[pairing.a], vp[pairing.b])
    assert result.reason == "score" and result.outcome == ("a_wins" if vp[pairing.a] > vp[pairing.b] else "b_wins")
    [note] = thread_notes(harness, table)
    assert f"**{vp[pairing.a]}** – **{vp[pairing.b]}**" in note["body"]["content"]
    status = await harness.slash("tournament status", user=organiser)
    assert status.embed["title"].endswith("1 of 2 tables waiting")
    assert "✅" in status.embed["description"].splitlines()[1]


async def test_reporting_the_same_game_again_changes_and_says_nothing(harness: Harness, event: list[Table]) -> None:
    table = event[0]
    await table.to_battle()
    await table.slash("game concede", user=table.second)
    before = await current(harness)
    state = await table.state()
    await report_table_game(harness.bot, harness.bot.get_partial_messageable(table.channel.id), GUILD_ID,
                            table.game_id, state)
    assert (await current(harness)).version == before.version
    assert len(thread_notes(harness, table)) == 1


async def test_a_confirmed_result_that_disagrees_is_left_for_an_organiser(
    harness: Harness, organiser: FakeUser, event: list[Table]
) -> None:
    table = event[0]
    await enter_round(harness, organiser, {1: ("a_wins", 80, 30)})
    await table.to_battle()
    await table.slash("game concede", user=table.first)  # player A concedes: B would win
    result = await table_result(harness, 1)
    assert (result.outcome, result.vp_a, result.reason) == ("a_wins", 80, "score")
    [note] = thread_notes(harness, table)
    assert "already has a confirmed result" in note["body"]["content"]
    assert "/tournament result round:1" in note["body"]["content"]


async def test_an_abandoned_game_reports_nothing(harness: Harness, event: list[Table]) -> None:
    table = event[0]
    asked = await table.slash("game end", user=table.first)
    await table.press_on(asked, "endby-first", table.second)  # the opponent agrees: no result
    assert (await table.state()).status == Status.ABANDONED
    assert await table_result(harness, 1) is None and thread_notes(harness, table) == []


async def test_status_collects_a_game_that_ended_while_the_bot_was_away(
    harness: Harness, organiser: FakeUser, event: list[Table]
) -> None:
    table = event[0]
    await table.to_battle()
    # The game ends in the store, but the bot stops before the tournament hears of it: the change reaches no surface.
    service = harness.bot.service
    service.changes, surfaces = ChangeStream(), service.changes
    await service.act(moves.Concede(actor=str(table.first.id)), game_id=table.game_id)
    service.changes = surfaces
    assert await table_result(harness, 1) is None
    status = await harness.slash("tournament status", user=organiser)
    [embed] = next(s for s in status if s.embeds).embeds  # after the note posted in the thread
    assert embed["description"].splitlines()[0].count("✅") == 1
    assert (await table_result(harness, 1)).reason == "concession"
    assert len(thread_notes(harness, table)) == 1


async def test_a_round_s_threads_are_archived_when_the_next_is_published_and_at_the_finish(
    harness: Harness, organiser: FakeUser, players: list[FakeUser], event: list[Table]
) -> None:
    first_round = [t.channel.id for t in event]
    await enter_round(harness, organiser, {1: ("a_wins", 60, 40)})
    assert first_round[0] in harness.model.archived and first_round[1] not in harness.model.archived
    await enter_round(harness, organiser, {2: ("draw", 50, 50)})
    assert set(first_round) <= harness.model.archived  # each as its result came in
    harness.model.edit_channel(first_round[1], {"archived": False})  # a player wrote in it since
    published = await publish(harness, organiser)
    assert set(first_round) <= harness.model.archived
    assert any("Archived 1 table thread of round 1 still open." in (s.body.get("content") or "")
               for s in published if s.kind == "edit")
    second_round = [link.thread_id for link in (await current(harness)).state.table_games if link.round_number == 2]
    assert not set(second_round) & harness.model.archived
    await enter_round(harness, organiser, {1: ("a_wins", 60, 40), 2: ("b_wins", 40, 50)})
    await harness.slash("tournament finish", user=organiser)
    assert set(second_round) <= harness.model.archived


async def test_a_late_press_in_an_archived_thread_still_plays(harness: Harness, organiser: FakeUser,
                                                              event: list[Table]) -> None:
    table = event[1]
    await enter_round(harness, organiser, {1: ("a_wins", 60, 40), 2: ("draw", 50, 50)})
    await publish(harness, organiser)
    assert table.channel.id in harness.model.archived
    state = await table.state()
    await table.press("attacker", table.user(state.sides_rolloff.winner))
    assert (await table.state()).attacker is not None
