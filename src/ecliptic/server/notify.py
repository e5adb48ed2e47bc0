"""How a server process learns that another one stored an action.

One process alone needs nothing: :class:`LocalNotifier` calls back in-process. Several
``ecliptic serve`` processes sharing one PostgreSQL use ``PgNotifier``
(:mod:`ecliptic.server.pg_notify`, LISTEN/NOTIFY) with the same protocol. The callback only
says "game G has an action at index I"; the receiving process reads the actions from the
database itself, so a lost or repeated notice costs nothing but a read.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

OnNewAction = Callable[[str, int], Awaitable[None]]


class Notifier(Protocol):
    async def publish(self, game_id: str, index: int) -> None:
        """Tell every process (this one too) that ``game_id``'s log now ends at ``index``."""

    async def start(self, on_new_action: OnNewAction) -> None:
        """Begin delivering notices to ``on_new_action``."""

    async def stop(self) -> None: ...


class LocalNotifier:
    """The notifier of a single process: a notice goes straight to the callback."""

    def __init__(self) -> None:
        self._callback: OnNewAction | None = None

    async def publish(self, game_id: str, index: int) -> None:
        if self._callback is not None:
            await self._callback(game_id, index)

    async def start(self, on_new_action: OnNewAction) -> None:
        self._callback = on_new_action

    async def stop(self) -> None:
        self._callback = None
