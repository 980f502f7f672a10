"""A Chapter Approved battle as a pure function: state + action -> new state + events.

`new_game` sets the mission and makes the roll-offs; `apply` checks an action against every rule
and either returns the next state or raises a GameError that leaves the state untouched;
`replay` folds an action log from the setup, which must give the stored snapshot exactly.

The season's data decides where seasons differ as numbers (caps, draws, costs); where the flow differs, the
catalog says which (CA 2026-27: Force Dispositions before the roll-off, a Primary Mission per player, a swap
instead of New Orders, discards in your own turn only, per-round caps).

Over 600 lines: the whole battle sequence of both seasons is one class whose sections (setup, turns, cards and
answers, twists, command points, the Challenger, VP) are its seams; it is to become a base of hooks with a
subclass per season, as bot/engine/table/rules.py is (issue "A house a newcomer can change").
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import clock as clocks
from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.catalog import Catalog, ScoringOption, WhenDrawnKind, Window
from bot.engine.chapter_approved.geometry import OPPOSITE_CORNER, corner_areas
from bot.engine.chapter_approved.objectives import objective_name, removable_objectives, table_objectives
from bot.engine.chapter_approved.scoring import award, check_repeat, hand_refusal, option_vp, scoring_closed, window_refusal
from bot.engine.chapter_approved.state import (
    GameSetup, GameState, Mission, Phase, PlayerState, Prompt, PromptKind, RitualMarker, SecondaryChoice, Source,
    Status, Targets, VpEntry,
)
from bot.engine.command_points import cp_amount, cp_reason
from bot.engine.errors import GameError, InvalidValue, NotAPlayer, NotYourTurn, WrongPhase
from bot.engine.events import Event, Outcome, result_text
from bot.engine.models import Army, Result, settled
from bot.engine.rng import roll_off, seed_hash, shuffled, stream

__all__ = ["Event", "Outcome", "new_game", "apply", "replay", "seed_hash"]

MAX_UNIT_NAME = 80
MAX_MANUAL_VP = 50


def new_game(catalog: Catalog, setup: GameSetup) -> Outcome:
    if setup.players[0] == setup.players[1]:
        raise InvalidValue("You cannot play against yourself: pick another opponent.")
    if not setup.seed:
        raise InvalidValue("A game needs a seed.")
    if catalog.force_dispositions:
        return _disposition_game(catalog, setup)
    mission = _choose_mission(catalog, setup)
    sides = roll_off(setup, "sides")
    # Step 12 of the battle sequence, after deployment (version 1 made it here and announced it with the sides).
    first_turn = roll_off(setup, "first-turn") if setup.legacy else None
    challenger_deck = (
        shuffled(setup, "challenger-deck", [c.id for c in catalog.challengers])
        if setup.challenger_cards else ()
    )
    state = GameState(
        setup=setup,
        clock=clocks.new_clock(setup.clock_minutes, setup.clock_expiry) if setup.clock_minutes else None,
        mission=mission,
        sides_rolloff=sides,
        first_turn_rolloff=first_turn,
        players=tuple(PlayerState(id=pid, name=name, army=army)
                      for pid, name, army in zip(setup.players, setup.names, setup.armies or (None, None))),
        challenger_deck=challenger_deck,
    )
    winner = state.player(sides.winner).name
    events = [
        Event(f"Mission: {catalog.primary(mission.primary).name} on {catalog.deployment(mission.deployment).name}."),
        Event(f"Attacker and Defender roll-off: {sides.text}. {winner} chooses who is the Attacker."),
    ]
    return Outcome(state, tuple(events))


def _disposition_game(catalog: Catalog, setup: GameSetup) -> Outcome:
    """CA 2026-27: the Deployment card (chosen or drawn) and a Twist if asked for; each player's Primary Mission
    waits for both Force Dispositions (picked secretly now, or set beforehand for an event)."""
    if setup.size != "strike-force":
        raise InvalidValue(f"{catalog.title} is played at Strike Force size.")
    if setup.mission is not None:
        raise InvalidValue(f"{catalog.title} has no Tournament Mission Pool: each player's Primary Mission comes from "
                           "both Force Dispositions.")
    if setup.challenger_cards:
        raise InvalidValue(f"{catalog.title} has no Challenger cards.")
    if setup.plays_layout and setup.deployment is not None:
        raise InvalidValue("A game plays a Deployment card or the pairing's layout, not both: pick one.")
    if setup.plays_layout:
        deployment = ""  # the layout's card shows it
    elif setup.deployment is not None:
        try:
            deployment = catalog.deployment_card(setup.deployment).id
        except KeyError:
            raise InvalidValue(f"There is no Deployment card {setup.deployment!r} in {catalog.title}.") from None
    else:
        deployment = stream(setup, "deployment").choice(catalog.deployment_cards).id
    twist = stream(setup, "twist").choice(catalog.twists).id if setup.twist else None
    state = GameState(
        setup=setup,
        clock=clocks.new_clock(setup.clock_minutes, setup.clock_expiry) if setup.clock_minutes else None,
        mission=Mission(deployment=deployment, primary="", twist=twist),
        sides_rolloff=roll_off(setup, "sides"),
        players=tuple(PlayerState(id=pid, name=name) for pid, name in zip(setup.players, setup.names)),
        status=Status.DISPOSITIONS,
    )
    if not setup.plays_layout:
        where = f"Deployment: {catalog.deployment_name(deployment)}"
    elif setup.layout:
        where = f"Layout {setup.layout} of the pairing"
    else:
        where = "The pairing's layout, drawn once both Force Dispositions are revealed"
    events = [Event(f"{where}." + (f" Twist: {catalog.twist(twist).name}." if twist else ""))]
    game = _Game(catalog, state)
    for player, army in zip(setup.players, setup.armies or (None, None)):
        if army is not None:  # an event's dispositions are set below; a pick-up army picks its detachment's
            game.set_army(player, army, pick=setup.dispositions is None)
    if setup.dispositions is not None:
        for player, disposition in zip(setup.players, setup.dispositions):
            game.update_player(player, disposition_choice=game.known_disposition(disposition))
        game.reveal_dispositions()
    elif game.state.status == Status.DISPOSITIONS:
        game.say("Each player now secretly picks their Force Disposition.")
    return Outcome(game.state, tuple(events + game.events))


def apply(catalog: Catalog, state: GameState, action: a.Action) -> Outcome:
    """A clocked game charges the running player up to the action's stamp, applies the rules, then runs the
    clock for whoever the game waits on next."""
    clock, at = state.clock, action.at
    if clock is not None and at is not None:
        state = state.model_copy(update={"clock": clocks.charge(clock, at)})
    game = _Game(catalog, state)
    game.apply(action)
    after = game.state
    if clock is not None and at is not None and after.clock is not None:
        after = after.model_copy(update={"clock": clocks.switch(after.clock, runner(after), at)})
    return Outcome(after, tuple(game.events))


def runner(state: GameState) -> str | None:
    """Whose time runs: nobody's before the first turn or after the end; in the battle, the player a decision
    waits on (a When Drawn answer, the next end-of-turn discard), else the player whose turn it is, or their
    opponent once they finished their end-of-turn scoring and only the opponent's Done scoring is missing."""
    if state.status != Status.BATTLE or state.active is None:
        return None
    if state.prompts:
        return state.prompts[0].player
    if state.phase == Phase.DISCARDS and state.discard_queue:
        return state.discard_queue[0]
    if state.active in state.scoring_done:
        return state.opponent(state.active).id
    return state.active


def replay(catalog: Catalog, setup: GameSetup, actions: Sequence[a.Action]) -> GameState:
    state = new_game(catalog, setup).state
    for action in actions:
        state = apply(catalog, state, action).state
    return state


def _choose_mission(catalog: Catalog, setup: GameSetup) -> Mission:
    if setup.mission is not None:
        if setup.size != "strike-force":
            raise InvalidValue("Tournament Mission Pool missions are Strike Force games.")
        if setup.twist:
            raise InvalidValue("Twist cards are not used in Tournament Mission Pool missions.")
        letter = setup.mission.upper()
        if letter == "RANDOM":
            letter = stream(setup, "pool").choice([m.letter for m in catalog.pool])
        try:
            pool = catalog.pool_mission(letter)
        except KeyError:
            raise InvalidValue(f"There is no mission {setup.mission!r}: pick a letter from A to T.") from None
        mission = Mission(deployment=pool.deployment, primary=pool.primary, pool_letter=pool.letter,
                          layouts=pool.layouts)
    else:
        deployment = stream(setup, "deployment").choice(catalog.deployments_for(setup.size))
        primary = stream(setup, "primary").choice(catalog.primaries_for(setup.size))
        twist = stream(setup, "twist").choice(catalog.twists).id if setup.twist else None
        mission = Mission(deployment=deployment.id, primary=primary.id, twist=twist)
    return _random_setup(catalog, setup, mission)


