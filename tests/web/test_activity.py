"""The Activity's API (bot/web/activity.py), as its page calls it: players sign in through Discord (the fake OAuth2),
play through the same service and rules while the Discord board follows, and see only their own secrets; whatever
the page claims, only Discord's answer says who acts."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest

from bot.web.activity import SESSION_SECONDS
from tests.cogs.game_table import Table, verbs
from tests.discord_model import LAUNCH_ACTIVITY, VOICE, FakeUser
from tests.web.conftest import Stream
from tests.web.fake_oauth import FakeOAuth


class Player:
    """One user's Activity page: signed in, reading its stream, pressing its controls."""

    def __init__(self, http: aiohttp.ClientSession, base: str, session: str, channel: int) -> None:
        self.http, self.base, self.session, self.channel = http, base, session, channel
        self.stream: Stream | None = None

    async def watch(self) -> dict[str, Any]:
        response = await self.http.get(f"{self.base}/api/stream", params={"session": self.session,
                                                                          "channel": str(self.channel)})
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


async def sign_in(http: aiohttp.ClientSession, table: Table, oauth: FakeOAuth, user: FakeUser) -> Player:
    base = table.h.bot.web.public_url + "/activity"
    code = oauth.code_for(user.id, user.name)
    async with http.post(f"{base}/api/session", json={"code": code, "channel": str(channel_of(table))}) as answer:
        assert answer.status == 200, await answer.text()
        signed = await answer.json()
    assert signed["user"]["id"] == str(user.id)
    return Player(http, base, signed["session"], channel_of(table))


@pytest.fixture
async def players(table: Table, alice: FakeUser, bob: FakeUser, carol: FakeUser, oauth: FakeOAuth,
                  http: aiohttp.ClientSession) -> dict[str, Player]:
    await table.start(seed="activity")
    return {u.name: await sign_in(http, table, oauth, u) for u in (alice, bob, carol)}


async def test_sign_in_trusts_discord_alone(table: Table, oauth: FakeOAuth, http: aiohttp.ClientSession,
                                           alice: FakeUser) -> None:
    await table.start()
    base = table.h.bot.web.public_url + "/activity"
    async with http.post(f"{base}/api/session", json={"code": "made-up", "channel": str(channel_of(table)),
                                                      "user": str(alice.id)}) as answer:
        assert answer.status == 401  # a code Discord never gave: no session, whatever the page says
    code = oauth.code_for(alice.id, "alice")
    assert (await sign_in(http, table, oauth, alice)).session
    async with http.post(f"{base}/api/session", json={"code": code, "channel": str(channel_of(table))}) as answer:
        assert answer.status == 200  # this code was handed out before: still good once
    async with http.post(f"{base}/api/session", json={"code": code, "channel": str(channel_of(table))}) as answer:
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
    assert await winner.act(model, "attacker") == (200, {"ok": True, "version": model["version"] + 1})
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
