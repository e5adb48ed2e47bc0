"""Emails a host can run safely: an unsubscribe link in every email, a block list, a limit per
address, and no address kept once it is no longer needed.

Revision ID: 0005
Revises: 0004

* ``seat_mail.address_hash`` (indexed): the SHA-256 of the address in lower case, so an address
  unsubscribed from one email is found, and forgotten, in every game at once.
* ``mail_blocked``: the hashes of the addresses that asked, through an email's unsubscribe link,
  to get no email from this server; a seat giving one again is refused. Only the hash: the
  server needs to recognise the address, never to read it.
* ``mail_sent``: one row per email sent, with the hash of its address (the limit per address
  counts them) and of its own unsubscribe token (the link finds the address by it; the token
  itself is only in the email, as a seat's token is only in its join link).

Rows of 0004 get their address's hash; a seat whose end email went already (``over_sent``)
has its row, and so its address, deleted: nothing more is ever sent to it.
"""

from __future__ import annotations

import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _hash(address: str) -> str:
    # (a copy of ecliptic.server.storage.address_hash as it is at this revision: a migration is frozen)
    return hashlib.sha256(address.strip().lower().encode("utf-8", "surrogatepass")).hexdigest()


def upgrade() -> None:
    op.add_column("seat_mail", sa.Column("address_hash", sa.String(64), nullable=True))
    op.create_index("seat_mail_address_hash", "seat_mail", ["address_hash"])
    op.create_table(
        "mail_blocked",
        sa.Column("address_hash", sa.String(64), primary_key=True),
        sa.Column("blocked_at", sa.Float, nullable=False),
    )
    op.create_table(
        "mail_sent",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("address_hash", sa.String(64), nullable=False),
        sa.Column("unsubscribe_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("sent_at", sa.Float, nullable=False),
        sa.Index("mail_sent_address", "address_hash", "sent_at"),
        sa.Index("mail_sent_at", "sent_at"),
    )
    seat_mail = sa.table("seat_mail", sa.column("game_id", sa.String), sa.column("seat", sa.Integer),
                         sa.column("address", sa.String), sa.column("address_hash", sa.String),
                         sa.column("over_sent", sa.Boolean))
    conn = op.get_bind()
    conn.execute(seat_mail.delete().where(seat_mail.c.over_sent == sa.true()))
    for row in conn.execute(sa.select(seat_mail.c.game_id, seat_mail.c.seat, seat_mail.c.address)).all():
        conn.execute(seat_mail.update().where(seat_mail.c.game_id == row.game_id, seat_mail.c.seat == row.seat)
                     .values(address_hash=_hash(row.address)))


def downgrade() -> None:
    op.drop_table("mail_sent")
    op.drop_table("mail_blocked")
    op.drop_index("seat_mail_address_hash", "seat_mail")
    with op.batch_alter_table("seat_mail") as batch:  # (SQLite rebuilds the table)
        batch.drop_column("address_hash")
