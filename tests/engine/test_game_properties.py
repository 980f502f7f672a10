"""Stateful property tests: random legal and illegal actions driven through whole games.

A Hypothesis state machine sets up a game (random size, twist, Challenger cards, pool mission, seed and
Fixed/Tactical plans), then each step applies one action built from the full Action union with plausible
and implausible arguments. A refused action (GameError) must leave the state untouched; any other
exception is a bug. Invariants on cards, caps, CP, progression, JSON and hidden information are checked
after every step; replay and undo every few steps and at the end of each game, where the game's export
must also verify (`python -m bot verify`) once it is over. Progression actions are
weighted so most runs play a battle to the end of round 5.
"""

from __future__ import annotations

from collections import Counter
from typing import get_args

import pytest
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from bot.decks import default_catalog
from bot.engine.chapter_approved import actions as a
from bot.engine.models import Army
from bot.engine.chapter_approved.game import Event, Played, apply, new_game, replay, runner
from bot.engine.chapter_approved.geometry import CORNERS
from bot.engine.chapter_approved.objectives import HIDDEN_SUPPLIES_ID, table_objectives
from bot.engine.chapter_approved.state import GameSetup, GameState, Phase, PromptKind, Source, Status
from bot.engine.errors import GameError
from bot.engine.rng import seed_hash
from bot.services.game_log import export_game
from bot.services.verification import verify

CATALOG = default_catalog()
RULES = CATALOG.rules
CAPS = RULES.caps

SECONDARY_IDS = tuple(c.id for c in CATALOG.secondaries)
CHALLENGER_IDS = tuple(c.id for c in CATALOG.challengers)
FIXED_IDS = tuple(c.id for c in CATALOG.secondaries if c.fixed)
TOURNAMENT_FIXED_IDS = tuple(c.id for c in CATALOG.secondaries if c.tournament_fixed)
SECONDARY_NAMES = tuple(c.name for c in CATALOG.secondaries)
ADAPT_OR_DIE = next(t.id for t in CATALOG.twists if t.adapt_or_die)
POOL_LETTERS = tuple(m.letter for m in CATALOG.pool)

JUNK_IDS = ("", " ", "nope", "CLEANSE", "cleanse ", "None", "é", "x" * 300)
EVERY_CARD_ID = (
    SECONDARY_IDS + CHALLENGER_IDS + tuple(p.id for p in CATALOG.primaries)
    + tuple(t.id for t in CATALOG.twists) + JUNK_IDS
)
EVERY_OPTION_ID = tuple(sorted(
    {o.id for c in CATALOG.secondaries for o in c.scoring}
    | {o.id for p in CATALOG.primaries for o in p.scoring}
    | {o.id for c in CATALOG.challengers for o in c.mission.scoring}
)) + JUNK_IDS
EVERY_OBJECTIVE_ID = tuple(sorted({o.id for d in CATALOG.deployments for o in d.objectives})) + (
    HIDDEN_SUPPLIES_ID, "ritual-1", "ritual-2") + JUNK_IDS
CORNER_NAMES = tuple(CORNERS) + ("centre", "TOP LEFT", "")
UNIT_NAMES = ("Boyz", "Nobz", "Warboss", "Gretchin", "", "   ", "x" * 81)
REASONS = ("", "Grenade", "  ", "r" * 201)

# Player names never collide with card names or the words Fixed/Tactical (see the hidden-info check).
NAMES = ("Alice", "Bob")
THIRD_USER = "999999999999999999"
STATUS_RANK = {Status.SIDES: 0, Status.SECONDARIES: 1, Status.DEPLOYMENT: 2, Status.BATTLE: 3, Status.ENDED: 4,
               Status.ABANDONED: 4}
BEFORE_THE_BATTLE = (Status.SIDES, Status.SECONDARIES, Status.DEPLOYMENT)

# Concede and Abandon are two entries among many in RANDOM_KINDS, so most games are played to the end.
RANDOM_KINDS = (
    "choose_side", "battle_ready", "choose_secondaries", "deployment_done", "answer", "new_orders",
    "end_command_phase",
    "end_turn", "done_scoring", "discard", "score", "spend_cp", "gain_cp", "use_challenger",
    "adapt_draw", "adapt_swap", "hidden_supplies_corner", "complete_ritual",
) * 8 + ("concede", "abandon", "pause_clock", "resume_clock", "time_out", "claim_time", "choose_disposition",
                "set_army", "agree_mirror")


# ---- setups ------------------------------------------------------------------------------------

