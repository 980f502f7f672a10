"""Play around the games: open challenges, players' time zones, scheduled games' reminders, and the calls
posted to one player (so they can be closed once answered).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

OPEN_WHERE = sa.text("status = 'open'")


def upgrade() -> None:
    op.create_table(
        "open_challenge",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("author_id", sa.String(length=32), nullable=False),
        sa.Column("author_name", sa.String(length=100), nullable=False),
        sa.Column("role_id", sa.BigInteger(), nullable=True),
        sa.Column("options_json", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("taker_id", sa.String(length=32), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("status IN ('open', 'taken', 'withdrawn', 'expired')", name="ck_open_challenge_status"),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_open_challenge_open_expiry", "open_challenge", ["expires_at"],
                    sqlite_where=OPEN_WHERE, postgresql_where=OPEN_WHERE)
    op.create_table(
        "player_settings",
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("time_zone", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("user_id"),
    )
    op.create_table(
        "reminder",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_reminder_due", "reminder", ["sent", "due_at"])
    op.create_index("ix_reminder_game_id", "reminder", ["game_id"])
    op.create_table(
        "call_message",
        sa.Column("message_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("wait_key", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("message_id"),
    )
    op.create_index("ix_call_message_game_id", "call_message", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_call_message_game_id", table_name="call_message")
    op.drop_table("call_message")
    op.drop_index("ix_reminder_game_id", table_name="reminder")
    op.drop_index("ix_reminder_due", table_name="reminder")
    op.drop_table("reminder")
    op.drop_table("player_settings")
    op.drop_index("ix_open_challenge_open_expiry", table_name="open_challenge")
    op.drop_table("open_challenge")
