"""The Activity's API (bot/web/activity.py), as its page calls it: players sign in through Discord (the fake OAuth2
and Activity instances), play through the same service and rules while the Discord board follows, and see only their
own secrets; whatever the page claims, only Discord's answers say who acts and in which call."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest

from bot.web.activity_sessions import SESSION_SECONDS
from bot.web.server import ACTIVITY_HEADERS
from tests.cogs.game_table import Table, verbs
from tests.discord_model import GUILD_ID, LAUNCH_ACTIVITY, VOICE, FakeUser
from tests.web.conftest import Stream
from tests.web.fake_oauth import FakeOAuth


class Player:
    """One user's Activity page: signed in, reading its stream, pressing its controls."""

    def __init__(self, http: aiohttp.ClientSession, base: str, session: str) -> None:
        self.http, self.base, self.session = http, base, session
        self.stream: Stream | None = None

    async def watch(self) -> dict[str, Any]:
        response = await self.http.get(f"{self.base}/api/stream", params={"session": self.session})
        assert response.status == 200, await response.text()
        self.stream = Stream(response)
        return await self.stream.model()

    async def post(self, path: str, **body: Any) -> tuple[int, dict[str, Any]]:
        async with self.http.post(f"{self.base}/api/{path}", json={"session": self.session, **body}) as answer:
            return answer.status, await answer.json()

    async def act(self, model: dict[str, Any], verb: str, values: list[str] | None = None, **extra: Any):
        return await self.post("act", game=model["game"], version=model["version"], verb=verb,
                               **({"values": values} if values is not None else {}), **extra)


def channel_of(table: Table) -> int:
    return (table.channel or table.h.default_channel).id


async def sign_in(http: aiohttp.ClientSession, table: Table, oauth: FakeOAuth, user: FakeUser,
                  instance: str) -> Player:
    base = table.h.bot.web.public_url + "/activity"
    code = oauth.code_for(user.id, user.name)
    async with http.post(f"{base}/api/session", json={"code": code, "instance": instance}) as answer:
        assert answer.status == 200, await answer.text()
        signed = await answer.json()
    assert signed["user"]["id"] == str(user.id)
    return Player(http, base, signed["session"])


@pytest.fixture
def dave(harness) -> FakeUser:
    """A member of the server who is in none of the table's calls."""
    return harness.user("dave")


@pytest.fixture
async def call(table: Table, oauth: FakeOAuth, alice: FakeUser, bob: FakeUser, carol: FakeUser) -> str:
    """The Activity launched in the table's channel with the three of them connected."""
    return oauth.launch(channel_of(table), GUILD_ID, alice.id, bob.id, carol.id)


@pytest.fixture
async def players(table: Table, alice: FakeUser, bob: FakeUser, carol: FakeUser, oauth: FakeOAuth,
                  http: aiohttp.ClientSession, call: str) -> dict[str, Player]:
    await table.start(seed="activity")
    return {u.name: await sign_in(http, table, oauth, u, call) for u in (alice, bob, carol)}


async def test_sign_in_trusts_discord_alone(table: Table, oauth: FakeOAuth, http: aiohttp.ClientSession,
                                           alice: FakeUser, call: str) -> None:
    await table.start()
    base = table.h.bot.web.public_url + "/activity"
    async with http.post(f"{base}/api/session", json={"code": "made-up", "instance": call,
                                                      "user": str(alice.id)}) as answer:
        assert answer.status == 401  # a code Discord never gave: no session, whatever the page says
    code = oauth.code_for(alice.id, "alice")
    assert (await sign_in(http, table, oauth, alice, call)).session
    async with http.post(f"{base}/api/session", json={"code": code, "instance": call}) as answer:
        assert answer.status == 200  # this code was handed out before: still good once
    async with http.post(f"{base}/api/session", json={"code": code, "instance": call}) as answer:
        assert answer.status == 401  # used
    assert {e["client_secret"] for e in oauth.exchanges} == {"activity-secret"}


