"""Open seats: a person seat anyone may sit down at, from the lobby's open tables.

Revision ID: 0007
Revises: 0006

* ``seats.open``: the host opened the seat to anyone who finds the game in the lobby (Board Game
  Arena's open tables). While nobody has joined it, ``POST /api/games/{id}/seats/{seat}/sit`` seats
  whoever asks first, under a name of their own, for a token of their own; the seat's join link is
  spent then, as if it had been taken. A seat stays open after someone sat down (so a seat the host
  gives a new link, to free it, is offered to anyone again); the lobby lists only the open seats
  nobody holds.

Seats stored before this revision are not open.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("open", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("open")
