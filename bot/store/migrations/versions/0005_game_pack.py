"""Each game names its mission pack and the schema version of its stored snapshot, so one table holds the games
of every pack (bot/engine/packs.py). Every game stored before was a Chapter Approved 2025-26 game.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

BATCH = 500


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("pack", sa.String(length=32), nullable=False, server_default="ca-2025-26"))
        batch.add_column(sa.Column("pack_schema", sa.Integer(), nullable=False, server_default="1"))
    # The schema version each stored snapshot carries, read in batches so a large database never sits in memory.
    game = sa.table("game", sa.column("id", sa.Integer), sa.column("state_json", sa.Text),
                    sa.column("pack_schema", sa.Integer))
    conn = op.get_bind()
    last = 0
    while rows := conn.execute(sa.select(game.c.id, game.c.state_json).where(game.c.id > last)
                               .order_by(game.c.id).limit(BATCH)).all():
        for game_id, state_json in rows:
            schema = json.loads(state_json).get("schema_version", 1)
            conn.execute(game.update().where(game.c.id == game_id).values(pack_schema=schema))
        last = rows[-1][0]


def downgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.drop_column("pack_schema")
        batch.drop_column("pack")
