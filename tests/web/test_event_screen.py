"""The venue screen of an event, and a table's overlay through the event's link, while tables are played."""

from __future__ import annotations

import aiohttp

from bot.engine import moves
from tests.cogs.game_table import Table
from tests.cogs.harness import Harness
from tests.cogs.test_table_games import event  # noqa: F401
from tests.discord_model import GUILD_ID, FakeUser
from tests.web.conftest import links_in, open_stream


async def share_event(harness: Harness, organiser: FakeUser) -> dict[str, str]:
    reply = await harness.slash("tournament share", user=organiser)
    assert reply.main.ephemeral  # the organiser's to hand out
    return links_in(reply.main.content)


async def test_the_venue_screen_shows_the_round_its_tables_live_and_the_standings(
    harness: Harness, organiser: FakeUser, players: list[FakeUser], event: list[Table],  # noqa: F811
    http: aiohttp.ClientSession,
) -> None:
    refused = await harness.slash("tournament share", user=players[0], strict=False)
    assert refused.main.ephemeral and "Only an organiser" in refused.main.content
    links = await share_event(harness, organiser)
    screen = await open_stream(http, links["screen"])
    seen = await screen.model()
    assert (seen["name"], seen["round"], seen["rounds"]) == ("Club GT", 1, 3)
    assert sorted(p["table"] for p in seen["pairings"]) == [1, 2]
    assert {p["state"] for p in seen["pairings"]} == {"playing"}

    table = next(t for t in event if t.game_id == seen["pairings"][0]["game"])
    await table.to_battle()
    seen = await screen.model(after=-1)  # a game's change moves the screen (the event's version stays)
    first = next(p for p in seen["pairings"] if p["game"] == table.game_id)
    await harness.bot.service.act(moves.Concede(actor=str(table.second.id)), game_id=table.game_id)
    while first["state"] != "done":
        seen = await screen.model(after=-1)
        first = next(p for p in seen["pairings"] if p["game"] == table.game_id)
    assert seen["standings"][0]["record"] == "1-0"


async def test_a_table_s_overlay_follows_its_game_through_the_event_link(
    harness: Harness, organiser: FakeUser, event: list[Table], http: aiohttp.ClientSession,  # noqa: F811
) -> None:
    links = await share_event(harness, organiser)
    overlay = await open_stream(http, links["overlay"])
    seen = await overlay.model()
    record = await harness.bot.tournaments.current(GUILD_ID)
    [link] = [g for g in record.state.table_games if g.table == 1]
    assert seen["game"] == link.game_id
    table = next(t for t in event if t.game_id == link.game_id)
    await table.to_battle()
    assert (await overlay.model(after=seen["version"]))["game"] == link.game_id
    async with http.get(links["screen"] + "/table/9") as missing:
        assert missing.status == 404
