"""Two ``ecliptic serve`` processes on two ports sharing one PostgreSQL database, each with a
client of its own on the same game (the issue's "beyond one machine" test, for real): a move
made through one server reaches the other's WebSocket client, and two moves sent at once at
the same index, one to each server, give exactly one 200 and one 409."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from server_process import Server, start_cold

pytestmark = pytest.mark.postgresql

WAIT = 20.0


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def next_message(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of ``kind`` (the server may send others, e.g. chat, first)."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=WAIT))
        if message["type"] == kind:
            return message


@pytest.fixture
def two_servers(fresh_postgresql_url: str, tmp_path: Path) -> Any:
    servers: list[Server] = []
    try:
        for name in ("a", "b"):
            (tmp_path / name).mkdir()
            servers.append(start_cold(fresh_postgresql_url, tmp_path / name))
        yield servers
    finally:
        for s in servers:
            s.stop()


def test_a_move_through_one_server_reaches_the_other_and_the_database_orders_the_moves(two_servers: Any) -> None:
    a, b = two_servers
    with httpx.Client(base_url=a.base_url, timeout=WAIT) as http_a, \
            httpx.Client(base_url=b.base_url, timeout=WAIT) as http_b:
        created = http_a.post("/api/games", json={"game": "ceres", "seed": 3,
                                                  "seats": [{"name": "Ann"}, {"name": "Bob"}]}).json()
        gid = created["id"]
        seat_tokens: dict[int, str] = {}  # (links taken through server b)
        for s in created["seats"]:
            r = http_b.post(f"/api/games/{gid}/seats/{s['seat']}/take",
                            headers={"Authorization": f"Bearer {s['token']}"})
            assert r.status_code == 200, r.text
            seat_tokens[s["seat"]] = r.json()["token"]
        with connect(f"ws://{b.base_url.split('://', 1)[1]}/api/games/{gid}/ws") as ws, \
                connect(f"ws://{a.base_url.split('://', 1)[1]}/api/games/{gid}/ws") as ws_a:
            ws.send(json.dumps({"spectator": True}))
            assert next_message(ws, "hello")["index"] == 0
            ws_a.send(json.dumps({"spectator": True}))
            assert next_message(ws_a, "hello")["index"] == 0
            # A move made through server a reaches the client of server b.
            seat = http_a.get(f"/api/games/{gid}").json()["current_seat"]
            view = http_a.get(f"/api/games/{gid}", headers=bearer(seat_tokens[seat])).json()
            move = view["legal_actions"][0]["notation"]
            r = http_a.post(f"/api/games/{gid}/actions", headers=bearer(seat_tokens[seat]),
                            json={"action": move, "expected_index": 0})
            assert r.status_code == 200, r.text
            assert next_message(ws, "action")["index"] == 1
            # Two moves at the same index at once, one through each server: one of each answer.
            seat = http_b.get(f"/api/games/{gid}").json()["current_seat"]
            view = http_b.get(f"/api/games/{gid}", headers=bearer(seat_tokens[seat])).json()
            moves = [view["legal_actions"][0]["notation"], view["legal_actions"][-1]["notation"]]
            start = threading.Barrier(2)
            answers: dict[str, int] = {}

            def send(http: httpx.Client, name: str, move: str) -> None:
                start.wait()
                answers[name] = http.post(f"/api/games/{gid}/actions", headers=bearer(seat_tokens[seat]),
                                          json={"action": move, "expected_index": 1}).status_code

            threads = [threading.Thread(target=send, args=(http_a, "a", moves[0])),
                       threading.Thread(target=send, args=(http_b, "b", moves[1]))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(WAIT)
            assert sorted(answers.values()) == [200, 409], answers
            assert next_message(ws, "action")["index"] == 2
            # Each server tells its own clients of every move, whichever server took it; once
            # both have told theirs, both agree on the log the database kept.
            assert [next_message(ws_a, "action")["index"] for _ in range(2)] == [1, 2]
        assert http_a.get(f"/api/games/{gid}").json()["index"] == 2
        assert http_b.get(f"/api/games/{gid}").json()["index"] == 2
