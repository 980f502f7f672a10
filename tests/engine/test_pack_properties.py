"""Property tests of the table-game packs (Grand Tournament 2020, 4th edition) through `installed_packs()`.

A Hypothesis state machine starts a game of either pack (random size, mission, level, Strategy Ratings, seed and
chess clock), then each step applies one action: a legal move that takes the game on, a score or a CP change, or
any record of the action union with plausible and implausible arguments and actors. A refused action (GameError)
must leave the state unchanged; any other exception is a bug. After every accepted action the shared invariants
hold: the GT 2020 caps, awarded <= claimed, CP never negative (none at all in 4th edition), no secret selection in
a public event before both players chose, the same outcome on a reloaded JSON snapshot. At the end the game is
played through to its end, and replaying the log gives the same state.
"""

from __future__ import annotations

from typing import get_args

from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule

from bot.decks import fourth_edition, grand_tournament, installed_packs
from bot.engine import moves
from bot.engine.errors import GameError
from bot.engine.models import Army
from bot.engine.gt2020.selection import CODEX
from bot.engine.rng import stream_of
from bot.engine.table import actions as t
from bot.engine.table.actions import TABLE_ACTIONS
from bot.engine.table.state import Step, TableSetup, TableState

PACKS = installed_packs()
GT_DATA = grand_tournament()
FOURTH = fourth_edition()
CAPS = GT_DATA.pack.caps
P1, P2, OUTSIDER = "100000000000000001", "100000000000000002", "999999999999999999"
NAMES = ("Alice", "Bob")

# Every secondary a GT player may pick, by id and by name (a mission's own objective may recur in two missions).
GT_NAMES = {s.id: s.name for s in GT_DATA.secondaries} | {m.secondary.id: m.secondary.name for m in GT_DATA.missions}
GT_GROUPS = [tuple(s.id for s in GT_DATA.secondaries if s.category == c.id) for c in GT_DATA.categories]
JUNK = ("", "nope", "LINEBREAKER", "primary:9", "primary:x", "x" * 300)
SCORE_IDS = ("primary:0", "primary:1", "vp", "battle_ready", CODEX, *GT_NAMES, *JUNK)
FOURTH_MISSIONS = tuple(m.id for m in FOURTH.missions)
CODEX_NAMES = ("Oath of Moment", "Rites of Zeal")  # collide with no other text the bot shows
REASONS = ("", "Detachment", "  ", "r" * 201)
STATUS_RANK = {Step.MISSION: 0, Step.SECONDARIES: 0, Step.SIDES: 1, Step.DEPLOYMENT: 2, Step.FIRST_TURN: 3,
               Step.BATTLE: 4, Step.ROUND_END: 4, Step.END_GAME: 5, Step.ENDED: 6, Step.ABANDONED: 6}
TABLE_KINDS = {cls.model_fields["kind"].default for cls in get_args(get_args(t.TableAction)[0])}
# Concede and Abandon once among many, so most games are played to the end.
RANDOM_KINDS = tuple(sorted(TABLE_KINDS - {"concede", "abandon"})) * 2 + ("concede", "abandon")
CLOCK_ACTIONS = (moves.PauseClock, moves.ResumeClock, moves.TimeOut, moves.ClaimTime)
MAX_FINISH = 200  # moves to play any game through: GT 2020 needs about 20, an Omega game at most 30


# ---- setups and moves --------------------------------------------------------------------------

@st.composite
def setups(draw) -> TableSetup:
    pack = draw(st.sampled_from(("gt-2020", "4th-edition")), label="pack")
    common = dict(players=(P1, P2), names=NAMES, seed=draw(st.text(min_size=1, max_size=16), label="seed"),
                  clock_minutes=draw(st.sampled_from((None, None, 1)), label="clock"),
                  clock_expiry=draw(st.sampled_from(("play-on", "claim")), label="expiry"))
    if pack == "gt-2020":
        size = draw(st.sampled_from(("incursion", "strike-force")), label="size")
        sized = [m.id for m in GT_DATA.missions if m.size == size]
        return TableSetup(pack=pack, size=size, mission=draw(st.sampled_from([None, None, *sized])), **common)
    mission = draw(st.sampled_from((None, None, None, *FOURTH_MISSIONS)), label="mission")
    if mission is None and draw(st.booleans(), label="a Strategy Roll?"):
        common["seed"] = strategy_roll_seed(common["seed"])
    return TableSetup(pack=pack, mission=mission, level=draw(st.sampled_from((None, "alpha", "gamma", "omega"))),
                      strategy_ratings=draw(st.tuples(st.integers(1, 3), st.integers(1, 3)), label="ratings"),
                      **common)


