"""The WebSocket protocol, its limits, and hidden information over the whole API.

The hidden-information tests play full games through HTTP with every seat and a spectator
connected over WebSocket, and check every message and every HTTP answer each one gets
against what the true state says it may not see (the may-not-see functions of
``test_hidden_information``, a second opinion written from the rulebook's components)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ecliptic.server.app import MAX_WS_MESSAGE, WS_BURST
from server_helpers import bearer, create, live, nothing_queued, recv, server, tokens
from test_hidden_information import ceres_secret, ceres_unseen, ids, tc_secret, tc_unseen


def test_first_message_authenticates_a_seat_or_a_spectator(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c)
        gid = created["id"]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"token": tokens(created)[1]})
            hello = recv(ws)
            assert (hello["type"], hello["seat"], hello["index"]) == ("hello", 1, 0)
            assert hello["view"]["view"]["observer"] == 1
        with c.websocket_connect(f"/api/games/{gid}/ws?token={tokens(created)[0]}") as ws:
            ws.send_json({"spectator": True})  # a token in the URL counts for nothing
            assert recv(ws)["seat"] is None


@pytest.mark.parametrize("first, code", [
    ({"token": "not-a-token"}, 4403),
    ({"hello": 1}, 4401),
    ({"spectator": "yes"}, 4401),
])
def test_a_bad_first_message_closes_the_socket(database_url: str, first: dict[str, Any], code: int) -> None:
    with server(database_url) as c:
        gid = create(c)["id"]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json(first)
            assert recv(ws)["type"] == "error"
            with pytest.raises(WebSocketDisconnect) as closed:
                recv(ws)
            assert closed.value.code == code


def test_unknown_game_and_foreign_origin(database_url: str) -> None:
    with server(database_url) as c:
        with c.websocket_connect("/api/games/nosuchgame/ws") as ws:
            ws.send_json({"spectator": True})
            assert recv(ws)["type"] == "error"
            with pytest.raises(WebSocketDisconnect) as closed:
                recv(ws)
            assert closed.value.code == 4404
        gid = create(c)["id"]
        with pytest.raises(WebSocketDisconnect), c.websocket_connect(
                f"/api/games/{gid}/ws", headers={"origin": "https://elsewhere.example"}):
            pass
        with c.websocket_connect(f"/api/games/{gid}/ws", headers={"origin": "http://testserver"}) as ws:
            ws.send_json({"spectator": True})
            assert recv(ws)["type"] == "hello"


def test_an_oversize_message_or_too_many_close_the_connection(database_url: str) -> None:
    with server(database_url) as c:
        gid = create(c)["id"]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"spectator": True})
            recv(ws)
            ws.send_text(json.dumps({"type": "ping", "pad": "x" * MAX_WS_MESSAGE}))
            assert recv(ws)["type"] == "error"
            with pytest.raises(WebSocketDisconnect) as closed:
                recv(ws)
            assert closed.value.code == 1009
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"spectator": True})
            recv(ws)
            for _ in range(WS_BURST + 20):
                ws.send_json({"type": "ping"})
            codes = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    codes.append(recv(ws)["type"])
            assert closed.value.code == 1008 and codes[-1] == "error" and len(codes) <= WS_BURST + 2


def test_a_reconnecting_client_gets_what_it_missed(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c)
        gid = created["id"]
        for _ in range(3):
            view = c.get(f"/api/games/{gid}").json()
            headers = bearer(tokens(created)[view["current_seat"]])
            seat_view = c.get(f"/api/games/{gid}", headers=headers).json()
            c.post(f"/api/games/{gid}/actions", headers=headers,
                   json={"action": seat_view["legal_actions"][0]["notation"], "expected_index": view["index"]})
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"spectator": True, "since": 1})
            hello = recv(ws)
            assert hello["index"] == 3 and [m["index"] for m in hello["missed"]] == [2, 3]
            assert all(m["events"] for m in hello["missed"])
            ws.send_json({"since": 2})
            assert [m["index"] for m in recv(ws)["missed"]] == [3]
            nothing_queued(ws)


# -- hidden information over the API ------------------------------------------------------

BIG_SEED = 6_150_473_189_227_950_000
"""Seeds of 19 digits, so that finding one's digits in a message is a leak, not chance."""


