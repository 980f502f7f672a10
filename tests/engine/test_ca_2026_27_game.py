"""Chapter Approved 2026-27 as the engine plays it: Force Dispositions picked in secret and revealed together, a
Primary Mission per player from the matrix (Twists may change it), the pairing's layout, two Tactical cards every
Command phase, the once-per-battle swap, discards for CP in your own turn only, the per-round caps, no Challenger,
and its When Drawn rules. Each test fails if its rule breaks."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.decks import catalog_2026
from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.game import Played, apply, new_game, replay
from bot.engine.chapter_approved.state import GameSetup, GameState, Phase, PromptKind, Source, Status
from bot.engine.errors import GameError

CATALOG = catalog_2026()
ALICE, BOB = "1", "2"
TH, PTF = "take-and-hold", "purge-the-foe"


def setup(seed: str = "ca26", **options) -> GameSetup:
    return GameSetup(size="strike-force", players=(ALICE, BOB), names=("Alice", "Bob"), seed=seed,
                     pack=CATALOG.pack, challenger_cards=False, **options)


def act(state: GameState, action: a.Action) -> GameState:
    return apply(CATALOG, state, action).state


def refused(state: GameState, action: a.Action, says: str) -> None:
    with pytest.raises(GameError) as caught:
        apply(CATALOG, state, action)
    assert says in caught.value.message


def revealed(seed: str = "ca26", mine: str = TH, theirs: str = PTF, **options) -> GameState:
    state = new_game(CATALOG, setup(seed, **options)).state
    state = act(state, a.ChooseDisposition(actor=ALICE, disposition=mine))
    return act(state, a.ChooseDisposition(actor=BOB, disposition=theirs))


def to_battle(state: GameState, alice: str | tuple[str, str] = "tactical", bob: str | tuple[str, str] = "tactical",
              ) -> GameState:
    state = act(state, a.ChooseSide(actor=state.sides_rolloff.winner, side="attacker"))
    for player, choice in ((ALICE, alice), (BOB, bob)):
        if choice == "tactical":
            state = act(state, a.ChooseSecondaries(actor=player, mode="tactical"))
        else:
            state = act(state, a.ChooseSecondaries(actor=player, mode="fixed", cards=tuple(choice)))
    first = state.deploys_first
    state = act(state, a.DeploymentDone(actor=first))
    return act(state, a.DeploymentDone(actor=state.opponent(first).id))


def answered(state: GameState) -> GameState:
    """Every open When Drawn question answered the plain way."""
    while state.prompts:
        q = state.prompts[0]
        match q.kind:
            case PromptKind.BEACON_UNIT:
                state = act(state, a.AnswerPrompt(actor=q.player, units=("Intercessors",)))
            case PromptKind.TEMPTING_OBJECTIVE:
                state = act(state, a.AnswerPrompt(actor=q.player, objective="the west No Man's Land objective"))
            case _:
                state = act(state, a.AnswerPrompt(actor=q.player, accept=False))
    return state


def seed_where(wanted: Callable[[GameState], bool], prepare: Callable[[GameState], GameState], tries: int = 400,
               **options) -> str:
    for n in range(tries):
        try:
            if wanted(prepare(revealed(f"seek-{n}", **options))):
                return f"seek-{n}"
        except GameError:
            continue
    raise AssertionError("no seed gives the wanted game")


# ---- Force Dispositions ----------------------------------------------------------------------------------------

def test_dispositions_are_secret_until_both_are_picked_then_each_player_has_their_own_primary() -> None:
    state = new_game(CATALOG, setup()).state
    assert state.status == Status.DISPOSITIONS and state.primaries == ()
    refused(state, a.ChooseSide(actor=state.sides_rolloff.winner, side="attacker"), "Force Disposition first")
    refused(state, a.ChooseDisposition(actor=ALICE, disposition="cowardice"), "no Force Disposition 'cowardice'")
    outcome = apply(CATALOG, state, a.ChooseDisposition(actor=ALICE, disposition=TH))
    assert [e.text for e in outcome.events if e.private_to is None] == ["Alice has picked their Force Disposition."]
    state = outcome.state
    # A secret pick may change until both have picked: the change is told to the picker alone.
    changed = apply(CATALOG, state, a.ChooseDisposition(actor=ALICE, disposition=PTF))
    assert [e.text for e in changed.events] == ["You changed your pick to Purge the Foe. Hidden until both players "
                                                "have picked."] and changed.events[0].private_to == ALICE
    assert changed.state.player(ALICE).disposition_choice == PTF and changed.state.player(ALICE).disposition is None
    assert state.status == Status.DISPOSITIONS and state.player(ALICE).disposition is None
    state = act(state, a.ChooseDisposition(actor=BOB, disposition=PTF))
    assert state.status == Status.SIDES
    assert (state.primary_of(ALICE), state.primary_of(BOB)) == ("immovable-object", "unstoppable-force")
    assert (state.player(ALICE).disposition, state.player(BOB).disposition) == (TH, PTF)
    assert state.mission.layout is None and state.mission.deployment  # one deployment: the card (version 4)
    refused(state, a.ChooseDisposition(actor=BOB, disposition=TH), "already revealed")


def test_a_mirror_match_shares_one_primary_and_a_chosen_layout_is_kept() -> None:
    state = revealed(mine=PTF, theirs=PTF, layout="C")
    assert state.primary_of(ALICE) == state.primary_of(BOB) == "meatgrinder" and state.primaries == ("meatgrinder",)
    assert state.mission.layout == f"{PTF}--{PTF}-c"


def test_dispositions_set_beforehand_reveal_at_once() -> None:
    state = new_game(CATALOG, setup(dispositions=(PTF, TH))).state
    assert state.status == Status.SIDES
    assert (state.primary_of(ALICE), state.primary_of(BOB)) == ("unstoppable-force", "immovable-object")


def test_the_twists_that_change_primaries() -> None:
    mirrored = next(s for n in range(200) if (s := revealed(f"mirror-{n}", twist=True)).mission.twist
                    == "mirrored-world")
    rolled = mirrored.mission.mirror_rolls
    assert rolled[-1] in range(1, 6) and all(r == 6 for r in rolled[:-1])  # a 6 is rolled again
    table = CATALOG.twist("mirrored-world").primary_roll
    assert mirrored.primary_of(ALICE) == mirrored.primary_of(BOB) == table[rolled[-1]]
    scrambled = next(s for n in range(200) if (s := revealed(f"scramble-{n}", twist=True)).mission.twist
                     == "scrambled-communications")
    assert (scrambled.primary_of(ALICE), scrambled.primary_of(BOB)) == ("unstoppable-force", "immovable-object")


def test_no_pool_no_challenger_and_strike_force_only() -> None:
    for options, says in (({"mission": "A"}, "no Tournament Mission Pool"), ({"size": "incursion"}, "Strike Force"),
                          ({"challenger_cards": True}, "no Challenger")):
        fields = {**setup().model_dump(), **options}
        with pytest.raises(GameError) as caught:
            new_game(CATALOG, GameSetup(**fields))
        assert says in caught.value.message


# ---- Secondary Missions ---------------------------------------------------------------------------------------

def test_fixed_is_two_of_the_four_fixed_cards() -> None:
    state = act(revealed(), a.ChooseSide(actor=revealed().sides_rolloff.winner, side="attacker"))
    refused(state, a.ChooseSecondaries(actor=ALICE, mode="fixed", cards=("assassination", "no-prisoners")),
            "only be used as Tactical")
    state = act(state, a.ChooseSecondaries(actor=ALICE, mode="fixed", cards=("bring-it-down", "a-grievous-blow")))
    assert state.player(ALICE).choice.fixed_cards == ("bring-it-down", "a-grievous-blow")


def test_a_tactical_player_draws_two_every_command_phase_with_no_limit() -> None:
    state = answered(to_battle(revealed()))
    active = state.active
    assert len(state.player(active).hand) == 2 and state.challenger is None
    state = act(state, a.EndCommandPhase(actor=active))
    state = act(state, a.EndTurn(actor=active))
    for player in (active, state.opponent(active).id):
        state = act(state, a.DoneScoring(actor=player))
    state = act(state, a.Discard(actor=active))  # keeps both
    state = answered(state)
    other = state.active
    state = act(state, a.EndCommandPhase(actor=other))
    state = act(state, a.EndTurn(actor=other))
    for player in (other, active):
        state = act(state, a.DoneScoring(actor=player))
    state = answered(act(state, a.Discard(actor=other)))
    assert state.round == 2 and len(state.player(active).hand) == 4  # two more, the two unscored kept


def test_the_swap_costs_1cp_once_per_battle_and_only_for_tactical() -> None:
    state = answered(to_battle(revealed(), bob=("bring-it-down", "a-grievous-blow")))
    active = state.active
    tactical = ALICE
    if active != tactical:  # Bob (Fixed) goes first: he cannot swap
        refused(state, a.NewOrders(actor=BOB, card="bring-it-down"), "Fixed Missions cannot be discarded")
        return
    cp = state.player(active).cp
    card = state.player(active).hand[0]
    state = answered(act(state, a.NewOrders(actor=active, card=card)))
    me = state.player(active)
    assert me.cp == cp - 1 and me.swaps_used == 1 and card in me.discard and len(me.hand) == 2
    refused(state, a.NewOrders(actor=active, card=me.hand[0]), "once per battle")


def test_only_the_player_whose_turn_it_is_discards_for_cp() -> None:
    state = answered(to_battle(revealed()))
    active, other = state.active, state.opponent(state.active).id
    for verb in (a.EndCommandPhase, a.EndTurn):
        state = act(state, verb(actor=active))
    for player in (active, other):
        state = act(state, a.DoneScoring(actor=player))
    assert state.phase == Phase.DISCARDS and state.discard_queue == (active,)
    refused(state, a.Discard(actor=other, cards=state.player(other).hand[:1]), "only at the end of your own turn")
    cp = state.player(active).cp
    state = act(state, a.Discard(actor=active, cards=state.player(active).hand[:1]))
    # 1CP for discarding in your own turn, then the Core CP of the next Command phase
    assert state.player(active).cp == cp + 1 + CATALOG.rules.command_phase_cp


def test_at_most_one_extra_cp_a_round() -> None:
    state = answered(to_battle(revealed()))
    active = state.active
    state = act(state, a.GainCp(actor=active, amount=1, reason="a rule"))
    refused(state, a.GainCp(actor=active, amount=1, reason="again"), "at most 1CP per battle round")


# ---- scoring ---------------------------------------------------------------------------------------------------

def _plain_turn(state: GameState) -> GameState:
    """The turn of the player whose turn it is, ended plainly: questions answered, nothing scored, cards kept."""
    state = answered(state)
    active = state.active
    for verb in (a.EndCommandPhase, a.EndTurn):
        state = act(state, verb(actor=active))
    for player in (active, state.opponent(active).id):
        state = act(state, a.DoneScoring(actor=player))
    return act(state, a.Discard(actor=state.discard_queue[0])) if state.discard_queue else state


def _battle_in_round(number: int, state: GameState) -> GameState:
    """Turns ended plainly until `number`'s first turn."""
    while state.round < number:
        state = _plain_turn(state)
    return answered(state)


