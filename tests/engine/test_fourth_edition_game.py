"""A 4th edition Standard Mission played as a game through the packs registry (bot/engine/fourth_edition/game.py on
the shared table rules): one test per rule of the SRD's mission generator, levels and special rules
(../shared/seeds/003_17e7c947317de234.txt)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.decks import fourth_edition
from bot.engine.errors import InvalidValue, NotYourTurn, WrongPhase
from bot.engine.moves import DeclareBattleReady, DeploymentDone, DoneScoring, EndTurn, SpendCp
from bot.engine.rng import roll_off_between, stream_of
from bot.engine.table.actions import TABLE_ACTIONS, ChooseMission, ChooseTurn, GainCp, MissionResult, ScoreObjective
from bot.engine.table.state import END_GAME, Step, TableSetup
from tests.engine.played import PACKS, PlayedGame


RULES = PACKS.rules("4th-edition")
GENERATOR = fourth_edition()
P1, P2 = "100000000000000001", "100000000000000002"


def find_seed(test: Callable[[str], bool]) -> str:
    """The first seed `4e-game-N` that passes `test`: the same on every run."""
    return next(s for s in (f"4e-game-{n}" for n in range(20_000)) if test(s))


def d6(seed: str, label: str) -> int:
    return stream_of(seed, f"4e:{label}").randint(1, 6)


def length_rolls(seed: str) -> list[int]:
    """The Random Game Length D6 the seed gives after battle rounds 6, 7 and 8."""
    return [d6(seed, f"game-length:{r}") for r in (6, 7, 8)]


class Game(PlayedGame):
    """One 4th edition game between Alice (P1) and Bob (P2), played action by action."""

    def __init__(self, *, mission: str | None = "recon", level: str | None = "gamma", seed: str = "4e-game",
                 ratings: tuple[int, int] = (1, 1)) -> None:
        super().__init__(TableSetup(pack="4th-edition", players=(P1, P2), names=("Alice", "Bob"), mission=mission,
                                    level=level, strategy_ratings=ratings, seed=seed))

    def deploy(self) -> None:
        self.act(DeploymentDone(actor=P1))
        self.act(DeploymentDone(actor=P2))

    def to_battle(self) -> None:
        self.deploy()
        self.act(ChooseTurn(actor=self.state.first_turn_rolloff.winner, first=True))

    def end_turn(self) -> None:
        self.act(EndTurn(actor=self.state.active))

    def to_end_game(self) -> int:
        """Play every turn out; the number of battle rounds played."""
        while self.state.status == Step.BATTLE:
            self.end_turn()
        return self.state.round

    def done(self) -> None:
        self.act(DoneScoring(actor=P1))
        self.act(DoneScoring(actor=P2))


# ---- the mission and its level ---------------------------------------------------------------------

def test_an_agreed_mission_and_level_are_not_rolled() -> None:
    """Missions: chosen "through mutual agreement", mission and level alike."""
    state = Game(mission="cleanse", level="omega").state
    assert (state.mission, state.mission_roll, state.level, state.level_roll) == ("cleanse", None, "omega", None)
    assert (state.status, state.battle_rounds, state.strategy_roll) == (Step.DEPLOYMENT, 6, None)


def test_the_mission_and_the_level_are_rolled_from_the_seed() -> None:
    """Or rolled: the D6 mission table and the D3 level chart, from the game's seed."""
    seed = find_seed(lambda s: d6(s, "mission") != 6)
    state = Game(mission=None, level=None, seed=seed).state
    level_roll = stream_of(seed, "4e:level").randint(1, 3)
    assert (state.mission_roll, state.level_roll) == (d6(seed, "mission"), level_roll)
    assert state.mission == GENERATOR.mission_table[state.mission_roll - 1].mission
    assert state.level == GENERATOR.level_table[level_roll - 1].level
    assert state.status == Step.DEPLOYMENT


def test_on_a_6_only_the_strategy_roll_winner_chooses_the_mission() -> None:
    """Each army rolls its Strategy Rating in D6 and keeps the highest; the mission waits for the winner."""
    seed = find_seed(lambda s: d6(s, "mission") == 6)
    game = Game(mission=None, seed=seed, ratings=(3, 1))
    state = game.state
    assert (state.mission_roll, state.mission, state.status) == (6, None, Step.MISSION)
    assert state.strategy_roll == roll_off_between(stream_of(seed, "4e:strategy"), (P1, P2), (3, 1))
    winner = state.strategy_roll.winner
    loser = P2 if winner == P1 else P1
    game.refuse(DeploymentDone(actor=P1), WrongPhase)
    game.refuse(ChooseMission(actor=loser, mission="cleanse"), NotYourTurn, "won the Strategy Roll")
    game.refuse(ChooseMission(actor=winner, mission="kill-team"), InvalidValue, "Unknown mission")
    before = game.state
    game.act(ChooseMission(actor=winner, mission="secure-and-control"))
    assert (game.state.mission, game.state.status) == ("secure-and-control", Step.DEPLOYMENT)
    assert game.state.token_d3 == stream_of(seed, "4e:tokens").randint(1, 3)
    assert RULES.revealed(before, game.state)
    game.refuse(ChooseMission(actor=winner, mission="cleanse"), WrongPhase, "already set")


