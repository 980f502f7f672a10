"""Open challenges: `/game new` without an opponent, taken once by the first press, for a role, withdrawn,
expired at a stored time across a restart, and opened in a thread. Real bot, real discord.py paths, real database
(SQLite, and PostgreSQL for the race of takers when TEST_POSTGRES_URL is set)."""

from __future__ import annotations

import asyncio
import copy
import re
from datetime import timedelta

import pytest
from sqlalchemy import update

from bot.client import MissionBot
from bot.engine.chapter_approved.catalog import Catalog
from bot.store.community_models import ChallengeStatus, OpenChallenge
from bot.store.db import make_engine
from bot.store.models import utcnow
from tests.cogs.conftest import harness_settings
from tests.cogs.game_table import public_text, verbs
from tests.cogs.harness import Harness
from tests.cogs.test_pings import notified
from tests.discord_model import PUBLIC_THREAD, DiscordModel, FakeUser, walk_components
from tests.store.conftest import postgres_template, scratch_postgres  # noqa: F401 (fixtures)

TAKE = re.compile(r"mdo:(\d+):take")


def challenge_buttons(message: dict) -> dict[str, str]:
    """verb -> custom id of the open challenge buttons on a message."""
    return {c["custom_id"].split(":")[2]: c["custom_id"] for c in walk_components(message.get("components") or [])
            if c.get("custom_id", "").startswith("mdo:")}


async def post(harness: Harness, user: FakeUser, **options) -> dict:
    options.setdefault("size", "strike-force")
    reply = await harness.slash("game new", user=user, **options)
    assert not reply.ephemeral, reply.content
    return harness.message(reply.main.message["id"])


async def stored(harness: Harness, challenge_id: int) -> OpenChallenge:
    return await harness.bot.service.community.challenge(challenge_id)


async def press_together(harness: Harness, custom_id: str, users: list[FakeUser], message_id: int) -> list:
    """Several members press the same button at the same moment: every press is in flight before any is handled."""
    payloads = [harness.model.component(custom_id, user, message_id, None) for user in users]
    before = set(asyncio.all_tasks())
    first = len(harness.model.sent)
    for payload in payloads:
        harness.bot._connection.parse_interaction_create(copy.deepcopy(payload))
    await harness._settle(before)
    return harness.model.sent[first:]


async def test_an_open_challenge_says_what_is_offered_and_the_author_cannot_take_it(harness: Harness, alice) -> None:
    message = await post(harness, alice, clock=90, twist=True)
    text = public_text(message)
    for shown in ("Chapter Approved 2025-26", "Strike Force", "drawn at random", "90 minutes each", "Twist",
                  "Alice", "<t:"):
        assert shown in text
    assert ":R>" in text  # the expiry counts down in every reader's own time
    buttons = challenge_buttons(message)
    assert set(buttons) == {"take", "withdraw"}
    reply = await harness.press(buttons["take"], user=alice)
    assert reply.ephemeral and "your own challenge" in reply.content
    row = await stored(harness, int(buttons["take"].split(":")[1]))
    assert row.status == ChallengeStatus.OPEN and row.expires_at > utcnow() + timedelta(hours=23)


@pytest.fixture(params=["sqlite", "postgresql"])
async def any_database(request, tmp_path, postgres_template):  # noqa: F811
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    else:
        async for url in scratch_postgres(postgres_template):
            yield url


async def test_of_several_members_pressing_at_once_exactly_one_gets_the_seat(catalog: Catalog,
                                                                              any_database: str) -> None:
    async with Harness(MissionBot(harness_settings(any_database), catalog)) as harness:
        alice = harness.user("alice")
        takers = [harness.user(name) for name in ("bob", "carol", "dave", "erin")]
        message = await post(harness, alice)
        sent = await press_together(harness, challenge_buttons(message)["take"], takers, int(message["id"]))
        row = await stored(harness, int(challenge_buttons(message)["take"].split(":")[1]))
        assert row.status == ChallengeStatus.TAKEN and row.game_id is not None
        winner = next(u for u in takers if str(u.id) == row.taker_id)
        refusals = [s for s in sent if s.message is not None and s.ephemeral]
        assert len(refusals) == len(takers) - 1
        assert all("seat is taken" in s.content and f"<@{winner.id}>" in s.content for s in refusals)
        record = await harness.bot.service.get_state(game_id=row.game_id)
        assert record.setup.players == (str(alice.id), str(winner.id)) and record.setup.seed_fixed_by is None
        assert len(await harness.bot.service.repo.board_messages(row.game_id)) == 1  # one game, one board
        closed = harness.message(message["id"])
        assert closed["components"] == [] and winner.name.title() in closed["content"]


async def test_a_role_limits_who_may_take_the_seat(harness: Harness, alice) -> None:
    league = harness.role("League")
    outsider, member = harness.user("olive"), harness.user("mia", roles=(league.id,))
    message = await post(harness, alice, **{"for": league})
    assert f"<@&{league.id}>" in public_text(message)
    take = challenge_buttons(message)["take"]
    reply = await harness.press(take, user=outsider)
    assert reply.ephemeral and "League" not in reply.content and f"<@&{league.id}>" in reply.content
    assert "role" in reply.content
    assert (await stored(harness, int(take.split(":")[1]))).status == ChallengeStatus.OPEN
    await harness.press(take, user=member)
    assert (await stored(harness, int(take.split(":")[1]))).taker_id == str(member.id)


