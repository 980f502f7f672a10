"""Setting up a battle: mission decks by size, Twists, Challenger cards, the Tournament Mission Pool,
the seed, the mission's random set-up, and the roll-offs (Chapter Approved battle sequence steps 1-12)."""

from __future__ import annotations

import pytest

from bot.engine.chapter_approved.game import new_game
from bot.engine.chapter_approved.state import GameSetup
from bot.engine.errors import InvalidValue, NotYourTurn, WrongPhase
from bot.engine.rng import roll_off

SIZES = ("incursion", "strike-force", "asymmetric-war")
SEEDS = [f"setup-{n}" for n in range(40)]


def _setup(make_table, **changes) -> GameSetup:
    base = dict(size="strike-force", players=(make_table.P1, make_table.P2), names=("Alice", "Bob"), seed="s")
    return GameSetup(**{**base, **changes})


@pytest.mark.parametrize("size", SIZES)
def test_each_size_draws_from_its_own_decks(make_table, size):
    catalog = make_table.catalog
    deployments, primaries = set(), set()
    for seed in SEEDS:
        mission = make_table(seed=seed, size=size, mission=None).state.mission
        assert catalog.deployment(mission.deployment).size == size
        assert catalog.primary(mission.primary).asymmetric == (size == "asymmetric-war")
        deployments.add(mission.deployment)
        primaries.add(mission.primary)
    # Drawn, not fixed: the 40 seeds see several cards of each deck.
    assert len(deployments) >= 3 and len(primaries) >= 3


def test_twist_is_drawn_only_when_asked_for(make_table):
    twists = {t.id for t in make_table.catalog.twists}
    drawn = {make_table(seed=s, mission=None, twist=True).state.mission.twist for s in SEEDS}
    assert drawn <= twists and len(drawn) >= 3
    assert all(make_table(seed=s, mission=None, twist=False).state.mission.twist is None for s in SEEDS)


def test_without_challenger_cards_there_is_no_deck_and_never_a_challenger(make_table):
    t = make_table(challenger_cards=False)
    assert t.state.challenger_deck == ()
    t.to_battle()
    t.score("primary", t.first, vp=20)  # a 20VP lead would make the other player the Challenger
    t.to_round(2)
    assert t.state.challenger is None
    t.end_turn()
    assert t.player(t.second).challenger_card is None


def test_with_challenger_cards_the_deck_holds_all_nine_shuffled(make_table):
    deck = make_table().state.challenger_deck
    assert sorted(deck) == sorted(c.id for c in make_table.catalog.challengers)
    assert deck != tuple(c.id for c in make_table.catalog.challengers)


@pytest.mark.parametrize("letter", list("ABCDEFGHIJKLMNOPQRST"))
def test_pool_letter_sets_primary_deployment_and_layouts(make_table, letter):
    pool = make_table.catalog.pool_mission(letter)
    mission = make_table(mission=letter.lower() if letter in "AT" else letter).state.mission
    assert (mission.pool_letter, mission.primary, mission.deployment, mission.layouts) == (
        letter, pool.primary, pool.deployment, pool.layouts)
    assert mission.twist is None


@pytest.mark.parametrize("letter", ["U", "Z", "AA", "1", ""])
def test_pool_letter_outside_a_to_t_is_refused(make_table, letter):
    with pytest.raises(InvalidValue, match="pick a letter from A to T"):
        new_game(make_table.catalog, _setup(make_table, mission=letter))


def test_random_pool_mission_is_reproducible_from_the_seed(make_table):
    letters = []
    for seed in SEEDS:
        mission = make_table(seed=seed, mission="random").state.mission
        assert make_table(seed=seed, mission="random").state.mission == mission
        pool = make_table.catalog.pool_mission(mission.pool_letter)
        assert (mission.primary, mission.deployment, mission.layouts) == (pool.primary, pool.deployment, pool.layouts)
        letters.append(mission.pool_letter)
    assert len(set(letters)) >= 8


def test_pool_mission_with_twist_is_refused(make_table):
    with pytest.raises(InvalidValue, match="Twist cards are not used in Tournament Mission Pool missions"):
        new_game(make_table.catalog, _setup(make_table, mission="A", twist=True))


@pytest.mark.parametrize("size", ["incursion", "asymmetric-war"])
def test_pool_mission_outside_strike_force_is_refused(make_table, size):
    with pytest.raises(InvalidValue, match="Tournament Mission Pool missions are Strike Force games"):
        new_game(make_table.catalog, _setup(make_table, mission="A", size=size))


def test_playing_yourself_is_refused(make_table):
    with pytest.raises(InvalidValue, match="cannot play against yourself"):
        new_game(make_table.catalog, _setup(make_table, players=(make_table.P1, make_table.P1)))