def test_the_mission_roll_reads_the_same_on_a_6_as_on_1_to_5() -> None:
    """"Mission (D6 roll N): …" whatever N: on a 6 what follows is who chooses, otherwise the mission."""
    six, three = find_seed(lambda s: d6(s, "mission") == 6), find_seed(lambda s: d6(s, "mission") == 3)
    lines = {roll: next(e.text for e in PACKS.new_game(Game(mission=None, seed=seed).setup).events
                        if e.text.startswith("Mission")) for roll, seed in ((6, six), (3, three))}
    assert lines[6] == "Mission (D6 roll 6): the Strategy Roll winner chooses it."
    assert lines[3].startswith("Mission (D6 roll 3): ") and lines[3].split(": ")[1].rstrip(".").split(".")[0] in {
        m.name for m in GENERATOR.missions}
    assert next(e.text for e in PACKS.new_game(Game().setup).events if e.text.startswith("Mission")).startswith(
        "Mission (agreed): Recon.")


def test_a_rolled_mission_leaves_nothing_to_choose() -> None:
    """Only a 6 leaves the mission to the Strategy Roll winner."""
    Game().refuse(ChooseMission(actor=P1, mission="cleanse"), WrongPhase, "already set")


# ---- no Command points ---------------------------------------------------------------------------------

def test_4th_edition_has_no_command_points() -> None:
    """4th edition has no Command points: nothing to spend or gain, no bonus."""
    game = Game()
    game.to_battle()
    assert [p.cp for p in game.state.players] == [0, 0]  # and no bonus at the start of a turn
    for action in (SpendCp(actor=P1, amount=1), GainCp(actor=P1, amount=1),
                   GainCp(actor=game.state.active, amount=1, mission_rule=True)):
        game.refuse(action, WrongPhase, "has no Command points")


def test_4th_edition_has_no_battle_ready_bonus() -> None:
    """Battle Ready VP belong to the Grand Tournament pack: a 4th edition game refuses them."""
    Game().refuse(DeclareBattleReady(actor=P1, ready=True), InvalidValue, "has no Battle Ready bonus")


# ---- Alpha: the mission's objective decides ---------------------------------------------------------

def test_alpha_missions_score_no_vp() -> None:
    """Alpha level has no Victory Points special rule: the mission's objective decides."""
    game = Game(level="alpha")
    game.to_battle()
    game.refuse(ScoreObjective(actor=P1, objective="vp", vp=10), InvalidValue, "score no Victory Points")
    game.to_end_game()
    game.refuse(ScoreObjective(actor=P1, objective="vp", vp=10), InvalidValue, "score no Victory Points")


def test_alpha_needs_the_mission_result_before_done_scoring_and_its_winner_wins() -> None:
    """At Alpha the players record who achieved the objective; that player wins."""
    game = Game(level="alpha")
    game.to_battle()
    game.refuse(MissionResult(actor=P1, winner=P2), WrongPhase, "when the battle is over")
    game.to_end_game()
    game.refuse(DoneScoring(actor=P1), WrongPhase, "Record who achieved the mission's objective first.")
    game.refuse(MissionResult(actor=P1, winner="100000000000000003"), InvalidValue, "one of the players")
    game.act(MissionResult(actor=P1, winner=P1))
    game.act(DoneScoring(actor=P2))
    game.act(MissionResult(actor=P2, winner=P2))  # a correction asks both to confirm again
    assert game.state.scoring_done == ()
    game.done()
    assert (game.state.status, game.state.result.winner, game.state.result.reason) == (Step.ENDED, P2, "battle")


def test_alpha_with_nobody_achieving_the_objective_is_a_draw() -> None:
    """At Alpha, nobody achieving the objective is a draw."""
    game = Game(level="alpha")
    game.to_battle()
    game.to_end_game()
    game.act(MissionResult(actor=P1, winner=None))
    game.done()
    assert game.state.result.winner is None


# ---- Gamma and Omega: Victory Points -------------------------------------------------------------------

@pytest.mark.parametrize("level", ["gamma", "omega"])
def test_vp_are_scored_by_battle_round_and_decide_the_winner(level: str) -> None:
    """Gamma and Omega: Victory Points, recorded by battle round, decide the winner."""
    game = Game(level=level, seed=find_seed(lambda s: length_rolls(s)[0] < 4))
    game.to_battle()
    game.act(ScoreObjective(actor=P1, objective="vp", vp=60))
    game.end_turn()
    game.end_turn()
    game.act(ScoreObjective(actor=P2, objective="vp", vp=50))
    game.to_end_game()
    game.refuse(MissionResult(actor=P1, winner=P1), InvalidValue, "Victory Points decide")
    game.act(ScoreObjective(actor=P2, objective="vp", vp=20))
    assert [(t.player, t.round, t.awarded) for t in game.state.vp] == [(P1, 1, 60), (P2, 2, 50), (P2, END_GAME, 20)]
    game.done()
    assert (game.state.result.winner, game.state.result.vp) == (P2, {P1: 60, P2: 70})


