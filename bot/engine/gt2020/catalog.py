"""The Grand Tournament 2020 pack's data (decks/gt-2020), validated at start-up."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, model_validator

from bot.engine.models import Frozen

Size = Literal["incursion", "strike-force"]
Kind = Literal["progressive", "end-game", "progressive-and-end-game"]
When = Literal["your-turn", "command-phase", "end-of-battle-round"]
MOST = re.compile(r"maximum of (\d+) victory points")
COUNTED = re.compile(r"for each|for every|each time|equal to|tally", re.IGNORECASE)
FIGURE = re.compile(r"(\d+) victory points?")


class Objective(Frozen):
    name: str
    kind: Kind
    flavour: str
    text: tuple[str, ...] = Field(min_length=1)
    # When a progressive objective scores during the battle, as its text says (tests/data check the two agree).
    scores: When = Field("your-turn", description="In the scorer's own turn, their Command phase, or at the end of "
                                                   "each battle round")
    from_round: int = Field(1, ge=1, le=5, description="2: 'cannot be scored in the first battle round'")

    @property
    def most(self) -> int | None:
        """The most VP it gives at once, as its text says ("for a maximum of 15", "Score 3 victory points
        instead"); None where it counts units, markers or actions, so that only the caps bound it."""
        text = " ".join(self.text)
        if match := MOST.search(text):
            return int(match[1])
        figures = [int(n) for n in FIGURE.findall(text)]
        return None if COUNTED.search(text) or not figures else max(figures)


class Secondary(Objective):
    id: str
    category: str | None = Field(description="None: the pack's text does not say (a mission's own objective)")


class Mission(Frozen):
    id: str
    name: str
    size: Size
    d33: Literal[11, 12, 13, 21, 22, 23, 31, 32, 33]
    briefing: tuple[str, ...] = Field(min_length=1)
    rules: tuple[str, ...] = ()
    primary_intro: str
    primaries: tuple[Objective, ...] = Field(min_length=1)
    secondary_intro: str
    secondary: Secondary
    notes: tuple[str, ...] = ()


class Category(Frozen):
    id: str
    name: str


class Caps(Frozen):
    primary: int
    each_secondary: int
    secondaries: int
    battle_ready: int
    total: int


class Pack(Frozen):
    pack: str
    title: str
    determine_mission: str
    select_secondaries: str
    attacker_and_defender: str
    first_turn: str
    battlefields: dict[Size, str]
    caps: Caps
    command_points: dict[Size, int] = Field(description="Each player's CP when they begin mustering their army")
    secondaries_selected: int


class GrandTournament(Frozen):
    pack: Pack
    selection: tuple[str, ...]
    categories: tuple[Category, ...]
    secondaries: tuple[Secondary, ...]
    missions: tuple[Mission, ...]

    @model_validator(mode="after")
    def _complete(self) -> GrandTournament:
        categories = {c.id for c in self.categories}
        for secondary in self.secondaries:
            if secondary.category not in categories:
                raise ValueError(f"secondary {secondary.id!r}: unknown category {secondary.category!r}")
        for size in ("incursion", "strike-force"):
            rolls = sorted(m.d33 for m in self.missions if m.size == size)
            if rolls != [11, 12, 13, 21, 22, 23, 31, 32, 33]:
                raise ValueError(f"the {size} missions must fill the D33 table once each; they have {rolls}")
        return self

    def mission(self, mission_id: str) -> Mission:
        return next(m for m in self.missions if m.id == mission_id)

    def by_roll(self, size: Size, d33: int) -> Mission:
        return next(m for m in self.missions if m.size == size and m.d33 == d33)

    def category(self, category_id: str) -> Category:
        return next(c for c in self.categories if c.id == category_id)
