"""The WebSocket protocol, its limits, and hidden information over the whole API.

The hidden-information tests play full games through HTTP with every seat and a spectator
connected over WebSocket, and check every message and every HTTP answer each one gets
against what the true state says it may not see (the may-not-see functions of
``test_hidden_information``, a second opinion written from the rulebook's components)."""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ecliptic.server import hub as hub_module
from ecliptic.server import patch
from ecliptic.server.app import MAX_WS_MESSAGE, WS_BURST
from server_helpers import bearer, create, live, nothing_queued, recv, recv_until, server, tokens
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


def test_unknown_game_and_foreign_origin(database_url: str, caplog: pytest.LogCaptureFixture) -> None:
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
        # The host is told why (a proxy that drops the port from Host refuses every player so).
        [refused] = [r for r in caplog.records if "refused a WebSocket" in r.getMessage()]
        assert refused.levelname == "WARNING" and refused.name == "ecliptic.server"
        assert "https://elsewhere.example" in refused.getMessage() and "'testserver'" in refused.getMessage()
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
            # Who played each (a person here): a log credits a person only with their own moves.
            assert [m["actor"] for m in hello["missed"]] == ["person", "person"]
            ws.send_json({"since": 2})
            assert [m["index"] for m in recv(ws)["missed"]] == [3]
            nothing_queued(ws)


# -- view patches (opt-in) ---------------------------------------------------------------


def act(c: TestClient, created: dict[str, Any], pick: int = 0) -> int:
    """The deciding seat plays its ``pick``-th legal action; returns the seat."""
    gid = created["id"]
    seat = c.get(f"/api/games/{gid}").json()["current_seat"]
    view = c.get(f"/api/games/{gid}", headers=bearer(tokens(created)[seat])).json()
    legal = view["legal_actions"]
    r = c.post(f"/api/games/{gid}/actions", headers=bearer(tokens(created)[seat]),
               json={"action": legal[pick % len(legal)]["notation"], "expected_index": view["index"]})
    assert r.status_code == 200, r.text
    return int(seat)


def test_undo_and_seat_messages_are_patches_too_and_since_gives_the_whole_view_again(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c)
        gid = created["id"]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws, c.websocket_connect(f"/api/games/{gid}/ws") as seat_ws:
            ws.send_json({"spectator": True, "patches": True})
            seat_ws.send_json({"token": tokens(created)[1], "patches": True})
            spectator, seat1 = Patched(recv(ws)), Patched(recv(seat_ws))
            seat = act(c, created)
            for client, socket, v in ((spectator, ws, None), (seat1, seat_ws, 1)):
                client.take(recv(socket))
                assert canonical(client.view) == canonical(
                    c.get(f"/api/games/{gid}", headers={} if v is None else bearer(tokens(created)[1])).json())
            r = c.post(f"/api/games/{gid}/undo", json={"expected_index": 1}, headers=bearer(tokens(created)[seat]))
            assert r.status_code == 200, r.text
            undo = recv(ws)
            assert undo["type"] == "undo" and undo["index"] == 0
            spectator.take(undo)
            assert canonical(spectator.view) == canonical(c.get(f"/api/games/{gid}").json())
            other = 1 - seat
            r = c.post(f"/api/games/{gid}/seats/{other}/bot", json={"bot": True, "level": "random"},
                       headers=bearer(created["admin_token"]))
            assert r.status_code == 200, r.text
            moved = recv(ws)
            assert (moved["type"], moved["seat"], moved["controller"]) == ("seat", other, "bot")
            spectator.take(moved)
            assert spectator.view["seats"][other]["controller"] == "bot"
            assert canonical(spectator.view) == canonical(c.get(f"/api/games/{gid}").json())
            r = c.post(f"/api/games/{gid}/seats/{other}/bot", json={"bot": False},
                       headers=bearer(created["admin_token"]))
            assert r.status_code == 200, r.text
            spectator.take(recv(ws))
            assert spectator.view["seats"][other]["controller"] == "person"
            # A client that lost track asks for the whole view again: the next patch applies to it.
            ws.send_json({"since": 0})
            again = recv(ws)
            assert again["type"] == "hello" and again["rev"] == patch.rev(patch.encode(again["view"]))
            spectator = Patched(again)
            act(c, created)
            following = recv_until(ws, "action")
            assert following["base"] == again["rev"]
            spectator.take(following)
            assert canonical(spectator.view) == canonical(c.get(f"/api/games/{gid}").json())


