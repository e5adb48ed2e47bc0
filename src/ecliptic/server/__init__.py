"""The authoritative game server: HTTP and WebSocket API (FastAPI), storage (SQLite by
default, PostgreSQL by URL), bots in a process pool, and the notifiers that carry new actions
between server processes (PostgreSQL LISTEN/NOTIFY). See docs/server.md and docs/deploy.md."""

from ecliptic.server.app import create_app

__all__ = ["create_app"]
