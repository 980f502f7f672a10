"""An event's entrants as every surface names them: their name, their army, their record."""

from __future__ import annotations

from bot.engine.models import Army
from bot.store.tournament_repository import TournamentRecord


def name_of(record: TournamentRecord, player: str) -> str:
    """An entrant's name (a doubles pair's: 'A & B'), or a player's own."""
    return record.state.name_of(player)


def player_name(record: TournamentRecord, player: str) -> str:
    """A player's own name as registered (in doubles, not their pair's)."""
    return record.state.names.get(player, player)


def army_of(record: TournamentRecord, player: str) -> Army | None:
    """A player's army, from their list in the event."""
    entry = record.state.lists.get(player)
    return entry.army if entry else None


def factions_of(record: TournamentRecord, entrant: str) -> str | None:
    """The factions an entrant brings, from their lists (a doubles pair's both: 'Orks & Necrons'); None: no list."""
    found = [a.faction_name for p in record.state.members(entrant) if (a := army_of(record, p)) is not None]
    return " & ".join(found) or None


def record_text(wins: int, draws: int, losses: int) -> str:
    """A record as players write it: wins-losses, with draws only when there are any (W-L-D): 3-1, 2-1-1."""
    return f"{wins}-{losses}-{draws}" if draws else f"{wins}-{losses}"
