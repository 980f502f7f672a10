"""What a Chapter Approved game offers a player now (the controls of bot/present/offers.py): the board's controls
for the current step, the menu each opens, the form a When Drawn question is answered with, and the move each
choice makes. The engine checks every move against the game; nothing here decides a rule."""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.game import apply
from bot.engine.chapter_approved.state import GameState, Phase, PromptKind, Status
from bot.engine.errors import GameError
from bot.engine.models import settled
from bot.engine.names import title_case
from bot.engine.sides import partners
from bot.present import mission_deck_choices as choices
from bot.present.offers import Control, Field, FormSpec, Menu, Pick
from bot.present.offers import choices as options_of

# The secret choice does not depend on what the board shows, and both players make it at the same
# time: a menu opened before the opponent chose must still work. The engine checks the game state.
UNVERSIONED = frozenset({"fixed", "tactical", "pause", "resume", "claim"})
ROLL = "roll"  # the Mirrored World menu's "roll the D6 instead"
# Controls that make a move at once (no menu, no form first): verb -> the action of the player `me` pressing it.
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
# Controls that open a menu (menu() draws it); those that open a form.
MENUS = frozenset({"disposition", "mirror", "choose", "score", "neworders", "swap", "discard", "challenger", "answer",
                   "adapt", "corner"})
FORMS = frozenset({"army", "units"})


def controls(catalog: Catalog, state: GameState) -> list[Control]:
    """The controls of the common moves for the current step of the game, as the board offers them."""
    return [Control(verb, "menu" if verb in MENUS else "form" if verb in FORMS else "move")
            for verb in _verbs(catalog, state)]


def _verbs(catalog: Catalog, state: GameState) -> list[str]:
    twist = catalog.twist(state.mission.twist) if state.mission.twist else None
    primaries = [catalog.primary(p) for p in state.primaries]
    verbs: list[str] = []
    if state.status == Status.DISPOSITIONS:
        mirror = twist is not None and twist.primary_effect == "mirror_roll"
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
        redraw = ("swap" if catalog.rules.swap else "neworders") if new_orders_allowed(catalog, state) else None
        verbs += {
            Phase.COMMAND: ["endcmd", "score", *([redraw] if redraw else [])],
            Phase.BATTLE: ["endturn", "score"],
            Phase.END_OF_TURN: ["done", "score"],
            Phase.DISCARDS: ["discard", "keep"],  # keeping all needs no menu
        }[settled(state.phase)]
        if any(p.challenger_card for p in state.players):
            verbs.append("challenger")
        # Tactical: after a draw in the Command phase. Fixed: end of own turn (version 2: a decision of
        # the discard step, offered by its Discard button).
        swap_phase = (Phase.END_OF_TURN,) if state.setup.legacy else ()
        if twist is not None and twist.adapt_or_die and state.phase in (Phase.COMMAND, *swap_phase):
            verbs.append("adapt")
        if any(p.sets_up_objectives for p in primaries) and state.phase == Phase.END_OF_TURN:
            verbs.append("ritual")  # The Ritual's Action completes at the end of the turn
        verbs.append("undo")
        clock = state.clock
        if clock is not None:
            verbs.append("resume" if clock.paused_by else "pause")
            if clock.expiry == "claim" and clock.out:
                verbs.append("claim")
    corner = any(p.random_setup == "hidden_supplies" for p in primaries) \
        and state.mission.hidden_supplies_corner is None
    if corner and state.status in (Status.SIDES, Status.SECONDARIES, Status.BATTLE):
        verbs.insert(0, "corner")
    return verbs


def new_orders_allowed(catalog: Catalog, state: GameState) -> bool:
    """Would the engine take New Orders from the player whose turn it is now (Tactical, their Command phase, the
    CP, not used yet this phase, a card to draw)? Asked of the engine itself, so the board never offers a control
    that would only be refused."""
    player = state.active
    if player is None or state.phase != Phase.COMMAND or not state.player(player).hand:
        return False
    try:
        apply(catalog, state, a.NewOrders(actor=player, card=state.player(player).hand[0]))
    except GameError:
        return False
    return True


