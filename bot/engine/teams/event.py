"""A team event (Teams Event Companion) beside the singles event it is built on: teams and their rosters, rounds of
team matches, each match's captains' pairing (match.py), and the teams' scores and standings (scoring.py).

Every game a pairing fixes is a table of the singles event's round (its `Pairing`), so results are reported,
confirmed and corrected as singles results are; a team's score is read from them, converted to Battle Points. A
match of round r, number m, seats its games at tables (m - 1) x size + 1 onwards, in the order they are fixed.

Each function returns a new state or raises InvalidValue with a message for the player or organiser.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Literal

import networkx as nx
from pydantic import Field

from bot.engine.errors import InvalidValue
from bot.engine.models import Frozen
from bot.engine.teams.match import TeamMatch, new_match
from bot.engine.teams.scoring import (
    GAME_BP, MARGINS, SIZES, TEAM_POINTS, MatchOutcome, bye_bp, match_outcome, result_bp,
)
from bot.engine.tournament.ranking import Outcome, Result

MAX_TEAM_NAME = 40
PRESETS = ("teams-event-companion",)  # room for another set of team rules later


class Team(Frozen):
    id: str
    name: str
    captain: str
    stand_in: str | None = Field(None, description="Acts for the captain in the pairing")
    members: tuple[str, ...] = Field(description="The captain among them")
    dropped: bool = False

    def leads(self, player: str) -> bool:
        return player in (self.captain, self.stand_in)


class TeamRules(Frozen):
    size: int = Field(ge=3, le=8)
    preset: Literal["teams-event-companion"] = "teams-event-companion"
    chapters_one_faction: bool = Field(False, description="All Space Marine chapters count as one faction keyword")
    bye: MatchOutcome = Field(MatchOutcome.WIN, description="What a bye scores (BP: the smallest such result)")
    layouts_in_turn: bool = Field(False, description="The Defenders declare their layouts in turn, not secretly")
    step_minutes: int | None = Field(15, ge=1, le=1440, description="Each pairing step's deadline (None: none)")


class TeamPair(Frozen):
    """One team match of a round: its captains' pairing, and the singles tables of the games it fixed."""

    number: int = Field(ge=1)
    match: TeamMatch
    tables: tuple[int, ...] = ()

    @property
    def teams(self) -> tuple[str, str]:
        return self.match.teams


class TeamRound(Frozen):
    number: int = Field(ge=1)
    matches: tuple[TeamPair, ...]
    bye: str | None = None
    published: bool = True
    draw: int = 0


class TeamEvent(Frozen):
    rules: TeamRules
    teams: tuple[Team, ...] = ()
    rounds: tuple[TeamRound, ...] = ()

    def team(self, team_id: str) -> Team:
        found = next((t for t in self.teams if t.id == team_id), None)
        if found is None:
            raise InvalidValue("There is no such team in this event.")
        return found

    def team_of(self, player: str) -> Team | None:
        return next((t for t in self.teams if player in t.members), None)

    def named(self, name: str) -> Team:
        key = name.strip().casefold()
        found = next((t for t in self.teams if t.name.casefold() == key), None)
        if found is None:
            raise InvalidValue(f"There is no team {name.strip()!r} in this event.")
        return found


# ---- teams -------------------------------------------------------------------------------------

def add_team(ev: TeamEvent, name: str, captain: str, members: Sequence[str]) -> TeamEvent:
    """A team registered by its captain (among `members`, or added to them)."""
    _before_round_one(ev)
    name = " ".join(name.split())
    if not 1 <= len(name) <= MAX_TEAM_NAME:
        raise InvalidValue(f"A team name is 1 to {MAX_TEAM_NAME} characters.")
    if any(t.name.casefold() == name.casefold() for t in ev.teams):
        raise InvalidValue(f"There is already a team called {name!r}.")
    roster = tuple(dict.fromkeys((captain, *members)))
    _check_roster(ev, roster, None)
    team = Team(id=str(1 + max((int(t.id) for t in ev.teams), default=0)), name=name, captain=captain,
                members=roster)
    return ev.model_copy(update={"teams": (*ev.teams, team)})


def add_member(ev: TeamEvent, team_id: str, player: str) -> TeamEvent:
    _before_round_one(ev)
    team = ev.team(team_id)
    if player in team.members:
        raise InvalidValue(f"<@{player}> is already in {team.name}.")
    _check_roster(ev, (*team.members, player), team)
    return _replace_team(ev, team.model_copy(update={"members": (*team.members, player)}))


