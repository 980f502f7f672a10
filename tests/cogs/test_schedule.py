"""Games on a schedule: /settings timezone, `when:` read in the player's own zone and shown as Discord timestamps,
reminders to exactly both players that are stored and fire after a restart, and the refusals that change nothing."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import update

from bot.client import MissionBot
from bot.engine.chapter_approved.catalog import Catalog
from bot.store.community_models import Reminder
from bot.store.db import make_engine
from bot.store.models import utcnow
from bot.plumbing.times import parse_when
from tests.cogs.conftest import harness_settings
from tests.cogs.game_table import Table
from tests.cogs.harness import Harness
from tests.cogs.test_open_challenges import challenge_buttons, post, stored
from tests.cogs.test_pings import notified
from tests.discord_model import DiscordModel

BERLIN = ZoneInfo("Europe/Berlin")


def tomorrow_at(hour: int, minute: int, zone: ZoneInfo) -> datetime:
    day = datetime.now(zone).date() + timedelta(days=1)
    return datetime.combine(day, time(hour, minute), zone).astimezone(UTC)


async def test_a_time_zone_is_set_once_and_reads_typed_times(harness: Harness, alice, bob) -> None:
    reply = await harness.slash("settings timezone", user=alice)
    assert reply.ephemeral and "UTC" in reply.content  # not set yet: said plainly
    choices = await harness.autocomplete("settings timezone", "zone", "berl", user=alice)
    assert [c["value"] for c in choices][:1] == ["Europe/Berlin"]
    reply = await harness.slash("settings timezone", user=alice, zone="europe/berlin")
    assert reply.ephemeral and "Europe/Berlin" in reply.content
    assert await harness.bot.service.community.time_zone(str(alice.id)) == "Europe/Berlin"
    table = Table(harness, alice, bob)
    reply = await table.challenge_only(when="tomorrow 19:30")
    moment = int(tomorrow_at(19, 30, BERLIN).timestamp())
    assert f"<t:{moment}:F>" in reply.content and f"<t:{moment}:R>" in reply.content
    assert await harness.bot.service.community.starts_at(table.game_id) == tomorrow_at(19, 30, BERLIN)


@pytest.mark.parametrize(("command", "options", "says"), [
    ("settings timezone", {"zone": "Mars/Olympus"}, "no time zone"),
    ("game new", {"size": "strike-force", "when": "yesterday 10:00"}, "has passed"),
    ("game new", {"size": "strike-force", "when": "when the moon is blue"}, "cannot read"),
    ("game new", {"size": "strike-force", "when": "in 400 days"}, "at most 90 days"),
])
async def test_bad_times_are_refused_privately_with_examples(harness: Harness, alice, bob, command, options,
                                                             says) -> None:
    if command == "game new":
        options = {**options, "opponent": bob}
    reply = await harness.slash(command, user=alice, **options)
    assert reply.ephemeral and says in reply.content
    if "when" in options and says != "at most 90 days":
        assert "tonight 20:00" in reply.content  # what would be understood
    assert await harness.bot.service.community.time_zone(str(alice.id)) is None
    assert await harness.bot.service.repo.get_active_game(harness.default_channel.id) is None


def test_times_are_read_in_the_zone_given() -> None:
    now = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
    assert parse_when("tonight 20:00", "Europe/Berlin", now) == datetime(2026, 11, 25, 19, 0, tzinfo=UTC)
    assert parse_when("tonight 20:00", "America/New_York", now) == datetime(2026, 11, 26, 1, 0, tzinfo=UTC)
    assert parse_when("in 2 hours", "Asia/Tokyo", now) == datetime(2026, 11, 25, 14, 0, tzinfo=UTC)
    assert parse_when("2026-12-05 14:00", "UTC", now) == datetime(2026, 12, 5, 14, 0, tzinfo=UTC)


async def test_reminders_reach_exactly_both_players_after_a_restart(catalog: Catalog, tmp_path) -> None:
    settings = harness_settings(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    model = DiscordModel()
    alice, bob, carol = model.add_user("alice"), model.add_user("bob"), model.add_user("carol")
    async with Harness(MissionBot(settings, catalog), model) as harness:
        table = Table(harness, alice, bob)
        await table.challenge_only(when="in 3 hours")
        starts = await harness.bot.service.community.starts_at(table.game_id)
        rows = await harness.bot.service.community.pending_reminders()
        assert [(r.kind, r.starts_at - r.due_at) for r in rows] == [("soon", timedelta(minutes=15)),
                                                                     ("start", timedelta(0))]
        assert all(r.starts_at == starts for r in rows)
    engine = make_engine(settings.database_url)  # the bot is down while the moments pass
    async with engine.begin() as conn:
        await conn.execute(update(Reminder).values(due_at=utcnow() - timedelta(seconds=1)))
    await engine.dispose()
    async with Harness(MissionBot(settings, catalog), model) as harness:
        start = len(harness.model.sent)
        for _ in range(200):
            if not await harness.bot.service.community.pending_reminders():
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.05)
        sent = [s for s in harness.model.sent[start:] if s.message is not None and "⏰" in s.content]
        assert len(sent) == 2
        assert all(notified(s) == {alice.id, bob.id} for s in sent)  # exactly both, not carol
        assert "starts" in sent[0].content and "Accept the game" in sent[1].content
        assert carol.id not in {int(x) for s in sent for x in s.body.get("allowed_mentions", {}).get("users", [])}


async def test_a_scheduled_open_challenge_expires_at_its_time_and_its_game_is_reminded(harness: Harness, alice,
                                                                                       bob) -> None:
    message = await post(harness, alice, when="in 2 hours")
    challenge_id = int(challenge_buttons(message)["take"].split(":")[1])
    row = await stored(harness, challenge_id)
    assert row.starts_at == row.expires_at
    assert "Starts:" in message["embeds"][0]["description"]
    reply = await harness.slash("game new", user=alice, size="incursion", when="in 2 hours", expires=1,
                                thread=True)
    assert reply.ephemeral and "expire before the game starts" in reply.content
    await harness.press(challenge_buttons(message)["take"], user=bob)
    row = await stored(harness, challenge_id)
    assert await harness.bot.service.community.starts_at(row.game_id) == row.starts_at
    assert len(await harness.bot.service.community.pending_reminders()) == 2