def test_each_player_scores_their_own_primary_up_to_15_a_round() -> None:
    state = _battle_in_round(2, to_battle(revealed()))
    active = state.active
    mine, theirs = state.primary_of(active), state.primary_of(state.opponent(active).id)
    assert mine != theirs
    foreign = next(o for o in CATALOG.primary(theirs).scoring if o.id not in {x.id for x in CATALOG.primary(mine).scoring})
    refused(state, a.Score(actor=active, source=Source.PRIMARY, option=foreign.id, count=1), "")
    per = next(o for o in CATALOG.primary(mine).scoring if o.per and o.window.value == "end_of_command_phase"
               and o.from_round <= 2)
    state = act(state, a.Score(actor=active, source=Source.PRIMARY, option=per.id, count=10))
    entry = state.vp[-1]
    assert entry.claimed == per.vp * 10 and entry.awarded == 15 and "in a battle round" in entry.capped_by


def test_secondary_vp_are_capped_at_15_a_round_and_20_a_fixed_card() -> None:
    fixed = ("assassination", "bring-it-down")
    state = _battle_in_round(2, to_battle(revealed(), alice=fixed, bob=fixed))
    active = state.active
    for verb in (a.EndCommandPhase, a.EndTurn):
        state = act(state, verb(actor=active))
    state = act(state, a.Score(actor=active, source=Source.SECONDARY, card="assassination", option="characters",
                               count=4))
    assert state.vp[-1].awarded == 12 and state.vp[-1].capped_by is None
    state = act(state, a.Score(actor=active, source=Source.SECONDARY, card="bring-it-down", option="big-models",
                               count=2))
    entry = state.vp[-1]
    assert (entry.claimed, entry.awarded, entry.lost) == (8, 3, 5) and "in a battle round" in entry.capped_by


