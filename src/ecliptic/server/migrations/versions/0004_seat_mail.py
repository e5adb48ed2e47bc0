"""Email a seat when it is its turn: ``seat_mail``, one row per seat that asked for it.

Revision ID: 0004
Revises: 0003

A table of its own, not columns of ``seats``: the address is read by the mail code only, so no
query that builds a view, a lobby list or a WebSocket message can carry it by accident.
``turn_sent`` is the index at which the seat's run of decisions began when it was last claimed
(an email sent, or the seat seen on its page), ``over_sent`` whether the end was: each is set
only while it is older (or false), in one ``UPDATE``, so several server processes sharing the
database send an email once. Games stored before have no row: nobody is emailed.
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
        "seat_mail",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("turn_sent", sa.Integer, nullable=True),
        sa.Column("over_sent", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("seat_mail")
