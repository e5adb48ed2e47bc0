"""The time a game needs the server without a visitor (``games.wake_at``, indexed): the turn
clock's deadline of a person's decision, or when a bot's (or zombie's) decision came due.

Revision ID: 0002
Revises: 0001

Games stored before this revision had their deadlines in memory only. A game in progress
without a turn clock is marked due now, so the first start after the upgrade replays it once
in the background and stores its true time (``NULL`` when a person is to decide); one with a
clock gets a whole clock from the upgrade, as a restart gave it before.
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("wake_at", sa.Float, nullable=True))
    op.create_index("games_wake_at", "games", ["wake_at"])
    now = time.time()
    games = sa.table("games", sa.column("status", sa.String), sa.column("clock_seconds", sa.Float),
                     sa.column("wake_at", sa.Float))
    op.execute(games.update().where(games.c.status == "playing", games.c.clock_seconds.is_(None))
               .values(wake_at=now))
    op.execute(games.update().where(games.c.status == "playing", games.c.clock_seconds.is_not(None))
               .values(wake_at=games.c.clock_seconds + now))


def downgrade() -> None:
    op.drop_index("games_wake_at", "games")
    with op.batch_alter_table("games") as batch:  # (SQLite rebuilds the table)
        batch.drop_column("wake_at")