def test_the_round_5_switch_applies_to_both_players() -> None:
    state = _battle_in_round(5, to_battle(revealed(mine=TH, theirs=TH)))  # both play Battlefield Dominance
    active = state.active
    option = next(o for o in CATALOG.primary("battlefield-dominance").scoring if o.fifth_round_end_of_turn)
    score = a.Score(actor=active, source=Source.PRIMARY, option=option.id, count=1)
    refused(state, score, "end of your turn instead")
    for verb in (a.EndCommandPhase, a.EndTurn):
        state = act(state, verb(actor=active))
    assert act(state, score).vp[-1].awarded == option.vp


# ---- When Drawn ------------------------------------------------------------------------------------------------

def test_beacon_asks_the_drawer_for_a_unit_and_a_tempting_target_asks_the_opponent() -> None:
    def drawn(card: str) -> Callable[[GameState], bool]:
        return lambda s: any(q.card == card for q in s.prompts)
    for card, kind, asked in (("beacon", PromptKind.BEACON_UNIT, "drawer"),
                              ("a-tempting-target", PromptKind.TEMPTING_OBJECTIVE, "opponent")):
        seed = seed_where(drawn(card), to_battle)
        state = to_battle(revealed(seed))
        prompt = next(q for q in state.prompts if q.card == card)
        assert prompt.kind == kind
        assert (prompt.player == prompt.owner) == (asked == "drawer")
        if kind == PromptKind.BEACON_UNIT:
            refused(state, a.AnswerPrompt(actor=prompt.player, units=()), "name one of your units")
        state = answered(state)
        assert state.player(prompt.owner).targets[card] is not None