def replace_member(ev: TeamEvent, team_id: str, out: str, into: str) -> TeamEvent:
    """A member swapped for another (the captain too: the new member captains)."""
    _before_round_one(ev)
    team = ev.team(team_id)
    if out not in team.members:
        raise InvalidValue(f"<@{out}> is not in {team.name}.")
    if into in team.members:
        raise InvalidValue(f"<@{into}> is already in {team.name}.")
    members = tuple(into if m == out else m for m in team.members)
    _check_roster(ev, members, team)
    return _replace_team(ev, team.model_copy(update={
        "members": members, "captain": into if team.captain == out else team.captain,
        "stand_in": None if team.stand_in == out else team.stand_in}))


def remove_member(ev: TeamEvent, team_id: str, player: str) -> TeamEvent:
    _before_round_one(ev)
    team = ev.team(team_id)
    if player not in team.members:
        raise InvalidValue(f"<@{player}> is not in {team.name}.")
    if player == team.captain:
        raise InvalidValue("The captain stays: name a new one with `/team captain` first, or replace them.")
    return _replace_team(ev, team.model_copy(update={
        "members": tuple(m for m in team.members if m != player),
        "stand_in": None if team.stand_in == player else team.stand_in}))


def set_leaders(ev: TeamEvent, team_id: str, captain: str, stand_in: str | None) -> TeamEvent:
    team = ev.team(team_id)
    for leader in filter(None, (captain, stand_in)):
        if leader not in team.members:
            raise InvalidValue(f"<@{leader}> is not in {team.name}: captains lead their own team.")
    if stand_in == captain:
        stand_in = None
    return _replace_team(ev, team.model_copy(update={"captain": captain, "stand_in": stand_in}))


def _check_roster(ev: TeamEvent, roster: tuple[str, ...], team: Team | None) -> None:
    if len(roster) > ev.rules.size:
        raise InvalidValue(f"A team has {ev.rules.size} players in this event: that would make {len(roster)}.")
    for player in roster:
        other = ev.team_of(player)
        if other is not None and other is not team:
            raise InvalidValue(f"<@{player}> already plays for {other.name}.")


def _before_round_one(ev: TeamEvent) -> None:
    if ev.rounds:
        raise InvalidValue("Rosters are fixed once round 1 is paired: an organiser corrects the results instead.")


def _replace_team(ev: TeamEvent, team: Team) -> TeamEvent:
    return ev.model_copy(update={"teams": tuple(team if t.id == team.id else t for t in ev.teams)})


def roster_problems(ev: TeamEvent, team: Team, armies: Mapping[str, tuple[str | None, str | None]], *,
                    complete: bool = True) -> list[str]:
    """What keeps a team from playing, each in a line naming who: a player short (`complete`: asked of it), two
    players of one faction keyword, a Force Disposition used more often than every five players allow. `armies`:
    player -> (faction keyword, disposition), None where their list does not say yet."""
    problems = []
    if complete and len(team.members) < ev.rules.size:
        problems.append(f"{team.name} has {len(team.members)} of its {ev.rules.size} players.")
    by_faction: dict[str, list[str]] = {}
    for player in team.members:
        faction = armies.get(player, (None, None))[0]
        if faction is not None:
            by_faction.setdefault(faction, []).append(player)
    for faction, players in by_faction.items():
        if len(players) > 1:
            problems.append(f"{team.name}: {' and '.join(f'<@{p}>' for p in players)} both field {faction}; a team "
                            "takes one player per faction keyword.")
    allowed = math.ceil(ev.rules.size / 5)
    used = Counter(d for p in team.members if (d := armies.get(p, (None, None))[1]) is not None)
    for disposition, count in sorted(used.items()):
        if count > allowed:
            problems.append(f"{team.name} uses {disposition} {count} times: a team of {ev.rules.size} may use each "
                            f"Force Disposition {allowed} time{'s' if allowed > 1 else ''}.")
    return problems


# ---- rounds ------------------------------------------------------------------------------------

class TeamRecord(Frozen):
    """What pairing and ranking need of one team, folded from its matches."""

    team: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    team_points: int = 0
    game_wins: int = 0
    bp: int = 0
    opponents: tuple[str, ...] = ()
    had_bye: bool = False


