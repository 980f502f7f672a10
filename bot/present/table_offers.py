"""What a table game (Grand Tournament 2020, 4th edition) offers a player now (the controls of
bot/present/offers.py): the board's controls for the current step, the menu each opens, the form a choice asks
before it is a move, and the move each choice makes. The engine checks every move against the game."""

from __future__ import annotations

from collections.abc import Callable

from bot.engine import moves
from bot.engine.errors import GameError
from bot.engine.gt2020.game import GrandTournamentRules
from bot.engine.gt2020.selection import CODEX, MAX_CODEX_NAME, options as secondary_options
from bot.engine.models import settled
from bot.engine.table import actions as t
from bot.engine.table.rules import SCORING, TableRules
from bot.engine.table.state import Step, TableState
from bot.present.offers import Control, Field, FormSpec, Menu, Pick, choices, fit

NOBODY = "nobody"
# Controls that make a move at once: verb -> the action of the player `me` pressing it.
SIMPLE_ACTIONS: dict[str, Callable[[str, TableState], object]] = {
    "attacker": lambda me, state: moves.ChooseSide(actor=me, side="attacker"),
    "defender": lambda me, state: moves.ChooseSide(actor=me, side="defender"),
    "ready": lambda me, state: moves.DeclareBattleReady(actor=me, ready=not state.player(me).battle_ready),
    "gofirst": lambda me, state: t.ChooseTurn(actor=me, first=True),
    "gosecond": lambda me, state: t.ChooseTurn(actor=me, first=False),
    "endcmd": lambda me, state: moves.EndCommandPhase(actor=me),
    "endturn": lambda me, state: moves.EndTurn(actor=me),
    "done": lambda me, state: moves.DoneScoring(actor=me),
    "rounddone": lambda me, state: moves.DoneScoring(actor=me),
    "pause": lambda me, state: moves.PauseClock(actor=me),
    "resume": lambda me, state: moves.ResumeClock(actor=me),
    "claim": lambda me, state: moves.ClaimTime(actor=me),
}
# Deployment done, and the question asked first of a player who has not said whether their army is Battle Ready.
DEPLOYING = frozenset({"deployed", "readydeploy", "notreadydeploy"})
# A secret selection does not depend on the board, and both players make it at the same time; nor does an answer
# about Battle Ready.
UNVERSIONED = frozenset({"select", "picks", "pause", "resume", "claim", "readydeploy", "notreadydeploy"})
# Controls that open a menu (menu() draws it); those that open a form.
MENUS = frozenset({"select", "score", "pickmission", "outcome"})
FORMS = frozenset({"army"})
READY_QUESTION = "Before the first-turn roll-off: is your army Battle Ready (+10VP at the end of the battle)?"


def controls(rules: TableRules, state: TableState, me: str | None = None) -> list[Control]:
    """The controls of the moves the current step allows; for the player `me`, Deployment done is a menu when it
    asks first whether their army is Battle Ready."""
    def kind(verb: str) -> str:
        if verb in MENUS or verb == "deployed" and me is not None and deploy_moves(rules, state, me, verb) is None:
            return "menu"
        return "form" if verb in FORMS else "move"
    return [Control(verb, kind(verb)) for verb in _verbs(rules, state)]  # type: ignore[arg-type]


def _verbs(rules: TableRules, state: TableState) -> list[str]:
    verbs = {
        Step.MISSION: ["pickmission", "army"],
        Step.SECONDARIES: ["select", "ready", "army", "undo"],
        Step.SIDES: ["attacker", "defender", "ready", "army", "undo"],
        Step.DEPLOYMENT: ["deployed", "ready", "army", "undo"],
        Step.FIRST_TURN: ["gofirst", "gosecond", "undo"],
        Step.BATTLE: ["endcmd", "score", "endturn", "undo"],
        Step.ROUND_END: ["score", "rounddone", "undo"],
        Step.END_GAME: ["score", "done", "undo"],
    }.get(state.status, [])
    if not rules.objectives(state, state.players[0].id):  # 4th edition Alpha: the mission's objective decides
        verbs = [v for v in verbs if v != "score"]
        if state.status == Step.END_GAME:
            verbs.insert(0, "outcome")
    if not rules.has_battle_ready and "ready" in verbs:
        verbs.remove("ready")
    if "endcmd" in verbs and not (state.command_phase and state.setup.version >= 3):
        verbs.remove("endcmd")
    clock = state.clock
    if clock is not None and state.status in SCORING:
        verbs.append("resume" if clock.paused_by else "pause")
        if clock.expiry == "claim" and clock.out:
            verbs.append("claim")
    return verbs