def test_spectators_with_one_view_share_one_diff_and_one_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """What makes patches cheap at a thousand viewers: one diff and one encoding per viewer and
    base, however many connections share them; a connection that has another view (it joined
    before the last change) gets its own."""
    calls: list[Any] = []

    def counting(old: Any, new: Any) -> list[dict[str, Any]]:
        calls.append(old)
        return patch.diff(old, new)

    monkeypatch.setattr(hub_module, "diff", counting)
    hub = hub_module.Hub()
    conns = [hub_module.Connection(None, "g", None, patches=True) for _ in range(5)]  # type: ignore[arg-type]
    plain = hub_module.Connection(None, "g", None)  # type: ignore[arg-type]
    v1 = {"index": 1, "board": {"a": 1}, "x": [1, 2]}
    for conn in conns[:4]:
        conn.put({"type": "hello", "view": json.loads(json.dumps(v1))})  # equal views, not one object
    conns[4].put({"type": "hello", "view": {"index": 0, "board": {}, "x": []}})
    for conn in conns:
        assert conn.base is not None and conn.queue.get_nowait()["rev"] == conn.base[0]
    for conn in [*conns, plain]:
        hub.add(conn)
    v2 = {"index": 2, "board": {"a": 2}, "x": [1, 2]}
    hub.send("g", lambda viewer: {"type": "action", "index": 2, "view": v2})
    assert len(calls) == 2
    texts = [conn.queue.get_nowait() for conn in conns]
    assert len({id(t) for t in texts[:4]}) == 1 and texts[4] != texts[0]
    assert json.loads(texts[0])["patch"] == [{"op": "replace", "path": "/index", "value": 2},
                                            {"op": "replace", "path": "/board/a", "value": 2}]
    for text, old in ((texts[0], v1), (texts[4], {"index": 0, "board": {}, "x": []})):
        assert patch.apply(old, json.loads(text)["patch"]) == v2
    assert json.loads(plain.queue.get_nowait()) == {"type": "action", "index": 2, "view": v2}  # no opt-in: whole


def test_seats_are_sent_a_broadcast_at_once_and_spectators_a_moment_later_in_order() -> None:
    """Players first (the hub's docstring): a spectator's copy waits SPECTATOR_DELAY, and
    nothing sent to that connection meanwhile overtakes it, nor does its closing drop it."""

    async def scenario() -> None:
        hub = hub_module.Hub()
        seat = hub_module.Connection(None, "g", 0)  # type: ignore[arg-type]
        watcher = hub_module.Connection(None, "g", None)  # type: ignore[arg-type]
        late = hub_module.Connection(None, "g", None)  # type: ignore[arg-type]
        for conn in (seat, watcher, late):
            hub.add(conn)
        hub.send("g", lambda viewer: {"type": "action", "index": 1, "for": viewer})
        assert seat.queue.qsize() == 1 and watcher.queue.qsize() == late.queue.qsize() == 0
        watcher.put({"type": "pong"})  # e.g. a ping answered, or a hello after {"since": ...}
        late.close()
        assert [json.loads(watcher.queue.get_nowait())["index"], watcher.queue.get_nowait()] == [1, {"type": "pong"}]
        assert json.loads(late.queue.get_nowait())["index"] == 1 and late.queue.get_nowait() is None
        hub.send("g", lambda viewer: {"type": "action", "index": 2, "for": viewer})
        assert watcher.queue.qsize() == 0
        await asyncio.sleep(hub_module.SPECTATOR_DELAY * 4)
        assert json.loads(watcher.queue.get_nowait()) == {"type": "action", "index": 2, "for": None}
        assert [json.loads(seat.queue.get_nowait())["index"] for _ in range(2)] == [1, 2]

    asyncio.run(scenario())


def test_spectators_are_released_a_chunk_per_turn_of_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hub_module, "RELEASE_CHUNK", 2)

    async def scenario() -> None:
        conns = [hub_module.Connection(None, "g", None) for _ in range(5)]  # type: ignore[arg-type]
        for conn in conns:
            conn.hold("text")
        hub_module.release(conns)
        assert [c.queue.qsize() for c in conns] == [1, 1, 0, 0, 0]
        await asyncio.sleep(0)
        assert [c.queue.qsize() for c in conns] == [1, 1, 1, 1, 0]
        await asyncio.sleep(0)
        assert [c.queue.qsize() for c in conns] == [1] * 5 and not any(c.held for c in conns)

    asyncio.run(scenario())


# -- hidden information over the API ------------------------------------------------------

BIG_SEED = 6_150_473_189_227_950_000
"""Seeds of 19 digits, so that finding one's digits in a message is a leak, not chance."""


