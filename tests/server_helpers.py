"""What the server tests share: an app on a test database, seats' headers, and WebSocket
reads that fail after a timeout instead of hanging (TestClient's own reads wait forever)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import anyio
from alembic import command
from alembic.config import Config as AlembicConfig
from fastapi.testclient import TestClient
from sqlalchemy.engine import Connection
from starlette.testclient import WebSocketTestSession

from ecliptic.bots.random_bot import RandomBot
from ecliptic.server import create_app
from ecliptic.server.games import GameService, Live
from ecliptic.server.storage import MIGRATIONS, ActionRow, SeatRow, Storage

WAIT = 20.0
"""Seconds a test waits for a message that must come (a bot's move included)."""


def eventually(condition: Callable[[], Any], what: str, timeout: float = WAIT) -> Any:
    """``condition()`` once it is true, polled every 20 ms; a failure names ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"not within {timeout} s: {what}")


@contextmanager
def server(database_url: str, **options: Any) -> Iterator[TestClient]:
    options.setdefault("zombie_level", "random")
    with TestClient(create_app(database_url, **options)) as client:
        yield client


def service(client: TestClient) -> GameService:
    svc: GameService = client.app.state.service  # type: ignore[attr-defined]
    return svc


def live(client: TestClient, game_id: str) -> Live:
    found = service(client).loaded(game_id)
    assert found is not None
    return found


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, game: str = "ceres", seats: list[dict[str, Any]] | None = None,
           config: dict[str, Any] | None = None, seed: int | None = 7, take: bool = True,
           **extra: Any) -> dict[str, Any]:
    """A new game. With ``take`` (the default) each person seat's join link is taken, as its
    person's browser takes it, and ``token`` is the seat's own token from then on (the link's
    token is kept as ``link_token``); without, the seats wait for their people."""
    body: dict[str, Any] = {"game": game, "config": config or {},
                            "seats": seats or [{"name": "Ann"}, {"name": "Bob"}], **extra}
    if seed is not None:
        body["seed"] = seed
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    if take:
        for s in created["seats"]:
            if s["token"]:
                s["link_token"] = s["token"]
                s["token"] = take_seat(client, created["id"], s["seat"], s["token"])
    return created


def take_seat(client: TestClient, game_id: str, seat: int, link_token: str) -> str:
    """The seat's own token, for taking its join link (``POST .../take``)."""
    r = client.post(f"/api/games/{game_id}/seats/{seat}/take", headers=bearer(link_token))
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def tokens(created: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in created["seats"] if s["token"]}


def recv(ws: WebSocketTestSession, timeout: float = WAIT) -> dict[str, Any]:
    """The next message, or a failure after ``timeout`` seconds."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    ws._raise_on_close(message)
    data: dict[str, Any] = json.loads(message["text"])
    return data


def recv_until(ws: WebSocketTestSession, kind: str, timeout: float = WAIT) -> dict[str, Any]:
    """Skip messages until one of type ``kind``."""
    while True:
        message = recv(ws, timeout)
        if message["type"] == kind:
            return message


def nothing_queued(ws: WebSocketTestSession) -> None:
    """Nothing was sent to ``ws`` since its last read: a ping is answered first."""
    ws.send_json({"type": "ping"})
    assert recv(ws) == {"type": "pong"}


def refused(r: Any, status: int, code: str) -> str:
    """The message of a refusal, checked to be ``status`` with the error ``code`` and a message."""
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"] == code and body["message"], body
    message: str = body["message"]
    return message


def stored_seats(client: TestClient, game_id: str) -> list[SeatRow]:
    """The seats as the database holds them (hashes only), to check a refusal changed nothing."""
    return service(client).storage.seats(game_id)


def random_log(rules: Any, config: dict[str, Any], seed: int,
               actor: Callable[[int], str] = lambda seat: "person") -> list[ActionRow]:
    """A whole game of random bots (seeded by ``seed``; ``config`` names its ``players``), as
    the rows a server stores: each action's ``actor`` by its seat."""
    state = rules.new_game(config, seed)
    bots = [RandomBot(seed * 10 + i) for i in range(config["players"])]
    log: list[ActionRow] = []
    while not state.is_over:
        seat = state.current_player
        action = bots[seat].choose(rules, state, seat)
        rules.apply(state, action)
        log.append(ActionRow(len(log), seat, str(action), actor(seat), False))
    return log


@contextmanager
def at_revision(database_url: str, revision: str) -> Iterator[tuple[Storage, Connection]]:
    """A storage on a database as a server of ``revision`` made it (migrated up to it only), with
    the transaction that migrated it still open, for the rows such a server stored."""
    storage = Storage(database_url)
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with storage.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
        yield storage, conn


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """The answers of ``calls`` made at one moment, each in a thread of its own (a barrier
    releases them together), in the order they came back."""
    start = threading.Barrier(len(calls))
    answers: list[Any] = []

    def run(call: Callable[[], Any]) -> None:
        start.wait(WAIT)
        answers.append(call())

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WAIT)
    return answers
