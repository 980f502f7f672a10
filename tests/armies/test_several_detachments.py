"""11th-edition armies of several detachments: lists read in every header layout the app and the builders write
(faction, detachments and battle size in either order, with or without "(N Detachment Points)", one line per
detachment or one line naming several, blank lines between), the Force Disposition the player recorded told from the
ones a "Force Dispositions:" line lists, and the checks that flag (never refuse) Detachment Points over the battle
size's budget, two detachments of one type tag and a detachment of another faction.

Names, costs, tags and dispositions are the data's (40kdc 1.4.5), Necrons: Pantheon of Woe (2 DP, Disruption),
Skyshroud Spearhead (1 DP, Reconnaissance), Hypercrypt Legion (2 DP, Reconnaissance, tag hypercrypt), The Phaeron's
Armoury (1 DP, Priority Assets, tag hypercrypt), Awakened Dynasty (3 DP, Take and Hold, tag dynasty), Hand of the
Dynasty (1 DP, Take and Hold, tag dynasty)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.armies.check import CheckedList, army_from, check_list, read_list
from bot.armies.data import army_data
from bot.armies.lists import ListError, ParsedList, parse_file, parse_text
from tests.armies.test_list_parsers import fixture_text

DATA = army_data()
UNITS = "\n\nCHARACTERS\n\nOverlord (85 Points)\n  • Warlord\n  • 1x Voidscythe\n"
SIZE = "Strike Force (2,000 Points)"


def attached(header: str) -> tuple[ParsedList, CheckedList]:
    """The list read as a file attached with nothing typed (no faction, no detachment), parsed and checked."""
    data = (header + UNITS).encode()
    _, checked = read_list(file=("army.txt", data))
    return parse_file("army.txt", data), checked


def army_flags(checked: CheckedList) -> list[str]:
    """The flags about the army's make-up (the units' points aside)."""
    return [flag for flag in checked.flags if "points" not in flag.lower() or "Detachment Points" in flag]


# --- The app's header in each order, attached alone ----------------------------------------------------------------

ONE_DETACHMENT_HEADERS = {
    "faction, detachment, battle size": f"Necrons\nPantheon of Woe\n{SIZE}",
    "faction, battle size, detachment": f"Necrons\n{SIZE}\nPantheon of Woe",
    "faction, counted detachment, battle size": f"Necrons\nPantheon of Woe (2 Detachment Points)\n{SIZE}",
    "faction, battle size, counted detachment": f"Necrons\n{SIZE}\nPantheon of Woe (2 Detachment Points)",
    "title and blank lines": f"Woe (85 Points)\n\nNecrons\n\nPantheon of Woe (2 Detachment Points)\n\n{SIZE}\n",
    "blank lines, bare detachment above": f"\n\nNecrons\n\nPantheon of Woe\n\n{SIZE}\n\n",
    "disposition unlabelled under it": f"Necrons\nPantheon of Woe (2 Detachment Points)\nDisruption\n{SIZE}",
    "battle size first": f"{SIZE}\nNecrons\nPantheon of Woe",
    "chapter above its faction": f"Xenos\nNecrons\nPantheon of Woe\n{SIZE}",
}


@pytest.mark.parametrize("header", ONE_DETACHMENT_HEADERS.values(), ids=list(ONE_DETACHMENT_HEADERS))
def test_the_apps_header_in_any_order_is_read_attached_alone(header: str) -> None:
    _, checked = attached(header)

    assert (checked.faction, checked.detachments, checked.detachment) == (
        "necrons", ("pantheon-of-woe",), "pantheon-of-woe")
    assert (checked.disposition, checked.dispositions) == ("disruption", ("disruption",))
    assert (checked.battle_size, checked.detachment_points, checked.detachment_budget) == ("strike-force", 2, 3)
    assert army_flags(checked) == []


def test_the_layout_that_was_refused_now_reads() -> None:
    """Faction, then detachment, then battle size, attached alone: once "I could not tell this list's faction"."""
    parsed, checked = attached(f"Necrons\nAwakened Dynasty\n{SIZE}")

    assert parsed.faction_or_detachment == ("Necrons", "Awakened Dynasty")
    assert (checked.faction, checked.detachment, checked.disposition) == ("necrons", "awakened-dynasty",
                                                                          "take-and-hold")


def test_a_chapter_and_a_parents_detachment_above_the_battle_size() -> None:
    parsed, checked = attached(f"Space Marines\nSpace Wolves\nGladius Task Force\n{SIZE}")
    assert parsed.faction_or_detachment == ("Space Marines", "Space Wolves", "Gladius Task Force")
    assert (checked.faction, checked.detachment_names) == ("space-wolves", ("Gladius Task Force",))

    _, bare = attached(f"Space Marines\nSpace Wolves\n{SIZE}")  # no detachment at all: both lines are factions
    assert bare.faction == "space-wolves" and "The list names no detachment." in bare.flags


# --- One, two and three detachments in each form -------------------------------------------------------------------

TWO = ("pantheon-of-woe", "skyshroud-spearhead")
THREE = ("skyshroud-spearhead", "hand-of-the-dynasty", "the-phaerons-armoury")
FORMS = {
    # one line naming several, as builders write it, above or under the battle size
    "two joined, above": (f"Necrons\nPantheon of Woe and Skyshroud Spearhead (3 Detachment Points)\n{SIZE}", TWO),
    "two joined, under": (f"Necrons\n{SIZE}\nPantheon of Woe and Skyshroud Spearhead (3 Detachment Points)", TWO),
    "two joined, dispositions listed": (
        f"Necrons\nPantheon of Woe and Skyshroud Spearhead (3 Detachment Points)\n"
        f"Force Dispositions: Disruption, Reconnaissance\n{SIZE}", TWO),
    "two joined, wrapped": (f"Necrons\nPantheon of Woe and Skyshroud Spearhead\n(3 Detachment Points)\n{SIZE}", TWO),
    "two joined by a comma": (f"Necrons\n{SIZE}\nPantheon of Woe, Skyshroud Spearhead (3 Detachment Points)", TWO),
    "two in New Recruit's form": (f"Necrons\n{SIZE}\nPantheon of Woe [2 DP] (Disruption)\n"
                                  "Skyshroud Spearhead [1 DP] (Reconnaissance)", TWO),
    # one line per detachment
    "two lines, counted": (f"Necrons\nPantheon of Woe (2 Detachment Points)\n"
                           f"Skyshroud Spearhead (1 Detachment Point)\n{SIZE}", TWO),
    "two lines, bare, under": (f"Necrons\n{SIZE}\nPantheon of Woe\nSkyshroud Spearhead", TWO),
    "two lines, bare, above": (f"Necrons\nPantheon of Woe\nSkyshroud Spearhead\n{SIZE}", TWO),
    "three joined": (f"Necrons\n{SIZE}\n"
                     "Skyshroud Spearhead, Hand of the Dynasty and The Phaeron’s Armoury (3 Detachment Points)", THREE),
    "three lines, counted": (f"Necrons\n{SIZE}\nSkyshroud Spearhead (1 Detachment Point)\n"
                             "Hand of the Dynasty (1 Detachment Point)\nThe Phaeron’s Armoury (1 Detachment Point)",
                             THREE),
    "three lines, bare": (f"Necrons\n{SIZE}\nSkyshroud Spearhead\nHand of the Dynasty\nThe Phaeron's Armoury", THREE),
    "three, compact": ("+ FACTION KEYWORD: Xenos - Necrons\n+ BATTLE SIZE: 2. Strike Force (2000 Point limit)\n"
                       "+ DETACHMENT: Skyshroud Spearhead, Hand of the Dynasty, The Phaeron’s Armoury\n\n"
                       "Char1: 1x Overlord (85 pts): Warlord, Voidscythe", THREE),
    "two, compact, a line each": ("+ FACTION KEYWORD: Xenos - Necrons\n+ DETACHMENT: Pantheon of Woe\n"
                                  "+ DETACHMENT: Skyshroud Spearhead\n+ BATTLE SIZE: Strike Force\n\n"
                                  "Char1: 1x Overlord (85 pts): Warlord, Voidscythe", TWO),
}


@pytest.mark.parametrize("header, expected", FORMS.values(), ids=list(FORMS))
def test_several_detachments_in_each_form(header: str, expected: tuple[str, ...]) -> None:
    text = header if header.startswith("+") else header + UNITS
    parsed = parse_text(text)
    checked = check_list(parsed, DATA)

    # a layout that leaves it open (names above the battle size, none under it) is placed by the check
    assert len(parsed.detachments or parsed.faction_or_detachment[1:]) == len(expected)
    assert (checked.faction, checked.detachments, checked.detachment) == ("necrons", expected, expected[0])
    assert checked.detachment_points == 3 and checked.detachment_budget == 3
    assert checked.dispositions == tuple(dict.fromkeys(DATA.detachment("necrons", d).disposition for d in expected))
    assert checked.disposition is None  # several to choose from, and no choice recorded
    assert parsed.disposition is None
    assert army_flags(checked) == []


def test_a_detachment_whose_name_holds_and_is_one_detachment() -> None:
    _, checked = attached(f"Space Marines\nSpace Wolves\n{SIZE}\n"
                          "Legends of Saga and Song and Saga of the Hunter (3 Detachment Points)")
    assert checked.detachment_names == ("Legends of Saga and Song", "Saga of the Hunter")


# --- The Force Disposition: recorded, listed, or left to choose ------------------------------------------------------

@pytest.mark.parametrize("line", ["Force Disposition: Reconnaissance", "Reconnaissance",
                                  "FORCE DISPOSITION : reconnaissance"])
def test_the_recorded_force_disposition_is_the_choice(line: str) -> None:
    parsed, checked = attached(f"Necrons\nPantheon of Woe and Skyshroud Spearhead (3 Detachment Points)\n{line}\n"
                               f"{SIZE}")

    assert parsed.disposition is not None and parsed.disposition.lower() == "reconnaissance"
    assert (checked.disposition, checked.dispositions) == ("reconnaissance", ("disruption", "reconnaissance"))
    army = army_from(DATA, "", None, checked)
    assert (army.detachment, army.disposition) == ("pantheon-of-woe", "reconnaissance")


def test_a_listed_force_disposition_is_no_choice() -> None:
    parsed, checked = attached(f"Necrons\n{SIZE}\nPantheon of Woe and Skyshroud Spearhead (3 Detachment Points)\n"
                               "Force Dispositions: Disruption, Reconnaissance")
    assert parsed.disposition is None and checked.disposition is None
    assert army_from(DATA, "", None, checked).disposition is None  # the player picks at the table


def test_bare_lines_between_detachment_lines_are_what_each_grants() -> None:
    parsed, _ = attached(f"Necrons\n{SIZE}\nPantheon of Woe (2 Detachment Points)\nDisruption\n"
                         "Skyshroud Spearhead (1 Detachment Point)\nReconnaissance")
    assert parsed.detachments == ("Pantheon of Woe", "Skyshroud Spearhead") and parsed.disposition is None


def test_a_disposition_no_detachment_grants_is_flagged_and_set_aside() -> None:
    _, checked = attached(f"Necrons\nPantheon of Woe and Skyshroud Spearhead (3 Detachment Points)\n"
                          f"Force Disposition: Purge the Foe\n{SIZE}")
    assert "The list's Force Disposition, Purge the Foe, is not one its detachments grant." in checked.flags
    assert checked.disposition is None

    _, one = attached(f"Necrons\nPantheon of Woe (2 Detachment Points)\nForce Disposition: Purge the Foe\n{SIZE}")
    assert one.disposition == "disruption"  # one detachment: its own, as before


def test_a_disposition_the_data_cannot_name_is_set_aside_silently() -> None:
    _, checked = attached(f"Necrons\nPantheon of Woe (2 Detachment Points)\nForce Disposition: Éliminez l’Adversaire"
                          f"\n{SIZE}")
    assert checked.disposition == "disruption" and army_flags(checked) == []


def test_the_compact_formats_force_disposition() -> None:
    parsed = parse_text("+ FACTION KEYWORD: Xenos - Necrons\n"
                        "+ DETACHMENT: Pantheon\u00a0of\u00a0Woe, Skyshroud\u00a0Spearhead (Test Rule)\n"
                        "+ FORCE DISPOSITION: Reconnaissance\n+ TOTAL ARMY POINTS: 85pts\n\n"
                        "Char1: 1x Overlord (85 pts): Warlord, Voidscythe\n")
    assert (parsed.detachments, parsed.disposition) == (("Pantheon of Woe", "Skyshroud Spearhead"), "Reconnaissance")
    assert check_list(parsed, DATA).disposition == "reconnaissance"


def test_a_rosters_force_disposition() -> None:
    document = (
        b'<roster name="Woe"><forces><force catalogueName="Xenos - Necrons"><selections>'
        b'<selection name="Detachment" type="upgrade"><selections><selection name="Pantheon of Woe" type="upgrade"/>'
        b'<selection name="Skyshroud Spearhead" type="upgrade"/></selections></selection>'
        b'<selection name="Force Disposition" type="upgrade"><selections>'
        b'<selection name="Disruption" type="upgrade"/></selections></selection>'
        b'<selection name="Overlord" type="model" number="1"><costs><cost name="pts" value="85"/></costs>'
        b"</selection></selections></force></forces></roster>"
    )
    parsed = parse_file("woe.ros", document)
    assert (parsed.detachments, parsed.disposition) == (("Pantheon of Woe", "Skyshroud Spearhead"), "Disruption")
    assert [unit.name for unit in parsed.units] == ["Overlord"]
    assert check_list(parsed, DATA).disposition == "disruption"


# --- The checks: flagged, never refused ----------------------------------------------------------------------------

def test_detachment_points_over_the_budget_are_flagged() -> None:
    _, incursion = attached("Necrons\nIncursion (1,000 Points)\n"
                            "Pantheon of Woe and Skyshroud Spearhead (3 Detachment Points)")
    assert (incursion.detachment_points, incursion.detachment_budget) == (3, 2)
    assert army_flags(incursion) == ["The detachments cost 3 Detachment Points; Incursion allows 2."]

    _, strike_force = attached(f"Necrons\n{SIZE}\nPantheon of Woe, Awakened Dynasty (5 Detachment Points)")
    assert army_flags(strike_force) == ["The detachments cost 5 Detachment Points; Strike Force allows 3."]


def test_a_budget_is_read_from_the_points_limit_and_onslaught_has_none() -> None:
    roster = (  # no Battle Size selection, but a 1,000-point limit: an Incursion
        b'<roster name="Woe"><costLimits><costLimit name="pts" value="1000"/></costLimits><forces>'
        b'<force catalogueName="Xenos - Necrons"><selections><selection name="Detachment" type="upgrade"><selections>'
        b'<selection name="Pantheon of Woe" type="upgrade"/><selection name="Skyshroud Spearhead" type="upgrade"/>'
        b'</selections></selection><selection name="Overlord" type="model" number="1"><costs>'
        b'<cost name="pts" value="85"/></costs></selection></selections></force></forces></roster>'
    )
    limited = check_list(parse_file("woe.ros", roster), DATA)
    assert (limited.battle_size, limited.detachment_points, limited.detachment_budget) == (None, 3, 2)
    assert "The detachments cost 3 Detachment Points; Incursion allows 2." in limited.flags

    patrol = check_list(parse_text(f"Necrons\nCombat Patrol (500 Points)\nAwakened Dynasty\nPantheon of Woe{UNITS}"),
                        DATA)
    assert patrol.detachment_budget is None  # Combat Patrol: no budget in the data
    unsized = parse_text("+ FACTION KEYWORD: Necrons\n+ DETACHMENT: Awakened Dynasty, Pantheon of Woe\n\n"
                         "Char1: 1x Overlord (85 pts): Warlord")
    assert check_list(unsized, DATA).detachment_budget is None  # no size, no limit: nothing to hold it to
    _, onslaught = attached("Necrons\nOnslaught (3,000 Points)\nAwakened Dynasty and Pantheon of Woe "
                            "(5 Detachment Points)")
    assert (onslaught.detachment_points, onslaught.detachment_budget) == (5, None)
    assert army_flags(onslaught) == []


def test_two_detachments_of_one_tag_are_flagged() -> None:
    _, checked = attached(f"Necrons\n{SIZE}\nHypercrypt Legion and The Phaeron’s Armoury (3 Detachment Points)")
    assert checked.detachment_points == 3
    assert army_flags(checked) == [
        "Hypercrypt Legion and The Phaeron’s Armoury are both hypercrypt detachments: an army may take only one."]

    _, over = attached(f"Necrons\n{SIZE}\nAwakened Dynasty\nHand of the Dynasty")
    assert army_flags(over) == [
        "The detachments cost 4 Detachment Points; Strike Force allows 3.",
        "Awakened Dynasty and Hand of the Dynasty are both dynasty detachments: an army may take only one."]


def test_a_detachment_of_another_faction_is_flagged_and_left_out() -> None:
    _, checked = attached(f"Space Marines\nSpace Wolves\n{SIZE}\n"
                          "Saga of the Hunter and Pantheon of Woe (4 Detachment Points)")
    assert (checked.faction, checked.detachments) == ("space-wolves", ("saga-of-the-hunter",))
    assert "Pantheon of Woe is a detachment of Necrons, not of Space Wolves." in checked.flags

    _, gladius = attached(f"Necrons\n{SIZE}\nGladius Task Force")  # every chapter has one: named as the parent's
    assert "Gladius Task Force is a detachment of Adeptus Astartes, not of Necrons." in gladius.flags


def test_enhancements_of_any_of_the_detachments_are_priced() -> None:
    parsed = parse_text(f"Necrons\n{SIZE}\nPantheon of Woe and Skyshroud Spearhead (3 Detachment Points)\n\n"
                        "Overlord (120 Points)\n  • Warlord\n  • Enhancement: Singularity Matrix\n")
    checked = check_list(parsed, DATA)
    assert checked.units[0].enhancements == ("Singularity Matrix",) and checked.units[0].data_points is not None
    assert not [flag for flag in checked.flags if "enhancement" in flag]


def test_the_existing_two_detachment_fixture_lists_and_does_not_choose() -> None:
    parsed = parse_text(fixture_text("app_two_detachments.txt"))
    assert parsed.disposition is None and parsed.faction_or_detachment == ()
    checked = check_list(parsed, DATA)
    assert checked.detachments == ("aspect-host", "windrider-host") and checked.detachment_points == 5
    assert checked.detachment_budget is None  # Onslaught


def test_a_list_kept_before_these_fields_still_reads() -> None:
    _, checked = attached(f"Necrons\nPantheon of Woe\n{SIZE}")
    stored = checked.model_dump(exclude={"detachments", "detachment_names", "dispositions", "detachment_points",
                                         "detachment_budget"})
    old = CheckedList.model_validate(stored)
    assert (old.detachment, old.disposition, old.detachments) == ("pantheon-of-woe", "disruption", ())
    assert army_from(DATA, "", None, old).disposition == "disruption"


# --- Any detachment line --------------------------------------------------------------------------------------------

LINE_FORMS = [
    "Necrons\n{line}\n" + SIZE,
    "Necrons\n" + SIZE + "\n{line}",
    "Necrons\n{line} (2 Detachment Points)\n" + SIZE,
    "Necrons\n" + SIZE + "\nPantheon of Woe and {line} (3 Detachment Points)\nForce Dispositions: {line}",
    "Necrons\n{line}\n(3 Detachment Points)\nForce Disposition: {line}\n" + SIZE,
    "+ FACTION KEYWORD: Necrons\n+ DETACHMENT: {line}\n+ FORCE DISPOSITION: {line}\n",
]


@settings(deadline=None)
@given(st.sampled_from(LINE_FORMS), st.text(max_size=300))
def test_no_detachment_line_crashes_the_reader_or_the_check(form: str, line: str) -> None:
    unit = ("\nChar1: 1x Overlord (85 pts): Enhancement: {line}" if form.startswith("+")
            else "\n\nOverlord (85 Points)\n  • Warlord\n  • Enhancement: {line}\n")
    text = (form + unit).replace("{line}", line)
    try:
        parsed = parse_text(text)
        checked = check_list(parsed, DATA)
    except ListError as refusal:
        assert str(refusal)
    else:
        assert len(parsed.detachments) <= len(text) and checked.faction
        assert all(flag and "\n" not in flag for flag in checked.flags)


def test_a_detachment_above_the_battle_size_and_a_disposition_under_it() -> None:
    parsed, checked = attached(f"Necrons\nAwakened Dynasty\n{SIZE}\nTake and Hold")
    assert (parsed.faction, parsed.detachments) == ("Awakened Dynasty", ("Take and Hold",))  # as the layout reads
    assert (checked.faction, checked.detachments, checked.disposition) == ("necrons", ("awakened-dynasty",),
                                                                          "take-and-hold")
    assert army_flags(checked) == []
