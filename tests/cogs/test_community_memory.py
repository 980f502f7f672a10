"""Community memory through the fake Discord, from games played through the bot (never rows inserted by hand):
/game history with paging and privacy, /stats pictures and CSV, and the opt-in ladder (the boundary of
/ladder start, void, seasons, recompute equal to the games counted one by one)."""

from __future__ import annotations

import csv
import io

import discord
import pytest
from PIL import Image

from bot.engine.ladder import recompute
from bot.services.ladders import counted
from bot.ui import history_view
from tests.cogs.game_table import Table
from tests.cogs.harness import Harness
from tests.discord_model import MEMBER_PERMISSIONS

ADMIN = MEMBER_PERMISSIONS | discord.Permissions(manage_guild=True).value


async def play(harness: Harness, first, second, *, winner=None, abandon: bool = False, **options) -> int:
    """A game played to its end in a fresh channel: `winner` wins by the other's concession; `abandon` ends it with
    no result; neither: the first concedes. Its game id."""
    table = Table(harness, first, second, channel=harness.channel(f"table-{len(harness.model.channels)}"))
    await table.start(seed=None, **options)
    if abandon:
        moderator = harness.user("mod", permissions=MEMBER_PERMISSIONS | discord.Permissions(
            manage_channels=True).value)
        await table.slash("game end", moderator)
        return table.game_id
    await table.to_battle()
    loser = table.other(winner) if winner else first
    await table.slash("game concede", loser)
    return table.game_id


def picture(harness: Harness, reply) -> Image.Image:
    attachment = reply.main.message["attachments"][0]
    image = Image.open(io.BytesIO(harness.model.files[int(attachment["id"])]))
    image.load()
    return image


async def test_history_pages_newest_first_with_how_each_game_ended(harness: Harness, alice, bob, carol,
                                                                   monkeypatch) -> None:
    monkeypatch.setattr(history_view, "PAGE", 2)
    first = await play(harness, alice, bob, winner=alice)
    second = await play(harness, alice, carol, winner=carol, size="incursion")
    third = await play(harness, carol, alice, abandon=True)
    reply = await harness.slash("game history", user=alice)
    assert reply.ephemeral
    lines = reply.embed["description"].splitlines()
    assert len(lines) == 2 and "abandoned" in lines[0] and "Carol" in lines[0]
    assert "**loss** (concession)" in lines[1] and "Incursion" in lines[1] and "/channels/" in lines[1]
    assert "Chapter Approved 2025-26 · Incursion" in lines[1]  # the pack, as its title
    assert "of 3" in reply.embed["footer"]["text"]
    older = next(c["custom_id"] for c in reply.components[0]["components"] if c["label"] == "Older")
    page = await harness.press(older, user=alice)
    assert "**win** (concession)" in page.embed["description"] and "Bob" in page.embed["description"]
    summaries = {g: await harness.bot.service.history.summary(g) for g in (first, second, third)}
    assert summaries[third].reason == "abandoned" and summaries[first].winner == str(alice.id)
    card = harness.message(summaries[first].result_message_id)
    assert card["embeds"][0]["title"].startswith("Result")  # the link leads to the game's result card


async def test_history_refuses_a_player_with_no_games_privately(harness: Harness, alice, bob) -> None:
    reply = await harness.slash("game history", user=alice, player=bob)
    assert reply.ephemeral and "no finished games" in reply.content
    reply = await harness.slash("game history", user=alice, pack="no-such-pack")
    assert reply.ephemeral and "is not a pack" in reply.content


async def test_stats_are_pictures_with_a_summary_and_rows_as_csv(harness: Harness, alice, bob, carol) -> None:
    await play(harness, alice, bob, winner=alice)
    await play(harness, bob, alice, winner=alice)
    await play(harness, alice, carol, winner=carol)
    reply = await harness.slash("stats player", user=alice)
    assert reply.ephemeral and "3 games, 2-1-0" in reply.content
    assert "By pack: Chapter Approved 2025-26 2-1-0" in reply.content  # the pack by its title, not its id
    image = picture(harness, reply)
    assert image.format == "PNG" and len(image.convert("L").getcolors(1 << 16)) > 10  # drawn, not blank
    reply = await harness.slash("stats server", user=bob, public=True)
    assert not reply.ephemeral and "3 finished games" in reply.content
    assert "first turn" in reply.content and picture(harness, reply).width > 400
    reply = await harness.slash("stats export", user=alice)
    attachment = reply.main.message["attachments"][0]
    rows = list(csv.DictReader(io.StringIO(harness.model.files[int(attachment["id"])].decode())))
    assert len(rows) == 3 and {r["reason"] for r in rows} == {"concession"}
    reply = await harness.slash("stats player", user=alice, player=harness.user("dora"))
    assert reply.ephemeral and "no finished games" in reply.content


