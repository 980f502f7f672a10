"""A Grand Tournament 2020 battle: the pack's mission sequence from the D33 to the victor, on the shared table
rules (bot/engine/table/rules.py).

What is the pack's own: the mission (agreed or rolled on the D33), the secret selection of three secondary
objectives at most one per category (step 7) before the Attacker and Defender roll-off (step 8), the CP each army
musters with (less the Detachments, spent by hand) and the Battle-forged CP bonus at the start of each Command
phase, five battle rounds, the caps (45VP primary, 15VP each secondary, 45VP secondaries, 10VP Battle Ready, 100VP
in all) and a concession scoring 0VP.
"""

from __future__ import annotations

from typing import Any

from bot.engine.errors import InvalidValue, WrongPhase
from bot.engine.gt2020.catalog import GrandTournament, Mission
from bot.engine.gt2020.catalog import Objective as GtObjective
from bot.engine.gt2020.missions import roll_gt_mission
from bot.engine.gt2020.selection import CODEX, MAX_CODEX_NAME, check_selection
from bot.engine.models import settled
from bot.engine.table import actions as t
from bot.engine.table.rules import Objective, Play, TableRules, capped
from bot.engine.table.state import END_GAME, Step, TableSetup, TableState, Tally

BATTLE_ROUNDS = 5
BATTLE_READY = "battle_ready"