def _check(label: str, payload: Any, hidden: set[str], extra: tuple[str, ...]) -> None:
    text = json.dumps(payload)
    leaked = ids(payload) & hidden
    assert not leaked, f"{label} shows {sorted(leaked)}"
    for secret in extra:
        assert secret not in text, f"{label} shows the seed or the generator"


def play_watched(c: TestClient, game: str, config: dict[str, Any], players: int, seed: int) -> tuple[int, int]:
    """A full game through the API with random legal actions; every WS message and HTTP answer
    to every seat and to a spectator is checked. Returns the number of actions and of the
    private events the seats received over WebSocket (the filter must not drop those)."""
    secret, unseen = (tc_secret, tc_unseen) if game == "tauceti" else (ceres_secret, ceres_unseen)
    created = create(c, game, seats=[{} for _ in range(players)], config=config, seed=seed)
    gid = created["id"]
    keys = tokens(created)
    viewers: list[int | None] = [*range(players), None]
    rng = random.Random(seed)
    told: dict[int | None, set[str]] = {v: set() for v in viewers}
    seen: dict[int | None, set[str]] = {v: set() for v in viewers}
    with_ws = [c.websocket_connect(f"/api/games/{gid}/ws") for _ in viewers]
    sockets = {v: ws.__enter__() for v, ws in zip(viewers, with_ws, strict=True)}
    try:
        for v, ws in sockets.items():
            ws.send_json({"spectator": True} if v is None else {"token": keys[v]})

        def check_message(v: int | None, payload: dict[str, Any]) -> None:
            st = live(c, gid)
            extra = (str(st.row.seed), str(st.state.rng.state))
            events = payload.get("events", []) + payload.get("setup_events", [])
            _check(f"seat {v}'s events", events, secret(st.state, v) - seen[v], extra)
            told[v] |= ids(events)
            view = payload.get("view")
            if view is not None:
                _check(f"seat {v}'s view", view, unseen(st.state, v, told[v]), extra)
                seen[v] = ids(view)

        for v, ws in sockets.items():
            hello = recv(ws)
            assert hello["type"] == "hello"
            check_message(v, hello)
        steps = private = 0
        while True:
            spectator = c.get(f"/api/games/{gid}").json()
            check_message(None, spectator)
            if spectator["status"] == "over":
                break
            seat = spectator["current_seat"]
            headers = bearer(keys[seat])
            view = c.get(f"/api/games/{gid}", headers=headers).json()
            check_message(seat, {"view": view})
            choice = rng.choice(view["legal_actions"])
            r = c.post(f"/api/games/{gid}/actions", headers=headers,
                       json={"action": choice["notation"], "expected_index": view["index"]})
            assert r.status_code == 200, r.text
            check_message(seat, {"events": r.json()["events"]})
            for v, ws in sockets.items():
                pushed = recv(ws)
                assert pushed["type"] == "action" and pushed["index"] == view["index"] + 1
                check_message(v, pushed)
                private += sum(e["private"] for e in pushed["events"])
                assert v is not None or not any(e["private"] for e in pushed["events"])
                # The action's notation (it can name a card played face down) is not sent.
                assert set(pushed) == {"type", "index", "seat", "events", "view"}
            steps += 1
        for v in viewers:
            if v is not None:
                check_message(v, c.get(f"/api/games/{gid}", headers=bearer(keys[v])).json())
        return steps, private
    finally:
        for ws in with_ws:
            ws.__exit__(None, None, None)


def test_a_four_player_tau_ceti_game_over_the_api_leaks_nothing(database_url: str) -> None:
    with server(database_url) as c:
        steps, private = play_watched(c, "tauceti", {"game": "short", "layout": "preset"}, 4, seed=BIG_SEED + 21)
        assert steps > 50 and private > 0


def test_a_ceres_game_with_comets_over_the_api_leaks_nothing(database_url: str) -> None:
    with server(database_url) as c:
        assert play_watched(c, "ceres", {"expansions": ["comets"]}, 4, seed=BIG_SEED + 22)[0] > 10
