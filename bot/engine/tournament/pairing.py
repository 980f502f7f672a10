"""Swiss pairing for events of 8 to 1,000+ players (Tournament Companion, "Pairing Players").

Round 1 is random. Later rounds pair by record, then by win path, then at random among equals, and never
repeat a pairing while a pairing of the whole field without a rematch exists.

How a round is paired
---------------------
1. The bye (odd field) goes to the lowest-ranked active player (standings order: record, opponents' win
   percentage, VP, then random) who has not had one; if everyone has had one, the lowest-ranked. A candidate
   is skipped when the others could then not be paired without a rematch but would be with a later candidate.
2. The others are put in order: record (best first), then win path read from the most recent round
   backwards (so players with the same recent history sit together), then random. Equal W-D-L is a
   "bracket"; brackets are numbered 0, 1, 2... from the top.
3. The order is cut into windows: small brackets are packed together, big brackets are cut into chunks of
   about `chunk` players (never fewer than 2r+3 after r rounds: each player has met at most r of them, so by
   Dirac's theorem the chunk can always be paired without a rematch). Windows are paired top-down with
   networkx's maximum-weight matching on the graph of players who have not met; whoever a window leaves
   unpaired is carried into the next one (a pair-down, or "float"). Before the matching runs, players it
   could not tell apart (same bracket and win path, none of them met here) are paired off among themselves
   but for the few a best pairing may need elsewhere (`_pair_interchangeable`), which keeps windows of big
   brackets small for the matching (bench/bench_pairing.py times a 4,096-player event).
4. A window is accepted when history cost it no pair: at most one player left over, and not one carried in
   from a higher bracket. Otherwise a rematch is in the way, and the window is merged with the one above and
   re-paired together (up to 3 x chunk players), which may float another player instead. If players are
   still unpaired at the bottom, the whole field is paired at once; only if that fails too are rematches
   allowed, each at a penalty above every other criterion, and counted.
5. Tables are numbered from 1, the best records first; pins and fresh tables re-seat pairs (`seating`).

Friendly fire (`avoid_clubs`): two players of one club are avoided like a rematch wherever a rematch is (the
bye, the windows, the whole field); in the last resort a club pair costs one level less than a rematch, so
rematches stay as few as without the rule. Round 1 stays the shuffle unless it seats club mates together; then
those pairs and enough others are re-paired by a matching of players of different clubs (`_first_round_clubs`).

What is guaranteed: no rematch while the field (less the bye) can be paired without one, and otherwise the
fewest rematches for the chosen bye; with `avoid_clubs`, the same for rematches and club pairs together.
Fields of up to `exact_limit` players are one window, so the pairing is the exact optimum of the weights below
(tests compare it with an exhaustive search). Larger fields are optimal window by window;
bench/bench_pairing.py reports their pair-downs against the fewest possible without history.

Edge weights (integers, each level scaled above the sum of all lower ones, so the order is strict):
  1. not a rematch (only in the last-resort graph), then, with `avoid_clubs`, not a club pair;
  2. record: a pair costs d^2 where d is the distance in brackets, and leaving a player unpaired costs
     d^2 + d where d is the distance to the bracket below the window (a float pairs down at least that
     far later, and floats no further than it must). Squaring makes two one-bracket pair-downs
     cheaper than one two-bracket pair-down, so floats cascade bracket by bracket (a 3-0 player meets a
     2-1 player, never a 1-2 one, when a 2-1 player is free);
  3. win path: a mismatch in round k from the end costs 2^(L-k), so one difference in a later round
     outweighs all differences in earlier rounds together. Identical paths cost 0; otherwise the longest
     common recent history wins, which is what the Companion asks for ("recent common experiences");
  4. a small random number; with the players already in random order among equals (step 2), equal
     choices are settled by the round's `random.Random`. (A wide random span would slow the matching
     several times over for no fairness gain.)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

from bot.engine.errors import InvalidValue
from bot.engine.models import Frozen
from bot.engine.tournament.ranking import MAX_GAME_VP, Outcome, PlayerRecord, Result, opponents_win_rate
from bot.engine.tournament.rules import club_keys, club_mates
from bot.engine.tournament.seating import seat_tables

CHUNK = 32
EXACT_LIMIT = 40
RANDOM_SPAN = 4


class Pairing(Frozen):
    table: int
    a: str
    b: str


class Pairings(Frozen):
    round_number: int
    tables: tuple[Pairing, ...]
    bye: Result | None = None
    rematches: int = 0
    pair_downs: int = 0


def pair_round(
    records: Mapping[str, PlayerRecord],
    round_number: int,
    rng: random.Random,
    bye_vp: int,
    *,
    chunk: int = CHUNK,
    exact_limit: int = EXACT_LIMIT,
    clubs: Mapping[str, str] | None = None,
    avoid_clubs: bool = False,
    pins: Mapping[str, int] | None = None,
    fresh_tables: bool = False,
    previous_tables: Mapping[str, Collection[int]] | None = None,
) -> Pairings:
    """Pair the active (not dropped) players of `records` for `round_number`: with `avoid_clubs`, players of one
    club in `clubs` (player -> club name) are kept apart while the field allows; `pins` (player -> table) and
    `fresh_tables` (against `previous_tables`, player -> tables played) decide the table numbers."""
    active = sorted(p for p, r in records.items() if not r.dropped)
    if len(active) < 2:
        raise InvalidValue("At least two active players are needed to pair a round.")
    if round_number < 1:
        raise InvalidValue("Rounds are numbered from 1.")
    if not 0 <= bye_vp <= MAX_GAME_VP:
        raise InvalidValue(f"The bye's VP must be between 0 and {MAX_GAME_VP}; got {bye_vp}.")
    tiebreak = {p: rng.random() for p in active}  # drawn in id order: reproducible from the seed
    mates = club_mates(clubs, active) if avoid_clubs else {}
    if not any(mates.values()):
        mates = {}  # nobody has a club mate here: pair exactly as without the rule
    if round_number == 1:
        rng.shuffle(active)
        bye = active.pop() if len(active) % 2 else None
        pairs = [(active[i], active[i + 1]) for i in range(0, len(active), 2)]
        if mates and any(b in mates[a] for a, b in pairs):
            pairs, bye = _first_round_clubs(pairs, bye, club_keys(clubs, list(mates)), rng)
        field = _Field.build(records, [p for ab in pairs for p in ab], tiebreak, rng, mates)
    else:
        bye = _choose_bye(records, active, tiebreak, mates) if len(active) % 2 else None
        field = _Field.build(records, [p for p in active if p != bye], tiebreak, rng, mates)
        pairs = _pair(field, chunk, exact_limit)
    pairs.sort(key=lambda ab: sorted(field.position[p] for p in ab))
    numbers = list(range(1, len(pairs) + 1))
    if pins or fresh_tables:
        numbers = seat_tables(pairs, previous_tables or {}, pins or {}, fresh_tables).tables
    return Pairings(
        round_number=round_number,
        tables=tuple(sorted((Pairing(table=i, a=a, b=b) for i, (a, b) in zip(numbers, pairs, strict=True)),
                            key=lambda x: x.table)),
        bye=None if bye is None else Result(
            round_number=round_number, table=0, a=bye, outcome=Outcome.A_WINS, vp_a=bye_vp
        ),
        rematches=sum(b in field.met[a] for a, b in pairs),
        pair_downs=sum(field.bracket[a] != field.bracket[b] for a, b in pairs),
    )


@dataclass(frozen=True)
class _Field:
    """The active players in pairing order, with what the weights need."""

    records: Mapping[str, PlayerRecord]
    order: list[str]
    position: dict[str, int]
    bracket: dict[str, int]
    met: dict[str, frozenset[str]]
    path_span: int  # above any path distance
    rng: random.Random
    mates: Mapping[str, frozenset[str]]  # club mates, with `avoid_clubs` (empty without)
    avoid: dict[str, frozenset[str]]  # who each may not meet in the strict phase: opponents, and club mates

    @classmethod
    def build(
        cls, records: Mapping[str, PlayerRecord], players: list[str], tiebreak: dict[str, float], rng: random.Random,
        mates: Mapping[str, frozenset[str]] | None = None,
    ) -> _Field:
        order = sorted(
            players, key=lambda p: (tuple(-k for k in records[p].record_key), records[p].path[::-1], tiebreak[p])
        )
        bracket: dict[str, int] = {}
        index, previous = -1, None
        for p in order:
            if records[p].record != previous:
                index, previous = index + 1, records[p].record
            bracket[p] = index
        mates = mates or {}
        met = {p: frozenset(records[p].opponents) for p in players}
        return cls(
            records=records,
            order=order,
            position={p: i for i, p in enumerate(order)},
            bracket=bracket,
            met=met,
            path_span=1 << max(len(records[p].path) for p in players),
            rng=rng,
            mates=mates,
            avoid={p: met[p] | mates[p] for p in players} if mates else met,
        )

    def path_distance(self, a: str, b: str) -> int:
        pa, pb = self.records[a].path, self.records[b].path
        n = max(len(pa), len(pb))
        pa, pb = pa.rjust(n, "-"), pb.rjust(n, "-")  # aligned on the latest round; missing rounds differ
        return sum(1 << i for i, (x, y) in enumerate(zip(pa, pb, strict=True)) if x != y)

    def below(self, last: str) -> int:
        """The bracket a player left unpaired by a window ending at `last` floats into."""
        i = self.position[last] + 1
        return self.bracket[self.order[i]] if i < len(self.order) else self.bracket[last] + 1


def _choose_bye(
    records: Mapping[str, PlayerRecord], active: list[str], tiebreak: dict[str, float],
    mates: Mapping[str, frozenset[str]],
) -> str:
    """The lowest-ranked candidate who leaves a field without rematch or club pair; failing that, one who leaves
    a field without rematch; failing that, the lowest-ranked."""
    owp = {p: opponents_win_rate(records[p], records) for p in active}
    candidates = sorted(
        active, key=lambda p: (records[p].had_bye, records[p].record_key, owp[p], records[p].vp, tiebreak[p])
    )
    opponents = {p: frozenset(records[p].opponents) for p in active}
    tiers = [{p: opponents[p] | mates[p] for p in active}, opponents] if mates else [opponents]
    for avoid in tiers:
        for c in candidates:
            if _rematch_free_possible(avoid, [p for p in active if p != c]):
                return c
    return candidates[0]


def _rematch_free_possible(avoid: Mapping[str, frozenset[str]], players: list[str]) -> bool:
    """Whether `players` can all be paired, none with someone in their `avoid` set."""
    n = len(players)
    group = set(players)
    met = {p: group.intersection(avoid[p]) for p in players}
    if all(n - 1 - len(met[p]) >= n / 2 for p in players):
        return True  # Dirac: minimum degree >= n/2 gives a Hamiltonian cycle, so a perfect matching
    graph = nx.Graph()
    graph.add_edges_from((a, b) for i, a in enumerate(players) for b in players[i + 1 :] if b not in met[a])
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == n


def _first_round_clubs(
    pairs: list[tuple[str, str]], bye: str | None, keys: Mapping[str, str], rng: random.Random
) -> tuple[list[tuple[str, str]], str | None]:
    """Round 1 when the shuffle seats club mates together. With no history, the field pairs without a club pair
    when no club holds more than half of it, and otherwise needs (biggest club - half) club pairs. The bye goes to
    a player who makes that smallest (the shuffle's bye if it does); the club pairs that must be are made inside
    the biggest club; the shuffle's other club pairs, with as few of its clean pairs as let them pair cleanly,
    are re-paired by a maximum-cardinality matching of players of different clubs, with random weights."""
    order = [p for ab in pairs for p in ab] + ([bye] if bye else [])
    counts = Counter(keys[p] for p in order if keys[p])
    half = (len(order) - (bye is not None)) // 2

    def forced(left_out: str | None) -> int:  # the club pairs any pairing of the field less `left_out` has
        own = keys[left_out] if left_out else ""
        return max(0, max((n - (k == own) for k, n in counts.items()), default=0) - half)

    if bye is not None:
        fewest = min(forced(p) for p in order)
        if forced(bye) > fewest:
            new = next(p for p in reversed(order) if forced(p) == fewest)
            pairs = [(bye if a == new else a, bye if b == new else b) for a, b in pairs]
            bye = new
    reserved: list[tuple[str, str]] = []
    if excess := forced(bye):
        own = keys[bye] if bye else ""
        big = max(counts, key=lambda k: counts[k] - (k == own))
        reserved = [ab for ab in pairs if keys[ab[0]] == keys[ab[1]] == big][:excess]
        taken = {p for ab in reserved for p in ab}
        more = [p for ab in pairs for p in ab if keys[p] == big and p not in taken][: 2 * (excess - len(reserved))]
        reserved += zip(more[::2], more[1::2], strict=True)
    taken = {p for ab in reserved for p in ab}
    clean = [ab for ab in pairs if not taken & set(ab) and (not keys[ab[0]] or keys[ab[0]] != keys[ab[1]])]
    kept = {p for ab in clean for p in ab}
    window = [p for ab in pairs for p in ab if p not in taken and p not in kept]
    in_window = Counter(keys[p] for p in window if keys[p])
    while clean and 2 * max(in_window.values(), default=0) > len(window):
        top = max(in_window, key=in_window.__getitem__)
        ab = next((ab for ab in clean if top not in (keys[ab[0]], keys[ab[1]])), clean[0])
        clean.remove(ab)
        window += ab
        in_window.update(keys[p] for p in ab if keys[p])
    graph = nx.Graph()
    graph.add_nodes_from(window)
    graph.add_weighted_edges_from(
        (a, b, rng.randrange(RANDOM_SPAN))
        for i, a in enumerate(window) for b in window[i + 1 :] if not keys[a] or keys[a] != keys[b]
    )
    position = {p: i for i, p in enumerate(order)}
    matched = [tuple(sorted(e, key=position.__getitem__)) for e in nx.max_weight_matching(graph, maxcardinality=True)]
    left = [p for p in window if p not in {q for ab in matched for q in ab}]  # none: the window pairs cleanly
    return reserved + clean + [(a, b) for a, b in matched] + list(zip(left[::2], left[1::2], strict=True)), bye


@dataclass
class _Window:
    start: int  # first of the ordered players it owns (it owns them up to the next window's start)
    carry_in: list[str]  # players floated in from above
    pairs: list[tuple[str, str]]


def _pair(field: _Field, chunk: int, exact_limit: int) -> list[tuple[str, str]]:
    rest = field.order
    smallest = 2 * max(len(field.avoid[p]) for p in rest) + 3  # a chunk this big always pairs (Dirac)
    windows = [(0, len(rest))] if len(rest) <= exact_limit else _windows(field, rest, chunk, smallest)
    done: list[_Window] = []
    carry: list[str] = []
    for start, end in windows:
        carry_in = carry
        while True:
            players = carry_in + rest[start:end]
            below = field.below(rest[end - 1])
            pairs, left = _solve(field, players, below, allow_rematch=False)
            # A window is done when history cost it no pair: at most one player left (odd count), and not
            # one who floated in from a higher bracket (and would float again). Otherwise a rematch is in
            # the way, which re-pairing together with the window above may avoid (by floating another).
            top = field.bracket[rest[start]]
            complete = len(left) == len(players) % 2 and all(field.bracket[p] >= top for p in left)
            if complete or not done or end - done[-1].start > 3 * max(chunk, smallest):
                break
            previous = done.pop()
            start, carry_in = previous.start, previous.carry_in
        done.append(_Window(start, carry_in, pairs))
        carry = left
    if not carry:
        return [p for w in done for p in w.pairs]
    below = field.below(rest[-1])
    if len(windows) > 1:
        pairs, left = _solve(field, rest, below, allow_rematch=False)
        if not left:
            return pairs
    return _solve(field, rest, below, allow_rematch=True)[0]


def _windows(field: _Field, rest: list[str], chunk: int, smallest: int) -> list[tuple[int, int]]:
    """Slices of `rest`: big brackets cut into chunks of about `chunk` (at least `smallest`) players,
    consecutive small brackets packed together."""
    pieces: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(rest) + 1):
        if i == len(rest) or field.bracket[rest[i]] != field.bracket[rest[start]]:
            size = i - start
            count = max(1, min(-(-size // chunk), size // smallest))
            cuts = [start + size * k // count for k in range(count + 1)]
            pieces += zip(cuts, cuts[1:], strict=False)
            start = i
    windows: list[tuple[int, int]] = []
    for s, e in pieces:
        if windows and e - windows[-1][0] <= chunk:
            windows[-1] = (windows[-1][0], e)
        else:
            windows.append((s, e))
    return windows


def _float_cost(field: _Field, player: str, below: int) -> int:
    """d^2 + d: like pairing d brackets down, plus d so that pairing now beats floating on."""
    d = below - field.bracket[player]
    return d * d + d


def _pair_cost(field: _Field, a: str, b: str) -> int:
    return (field.bracket[a] - field.bracket[b]) ** 2


def _solve(
    field: _Field, players: Sequence[str], below: int, *, allow_rematch: bool
) -> tuple[list[tuple[str, str]], list[str]]:
    """Maximum-weight maximum-cardinality matching of `players`; returns the pairs and who is left."""
    settled, players = _pair_interchangeable(field, players)
    # One unit of each level outweighs the lower levels summed over any matching (at most pairs_max pairs).
    pairs_max = len(players) // 2 + 1
    brackets = max(field.bracket[p] for p in players) + 2
    per_path = pairs_max * RANDOM_SPAN
    per_record = per_path * pairs_max * (field.path_span + 1)
    per_fresh = per_record * pairs_max * (5 * brackets * brackets + 1)
    per_club = 0
    if field.mates:  # a club pair costs less than a rematch, more than all lower levels (weights unchanged without)
        per_club, per_fresh = per_fresh, per_fresh * (pairs_max + 1)
    graph = nx.Graph()
    graph.add_nodes_from(players)
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            if not allow_rematch and b in field.avoid[a]:
                continue
            fresh = b not in field.met[a]
            record = (
                _float_cost(field, a, below) + _float_cost(field, b, below)
                - _pair_cost(field, a, b) + brackets * brackets
            )
            path = field.path_span - field.path_distance(a, b)
            graph.add_edge(
                a, b,
                weight=fresh * per_fresh + (b not in field.mates.get(a, ())) * per_club + record * per_record
                + path * per_path + field.rng.randrange(RANDOM_SPAN),
            )
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = settled + [tuple(sorted(e, key=field.position.__getitem__)) for e in matched]
    paired = {p for ab in pairs for p in ab}
    return sorted(pairs, key=lambda ab: field.position[ab[0]]), [p for p in players if p not in paired]


def _pair_interchangeable(field: _Field, players: Sequence[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """Pair off players the matching cannot tell apart, leaving it the few it needs; returns (pairs, rest).

    Players of one bracket and win path who have met nobody among `players` ("clean") have the same weight
    to everyone (the random level aside), so which of them sit where does not matter, only how many are
    paired outside their class. Some best pairing pairs all but 1 + min(max(2, D + 1), 2M + 2) of a class
    among themselves, D being the number of players here who have met someone here, and M the most any
    of them has met here:
    - two of the class are never both left unpaired (they could meet);
    - if two of the class are paired with partners u and v on the same side of their bracket (or level with
      it) who have not met, pairing u with v and the two together costs no more: the squared bracket
      distance of u and v is at most the sum of theirs, and the path distance is a metric. Without such a
      swap the partners on each side have all met one another: at most M + 1 of them, and a clean one alone
      (so two clean partners at most, or one and up to D others).
    The rest are paired in order (random among equals), and big brackets shrink to a few players. With
    `avoid_clubs`, club mates count as having met (`field.avoid`), and the argument holds as it is.
    """
    group = set(players)
    met = {p: len(field.avoid[p] & group) for p in players}
    met_here = {p for p in players if met[p]}
    keep = 1 + min(max(2, len(met_here) + 1), 2 * max(met.values(), default=0) + 2)
    classes: dict[tuple[int, str], list[str]] = {}
    for p in players:
        if p not in met_here:
            classes.setdefault((field.bracket[p], field.records[p].path), []).append(p)
    pairs: list[tuple[str, str]] = []
    for members in classes.values():
        cut = max(0, len(members) - keep + (len(members) - keep) % 2)  # even: pairs take two
        pairs += zip(members[:cut:2], members[1:cut:2], strict=True)
    settled = {p for ab in pairs for p in ab}
    return pairs, [p for p in players if p not in settled]
