"""/card: look-up of every card of the pack, with autocomplete."""

from __future__ import annotations

import pytest

from bot.engine.chapter_approved.catalog import Catalog
from cogs.cards import CardIndex
from tests.cogs.harness import Harness
from tests.cogs.lookups import LOOKUPS, module_harness  # noqa: F401
from tests.discord_model import embed_problems

pytestmark = LOOKUPS


async def test_card_by_typed_name_is_public(harness: Harness, alice) -> None:
    reply = await harness.slash("card", user=alice, name="Cleanse")
    assert reply.embed["title"] == "Cleanse"
    assert not reply.ephemeral
    assert "Fixed Mission symbol" in reply.embed["fields"][0]["value"]


async def test_private_card_only_for_the_asker(harness: Harness, alice) -> None:
    reply = await harness.slash("card", user=alice, name="Cleanse", private=True)
    assert reply.ephemeral and reply.embed["title"] == "Cleanse"


async def test_every_choice_the_autocomplete_can_offer_opens_its_card(harness: Harness, alice, catalog: Catalog) -> None:
    index = CardIndex(catalog)
    expected = (
        len(catalog.primaries) + len(catalog.secondaries) + len(catalog.challengers) + len(catalog.twists)
        + len(catalog.deployments) + len(catalog.layouts) + len(catalog.pool)
    )
    assert len(index.entries) == expected
    for entry in index.entries:
        choices = await harness.autocomplete("card", "name", entry.title, user=alice)
        assert entry.key in [c["value"] for c in choices], entry.title
        reply = await harness.slash("card", user=alice, name=entry.key)
        assert reply.embed["title"] == entry.title
        assert embed_problems(reply.embed) == []


@pytest.mark.parametrize(
    ("typed", "first"),
    [
        ("horde", "Cull the Horde · Secondary Mission"),
        ("cull", "Cull the Horde · Secondary Mission"),
        ("CLEANSE", "Cleanse · Secondary Mission"),
        ("mission a", "Mission A: Take and Hold / Tipping Point · Tournament Mission Pool"),
        ("layout 3", "Layout 3 · Terrain layout"),
        ("no mans", "Secure No Man’s Land · Secondary Mission"),
        ("burst", "Burst of Speed · Challenger card"),
        ("octane", "High Octane · Twist"),
        ("tip spear", "Tip of the Spear (Asymmetric War) · Asymmetric War Deployment"),
        ("hold", "Hold Out · Asymmetric War Primary Mission"),
        ("and hold", "Take and Hold · Primary Mission"),
    ],
)
async def test_autocomplete_matches_words_anywhere(harness: Harness, alice, typed: str, first: str) -> None:
    choices = await harness.autocomplete("card", "name", typed, user=alice)
    assert choices[0]["name"] == first


async def test_autocomplete_covers_all_sizes_and_pool_missions(harness: Harness, alice) -> None:
    names = [c["name"] for c in await harness.autocomplete("card", "name", "tipping point", user=alice)]
    assert "Tipping Point (Strike Force) · Strike Force Deployment" in names
    assert "Tipping Point (Incursion) · Incursion Deployment" in names
    assert sum(n.startswith("Mission ") for n in names) == 4  # A-D are played on Tipping Point


async def test_autocomplete_offers_at_most_25_choices(harness: Harness, alice) -> None:
    choices = await harness.autocomplete("card", "name", "", user=alice)
    assert len(choices) == 25
    assert all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in choices)
    layouts = await harness.autocomplete("card", "name", "layout", user=alice)
    assert [c["name"] for c in layouts] == [f"Layout {n} · Terrain layout" for n in range(1, 9)]


async def test_autocomplete_with_nothing_matching_offers_nothing(harness: Harness, alice) -> None:
    assert await harness.autocomplete("card", "name", "zzzz", user=alice) == []


async def test_unknown_card_gets_suggestions_privately(harness: Harness, alice) -> None:
    reply = await harness.slash("card", user=alice, name="Clense")
    assert reply.ephemeral
    assert reply.content.startswith("No card called 'Clense'. Did you mean Cleanse")
    assert reply.embeds == []
    assert all(s.ephemeral for s in reply)  # nothing public


async def test_an_ambiguous_name_lists_the_candidates(harness: Harness, alice) -> None:
    reply = await harness.slash("card", user=alice, name="Tipping Point")
    assert reply.ephemeral
    assert "matches several cards" in reply.content
    assert "Tipping Point (Strike Force)" in reply.content and "Tipping Point (Incursion)" in reply.content


async def test_nothing_like_it(harness: Harness, alice) -> None:
    reply = await harness.slash("card", user=alice, name="qqqqqq")
    assert reply.content == "No card called 'qqqqqq'. Pick a name from the list as you type."


async def test_echoed_input_cannot_ping_everyone(harness: Harness, alice) -> None:
    reply = await harness.slash("card", user=alice, name="@everyone")
    mentions = reply.response.body["data"]["allowed_mentions"]
    assert mentions["parse"] == ["users"]