def _random_setup(catalog: Catalog, setup: GameSetup, mission: Mission) -> Mission:
    """The random choices a Primary Mission asks for when the mission is set.

    Hidden Supplies' roll-off belongs here: its card places it in the Place Objective Markers step (5),
    before the Attacker and Defender are decided. Supply Drop's draw is "Start of the Battle" (version 1
    made it here too)."""
    primary = catalog.primary(mission.primary)
    deployment = catalog.deployment(mission.deployment)
    if primary.random_setup == "supply_drop" and setup.legacy:
        return _supply_drop(catalog, setup, mission)
    if primary.random_setup == "hidden_supplies":
        corners = tuple(name for name, area in corner_areas(deployment).items() if area == "no_mans_land")
        if corners:
            return mission.model_copy(update={"hidden_supplies_corners": corners})
        rolloff = roll_off(setup, "hidden-supplies")
        return mission.model_copy(update={
            "hidden_supplies_corners": tuple(corner_areas(deployment)),
            "hidden_supplies_rolloff": rolloff,
        })
    return mission


def _supply_drop(catalog: Catalog, setup: GameSetup, mission: Mission) -> Mission:
    """Supply Drop: two different No Man's Land objectives, not the centre one, at random: Alpha, then Omega."""
    deployment = catalog.deployment(mission.deployment)
    candidates = [o.id for o in deployment.objectives if o.area == "no_mans_land" and not o.centre]
    alpha, omega = stream(setup, "supply-drop").sample(candidates, 2)
    return mission.model_copy(update={"alpha_objective": alpha, "omega_objective": omega})