def menu(cat: Catalog, state: GameState, me: str, verb: str) -> Menu:
    """The menu a control of MENUS opens for the player `me`: its text, its lists and buttons."""
    if verb == "disposition":
        if state.status != Status.DISPOSITIONS:
            raise GameError("The Force Dispositions are already revealed.")
        content, options = _disposition_menu(cat, state, me)
        picked = state.player(me).disposition_choice
        if picked is not None:  # in doubles, what the partner picked: the side shares its secrets
            content = f"{_yours(state)} so far: **{cat.disposition(picked).name}**. {content}"
        return Menu(content, (Pick("disposition", options_of(options), placeholder="Force Disposition"),))
    if verb == "mirror":
        twist = cat.twist(state.mission.twist) if state.mission.twist else None
        if twist is None or twist.primary_roll is None or state.status != Status.DISPOSITIONS:
            raise GameError("Mirrored World's mission is settled once the Force Dispositions are revealed.")
        offered = sorted({m for m in twist.primary_roll.values() if m is not None})
        return Menu("Mirrored World: both players play one mission. Pick the one you would agree on: if your "
                    "opponent picks the same before the reveal, you play it; otherwise it is rolled on the D6.",
                    (Pick("mirror", options_of([(cat.primary(m).name, m) for m in offered] + [("Roll the D6", ROLL)]),
                          placeholder="The mission you agree on"),))
    if verb == "choose":
        chosen = state.player(me).choice
        so_far = ""
        if chosen is not None:  # in doubles, what the partner chose: the side shares its secrets
            cards = " and ".join(f"**{title_case(cat.secondary(c).name)}**" for c in chosen.fixed_cards)
            so_far = f"{_yours(state)} so far: " + (f"Fixed, {cards}. " if cards else "Tactical. ")
        return Menu(f"{so_far}Pick **two** Fixed Missions in the menu, or use Tactical Missions. "
                    "Nobody sees your choice until both players have chosen.",
                    (Pick("fixed", options_of(choices.fixed_choices(cat, state)), placeholder="Fixed Missions: pick two",
                          least=2, at_most=2), Control("tactical")))
    if verb == "score":
        options = choices.score_choices(cat, state, me)
        if not options:
            raise GameError("Nothing of yours scores right now. Use /score add for anything the menu lacks.")
        return Menu("What do you score? (For anything else use `/score add`.)",
                    (Pick("score", options_of(options), placeholder="Scoring option"),))
    if verb in ("neworders", "swap"):
        if state.player(me).mode != "tactical":
            raise GameError("Fixed Missions cannot be discarded: this is for Tactical Missions.")
        hand = choices.hand_choices(cat, state, me)
        apply(cat, state, a.NewOrders(actor=me, card=hand[0][1] if hand else ""))  # refused now: says why
        content = ("Swap (1CP, once per battle): which active card do you discard to draw a new one?"
                   if verb == "swap" else "New Orders (1CP): which active card do you discard to draw a new one?")
        return Menu(content, (Pick("neworders", options_of(hand)),))
    if verb == "discard":
        hand = choices.hand_choices(cat, state, me)
        if me not in state.discard_queue or not hand:
            raise GameError("You have no end-of-turn discard to decide now.")
        if state.player(me).mode == "fixed":  # in the queue only for an Adapt or Die swap
            adapt = _adapt_menu(cat, state, me)
            return Menu(adapt.content, (*adapt.items, Control("keep")))
        return Menu("Discard any active Secondary Missions? (1CP if it is your turn, once per battle round.)",
                    (Pick("discard", options_of(hand), placeholder="Cards to discard", at_most=len(hand)),
                     Control("keep")))
    if verb == "challenger":
        card = state.player(me).challenger_card
        if card is None:
            raise GameError("You hold no Challenger card.")
        challenger = cat.challenger(card)
        return Menu(f"**{title_case(challenger.name)}**: use it as its Stratagem (0CP) or go for its Mission "
                    f"**{challenger.mission.name}** — not both.", (Control("stratagem"), Control("mission")))
    if verb == "answer":
        return _prompt_menu(cat, state, me)
    if verb == "adapt":
        return _adapt_menu(cat, state, me)
    if verb == "corner":
        rolloff = state.mission.hidden_supplies_rolloff
        who = f" ({state.player(rolloff.winner).name} won the roll-off and selects)" if rolloff else ""
        return Menu(f"Hidden Supplies: which corner did the centre marker move 6\" towards?{who}",
                    (Pick("corner", options_of(choices.corner_choices(state))),))
    raise GameError("That button is not available here.")


