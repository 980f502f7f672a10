"""The buttons and menus of a Chapter Approved game: one small handler per control, each turning a press into one
engine action. The desk (bot/ui/desk.py) runs them through the same service, version checks and board edits as
every pack's."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.game import apply
from bot.engine.chapter_approved.state import GameState, Phase, PromptKind, Status
from bot.engine.errors import GameError
from bot.ui.chapter_approved import choices
from bot.ui.chapter_approved.briefing import table_map
from bot.ui.controls import GameButton, GameSelect, view_of
from bot.ui.errors import reply_privately
from bot.ui.forms import Field, Form, FormSpec
from bot.ui.text import title_case

if TYPE_CHECKING:
    from bot.store.repository import GameRecord
    from bot.ui.desk_api import Desk

# The secret choice does not depend on what the board shows, and both players make it at the same
# time: a menu opened before the opponent chose must still work. The engine checks the game state.
UNVERSIONED = frozenset({"fixed", "tactical", "pause", "resume", "claim"})
ROLL = "roll"  # the Mirrored World menu's "roll the D6 instead"
# Buttons that act at once (no menu, no form first): verb -> the action of the player `me` pressing it.
SIMPLE_ACTIONS: dict[str, Callable[[str, GameState], a.Action]] = {
    "attacker": lambda me, state: a.ChooseSide(actor=me, side="attacker"),
    "defender": lambda me, state: a.ChooseSide(actor=me, side="defender"),
    "ready": lambda me, state: a.DeclareBattleReady(actor=me, ready=not state.player(me).battle_ready),
    "deployed": lambda me, state: a.DeploymentDone(actor=me),
    "endcmd": lambda me, state: a.EndCommandPhase(actor=me),
    "endturn": lambda me, state: a.EndTurn(actor=me),
    "done": lambda me, state: a.DoneScoring(actor=me),
    "tactical": lambda me, state: a.ChooseSecondaries(actor=me, mode="tactical"),
    "keep": lambda me, state: a.Discard(actor=me),
    "yes": lambda me, state: a.AnswerPrompt(actor=me, accept=True),
    "no": lambda me, state: a.AnswerPrompt(actor=me, accept=False),
    "nounits": lambda me, state: a.AnswerPrompt(actor=me, units=()),
    "nogamma": lambda me, state: a.AnswerPrompt(actor=me, units=()),
    "stratagem": lambda me, state: a.UseChallenger(actor=me, use="stratagem"),
    "mission": lambda me, state: a.UseChallenger(actor=me, use="mission"),
    "ritual": lambda me, state: a.CompleteRitual(actor=me),
    "pause": lambda me, state: a.PauseClock(actor=me),
    "resume": lambda me, state: a.ResumeClock(actor=me),
    "claim": lambda me, state: a.ClaimTime(actor=me),
}


# Buttons that open a menu (menu() draws it), in Discord privately, in the Activity (bot/web/activity.py) in place.
MENUS = frozenset({"disposition", "mirror", "choose", "score", "neworders", "swap", "discard", "challenger", "answer",
                   "adapt", "corner"})


async def open_menu(desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str) -> None:
    """Menus open privately for the presser, drawn from what they may pick right now."""
    me = str(interaction.user.id)
    if me not in record.setup.players:
        raise GameError("Only the two players of this game can do that.")
    content, items = menu(desk.catalog_of(record.state), record.state, me, record.id, record.version, verb)
    await reply_privately(interaction, content, view=view_of(*items))


def menu(cat: Catalog, state: GameState, me: str, game: int, version: int,
         verb: str) -> tuple[str, list[discord.ui.Item]]:
    """The menu a button of MENUS opens for the player `me`: its text, its selects and buttons."""
    if verb == "disposition":
        if state.status != Status.DISPOSITIONS:
            raise GameError("The Force Dispositions are already revealed.")
        content, options = _disposition_menu(cat, state, me)
        items = [GameSelect(game, version, "disposition", placeholder="Force Disposition", options=options)]
    elif verb == "mirror":
        twist = cat.twist(state.mission.twist) if state.mission.twist else None
        if twist is None or twist.primary_roll is None or state.status != Status.DISPOSITIONS:
            raise GameError("Mirrored World's mission is settled once the Force Dispositions are revealed.")
        content = ("Mirrored World: both players play one mission. Pick the one you would agree on: if your opponent "
                   "picks the same before the reveal, you play it; otherwise it is rolled on the D6.")
        offered = sorted({m for m in twist.primary_roll.values() if m is not None})
        items = [GameSelect(game, version, "mirror", placeholder="The mission you agree on",
                            options=[(cat.primary(m).name, m) for m in offered] + [("Roll the D6", ROLL)])]
    elif verb == "choose":
        content = ("Pick **two** Fixed Missions in the menu, or use Tactical Missions. "
                   "Nobody sees your choice until both players have chosen.")
        items = [GameSelect(game, version, "fixed", placeholder="Fixed Missions: pick two",
                            options=choices.fixed_choices(cat, state), min_values=2, max_values=2),
                 GameButton(game, version, "tactical")]
    elif verb == "score":
        options = choices.score_choices(cat, state, me)
        if not options:
            raise GameError("Nothing of yours scores right now. Use /score add for anything the menu lacks.")
        content = "What do you score? (For anything else use `/score add`.)"
        items = [GameSelect(game, version, "score", placeholder="Scoring option", options=options)]
    elif verb in ("neworders", "swap"):
        if state.player(me).mode != "tactical":
            raise GameError("Fixed Missions cannot be discarded: this is for Tactical Missions.")
        content = ("Swap (1CP, once per battle): which active card do you discard to draw a new one?"
                   if verb == "swap" else "New Orders (1CP): which active card do you discard to draw a new one?")
        items = [GameSelect(game, version, "neworders", options=choices.hand_choices(cat, state, me))]
    elif verb == "discard":
        hand = choices.hand_choices(cat, state, me)
        if me not in state.discard_queue or not hand:
            raise GameError("You have no end-of-turn discard to decide now.")
        if state.player(me).mode == "fixed":  # in the queue only for an Adapt or Die swap
            content, items = _adapt_menu(cat, state, me, game, version)
            items.append(GameButton(game, version, "keep"))
        else:
            content = "Discard any active Secondary Missions? (1CP if it is your turn, once per battle round.)"
            items = [GameSelect(game, version, "discard", placeholder="Cards to discard", options=hand,
                                max_values=len(hand)), GameButton(game, version, "keep")]
    elif verb == "challenger":
        card = state.player(me).challenger_card
        if card is None:
            raise GameError("You hold no Challenger card.")
        challenger = cat.challenger(card)
        content = (f"**{title_case(challenger.name)}**: use it as its Stratagem (0CP) or go for its Mission "
                   f"**{challenger.mission.name}** — not both.")
        items = [GameButton(game, version, "stratagem"), GameButton(game, version, "mission")]
    elif verb == "answer":
        content, items = _prompt_menu(cat, state, me, game, version)
    elif verb == "adapt":
        content, items = _adapt_menu(cat, state, me, game, version)
    elif verb == "corner":
        rolloff = state.mission.hidden_supplies_rolloff
        who = f" ({state.player(rolloff.winner).name} won the roll-off and selects)" if rolloff else ""
        content = f"Hidden Supplies: which corner did the centre marker move 6\" towards?{who}"
        items = [GameSelect(game, version, "corner", options=choices.corner_choices(state))]
    else:
        raise GameError("That button is not available here.")
    return content, items


def _disposition_menu(cat: Catalog, state: GameState, me: str) -> tuple[str, list[tuple[str, str]]]:
    """The Force Dispositions `me` may pick: their army's first (those its detachments grant, marked so), then, as
    a pick-up game allows, the others."""
    army = state.player(me).army
    granted = [d for d in cat.dispositions if army is not None and d.id in army.granted]
    secret = "nobody sees it until both players have picked. Each player's Primary Mission then follows from both."
    options = [(f"{d.name} (your army's)", d.id) for d in granted]
    options += [(d.name, d.id) for d in cat.dispositions if d not in granted]
    if len(granted) > 1:
        names = " and ".join(f"**{d.name}**" for d in granted)
        return (f"Your army's detachments grant {names}: pick the one you play (in a pick-up game you may pick "
                f"another). Your Force Disposition: {secret}", options)
    return f"Your Force Disposition: {secret}", options


def _adapt_menu(cat: Catalog, state: GameState, me: str, game: int, version: int):
    """Adapt or Die: a Tactical player draws again after a draw; a Fixed player swaps a card once."""
    player = state.player(me)
    if player.mode == "tactical":
        options = choices.adapt_draw_choices(cat, state, me)
        if not options:
            raise GameError("Adapt or Die follows a card you have just drawn in this Command phase.")
        return ("Adapt or Die (twice per battle): after which card do you draw another? "
                "Then you keep one of the two and shuffle the other back.",
                [GameSelect(game, version, "adaptdraw", options=options)])
    options = choices.adapt_swap_choices(cat, state, me)
    if not options:
        raise GameError("You have no Fixed Mission to swap.")
    return ("Adapt or Die (once per battle, at the end of your turn after scoring): "
            "replace which Fixed Mission with which?",
            [GameSelect(game, version, "adaptswap", options=options)])


def _prompt_menu(catalog: Catalog, state: GameState, me: str, game: int, version: int):
    prompt = next((q for q in state.prompts if q.player == me), None)
    if prompt is None:
        raise GameError("Nothing is waiting for your answer.")
    card = catalog.secondary(prompt.card)
    name = title_case(card.name)
    owner = state.player(prompt.owner).name
    match prompt.kind:
        case PromptKind.OPTIONAL_RESHUFFLE:
            return (f"**{name}** — {card.when_drawn.text}\nShuffle it back and draw a new card?",
                    [GameButton(game, version, "yes"), GameButton(game, version, "no")])
        case PromptKind.DISCARD_IF:
            hint = ""
            if state.setup.size in card.when_drawn.holds_in_sizes:
                hint = f"\n(This is a {state.setup.size.replace('-', ' ')} game, so the condition holds.)"
            return (f"**{name}** — {card.when_drawn.condition}{hint}\nDiscard it and draw a new card?",
                    [GameButton(game, version, "yes"), GameButton(game, version, "no")])
        case PromptKind.ALPHA_TARGETS:
            return (f"{owner} drew **{name}**: select three units from your army on the battlefield "
                    "(all of them if you have only one or two) as their Alpha Targets.",
                    [GameButton(game, version, "units"), GameButton(game, version, "nounits")])
        case PromptKind.GAMMA_TARGET:
            return (f"**{name}**: you can select one enemy unit on the battlefield as your Gamma Target.",
                    [GameButton(game, version, "units"), GameButton(game, version, "nogamma")])
        case PromptKind.TEMPTING_OBJECTIVE if not catalog.has_map(state.mission.deployment):
            return (f"{owner} drew **{name}**: name one objective in No Man's Land (not a home objective) as their "
                    "Tempting Target.", [GameButton(game, version, "units")])
        case PromptKind.BEACON_UNIT:
            return (f"**{name}**: name one of your units on the battlefield (or embarked in one) for it.",
                    [GameButton(game, version, "units")])
        case PromptKind.TEMPTING_OBJECTIVE:
            return (f"{owner} drew **{name}**: select one objective marker in No Man's Land as their "
                    "Tempting Target.",
                    [GameSelect(game, version, "objective",
                                options=choices.objective_choices(catalog, state))])
        case PromptKind.ADAPT_KEEP:
            options = [(title_case(catalog.secondary(c).name), c) for c in (prompt.card, prompt.other_card)]
            return ("Adapt or Die: keep which card? The other is shuffled back.",
                    [GameSelect(game, version, "keep", options=options)])
    raise GameError("Nothing is waiting for your answer.")


async def on_select(desk: Desk, interaction: discord.Interaction, record: GameRecord, verb: str,
                    values: list[str], version: int | None) -> None:
    game_id = record.id
    action = select_action(str(interaction.user.id), verb, values)
    result = await desk.perform(interaction, action, game_id=game_id, version=version)
    if result is not None and verb == "corner" and interaction.channel is not None:
        # The briefing's map was drawn before the markers were placed: show where they are now, the board under it.
        picture = await asyncio.to_thread(table_map, desk.catalog_of(result.state), result.state)
        await interaction.channel.send(file=picture)
        await desk.move_board(game_id, notify=set())


def select_action(me: str, verb: str, values: list[str]) -> a.Action:
    """The move a choice in one of the game's menus makes (the engine checks it against the game)."""
    if not values:
        raise GameError("Pick something in the menu first.")
    if verb == "fixed":
        action = a.ChooseSecondaries(actor=me, mode="fixed", cards=tuple(values))
    elif verb == "score":
        pick = choices.parse_score_value(values[0])
        action = a.Score(actor=me, source=pick.source, card=pick.card, option=pick.option, count=pick.count,
                         objective=pick.objective)
    elif verb == "neworders":
        action = a.NewOrders(actor=me, card=values[0])
    elif verb == "discard":
        action = a.Discard(actor=me, cards=tuple(values))
    elif verb == "objective":
        action = a.AnswerPrompt(actor=me, objective=values[0])
    elif verb == "keep":
        action = a.AnswerPrompt(actor=me, keep=values[0])
    elif verb == "adaptdraw":
        action = a.AdaptOrDieDraw(actor=me, card=values[0])
    elif verb == "adaptswap":
        card, replacement = values[0].split("|")
        action = a.AdaptOrDieSwap(actor=me, card=card, replacement=replacement)
    elif verb == "corner":
        action = a.HiddenSuppliesCorner(actor=me, corner=values[0])
    elif verb == "disposition":
        action = a.ChooseDisposition(actor=me, disposition=values[0])
    elif verb == "mirror":
        action = a.AgreeMirrorMission(actor=me, mission=None if values[0] == ROLL else values[0])
    else:
        raise GameError("That menu is not available here.")
    return action