def test_equal_vp_is_a_draw() -> None:
    """Equal VP at Gamma or Omega is a draw."""
    game = Game(level="gamma")
    game.to_battle()
    game.act(ScoreObjective(actor=P1, objective="vp", vp=40))
    game.act(ScoreObjective(actor=P2, objective="vp", vp=40))
    game.to_end_game()
    game.done()
    assert game.state.result.winner is None


# ---- game length ------------------------------------------------------------------------------------

@pytest.mark.parametrize("level", ["alpha", "gamma"])
def test_alpha_and_gamma_last_six_battle_rounds(level: str) -> None:
    """No Random Game Length: a seed that would extend an Omega game does not extend these."""
    game = Game(level=level, seed=find_seed(lambda s: length_rolls(s)[0] >= 4))
    game.to_battle()
    assert (game.to_end_game(), game.state.status, game.state.length_rolls) == (6, Step.END_GAME, ())


def test_omega_ends_after_six_battle_rounds_on_a_1_to_3() -> None:
    """Random Game Length: a 1-3 after the sixth battle round ends the game."""
    seed = find_seed(lambda s: length_rolls(s)[0] < 4)
    game = Game(level="omega", seed=seed)
    game.to_battle()
    assert (game.to_end_game(), game.state.length_rolls) == (6, (length_rolls(seed)[0],))


def test_omega_goes_on_for_another_battle_round_on_a_4_plus() -> None:
    """Random Game Length: on a 4+ the game is extended another battle round."""
    seed = find_seed(lambda s: length_rolls(s)[0] >= 4 > length_rolls(s)[1])
    game = Game(level="omega", seed=seed)
    game.to_battle()
    assert (game.to_end_game(), game.state.length_rolls) == (7, tuple(length_rolls(seed)[:2]))
    assert game.state.battle_rounds == 7


def test_random_game_length_extends_the_game_at_most_3_times() -> None:
    """Random Game Length "may occur up to 3 times": nine battle rounds at most, no fourth roll."""
    seed = find_seed(lambda s: min(length_rolls(s)) >= 4)
    game = Game(level="omega", seed=seed)
    game.to_battle()
    while game.state.round < 6 or game.state.turn == 1:
        game.end_turn()
    before = game.state
    game.end_turn()
    assert RULES.revealed(before, game.state) and game.state.round == 7  # the roll cannot be undone
    assert (game.to_end_game(), game.state.length_rolls) == (9, tuple(length_rolls(seed)))


# ---- rolls after deployment --------------------------------------------------------------------------

@pytest.mark.parametrize("level, special", [("alpha", False), ("gamma", True), ("omega", True)])
def test_infiltrators_and_dusk_and_dawn_are_rolled_only_at_levels_with_those_rules(level: str, special: bool) -> None:
    """Infiltrate and Dusk & Dawn are Gamma and Omega rules: rolled after deployment there only."""
    game = Game(level=level, seed="after-deployment")
    game.act(DeploymentDone(actor=P2))
    assert (game.state.infiltrate_first, game.state.dusk_and_dawn, game.state.first_turn_rolloff) == (None,) * 3
    game.act(DeploymentDone(actor=P1))
    state = game.state
    assert state.first_turn_rolloff == roll_off_between(stream_of("after-deployment", "4e:first-turn"), (P1, P2))
    if special:
        assert state.infiltrate_first == (P1, P2)[stream_of("after-deployment", "4e:infiltrate").randint(0, 1)]
        assert state.dusk_and_dawn == d6("after-deployment", "dusk-and-dawn")
    else:
        assert (state.infiltrate_first, state.dusk_and_dawn) == (None, None)


# ---- replay ----------------------------------------------------------------------------------------

def test_replaying_the_log_gives_the_same_game() -> None:
    """The action log, through its JSON form, replays to the same state (undo, verify)."""
    seed = find_seed(lambda s: d6(s, "mission") == 6 and length_rolls(s)[0] >= 4)
    game = Game(mission=None, level="omega", seed=seed)
    game.act(ChooseMission(actor=game.state.strategy_roll.winner, mission="take-and-hold"))
    game.to_battle()
    game.act(ScoreObjective(actor=P1, objective="vp", vp=35))
    game.to_end_game()
    game.done()
    logged = [TABLE_ACTIONS.validate_json(TABLE_ACTIONS.dump_json(action)) for action in game.log]
    assert PACKS.replay(game.setup, logged) == game.state
