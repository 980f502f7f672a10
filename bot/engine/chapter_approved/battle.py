"""The battle sequence both Chapter Approved seasons share, from the Attacker and Defender to the result.

Where the seasons' flows differ, the sequence calls a hook (the first section of `Battle`) that each season's
subclass implements, as the older packs extend bot/engine/table/rules.py: bot/engine/chapter_approved/season_2025.py
and season_2026.py. Where they differ by a number (caps, CP, draws, costs), it is the season's data: `self.rules`.
"""

from __future__ import annotations

from typing import ClassVar

from bot.engine import clock as clocks
from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.catalog import Catalog, Window
from bot.engine.chapter_approved.core import without
from bot.engine.chapter_approved.state import (
    GameSetup, Mission, Phase, PlayerState, PromptKind, SecondaryChoice, Source, Status,
)
from bot.engine.chapter_approved.victory import NO_CHALLENGER, VictoryPoints
from bot.engine.command_points import cp_amount, cp_reason
from bot.engine.errors import GameError, InvalidValue, NotYourTurn, WrongPhase
from bot.engine.events import Played, result_text
from bot.engine.models import Army, Result, settled
from bot.engine.rng import roll_off, shuffled, stream


def supply_drop(catalog: Catalog, setup: GameSetup, mission: Mission) -> Mission:
    """Supply Drop: two different No Man's Land objectives, not the centre one, at random: Alpha, then Omega."""
    deployment = catalog.deployment(mission.deployment)
    candidates = [o.id for o in deployment.objectives if o.area == "no_mans_land" and not o.centre]
    alpha, omega = stream(setup, "supply-drop").sample(candidates, 2)
    return mission.model_copy(update={"alpha_objective": alpha, "omega_objective": omega})


