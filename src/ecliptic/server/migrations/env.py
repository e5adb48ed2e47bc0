"""Alembic's environment: the server passes an open connection (``config.attributes``), so
the migrations run inside the caller's transaction, on SQLite and PostgreSQL alike."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    context.run_migrations()
