"""The organiser's pairing rules: friendly fire, fresh tables and pins, checked against brute force on small fields;
pairing stays as it was when the rules are off."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from bot.engine.tournament.event import (
    Outcome,
    Pairings,
    PlayerRecord,
    Tournament,
    add_player,
    record_result,
    records,
    repair_round,
    start_round,
    tables_played,
)
from bot.engine.tournament.pairing import pair_round
from bot.engine.tournament.rules import PairingRules, avoids_clubs, club_key, club_mates
from bot.engine.tournament.seating import seat_tables
from tests.engine.test_tournament_pairing import active_players, all_matchings, check_complete, scores_for, simulate

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CLUB_NAMES = ["", "Iron Wolves", " iron wolves", "Ravens", "Crows", "  "]


def entered(players: int) -> Tournament:
    t = Tournament(bye_vp=50)
    for i in range(players):
        t = add_player(t, f"p{i}")
    return t


def play_results(t: Tournament, rnd: random.Random) -> Tournament:
    for table in t.rounds[-1].pairings.tables:
        outcome = rnd.choice(list(Outcome))
        t = record_result(t, table.table, outcome, *scores_for(rnd, outcome))
    return t


def bad_pairs(recs: dict[str, PlayerRecord], mates: dict[str, frozenset[str]], pairs) -> tuple[int, int]:
    """(rematches, club pairs) of a pairing."""
    return sum(b in recs[a].opponents for a, b in pairs), sum(b in mates[a] for a, b in pairs)


def fewest(recs, mates, players: list[str]) -> tuple[int, int]:
    """The fewest rematches, then the fewest club pairs, of any pairing of `players` (brute force)."""
    return min(bad_pairs(recs, mates, m) for m in all_matchings(players))


def pairs_of(pairings: Pairings) -> list[tuple[str, str]]:
    return [(x.a, x.b) for x in pairings.tables]


# --- friendly fire ------------------------------------------------------------------------------------


@SETTINGS
@given(st.randoms(use_true_random=False), st.integers(4, 9), st.integers(1, 5), st.sampled_from(["first", "every"]),
       st.data())
def test_club_mates_meet_only_when_no_pairing_of_the_field_keeps_them_apart(rnd, players, rounds, rule, data) -> None:
    """Every round the rule covers: no club pair and no rematch while some bye leaves a field that pairs without
    either; otherwise no rematch while one leaves a field without rematch; and the fewest of each for the bye chosen
    (round 1: the fewest club pairs of any bye). Brute force over every bye and every pairing decides."""
    clubs = {f"p{i}": data.draw(st.sampled_from(CLUB_NAMES)) for i in range(players)}
    rules = PairingRules(friendly_fire=rule)
    t = entered(players)
    for number in range(1, rounds + 1):
        recs = records(t)
        t = start_round(t, rnd, rules=rules, clubs=clubs)
        pairings = t.rounds[-1].pairings
        check_complete(pairings, recs)
        everyone = active_players(recs)
        mates = club_mates(clubs, everyone) if avoids_clubs(rules, number) else {p: frozenset() for p in everyone}
        ours = bad_pairs(recs, mates, pairs_of(pairings))
        byes = everyone if len(everyone) % 2 else [None]
        options = {bye: fewest(recs, mates, [p for p in everyone if p != bye]) for bye in byes}
        bye = pairings.bye.a if pairings.bye else None
        if (0, 0) in options.values():
            assert ours == (0, 0)
        elif any(rematches == 0 for rematches, _ in options.values()):
            assert ours[0] == 0
        assert ours == options[bye]  # the fewest for the bye chosen
        if number == 1:
            assert ours == min(options.values())
        t = play_results(t, rnd)


@SETTINGS
@given(st.randoms(use_true_random=False), st.integers(2, 24), st.data())
def test_round_one_is_the_shuffle_unless_it_pairs_club_mates(rnd, players, data) -> None:
    """Round 1 is today's random pairing whenever it has no club pair; otherwise it has the fewest club pairs any
    bye and pairing allow (no club holding more than half the field: none)."""
    recs = {f"p{i}": PlayerRecord(player=f"p{i}") for i in range(players)}
    clubs = {p: data.draw(st.sampled_from(CLUB_NAMES)) for p in recs}
    seed = rnd.random()
    plain = pair_round(recs, 1, random.Random(seed), 50)
    ruled = pair_round(recs, 1, random.Random(seed), 50, clubs=clubs, avoid_clubs=True)
    check_complete(ruled, recs)
    mates = club_mates(clubs, list(recs))
    if not bad_pairs(recs, mates, pairs_of(plain))[1]:
        assert ruled == plain
        return
    sizes = Counter(club_key(c) for c in clubs.values() if club_key(c))
    paired = players - players % 2
    biggest = max(sizes.values()) - (players % 2 == 1)  # the bye may come from the biggest club
    assert bad_pairs(recs, mates, pairs_of(ruled))[1] == max(0, biggest - paired // 2)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.integers(12, 30), st.integers(1, 5), st.integers(2, 10), st.data())
def test_windowed_pairing_keeps_clubs_apart_whenever_the_field_allows(rnd, players, rounds, chunk, data) -> None:
    """The large-field path (window by window): no club pair nor rematch when the field less the bye pairs without
    either, and never more rematches than the fewest possible (networkx maximum matching as the reference)."""
    t = simulate(rnd, players, rounds, 0.0, 0.1)
    clubs = {p: data.draw(st.sampled_from(["", "A", "B", "C", "a "])) for p in t.players}
    recs = records(t)
    pairings = pair_round(recs, rounds + 1, rnd, 50, chunk=chunk, exact_limit=0, clubs=clubs, avoid_clubs=True)
    check_complete(pairings, recs)
    rest = [p for p in active_players(recs) if not pairings.bye or p != pairings.bye.a]
    mates = club_mates(clubs, rest)

    def most_pairs(allowed) -> int:
        graph = nx.Graph()
        graph.add_edges_from((a, b) for a in rest for b in rest if a < b and allowed(a, b))
        return len(nx.max_weight_matching(graph, maxcardinality=True))

    rematches, club_pairs = bad_pairs(recs, mates, pairs_of(pairings))
    if most_pairs(lambda a, b: b not in recs[a].opponents and b not in mates[a]) == len(rest) // 2:
        assert rematches == club_pairs == 0
    assert rematches == len(rest) // 2 - most_pairs(lambda a, b: b not in recs[a].opponents)


@SETTINGS
@given(st.randoms(use_true_random=False), st.integers(2, 17), st.integers(0, 4), st.data())
def test_rules_off_pair_exactly_as_before(rnd, players, rounds, data) -> None:
    """No rule, or a rule with nothing to act on, changes nothing: the same rng gives the same pairings."""
    t = simulate(rnd, players, rounds, 0.0, 0.1)
    recs = records(t)
    clubs = {p: data.draw(st.sampled_from(CLUB_NAMES)) for p in t.players}
    lone = {p: f"club {i}" for i, p in enumerate(t.players)}  # nobody has a club mate
    seed, number = rnd.random(), rounds + 1
    plain = pair_round(recs, number, random.Random(seed), 50)
    for kwargs in ({"clubs": clubs}, {"clubs": clubs, "avoid_clubs": False, "pins": {}, "fresh_tables": False},
                   {"clubs": lone, "avoid_clubs": True}, {"avoid_clubs": True}):
        assert pair_round(recs, number, random.Random(seed), 50, **kwargs) == plain
    if rounds:  # friendly fire "first" is over after round 1
        first = start_round(t, random.Random(seed), rules=PairingRules(friendly_fire="first"), clubs=clubs)
        assert first == start_round(t, random.Random(seed))
    assert start_round(t, random.Random(seed), rules=PairingRules()) == start_round(t, random.Random(seed))


def test_rules_model_and_club_names() -> None:
    rules = PairingRules()
    assert (rules.friendly_fire, rules.fresh_tables) == ("off", False)
    with pytest.raises(ValidationError):
        PairingRules(friendly_fire="sometimes")
    with pytest.raises(ValidationError):
        rules.fresh_tables = True  # type: ignore[misc]
    assert [avoids_clubs(PairingRules(friendly_fire=f), n) for f in ("off", "first", "every") for n in (1, 2)] == [
        False, False, True, False, True, True]
    assert not avoids_clubs(None, 1)
    assert club_key("  Iron Wolves ") == club_key("iron wolves") == "iron wolves" and club_key(" ") == ""
    assert club_mates({"a": "X", "b": " x", "c": "", "d": "Y"}, ["a", "b", "c", "d", "e"]) == {
        "a": {"b"}, "b": {"a"}, "c": set(), "d": set(), "e": set()}


def test_a_club_of_more_than_half_the_field_meets_itself_as_little_as_possible() -> None:
    # Six of one club, three others, no history: the bye goes to the club and 8 players need (5 - 4) = 1 club pair.
    recs = {f"p{i}": PlayerRecord(player=f"p{i}") for i in range(9)}
    clubs = {f"p{i}": "Ravens" for i in range(6)}
    for seed in range(30):
        pairings = pair_round(recs, 1, random.Random(seed), 0, clubs=clubs, avoid_clubs=True)
        assert pairings.bye is not None and pairings.bye.a in clubs
        assert sum(x.a in clubs and x.b in clubs for x in pairings.tables) == 1


# --- tables -------------------------------------------------------------------------------------------


def kept_pins(pairs: list[tuple[str, str]], pins: dict[str, int]) -> tuple[dict[int, int], list[str]]:
    """Pair index -> pinned table, reading pins best pair first, player a first; and the pins dropped."""
    n, fixed, unkept = len(pairs), {}, []
    for i, pair in enumerate(pairs):
        for p in pair:
            if p in pins:
                t = pins[p]
                if 1 <= t <= n and fixed.get(i, t) == t and all(t != u or j == i for j, u in fixed.items()):
                    fixed[i] = t
                else:
                    unkept.append(p)
    return fixed, unkept


def check_seating(pairs, previous, pins, fresh, tables: list[int], unkept: list[str] | None = None) -> None:
    """Tables 1..n once each; kept pins hold; and as many pairs at a fresh table as any seating gives (brute force
    over every permutation), so all of them whenever a valid seating exists. Without `unkept` (pairs given in table
    order, so which pin came first is unknown), a pin may only be missed for a table beyond n, one another pin holds,
    or a partner's pin."""
    n = len(pairs)
    assert sorted(tables) == list(range(1, n + 1))
    if unkept is not None:
        fixed, dropped = kept_pins(pairs, pins)
        assert unkept == dropped
    else:
        fixed = {i: tables[i] for i, ab in enumerate(pairs) if any(pins.get(p) == tables[i] for p in ab)}
        for i, ab in enumerate(pairs):
            for p in ab:
                if p in pins and pins[p] != tables[i]:
                    assert not 1 <= pins[p] <= n or pins[p] in fixed.values() or i in fixed  # or their partner's pin
    assert all(tables[i] == t for i, t in fixed.items())

    def valid(order) -> int:
        return sum(i not in fixed and not any(order[i] in previous.get(p, ()) for p in pairs[i]) for i in range(n))

    if fresh:
        best = max(valid(order) for order in itertools.permutations(range(1, n + 1))
                   if all(order[i] == t for i, t in fixed.items()))
        assert valid(tables) == best
    if not fresh and not fixed:
        assert tables == list(range(1, n + 1))


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 6), st.data())
def test_seating_keeps_pins_and_fresh_tables_whenever_a_seating_allows(n, data) -> None:
    pairs = [(f"a{i}", f"b{i}") for i in range(n)]
    players = [p for ab in pairs for p in ab]
    tables = st.integers(1, n)
    previous = {p: data.draw(st.sets(tables, max_size=n)) for p in players}
    pins = data.draw(st.dictionaries(st.sampled_from(players + ["bye"]), st.integers(0, n + 1), max_size=3))
    fresh = data.draw(st.booleans())
    seating = seat_tables(pairs, previous, pins, fresh)
    check_seating(pairs, previous, pins, fresh, seating.tables, seating.unkept_pins)


