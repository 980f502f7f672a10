"""The rules every table game shares, as a base class each older pack's rules module extends (as python-chess's
variants extend its board): the battle sequence from the sides roll-off to the victor, VP by objective and battle
round with the pack's caps, Command points with the 1CP-per-round limit, concession and the chess clock.

A pack fills in its hooks: how a game begins (its mission), what a player may score and its caps, what happens at
the start of a turn, how many battle rounds there are and who wins. Every roll comes from a labelled stream of the
game's seed (`<pack prefix>:<label>`), so a finished game can be checked by anyone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from bot.engine import clock as clocks
from bot.engine.command_points import cp_amount, cp_reason
from bot.engine.errors import InvalidValue, NotAPlayer, NotYourTurn, WrongPhase
from bot.engine.events import Event, Played, result_text
from bot.engine.models import Result, RollOff, settled
from bot.engine.rng import roll_off_between, stream_of
from bot.engine.table import actions as t
from bot.engine.table.state import END_GAME, Seat, Step, TableSetup, TableState, Tally

SCORING = (Step.BATTLE, Step.ROUND_END, Step.END_GAME)

PRE_BATTLE = (Step.MISSION, Step.SECONDARIES, Step.SIDES, Step.DEPLOYMENT, Step.FIRST_TURN)
PROGRESSIVE = ("progressive", "progressive-and-end-game")
END_GAME_KINDS = ("end-game", "progressive-and-end-game")


@dataclass(frozen=True, slots=True)
class Objective:
    """Something a player may score: `kind` is progressive, end-game or progressive-and-end-game; during the battle
    it scores from battle round `from_round`, at any time (`scores` "any"), in the scorer's own turn ("your-turn"),
    in their Command phase ("command-phase") or at the end of each battle round ("end-of-battle-round"). `most`: the
    most VP it gives at once (None: it counts units or markers, so only the caps bound it)."""

    id: str
    name: str
    kind: str
    scores: str = "any"
    from_round: int = 1
    most: int | None = None


class Play:
    """One action being applied: the state as it changes, and what to tell the players."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        self.events: list[Event] = []

    def update(self, **fields: Any) -> None:
        self.state = self.state.model_copy(update=fields)

    def seat(self, player: str, **fields: Any) -> None:
        seats = tuple(p.model_copy(update=fields) if p.id == player else p for p in self.state.players)
        self.update(players=seats)

    def say(self, text: str, player: str | None = None, *, private_to: str | None = None) -> None:
        self.events.append(Event(text, player=player, private_to=private_to))

    def name(self, player: str) -> str:
        return self.state.player(player).name


