"""Tournaments: one row per event, its state as JSON.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

ACTIVE = sa.text("status = 'active'")


def upgrade() -> None:
    op.create_table(
        "tournament",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("rounds_planned", sa.Integer(), nullable=False),
        sa.Column("announce_channel_id", sa.BigInteger(), nullable=True),
        sa.Column("organiser_role_id", sa.BigInteger(), nullable=True),
        sa.Column("seed", sa.String(length=64), nullable=False),
        sa.Column("state_json", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("status IN ('active', 'finished')", name="ck_tournament_status"),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    # One event running per server: a partial unique index, valid on SQLite and PostgreSQL.
    op.create_index(
        "uq_tournament_active_guild", "tournament", ["guild_id"], unique=True,
        sqlite_where=ACTIVE, postgresql_where=ACTIVE,
    )


def downgrade() -> None:
    op.drop_table("tournament")
