"""Card and table types of a mission pack, validated when the YAML files are loaded.

Texts are kept exactly as the seed document gives them; the typed fields beside them are
what the engine needs to enforce the rules (Fixed symbol, When Drawn, scoring windows, caps).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import Field, model_validator

from bot.engine.models import Frozen
from bot.engine.names import DisplayName, title_case

Confidence = Literal["confirmed", "likely", "uncertain"]
GameSize = Literal["incursion", "strike-force", "asymmetric-war"]
Side = Literal["attacker", "defender"]
Edge = Literal["left", "right", "top", "bottom"]


class Sourced(Frozen):
    """An item that may carry the confidence mark and source tags of the research it comes from (CA 2026-27,
    built from a reference with [CONFIRMED]/[LIKELY]/[UNCERTAIN] marks). Unset: the pack's seed text is the source."""

    confidence: Confidence | None = Field(None, description="The reference's mark for this item's facts")
    sources: tuple[str, ...] = Field((), description="The reference's source tags, e.g. ('S1', 'S6')")


class Window(StrEnum):
    """When a scoring option may be scored. The engine checks it against the turn and phase."""

    END_OF_COMMAND_PHASE = "end_of_command_phase"  # of the player whose turn it is
    END_OF_YOUR_TURN = "end_of_your_turn"
    END_OF_OPPONENT_TURN = "end_of_opponent_turn"
    END_OF_EITHER_TURN = "end_of_either_turn"
    END_OF_BATTLE_ROUND = "end_of_battle_round"
    WHILE_ACTIVE = "while_active"  # each time it happens, in any phase of either turn
    ANY_TIME = "any_time"
    START_OF_BATTLE = "start_of_battle"  # applied by the engine when the battle begins
    END_OF_BATTLE = "end_of_battle"  # CA 2026-27 'end of battle' rows: outside the per-round caps


class Scorer(StrEnum):
    """Who an option awards VP to (primaries); a secondary or Challenger card always scores for its holder."""

    ACTIVE = "active"  # the player whose turn it is
    OPPONENT_OF_ACTIVE = "opponent_of_active"
    EACH = "each"
    ATTACKER = "attacker"
    DEFENDER = "defender"
    HOLDER = "holder"


class ScoringOption(Frozen):
    """One way a card awards VP: a row of its scoring table."""

    id: str
    label: str = Field(description="Short label for a button, e.g. 'Two or more units'")
    text: str = Field(description="The condition as printed")
    vp: int = Field(ge=0, le=50, description="VP per occurrence (or per counted item when `per` is set)")
    window: Window
    when: str = Field(description="The WHEN line as printed")
    from_round: int = Field(1, ge=1, le=5, description="2 for SECOND BATTLE ROUND ONWARDS")
    mode: Literal["fixed", "tactical", "both"] = "both"
    scorer: Scorer = Scorer.HOLDER
    per: str | None = Field(None, description="What is counted, e.g. 'objective marker'; VP = vp x count")
    max_per_turn: int | None = Field(None, ge=1, description="'(up to NVP)' / '(up to NVP per turn)'")
    cap_group: str | None = Field(None, description="Options sharing one '(up to NVP per turn)' limit")
    drains_opponent: bool = Field(False, description="The opponent loses the VP scored (to a minimum of 0)")
    group: str | None = Field(None, description="Options sharing a group are alternatives (OR): one per window")
    cumulative: bool = Field(
        False, description="'+NVP (CUMULATIVE)': adds to the option printed just before it, in the same window")
    removes_objective: Literal["own_zone", "no_mans_land", "opponent_zone"] | None = Field(
        None, description="Scoring it burns or denies one objective marker in this area of the scorer's: "
                          "the Score names the marker, which is removed")
    fifth_round_going_second: bool = Field(
        False,
        description="Also scorable at the end of your turn in the fifth round if you go second",
    )
    or_end_of_battle: bool = Field(
        False, description="'... or the end of the fifth battle round (whichever comes first)'")
    by_round: dict[int, int] | None = Field(None, description="VP per item by battle round (Supply Drop)")
    # CA 2026-27: its round-5 switch applies to both players, and some rows only score in a range of rounds.
    fifth_round_end_of_turn: bool = Field(
        False, description="In the fifth round it scores at the end of your turn instead, whoever goes second")
    to_round: int | None = Field(None, ge=1, le=5, description="Last battle round it scores in ('FIRST BATTLE ROUND')")