async def test_the_author_withdraws_and_the_buttons_go(harness: Harness, alice, bob) -> None:
    message = await post(harness, alice)
    buttons = challenge_buttons(message)
    reply = await harness.press(buttons["withdraw"], user=bob)
    assert reply.ephemeral and "Only Alice" in reply.content
    await harness.press(buttons["withdraw"], user=alice)
    closed = harness.message(message["id"])
    assert closed["components"] == [] and "withdrew" in closed["content"]
    assert (await stored(harness, int(buttons["take"].split(":")[1]))).status == ChallengeStatus.WITHDRAWN


async def test_expiry_is_stored_and_fires_after_a_restart(catalog: Catalog, tmp_path) -> None:
    settings = harness_settings(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    model = DiscordModel()
    alice, bob = model.add_user("alice"), model.add_user("bob")
    async with Harness(MissionBot(settings, catalog), model) as harness:
        message = await post(harness, alice, expires=2)
        challenge_id = int(challenge_buttons(message)["take"].split(":")[1])
        row = await stored(harness, challenge_id)
        assert harness.bot.desk.alarms.moment(("challenge", challenge_id)) == row.expires_at.timestamp()
        assert abs(row.expires_at - row.created_at - timedelta(hours=2)) < timedelta(seconds=5)
    # While the bot is down, the moment passes.
    engine = make_engine(settings.database_url)
    async with engine.begin() as conn:
        await conn.execute(update(OpenChallenge).values(expires_at=utcnow() - timedelta(minutes=1)))
    await engine.dispose()
    async with Harness(MissionBot(settings, catalog), model) as harness:
        take = challenge_buttons(harness.message(message["id"]))["take"]
        reply = await harness.press(take, user=bob)  # pressed before the alarm went off: refused all the same
        # The alarm may close the message while the press is handled: the refusal is the press's private answer.
        refusal = next(sent for sent in reply if sent.ephemeral)
        assert "expired" in refusal.content
        for _ in range(250):  # the alarm armed at start-up fires at once
            closed = harness.message(message["id"])
            if not closed["components"]:
                break
            await asyncio.sleep(0.02)
        assert (await stored(harness, challenge_id)).status == ChallengeStatus.EXPIRED
        assert closed["components"] == [] and "expired" in closed["content"]


async def test_taken_in_a_thread_so_one_channel_holds_many_challenges(harness: Harness, alice, bob, carol) -> None:
    first = await post(harness, alice, thread=True)
    second = await post(harness, carol, size="incursion", thread=True)
    await harness.press(challenge_buttons(first)["take"], user=bob)
    row = await stored(harness, int(challenge_buttons(first)["take"].split(":")[1]))
    record = await harness.bot.service.get_state(game_id=row.game_id)
    thread = harness.model.channels[record.channel_id]
    assert thread.type == PUBLIC_THREAD and thread.parent_id == harness.default_channel.id
    assert harness.model.thread_members[thread.id] == {alice.id, bob.id}
    in_thread = harness.messages(thread)
    assert any(m["embeds"] and "Briefing" in (m["embeds"][0].get("title") or "") or verbs(m) for m in in_thread)
    assert f"<#{thread.id}>" in harness.message(first["id"])["content"]
    assert challenge_buttons(harness.message(second["id"]))  # the other challenge is still open


async def test_taking_pings_the_author_and_starts_the_board(harness: Harness, alice, bob) -> None:
    message = await post(harness, alice)
    start = len(harness.model.sent)
    await harness.press(challenge_buttons(message)["take"], user=bob)
    await harness.bot.desk.idle()
    new = [s for s in harness.model.sent[start:] if s.message is not None and s.kind == "message"]
    author_ping = next(s for s in new if "took the seat" in s.content)
    assert author_ping.embeds  # the briefing comes with it
    # Alice hears it once: from the briefing, or from the board when it calls her (she won the roll-off).
    assert [who for s in new if (who := notified(s))] == [{alice.id}]
    row = await stored(harness, int(challenge_buttons(message)["take"].split(":")[1]))
    boards = await harness.bot.service.repo.board_messages(row.game_id)
    assert len(boards) == 1 and "attacker" in verbs(harness.message(boards[0].message_id))


@pytest.mark.parametrize(("options", "says"), [
    ({"expires": 0}, "hours from 1 to 168"),
    ({"expires": 24 * 365}, "hours from 1 to 168"),
    ({"size": None}, "Pick a size"),
    ({"pack": "gt-2020", "twist": True}, "Twists"),
])
async def test_bad_options_are_refused_privately_and_post_nothing(harness: Harness, alice, options, says) -> None:
    options = {"size": "strike-force", **options}
    reply = await harness.slash("game new", user=alice, **{k: v for k, v in options.items() if v is not None})
    assert reply.ephemeral and says in reply.content
    assert await harness.bot.service.community.open_challenges() == []


async def test_one_open_challenge_per_author_and_none_beside_a_game(harness: Harness, alice, bob, carol) -> None:
    await post(harness, alice)
    reply = await harness.slash("game new", user=alice, size="incursion")
    assert reply.ephemeral and "already have an open challenge" in reply.content
    await harness.slash("game new", user=bob, opponent=carol, size="strike-force")
    reply = await harness.slash("game new", user=carol, size="strike-force")
    assert reply.ephemeral and "game in progress" in reply.content
