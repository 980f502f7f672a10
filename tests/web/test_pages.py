"""The live pages of a shared game, read over HTTP while the game is pressed through the fake Discord."""

from __future__ import annotations

import aiohttp

from tests.cogs.game_table import Table
from tests.discord_model import FakeUser
from tests.web.conftest import open_stream, shared_links


async def test_sharing_needs_the_opponent_and_posts_the_links_once(table: Table, alice: FakeUser, bob: FakeUser,
                                                                 carol: FakeUser) -> None:
    await table.start()
    ask = await table.slash("game share", alice)
    assert f"<@{bob.id}>" in ask.main.content and "Agree?" in ask.main.content
    assert ask.response.body["data"]["allowed_mentions"]["users"] == [bob.id]
    [agree] = ask.custom_ids
    for stranger in (alice, carol):  # the asker, and someone else
        refused = await table.h.press(agree, user=stranger, message_id=int(ask.main.message["id"]), strict=False)
        assert refused.main.ephemeral
    agreed = await table.h.press(agree, user=bob, message_id=int(ask.main.message["id"]))
    assert "Board: <http://127.0.0.1:" in agreed.main.content and agreed.main.message["components"] == []
    again = await table.slash("game share", bob, strict=False)
    assert again.main.ephemeral and "shared already" in again.main.content
    stranger = await table.slash("game share", carol, strict=False)
    assert stranger.main.ephemeral and "Only the two players" in stranger.main.content


async def test_a_page_follows_every_press_and_hides_the_secret_choice(
    table: Table, alice: FakeUser, bob: FakeUser, http: aiohttp.ClientSession
) -> None:
    await table.start()
    links = await shared_links(table, alice)
    stream = await open_stream(http, links["board"])
    seen = await stream.model()
    assert seen["version"] == await table.version() and seen["status"] == "setup"
    state = await table.state()
    await table.press("attacker", table.user(state.sides_rolloff.winner))
    seen = await stream.model(after=seen["version"])
    assert seen["players"][[p.id for p in state.players].index(state.sides_rolloff.winner)]["role"] == "Attacker"

    # Alice's Fixed choice is secret until Bob has chosen: no page shows it, nor her mode.
    await table.choose(alice, ("cleanse", "assassination"))
    seen = await stream.model(after=seen["version"])
    text = str(seen).lower()
    assert "cleanse" not in text and "assassination" not in text, text
    assert [(p["mode"], p["cards"]) for p in seen["players"]] == [(None, []), (None, [])]
    await table.choose(bob, None)
    seen = await stream.model(after=seen["version"])
    mine = seen["players"][0 if state.players[0].id == str(alice.id) else 1]
    assert mine["mode"] == "Fixed" and {c["name"] for c in mine["cards"]} == {"Cleanse", "Assassination"}


async def test_the_pages_carry_their_security_headers_and_a_wrong_link_opens_nothing(
    table: Table, alice: FakeUser, http: aiohttp.ClientSession
) -> None:
    await table.start()
    links = await shared_links(table, alice)
    for url in (links["board"], links["scoreboard"], links["board"].split("/g/")[0] + "/static/live.js"):
        async with http.get(url) as page:
            assert page.status == 200
            assert "default-src 'none'" in page.headers["Content-Security-Policy"]
            assert page.headers["Referrer-Policy"] == "no-referrer"
    async with http.get(links["board"][:-3] + "xyz") as wrong:
        assert wrong.status == 404 and "opens nothing" in await wrong.text()
    async with http.get(links["board"] + "/overlay/nonsense") as wrong:
        assert wrong.status == 404


async def test_a_revoked_link_stops_its_open_pages(table: Table, alice: FakeUser, bob: FakeUser,
                                                  http: aiohttp.ClientSession) -> None:
    await table.start()
    links = await shared_links(table, alice)
    stream = await open_stream(http, links["scoreboard"])
    await stream.model()
    stopped = await table.slash("game share", bob, stop=True)
    assert "stopped" in stopped.main.content
    event, data = await stream.frame()
    assert event == "gone" and "revoked" in data["message"]
    async with http.get(links["board"]) as page:
        assert page.status == 404
    again = await table.slash("game share", alice, stop=True, strict=False)
    assert again.main.ephemeral and "no live pages" in again.main.content
