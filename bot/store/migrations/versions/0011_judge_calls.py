"""Judge calls: each call from an event's table (one open per table), the judges on duty, and each event's judge
settings (bot/store/judge_models.py).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

OPEN_CALL = sa.text("resolved_at IS NULL")


def upgrade() -> None:
    op.create_table(
        "judge_call",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("table_number", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("thread_id", sa.BigInteger(), nullable=False),
        sa.Column("players", sa.String(length=200), nullable=False),
        sa.Column("caller", sa.String(length=32), nullable=False),
        sa.Column("note", sa.String(length=200), nullable=True),
        sa.Column("raised_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reraised_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=True),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("claimed_by", sa.String(length=32), nullable=True),
        sa.Column("claimed_name", sa.String(length=100), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("resolved_by", sa.String(length=32), nullable=True),
        sa.Column("resolved_name", sa.String(length=100), nullable=True),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ruling", sa.Text(), nullable=True),
        sa.Column("extra_minutes", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    op.create_index("uq_judge_call_open_table", "judge_call", ["tournament_id", "round_number", "table_number"],
                    unique=True, sqlite_where=OPEN_CALL, postgresql_where=OPEN_CALL)
    op.create_index("ix_judge_call_tournament", "judge_call", ["tournament_id", "raised_at"])
    op.create_table(
        "judge_duty",
        sa.Column("tournament_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("judge_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "judge_id"),
    )
    op.create_table(
        "judge_settings",
        sa.Column("tournament_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=True),
        sa.Column("role_id", sa.BigInteger(), nullable=True),
        sa.Column("board_channel_id", sa.BigInteger(), nullable=True),
        sa.Column("board_message_id", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("tournament_id"),
    )


def downgrade() -> None:
    op.drop_table("judge_settings")
    op.drop_table("judge_duty")
    op.drop_index("ix_judge_call_tournament", table_name="judge_call")
    op.drop_index("uq_judge_call_open_table", table_name="judge_call")
    op.drop_table("judge_call")