def new_orders_allowed(catalog: Catalog, state: GameState) -> bool:
    """Would the engine take New Orders from the player whose turn it is now (Tactical, their Command phase, the
    CP, not used yet this phase, a card to draw)? Asked of the engine itself, so the board never offers a button
    that would only be refused."""
    player = state.active
    if player is None or state.phase != Phase.COMMAND or not state.player(player).hand:
        return False
    try:
        apply(catalog, state, a.NewOrders(actor=player, card=state.player(player).hand[0]))
    except GameError:
        return False
    return True



def board_buttons(game_id: int, state: GameState, version: int, *, adapt_or_die: bool = False,
                  ritual: bool = False, corner: bool = False, redraw: str | None = None,
                  mirror: bool = False) -> list[discord.ui.Item]:
    """The buttons of the common moves for the current step of the game; `ritual`: The Ritual is the
    Primary Mission; `corner`: the Hidden Supplies corner is still to be recorded; `redraw`: the season's redraw
    that can be used now (new_orders_allowed), "neworders" or (CA 2026-27) "swap"; `mirror`: the Twist is Mirrored
    World, whose mission the players may agree on before the reveal."""
    verbs: list[str] = []
    if state.status == Status.DISPOSITIONS:
        verbs = ["army", "disposition", *(["mirror"] if mirror else []), "ready", "undo"]
    elif state.status == Status.SIDES:
        verbs = ["attacker", "defender", "ready", "army"]
    elif state.status == Status.SECONDARIES:
        verbs = ["choose", "ready", "army", "undo"]
    elif state.status == Status.DEPLOYMENT:
        verbs = ["deployed", "ready", "army", "undo"]
    elif state.status == Status.BATTLE:
        if state.prompts:
            verbs.append("answer")
        verbs += {
            Phase.COMMAND: ["endcmd", "score", *([redraw] if redraw else [])],
            Phase.BATTLE: ["endturn", "score"],
            Phase.END_OF_TURN: ["done", "score"],
            Phase.DISCARDS: ["discard", "keep"],  # keeping all needs no menu
        }[state.phase]
        if any(p.challenger_card for p in state.players):
            verbs.append("challenger")
        # Tactical: after a draw in the Command phase. Fixed: end of own turn (version 2: a decision of
        # the discard step, offered by its Discard button).
        swap_phase = (Phase.END_OF_TURN,) if state.setup.legacy else ()
        if adapt_or_die and state.phase in (Phase.COMMAND, *swap_phase):
            verbs.append("adapt")
        if ritual and state.phase == Phase.END_OF_TURN:
            verbs.append("ritual")  # The Ritual's Action completes at the end of the turn
        verbs.append("undo")
        clock = state.clock
        if clock is not None:
            verbs.append("resume" if clock.paused_by else "pause")
            if clock.expiry == "claim" and clock.out:
                verbs.append("claim")
    if corner and state.status in (Status.SIDES, Status.SECONDARIES, Status.BATTLE):
        verbs.insert(0, "corner")
    return [GameButton(game_id, version, verb) for verb in verbs]



