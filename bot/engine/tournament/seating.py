"""Table numbers for a round's pairs: pinned players at their tables, and with fresh tables, nobody at a table
number they have played at before, while a seating allows; otherwise as close to the pairing order as it can.

Pairs come in pairing order (best records first) and by default sit at tables 1..n in that order. Pins are
hard: a pinned pair keeps its table and the fresh-table rule yields to it. The other pairs take the lowest free
table they may use, in order; when that greedy pass leaves a pair without one, augmenting paths (Kuhn's
bipartite matching, started from the greedy seating) re-seat as few pairs as a shortest path needs, which seats
every pair whenever a valid seating exists. Pairs still without a valid table take the tables left, in order.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Seating:
    tables: list[int]  # the table of each pair, in the order the pairs were given
    unkept_pins: list[str]  # pinned players whose pin could not be kept (a table beyond n, or taken by a pin first)


def seat_tables(
    pairs: Sequence[tuple[str, str]],
    previous_tables: Mapping[str, Collection[int]],
    pins: Mapping[str, int],
    fresh: bool,
) -> Seating:
    """Seat `pairs` (in pairing order) at tables 1..n; see the module docstring."""
    n = len(pairs)
    table_of: list[int | None] = [None] * n
    owner: dict[int, int] = {}  # table -> pair seated there
    unkept: list[str] = []
    for i, pair in enumerate(pairs):
        for p in pair:
            if p not in pins:
                continue
            t = pins[p]
            if not 1 <= t <= n or table_of[i] not in (None, t) or owner.get(t, i) != i:
                unkept.append(p)  # the first pin read (best pair first, then player a) is kept
                continue
            table_of[i], owner[t] = t, i
    free = [t for t in range(1, n + 1) if t not in owner]

    def allowed(i: int, t: int) -> bool:
        return not fresh or not any(t in previous_tables.get(p, ()) for p in pairs[i])

    unseated: list[int] = []
    for i in range(n):
        if table_of[i] is None:
            table = next((t for t in free if t not in owner and allowed(i, t)), None)
            if table is None:
                unseated.append(i)
            else:
                table_of[i], owner[table] = table, i
    for i in unseated:
        _augment(i, free, owner, table_of, allowed)
    rest = iter(t for t in free if t not in owner)
    for i in range(n):
        if table_of[i] is None:
            table_of[i] = next(rest)
    return Seating(tables=[t for t in table_of if t is not None], unkept_pins=unkept)


def _augment(
    start: int, free: list[int], owner: dict[int, int], table_of: list[int | None], allowed: Callable[[int, int], bool]
) -> None:
    """Seat pair `start` along a shortest augmenting path (breadth first, lower tables first), if there is one."""
    came_from: dict[int, int] = {}  # table -> the pair that reached it
    queue = deque([start])
    while queue:
        i = queue.popleft()
        for t in free:
            if t in came_from or not allowed(i, t):
                continue
            came_from[t] = i
            if t not in owner:
                while True:  # shift each pair on the path to the table that reached it
                    j = came_from[t]
                    previous = table_of[j]
                    table_of[j], owner[t] = t, j
                    if j == start:
                        return
                    assert previous is not None
                    t = previous
            queue.append(owner[t])