def strategy_roll_seed(seed: str) -> str:
    """A variant of the seed whose mission roll is a 6: the Strategy Roll winner chooses the mission."""
    return next(s for s in (f"{seed}#{n}" for n in range(1000)) if stream_of(s, "4e:mission").randint(1, 6) == 6)


@st.composite
def selections(draw, mission_id: str) -> t.SelectSecondaries:
    """A legal GT 2020 selection: three picks from different categories, the mission's own or a Codex one."""
    groups = [*GT_GROUPS, (GT_DATA.mission(mission_id).secondary.id,), (CODEX,)]
    chosen = draw(st.lists(st.sampled_from(groups), min_size=3, max_size=3, unique=True), label="groups")
    picks = tuple(draw(st.sampled_from(group), label="pick") for group in chosen)
    return t.SelectSecondaries(actor=P1, picks=picks, codex=draw(st.sampled_from(CODEX_NAMES), label="codex"))


def next_move(state: TableState, draw) -> t.TableAction:
    """A legal move that takes the game on; `draw` picks among the choices (`draw(options)` -> one of them)."""
    match state.status:
        case Step.MISSION:
            return t.ChooseMission(actor=state.strategy_roll.winner, mission=draw(FOURTH_MISSIONS))
        case Step.SECONDARIES:
            chooser = draw([p.id for p in state.players if p.secret is None])
            return draw_selection(state, chooser, draw)
        case Step.SIDES:
            return moves.ChooseSide(actor=state.sides_rolloff.winner, side=draw(("attacker", "defender")))
        case Step.DEPLOYMENT:
            return moves.DeploymentDone(actor=draw([p for p in (P1, P2) if p not in state.deployed]))
        case Step.FIRST_TURN:
            return t.ChooseTurn(actor=state.first_turn_rolloff.winner, first=draw((True, False)))
        case Step.BATTLE:
            return moves.EndTurn(actor=state.active)
        case Step.ROUND_END:
            scorers = PACKS.rules(state.pack).round_scorers(state)
            return moves.DoneScoring(actor=draw([p for p in scorers if p not in state.scoring_done]))
        case Step.END_GAME:
            alpha = state.pack == "4th-edition" and state.level == "alpha"
            if alpha and not state.mission_decided:
                return t.MissionResult(actor=draw((P1, P2)), winner=draw((P1, P2, None)))
            return moves.DoneScoring(actor=draw([p for p in (P1, P2) if p not in state.scoring_done]))
    raise AssertionError(f"no move takes a game on from {state.status}")


def draw_selection(state: TableState, chooser: str, draw) -> t.SelectSecondaries:
    own = GT_DATA.mission(state.mission).secondary.id
    picks = tuple(draw(group) for group in (GT_GROUPS[0], GT_GROUPS[2], (own, CODEX)))
    return t.SelectSecondaries(actor=chooser, picks=picks, codex=draw(CODEX_NAMES))


def first_of(options):
    return next(iter(options))


def play_through(state: TableState) -> tuple[TableState, list[t.TableAction]]:
    """Take the first option of every legal move until the game ends."""
    taken = []
    for _ in range(MAX_FINISH):
        if state.over:
            return state, taken
        move = next_move(state, first_of)
        state = PACKS.apply(state, move).state
        taken.append(move)
    raise AssertionError(f"the game did not end in {MAX_FINISH} moves: {state.status}, round {state.round}")


# ---- invariants --------------------------------------------------------------------------------

def check_scores(state: TableState) -> None:
    """awarded <= claimed and nothing negative; GT 2020's caps per player; CP never negative (none in 4e)."""
    for tally in state.vp:
        assert 0 <= tally.awarded <= tally.claimed and tally.lost >= 0
        assert (tally.capped_by is None) == (tally.lost == 0)
    for seat in state.players:
        assert seat.cp >= 0 if state.pack == "gt-2020" else seat.cp == 0
        if state.pack != "gt-2020":
            continue
        mine = [v for v in state.vp if v.player == seat.id]
        primary = sum(v.awarded for v in mine if v.objective.startswith("primary:"))
        ready = sum(v.awarded for v in mine if v.objective == "battle_ready")
        secondaries = {v.objective for v in mine if v.objective != "battle_ready"
                       and not v.objective.startswith("primary:")}
        each = {o: sum(v.awarded for v in mine if v.objective == o) for o in secondaries}
        assert primary <= CAPS.primary and ready <= CAPS.battle_ready
        assert max(each.values(), default=0) <= CAPS.each_secondary and sum(each.values()) <= CAPS.secondaries
        assert state.total_vp(seat.id) <= CAPS.total


