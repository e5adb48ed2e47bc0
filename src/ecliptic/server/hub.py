"""The WebSocket connections watching each game, and what each one is sent.

A connection belongs to a seat or to a spectator (``seat is None``). The hub never decides
what a viewer may see: the game service builds one message per viewer from
``observe(state, seat)`` and the events ``Event.visible(seat)``; the hub builds it once per
distinct viewer and queues it on each of that viewer's connections. Each connection has its
own bounded queue and writer task, so a slow client delays nobody; a client that falls too
far behind is disconnected (it reconnects and asks for what it missed).

Players first: a broadcast is queued on the seats' connections at once and on the
spectators' :data:`SPECTATOR_DELAY` later, :data:`RELEASE_CHUNK` connections per turn of the
event loop. At a thousand viewers sending the copies is most
of an action's cost (tens of milliseconds, docs/server-benchmark.md); this way neither the
other players' messages nor the acting player's acknowledgement wait behind them. Nothing
overtakes a held message: any other message to that connection releases it first.

A connection that asked for patches (``"patches": true`` in its first message) is sent, in
place of each new whole view, the JSON Patch from the view it was sent last (its *base*) to
the new one (:mod:`ecliptic.server.patch`), computed once per viewer and base: the
spectators of a game share one base, so a thousand of them cost one diff and one text.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket

from ecliptic.server.patch import diff, encode, rev

Message = dict[str, Any]
QUEUE_LIMIT = 256
SPECTATOR_DELAY = 0.005
"""Seconds a broadcast's spectator copies wait: long enough for the rest of an action's
request (its PostgreSQL NOTIFY included) to answer first, short enough to go unnoticed."""
RELEASE_CHUNK = 100
"""Spectator connections released per turn of the event loop: between two chunks it reads
its sockets (a request's database answer, a new request), so a thousand sends do not hold
everything else up."""


class Connection:
    def __init__(self, ws: WebSocket, game_id: str, seat: int | None, patches: bool = False,
                 token: str | None = None) -> None:
        self.ws, self.game_id, self.seat = ws, game_id, seat
        self.patches = patches
        self.token = token
        """The seat's token it authenticated with, in memory only: a rematch made while it is
        connected derives the seat's new token from it (:func:`ecliptic.server.games.rematch_token`)."""
        self.base: tuple[str, Any] | None = None
        """A patching connection's last view sent, with its rev: what the next patch applies to."""
        self.queue: asyncio.Queue[Message | str | None] = asyncio.Queue(QUEUE_LIMIT)
        self.held: list[str] = []
        """Broadcast texts to be queued a moment later (:meth:`hold`), in order."""
        self.writer: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()
        self.close_code, self.close_reason = 1000, ""

    def start(self) -> None:
        self.writer = asyncio.create_task(self._write())

    def put(self, message: Message | str) -> None:
        """Queue a message, or its JSON text already encoded (one text serves every connection
        of a viewer). A message with a whole view (a ``hello``) becomes a patching
        connection's base; it is told the view's rev."""
        if self.closed.is_set():
            return
        self.release()
        if self.patches and isinstance(message, dict) and "view" in message:
            text = encode(message["view"])
            self.base = (rev(text), message["view"])
            message = {**message, "rev": self.base[0]}
        self._enqueue(message)

    def hold(self, text: str) -> None:
        """Keep a broadcast's text until :meth:`release` (or any other message) queues it."""
        if not self.closed.is_set():
            self.held.append(text)

    def release(self) -> None:
        held, self.held = self.held, []
        for text in held:
            self._enqueue(text)

    def _enqueue(self, message: Message | str) -> None:
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
            self.release()
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


def release(conns: list[Connection], start: int = 0) -> None:
    """Queue the held messages of ``conns[start:]``, :data:`RELEASE_CHUNK` connections per turn
    of the event loop (all at once without one)."""
    end = start + RELEASE_CHUNK
    for conn in conns[start:end]:
        conn.release()
    if end < len(conns):
        try:
            asyncio.get_running_loop().call_soon(release, conns, end)
        except RuntimeError:
            release(conns, end)


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
        """Queue ``build(seat)`` on every connection of the game (the spectators' a moment
        later, see the module's docstring), built and encoded once per viewer, and for
        patching connections diffed once per viewer and base: a thousand spectators share one
        JSON text instead of a thousand encodings (benchmarks/server.py measured the
        broadcast p99 at 1,000 clients halved by it)."""
        built: dict[int | None, Message | None] = {}
        whole: dict[int | None, str] = {}
        views: dict[int | None, tuple[str, Any]] = {}
        patched: dict[tuple[int | None, str], str] = {}
        held: list[Connection] = []
        for conn in self.connections(game_id):
            seat = conn.seat
            if seat not in built:
                built[seat] = build(seat)
            message = built[seat]
            if message is None:
                continue
            if conn.patches and "view" in message and conn.base is not None:
                if seat not in views:
                    views[seat] = (rev(encode(message["view"])), message["view"])
                new_rev, view = views[seat]
                key = (seat, conn.base[0])
                if key not in patched:
                    body = {k: v for k, v in message.items() if k != "view"}
                    body.update(base=conn.base[0], rev=new_rev, patch=diff(conn.base[1], view))
                    patched[key] = encode(body)
                text = patched[key]
                conn.base = (new_rev, view)
            elif conn.patches and "view" in message:
                conn.put(message)  # no base yet: the whole view, which becomes it
                continue
            else:
                if seat not in whole:
                    whole[seat] = encode(message)
                text = whole[seat]
            if seat is None:
                conn.hold(text)
                held.append(conn)
            else:
                conn.put(text)
        if held:
            try:
                asyncio.get_running_loop().call_later(SPECTATOR_DELAY, release, held)
            except RuntimeError:  # no event loop (a test of the hub alone): at once
                release(held)

    async def close_all(self) -> None:
        conns = [c for cs in self._games.values() for c in cs]
        self._games.clear()
        for conn in conns:
            conn.close()
        writers = [c.writer for c in conns if c.writer is not None]
        if writers:
            await asyncio.wait(writers, timeout=2)
