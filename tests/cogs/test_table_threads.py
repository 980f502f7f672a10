"""A round's table threads at the size of a Grand Tournament: opened in the background with the organiser's answer
following them, resumed after a restart without a second thread (a team round's match threads too), spread among
the channels organisers name, archived as results come in, and opened even when the server is at Discord's count of
active threads."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.client import MissionBot
from bot.engine.chapter_approved.catalog import Catalog
from tests.cogs.conftest import harness_settings
from tests.cogs.game_table import Table, verbs
from tests.cogs.harness import Harness
from tests.cogs.test_team_events import publish_round, team_event
from tests.cogs.test_tournament_commands import MANAGE_SERVER, current, open_event, publish, refused
from tests.discord_model import DiscordModel, FakeUser

TABLES = 7


def table_threads(model: DiscordModel) -> dict[str, int]:
    """The round's table threads by name (a second thread of the same name would show as a count below)."""
    names = [c.name for c in model.channels.values() if c.is_thread and c.name.startswith("R1 · ")]
    assert len(names) == len(set(names)), f"a table opened twice: {sorted(names)}"
    return {c.name: c.id for c in model.channels.values() if c.is_thread and c.name.startswith("R1 · ")}


async def event_of(harness: Harness, players: int = 2 * TABLES) -> tuple[FakeUser, Any]:
    organiser = harness.user("organiser", permissions=MANAGE_SERVER)
    news = harness.channel("pairings")
    await open_event(harness, organiser, [harness.user(f"player{i}") for i in range(players)],
                     **{"announce-channel": news})
    return organiser, news


async def assert_every_table_open_once(harness: Harness, *, tables: int = TABLES) -> None:
    record = await current(harness)
    threads = table_threads(harness.model)
    links = [g for g in record.state.table_games if g.round_number == 1]
    assert sorted(g.table for g in links) == list(range(1, tables + 1))
    assert sorted(g.thread_id for g in links) == sorted(threads.values())
    for link in links:
        game = await harness.bot.service.get_state(channel_id=link.thread_id)
        assert game.id == link.game_id
        challenges = [m for m in harness.messages(harness.model.channels[link.thread_id])
                      if any(c.endswith(":accept") for c in verbs(m).values())]
        assert len(challenges) >= 1  # the game is offered in its thread
    assert record.state.opening is None


