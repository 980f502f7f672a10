"""Names as printed and names as typed: one function writes every name, one reads back what people type."""

from __future__ import annotations

import re

import pytest

from bot.decks import default_catalog, installed_packs
from bot.engine.names import UnknownName, normalised, resolve, title_case
from bot.services.game_options import read_typed

CATALOG = default_catalog()
NAMED = ([(c.id, c.name) for c in CATALOG.secondaries] + [(p.id, p.name) for p in CATALOG.primaries]
         + [(t.id, t.name) for t in CATALOG.twists] + [(c.id, c.name) for c in CATALOG.challengers])


@pytest.mark.parametrize(("printed", "written"), [
    ("NO MAN’S LAND", "No Man’s Land"), ("CULL THE HORDE", "Cull the Horde"),
    ("ENGAGE ON ALL FRONTS", "Engage on All Fronts"), ("ATTRITION (ANY BATTLE ROUND)", "Attrition (Any Battle Round)"),
    ("SELF-PRESERVATION", "Self-Preservation"), ("A TEMPTING TARGET", "A Tempting Target"),
    ("Burden of Trust", "Burden of Trust"),  # already as printed: kept
])
def test_names_are_written_in_title_case_as_printed(printed: str, written: str) -> None:
    assert title_case(printed) == written


def test_the_catalog_writes_no_name_in_capitals() -> None:
    for _, name in NAMED:
        assert name != name.upper() and title_case(name) == name


@pytest.mark.parametrize(("card_id", "name"), NAMED)
def test_every_name_is_read_however_it_is_typed(card_id: str, name: str) -> None:
    plain = re.sub(r"[^\w\s]", "", name)
    for typed in (card_id, name, name.lower(), name.upper(), plain, f"  {plain.lower()}  ", name.replace("e", "é")):
        assert resolve(typed, NAMED, "a card") == card_id, typed


@pytest.mark.parametrize(("card_id", "name"), [n for n in NAMED if len(n[1]) > 8])
def test_a_typo_is_answered_with_the_name_meant(card_id: str, name: str) -> None:
    typo = name[:3] + name[4:]  # a letter missing
    with pytest.raises(UnknownName, match=f"Did you mean .*{re.escape(name)}"):
        resolve(typo, NAMED, "a card")


def test_nothing_close_lists_the_few_names_there_are() -> None:
    with pytest.raises(UnknownName, match="'zzz' is not one of your cards: choose Cleanse or Assassination"):
        resolve("zzz", [("cleanse", "Cleanse"), ("assassination", "Assassination")], "one of your cards")


def test_normalised_ignores_case_accents_and_punctuation() -> None:
    assert normalised("No Man’s Land!") == normalised("no mans land") == "no mans land"
    assert normalised("Éngage  on-all fronts") == "engage on all fronts"


@pytest.mark.parametrize(("pack", "mission", "size", "read"), [
    ("ca-2025-26", "B", "strike-force", ("ca-2025-26", "B")),
    ("Chapter Approved 2025-26", "mission b", "strike-force", ("ca-2025-26", "B")),
    ("chapter approved 2025-26", "Mission M", "strike-force", ("ca-2025-26", "M")),
    ("ca-2025-26", "random pool mission", "strike-force", ("ca-2025-26", "random")),
    ("grand tournament 2020 mission pack", None, "incursion", ("gt-2020", None)),
    ("4th edition standard missions", None, None, ("4th-edition", None)),
])
def test_packs_and_missions_are_read_as_typed(pack, mission, size, read) -> None:
    assert read_typed(installed_packs(CATALOG), pack, mission, size) == read


def test_a_name_two_packs_share_asks_which() -> None:
    with pytest.raises(UnknownName, match="Chapter Approved 2025-26 or Chapter Approved 2026-27"):
        read_typed(installed_packs(CATALOG), "chapter approved", None, None)


def test_words_of_a_name_read_it_only_when_they_name_one_thing() -> None:
    assert resolve("the horde", NAMED, "a card") == "cull-the-horde"
    with pytest.raises(UnknownName):
        resolve("the", NAMED, "a card")


def test_an_unknown_mission_names_the_closest() -> None:
    with pytest.raises(UnknownName, match="Did you mean Mission B"):
        read_typed(installed_packs(CATALOG), "ca-2025-26", "Mision B", "strike-force")