def cumulative_base(options: tuple[ScoringOption, ...], option: ScoringOption) -> ScoringOption | None:
    """The option a cumulative add-on adds to: the one printed just before it (None for others)."""
    if not option.cumulative:
        return None
    index = options.index(option)
    return options[index - 1] if index else None


def _check_cumulative(options: tuple[ScoringOption, ...]) -> None:
    for option in options:
        if option.cumulative and cumulative_base(options, option) is None:
            raise ValueError(f"cumulative option {option.id!r} has no option before it to add to")
        base = cumulative_base(options, option)
        if base is not None and (base.window, base.group, base.mode) != (option.window, option.group, option.mode):
            raise ValueError(f"cumulative option {option.id!r} differs from {base.id!r} in window, group or mode")


class WhenDrawnKind(StrEnum):
    RESHUFFLE_FIRST_ROUND = "reshuffle_first_round"  # shuffle back and draw again in battle round 1
    DISCARD_IF = "discard_if"  # discard and draw again when a condition the player confirms holds
    MARK_TARGETS = "mark_targets"  # opponent picks Alpha units, drawer picks a Gamma unit
    OPPONENT_PICKS_OBJECTIVE = "opponent_picks_objective"  # opponent picks a No Man's Land objective
    DEFINITION = "definition"  # labelled When Drawn but only defines a term (Engage on All Fronts)
    # CA 2026-27:
    RESHUFFLE_IF_ACTIVE = "reshuffle_if_active"  # another card (`if_active`) is active: shuffle back, draw again
    DRAWER_PICKS_UNIT = "drawer_picks_unit"  # the drawer names one friendly unit for the card (Beacon)
    ASSIGN_GUARDS = "assign_guards"  # the drawer may set one guard unit per objective (Burden of Trust)


class WhenDrawn(Sourced):
    kind: WhenDrawnKind
    mandatory: bool
    text: str
    condition: str | None = Field(None, description="Question put to the drawing player (DISCARD_IF)")
    holds_in_sizes: tuple[GameSize, ...] = Field(
        (), description="Game sizes in which the condition holds without asking (Recover Assets: Incursion)"
    )
    alpha_count: int | None = Field(None, ge=1, description="MARK_TARGETS: units the opponent selects")
    if_active: str | None = Field(None, description="RESHUFFLE_IF_ACTIVE: the Secondary card id that triggers it")
    again_at_start_of_your_turn: bool = Field(
        False, description="The step is repeated at the start of each of the drawer's turns (Burden of Trust)")


class SecondaryCard(Sourced):
    id: str
    name: DisplayName
    flavour: str = ""  # CA 2026-27 stores no flavour text (it is copyrighted and not needed)
    text: str = Field(description="Full rules text as printed (When Drawn, Action, scoring)")
    fixed: bool = Field(description="Carries the Fixed Mission symbol")
    tournament_fixed: bool = Field(description="May be chosen as Fixed in tournament (pool) play")
    when_drawn: WhenDrawn | None = None
    action: str | None = None
    scoring: tuple[ScoringOption, ...]
    designer_note: str | None = None

    @model_validator(mode="after")
    def _check(self) -> SecondaryCard:
        if self.tournament_fixed and not self.fixed:
            raise ValueError("tournament_fixed requires the Fixed symbol")
        if not self.fixed and any(o.mode == "fixed" for o in self.scoring):
            raise ValueError("a card without the Fixed symbol has Fixed-only scoring")
        _unique(o.id for o in self.scoring)
        _check_cumulative(self.scoring)
        return self


class Reminder(Frozen):
    """Something a Primary Mission asks of the table at a moment of the game, which the players keep and the bot
    says on the board when it comes (CA 2026-27: condemned units, operation markers)."""

    at: Literal["before_battle", "start_of_your_turn", "end_of_your_turn"]
    text: str = Field(description="What the player does, completing '<mission>: <player> …'")


