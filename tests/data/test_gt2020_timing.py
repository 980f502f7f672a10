"""When a Grand Tournament 2020 objective scores during the battle, as the pack's text says it (the data's text is
checked against the rule document by test_gt2020.py): the engine refuses a score outside that window."""

from __future__ import annotations

import re

import pytest

from bot.decks import grand_tournament

PACK = grand_tournament()
FIRST_ROUND = re.compile(r"cannot be scored (?:in|during) the first battle round", re.IGNORECASE)
OBJECTIVES = [(f"{m.name}: {p.name}", p) for m in PACK.missions for p in m.primaries]
OBJECTIVES += [(f"{m.name}: {m.secondary.name}", m.secondary) for m in PACK.missions]
OBJECTIVES += [(s.name, s) for s in PACK.secondaries]


def text_of(objective) -> str:
    return " ".join(objective.text)


@pytest.mark.parametrize("label, objective", OBJECTIVES, ids=[label for label, _ in OBJECTIVES])
def test_an_objective_scores_from_round_2_exactly_when_its_text_says_so(label, objective) -> None:
    assert (objective.from_round == 2) == bool(FIRST_ROUND.search(text_of(objective))), label
    assert objective.from_round in (1, 2)


@pytest.mark.parametrize("label, objective", OBJECTIVES, ids=[label for label, _ in OBJECTIVES])
def test_an_objective_scores_at_the_end_of_the_battle_round_exactly_when_its_text_says_so(label, objective) -> None:
    """Every other progressive objective scores in the scorer's own turn ("your turn", "your Command phase", "the
    player whose turn it is", an action or psychic action of yours)."""
    text = text_of(objective).lower()
    round_end = "at the end of the battle round" in text and "your" not in text
    assert (objective.scores == "end-of-battle-round") == round_end, label


def test_every_primary_objective_waits_for_the_second_battle_round() -> None:
    assert {p.from_round for m in PACK.missions for p in m.primaries} == {2}


COMMAND_PHASE = re.compile(r"end of (?:your|your next|each player's|each of your) Command phases?", re.IGNORECASE)


@pytest.mark.parametrize("label, objective", OBJECTIVES, ids=[label for label, _ in OBJECTIVES])
def test_an_objective_scores_in_the_command_phase_exactly_when_its_text_says_so(label, objective) -> None:
    """"At the end of your Command phase", "at the end of each player's Command phase, the player whose turn it is",
    an action "completed at the end of your next Command phase": scored in the scorer's Command phase."""
    in_command_phase = objective.kind != "end-game" and bool(COMMAND_PHASE.search(text_of(objective)))
    assert (objective.scores == "command-phase") == in_command_phase, label


@pytest.mark.parametrize("name, most", [
    ("Engage on All Fronts", 3), ("Linebreaker", 4), ("Take and Hold", 15), ("Vital Ground", 7),
    ("Surround Them", 8), ("Titan Hunter", 15), ("Grind Them Down", 3),
    ("Assassinate", None), ("Raise the Banners High", None), ("Teleport Homer", None), ("Ascend", None),
])
def test_the_most_an_objective_gives_at_once_is_read_from_its_text(name, most) -> None:
    """A fixed figure ("Score 3 victory points instead", "for a maximum of 15") bounds one entry; an objective that
    counts units, markers or actions ("for each", "each time", "equal to") is bound by its caps alone."""
    assert {o.most for label, o in OBJECTIVES if o.name == name} == {most}
