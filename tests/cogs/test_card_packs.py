"""/card and /faq in every pack: `pack:` (by title, the value its id), else the pack of the channel's game."""

from __future__ import annotations

import pytest

from bot.decks import fourth_edition, grand_tournament
from cogs.cards import CardEntry, CardIndex, fourth_edition_cards, grand_tournament_cards
from tests.cogs.game_table import Table, verbs
from tests.cogs.harness import Harness
from tests.cogs.lookups import LOOKUPS, module_harness  # noqa: F401
from tests.discord_model import FakeChannel, embed_problems

pytestmark = LOOKUPS

GT = "gt-2020"
FOURTH = "4th-edition"
GT_TITLE = "Grand Tournament 2020 Mission Pack"
FOURTH_TITLE = "Warhammer 40,000 4th edition Standard Missions"


def fields(embed: dict) -> dict[str, str]:
    return {f["name"]: f["value"] for f in embed.get("fields", [])}


async def game_in(harness: Harness, name: str, pack: str, *, active: bool) -> FakeChannel:
    """A channel whose game (in progress, or else its latest: one called off) is a real game of `pack`."""
    channel = harness.channel(name)
    table = Table(harness, harness.user("alice"), harness.user("bob"), channel=channel)
    challenge = await table.challenge_only(pack=pack, size="strike-force" if pack == GT else None)
    if not active:
        await harness.press(verbs(challenge.main.message)["decline"], user=table.second,
                            message_id=int(challenge.main.message["id"]))
    assert (await harness.bot.service.repo.get_active_game(channel.id) is not None) == active
    return channel


# --- Grand Tournament 2020 -----------------------------------------------------------------------------------------


async def test_a_gt_secondary_shows_its_category(harness: Harness, alice) -> None:
    reply = await harness.slash("card", user=alice, name="Linebreaker", pack=GT)
    linebreaker = next(s for s in grand_tournament().secondaries if s.id == "linebreaker")
    embed = reply.embed
    assert not reply.ephemeral
    assert embed["title"] == "Linebreaker"
    assert linebreaker.flavour in embed["description"] and linebreaker.text[0] in embed["description"]
    assert fields(embed)["Category"] == "Battlefield Supremacy"
    assert embed["footer"]["text"] == f"Battlefield Supremacy secondary objective · {GT_TITLE}"
    assert embed_problems(embed) == []


async def test_a_gt_mission_shows_its_briefing_objectives_and_own_secondary(harness: Harness, alice) -> None:
    reply = await harness.slash("card", user=alice, name="crossfire", pack=GT)
    crossfire = grand_tournament().mission("crossfire")
    embed = reply.embed
    assert embed["title"] == "Crossfire"
    assert "Incursion mission, D33 result **11**" in embed["description"]
    shown = fields(embed)
    assert shown["Mission briefing"] == crossfire.briefing[0]
    assert "Primary objective: Take and Hold" in shown
    assert "Mission secondary: Outflank (category not given in the pack)" in shown
    assert embed["footer"]["text"] == f"Incursion mission · {GT_TITLE}"
    assert embed_problems(embed) == []


async def test_a_missions_own_secondary_is_a_card_too(harness: Harness, alice) -> None:
    reply = await harness.slash("card", user=alice, name="Outflank", pack=GT)
    assert reply.embed["title"] == "Outflank"
    assert "Crossfire (Incursion mission)" in fields(reply.embed)
    # One card for a secondary two missions share, naming both.
    reply = await harness.slash("card", user=alice, name="minimise losses", pack=GT)
    assert {"Show of Force (Incursion mission)", "Retrieval Mission (Strike Force mission)"} <= set(fields(reply.embed))
    # A secondary named as its mission: the mission keeps the name, the secondary is named apart.
    assert (await harness.slash("card", user=alice, name="Centre Ground", pack=GT)).embed["title"] == "Centre Ground"
    reply = await harness.slash("card", user=alice, name="Centre Ground (secondary objective)", pack=GT)
    assert reply.embed["footer"]["text"].startswith("Mission secondary objective of Centre Ground")


async def test_the_gt_index_holds_18_secondaries_18_missions_and_their_own_secondaries() -> None:
    pack = grand_tournament()
    entries = grand_tournament_cards(pack)
    by_prefix = {prefix: [e for e in entries if e.key.startswith(f"gt:{prefix}:")]
                 for prefix in ("secondary", "mission", "mission-secondary")}
    assert len(by_prefix["secondary"]) == len(by_prefix["mission"]) == 18
    assert {e.card.id for e in by_prefix["mission-secondary"]} == {m.secondary.id for m in pack.missions}
    assert len({e.title for e in entries}) == len(entries)  # every title names one card


