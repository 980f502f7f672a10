"""Each event's judges choose how long a call waits for a judge before it is raised again (judge_settings).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("judge_settings") as batch:
        batch.add_column(sa.Column("reraise_minutes", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("judge_settings") as batch:
        batch.drop_column("reraise_minutes")