def check_secrecy(before: TableState, after: TableState, events, actor: str) -> None:
    """Before both players chose, no public event names a pick and the board shows no objectives."""
    if after.sides_rolloff is not None:  # revealed
        return
    names = {GT_NAMES[p] for s in after.players for p in s.secret or () if p != CODEX}
    names |= {s.codex for s in after.players if s.codex}
    for e in events:
        if e.private_to is None:
            assert not any(n.casefold() in e.text.casefold() for n in names), e.text
        else:
            assert e.private_to == actor and before.status == Step.SECONDARIES
    assert all(s.objectives == () for s in after.players)


def check_result(state: TableState, action: t.TableAction) -> None:
    result = state.result
    if result.reason == "concession":
        assert result.winner == state.opponent(action.actor).id
        if state.pack == "gt-2020":
            assert result.vp[action.actor] == 0  # "A player who concedes scores 0 victory points"
    elif result.reason == "battle":
        alpha = state.pack == "4th-edition" and state.level == "alpha"
        assert result.winner == (state.mission_winner if alpha else state.leader)
        assert result.vp == {p.id: state.total_vp(p.id) for p in state.players}


# ---- the machine -------------------------------------------------------------------------------

class TableGameMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.setup: TableSetup | None = None
        self.state: TableState | None = None
        self.log: list[t.TableAction] = []
        self.now_ms = 0

    @initialize(setup=setups())
    def start(self, setup: TableSetup) -> None:
        outcome = PACKS.new_game(setup)
        self.setup, self.state, self.log = setup, outcome.state, []
        assert [p.cp for p in self.state.players] == [
            GT_DATA.pack.command_points[setup.size] if setup.pack == "gt-2020" else 0] * 2
        check_scores(self.state)

    # One rule only (as in test_game_properties.py): Hypothesis's swarm testing would otherwise disable
    # progression in some runs; weighted kinds replace separate rules.
    @rule(data=st.data())
    def step(self, data: st.DataObject) -> None:
        if self.state.over:
            return
        battle = self.state.status in (Step.BATTLE, Step.ROUND_END, Step.END_GAME)
        clocked = self.state.clock is not None
        kinds = ("progress",) * 20 + ("score",) * (12 if battle else 2) + ("cp",) * 4 + ("random",) * 6 + (
            ("clock",) * 4 * clocked) + ("end",) * battle
        kind = data.draw(st.sampled_from(kinds), label="kind")
        if kind == "progress":
            action = next_move(self.state, lambda options: data.draw(st.sampled_from(tuple(options))))
        else:
            action = getattr(self, f"_build_{kind}")(data)
        if clocked:
            self.now_ms += data.draw(st.integers(0, 90_000), label="milliseconds passed")
        self._attempt(action, must_accept=kind == "progress")

    def _attempt(self, action: t.TableAction, *, must_accept: bool) -> None:
        if self.state.clock is not None:  # the service stamps every action of a clocked game
            action = action.model_copy(update={"at": self.now_ms})
        assert TABLE_ACTIONS.validate_json(TABLE_ACTIONS.dump_json(action)) == action
        before = self.state
        before_json = before.model_dump_json()
        try:
            outcome = PACKS.apply(before, action)
        except GameError as err:
            assert not must_accept, f"a legal move was refused: {action!r}: {err.message}"
            assert err.message.strip(), "a refusal must tell the player why"
            assert before.model_dump_json() == before_json, "a refused action changed the state"
            return
        after = outcome.state
        assert before.model_dump_json() == before_json, "apply changed its input state in place"
        again = PACKS.apply(TableState.model_validate_json(before_json), action)
        assert (again.state, again.events) == (after, outcome.events), "a reloaded snapshot plays differently"
        assert TableState.model_validate_json(after.model_dump_json()) == after
        assert STATUS_RANK[after.status] >= STATUS_RANK[before.status] and after.round >= before.round
        check_scores(after)
        if after.pack == "gt-2020":
            check_secrecy(before, after, outcome.events, action.actor)
        if after.over:
            check_result(after, action)
            event(f"{after.pack}: {after.result.reason}")
        self.state = after
        self.log.append(action)

    def _actor(self, data: st.DataObject) -> str:
        return data.draw(st.sampled_from((P1, P2) * 3 + (OUTSIDER,)), label="actor")

    def _build_score(self, data: st.DataObject) -> t.ScoreObjective:
        actor = self._actor(data)
        rules = PACKS.rules(self.setup.pack)
        own = [o.id for o in rules.objectives(self.state, actor)] if actor != OUTSIDER else []
        ids = own * 15 + list(SCORE_IDS)
        vp = data.draw(st.one_of(st.integers(1, 20), st.integers(1, t.MAX_VP)), label="vp")
        return t.ScoreObjective(actor=actor, objective=data.draw(st.sampled_from(ids), label="objective"), vp=vp)

    def _build_cp(self, data: st.DataObject) -> t.TableAction:
        actor, reason = self._actor(data), data.draw(st.sampled_from(REASONS), label="reason")
        if data.draw(st.booleans(), label="spend?"):
            amount = data.draw(st.sampled_from((1, 1, 2, 3, 6, 12, 13, 0, -1)), label="amount")
            return moves.SpendCp(actor=actor, amount=amount, reason=reason)
        amount = data.draw(st.sampled_from((1, 1, 1, 2, 0, -1)), label="amount")
        return t.GainCp(actor=actor, amount=amount, reason=reason,
                        mission_rule=data.draw(st.booleans(), label="mission rule"))

    def _build_end(self, data: st.DataObject) -> t.TableAction:
        ending = data.draw(st.sampled_from((moves.Concede, moves.Concede, moves.Abandon)), label="ending")
        return ending(actor=self._actor(data))

    def _build_clock(self, data: st.DataObject) -> t.TableAction:
        """Mostly by the player the move is for: the pauser resumes, the running player's time runs out, their
        opponent claims."""
        clock = self.state.clock
        kind = data.draw(st.sampled_from(CLOCK_ACTIONS), label="clock action")
        out = clock.out[0] if clock.out else None
        likely = {moves.ResumeClock: clock.paused_by, moves.TimeOut: clock.running,
                  moves.ClaimTime: out and self.state.opponent(out).id}.get(kind)
        if likely is not None and data.draw(st.booleans(), label="the likely player?"):
            return kind(actor=likely)
        return kind(actor=self._actor(data))

    def _build_random(self, data: st.DataObject) -> t.TableAction:
        kind = data.draw(st.sampled_from(RANDOM_KINDS), label="random kind")
        actor = self._actor(data)
        match kind:
            case "select_secondaries":
                if self.state.pack == "gt-2020" and data.draw(st.booleans(), label="legal picks?"):
                    return data.draw(selections(self.state.mission)).model_copy(update={"actor": actor})
                picks = data.draw(st.lists(st.sampled_from((*GT_NAMES, CODEX, *JUNK)), min_size=2, max_size=4),
                                  label="picks")
                codex = data.draw(st.sampled_from((None, *CODEX_NAMES, "", "   ", "x" * 81)), label="codex")
                return t.SelectSecondaries(actor=actor, picks=tuple(picks), codex=codex)
            case "choose_mission":
                mission = data.draw(st.sampled_from((*FOURTH_MISSIONS, "kill-team", "")), label="mission")
                return t.ChooseMission(actor=actor, mission=mission)
            case "choose_side":
                return moves.ChooseSide(actor=actor, side=data.draw(st.sampled_from(("attacker", "defender"))))
            case "battle_ready":
                return moves.DeclareBattleReady(actor=actor, ready=data.draw(st.booleans(), label="ready"))
            case "choose_turn":
                return t.ChooseTurn(actor=actor, first=data.draw(st.booleans(), label="first"))
            case "score_objective":
                return self._build_score(data)
            case "spend_cp" | "gain_cp":
                return self._build_cp(data)
            case "mission_result":
                return t.MissionResult(actor=actor, winner=data.draw(st.sampled_from((P1, P2, None, OUTSIDER))))
            case "set_army":  # before the battle only
                return moves.SetArmy(actor=actor, army=Army(faction="orks", faction_name="Orks"))
        simple = {"deployment_done": moves.DeploymentDone, "end_command_phase": moves.EndCommandPhase,
                  "end_turn": moves.EndTurn, "done_scoring": moves.DoneScoring, "concede": moves.Concede,
                  "abandon": moves.Abandon, "pause_clock": moves.PauseClock, "resume_clock": moves.ResumeClock,
                  "time_out": moves.TimeOut, "claim_time": moves.ClaimTime}
        return simple[kind](actor=actor)

    def teardown(self) -> None:
        if self.state is None:
            return
        for _ in range(MAX_FINISH):  # play the game through to its end, checking every move
            if self.state.over:
                break
            self._attempt(next_move(self.state, first_of), must_accept=True)
        assert self.state.over, f"the game did not end: {self.state.status}, round {self.state.round}"
        assert PACKS.replay(self.setup, self.log) == self.state, "replaying the log gives another state"


