"""A 4th edition Standard Mission played as a game: the generator's mission and level (bot/engine/fourth_edition/
generator.py) from the game's seed, the Strategy Roll winner's choice on a 6, the rolls after deployment, a turn
counter over the level's battle rounds (Random Game Length extending Omega missions), and VP by battle round.

4th edition has no Command points. At Alpha level nothing scores VP: the mission's objective decides, and the
players record who achieved it. At Gamma and Omega level the Victory Points special rule scores the game.
"""

from __future__ import annotations

from typing import Any

from bot.engine.errors import InvalidValue, NotYourTurn, WrongPhase
from bot.engine.events import result_text
from bot.engine.fourth_edition.catalog import MissionGenerator
from bot.engine.fourth_edition.generator import roll_mission, start_battle
from bot.engine.models import settled
from bot.engine.table import actions as t
from bot.engine.table.rules import Objective, Play, TableRules
from bot.engine.table.state import Step, TableSetup, TableState

VP = "vp"


def mission_roll(roll: int | None) -> str:
    """"Mission (D6 roll 3)", the same words whatever the roll (None: agreed)."""
    return f"Mission ({'agreed' if roll is None else f'D6 roll {roll}'})"
MAX_EXTENSIONS = 3  # Random Game Length: "This may occur up to 3 times"


class FourthEditionRules(TableRules):
    pack = "4th-edition"
    prefix = "4e"

    def __init__(self, data: MissionGenerator) -> None:
        self.data = data
        self.title = data.title

    def rules_of(self, state: TableState) -> tuple[str, ...]:
        return self.data.level(state.level).special_rules

    def begin(self, setup: TableSetup) -> tuple[dict[str, Any], list[str]]:
        rolled = roll_mission(self.data, setup.seed, setup.players, mission=setup.mission, level=setup.level,
                              strategy_ratings=setup.strategy_ratings)
        level = self.data.level(rolled.level)
        fields = dict(
            mission=rolled.mission, level=rolled.level, mission_roll=rolled.mission_roll,
            strategy_roll=rolled.strategy_roll, level_roll=rolled.level_roll, set_up_roll=rolled.set_up_roll,
            token_d3=rolled.token_d3, first_token=rolled.first_token, battle_rounds=level.battle_rounds,
            status=Step.MISSION if rolled.mission is None else Step.DEPLOYMENT,
        )
        lines = [f"Level: {level.name} ({'D3 roll ' + str(rolled.level_roll) if rolled.level_roll else 'agreed'}), "
                 f"{level.battle_rounds} battle rounds."]
        if rolled.mission is None:
            lines.append(f"{mission_roll(rolled.mission_roll)}: the Strategy Roll winner chooses it.")
        else:
            lines.append(f"{mission_roll(rolled.mission_roll)}: {self.data.mission(rolled.mission).name}. Press "
                         "Deployment done when your army is set up.")
        return fields, lines

    def _do_choose_mission(self, play: Play, action: t.ChooseMission) -> None:
        state = play.state
        if state.status != Step.MISSION:
            raise WrongPhase("The mission is already set.")
        winner = settled(state.strategy_roll).winner
        if action.actor != winner:
            raise NotYourTurn(f"{play.name(winner)} won the Strategy Roll and chooses.")
        setup = state.setup
        rolled = roll_mission(self.data, setup.seed, setup.players, mission=setup.mission, level=setup.level,
                              strategy_ratings=setup.strategy_ratings, picked=(action.actor, action.mission))
        play.update(mission=rolled.mission, token_d3=rolled.token_d3, first_token=rolled.first_token,
                    status=Step.DEPLOYMENT)
        play.say(f"{play.name(action.actor)} chooses the mission: {self.data.mission(rolled.mission).name}. Press "
                 "Deployment done when your army is set up.")

    def battle_rolls(self, play: Play) -> None:
        # The game's seed is secret until the end, so the generator's post-deployment rolls come from it too.
        rolled = start_battle(self.data, play.state.setup.seed, play.state.setup.players, settled(play.state.level))
        play.update(first_turn_rolloff=rolled.first_turn_roll, infiltrate_first=rolled.infiltrate_first,
                    dusk_and_dawn=rolled.dusk_and_dawn)
        if rolled.infiltrate_first is not None:
            play.say(f"Infiltrators: {play.name(rolled.infiltrate_first)} sets up first (coin flip).")
        if rolled.dusk_and_dawn is not None:
            play.say(f"Dusk & Dawn: rolled {rolled.dusk_and_dawn}.")

    def extend(self, play: Play) -> bool:
        state = play.state
        if "random-game-length" not in self.rules_of(state) or len(state.length_rolls) >= MAX_EXTENSIONS:
            return False
        roll = self.stream(state, f"game-length:{state.round}").randint(1, 6)
        extended = roll >= 4
        play.update(length_rolls=(*state.length_rolls, roll),
                    battle_rounds=state.battle_rounds + (1 if extended else 0))
        play.say(f"Random Game Length: rolled {roll}. "
                 + ("The game goes on for another battle round." if extended else "The game ends."))
        return extended

    def scores_vp(self, state: TableState) -> bool:
        return "victory-points" in self.rules_of(state)

    def result_line(self, state: TableState) -> str:
        """An Alpha mission's end says who achieved its objective, and no VP."""
        if self.scores_vp(state):
            return super().result_line(state)
        result, name = settled(state.result), lambda player: state.player(player).name
        if result.reason != "battle":
            return result_text(result, name, vp=False)
        who = name(state.mission_winner) if state.mission_winner else "Nobody"
        verdict = f"{name(result.winner)} wins" if result.winner else "the battle ends in a draw"
        return f"{who} achieved the mission's objective: {verdict}."

    def objectives(self, state: TableState, player: str) -> list[Objective]:
        if not self.scores_vp(state):
            return []
        return [Objective(VP, "Victory Points", "progressive-and-end-game")]

    def _do_score_objective(self, play: Play, action: t.ScoreObjective) -> None:
        if not self.objectives(play.state, action.actor):
            raise InvalidValue("Alpha missions score no Victory Points: whoever achieves the mission's objective "
                               "wins. Record it when the battle is over.")
        super()._do_score_objective(play, action)

    def _do_mission_result(self, play: Play, action: t.MissionResult) -> None:
        state = play.state
        if state.status != Step.END_GAME:
            raise WrongPhase("The mission's outcome is recorded when the battle is over.")
        if self.scores_vp(state):
            raise InvalidValue("At this level Victory Points decide the game: score them instead.")
        if action.winner is not None and action.winner not in state.setup.players:
            raise InvalidValue("The winner must be one of the players.")
        play.update(mission_winner=action.winner, mission_decided=True, scoring_done=())
        who = play.name(action.winner) if action.winner else "Nobody"
        play.say(f"{who} achieved the mission's objective (recorded by {play.name(action.actor)}). Each player "
                 "presses Done scoring to confirm.")

    def can_finish(self, play: Play) -> str | None:
        state = play.state
        if not self.scores_vp(state) and not state.mission_decided:
            return "Record who achieved the mission's objective first."
        return None

    def winner(self, state: TableState) -> str | None:
        if self.scores_vp(state):
            return state.leader
        return state.mission_winner