@pytest.mark.parametrize("cut", ["after its thread", "before its challenge"])
async def test_a_publish_cut_by_a_restart_resumes_without_a_second_thread(catalog: Catalog, tmp_path,
                                                                         cut: str) -> None:
    """The bot stops while the third table opens (its thread open but not yet saved, or its game started but not
    yet offered): at the next start the opening carries on, adopting that thread and its game."""
    settings = harness_settings(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    model = DiscordModel()
    async with Harness(MissionBot(settings, catalog), model) as h:
        organiser, _ = await event_of(h)
        route = ("POST", "/channels/{channel_id}/threads") if cut == "after its thread" else \
            ("POST", "/channels/{channel_id}/messages")
        answer = h.routes[route]
        calls = {"challenges": 0, "threads": 0}

        def stopping(params: dict, body: Any, files: list) -> Any:
            thread = route[1].endswith("/threads")
            challenge = not thread and "accepts it to begin" in (body or {}).get("content", "")
            calls["threads"] += thread
            calls["challenges"] += challenge
            if (thread and calls["threads"] == 3) or (challenge and calls["challenges"] == 3):
                if thread:
                    answer(params, body, files)  # Discord opened the thread; the bot stops before it hears so
                raise asyncio.CancelledError  # the bot stops here
            return answer(params, body, files)
        h.route(*route, stopping)
        await publish(h, organiser)
        record = await current(h)
        assert record.state.opening == 1 and len(record.state.table_games) == 2
        assert len(table_threads(model)) == 3

    async with Harness(MissionBot(settings, catalog), model) as h:  # the restart
        await h.bot.tables.idle()
        await assert_every_table_open_once(h)
        games = [await h.bot.service.get_state(channel_id=t) for t in table_threads(model).values()]
        assert len({g.id for g in games}) == TABLES


async def test_the_organisers_answer_follows_the_tables_and_names_where_they_opened(harness: Harness) -> None:
    organiser, _ = await event_of(harness)
    channels = [harness.channel(f"tables-{n}") for n in (1, 2, 3)]
    said = await harness.slash("tournament tables", user=organiser,
                               options={"channel": channels[0], "channel-2": channels[1], "channel-3": channels[2]})
    assert said.ephemeral and "the tables in blocks in that order" in said.content
    reply = await publish(harness, organiser)
    answers = [s.body["content"] for s in reply if s.kind == "edit"]
    assert answers[0] == "Round 1 is published: announcing it…"
    assert answers[1].endswith(f"Opening tables: 0 of {TABLES}.")
    assert answers[-1].endswith(f"Opened the {TABLES} table threads of round 1: tables 1–3 in <#{channels[0].id}>, "
                                f"tables 4–6 in <#{channels[1].id}>, table 7 in <#{channels[2].id}>, each with "
                                "its game ready.")
    record = await current(harness)
    parents = {g.table: harness.model.channels[g.thread_id].parent_id for g in record.state.table_games}
    assert parents == {t: channels[(t - 1) // 3].id for t in range(1, TABLES + 1)}
    await assert_every_table_open_once(harness)


async def test_tables_refuses_a_channel_twice_and_changes_nothing(harness: Harness) -> None:
    organiser, _ = await event_of(harness, players=4)
    channel = harness.channel("tables")
    said = await harness.slash("tournament tables", user=organiser, options={"channel": channel, "channel-2": channel})
    assert said.ephemeral and "different channels" in said.content
    assert (await current(harness)).state.table_channels == ()
    player = harness.user("player")
    refused = await harness.slash("tournament tables", user=player, options={"channel": channel})
    assert refused.ephemeral and (await current(harness)).state.table_channels == ()


async def test_a_tables_thread_is_archived_once_its_result_is_in_and_a_late_message_reopens_it(
        harness: Harness) -> None:
    organiser, _ = await event_of(harness, players=4)
    await publish(harness, organiser)
    first, second = sorted((await current(harness)).state.table_games, key=lambda g: g.table)
    game = await harness.bot.service.get_state(game_id=first.game_id)
    a, b = (harness.model.users[int(p)] for p in game.setup.players)
    thread = harness.model.channels[first.thread_id]
    table = Table(harness, a, b, channel=thread)
    table.game_id = first.game_id
    [challenge] = [m for m in harness.messages(thread) if "accept" in verbs(m)]
    await harness.press(verbs(challenge)["accept"], user=b, message_id=int(challenge["id"]))
    await table.to_battle()
    await table.slash("game concede", user=a)
    assert [r.table for r in (await current(harness)).state.event.rounds[0].results] == [1]
    assert first.thread_id in harness.model.archived and second.thread_id not in harness.model.archived
    assert harness.messages(thread)[-1]["content"].startswith("Recorded for **Club GT** round 1, table 1")
    card = next(m for m in reversed(harness.messages(thread)) if "rematch" in verbs(m))
    await harness.press(verbs(card)["rematch"], user=a)  # a late press: the bot's answer opens the thread again
    assert first.thread_id not in harness.model.archived


async def test_an_event_opens_every_table_when_the_server_is_at_its_active_thread_limit(harness: Harness) -> None:
    organiser, news = await event_of(harness)
    old = harness.channel("last-month")
    filled = harness.model.fill_threads(harness.model.guild_id, old.id, harness.model.max_active_threads)
    reply = await publish(harness, organiser)
    assert reply[-1].body["content"].endswith("each with its game ready.")
    await assert_every_table_open_once(harness)
    active = harness.model.active_threads(harness.model.guild_id)["threads"]
    assert len(active) <= harness.model.max_active_threads
    assert filled[0].id in harness.model.archived  # the quietest of the bot's old threads made room
    assert all(t.id not in harness.model.archived for t in filled[-100:])


async def test_a_server_full_of_its_members_threads_says_so_and_tables_opens_the_rest(harness: Harness) -> None:
    """Nothing of the bot's to archive: the organiser is told why the tables did not open, and once room is made
    `/tournament tables` opens them."""
    organiser, news = await event_of(harness, players=4)
    members = harness.model.fill_threads(harness.model.guild_id, harness.channel("chat").id,
                                         harness.model.max_active_threads, owner=harness.user("member"))
    reply = await publish(harness, organiser)
    said = reply[-1].body["content"]
    assert "Stopped after 0 of 2 table threads: This server has as many active threads as Discord allows" in said
    assert (await current(harness)).state.opening == 1 and not set(members) & harness.model.archived
    for thread in members[:5]:  # the members close some of theirs
        harness.model.edit_channel(thread.id, {"archived": True})
    opened = await harness.slash("tournament tables", user=organiser)
    answers = [s.body["content"] for s in opened if s.kind == "edit"]
    assert opened.ephemeral and answers[0].endswith("Round 1 has 2 tables without a thread: opening them.")
    assert answers[-1].endswith(f"Opened the 2 table threads of round 1 in <#{news.id}>, each with its game ready.")
    await assert_every_table_open_once(harness, tables=2)


async def test_a_team_round_cut_by_a_restart_opens_its_other_matches_once(catalog: Catalog, tmp_path) -> None:
    """A team round's match threads open in the background too: the bot stops right after Discord opened the second
    match's thread; at the next start the opening adopts it and opens the third, each match with one board."""
    settings = harness_settings(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    model = DiscordModel()

    def match_threads() -> dict[str, int]:
        names = [c.name for c in model.channels.values() if c.is_thread and c.name.startswith("R1 Team")]
        assert len(names) == len(set(names)), f"a match opened twice: {sorted(names)}"
        return {c.name: c.id for c in model.channels.values() if c.is_thread and c.name.startswith("R1 Team")}

    async with Harness(MissionBot(settings, catalog), model) as h:
        organiser = h.user("organiser", permissions=MANAGE_SERVER)
        await team_event(h, organiser, 3, 6)
        answer = h.routes[("POST", "/channels/{channel_id}/threads")]
        opened = []

        def stopping(params: dict, body: Any, files: list) -> Any:
            made = answer(params, body, files)
            opened.append(made)
            if len(opened) == 2:
                raise asyncio.CancelledError  # Discord opened it; the bot stops before it hears so
            return made
        h.route("POST", "/channels/{channel_id}/threads", stopping)
        published = await publish_round(h, organiser)
        assert any("Opening match threads: 0 of 3." in s.content for s in published if s.message)
        record = await current(h)
        assert record.state.opening == 1 and len(record.state.match_boards) == 1
        assert len(match_threads()) == 2

    async with Harness(MissionBot(settings, catalog), model) as h:  # the restart
        await h.bot.tables.idle()
        record = await current(h)
        boards = [b for b in record.state.match_boards if b.round_number == 1]
        assert sorted(b.match for b in boards) == [1, 2, 3] and record.state.opening is None
        assert sorted(b.thread_id for b in boards) == sorted(match_threads().values())
        for board in boards:
            posted = [m for m in h.messages(model.channels[board.thread_id]) if m["embeds"]]
            assert [m["id"] for m in posted] == [str(board.message_id)]  # one board a match


async def test_tables_opens_a_team_rounds_matches_a_full_server_left_without_a_thread(harness: Harness) -> None:
    organiser = harness.user("organiser", permissions=MANAGE_SERVER)
    await team_event(harness, organiser, 3, 4)
    members = harness.model.fill_threads(harness.model.guild_id, harness.channel("chat").id,
                                         harness.model.max_active_threads, owner=harness.user("member"))
    reply = await publish_round(harness, organiser)
    assert "Stopped after 0 of 2 match threads: This server has as many active threads" in reply[-1].body["content"]
    for thread in members[:5]:
        harness.model.edit_channel(thread.id, {"archived": True})
    refused(await harness.slash("tournament tables", user=organiser, options={"channel": harness.channel("more")}),
            "A team event's games open in their match's channel")
    opened = await harness.slash("tournament tables", user=organiser)
    answers = [s.body["content"] for s in opened if s.kind == "edit"]
    assert answers[0].endswith("Round 1 has 2 matches without a thread: opening them.")
    record = await current(harness)
    assert answers[-1].endswith(f"Opened the 2 match threads of round 1 in <#{record.announce_channel_id}>, each "
                                "with its pairing board.")
    assert sorted(b.match for b in record.state.match_boards) == [1, 2] and record.state.opening is None


async def test_closing_waits_for_an_opening_to_stop(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot closing cancels an opening under way and waits for it: a database call it was inside closes its
    connection before the engine is disposed (else the process hangs on its way out)."""
    await event_of(harness, players=4)
    steps: list[str] = []

    async def opening(self: Any, *args: Any) -> None:
        try:
            steps.append("opening")
            await asyncio.sleep(60)
        finally:
            await asyncio.sleep(0)  # as a connection closing on its way out
            steps.append("closed")
    monkeypatch.setattr(type(harness.bot.tables), "_open", opening)
    harness.bot.tables.open(await current(harness), None)
    await asyncio.sleep(0)
    await harness.bot.tables.stop()
    assert steps == ["opening", "closed"] and not harness.bot.tables.busy((await current(harness)).id)
