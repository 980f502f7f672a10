"""A 9-player, 3-round event over the network: the real bot, started by its entry point, against the fake Discord.

The organiser pairs each round privately and publishes it; the announcement notifies exactly the players of
each message; one table of round 1 plays its game in its thread to the end and its result reaches the
standings with no report; the others report from their own seat and confirm; round 1's threads are archived
when round 2 is published; round 1 is corrected after round 2 is paired and the standings follow; the bot
restarts during round 3 and the round clock's reminders still arrive.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.client import MissionBot
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.state import Status
from bot.engine.tournament.event import standings
from bot.plumbing.settings import Settings
from tests.cogs.game_table import Table, verbs
from tests.cogs.harness import Reply
from tests.discord_model import GUILD_ID, MEMBER_PERMISSIONS, FakeUser
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_e2e_game import Gateway, running

MANAGE_SERVER = MEMBER_PERMISSIONS | discord.Permissions(manage_guild=True).value


def notified(model: Any, reply: Reply, *, in_threads: bool = False) -> list[int]:
    """The users the channel messages (else the table threads' messages) of `reply` notify; each message
    names in its content every user its allowed mentions let Discord notify."""
    users = []
    for sent in reply:
        if sent.kind != "message" or model.channels[int(sent.message["channel_id"])].is_thread != in_threads:
            continue
        allowed = sent.body["allowed_mentions"]
        in_content = [int(u) for u in re.findall(r"<@(\d+)>", sent.body["content"])]
        assert allowed["parse"] == [] and set(map(int, allowed["users"])) <= set(in_content)
        users += map(int, allowed["users"])
    return users


async def publish(gateway: Gateway, organiser: FakeUser) -> Reply:
    draft = await gateway.slash("tournament pair", user=organiser)
    assert draft.ephemeral and not [s for s in draft if s.kind == "message"]  # nothing public before Publish
    return await gateway.press(draft[-1].custom_ids[0], user=organiser)


async def play_round(gateway: Gateway, players: dict[str, FakeUser], scores: list[tuple[int, int]],
                     played: int | None = None) -> None:
    """Player A of each table (but the one `played` in its thread) reports its score from their seat; player B
    confirms."""
    event = (await gateway.bot.tournaments.current(GUILD_ID)).state.event  # type: ignore[attr-defined]
    for pairing, (mine, theirs) in zip(event.rounds[-1].pairings.tables, scores, strict=True):
        if pairing.table == played:
            continue
        report = await gateway.slash("tournament report", user=players[pairing.a],
                                     **{"my-vp": mine, "opponent-vp": theirs})
        await gateway.press(report.custom_ids[0], user=players[pairing.b], message_id=int(report.main.message["id"]))


async def play_in_thread(gateway: Gateway, players: dict[str, FakeUser], table_number: int) -> Table:
    """The table's players accept the game in its thread and play it to the end with the buttons."""
    record = await gateway.bot.tournaments.current(GUILD_ID)  # type: ignore[attr-defined]
    link = next(g for g in record.state.table_games if g.table == table_number)
    game = await gateway.bot.service.get_state(game_id=link.game_id)  # type: ignore[attr-defined]
    first, second = (players[p] for p in game.setup.players)
    table = Table(gateway, first, second, channel=gateway.model.channels[link.thread_id])  # type: ignore[arg-type]
    table.game_id = link.game_id
    [challenge] = [m for m in gateway.model.channel_messages(link.thread_id) if "accept" in verbs(m)]
    await gateway.press(verbs(challenge)["accept"], user=second, message_id=int(challenge["id"]))
    await table.to_battle(first_fixed=None)
    await table.slash("score add", user=await table.active_user(), source="primary", vp=12)
    while (await table.state()).status == Status.BATTLE:
        await table.end_turn_plain()
    return table


async def test_a_nine_player_event_over_the_fake_discord(fake_discord: FakeDiscord, catalog: Catalog,
                                                         bot_settings: Settings, bots: list[MissionBot],
                                                         logged_errors: list[logging.LogRecord]) -> None:
    model = fake_discord.model
    organiser = model.add_user("organiser", permissions=MANAGE_SERVER)
    people = [model.add_user(f"player{i}") for i in range(9)]
    players = {str(p.id): p for p in people}
    scores = [(70, 40), (55, 60), (50, 50), (80, 20)]
    async with running(fake_discord, bot_settings, catalog, bots) as gateway:
        await gateway.slash("tournament create", user=organiser, name="Club GT", rounds=3)
        for p in people:
            await gateway.slash("tournament register", user=p)
        for number in (1, 2):
            published = await publish(gateway, organiser)
            # Each player is pinged once: the bye in the announcement, the others in their table thread.
            assert sorted(notified(model, published) + notified(model, published, in_threads=True)) == sorted(
                p.id for p in people)
            assert len([s for s in published if s.kind == "message"]) == 1 + 4  # and a game in each table's thread
            assert len(notified(model, published, in_threads=True)) == 8  # every player but the bye, in a thread
            if number == 1:
                table = await play_in_thread(gateway, players, 4)
                vp = (await table.state()).result.vp
                await play_round(gateway, players, scores, played=4)
                round_one = {g.thread_id for g in (await gateway.bot.tournaments.current(GUILD_ID)).state.table_games}
            else:
                assert round_one <= model.archived  # publishing round 2 archived round 1's threads
                await play_round(gateway, players, scores)
        service: Any = gateway.bot.tournaments
        record = await service.current(GUILD_ID)
        first = record.state.event.rounds[0].pairings.tables[0]
        assert [r.vp_a for r in record.state.event.rounds[0].results if r.table == 1] == [70]
        [played] = [r for r in record.state.event.rounds[0].results if r.table == 4]  # nobody reported it
        assert (played.vp_a, played.vp_b) == (vp[played.a], vp[played.b]) and played.vp_a + played.vp_b >= 12
        await publish(gateway, organiser)  # round 3 is paired: round 1 is corrected after that
        before = {s.player: s for s in standings((await service.current(GUILD_ID)).state.event)}
        fixed = await gateway.slash("tournament result", user=organiser, table=1,
                                    **{"vp-a": 20, "vp-b": 90, "round": 1})
        assert "(corrected from 70 – 40, A wins)" in fixed.content
        after = {s.player: s for s in standings((await service.current(GUILD_ID)).state.event)}
        assert (after[first.a].wins, after[first.b].wins) == (before[first.a].wins - 1, before[first.b].wins + 1)
        assert after[first.b].vp == before[first.b].vp + 50
        started = await gateway.slash("tournament round start", user=organiser, minutes=60)
        ends_at = int(re.search(r"<t:(\d+):R>", started.content)[1])
    # Restarted: the stored clock is read back and its reminders arrive.
    async with running(fake_discord, bot_settings, catalog, bots) as gateway:
        cog: Any = gateway.bot.get_cog("tournament")
        assert cog.clock.is_running()
        for minutes in (30, 10, 0):
            assert await cog.post_reminders(ends_at - 60 * minutes) == 1
        texts = [m["content"] for m in gateway.messages()[-3:]]
        assert [t.split(": ", 1)[1] for t in texts] == [
            f"30 minutes left (ends <t:{ends_at}:R>).", f"10 minutes left (ends <t:{ends_at}:R>).",
            "time is up: finish your turn and report your result."]
        await play_round(gateway, players, scores)
        final = await gateway.slash("tournament standings", user=organiser)
        assert not final.ephemeral and "standings after round 3" in final.embed["title"]
        assert re.search(r"· \d-\d(-\d)? ·", final.embed["description"])  # W-L, or W-L-D with draws
    assert [r.getMessage() for r in logged_errors] == []