class PrimaryMission(Sourced):
    id: str
    name: DisplayName
    flavour: str = ""
    text: str = Field(description="Full rules text as printed")
    asymmetric: bool = False
    action: str | None = None
    scoring: tuple[ScoringOption, ...]
    random_setup: Literal["supply_drop", "hidden_supplies"] | None = Field(
        None, description="A random choice the engine makes when the mission is set"
    )
    sets_up_objectives: bool = Field(False, description="Its Action sets up new objective markers (The Ritual)")
    reminders: tuple[Reminder, ...] = ()
    designer_note: str | None = None
    pairing: tuple[str, str] | None = Field(
        None, description="CA 2026-27: (your Force Disposition, your opponent's) that gives this mission")

    @model_validator(mode="after")
    def _check(self) -> PrimaryMission:
        _unique(o.id for o in self.scoring)
        _check_cumulative(self.scoring)
        return self


class Point(Frozen):
    x: float = Field(ge=0, le=60)
    y: float = Field(ge=0, le=44)


class Shape(Frozen):
    """A polygon (points in order) or a circle, on the 60" x 44" battlefield (x right, y down)."""

    polygon: tuple[Point, ...] | None = None
    circle_centre: Point | None = None
    radius: float | None = Field(None, gt=0)
    confidence: Confidence = "confirmed"

    @model_validator(mode="after")
    def _check(self) -> Shape:
        is_polygon = self.polygon is not None
        is_circle = self.circle_centre is not None and self.radius is not None
        if is_polygon == is_circle:
            raise ValueError("a shape is either a polygon (3+ points) or a circle (centre and radius)")
        if self.polygon is not None and len(self.polygon) < 3:
            raise ValueError("a polygon needs at least 3 points")
        return self


class Zone(Frozen):
    side: Side
    shapes: tuple[Shape, ...] = Field(min_length=1)
    minus: tuple[Shape, ...] = ()


class Objective(Frozen):
    id: str
    name: str = Field(description="Where it is, for players: e.g. 'No Man's Land, top left'")
    at: Point
    area: Literal["attacker", "defender", "no_mans_land"]
    centre: bool = False
    confidence: Confidence = "confirmed"


class Deployment(Frozen):
    id: str
    name: str
    size: GameSize
    attacker_edge: Edge
    defender_edge: Edge
    zones: tuple[Zone, ...] = Field(min_length=2)
    objectives: tuple[Objective, ...] = Field(min_length=1)
    designer_note: str | None = None
    source: str

    @model_validator(mode="after")
    def _check(self) -> Deployment:
        if {z.side for z in self.zones} != {"attacker", "defender"}:
            raise ValueError("a deployment needs an attacker zone and a defender zone")
        _unique(o.id for o in self.objectives)
        return self


class ChallengerStratagem(Frozen):
    name: DisplayName
    cp: int = Field(0, ge=0, le=0)
    category: str
    flavour: str
    when: str
    target: str
    effect: str


class ChallengerMission(Frozen):
    name: DisplayName
    text: str
    scoring: tuple[ScoringOption, ...]


class ChallengerCard(Frozen):
    id: str
    name: DisplayName
    stratagem: ChallengerStratagem
    mission: ChallengerMission


class Twist(Sourced):
    id: str
    name: DisplayName
    flavour: str = ""
    text: str
    designer_note: str | None = None
    adapt_or_die: bool = Field(False, description="Changes the Secondary Mission flow (engine rule)")
    # CA 2026-27: two Twists override the Force Disposition matrix (engine rule).
    primary_effect: Literal["mirror_roll", "swap"] | None = Field(
        None, description="mirror_roll: both players take the one mission rolled on primary_roll; "
                          "swap: the players exchange their Primary Missions")
    primary_roll: dict[int, str | None] | None = Field(
        None, description="D6 result -> Primary Mission id (None: roll again)")

    @model_validator(mode="after")
    def _check(self) -> Twist:
        if (self.primary_effect == "mirror_roll") != (self.primary_roll is not None):
            raise ValueError("primary_roll is given exactly when primary_effect is mirror_roll")
        if self.primary_roll is not None and set(self.primary_roll) != set(range(1, 7)):
            raise ValueError("primary_roll needs one entry for each D6 result 1-6")
        return self


