"""A four-player event on the Chapter Approved 2026-27 deck: each player's Force Disposition registered once with
their list, pairings announced with both players' Primary Missions and the table's layout, table threads whose games
start with the dispositions already set, and results taken back from the games."""

from __future__ import annotations

from bot.engine.chapter_approved.state import Status
from tests.cogs.game_table import Table, public_text, verbs
from tests.cogs.harness import Harness
from tests.cogs.test_tournament_commands import MANAGE_SERVER, current, publish, refused

PACK = "ca-2026-27"
LISTS = ("take-and-hold", "purge-the-foe", "disruption", "priority-assets")


async def test_a_four_player_event_on_the_2026_27_deck(harness: Harness) -> None:
    organiser = harness.user("organiser", permissions=MANAGE_SERVER)
    players = [harness.user(f"player{i}") for i in range(4)]
    news = harness.channel("pairings")
    created = await harness.slash("tournament create", user=organiser, name="Eleventh", rounds=2, pack=PACK,
                                  **{"announce-channel": news})
    assert "Force Dispositions" in created.content
    refused(await harness.slash("tournament register", user=players[0]), "Force Disposition")
    for player, disposition in zip(players, LISTS):
        await harness.slash("tournament register", user=player, disposition=disposition)
    refused(await harness.slash("tournament register", user=players[0], disposition="disruption"), "registered once")
    record = await current(harness)
    assert record.state.pack == PACK and record.state.dispositions[str(players[1].id)] == "purge-the-foe"
    refused(await harness.slash("tournament pair", user=organiser, mission="A"), "no mission pool")

    published = await publish(harness, organiser)
    record = await current(harness)
    catalog = harness.bot.service.packs.rules(PACK).catalog
    announcement = next(s for s in published if s.kind == "message" and int(s.message["channel_id"]) == news.id)
    for pairing in record.state.event.rounds[-1].pairings.tables:
        a, b = (record.state.dispositions[p] for p in (pairing.a, pairing.b))
        line = next(x for x in announcement.content.splitlines() if x.startswith(f"**Table {pairing.table}**"))
        assert catalog.primary_for(a, b).name in line and catalog.primary_for(b, a).name in line and "layout" in line
        game = await harness.bot.service.get_state(channel_id=next(
            link.thread_id for link in record.state.table_games if link.table == pairing.table))
        assert game.state.status == Status.SIDES and game.state.setup.dispositions == (a, b)
        assert game.state.mission.layout.endswith(line.rsplit("layout ", 1)[1].lower())

    # The games report back: each is played into the battle in its thread, and a concession reaches the standings.
    people = {str(p.id): p for p in players}
    for link in record.state.table_games:
        game = await harness.bot.service.get_state(game_id=link.game_id)
        first, second = (people[p] for p in game.setup.players)
        table = Table(harness, first, second, channel=harness.model.channels[link.thread_id])
        table.game_id = link.game_id
        challenge = next(m for m in harness.messages(table.channel) if "accept" in verbs(m))
        briefing = public_text(challenge)
        assert "Layout " in briefing and "Deployment:" not in briefing  # the table's layout, and no Deployment card
        assert game.state.mission.deployment == "" and game.state.mission.twist is None
        await harness.press(verbs(challenge)["accept"], user=second, message_id=int(challenge["id"]))
        board = public_text(await table.board())
        assert f"on Layout {game.state.mission.layout[-1].upper()}" in board and "Deployment" not in board
        await table.settle()
        await table.to_battle(first_fixed=None, second_fixed=None)
        await table.slash("game concede", second)
    results = (await current(harness)).state.event.rounds[-1].results
    assert len(results) == 2 and all(r.reason.value == "concession" for r in results)
