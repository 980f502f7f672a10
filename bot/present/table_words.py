"""What a table game (Grand Tournament 2020, 4th edition) shows, in words: the mission's title, the status
sentence, each player's lines. A secret selection shows as "selected" until both are revealed."""

from __future__ import annotations

from bot.engine.gt2020.game import GrandTournamentRules
from bot.engine.models import settled
from bot.engine.table.rules import TableRules
from bot.engine.table.state import Seat, Step, TableState
from bot.present.words import Strong, Text, words

KINDS = {"progressive": "Progressive", "end-game": "End Game", "progressive-and-end-game": "Progressive and End Game"}


def mission_title(rules: TableRules, state: TableState) -> str:
    if isinstance(rules, GrandTournamentRules):
        size = (state.setup.size or "").replace("-", " ").title()
        return f"{rules.title}: {rules.mission(state).name} ({size})"
    level = rules.data.level(state.level).name
    mission = rules.data.mission(state.mission).name if state.mission else "mission to choose"
    return f"{rules.title}: {mission} · {level}"


def status_line(rules: TableRules, state: TableState) -> Text:
    def name(player: str) -> Strong:
        return Strong(state.player(player).name)

    match state.status:
        case Step.MISSION:
            return words(name(settled(state.strategy_roll).winner), " won the Strategy Roll and chooses the mission.")
        case Step.SECONDARIES:
            marks = ", ".join(f"{p.name} {'✅ selected' if p.secret else '⏳ selecting'}" for p in state.players)
            return words(f"Secret selection of secondary objectives: {marks}.")
        case Step.SIDES:
            return words(name(settled(state.sides_rolloff).winner),
                         " won the roll-off and decides who is the Attacker.")
        case Step.DEPLOYMENT:
            return words(f"Deployment: {deploys_first(rules, state)} Press Deployment done when set up "
                         f"({_marks(state, state.deployed)}).")
        case Step.FIRST_TURN:
            roll = settled(state.first_turn_rolloff)
            return words(f"First turn roll-off {roll.text}: ", name(roll.winner), " chooses to go first or second.")
        case Step.BATTLE:
            phase = " · Command phase" if state.command_phase and state.setup.version >= 3 else ""
            return words(f"Battle round {state.round} of {state.battle_rounds} · ", name(settled(state.active)),
                         f"'s turn{phase}.")
        case Step.ROUND_END:
            scorers = [p for p in state.players if p.id in rules.round_scorers(state)]
            marks = ", ".join(f"{p.name} {'✅' if p.id in state.scoring_done else '⏳'}" for p in scorers)
            return words(f"Battle round {state.round} is over: score what scores at the end of the battle round, "
                         f"then Done scoring ({marks}).")
        case Step.END_GAME:
            return words(f"The battle is over: score End Game objectives, then Done scoring "
                         f"({_marks(state, state.scoring_done)}).")
    return words(rules.result_line(state))


def _marks(state: TableState, confirmed: tuple[str, ...]) -> str:
    """Each player's name, marked as having confirmed the step or not yet."""
    return ", ".join(f"{p.name} {'✅' if p.id in confirmed else '⏳'}" for p in state.players)


def deploys_first(rules: TableRules, state: TableState) -> str:
    if state.attacker is not None:
        return f"the Defender, {state.player(settled(state.defender)).name}, selects a zone and sets up first."
    roll = state.set_up_roll
    if roll is None or state.mission is None:
        return ""
    loser = state.opponent(roll.winner).id
    first = roll.winner if rules.data.mission(state.mission).deploys_first == "winner" else loser
    return f"{state.player(roll.winner).name} won the set-up roll-off ({roll.text}) and chooses; " \
           f"{state.player(first).name} deploys first."


def role(state: TableState, seat: Seat) -> str | None:
    if state.attacker is None:
        return None
    return "Attacker" if seat.id == state.attacker else "Defender"


def scored(state: TableState, seat: Seat, objective: str) -> int:
    return sum(t.awarded for t in state.vp if t.player == seat.id and t.objective == objective)


def player_heading(state: TableState, seat: Seat) -> str:
    side = role(state, seat)
    return f"{seat.name} ({side})" if side else seat.name


def player_lines(rules: TableRules, state: TableState, seat: Seat) -> tuple[Text, ...]:
    vp = words(Strong(f"{state.total_vp(seat.id)}VP")) if rules.scores_vp(state) \
        else words("The mission's objective decides")
    lines = [words(vp, f" · {seat.cp}CP" if rules.has_cp else "", " · Battle Ready" if seat.battle_ready else "")]
    if seat.army is not None:
        lines.append(words(f"🛡️ {seat.army.label}" + (f" · {seat.army.points} pts" if seat.army.points is not None
                                                      else "")))
    lines += [words(f"{o.name}: {scored(state, seat, o.id)}VP ({KINDS[o.kind]})")
              for o in rules.objectives(state, seat.id)]
    lost = sum(t.lost for t in state.vp if t.player == seat.id)
    if lost:
        lines.append(words(f"Lost to caps: {lost}VP"))
    return tuple(lines)