class TerrainSection(Frozen):
    height: Literal["tall", "low"]
    centre: Point
    length: float = Field(gt=0)
    width: float = Field(gt=0)
    angle: float = Field(ge=0, lt=360, description="Long axis, degrees clockwise from +x")
    confidence: Confidence


class TerrainLayout(Frozen):
    id: str
    name: str
    sections: tuple[TerrainSection, ...] = Field(min_length=1)
    source: str


class PoolMission(Frozen):
    letter: str = Field(pattern=r"^[A-T]$")
    primary: str
    deployment: str
    layouts: tuple[str, ...] = Field(min_length=1)


class Caps(Frozen):
    primary: int
    secondary: int
    fixed_card: int
    challenger: int
    battle_ready: int
    combined: int = Field(description="Primary + Secondary + Challenger")
    total: int
    # CA 2026-27 also caps each battle round; VP scored at the end of the battle are outside those caps.
    primary_per_round: int | None = Field(None, description="Primary VP per battle round (None: no such cap)")
    secondary_per_round: int | None = Field(None, description="Secondary VP per battle round (None: no such cap)")
    end_of_battle_outside_round_caps: bool = Field(
        False, description="VP scored at the end of the battle do not count against the per-round caps")


class Swap(Frozen):
    """CA 2026-27's replacement for New Orders: pay CP to discard one active Tactical card and draw one."""

    cp: int = Field(ge=0)
    per_battle: int = Field(ge=1, description="Times each player may use it in a battle")
    window: Window = Field(description="When it may be used: END_OF_COMMAND_PHASE is the end of your own")


class PackRules(Frozen):
    caps: Caps
    challenger_gap: int
    battle_rounds: int
    tactical_hand: int
    fixed_cards: int
    new_orders_cp: int
    discard_cp: int
    command_phase_cp: int
    extra_cp_per_round: int
    # CA 2026-27 (all optional: the 2025-26 pack leaves them unset and plays as before).
    challenger_deck: bool = Field(
        True, description="False: the pack has no Challenger cards, so challenger_gap and caps.challenger are unused")
    tactical_draws_per_command_phase: int | None = Field(
        None, ge=1, description="Tactical cards drawn at the start of each of your Command phases however many are "
                                "active (no limit on active cards); None: top up to tactical_hand")
    swap: Swap | None = Field(None, description="Replaces New Orders (new_orders_cp is then unused)")
    optional_scoring: bool = Field(
        False, description="A player may decline VP for a met condition (the cards say 'can gain'), e.g. to keep a "
                           "Tactical card for a bigger row later")


class ForceDisposition(Sourced):
    """CA 2026-27: an army's Force Disposition card; its table gives your Primary Mission for each of the
    opponent's dispositions."""

    id: str
    name: DisplayName
    text: str
    missions: dict[str, str] = Field(description="Opponent's disposition id -> your Primary Mission id")


class DeploymentCard(Sourced):
    """CA 2026-27: a Deployment card known by name only (no map geometry in the sources)."""

    id: str
    name: DisplayName
    text: str


class EventPairing(Sourced):
    """CA 2026-27 events: the layouts (A, B, C) printed for one pairing of Force Dispositions, i.e. one pair of
    Primary Missions. The layouts' geometry is not in the sources, so only their ids are kept."""

    id: str = Field(description="'<disposition>--<disposition>', the two in the matrix's order")
    dispositions: tuple[str, str]
    layouts: tuple[str, ...] = Field(min_length=1, description="Letters, e.g. ('A', 'B', 'C')")

    def layout_ids(self) -> tuple[str, ...]:
        return tuple(f"{self.id}-{letter.lower()}" for letter in self.layouts)


class FaqEntry(Frozen):
    id: str
    question: str
    answer: str
    cards: tuple[str, ...] = ()
    deployments: tuple[str, ...] = Field(
        (), description="Deployment names the ruling is about: it applies to that deployment at every game size")


