"""/mission roll through the interaction harness: the embed, the mentions, the Strategy Roll winner's menu."""

from __future__ import annotations

from bot.decks import fourth_edition
from bot.engine.fourth_edition.generator import roll_mission
from bot.engine.rng import stream_of
from tests.cogs.harness import Harness
from tests.discord_model import FakeUser


def strategy_seed() -> str:
    return next(s for s in (f"pick-{n}" for n in range(5000)) if stream_of(s, "4e:mission").randint(1, 6) == 6)


async def test_a_rolled_mission_shows_every_roll_and_its_seed(harness: Harness, alice: FakeUser, bob: FakeUser) -> None:
    reply = await harness.slash("mission roll", user=alice, pack="4th-edition", opponent=bob, seed="club-night")
    rolled = roll_mission(fourth_edition(), "club-night", (str(alice.id), str(bob.id)))
    mission, level = fourth_edition().mission(rolled.mission), fourth_edition().level(rolled.level)
    embed = reply.embed
    assert embed["title"] == f"4th edition: {mission.name} · {level.name}"
    assert f"D6 = **{rolled.mission_roll}** → **{mission.name}**" in embed["description"]
    assert f"D3 = **{rolled.level_roll}** → **{level.name}**" in embed["description"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Objective"] == mission.objective
    assert f"<@{rolled.first_turn_roll.winner}> may choose to go first or second" in fields["Rolls"]
    assert "Seed club-night" in embed["footer"]["text"]
    assert not reply.ephemeral and reply.custom_ids == []
    allowed = reply.main.body["data"]["allowed_mentions"]
    assert sorted(map(int, allowed["users"])) == sorted([alice.id, bob.id])
    again = await harness.slash("mission roll", user=alice, pack="4th-edition", opponent=bob, seed="club-night")
    assert again.embed == embed  # the seed gives every roll again


async def test_agreed_mission_and_level(harness: Harness, alice: FakeUser, bob: FakeUser) -> None:
    reply = await harness.slash("mission roll", user=alice, pack="4th-edition", opponent=bob,
                                mission="secure-and-control", level="omega")
    assert reply.embed["title"] == "4th edition: Secure & Control · Omega"
    assert "Mission: **Secure & Control** (chosen)." in reply.embed["description"]
    fields = {f["name"]: f["value"] for f in reply.embed["fields"]}
    assert "tokens; coin flip:" in fields["Rolls"] and "Dusk & Dawn: D6 =" in fields["Rolls"]
    assert "Random Game Length: up to 3 more" in fields["Game length"]
    assert fields["Random Game Length"].startswith("At the end of the sixth Battle Round roll 1D6.")


async def test_the_strategy_roll_winner_picks_the_mission(harness: Harness, alice: FakeUser, bob: FakeUser) -> None:
    seed = strategy_seed()
    reply = await harness.slash("mission roll", user=alice, pack="4th-edition", opponent=bob, seed=seed,
                                **{"my-strategy": 3})
    rolled = roll_mission(fourth_edition(), seed, (str(alice.id), str(bob.id)), strategy_ratings=(3, 1))
    winner, loser = (alice, bob) if rolled.chooser == str(alice.id) else (bob, alice)
    assert "chooses the mission below" in reply.embed["description"]
    [menu] = reply.custom_ids
    refused = await harness.select(menu, ["recon"], user=loser)
    assert refused.ephemeral and "Only the winner of the Strategy Roll" in refused.content
    picked = await harness.select(menu, ["take-and-hold"], user=winner)
    message = harness.message(reply.main.message["id"])
    assert message["embeds"][0]["title"].startswith("4th edition: Take & Hold")
    assert f"<@{winner.id}> chose **Take & Hold**" in message["embeds"][0]["description"]
    assert message["components"] == [] and picked.response is not None


async def test_bad_options_are_refused_privately(harness: Harness, alice: FakeUser, bob: FakeUser) -> None:
    refused = await harness.slash("mission roll", user=alice, pack="4th-edition", opponent=alice)
    assert refused.ephemeral and "pick the player you face" in refused.content
    refused = await harness.slash("mission roll", user=alice, pack="4th-edition", opponent=bob, seed="no spaces")
    assert refused.ephemeral and "A seed is 1 to 32 letters" in refused.content
