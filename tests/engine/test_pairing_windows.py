"""Big events: players of a window the matching cannot tell apart are paired off before it runs
(bot.engine.tournament.pairing._pair_interchangeable). The pairing must stay as good, on every level but the random
one, as the matching of the whole window."""

from __future__ import annotations

import random
from unittest.mock import patch

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.engine.tournament import pairing as tp
from bot.engine.tournament.event import PlayerRecord, records
from tests.engine.test_tournament_pairing import simulate


def field_of(recs: dict[str, PlayerRecord], rnd: random.Random) -> tp._Field:
    active = sorted(p for p, r in recs.items() if not r.dropped)
    return tp._Field.build(recs, active, {p: rnd.random() for p in active}, rnd)


def levels(field: tp._Field, pairs: list[tuple[str, str]], left: list[str], below: int) -> tuple[int, int, int]:
    """What the matching maximises, level by level, without the random tie-break."""
    return (
        len(pairs),
        -sum(tp._pair_cost(field, a, b) for a, b in pairs) - sum(tp._float_cost(field, p, below) for p in left),
        -sum(field.path_distance(a, b) for a, b in pairs),
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.integers(30, 90), st.integers(1, 5), st.sampled_from([0.0, 0.1]),
       st.integers(4, 44), st.data())
def test_a_shrunk_window_pairs_as_well_as_the_whole_window(rnd, players, rounds, draws, size, data) -> None:
    recs = records(simulate(rnd, players, rounds, 0.0, draws))
    field = field_of(recs, rnd)
    start = data.draw(st.integers(0, max(0, len(field.order) - size)))
    window = field.order[start : start + size]
    below = field.below(window[-1])
    settled, free = tp._pair_interchangeable(field, window)
    event(f"paired off before the matching: {'some' if settled else 'none'}")
    assert sorted([p for ab in settled for p in ab] + free) == sorted(window)
    shrunk = tp._solve(field, window, below, allow_rematch=False)
    with patch.object(tp, "_pair_interchangeable", lambda _field, players: ([], list(players))):
        whole = tp._solve(field, window, below, allow_rematch=False)
    assert levels(field, *shrunk, below) == levels(field, *whole, below)
    assert not any(b in field.met[a] for a, b in shrunk[0])


def test_a_big_bracket_of_strangers_leaves_the_matching_two_or_three_players() -> None:
    recs = {f"p{i:02d}": PlayerRecord(player=f"p{i:02d}", wins=1, path="W", opponents=(f"x{i}",))
            for i in range(1, 20)}
    recs["p00"] = PlayerRecord(player="p00", wins=1, path="W", opponents=("q0",))
    recs["q0"] = PlayerRecord(player="q0", wins=1, path="W", opponents=("p00",))  # both won: a drop in records
    field = field_of(recs, random.Random(1))
    strangers = [p for p in field.order if p not in ("p00", "q0")]  # 19 who met nobody here
    settled, free = tp._pair_interchangeable(field, strangers)
    assert len(settled) == 8 and len(free) == 3  # an odd class keeps three
    settled, free = tp._pair_interchangeable(field, strangers[:18])
    assert len(settled) == 8 and len(free) == 2
    # p00 and q0 met: with them in the window (D = 2) the class keeps up to D + 2, as many as its parity allows.
    settled, free = tp._pair_interchangeable(field, field.order)
    assert {"p00", "q0"} <= set(free) and len(free) == 2 + 3 and len(settled) == 8
    settled, free = tp._pair_interchangeable(field, [p for p in field.order if p != strangers[-1]])
    assert {"p00", "q0"} <= set(free) and len(free) == 2 + 4 and len(settled) == 7