@st.composite
def setups(draw) -> GameSetup:
    pool = draw(st.integers(0, 3)) == 0
    size = "strike-force" if pool else draw(st.sampled_from(("incursion", "strike-force", "asymmetric-war")))
    twist = not pool and draw(st.booleans())
    mission = draw(st.sampled_from(POOL_LETTERS + ("random", "RANDOM", "c"))) if pool else None
    one = draw(st.integers(10**17, 10**18 - 1))
    two = one + draw(st.integers(1, 10**18))  # a different id, no filtering needed
    seed = draw(st.text(min_size=1, max_size=24))
    # Version 1 (games stored before the battle sequence's timing) must keep playing as it did.
    version = draw(st.sampled_from((2, 2, 2, 1)))
    clock = draw(st.sampled_from((None, None, 1, 4)))  # minutes a player: short, so time runs out in some games
    setup = GameSetup(size=size, players=(str(one), str(two)), names=NAMES, twist=twist,
                      challenger_cards=draw(st.integers(0, 3)) > 0, mission=mission, seed=seed, version=version,
                      clock_minutes=clock, clock_expiry=draw(st.sampled_from(("play-on", "claim"))))
    if twist and draw(st.booleans()):
        setup = _with_adapt_or_die(setup)
    return setup


def _with_adapt_or_die(setup: GameSetup) -> GameSetup:
    """Adapt or Die changes the card flow the most: find a seed variant that draws it."""
    for i in range(500):
        candidate = setup.model_copy(update={"seed": f"{setup.seed}#{i}"})
        if new_game(CATALOG, candidate).state.mission.twist == ADAPT_OR_DIE:
            return candidate
    raise AssertionError("no seed variant draws Adapt or Die")  # 1 in 9 per try: never happens


def broken_setups(setup: GameSetup) -> list[GameSetup]:
    """Setups new_game must refuse with a GameError."""
    return [
        setup.model_copy(update={"players": (setup.players[0], setup.players[0])}),
        setup.model_copy(update={"seed": ""}),
        setup.model_copy(update={"mission": "Z"}),
        setup.model_copy(update={"mission": "A", "size": "incursion"}),
        setup.model_copy(update={"mission": "A", "size": "strike-force", "twist": True}),
    ]


@st.composite
def plans(draw, pool: bool) -> tuple[str, tuple[str, ...]]:
    """What a player means to choose: Tactical, or two Fixed cards allowed in this kind of game."""
    if draw(st.booleans()):
        return "tactical", ()
    allowed = TOURNAMENT_FIXED_IDS if pool else FIXED_IDS
    return "fixed", tuple(draw(st.lists(st.sampled_from(allowed), min_size=2, max_size=2, unique=True)))


# ---- the machine -------------------------------------------------------------------------------

class GameMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.setup: GameSetup | None = None
        self.state: GameState | None = None
        self.previous: GameState | None = None  # the state before the last accepted action
        self.log: list[a.Action] = []
        self.plans: dict[str, tuple[str, tuple[str, ...]]] = {}
        self.extra_cp: Counter[tuple[str, int]] = Counter()
        self.swapped_in: set[tuple[str, str, int, int]] = set()  # Adapt or Die: player, card, round, turn
        self.steps = 0
        self.now_ms = 0  # the clock the stamps of a clocked game's actions come from

    # -- starting games --

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        self._start_game(data)

    def _start_game(self, data: st.DataObject) -> None:
        setup = data.draw(setups(), label="setup")
        for broken in broken_setups(setup):
            with pytest.raises(GameError):
                new_game(CATALOG, broken)
        outcome = new_game(CATALOG, setup)
        self._check_events(outcome.events, setup)
        self.setup, self.state, self.log = setup, outcome.state, []
        pool = setup.mission is not None
        self.plans = {pid: data.draw(plans(pool), label=f"plan of {pid}") for pid in setup.players}
        self.extra_cp = Counter()
        self.swapped_in = set()

    # -- steps --

    # One rule only: Hypothesis disables random subsets of rules per run ("swarm testing"), which
    # would leave some runs without progression; weighted kinds replace separate rules.
    @rule(data=st.data())
    def step(self, data: st.DataObject) -> None:
        if self.state.status in (Status.ENDED, Status.ABANDONED) and data.draw(st.booleans(), label="new game?"):
            self._start_game(data)
            return
        kind = data.draw(st.sampled_from(self._step_kinds()), label="kind")
        action = getattr(self, f"_build_{kind}")(data)
        if self.state.clock is not None:  # the service stamps every action of a clocked game
            self.now_ms += data.draw(st.integers(0, 90_000), label="milliseconds passed")
            action = action.model_copy(update={"at": self.now_ms})
        self._attempt(action)

    def _step_kinds(self) -> tuple[str, ...]:
        """Progression dominates so games reach round 5; rarer moves get more weight where they can work."""
        s = self.state
        adapt = 1
        if s.mission.twist == ADAPT_OR_DIE and s.active is not None:
            me = s.player(s.active)
            just_drew = s.phase == Phase.COMMAND and me.drawn_this_phase
            swap_phase = Phase.END_OF_TURN if s.setup.legacy else Phase.DISCARDS
            swap_time = s.phase == swap_phase and me.mode == "fixed"
            adapt = 12 if just_drew else 6 if swap_time else 2
        held = any(p.challenger_card for p in s.players)
        return (
            ("progress",) * 12 + ("score",) * (8 if s.phase == Phase.END_OF_TURN else 4) + ("random",) * 3
            + ("cp", "new_orders", "battle_ready") + ("adapt",) * adapt + ("challenger",) * (2 if held else 1)
            + ("clock",) * (2 if s.clock is not None else 0)
        )

    def _attempt(self, action: a.Action) -> None:
        self.steps += 1
        assert a.parse_action(a.dump_action(action)) == action
        before = self.state
        before_json = before.model_dump_json()
        try:
            outcome = apply(CATALOG, before, action)
        except GameError as err:
            assert err.message.strip(), "a refusal must tell the player why"
            assert before.model_dump_json() == before_json, "a refused action changed the state"
            self._check_refusal_hides_choices(before, action, err.message)
            self._same_on_stored_copy(before_json, action, None)
            return
        assert before.model_dump_json() == before_json, "apply changed its input state in place"
        self._same_on_stored_copy(before_json, action, outcome)
        self._check_transition(before, outcome, action)
        self.previous, self.state = before, outcome.state
        self.log.append(action)
        if self.state.status in (Status.ENDED, Status.ABANDONED) and before.status != self.state.status:
            self._check_replay()
            event(f"game over: {self.state.result.reason}, round {self.state.round}")

    def _same_on_stored_copy(self, before_json: str, action: a.Action, outcome: Played | None) -> None:
        """The store keeps JSON snapshots: applying to a reloaded snapshot must give the same result."""
        stored = GameState.model_validate_json(before_json)
        try:
            again = apply(CATALOG, stored, action)
        except GameError:
            assert outcome is None, "a reloaded snapshot refused an action the live state accepted"
            return
        assert outcome is not None, "a reloaded snapshot accepted an action the live state refused"
        assert again.state == outcome.state
        assert again.events == outcome.events

    # -- action builders --

    def _ids(self) -> tuple[str, str]:
        return self.state.setup.players

    def _actor(self, data: st.DataObject, preferred: str | None) -> str:
        one, two = self._ids()
        preferred = preferred or one
        other = two if preferred == one else one
        return data.draw(st.sampled_from((preferred, preferred, preferred, other, THIRD_USER)), label="actor")

    def _hand_or_any(self, data: st.DataObject, cards: tuple[str, ...]) -> str:
        if cards and data.draw(st.integers(0, 3), label="own card?") > 0:
            return data.draw(st.sampled_from(cards), label="card")
        return data.draw(st.sampled_from(EVERY_CARD_ID), label="card")

    def _build_progress(self, data: st.DataObject) -> a.Action:
        s = self.state
        match s.status:
            case Status.SIDES:
                side = data.draw(st.sampled_from(("attacker", "defender")), label="side")
                return a.ChooseSide(actor=s.sides_rolloff.winner, side=side)
            case Status.SECONDARIES:
                waiting = [p.id for p in s.players if p.choice is None] or list(self._ids())
                pid = data.draw(st.sampled_from(waiting), label="chooser")
                mode, cards = self.plans[pid]
                return a.ChooseSecondaries(actor=pid, mode=mode, cards=cards)
            case Status.DEPLOYMENT:  # either player first; sometimes one who already confirmed
                waiting = [p.id for p in s.players if p.id not in s.deployed]
                return a.DeploymentDone(actor=data.draw(st.sampled_from(waiting * 3 + list(self._ids())),
                                                        label="deployed"))
            case Status.BATTLE:
                if s.prompts:
                    prompt = data.draw(st.sampled_from(s.prompts), label="prompt")
                    return self._valid_answer(data, prompt.player)
                match s.phase:
                    case Phase.COMMAND:
                        return a.EndCommandPhase(actor=s.active)
                    case Phase.BATTLE:
                        return a.EndTurn(actor=s.active)
                    case Phase.END_OF_TURN:
                        if s.setup.legacy:
                            return a.DoneScoring(actor=s.active)
                        # Both players finish, in either order; sometimes one who already has.
                        waiting = [p.id for p in s.players if p.id not in s.scoring_done]
                        return a.DoneScoring(actor=data.draw(st.sampled_from(waiting * 3 + list(self._ids())),
                                                             label="done scoring"))
                    case Phase.DISCARDS:
                        pid = s.discard_queue[0]
                        hand = s.player(pid).hand
                        if s.player(pid).mode == "fixed":  # Adapt or Die: swap one card, or keep them
                            return self._build_adapt(data) if data.draw(st.booleans(), label="swap?") \
                                else a.Discard(actor=pid)
                        cards = data.draw(st.lists(st.sampled_from(hand), unique=True, max_size=len(hand))
                                          if hand else st.just([]), label="discards")
                        return a.Discard(actor=pid, cards=tuple(cards))
        return self._build_random(data)

    def _valid_answer(self, data: st.DataObject, player: str) -> a.AnswerPrompt:
        prompt = next(q for q in self.state.prompts if q.player == player)
        match prompt.kind:
            case PromptKind.OPTIONAL_RESHUFFLE | PromptKind.DISCARD_IF:
                return a.AnswerPrompt(actor=player, accept=data.draw(st.booleans(), label="accept"))
            case PromptKind.ALPHA_TARGETS | PromptKind.GAMMA_TARGET:
                at_most = 3 if prompt.kind == PromptKind.ALPHA_TARGETS else 1
                units = data.draw(st.lists(st.sampled_from(UNIT_NAMES[:4]), max_size=at_most), label="units")
                return a.AnswerPrompt(actor=player, units=tuple(units))
            case PromptKind.TEMPTING_OBJECTIVE:
                choices = [o.id for o in table_objectives(CATALOG, self.state) if o.area == "no_mans_land"]
                return a.AnswerPrompt(actor=player, objective=data.draw(st.sampled_from(choices), label="objective"))
            case PromptKind.ADAPT_KEEP:
                keep = data.draw(st.sampled_from((prompt.card, prompt.other_card)), label="keep")
                return a.AnswerPrompt(actor=player, keep=keep)
        raise AssertionError(f"unknown prompt kind {prompt.kind}")

    def _build_score(self, data: st.DataObject) -> a.Score:
        s = self.state
        actor = self._actor(data, s.active)
        me = s.player(actor) if actor in self._ids() else None
        holding = me is not None and me.challenger_card is not None
        source = data.draw(st.sampled_from(
            (Source.PRIMARY, Source.SECONDARY, Source.SECONDARY, Source.BATTLE_READY)
            + (Source.CHALLENGER,) * (3 if holding else 1)), label="source")
        card: str | None = None
        options: tuple = CATALOG.primary(s.mission.primary).scoring
        if source == Source.SECONDARY:
            card = self._hand_or_any(data, me.hand if me else ())
            options = CATALOG.secondary(card).scoring if card in SECONDARY_IDS else ()
        elif source == Source.CHALLENGER:
            held = me.challenger_card if me else None
            card = data.draw(st.sampled_from((held,) * 6 + (None,) * 2 + CHALLENGER_IDS + JUNK_IDS[:3]), label="card")
            options = CATALOG.challenger(held or card).mission.scoring if (held or card) in CHALLENGER_IDS else ()
        how = data.draw(st.sampled_from(("option", "option", "manual", "anything")), label="how")
        if how == "option" and options:
            option = data.draw(st.sampled_from(options), label="option")
            count = data.draw(st.integers(0, 4), label="count") if option.per else None
            objective = self._objective(data) if option.removes_objective else None
            return a.Score(actor=actor, source=source, card=card, option=option.id, count=count, objective=objective)
        if how == "manual":  # no option: the VP as given, within or outside 1..50
            vp = data.draw(st.one_of(st.integers(1, 50), st.integers(-2, 60)), label="vp")
            return a.Score(actor=actor, source=source, card=card, vp=vp)
        option_ids = tuple(o.id for o in options) + EVERY_OPTION_ID
        option_id = data.draw(st.one_of(st.none(), st.sampled_from(option_ids)), label="option")
        count = data.draw(st.one_of(st.none(), st.integers(-2, 25)), label="count")
        vp = data.draw(st.one_of(st.none(), st.integers(-2, 60)), label="vp")
        objective = data.draw(st.one_of(st.none(), st.sampled_from(EVERY_OBJECTIVE_ID)), label="objective")
        return a.Score(actor=actor, source=source, card=card, option=option_id, count=count, vp=vp,
                       objective=objective)

    def _objective(self, data: st.DataObject) -> str:
        """Mostly a marker on the table (any area), sometimes a removed or made-up one."""
        on_table = tuple(o.id for o in table_objectives(CATALOG, self.state))
        pool = on_table * 3 + self.state.removed_objectives + EVERY_OBJECTIVE_ID[:3]
        return data.draw(st.sampled_from(pool), label="objective")

    def _build_cp(self, data: st.DataObject) -> a.Action:
        kind = data.draw(st.sampled_from((a.SpendCp, a.GainCp)), label="cp kind")
        return kind(actor=self._actor(data, self.state.active), amount=data.draw(st.integers(-2, 12), label="amount"),
                    reason=data.draw(st.sampled_from(REASONS), label="reason"))

    def _build_new_orders(self, data: st.DataObject) -> a.NewOrders:
        actor = self._actor(data, self.state.active)
        hand = self.state.player(actor).hand if actor in self._ids() else ()
        return a.NewOrders(actor=actor, card=self._hand_or_any(data, hand))

    def _build_challenger(self, data: st.DataObject) -> a.UseChallenger:
        holders = [p.id for p in self.state.players if p.challenger_card] or [None]
        actor = self._actor(data, data.draw(st.sampled_from(holders), label="holder"))
        return a.UseChallenger(actor=actor, use=data.draw(st.sampled_from(("stratagem", "mission")), label="use"))

    def _build_adapt(self, data: st.DataObject) -> a.Action:
        actor = self._actor(data, self.state.active)
        me = self.state.player(actor) if actor in self._ids() else None
        # Drawing works in the Command phase, swapping at the end of the turn.
        likely = "draw" if self.state.phase == Phase.COMMAND else "swap"
        if data.draw(st.sampled_from(("draw", "swap", likely)), label="adapt") == "draw":
            return a.AdaptOrDieDraw(actor=actor, card=self._hand_or_any(data, me.drawn_this_phase if me else ()))
        # Set-aside cards, the Fixed ones (the only valid replacements) twice as likely.
        spare = tuple(c for c in me.set_aside if c in FIXED_IDS) + me.set_aside if me else ()
        return a.AdaptOrDieSwap(actor=actor, card=self._hand_or_any(data, me.hand if me else ()),
                                replacement=self._hand_or_any(data, spare))

    def _build_clock(self, data: st.DataObject) -> a.Action:
        """Pause, resume, the running player's time running out, or a claim, mostly by the likely player."""
        clock = self.state.clock
        kind = data.draw(st.sampled_from((a.PauseClock, a.ResumeClock, a.TimeOut, a.ClaimTime)), label="clock")
        likely = {a.ResumeClock: clock.paused_by, a.TimeOut: clock.running,
                  a.ClaimTime: next((p for p in self._ids() if p not in clock.out), None) if clock.out else None}
        return kind(actor=self._actor(data, likely.get(kind)))

    def _build_battle_ready(self, data: st.DataObject) -> a.DeclareBattleReady:
        return a.DeclareBattleReady(actor=self._actor(data, None), ready=data.draw(st.booleans(), label="ready"))

    def _build_random(self, data: st.DataObject) -> a.Action:
        """Any action of the union, with arguments drawn from everything (mostly wrong)."""
        kind = data.draw(st.sampled_from(RANDOM_KINDS), label="random kind")
        actor = self._actor(data, self.state.active)
        cards = st.lists(st.sampled_from(EVERY_CARD_ID), max_size=3).map(tuple)
        match kind:
            case "choose_side":
                return a.ChooseSide(actor=actor, side=data.draw(st.sampled_from(("attacker", "defender"))))
            case "choose_secondaries":
                return a.ChooseSecondaries(actor=actor, mode=data.draw(st.sampled_from(("tactical", "fixed"))),
                                           cards=data.draw(cards, label="cards"))
            case "answer":
                return a.AnswerPrompt(
                    actor=actor, accept=data.draw(st.one_of(st.none(), st.booleans())),
                    units=data.draw(st.lists(st.sampled_from(UNIT_NAMES), max_size=5).map(tuple)),
                    objective=data.draw(st.one_of(st.none(), st.sampled_from(EVERY_OBJECTIVE_ID))),
                    keep=data.draw(st.one_of(st.none(), st.sampled_from(EVERY_CARD_ID))),
                )
            case "discard":
                return a.Discard(actor=actor, cards=data.draw(cards, label="cards"))
            case "new_orders" | "adapt_draw":
                kind_type = a.NewOrders if kind == "new_orders" else a.AdaptOrDieDraw
                return kind_type(actor=actor, card=data.draw(st.sampled_from(EVERY_CARD_ID)))
            case "adapt_swap":
                return a.AdaptOrDieSwap(actor=actor, card=data.draw(st.sampled_from(EVERY_CARD_ID)),
                                        replacement=data.draw(st.sampled_from(EVERY_CARD_ID)))
            case "score":
                return self._build_score(data)
            case "spend_cp" | "gain_cp":
                return self._build_cp(data)
            case "use_challenger":
                return a.UseChallenger(actor=actor, use=data.draw(st.sampled_from(("stratagem", "mission"))))
            case "battle_ready":
                return a.DeclareBattleReady(actor=actor, ready=data.draw(st.booleans()))
            case "hidden_supplies_corner":
                return a.HiddenSuppliesCorner(actor=actor, corner=data.draw(st.sampled_from(
                    self.state.mission.hidden_supplies_corners * 3 + CORNER_NAMES), label="corner"))
            case "complete_ritual":
                return a.CompleteRitual(actor=actor)
            case "choose_disposition":  # a 2026-27 move: always refused in this season's games
                return a.ChooseDisposition(actor=actor, disposition=data.draw(st.sampled_from(EVERY_CARD_ID)))
            case "agree_mirror":  # a 2026-27 move: always refused in this season's games
                return a.AgreeMirrorMission(actor=actor, mission=data.draw(st.sampled_from(EVERY_CARD_ID)))
            case "set_army":  # allowed before the battle only
                return a.SetArmy(actor=actor, army=Army(faction="necrons", faction_name="Necrons"))
        simple = {
            "end_command_phase": a.EndCommandPhase, "end_turn": a.EndTurn, "done_scoring": a.DoneScoring,
            "deployment_done": a.DeploymentDone,
            "concede": a.Concede, "abandon": a.Abandon, "pause_clock": a.PauseClock, "resume_clock": a.ResumeClock,
            "time_out": a.TimeOut, "claim_time": a.ClaimTime,
        }
        return simple[kind](actor=actor)

    # -- checks on one accepted action --

    def _check_transition(self, before: GameState, outcome: Played, action: a.Action) -> None:
        after = outcome.state
        assert outcome.events, f"{action.kind} was accepted silently"
        self._check_events(outcome.events, after.setup)
        assert STATUS_RANK[after.status] >= STATUS_RANK[before.status], "status went backwards"
        assert (after.round, after.turn) >= (before.round, before.turn), "the battle went backwards"
        self._check_cp_accounting(before, after, action)
        self._check_scoring_after_done(before, after)
        self._check_events_hide_choices(before, after, outcome.events)
        if isinstance(action, a.AdaptOrDieSwap):
            self.swapped_in.add((action.actor, action.replacement, before.round, before.turn))
        if isinstance(action, a.Concede):
            assert after.result.winner == after.opponent(action.actor).id
        self._check_clock(before, after, action)

    def _check_clock(self, before: GameState, after: GameState, action: a.Action) -> None:
        """The running player is charged exactly the time since the last switch (none while paused); the
        clock then runs for whoever the game waits on; time only runs out when it has, and a claim needs it."""
        if before.clock is None:
            assert after.clock is None
            return
        was, now = before.clock, after.clock
        ticking = was.running is not None and was.paused_by is None
        charged = sum(now.used_ms.values()) - sum(was.used_ms.values())
        assert charged == (max(0, action.at - was.since_ms) if ticking else 0), "time charged wrongly"
        assert all(now.used_ms.get(p, 0) >= was.used_ms.get(p, 0) for p in after.setup.players)
        assert now.running == runner(after), "the clock runs for someone the game does not wait on"
        assert set(was.out) <= set(now.out)
        for player in set(now.out) - set(was.out):
            assert isinstance(action, a.TimeOut) and now.left_ms(player) <= 0, "time ran out early"
            event(f"time ran out ({was.expiry})")
        if isinstance(action, a.ClaimTime):
            assert was.expiry == "claim" and after.opponent(action.actor).id in was.out
            assert after.result.reason == "time" and after.result.winner == action.actor

    def _check_scoring_after_done(self, before: GameState, after: GameState) -> None:
        """Version 2: a player who pressed Done scoring scores nothing more in that window, and nobody
        scores in the discard step (Battle Ready at the end and syphoned losses are not scoring)."""
        if before.setup.legacy:
            return
        for e in after.vp[len(before.vp):]:
            if e.source == Source.BATTLE_READY or e.claimed < 0:
                continue
            assert before.phase != Phase.DISCARDS, f"scored in the discard step: {e}"
            assert not (before.phase == Phase.END_OF_TURN and e.player in before.scoring_done), \
                f"scored after pressing Done scoring: {e}"

    def _check_cp_accounting(self, before: GameState, after: GameState, action: a.Action) -> None:
        """CP come from each Command phase (1 per turn, both players) and at most 1 more per battle round."""
        turn_started = (after.round, after.turn) != (before.round, before.turn)
        for pid in after.setup.players:
            old, new = before.player(pid).cp, after.player(pid).cp
            assert new >= 0, "CP went negative"
            spent = 0
            if action.actor == pid and isinstance(action, a.SpendCp):
                spent = action.amount
            elif action.actor == pid and isinstance(action, a.NewOrders):
                spent = RULES.new_orders_cp
            extra = new - old + spent - (RULES.command_phase_cp if turn_started else 0)
            assert extra >= 0, f"{pid} lost {-extra}CP unaccounted for ({action.kind})"
            if extra:
                assert isinstance(action, (a.GainCp, a.Discard)), f"{action.kind} gave CP"
                self.extra_cp[(pid, before.round)] += extra
                assert self.extra_cp[(pid, before.round)] <= RULES.extra_cp_per_round, \
                    f"more than {RULES.extra_cp_per_round}CP outside the Command phase in round {before.round}"

    def _check_events(self, events: tuple[Event, ...], setup: GameSetup) -> None:
        for e in events:
            assert isinstance(e, Event) and e.text.strip()
            assert e.player in (None, *setup.players)
            assert e.private_to in (None, *setup.players)
            # A long seed that is not part of a player's id (events mention players; "000000000000" would match)
            if len(setup.seed) >= 12 and not any(setup.seed in p for p in setup.players):
                assert setup.seed not in e.text, "the seed reached the players during the game"

    def _check_events_hide_choices(self, before: GameState, after: GameState, events: tuple[Event, ...]) -> None:
        """Until both players have chosen, public events name no Secondary card nor either mode."""
        if after.status != Status.SECONDARIES:
            return
        for e in events:
            if e.private_to is not None:
                continue
            text = e.text.lower()
            assert not any(name.lower() in text for name in SECONDARY_NAMES), f"public event leaks: {e.text}"
            if before.status == Status.SECONDARIES:
                assert "fixed" not in text and "tactical" not in text, f"public event leaks a mode: {e.text}"

    def _check_refusal_hides_choices(self, state: GameState, action: a.Action, message: str) -> None:
        """A refusal never names a card the opponent chose in secret."""
        if state.status != Status.SECONDARIES or action.actor not in state.setup.players:
            return
        named = set(getattr(action, "cards", ()))
        opponent = state.opponent(action.actor)
        if opponent.choice is None:
            return
        for card in opponent.choice.fixed_cards:
            if card not in named:
                assert CATALOG.secondary(card).name.lower() not in message.lower(), message

    # -- invariants after every step --

    @invariant()
    def secondary_cards_are_never_lost_or_duplicated(self) -> None:
        for p in self.state.players:
            piles = p.deck + p.hand + p.discard + p.set_aside
            if p.mode is None:
                assert not piles, "cards dealt before the reveal"
            else:
                assert Counter(piles) == Counter(SECONDARY_IDS), f"{p.id}: cards lost or duplicated"

    @invariant()
    def challenger_cards_are_never_lost_or_duplicated(self) -> None:
        s = self.state
        held = tuple(p.challenger_card for p in s.players if p.challenger_card)
        piles = s.challenger_deck + s.challenger_discard + held
        expected = Counter(CHALLENGER_IDS) if s.setup.challenger_cards else Counter()
        assert Counter(piles) == expected

    @invariant()
    def hands_have_the_right_size(self) -> None:
        s = self.state
        pool = s.mission.pool_letter is not None
        for p in s.players:
            if p.mode == "fixed":
                assert len(p.hand) == RULES.fixed_cards and len(set(p.hand)) == len(p.hand)
                assert all(CATALOG.secondary(c).fixed for c in p.hand)
                assert not pool or all(CATALOG.secondary(c).tournament_fixed for c in p.hand)
            elif p.mode == "tactical":
                adapting = any(q.kind == PromptKind.ADAPT_KEEP and q.owner == p.id for q in s.prompts)
                assert len(p.hand) <= RULES.tactical_hand + (1 if adapting else 0), p.hand

    @invariant()
    def every_cap_holds(self) -> None:
        s = self.state
        for e in s.vp:
            if e.claimed < 0:  # VP drained by the opponent (Syphoned Power): a primary loss, never capped
                assert e.source == Source.PRIMARY and e.awarded == e.claimed and e.capped_by is None, e
            else:
                assert 0 <= e.awarded <= e.claimed, e
        for pid in s.setup.players:
            mine = [e for e in s.vp if e.player == pid]
            by_source = Counter()
            for e in mine:
                by_source[e.source] += e.awarded
            assert 0 <= by_source[Source.PRIMARY] <= CAPS.primary, "drained below 0 or above the cap"
            assert by_source[Source.SECONDARY] <= CAPS.secondary
            assert by_source[Source.CHALLENGER] <= CAPS.challenger
            assert by_source[Source.BATTLE_READY] <= CAPS.battle_ready
            assert by_source[Source.PRIMARY] + by_source[Source.SECONDARY] + by_source[Source.CHALLENGER] \
                <= CAPS.combined
            assert sum(by_source.values()) <= CAPS.total
            if s.player(pid).mode == "fixed":
                per_card = Counter()
                for e in mine:
                    if e.source == Source.SECONDARY:
                        per_card[e.card] += e.awarded
                assert all(v <= CAPS.fixed_card for v in per_card.values()), per_card

    @invariant()
    def removed_objectives_are_never_offered(self) -> None:
        s = self.state
        on_table = {o.id for o in table_objectives(CATALOG, s)}
        everything = {o.id for o in table_objectives(CATALOG, s, removed=True)}
        assert len(set(s.removed_objectives)) == len(s.removed_objectives), "an objective removed twice"
        assert set(s.removed_objectives) <= everything and not on_table & set(s.removed_objectives)

    @invariant()
    def battle_ready_vp_only_at_the_end_of_the_battle(self) -> None:
        s = self.state
        ready = [e.player for e in s.vp if e.source == Source.BATTLE_READY]
        if s.status == Status.ENDED and s.result.reason == "battle":
            assert sorted(ready) == sorted(p.id for p in s.players if p.battle_ready)
        else:
            assert not ready

    @invariant()
    def progression_is_consistent(self) -> None:
        s = self.state
        assert 0 <= s.round <= RULES.battle_rounds and 0 <= s.turn <= 2
        if s.status in BEFORE_THE_BATTLE:
            assert (s.round, s.turn, s.phase, s.vp, s.prompts) == (0, 0, None, (), ())
        if s.status == Status.BATTLE:
            assert s.round >= 1 and s.turn in (1, 2) and s.phase is not None and s.result is None
            assert bool(s.discard_queue) == (s.phase == Phase.DISCARDS)
        if s.status in (Status.ENDED, Status.ABANDONED):
            assert s.result is not None and not s.prompts and not s.discard_queue
            assert s.result.vp == {pid: s.total_vp(pid) for pid in s.setup.players}
            if s.result.reason == "battle":
                assert (s.round, s.turn) == (RULES.battle_rounds, 2)
                one, two = (s.total_vp(pid) for pid in s.setup.players)
                expected = None if one == two else s.setup.players[0 if one > two else 1]
                assert s.result.winner == expected
        for p in s.players:
            assert p.cp >= 0
        for q in s.prompts:
            assert q.player in s.setup.players and q.owner in s.setup.players

    @invariant()
    def information_arrives_at_its_step(self) -> None:
        """Version 2: who goes first and Supply Drop's objectives are unknown until the battle begins."""
        s = self.state
        if s.setup.legacy:
            assert s.first_turn_rolloff is not None and not s.deployed and not s.scoring_done
            return
        supply_drop = CATALOG.primary(s.mission.primary).random_setup == "supply_drop"
        if s.round == 0:  # before the battle (or abandoned before it)
            assert s.first is None and s.first_turn_rolloff is None and s.mission.alpha_objective is None
        else:
            assert s.first is not None and set(s.deployed) == set(s.setup.players)
            asymmetric = s.setup.size == "asymmetric-war"
            assert (s.first_turn_rolloff is None) == asymmetric
            assert s.first == (s.attacker if asymmetric else s.first_turn_rolloff.winner)
            assert (s.mission.alpha_objective is not None) == supply_drop

    @invariant()
    def confirmations_belong_to_their_step(self) -> None:
        s = self.state
        for confirmed in (s.deployed, s.scoring_done):
            assert len(set(confirmed)) == len(confirmed) and set(confirmed) <= set(s.setup.players)
        if s.status == Status.DEPLOYMENT:
            assert len(s.deployed) < 2
        assert not s.scoring_done or (s.phase == Phase.END_OF_TURN and len(s.scoring_done) < 2)

    @invariant()
    def a_swapped_in_card_never_scores_in_the_turn_of_the_swap(self) -> None:
        if self.state.setup.legacy:
            return
        for e in self.state.vp:
            assert (e.player, e.card, e.round, e.turn) not in self.swapped_in, e

    @invariant()
    def json_round_trip(self) -> None:
        assert GameState.model_validate_json(self.state.model_dump_json()) == self.state

    @invariant()
    def replay_and_undo_give_the_same_state(self) -> None:
        # A full replay costs O(log length): every few steps here, and at the end of each game.
        if self.steps % 8 == 0:
            self._check_replay()

    def _check_replay(self) -> None:
        """Undo replays all but the last action; redoing it must give the current state back.

        replay(log) is replay(log[:-1]) then apply(last), so one replay checks both properties.
        """
        if not self.log:
            assert replay(CATALOG, self.setup, ()) == self.state
            return
        undone = replay(CATALOG, self.setup, self.log[:-1])
        assert undone == self.previous, "undo does not give the state before the last action"
        assert apply(CATALOG, undone, self.log[-1]).state == self.state, "replaying the log gives another state"

    def teardown(self) -> None:
        if self.state is not None:
            self._check_replay()
            self._check_export()
            event(f"finished with status {self.state.status.value}, round {self.state.round}")


    def _check_export(self) -> None:
        """A finished game's /game log export verifies; a running one shows no seed (bot/services/game_log.py)."""
        log = [(seq, action.actor, "", action) for seq, action in enumerate(self.log, start=1)]
        data = export_game(CATALOG, self.state, log, seed_hash=seed_hash(self.setup.seed))
        if self.state.status in (Status.ENDED, Status.ABANDONED):
            assert [c.line() for c in verify(CATALOG, data) if c.problem] == []
        else:
            assert data["seed"] is None and "seed" not in data["setup"]


def test_random_actions_cover_the_whole_action_union() -> None:
    """A new action kind must be added to RANDOM_KINDS, or the machine would never try it."""
    union = {cls.model_fields["kind"].default for cls in get_args(get_args(a.Action)[0])}
    assert set(RANDOM_KINDS) == union


GameMachine.TestCase.settings = settings(
    max_examples=150,
    stateful_step_count=150,
    derandomize=True,  # reproducible in CI: the same examples every run, no example database
    database=None,
    deadline=None,  # a step with a full replay is slower than the rest; runtime is covered by max_examples
)
TestGameProperties = GameMachine.TestCase
