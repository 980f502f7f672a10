"""An open doubles challenge fills four seats: who holds each of the three left open (open_challenge.seats_json).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("open_challenge", sa.Column("seats_json", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column("open_challenge", "seats_json")  # SQLite 3.35 and later drop a column in place
