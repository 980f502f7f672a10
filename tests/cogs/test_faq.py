"""/faq: the best rulings for a question, or a private 'nothing found'."""

from __future__ import annotations


from tests.cogs.harness import Harness
from tests.cogs.lookups import LOOKUPS, module_harness  # noqa: F401
from tests.discord_model import embed_problems

pytestmark = LOOKUPS


async def test_faq_shows_the_best_rulings_publicly(harness: Harness, alice) -> None:
    reply = await harness.slash("faq", user=alice, query="sabotage deployment zone")
    assert not reply.ephemeral
    embed = reply.embed
    assert embed["title"] == "FAQ: sabotage deployment zone"
    assert embed["fields"][0]["name"].startswith("Q: To start performing the Sabotage Action")
    assert 1 <= len(embed["fields"]) <= 3
    assert embed_problems(embed) == []


async def test_faq_with_nothing_found_answers_privately(harness: Harness, alice) -> None:
    reply = await harness.slash("faq", user=alice, query="qwertyuiop")
    assert reply.ephemeral
    assert reply.embeds == []
    assert reply.content.startswith("No FAQ ruling matches 'qwertyuiop'")
    assert "/faq query:" in reply.content


async def test_faq_query_with_markdown_is_escaped_in_the_reply(harness: Harness, alice) -> None:
    reply = await harness.slash("faq", user=alice, query="**zzz**")
    assert "\\*\\*zzz\\*\\*" in reply.content