# What a form asks for each question answered by name: its title, its fields' label and how many.
FORMS = {
    PromptKind.ALPHA_TARGETS: ("Alpha Targets", "Unit", 3),
    PromptKind.GAMMA_TARGET: ("Gamma Target", "Unit", 1),
    PromptKind.BEACON_UNIT: ("Beacon", "Unit", 1),
    PromptKind.TEMPTING_OBJECTIVE: ("A Tempting Target", "Objective in No Man's Land", 1),
}


def units_form(state: GameState, me: str) -> FormSpec:
    """The form a When Drawn question waiting on `me` is answered with by name: units, or an objective."""
    prompt = next((q for q in state.prompts if q.player == me), None)
    if prompt is None or prompt.kind not in FORMS:
        raise GameError("Nothing is waiting for your answer.")
    title, label, count = FORMS[prompt.kind]
    return FormSpec(title, tuple(Field(f"name{i + 1}", f"{label} {i + 1}" if count > 1 else label,
                                       required=i == 0) for i in range(count)))


def units_answer(state: GameState, me: str, values: dict[str, str]) -> a.Action:
    """The answer the names typed in units_form make."""
    spec = units_form(state, me)
    names = tuple(name.strip() for f in spec.fields if (name := values.get(f.id, "")).strip())
    if next(q for q in state.prompts if q.player == me).kind == PromptKind.TEMPTING_OBJECTIVE:
        return a.AnswerPrompt(actor=me, objective=names[0] if names else None)
    return a.AnswerPrompt(actor=me, units=names)


class UnitsModal(Form):
    """Names typed for a When Drawn question: Marked for Death's three Alpha Targets (the opponent) and Gamma Target
    (the drawer); CA 2026-27's Beacon unit (the drawer) and, with no map to pick from, A Tempting Target's
    objective (the opponent)."""

    def __init__(self, desk: Desk, record: GameRecord, me: str) -> None:
        super().__init__(units_form(record.state, me))
        self.desk, self.record, self.me = desk, record, me

    async def submit(self, interaction: discord.Interaction, values: dict[str, str]) -> None:
        answer = units_answer(self.record.state, self.me, values)
        # At the version it was shown: a form left open while the game moved on is refused like an outdated board.
        await self.desk.perform(interaction, answer, game_id=self.record.id, version=self.record.version)