def tables_of(t: Tournament) -> dict[str, set[int]]:
    return {p: set(ts) for p, ts in tables_played(t.rounds).items()}


@SETTINGS
@given(st.randoms(use_true_random=False), st.integers(4, 9), st.integers(1, 5), st.data())
def test_events_with_fresh_tables_and_pins_seat_players_as_the_rules_ask(rnd, players, rounds, data) -> None:
    """Through start_round: each round's seating is the best the brute force finds for the pairs chosen, against the
    tables each player played in the published rounds; pinned players sit at their tables when they can."""
    names = [f"p{i}" for i in range(players)]
    pins = data.draw(st.dictionaries(st.sampled_from(names), st.integers(1, players // 2), max_size=2))
    rules = PairingRules(fresh_tables=True)
    t = entered(players)
    for _ in range(rounds):
        previous = tables_of(t)
        t = start_round(t, rnd, rules=rules, pins=pins)
        pairings = t.rounds[-1].pairings
        pairs = pairs_of(pairings)
        check_seating(pairs, previous, pins, True, [x.table for x in pairings.tables])
        t = play_results(t, rnd)
    draft = start_round(t, rnd, rules=rules, pins=pins, published=False)
    again = repair_round(draft, rounds + 1, 0, random.Random(1), rules=rules, pins=pins).rounds[-1].pairings
    check_seating(pairs_of(again), tables_of(t), pins, True, [x.table for x in again.tables])


def test_seating_150_tables_is_fast_even_when_the_greedy_pass_fails() -> None:
    """Players who have played many tables already, and late pairs left one table each, which the greedy pass gives
    away: augmenting paths re-seat, and every pair gets a table it may use (networkx's Hopcroft-Karp agrees that
    all can)."""
    rnd = random.Random(7)
    n = 150
    pairs = [(f"a{i}", f"b{i}") for i in range(n)]
    previous = {p: set(rnd.sample(range(1, n + 1), 60)) for ab in pairs for p in ab}
    for i, table in ((149, 1), (148, 2), (147, 3)):
        previous[f"a{i}"] = set(range(1, n + 1)) - {table}
        previous[f"b{i}"].discard(table)
    pins = {"b5": 150}
    start = time.perf_counter()
    seating = seat_tables(pairs, previous, pins, True)
    took = time.perf_counter() - start
    assert sorted(seating.tables) == list(range(1, n + 1)) and seating.tables[5] == 150
    assert seating.tables[147:] == [3, 2, 1]
    graph = nx.Graph()  # the other pairs and tables (b5's pair holds table 150)
    others = set(range(n)) - {5}
    graph.add_nodes_from(others)
    graph.add_edges_from((i, -t) for i in others for t in range(1, n) if not any(t in previous[p] for p in pairs[i]))
    assert len(nx.bipartite.hopcroft_karp_matching(graph, top_nodes=others)) // 2 == n - 1
    assert all(not any(t in previous[p] for p in ab) for i, (ab, t) in enumerate(zip(pairs, seating.tables)) if i != 5)
    assert took < 0.5  # a few milliseconds in practice
