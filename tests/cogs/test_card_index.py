"""The card index behind /card: one unique title per card, found by key or unambiguous name."""

from __future__ import annotations

import pytest

from bot.engine.chapter_approved.catalog import Catalog
from cogs.cards import CardIndex


@pytest.mark.parametrize(
    ("typed", "title"),
    [("cull", "Cull the Horde"), ("Mission A", "Mission A: Take and Hold / Tipping Point"), ("layout 1", "Layout 1"),
     ("secondary:cleanse", "Cleanse"), ("pool:T", "Mission T: Purge the Foe / Dawn of War"), ("the ritual", "The Ritual")],
)
def test_find_takes_a_key_or_an_unambiguous_name(catalog: Catalog, typed: str, title: str) -> None:
    found = CardIndex(catalog).find(typed)
    assert found is not None and found.title == title


@pytest.mark.parametrize("typed", ["", "tipping point", "mission", "secondary:nope", "zzz"])
def test_find_refuses_unknown_or_ambiguous_names(catalog: Catalog, typed: str) -> None:
    assert CardIndex(catalog).find(typed) is None