def first_draws(seed: str) -> Played:
    """Both players Tactical, up to the action that starts the battle: its outcome holds the first draws."""
    state = revealed(seed)
    state = act(state, a.ChooseSide(actor=state.sides_rolloff.winner, side="attacker"))
    for player in (ALICE, BOB):
        state = act(state, a.ChooseSecondaries(actor=player, mode="tactical"))
    state = act(state, a.DeploymentDone(actor=state.deploys_first))
    return apply(CATALOG, state, a.DeploymentDone(actor=state.opponent(state.deploys_first).id))


def test_defend_stronghold_in_round_one_is_always_replaced() -> None:
    """Its When Drawn rule is mandatory in the first battle round: shuffled back and replaced, nobody asked."""
    for n in range(300):
        battle = first_draws(f"stronghold-{n}")
        if any("Defend Stronghold" in e.text and "replaced" in e.text for e in battle.events):
            active = battle.state.player(battle.state.active)
            assert "defend-stronghold" not in active.hand and "defend-stronghold" in active.deck
            assert not any(q.card == "defend-stronghold" for q in battle.state.prompts)
            return
    raise AssertionError("no seed draws Defend Stronghold in round 1")


def test_the_log_replays_to_the_state() -> None:
    game = new_game(CATALOG, setup("replay"))
    actions = [a.ChooseDisposition(actor=ALICE, disposition="disruption"),
               a.ChooseDisposition(actor=BOB, disposition="priority-assets")]
    state = game.state
    for action in actions:
        state = act(state, action)
    assert replay(CATALOG, setup("replay"), actions) == state


