"""A Grand Tournament 2020 battle played through the packs registry (bot/engine/gt2020/game.py on the shared table
rules): one test per rule of the pack's sequence, "1. SELECT BATTLE SIZE" to "16. DETERMINE VICTOR", and of the
Command point rules (../shared/seeds/000_e0a0e7dd45b18688.txt)."""

from __future__ import annotations

import pytest

from bot.decks import grand_tournament
from bot.engine.errors import InvalidValue, NotAPlayer, NotYourTurn, WrongPhase
from bot.engine.events import Event
from bot.engine.moves import (
    Abandon, ChooseSide, Concede, DeclareBattleReady, DeploymentDone, DoneScoring, EndCommandPhase, EndTurn, SpendCp,
)
from bot.engine.rng import roll_off_between, stream_of
from bot.engine.table.actions import TABLE_ACTIONS, ChooseTurn, GainCp, ScoreObjective, SelectSecondaries
from bot.engine.table.state import END_GAME, TABLE_VERSION, Step, TableSetup, Tally
from tests.engine.played import PACKS, PlayedGame


GT = PACKS.rules("gt-2020")
PACK = grand_tournament()
P1, P2, OUTSIDER = "100000000000000001", "100000000000000002", "100000000000000003"
PICKS = ("linebreaker", "assassinate", "raise-the-banners-high")  # progressive, end-game, both
NAMES = {"linebreaker": "Linebreaker", "assassinate": "Assassinate", "raise-the-banners-high": "Raise the Banners High"}


def public(events) -> str:
    return "\n".join(e.text for e in events if e.private_to is None)


class Game(PlayedGame):
    """One Grand Tournament 2020 game between Alice (P1) and Bob (P2), played action by action."""

    def __init__(self, *, size: str = "strike-force", mission: str | None = "battle-lines", seed: str = "gt-game",
                 version: int = TABLE_VERSION):
        super().__init__(TableSetup(pack="gt-2020", players=(P1, P2), names=("Alice", "Bob"), size=size,
                                    mission=mission, seed=seed, version=version))

    @property
    def active(self) -> str:
        return self.state.active

    def other(self, player: str) -> str:
        return P2 if player == P1 else P1

    def select(self, player: str, picks=PICKS, codex: str | None = None) -> tuple[Event, ...]:
        return self.act(SelectSecondaries(actor=player, picks=picks, codex=codex))

    def to_sides(self, picks=PICKS) -> None:
        """Alice selects `picks`, Bob the default ones."""
        self.select(P1, picks)
        self.select(P2)

    def to_deployment(self, picks=PICKS) -> None:
        self.to_sides(picks)
        self.act(ChooseSide(actor=self.state.sides_rolloff.winner, side="attacker"))

    def to_first_turn(self, picks=PICKS) -> None:
        self.to_deployment(picks)
        self.act(DeploymentDone(actor=self.state.defender))
        self.act(DeploymentDone(actor=self.state.attacker))

    def to_battle(self, first: str = P1, picks=PICKS) -> None:
        """Up to the first turn of battle round 1, `first` taking it, Alice having selected `picks`."""
        self.to_first_turn(picks)
        winner = self.state.first_turn_rolloff.winner
        self.act(ChooseTurn(actor=winner, first=winner == first))

    def end_turn(self) -> tuple[Event, ...]:
        """The active player ends their turn; at the end of a battle round, its scorers close it."""
        events = self.act(EndTurn(actor=self.active))
        if self.state.status == Step.ROUND_END:
            for player in GT.round_scorers(self.state):
                events += self.act(DoneScoring(actor=player))
        return events

    def turn_of(self, player: str, round: int = 2) -> None:
        """On to `player`'s turn of battle round `round` or later: a primary objective scores from round 2, in the
        scorer's own turn."""
        while self.state.round < round or self.active != player:
            self.end_turn()

    def to_end_game(self) -> None:
        while self.state.status == Step.BATTLE:
            self.end_turn()

    def score(self, player: str, objective: str, vp: int) -> Tally:
        self.act(ScoreObjective(actor=player, objective=objective, vp=vp))
        return self.state.vp[-1]

    def finish(self) -> None:
        self.to_end_game()
        self.act(DoneScoring(actor=P1))
        self.act(DoneScoring(actor=P2))

    def rig_vp(self, *tallies: Tally) -> None:
        """The engine is a pure function of its state: put earlier scores in it."""
        self.state = self.state.model_copy(update={"vp": (*self.state.vp, *tallies)})


