"""/mission roll through the interaction harness: the embed, the mentions, the Strategy Roll winner's menu."""

from __future__ import annotations

import asyncio

from bot.decks import fourth_edition, grand_tournament
from bot.engine.fourth_edition.generator import roll_mission
from bot.engine.gt2020.missions import roll_gt_mission
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
    assert f"<@{rolled.set_up_roll.winner}> chooses" in fields["Rolls"]
    assert "first turn" not in fields["Rolls"].split("Once both armies")[0]  # not known while deploying
    assert "Seed club-night" in embed["footer"]["text"]
    assert not reply.ephemeral and reply.custom_ids == [f"m4d:{rolled.level}:{alice.id}:{bob.id}"]
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
    assert "tokens; coin flip:" in fields["Rolls"]
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
    assert [c["custom_id"] for row in message["components"] for c in row["components"]] == [
        f"m4d:{rolled.level}:{alice.id}:{bob.id}"] and picked.response is not None


async def test_armies_deployed_rolls_the_first_turn_once_for_the_players(harness: Harness, alice: FakeUser,
                                                                         bob: FakeUser) -> None:
    seed = next(s for s in (f"deploy-{n}" for n in range(100)) if stream_of(s, "4e:mission").randint(1, 6) != 6)
    reply = await harness.slash("mission roll", user=alice, pack="4th-edition", opponent=bob, level="omega", seed=seed)
    [button] = reply.custom_ids
    carol = harness.user("carol")
    stranger = await harness.press(button, user=carol)
    assert stranger.ephemeral and "Only the two players" in stranger.content
    # Both press at the same moment: one roll is posted, the other press is told.
    first, second = await asyncio.gather(harness.press(button, user=bob), harness.press(button, user=alice))
    sent = {id(s): s for s in [*first, *second]}.values()  # each reply sees the other's messages too
    [posted] = [s for s in sent if s.message is not None and "armies deployed" in s.content]
    assert len([s for s in sent if s.ephemeral and "already been rolled" in s.content]) == 1
    assert "may choose to go first or second" in posted.content and "Dusk & Dawn: D6 =" in posted.content
    assert "Infiltrate: if both sides have Infiltrators" in posted.content
    assert sorted(map(int, posted.body["data"]["allowed_mentions"]["users"])) == sorted([alice.id, bob.id])
    assert harness.message(reply.main.message["id"])["components"] == []  # the button went with the press


async def test_bad_options_are_refused_privately(harness: Harness, alice: FakeUser, bob: FakeUser) -> None:
    refused = await harness.slash("mission roll", user=alice, pack="4th-edition", opponent=alice)
    assert refused.ephemeral and "pick the player you face" in refused.content
    refused = await harness.slash("mission roll", user=alice, pack="4th-edition", opponent=bob, seed="no spaces")
    assert refused.ephemeral and "A seed is 1 to 32 letters" in refused.content


async def test_a_grand_tournament_mission_rolled_on_its_d33(harness: Harness, alice: FakeUser, bob: FakeUser) -> None:
    reply = await harness.slash("mission roll", user=alice, pack="gt-2020", opponent=bob, size="incursion", seed="gt")
    rolled = roll_gt_mission(grand_tournament(), "gt", "incursion")
    mission = grand_tournament().mission(rolled.mission)
    tens, units = rolled.d33
    assert reply.embed["title"] == f"Grand Tournament 2020: {mission.name} (Incursion)"
    assert f"D33: {tens} then {units} = **{tens}{units}** → **{mission.name}**" in reply.embed["description"]
    fields = {f["name"]: f["value"] for f in reply.embed["fields"]}
    assert f"Mission secondary: {mission.secondary.name} (category not given in the pack)" in fields
    assert "at most one per category" in fields["Next"] and "(`/rolloff`)" in fields["Next"]
    # The secret selection of secondaries; the Attacker/Defender and first-turn roll-offs come later, with /rolloff.
    assert reply.custom_ids == [f"mgs:i{mission.d33}:{alice.id}:{bob.id}"]


async def test_an_agreed_grand_tournament_mission_and_the_options_of_the_other_pack(
    harness: Harness, alice: FakeUser, bob: FakeUser
) -> None:
    reply = await harness.slash("mission roll", user=alice, pack="gt-2020", opponent=bob, mission="battle-lines")
    assert reply.embed["title"] == "Grand Tournament 2020: Battle Lines (Strike Force)"
    refused = await harness.slash("mission roll", user=alice, pack="gt-2020", opponent=bob, level="omega")
    assert refused.ephemeral and "belong to the 4th edition" in refused.content
    refused = await harness.slash("mission roll", user=alice, pack="4th-edition", opponent=bob, size="incursion")
    assert refused.ephemeral and "belong to the Grand Tournament 2020" in refused.content


async def test_the_mission_option_offers_the_chosen_packs_missions(harness: Harness, alice: FakeUser) -> None:
    offered = await harness.autocomplete("mission roll", "mission", "", user=alice, pack="gt-2020", size="incursion")
    assert [c["value"] for c in offered] == [m.id for m in grand_tournament().missions if m.size == "incursion"]
    offered = await harness.autocomplete("mission roll", "mission", "re", user=alice, pack="4th-edition")
    assert [c["name"] for c in offered] == ["Secure & Control", "Recon"]


async def test_secondaries_are_selected_in_secret_and_revealed_together(harness: Harness, alice: FakeUser,
                                                                        bob: FakeUser) -> None:
    reply = await harness.slash("mission roll", user=alice, pack="gt-2020", opponent=bob, mission="crossfire",
                                size="incursion")
    [button] = reply.custom_ids
    stranger = await harness.press(button, user=harness.user("carol"))
    assert stranger.ephemeral and "Only the two players" in stranger.content
    menu = await harness.press(button, user=alice)
    assert menu.ephemeral and len(menu.components[0]["components"][0]["options"]) == 20
    [select] = menu.custom_ids
    clash = await harness.select(select, ["linebreaker", "domination", "assassinate"], user=alice)
    assert clash.ephemeral and "both Battlefield Supremacy" in clash.content
    assert not await harness.bot.picks.has_picked(int(reply.main.message["id"]), str(alice.id))
    chosen = await harness.select(select, ["linebreaker", "assassinate", "psychic-ritual"], user=alice)
    assert "Hidden until" in chosen.content
    public = [s for s in harness.model.sent if s.kind == "message" and not s.ephemeral]
    assert not any("Linebreaker" in (s.content or "") for s in public)  # nobody else sees it yet
    again = await harness.press(button, user=alice)
    assert again.ephemeral and "already selected" in again.content
    [bob_select] = (await harness.press(button, user=bob)).custom_ids
    revealed = await harness.select(bob_select, ["outflank", "codex", "thin-their-ranks"], user=bob)
    [post] = [s for s in revealed if s.kind == "message" and "revealed for **Crossfire**" in s.content]
    assert f"<@{alice.id}>: **Linebreaker**, **Assassinate**, **Psychic Ritual**" in post.content
    assert f"<@{bob.id}>: **Outflank**, **A secondary from my Codex**, **Thin Their Ranks**" in post.content
    assert sorted(map(int, post.body["allowed_mentions"]["users"])) == sorted([alice.id, bob.id])
    assert harness.message(reply.main.message["id"])["components"] == []
