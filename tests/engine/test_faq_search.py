"""FAQ search over the real rulings of the pack (decks/ca-2025-26/faq.yaml)."""

from __future__ import annotations

import pytest

from bot.engine.chapter_approved.catalog import Catalog, FaqEntry
from bot.engine.chapter_approved.faq_search import search_faq, stem, tokens


def best(catalog: Catalog, query: str) -> str:
    matches = search_faq(catalog, query)
    assert matches, f"nothing found for {query!r}"
    return matches[0].entry.id


@pytest.mark.parametrize(
    ("query", "ruling"),
    [
        ("cull the horde bodyguard", "cull-the-horde-attached-bodyguard"),
        ("Can I terraform an objective my opponent already terraformed?", "terraform-opponent-objective"),
        ("sabotage deployment zone", "sabotage-deployment-zone"),
        ("do I measure objective markers from the centre or the edge", "objective-marker-measuring"),
        ("ruins charging", "ruins-charging"),
        ("burden of trust own deployment zone", "burden-of-trust-own-deployment-zone"),
        ("characters destroyed again after returning to the battlefield", "character-destroyed-again"),
        ("how many units can perform the same action", "note-units-performing-same-action"),
    ],
)
def test_the_matching_ruling_comes_first(catalog: Catalog, query: str, ruling: str) -> None:
    assert best(catalog, query) == ruling


def test_inflections_meet(catalog: Catalog) -> None:
    # "destroying" / "destroyed", "units" / "unit", capitals and punctuation do not matter.
    assert best(catalog, "DESTROYED Bodyguard, Cull-the-Horde!") == best(catalog, "destroying bodyguards cull the horde")


@pytest.mark.parametrize(("typed", "meant"), [
    ("sabotge", "sabotage"),
    ("bodygaurd", "bodyguard"),
    ("terrafrom an objective", "terraform an objective"),
])
def test_a_typo_finds_what_the_word_spelled_right_finds(catalog: Catalog, typed: str, meant: str) -> None:
    assert best(catalog, typed) == best(catalog, meant)


def test_naming_a_card_favours_its_rulings(catalog: Catalog) -> None:
    matches = search_faq(catalog, "Marked for Death", limit=5)
    top_two = {m.entry.id for m in matches[:2]}
    assert top_two == {"marked-for-death-attached-unit", "marked-for-death-leader"}


def test_scores_are_ordered_and_the_limit_holds(catalog: Catalog) -> None:
    matches = search_faq(catalog, "objective marker unit action", limit=2)
    assert 1 <= len(matches) <= 2
    assert [m.score for m in matches] == sorted((m.score for m in matches), reverse=True)


@pytest.mark.parametrize("query", ["", "   ", "?!", "the of and is", "qwertyuiop zxcvb"])
def test_empty_or_meaningless_queries_find_nothing(catalog: Catalog, query: str) -> None:
    assert search_faq(catalog, query) == []


def test_a_catalog_without_faq_finds_nothing(catalog: Catalog) -> None:
    assert search_faq(catalog.model_copy(update={"faq": ()}), "sabotage") == []


def test_a_rare_word_outweighs_a_common_one(catalog: Catalog) -> None:
    extra = FaqEntry(id="zz-extra", question="What does a unit do?", answer="A unit does unit things.")
    widened = catalog.model_copy(update={"faq": (*catalog.faq, extra)})
    assert best(widened, "unit sabotage") == "sabotage-deployment-zone"


@pytest.mark.parametrize(
    ("word", "root"),
    [("destroyed", "destroy"), ("destroying", "destroy"), ("settings", "set"), ("objectives", "objectiv"),
     ("objective", "objectiv"), ("cleansed", "cleans"), ("cleanse", "cleans"), ("abilities", "ability"),
     ("status", "status"), ("pass", "pass"), ("scored", "scor"), ("score", "scor")],
)
def test_stem(word: str, root: str) -> None:
    assert stem(word) == root


def test_tokens_drop_stopwords_and_possessives() -> None:
    assert tokens("Can I score the opponent’s objectives?") == ["scor", "opponent", "objectiv"]
