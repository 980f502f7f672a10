"""Armies: the lists players give (army_list), and each finished game's factions and detachments in its summary
(games summarised before have none). Events index their games' summaries for their faction stats.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

ARMY_COLUMNS = ("faction_a", "faction_b", "detachment_a", "detachment_b")


def upgrade() -> None:
    op.create_table(
        "army_list",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("owner_id", sa.String(length=32), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("checked_json", sa.Text(), nullable=False),
        sa.Column("faction", sa.String(length=64), nullable=False),
        sa.Column("detachment", sa.String(length=64), nullable=True),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("flags", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_army_list_tournament", "army_list", ["tournament_id", "owner_id"])
    with op.batch_alter_table("game_summary") as batch:
        for column in ARMY_COLUMNS:
            batch.add_column(sa.Column(column, sa.String(length=64), nullable=True))
    op.create_index("ix_game_summary_tournament", "game_summary", ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_game_summary_tournament", table_name="game_summary")
    with op.batch_alter_table("game_summary") as batch:
        for column in ARMY_COLUMNS:
            batch.drop_column(column)
    op.drop_index("ix_army_list_tournament", table_name="army_list")
    op.drop_table("army_list")