async def test_both_players_play_a_turn_while_the_board_follows(table: Table, players: dict[str, Player]) -> None:
    alice, bob, carol = players["alice"], players["bob"], players["carol"]
    mine = await alice.watch()
    theirs, watching = await bob.watch(), await carol.watch()
    assert watching["you"] == {"seat": None, "name": "Carol", "private": [], "controls": []}
    state = await table.state()
    winner, model = (alice, mine) if state.sides_rolloff.winner == str(table.first.id) else (bob, theirs)
    assert "attacker" in {c["verb"] for c in model["you"]["controls"]}
    assert await winner.act(model, "attacker") == (200, {"ok": True, "version": model["version"] + 1, "private": []})
    assert (await table.board())["embeds"][0]["footer"]["text"].endswith(f"move {model['version'] + 1}")

    # The secret choice: Alice's own page shows it, nobody else's does, until Bob has chosen too.
    mine = await alice.stream.model(after=mine["version"])
    status, menu = await alice.post("menu", game=mine["game"], version=mine["version"], verb="choose")
    assert status == 200 and [i["verb"] for i in menu["items"]] == ["fixed", "tactical"]
    fixed = next(i for i in menu["items"] if i["verb"] == "fixed")
    picks = [o["value"] for o in fixed["options"][:2]]
    assert (await alice.act(mine, "fixed", picks))[0] == 200
    mine = await alice.stream.model(after=mine["version"])
    theirs = await bob.stream.model(after=mine["version"] - 1)
    watching = await carol.stream.model(after=mine["version"] - 1)
    assert any("Your secret choice: Fixed Missions" in line for line in mine["you"]["private"])
    for other in (theirs, watching):
        assert all(p not in str(other) for p in picks) and other["you"]["private"] == []
    assert (await bob.act(theirs, "tactical"))[0] == 200

    # Deployment, then the first player's turn: end the Command phase, score, end the turn.
    await table.deploy()
    await table.answer_all()
    active = alice if (await table.state()).active == str(table.first.id) else bob
    model = await active.stream.model(after=-1)
    while model["version"] != await table.version():
        model = await active.stream.model(after=model["version"])
    assert (await active.act(model, "endcmd"))[0] == 200
    model = await active.stream.model(after=model["version"])
    status, menu = await active.post("menu", game=model["game"], version=model["version"], verb="score")
    if status == 200:  # something of theirs scores now
        [select] = menu["items"]
        assert (await active.act(model, "score", [select["options"][0]["value"]]))[0] == 200
        model = await active.stream.model(after=model["version"])
    assert (await active.act(model, "endturn"))[0] == 200
    model = await active.stream.model(after=model["version"])
    assert model["phase"] == "End of turn: score now"
    assert (await table.board())["embeds"][0]["footer"]["text"].endswith(f"move {model['version']}")


async def test_a_control_that_is_not_yours_is_refused_and_changes_nothing(
    table: Table, players: dict[str, Player]
) -> None:
    alice, bob, carol = players["alice"], players["bob"], players["carol"]
    model = await alice.watch()
    state = await table.state()
    loser = bob if state.sides_rolloff.winner == str(table.first.id) else alice
    assert (await loser.act(model, "attacker"))[0] == 400
    status, answer = await carol.act(model, "attacker")
    assert status == 403 and "watching" in answer["error"]
    assert await table.version() == model["version"]


async def test_a_forged_user_an_expired_session_and_another_game_are_refused(
    table: Table, players: dict[str, Player], bob: FakeUser
) -> None:
    alice = players["alice"]
    model = await alice.watch()
    state = await table.state()
    if state.sides_rolloff.winner == str(bob.id):  # Alice claims to be Bob, who may press: she is still Alice
        status, _ = await alice.act(model, "attacker", user=str(bob.id), actor=str(bob.id))
        assert status == 400 and await table.version() == model["version"]
    assert (await alice.act({**model, "game": model["game"] + 1}, "attacker"))[0] == 403
    sessions = table.h.bot.web.activity.sessions
    clock = sessions.now
    sessions.now = lambda: clock() + SESSION_SECONDS + 1
    status, answer = await alice.act(model, "attacker")
    assert status == 401 and "expired" in answer["error"]
    sessions.now = clock
    assert (await alice.act(model, "attacker"))[0] == 401  # gone for good: sign in again
    assert await table.version() == model["version"]


