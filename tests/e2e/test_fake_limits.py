"""The fake Discord's rate limits and thread limits, as a real discord.py client and raw HTTP requests meet them."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest
import yarl

from tests.discord_model import CHANNEL_ID, GUILD_ID, PUBLIC_THREAD
from tests.e2e.discord_limits import GLOBAL, RateLimits, bucket_hash
from tests.e2e.fake_discord import API, FakeDiscord

SCALE = 0.1  # every window ten times shorter: a message bucket's 5 s window lasts 0.5 s
MESSAGE_WINDOW = 5.0 * SCALE


@contextlib.asynccontextmanager
async def fake(monkeypatch: pytest.MonkeyPatch, **options: object) -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(lifetime=60, limits=True, **options) as server:
        monkeypatch.setattr(discord.http.Route, "BASE", server.api_base)
        monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(server.gateway_url))
        yield server


@pytest.fixture
async def limited(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    async with fake(monkeypatch, time_scale=SCALE) as server:
        yield server


@pytest.fixture
async def client(limited: FakeDiscord) -> AsyncIterator[discord.Client]:
    """A discord.Client logged in over REST (no gateway)."""
    bot = discord.Client(intents=discord.Intents.default())
    await bot.login(limited.token)
    yield bot
    await bot.close()


@pytest.fixture
async def raw(limited: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {limited.token}"}) as session:
        yield session


async def start_thread(client: discord.Client, name: str = "table 1") -> int:
    data = await client.http.start_thread_without_message(CHANNEL_ID, name=name, auto_archive_duration=1440,
                                                          type=PUBLIC_THREAD)
    return int(data["id"])


# --- the buckets, on a clock the test turns ---------------------------------------------------------------------

def test_a_bucket_refuses_past_its_limit_until_its_window_closes() -> None:
    now = [100.0]
    limits = RateLimits(clock=lambda: now[0], wall=lambda: 1_000.0)
    send = ("POST", "/channels/{channel}/messages", {"channel": "1"})
    answers = [limits.check(*send) for _ in range(6)]
    assert [a.headers["X-RateLimit-Remaining"] for a in answers[:5]] == ["4", "3", "2", "1", "0"]
    assert answers[0].headers["X-RateLimit-Reset-After"] == "5.000"
    assert answers[0].headers["X-RateLimit-Reset"] == "1005.000"
    assert answers[0].headers["X-RateLimit-Bucket"] == bucket_hash("message-create")
    assert answers[5].refused == "route" and answers[5].body()["global"] is False
    now[0] += 2.0
    refused = limits.check(*send)
    assert refused.refused == "route" and refused.retry_after == 3.0  # the window opened at 100 ends at 105
    assert refused.headers["Retry-After"] == "3" and refused.headers["X-RateLimit-Scope"] == "user"
    now[0] += 3.0
    assert limits.check(*send).refused is None  # a new window
    assert limits.check("POST", "/channels/{channel}/messages", {"channel": "2"}).headers["X-RateLimit-Remaining"] == "4"


def test_the_global_limit_spares_webhooks_and_interaction_callbacks() -> None:
    limits = RateLimits(clock=lambda: 0.0)
    answers = [limits.check("GET", "/channels/{channel}", {"channel": str(n)}) for n in range(GLOBAL[0] + 1)]
    assert [a.refused for a in answers].count(None) == GLOBAL[0]
    assert answers[-1].refused == "global" and answers[-1].headers["X-RateLimit-Global"] == "true"
    assert limits.check("POST", "/webhooks/{app}/{token}", {"app": "1", "token": "t"}).refused is None
    assert limits.check("POST", "/interactions/{id}/{token}/callback", {"id": "1", "token": "t"}) is None


def test_thread_creation_shares_one_bucket_per_parent() -> None:
    limits = RateLimits(clock=lambda: 0.0)
    for _ in range(5):
        assert limits.check("POST", "/channels/{channel}/threads", {"channel": "1"}).refused is None
    from_message = limits.check("POST", "/channels/{channel}/messages/{message}/threads", {"channel": "1", "message": "9"})
    assert from_message.refused == "route"


# --- discord.py against the limits -------------------------------------------------------------------------------

async def test_discord_py_waits_out_a_channel_s_bucket_and_is_never_refused(limited: FakeDiscord,
                                                                            client: discord.Client) -> None:
    channel = client.get_partial_messageable(CHANNEL_ID)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await asyncio.gather(*(channel.send(f"message {n}") for n in range(12)))
    elapsed = loop.time() - started
    assert limited.refused == []
    assert len(limited.model.channel_messages(CHANNEL_ID)) == 12
    # 12 messages at 5 a window: three windows, so the last went out at least two windows after the first.
    sends = [t for t, method, path in limited.request_times if method == "POST" and path.endswith("/messages")]
    assert sends[-1] - sends[0] >= 2 * MESSAGE_WINDOW
    assert elapsed >= 2 * MESSAGE_WINDOW


async def test_a_request_past_its_bucket_gets_discord_s_429_and_changes_nothing(
        limited: FakeDiscord, raw: aiohttp.ClientSession) -> None:
    url = f"{limited.api_base}/channels/{CHANNEL_ID}/messages"
    for n in range(5):
        async with raw.post(url, json={"content": f"ok {n}"}) as answer:
            assert answer.status == 200
            assert answer.headers["X-RateLimit-Limit"] == "5"
            assert answer.headers["X-RateLimit-Remaining"] == str(4 - n)
    async with raw.post(url, json={"content": "one too many"}) as answer:
        assert answer.status == 429
        body = await answer.json()
        headers = answer.headers
    assert body["message"] == "You are being rate limited." and body["code"] == 0 and body["global"] is False
    assert 0 < body["retry_after"] <= MESSAGE_WINDOW
    assert headers["Via"] == "1.1 google" and headers["X-RateLimit-Scope"] == "user"
    assert headers["X-RateLimit-Remaining"] == "0" and float(headers["X-RateLimit-Reset-After"]) > 0
    assert headers["X-RateLimit-Bucket"] == bucket_hash("message-create") and "Retry-After" in headers
    assert float(headers["X-RateLimit-Reset"]) > 1e9  # epoch seconds
    assert len(limited.model.channel_messages(CHANNEL_ID)) == 5
    assert limited.refused == [("POST", f"{API}/channels/{CHANNEL_ID}/messages", "route")]


async def test_two_channels_do_not_share_a_bucket(limited: FakeDiscord, raw: aiohttp.ClientSession) -> None:
    other = limited.model.add_channel("other").id
    for channel in (CHANNEL_ID, other):
        for n in range(5):
            async with raw.post(f"{limited.api_base}/channels/{channel}/messages", json={"content": str(n)}) as answer:
                assert answer.status == 200
    assert limited.refused == []


async def test_the_51st_request_of_a_second_is_refused_globally_but_not_interactions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    async with fake(monkeypatch) as server, aiohttp.ClientSession() as session:  # real 1 s window
        model = server.model
        model.overwrite_commands(GUILD_ID, [{"name": "ping", "description": "Ping", "type": 1}])
        interaction = model.slash("ping", model.add_user("alice"), None, {})
        bot = {"Authorization": f"Bot {server.token}"}
        for _ in range(GLOBAL[0]):  # the /users/@me bucket holds exactly 50
            async with session.get(f"{server.api_base}/users/@me", headers=bot) as answer:
                assert answer.status == 200
        async with session.get(f"{server.api_base}/channels/{CHANNEL_ID}", headers=bot) as answer:
            assert answer.status == 429
            assert (await answer.json())["global"] is True
            assert answer.headers["X-RateLimit-Global"] == "true" and answer.headers["X-RateLimit-Scope"] == "global"
        callback = f"{server.api_base}/interactions/{interaction['id']}/{interaction['token']}/callback"
        async with session.post(callback, json={"type": 4, "data": {"content": "pong"}}) as answer:
            assert answer.status == 200 and "X-RateLimit-Limit" not in answer.headers
        async with session.post(f"{server.api_base}/webhooks/{model.app_id}/{interaction['token']}",
                                json={"content": "and more"}) as answer:
            assert answer.status == 200
        assert server.refused == [("GET", f"{API}/channels/{CHANNEL_ID}", "global")]


# --- threads -----------------------------------------------------------------------------------------------------

async def test_a_server_at_its_active_thread_limit_refuses_a_new_thread_and_an_unarchive(
        limited: FakeDiscord, client: discord.Client) -> None:
    model = limited.model
    threads = model.fill_threads(GUILD_ID, CHANNEL_ID, model.max_active_threads)
    with pytest.raises(discord.HTTPException) as refused:
        await start_thread(client, "one too many")
    assert refused.value.code == 160006
    assert len(model.active_threads(GUILD_ID)["threads"]) == 1000

    old = threads[0].id
    await client.http.edit_channel(old, archived=True)
    new = await start_thread(client, "in its place")  # archiving one made room
    with pytest.raises(discord.HTTPException) as refused:
        await client.http.edit_channel(old, archived=False)
    assert refused.value.code == 160006
    with pytest.raises(discord.HTTPException) as refused:
        await client.get_partial_messageable(old).send("back to it")  # a message would unarchive it
    assert refused.value.code == 160006
    assert old in model.archived and model.channel_messages(old) == []

    await client.http.edit_channel(new, archived=True)
    await client.get_partial_messageable(old).send("back to it")
    assert old not in model.archived


async def test_a_mention_in_a_thread_adds_the_user_unless_the_message_may_not_ping(
        limited: FakeDiscord, client: discord.Client) -> None:
    model = limited.model
    alice, bob, carol, dave = (model.add_user(name) for name in ("alice", "bob", "carol", "dave"))
    thread_id = await start_thread(client)
    thread = client.get_partial_messageable(thread_id)
    await thread.send(f"{alice.mention} to play")
    await thread.send(f"<@!{bob.id}> quietly", allowed_mentions=discord.AllowedMentions.none())
    await thread.send(f"{carol.mention} and {dave.mention}",
                      allowed_mentions=discord.AllowedMentions(users=[discord.Object(carol.id)]))
    assert model.thread_members[thread_id] == {alice.id, carol.id}

    await client.http.add_user_to_thread(thread_id, bob.id)
    assert bob.id in model.thread_members[thread_id]
    await client.http.edit_channel(thread_id, archived=True)
    with pytest.raises(discord.HTTPException) as refused:
        await client.http.add_user_to_thread(thread_id, dave.id)
    assert refused.value.code == 50083 and dave.id not in model.thread_members[thread_id]


async def test_a_guild_s_active_threads_are_the_ones_not_archived(limited: FakeDiscord) -> None:
    model = limited.model
    kept, archived = model.fill_threads(GUILD_ID, CHANNEL_ID, 2)
    model.archived.add(archived.id)
    elsewhere = model.add_guild("Other server")
    model.fill_threads(elsewhere, model.add_channel("lobby", elsewhere).id, 1)

    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.1)
    await client.login(limited.token)
    connection = asyncio.create_task(client.connect(reconnect=False))
    try:
        await asyncio.wait_for(client.wait_until_ready(), 10)
        threads = await client.get_guild(GUILD_ID).active_threads()
    finally:
        await client.close()
        await asyncio.wait_for(connection, 10)
    assert [(t.id, t.name, t.archived, t.owner_id, t.parent_id) for t in threads] == [
        (kept.id, kept.name, False, model.app_id, CHANNEL_ID)]
