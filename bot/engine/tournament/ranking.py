"""Results, each player's record, and the standings of a Swiss event.

Ranking follows the Tournament Companion ("Ranking Players"): first the overall record, then the
opponents' win records, then total VP. Choices made where the seed leaves room:

- Record: more wins first; a draw is worth half a win (score = 2W + D), then more wins, then fewer losses.
- Opponents' win record is the opponents' win percentage (OWP): the mean, over every game played, of that
  opponent's (W + D/2) / games. A percentage rather than a sum of wins, so that a player who had a bye
  (which adds no opponent) or faced a player who later dropped is not penalised for facing fewer games.
  It is computed exactly (fractions), so ties are real ties.
- Then total VP (a bye scores the event's bye VP).
- Then player id, only to make the order deterministic: players share a displayed rank when record,
  OWP and VP all tie ("1, 2, 2, 4"), because the id is not a merit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from fractions import Fraction

from pydantic import Field, model_validator

from bot.engine.errors import InvalidValue
from bot.engine.models import Frozen

MAX_GAME_VP = 100  # a game of Warhammer 40,000 is scored out of 100VP


class Outcome(StrEnum):
    A_WINS = "a_wins"
    B_WINS = "b_wins"
    DRAW = "draw"


class Reason(StrEnum):
    """Why a game's outcome is what it is."""

    SCORE = "score"  # the seed's rule: the player with more VP wins, equal VP is a draw
    CONCESSION = "concession"  # the loser conceded: the outcome stands whatever the VP
    NO_SHOW = "no_show"  # the loser did not play: the outcome stands whatever the VP
    AS_ENTERED = "as_entered"  # stored before outcomes had to agree with VP: kept as it was confirmed


def outcome_of(vp_a: int, vp_b: int) -> Outcome:
    """The outcome the VP give: more VP wins, equal VP is a draw."""
    return Outcome.A_WINS if vp_a > vp_b else Outcome.B_WINS if vp_b > vp_a else Outcome.DRAW


class Result(Frozen):
    """One game of a round, or a bye (no opponent, table 0, recorded as a win)."""

    round_number: int = Field(ge=1)
    table: int = Field(ge=0, description="1..n; 0 for a bye, which has no table")
    a: str
    b: str | None = None
    outcome: Outcome
    vp_a: int = Field(ge=0, le=MAX_GAME_VP)
    vp_b: int = Field(0, ge=0, le=MAX_GAME_VP)
    reason: Reason = Reason.SCORE

    @model_validator(mode="after")
    def _shape(self) -> Result:
        if (self.b is None) != (self.table == 0):
            raise ValueError("a bye (no player b) is exactly the result on table 0")
        if self.b is None and (self.outcome != Outcome.A_WINS or self.vp_b or self.reason != Reason.SCORE):
            raise ValueError("a bye is a win for player a")
        if self.a == self.b:
            raise ValueError("a player cannot face themself")
        if self.b is not None and self.reason == Reason.SCORE and self.outcome != outcome_of(self.vp_a, self.vp_b):
            raise ValueError("the outcome of a game decided by the score follows from its VP")
        if self.reason in (Reason.CONCESSION, Reason.NO_SHOW) and self.outcome == Outcome.DRAW:
            raise ValueError("a concession or a no-show has a winner")
        return self


class PlayerRecord(Frozen):
    """What pairing and ranking need to know about one player, folded from the results."""

    player: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    path: str = Field("", description="W/D/L by round, oldest first; a bye is a W")
    opponents: tuple[str, ...] = ()
    had_bye: bool = False
    vp: int = 0
    dropped: bool = False

    @property
    def record(self) -> tuple[int, int, int]:
        """Players with the same W-D-L have an equal record."""
        return (self.wins, self.draws, self.losses)

    @property
    def record_key(self) -> tuple[int, int, int]:
        """Higher is better: score (a draw is half a win), then wins, then fewer losses."""
        return (2 * self.wins + self.draws, self.wins, -self.losses)


class Standing(Frozen):
    rank: int
    player: str
    wins: int
    draws: int
    losses: int
    opponents_win_pct: float = Field(description="0..100, shown rounded; ranking compares exact fractions")
    vp: int
    path: str
    had_bye: bool
    dropped: bool


def player_records(
    players: Iterable[str], results: Iterable[Result], dropped: Iterable[str] = ()
) -> dict[str, PlayerRecord]:
    """Fold the results, round by round, into one record per registered player."""
    acc: dict[str, dict] = {
        p: {"player": p, "wins": 0, "draws": 0, "losses": 0, "path": "", "opponents": [], "had_bye": False, "vp": 0}
        for p in players
    }
    for p in dropped:
        _known(acc, p)
    for r in sorted(results, key=lambda r: (r.round_number, r.table)):
        _known(acc, r.a)
        if r.b is None:
            _add(acc[r.a], "W", r.vp_a)
            acc[r.a]["had_bye"] = True
            continue
        _known(acc, r.b)
        a, b = ("W", "L") if r.outcome == Outcome.A_WINS else ("L", "W") if r.outcome == Outcome.B_WINS else ("D", "D")
        _add(acc[r.a], a, r.vp_a, r.b)
        _add(acc[r.b], b, r.vp_b, r.a)
    gone = set(dropped)
    return {p: PlayerRecord(**v, dropped=p in gone) for p, v in acc.items()}


def _known(acc: Mapping[str, dict], player: str) -> None:
    if player not in acc:
        raise InvalidValue(f"<@{player}> is not registered in this event.")


def _add(acc: dict, letter: str, vp: int, opponent: str | None = None) -> None:
    acc[{"W": "wins", "D": "draws", "L": "losses"}[letter]] += 1
    acc["path"] += letter
    acc["vp"] += vp
    if opponent is not None:
        acc["opponents"].append(opponent)


def win_rate(record: PlayerRecord) -> Fraction:
    games = record.wins + record.draws + record.losses
    return Fraction(2 * record.wins + record.draws, 2 * games) if games else Fraction(0)


def opponents_win_rate(record: PlayerRecord, records: Mapping[str, PlayerRecord]) -> Fraction:
    """Mean win rate of the opponents faced, once per game; 0 with no opponent yet."""
    if not record.opponents:
        return Fraction(0)
    return sum((win_rate(records[o]) for o in record.opponents), Fraction(0)) / len(record.opponents)


def rank(players: Iterable[str], results: Iterable[Result], dropped: Iterable[str] = ()) -> list[Standing]:
    """Standings, best first. Dropped players keep their place (their games still count)."""
    return rank_records(player_records(players, results, dropped))


def rank_records(records: Mapping[str, PlayerRecord]) -> list[Standing]:
    owp = {p: opponents_win_rate(r, records) for p, r in records.items()}

    def merit(r: PlayerRecord) -> tuple:
        return (r.record_key, owp[r.player], r.vp)

    ordered = sorted(records.values(), key=lambda r: r.player)
    ordered.sort(key=merit, reverse=True)  # stable: equal merit stays in player-id order
    standings: list[Standing] = []
    for i, r in enumerate(ordered):
        shared = i > 0 and merit(r) == merit(ordered[i - 1])
        standings.append(
            Standing(
                rank=standings[-1].rank if shared else i + 1,
                player=r.player,
                wins=r.wins,
                draws=r.draws,
                losses=r.losses,
                opponents_win_pct=round(float(owp[r.player]) * 100, 2),
                vp=r.vp,
                path=r.path,
                had_bye=r.had_bye,
                dropped=r.dropped,
            )
        )
    return standings
