"""A team event's changes as state: a stored event in, its next state out (no I/O), for the tournament service
(pairing, publishing) and the team service (rosters, the captains' choices).

Every game a captains' pairing fixes becomes a table of the singles round underneath (its Pairing), so the table
threads, their games and their results work as they do for singles; `Fixed` says which games a change made ready
(seated, with their layout), for the Discord side to open their threads.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from bot.armies.data import army_data
from bot.decks import catalog_2026
from bot.engine.errors import InvalidValue
from bot.engine.rng import derive_rng
from bot.engine.teams import event as teams
from bot.engine.teams import match as pairing
from bot.engine.teams.match import FixedGame
from bot.engine.tournament import event as tournament
from bot.engine.tournament.pairing import Pairing, Pairings
from bot.engine.tournament.ranking import Result
from bot.store.tournament_repository import EventState, TournamentRecord

NOT_A_TEAM_EVENT = "This event is not a team event."


@dataclass(frozen=True)
class Fixed:
    """A game a captains' pairing fixed: the table it is played at, and how."""

    round_number: int
    match: int
    table: int
    game: FixedGame


def team_event(record: TournamentRecord) -> teams.TeamEvent:
    if record.state.teams is None:
        raise InvalidValue(NOT_A_TEAM_EVENT)
    return record.state.teams


def results_by_round(record: TournamentRecord) -> dict[int, dict[int, Result]]:
    return {r.number: round_results(record, r.number) for r in record.state.event.rounds}


def round_results(record: TournamentRecord, round_number: int) -> dict[int, Result]:
    """The results recorded in a round, by table."""
    return {r.table: r for r in record.state.event.rounds[round_number - 1].results}


def faction_keywords(state: EventState) -> dict[str, tuple[str | None, str | None]]:
    """Each registered player's (faction keyword, Force Disposition) as their list and registration say."""
    assert state.teams is not None
    data, found = army_data(), {}
    for player in state.event.players:
        entry = state.lists.get(player)
        faction = entry.army.faction if entry else None
        if faction is not None and state.teams.rules.chapters_one_faction and faction in data.factions:
            faction = data.family(faction)[-1]  # a chapter counts as its parent's keyword
        name = data.factions[faction].name if faction in data.factions else faction
        found[player] = (name, disposition_name(state.dispositions.get(player)))
    return found


def disposition_name(disposition: str | None) -> str | None:
    """A Force Disposition as the 2026-27 deck names it (team events play it)."""
    if disposition is None:
        return None
    try:
        return catalog_2026().disposition(disposition).name
    except KeyError:
        return disposition


def roster_problems(record: TournamentRecord, team: teams.Team) -> list[str]:
    return teams.roster_problems(team_event(record), team, faction_keywords(record.state))


def refuse_clashes(state: EventState, player: str) -> EventState:
    """`state` once `player`'s team, list or disposition changed; refused, naming who, when their team then has two
    players of one faction keyword or a Force Disposition more often than its size allows (a short roster is
    refused only when round 1 is paired)."""
    team = state.teams.team_of(player) if state.teams is not None else None
    if team is None:
        return state
    problems = teams.roster_problems(state.teams, team, faction_keywords(state), complete=False)  # type: ignore[arg-type]
    if problems:
        raise InvalidValue(" ".join(problems))
    return state


# ---- the state changes (pure: a record in, a state out) -----------------------------------------

def with_teams(state: EventState, ev: teams.TeamEvent, players: Mapping[str, str] | None = None, *,
               left: str | None = None) -> EventState:
    """The team event changed: `players` (id -> name) joined the singles event underneath, and `left`, who left
    their team, left it (until round 1, when rosters change, nobody has a result to keep)."""
    event, names = state.event, dict(state.names)
    for player, name in (players or {}).items():
        if player not in event.players:
            event = tournament.add_player(event, player)
        names[player] = name
    if left is not None and ev.team_of(left) is None:
        event = event.model_copy(update={"players": tuple(p for p in event.players if p != left)})
    return state.model_copy(update={"teams": ev, "event": event, "names": names})


