"""Chapter Approved 2026-27: Force Dispositions before the roll-off and a Primary Mission per player; two Tactical
cards drawn in every Command phase; the swap instead of New Orders; discards at the end of your own turn only."""

from __future__ import annotations

from bot.engine import clock as clocks
from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.battle import Battle
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.core import times
from bot.engine.chapter_approved.state import GameSetup, GameState, Mission, PlayerState, Status
from bot.engine.errors import GameError, InvalidValue, NotYourTurn, WrongPhase
from bot.engine.events import Event, Played
from bot.engine.models import Army, settled
from bot.engine.rng import roll_off, stream


class Season2026(Battle):
    """Chapter Approved 2026-27."""

    redraw = "the swap"
    redraw_verb = "swap a Secondary Mission"

    @classmethod
    def begin(cls, catalog: Catalog, setup: GameSetup) -> Played:
        """The Deployment card (chosen or drawn) and a Twist if asked for; each player's Primary Mission waits for
        both Force Dispositions (picked secretly now, or set beforehand for an event)."""
        if setup.size != "strike-force":
            raise InvalidValue(f"{catalog.title} is played at Strike Force size.")
        if setup.mission is not None:
            raise InvalidValue(f"{catalog.title} has no Tournament Mission Pool: each player's Primary Mission comes "
                               "from both Force Dispositions.")
        if setup.challenger_cards:
            raise InvalidValue(f"{catalog.title} has no Challenger cards.")
        if setup.defender is not None and setup.defender not in setup.players:
            raise InvalidValue("The Defender a team pairing fixed must be one of the game's players.")
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
        game = cls(catalog, state)
        for player, army, partner in zip(setup.players, setup.armies or (None, None),
                                         setup.partner_armies or (None, None)):
            if army is not None:  # an event's dispositions are set below; a pick-up army picks its detachment's
                game.set_army(player, army, pick=setup.dispositions is None)
            if partner is not None:  # a doubles event's second list
                game.set_army(player, partner, pick=False, partner=True)
        if setup.dispositions is not None:
            for player, disposition in zip(setup.players, setup.dispositions):
                game.update_player(player, disposition_choice=game.known_disposition(disposition))
            game.reveal_dispositions()
        elif game.state.status == Status.DISPOSITIONS:
            game.say("Each player now secretly picks their Force Disposition.")
        return Played(game.state, tuple(events + game.events))

    # ---- Force Dispositions -------------------------------------------------------------------

    def known_disposition(self, disposition_id: str) -> str:
        try:
            return self.catalog.disposition(disposition_id).id
        except KeyError:
            names = ", ".join(d.name for d in self.catalog.dispositions)
            raise InvalidValue(f"There is no Force Disposition {disposition_id!r}: pick one of {names}.") from None

    def set_army(self, player: str, army: Army, *, pick: bool = True, partner: bool = False) -> None:
        """Before the reveal the army stays hidden, as the Force Disposition it plays: the one its detachments grant
        (or its list records among several) is picked for the player unless they picked one already (a pick-up
        player may pick another until both have picked); among several unrecorded, the player is asked to choose.
        After the reveal an army may change only within what keeps the disposition revealed. In doubles a side
        plays one Force Disposition, from either of its two armies."""
        if self.state.status != Status.DISPOSITIONS:
            self.keeps_disposition(player, army, partner=partner)
            super().set_army(player, army, partner=partner)
            return
        self.update_player(player, **{"partner_army" if partner else "army": army})
        whose = f"{self.owner(player, partner)}'s" if partner else "Your"
        self.say(f"{whose} army: {army.label}. Hidden until both Force Dispositions are revealed.", private_to=player)
        self.say(f"{self.owner(player, partner)} has set their army.")
        self.flag_side(player)
        if not pick or self.p(player).disposition_choice is not None:
            return
        if army.disposition is not None:
            self.pick_disposition(player, army.disposition, whose=_whose(army))
        elif army.to_choose:
            names = " and ".join(self._disposition_name(d) for d in army.dispositions)
            self.say(f"Your detachments grant {names}: pick the Force Disposition you play with Pick Force "
                     "Disposition. Hidden until both players have picked.", private_to=player)

    def keeps_disposition(self, player: str, army: Army, *, partner: bool = False) -> None:
        """Once the Force Dispositions are revealed, an army may change only within what keeps its disposition: the
        same faction and detachments (a list given, its points), or detachments that grant the disposition revealed
        (in doubles, or the side's other army's do). Anything else is refused, in one line."""
        revealed = self.p(player).disposition
        before, other = self.p(player).army, self.p(player).partner_army
        if partner:
            before, other = other, before
        if self.state.setup.version < 5 or revealed is None or revealed in army.granted:  # version 4 took any
            return
        if other is not None and revealed in other.granted:
            return
        if before is not None and (before.faction, before.detachments) == (army.faction, army.detachments):
            return
        name = self.catalog.disposition(revealed).name
        grants = (f"{army.detachments_text} grants "
                  + " and ".join(self._disposition_name(d) for d in army.granted) if army.granted
                  else "name a detachment that grants it")
        raise InvalidValue(f"The Force Dispositions are revealed, so your army keeps {name}: {grants}.")

    def _disposition_name(self, disposition: str) -> str:
        try:
            return self.catalog.disposition(disposition).name
        except KeyError:
            return disposition

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
            raise WrongPhase("The Force Dispositions are already revealed.")
        self.pick_disposition(action.actor, action.disposition)

    def pick_disposition(self, player: str, disposition: str, *, whose: str = "") -> None:
        """A secret pick, which the player may change until both have picked: then both are revealed. `whose`: where
        a pick made for the player comes from ("your detachment's")."""
        chosen = self.known_disposition(disposition)
        changed = self.p(player).disposition_choice is not None
        self.update_player(player, disposition_choice=chosen)
        how = "changed your pick to" if changed else "picked"
        whose = f" ({whose})" if whose else ""
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
        defender = self.state.setup.defender
        if defender is not None:  # a team pairing's Defender: their game, their role
            self.say(f"{self.name(defender)} is the Defender, as the team pairing put them forward.")
            self.settle_sides(self.state.opponent(defender).id)
            return
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


    # ---- Tactical Missions: two draws, the swap, discards at the end of your own turn ---------

    def _draw_tactical(self, active: str) -> None:
        """Two new cards every Command phase, however many are active."""
        for _ in range(settled(self.rules.tactical_draws_per_command_phase)):
            if self._draw(active) is None:
                break

    def _check_redraw(self, p: PlayerState) -> None:
        per_battle = settled(self.rules.swap).per_battle
        if p.swaps_used >= per_battle:
            raise GameError(f"You have already swapped a Secondary Mission: it is {times(per_battle)} per battle.")

    def _redraw_cost(self) -> int:
        return settled(self.rules.swap).cp

    def _pay_redraw(self, p: PlayerState, cost: int, card: str) -> None:
        self.update_player(p.id, cp=p.cp - cost, swaps_used=p.swaps_used + 1)
        self.say(f"{p.name} swaps {self.card_name(card)} ({cost}CP, {times(settled(self.rules.swap).per_battle)} "
                 "per battle).", p.id)

    def _may_discard(self, player_id: str) -> bool:
        return player_id == self.state.active

    def _no_discard_now(self, player_id: str) -> GameError:
        if player_id != self.state.active:
            return NotYourTurn(f"In {self.catalog.title} you discard Secondary Missions only at the end of your own "
                               "turn.")
        return super()._no_discard_now(player_id)


def _whose(army: Army) -> str:
    """Where the disposition picked for an army comes from, as its player reads it."""
    if army.dispositions:
        return "your list's choice"
    return "your detachments'" if len(army.detachments) > 1 else "your detachment's"