@pytest.mark.parametrize("mission", [None, "random"])
def test_same_seed_gives_same_mission_rolloffs_and_decks(make_table, mission):
    one, two, other = (make_table(seed=s, mission=mission, twist=mission is None) for s in ("same", "same", "other"))
    for t in (one, two, other):
        t.to_battle()
    assert one.state == two.state
    assert one.state.player(one.P1).deck != other.state.player(one.P1).deck


def test_the_seed_never_reaches_the_channel_while_the_game_runs(make_table):
    t = make_table(seed="a-very-secret-seed-4242")
    t.to_battle()
    t.to_turn(5, 2)
    t.to_end_of_turn()
    assert all("a-very-secret-seed-4242" not in e.text for e in t.events)


@pytest.mark.parametrize("letter", ["B", "H", "Q"])
def test_supply_drop_alpha_and_omega_are_the_two_non_centre_no_mans_land_objectives(make_table, letter):
    orders = set()
    for seed in SEEDS[:12]:
        t = make_table(seed=seed, mission=letter)
        t.to_battle()  # "Start of the Battle: Players randomly select ..."
        mission = t.state.mission
        candidates = {o.id for o in t.objectives() if o.area == "no_mans_land" and not o.centre}
        assert mission.alpha_objective != mission.omega_objective
        assert {mission.alpha_objective, mission.omega_objective} <= candidates
        orders.add((mission.alpha_objective, mission.omega_objective))
    assert len(orders) == 2  # either marker can be the Alpha one


@pytest.mark.parametrize("letter, corners", [
    ("I", ("top left", "bottom right")),  # Search and Destroy: No Man's Land touches two corners
    ("N", ("top left", "bottom right")),  # Crucible of Battle
])
def test_hidden_supplies_uses_the_no_mans_land_corners(make_table, letter, corners):
    mission = make_table(mission=letter).state.mission
    assert mission.primary == "hidden-supplies"
    assert sorted(mission.hidden_supplies_corners) == sorted(corners)
    assert mission.hidden_supplies_rolloff is None


def test_hidden_supplies_without_a_no_mans_land_corner_rolls_off(make_table):
    mission = make_table(mission="F").state.mission  # Hammer and Anvil: zones fill the short edges
    assert mission.primary == "hidden-supplies"
    assert sorted(mission.hidden_supplies_corners) == ["bottom left", "bottom right", "top left", "top right"]
    rolloff = mission.hidden_supplies_rolloff
    assert rolloff is not None and rolloff.winner in (make_table.P1, make_table.P2)


def test_rolloff_ties_are_rolled_again(make_table):
    seed = make_table.find_seed(lambda s: len(make_table(seed=s).state.sides_rolloff.rolls) >= 3, "tie")
    rolloff = make_table(seed=seed).state.sides_rolloff
    *ties, last = rolloff.rolls
    assert all(x == y for x, y in ties)
    assert last[0] != last[1]
    assert rolloff.winner == (make_table.P1 if last[0] > last[1] else make_table.P2)
    assert all(1 <= d <= 6 for roll in rolloff.rolls for d in roll)


def test_rolloff_winner_is_the_higher_roll_for_either_player(make_table):
    winners = set()
    for seed in SEEDS:
        t = make_table(seed=seed)
        t.to_battle()
        for rolloff in (t.state.sides_rolloff, t.state.first_turn_rolloff):
            x, y = rolloff.rolls[-1]
            assert rolloff.winner == (make_table.P1 if x > y else make_table.P2)
            winners.add(rolloff.winner)
    assert winners == {make_table.P1, make_table.P2}


def test_only_the_sides_rolloff_winner_chooses(table):
    winner = table.state.sides_rolloff.winner
    loser = table.other(winner)
    table.refuse("choose_side", loser, error=NotYourTurn, match="won the roll-off and chooses", side="attacker")
    table.act("choose_side", winner, side="defender")
    assert (table.state.attacker, table.state.defender) == (loser, winner)
    table.refuse("choose_side", winner, error=WrongPhase, match="already decided", side="attacker")


def test_asymmetric_war_attacker_goes_first(make_table):
    def asymmetric(seed):
        return make_table(seed=seed, size="asymmetric-war", mission=None)

    # Whoever would win a first-turn roll-off, the Attacker goes first: make that player the Defender.
    for t in (asymmetric("asym-1"), asymmetric("asym-2")):
        would_win = roll_off(t.setup, "first-turn").winner
        t.to_battle(attacker=t.other(would_win))
        assert t.state.first == t.state.attacker != would_win
        assert t.state.first_turn_rolloff is None  # no roll-off is made


@pytest.mark.parametrize("winner_is", ["attacker", "defender"])
def test_otherwise_the_first_turn_rolloff_winner_goes_first(make_table, winner_is):
    t = make_table()
    winner = roll_off(t.setup, "first-turn").winner
    t.to_battle(attacker=winner if winner_is == "attacker" else t.other(winner))
    assert t.state.first == winner == t.state.first_turn_rolloff.winner
