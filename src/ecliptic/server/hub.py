"""The WebSocket connections watching each game, and what each one is sent.

A connection belongs to a seat or to a spectator (``seat is None``). The hub never decides
what a viewer may see: the game service builds one message per viewer from
``observe(state, seat)`` and the events ``Event.visible(seat)``; the hub builds it once per
distinct viewer and queues it on each of that viewer's connections. Each connection has its
own bounded queue and writer task, so a slow client delays nobody; a client that falls too
far behind is disconnected (it reconnects and asks for what it missed).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket

Message = dict[str, Any]
QUEUE_LIMIT = 256


class Connection:
    def __init__(self, ws: WebSocket, game_id: str, seat: int | None) -> None:
        self.ws, self.game_id, self.seat = ws, game_id, seat
        self.queue: asyncio.Queue[Message | str | None] = asyncio.Queue(QUEUE_LIMIT)
        self.writer: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()
        self.close_code, self.close_reason = 1000, ""

    def start(self) -> None:
        self.writer = asyncio.create_task(self._write())

    def put(self, message: Message | str) -> None:
        """Queue a message, or its JSON text already encoded (one text serves every connection
        of a viewer)."""
        if self.closed.is_set():
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.closed.set()  # too far behind: the writer stops at once
            if self.writer is not None:
                self.writer.cancel()

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Stop after what is queued (the writer then closes the socket with ``code``); a
        reason is also sent as an error message."""
        if not self.closed.is_set():
            self.closed.set()
            self.close_code, self.close_reason = code, reason
            with contextlib.suppress(asyncio.QueueFull):
                if reason:
                    self.queue.put_nowait({"type": "error", "message": reason})
                self.queue.put_nowait(None)

    async def _write(self) -> None:
        try:
            while True:
                message = await self.queue.get()
                if message is None:
                    break
                if isinstance(message, str):
                    await self.ws.send_text(message)
                else:
                    await self.ws.send_json(message)
        except Exception:  # the client went away: the reader ends the connection
            pass
        finally:
            self.closed.set()
            with contextlib.suppress(Exception):
                await self.ws.close(code=self.close_code, reason=self.close_reason)


class Hub:
    def __init__(self) -> None:
        self._games: dict[str, set[Connection]] = {}

    def add(self, conn: Connection) -> None:
        self._games.setdefault(conn.game_id, set()).add(conn)

    def remove(self, conn: Connection) -> None:
        conns = self._games.get(conn.game_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self._games[conn.game_id]
        conn.close()

    def connections(self, game_id: str) -> list[Connection]:
        return list(self._games.get(game_id, ()))

    def send(self, game_id: str, build: Callable[[int | None], Message | None]) -> None:
        """Queue ``build(seat)`` on every connection of the game, built and encoded once per
        viewer: a thousand spectators share one JSON text instead of a thousand encodings
        (benchmarks/server.py measured the broadcast p99 at 1,000 clients halved by it)."""
        built: dict[int | None, str | None] = {}
        for conn in self.connections(game_id):
            if conn.seat not in built:
                fresh = build(conn.seat)
                built[conn.seat] = None if fresh is None else json.dumps(fresh, separators=(",", ":"),
                                                                        ensure_ascii=False)
            message = built[conn.seat]
            if message is not None:
                conn.put(message)

    async def close_all(self) -> None:
        conns = [c for cs in self._games.values() for c in cs]
        self._games.clear()
        for conn in conns:
            conn.close()
        writers = [c.writer for c in conns if c.writer is not None]
        if writers:
            await asyncio.wait(writers, timeout=2)