class Catalog(Frozen):
    """Every deck and table of one mission pack."""

    pack: str
    title: str
    rules: PackRules
    primaries: tuple[PrimaryMission, ...]
    deployments: tuple[Deployment, ...]
    secondaries: tuple[SecondaryCard, ...]
    challengers: tuple[ChallengerCard, ...]
    twists: tuple[Twist, ...]
    layouts: tuple[TerrainLayout, ...]
    pool: tuple[PoolMission, ...]
    faq: tuple[FaqEntry, ...]
    # CA 2026-27 (empty for packs without them).
    dispositions: tuple[ForceDisposition, ...] = ()
    deployment_cards: tuple[DeploymentCard, ...] = ()
    event_layouts: tuple[EventPairing, ...] = ()

    @model_validator(mode="after")
    def _check(self) -> Catalog:
        kinds: tuple[tuple[Any, ...], ...] = (self.primaries, self.deployments, self.secondaries, self.challengers,
                                               self.twists, self.layouts, self.faq)
        _unique(c.id for kind in kinds for c in kind)
        _unique(m.letter for m in self.pool)
        names = {d.name.casefold() for d in self.deployments}
        for entry in self.faq:
            for name in entry.deployments:
                if name.casefold() not in names:
                    raise ValueError(f"FAQ {entry.id}: no deployment is called {name!r}")
        primaries = {p.id for p in self.primaries if not p.asymmetric}
        deployments = {d.id for d in self.deployments if d.size == "strike-force"}
        layouts = {layout.id for layout in self.layouts}
        for m in self.pool:
            if m.primary not in primaries:
                raise ValueError(f"pool mission {m.letter}: unknown primary {m.primary!r}")
            if m.deployment not in deployments:
                raise ValueError(f"pool mission {m.letter}: unknown Strike Force deployment {m.deployment!r}")
            for layout in m.layouts:
                if layout not in layouts:
                    raise ValueError(f"pool mission {m.letter}: unknown layout {layout!r}")
        self._check_2026_27()
        return self

    def _check_2026_27(self) -> None:
        """Cross-references of the Force Disposition packs: the matrix, the pairings, the Twists' missions."""
        # Their ids are unique among every card and table of the pack, as the older kinds' are.
        kinds: tuple[tuple[Any, ...], ...] = (self.primaries, self.secondaries, self.twists, self.deployments,
                                               self.dispositions, self.deployment_cards, self.event_layouts)
        _unique(c.id for kind in kinds for c in kind)
        dispositions = {d.id for d in self.dispositions}
        primaries = {p.id: p for p in self.primaries}
        for d in self.dispositions:
            if set(d.missions) != dispositions:
                raise ValueError(f"disposition {d.id}: needs one mission for each disposition {sorted(dispositions)}")
            for theirs, mission in d.missions.items():
                if mission not in primaries:
                    raise ValueError(f"disposition {d.id}: unknown primary {mission!r}")
                if primaries[mission].pairing != (d.id, theirs):
                    raise ValueError(f"primary {mission}: pairing should be {(d.id, theirs)}")
        for p in primaries.values():
            if p.pairing is not None and p.pairing[0] not in dispositions:
                raise ValueError(f"primary {p.id}: unknown disposition in pairing {p.pairing}")
        if self.event_layouts:
            pairs = [frozenset(e.dispositions) for e in self.event_layouts]
            if len(set(pairs)) != len(pairs) or not set().union(*pairs) <= dispositions:
                raise ValueError("event layouts: each pairing of known dispositions once")
        secondaries = {s.id for s in self.secondaries}
        for card in self.secondaries:
            other = card.when_drawn.if_active if card.when_drawn else None
            if other is not None and other not in secondaries:
                raise ValueError(f"secondary {card.id}: When Drawn names unknown card {other!r}")
        for t in self.twists:
            for rolled in (t.primary_roll or {}).values():
                if rolled is not None and rolled not in primaries:
                    raise ValueError(f"twist {t.id}: unknown primary {rolled!r}")
        if not self.rules.challenger_deck and self.challengers:
            raise ValueError("the rules say there is no Challenger deck, but challengers are listed")

    @property
    def force_dispositions(self) -> bool:
        """Each player's Primary Mission comes from both players' Force Dispositions (CA 2026-27), not a draw."""
        return bool(self.dispositions)

    # Look-ups used by the engine and the cogs.
    def disposition(self, disposition_id: str) -> ForceDisposition:
        return _by_id(self.dispositions, disposition_id, "Force Disposition")

    def deployment_card(self, card_id: str) -> DeploymentCard:
        return _by_id(self.deployment_cards, card_id, "Deployment card")

    def has_map(self, deployment_id: str) -> bool:
        """Whether the deployment's geometry is known (its zones and objective markers), so it can be drawn."""
        return any(d.id == deployment_id for d in self.deployments)

    def deployment_name(self, deployment_id: str) -> str:
        """A deployment's name, whether it is drawn on a map or known as a card only."""
        if self.has_map(deployment_id):
            return self.deployment(deployment_id).name
        return self.deployment_card(deployment_id).name

    def battlefield_name(self, deployment: str, layout: str | None) -> str:
        """The deployment's name or, for a CA 2026-27 game on the pairing's layout (whose card shows the deployment),
        the layout: 'Tipping Point', 'Layout A', 'the pairing's layout'."""
        if deployment:
            return title_case(self.deployment_name(deployment))
        return f"Layout {layout.rsplit('-', 1)[1].upper()}" if layout else "the pairing's layout"

    def event_pairing(self, one: str, other: str) -> EventPairing:
        """The event layouts printed for a pairing of Force Dispositions, either way round."""
        for pairing in self.event_layouts:
            if set(pairing.dispositions) == {one, other}:
                return pairing
        raise KeyError(f"no event layouts for {one!r} and {other!r}")

    def secondary(self, card_id: str) -> SecondaryCard:
        return _by_id(self.secondaries, card_id, "Secondary Mission")

    def primary(self, card_id: str) -> PrimaryMission:
        return _by_id(self.primaries, card_id, "Primary Mission")

    def deployment(self, card_id: str) -> Deployment:
        return _by_id(self.deployments, card_id, "Deployment")

    def challenger(self, card_id: str) -> ChallengerCard:
        return _by_id(self.challengers, card_id, "Challenger card")

    def twist(self, card_id: str) -> Twist:
        return _by_id(self.twists, card_id, "Twist")

    def layout(self, layout_id: str) -> TerrainLayout:
        return _by_id(self.layouts, layout_id, "terrain layout")

    def pool_mission(self, letter: str) -> PoolMission:
        for m in self.pool:
            if m.letter == letter.upper():
                return m
        raise KeyError(f"no mission {letter!r} in the Tournament Mission Pool")

    def primary_for(self, mine: str, theirs: str) -> PrimaryMission:
        """CA 2026-27: your Primary Mission from your Force Disposition and your opponent's."""
        for d in self.dispositions:
            if d.id == mine and theirs in d.missions:
                return self.primary(d.missions[theirs])
        raise KeyError(f"no Primary Mission for dispositions {mine!r} against {theirs!r}")

    def primaries_for(self, size: GameSize) -> tuple[PrimaryMission, ...]:
        asymmetric = size == "asymmetric-war"
        return tuple(p for p in self.primaries if p.asymmetric == asymmetric)

    def deployments_for(self, size: GameSize) -> tuple[Deployment, ...]:
        return tuple(d for d in self.deployments if d.size == size)

    def faq_cards(self, entry: FaqEntry) -> tuple[str, ...]:
        """The ids of every card a ruling is about: its cards, and each size of its deployments."""
        names = {name.casefold() for name in entry.deployments}
        return entry.cards + tuple(d.id for d in self.deployments if d.name.casefold() in names
                                   and d.id not in entry.cards)

    def rulings_for(self, card_id: str) -> tuple[FaqEntry, ...]:
        return tuple(entry for entry in self.faq if card_id in self.faq_cards(entry))


def _unique(ids) -> None:
    seen: set[str] = set()
    for i in ids:
        if i in seen:
            raise ValueError(f"duplicate id {i!r}")
        seen.add(i)


def _by_id(items, card_id: str, kind: str):
    for item in items:
        if item.id == card_id:
            return item
    raise KeyError(f"no {kind} with id {card_id!r}")
