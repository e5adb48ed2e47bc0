"""PgNotifier against the session's PostgreSQL cluster: two notifiers on one database stand for two
server processes. Every wait is bounded (an event awaited with a timeout), never a sleep."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import psycopg
import pytest

from ecliptic.server.pg_notify import CHANNEL, Notifier, PgNotifier, libpq_conninfo
from postgres_cluster import free_port

WAIT = 10.0
"""Seconds: far above what a notification takes (milliseconds), so a slow machine does not fail."""


class Inbox:
    """A new-action callback that records what it receives and lets a test await a count of them."""

    def __init__(self, fail_on: str | None = None) -> None:
        self.received: list[tuple[str, int]] = []
        self._changed = asyncio.Event()
        self._fail_on = fail_on

    async def __call__(self, game_id: str, index: int) -> None:
        self.received.append((game_id, index))
        self._changed.set()
        if game_id == self._fail_on:
            raise RuntimeError("a callback that fails")

    async def wait_for(self, count: int) -> list[tuple[str, int]]:
        async with asyncio.timeout(WAIT):
            while len(self.received) < count:
                self._changed.clear()
                await self._changed.wait()
        return self.received


class Flag:
    """An ``on_reconnect`` callback a test can await."""

    def __init__(self) -> None:
        self.event = asyncio.Event()

    async def __call__(self) -> None:
        self.event.set()

    async def wait(self) -> None:
        await asyncio.wait_for(self.event.wait(), WAIT)
        self.event.clear()


async def _sessions(url: str, application_name: str) -> list[int]:
    async with await psycopg.AsyncConnection.connect(libpq_conninfo(url), autocommit=True) as conn:
        cursor = await conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = %s",
            (application_name,),
        )
        return [row[0] for row in await cursor.fetchall()]


async def _terminate(url: str, application_name: str) -> int:
    """Ends the server sessions of that name, as a database restart or a network failure would."""
    pids = await _sessions(url, application_name)
    async with await psycopg.AsyncConnection.connect(libpq_conninfo(url), autocommit=True) as conn:
        for pid in pids:
            await conn.execute("SELECT pg_terminate_backend(%s)", (pid,))
    return len(pids)


def _run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(scenario(), 4 * WAIT))


@pytest.mark.postgresql
def test_an_action_published_by_one_process_reaches_the_other(fresh_postgresql_url: str) -> None:
    async def scenario() -> None:
        first, second = Inbox(), Inbox()
        one: Notifier = PgNotifier(fresh_postgresql_url)
        other: Notifier = PgNotifier(fresh_postgresql_url)
        await one.start(first)
        await other.start(second)
        try:
            await one.publish("g-1", 7)
            assert await second.wait_for(1) == [("g-1", 7)]
            assert await first.wait_for(1) == [("g-1", 7)]  # the publisher's own process hears it too
        finally:
            await one.stop()
            await other.stop()
        assert await _sessions(fresh_postgresql_url, "ecliptic listener") == []  # stopped means disconnected
        assert await _sessions(fresh_postgresql_url, "ecliptic publisher") == []
        await one.stop()  # a second stop is harmless

    _run(scenario)


@pytest.mark.postgresql
def test_actions_arrive_in_the_order_they_were_published(fresh_postgresql_url: str) -> None:
    sent = [(game, index) for index in range(20) for game in ("g-1", "g-2")]

    async def scenario() -> None:
        inbox = Inbox()
        one, other = PgNotifier(fresh_postgresql_url), PgNotifier(fresh_postgresql_url)
        await other.start(inbox)
        await one.start(Inbox())
        try:
            for game, index in sent:
                await one.publish(game, index)
            assert await inbox.wait_for(len(sent)) == sent
        finally:
            await one.stop()
            await other.stop()

    _run(scenario)


@pytest.mark.postgresql
def test_both_connections_come_back_after_they_drop(fresh_postgresql_url: str) -> None:
    async def scenario() -> None:
        inbox, reconnected = Inbox(), Flag()
        one = PgNotifier(fresh_postgresql_url)
        other = PgNotifier(fresh_postgresql_url, on_reconnect=reconnected)
        await one.start(Inbox())
        await other.start(inbox)
        try:
            await one.publish("g-1", 0)
            await inbox.wait_for(1)
            assert await _terminate(fresh_postgresql_url, "ecliptic listener") == 2
            assert await _terminate(fresh_postgresql_url, "ecliptic publisher") == 1
            await reconnected.wait()
            await one.publish("g-1", 1)  # on a dropped publishing connection: reopened, sent once
            assert await inbox.wait_for(2) == [("g-1", 0), ("g-1", 1)]
        finally:
            await one.stop()
            await other.stop()

    _run(scenario)


@pytest.mark.postgresql
def test_a_foreign_notification_or_a_failing_callback_does_not_stop_the_listener(fresh_postgresql_url: str) -> None:
    async def scenario() -> None:
        inbox = Inbox(fail_on="boom")
        one, other = PgNotifier(fresh_postgresql_url), PgNotifier(fresh_postgresql_url)
        await other.start(inbox)
        await one.start(Inbox())
        try:
            async with await psycopg.AsyncConnection.connect(
                libpq_conninfo(fresh_postgresql_url), autocommit=True
            ) as conn:
                for payload in ("not json", '{"game": "g-1"}', '{"game": "g-1", "index": true}', "[]"):
                    await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
            await one.publish("boom", 1)
            await one.publish("g-1", 2)
            assert await inbox.wait_for(2) == [("boom", 1), ("g-1", 2)]
        finally:
            await one.stop()
            await other.stop()

    _run(scenario)


def test_a_notifier_refuses_a_url_that_is_not_postgresql() -> None:
    with pytest.raises(ValueError, match="postgresql://"):
        PgNotifier("sqlite:///games.sqlite3")


def test_start_fails_at_once_when_the_database_cannot_be_reached() -> None:
    async def scenario() -> None:
        notifier = PgNotifier(f"postgresql+psycopg://nobody:secret@127.0.0.1:{free_port()}/none")
        with pytest.raises(psycopg.OperationalError):
            await notifier.start(Inbox())
        await notifier.stop()

    _run(scenario)