def _check(label: str, payload: Any, hidden: set[str], extra: tuple[str, ...]) -> None:
    text = json.dumps(payload)
    leaked = ids(payload) & hidden
    assert not leaked, f"{label} shows {sorted(leaked)}"
    for secret in extra:
        assert secret not in text, f"{label} shows the seed or the generator"


def canonical(data: Any) -> str:
    """JSON text that tells ``true`` from ``1`` and ignores the order of an object's members."""
    return json.dumps(data, sort_keys=True)


class Patched:
    """A client that asked for patches: it keeps the view it was sent and applies each patch."""

    def __init__(self, hello: dict[str, Any]) -> None:
        assert hello["type"] == "hello" and {"view", "rev"} <= set(hello)
        self.view: dict[str, Any] = hello["view"]
        self.rev: str = hello["rev"]

    def take(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """Apply a pushed patch; returns its operations."""
        assert {"patch", "base", "rev"} <= set(message) and "view" not in message, message
        assert message["base"] == self.rev, "a patch for another view than the one this client has"
        self.view = patch.apply(self.view, message["patch"], in_place=True)
        self.rev = message["rev"]
        ops: list[dict[str, Any]] = message["patch"]
        return ops


def play_watched(c: TestClient, game: str, config: dict[str, Any], players: int, seed: int) -> tuple[int, int]:
    """A full game through the API with random legal actions; every WS message and HTTP answer
    to every seat and to a spectator is checked. Each viewer has two sockets: one gets whole
    views (as every client did before patches existed), one asked for patches; after every
    action the patched view is exactly the whole view pushed, for every seat and the spectator,
    and the one a fresh GET answers (the spectator's and the deciding seat's at every step,
    everyone's every 10th and at the end), and the patch shows nothing the view may not. Returns the
    number of actions and of the private events the seats received over WebSocket (the filter
    must not drop those)."""
    secret, unseen = (tc_secret, tc_unseen) if game == "tauceti" else (ceres_secret, ceres_unseen)
    created = create(c, game, seats=[{} for _ in range(players)], config=config, seed=seed)
    gid = created["id"]
    keys = tokens(created)
    viewers: list[int | None] = [*range(players), None]
    rng = random.Random(seed)
    told: dict[int | None, set[str]] = {v: set() for v in viewers}
    seen: dict[int | None, set[str]] = {v: set() for v in viewers}
    with_ws = [c.websocket_connect(f"/api/games/{gid}/ws") for _ in range(2 * len(viewers))]
    opened = [ws.__enter__() for ws in with_ws]
    sockets = dict(zip(viewers, opened, strict=False))
    patching = dict(zip(viewers, opened[len(viewers):], strict=True))
    patched: dict[int | None, Patched] = {}

    def get(v: int | None) -> dict[str, Any]:
        answer: dict[str, Any] = c.get(f"/api/games/{gid}", headers={} if v is None else bearer(keys[v])).json()
        return answer

    try:
        for v, ws in sockets.items():
            ws.send_json({"spectator": True} if v is None else {"token": keys[v]})
        for v, ws in patching.items():
            ws.send_json({"spectator": True, "patches": True} if v is None else {"token": keys[v], "patches": True})

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

        def check_patch(v: int | None, ops: list[dict[str, Any]], seen_before: set[str]) -> None:
            """A patch names nothing but what the (checked) new view shows, and in what it
            removes, what the old one showed."""
            shown = ids([op.get("value") for op in ops if op["op"] != "remove"])
            assert shown <= seen[v], f"seat {v}'s patch shows {sorted(shown - seen[v])}"
            removed = ids([op["path"] for op in ops if op["op"] == "remove"])
            assert removed <= seen_before, f"seat {v}'s patch names {sorted(removed - seen_before)}"

        for v, ws in sockets.items():
            hello = recv(ws)
            assert hello["type"] == "hello" and "rev" not in hello
            check_message(v, hello)
        for v, ws in patching.items():
            patched[v] = Patched(recv(ws))
            assert canonical(patched[v].view) == canonical(get(v))
        steps = private = 0
        while True:
            spectator = get(None)
            check_message(None, spectator)
            over = spectator["status"] == "over"
            seat = spectator["current_seat"]
            fresh = {None: spectator, **({} if over else {seat: get(seat)})}
            if over or steps % 10 == 0:  # (each GET costs the test about 10 ms)
                fresh.update((v, get(v)) for v in viewers if v not in fresh)
            for v, answer in fresh.items():  # the patched view is the one a fresh GET answers
                assert canonical(patched[v].view) == canonical(answer), (v, steps)
            if over:
                break
            headers = bearer(keys[seat])
            view = fresh[seat]
            check_message(seat, {"view": view})
            choice = rng.choice(view["legal_actions"])
            r = c.post(f"/api/games/{gid}/actions", headers=headers,
                       json={"action": choice["notation"], "expected_index": view["index"]})
            assert r.status_code == 200, r.text
            check_message(seat, {"events": r.json()["events"]})
            for v, ws in sockets.items():
                pushed = recv(ws)
                assert pushed["type"] == "action" and pushed["index"] == view["index"] + 1
                seen_before = set(seen[v])
                check_message(v, pushed)
                private += sum(e["private"] for e in pushed["events"])
                assert v is not None or not any(e["private"] for e in pushed["events"])
                # The action's notation (it can name a card played face down) is not sent; the
                # log's fingerprint is a MAC keyed by the secret seed, the same for every viewer.
                assert set(pushed) == {"type", "index", "seat", "actor", "history", "events", "view"}
                assert re.fullmatch(r"[0-9a-f]{32}", pushed["history"])
                assert pushed["history"] == live(c, gid).history(pushed["index"])
                small = recv(patching[v])
                assert set(small) == {"type", "index", "seat", "actor", "history", "events", "patch", "base", "rev"}
                assert (small["type"], small["index"], small["events"]) == ("action", pushed["index"], pushed["events"])
                check_patch(v, patched[v].take(small), seen_before)
                assert canonical(patched[v].view) == canonical(pushed["view"])
                assert small["rev"] == patch.rev(patch.encode(pushed["view"]))  # the rev names that view
            steps += 1
        for v in viewers:
            if v is not None:
                check_message(v, c.get(f"/api/games/{gid}", headers=bearer(keys[v])).json())
        return steps, private
    finally:
        for ws in with_ws:
            ws.__exit__(None, None, None)


def test_a_tau_ceti_game_over_the_api_leaks_nothing(database_url: str) -> None:
    """Four players on SQLite; on PostgreSQL, where what is checked is the same but every
    action is a network round trip, two (about a quarter of the time: the suite's budget)."""
    players = 2 if database_url.startswith("postgresql") else 4
    with server(database_url) as c:
        steps, private = play_watched(c, "tauceti", {"game": "short", "layout": "preset"}, players,
                                      seed=BIG_SEED + 21)
        assert steps > 50 and private > 0


def test_a_ceres_game_with_comets_over_the_api_leaks_nothing(database_url: str) -> None:
    with server(database_url) as c:
        assert play_watched(c, "ceres", {"expansions": ["comets"]}, 4, seed=BIG_SEED + 22)[0] > 10


def test_a_viewer_whose_log_changed_while_it_was_away_is_sent_the_whole_log_again(database_url: str) -> None:
    """A page away while the last action was taken back and another played at its index (or a
    database put back on a backup: the page is past the game) would keep, by its index alone,
    an action that no longer happened. It gives back the fingerprint it was sent with that
    index; on a mismatch the hello says ``reset`` and holds every action's events."""
    with server(database_url) as c:
        created = create(c)
        gid = created["id"]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"spectator": True})
            assert recv(ws)["history"]
            seat = act(c, created, pick=0)
            was = recv(ws)
        assert (was["type"], was["index"]) == ("action", 1)
        first = live(c, gid).log[0].notation
        r = c.post(f"/api/games/{gid}/undo", json={"expected_index": 1}, headers=bearer(tokens(created)[seat]))
        assert r.status_code == 200, r.text
        act(c, created, pick=1)
        assert live(c, gid).log[0].notation != first  # another action at index 1
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"spectator": True, "since": 0})
            fresh = recv(ws)  # what a new page is told: the game's log as it is
        assert fresh["reset"] is False and [m["index"] for m in fresh["missed"]] == [1]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"spectator": True, "since": 1, "history": was["history"]})
            again = recv(ws)
            assert again["reset"] is True and again["missed"] == fresh["missed"]
            assert again["history"] == fresh["history"] != was["history"]
            ws.send_json({"since": 1, "history": again["history"]})  # the log it has now is the game's
            same = recv(ws)
            assert same["reset"] is False and same["missed"] == []
            ws.send_json({"since": 5, "history": again["history"]})  # past the game's index: a backup put back
            behind = recv(ws)
            assert behind["reset"] is True and behind["missed"] == fresh["missed"]
            ws.send_json({"since": 1, "history": "é" * 10})  # not a fingerprint: as if none was sent
            assert recv(ws)["reset"] is False