def _yours(state: GameState) -> str:
    return "Your side's choice" if partners(state.setup) else "Your choice"


def _disposition_menu(cat: Catalog, state: GameState, me: str) -> tuple[str, list[tuple[str, str]]]:
    """The Force Dispositions `me` may pick: their army's first (those its detachments grant, marked so), then, as
    a pick-up game allows, the others."""
    armies = state.player(me).armies  # in doubles, the side picks from either of its two armies
    granted = [d for d in cat.dispositions if any(d.id in army.granted for army in armies)]
    secret = "nobody sees it until both players have picked. Each player's Primary Mission then follows from both."
    options = [(f"{d.name} ({'your side' if len(armies) > 1 else 'your army'}'s)", d.id) for d in granted]
    options += [(d.name, d.id) for d in cat.dispositions if d not in granted]
    if len(granted) > 1:
        names = " and ".join(f"**{d.name}**" for d in granted)
        return (f"Your army's detachments grant {names}: pick the one you play (in a pick-up game you may pick "
                f"another). Your Force Disposition: {secret}", options)
    return f"Your Force Disposition: {secret}", options


def _adapt_menu(cat: Catalog, state: GameState, me: str) -> Menu:
    """Adapt or Die: a Tactical player draws again after a draw; a Fixed player swaps a card once."""
    player = state.player(me)
    if player.mode == "tactical":
        options = choices.adapt_draw_choices(cat, state, me)
        if not options:
            raise GameError("Adapt or Die follows a card you have just drawn in this Command phase.")
        return Menu("Adapt or Die (twice per battle): after which card do you draw another? "
                    "Then you keep one of the two and shuffle the other back.",
                    (Pick("adaptdraw", options_of(options)),))
    options = choices.adapt_swap_choices(cat, state, me)
    if not options:
        raise GameError("You have no Fixed Mission to swap.")
    return Menu("Adapt or Die (once per battle, at the end of your turn after scoring): "
                "replace which Fixed Mission with which?", (Pick("adaptswap", options_of(options)),))


def _prompt_menu(catalog: Catalog, state: GameState, me: str) -> Menu:
    prompt = next((q for q in state.prompts if q.player == me), None)
    if prompt is None:
        raise GameError("Nothing is waiting for your answer.")
    card = catalog.secondary(prompt.card)
    name = title_case(card.name)
    owner = state.player(prompt.owner).name
    yes_no = (Control("yes"), Control("no"))
    match prompt.kind:
        case PromptKind.OPTIONAL_RESHUFFLE:
            return Menu(f"**{name}** — {settled(card.when_drawn).text}\nShuffle it back and draw a new card?", yes_no)
        case PromptKind.DISCARD_IF:
            hint = ""
            if state.setup.size in settled(card.when_drawn).holds_in_sizes:
                hint = f"\n(This is a {state.setup.size.replace('-', ' ')} game, so the condition holds.)"
            return Menu(f"**{name}** — {settled(card.when_drawn).condition}{hint}\nDiscard it and draw a new card?",
                        yes_no)
        case PromptKind.ALPHA_TARGETS:
            return Menu(f"{owner} drew **{name}**: select three units from your army on the battlefield "
                        "(all of them if you have only one or two) as their Alpha Targets.",
                        (Control("units", "form"), Control("nounits")))
        case PromptKind.GAMMA_TARGET:
            return Menu(f"**{name}**: you can select one enemy unit on the battlefield as your Gamma Target.",
                        (Control("units", "form"), Control("nogamma")))
        case PromptKind.TEMPTING_OBJECTIVE if not catalog.has_map(state.mission.deployment):
            return Menu(f"{owner} drew **{name}**: name one objective in No Man's Land (not a home objective) as "
                        "their Tempting Target.", (Control("units", "form"),))
        case PromptKind.BEACON_UNIT:
            return Menu(f"**{name}**: name one of your units on the battlefield (or embarked in one) for it.",
                        (Control("units", "form"),))
        case PromptKind.TEMPTING_OBJECTIVE:
            return Menu(f"{owner} drew **{name}**: select one objective marker in No Man's Land as their "
                        "Tempting Target.", (Pick("objective", options_of(choices.objective_choices(catalog, state))),))
        case PromptKind.ADAPT_KEEP:
            kept = [(title_case(catalog.secondary(c).name), c) for c in (prompt.card, settled(prompt.other_card))]
            return Menu("Adapt or Die: keep which card? The other is shuffled back.",
                        (Pick("keep", options_of(kept)),))
    raise GameError("Nothing is waiting for your answer.")