class TableRules:
    """The shared battle sequence; subclasses are the packs."""

    pack: ClassVar[str]
    prefix: ClassVar[str]  # of the labels of the pack's random streams
    has_cp: ClassVar[bool] = False
    has_battle_ready: ClassVar[bool] = False
    has_command_phase: ClassVar[bool] = False  # its turns open with a Command phase the players end by hand

    title: str
    data: Any  # the pack's data, validated at start-up (decks/<pack>/)

    # ---- the pack's hooks ------------------------------------------------------------------------

    def begin(self, setup: TableSetup) -> tuple[dict[str, Any], list[str]]:
        """The state's mission fields and first step, and what to announce."""
        raise NotImplementedError

    def objectives(self, state: TableState, player: str) -> list[Objective]:
        """What `player` may score in this game."""
        raise NotImplementedError

    def objective_name(self, state: TableState, player: str, objective: str) -> str:
        """How the players call an objective (its id when the pack does not list it)."""
        return next((o.name for o in self.objectives(state, player) if o.id == objective), objective)

    def scorable(self, state: TableState, player: str) -> list[Objective]:
        """What `player` may score right now."""
        return [o for o in self.objectives(state, player) if window_refusal(state, player, o) is None]

    def award(self, state: TableState, player: str, objective: str, claimed: int) -> tuple[int, str | None]:
        """The VP awarded of those claimed, and the cap that cut them (None: all awarded)."""
        return claimed, None

    def starting_cp(self, setup: TableSetup) -> int:
        return 0

    def start_turn(self, play: Play) -> None:
        """The start of the active player's turn (their Command phase)."""

    def battle_rolls(self, play: Play) -> None:
        """Both armies are deployed: the first-turn roll-off (a pack may make more rolls here)."""
        play.update(first_turn_rolloff=self.roll_off(play.state, "first-turn"))

    def extend(self, play: Play) -> bool:
        """After the last battle round: does the battle go on for another?"""
        return False

    def can_finish(self, play: Play) -> str | None:
        """Why the End Game step cannot close yet (None: it can)."""
        return None

    def winner(self, state: TableState) -> str | None:
        return state.leader

    def finish_battle(self, play: Play) -> None:
        """Scores made when the game ends with a result (the battle, a concession, on time), before the VP count."""

    def conceded_vp(self, state: TableState, player: str) -> int:
        return state.total_vp(player)

    def scores_vp(self, state: TableState) -> bool:
        """Do VP decide this game (not so a 4th edition Alpha mission's: its objective does)?"""
        return True

    def result_line(self, state: TableState) -> str:
        """How the game ended, for everyone."""
        return result_text(state.result, lambda player: state.player(player).name)

    # ---- the engine's entry ------------------------------------------------------------------------

    def new_game(self, setup: TableSetup) -> Played:
        if setup.players[0] == setup.players[1]:
            raise InvalidValue("You cannot play against yourself: pick another opponent.")
        if not setup.seed:
            raise InvalidValue("A game needs a seed.")
        fields, lines = self.begin(setup)
        state = TableState(
            setup=setup, players=tuple(Seat(id=pid, name=name, cp=self.starting_cp(setup), army=army)
                                       for pid, name, army in zip(setup.players, setup.names,
                                                                  setup.armies or (None, None))),
            clock=clocks.new_clock(setup.clock_minutes, setup.clock_expiry) if setup.clock_minutes else None,
            **fields,
        )
        return Played(state, tuple(Event(line) for line in lines))

    def apply(self, state: TableState, action: t.TableAction) -> Played:
        """A clocked game charges the running player up to the action's stamp, applies the rules, then runs the
        clock for whoever the game waits on next (as the Chapter Approved rules do)."""
        clock, at = state.clock, action.at
        if clock is not None and at is not None:
            state = state.model_copy(update={"clock": clocks.charge(clock, at)})
        if state.over:
            raise WrongPhase("This game is over.")
        # As in the Chapter Approved engine: a moderator may abandon a game too (the service decides who may).
        if not isinstance(action, t.Abandon) and action.actor not in state.setup.players:
            raise NotAPlayer("Only the two players of this game can act on it.")
        play = Play(state)
        handler = getattr(self, f"_do_{action.kind}", None)
        if handler is None:
            raise InvalidValue(f"A {self.title} game has no such move.")
        handler(play, action)
        after = play.state
        if clock is not None and at is not None and after.clock is not None:
            after = after.model_copy(update={"clock": clocks.switch(after.clock, self.runner(after), at)})
        return Played(after, tuple(play.events))

    def replay(self, setup: TableSetup, actions: list[t.TableAction]) -> TableState:
        state = self.new_game(setup).state
        for action in actions:
            state = self.apply(state, action).state
        return state

    def runner(self, state: TableState) -> str | None:
        """Whose time runs: the player whose turn it is, in the battle only."""
        return state.active

    def revealed(self, before: TableState, after: TableState) -> bool:
        """Did the step show a roll or a hidden choice (so undoing it would let a player choose again)?"""
        rolls = ("mission", "sides_rolloff", "first_turn_rolloff", "length_rolls", "battle_rounds")
        return any(getattr(before, name) != getattr(after, name) for name in rolls) or (
            before.status == Step.SECONDARIES and after.status != before.status)

    # ---- helpers for the packs -------------------------------------------------------------------

    def stream(self, state: TableState, label: str):
        """The game's random stream labelled `<prefix>:<label>` (docs/verify.md)."""
        return stream_of(state.setup.seed, f"{self.prefix}:{label}", state.setup.version)

    def roll_off(self, state: TableState, label: str) -> RollOff:
        return roll_off_between(self.stream(state, label), state.setup.players)

    # ---- before the battle -------------------------------------------------------------------------

    def _do_choose_side(self, play: Play, action) -> None:
        state = play.state
        _expect(state, Step.SIDES, "Attacker and Defender are chosen after the secondary objectives are revealed.")
        winner = settled(state.sides_rolloff).winner
        if action.actor != winner:
            raise NotYourTurn(f"{play.name(winner)} won the roll-off and chooses.")
        attacker = action.actor if action.side == "attacker" else state.opponent(action.actor).id
        play.update(attacker=attacker, status=Step.DEPLOYMENT)
        defender = state.opponent(attacker).id
        play.say(f"{play.name(attacker)} is the Attacker and {play.name(defender)} the Defender. The Defender "
                 "selects a deployment zone and sets up first; the players alternate setting up units. Press "
                 "Deployment done when your army is set up.")

    def _do_set_army(self, play: Play, action) -> None:
        if play.state.status not in PRE_BATTLE:
            raise WrongPhase("Armies are set before the battle begins.")
        play.seat(action.actor, army=action.army)
        play.say(f"{play.name(action.actor)}'s army: {action.army.label}.")

    def _do_battle_ready(self, play: Play, action) -> None:
        if not self.has_battle_ready:
            raise InvalidValue(f"{self.title} has no Battle Ready bonus.")
        if play.state.status not in PRE_BATTLE:
            raise WrongPhase("Declare Battle Ready before the battle begins.")
        play.seat(action.actor, battle_ready=action.ready, ready_declared=True)
        play.say(f"{play.name(action.actor)}'s army is {'' if action.ready else 'not '}Battle Ready.")

    def _do_deployment_done(self, play: Play, action) -> None:
        state = play.state
        _expect(state, Step.DEPLOYMENT, "This is not the deployment step.")
        if action.actor in state.deployed:
            raise WrongPhase("You already confirmed your deployment: waiting for your opponent.")
        play.update(deployed=(*state.deployed, action.actor))
        play.say(f"{play.name(action.actor)} has deployed.")
        if len(play.state.deployed) < 2:
            return
        self.battle_rolls(play)
        rolloff = settled(play.state.first_turn_rolloff)
        play.update(status=Step.FIRST_TURN)
        play.say(f"First turn roll-off: {rolloff.text}. {play.name(rolloff.winner)} chooses to go first or "
                 "second.")

    def _do_choose_turn(self, play: Play, action: t.ChooseTurn) -> None:
        state = play.state
        _expect(state, Step.FIRST_TURN, "The first turn is chosen once both armies are deployed.")
        winner = settled(state.first_turn_rolloff).winner
        if action.actor != winner:
            raise NotYourTurn(f"{play.name(winner)} won the roll-off and chooses.")
        first = action.actor if action.first else state.opponent(action.actor).id
        play.update(first=first, status=Step.BATTLE, round=1, turn=1)
        play.say(f"{play.name(first)} takes the first turn. Battle round 1 begins.")
        self._begin_turn(play)

    # ---- the battle ------------------------------------------------------------------------------

    def _begin_turn(self, play: Play) -> None:
        play.update(command_phase=self.has_command_phase)
        self.start_turn(play)

    def _do_end_command_phase(self, play: Play, action) -> None:
        state = play.state
        if not self.has_command_phase:
            raise InvalidValue(f"A {self.title} turn has no Command phase to end.")
        _expect(state, Step.BATTLE, "There is no Command phase now.")
        if action.actor != state.active:
            raise NotYourTurn(f"It is {play.name(settled(state.active))}'s turn.")
        if not state.command_phase:
            raise WrongPhase("Your Command phase is already over.")
        play.update(command_phase=False)
        play.say(f"{play.name(action.actor)}'s Command phase is over.")

    def _do_end_turn(self, play: Play, action) -> None:
        state = play.state
        _expect(state, Step.BATTLE, "There is no turn to end now.")
        if action.actor != state.active:
            raise NotYourTurn(f"It is {play.name(settled(state.active))}'s turn.")
        if state.turn == 1:
            play.update(turn=2)
            play.say(f"{play.name(settled(play.state.active))}'s turn.")
            self._begin_turn(play)
        elif state.setup.version >= 3 and self.round_scorers(state):
            play.update(status=Step.ROUND_END, turn=0, command_phase=False)
            names = " and ".join(play.name(p) for p in self.round_scorers(state))
            play.say(f"Battle round {state.round} is over: {names} may score what scores at the end of the battle "
                     "round, then press Done scoring.")
        else:
            self._next_round(play)

    def _next_round(self, play: Play) -> None:
        """After a battle round's last turn (and its end, where objectives score then): the next one, or the end."""
        state = play.state
        if state.round < state.battle_rounds or self.extend(play):
            play.update(round=play.state.round + 1, turn=1, status=Step.BATTLE)
            play.say(f"Battle round {play.state.round} begins.")
            play.say(f"{play.name(settled(play.state.active))}'s turn.")
            self._begin_turn(play)
        else:
            play.update(status=Step.END_GAME, turn=0, command_phase=False)
            play.say("The battle is over. Score any End Game objectives, then each player presses Done scoring.")

    def round_scorers(self, state: TableState) -> list[str]:
        """The players holding an objective scored at the end of the battle round."""
        return [p.id for p in state.players
                if any(o.scores == "end-of-battle-round" for o in self.objectives(state, p.id))]

    def _do_score_objective(self, play: Play, action: t.ScoreObjective) -> None:
        state, me = play.state, action.actor
        if state.status not in SCORING:
            raise WrongPhase("VP are scored during the battle.")
        if me in state.scoring_done:
            raise WrongPhase("You have finished your End Game scoring." if state.status == Step.END_GAME else
                             f"You have finished scoring battle round {state.round}.")
        objective = next((o for o in self.objectives(state, me) if o.id == action.objective), None)
        if objective is None:
            raise InvalidValue("That is not one of your objectives in this game.")
        if (why := window_refusal(state, me, objective)) is not None:
            raise WrongPhase(why)
        if state.setup.version >= 3 and objective.most is not None and action.vp > objective.most:
            raise InvalidValue(f"{objective.name} gives at most {objective.most}VP at once, so {action.vp}VP cannot "
                               "be right: nothing was recorded. Enter what it scored this time.")
        end_game = state.status == Step.END_GAME
        awarded, cap = self.award(state, me, objective.id, action.vp)
        tally = Tally(player=me, objective=objective.id, round=END_GAME if end_game else state.round,
                      claimed=action.vp, awarded=awarded, capped_by=cap)
        play.update(vp=(*state.vp, tally))
        when = "at the end of the battle" if end_game else f"in battle round {state.round}"
        lost = f" ({tally.lost}VP over the {cap} cap, lost)" if tally.lost else ""
        play.say(f"{play.name(me)} scores {awarded}VP for {objective.name} {when}{lost}.")

    def _do_spend_cp(self, play: Play, action) -> None:
        self._require_cp()
        amount = cp_amount(action.amount)
        seat = play.state.player(action.actor)
        if seat.cp < amount:
            raise InvalidValue(f"You have {seat.cp}CP: you cannot spend {amount}CP.")
        play.seat(action.actor, cp=seat.cp - amount)
        play.say(f"{seat.name} spends {amount}CP{_in_brackets(action.reason)}: {seat.cp - amount}CP left.")

    def _do_gain_cp(self, play: Play, action: t.GainCp) -> None:
        self._require_cp()
        state, amount = play.state, cp_amount(action.amount)
        seat = state.player(action.actor)
        if action.mission_rule:
            if action.actor != state.active:
                raise WrongPhase("A mission rule gives CP in your own Command phase: wait for your turn.")
            if self.has_command_phase and not in_command_phase(state):
                raise WrongPhase("A mission rule gives CP in your Command phase, and yours is over for this turn.")
            play.seat(action.actor, cp=seat.cp + amount)
        elif state.status in PRE_BATTLE:  # mustering: a Detachment's Command Benefits, outside the battle's limit
            play.seat(action.actor, cp=seat.cp + amount)
        else:
            gained = seat.cp_gained if seat.cp_round == state.round else 0
            if gained + amount > 1:
                raise InvalidValue("A player gains or is refunded at most 1CP per battle round from rules other "
                                   "than the Battle-forged bonus and mission rules.")
            play.seat(action.actor, cp=seat.cp + amount, cp_round=state.round, cp_gained=gained + amount)
        play.say(f"{seat.name} gains {amount}CP{_in_brackets(action.reason)}: {seat.cp + amount}CP.")

    def _require_cp(self) -> None:
        if not self.has_cp:
            raise WrongPhase(f"{self.title} has no Command points.")

    # ---- the end ---------------------------------------------------------------------------------

    def _do_done_scoring(self, play: Play, action) -> None:
        state = play.state
        if state.status == Step.ROUND_END:
            self._round_scored(play, action.actor)
            return
        _expect(state, Step.END_GAME, "Done scoring closes the End Game scoring, once the battle is over.")
        if action.actor in state.scoring_done:
            raise WrongPhase("You already pressed Done scoring: waiting for your opponent.")
        if (why := self.can_finish(play)) is not None:
            raise WrongPhase(why)
        play.update(scoring_done=(*state.scoring_done, action.actor))
        play.say(f"{play.name(action.actor)} has finished scoring.")
        if len(play.state.scoring_done) == 2:
            self._finish(play, "battle")

    def _round_scored(self, play: Play, player: str) -> None:
        """A scorer closes the end of the battle round; once all of them have, the battle goes on."""
        state = play.state
        if player not in self.round_scorers(state):
            raise WrongPhase("Nothing of yours scores at the end of the battle round: waiting for your opponent.")
        if player in state.scoring_done:
            raise WrongPhase("You already pressed Done scoring: waiting for your opponent.")
        play.update(scoring_done=(*state.scoring_done, player))
        play.say(f"{play.name(player)} has finished scoring battle round {state.round}.")
        if set(self.round_scorers(state)) <= set(play.state.scoring_done):
            play.update(scoring_done=())
            self._next_round(play)

    def _do_concede(self, play: Play, action) -> None:
        if play.state.status not in SCORING:
            raise WrongPhase("You can concede once the battle has begun; before that, use /game end.")
        play.say(f"{play.name(action.actor)} concedes.")
        self._finish(play, "concession", winner=play.state.opponent(action.actor).id, conceded=action.actor)

    def _do_abandon(self, play: Play, action) -> None:
        self._finish(play, "abandoned")

    def _finish(self, play: Play, reason: str, *, winner: str | None = None, conceded: str | None = None) -> None:
        """End the game. The battle's victor is the pack's to determine, once the last scores are made."""
        if reason != "abandoned":
            self.finish_battle(play)
        if reason == "battle":
            winner = self.winner(play.state)
        state = play.state
        vp = {p.id: self.conceded_vp(state, p.id) if p.id == conceded else state.total_vp(p.id)
              for p in state.players}
        result = Result(winner=winner, reason=reason, vp=vp)
        play.update(status=Step.ABANDONED if reason == "abandoned" else Step.ENDED, result=result)
        play.say(self.result_line(play.state))

    # ---- the chess clock -------------------------------------------------------------------------

    def _clock_move(self, play: Play, action) -> None:
        clock, event, claimed_by = clocks.move(play.state, action)
        play.update(clock=clock)
        play.events.append(event)
        if claimed_by is not None:
            self._finish(play, "time", winner=claimed_by)

    _do_pause_clock = _do_resume_clock = _do_time_out = _do_claim_time = _clock_move


