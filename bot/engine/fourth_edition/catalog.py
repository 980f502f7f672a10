"""The 4th edition mission generator's data (decks/4th-edition/missions.yaml), validated at start-up."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from bot.engine.models import Frozen


class MissionRoll(Frozen):
    roll: int = Field(ge=1, le=6)
    mission: str | None = Field(description="None: the Strategy Roll winner chooses")
    text: str | None = None


class LevelRoll(Frozen):
    roll: int = Field(ge=1, le=3)
    level: str


class StrategyRating(Frozen):
    rating: int = Field(ge=1, le=3)
    armies: tuple[str, ...]


class Level(Frozen):
    id: str
    name: str
    special_rules: tuple[str, ...]
    battle_rounds: int = Field(ge=1)


class Mission(Frozen):
    id: str
    name: str
    objective: str
    set_up: tuple[str, ...] = Field(min_length=1)
    victory_points: tuple[str, ...] = Field(min_length=1, description="Bonus VP in Gamma and Omega missions")
    deploys_first: Literal["winner", "loser"] = Field(description="Of the set-up roll-off")
    tokens: Literal["D3+2"] | None = Field(None, description="Secure & Control's objective tokens")


class SpecialRule(Frozen):
    id: str
    name: str
    text: str


class MissionGenerator(Frozen):
    pack: str
    title: str
    mission_table: tuple[MissionRoll, ...] = Field(min_length=6, max_length=6)
    level_table: tuple[LevelRoll, ...] = Field(min_length=3, max_length=3)
    game_length: str
    reserves_rule: str
    scoring_units: str
    strategy_roll: str
    strategy_ratings: tuple[StrategyRating, ...]
    levels: tuple[Level, ...]
    missions: tuple[Mission, ...]
    special_rules: tuple[SpecialRule, ...]

    @model_validator(mode="after")
    def _references_resolve(self) -> MissionGenerator:
        missions, levels, rules = ({x.id for x in items} for items in (self.missions, self.levels, self.special_rules))
        for entry in self.mission_table:
            if entry.mission is not None and entry.mission not in missions:
                raise ValueError(f"mission_table roll {entry.roll}: unknown mission {entry.mission!r}")
        for row in self.level_table:
            if row.level not in levels:
                raise ValueError(f"level_table roll {row.roll}: unknown level {row.level!r}")
        for level in self.levels:
            for rule in level.special_rules:
                if rule not in rules:
                    raise ValueError(f"level {level.id!r}: unknown special rule {rule!r}")
        if [e.roll for e in self.mission_table] != [1, 2, 3, 4, 5, 6] or \
                [e.roll for e in self.level_table] != [1, 2, 3]:
            raise ValueError("the tables must list every roll once, in order (D6 missions, D3 levels)")
        return self

    def mission(self, mission_id: str) -> Mission:
        return next(m for m in self.missions if m.id == mission_id)

    def level(self, level_id: str) -> Level:
        return next(level for level in self.levels if level.id == level_id)

    def rule(self, rule_id: str) -> SpecialRule:
        return next(r for r in self.special_rules if r.id == rule_id)
