"""The HTTP API of the game server: the contract of each route, every refusal (with nothing
stored and nothing broadcast), undo, bots, the record, chat, and restoring games by replay."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from ecliptic.engine.actions import Action
from ecliptic.engine.events import Event
from ecliptic.engine.record import GameRecord, replay, state_digest
from ecliptic.engine.rng import Rng
from ecliptic.engine.undo import why_not_undoable
from ecliptic.games import get_game
from ecliptic.server import auth
from ecliptic.server.storage import Storage
from ecliptic.server.storage import seats as seats_table
from server_helpers import bearer, create, live, nothing_queued, recv, recv_until, server, service, tokens


def stored(client: TestClient, game_id: str) -> int:
    return len(service(client).storage.actions(game_id))


def turn(client: TestClient, created: dict[str, Any]) -> tuple[int, dict[str, str], dict[str, Any]]:
    """The seat to decide, its headers and its view."""
    seat = client.get(f"/api/games/{created['id']}").json()["current_seat"]
    headers = bearer(tokens(created)[seat])
    return seat, headers, client.get(f"/api/games/{created['id']}", headers=headers).json()


def test_health_and_openapi(database_url: str) -> None:
    with server(database_url) as c:
        backend = "sqlite" if database_url.startswith("sqlite") else "postgresql"
        assert c.get("/api/health").json() == {"status": "ok", "database": backend}
        for path in ("/api/health", "/"):  # what uptime monitors ask
            head = c.head(path)
            assert (head.status_code, head.content) == (200, b""), path
        paths = c.get("/openapi.json").json()["paths"]
        assert {"/api/games", "/api/games/{game_id}/actions", "/api/games/{game_id}/undo",
                "/api/games/{game_id}/record", "/api/games/{game_id}/chat"} <= set(paths)


def test_create_answers_a_token_per_person_and_keeps_the_seed_secret(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c, seats=[{"name": "Ann"}, {"kind": "bot", "level": "random"}], seed=None)
        assert [s["kind"] for s in created["seats"]] == ["person", "bot"]
        token, link = created["seats"][0]["token"], created["seats"][0]["link_token"]
        assert len(link) >= 43 and created["seats"][0]["join_link"].endswith(f"#seat=0&token={link}")
        assert len(token) >= 43 and token != link  # (the seat's own token, for taking its link)
        assert created["seats"][1]["token"] is None and created["admin_token"]
        seed = live(c, created["id"]).row.seed
        for text in (c.get("/api/games").text, c.get(f"/api/games/{created['id']}").text,
                     c.get(f"/api/games/{created['id']}", headers=bearer(token)).text):
            assert str(seed) not in text
        # Only hashes are stored.
        rows = service(c).storage.seats(created["id"])
        assert token not in repr(rows) and link not in repr(rows) and rows[0].token_hash is not None


@pytest.mark.parametrize("body, message", [
    ({"game": "chess", "seats": [{}]}, "game"),
    ({"game": "ceres", "seats": []}, "seats"),
    ({"game": "ceres", "seats": [{}, {}], "config": {"players": 3}}, "3"),
    ({"game": "tauceti", "seats": [{}, {}], "config": {"factions": ["Nobody", "Xunon"]}}, "config"),
    ({"game": "ceres", "seats": [{"kind": "bot", "level": "ismcts:60s"}]}, "level"),
    ({"game": "ceres", "seats": [{}], "seed": -1}, "seed"),
    ({"game": "ceres", "seats": [{}], "clock_seconds": 0}, "clock_seconds"),
])
def test_a_bad_new_game_is_refused_with_a_reason(database_url: str, body: dict[str, Any], message: str) -> None:
    with server(database_url) as c:
        r = c.post("/api/games", json=body)
        assert r.status_code == 422 and message in r.json()["message"], r.text
        assert c.get("/api/games").json() == []


def test_the_seat_sees_its_legal_actions_with_labels_and_the_spectator_none(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c)
        seat, _headers, view = turn(c, created)
        assert view["seat"] == seat and view["legal_actions"]
        st = live(c, created["id"])
        game = get_game("ceres")
        assert [a["notation"] for a in view["legal_actions"]] == [str(a) for a in game.legal_actions(st.state)]
        assert any(a["label"] != a["notation"] for a in view["legal_actions"])
        assert view["view"] == game.observe(st.state, seat)
        spectator = c.get(f"/api/games/{created['id']}").json()
        assert spectator["seat"] is None and spectator["legal_actions"] == []
        other = bearer(tokens(created)[1 - seat])
        assert c.get(f"/api/games/{created['id']}", headers=other).json()["legal_actions"] == []


def test_an_action_by_notation_or_id_is_stored_and_broadcast(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c)
        gid = created["id"]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"spectator": True})
            assert recv(ws)["type"] == "hello"
            _, headers, view = turn(c, created)
            r = c.post(f"/api/games/{gid}/actions", headers=headers,
                       json={"action": view["legal_actions"][0]["notation"], "expected_index": 0})
            assert r.status_code == 200 and r.json()["index"] == 1 and r.json()["events"]
            assert stored(c, gid) == 1
            pushed = recv(ws)
            assert pushed["type"] == "action" and pushed["index"] == 1 and pushed["view"]["index"] == 1
            _seat, headers, view = turn(c, created)
            r = c.post(f"/api/games/{gid}/actions", headers=headers,
                       json={"action": view["legal_actions"][-1]["id"], "expected_index": 1})
            assert r.status_code == 200 and r.json()["index"] == 2
            assert service(c).storage.actions(gid)[1].notation == view["legal_actions"][-1]["notation"]
            assert recv(ws)["index"] == 2


def _refusals(c: TestClient, created: dict[str, Any]) -> list[tuple[str, dict[str, Any], dict[str, str], int, str]]:
    """(what is wrong, body, headers, status, error) of each refused action at index 0."""
    seat, headers, view = turn(c, created)
    other = bearer(tokens(created)[1 - seat])
    good = view["legal_actions"][0]["notation"]
    return [
        ("unknown game", {"action": good, "expected_index": 0}, headers, 404, "not_found"),
        ("missing token", {"action": good, "expected_index": 0}, {}, 403, "forbidden"),
        ("wrong token", {"action": good, "expected_index": 0}, bearer("x" * 43), 403, "forbidden"),
        ("admin token is no seat", {"action": good, "expected_index": 0}, bearer(created["admin_token"]), 403,
         "forbidden"),
        ("out of turn", {"action": good, "expected_index": 0}, other, 403, "forbidden"),
        ("illegal", {"action": "LAUNCH A99", "expected_index": 0}, headers, 422, "illegal"),
        ("not an action", {"action": "", "expected_index": 0}, headers, 422, "illegal"),
        ("id outside the space", {"action": 10**6, "expected_index": 0}, headers, 422, "illegal"),
        ("stale index", {"action": good, "expected_index": 5}, headers, 409, "stale_index"),
        ("missing index", {"action": good}, headers, 422, "invalid_request"),
        ("a boolean for an id", {"action": True, "expected_index": 0}, headers, 422, "invalid_request"),
        ("a fraction for an index", {"action": good, "expected_index": 0.5}, headers, 422, "invalid_request"),
        ("extra field", {"action": good, "expected_index": 0, "seat": 1}, headers, 422, "invalid_request"),
    ]


def test_every_refused_action_stores_nothing_and_broadcasts_nothing(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c)
        gid = created["id"]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"spectator": True})
            recv(ws)
            for name, body, headers, status, error in _refusals(c, created):
                url = f"/api/games/{'nosuchgame' if name == 'unknown game' else gid}/actions"
                r = c.post(url, json=body, headers=headers)
                assert (r.status_code, r.json()["error"]) == (status, error), (name, r.text)
                assert r.json()["message"], name
                assert stored(c, gid) == 0 and live(c, gid).index == 0, name
                nothing_queued(ws)
            r = c.post(f"/api/games/{gid}/actions", json={"action": "LAUNCH A99", "expected_index": 0},
                       headers=turn(c, created)[1])
            assert r.json()["rule"] == "CR-ACT-1" and "A99" in r.json()["message"]
            # Out of turn, the refusal names the seat to decide as people see it, with no index.
            seat = turn(c, created)[0]
            r = c.post(f"/api/games/{gid}/actions", json={"action": "PASS", "expected_index": 0},
                       headers=bearer(tokens(created)[1 - seat]))
            assert r.json()["message"] == f"it is not your decision: {['Ann', 'Bob'][seat]} is to decide"
            _seat, headers, _ = turn(c, created)
            for raw in (b"{not json", b"[1, 2]", b""):
                r = c.post(f"/api/games/{gid}/actions", content=raw,
                           headers={**headers, "Content-Type": "application/json"})
                assert r.status_code == 422 and "JSON" in r.json()["message"], raw
            r = c.post(f"/api/games/{gid}/actions", content=b"{" + b" " * 70_000 + b"}",
                       headers={**headers, "Content-Type": "application/json"})
            assert r.status_code == 413
            assert stored(c, gid) == 0
            nothing_queued(ws)
        assert service(c)._loading == {}  # the unknown game's request left nothing behind


def test_a_double_click_applies_once(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c)
        _seat, headers, view = turn(c, created)
        body = {"action": view["legal_actions"][0]["notation"], "expected_index": 0}
        first = c.post(f"/api/games/{created['id']}/actions", json=body, headers=headers)
        second = c.post(f"/api/games/{created['id']}/actions", json=body, headers=headers)
        assert (first.status_code, second.status_code) == (200, 409)
        assert second.json()["index"] == 1 and stored(c, created["id"]) == 1


def play_randomly(c: TestClient, created: dict[str, Any], steps: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if c.get(f"/api/games/{created['id']}").json()["status"] == "over":
            return
        _seat, headers, view = turn(c, created)
        choice = rng.choice(view["legal_actions"])
        r = c.post(f"/api/games/{created['id']}/actions", headers=headers,
                   json={"action": choice["notation"], "expected_index": view["index"]})
        assert r.status_code == 200, r.text


def test_a_new_server_on_the_same_database_restores_games_by_replay(database_url: str) -> None:
    digests = {}
    with server(database_url) as c:
        games = [create(c, "ceres", config={"expansions": ["comets"]}),
                 create(c, "tauceti", config={"game": "short", "layout": "preset"}, seed=11)]
        for created in games:
            play_randomly(c, created, 25)
            st = live(c, created["id"])
            digests[created["id"]] = (st.index, state_digest(st.game, st.state))
    with server(database_url) as c:
        assert service(c).loaded(games[0]["id"]) is None  # lazily: nothing replayed at start
        for created in games:
            view = c.get(f"/api/games/{created['id']}").json()
            st = live(c, created["id"])
            assert (view["index"], state_digest(st.game, st.state)) == digests[created["id"]]
        play_randomly(c, games[0], 3)  # and play goes on


def test_the_record_is_given_only_once_the_game_is_over(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c)
        gid = created["id"]
        assert c.get(f"/api/games/{gid}/record").status_code == 409
        play_randomly(c, created, 5)
        assert c.get(f"/api/games/{gid}/record").status_code == 409
        play_randomly(c, created, 10_000)
        r = c.get(f"/api/games/{gid}/record")
        assert r.status_code == 200
        record = r.json()
        assert record["seed"] == 7 and len(record["actions"]) == live(c, gid).index
        state = replay(GameRecord(record["game"], record["config"], record["seed"], record["actions"]))
        assert state.is_over and state_digest(get_game("ceres"), state) == record["digest"]
        assert c.get("/api/games").json()[0]["status"] == "over"
        assert c.get("/api/games/nosuchgame/record").status_code == 404


def test_bot_seats_play_to_the_end(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c, seats=[{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "easy"}])
        with c.websocket_connect(f"/api/games/{created['id']}/ws") as ws:
            ws.send_json({"spectator": True})
            message = recv(ws)
            while message["view"]["status"] != "over":
                message = recv_until(ws, "action")
        st = live(c, created["id"])
        assert st.state.is_over and stored(c, created["id"]) == st.index
        assert all(r.actor == "bot" for r in st.log)
        assert c.get(f"/api/games/{created['id']}/record").status_code == 200


def test_a_seat_is_handed_to_a_bot_and_taken_back(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c, seats=[{"name": "Ann"}, {"kind": "bot", "level": "random"}])
        gid = created["id"]
        ann = bearer(tokens(created)[0])
        assert c.post(f"/api/games/{gid}/seats/0/bot", json={"bot": True}).status_code == 403
        assert c.post(f"/api/games/{gid}/seats/1/bot", json={"bot": True}, headers=ann).status_code == 403
        assert c.post(f"/api/games/{gid}/seats/9/bot", json={"bot": True}, headers=ann).status_code == 404
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"token": tokens(created)[0]})
            recv(ws)
            r = c.post(f"/api/games/{gid}/seats/0/bot", json={"bot": True, "level": "random"}, headers=ann)
            assert r.status_code == 200 and r.json()["controller"] == "bot"
            assert recv_until(ws, "seat")["controller"] == "bot"
            assert recv_until(ws, "action")["seat"] in (0, 1)  # the bots play on
            r = c.post(f"/api/games/{gid}/seats/0/bot", json={"bot": False},
                       headers=bearer(created["admin_token"]))
            assert r.status_code == 200 and r.json()["controller"] == "person"
        assert c.post(f"/api/games/{gid}/seats/1/bot", json={"bot": False},
                      headers=bearer(created["admin_token"])).status_code == 422


# -- undo -------------------------------------------------------------------------------------


def test_undo_takes_back_ones_own_last_action_by_replaying_a_shorter_log(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c)
        gid = created["id"]
        st = live(c, gid)
        start = state_digest(st.game, st.state)
        seat, headers, view = turn(c, created)
        c.post(f"/api/games/{gid}/actions", headers=headers,
               json={"action": view["legal_actions"][0]["notation"], "expected_index": 0})
        assert c.get(f"/api/games/{gid}", headers=headers).json()["undoable"]
        other = bearer(tokens(created)[1 - seat])
        assert c.post(f"/api/games/{gid}/undo", json={"expected_index": 1}, headers=other).status_code == 422
        assert c.post(f"/api/games/{gid}/undo", json={"expected_index": 0}, headers=headers).status_code == 409
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"spectator": True, "since": 1})
            recv(ws)
            r = c.post(f"/api/games/{gid}/undo", json={"expected_index": 1}, headers=headers)
            assert r.status_code == 200 and r.json() == {"index": 0}
            pushed = recv(ws)
            assert (pushed["type"], pushed["index"], pushed["view"]["index"]) == ("undo", 0, 0)
        assert state_digest(st.game, live(c, gid).state) == start and stored(c, gid) == 0
        assert [u.notation for u in service(c).storage.undone(gid)] == [view["legal_actions"][0]["notation"]]
        assert c.post(f"/api/games/{gid}/undo", json={"expected_index": 0}, headers=headers).status_code == 422


def test_undo_never_after_another_player_acted_nor_a_bots_action(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c)
        gid = created["id"]
        first, headers, _ = turn(c, created)
        play_randomly(c, created, 1)
        while live(c, gid).log[-1].seat == first:
            play_randomly(c, created, 1)
        index = live(c, gid).index
        r = c.post(f"/api/games/{gid}/undo", json={"expected_index": index}, headers=headers)
        assert r.status_code == 422 and "another player" in r.json()["message"]
        assert stored(c, gid) == index
    with server(database_url) as c:
        created = create(c)
        gid = created["id"]
        first, headers, _ = turn(c, created)
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"spectator": True})
            recv(ws)
            c.post(f"/api/games/{gid}/seats/{first}/bot", json={"bot": True, "level": "random"}, headers=headers)
            recv_until(ws, "action")
            c.post(f"/api/games/{gid}/seats/{first}/bot", json={"bot": False}, headers=headers)
        log = live(c, gid).log
        assert log and all(r.seat == first and r.actor == "bot" for r in log)  # the other seat's person waits
        r = c.post(f"/api/games/{gid}/undo", json={"expected_index": len(log)}, headers=headers)
        assert r.status_code == 422 and "bot" in r.json()["message"]


def test_undo_is_refused_after_a_random_outcome_or_hidden_information(database_url: str) -> None:
    """Tau Ceti random play: after every action, the undo answer agrees with the policy:
    refused whenever the generator moved or an event went to some seats only."""
    with server(database_url) as c:
        created = create(c, "tauceti", seats=[{}, {}], config={"game": "short", "layout": "preset"}, seed=5)
        gid = created["id"]
        rng = random.Random(3)
        seen = {"random": 0, "private": 0, "allowed": 0}
        for _ in range(120):
            _seat, headers, view = turn(c, created)
            if view["status"] == "over":
                break
            before = live(c, gid).state.rng.copy()
            choice = rng.choice(view["legal_actions"])
            r = c.post(f"/api/games/{gid}/actions", headers=headers,
                       json={"action": choice["notation"], "expected_index": view["index"]})
            moved = live(c, gid).state.rng != before
            private = any(e["private"] for e in r.json()["events"])
            undo = c.post(f"/api/games/{gid}/undo", json={"expected_index": view["index"] + 1}, headers=headers)
            if moved or private:
                seen["random" if moved else "private"] += 1
                assert undo.status_code == 422 and undo.json()["rule"] == "UNDO", choice
            elif undo.status_code == 200:
                seen["allowed"] += 1
                redo = c.post(f"/api/games/{gid}/actions", headers=headers,
                              json={"action": choice["notation"], "expected_index": view["index"]})
                assert redo.status_code == 200
        assert all(seen.values()), seen


# -- chat -------------------------------------------------------------------------------------


def test_chat_is_stored_limited_and_sent_to_seats_and_spectators(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c)
        gid = created["id"]
        ann = bearer(tokens(created)[0])
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"spectator": True})
            recv(ws)
            r = c.post(f"/api/games/{gid}/chat", json={"text": "  good luck  "}, headers=ann)
            assert r.status_code == 201 and r.json()["text"] == "good luck" and r.json()["name"] == "Ann"
            pushed = recv(ws)
            assert pushed["type"] == "chat" and pushed["text"] == "good luck"
            for body, headers, status in [({"text": "x" * 501}, ann, 422), ({"text": ""}, ann, 422),
                                          ({"text": "   "}, ann, 422), ({"text": "hi"}, {}, 403),
                                          ({"text": "hi"}, bearer("nope"), 403)]:
                assert c.post(f"/api/games/{gid}/chat", json=body, headers=headers).status_code == status
            nothing_queued(ws)
        assert c.post(f"/api/games/{gid}/chat", json={"text": "x" * 500},
                      headers=bearer(created["admin_token"])).status_code == 201
        assert [m["name"] for m in c.get(f"/api/games/{gid}/chat").json()] == ["Ann", "admin"]


def test_seats_that_share_a_name_are_told_apart_by_their_seat_number(database_url: str) -> None:
    """Two bots of one level (or two people of one name) would show as one in the result, the
    score's columns and the log's headings: every answer names them with their seat, from 1."""
    two_bots = [{"name": "Carol"}, {"kind": "bot", "level": "normal"}, {"kind": "bot", "level": "normal"}]
    told = ["Carol", "Bot (normal) 2", "Bot (normal) 3"]
    with server(database_url) as c:
        created = create(c, seats=two_bots, seed=3)
        gid = created["id"]
        assert [s["name"] for s in created["seats"]] == told
        carol = bearer(tokens(created)[0])
        for headers in ({}, carol):
            assert [s["name"] for s in c.get(f"/api/games/{gid}", headers=headers).json()["seats"]] == told
        listed = next(g for g in c.get("/api/games").json() if g["id"] == gid)
        assert [s["name"] for s in listed["seats"]] == told
        namesakes = create(c, seats=[{"name": "Ann"}, {"name": "ann "}, {"name": "Bob"}])
        assert [s["name"] for s in namesakes["seats"]] == ["Ann 1", "ann 2", "Bob"]
        r = c.post(f"/api/games/{namesakes['id']}/chat", json={"text": "hi"}, headers=bearer(tokens(namesakes)[1]))
        assert r.status_code == 201 and r.json()["name"] == "ann 2"
        # A game stored before names were made distinct is told apart all the same.
        storage = service(c).storage
        with storage.engine.begin() as conn:
            conn.execute(sa.update(seats_table).where(seats_table.c.game_id == gid, seats_table.c.seat > 0)
                         .values(name="Bot (normal)"))
    with server(database_url) as c:
        assert [s["name"] for s in c.get(f"/api/games/{gid}").json()["seats"]] == told
        listed = next(g for g in c.get("/api/games").json() if g["id"] == gid)
        assert [s["name"] for s in listed["seats"]] == told


@pytest.mark.parametrize(("method", "path", "status", "error"), [
    ("GET", "/api/games/..%2f..%2fetc", 404, "not_found"),
    ("GET", "/api/no/such/route", 404, "not_found"),
    ("GET", "/static/no-such-module.js", 404, "not_found"),
    ("DELETE", "/api/games", 405, "method_not_allowed"),
])
def test_a_path_or_method_the_api_does_not_have_is_refused_in_the_documented_shape(
        method: str, path: str, status: int, error: str, database_url: str) -> None:
    with server(database_url) as c:
        r = c.request(method, path)
        assert r.status_code == status and r.headers["content-type"] == "application/json"
        body = r.json()
        assert set(body) == {"error", "message"} and body["error"] == error and body["message"], body
        if status == 405:
            assert r.headers["allow"]


def test_a_refusal_quotes_only_a_short_part_of_a_long_request(database_url: str) -> None:
    """A 60,000-character action (the body limit is 64 KB) is not sent back whole: nor is a
    config value or a field name of that length."""
    long = "A" * 60_000
    with server(database_url) as c:
        created = create(c, "tauceti", config={"game": "short", "layout": "preset"})  # (its refusal quotes the verb)
        gid = created["id"]
        _, headers, _ = turn(c, created)
        r = c.post(f"/api/games/{gid}/actions", json={"action": long, "expected_index": 0}, headers=headers)
        assert r.status_code == 422 and r.json()["error"] == "illegal"
        assert "A" * 40 + "… (60000 characters)" in r.json()["message"] and len(r.text) < 1000, r.text[:300]
        r = c.post(f"/api/games/{gid}/actions", json={"action": " ".join(long[:30_000]), "expected_index": 0},
                   headers=headers)
        assert r.status_code == 422 and len(r.json()["message"]) <= 700, r.text[:300]
        r = c.post("/api/games", json={"game": "tauceti", "config": {"factions": ["x" * 60_000, "Azars"]},
                                       "seats": [{}, {}]})
        assert r.status_code == 422 and r.json()["error"] == "invalid" and len(r.text) < 1000, r.text[:300]
        r = c.post(f"/api/games/{gid}/actions", json={"action": "PASS", "expected_index": 0, long: 1},
                   headers=headers)
        assert r.status_code == 422 and r.json()["error"] == "invalid_request" and len(r.text) < 2000, r.text[:300]
        assert stored(c, gid) == 0


# -- the turn clock ---------------------------------------------------------------------------


def test_the_turn_clock_hands_the_seat_to_a_zombie_until_its_player_is_back(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c, clock_seconds=0.2)
        gid = created["id"]
        seat = c.get(f"/api/games/{gid}").json()["current_seat"]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"spectator": True})
            assert recv(ws)["view"]["deadline"] is not None
            assert recv_until(ws, "seat")["controller"] == "zombie"
            assert recv_until(ws, "action")["seat"] == seat
            assert live(c, gid).log[0].actor == "zombie"
            back = c.get(f"/api/games/{gid}", headers=bearer(tokens(created)[seat])).json()
            assert back["seats"][seat]["controller"] == "person"
            # (The other seat's clock may run out meanwhile: its own seat messages are skipped.)
            while (m := recv_until(ws, "seat"))["seat"] != seat:
                pass
            assert m["controller"] == "person"


# -- ecliptic serve ---------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_ecliptic_serve_prints_where_it_is_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    port = _free_port()
    db = tmp_path / "serve.db"
    env = {**os.environ, "ECLIPTIC_DATABASE_URL": f"sqlite:///{db}", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-c", "from ecliptic.cli import main; main()", "serve",
                             "--port", str(port)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if "Application startup complete" in line:
                break
        assert f"http://127.0.0.1:{port}" in "".join(lines) and f"SQLite file {db}" in "".join(lines)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:
            assert http.get("/api/health").json()["status"] == "ok"
            r = http.post("/api/games", json={"game": "ceres", "seats": [{}, {}], "seed": 1})
            assert r.status_code == 201
            # Join links are relative, as docs/server.md shows them: right behind a proxy too.
            gid = r.json()["id"]
            assert [s["join_link"] for s in r.json()["seats"]] == [
                f"/play/{gid}#seat={s['seat']}&token={s['token']}" for s in r.json()["seats"]]
        proc.send_signal(signal.SIGTERM)
        rest, _ = proc.communicate(timeout=20)
        assert "Application shutdown complete" in rest
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert Storage(f"sqlite:///{db}").game(r.json()["id"]) is not None


def test_two_servers_on_one_database_the_database_decides(database_url: str) -> None:
    """A server that has not heard of another one's action gets 409 from the database, then
    catches up from the log and tells its own viewers."""
    with server(database_url) as a, server(database_url) as b:
        created = create(a)
        gid = created["id"]
        _, headers, view = turn(a, created)
        assert b.get(f"/api/games/{gid}").json()["index"] == 0  # b has it loaded, at index 0
        with b.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"spectator": True})
            recv(ws)
            first, second = view["legal_actions"][0]["notation"], view["legal_actions"][-1]["notation"]
            assert a.post(f"/api/games/{gid}/actions", headers=headers,
                          json={"action": first, "expected_index": 0}).status_code == 200
            r = b.post(f"/api/games/{gid}/actions", headers=headers, json={"action": second, "expected_index": 0})
            assert r.status_code == 409
            assert recv_until(ws, "action")["index"] == 1
        assert [row.notation for row in live(b, gid).log] == [first]
        assert b.get(f"/api/games/{gid}").json()["index"] == 1


def test_tokens_are_compared_whole_and_read_from_bearer_headers() -> None:
    token = auth.new_token()
    assert len(token) >= 43 and auth.matches(token, auth.token_hash(token))
    assert not auth.matches(token[:-1], auth.token_hash(token)) and not auth.matches(None, auth.token_hash(token))
    assert auth.find_seat(token, [(0, auth.token_hash("other")), (1, auth.token_hash(token)), (2, None)]) == 1
    assert auth.bearer(f"Bearer {token}") == token and auth.bearer(f"bearer  {token} ") == token
    assert auth.bearer(token) is None and auth.bearer("Basic abc") is None and auth.bearer("Bearer ") is None


class _Flip:
    """A one-card game for the undo policy: ``FLIP`` turns the face-down card up (revealing
    it, with no die and no private event), ``NOTE`` changes only a public counter."""

    @dataclass
    class State:
        card: str
        face_up: bool = False
        notes: int = 0
        rng: Rng = field(default_factory=Rng)

        def clone(self) -> _Flip.State:
            return replace(self, rng=self.rng.copy())

    def apply(self, state: State, action: Action) -> list[Event]:
        if action.verb == "FLIP":
            state.face_up = True
            return [Event("flip", f"the card is {state.card}")]
        state.notes += 1
        return [Event("note", "a note")]

    def observe(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"card": state.card if state.face_up else "hidden", "notes": state.notes}

    def determinize(self, state: State, seat: int, rng: Rng) -> State:
        copy = state.clone()
        if not state.face_up:
            copy.card = rng.choice(["K01", "K02", "K03", "K04", "K05", "K06"])
        return copy


@pytest.mark.parametrize("verb, reason", [("NOTE", None), ("FLIP", "it revealed hidden information")])
def test_an_action_whose_outcome_shows_a_hidden_card_cannot_be_taken_back(verb: str, reason: str | None) -> None:
    game = _Flip()
    before = _Flip.State("K03")
    after = before.clone()
    events = game.apply(after, Action(verb))
    assert why_not_undoable(game, before, Action(verb), events, after, 0) == reason


def test_an_action_that_moved_the_generator_or_told_some_seats_cannot_be_taken_back() -> None:
    game = _Flip()
    before = _Flip.State("K03", face_up=True)
    after = before.clone()
    after.rng.d6()
    assert why_not_undoable(game, before, Action("NOTE"), [], after, 0) == "it had a random outcome (dice or a shuffle)"
    secret = [Event("draw", "you draw K04", visible_to=frozenset({0}))]
    assert why_not_undoable(game, before, Action("NOTE"), secret, before.clone(), 0) == \
        "it showed some players hidden information"


@pytest.mark.postgresql
def test_two_servers_on_postgresql_push_each_others_actions(fresh_postgresql_url: str) -> None:
    """Two servers sharing one PostgreSQL: an action made through one reaches a client of the
    other at once, carried by LISTEN/NOTIFY (the other server makes no request of its own)."""
    with server(fresh_postgresql_url) as a, server(fresh_postgresql_url) as b:
        assert type(service(a).notifier).__name__ == "PgNotifier"
        created = create(a)
        gid = created["id"]
        _, headers, view = turn(a, created)
        with b.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"spectator": True})
            assert recv(ws)["index"] == 0
            action = view["legal_actions"][0]["notation"]
            assert a.post(f"/api/games/{gid}/actions", headers=headers,
                          json={"action": action, "expected_index": 0}).status_code == 200
            assert recv_until(ws, "action")["index"] == 1
        assert [row.notation for row in live(b, gid).log] == [action]
