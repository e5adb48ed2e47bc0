"""The rematch of a finished game ("Play again"): ``games.rematch_id``, the game that plays it
again with the same people.

Revision ID: 0003
Revises: 0002

Stored on the finished game, and set only while it is still empty (in the transaction that
stores the new game), so a second request, a retry or another server process finds the same
rematch instead of making a second one. Games stored before have none.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("rematch_id", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:  # (SQLite rebuilds the table)
        batch.drop_column("rematch_id")
