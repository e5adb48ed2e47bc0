"""Alembic migrations of the server's database, applied at start (:func:`ecliptic.server.storage.migrate`)."""