# ---- 3. determine mission, 2. muster armies ---------------------------------------------------------

def test_the_mission_is_rolled_on_the_d33() -> None:
    """Two D3, the first the tens and the second the units, from the game's seed."""
    game = Game(size="incursion", mission=None, seed="d33")
    dice = stream_of("d33", "gt:d33")
    tens, units = dice.randint(1, 3), dice.randint(1, 3)
    assert game.state.d33 == (tens, units)
    assert game.state.mission == PACK.by_roll("incursion", tens * 10 + units).id


def test_an_agreed_mission_is_not_rolled_and_must_be_of_the_battle_size() -> None:
    """3. DETERMINE MISSION: the players may agree on one of their battle size's missions."""
    agreed = Game(size="incursion", mission="crossfire").state
    assert (agreed.d33, agreed.mission) == (None, "crossfire")
    with pytest.raises(InvalidValue, match="not one of the incursion missions"):
        Game(size="incursion", mission="battle-lines")
    with pytest.raises(InvalidValue, match="pick a size"):
        PACKS.new_game(TableSetup(pack="gt-2020", players=(P1, P2), names=("Alice", "Bob"), seed="s"))


@pytest.mark.parametrize("size, mission, cp", [("incursion", "crossfire", 6), ("strike-force", "battle-lines", 12)])
def test_each_player_musters_with_the_cp_of_the_battle_size(size: str, mission: str, cp: int) -> None:
    """MUSTER ARMIES: 6CP for Incursion, 12CP for Strike Force."""
    assert [p.cp for p in Game(size=size, mission=mission).state.players] == [cp, cp]


# ---- 7. select secondary objectives ---------------------------------------------------------------

def test_a_selection_is_secret_until_both_players_chose() -> None:
    """Only the actor is told their picks; the channel and the board learn nothing until the reveal."""
    game = Game()
    events = game.select(P1, codex="Ignored: no Codex pick")
    mine = [e for e in events if e.private_to is not None]
    assert [e.private_to for e in mine] == [P1] and all(name in mine[0].text for name in NAMES.values())
    assert not any(name in public(events) for name in NAMES.values())
    assert "Alice has selected their secondary objectives." in public(events)
    assert [p.objectives for p in game.state.players] == [(), ()]
    assert game.state.player(P2).secret is None and game.state.player(P1).codex is None
    assert (game.state.status, game.state.sides_rolloff) == (Step.SECONDARIES, None)


def test_a_selection_is_not_made_twice() -> None:
    """7. SELECT SECONDARY OBJECTIVES: a selection stands; only undoing it (before the reveal) takes it back."""
    game = Game()
    game.select(P1)
    game.refuse(SelectSecondaries(actor=P1, picks=("domination", "assassinate", "psychic-ritual")), WrongPhase,
                "You have selected your secondary objectives")


def test_no_more_than_one_secondary_per_category() -> None:
    """The mission's own objective and a Codex one have no category the pack gives: they go with any."""
    game = Game()
    game.refuse(SelectSecondaries(actor=P1, picks=("linebreaker", "domination", "assassinate")), InvalidValue,
                "both Battlefield Supremacy")
    game.select(P1, picks=("vital-ground", "codex", "linebreaker"), codex="Oath of Moment")
    assert game.state.player(P1).secret == ("vital-ground", "codex", "linebreaker")


@pytest.mark.parametrize("name", [None, "   ", "x" * 81])
def test_a_codex_secondary_needs_a_name(name: str | None) -> None:
    """A Codex secondary is not in the pack: the player names it (1 to 80 characters)."""
    Game().refuse(SelectSecondaries(actor=P1, picks=("codex", "linebreaker", "assassinate"), codex=name),
                  InvalidValue, "Name your Codex secondary objective")