TableGameMachine.TestCase.settings = settings(
    max_examples=100,
    stateful_step_count=60,
    derandomize=True,  # reproducible in CI: the same examples every run, no example database
    database=None,
    deadline=None,
)
TestTableGameProperties = TableGameMachine.TestCase


# ---- the caps and the game length as arithmetic ------------------------------------------------------

PROGRESSIVE_PICKS = ("linebreaker", "grind-them-down", "raise-the-banners-high")


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(claims=st.lists(st.tuples(st.sampled_from((P1, P2)), st.sampled_from(("primary:0", *PROGRESSIVE_PICKS)),
                                 st.integers(1, 25)), max_size=25))
def test_gt_awards_each_claim_up_to_its_caps(claims: list[tuple[str, str, int]]) -> None:
    """Whatever the order of the claims, each player keeps min(45, primary claimed) and min(15, claimed) of each
    secondary; the rest is recorded as lost. (Version 2, which took any claim: version 3 refuses a claim above what
    the objective gives at once.)"""
    setup = TableSetup(pack="gt-2020", players=(P1, P2), names=NAMES, size="strike-force", mission="battle-lines",
                       seed="caps", version=2)
    state = PACKS.new_game(setup).state
    for player in (P1, P2):
        state = PACKS.apply(state, t.SelectSecondaries(actor=player, picks=PROGRESSIVE_PICKS)).state
    state = PACKS.apply(state, moves.ChooseSide(actor=state.sides_rolloff.winner, side="attacker")).state
    for player in (P1, P2):
        state = PACKS.apply(state, moves.DeploymentDone(actor=player)).state
    state = PACKS.apply(state, t.ChooseTurn(actor=state.first_turn_rolloff.winner, first=True)).state
    for player, objective, vp in claims:
        # Into the scoring window (the timing has tests of its own): battle round 2, the claimant's turn, or the
        # round's second turn for an objective scored at the end of the battle round.
        turn = 2 if objective == "grind-them-down" or player != state.first else 1
        state = state.model_copy(update={"round": 2, "turn": turn})
        state = PACKS.apply(state, t.ScoreObjective(actor=player, objective=objective, vp=vp)).state
    for player in (P1, P2):
        for objective in ("primary:0", *PROGRESSIVE_PICKS):
            claimed = sum(vp for p, o, vp in claims if (p, o) == (player, objective))
            cap = CAPS.primary if objective == "primary:0" else CAPS.each_secondary
            mine = [v for v in state.vp if (v.player, v.objective) == (player, objective)]
            assert sum(v.awarded for v in mine) == min(cap, claimed)
            assert sum(v.lost for v in mine) == claimed - min(cap, claimed)


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(seed=st.text(min_size=1, max_size=16))
def test_omega_lasts_6_battle_rounds_plus_one_per_4_plus_at_most_3(seed: str) -> None:
    """Random Game Length: after the sixth battle round a D6, 4+ another round, until a 1-3 or 3 extensions."""
    setup = TableSetup(pack="4th-edition", players=(P1, P2), names=NAMES, mission="recon", level="omega", seed=seed)
    end, _ = play_through(PACKS.new_game(setup).state)
    rolls = [stream_of(seed, f"4e:game-length:{r}").randint(1, 6) for r in (6, 7, 8)]
    made = next((n + 1 for n, roll in enumerate(rolls) if roll < 4), 3)
    assert end.length_rolls == tuple(rolls[:made])
    assert end.round == 6 + sum(1 for roll in end.length_rolls if roll >= 4)
