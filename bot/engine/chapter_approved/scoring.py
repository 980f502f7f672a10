"""Victory points: scoring windows and every cap of the pack.

VP above a cap are kept in the ledger as lost (claimed minus awarded), never silently dropped.
"""

from __future__ import annotations

from bot.engine.chapter_approved.catalog import Catalog, ScoringOption, Scorer, Window, cumulative_base
from bot.engine.chapter_approved.state import GameState, Phase, Source, VpEntry
from bot.engine.errors import GameError, InvalidValue, WrongPhase
from bot.engine.models import settled

MAX_COUNT = 20


def window_refusal(state: GameState, option: ScoringOption, scorer: str, last_round: int) -> str | None:
    """Why `scorer` cannot score `option` now, or None when the window is open."""
    if state.round < option.from_round:
        return f"“{option.label}” scores from battle round {option.from_round} onwards."
    if option.to_round is not None and state.round > option.to_round:
        return f"“{option.label}” scores up to battle round {option.to_round}."
    active = state.active
    at_end_of_turn = state.phase == Phase.END_OF_TURN
    end_of_battle = at_end_of_turn and state.round == last_round and state.turn == 2
    goes_second = scorer != state.first

    who = _scorer_refusal(state, option.scorer, scorer)
    if who:
        return who

    match option.window:
        case Window.END_OF_COMMAND_PHASE if option.fifth_round_end_of_turn and state.round == last_round:
            if scorer == active and at_end_of_turn:
                return None
            return "In the fifth battle round this scores at the end of your turn instead."
        case Window.END_OF_COMMAND_PHASE:
            if option.fifth_round_going_second and state.round == last_round and goes_second:
                if scorer == active and at_end_of_turn:
                    return None
                return "In the fifth battle round the player going second scores this at the end of their turn."
            if scorer == active and state.phase == Phase.COMMAND:
                return None
            return "This scores at the end of your Command phase."
        case Window.END_OF_YOUR_TURN:
            if (scorer == active and at_end_of_turn) or (option.or_end_of_battle and end_of_battle):
                return None
            return "This scores at the end of your turn: press End turn first."
        case Window.END_OF_OPPONENT_TURN:
            if (scorer != active and at_end_of_turn) or (option.or_end_of_battle and end_of_battle):
                return None
            return "This scores at the end of your opponent's turn."
        case Window.END_OF_EITHER_TURN:
            return None if at_end_of_turn else "This scores at the end of a turn: press End turn first."
        case Window.END_OF_BATTLE_ROUND:
            if at_end_of_turn and state.turn == 2:
                return None
            return "This scores at the end of the battle round (the end of the second turn)."
        case Window.WHILE_ACTIVE | Window.ANY_TIME:
            return None
        case Window.START_OF_BATTLE:
            return "This is scored automatically at the start of the battle."
        case Window.END_OF_BATTLE:
            return None if end_of_battle else "This scores at the end of the battle (the end of the last turn)."
    return "This cannot be scored now."


MAX_COUNTED = 10  # items a counted option ("per objective marker") can score in one entry, when it has no limit


def hand_totals(options: tuple[ScoringOption, ...]) -> set[int]:
    """Every VP total one entry typed by hand can claim from these options: each option at one of its values, once,
    or as many times as it scores ('each time', or per item counted), up to its limit."""
    totals = {0}
    for option in options:
        repeats = option.per or option.by_round or option.window in (Window.WHILE_ACTIVE, Window.ANY_TIME)
        values = {option.vp} if not repeats else {
            v * n for v in (option.by_round or {0: option.vp}).values() for n in range(1, MAX_COUNTED + 1)
            if option.max_per_turn is None or v * n <= option.max_per_turn}
        totals |= {t + v for t in totals for v in values}
    return totals - {0}


def hand_refusal(options: tuple[ScoringOption, ...], vp: int, name: str) -> str | None:
    """Why `vp` typed by hand is no total of `name`'s options (None: it is one)."""
    if not options or vp in hand_totals(options):
        return None
    listed = "; ".join(f"{o.label}: {o.vp}VP" + (f" per {o.per}" if o.per else "") for o in options)
    return (f"{name} cannot give {vp}VP in one entry: its options are {listed}. Pick one with the board's Score "
            "button, or enter a total they add up to.")