def test_the_selections_are_revealed_together_then_the_sides_are_rolled_off() -> None:
    """Step 7's reveal, then step 8: the roll-off, from the seed, after the reveal and not before."""
    game = Game()
    game.select(P1)
    game.refuse(ChooseSide(actor=P1, side="attacker"), WrongPhase)
    events = game.select(P2, picks=("codex", "domination", "bring-it-down"), codex="Oath of Moment")
    assert game.state.player(P1).objectives == PICKS
    assert game.state.player(P2).objectives == ("codex", "domination", "bring-it-down")
    assert [p.secret for p in game.state.players] == [None, None]
    text = public(events)
    assert "Alice's secondary objectives: Linebreaker, Assassinate, Raise the Banners High." in text
    assert "Bob's secondary objectives: Oath of Moment (Codex), Domination, Bring It Down." in text
    assert game.state.sides_rolloff == roll_off_between(stream_of("gt-game", "gt:sides"), (P1, P2))
    assert game.state.status == Step.SIDES


def test_only_the_sides_roll_off_winner_chooses_the_attacker() -> None:
    """8. DETERMINE ATTACKER AND DEFENDER: the roll-off winner decides."""
    game = Game()
    game.to_sides()
    winner = game.state.sides_rolloff.winner
    game.refuse(ChooseSide(actor=game.other(winner), side="attacker"), NotYourTurn, "won the roll-off")
    game.act(ChooseSide(actor=winner, side="defender"))
    assert (game.state.attacker, game.state.defender) == (game.other(winner), winner)
    assert game.state.status == Step.DEPLOYMENT


# ---- Battle Ready, 11. deploy armies, 12. determine first turn ---------------------------------

def test_battle_ready_is_declared_before_the_battle_only() -> None:
    """Battle Ready (the 10VP bonus) is declared, or withdrawn, before the battle begins."""
    game = Game()
    game.act(DeclareBattleReady(actor=P1, ready=True))
    game.to_deployment()
    game.act(DeclareBattleReady(actor=P2, ready=True))
    game.act(DeclareBattleReady(actor=P2, ready=False))
    assert [p.battle_ready for p in game.state.players] == [True, False]
    assert [p.ready_declared for p in game.state.players] == [True, True]  # "not Battle Ready" is recorded too
    game.act(DeploymentDone(actor=P1))
    game.act(DeploymentDone(actor=P2))
    game.act(ChooseTurn(actor=game.state.first_turn_rolloff.winner, first=True))
    game.refuse(DeclareBattleReady(actor=P2, ready=True), WrongPhase, "before the battle begins")


def test_the_first_turn_is_rolled_off_once_both_players_deployed() -> None:
    """11. DEPLOY ARMIES, then 12. DETERMINE FIRST TURN: the roll-off waits for both armies."""
    game = Game()
    game.to_deployment()
    game.act(DeploymentDone(actor=P2))
    assert (game.state.status, game.state.first_turn_rolloff) == (Step.DEPLOYMENT, None)
    game.refuse(DeploymentDone(actor=P2), WrongPhase, "already confirmed")
    game.act(DeploymentDone(actor=P1))
    assert game.state.status == Step.FIRST_TURN
    assert game.state.first_turn_rolloff == roll_off_between(stream_of("gt-game", "gt:first-turn"), (P1, P2))


def test_only_the_first_turn_roll_off_winner_chooses_to_go_first_or_second() -> None:
    """12. DETERMINE FIRST TURN: the winner declares first or second."""
    game = Game()
    game.to_first_turn()
    winner = game.state.first_turn_rolloff.winner
    game.refuse(ChooseTurn(actor=game.other(winner), first=True), NotYourTurn, "won the roll-off")
    game.act(ChooseTurn(actor=winner, first=False))
    assert (game.state.first, game.active, game.state.round, game.state.turn) == (game.other(winner),) * 2 + (1, 1)


# ---- Command points ----------------------------------------------------------------------------------

def test_the_battle_forged_bonus_is_1cp_at_the_start_of_each_players_turn() -> None:
    """Battle-forged CP bonus: +1CP in each of a player's Command phases, and only theirs."""
    game = Game()
    game.to_battle(first=P2)
    assert [p.cp for p in game.state.players] == [12, 13]
    game.end_turn()
    assert [p.cp for p in game.state.players] == [13, 13]
    game.to_end_game()
    assert [p.cp for p in game.state.players] == [17, 17]  # one bonus per turn, five battle rounds