# ---- invariants under random play -------------------------------------------------------------------------------

EVERY_SECONDARY = sorted(c.id for c in CATALOG.secondaries)
FIXED = [c.id for c in CATALOG.secondaries if c.fixed]


def _random_action(data, state: GameState) -> a.Action:
    """A move a player might make now (most legal, some not): the rules decide."""
    player = data.draw(st.sampled_from(state.setup.players))
    me = state.player(player)
    card = data.draw(st.sampled_from(me.hand or tuple(EVERY_SECONDARY)))
    primary = CATALOG.primary(state.primary_of(player)) if state.primaries else None
    choices = [
        a.ChooseSide(actor=state.sides_rolloff.winner, side="attacker"),
        a.ChooseSecondaries(actor=player, mode="tactical"),
        a.ChooseSecondaries(actor=player, mode="fixed", cards=tuple(data.draw(st.permutations(FIXED))[:2])),
        a.DeploymentDone(actor=player), a.EndCommandPhase(actor=player), a.EndTurn(actor=player),
        a.DoneScoring(actor=player), a.Discard(actor=player, cards=tuple(me.hand[:data.draw(st.integers(0, 2))])),
        a.NewOrders(actor=player, card=card), a.GainCp(actor=player, amount=1, reason="r"),
        a.SpendCp(actor=player, amount=data.draw(st.integers(1, 3)), reason="r"),
        a.AnswerPrompt(actor=player, accept=data.draw(st.booleans()), units=("Unit",), objective="an objective"),
    ]
    if me.hand:
        option = data.draw(st.sampled_from(CATALOG.secondary(card).scoring))
        choices.append(a.Score(actor=player, source=Source.SECONDARY, card=card, option=option.id,
                               count=data.draw(st.integers(1, 6)) if option.per else None))
    if primary is not None:
        option = data.draw(st.sampled_from(primary.scoring))
        choices.append(a.Score(actor=player, source=Source.PRIMARY, option=option.id,
                               count=data.draw(st.integers(1, 6)) if option.per else None))
    return data.draw(st.sampled_from(choices))


def _check(state: GameState) -> None:
    caps = CATALOG.rules.caps
    for p in state.players:
        assert p.cp >= 0 and p.swaps_used <= CATALOG.rules.swap.per_battle
        if p.mode == "tactical":  # every card once: in the deck, active or discarded
            assert sorted(p.deck + p.hand + p.discard) == EVERY_SECONDARY
        mine = [e for e in state.vp if e.player == p.id]
        for source, cap, per_round in ((Source.PRIMARY, caps.primary, caps.primary_per_round),
                                       (Source.SECONDARY, caps.secondary, caps.secondary_per_round)):
            assert sum(e.awarded for e in mine if e.source == source) <= cap
            for number in range(1, 6):
                assert sum(e.awarded for e in mine if e.source == source and e.round == number) <= per_round
        assert sum(e.awarded for e in mine) <= caps.total


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(data=st.data())
def test_random_play_loses_no_card_keeps_every_cap_and_never_goes_below_0cp(data) -> None:
    dispositions = [d.id for d in CATALOG.dispositions]
    state = revealed(data.draw(st.text("abcdef", min_size=1, max_size=6)), data.draw(st.sampled_from(dispositions)),
                     data.draw(st.sampled_from(dispositions)), twist=data.draw(st.booleans()))
    game_setup, actions = state.setup, [a.ChooseDisposition(actor=ALICE, disposition=state.player(ALICE).disposition),
                                        a.ChooseDisposition(actor=BOB, disposition=state.player(BOB).disposition)]
    for _ in range(200):
        action = _random_action(data, state)
        try:
            state = act(state, action)
        except GameError:
            continue
        actions.append(action)
        _check(state)
        if state.status == Status.ENDED:
            break
    assert replay(CATALOG, game_setup, actions) == state