def capped(claimed: int, caps: list[tuple[str, int, int]]) -> tuple[int, str | None]:
    """VP awarded of `claimed` under caps given as (name, limit, already scored towards it): the tightest wins."""
    awarded, by = claimed, None
    for name, limit, scored in caps:
        room = max(0, limit - scored)
        if room < awarded:
            awarded, by = room, name
    return awarded, by


def window_refusal(state: TableState, scorer: str, objective: Objective) -> str | None:
    """Why `scorer` cannot score `objective` now (None: they can)."""
    if state.status == Step.END_GAME:
        if objective.kind not in END_GAME_KINDS:
            return f"{objective.name} is a progressive objective: it is scored during the battle."
        return None
    at_round_end = objective.scores == "end-of-battle-round"
    if state.status == Step.ROUND_END:
        return None if at_round_end else f"{objective.name} is not scored at the end of the battle round."
    if state.status != Step.BATTLE:
        return "VP are scored during the battle."
    if objective.kind not in PROGRESSIVE:
        return f"{objective.name} is an End Game objective: it is scored when the battle is over."
    if state.round < objective.from_round:
        return f"{objective.name} cannot be scored before battle round {objective.from_round}."
    if objective.scores == "your-turn" and scorer != state.active:
        return f"{objective.name} scores in your own turn."
    if objective.scores == "command-phase" and (scorer != state.active or not in_command_phase(state)):
        return (f"{objective.name} scores in your own Command phase." if scorer != state.active else
                f"{objective.name} scores in your Command phase, and yours is over for this turn.")
    if at_round_end and state.setup.version >= 3:
        return f"{objective.name} scores at the end of the battle round, once its last turn is over."
    if at_round_end and state.turn != 2:  # version 2 scored it in the round's second turn
        return f"{objective.name} scores at the end of the battle round: in its second turn."
    return None


def in_command_phase(state: TableState) -> bool:
    """Is the active player in their Command phase? Before version 3 the bot did not follow it: the whole turn."""
    return state.command_phase or state.setup.version < 3


def _expect(state: TableState, step: Step, message: str) -> None:
    if state.status != step:
        raise WrongPhase(message)


def _in_brackets(reason: str) -> str:
    reason = cp_reason(reason)
    return f" ({reason})" if reason else ""
