"""Secondary Mission cards: the draw and its When Drawn rules, the answers they wait for, and the objective markers
the players set up."""

from __future__ import annotations

from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.catalog import WhenDrawnKind
from bot.engine.chapter_approved.core import Core, unit_names, without, yes_no
from bot.engine.chapter_approved.geometry import OPPOSITE_CORNER
from bot.engine.chapter_approved.objectives import objective_name, table_objectives
from bot.engine.chapter_approved.state import Phase, Prompt, PromptKind, RitualMarker, Source, Targets
from bot.engine.errors import GameError, InvalidValue, NotYourTurn
from bot.engine.models import settled
from bot.engine.rng import shuffled


class SecondaryCards(Core):
    """The Secondary Mission decks and hands, and the prompts their cards raise."""

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
        hand = without(p.hand, card_id)
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

    def _do_answer(self, action: a.AnswerPrompt) -> None:
        prompt = next((q for q in self.state.prompts if q.player == action.actor), None)
        if prompt is None:
            raise GameError("Nothing is waiting for your answer.")
        self.update(prompts=tuple(q for q in self.state.prompts if q is not prompt))
        owner, card = prompt.owner, prompt.card
        match prompt.kind:
            case PromptKind.OPTIONAL_RESHUFFLE:
                if yes_no(action.accept):
                    self.say(f"{self.name(owner)} shuffles {self.card_name(card)} back and draws again.", owner)
                    self._replace(owner, card, shuffle_back=True)
                else:
                    self.say(f"{self.name(owner)} keeps {self.card_name(card)}.", owner)
            case PromptKind.DISCARD_IF:
                if yes_no(action.accept):
                    self.say(f"{self.name(owner)} discards {self.card_name(card)} (its When Drawn condition "
                             "holds) and draws again.", owner)
                    self._replace(owner, card, shuffle_back=False)
                else:
                    self.say(f"{self.name(owner)} keeps {self.card_name(card)}.", owner)
            case PromptKind.ALPHA_TARGETS:
                self._answer_alpha(owner, card, action.units)
            case PromptKind.GAMMA_TARGET:
                units = unit_names(action.units, at_most=1)
                targets = self.p(owner).targets.get(card, Targets())
                self.update_player(owner, targets={**self.p(owner).targets,
                                                   card: targets.model_copy(update={"gamma_unit": units[0] if units else None})})
                self.say(f"Marked for Death: Gamma Target {units[0] if units else '(none)'}.", owner)
            case PromptKind.TEMPTING_OBJECTIVE:
                self._answer_tempting(owner, card, action.objective)
            case PromptKind.BEACON_UNIT:
                units = unit_names(action.units, at_most=1)
                if not units:
                    raise InvalidValue(f"{self.card_name(card)}: name one of your units on the battlefield (or "
                                       "embarked in one).")
                self.update_player(owner, targets={**self.p(owner).targets, card: Targets(unit=units[0])})
                self.say(f"{self.card_name(card)}: {units[0]}.", owner)
            case PromptKind.ADAPT_KEEP:
                self._answer_adapt_keep(owner, card, settled(prompt.other_card), action.keep)

    def _answer_alpha(self, owner: str, card: str, units: tuple[str, ...]) -> None:
        names = unit_names(units, at_most=3)
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
            names = unit_names((objective,) if objective else (), at_most=1)
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

    # ---- Adapt or Die's answer (its actions are steps of the battle: battle.py) ------------------

    def _answer_adapt_keep(self, owner: str, card: str, other: str, keep: str | None) -> None:
        if keep not in (card, other):
            raise InvalidValue(f"Keep either {self.card_name(card)} or {self.card_name(other)}.")
        back = other if keep == card else card
        p = self.p(owner)
        targets = {k: v for k, v in p.targets.items() if k != back}
        self.update_player(owner, hand=without(p.hand, back), targets=targets,
                           deck=self._reshuffled(p.deck + (back,)))
        self.say(f"{p.name} keeps {self.card_name(keep)} and shuffles {self.card_name(back)} back.", owner)
        if keep == other:
            self.update_player(owner, drawn_this_phase=self.p(owner).drawn_this_phase + (other,))
            self._when_drawn(owner, other)