def test_spending_more_cp_than_you_have_is_refused() -> None:
    """CP are a pool: a player cannot spend more than they have."""
    game = Game(size="incursion", mission="crossfire")
    game.act(SpendCp(actor=P1, amount=6, reason="Detachments"))
    assert game.state.player(P1).cp == 0
    game.refuse(SpendCp(actor=P1, amount=1), InvalidValue, "You have 0CP")
    game.refuse(SpendCp(actor=P2, amount=0), InvalidValue, "CP amounts go from 1 to 10")


def test_mustering_gains_are_outside_the_battle_limit() -> None:
    """Before the battle, a Detachment's Command Benefits (+2, +3CP) are recorded as gains: the 1CP-per-round limit
    is the battle's (Stratagem refunds and other rules)."""
    game = Game()
    game.act(SpendCp(actor=P1, amount=3, reason="Battalion"))
    game.act(GainCp(actor=P1, amount=3, reason="Battalion's Command Benefits"))
    game.act(GainCp(actor=P1, amount=2, reason="a second Detachment's Command Benefits"))
    assert game.state.player(P1).cp == 12 - 3 + 3 + 2


def test_a_player_gains_at_most_1cp_per_battle_round_from_other_rules() -> None:
    """The limit is per player and per battle round; the Battle-forged bonus does not count towards it."""
    game = Game()
    game.to_battle(first=P1)
    game.refuse(GainCp(actor=P1, amount=2), InvalidValue, "at most 1CP per battle round")
    game.act(GainCp(actor=P1, amount=1, reason="refund"))
    game.refuse(GainCp(actor=P1, amount=1), InvalidValue, "at most 1CP per battle round")
    game.act(GainCp(actor=P2, amount=1))
    game.end_turn()
    game.refuse(GainCp(actor=P1, amount=1), InvalidValue, "at most 1CP per battle round")
    game.end_turn()
    game.act(GainCp(actor=P1, amount=1))
    assert game.state.player(P1).cp == 12 + 2 + 2  # two bonuses, two gains


def test_a_mission_rule_gives_cp_beyond_the_limit_in_your_own_command_phase_only() -> None:
    """CP a mission rule gives in your Command phase are outside the 1CP limit; not in the opponent's turn, nor
    once your Command phase is over."""
    game = Game()
    game.refuse(GainCp(actor=P1, amount=1, mission_rule=True), WrongPhase, "wait for your turn")
    game.to_battle(first=P1)
    game.act(GainCp(actor=P1, amount=1))
    game.act(GainCp(actor=P1, amount=2, mission_rule=True))
    assert game.state.player(P1).cp == 12 + 1 + 1 + 2
    game.refuse(GainCp(actor=P2, amount=1, mission_rule=True), WrongPhase, "wait for your turn")
    game.act(EndCommandPhase(actor=P1))
    game.refuse(GainCp(actor=P1, amount=1, mission_rule=True), WrongPhase, "yours is over for this turn")
    game.end_turn()
    game.act(GainCp(actor=P2, amount=1, mission_rule=True))  # each turn opens with its Command phase


def test_games_of_version_2_took_the_whole_turn_as_the_command_phase() -> None:
    """Stored games replay as they were played: version 2 did not follow the Command phase."""
    game = Game(version=2)
    game.to_battle(first=P1)
    game.act(EndCommandPhase(actor=P1))
    game.act(GainCp(actor=P1, amount=1, mission_rule=True))
    game.turn_of(P1)
    game.act(EndCommandPhase(actor=P1))
    assert game.score(P1, "primary:0", 5).awarded == 5


def test_the_command_phase_is_ended_by_the_active_player_once() -> None:
    game = Game()
    game.to_battle(first=P1)
    assert game.state.command_phase
    game.refuse(EndCommandPhase(actor=P2), NotYourTurn, "It is Alice's turn")
    assert "Alice's Command phase is over." in public(game.act(EndCommandPhase(actor=P1)))
    game.refuse(EndCommandPhase(actor=P1), WrongPhase, "already over")