def scoring_closed(state: GameState, scorer: str) -> str | None:
    """Why `scorer` can score nothing now (version 2): they pressed Done scoring, or the end of the turn
    has moved on to the discards (where an Adapt or Die swap happens, so a new card never scores there)."""
    if state.setup.legacy:
        return None
    if state.phase == Phase.END_OF_TURN and scorer in state.scoring_done:
        return "You pressed Done scoring: nothing more of yours scores at the end of this turn."
    if state.phase == Phase.DISCARDS:
        return "The end-of-turn scoring is over: the discards follow, and the next turn's scoring after them."
    return None


def _scorer_refusal(state: GameState, rule: Scorer, scorer: str) -> str | None:
    match rule:
        case Scorer.ACTIVE if scorer != state.active:
            return "Only the player whose turn it is scores this."
        case Scorer.OPPONENT_OF_ACTIVE if scorer == state.active:
            return "This scores for the opponent of the player whose turn it is."
        case Scorer.OPPONENT_OF_ACTIVE if state.round == 1 and state.turn == 1:
            # What the opponent scores for (Burden of Trust's guards) is set in their own Command phase,
            # and the player going second has not had one yet (FAQ: from the opponent's second turn).
            return "You have had no Command phase yet, so nothing of yours can score this."
        case Scorer.ATTACKER if scorer != state.attacker:
            return "Only the Attacker scores this."
        case Scorer.DEFENDER if scorer != state.defender:
            return "Only the Defender scores this."
    return None


def option_vp(state: GameState, option: ScoringOption, count: int | None) -> int:
    """VP claimed for one scoring of `option` (count items for 'per' options)."""
    if option.per is None and count not in (None, 1):
        raise InvalidValue(f"“{option.label}” is not counted per item: leave the count out.")
    if option.per is not None and (count is None or not 0 <= count <= MAX_COUNT):
        raise InvalidValue(f"Say how many ({option.per}) you score for, from 0 to {MAX_COUNT}.")
    base = option.vp
    if option.by_round is not None:
        if state.round not in option.by_round:
            raise WrongPhase(f"“{option.label}” does not score in battle round {state.round}.")
        base = option.by_round[state.round]
    return base * (count if count is not None else 1)


def check_repeat(state: GameState, scorer: str, source: Source, card: str | None, option: ScoringOption,
                 options: tuple[ScoringOption, ...]) -> None:
    """An option scores once per turn unless it is an 'each time' rule; OR alternatives exclude each other;
    a cumulative add-on needs its base scored in the same window, once for each time it adds to it."""
    this_turn = [
        e for e in state.vp
        if e.player == scorer and e.source == source and e.card == card
        and e.round == state.round and e.turn == state.turn and e.option is not None
    ]
    repeatable = option.window in (Window.WHILE_ACTIVE, Window.ANY_TIME)
    if not repeatable and any(e.option == option.id for e in this_turn):
        raise GameError(f"You already scored “{option.label}” this turn. Use /game undo to correct it.")
    if option.group and not option.cumulative:
        others = {o.id: o for o in options if o.group == option.group and o.id != option.id and not o.cumulative}
        taken = next((others[e.option] for e in this_turn if e.option in others), None)
        if taken is not None:
            raise GameError(f"You already scored “{taken.label}” this turn: it is one or the other.")
    base = cumulative_base(options, option)
    # Version-1 games were only checked for add-ons within an OR group (Linchpin): their logs replay as played.
    if base is not None and (option.group or not state.setup.legacy):
        bases = sum(1 for e in this_turn if e.option == base.id)
        if bases <= sum(1 for e in this_turn if e.option == option.id):
            rival = next((o for o in options if option.group and o.group == option.group and not o.cumulative
                          and any(e.option == o.id for e in this_turn)), None)
            if rival is not None and not bases:
                raise GameError(f"You already scored “{rival.label}” this turn: it is one or the other.")
            raise GameError(f"“{option.label}” adds to “{base.label}”: score that first, in the same window.")


