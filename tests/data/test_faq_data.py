"""The FAQ entries against the seed's FAQ and Designer's Notes, and their card references."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.decks import default_catalog
from bot.engine.chapter_approved.catalog import Catalog, FaqEntry

SEED = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "002_353b4d3c445720da.txt"

NOTES = {
    "note-vp-for-destroying-models-or-units": "VP FOR DESTROYING MODELS OR UNITS",
    "note-vp-up-to-a-limit": "VP UP TO A LIMIT",
    "note-discarding-cards": "DISCARDING CARDS",
    "note-units-performing-same-action": "HOW MANY UNITS CAN PERFORM THE SAME ACTION?",
}


@pytest.fixture(scope="module")
def seed() -> str:
    return SEED.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def faq() -> tuple[FaqEntry, ...]:
    return default_catalog().faq


def seed_faq(seed: str) -> list[tuple[str, str]]:
    """(question, answer) pairs of the seed's FAQ, in order."""
    section = seed.split("\nFAQ\n", 1)[1].split("\nChapter Approved Battles\n", 1)[0]
    pairs = []
    for chunk in section.split("\nQ:")[1:]:
        question, answer = chunk.split("\nA:\n", 1)
        pairs.append((question.strip(), answer.strip()))
    return pairs


def seed_notes(seed: str) -> dict[str, str]:
    """Heading -> text of the Designer's Notes after the VP table."""
    section = seed.split("\nDesigner’s Notes\n", 1)[1].split("\nDeployment Card Key\n", 1)[0]
    notes = {}
    for block in section.strip().split("\n\n"):
        heading, text = block.split("\n", 1)
        notes[heading] = text.strip()
    return notes


def test_every_seed_question_in_order(seed, faq):
    pairs = seed_faq(seed)
    assert len(pairs) == 11
    entries = [e for e in faq if not e.id.startswith("note-")]
    assert [(e.question, e.answer) for e in entries] == pairs
    assert faq[: len(entries)] == tuple(entries), "the seed's questions come first"


def test_questions_verbatim_in_seed(seed, faq):
    for entry in faq:
        if entry.id.startswith("note-"):
            assert f"\n{entry.question}\n" in seed
        else:
            assert f"Q:{entry.question}\n" in seed
        for paragraph in entry.answer.split("\n\n"):
            assert paragraph in seed


def test_ruins_answer_keeps_its_designers_note(faq):
    ruins = next(e for e in faq if e.id == "ruins-charging")
    assert ruins.answer.startswith("No. ")
    assert "\n\nDesigner’s Note: Organisers, if your terrain collection" in ruins.answer


def test_designers_notes_rulings(seed, faq):
    notes = seed_notes(seed)
    entries = {e.id: e for e in faq if e.id.startswith("note-")}
    assert set(entries) == set(NOTES)
    for entry_id, heading in NOTES.items():
        assert entries[entry_id].question == heading
        assert entries[entry_id].answer == notes[heading]


def test_ids_unique_and_kebab(faq):
    ids = [e.id for e in faq]
    assert len(set(ids)) == len(ids)
    assert all(i == i.lower() and " " not in i for i in ids)


def test_card_references_exist():
    catalog = default_catalog()
    known = {
        c.id
        for c in (*catalog.primaries, *catalog.deployments, *catalog.secondaries, *catalog.challengers, *catalog.twists)
    }
    for entry in catalog.faq:
        assert len(set(entry.cards)) == len(entry.cards), entry.id
        for card_id in entry.cards:
            assert card_id in known, f"{entry.id}: unknown card {card_id!r}"


def test_card_references_match_the_question(faq):
    by_id = {e.id: e for e in faq}
    assert by_id["cull-the-horde-attached-bodyguard"].cards == ("cull-the-horde",)
    assert by_id["marked-for-death-attached-unit"].cards == ("marked-for-death",)
    assert by_id["marked-for-death-leader"].cards == ("marked-for-death",)
    assert by_id["terraform-opponent-objective"].cards == ("terraform",)
    assert by_id["sabotage-deployment-zone"].cards == ("sabotage",)
    assert by_id["objective-marker-measuring"].cards == ("the-ritual",)
    assert by_id["objective-marker-measuring"].deployments == ("Search and Destroy",)
    for entry_id in ("burden-of-trust-guarding-turns", "burden-of-trust-own-deployment-zone"):
        assert by_id[entry_id].cards == ("burden-of-trust",)


def test_a_deployment_ruling_applies_at_every_game_size():
    """The measuring ruling names 'the Search and Destroy deployment map': every size of it gets the ruling."""
    catalog = default_catalog()
    ruling = next(e for e in catalog.faq if e.id == "objective-marker-measuring")
    sizes = {d.size for d in catalog.deployments if d.name == "Search and Destroy"}
    assert sizes == {"strike-force", "incursion"}
    for deployment in catalog.deployments:
        linked = ruling in catalog.rulings_for(deployment.id)
        assert linked == (deployment.name == "Search and Destroy"), deployment.id
        mentioned = deployment.name.casefold() in (ruling.question + ruling.answer).casefold()
        assert linked == mentioned


def test_every_ruling_naming_a_deployment_links_it():
    """A ruling that names a deployment in its text is linked to it by name, so no game size misses it."""
    catalog = default_catalog()
    for entry in catalog.faq:
        text = (entry.question + " " + entry.answer).casefold()
        named = {d.name for d in catalog.deployments if d.name.casefold() in text}
        assert set(entry.deployments) == named, entry.id
        assert not any(card in {d.id for d in catalog.deployments} for card in entry.cards), entry.id


def test_an_unknown_deployment_name_stops_the_catalog():
    catalog = default_catalog()
    entry = catalog.faq[0].model_copy(update={"deployments": ("Nowhere Fast",)})
    with pytest.raises(ValueError, match="no deployment is called 'Nowhere Fast'"):
        Catalog.model_validate({**catalog.model_dump(), "faq": [entry.model_dump()]})