class MatchScore(Frozen):
    """A team match's Battle Points so far: `complete` once every game has its result."""

    bp: tuple[int, int]
    game_wins: tuple[int, int]
    played: int
    complete: bool
    outcome: MatchOutcome | None = Field(None, description="Side 0's, once complete")


def match_score(ev: TeamEvent, pair: TeamPair, results: Mapping[int, Result]) -> MatchScore:
    """The BP and game wins of each side from the results recorded at the match's tables."""
    bp, wins, played = [0, 0], [0, 0], 0
    for table, game in zip(pair.tables, pair.match.games):
        result = results.get(table)
        if result is None:
            continue
        played += 1
        first = 0 if result.a == game.players[0] else 1  # the side of the game's player a
        got = result_bp(result)
        bp[first] += got[0]
        bp[1 - first] += got[1]
        if result.outcome != Outcome.DRAW:
            wins[first if result.outcome == Outcome.A_WINS else 1 - first] += 1
    complete = pair.match.done and played == ev.rules.size
    outcome = match_outcome(ev.rules.size, bp[0], bp[1]) if complete else None
    return MatchScore(bp=(bp[0], bp[1]), game_wins=(wins[0], wins[1]), played=played, complete=complete,
                      outcome=outcome)


def team_records(ev: TeamEvent, results_by_round: Mapping[int, Mapping[int, Result]]) -> dict[str, TeamRecord]:
    """Every team's record from the complete matches of published rounds and its byes."""
    records = {t.id: TeamRecord(team=t.id) for t in ev.teams}
    flip = {MatchOutcome.WIN: MatchOutcome.LOSS, MatchOutcome.LOSS: MatchOutcome.WIN, MatchOutcome.DRAW: MatchOutcome.DRAW}
    for r in ev.rounds:
        if not r.published:
            continue
        if r.bye is not None:
            bye = ev.rules.bye
            records[r.bye] = _add(records[r.bye], bye, _bye_bp(ev), 0, None)
        for pair in r.matches:
            score = match_score(ev, pair, results_by_round.get(r.number, {}))
            for side in (0, 1):
                team, other = pair.teams[side], pair.teams[1 - side]
                records[team] = records[team].model_copy(update={"opponents": (*records[team].opponents, other)})
                if score.outcome is not None:
                    outcome = score.outcome if side == 0 else flip[score.outcome]
                    records[team] = _add(records[team], outcome, score.bp[side], score.game_wins[side], other)
    return records


def _bye_bp(ev: TeamEvent) -> int:
    size, bye = ev.rules.size, ev.rules.bye
    return {MatchOutcome.WIN: bye_bp(size), MatchOutcome.DRAW: GAME_BP * size // 2,
            MatchOutcome.LOSS: GAME_BP * size - bye_bp(size)}[bye]


def _add(record: TeamRecord, outcome: MatchOutcome, bp: int, game_wins: int, opponent: str | None) -> TeamRecord:
    return record.model_copy(update={
        "wins": record.wins + (outcome == MatchOutcome.WIN), "draws": record.draws + (outcome == MatchOutcome.DRAW),
        "losses": record.losses + (outcome == MatchOutcome.LOSS),
        "team_points": record.team_points + TEAM_POINTS[outcome], "game_wins": record.game_wins + game_wins,
        "bp": record.bp + bp, "had_bye": record.had_bye or opponent is None})


def standings(ev: TeamEvent, results_by_round: Mapping[int, Mapping[int, Result]]) -> list[tuple[int, TeamRecord]]:
    """(rank, record), best first: Team Points, then individual game wins, then total BP; equal teams share a rank."""
    records = sorted(team_records(ev, results_by_round).values(), key=_rank_key)
    ranked: list[tuple[int, TeamRecord]] = []
    for i, record in enumerate(records):
        same = ranked and _rank_key(ranked[-1][1]) == _rank_key(record)
        ranked.append((ranked[-1][0] if same else i + 1, record))
    return ranked


def _rank_key(record: TeamRecord) -> tuple[int, int, int]:
    return (-record.team_points, -record.game_wins, -record.bp)


