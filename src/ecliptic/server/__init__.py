"""The authoritative game server: HTTP and WebSocket API (FastAPI), storage (SQLite by
default, PostgreSQL by URL), bots in a process pool. See docs/server.md."""

from ecliptic.server.app import create_app

__all__ = ["create_app"]