class GrandTournamentRules(TableRules):
    pack = "gt-2020"
    prefix = "gt"
    has_cp = True
    has_battle_ready = True
    has_command_phase = True

    def __init__(self, data: GrandTournament) -> None:
        self.data = data
        self.title = data.pack.title

    def mission(self, state: TableState) -> Mission:
        return self.data.mission(state.mission)

    def begin(self, setup: TableSetup) -> tuple[dict[str, Any], list[str]]:
        if setup.size is None:
            raise InvalidValue("A Grand Tournament 2020 game is an Incursion or a Strike Force battle: pick a size.")
        rolled = roll_gt_mission(self.data, setup.seed, setup.size, setup.mission)
        mission = self.data.mission(rolled.mission)
        how = f"D33 roll {rolled.d33[0]}{rolled.d33[1]}" if rolled.d33 else "agreed"
        cp = self.data.pack.command_points[setup.size]
        lines = [f"Mission: {mission.name} ({how}).",
                 f"Each player musters with {cp}CP: spend your Detachments' Command costs with `/cp spend` before "
                 "the battle (the bot does not know your army).",
                 "Each player now secretly selects three secondary objectives, no more than one from each category."]
        fields = dict(mission=mission.id, d33=rolled.d33, battle_rounds=BATTLE_ROUNDS, status=Step.SECONDARIES)
        return fields, lines

    def starting_cp(self, setup: TableSetup) -> int:
        return self.data.pack.command_points[setup.size]

    # ---- step 7: secondary objectives ------------------------------------------------------------

    def _do_select_secondaries(self, play: Play, action: t.SelectSecondaries) -> None:
        state, me = play.state, action.actor
        if state.status != Step.SECONDARIES:
            raise WrongPhase("Secondary objectives are selected before the Attacker and Defender roll-off.")
        if state.player(me).secret is not None:
            raise WrongPhase("You have selected your secondary objectives (Undo takes your selection back until both "
                             "are revealed).")
        picks = check_selection(self.data, self.mission(state), list(action.picks))
        codex = (action.codex or "").strip()
        if CODEX in picks and not 1 <= len(codex) <= MAX_CODEX_NAME:
            raise InvalidValue(f"Name your Codex secondary objective (1 to {MAX_CODEX_NAME} characters).")
        play.seat(me, secret=picks, codex=codex if CODEX in picks else None)
        play.say(f"You selected {', '.join(self.objective_name(play.state, me, p) for p in picks)}.", private_to=me)
        play.say(f"{play.name(me)} has selected their secondary objectives.")
        if any(p.secret is None for p in play.state.players):
            return
        for seat in play.state.players:  # revealed together
            play.seat(seat.id, objectives=seat.secret, secret=None)
        for seat in play.state.players:
            names = ", ".join(self.objective_name(play.state, seat.id, p) for p in seat.objectives)
            play.say(f"{seat.name}'s secondary objectives: {names}.")
        sides = self.roll_off(play.state, "sides")
        play.update(sides_rolloff=sides, status=Step.SIDES)
        play.say(f"Attacker and Defender roll-off: {sides.text}. {play.name(sides.winner)} decides who is the "
                 "Attacker.")

    # ---- scoring -----------------------------------------------------------------------------------

    def objectives(self, state: TableState, player: str) -> list[Objective]:
        primaries = [f"primary:{n}" for n in range(len(self.mission(state).primaries))]
        return [self._objective(state, player, o) for o in (*primaries, *state.player(player).objectives)]

    def objective_name(self, state: TableState, player: str, objective: str) -> str:
        if objective == CODEX:
            return f"{state.player(player).codex} (Codex)"
        if objective == BATTLE_READY:
            return "Battle Ready"
        return self._data_of(state, objective).name

    def _objective(self, state: TableState, player: str, objective: str) -> Objective:
        if objective == CODEX:  # the Codex says when it scores; the pack cannot
            return Objective(CODEX, self.objective_name(state, player, CODEX), "progressive-and-end-game")
        data = self._data_of(state, objective)
        return Objective(objective, data.name, data.kind, data.scores, data.from_round, data.most)

    def _data_of(self, state: TableState, objective: str) -> GtObjective:
        """A primary objective ('primary:<n>'), the mission's own secondary or one of the pack's, as the pack has it."""
        mission = self.mission(state)
        if objective.startswith("primary:"):
            return mission.primaries[int(objective.split(":")[1])]
        if objective == mission.secondary.id:
            return mission.secondary
        return next(s for s in self.data.secondaries if s.id == objective)

    def award(self, state: TableState, player: str, objective: str, claimed: int) -> tuple[int, str | None]:
        caps = self.data.pack.caps
        mine = [v for v in state.vp if v.player == player]
        primary = sum(v.awarded for v in mine if v.objective.startswith("primary:"))
        secondaries = sum(v.awarded for v in mine if not v.objective.startswith("primary:")
                          and v.objective != BATTLE_READY)
        limits = [(f"{caps.total}VP", caps.total, state.total_vp(player))]
        if objective.startswith("primary:"):
            limits.append((f"{caps.primary}VP primary", caps.primary, primary))
        elif objective == BATTLE_READY:
            limits.append((f"{caps.battle_ready}VP Battle Ready", caps.battle_ready, 0))
        else:
            this = sum(v.awarded for v in mine if v.objective == objective)
            limits += [(f"{caps.each_secondary}VP per secondary", caps.each_secondary, this),
                       (f"{caps.secondaries}VP secondaries", caps.secondaries, secondaries)]
        return capped(claimed, limits)

    # ---- the battle sequence -----------------------------------------------------------------------

    def start_turn(self, play: Play) -> None:
        active = settled(play.state.active)
        seat = play.state.player(active)
        play.seat(active, cp=seat.cp + 1)
        play.say(f"Battle-forged CP bonus: {seat.name} gains 1CP ({seat.cp + 1}CP).")

    def finish_battle(self, play: Play) -> None:
        for seat in play.state.players:
            if seat.battle_ready:
                awarded, cap = self.award(play.state, seat.id, BATTLE_READY, self.data.pack.caps.battle_ready)
                play.update(vp=(*play.state.vp, Tally(player=seat.id, objective=BATTLE_READY, round=END_GAME,
                                                       claimed=self.data.pack.caps.battle_ready, awarded=awarded,
                                                       capped_by=cap)))
                play.say(f"{seat.name}'s army is Battle Ready: {awarded}VP.")

    def conceded_vp(self, state: TableState, player: str) -> int:
        return 0  # "A player who concedes scores 0 victory points for that battle"