def award(catalog: Catalog, state: GameState, entry: VpEntry, option: ScoringOption | None,
          fixed_card: bool) -> VpEntry:
    """Apply every cap to `entry.claimed`; return the entry with awarded VP and the cap that bit."""
    caps = catalog.rules.caps
    mine = [e for e in state.vp if e.player == entry.player]

    def used(pred) -> int:
        return sum(e.awarded for e in mine if pred(e))

    limits: list[tuple[str, int]] = []
    if option is not None and option.max_per_turn is not None:
        shared = _cap_options(catalog, entry, option)
        limits.append((
            f"“{option.label}” up to {option.max_per_turn}VP per turn",
            option.max_per_turn - used(lambda e: e.card == entry.card and e.option in shared
                                       and e.round == state.round and e.turn == state.turn),
        ))
    if fixed_card:
        limits.append((
            f"{caps.fixed_card}VP per Fixed Mission card",
            caps.fixed_card - used(lambda e: e.source == Source.SECONDARY and e.card == entry.card),
        ))
    source_cap = {
        Source.PRIMARY: caps.primary, Source.SECONDARY: caps.secondary,
        Source.CHALLENGER: caps.challenger, Source.BATTLE_READY: caps.battle_ready,
    }[entry.source]
    limits.append((
        f"{source_cap}VP from {_source_name(entry.source)}",
        source_cap - used(lambda e: e.source == entry.source),
    ))
    round_cap = {Source.PRIMARY: caps.primary_per_round, Source.SECONDARY: caps.secondary_per_round}.get(entry.source)
    outside = caps.end_of_battle_outside_round_caps
    if round_cap is not None and not (outside and _end_of_battle(entry, option)):
        limits.append((
            f"{round_cap}VP from {_source_name(entry.source)} in a battle round",
            round_cap - used(lambda e: e.source == entry.source and e.round == entry.round
                             and not (outside and _end_of_battle(e, _option_of(catalog, e)))),
        ))
    if entry.source != Source.BATTLE_READY:
        limits.append((
            f"{caps.combined}VP from Primary, Secondary and Challenger combined",
            caps.combined - used(lambda e: e.source != Source.BATTLE_READY),
        ))
    limits.append((f"{caps.total}VP in total", caps.total - used(lambda e: True)))

    awarded, capped_by = entry.claimed, None
    for name, room in limits:
        room = max(room, 0)
        if room < awarded:
            awarded, capped_by = room, name
    return entry.model_copy(update={"awarded": awarded, "capped_by": capped_by})


def _end_of_battle(entry: VpEntry, option: ScoringOption | None) -> bool:
    """VP scored at the end of the battle, by an end-of-battle option or typed by hand as such: outside the
    per-round caps (CA 2026-27's FAQ)."""
    return entry.end_of_battle or (option is not None and option.window == Window.END_OF_BATTLE)


def _option_of(catalog: Catalog, entry: VpEntry) -> ScoringOption | None:
    """The scoring option a ledger entry was made for, if it names one of a Primary or Secondary card's."""
    if entry.option is None or entry.card is None:
        return None
    try:
        card = catalog.primary(entry.card) if entry.source == Source.PRIMARY else catalog.secondary(entry.card)
    except KeyError:
        return None
    return next((o for o in card.scoring if o.id == entry.option), None)


def _cap_options(catalog: Catalog, entry: VpEntry, option: ScoringOption) -> set[str]:
    """The options whose VP count against `option`'s per-turn limit: itself, or its whole cap group."""
    if option.cap_group is None or entry.source != Source.PRIMARY:
        return {option.id}
    return {o.id for o in catalog.primary(settled(entry.card)).scoring if o.cap_group == option.cap_group}


def _source_name(source: Source) -> str:
    return {
        Source.PRIMARY: "the Primary Mission",
        Source.SECONDARY: "Secondary Missions",
        Source.CHALLENGER: "Challenger cards",
        Source.BATTLE_READY: "Battle Ready",
    }[source]