def test_an_objective_scored_in_the_command_phase_is_refused_after_it() -> None:
    """Take and Hold: "At the end of each player's Command phase, the player whose turn it is scores"."""
    game = Game()
    game.to_battle(first=P1)
    game.turn_of(P1)
    assert game.score(P1, "primary:0", 10).awarded == 10
    game.act(EndCommandPhase(actor=P1))
    game.refuse(ScoreObjective(actor=P1, objective="primary:0", vp=5), WrongPhase,
                "Take and Hold scores in your Command phase, and yours is over for this turn.")
    assert game.score(P1, "linebreaker", 4).awarded == 4  # "at the end of your turn": the rest of the turn
    game.refuse(ScoreObjective(actor=P2, objective="primary:0", vp=5), WrongPhase, "scores in your own Command phase")


# ---- the battle ----------------------------------------------------------------------------------

def test_only_the_active_player_ends_their_turn() -> None:
    """A turn is ended by the player whose turn it is."""
    game = Game()
    game.to_battle(first=P1)
    game.refuse(EndTurn(actor=P2), NotYourTurn, "It is Alice's turn")
    game.end_turn()
    assert game.active == P2


def test_the_battle_ends_after_five_battle_rounds() -> None:
    """15. ENDING THE BATTLE: after five battle rounds; then only End Game scoring."""
    game = Game()
    game.to_battle(first=P1)
    turns = 0
    while game.state.status == Step.BATTLE:
        turns += 1
        game.end_turn()
    assert (turns, game.state.status, game.state.round, game.state.active) == (10, Step.END_GAME, 5, None)
    game.refuse(EndTurn(actor=P1), WrongPhase)


def test_progressive_objectives_score_during_the_battle_end_game_ones_after_it() -> None:
    """MISSION OBJECTIVES: Progressive ones score during the battle, End Game ones at its end."""
    game = Game()
    game.to_sides()
    game.refuse(ScoreObjective(actor=P1, objective="primary:0", vp=5), WrongPhase, "during the battle")
    game.act(ChooseSide(actor=game.state.sides_rolloff.winner, side="attacker"))
    game.act(DeploymentDone(actor=P1))
    game.act(DeploymentDone(actor=P2))
    game.act(ChooseTurn(actor=game.state.first_turn_rolloff.winner, first=game.state.first_turn_rolloff.winner == P1))
    assert game.score(P1, "raise-the-banners-high", 1).round == 1
    game.turn_of(P2, round=1)
    assert game.score(P2, "linebreaker", 4).round == 1
    game.turn_of(P1)
    assert game.score(P1, "primary:0", 5).round == 2
    game.refuse(ScoreObjective(actor=P1, objective="assassinate", vp=3), WrongPhase, "End Game objective")
    game.refuse(ScoreObjective(actor=P1, objective="domination", vp=3), InvalidValue, "not one of your objectives")
    game.to_end_game()
    game.refuse(ScoreObjective(actor=P1, objective="linebreaker", vp=4), WrongPhase, "progressive objective")
    assert game.score(P1, "assassinate", 3).round == END_GAME
    assert game.score(P1, "raise-the-banners-high", 2).round == END_GAME
    game.act(DoneScoring(actor=P1))
    game.refuse(ScoreObjective(actor=P1, objective="assassinate", vp=1), WrongPhase, "finished your End Game")


def test_an_objective_that_cannot_be_scored_in_the_first_battle_round_is_refused_there() -> None:
    """Every mission's primary objective (and some missions' own secondary) says it cannot be scored in the first
    battle round."""
    game = Game(size="incursion", mission="crossfire")
    game.to_battle(picks=("outflank", "linebreaker", "assassinate"))
    for objective in ("primary:0", "outflank"):
        game.refuse(ScoreObjective(actor=P1, objective=objective, vp=5), WrongPhase,
                    "cannot be scored before battle round 2")
    game.turn_of(P1)
    assert [game.score(P1, o, 5).round for o in ("primary:0", "outflank")] == [2, 2]


def test_an_objective_scored_in_your_turn_is_refused_in_the_opponents() -> None:
    """"At the end of your turn", "the player whose turn it is scores": only in the scorer's own turn."""
    game = Game()
    game.to_battle(first=P1)
    game.refuse(ScoreObjective(actor=P2, objective="linebreaker", vp=2), WrongPhase, "scores in your own turn")
    game.turn_of(P2, round=1)
    assert game.score(P2, "linebreaker", 2).round == 1