# --- 4th edition ---------------------------------------------------------------------------------------------------


async def test_a_4th_edition_mission_by_pack_not_the_chapter_approved_card(harness: Harness, alice) -> None:
    cleanse = fourth_edition().mission("cleanse")
    reply = await harness.slash("card", user=alice, name="Cleanse", pack=FOURTH)
    embed = reply.embed
    assert embed["title"] == "Cleanse"
    assert embed["description"].startswith(cleanse.objective)
    assert "D6 mission roll: **1**" in embed["description"]
    assert fields(embed)["Set Up"].startswith(f"1) {cleanse.set_up[0]}")
    assert fields(embed)["Victory Points bonus (Gamma, Omega)"].startswith(f"• {cleanse.victory_points[0]}")
    assert embed["footer"]["text"] == f"Standard Mission · {FOURTH_TITLE}"
    # Without pack: and without a game here, Chapter Approved's Cleanse.
    assert (await harness.slash("card", user=alice, name="Cleanse")).embed["footer"]["text"].startswith(
        "Secondary Mission · ")


async def test_a_4th_edition_special_rule_and_a_level(harness: Harness, alice) -> None:
    dusk = fourth_edition().rule("dusk-and-dawn")
    reply = await harness.slash("card", user=alice, name="dusk", pack=FOURTH)
    assert reply.embed["title"] == "Dusk & Dawn"
    assert reply.embed["description"] == dusk.text
    assert fields(reply.embed)["Mission levels"] == "Gamma, Omega"
    assert reply.embed["footer"]["text"] == f"Scenario special rule · {FOURTH_TITLE}"
    reply = await harness.slash("card", user=alice, name="Omega", pack=FOURTH)
    shown = fields(reply.embed)
    assert "Random Game Length: up to 3 more" in shown["Game length"]
    assert shown["Dusk & Dawn"] == dusk.text
    assert embed_problems(reply.embed) == []


# --- autocomplete and every card ----------------------------------------------------------------------------------


@pytest.mark.parametrize("pack", [GT, FOURTH])
async def test_every_choice_of_an_older_pack_opens_its_card(harness: Harness, alice, pack: str) -> None:
    entries = grand_tournament_cards(grand_tournament()) if pack == GT else fourth_edition_cards(fourth_edition())
    for entry in entries:
        choices = await harness.autocomplete("card", "name", entry.title, user=alice, pack=pack)
        assert entry.key in [c["value"] for c in choices], entry.title
        reply = await harness.slash("card", user=alice, name=entry.key, pack=pack)
        assert reply.embed["title"] == entry.title
        assert embed_problems(reply.embed) == []


async def test_the_name_autocomplete_searches_the_chosen_pack(harness: Harness, alice) -> None:
    warpcraft = await harness.autocomplete("card", "name", "warpcraft", user=alice, pack=GT)
    expected = [s.name for s in grand_tournament().secondaries if s.category == "warpcraft"]
    assert [c["name"] for c in warpcraft] == [f"{name} · Warpcraft secondary objective" for name in expected]
    everything = await harness.autocomplete("card", "name", "", user=alice, pack=FOURTH)
    generator = fourth_edition()
    assert len(everything) == len(generator.missions) + len(generator.levels) + len(generator.special_rules)
    assert everything[0] == {"name": "Cleanse · Standard Mission", "value": "4e:mission:cleanse"}
    # The same word, three packs.
    assert (await harness.autocomplete("card", "name", "cleanse", user=alice))[0]["value"] == "secondary:cleanse"
    assert (await harness.autocomplete("card", "name", "cleanse", user=alice, pack=FOURTH))[0]["value"] == \
        "4e:mission:cleanse"
    assert await harness.autocomplete("card", "name", "cleanse", user=alice, pack=GT) == []
    assert await harness.autocomplete("card", "name", "cleanse", user=alice, pack="no such pack") == []


async def test_the_pack_option_offers_the_installed_packs_by_title(harness: Harness, alice) -> None:
    offered = await harness.autocomplete("card", "pack", "", user=alice)
    assert [(c["name"], c["value"]) for c in offered] == [
        ("Chapter Approved 2025-26", "ca-2025-26"), ("Chapter Approved 2026-27", "ca-2026-27"), (GT_TITLE, GT),
        (FOURTH_TITLE, FOURTH)]
    assert [c["value"] for c in await harness.autocomplete("card", "pack", "grand", user=alice)] == [GT]
    assert [c["value"] for c in await harness.autocomplete("faq", "pack", "4th", user=alice)] == [FOURTH]