class Battle(VictoryPoints):
    """The shared battle sequence; a subclass is a season."""

    # The Command phase's paid redraw of one Tactical card, as the season calls it and as a player does it.
    redraw: ClassVar[str]
    redraw_verb: ClassVar[str]

    # ---- the season's hooks --------------------------------------------------------------------

    @classmethod
    def begin(cls, catalog: Catalog, setup: GameSetup) -> Played:
        """A new game (its players and seed checked): the mission, the roll-offs and the first step."""
        raise NotImplementedError

    def _round_begins(self) -> None:
        """A battle round begins, before its first turn."""

    def _command_phase_begins(self, active: str) -> None:
        """The active player's Command phase, after their reminders and before their Tactical draw."""

    def _draw_tactical(self, active: str) -> None:
        """A Tactical player's draw at the start of their Command phase."""
        raise NotImplementedError

    def _check_redraw(self, p: PlayerState) -> None:
        """Refuse a redraw the season allows no more of (this phase, or this battle)."""
        raise NotImplementedError

    def _redraw_cost(self) -> int:
        raise NotImplementedError

    def _pay_redraw(self, p: PlayerState, cost: int, card: str) -> None:
        """Pay for the redraw of `card`, count it, and say so."""
        raise NotImplementedError

    def _may_discard(self, player_id: str) -> bool:
        """Whether a player with active Tactical cards decides on discarding them at this end of turn."""
        raise NotImplementedError

    def _no_discard_now(self, player_id: str) -> GameError:
        """Why a player who is not in the end-of-turn queue cannot discard."""
        return NotYourTurn("You have no end-of-turn discard to decide now.")

    def _turn_ends(self, active: str) -> None:
        """The active player's turn is over, before the next turn begins."""

    # A season without a Challenger deck or Force Dispositions refuses their actions.
    def _do_use_challenger(self, action: a.UseChallenger) -> None:
        self.require_battle()
        raise GameError(NO_CHALLENGER)

    def _do_choose_disposition(self, action: a.ChooseDisposition) -> None:
        raise WrongPhase(f"{self.catalog.title} has no Force Dispositions.")

    def _do_agree_mirror(self, action: a.AgreeMirrorMission) -> None:
        raise InvalidValue("Only Mirrored World lets the players agree on a mission.")

    # ---- before the battle ---------------------------------------------------------------------

    def _do_set_army(self, action: a.SetArmy) -> None:
        if self.state.status in (Status.BATTLE, Status.ENDED, Status.ABANDONED):
            raise WrongPhase("Armies are set before the battle begins.")
        if action.partner and self.state.setup.partners is None:
            raise InvalidValue("Only a doubles side has a second player's army.")
        self.set_army(action.actor, action.army, partner=action.partner)

    def set_army(self, player: str, army: Army, *, partner: bool = False) -> None:
        self.update_player(player, **{"partner_army" if partner else "army": army})
        self.say(f"{self.owner(player, partner)}'s army: {army.label}.")
        self.flag_side(player)

    def flag_side(self, player: str) -> None:
        """Doubles: a side's two armies of one faction are flagged to the side, never refused (the organiser or
        the players decide)."""
        first, second = self.p(player).army, self.p(player).partner_army
        if first is not None and second is not None and first.faction == second.faction:
            self.say(f"Your side's two armies are both {first.faction_name}: in doubles they are usually of "
                     "different factions.", private_to=player)

    def owner(self, player: str, partner: bool) -> str:
        """Whose army it is, by name: the seat's, or in doubles one of its two players'."""
        names = self.state.setup.player_names
        return names[self.state.setup.players.index(player)][partner] if names else self.name(player)

    def _do_choose_side(self, action: a.ChooseSide) -> None:
        if self.state.status == Status.DISPOSITIONS:
            raise WrongPhase("Both players pick their Force Disposition first.")
        if self.state.status != Status.SIDES:
            raise WrongPhase("The Attacker and Defender are already decided.")
        if action.actor != self.state.sides_rolloff.winner:
            raise NotYourTurn(f"{self.name(self.state.sides_rolloff.winner)} won the roll-off and chooses.")
        other = self.state.opponent(action.actor).id
        self.settle_sides(action.actor if action.side == "attacker" else other)

    def settle_sides(self, attacker: str) -> None:
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
                self.update(mission=supply_drop(self.catalog, self.state.setup, self.state.mission))
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
        self._round_begins()
        self._start_turn()

    def _start_turn(self) -> None:
        active = settled(self.state.active)
        self.update(phase=Phase.COMMAND)
        for p in self.state.players:
            self.update_player(p.id, cp=p.cp + self.rules.command_phase_cp, stratagems_this_phase=(),
                               drawn_this_phase=())
        self.say(f"{self.name(active)}'s turn (battle round {self.state.round}): Command phase. "
                 f"Both players gain {self.rules.command_phase_cp}CP.")
        self._remind(active, "start_of_your_turn")
        self._command_phase_begins(active)
        for card in self.p(active).hand:
            rule = self.catalog.secondary(card).when_drawn
            if rule is not None and rule.again_at_start_of_your_turn:
                self._guards_note(active, card)
        if self.p(active).mode == "tactical":
            self._draw_tactical(active)

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
                if self.p(pid).hand and self._may_discard(pid):
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
        if action.actor not in queue:
            raise self._no_discard_now(action.actor)
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
        self._turn_ends(active)
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
                           set_aside=without(p.set_aside, action.replacement), adapt_or_die_uses=1)
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


    # ---- the Command phase's redraw --------------------------------------------------------------

    def _do_new_orders(self, action: a.NewOrders) -> None:
        """In your Command phase, pay to discard one active Tactical card and draw one, as the season allows."""
        name, what = self.redraw, self.redraw_verb
        self.require_active(action.actor, what)
        self.require_phase(Phase.COMMAND, f"{what} (end of your Command phase)")
        p = self.p(action.actor)
        if p.mode != "tactical":
            raise WrongPhase(f"{name[0].upper()}{name[1:]} is for Tactical Missions; Fixed Missions cannot be "
                             "discarded.")
        self.require_no_prompts(action.actor)
        self._check_redraw(p)
        self._own_active_cards(action.actor, (action.card,))
        cost = self._redraw_cost()
        if p.cp < cost:
            raise GameError(f"{name[0].upper()}{name[1:]} costs {cost}CP and you have {p.cp}CP.")
        if not p.deck:
            raise GameError(f"Your Secondary Mission deck is empty: {name} would draw nothing.")
        self._pay_redraw(p, cost, action.card)
        self._move_to_discard(action.actor, (action.card,))
        self._draw(action.actor)
