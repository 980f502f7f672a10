"""/stats faction and a player's armies, from games played through the bot with their armies set."""

from __future__ import annotations

from PIL import Image

from tests.cogs.game_table import Table
from tests.cogs.harness import Harness
from tests.cogs.test_community_memory import picture


async def play(harness: Harness, first, second, armies: tuple[str, str], *, winner) -> None:
    """A game in a fresh channel, the challenger's army named in /game new and the taker's set on the board; the
    loser concedes in the battle."""
    table = Table(harness, first, second, channel=harness.channel(f"table-{len(harness.model.channels)}"))
    await table.start(seed=None, faction=armies[0])
    await table.slash("army set", second, faction=armies[1])
    await table.to_battle()
    await table.slash("game concede", table.other(winner))


async def test_each_faction_is_counted_mirrors_left_out(harness: Harness, alice, bob, carol) -> None:
    await play(harness, alice, bob, ("Space Wolves", "Necrons"), winner=alice)
    await play(harness, bob, alice, ("Necrons", "Space Wolves"), winner=alice)
    await play(harness, alice, carol, ("Space Wolves", "Space Wolves"), winner=carol)  # a mirror: not counted
    await play(harness, carol, bob, ("Orks", "Necrons"), winner=bob)
    reply = await harness.slash("stats faction", user=alice)
    assert reply.ephemeral
    lines = reply.content.splitlines()
    assert lines[1:] == ["Necrons: 3 games, 1-2-0 · 33%", "Space Wolves: 2 games, 2-0-0 · 100%",
                         "Orks: 1 games, 0-1-0 · 0%"]
    image = picture(harness, reply)
    assert isinstance(image, Image.Image) and image.width == 800
    mine = await harness.slash("stats player", user=alice)
    assert "Armies: Space Wolves 2-1-0" in mine.content
    refused = await harness.slash("stats faction", user=alice, scope="event")
    assert refused.ephemeral and "no tournament" in refused.content


async def test_no_armies_no_faction_stats(harness: Harness, alice) -> None:
    refused = await harness.slash("stats faction", user=alice)
    assert refused.ephemeral and "No finished games with armies on this server yet." in refused.content