async def test_the_2026_27_cards_show_in_our_own_words(harness: Harness, alice) -> None:
    for name in ("Beacon", "Immovable Object", "Mirrored World", "Take and Hold"):
        reply = await harness.slash("card", user=alice, name=name, pack="ca-2026-27")
        assert not reply.ephemeral and reply.embed["title"].lower().startswith(name.lower()), name
        assert reply.embed["footer"]["text"].endswith("Chapter Approved 2026-27")


async def test_a_pack_typed_without_picking_it(harness: Harness, alice) -> None:
    reply = await harness.slash("card", user=alice, name="Recon", pack="4th edition")
    assert reply.embed["footer"]["text"] == f"Standard Mission · {FOURTH_TITLE}"
    refused = await harness.slash("card", user=alice, name="Recon", pack="5th edition")
    assert refused.ephemeral and refused.embeds == []
    assert refused.content.startswith("No pack called '5th edition'. Pick one from the list: Chapter Approved")


# --- unknown names --------------------------------------------------------------------------------------------------


async def test_an_unknown_name_in_an_older_pack_is_answered_privately(harness: Harness, alice) -> None:
    reply = await harness.slash("card", user=alice, name="Linebraker", pack=GT)
    assert reply.ephemeral and reply.embeds == []
    assert reply.content == (f"No card called 'Linebraker' in the {GT_TITLE}. Did you mean Linebreaker? "
                             "Pick a name from the list as you type.")
    reply = await harness.slash("card", user=alice, name="qqqqqq", pack=FOURTH)
    assert reply.content == f"No card called 'qqqqqq' in the {FOURTH_TITLE}. Pick a name from the list as you type."
    reply = await harness.slash("card", user=alice, name="priority", pack=GT)
    assert reply.ephemeral
    assert reply.content == (f"'priority' matches several cards in the {GT_TITLE}: Priority Target, Priority Targets. "
                             "Pick one from the list as you type.")
    assert all(s.ephemeral for s in reply)


async def test_keys_are_unique_in_an_index() -> None:
    entry = CardEntry("4e:level:alpha", "Alpha", "Mission level", None, lambda: None)
    with pytest.raises(ValueError):
        CardIndex([entry, entry])


# --- /faq --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("pack", "title"), [(GT, GT_TITLE), (FOURTH, FOURTH_TITLE)])
async def test_faq_of_an_older_pack_says_it_has_none_and_points_to_card(harness: Harness, alice, pack: str,
                                                                        title: str) -> None:
    reply = await harness.slash("faq", user=alice, query="deep strike", pack=pack)
    assert reply.ephemeral and reply.embeds == []
    assert reply.content.startswith(f"The {title} has no FAQ rulings in its documents.")
    assert f"`/card` with `pack:` {title}" in reply.content


async def test_faq_of_chapter_approved_by_pack(harness: Harness, alice) -> None:
    reply = await harness.slash("faq", user=alice, query="sabotage deployment zone", pack="ca-2025-26")
    assert not reply.ephemeral and reply.embed["title"] == "FAQ: sabotage deployment zone"


# --- the default: the channel's game's pack ----------------------------------------------------------------------


async def test_without_pack_the_latest_game_of_the_channel_gives_the_pack(harness: Harness, alice) -> None:
    room = await game_in(harness, "gt-room", GT, active=False)
    reply = await harness.slash("card", user=alice, channel=room, name="Linebreaker")
    assert reply.embed["footer"]["text"].endswith(GT_TITLE)
    choices = await harness.autocomplete("card", "name", "line", user=alice, channel=room)
    assert choices[0]["value"] == "gt:secondary:linebreaker"
    faq = await harness.slash("faq", user=alice, channel=room, query="sabotage")
    assert faq.ephemeral and faq.content.startswith(f"The {GT_TITLE} has no FAQ rulings")
    # pack: still wins over the channel's game.
    reply = await harness.slash("card", user=alice, channel=room, name="Cleanse", pack="ca-2025-26")
    assert reply.embed["footer"]["text"].startswith("Secondary Mission · ")


async def test_without_pack_the_game_in_progress_gives_the_pack(harness: Harness, alice) -> None:
    room = await game_in(harness, "4e-room", FOURTH, active=True)
    reply = await harness.slash("card", user=alice, channel=room, name="Cleanse")
    assert reply.embed["footer"]["text"] == f"Standard Mission · {FOURTH_TITLE}"


async def test_a_card_picked_from_another_packs_list_still_opens(harness: Harness, alice) -> None:
    # No game here: Chapter Approved, but the value names a Grand Tournament card (the list was another pack's).
    reply = await harness.slash("card", user=alice, name="gt:secondary:linebreaker")
    assert reply.embed["title"] == "Linebreaker"
