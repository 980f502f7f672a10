"""A list held against the army data: faction and detachment found however the list names them, points recomputed
from the data's brackets (copies included), enhancements priced, and every difference flagged, never refused."""

from __future__ import annotations

import pytest

from bot.armies.check import army_from, check_list
from bot.armies.data import army_data
from bot.armies.lists import ListError, ListedUnit, ParsedList

DATA = army_data()


def parsed(*units: ListedUnit, faction: str | None = "Necrons", detachments=("Awakened Dynasty",),
           stated: int | None = None, size="strike-force") -> ParsedList:
    return ParsedList(format="app", name=None, faction=faction, detachments=detachments, battle_size=size,
                      points_stated=stated, points_limit=None, units=units)


def test_a_datasheets_third_copy_costs_what_the_data_says() -> None:
    scythes = [ListedUnit("Doomsday Ark", 1, None) for _ in range(3)]  # 210, 210, then 230 from the third
    checked = check_list(parsed(*scythes, stated=650), DATA)
    assert [u.data_points for u in checked.units] == [210, 210, 230] and checked.points == 650
    assert checked.flags == ()


def test_enhancements_are_priced_and_unknown_ones_flagged() -> None:
    overlord = ListedUnit("Overlord", 1, 110, enhancements=("Veil of Darkness",))
    checked = check_list(parsed(overlord, stated=110), DATA)
    assert checked.units[0].data_points == 110 and checked.flags == ()
    wrong = check_list(parsed(ListedUnit("Overlord", 1, 90, enhancements=("Hordeslayer",)), stated=90), DATA)
    assert wrong.flags == ("Hordeslayer is not an enhancement of Awakened Dynasty.",)


def test_every_difference_is_a_flag() -> None:
    checked = check_list(parsed(ListedUnit("Necron Warrior", 10, 85), ListedUnit("Grey Hunters", 10, 90),
                                ListedUnit("Necron Warriors", 25, 85), stated=2100), DATA)
    assert checked.flags[:3] == (
        "Necron Warrior is not a Necrons datasheet in the army data. Did you mean Necron Warriors?",
        "Grey Hunters is a unit of Adeptus Astartes, not of Necrons.",
        "Necron Warriors: 25 models is not a size the army data prices.")
    assert "The list states 2100 points; the army data counts 260." in checked.flags
    assert "2100 points is over the 2000-point limit." in checked.flags


def test_the_faction_is_found_however_the_list_names_it() -> None:
    roster = check_list(parsed(faction="Imperium - Adeptus Astartes - Space Wolves", detachments=()), DATA)
    assert roster.faction == "space-wolves" and "The list names no detachment." in roster.flags
    by_detachment = check_list(parsed(faction=None, detachments=("Saga of the Hunter",)), DATA)
    assert by_detachment.faction == "space-wolves" and by_detachment.disposition == "disruption"
    typed = check_list(parsed(faction=None, detachments=()), DATA, faction="orks", detachment="war horde")
    assert (typed.faction, typed.detachment) == ("orks", "war-horde")
    with pytest.raises(ListError, match="faction"):
        check_list(parsed(faction="Elves", detachments=()), DATA)


def test_the_army_of_a_list_carries_its_disposition_points_and_row() -> None:
    checked = check_list(parsed(ListedUnit("Overlord", 1, 90), stated=90), DATA)
    army = army_from(DATA, "", None, checked, list_id=7)
    assert (army.label, army.disposition, army.points, army.list_id) == (
        "Necrons — Awakened Dynasty", checked.disposition, 90, 7)
    assert army_from(DATA, "space wolfs", None).label == "Space Wolves"  # no list: the faction alone
