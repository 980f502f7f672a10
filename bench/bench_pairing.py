"""Pair a 4,096-player Swiss event over 8 rounds with random results and print what it took.

Run: .venv/bin/python -m bench.bench_pairing [--players N] [--rounds R] [--seed S] [--draws P] [--drops P]
Prints, per round: the time of `start_round` (fold the results, choose the bye, pair, build the round) and
its CPU time (steadier than the wall-clock time on a busy machine),
rematches (any rematch here is avoidable: the field is far larger than 2 x rounds, so a rematch-free
pairing always exists), pair-downs against the fewest the brackets would need if nobody had met (draws
make small brackets of players who drew each other, which must float), and tables whose two players have
the same win path. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import time

from bot.engine.tournament.event import (
    Outcome,
    Pairings,
    PlayerRecord,
    Tournament,
    add_player,
    drop_player,
    record_result,
    records,
    start_round,
)


def fewest_pair_downs(recs: dict[str, PlayerRecord], pairings: Pairings) -> int:
    """Pair-downs needed if nobody had met: one across each bracket boundary with an odd count above it."""
    if pairings.round_number == 1:
        return 0
    bye = pairings.bye.a if pairings.bye else None
    keys = sorted((r.record_key for p, r in recs.items() if not r.dropped and p != bye), reverse=True)
    return sum(keys[i] != keys[i + 1] and (i + 1) % 2 == 1 for i in range(len(keys) - 1))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2025)
    parser.add_argument("--draws", type=float, default=0.05, help="share of games drawn")
    parser.add_argument("--drops", type=float, default=0.01, help="share of active players dropping each round")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    t = Tournament(bye_vp=60)
    for i in range(args.players):
        t = add_player(t, str(100000000000000000 + i))
    print(f"{args.players} players, {args.rounds} rounds, seed {args.seed}, draws {args.draws:.0%}, "
          f"drops {args.drops:.0%} per round")
    print("round  active  pair s   cpu s  rematches  pair-downs (fewest w/o history)  same-path tables  bye")
    total_time = worst = 0.0
    total_rematches = 0
    for _ in range(args.rounds):
        recs = records(t)
        start, cpu = time.perf_counter(), time.process_time()
        t = start_round(t, rng)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        current = t.rounds[-1]
        p = current.pairings
        same_path = sum(recs[x.a].path == recs[x.b].path for x in p.tables)
        rematches = sum(x.b in recs[x.a].opponents for x in p.tables)  # counted here, not taken from p
        active = 2 * len(p.tables) + (p.bye is not None)
        print(f"{current.number:>5}  {active:>6}  {elapsed:>6.3f}  {cpu:>6.3f}  {rematches:>9}  "
              f"{p.pair_downs:>10} ({fewest_pair_downs(recs, p):>3})                {same_path:>5}/{len(p.tables):<5}  "
              f"{'yes' if p.bye else 'no'}")
        total_time += elapsed
        worst = max(worst, elapsed)
        total_rematches += rematches
        for x in p.tables:
            roll = rng.random()
            outcome = Outcome.DRAW if roll < args.draws else rng.choice([Outcome.A_WINS, Outcome.B_WINS])
            low, high = sorted(rng.sample(range(20, 101), 2))  # VP that agree with the outcome
            vp_a, vp_b = {Outcome.A_WINS: (high, low), Outcome.B_WINS: (low, high)}.get(outcome, (low, low))
            t = record_result(t, x.table, outcome, vp_a, vp_b)
        active_players = [q for q in t.players if q not in t.dropped]
        for q in rng.sample(active_players, int(len(active_players) * args.drops)):
            t = drop_player(t, q)
    print(f"summary: {args.rounds} rounds paired in {total_time:.2f} s total, worst round {worst:.3f} s "
          f"(target: under 2 s), {total_rematches} rematches (target: none)")


if __name__ == "__main__":
    main()