def pair_teams(ev: TeamEvent, records: Mapping[str, TeamRecord], number: int, rng: random.Random) -> TeamRound:
    """The next round's team matches, a draft: round 1 at random, then by Team Points, then individual wins, then
    at random among equals; no rematch while one can be avoided; an odd field's bye to the lowest-placed team
    that has not had one (never twice while another can take it)."""
    active = [t.id for t in ev.teams if not t.dropped]
    if len(active) < 2:
        raise InvalidValue("A round needs at least two teams.")
    rng.shuffle(active)  # random among equals
    if number > 1:
        active.sort(key=lambda t: _rank_key(records[t])[:2])
    bye = None
    if len(active) % 2:
        candidates = [t for t in reversed(active) if not records[t].had_bye] or list(reversed(active))
        bye = next((c for c in candidates if _matching(active, records, c, rng, strict=True) is not None),
                   candidates[0])
        active.remove(bye)
    pairs = _matching(active, records, None, rng, strict=False)
    assert pairs is not None
    matches = tuple(TeamPair(number=i + 1, match=new_match(pair, (_pool(ev, pair[0]), _pool(ev, pair[1])),
                                                         round_number=number,
                                                         layouts_in_turn=ev.rules.layouts_in_turn))
                    for i, pair in enumerate(pairs))
    return TeamRound(number=number, matches=matches, bye=bye, published=False)


def _pool(ev: TeamEvent, team_id: str) -> tuple[str, ...]:
    team = ev.team(team_id)
    if len(team.members) != ev.rules.size:
        raise InvalidValue(f"{team.name} has {len(team.members)} of its {ev.rules.size} players: complete it "
                           "before the round is paired.")
    return team.members


def _matching(teams: list[str], records: Mapping[str, TeamRecord], bye: str | None, rng: random.Random, *,
              strict: bool) -> list[tuple[str, str]] | None:
    """Pairs of `teams` (less `bye`) in standings order: a maximum-weight matching that avoids rematches first,
    then pairs teams close in Team Points and wins. `strict`: None if a rematch cannot be avoided."""
    field = [t for t in teams if t != bye]
    position = {t: i for i, t in enumerate(field)}
    graph = nx.Graph()
    scale = len(field) ** 2 + 1
    for i, one in enumerate(field):
        for two in field[i + 1:]:
            rematch = two in records[one].opponents
            if rematch and strict:
                continue
            distance = (records[one].team_points - records[two].team_points) ** 2 * scale + \
                (position[two] - position[one])
            graph.add_edge(one, two, weight=(0 if rematch else scale ** 3) + scale ** 2 - distance)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matched) != len(field):
        return None
    pairs = [tuple(sorted(pair, key=position.__getitem__)) for pair in matched]
    pairs.sort(key=lambda p: position[p[0]])
    return [(p[0], p[1]) for p in pairs]


def draft(ev: TeamEvent, number: int, draw: int) -> TeamRound:
    current = ev.rounds[-1] if ev.rounds else None
    if current is None or current.published or (current.number, current.draw) != (number, draw):
        raise InvalidValue("This draft is out of date: it was re-paired or published since.")
    return current


def replace_round(ev: TeamEvent, updated: TeamRound) -> TeamEvent:
    return ev.model_copy(update={"rounds": (*ev.rounds[:-1], updated)})


def match_of(ev: TeamEvent, round_number: int, number: int) -> TeamPair:
    if not 1 <= round_number <= len(ev.rounds):
        raise InvalidValue("There is no such round.")
    found = next((m for m in ev.rounds[round_number - 1].matches if m.number == number), None)
    if found is None:
        raise InvalidValue("There is no such team match.")
    return found


def with_match(ev: TeamEvent, round_number: int, pair: TeamPair) -> TeamEvent:
    r = ev.rounds[round_number - 1]
    updated = r.model_copy(update={"matches": tuple(pair if m.number == pair.number else m for m in r.matches)})
    return ev.model_copy(update={"rounds": (*ev.rounds[:round_number - 1], updated, *ev.rounds[round_number:])})


def margin_text(size: int) -> str:
    total = GAME_BP * size
    return f"a team of {size} wins with a lead of {MARGINS[size]} BP of {total} (at least {(total + MARGINS[size]) // 2})"


__all__ = ["SIZES", "PRESETS", "Team", "TeamRules", "TeamPair", "TeamRound", "TeamEvent", "TeamRecord", "MatchScore"]
