"""Dice rolls and roll-offs as pure functions of a `random.Random`.

Accepted forms (case-insensitive, spaces ignored): `D6`, `2D6`, `3D6`, `D3`, `NdM` with an optional
`+K` / `-K` modifier, and `D33`: the Grand Tournament 2020 roll of two D3 one after the other, the
first giving the tens and the second the units (11 to 33), not a 33-sided die.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from bot.engine.errors import InvalidValue

MAX_DICE = 100
MIN_SIDES = 2
MAX_SIDES = 1000
MAX_MODIFIER = 1000

ACCEPTED_FORMS = "D6, 2D6, 3D6, D3, D33 (tens and units from two D3) or NdM with an optional +K or -K, e.g. 2D6+1"

_EXPRESSION = re.compile(r"(?P<count>\d*)D(?P<sides>\d+)(?P<modifier>[+-]\d+)?")


@dataclass(frozen=True)
class DiceSpec:
    count: int
    sides: int
    modifier: int = 0
    d33: bool = False

    def __str__(self) -> str:
        if self.d33:
            return "D33"
        count = "" if self.count == 1 else str(self.count)
        modifier = f"{self.modifier:+d}" if self.modifier else ""
        return f"{count}D{self.sides}{modifier}"


@dataclass(frozen=True)
class RollResult:
    expression: str  # normalised, e.g. "2D6+1"
    dice: tuple[int, ...]  # each die as rolled; for D33 the tens die then the units die
    modifier: int
    total: int


@dataclass(frozen=True)
class RollOff:
    rolls: tuple[tuple[int, int], ...]  # one (first player, second player) pair per attempt
    winner: int  # 0 for the first player, 1 for the second


def parse(expression: str) -> DiceSpec:
    """Read a dice expression; anything else raises InvalidValue naming the accepted forms."""
    text = re.sub(r"\s+", "", expression).upper()
    match = _EXPRESSION.fullmatch(text)
    if match is None:
        raise InvalidValue(f"I can't read the dice {expression.strip()[:40]!r}. Use {ACCEPTED_FORMS}.")
    count = int(match["count"]) if match["count"] else 1
    sides = int(match["sides"])
    modifier = int(match["modifier"] or 0)
    if sides == 33:
        if count != 1 or modifier:
            raise InvalidValue("D33 is rolled on its own: two D3 give the tens and the units (11 to 33).")
        return DiceSpec(count=2, sides=3, d33=True)
    if not 1 <= count <= MAX_DICE:
        raise InvalidValue(f"Roll between 1 and {MAX_DICE} dice at a time.")
    if not MIN_SIDES <= sides <= MAX_SIDES:
        raise InvalidValue(f"A die needs between {MIN_SIDES} and {MAX_SIDES} sides.")
    if abs(modifier) > MAX_MODIFIER:
        raise InvalidValue(f"Keep the modifier between -{MAX_MODIFIER} and +{MAX_MODIFIER}.")
    return DiceSpec(count=count, sides=sides, modifier=modifier)


def roll(expression: str, rng: random.Random) -> RollResult:
    spec = parse(expression)
    dice = tuple(rng.randint(1, spec.sides) for _ in range(spec.count))
    if spec.d33:
        tens, units = dice
        total = tens * 10 + units
    else:
        total = sum(dice) + spec.modifier
    return RollResult(expression=str(spec), dice=dice, modifier=spec.modifier, total=total)


def roll_off(rng: random.Random) -> RollOff:
    """Both players roll a D6, highest wins; a tie is rolled again (core rules, Roll-offs)."""
    rolls: list[tuple[int, int]] = []
    while True:
        pair = (rng.randint(1, 6), rng.randint(1, 6))
        rolls.append(pair)
        if pair[0] != pair[1]:
            return RollOff(rolls=tuple(rolls), winner=0 if pair[0] > pair[1] else 1)