def pair_state(record: TournamentRecord, number: int, draw: int) -> EventState:
    """The next round's team matches as a draft, with the singles round their games will be tables of."""
    ev, state = team_event(record), record.state
    if number == 1:  # every roster complete and within the rules before anything is paired
        problems = [p for team in ev.teams if not team.dropped for p in roster_problems(record, team)]
        if problems:
            raise InvalidValue("Not yet: " + " ".join(problems))
    if ev.rounds and not ev.rounds[-1].published and ev.rounds[-1].number != number:
        raise InvalidValue(f"Round {ev.rounds[-1].number} is still a draft: publish it or re-pair it first.")
    current = state.event.rounds[-1] if state.event.rounds else None
    if current is not None and current.number == number - 1:
        refuse_unfinished(record)
        if tournament.missing_tables(current):
            raise InvalidValue(f"Round {current.number} is not over: its results are still missing.")
    records = teams.team_records(ev, results_by_round(record))
    drawn = teams.pair_teams(ev, records, number, team_rng(record.seed, number, draw)).model_copy(
        update={"draw": draw})
    singles = tournament.Round(number=number, pairings=Pairings(round_number=number, tables=()), published=False,
                               draw=draw)
    if ev.rounds and ev.rounds[-1].number == number:  # a new draw of the draft
        ev = teams.replace_round(ev, drawn)
        rounds = (*state.event.rounds[:-1], singles)
    else:
        ev = ev.model_copy(update={"rounds": (*ev.rounds, drawn)})
        rounds = (*state.event.rounds, singles)
    return state.model_copy(update={"teams": ev, "event": state.event.model_copy(update={"rounds": rounds}),
                                    "pending": (), "clock": None})


def unfinished_matches(record: TournamentRecord) -> list[teams.TeamPair]:
    """The matches of the round being played whose captains' pairing is not complete (none in a singles event)."""
    ev = record.state.teams
    if ev is None or not ev.rounds or not ev.rounds[-1].published:
        return []
    return [m for m in ev.rounds[-1].matches if not m.match.done]


def refuse_unfinished(record: TournamentRecord) -> None:
    if pending := unfinished_matches(record):
        raise InvalidValue(f"Round {record.state.teams.rounds[-1].number} is still pairing match"  # type: ignore[union-attr]
                           f"{'es' if len(pending) > 1 else ''} {', '.join(str(m.number) for m in pending)}.")


def draft_of(record: TournamentRecord, number: int, draw: int) -> int:
    """The draw of the draft round a button was drawn for (refused once re-paired or published)."""
    return teams.draft(team_event(record), number, draw).draw


def publish_state(record: TournamentRecord, number: int, draw: int) -> EventState:
    ev, state = team_event(record), record.state
    current = teams.draft(ev, number, draw)
    event = tournament.publish_round(state.event, number, draw)
    return state.model_copy(update={"teams": teams.replace_round(ev, current.model_copy(update={"published": True})),
                                    "event": event})


def choose_state(record: TournamentRecord, round_number: int, match_number: int, side: int,
                 picks: tuple[str, ...]) -> tuple[EventState, list[Fixed]]:
    """A side's choice at its match's current step; the games it fixed, seated at the match's next tables."""
    ev, state = team_event(record), record.state
    if not 1 <= round_number <= len(ev.rounds) or not ev.rounds[round_number - 1].published:
        raise InvalidValue("That round is not being played.")
    pair = teams.match_of(ev, round_number, match_number)
    before = len(pair.match.games)
    chosen = pairing.choose(pair.match, side, picks)
    new_games = chosen.games[before:]
    first = (match_number - 1) * ev.rules.size + len(pair.tables) + 1
    tables = tuple(range(first, first + len(new_games)))
    updated = pair.model_copy(update={"match": chosen, "tables": (*pair.tables, *tables)})
    ev = teams.with_match(ev, round_number, updated)
    event = _seat(state.event, round_number, [Pairing(table=t, a=g.players[0], b=g.players[1])
                                              for t, g in zip(tables, new_games)])
    # A Defender's game waits for its layout until its Defender declares it: it is ready once it has one.
    waited = {t for t, g in zip(pair.tables, pair.match.games) if g.layout is None}
    ready = [Fixed(round_number, match_number, t, g) for t, g in zip(updated.tables, chosen.games)
             if g.layout is not None and (t in tables or t in waited)]
    return state.model_copy(update={"teams": ev, "event": event}), ready


def _seat(event: tournament.Tournament, round_number: int, seated: list[Pairing]) -> tournament.Tournament:
    r = event.rounds[round_number - 1]
    pairings = r.pairings.model_copy(update={"tables": (*r.pairings.tables, *seated)})
    rounds = (*event.rounds[:round_number - 1], r.model_copy(update={"pairings": pairings}),
              *event.rounds[round_number:])
    return event.model_copy(update={"rounds": rounds})


def team_rng(seed: str, number: int, draw: int) -> random.Random:
    return derive_rng(seed, f"teams:{number}:{draw}")


def late_rng(seed: str, round_number: int, match_number: int, step: int, side: int) -> random.Random:
    """The random pick for a side that missed its deadline: from the event's secret seed, so it is checkable."""
    return derive_rng(seed, f"late:{round_number}:{match_number}:{step}:{side}")
