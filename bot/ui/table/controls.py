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
from bot.ui.forms import Form

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


def waits(rules: TableRules, state: TableState) -> set[tuple[str, ...]]:
    """(player, verb, ...) for each turn and decision the game waits on, as the desk announces them."""
    waiting: set[tuple[str, ...]] = set()
    if state.status == Step.BATTLE:
        waiting.add((state.active, "turn", str(state.round), str(state.turn)))
    if state.status == Step.MISSION:
        waiting.add((state.strategy_roll.winner, "pickmission"))
    if state.status == Step.ROUND_END:
        waiting |= {(p, "rounddone", str(state.round)) for p in rules.round_scorers(state)
                    if p not in state.scoring_done}
    if state.status == Step.SIDES:  # a choice of two: the ping carries both buttons
        waiting |= {(state.sides_rolloff.winner, verb) for verb in ("attacker", "defender")}
    if state.status == Step.FIRST_TURN:
        waiting |= {(state.first_turn_rolloff.winner, verb) for verb in ("gofirst", "gosecond")}
    if state.status == Step.SECONDARIES and any(p.secret for p in state.players):
        waiting |= {(p.id, "select") for p in state.players if p.secret is None}
    for confirmed, step, verb in ((state.deployed, Step.DEPLOYMENT, "deployed"),
                                  (state.scoring_done, Step.END_GAME, "done")):
        if state.status == step and confirmed:
            waiting |= {(p.id, verb) for p in state.players if p.id not in confirmed}
    if state.clock is not None and state.clock.resume_asked_by is not None:
        waiting.add((state.clock.paused_by, "resume", state.clock.resume_asked_by))
    return waiting


def opening_ping(state: TableState) -> tuple[str, str] | None:
    """Who the game waits on once accepted, and what to tell them (None: both players, as the board says)."""
    if state.status == Step.MISSION:
        return state.strategy_roll.winner, "you won the Strategy Roll: choose the mission on the board."
    return None


async def deploy(desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str,
                 version: int | None) -> None:
    """Deployment done. The first-turn roll-off ends the time to declare Battle Ready, so a player who has not
    said either way is asked once, privately, and answers with their deployment."""
    me, state = str(interaction.user.id), record.state
    rules = desk.service.packs.rules(record.pack)
    undeclared = rules.has_battle_ready and not state.player(me).ready_declared
    if verb == "deployed" and undeclared and state.status == Step.DEPLOYMENT and me not in state.deployed:
        await interaction.followup.send(
            "Before the first-turn roll-off: is your army Battle Ready (+10VP at the end of the battle)?",
            view=view_of(GameButton(record.id, record.version, "readydeploy"),
                         GameButton(record.id, record.version, "notreadydeploy")), ephemeral=True)
        return
    if verb != "deployed":
        ready = moves.DeclareBattleReady(actor=me, ready=verb == "readydeploy")
        if await desk.perform(interaction, ready, game_id=record.id) is None:
            return
    await desk.perform(interaction, moves.DeploymentDone(actor=me), game_id=record.id, version=version)


async def open_menu(desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str) -> None:
    """Menus open privately for the presser, drawn from what they may pick right now."""
    me, state, game, version = str(interaction.user.id), record.state, record.id, record.version
    if me not in record.setup.players:
        raise GameError("Only the two players of this game can do that.")
    rules = desk.service.packs.rules(record.pack)
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
        menu = GameSelect(game, version, "picks", placeholder=f"Secondary objectives: pick {wanted}", options=items,
                          min_values=wanted, max_values=wanted)
    elif verb == "score":
        objectives = rules.scorable(state, me)
        if not objectives:
            raise GameError("Nothing of yours scores now (primary objectives score from battle round 2, most "
                            "objectives in your own turn).")
        content = "Which objective do you score? You enter the VP next."
        menu = GameSelect(game, version, "objective", placeholder="Objective",
                          options=[(o.name[:100], o.id) for o in objectives])
    elif verb == "pickmission":
        if state.status != Step.MISSION or me != state.strategy_roll.winner:
            raise GameError("Only the winner of the Strategy Roll chooses the mission, before deployment.")
        content = "Choose the mission (you won the Strategy Roll)."
        menu = GameSelect(game, version, "mission", options=[(m.name, m.id) for m in rules.data.missions])
    elif verb == "outcome":
        content = "Who achieved the mission's objective?"
        menu = GameSelect(game, version, "outcome",
                          options=[*((p.name, p.id) for p in state.players), ("Nobody", NOBODY)])
    else:
        raise GameError("That button is not available here.")
    await reply_privately(interaction, content, view=view_of(menu))


async def on_select(desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str,
                    values: list[str], version: int | None) -> None:
    me = str(interaction.user.id)
    if verb == "picks" and CODEX in values:
        await interaction.response.send_modal(CodexModal(desk, record.id, me, tuple(values)))
        return
    if verb == "objective":
        await interaction.response.send_modal(VpModal(desk, record, me, values[0]))
        return
    if verb == "picks":
        action = t.SelectSecondaries(actor=me, picks=tuple(values))
    elif verb == "mission":
        action = t.ChooseMission(actor=me, mission=values[0])
    elif verb == "outcome":
        action = t.MissionResult(actor=me, winner=None if values[0] == NOBODY else values[0])
    else:
        raise GameError("That menu is not available here.")
    await desk.perform(interaction, action, game_id=record.id, version=version)


class CodexModal(Form):
    """The name of the Codex secondary objective a player selected: shown when the selections are revealed."""

    def __init__(self, desk: Desk, game_id: int, me: str, picks: tuple[str, ...]) -> None:
        super().__init__(title="Your Codex secondary objective")
        self.desk, self.game_id, self.me, self.picks = desk, game_id, me, picks
        self.add_item(discord.ui.TextInput(label="Its name", max_length=MAX_CODEX_NAME, custom_id="codex"))

    async def submit(self, interaction: discord.Interaction, values: dict[str, str]) -> None:
        action = t.SelectSecondaries(actor=self.me, picks=self.picks, codex=values.get("codex", ""))
        await self.desk.perform(interaction, action, game_id=self.game_id)


class VpModal(Form):
    """How many VP an objective scored."""

    def __init__(self, desk: Desk, record: GameRecord, me: str, objective: str) -> None:
        rules = desk.service.packs.rules(record.pack)
        name = next((o.name for o in rules.objectives(record.state, me) if o.id == objective), objective)
        super().__init__(title=f"VP for {name}"[:45])
        self.desk, self.game_id, self.me, self.objective = desk, record.id, me, objective
        self.add_item(discord.ui.TextInput(label="Victory points scored", max_length=len(str(t.MAX_VP)),
                                           placeholder="e.g. 5", custom_id="vp"))

    async def submit(self, interaction: discord.Interaction, values: dict[str, str]) -> None:
        try:
            vp = int(values.get("vp", "").strip())
            if not 1 <= vp <= t.MAX_VP:
                raise ValueError
        except ValueError:
            raise GameError(f"Enter a whole number of VP from 1 to {t.MAX_VP}.") from None
        action = t.ScoreObjective(actor=self.me, objective=self.objective, vp=vp)
        # Unversioned: the opponent scoring meanwhile must not refuse it; the engine checks the objective and step.
        await self.desk.perform(interaction, action, game_id=self.game_id)
