"""Community memory: a summary row per finished game (history, stats) with its indexes, a server's running
tallies, and opt-in ladders with their voids and ratings. Games that ended before are summarised at start-up
(bot/store/history.py).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

OPEN_LADDER = sa.text("archived_at IS NULL")


def upgrade() -> None:
    op.create_table(
        "game_summary",
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("pack", sa.String(length=32), nullable=False),
        sa.Column("size", sa.String(length=32), nullable=True),
        sa.Column("mission", sa.String(length=100), nullable=False),
        sa.Column("deployment", sa.String(length=100), nullable=True),
        sa.Column("player_a", sa.String(length=32), nullable=False),
        sa.Column("player_b", sa.String(length=32), nullable=False),
        sa.Column("name_a", sa.String(length=100), nullable=False),
        sa.Column("name_b", sa.String(length=100), nullable=False),
        sa.Column("vp_a", sa.Integer(), nullable=False),
        sa.Column("vp_b", sa.Integer(), nullable=False),
        sa.Column("winner", sa.String(length=32), nullable=True),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("first", sa.String(length=32), nullable=True),
        sa.Column("mode_a", sa.String(length=16), nullable=True),
        sa.Column("mode_b", sa.String(length=16), nullable=True),
        sa.Column("challenger", sa.String(length=32), nullable=True),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("result_message_id", sa.BigInteger(), nullable=True),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_index("ix_game_summary_player_a", "game_summary", ["guild_id", "player_a", "ended_at"])
    op.create_index("ix_game_summary_player_b", "game_summary", ["guild_id", "player_b", "ended_at"])
    op.create_index("ix_game_summary_guild_ended", "game_summary", ["guild_id", "ended_at"])
    op.create_table(
        "server_tally",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "kind", "key"),
    )
    op.create_table(
        "ladder",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("packs", sa.String(length=200), nullable=False),
        sa.Column("include_tournaments", sa.Boolean(), nullable=False),
        sa.Column("season", sa.Integer(), nullable=False),
        sa.Column("started_by", sa.String(length=32), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("archived_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    op.create_index("uq_ladder_open_guild", "ladder", ["guild_id"], unique=True, sqlite_where=OPEN_LADDER,
                    postgresql_where=OPEN_LADDER)
    op.create_table(
        "ladder_void",
        sa.Column("ladder_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("voided_by", sa.String(length=32), nullable=False),
        sa.Column("voided_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["ladder_id"], ["ladder.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("ladder_id", "game_id"),
    )
    op.create_table(
        "ladder_rating",
        sa.Column("ladder_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("recent", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["ladder_id"], ["ladder.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("ladder_id", "player_id"),
    )
    op.create_index("ix_ladder_rating_order", "ladder_rating", ["ladder_id", "rating"])


def downgrade() -> None:
    op.drop_index("ix_ladder_rating_order", table_name="ladder_rating")
    op.drop_table("ladder_rating")
    op.drop_table("ladder_void")
    op.drop_index("uq_ladder_open_guild", table_name="ladder")
    op.drop_table("ladder")
    op.drop_table("server_tally")
    op.drop_index("ix_game_summary_guild_ended", table_name="game_summary")
    op.drop_index("ix_game_summary_player_b", table_name="game_summary")
    op.drop_index("ix_game_summary_player_a", table_name="game_summary")
    op.drop_table("game_summary")
