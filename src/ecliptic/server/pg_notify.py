"""New actions carried between server processes that share one PostgreSQL database (LISTEN/NOTIFY).

Several ``ecliptic serve`` processes can serve the same game: the database orders its actions (the
unique index on game and index refuses a second action at an index), and this notifier tells every
process that a new action was committed, so each pushes it to the clients it holds for that game.
A notification carries only the game id and the action's index, never an action or a view: the
receiving process reads the action from the database, which stays the one source of truth, and the
payload stays far below PostgreSQL's 8000-byte limit.

Delivery is what PostgreSQL gives: a notification reaches every listening connection of the database,
the publishing process's own included (as the in-process notifier calls its own callback), in the order
they were committed. It is not a queue: while a listener is disconnected its notifications are lost. So
the listener reconnects by itself (with back-off) and then calls ``on_reconnect``, where the server can
re-read the newest index of each game it watches; a client that reconnects asks for what it missed by
its last index anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo
from psycopg.rows import TupleRow

CHANNEL = "ecliptic_actions"
PAYLOAD_LIMIT = 8000
"""PostgreSQL refuses a NOTIFY payload of 8000 bytes or more."""

KEEPALIVES = {"keepalives": 1, "keepalives_idle": 30, "keepalives_interval": 10, "keepalives_count": 3}
"""A listener only reads; without TCP keepalives a peer that vanished (no reset) would leave it waiting
forever. With these it learns of it within about a minute and reconnects."""

log = logging.getLogger(__name__)

OnNewAction = Callable[[str, int], Awaitable[None]]


class Notifier(Protocol):
    """What the server needs from a notifier (the in-process one and this one)."""

    async def start(self, on_new_action: OnNewAction) -> None: ...

    async def publish(self, game_id: str, index: int) -> None: ...

    async def stop(self) -> None: ...


def libpq_conninfo(url: str) -> str:
    """The database URL as libpq reads it: SQLAlchemy's ``postgresql+psycopg://`` without ``+psycopg``."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.split("+", 1)[0] not in ("postgresql", "postgres"):
        raise ValueError("PgNotifier needs a postgresql:// database URL")
    return "postgresql://" + rest


def encode(game_id: str, index: int) -> str:
    payload = json.dumps({"game": game_id, "index": index}, separators=(",", ":"))
    if len(payload.encode()) >= PAYLOAD_LIMIT:
        raise ValueError(f"game id too long for a notification ({len(game_id)} characters)")
    return payload


def decode(payload: str) -> tuple[str, int] | None:
    """``(game_id, index)``, or None for a payload this module did not write."""
    try:
        data = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    game_id, index = data.get("game"), data.get("index")
    if not isinstance(game_id, str) or not isinstance(index, int) or isinstance(index, bool):
        return None
    return game_id, index


class PgNotifier:
    """:class:`Notifier` over PostgreSQL LISTEN/NOTIFY (psycopg 3, asyncio).

    Two connections in autocommit mode: one listens (psycopg holds a connection's lock while it waits
    for notifications), one publishes. Both reconnect when the connection drops; ``start`` fails at once
    if the database cannot be reached, so a misconfigured server does not start.
    """

    def __init__(
        self,
        url: str,
        *,
        channel: str = CHANNEL,
        on_reconnect: Callable[[], Awaitable[None]] | None = None,
        min_delay: float = 0.1,
        max_delay: float = 5.0,
    ) -> None:
        self._conninfo = libpq_conninfo(url)
        self._channel = channel
        self._on_reconnect = on_reconnect
        self._min_delay, self._max_delay = min_delay, max_delay
        self._on_new_action: OnNewAction | None = None
        self._listener: psycopg.AsyncConnection[TupleRow] | None = None
        self._listen_task: asyncio.Task[None] | None = None
        self._publisher: psycopg.AsyncConnection[TupleRow] | None = None
        self._publish_lock = asyncio.Lock()

    async def _connect(self, role: str) -> psycopg.AsyncConnection[TupleRow]:
        conninfo = make_conninfo(self._conninfo, application_name=f"ecliptic {role}", **KEEPALIVES)
        return await psycopg.AsyncConnection.connect(conninfo, autocommit=True)

    async def _listen(self) -> psycopg.AsyncConnection[TupleRow]:
        conn = await self._connect("listener")
        try:
            await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self._channel)))
        except BaseException:
            await conn.close()
            raise
        return conn

    async def start(self, on_new_action: OnNewAction) -> None:
        if self._listen_task is not None:
            raise RuntimeError("PgNotifier already started")
        self._on_new_action = on_new_action
        self._listener = await self._listen()
        self._listen_task = asyncio.create_task(self._listen_forever(), name="ecliptic pg listener")

    async def publish(self, game_id: str, index: int) -> None:
        """Tells every listening process that the action at ``index`` of ``game_id`` is committed.

        Call it after the commit (PostgreSQL would hold a NOTIFY sent inside the transaction until its
        commit anyway). A dropped connection is reopened and the notification sent once more.
        """
        payload = encode(game_id, index)
        async with self._publish_lock:
            for attempt in (1, 2):
                try:
                    if self._publisher is None or self._publisher.closed:
                        self._publisher = await self._connect("publisher")
                    await self._publisher.execute("SELECT pg_notify(%s, %s)", (self._channel, payload))
                    return
                except psycopg.OperationalError:
                    await self._close_publisher()
                    if attempt == 2:
                        raise
                    log.warning("notification connection lost; reconnecting")

    async def stop(self) -> None:
        """Stops listening and closes both connections; safe to call twice or before ``start``."""
        task, self._listen_task = self._listen_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self._close_listener()
        async with self._publish_lock:
            await self._close_publisher()

    async def _close_listener(self) -> None:
        conn, self._listener = self._listener, None
        if conn is not None:
            await conn.close()

    async def _close_publisher(self) -> None:
        conn, self._publisher = self._publisher, None
        if conn is not None:
            await conn.close()

    async def _listen_forever(self) -> None:
        """Listens until cancelled by ``stop``; a dropped connection is reopened with back-off (doubling
        from ``min_delay`` to ``max_delay``, back to ``min_delay`` once a connection has lasted)."""
        loop = asyncio.get_running_loop()
        delay = self._min_delay
        while True:
            if self._listener is None:
                try:
                    self._listener = await self._listen()
                except psycopg.Error as error:
                    log.warning(
                        "cannot reach the database to listen for new actions (%s); retrying in %.1f s",
                        type(error).__name__, delay,
                    )
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, self._max_delay)
                    continue
                log.info("listening for new actions again")
                if self._on_reconnect is not None:
                    await self._guarded(self._on_reconnect())
            connected_at = loop.time()
            try:
                async for notify in self._listener.notifies():
                    await self._deliver(notify.payload)
            except psycopg.Error as error:
                log.warning("the connection listening for new actions dropped (%s); reconnecting", type(error).__name__)
            await self._close_listener()
            if loop.time() - connected_at > self._max_delay:
                delay = self._min_delay
            await asyncio.sleep(delay)
            delay = min(delay * 2, self._max_delay)

    async def _deliver(self, payload: str) -> None:
        message = decode(payload)
        if message is None:
            log.warning("ignored a notification on %s that is not a new action", self._channel)
            return
        assert self._on_new_action is not None
        await self._guarded(self._on_new_action(*message))

    @staticmethod
    async def _guarded(call: Awaitable[None]) -> None:
        """A failing callback is logged; it must not stop the deliveries to the ones after it."""
        try:
            await call
        except Exception:
            log.exception("a new-action callback failed")