def _turns(state: GameState, until: Callable[[GameState], bool], rounds: int = 3) -> GameState | None:
    """Plain turns until `until` holds at a Command phase (before its questions are answered), or None."""
    while state.round <= rounds:
        if until(state):
            return state
        state = _plain_turn(state)
    return None


def test_cleanse_or_plunder_may_be_replaced_while_the_other_is_active() -> None:
    """Drawn while its pair is active, the card may be shuffled back for a new one (the drawer says)."""
    def pair_asked(state: GameState) -> bool:
        return any(q.kind == PromptKind.OPTIONAL_RESHUFFLE and q.card in ("cleanse", "plunder")
                   and {"cleanse", "plunder"} <= set(state.player(q.owner).hand) for q in state.prompts)
    for n in range(300):
        state = _turns(to_battle(revealed(f"pair-{n}")), pair_asked)
        if state is None:
            continue
        q = next(q for q in state.prompts if q.kind == PromptKind.OPTIONAL_RESHUFFLE)
        assert q.card in act(state, a.AnswerPrompt(actor=q.player, accept=False)).player(q.owner).hand
        swapped = act(state, a.AnswerPrompt(actor=q.player, accept=True)).player(q.owner)
        assert q.card not in swapped.hand and q.card in swapped.deck
        return
    raise AssertionError("no seed draws Cleanse and Plunder together")


def test_burden_of_trust_reminds_of_its_guards_when_drawn_and_each_turn() -> None:
    for n in range(300):
        battle = first_draws(f"guards-{n}")
        drawer = battle.state.active
        if "burden-of-trust" not in battle.state.player(drawer).hand:
            continue
        assert any("guard unit" in e.text for e in battle.events)
        state, events = answered(battle.state), ()
        while not (state.round == 2 and state.active == drawer):  # the events of the action starting that turn
            active = state.active
            steps = [a.EndCommandPhase(actor=active), a.EndTurn(actor=active), a.DoneScoring(actor=active),
                     a.DoneScoring(actor=state.opponent(active).id), a.Discard(actor=active)]
            for action in steps:
                if isinstance(action, a.Discard) and not state.discard_queue:
                    break
                outcome = apply(CATALOG, state, action)
                state, events = outcome.state, outcome.events
            if not (state.round == 2 and state.active == drawer):
                state = answered(state)
        assert "burden-of-trust" in state.player(drawer).hand
        assert any("guard unit" in e.text for e in events)
        return
    raise AssertionError("no seed draws Burden of Trust first")


def at_end_of_battle(state: GameState) -> GameState:
    """The last turn of the battle, its end-of-turn scoring open: the end of the battle."""
    state = _battle_in_round(5, state)
    while state.turn != 2:
        state = answered(_plain_turn(state))
    for verb in (a.EndCommandPhase, a.EndTurn):
        state = act(state, verb(actor=state.active))
    return state


def test_end_of_battle_vp_are_outside_the_round_cap() -> None:
    state = at_end_of_battle(to_battle(revealed()))  # Bob plays Unstoppable Force
    state = act(state, a.Score(actor=BOB, source=Source.PRIMARY, vp=15))  # the round's 15, by hand
    assert state.vp[-1].awarded == 15
    state = act(state, a.Score(actor=BOB, source=Source.PRIMARY, option="central-at-end"))
    entry = state.vp[-1]
    assert (entry.claimed, entry.awarded, entry.capped_by) == (5, 5, None)
