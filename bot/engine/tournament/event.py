"""A Swiss event as immutable state: players, drops, rounds with their pairings, mission and results.

Each action returns a new `Tournament` or raises `InvalidValue` with a message for the organiser; the
state given is never changed. Pairing lives in `pairing`, records and standings in
`ranking`; this module checks the organiser's input and ties them together.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

from pydantic import Field

from bot.engine.errors import InvalidValue
from bot.engine.tournament.pairing import Pairing, Pairings, pair_round
from bot.engine.tournament.ranking import (
    MAX_GAME_VP,
    Frozen,
    Outcome,
    PlayerRecord,
    Reason,
    Result,
    Standing,
    outcome_of,
    player_records,
    rank_records,
)
from bot.engine.tournament.rules import PairingRules, avoids_clubs

__all__ = [
    "MISSION_LETTERS", "Outcome", "Pairing", "Pairings", "PlayerRecord", "Reason", "Result", "Round", "Standing",
    "Tournament", "add_player", "check_mission", "draft_round", "drop_player", "loser", "missing_tables",
    "outcome_of", "pick_mission", "publish_round", "records", "record_result", "reinstate_player", "repair_round",
    "standings", "start_round", "tables_played", "verdict",
]

# The Chapter Approved Tournament Mission Pool (Tournament Companion): missions A to T.
MISSION_LETTERS = tuple("ABCDEFGHIJKLMNOPQRST")
# The reasons a result may be recorded with (AS_ENTERED only comes from results stored before reasons).
REASON_WORDS = {Reason.SCORE: "score", Reason.CONCESSION: "concession", Reason.NO_SHOW: "no-show"}


class Round(Frozen):
    number: int = Field(ge=1)
    mission: str | None = Field(None, pattern=r"^[A-T]$", description="The round's pool mission (None: each table "
                                "plays its players' own, from their Force Dispositions)")
    pairings: Pairings
    results: tuple[Result, ...] = Field((), description="The bye's result is recorded when the round is paired")
    published: bool = Field(True, description="False while the organiser reviews the draft: nothing is public, "
                                              "no result can be reported")
    draw: int = Field(0, ge=0, description="How many times the draft was re-paired (names the pairing's rng stream)")


class Tournament(Frozen):
    players: tuple[str, ...] = ()
    dropped: tuple[str, ...] = ()
    bye_vp: int = Field(0, ge=0, le=MAX_GAME_VP)
    rounds: tuple[Round, ...] = ()
    pool: bool = Field(True, description="Each round plays a Tournament Mission Pool mission (False: CA 2026-27, "
                                         "each table's missions come from its players' Force Dispositions)")


def add_player(t: Tournament, player: str) -> Tournament:
    """Register a player; after round 1 they join with an empty record (0-0-0)."""
    if not player:
        raise InvalidValue("A player is needed.")
    if player in t.players:
        raise InvalidValue(f"<@{player}> is already registered.")
    return t.model_copy(update={"players": (*t.players, player)})


def drop_player(t: Tournament, player: str) -> Tournament:
    """Drop a player: they keep their results and place but are never paired again."""
    _registered(t, player)
    if player in t.dropped:
        raise InvalidValue(f"<@{player}> has already dropped.")
    return t.model_copy(update={"dropped": (*t.dropped, player)})


def reinstate_player(t: Tournament, player: str) -> Tournament:
    """Bring a dropped player back: they are paired again from the next round, with the record they had."""
    _registered(t, player)
    if player not in t.dropped:
        raise InvalidValue(f"<@{player}> has not dropped.")
    if t.rounds and not t.rounds[-1].published:
        raise InvalidValue(f"Round {t.rounds[-1].number} is already paired as a draft without them: reinstate "
                           "players before pairing the next round.")
    return t.model_copy(update={"dropped": tuple(p for p in t.dropped if p != player)})


def missing_tables(r: Round) -> list[int]:
    done = {res.table for res in r.results}
    return [p.table for p in r.pairings.tables if p.table not in done]


def records(t: Tournament) -> dict[str, PlayerRecord]:
    return player_records(t.players, (res for r in t.rounds for res in r.results), t.dropped)


def standings(t: Tournament) -> list[Standing]:
    return rank_records(records(t))


def tables_played(rounds: Iterable[Round]) -> dict[str, dict[int, list[int]]]:
    """Player -> table number -> the rounds (in `rounds`' order) they played at it."""
    played: dict[str, dict[int, list[int]]] = {}
    for r in rounds:
        for x in r.pairings.tables:
            for p in (x.a, x.b):
                played.setdefault(p, {}).setdefault(x.table, []).append(r.number)
    return played


def start_round(
    t: Tournament, rng: random.Random, mission: str | None = None, *, published: bool = True,
    rules: PairingRules | None = None, clubs: Mapping[str, str] | None = None, pins: Mapping[str, int] | None = None,
) -> Tournament:
    """Pair the next round and choose its mission (random from the pool unless the organiser names one).
    `published=False` keeps it a draft for the organiser to review (`publish_round`, `repair_round`).
    `rules` (friendly fire, fresh tables), `clubs` (player -> club) and `pins` (player -> table) are the
    organiser's: kept outside the event's state, they are passed in each time."""
    if t.rounds and not t.rounds[-1].published:
        raise InvalidValue(f"Round {t.rounds[-1].number} is still a draft: publish it or re-pair it first.")
    if t.rounds and (missing := missing_tables(t.rounds[-1])):
        tables = ", ".join(str(n) for n in missing)
        raise InvalidValue(
            f"Round {t.rounds[-1].number} is missing results for table{'s' if len(missing) > 1 else ''} {tables}."
        )
    number = len(t.rounds) + 1
    if not t.pool and mission is not None:
        raise InvalidValue("This event's deck has no mission pool: each table's missions come from its players' "
                           "Force Dispositions.")
    letter = None
    if t.pool:
        letter = check_mission(mission) if mission is not None else pick_mission(
            [r.mission for r in t.rounds if r.mission], rng)
    fresh = rules is not None and rules.fresh_tables
    previous = None
    if fresh:
        previous = {p: set(tables) for p, tables in tables_played(r for r in t.rounds if r.published).items()}
    pairings = pair_round(records(t), number, rng, t.bye_vp, clubs=clubs, avoid_clubs=avoids_clubs(rules, number),
                          pins=pins, fresh_tables=fresh, previous_tables=previous)
    new = Round(number=number, mission=letter, pairings=pairings, results=(pairings.bye,) if pairings.bye else (),
                published=published)
    return t.model_copy(update={"rounds": (*t.rounds, new)})


def draft_round(t: Tournament, number: int, draw: int) -> Round:
    """The unpublished round a Publish or Re-pair button was drawn for; a replaced or published draft is refused."""
    current = t.rounds[-1] if t.rounds else None
    if current is None or current.published or (current.number, current.draw) != (number, draw):
        raise InvalidValue("This draft is out of date: it was re-paired or published since.")
    return current


def repair_round(
    t: Tournament, number: int, draw: int, rng: random.Random, *, rules: PairingRules | None = None,
    clubs: Mapping[str, str] | None = None, pins: Mapping[str, int] | None = None,
) -> Tournament:
    """A new draw of the draft round `number` with the same mission: `rng` must be a new stream (the next
    draw's), so players who are equal by the rules of pairing may meet someone else; the rules still hold."""
    current = draft_round(t, number, draw)
    before = t.model_copy(update={"rounds": t.rounds[:-1]})
    redrawn = start_round(before, rng, current.mission, published=False, rules=rules, clubs=clubs, pins=pins).rounds[-1]
    return t.model_copy(update={"rounds": (*t.rounds[:-1], redrawn.model_copy(update={"draw": draw + 1}))})


def publish_round(t: Tournament, number: int, draw: int) -> Tournament:
    current = draft_round(t, number, draw)
    return t.model_copy(update={"rounds": (*t.rounds[:-1], current.model_copy(update={"published": True}))})


def record_result(
    t: Tournament, table: int, outcome: Outcome | str | None, vp_a: int, vp_b: int,
    reason: Reason | str = Reason.SCORE, round_number: int | None = None,
) -> Tournament:
    """Record (or correct) the result of a table of the current round, or of an earlier one (`round_number`):
    records and standings are always folded from every round's results, so they follow the correction.

    The VP decide (the player with more VP wins, equal VP is a draw): `outcome` may be left out, and one
    that contradicts the VP is refused. Only a concession or a no-show names a winner whatever the VP.
    """
    if not t.rounds:
        raise InvalidValue("No round has been paired yet.")
    if round_number is not None and not 1 <= round_number <= len(t.rounds):
        raise InvalidValue(f"There is no round {round_number} (rounds 1-{len(t.rounds)}).")
    index = (round_number or len(t.rounds)) - 1
    current = t.rounds[index]
    if not current.published:
        raise InvalidValue(f"Round {current.number} is not published yet: results are reported once it is.")
    pairing = next((p for p in current.pairings.tables if p.table == table), None)
    if pairing is None:
        raise InvalidValue(f"Round {current.number} has no table {table} (tables 1-{len(current.pairings.tables)}).")
    try:
        outcome = Outcome(outcome) if outcome is not None else None
    except ValueError:
        raise InvalidValue(f"Unknown outcome {outcome!r}: use {', '.join(o.value for o in Outcome)}.") from None
    if reason not in REASON_WORDS:  # a str finds its Reason: StrEnum members hash and compare as their values
        raise InvalidValue(f"Unknown reason {str(reason)!r}: use {', '.join(r.value for r in REASON_WORDS)}.")
    reason = Reason(reason)
    for vp in (vp_a, vp_b):
        if not 0 <= vp <= MAX_GAME_VP:
            raise InvalidValue(f"VP must be between 0 and {MAX_GAME_VP}; got {vp}.")
    if reason == Reason.SCORE:
        by_vp = outcome_of(vp_a, vp_b)
        if outcome is not None and outcome != by_vp:
            raise InvalidValue(
                f"{vp_a}–{vp_b} is {verdict(pairing, by_vp)}, not {verdict(pairing, outcome)}: the player with more "
                "VP wins and equal VP is a draw. Leave `outcome` out to let the VP decide; a concession or a "
                "no-show is recorded as such with `reason`."
            )
        outcome = by_vp
    elif outcome in (None, Outcome.DRAW):
        raise InvalidValue(f"A {REASON_WORDS[reason]} has a winner: give the outcome, player A or player B wins.")
    result = Result(
        round_number=current.number, table=table, a=pairing.a, b=pairing.b, outcome=outcome, vp_a=vp_a, vp_b=vp_b,
        reason=reason,
    )
    results = (*(r for r in current.results if r.table != table), result)
    updated = current.model_copy(update={"results": results})
    return t.model_copy(update={"rounds": (*t.rounds[:index], updated, *t.rounds[index + 1:])})


def verdict(pairing: Pairing, outcome: Outcome) -> str:
    """'a win for <@a>', 'a win for <@b>' or 'a draw'."""
    winner = {Outcome.A_WINS: pairing.a, Outcome.B_WINS: pairing.b}.get(outcome)
    return f"a win for <@{winner}>" if winner else "a draw"


def loser(result: Result) -> str | None:
    """The player who lost a game (None for a draw or a bye)."""
    return {Outcome.A_WINS: result.b, Outcome.B_WINS: result.a}.get(result.outcome)


def pick_mission(letters_used: Iterable[str], rng: random.Random) -> str:
    """A random mission from A-T not used yet; once all 20 have been used, the pool starts again."""
    used: set[str] = set()
    for letter in letters_used:
        used.add(letter)
        if used >= set(MISSION_LETTERS):
            used = set()
    return rng.choice([m for m in MISSION_LETTERS if m not in used])


def check_mission(letter: str) -> str:
    """The organiser's choice of mission, as a pool letter."""
    normalised = letter.strip().upper()
    if normalised not in MISSION_LETTERS:
        raise InvalidValue(f"{letter!r} is not a Tournament Mission Pool mission: choose a letter from A to T.")
    return normalised


def _registered(t: Tournament, player: str) -> None:
    if player not in t.players:
        raise InvalidValue(f"<@{player}> is not registered in this event.")
