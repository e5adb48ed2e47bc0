"""Join links become invitations: each is taken once, for a token of the seat's own.

Revision ID: 0006
Revises: 0005

* ``seats.link_hash``: the hash of the seat's join link's token while the link waits to be taken
  (``POST /api/games/{id}/seats/{seat}/take``). A link's token is no seat token: whoever holds it
  (the host's browser, a forwarded email) can take the seat once, and nothing else.
* ``seats.joined``: a person has taken the seat (a bot seat always counts as joined), so the host
  sees who has come.
* ``spent_tokens``: the hashes of tokens that no longer open anything (a link taken, a link or a
  token the host replaced, a token whose seat moved to another device), with why, so a later use
  is told why (``link_used``, ``link_replaced``, ``seat_moved``) instead of "not a token".

Seats stored before this revision count as joined and keep their token (``link_hash`` empty): the
join links given out before it keep working as the seat's token, as they always did.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("link_hash", sa.String(64), nullable=True))
    op.add_column("seats", sa.Column("joined", sa.Boolean, nullable=False, server_default=sa.true()))
    op.create_table(
        "spent_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("spent_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("spent_tokens")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("joined")
        batch.drop_column("link_hash")