async def test_the_ladder_counts_only_games_after_it_starts(harness: Harness, alice, bob, carol) -> None:
    admin = harness.user("admin", permissions=ADMIN)
    reply = await harness.slash("ladder standings", user=alice)
    assert reply.ephemeral and "no ladder" in reply.content
    before = await play(harness, alice, bob, winner=alice)  # played before the ladder: never counts
    reply = await harness.slash("ladder start", user=alice)
    assert reply.ephemeral and "Manage Server" in reply.content
    await harness.slash("ladder start", user=admin, name="Winter League")
    reply = await harness.slash("ladder me", user=alice)
    assert reply.ephemeral and "no counted game" in reply.content
    games = [await play(harness, bob, alice, winner=bob), await play(harness, alice, carol, winner=alice),
             await play(harness, carol, bob, abandon=True)]
    reply = await harness.slash("ladder standings", user=admin)
    assert not reply.ephemeral  # an admin posts it for everyone
    text = reply.embed["description"]
    assert text.count("\n") == 2 and "Winter League" in reply.embed["title"]
    assert "~" in text  # new players are provisional
    reply = await harness.slash("ladder me", user=alice)
    assert reply.ephemeral and "2 games, 1-1-0" in reply.content and f"game {games[1]}" in reply.content
    reply = await harness.slash("ladder void", user=admin, game=before)
    assert reply.ephemeral and "does not count" in reply.content
    reply = await harness.slash("ladder void", user=admin, game=games[2])
    assert reply.ephemeral and "does not count" in reply.content  # abandoned games never count


async def test_void_and_recompute_give_the_table_as_if_the_game_never_counted(harness: Harness, alice, bob,
                                                                              carol) -> None:
    admin = harness.user("admin", permissions=ADMIN)
    await harness.slash("ladder start", user=admin)
    games = [await play(harness, alice, bob, winner=alice), await play(harness, bob, carol, winner=carol),
             await play(harness, carol, alice, winner=alice), await play(harness, alice, bob, winner=bob)]
    ladders = harness.bot.service.ladders
    ladder = await ladders.ladder(harness.guild.id)
    players = (str(alice.id), str(bob.id), str(carol.id))
    incremental = await ladders.repo.standings_of(ladder.id, players)
    assert incremental == await ladders.recompute(ladder)  # the games counted one by one = the ordered history
    await harness.slash("ladder void", user=admin, game=games[1])
    voided = await ladders.repo.standings_of(ladder.id, players)
    history = harness.bot.service.history
    kept = [counted(await history.summary(g)) for g in games if g != games[1]]
    expected = recompute(kept)
    assert voided == expected and voided[str(carol.id)].games == 1
    reply = await harness.slash("ladder void", user=admin, game=games[1])
    assert reply.ephemeral and "voided already" in reply.content


async def test_a_new_season_archives_the_table_and_starts_afresh(harness: Harness, alice, bob) -> None:
    admin = harness.user("admin", permissions=ADMIN)
    await harness.slash("ladder start", user=admin)
    await play(harness, alice, bob, winner=alice)
    old = await harness.bot.service.ladders.ladder(harness.guild.id)
    reply = await harness.slash("ladder season new", user=admin)
    assert "season 2" in reply.content
    new = await harness.bot.service.ladders.ladder(harness.guild.id)
    assert new.season == 2 and (await harness.bot.service.ladders.repo.ladder(old.id)).archived_at is not None
    assert await harness.bot.service.ladders.repo.page(new.id, 0, 10) == ([], 0)
    assert (await harness.bot.service.ladders.repo.page(old.id, 0, 10))[1] == 2  # the archive stays


@pytest.mark.parametrize("packs", ["gt-2020", "nope"])
async def test_a_ladder_of_some_packs(harness: Harness, alice, bob, packs: str) -> None:
    admin = harness.user("admin", permissions=ADMIN)
    reply = await harness.slash("ladder start", user=admin, packs=packs)
    if packs == "nope":
        assert reply.ephemeral and "is not a pack" in reply.content
        return
    await play(harness, alice, bob, winner=alice)  # a Chapter Approved game: not in this ladder's packs
    ladder = await harness.bot.service.ladders.ladder(harness.guild.id)
    assert await harness.bot.service.ladders.repo.page(ladder.id, 0, 10) == ([], 0)