class _Game:
    """One action's worth of work: a local, replaceable state and the events it produced."""

    def __init__(self, catalog: Catalog, state: GameState) -> None:
        self.catalog = catalog
        self.rules = catalog.rules
        self.state = state
        self.events: list[Event] = []

    # ---- helpers -------------------------------------------------------------------------------

    def say(self, text: str, player: str | None = None, private_to: str | None = None) -> None:
        self.events.append(Event(text, player, private_to))

    def update(self, **changes) -> None:
        self.state = self.state.model_copy(update=changes)

    def update_player(self, player_id: str, **changes) -> None:
        self.update(players=tuple(
            p.model_copy(update=changes) if p.id == player_id else p for p in self.state.players
        ))

    def p(self, player_id: str) -> PlayerState:
        return self.state.player(player_id)

    def name(self, player_id: str) -> str:
        return self.p(player_id).name

    def card_name(self, card_id: str) -> str:
        return self.catalog.secondary(card_id).name

    def require_battle(self) -> None:
        if self.state.status != Status.BATTLE:
            raise WrongPhase({
                Status.DISPOSITIONS: "The battle has not started: both players pick their Force Disposition first.",
                Status.SIDES: "The battle has not started: the Attacker and Defender are not chosen yet.",
                Status.SECONDARIES: "The battle has not started: both players must choose their Secondary Missions.",
                Status.DEPLOYMENT: "The battle has not started: both players must confirm their deployment "
                                   "(Deployment done).",
                Status.ENDED: "This game has ended.",
                Status.ABANDONED: "This game was abandoned.",
            }[self.state.status])

    def require_active(self, actor: str, what: str) -> None:
        self.require_battle()
        if actor != self.state.active:
            raise NotYourTurn(f"It is {self.name(settled(self.state.active))}'s turn: only they can {what}.")

    def require_phase(self, phase: Phase, what: str) -> None:
        if self.state.phase != phase:
            raise WrongPhase(f"You can {what} only in the {_phase_name(phase)}; "
                             f"it is the {_phase_name(self.state.phase)}.")

    def require_no_prompts(self, player_id: str | None = None) -> None:
        waiting = [q for q in self.state.prompts if player_id is None or q.owner == player_id or q.player == player_id]
        if waiting:
            q = waiting[0]
            raise WrongPhase(f"Waiting for {self.name(q.player)} to answer about {self.card_name(q.card)} first.")

    # ---- dispatch ------------------------------------------------------------------------------

    def apply(self, action: a.Action) -> None:
        if self.state.status in (Status.ENDED, Status.ABANDONED):
            raise WrongPhase("This game is over: start a new one with /game new.")
        # A moderator may abandon a game too: who may is decided by the service (Manage Channels).
        if not isinstance(action, a.Abandon) and action.actor not in self.state.setup.players:
            raise NotAPlayer("Only the two players of this game can act on it.")
        handler = getattr(self, f"_do_{action.kind}")
        handler(action)

    # ---- before the battle ---------------------------------------------------------------------

    def known_disposition(self, disposition_id: str) -> str:
        try:
            return self.catalog.disposition(disposition_id).id
        except KeyError:
            names = ", ".join(d.name for d in self.catalog.dispositions)
            raise InvalidValue(f"There is no Force Disposition {disposition_id!r}: pick one of {names}.") from None

    def _do_set_army(self, action: a.SetArmy) -> None:
        if self.state.status in (Status.BATTLE, Status.ENDED, Status.ABANDONED):
            raise WrongPhase("Armies are set before the battle begins.")
        self.set_army(action.actor, action.army)

    def set_army(self, player: str, army: Army, *, pick: bool = True) -> None:
        """Before the reveal of a CA 2026-27 game the army stays hidden, as the Force Disposition its detachment
        gives: that disposition is picked for the player unless they picked one already (a pick-up player may
        pick another until both have picked)."""
        self.update_player(player, army=army)
        if self.state.status != Status.DISPOSITIONS:
            self.say(f"{self.name(player)}'s army: {army.label}.")
            return
        self.say(f"Your army: {army.label}. Hidden until both Force Dispositions are revealed.", private_to=player)
        self.say(f"{self.name(player)} has set their army.")
        if pick and army.disposition is not None and self.p(player).disposition_choice is None:
            self.pick_disposition(player, army.disposition, detachment=True)

    def _do_agree_mirror(self, action: a.AgreeMirrorMission) -> None:
        """Mirrored World: instead of the D6, the players may agree on one of its missions before the reveal; a
        pick both have made is played, else the mission is rolled. None withdraws the actor's pick."""
        mission = self.state.mission
        twist = self.catalog.twist(mission.twist) if mission.twist else None
        if twist is None or twist.primary_effect != "mirror_roll":
            raise InvalidValue("Only Mirrored World lets the players agree on a mission.")
        if self.state.status != Status.DISPOSITIONS:
            raise WrongPhase("Mirrored World's mission is settled once the Force Dispositions are revealed.")
        picks = {k: v for k, v in mission.mirror_picks.items() if k != action.actor}
        if action.mission is not None:
            offered = {m for m in settled(twist.primary_roll).values() if m is not None}
            if action.mission not in offered:
                names = ", ".join(self.catalog.primary(m).name for m in sorted(offered))
                raise InvalidValue(f"Mirrored World's missions are {names}.")
            picks[action.actor] = action.mission
        self.update(mission=mission.model_copy(update={"mirror_picks": picks}))
        name = self.name(action.actor)
        if action.mission is None:
            self.say(f"{name} would rather roll for Mirrored World's mission.")
        else:
            agreed = len(picks) == 2 and len(set(picks.values())) == 1
            self.say(f"{name} would play {self.catalog.primary(action.mission).name} under Mirrored World"
                     + (": both agree." if agreed else " (the other player may agree; otherwise it is rolled)."))

    def _do_choose_disposition(self, action: a.ChooseDisposition) -> None:
        if self.state.status != Status.DISPOSITIONS:
            raise WrongPhase("The Force Dispositions are already revealed." if self.catalog.force_dispositions
                             else f"{self.catalog.title} has no Force Dispositions.")
        self.pick_disposition(action.actor, action.disposition)

    def pick_disposition(self, player: str, disposition: str, *, detachment: bool = False) -> None:
        """A secret pick, which the player may change until both have picked: then both are revealed."""
        chosen = self.known_disposition(disposition)
        changed = self.p(player).disposition_choice is not None
        self.update_player(player, disposition_choice=chosen)
        how = "changed your pick to" if changed else "picked"
        whose = " (your detachment's)" if detachment else ""
        self.say(f"You {how} {self.catalog.disposition(chosen).name}{whose}. Hidden until both players have "
                 "picked.", private_to=player)
        if not changed:
            self.say(f"{self.name(player)} has picked their Force Disposition.")
        if all(p.disposition_choice is not None for p in self.state.players):
            self.reveal_dispositions()

    def reveal_dispositions(self) -> None:
        """Both Force Dispositions at once; each player's Primary Mission from the matrix (a Twist may change them),
        the pairing's layout, then the Attacker and Defender roll-off."""
        one, two = (settled(p.disposition_choice) for p in self.state.players)
        for p in self.state.players:
            self.update_player(p.id, disposition=p.disposition_choice)
        mission = self.state.mission.model_copy(update={"primaries": (
            self.catalog.primary_for(one, two).id, self.catalog.primary_for(two, one).id)})
        self.say("Force Dispositions revealed: " + ", ".join(
            f"{p.name} {self.catalog.disposition(settled(p.disposition)).name}"
            + (f" ({p.army.label})" if p.army else "") for p in self.state.players) + ".")
        mission = self._twisted(mission)
        self.update(mission=mission)
        self.say("Primary Missions: " + ", ".join(
            f"{p.name} {self.catalog.primary(self.state.primary_of(p.id)).name}" for p in self.state.players) + ".")
        if self.state.setup.version < 4 or self.state.setup.plays_layout:  # version 3 drew both
            self._choose_layout()
        sides = self.state.sides_rolloff
        self.update(status=Status.SIDES)
        self.say(f"Attacker and Defender roll-off: {sides.text}. {self.name(sides.winner)} chooses who is the "
                 "Attacker.")

    def _twisted(self, mission: Mission) -> Mission:
        """Mirrored World: both players play one mission rolled on a D6 (a 6 is rolled again); Scrambled
        Communications: the players swap their Primary Missions."""
        if mission.twist is None:
            return mission
        twist = self.catalog.twist(mission.twist)
        if twist.primary_effect == "swap":
            self.say(f"{twist.name}: the players swap their Primary Missions.")
            return mission.model_copy(update={"primaries": mission.primaries[::-1]})
        if twist.primary_effect == "mirror_roll":
            agreed = set(mission.mirror_picks.values())
            if len(mission.mirror_picks) == 2 and len(agreed) == 1:
                chosen = agreed.pop()
                self.say(f"{twist.name}: both players play {self.catalog.primary(chosen).name}, as they agreed.")
                return mission.model_copy(update={"primaries": (chosen, chosen)})
            table, dice, rolls = settled(twist.primary_roll), stream(self.state.setup, "mirror"), []
            while (rolled := table[roll := dice.randint(1, 6)]) is None:
                rolls.append(roll)
            rolls.append(roll)
            self.say(f"{twist.name}: D6 {', then '.join(map(str, rolls))}: both players play "
                     f"{self.catalog.primary(rolled).name}.")
            return mission.model_copy(update={"primaries": (rolled, rolled), "mirror_rolls": tuple(rolls)})
        return mission

    def _choose_layout(self) -> None:
        """The pairing's layout, A, B or C: the one chosen beforehand, else drawn. The pairing is the one of the
        missions played (a Twist may have changed them)."""
        mine, theirs = settled(self.catalog.primary(self.state.mission.primaries[0]).pairing)
        pairing = self.catalog.event_pairing(mine, theirs)
        letter: str = self.state.setup.layout or stream(self.state.setup, "layout").choice(pairing.layouts)
        if letter not in pairing.layouts:
            raise InvalidValue(f"The pairing has layouts {', '.join(pairing.layouts)}: pick one of them.")
        self.update(mission=self.state.mission.model_copy(update={"layout": f"{pairing.id}-{letter.lower()}"}))
        self.say(f"Layout {letter} for this pairing.")

    def _do_choose_side(self, action: a.ChooseSide) -> None:
        if self.state.status == Status.DISPOSITIONS:
            raise WrongPhase("Both players pick their Force Disposition first.")
        if self.state.status != Status.SIDES:
            raise WrongPhase("The Attacker and Defender are already decided.")
        if action.actor != self.state.sides_rolloff.winner:
            raise NotYourTurn(f"{self.name(self.state.sides_rolloff.winner)} won the roll-off and chooses.")
        other = self.state.opponent(action.actor).id
        attacker = action.actor if action.side == "attacker" else other
        self.update(attacker=attacker, status=Status.SECONDARIES)
        sides = f"{self.name(attacker)} is the Attacker, {self.name(settled(self.state.defender))} the Defender."
        if not self.state.setup.legacy:
            self.say(f"{sides} Who takes the first turn is decided once both armies are deployed.")
        else:
            how = self._determine_first_turn()
            self.say(f"{sides} {how} {self.name(settled(self.state.first))} goes first.")
        self.say("Both players now secretly choose Fixed or Tactical Missions with /secondary choose.")

    def _determine_first_turn(self) -> str:
        """Determine First Turn: the roll-off winner; in Asymmetric War the Attacker (card facts).

        The roll-off comes from its own labelled stream, so a version-1 game gets the one it made at creation."""
        if self.state.setup.size == "asymmetric-war":
            self.update(first=self.state.attacker)
            return "In Asymmetric War the Attacker takes the first turn."
        rolloff = roll_off(self.state.setup, "first-turn")
        self.update(first=rolloff.winner, first_turn_rolloff=rolloff)
        return f"First turn roll-off: {rolloff.text}."

    def _do_battle_ready(self, action: a.DeclareBattleReady) -> None:
        if self.state.status not in (Status.DISPOSITIONS, Status.SIDES, Status.SECONDARIES, Status.DEPLOYMENT):
            raise WrongPhase("Battle Ready is declared before the battle begins.")
        self.update_player(action.actor, battle_ready=action.ready)
        word = "is" if action.ready else "is not"
        self.say(f"{self.name(action.actor)}'s army {word} Battle Ready "
                 f"({self.rules.caps.battle_ready}VP at the end of the battle).")

    def _do_choose_secondaries(self, action: a.ChooseSecondaries) -> None:
        if self.state.status in (Status.DISPOSITIONS, Status.SIDES):
            raise WrongPhase("Choose the Attacker and Defender first.")
        if self.state.status != Status.SECONDARIES:
            raise WrongPhase("Secondary Missions are already revealed.")
        choice = self._validated_choice(action)
        self.update_player(action.actor, choice=choice)
        if choice.mode == "fixed":
            names = " and ".join(self.card_name(c) for c in choice.fixed_cards)
            self.say(f"You chose Fixed Missions: {names}. Hidden until both players have chosen.",
                     private_to=action.actor)
        else:
            self.say("You chose Tactical Missions. Hidden until both players have chosen.", private_to=action.actor)
        self.say(f"{self.name(action.actor)} has chosen their Secondary Missions.")
        if all(p.choice is not None for p in self.state.players):
            self._reveal()

    def _validated_choice(self, action: a.ChooseSecondaries) -> SecondaryChoice:
        if action.mode == "tactical":
            if action.cards:
                raise InvalidValue("Tactical Missions are drawn from your deck: choose no cards.")
            return SecondaryChoice(mode="tactical")
        cards = action.cards
        if len(cards) != self.rules.fixed_cards or len(set(cards)) != len(cards):
            raise InvalidValue(f"Fixed Missions need {self.rules.fixed_cards} different cards.")
        tournament = self.state.mission.pool_letter is not None
        for card_id in cards:
            try:
                card = self.catalog.secondary(card_id)
            except KeyError:
                raise InvalidValue(f"There is no Secondary Mission {card_id!r}.") from None
            if not card.fixed:
                raise InvalidValue(f"{card.name} has no Fixed Mission symbol: it can only be used as Tactical.")
            if tournament and not card.tournament_fixed:
                raise InvalidValue(f"{card.name} cannot be selected as a Fixed Mission in tournament play.")
        return SecondaryChoice(mode="fixed", fixed_cards=cards)

    def _reveal(self) -> None:
        all_cards = [c.id for c in self.catalog.secondaries]
        for p in self.state.players:
            choice = settled(p.choice)
            if choice.mode == "fixed":
                rest = tuple(c for c in all_cards if c not in choice.fixed_cards)
                self.update_player(p.id, mode="fixed", hand=choice.fixed_cards, set_aside=rest)
                names = " and ".join(self.card_name(c) for c in choice.fixed_cards)
                self.say(f"{p.name} reveals Fixed Missions: {names}.")
            else:
                deck = shuffled(self.state.setup, f"deck:{p.id}", all_cards)
                self.update_player(p.id, mode="tactical", deck=deck)
                self.say(f"{p.name} reveals Tactical Missions and shuffles their Secondary Mission deck.")
        if self.state.setup.legacy:  # version 1: the first turn was decided with the sides
            self._begin_battle()
            return
        self.update(status=Status.DEPLOYMENT)
        first = settled(self.state.deploys_first)
        other = self.state.opponent(first).id
        how = ("sets up their whole army first, then" if self.state.setup.size == "asymmetric-war"
               else "sets up a unit first, then the players alternate with")
        self.say(f"Deploy armies: {self.name(first)} {how} {self.name(other)}. Each player presses "
                 "Deployment done once their army is set up; then the first turn is determined.")

    def _do_deployment_done(self, action: a.DeploymentDone) -> None:
        if self.state.status != Status.DEPLOYMENT:
            raise WrongPhase("Deployment is over: the battle has begun." if self.state.status == Status.BATTLE
                             else "Armies are deployed once both players' Secondary Missions are revealed.")
        if self._confirm("deployed", action.actor, "You have already confirmed your deployment",
                         "has finished deploying"):
            how = self._determine_first_turn()
            self.say(f"{how} {self.name(settled(self.state.first))} takes the first turn.")
            self._begin_battle()

    def _begin_battle(self) -> None:
        self.update(status=Status.BATTLE)
        self._start_of_battle()
        self._start_round(1)

    def _start_of_battle(self) -> None:
        for p in self.state.players:
            self._remind(p.id, "before_battle")
        for primary in map(self.catalog.primary, self.state.primaries):
            if primary.random_setup == "supply_drop" and not self.state.setup.legacy:
                self.update(mission=_supply_drop(self.catalog, self.state.setup, self.state.mission))
                alpha, omega = (self._objective_name(settled(o)) for o in (self.state.mission.alpha_objective,
                                                                            self.state.mission.omega_objective))
                self.say(f"Supply Drop, drawn at random: the Alpha objective is {alpha} (removed at the start of "
                         f"round 4), the Omega objective {omega} (round 5).")
            for option in primary.scoring:
                if option.window == Window.START_OF_BATTLE:
                    scorer = settled(self.state.defender if option.scorer == "defender" else self.state.attacker)
                    self._record(Source.PRIMARY, scorer, primary.id, option, option.vp, note="start of the battle")

    # ---- battle rounds, turns and phases -------------------------------------------------------

    def _start_round(self, number: int) -> None:
        self.update(round=number, turn=1, challenger=None)
        self.say(f"Battle round {number} begins.")
        mission = self.state.mission
        for removed_at, objective in ((4, mission.alpha_objective), (5, mission.omega_objective)):
            if number == removed_at and objective:
                self.update(removed_objectives=self.state.removed_objectives + (objective,))
                label = "Alpha" if removed_at == 4 else "Omega"
                self.say(f"Supply Drop: the {label} objective ({self._objective_name(objective)}) is removed.")
        if self.state.setup.challenger_cards and self.rules.challenger_deck:
            self._decide_challenger()
        self._start_turn()

    def _decide_challenger(self) -> None:
        # Battle Ready VP are only added at the end of the battle, so they never count here.
        one, two = self.state.players
        vp_one = self.state.total_vp(one.id, battle_ready=False)
        vp_two = self.state.total_vp(two.id, battle_ready=False)
        if abs(vp_one - vp_two) >= self.rules.challenger_gap:
            trailing = one if vp_one < vp_two else two
            self.update(challenger=trailing.id)
            self.say(f"{trailing.name} trails by {abs(vp_one - vp_two)}VP and is the Challenger this battle round.")

    def _start_turn(self) -> None:
        active = settled(self.state.active)
        self.update(phase=Phase.COMMAND)
        for p in self.state.players:
            self.update_player(p.id, cp=p.cp + self.rules.command_phase_cp, stratagems_this_phase=(),
                               drawn_this_phase=())
        self.say(f"{self.name(active)}'s turn (battle round {self.state.round}): Command phase. "
                 f"Both players gain {self.rules.command_phase_cp}CP.")
        self._remind(active, "start_of_your_turn")
        if self.state.challenger == active:
            self._draw_challenger(active)
        for card in self.p(active).hand:
            rule = self.catalog.secondary(card).when_drawn
            if rule is not None and rule.again_at_start_of_your_turn:
                self._guards_note(active, card)
        if self.p(active).mode == "tactical":
            draws = self.rules.tactical_draws_per_command_phase
            if draws is None:
                self._top_up(active)
            else:  # CA 2026-27: two new cards every Command phase, however many are active
                for _ in range(draws):
                    if self._draw(active) is None:
                        break

    def _draw_challenger(self, player_id: str) -> None:
        if not self.state.challenger_deck:
            self.say("The Challenger deck is empty: no Challenger card to draw.")
            return
        card, *rest = self.state.challenger_deck
        self.update(challenger_deck=tuple(rest))
        self.update_player(player_id, challenger_card=card, challenger_use=None)
        self.say(f"{self.name(player_id)} draws the Challenger card {self.catalog.challenger(card).name}.", player_id)

    def _top_up(self, player_id: str) -> None:
        while len(self.p(player_id).hand) < self.rules.tactical_hand:
            if self._draw(player_id) is None:
                break

    def _new_phase(self, phase: Phase) -> None:
        self.update(phase=phase)
        for p in self.state.players:
            self.update_player(p.id, stratagems_this_phase=(), drawn_this_phase=())

    def _do_end_command_phase(self, action: a.EndCommandPhase) -> None:
        self.require_active(action.actor, "end the Command phase")
        self.require_phase(Phase.COMMAND, "end the Command phase")
        self.require_no_prompts()
        self._new_phase(Phase.BATTLE)
        self.say(f"{self.name(action.actor)} ends the Command phase: Movement, Shooting, Charge and Fight.")

    def _do_end_turn(self, action: a.EndTurn) -> None:
        self.require_active(action.actor, "end the turn")
        if self.state.phase == Phase.COMMAND:
            raise WrongPhase("End the Command phase first (New Orders and Command-phase scoring happen there).")
        self.require_phase(Phase.BATTLE, "end the turn")
        self._new_phase(Phase.END_OF_TURN)
        closes = f"{self.name(action.actor)} presses" if self.state.setup.legacy else "each presses"
        self.say(f"End of {self.name(action.actor)}'s turn: both players score end-of-turn VP, "
                 f"then {closes} Done scoring.")
        self._remind(action.actor, "end_of_your_turn")

    def _do_done_scoring(self, action: a.DoneScoring) -> None:
        if self.state.setup.legacy:  # version 1: the player whose turn it is closed it for both
            self.require_active(action.actor, "close the end-of-turn scoring")
            self.require_phase(Phase.END_OF_TURN, "close the end-of-turn scoring")
            self._close_end_of_turn_scoring()
            return
        self.require_battle()
        self.require_phase(Phase.END_OF_TURN, "finish your end-of-turn scoring")
        if self._confirm("scoring_done", action.actor, "You have already finished scoring this turn",
                         "has finished scoring"):
            self._close_end_of_turn_scoring()

    def _confirm(self, field: str, actor: str, already: str, done: str) -> bool:
        """Record `actor`'s confirmation of a step each player confirms once (the players listed in `field`);
        True once both have."""
        confirmed = getattr(self.state, field)
        if actor in confirmed:
            raise GameError(f"{already}: waiting for {self.state.opponent(actor).name}.")
        self.update(**{field: confirmed + (actor,)})
        self.say(f"{self.name(actor)} {done}.")
        return len(confirmed) + 1 == len(self.state.players)

    def _close_end_of_turn_scoring(self) -> None:
        """Achieved cards of both players go; then each player with a decision makes it, in turn order."""
        queue = []
        for pid in self._turn_order():
            p = self.p(pid)
            if p.mode == "tactical":
                achieved = tuple(c for c in p.hand if self._scored_this_turn(pid, c))
                if achieved:
                    self._move_to_discard(pid, achieved)
                    names = ", ".join(self.card_name(c) for c in achieved)
                    self.say(f"{p.name} achieved {names}: discarded.", pid)
                if self.p(pid).hand and (pid == self.state.active or not self.rules.discard_own_turn_only):
                    queue.append(pid)
            elif pid == self.state.active and self._may_swap_after_scoring(pid):
                queue.append(pid)
        self._new_phase(Phase.DISCARDS)
        self.update(discard_queue=tuple(queue), scoring_done=())
        self._next_discard_or_finish()

    def _may_swap_after_scoring(self, player_id: str) -> bool:
        """Adapt or Die, Fixed (version 2): the swap is a decision of the discard step, after all scoring."""
        twist = self.state.mission.twist
        return (not self.state.setup.legacy and twist is not None and self.catalog.twist(twist).adapt_or_die
                and self.p(player_id).mode == "fixed" and self.p(player_id).adapt_or_die_uses < 1)

    def _do_discard(self, action: a.Discard) -> None:
        self.require_battle()
        self.require_phase(Phase.DISCARDS, "discard at the end of the turn")
        queue = self.state.discard_queue
        if action.actor not in queue and self.rules.discard_own_turn_only and action.actor != self.state.active:
            raise NotYourTurn(f"In {self.catalog.title} you discard Secondary Missions only at the end of your own "
                              "turn.")
        if action.actor not in queue:
            raise NotYourTurn("You have no end-of-turn discard to decide now.")
        if queue[0] != action.actor:
            raise NotYourTurn(f"{self.name(queue[0])} decides their discards first.")
        cards = self._own_active_cards(action.actor, action.cards)
        if cards and self.p(action.actor).mode == "fixed":
            raise InvalidValue("Fixed Missions cannot be discarded: swap one with Adapt or Die, or keep them.")
        if cards:
            self._move_to_discard(action.actor, cards)
            self.say(f"{self.name(action.actor)} discards {', '.join(self.card_name(c) for c in cards)}.",
                     action.actor)
            if action.actor == self.state.active:
                self._gain_extra_cp(action.actor, self.rules.discard_cp, "discarding Secondary Missions",
                                    refuse=False)
        else:
            self.say(f"{self.name(action.actor)} keeps their Secondary Missions.", action.actor)
        self.update(discard_queue=queue[1:])
        self._next_discard_or_finish()

    def _next_discard_or_finish(self) -> None:
        if self.state.discard_queue:
            pid = self.state.discard_queue[0]
            if self.p(pid).mode == "fixed":
                self.say(f"{self.name(pid)}: Adapt or Die lets you swap one Fixed Mission now, or keep them.")
            else:
                self.say(f"{self.name(pid)}: discard any active Secondary Missions, or keep them.")
            return
        self._finish_turn()

    def _finish_turn(self) -> None:
        active = settled(self.state.active)
        p = self.p(active)
        if p.challenger_card:
            self.update(challenger_discard=self.state.challenger_discard + (p.challenger_card,))
            self.update_player(active, challenger_card=None, challenger_use=None)
            self.say(f"{p.name}'s Challenger card is discarded at the end of their turn.", active)
        if self.state.turn == 1:
            self.update(turn=2)
            self._start_turn()
        elif self.state.round < self.rules.battle_rounds:
            self._start_round(self.state.round + 1)
        else:
            self._end_battle()

    def _end_battle(self) -> None:
        self.update(phase=None, discard_queue=())
        for p in self.state.players:
            if p.battle_ready:
                self._record(Source.BATTLE_READY, p.id, None, None, self.rules.caps.battle_ready,
                             note="Battle Ready army")
        self._finish(winner=self.state.leader, reason="battle")

    def _finish(self, winner: str | None, reason: str) -> None:
        vp = {p.id: self.state.total_vp(p.id) for p in self.state.players}
        status = Status.ABANDONED if reason == "abandoned" else Status.ENDED
        result = Result(winner=winner, reason=reason, vp=vp)
        self.update(status=status, result=result, prompts=(), discard_queue=())
        self.say(result_text(result, self.name))

    def _do_concede(self, action: a.Concede) -> None:
        if self.state.status != Status.BATTLE:
            raise WrongPhase("You can concede once the battle has begun; before that, use /game end.")
        self.say(f"{self.name(action.actor)} concedes.")
        self._finish(winner=self.state.opponent(action.actor).id, reason="concession")

    def _do_abandon(self, action: a.Abandon) -> None:
        self._finish(winner=None, reason="abandoned")

    # ---- the chess clock -------------------------------------------------------------------------

    def _clock_move(self, action: a.PauseClock | a.ResumeClock | a.TimeOut | a.ClaimTime) -> None:
        clock, event, claimed_by = clocks.move(self.state, action)
        self.update(clock=clock)
        self.events.append(event)
        if claimed_by is not None:
            self._finish(winner=claimed_by, reason="time")

    _do_pause_clock = _do_resume_clock = _do_time_out = _do_claim_time = _clock_move

    def _turn_order(self) -> tuple[str, str]:
        active = settled(self.state.active)
        return active, self.state.opponent(active).id

    # ---- Secondary Mission cards ---------------------------------------------------------------

    def _draw(self, player_id: str) -> str | None:
        p = self.p(player_id)
        if not p.deck:
            self.say(f"{p.name}'s Secondary Mission deck is empty: no more Secondary Missions.", player_id)
            return None
        card, *rest = p.deck
        self.update_player(player_id, deck=tuple(rest), hand=p.hand + (card,),
                           drawn_this_phase=p.drawn_this_phase + (card,))
        self.say(f"{p.name} draws {self.card_name(card)}.", player_id)
        self._when_drawn(player_id, card)
        return card

    def _when_drawn(self, player_id: str, card_id: str) -> None:
        rule = self.catalog.secondary(card_id).when_drawn
        if rule is None or rule.kind == WhenDrawnKind.DEFINITION:
            return
        opponent = self.state.opponent(player_id).id
        if rule.kind == WhenDrawnKind.RESHUFFLE_FIRST_ROUND:
            if self.state.round != 1:
                return
            self._reshuffle(player_id, card_id, rule.mandatory, "in the first battle round")
        elif rule.kind == WhenDrawnKind.DISCARD_IF:
            self._ask(PromptKind.DISCARD_IF, player_id, player_id, card_id)
        elif rule.kind == WhenDrawnKind.MARK_TARGETS:
            self._ask(PromptKind.ALPHA_TARGETS, opponent, player_id, card_id)
        elif rule.kind == WhenDrawnKind.OPPONENT_PICKS_OBJECTIVE:
            self._ask(PromptKind.TEMPTING_OBJECTIVE, opponent, player_id, card_id)
        elif rule.kind == WhenDrawnKind.RESHUFFLE_IF_ACTIVE:
            if rule.if_active not in self.p(player_id).hand:
                return
            self._reshuffle(player_id, card_id, rule.mandatory,
                            f"while {self.card_name(settled(rule.if_active))} is active")
        elif rule.kind == WhenDrawnKind.DRAWER_PICKS_UNIT:
            self._ask(PromptKind.BEACON_UNIT, player_id, player_id, card_id)
        elif rule.kind == WhenDrawnKind.ASSIGN_GUARDS:
            self._guards_note(player_id, card_id)

    def _reshuffle(self, player_id: str, card_id: str, mandatory: bool, when: str) -> None:
        """A card shuffled back and replaced: at once where the rule says so, else if the drawer wants."""
        if mandatory:
            self.say(f"When Drawn: {self.card_name(card_id)} {when} is replaced and shuffled back.", player_id)
            self._replace(player_id, card_id, shuffle_back=True)
        else:
            self._ask(PromptKind.OPTIONAL_RESHUFFLE, player_id, player_id, card_id)

    def _remind(self, player_id: str, at: str) -> None:
        """What the player's Primary Mission asks of the table now: kept on the table, said on the board."""
        primary = self.catalog.primary(self.state.primary_of(player_id))
        for reminder in primary.reminders:
            if reminder.at == at:
                self.say(f"{primary.name}: {self.name(player_id)} {reminder.text}", player_id)

    def _guards_note(self, player_id: str, card_id: str) -> None:
        """Burden of Trust: guards are set on the table, when drawn and at the start of each of the drawer's turns;
        the players keep them, the bot reminds."""
        self.say(f"{self.card_name(card_id)}: {self.name(player_id)} assigns a guard unit to each objective they "
                 "control (kept on the table, not by the bot).", player_id)

    def _ask(self, kind: PromptKind, player_id: str, owner: str, card_id: str, other: str | None = None) -> None:
        self.update(prompts=self.state.prompts + (
            Prompt(kind=kind, player=player_id, owner=owner, card=card_id, other_card=other),
        ))

    def _replace(self, player_id: str, card_id: str, *, shuffle_back: bool) -> None:
        """Draw a new card, then shuffle this one back or discard it (the card's own order of words)."""
        self._draw(player_id)
        p = self.p(player_id)
        hand = _without(p.hand, card_id)
        targets = {k: v for k, v in p.targets.items() if k != card_id}
        if shuffle_back:
            self.update_player(player_id, hand=hand, targets=targets, deck=self._reshuffled(p.deck + (card_id,)))
        else:
            self.update_player(player_id, hand=hand, targets=targets, discard=p.discard + (card_id,))

    def _reshuffled(self, deck: tuple[str, ...]) -> tuple[str, ...]:
        n = self.state.shuffles
        self.update(shuffles=n + 1)
        return shuffled(self.state.setup, f"reshuffle:{n}", deck)

    def _move_to_discard(self, player_id: str, cards: tuple[str, ...]) -> None:
        p = self.p(player_id)
        hand = tuple(c for c in p.hand if c not in cards)
        targets = {k: v for k, v in p.targets.items() if k not in cards}
        self.update_player(player_id, hand=hand, discard=p.discard + cards, targets=targets)

    def _own_active_cards(self, player_id: str, cards: tuple[str, ...]) -> tuple[str, ...]:
        if len(set(cards)) != len(cards):
            raise InvalidValue("Name each card once.")
        hand = self.p(player_id).hand
        for card in cards:
            if card not in hand:
                raise InvalidValue(f"{self._any_card_name(card)} is not one of your active Secondary Missions.")
        return cards

    def _any_card_name(self, card_id: str) -> str:
        try:
            return self.card_name(card_id)
        except KeyError:
            return repr(card_id)

    def _scored_this_turn(self, player_id: str, card_id: str) -> bool:
        return any(
            e.player == player_id and e.source == Source.SECONDARY and e.card == card_id and e.claimed >= 1
            and e.round == self.state.round and e.turn == self.state.turn
            for e in self.state.vp
        )

    def _do_new_orders(self, action: a.NewOrders) -> None:
        """In your Command phase, pay to discard one active Tactical card and draw one: New Orders, a Stratagem
        (once a phase), or where the season has it the swap instead (CA 2026-27: once per battle)."""
        swap = self.rules.swap
        name = "the swap" if swap else "New Orders"
        what = "swap a Secondary Mission" if swap else "use New Orders"
        self.require_active(action.actor, what)
        self.require_phase(Phase.COMMAND, f"{what} (end of your Command phase)")
        p = self.p(action.actor)
        if p.mode != "tactical":
            raise WrongPhase(f"{name[0].upper()}{name[1:]} is for Tactical Missions; Fixed Missions cannot be "
                             "discarded.")
        self.require_no_prompts(action.actor)
        if swap is None and "new-orders" in p.stratagems_this_phase:
            raise GameError("New Orders was already used this phase: a Stratagem can be used once per phase.")
        if swap is not None and p.swaps_used >= swap.per_battle:
            raise GameError(f"You have already swapped a Secondary Mission: it is {_times(swap.per_battle)} per "
                            "battle.")
        self._own_active_cards(action.actor, (action.card,))
        cost = swap.cp if swap else self.rules.new_orders_cp
        if p.cp < cost:
            raise GameError(f"{name[0].upper()}{name[1:]} costs {cost}CP and you have {p.cp}CP.")
        if not p.deck:
            raise GameError(f"Your Secondary Mission deck is empty: {name} would draw nothing.")
        if swap is not None:
            self.update_player(action.actor, cp=p.cp - cost, swaps_used=p.swaps_used + 1)
            self.say(f"{p.name} swaps {self.card_name(action.card)} ({cost}CP, {_times(swap.per_battle)} per "
                     "battle).", action.actor)
        else:
            self.update_player(action.actor, cp=p.cp - cost,
                               stratagems_this_phase=p.stratagems_this_phase + ("new-orders",))
            self.say(f"{p.name} uses New Orders ({cost}CP) on {self.card_name(action.card)}.", action.actor)
        self._move_to_discard(action.actor, (action.card,))
        self._draw(action.actor)

    def _do_answer(self, action: a.AnswerPrompt) -> None:
        prompt = next((q for q in self.state.prompts if q.player == action.actor), None)
        if prompt is None:
            raise GameError("Nothing is waiting for your answer.")
        self.update(prompts=tuple(q for q in self.state.prompts if q is not prompt))
        owner, card = prompt.owner, prompt.card
        match prompt.kind:
            case PromptKind.OPTIONAL_RESHUFFLE:
                if _yes_no(action.accept):
                    self.say(f"{self.name(owner)} shuffles {self.card_name(card)} back and draws again.", owner)
                    self._replace(owner, card, shuffle_back=True)
                else:
                    self.say(f"{self.name(owner)} keeps {self.card_name(card)}.", owner)
            case PromptKind.DISCARD_IF:
                if _yes_no(action.accept):
                    self.say(f"{self.name(owner)} discards {self.card_name(card)} (its When Drawn condition "
                             "holds) and draws again.", owner)
                    self._replace(owner, card, shuffle_back=False)
                else:
                    self.say(f"{self.name(owner)} keeps {self.card_name(card)}.", owner)
            case PromptKind.ALPHA_TARGETS:
                self._answer_alpha(owner, card, action.units)
            case PromptKind.GAMMA_TARGET:
                units = _unit_names(action.units, at_most=1)
                targets = self.p(owner).targets.get(card, Targets())
                self.update_player(owner, targets={**self.p(owner).targets,
                                                   card: targets.model_copy(update={"gamma_unit": units[0] if units else None})})
                self.say(f"Marked for Death: Gamma Target {units[0] if units else '(none)'}.", owner)
            case PromptKind.TEMPTING_OBJECTIVE:
                self._answer_tempting(owner, card, action.objective)
            case PromptKind.BEACON_UNIT:
                units = _unit_names(action.units, at_most=1)
                if not units:
                    raise InvalidValue(f"{self.card_name(card)}: name one of your units on the battlefield (or "
                                       "embarked in one).")
                self.update_player(owner, targets={**self.p(owner).targets, card: Targets(unit=units[0])})
                self.say(f"{self.card_name(card)}: {units[0]}.", owner)
            case PromptKind.ADAPT_KEEP:
                self._answer_adapt_keep(owner, card, settled(prompt.other_card), action.keep)

    def _answer_alpha(self, owner: str, card: str, units: tuple[str, ...]) -> None:
        names = _unit_names(units, at_most=3)
        if not names:
            self.say(f"{self.name(self.state.opponent(owner).id)} has no units on the battlefield: "
                     f"{self.card_name(card)} is discarded and replaced.", owner)
            self._replace(owner, card, shuffle_back=False)
            return
        self.update_player(owner, targets={**self.p(owner).targets, card: Targets(alpha_units=names)})
        self.say(f"Marked for Death: Alpha Targets {', '.join(names)}.", owner)
        self._ask(PromptKind.GAMMA_TARGET, owner, owner, card)

    def _answer_tempting(self, owner: str, card: str, objective: str | None) -> None:
        if not self.catalog.has_map(self.state.mission.deployment):  # markers known by the players alone: named
            names = _unit_names((objective,) if objective else (), at_most=1)
            if not names:
                raise InvalidValue("Name the objective in No Man's Land (not a home objective) you pick.")
            self.update_player(owner, targets={**self.p(owner).targets, card: Targets(objective=names[0])})
            self.say(f"{self.card_name(card)}: {names[0]}.", owner)
            return
        choices = {o.id: o for o in self._no_mans_land_objectives()}
        if objective not in choices:
            raise InvalidValue("Pick one of the objective markers in No Man's Land: "
                               + ", ".join(o.name for o in choices.values()) + ".")
        self.update_player(owner, targets={**self.p(owner).targets, card: Targets(objective=objective)})
        self.say(f"A Tempting Target: {choices[objective].name}.", owner)

    def _no_mans_land_objectives(self):
        return [o for o in table_objectives(self.catalog, self.state) if o.area == "no_mans_land"]

    def _objective_name(self, objective_id: str) -> str:
        return objective_name(self.catalog, self.state, objective_id)

    # ---- objective markers the players set up --------------------------------------------------

    def _do_hidden_supplies_corner(self, action: a.HiddenSuppliesCorner) -> None:
        mission = self.state.mission
        if not any(self.catalog.primary(p).random_setup == "hidden_supplies" for p in self.state.primaries):
            raise GameError("Only the Hidden Supplies Primary Mission moves the centre objective marker.")
        if mission.hidden_supplies_corner is not None:
            raise GameError(f"The centre marker already moved towards the {mission.hidden_supplies_corner} corner "
                            "(use /game undo to correct it).")
        rolloff = mission.hidden_supplies_rolloff
        if rolloff is not None and action.actor != rolloff.winner:
            raise NotYourTurn(f"{self.name(rolloff.winner)} won the Hidden Supplies roll-off and selects the corner.")
        if action.corner not in mission.hidden_supplies_corners:
            raise InvalidValue("The centre marker moves towards one of these corners: "
                               + ", ".join(mission.hidden_supplies_corners) + ".")
        self.update(mission=mission.model_copy(update={"hidden_supplies_corner": action.corner}))
        self.say(f"Hidden Supplies: {self.name(action.actor)} moves the centre marker 6\" towards the {action.corner} "
                 f"corner; the new marker is set up 6\" from the centre towards the "
                 f"{OPPOSITE_CORNER[action.corner]} corner.")

    def _do_complete_ritual(self, action: a.CompleteRitual) -> None:
        if not any(self.catalog.primary(p).sets_up_objectives for p in self.state.primaries):
            raise GameError("Only The Ritual Primary Mission sets up objective markers with its Action.")
        self.require_active(action.actor, "complete The Ritual in their turn")
        self.require_phase(Phase.END_OF_TURN, "complete The Ritual (it completes at the end of your turn)")
        if any(m.player == action.actor and m.round == self.state.round for m in self.state.ritual_markers):
            raise GameError("One unit performs The Ritual, so it sets up one marker per turn: yours is set up.")
        number = len(self.state.ritual_markers) + 1
        marker = RitualMarker(id=f"ritual-{number}", player=action.actor, round=self.state.round)
        self.update(ritual_markers=self.state.ritual_markers + (marker,))
        self.say(f"The Ritual: {self.name(action.actor)} sets up {self._objective_name(marker.id)} in No Man's Land.",
                 action.actor)

    # ---- Adapt or Die --------------------------------------------------------------------------

    def _require_adapt_or_die(self) -> None:
        twist = self.state.mission.twist
        if twist is None or not self.catalog.twist(twist).adapt_or_die:
            raise GameError("Only the Adapt or Die Twist allows this.")

    def _do_adapt_draw(self, action: a.AdaptOrDieDraw) -> None:
        self._require_adapt_or_die()
        self.require_battle()
        p = self.p(action.actor)
        if p.mode != "tactical":
            raise GameError("This part of Adapt or Die is for Tactical Missions.")
        if p.adapt_or_die_uses >= 2:
            raise GameError("Adapt or Die is used twice per battle at most, and you have used it twice.")
        if action.card not in p.drawn_this_phase or action.card not in p.hand:
            raise InvalidValue("Adapt or Die follows a card you have just drawn this phase.")
        self.require_no_prompts(action.actor)
        if not p.deck:
            raise GameError("Your Secondary Mission deck is empty.")
        other, *rest = p.deck
        self.update_player(action.actor, deck=tuple(rest), hand=p.hand + (other,),
                           adapt_or_die_uses=p.adapt_or_die_uses + 1)
        self.say(f"Adapt or Die: {p.name} draws {self.card_name(other)} and will shuffle one of the two back.",
                 action.actor)
        self._ask(PromptKind.ADAPT_KEEP, action.actor, action.actor, action.card, other)

    def _answer_adapt_keep(self, owner: str, card: str, other: str, keep: str | None) -> None:
        if keep not in (card, other):
            raise InvalidValue(f"Keep either {self.card_name(card)} or {self.card_name(other)}.")
        back = other if keep == card else card
        p = self.p(owner)
        targets = {k: v for k, v in p.targets.items() if k != back}
        self.update_player(owner, hand=_without(p.hand, back), targets=targets,
                           deck=self._reshuffled(p.deck + (back,)))
        self.say(f"{p.name} keeps {self.card_name(keep)} and shuffles {self.card_name(back)} back.", owner)
        if keep == other:
            self.update_player(owner, drawn_this_phase=self.p(owner).drawn_this_phase + (other,))
            self._when_drawn(owner, other)

    def _do_adapt_swap(self, action: a.AdaptOrDieSwap) -> None:
        self._require_adapt_or_die()
        self.require_active(action.actor, "use Adapt or Die")
        p = self.p(action.actor)
        if p.mode != "fixed":
            raise GameError("This part of Adapt or Die is for Fixed Missions.")
        if p.adapt_or_die_uses >= 1:
            raise GameError("Adapt or Die lets a Fixed player swap once per battle, and you have.")
        if not self.state.setup.legacy:
            self.require_phase(Phase.DISCARDS, "swap a Fixed Mission (end of your turn, once both players have "
                                               "finished scoring)")
        else:
            self.require_phase(Phase.END_OF_TURN, "swap a Fixed Mission (end of your turn, after scoring)")
        self._own_active_cards(action.actor, (action.card,))
        if action.replacement not in p.set_aside or not self.catalog.secondary(action.replacement).fixed:
            raise InvalidValue("The replacement must be one of your other cards with the Fixed Mission symbol.")
        hand = tuple(action.replacement if c == action.card else c for c in p.hand)
        self.update_player(action.actor, hand=hand, discard=p.discard + (action.card,),
                           set_aside=_without(p.set_aside, action.replacement), adapt_or_die_uses=1)
        self.say(f"Adapt or Die: {p.name} replaces {self.card_name(action.card)} with "
                 f"{self.card_name(action.replacement)}.", action.actor)
        if not self.state.setup.legacy:  # the swap was this player's decision, first in the queue
            self.update(discard_queue=self.state.discard_queue[1:])
            self._next_discard_or_finish()

    # ---- Command points ------------------------------------------------------------------------

    def _do_spend_cp(self, action: a.SpendCp) -> None:
        self.require_battle()
        amount = cp_amount(action.amount)
        p = self.p(action.actor)
        if p.cp < amount:
            raise GameError(f"You have {p.cp}CP: you cannot spend {amount}CP.")
        self.update_player(action.actor, cp=p.cp - amount)
        why = cp_reason(action.reason)
        self.say(f"{p.name} spends {amount}CP{f' ({why})' if why else ''}.", action.actor)

    def _do_gain_cp(self, action: a.GainCp) -> None:
        self.require_battle()
        self._gain_extra_cp(action.actor, cp_amount(action.amount), cp_reason(action.reason), refuse=True)

    def _gain_extra_cp(self, player_id: str, amount: int, why: str, *, refuse: bool) -> None:
        """CP from anything but the Command phase: at most 1CP per battle round (core rules)."""
        p = self.p(player_id)
        gained = p.extra_cp_gained if p.extra_cp_round == self.state.round else 0
        room = self.rules.extra_cp_per_round - gained
        if amount > room:
            message = (f"{p.name} cannot gain {amount}CP from {why}: outside the Command phase a player gains "
                       f"at most {self.rules.extra_cp_per_round}CP per battle round"
                       + (", already gained this round." if gained else "."))
            if refuse:
                raise GameError(message)
            self.say(message, player_id)
            return
        self.update_player(player_id, cp=p.cp + amount, extra_cp_round=self.state.round,
                           extra_cp_gained=gained + amount)
        self.say(f"{p.name} gains {amount}CP{f' ({why})' if why else ''}.", player_id)

    # ---- Challenger cards ----------------------------------------------------------------------

    def _do_use_challenger(self, action: a.UseChallenger) -> None:
        self.require_battle()
        p = self.p(action.actor)
        if p.challenger_card is None:
            raise GameError("You hold no Challenger card.")
        card = self.catalog.challenger(p.challenger_card)
        if p.challenger_use is not None:
            raise GameError(f"{card.name} is already being used for its {p.challenger_use}.")
        if action.use == "stratagem":
            # Used as a Stratagem (0CP, it cannot trigger CP gains): discarded at once.
            self.update(challenger_discard=self.state.challenger_discard + (card.id,))
            self.update_player(action.actor, challenger_card=None, challenger_use=None)
            self.say(f"{p.name} uses {card.stratagem.name} (Challenger Stratagem, 0CP); the card is discarded.",
                     action.actor)
        else:
            self.update_player(action.actor, challenger_use="mission")
            self.say(f"{p.name} goes for the Challenger Mission {card.mission.name}.", action.actor)

    # ---- Victory points ------------------------------------------------------------------------

    def _do_score(self, action: a.Score) -> None:
        self.require_battle()
        scorer = action.actor
        closed = scoring_closed(self.state, scorer)
        if closed:
            raise WrongPhase(closed)
        match action.source:
            case Source.PRIMARY:
                primary = self.catalog.primary(self.state.primary_of(scorer))
                option = self._option(primary.scoring, action, "the Primary Mission")
                self._score(Source.PRIMARY, scorer, primary.id, option, primary.scoring, action)
            case Source.SECONDARY:
                self._score_secondary(scorer, action)
            case Source.CHALLENGER:
                self._score_challenger(scorer, action)
            case Source.BATTLE_READY:
                raise InvalidValue("Battle Ready VP are added at the end of the battle: declare it before the battle.")

    def _score_secondary(self, scorer: str, action: a.Score) -> None:
        p = self.p(scorer)
        if action.card is None:
            raise InvalidValue("Name the Secondary Mission card you score.")
        if action.card not in p.hand:
            raise InvalidValue(f"{self._any_card_name(action.card)} is not one of your active Secondary Missions.")
        if any(q.kind == PromptKind.ADAPT_KEEP and q.owner == scorer and action.card in (q.card, q.other_card)
               for q in self.state.prompts):
            raise WrongPhase("Adapt or Die: decide which of the two cards you keep before scoring either.")
        card = self.catalog.secondary(action.card)
        usable = tuple(o for o in card.scoring if o.mode in ("both", p.mode))
        option = self._option(usable, action, card.name)
        self._score(Source.SECONDARY, scorer, card.id, option, usable, action, fixed_card=p.mode == "fixed")

    def _score_challenger(self, scorer: str, action: a.Score) -> None:
        p = self.p(scorer)
        if p.challenger_card is None:
            raise InvalidValue("You hold no Challenger card.")
        card = self.catalog.challenger(p.challenger_card)
        if action.card not in (None, card.id):
            raise InvalidValue(f"Your Challenger card is {card.name}.")
        if self.state.active != scorer:
            raise NotYourTurn("Challenger Missions are completed in your own turn.")
        option = self._option(card.mission.scoring, action, card.mission.name)
        self._score(Source.CHALLENGER, scorer, card.id, option, card.mission.scoring, action)
        # The Mission is complete: the card is discarded.
        self.update(challenger_discard=self.state.challenger_discard + (card.id,))
        self.update_player(scorer, challenger_card=None, challenger_use=None)
        self.say(f"{p.name} completes {card.mission.name}; the Challenger card is discarded.", scorer)

    def _option(self, options: tuple[ScoringOption, ...], action: a.Score, what: str) -> ScoringOption | None:
        if action.option is None:
            return None
        for option in options:
            if option.id == action.option:
                return option
        raise InvalidValue(f"{what} has no scoring option {action.option!r} for you.")

    def _score(self, source: Source, scorer: str, card: str, option: ScoringOption | None,
               options: tuple[ScoringOption, ...], action: a.Score, fixed_card: bool = False) -> None:
        if option is None:
            if action.vp is None or not 1 <= action.vp <= MAX_MANUAL_VP:
                raise InvalidValue(f"Give the VP to record, from 1 to {MAX_MANUAL_VP}, or pick a scoring option.")
            # A card's VP by hand must be a total its options can give (version 2's logs replay as entered); the
            # Primary's stay free, as mission rules and tables add to them in ways no option lists.
            checked = source != Source.PRIMARY and self.state.setup.version >= 3
            refusal = hand_refusal(options, action.vp, self._scored_name(source, card)) if checked else None
            if refusal:
                raise InvalidValue(refusal)
            if action.end_of_battle and not self._end_of_battle():
                raise WrongPhase("End-of-battle VP are scored at the end of the battle: the end of the last turn.")
            claimed = action.vp
        else:
            if action.end_of_battle:
                raise InvalidValue("A scoring option says when it scores: leave out `end-of-battle`.")
            refusal = window_refusal(self.state, option, scorer, self.rules.battle_rounds)
            if refusal:
                raise WrongPhase(refusal)
            check_repeat(self.state, scorer, source, card, option, options)
            claimed = option_vp(self.state, option, action.count)
            if action.vp is not None and action.vp != claimed:
                raise InvalidValue(f"“{option.label}” is worth {claimed}VP here, not {action.vp}VP.")
        removed = self._removed_by(scorer, option, action.objective)
        self._record(source, scorer, card, option, claimed, fixed_card=fixed_card, end_of_battle=action.end_of_battle)
        if removed is not None:
            self.update(removed_objectives=self.state.removed_objectives + (removed,))
            self.say(f"{self._objective_name(removed)} is removed from the battlefield.", scorer)

    def _scored_name(self, source: Source, card: str) -> str:
        if source == Source.SECONDARY:
            return self.catalog.secondary(card).name
        return self.catalog.challenger(card).mission.name

    def _removed_by(self, scorer: str, option: ScoringOption | None, objective: str | None) -> str | None:
        """The objective marker a burn or deny option removes: named, on the table, in the option's area."""
        area = option.removes_objective if option is not None else None
        if option is None or area is None:
            if objective is not None:
                raise InvalidValue("Name an objective marker only when you score burning or denying one.")
            return None
        if objective is None and self.state.setup.legacy:
            return None  # version-1 logs scored these without naming the marker
        markers = removable_objectives(self.catalog, self.state, scorer, area)
        if objective not in {m.id for m in markers}:
            where = {"own_zone": "your deployment zone", "opponent_zone": "your opponent's deployment zone",
                     "no_mans_land": "No Man's Land"}[area]
            names = ", ".join(m.name for m in markers) or "none is left"
            raise InvalidValue(f"“{option.label}”: name the objective marker in {where} it removes ({names}).")
        return objective

    def _end_of_battle(self) -> bool:
        """The end of the last turn's scoring window: the end of the battle."""
        return (self.state.phase == Phase.END_OF_TURN and self.state.round == self.rules.battle_rounds
                and self.state.turn == 2)

    def _record(self, source: Source, scorer: str, card: str | None, option: ScoringOption | None,
                claimed: int, *, fixed_card: bool = False, note: str | None = None,
                end_of_battle: bool = False) -> None:
        turn = self.state.turn if self.state.status == Status.BATTLE else 0
        entry = VpEntry(player=scorer, source=source, card=card, option=option.id if option else None,
                        round=self.state.round, turn=turn, claimed=claimed, awarded=0, note=note,
                        end_of_battle=end_of_battle)
        entry = award(self.catalog, self.state, entry, option, fixed_card)
        self.update(vp=self.state.vp + (entry,))
        what = option.label if option else (note or source.value.replace("_", " "))
        text = f"{self.name(scorer)} scores {entry.awarded}VP ({what})"
        if entry.lost:
            text += f"; {entry.lost}VP lost to the cap of {entry.capped_by}"
        self.say(text + ".", scorer)
        if option is not None and option.drains_opponent and entry.awarded:
            self._drain(self.state.opponent(scorer).id, entry)

    def _drain(self, loser: str, gained: VpEntry) -> None:
        """Syphoned Power: the opponent loses what was scored, to a minimum of 0 (of their primary VP)."""
        held = sum(e.awarded for e in self.state.vp if e.player == loser and e.source == Source.PRIMARY)
        loss = min(gained.awarded, held)
        if loss:
            self.update(vp=self.state.vp + (gained.model_copy(update={
                "player": loser, "claimed": -loss, "awarded": -loss, "capped_by": None, "note": "syphoned",
            }),))
            self.say(f"{self.name(loser)} loses {loss}VP (syphoned).", loser)


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def _without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    out = list(items)
    out.remove(item)
    return tuple(out)


def _yes_no(accept: bool | None) -> bool:
    if accept is None:
        raise InvalidValue("Answer yes or no.")
    return accept


def _unit_names(units: tuple[str, ...], at_most: int) -> tuple[str, ...]:
    names = tuple(u.strip() for u in units if u.strip())
    if len(names) > at_most:
        raise InvalidValue(f"Name at most {at_most} unit{'s' if at_most > 1 else ''}.")
    if any(len(n) > MAX_UNIT_NAME for n in names):
        raise InvalidValue(f"Unit names are at most {MAX_UNIT_NAME} characters.")
    return names


def _phase_name(phase: Phase | None) -> str:
    return {
        Phase.COMMAND: "Command phase",
        Phase.BATTLE: "Movement to Fight phases",
        Phase.END_OF_TURN: "end of the turn",
        Phase.DISCARDS: "end-of-turn discards",
        None: "time between turns",
    }[phase]
