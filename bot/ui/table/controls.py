"""The buttons and menus of a table game (Grand Tournament 2020, 4th edition): one small handler per control,
each turning a press into one engine action. The desk (bot/ui/desk.py) runs them as it runs a Chapter Approved
game's, through the same service, version checks and board edits."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from bot.engine import moves
from bot.engine.errors import GameError
from bot.engine.gt2020.game import GrandTournamentRules
from bot.engine.gt2020.selection import CODEX, MAX_CODEX_NAME, options as secondary_options
from bot.engine.table import actions as t
from bot.engine.table.rules import SCORING, TableRules
from bot.engine.table.state import Step, TableState
from bot.ui.controls import GameButton, GameSelect, view_of
from bot.ui.errors import reply_privately
from bot.ui.forms import Field, Form, FormSpec

if TYPE_CHECKING:
    from bot.store.repository import GameRecord
    from bot.ui.desk_api import Desk

NOBODY = "nobody"
# Buttons that act at once: verb -> the action of the player `me` pressing it.
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


def board_buttons(rules: TableRules, game_id: int, state: TableState, version: int) -> list[discord.ui.Item]:
    """The buttons of the moves the current step allows."""
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
    return [GameButton(game_id, version, verb) for verb in verbs]


def opening_ping(state: TableState) -> tuple[str, str] | None:
    """Who the game waits on once accepted, and what to tell them (None: both players, as the board says)."""
    if state.status == Step.MISSION:
        return state.strategy_roll.winner, "you won the Strategy Roll: choose the mission on the board."
    return None


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


READY_QUESTION = "Before the first-turn roll-off: is your army Battle Ready (+10VP at the end of the battle)?"


async def deploy(desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str,
                 version: int | None) -> None:
    """Deployment done, with the Battle Ready question first where it is still open (deploy_moves)."""
    me = str(interaction.user.id)
    found = deploy_moves(desk.service.packs.rules(record.pack), record.state, me, verb)
    if found is None:
        await interaction.followup.send(READY_QUESTION, ephemeral=True, view=view_of(
            GameButton(record.id, record.version, "readydeploy"), GameButton(record.id, record.version, "notreadydeploy")))
        return
    *first, done = found
    for move in first:  # the Battle Ready answer holds however the board moved
        if await desk.perform(interaction, move, game_id=record.id) is None:
            return
    await desk.perform(interaction, done, game_id=record.id, version=version)


async def open_menu(desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str) -> None:
    """Menus open privately for the presser, drawn from what they may pick right now."""
    me = str(interaction.user.id)
    if me not in record.setup.players:
        raise GameError("Only the two players of this game can do that.")
    content, items = menu(desk.service.packs.rules(record.pack), record.state, me, record.id, record.version, verb)
    await reply_privately(interaction, content, view=view_of(*items))


# Buttons that open a menu (menu() draws it), in Discord privately, in the Activity (bot/web/activity.py) in place.
MENUS = frozenset({"select", "score", "pickmission", "outcome"})


def menu(rules: TableRules, state: TableState, me: str, game: int, version: int,
         verb: str) -> tuple[str, list[discord.ui.Item]]:
    """The menu a button of MENUS opens for the player `me`: its text and its select."""
    if verb == "select":
        if not isinstance(rules, GrandTournamentRules):
            raise GameError(f"A {rules.title} game has no secondary objectives to select.")
        if state.status != Step.SECONDARIES:
            raise GameError("Secondary objectives are selected before the Attacker and Defender roll-off.")
        wanted = rules.data.pack.secondaries_selected
        items = [(f"{name} · {category}"[:100], oid) for oid, name, category
                 in secondary_options(rules.data, rules.mission(state))]
        content = (f"Select **{wanted}** secondary objectives, no more than one from each category. Nobody sees your "
                   "selection until both players have made theirs.")
        select = GameSelect(game, version, "picks", placeholder=f"Secondary objectives: pick {wanted}", options=items,
                            min_values=wanted, max_values=wanted)
    elif verb == "score":
        objectives = rules.scorable(state, me)
        if not objectives:
            raise GameError("Nothing of yours scores now (primary objectives score from battle round 2, most "
                            "objectives in your own turn).")
        content = "Which objective do you score? You enter the VP next."
        select = GameSelect(game, version, "objective", placeholder="Objective",
                            options=[(o.name[:100], o.id) for o in objectives])
    elif verb == "pickmission":
        if state.status != Step.MISSION or me != state.strategy_roll.winner:
            raise GameError("Only the winner of the Strategy Roll chooses the mission, before deployment.")
        content = "Choose the mission (you won the Strategy Roll)."
        select = GameSelect(game, version, "mission", options=[(m.name, m.id) for m in rules.data.missions])
    elif verb == "outcome":
        content = "Who achieved the mission's objective?"
        select = GameSelect(game, version, "outcome",
                            options=[*((p.name, p.id) for p in state.players), ("Nobody", NOBODY)])
    else:
        raise GameError("That button is not available here.")
    return content, [select]


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


async def on_select(desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str,
                    values: list[str], version: int | None) -> None:
    me = str(interaction.user.id)
    form = select_form(desk.service.packs.rules(record.pack), record.state, me, verb, values)
    if form is not None:
        await interaction.response.send_modal(SelectForm(desk, form, record.id, me, verb, tuple(values)))
        return
    await desk.perform(interaction, select_action(me, verb, values), game_id=record.id, version=version)


class SelectForm(Form):
    """What a menu choice asks before it is a move (select_form): the Codex objective's name, shown when the
    selections are revealed, or how many VP an objective scored."""

    def __init__(self, desk: Desk, spec: FormSpec, game_id: int, me: str, verb: str, values: tuple[str, ...]) -> None:
        super().__init__(spec)
        self.desk, self.game_id, self.me, self.verb, self.values = desk, game_id, me, verb, values

    async def submit(self, interaction: discord.Interaction, values: dict[str, str]) -> None:
        action = select_action(self.me, self.verb, list(self.values), values)
        # Unversioned: the opponent scoring meanwhile must not refuse it; the engine checks the objective and step.
        await self.desk.perform(interaction, action, game_id=self.game_id)