def test_version_2_scored_the_end_of_the_battle_round_in_its_second_turn() -> None:
    """Grind Them Down: "at the end of the battle round", by either player; version 2 took the round's second
    turn for it, and its games replay so."""
    game = Game(version=2)
    game.to_battle(first=P1, picks=("grind-them-down", "linebreaker", "assassinate"))
    game.refuse(ScoreObjective(actor=P1, objective="grind-them-down", vp=3), WrongPhase, "end of the battle round")
    game.act(EndTurn(actor=P1))
    assert game.score(P1, "grind-them-down", 3).round == 1  # in the opponent's turn: the round's second
    game.act(EndTurn(actor=P2))
    assert (game.state.status, game.state.round) == (Step.BATTLE, 2)


def test_the_end_of_a_battle_round_is_a_step_where_its_objectives_score() -> None:
    """Grind Them Down scores "at the end of the battle round": after its last turn, not during it. Its holder
    scores it (or not) and presses Done scoring; then the next battle round begins."""
    game = Game()
    game.to_battle(first=P1, picks=("grind-them-down", "linebreaker", "assassinate"))
    game.act(EndTurn(actor=P1))
    game.refuse(ScoreObjective(actor=P1, objective="grind-them-down", vp=3), WrongPhase, "once its last turn is over")
    events = game.act(EndTurn(actor=P2))
    assert game.state.status == Step.ROUND_END and game.state.active is None
    assert "Battle round 1 is over: Alice may score" in public(events)
    game.refuse(ScoreObjective(actor=P1, objective="linebreaker", vp=2), WrongPhase, "not scored at the end of")
    game.refuse(DoneScoring(actor=P2), WrongPhase, "Nothing of yours scores at the end of the battle round")
    game.refuse(EndTurn(actor=P1), WrongPhase)
    assert game.score(P1, "grind-them-down", 3).round == 1
    events = game.act(DoneScoring(actor=P1))
    game.refuse(ScoreObjective(actor=P1, objective="grind-them-down", vp=3), WrongPhase)
    assert (game.state.status, game.state.round, game.state.active) == (Step.BATTLE, 2, P1)
    assert "Battle round 2 begins." in public(events) and "Battle-forged CP bonus: Alice" in public(events)
    game.to_end_game()
    assert game.state.status == Step.END_GAME  # the last round's end came first, then the End Game


def test_no_step_at_the_end_of_a_round_when_nobody_scores_there() -> None:
    game = Game()
    game.to_battle(first=P1)
    game.act(EndTurn(actor=P1))
    game.act(EndTurn(actor=P2))
    assert (game.state.status, game.state.round) == (Step.BATTLE, 2)


def test_a_vp_entry_no_objective_can_give_at_once_is_questioned_not_capped() -> None:
    """Engage on All Fronts scores 2 or 3VP at the end of a turn: 20 is a typing slip, refused with what it gives;
    an objective that counts units (Assassinate: 3VP per CHARACTER) is bound by its caps alone."""
    game = Game()
    game.to_battle(first=P1, picks=("engage-on-all-fronts", "assassinate", "raise-the-banners-high"))
    game.refuse(ScoreObjective(actor=P1, objective="engage-on-all-fronts", vp=20), InvalidValue,
                "Engage on All Fronts gives at most 3VP at once, so 20VP cannot be right: nothing was recorded.")
    assert game.score(P1, "engage-on-all-fronts", 3).awarded == 3
    game.turn_of(P1)
    game.refuse(ScoreObjective(actor=P1, objective="primary:0", vp=16), InvalidValue, "at most 15VP at once")
    game.to_end_game()
    assert game.score(P1, "assassinate", 12).awarded == 12


def test_version_2_capped_what_version_3_questions() -> None:
    game = Game(version=2)
    game.to_battle(first=P1, picks=("engage-on-all-fronts", "assassinate", "raise-the-banners-high"))
    tally = game.score(P1, "engage-on-all-fronts", 20)
    assert (tally.awarded, tally.capped_by) == (15, "15VP per secondary")


# ---- 16. determine victor: the caps -------------------------------------------------------------------

