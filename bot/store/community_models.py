"""Tables of play around the games: open challenges, players' and servers' settings, scheduled reminders and the
calls the bot posted to one player. Created by migration 0006 (servers' settings: 0008)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import NamedTuple, cast

from sqlalchemy import BigInteger, CheckConstraint, Index, String, Text, text
from sqlmodel import Field, SQLModel

from bot.engine.sides import JOINED
from bot.store.models import UtcDateTime, utcnow


class ChallengeStatus(StrEnum):
    OPEN = "open"
    TAKEN = "taken"
    WITHDRAWN = "withdrawn"
    EXPIRED = "expired"


OPEN_WHERE = text("status = 'open'")


class OpenChallenge(SQLModel, table=True):
    """A game offered to anyone in a channel (`/game new` without an opponent): the first taker gets the seat."""

    __tablename__ = "open_challenge"
    __table_args__ = (
        CheckConstraint("status IN ('open', 'taken', 'withdrawn', 'expired')", name="ck_open_challenge_status"),
        # The expiry timers armed at start-up read the open ones by time.
        Index("ix_open_challenge_open_expiry", "expires_at", sqlite_where=OPEN_WHERE, postgresql_where=OPEN_WHERE),
        {"sqlite_autoincrement": True},
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int | None = Field(default=None, sa_type=BigInteger)
    channel_id: int = Field(sa_type=BigInteger)
    message_id: int | None = Field(default=None, sa_type=BigInteger, description="The challenge message, once posted")
    author_id: str = Field(sa_type=String(32))
    author_name: str = Field(sa_type=String(100), description="The author's name as the server showed it")
    role_id: int | None = Field(default=None, sa_type=BigInteger, description="Only members with this role may take it")
    options_json: str = Field(sa_type=Text, description="The /game new options, the opponent left open")
    status: str = Field(default=ChallengeStatus.OPEN, sa_type=String(16))
    taker_id: str | None = Field(default=None, sa_type=String(32))
    seats_json: str | None = Field(default=None, sa_type=Text, description=(
        "Doubles: the seats left open, as JSON [the author's partner, the opponent, the opponent's partner], each "
        "[user id, name] or null; None: a challenge for one opponent"))
    game_id: int | None = Field(default=None, description="The game the taker started")
    starts_at: datetime | None = Field(default=None, sa_type=UtcDateTime, description="A scheduled game's time")
    expires_at: datetime = Field(sa_type=UtcDateTime)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)


class PlayerSettings(SQLModel, table=True):
    """What a player set once for every server: their time zone (an IANA name), for times they type."""

    __tablename__ = "player_settings"

    user_id: str = Field(sa_type=String(32), primary_key=True)
    time_zone: str = Field(sa_type=String(64))


class ServerSettings(SQLModel, table=True):
    """What a server's admins set for it: the pack /game new plays when none is named. Created by migration
    0008."""

    __tablename__ = "server_settings"

    guild_id: int = Field(sa_type=BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    default_pack: str = Field(sa_type=String(32), description="A pack id, e.g. gt-2020")


class Reminder(SQLModel, table=True):
    """A stored moment to tell a scheduled game's players: 15 minutes before it starts, and at the time."""

    __tablename__ = "reminder"
    __table_args__ = (Index("ix_reminder_due", "sent", "due_at"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", ondelete="CASCADE", index=True)
    channel_id: int = Field(sa_type=BigInteger)
    kind: str = Field(sa_type=String(16), description="soon: 15 minutes before; start: at the time")
    starts_at: datetime = Field(sa_type=UtcDateTime)
    due_at: datetime = Field(sa_type=UtcDateTime)
    sent: bool = Field(default=False, description="Set once, by the process that sent it")


class CallMessage(SQLModel, table=True):
    """A message asking one player for something, kept so it can be closed once answered or passed."""

    __tablename__ = "call_message"

    message_id: int = Field(sa_type=BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    game_id: int = Field(foreign_key="game.id", ondelete="CASCADE", index=True)
    channel_id: int = Field(sa_type=BigInteger)
    player_id: str = Field(sa_type=String(32))
    wait_key: str = Field(sa_type=Text, description="JSON of what is wanted: the waits entry the call answers")


class Side(NamedTuple):
    """A finished game as one of its players played it."""

    a: bool  # they played side a, the challenger's
    seat: str  # their side's seat: the id the result (winner, first) names
    name: str  # their own name
    partner: str | None  # doubles: their partner's name
    opponents: str  # the other side: 'Bob', or in doubles 'Bob & Dee'


class GameSummary(SQLModel, table=True):
    """One finished game as history, stats and ladders read it: written in the transaction that ends the game,
    so it never disagrees with the game. Names are kept as the players saw them at the end. In doubles each side
    is two players: its seat (player_a, whose id the result names) and its partner (partner_a)."""

    __tablename__ = "game_summary"
    __table_args__ = (
        # A player's history on a server, newest first: one index per seat and per partner, which SQLite's OR plan
        # combines.
        Index("ix_game_summary_player_a", "guild_id", "player_a", "ended_at"),
        Index("ix_game_summary_player_b", "guild_id", "player_b", "ended_at"),
        Index("ix_game_summary_partner_a", "guild_id", "partner_a", "ended_at"),
        Index("ix_game_summary_partner_b", "guild_id", "partner_b", "ended_at"),
        Index("ix_game_summary_guild_ended", "guild_id", "ended_at"),
        Index("ix_game_summary_tournament", "tournament_id"),
    )

    game_id: int = Field(foreign_key="game.id", ondelete="CASCADE", primary_key=True,
                         sa_column_kwargs={"autoincrement": False})
    guild_id: int | None = Field(default=None, sa_type=BigInteger)
    channel_id: int = Field(sa_type=BigInteger)
    pack: str = Field(sa_type=String(32))
    size: str | None = Field(default=None, sa_type=String(32))
    mission: str = Field(sa_type=String(100), description="The mission as printed (Primary Mission, or the pack's)")
    deployment: str | None = Field(default=None, sa_type=String(100))
    player_a: str = Field(sa_type=String(32), description="The challenger (in doubles, the first of their side)")
    player_b: str = Field(sa_type=String(32))
    partner_a: str | None = Field(default=None, sa_type=String(32), description="Doubles: side a's second player; "
                                                                                 "None: a game of two")
    partner_b: str | None = Field(default=None, sa_type=String(32))
    name_a: str = Field(sa_type=String(100), description="player_a's own name (in doubles too, not the side's)")
    name_b: str = Field(sa_type=String(100))
    partner_name_a: str | None = Field(default=None, sa_type=String(100))
    partner_name_b: str | None = Field(default=None, sa_type=String(100))
    vp_a: int
    vp_b: int
    winner: str | None = Field(default=None, sa_type=String(32), description="None: a draw, or abandoned")
    reason: str = Field(sa_type=String(16), description="battle, concession, time or abandoned")
    first: str | None = Field(default=None, sa_type=String(32), description="Who took the first turn")
    mode_a: str | None = Field(default=None, sa_type=String(16), description="Fixed or Tactical (Chapter Approved)")
    mode_b: str | None = Field(default=None, sa_type=String(16))
    challenger: str | None = Field(default=None, sa_type=String(32), description="The last Challenger, if any")
    faction_a: str | None = Field(default=None, sa_type=String(64), description="The army data's faction id")
    faction_b: str | None = Field(default=None, sa_type=String(64))
    detachment_a: str | None = Field(default=None, sa_type=String(64), description="The army data's detachment id")
    detachment_b: str | None = Field(default=None, sa_type=String(64))
    tournament_id: int | None = Field(default=None, description="The event the game was a table of")
    result_message_id: int | None = Field(default=None, sa_type=BigInteger)
    ended_at: datetime = Field(sa_type=UtcDateTime)

    @property
    def doubles(self) -> bool:
        return self.partner_a is not None

    def side(self, player: str) -> Side:
        """The game as `player` played it: their side's seat, their partner and their opponents."""
        a = player in (self.player_a, self.partner_a)
        seat, name, partner = ((self.player_a, self.name_a, self.partner_name_a) if a
                               else (self.player_b, self.name_b, self.partner_name_b))
        if player != seat:  # the side's second player, in doubles
            name, partner = cast(str, partner), name
        theirs = (self.name_b, self.partner_name_b) if a else (self.name_a, self.partner_name_a)
        return Side(a, seat, name, partner, JOINED.join(n for n in theirs if n))


OPEN_LADDER = text("archived_at IS NULL")


class Ladder(SQLModel, table=True):
    """A server's opt-in ladder, one season of it: games that end between its members from `started_at` count. A
    server that rates doubles has a second ladder for them (`doubles`), opened, renewed and archived with the
    first."""

    __tablename__ = "ladder"
    __table_args__ = (
        Index("uq_ladder_open_guild", "guild_id", "doubles", unique=True, sqlite_where=OPEN_LADDER,
              postgresql_where=OPEN_LADDER),
        {"sqlite_autoincrement": True},
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=BigInteger)
    name: str = Field(sa_type=String(100))
    packs: str = Field(default="", sa_type=String(200), description="Comma-separated pack ids; empty: every pack")
    include_tournaments: bool = True
    doubles: bool = Field(default=False, description="Rates doubles games (2v2), and only those. Added by 0014")
    season: int = 1
    started_by: str = Field(sa_type=String(32))
    started_at: datetime = Field(sa_type=UtcDateTime)
    archived_at: datetime | None = Field(default=None, sa_type=UtcDateTime)


class LadderVoid(SQLModel, table=True):
    """A game an admin took out of a ladder, and who did."""

    __tablename__ = "ladder_void"

    ladder_id: int = Field(foreign_key="ladder.id", ondelete="CASCADE", primary_key=True)
    game_id: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    voided_by: str = Field(sa_type=String(32))
    voided_at: datetime = Field(sa_type=UtcDateTime)


class LadderRating(SQLModel, table=True):
    """A player's standing on a ladder: recomputed from the ordered counted games, updated as each one ends."""

    __tablename__ = "ladder_rating"
    __table_args__ = (Index("ix_ladder_rating_order", "ladder_id", "rating"),)

    ladder_id: int = Field(foreign_key="ladder.id", ondelete="CASCADE", primary_key=True)
    player_id: str = Field(sa_type=String(32), primary_key=True)
    name: str = Field(sa_type=String(100))
    mu: float
    sigma: float
    rating: float = Field(description="The conservative rating shown: mu - 3 sigma")
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    recent: str = Field(default="[]", sa_type=Text, description="JSON [[game id, rating change], ...], newest last")


class ServerTally(SQLModel, table=True):
    """A running count of a server's finished games by one thing the server picture shows (the week, a mission, a
    deployment, Fixed or Tactical, the first turn, the Challenger), and how many of them the thing's player won.
    Added to in the transaction that writes the game's summary, so /stats server reads a few rows, however many
    games the server has played."""

    __tablename__ = "server_tally"

    guild_id: int = Field(sa_type=BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    kind: str = Field(sa_type=String(16), primary_key=True)
    key: str = Field(sa_type=String(100), primary_key=True)
    games: int = 0
    wins: int = 0