def select_action(me: str, verb: str, values: list[str]) -> a.Action:
    """The move a choice in one of the game's menus makes (the engine checks it against the game)."""
    if not values:
        raise GameError("Pick something in the menu first.")
    if verb == "fixed":
        return a.ChooseSecondaries(actor=me, mode="fixed", cards=tuple(values))
    if verb == "score":
        pick = choices.parse_score_value(values[0])
        return a.Score(actor=me, source=pick.source, card=pick.card, option=pick.option, count=pick.count,
                       objective=pick.objective)
    if verb == "neworders":
        return a.NewOrders(actor=me, card=values[0])
    if verb == "discard":
        return a.Discard(actor=me, cards=tuple(values))
    if verb == "objective":
        return a.AnswerPrompt(actor=me, objective=values[0])
    if verb == "keep":
        return a.AnswerPrompt(actor=me, keep=values[0])
    if verb == "adaptdraw":
        return a.AdaptOrDieDraw(actor=me, card=values[0])
    if verb == "adaptswap":
        card, replacement = values[0].split("|")
        return a.AdaptOrDieSwap(actor=me, card=card, replacement=replacement)
    if verb == "corner":
        return a.HiddenSuppliesCorner(actor=me, corner=values[0])
    if verb == "disposition":
        return a.ChooseDisposition(actor=me, disposition=values[0])
    if verb == "mirror":
        return a.AgreeMirrorMission(actor=me, mission=None if values[0] == ROLL else values[0])
    raise GameError("That menu is not available here.")


# What a form asks for each question answered by name: its title, its fields' label and how many.
PROMPT_FORMS = {
    PromptKind.ALPHA_TARGETS: ("Alpha Targets", "Unit", 3),
    PromptKind.GAMMA_TARGET: ("Gamma Target", "Unit", 1),
    PromptKind.BEACON_UNIT: ("Beacon", "Unit", 1),
    PromptKind.TEMPTING_OBJECTIVE: ("A Tempting Target", "Objective in No Man's Land", 1),
}


def units_form(state: GameState, me: str) -> FormSpec:
    """The form a When Drawn question waiting on `me` is answered with by name: units, or an objective."""
    prompt = next((q for q in state.prompts if q.player == me), None)
    if prompt is None or prompt.kind not in PROMPT_FORMS:
        raise GameError("Nothing is waiting for your answer.")
    title, label, count = PROMPT_FORMS[prompt.kind]
    return FormSpec(title, tuple(Field(f"name{i + 1}", f"{label} {i + 1}" if count > 1 else label,
                                       required=i == 0) for i in range(count)))


def units_answer(state: GameState, me: str, values: dict[str, str]) -> a.Action:
    """The answer the names typed in units_form make."""
    spec = units_form(state, me)
    names = tuple(name.strip() for f in spec.fields if (name := values.get(f.id, "")).strip())
    if next(q for q in state.prompts if q.player == me).kind == PromptKind.TEMPTING_OBJECTIVE:
        return a.AnswerPrompt(actor=me, objective=names[0] if names else None)
    return a.AnswerPrompt(actor=me, units=names)