def deploy_moves(rules: TableRules, state: TableState, me: str, verb: str) -> list[object] | None:
    """Deployment done (`verb` "deployed", or with the answer to the Battle Ready question "readydeploy" and
    "notreadydeploy"): the moves to make, or None when the player must first say whether their army is Battle Ready.
    The first-turn roll-off ends the time to declare it, so a player who has not said either way is asked once."""
    undeclared = rules.has_battle_ready and not state.player(me).ready_declared
    if verb == "deployed":
        if undeclared and state.status == Step.DEPLOYMENT and me not in state.deployed:
            return None
        return [moves.DeploymentDone(actor=me)]
    return [moves.DeclareBattleReady(actor=me, ready=verb == "readydeploy"), moves.DeploymentDone(actor=me)]


READY_MENU = Menu(READY_QUESTION, (Control("readydeploy"), Control("notreadydeploy")))


def menu(rules: TableRules, state: TableState, me: str, verb: str) -> Menu:
    """The menu a control of MENUS opens for the player `me` (and Deployment done's Battle Ready question)."""
    if verb == "deployed":
        if deploy_moves(rules, state, me, verb) is not None:
            raise GameError("That control has no menu.")
        return READY_MENU
    if verb == "select":
        if not isinstance(rules, GrandTournamentRules):
            raise GameError(f"A {rules.title} game has no secondary objectives to select.")
        if state.status != Step.SECONDARIES:
            raise GameError("Secondary objectives are selected before the Attacker and Defender roll-off.")
        wanted = rules.data.pack.secondaries_selected
        items = [(fit(f"{name} · {category}"), oid) for oid, name, category
                 in secondary_options(rules.data, rules.mission(state))]
        return Menu(f"Select **{wanted}** secondary objectives, no more than one from each category. Nobody sees "
                    "your selection until both players have made theirs.",
                    (Pick("picks", choices(items), placeholder=f"Secondary objectives: pick {wanted}", least=wanted,
                          at_most=wanted),))
    if verb == "score":
        objectives = rules.scorable(state, me)
        if not objectives:
            raise GameError("Nothing of yours scores now (primary objectives score from battle round 2, most "
                            "objectives in your own turn).")
        return Menu("Which objective do you score? You enter the VP next.",
                    (Pick("objective", choices([(fit(o.name), o.id) for o in objectives]), placeholder="Objective"),))
    if verb == "pickmission":
        if state.status != Step.MISSION or me != settled(state.strategy_roll).winner:
            raise GameError("Only the winner of the Strategy Roll chooses the mission, before deployment.")
        return Menu("Choose the mission (you won the Strategy Roll).",
                    (Pick("mission", choices([(m.name, m.id) for m in rules.data.missions])),))
    if verb == "outcome":
        return Menu("Who achieved the mission's objective?",
                    (Pick("outcome", choices([*((p.name, p.id) for p in state.players), ("Nobody", NOBODY)])),))
    raise GameError("That button is not available here.")


def select_form(rules: TableRules, state: TableState, me: str, verb: str, values: list[str]) -> FormSpec | None:
    """The form a menu choice asks for before it is a move: the Codex objective's name, an objective's VP."""
    if verb == "picks" and CODEX in values:
        return FormSpec("Your Codex secondary objective", (Field("codex", "Its name", max_length=MAX_CODEX_NAME),))
    if verb == "objective" and values:
        name = next((o.name for o in rules.objectives(state, me) if o.id == values[0]), values[0])
        return FormSpec(f"VP for {name}"[:45], (Field("vp", "Victory points scored", "e.g. 5",
                                                      max_length=len(str(t.MAX_VP))),))
    return None


def select_action(me: str, verb: str, values: list[str], typed: dict[str, str] | None = None) -> object:
    """The move a choice in one of the game's menus makes, with what its form asked (`typed`) where it has one; the
    engine checks it against the game."""
    if not values:
        raise GameError("Pick something in the menu first.")
    typed = typed or {}
    if verb == "picks":
        return t.SelectSecondaries(actor=me, picks=tuple(values),
                                   **({"codex": typed.get("codex", "")} if CODEX in values else {}))
    if verb == "objective":
        try:
            vp = int(typed.get("vp", "").strip())
            if not 1 <= vp <= t.MAX_VP:
                raise ValueError
        except ValueError:
            raise GameError(f"Enter a whole number of VP from 1 to {t.MAX_VP}.") from None
        return t.ScoreObjective(actor=me, objective=values[0], vp=vp)
    if verb == "mission":
        return t.ChooseMission(actor=me, mission=values[0])
    if verb == "outcome":
        return t.MissionResult(actor=me, winner=None if values[0] == NOBODY else values[0])
    raise GameError("That menu is not available here.")