def test_primary_vp_are_capped_at_45_and_the_excess_is_lost() -> None:
    """16. DETERMINE VICTOR: at most 45VP from primary objectives, per player; the excess is discounted."""
    game = Game()
    game.to_battle()
    game.turn_of(P1)
    for _ in range(3):
        game.score(P1, "primary:0", 14)
    tally = game.score(P1, "primary:0", 10)
    assert (tally.claimed, tally.awarded, tally.lost, tally.capped_by) == (10, 3, 7, "45VP primary")
    assert game.score(P1, "primary:0", 4).awarded == 0
    game.turn_of(P2)
    assert game.score(P2, "primary:0", 15).awarded == 15  # each player's own cap
    assert game.state.total_vp(P1) == 45


def test_each_secondary_objective_is_capped_at_15() -> None:
    """At most 15VP from each secondary objective."""
    game = Game()
    game.to_battle()
    for _ in range(3):
        game.score(P1, "linebreaker", 4)
    tally = game.score(P1, "linebreaker", 4)
    assert (tally.awarded, tally.lost, tally.capped_by) == (3, 1, "15VP per secondary")
    assert game.score(P1, "raise-the-banners-high", 15).awarded == 15  # another objective, its own cap


def test_secondary_objectives_are_capped_at_45_together() -> None:
    """With three picks the 15VP caps already imply it; an earlier score of another secondary shows the cap."""
    game = Game()
    game.to_battle()
    game.rig_vp(Tally(player=P1, objective="grind-them-down", round=1, claimed=10, awarded=10))
    game.turn_of(P1)
    for _ in range(4):
        game.score(P1, "linebreaker", 4)
    game.score(P1, "raise-the-banners-high", 15)
    game.score(P1, "primary:0", 15)  # primaries do not count towards it
    game.to_end_game()
    tally = game.score(P1, "assassinate", 15)
    assert (tally.awarded, tally.lost, tally.capped_by) == (5, 10, "45VP secondaries")


def test_battle_ready_gives_10vp_when_the_battle_ends() -> None:
    """A Battle Ready army is awarded a bonus 10VP at the end of the battle."""
    game = Game()
    game.act(DeclareBattleReady(actor=P2, ready=True))
    game.to_battle()
    game.finish()
    assert [(t.player, t.objective, t.round, t.awarded) for t in game.state.vp] == [(P2, "battle_ready", END_GAME, 10)]
    assert game.state.result.vp == {P1: 0, P2: 10} and game.state.result.winner == P2


def test_the_total_is_capped_at_100() -> None:
    """Legal scores reach 100 only with every other cap full: a rigged earlier 95VP shows the total cap cut a
    primary score and the Battle Ready bonus."""
    game = Game()
    game.act(DeclareBattleReady(actor=P1, ready=True))
    game.to_battle()
    game.rig_vp(Tally(player=P1, objective="vp", round=1, claimed=95, awarded=95))
    game.turn_of(P1)
    tally = game.score(P1, "primary:0", 10)
    assert (tally.awarded, tally.lost, tally.capped_by) == (5, 5, "100VP")
    game.finish()
    ready = game.state.vp[-1]
    assert (ready.objective, ready.claimed, ready.awarded, ready.capped_by) == ("battle_ready", 10, 0, "100VP")
    assert game.state.result.vp[P1] == 100


# ---- 16. determine victor, 14. conceding ----------------------------------------------------------

def battle_scored(second: tuple[str, int]) -> Game:
    """A battle in which P1 scores 4VP of their Primary in their first turn, P2 `second` (objective, VP) in theirs."""
    game = Game()
    game.to_battle()
    game.turn_of(P1)
    game.score(P1, "primary:0", 4)
    game.turn_of(P2)
    game.score(P2, *second)
    game.finish()
    return game


def test_the_player_with_the_most_vp_wins() -> None:
    """16. DETERMINE VICTOR: the player with the most VP wins."""
    game = battle_scored(("primary:0", 5))
    assert game.state.status == Step.ENDED
    assert (game.state.result.winner, game.state.result.reason, game.state.result.vp) == (P2, "battle", {P1: 4, P2: 5})


def test_equal_vp_is_a_draw() -> None:
    """If players are tied, the battle is a draw."""
    game = battle_scored(("linebreaker", 4))
    assert game.state.result.winner is None and "draw" in public(game.events[-1:])


