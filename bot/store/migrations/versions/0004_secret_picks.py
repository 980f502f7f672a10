"""Secret selections made on a posted mission (Grand Tournament 2020 secondary objectives), hidden until both
players have made theirs.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "secret_pick",
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("picks", sa.Text(), nullable=False),
        sa.Column("revealed", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("message_id", "player_id"),
    )


def downgrade() -> None:
    op.drop_table("secret_pick")
