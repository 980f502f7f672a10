"""Victory points: a score checked against its card, its window and the caps, recorded in the ledger."""

from __future__ import annotations

from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.cards import SecondaryCards
from bot.engine.chapter_approved.catalog import ScoringOption
from bot.engine.chapter_approved.objectives import removable_objectives
from bot.engine.chapter_approved.scoring import award, check_repeat, hand_refusal, option_vp, scoring_closed, window_refusal
from bot.engine.chapter_approved.state import Phase, PromptKind, Source, Status, VpEntry
from bot.engine.errors import InvalidValue, WrongPhase

MAX_MANUAL_VP = 50
NO_CHALLENGER = "You hold no Challenger card."


class VictoryPoints(SecondaryCards):
    """Scoring the Primary Mission and the Secondary Mission cards."""

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
        """A season with a Challenger deck scores its cards (bot/engine/chapter_approved/season_2025.py)."""
        raise InvalidValue(NO_CHALLENGER)

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

