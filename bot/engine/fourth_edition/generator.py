"""Rolling a 4th edition Standard Mission: the mission (D6), its level (D3) and every roll its set-up needs.

Each roll comes from its own labelled stream of a seed (bot/engine/rng.py, docs/verify.md), so the
seed, shown with the result, lets anyone re-derive all of it. A mission or level the players agreed on is
given instead of rolled. The rolls made once the armies are deployed (the first turn, Dusk & Dawn, who sets
up Infiltrators first) take a second seed made only then: nobody can know them while deploying.
"""

from __future__ import annotations

from pydantic import Field

from bot.engine.errors import InvalidValue, NotAPlayer
from bot.engine.fourth_edition.catalog import MissionGenerator
from bot.engine.models import Frozen, RollOff
from bot.engine.rng import roll_off_between, stream_of

STRATEGY_RATINGS = (1, 2, 3)


class BattleStart(Frozen):
    """The rolls once both armies are deployed, from their own seed."""

    seed: str
    infiltrate_first: str | None = Field(None, description="The coin flip, if both sides have Infiltrators")
    first_turn_roll: RollOff = Field(description="The winner may choose to go first or second")
    dusk_and_dawn: int | None = Field(None, description="The D6 before the first Battle Round")


class RolledMission(Frozen):
    seed: str
    players: tuple[str, str]
    mission_roll: int | None = Field(description="The D6; None when the players chose the mission")
    strategy_ratings: tuple[int, int] = (1, 1)
    strategy_roll: RollOff | None = Field(None, description="A 6: each rolls their rating in D6, highest chooses")
    mission: str | None = Field(description="None until the Strategy Roll winner has chosen")
    level_roll: int | None = Field(description="The D3; None when the players chose the level")
    level: str
    set_up_roll: RollOff = Field(description="Corner (Cleanse) or long table edge: the winner chooses")
    token_d3: int | None = Field(None, description="Secure & Control: D3+2 tokens")
    first_token: str | None = Field(None, description="Secure & Control: the coin flip for the first token")

    @property
    def chooser(self) -> str | None:
        """Who still has to choose the mission (the Strategy Roll winner), if anyone."""
        return self.strategy_roll.winner if self.mission is None and self.strategy_roll else None


def roll_mission(generator: MissionGenerator, seed: str, players: tuple[str, str], *, mission: str | None = None,
                 level: str | None = None, strategy_ratings: tuple[int, int] = (1, 1),
                 picked: tuple[str, str] | None = None) -> RolledMission:
    """Roll what the players did not choose. `picked` = (player, mission) is the Strategy Roll winner's choice
    after a 6, which the same seed then completes with the same rolls."""
    if players[0] == players[1]:
        raise InvalidValue("A mission is rolled for two players: pick your opponent.")
    if not seed:
        raise InvalidValue("A roll needs a seed.")
    if any(r not in STRATEGY_RATINGS for r in strategy_ratings):
        raise InvalidValue("A Strategy Rating is 1, 2 or 3 (the SRD's chart names each army's).")
    for chosen, known in ((mission, [m.id for m in generator.missions]), (level, [x.id for x in generator.levels])):
        if chosen is not None and chosen not in known:
            raise InvalidValue(f"Unknown choice {chosen!r}: use one of {', '.join(known)}.")

    def draw(label: str, low: int, high: int) -> int:
        return stream_of(seed, f"4e:{label}").randint(low, high)

    mission_roll = strategy_roll = None
    if mission is None:
        mission_roll = draw("mission", 1, 6)
        mission = generator.mission_table[mission_roll - 1].mission
        if mission is None:  # "Chosen by Strategy Roll Winner"
            strategy_roll = roll_off_between(stream_of(seed, "4e:strategy"), players, strategy_ratings)
            mission = _picked(generator, strategy_roll.winner, picked)
    elif picked is not None:
        raise InvalidValue("This mission was chosen, not rolled: there is nothing left to pick.")
    level_roll = None
    if level is None:
        level_roll = draw("level", 1, 3)
        level = generator.level_table[level_roll - 1].level
    tokens = mission is not None and generator.mission(mission).tokens is not None
    return RolledMission(
        seed=seed, players=players, mission_roll=mission_roll, strategy_ratings=strategy_ratings,
        strategy_roll=strategy_roll, mission=mission, level_roll=level_roll, level=level,
        set_up_roll=roll_off_between(stream_of(seed, "4e:set-up"), players),
        token_d3=draw("tokens", 1, 3) if tokens else None,
        first_token=players[draw("first-token", 0, 1)] if tokens else None,
    )


def start_battle(generator: MissionGenerator, seed: str, players: tuple[str, str], level: str) -> BattleStart:
    """The rolls after deployment, in the SRD's order: Infiltrators (Gamma, Omega), the first turn (every
    mission's last set-up step), Dusk & Dawn before the first Battle Round (Gamma, Omega)."""
    rules = generator.level(level).special_rules
    return BattleStart(
        seed=seed,
        infiltrate_first=players[stream_of(seed, "4e:infiltrate").randint(0, 1)] if "infiltrate" in rules else None,
        first_turn_roll=roll_off_between(stream_of(seed, "4e:first-turn"), players),
        dusk_and_dawn=stream_of(seed, "4e:dusk-and-dawn").randint(1, 6) if "dusk-and-dawn" in rules else None,
    )


def _picked(generator: MissionGenerator, winner: str, picked: tuple[str, str] | None) -> str | None:
    if picked is None:
        return None
    player, mission = picked
    if player != winner:
        raise NotAPlayer("Only the winner of the Strategy Roll chooses the mission.")
    if mission not in {m.id for m in generator.missions}:
        raise InvalidValue(f"Unknown mission {mission!r}.")
    return mission
