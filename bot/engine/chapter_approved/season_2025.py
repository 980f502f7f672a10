"""Chapter Approved 2025-26: a mission drawn (or a Tournament Mission Pool mission) and the Attacker and Defender
rolled off at once; Tactical hands topped up in each Command phase; New Orders; discards at the end of any turn;
the Challenger deck."""

from __future__ import annotations

from bot.engine import clock as clocks
from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.battle import Battle, supply_drop
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.geometry import corner_areas
from bot.engine.chapter_approved.state import GameSetup, GameState, Mission, PlayerState, Source
from bot.engine.chapter_approved.victory import NO_CHALLENGER
from bot.engine.errors import GameError, InvalidValue, NotYourTurn
from bot.engine.events import Event, Played
from bot.engine.rng import roll_off, shuffled, stream


class Season2025(Battle):
    """Chapter Approved 2025-26, and a new season's decks that play as it does."""

    redraw = "New Orders"
    redraw_verb = "use New Orders"

    @classmethod
    def begin(cls, catalog: Catalog, setup: GameSetup) -> Played:
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
            players=tuple(PlayerState(id=pid, name=name, army=army, partner_army=partner)
                          for pid, name, army, partner in zip(setup.players, setup.names, setup.armies or (None, None),
                                                              setup.partner_armies or (None, None))),
            challenger_deck=challenger_deck,
        )
        winner = state.player(sides.winner).name
        events = [
            Event(f"Mission: {catalog.primary(mission.primary).name} on "
                  f"{catalog.deployment(mission.deployment).name}."),
            Event(f"Attacker and Defender roll-off: {sides.text}. {winner} chooses who is the Attacker."),
        ]
        return Played(state, tuple(events))

    # ---- Tactical Missions: a hand topped up, New Orders, discards at the end of any turn -----

    def _draw_tactical(self, active: str) -> None:
        while len(self.p(active).hand) < self.rules.tactical_hand:
            if self._draw(active) is None:
                break

    def _check_redraw(self, p: PlayerState) -> None:
        if "new-orders" in p.stratagems_this_phase:
            raise GameError("New Orders was already used this phase: a Stratagem can be used once per phase.")

    def _redraw_cost(self) -> int:
        return self.rules.new_orders_cp

    def _pay_redraw(self, p: PlayerState, cost: int, card: str) -> None:
        self.update_player(p.id, cp=p.cp - cost, stratagems_this_phase=p.stratagems_this_phase + ("new-orders",))
        self.say(f"{p.name} uses New Orders ({cost}CP) on {self.card_name(card)}.", p.id)

    def _may_discard(self, player_id: str) -> bool:
        return True

    # ---- the Challenger ------------------------------------------------------------------------

    def _round_begins(self) -> None:
        if self.state.setup.challenger_cards and self.rules.challenger_deck:
            self._decide_challenger()

    def _decide_challenger(self) -> None:
        # Battle Ready VP are only added at the end of the battle, so they never count here.
        one, two = self.state.players
        vp_one = self.state.total_vp(one.id, battle_ready=False)
        vp_two = self.state.total_vp(two.id, battle_ready=False)
        if abs(vp_one - vp_two) >= self.rules.challenger_gap:
            trailing = one if vp_one < vp_two else two
            self.update(challenger=trailing.id)
            self.say(f"{trailing.name} trails by {abs(vp_one - vp_two)}VP and is the Challenger this battle round.")

    def _command_phase_begins(self, active: str) -> None:
        if self.state.challenger == active:
            self._draw_challenger(active)

    def _draw_challenger(self, player_id: str) -> None:
        if not self.state.challenger_deck:
            self.say("The Challenger deck is empty: no Challenger card to draw.")
            return
        card, *rest = self.state.challenger_deck
        self.update(challenger_deck=tuple(rest))
        self.update_player(player_id, challenger_card=card, challenger_use=None)
        self.say(f"{self.name(player_id)} draws the Challenger card {self.catalog.challenger(card).name}.", player_id)

    def _turn_ends(self, active: str) -> None:
        p = self.p(active)
        if p.challenger_card:
            self.update(challenger_discard=self.state.challenger_discard + (p.challenger_card,))
            self.update_player(active, challenger_card=None, challenger_use=None)
            self.say(f"{p.name}'s Challenger card is discarded at the end of their turn.", active)

    def _do_use_challenger(self, action: a.UseChallenger) -> None:
        self.require_battle()
        p = self.p(action.actor)
        if p.challenger_card is None:
            raise GameError(NO_CHALLENGER)
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

    def _score_challenger(self, scorer: str, action: a.Score) -> None:
        p = self.p(scorer)
        if p.challenger_card is None:
            raise InvalidValue(NO_CHALLENGER)
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


def _choose_mission(catalog: Catalog, setup: GameSetup) -> Mission:
    if setup.defender is not None:
        raise InvalidValue("A team pairing's Defender belongs to Chapter Approved 2026-27 team events.")
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
        return supply_drop(catalog, setup, mission)
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