async def test_a_board_in_a_voice_channel_s_chat_opens_the_table_for_anyone_in_the_call(
    harness, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    voice = harness.channel("table-voice", type=VOICE)
    in_voice, in_text = Table(harness, alice, bob, channel=voice), Table(harness, alice, bob)
    await in_voice.start(seed="voice")
    assert "table" in await in_voice.board_verbs()
    opened = await harness.press(verbs(await in_voice.board())["table"], user=carol,
                                 message_id=int((await in_voice.board())["id"]))
    assert opened.response.type == LAUNCH_ACTIVITY  # the Activity, for a watcher as for a player
    await in_text.start(seed="text")
    assert "table" not in await in_text.board_verbs()


async def test_publishing_the_commands_keeps_the_activity_s_entry_point(harness) -> None:
    entry = harness.model.enable_activities()
    with pytest.raises(discord.HTTPException, match="Entry Point"):
        await harness.bot.tree.sync()  # discord.py alone would drop it: Discord refuses
    synced = await harness.bot._sync_globally()
    names = {c["name"] for c in synced}
    assert entry["name"] in names and "game" in names
    assert {c["name"] for c in harness.model.commands[None]} == names


# ---- the call: Discord's Activity instance says which channel, and who is in it ----------------------------------

async def test_a_session_needs_the_user_in_the_instance_s_call(
    table: Table, oauth: FakeOAuth, http: aiohttp.ClientSession, alice: FakeUser, dave: FakeUser, call: str
) -> None:
    await table.start()
    base = table.h.bot.web.public_url + "/activity"
    for instance in (call, "i-made-up", "../../users/@me"):  # not in it, unknown to Discord, not an instance id
        async with http.post(f"{base}/api/session", json={"code": oauth.code_for(dave.id, "dave"),
                                                          "instance": instance}) as answer:
            assert answer.status == 403 and "not in this call" in (await answer.json())["error"]
    assert "../../users/@me" not in oauth.instance_asks  # refused before it reaches a URL
    async with http.post(f"{base}/api/session", json={"code": oauth.code_for(alice.id, "alice")}) as answer:
        assert answer.status == 400  # a page that names no instance


async def test_the_instance_s_channel_is_the_one_played_whatever_the_page_names(
    harness, oauth: FakeOAuth, http: aiohttp.ClientSession, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    """Two games in two channels: a page in one call that names the other channel still gets its own call's game."""
    here, there = Table(harness, alice, bob), Table(harness, alice, bob, channel=harness.channel("elsewhere"))
    await here.start(seed="here")
    await there.start(seed="there")
    call = oauth.launch(channel_of(here), GUILD_ID, carol.id)
    carol_page = await sign_in(http, here, oauth, carol, call)
    response = await http.get(f"{carol_page.base}/api/stream",
                              params={"session": carol_page.session, "channel": str(channel_of(there))})
    carol_page.stream = Stream(response)
    assert (await carol_page.stream.model())["game"] == here.game_id
    async with http.post(f"{carol_page.base}/api/session", json={
            "code": oauth.code_for(carol.id, "carol"), "instance": call, "channel": str(channel_of(there))}) as answer:
        forged = Player(http, carol_page.base, (await answer.json())["session"])
    assert (await forged.watch())["game"] == here.game_id


async def test_a_user_who_left_the_call_is_refused_at_the_next_check(
    table: Table, players: dict[str, Player], oauth: FakeOAuth, alice: FakeUser, bob: FakeUser, call: str
) -> None:
    page = players["alice"]
    discord_api = table.h.bot.web.activity.discord
    discord_api.ttl, running = 0.2, discord_api.now  # checks come often; the answer's age stands still a moment
    discord_api.now = lambda: 0.0
    model = await page.watch()
    asked = len(oauth.instance_asks)
    assert (await page.post("menu", game=model["game"], version=model["version"], verb="choose"))[0] in (200, 400)
    assert len(oauth.instance_asks) == asked  # Discord's answer is trusted for a moment: a busy page asks once
    oauth.leave(call, alice.id)
    oauth.leave(call, bob.id)
    discord_api.now = running
    event, data = await page.stream.frame(timeout=5)
    while event == "model":
        event, data = await page.stream.frame(timeout=5)
    assert event == "gone" and "not in this call" in data["message"]  # Alice's stream ends itself
    assert (await page.act(model, "attacker"))[0] == 401  # and her session with it: rejoin and sign in again
    status, answer = await players["bob"].act(model, "attacker")  # Bob, with no stream, at his next press
    assert status == 403 and "not in this call" in answer["error"]
    assert (await players["bob"].act(model, "attacker"))[0] == 401
    assert await table.version() == model["version"]


async def test_a_private_voice_channel_s_game_opens_only_in_its_own_call(
    harness, oauth: FakeOAuth, http: aiohttp.ClientSession, alice: FakeUser, bob: FakeUser, dave: FakeUser
) -> None:
    private = harness.channel("war-room", type=VOICE)
    game = Table(harness, alice, bob, channel=private)
    await game.start(seed="private")
    theirs = oauth.launch(private.id, GUILD_ID, alice.id, bob.id)
    mine = oauth.launch(harness.default_channel.id, GUILD_ID, dave.id)  # Dave's own call, where he is
    base = harness.bot.web.public_url + "/activity"
    async with http.post(f"{base}/api/session", json={"code": oauth.code_for(dave.id, "dave"),
                                                      "instance": theirs}) as answer:
        assert answer.status == 403
    dave_page = await sign_in(http, game, oauth, dave, mine)
    response = await http.get(f"{base}/api/stream", params={"session": dave_page.session, "channel": str(private.id)})
    assert response.status == 404  # his call's channel has no game; the one he named is not his to open
    for path in ("menu", "act"):
        status, _ = await dave_page.post(path, game=game.game_id, version=1, verb="attacker")
        assert status in (403, 404)
    picture = await http.get(f"{base}/api/map.png", params={"session": dave_page.session})
    assert picture.status == 404


async def test_every_refusal_under_activity_carries_the_activity_s_policy(
    table: Table, players: dict[str, Player], http: aiohttp.ClientSession
) -> None:
    base = players["alice"].base
    refusals = [await http.get(f"{base}/api/stream", params={"session": "nope"}),
                await http.post(f"{base}/api/act", data=b"not json"),
                await http.post(f"{base}/api/menu", json={"session": players["carol"].session, "game": 1,
                                                          "version": 1, "verb": "choose"}),
                await http.get(f"{base}/api/nothing-here"),
                await http.get(f"{base}/static/missing.js")]
    for answer in refusals:
        assert answer.status >= 400
        assert answer.headers["Content-Security-Policy"] == ACTIVITY_HEADERS["Content-Security-Policy"]
        assert "frame-ancestors 'none'" not in answer.headers["Content-Security-Policy"]
    page = await http.get(f"{table.h.bot.web.public_url}/g/not-a-token")
    assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]  # the pages keep theirs
