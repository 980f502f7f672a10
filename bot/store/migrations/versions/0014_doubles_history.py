"""Doubles in community memory: each finished game's second player of each side, by id and name (None: a game of
two), indexed for a player's history like the seats; and a server's doubles ladder, a second ladder beside its
singles one (ladder.doubles), so the open ladder is one per server and kind.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-12
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

OPEN_LADDER = sa.text("archived_at IS NULL")


def upgrade() -> None:
    with op.batch_alter_table("game_summary") as batch:
        for side in "ab":
            batch.add_column(sa.Column(f"partner_{side}", sa.String(length=32), nullable=True))
            batch.add_column(sa.Column(f"partner_name_{side}", sa.String(length=100), nullable=True))
    for side in "ab":
        op.create_index(f"ix_game_summary_partner_{side}", "game_summary", ["guild_id", f"partner_{side}", "ended_at"])
    op.drop_index("uq_ladder_open_guild", table_name="ladder")
    # Plain ALTER TABLEs, never a batch copy of the table: dropping the old ladder table would cascade to its
    # ratings and voids in SQLite (foreign keys are on). A literal default keeps SQLite's ADD COLUMN in place.
    op.add_column("ladder", sa.Column("doubles", sa.Boolean(), nullable=False, server_default="0"))
    _open_ladder_index("guild_id", "doubles")


def downgrade() -> None:
    # A server's doubles ladders go: the older schema has one open ladder a server, and no doubles.
    doubles = "SELECT id FROM ladder WHERE doubles"
    for table in ("ladder_rating", "ladder_void"):
        op.execute(f"DELETE FROM {table} WHERE ladder_id IN ({doubles})")
    op.execute("DELETE FROM ladder WHERE doubles")
    op.drop_index("uq_ladder_open_guild", table_name="ladder")
    op.drop_column("ladder", "doubles")  # SQLite 3.35 and later drop a column in place
    _open_ladder_index("guild_id")
    for side in "ab":
        op.drop_index(f"ix_game_summary_partner_{side}", table_name="game_summary")
    with op.batch_alter_table("game_summary") as batch:
        for side in "ab":
            batch.drop_column(f"partner_name_{side}")
            batch.drop_column(f"partner_{side}")


def _open_ladder_index(*columns: str) -> None:
    op.create_index("uq_ladder_open_guild", "ladder", list(columns), unique=True, sqlite_where=OPEN_LADDER,
                    postgresql_where=OPEN_LADDER)
