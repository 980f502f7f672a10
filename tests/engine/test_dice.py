"""Dice expressions, D33 and roll-offs (core rules: ties roll again)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import dice
from bot.engine.errors import InvalidValue


@pytest.mark.parametrize(
    ("text", "count", "sides", "modifier"),
    [
        ("D6", 1, 6, 0), ("d6", 1, 6, 0), ("2D6", 2, 6, 0), ("3d6", 3, 6, 0), ("D3", 1, 3, 0),
        ("2D6+1", 2, 6, 1), ("4d8 - 2", 4, 8, -2), (" 1d20 ", 1, 20, 0), ("100D6", 100, 6, 0), ("D1000", 1, 1000, 0),
    ],
)
def test_parse_accepted_forms(text: str, count: int, sides: int, modifier: int) -> None:
    spec = dice.parse(text)
    assert (spec.count, spec.sides, spec.modifier, spec.d33) == (count, sides, modifier, False)


@pytest.mark.parametrize("text", ["D33", "d33", "1D33"])
def test_d33_is_two_d3_not_a_33_sided_die(text: str) -> None:
    assert dice.parse(text) == dice.DiceSpec(count=2, sides=3, d33=True)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Use D6"), ("hello", "Use D6"), ("D", "Use D6"), ("2x6", "Use D6"), ("D6+", "Use D6"), ("-D6", "Use D6"),
        ("0D6", "between 1 and 100 dice"), ("101D6", "between 1 and 100 dice"),
        ("D1", "between 2 and 1000 sides"), ("D0", "between 2 and 1000 sides"), ("D1001", "between 2 and 1000 sides"),
        ("D6+1001", "modifier"), ("2D33", "D33 is rolled on its own"), ("D33+1", "D33 is rolled on its own"),
    ],
)
def test_bad_expressions_are_refused_with_help(text: str, message: str) -> None:
    with pytest.raises(InvalidValue, match=message):
        dice.parse(text)


def test_the_help_lists_the_accepted_forms() -> None:
    with pytest.raises(InvalidValue) as refused:
        dice.roll("fireball", random.Random(1))
    for form in ("D6", "2D6", "3D6", "D3", "D33", "NdM", "2D6+1"):
        assert form in refused.value.message


def test_a_very_long_bad_expression_is_not_echoed_in_full() -> None:
    with pytest.raises(InvalidValue) as refused:
        dice.parse("x" * 5000)
    assert len(refused.value.message) < 300


@settings(max_examples=60, deadline=None)
@given(count=st.integers(1, 100), sides=st.integers(2, 1000).filter(lambda n: n != 33), modifier=st.integers(-1000, 1000), seed=st.integers())
def test_roll_is_within_range_and_adds_up(count: int, sides: int, modifier: int, seed: int) -> None:
    # (D33 is the Grand Tournament's tens-and-units roll, tested on its own.)
    result = dice.roll(f"{count}D{sides}{modifier:+d}", random.Random(seed))
    assert len(result.dice) == count
    assert all(1 <= d <= sides for d in result.dice)
    assert result.total == sum(result.dice) + modifier
    assert result.modifier == modifier


def test_roll_uses_only_the_given_generator() -> None:
    assert dice.roll("10D6", random.Random(7)) == dice.roll("10D6", random.Random(7))
    expected = random.Random(7)
    assert dice.roll("3D6", random.Random(7)).dice == tuple(expected.randint(1, 6) for _ in range(3))


def test_expression_is_normalised() -> None:
    assert dice.roll(" 2d6 + 1 ", random.Random(1)).expression == "2D6+1"
    assert dice.roll("1d6", random.Random(1)).expression == "D6"
    assert dice.roll("d33", random.Random(1)).expression == "D33"


def test_d33_reads_the_first_d3_as_tens_and_the_second_as_units() -> None:
    # GT2020: "if ... the first result was a 2 and the second was a 1, then the D33 result is a 21".
    rng = random.Random(3)
    reference = random.Random(3)
    result = dice.roll("D33", rng)
    tens, units = reference.randint(1, 3), reference.randint(1, 3)
    assert result.dice == (tens, units)
    assert result.total == tens * 10 + units


def test_d33_gives_exactly_the_nine_results_11_to_33() -> None:
    rng = random.Random(11)
    totals = Counter(dice.roll("D33", rng).total for _ in range(900))
    assert set(totals) == {11, 12, 13, 21, 22, 23, 31, 32, 33}


class ScriptedRandom(random.Random):
    """Hands out fixed die results in order, to test the tie rule exactly."""

    def __init__(self, results: list[int]) -> None:
        super().__init__(0)
        self.results = list(results)

    def randint(self, a: int, b: int) -> int:
        value = self.results.pop(0)
        assert a <= value <= b
        return value


def test_roll_off_rerolls_ties_until_someone_wins() -> None:
    result = dice.roll_off(ScriptedRandom([3, 3, 6, 6, 2, 5]))
    assert result.rolls == ((3, 3), (6, 6), (2, 5))
    assert result.winner == 1


def test_roll_off_first_player_wins_on_a_higher_roll() -> None:
    result = dice.roll_off(ScriptedRandom([4, 1]))
    assert result == dice.RollOff(rolls=((4, 1),), winner=0)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers())
def test_roll_off_ends_on_the_first_untied_pair_and_the_higher_die_wins(seed: int) -> None:
    result = dice.roll_off(random.Random(seed))
    *ties, last = result.rolls
    assert all(a == b for a, b in ties)
    assert last[0] != last[1]
    assert all(1 <= d <= 6 for pair in result.rolls for d in pair)
    assert last[result.winner] > last[1 - result.winner]