def test_a_player_who_concedes_scores_0vp_and_the_opponent_wins() -> None:
    """Conceding: the conceder scores 0VP and the opponent is the victor, once the battle has begun."""
    game = Game()
    game.refuse(Concede(actor=P1), WrongPhase, "once the battle has begun")
    game.to_battle()
    game.turn_of(P1)
    game.score(P1, "primary:0", 15)
    game.turn_of(P2)
    game.score(P2, "primary:0", 3)
    game.act(Concede(actor=P1))
    result = game.state.result
    assert (game.state.status, result.winner, result.reason, result.vp) == (Step.ENDED, P2, "concession",
                                                                            {P1: 0, P2: 3})


def test_battle_ready_counts_for_a_game_won_by_concession_but_not_an_abandoned_one() -> None:
    """A game with a result awards the Battle Ready bonus (the conceder still scores 0VP); an abandoned one none."""
    game = Game()
    game.act(DeclareBattleReady(actor=P2, ready=True))
    game.to_battle()
    game.act(Concede(actor=P1))
    assert game.state.result.vp == {P1: 0, P2: 10}
    abandoned = Game()
    abandoned.act(DeclareBattleReady(actor=P2, ready=True))
    abandoned.to_battle()
    abandoned.act(Abandon(actor=P1))
    assert abandoned.state.vp == () and abandoned.state.result.vp == {P1: 0, P2: 0}


def test_a_finished_game_refuses_every_move() -> None:
    """Once the game is over nothing more can be done to it."""
    game = Game()
    game.to_battle()
    game.act(Concede(actor=P2))
    for action in (ScoreObjective(actor=P1, objective="primary:0", vp=1), EndTurn(actor=P1),
                   SpendCp(actor=P1, amount=1), GainCp(actor=P1, amount=1), Concede(actor=P1)):
        game.refuse(action, WrongPhase, "This game is over.")


def test_only_the_two_players_act() -> None:
    """Someone else's action is refused (as the Chapter Approved engine does), not a crash."""
    game = Game()
    game.refuse(SelectSecondaries(actor=OUTSIDER, picks=PICKS), NotAPlayer, "Only the two players")
    game.refuse(SpendCp(actor=OUTSIDER, amount=1), NotAPlayer)


# ---- undo and replay -------------------------------------------------------------------------------

def test_the_reveal_and_every_roll_off_cannot_be_undone() -> None:
    """`revealed` guards undo: the reveal with the sides roll-off and the first-turn roll-off; not plain moves."""
    game = Game()
    revealed = []

    def step(action) -> None:
        before = game.state
        game.act(action)
        revealed.append((action.kind, GT.revealed(before, game.state)))

    step(SelectSecondaries(actor=P1, picks=PICKS))
    step(SelectSecondaries(actor=P2, picks=PICKS))
    step(ChooseSide(actor=game.state.sides_rolloff.winner, side="attacker"))
    step(DeploymentDone(actor=P1))
    step(DeploymentDone(actor=P2))
    step(ChooseTurn(actor=game.state.first_turn_rolloff.winner, first=True))
    step(ScoreObjective(actor=game.active, objective="linebreaker", vp=3))
    step(EndTurn(actor=game.active))
    assert revealed == [("select_secondaries", False), ("select_secondaries", True), ("choose_side", False),
                        ("deployment_done", False), ("deployment_done", True), ("choose_turn", False),
                        ("score_objective", False), ("end_turn", False)]


def test_replaying_the_log_gives_the_same_game() -> None:
    """The action log, through its JSON form, replays to the same state (undo, verify)."""
    game = Game(mission=None, seed="replay")
    game.act(DeclareBattleReady(actor=P1, ready=True))
    game.act(SpendCp(actor=P2, amount=3))
    game.to_battle(first=P2)
    game.turn_of(P2)
    game.score(P2, "primary:0", 10)
    game.act(GainCp(actor=P1, amount=1))
    game.finish()
    logged = [TABLE_ACTIONS.validate_json(TABLE_ACTIONS.dump_json(action)) for action in game.log]
    assert PACKS.replay(game.setup, logged) == game.state
