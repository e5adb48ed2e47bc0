"""Join links are invitations (docs/server.md): a link is taken once, for a token of the taker's
own (``POST /api/games/{id}/seats/{seat}/take``); a second take, a forwarded link, the link's token
used as a seat's are refused with why (``link_used``, ``link_not_taken``). The host gives a seat a
new link (``.../link``, admin token): the seat's old holder is refused (``link_replaced``), their
WebSockets are closed with 4403 and the seat's address is forgotten. A seat's own token moves it to
another device (``.../device-link``). On both backends; the database decides between two takes."""

from __future__ import annotations

import threading
from functools import partial
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ecliptic.server import auth
from ecliptic.server.games import rematch_token
from ecliptic.server.notify import LocalNotifier
from ecliptic.server.storage import Storage, Take
from server_helpers import (
    WAIT,
    at_once,
    bearer,
    create,
    eventually,
    recv,
    recv_until,
    refused,
    server,
    service,
    stored_seats,
    take_seat,
)

TWO = [{"name": "Ann"}, {"name": "Bob"}]


def take(c: TestClient, gid: str, seat: int | str, token: str | None) -> Any:
    return c.post(f"/api/games/{gid}/seats/{seat}/take", headers=bearer(token) if token else {})


def relink(c: TestClient, gid: str, seat: int | str, token: str | None) -> Any:
    return c.post(f"/api/games/{gid}/seats/{seat}/link", headers=bearer(token) if token else {})


def links(created: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in created["seats"] if s["token"]}




def test_a_join_link_is_taken_once_for_a_fresh_token_that_only_its_taker_holds(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c, seats=TWO, take=False)
        gid, link = created["id"], links(created)
        assert created["seats"][1]["join_link"] == f"/play/{gid}#seat=1&token={link[1]}"
        # Before it is taken the link's token plays nothing: the host who was told it holds no seat.
        assert "take the seat first" in refused(c.get(f"/api/games/{gid}", headers=bearer(link[1])),
                                                403, "link_not_taken")
        assert [s["joined"] for s in c.get(f"/api/games/{gid}").json()["seats"]] == [False, False]
        r = take(c, gid, 1, link[1])
        assert r.status_code == 200, r.text
        mine = r.json()
        assert mine["seat"] == 1 and mine["name"] == "Bob" and mine["taken"] is True
        assert mine["token"] != link[1] and len(mine["token"]) >= 43
        assert c.get(f"/api/games/{gid}", headers=bearer(mine["token"])).json()["seat"] == 1
        # The host sees who has come: in the game's view and in the lobby's listing.
        assert [s["joined"] for s in c.get(f"/api/games/{gid}").json()["seats"]] == [False, True]
        listed = next(g for g in c.get("/api/games").json() if g["id"] == gid)
        assert [s["joined"] for s in listed["seats"]] == [False, True]
        rows = stored_seats(c, gid)
        assert rows[1].token_hash == auth.token_hash(mine["token"]) and rows[1].link_hash is None
        assert mine["token"] not in repr(rows) and link[1] not in repr(rows)
        # The link is spent: a second take (the same browser again, a forwarded link) and any use of it.
        before = stored_seats(c, gid)
        assert refused(take(c, gid, 1, link[1]), 403, "link_used") == (
            "This invitation was already used. Ask the host for a new link.")
        refused(c.get(f"/api/games/{gid}", headers=bearer(link[1])), 403, "link_used")
        refused(c.post(f"/api/games/{gid}/chat", json={"text": "hi"}, headers=bearer(link[1])), 403, "link_used")
        assert stored_seats(c, gid) == before
        # The taker's own token, given to take again, comes back unchanged (nothing to take).
        again = take(c, gid, 1, mine["token"]).json()
        assert again == {**mine, "taken": False} and stored_seats(c, gid) == before


def test_a_spent_link_closes_a_websocket_with_why(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c, seats=TWO, take=False)
        gid, link = created["id"], links(created)
        take_seat(c, gid, 0, link[0])
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"token": link[0]})
            assert recv(ws) == {"type": "error",
                                "message": "This invitation was already used. Ask the host for a new link."}
            with pytest.raises(WebSocketDisconnect) as closed:
                recv(ws)
            assert closed.value.code == 4403


def test_two_takes_of_one_link_at_once_seat_one_person(database_url: str) -> None:
    """Two servers sharing the database (two processes, or two tabs of one person) are asked at
    the same moment, many times over: each time exactly one take wins, and the other is told the
    link was used; the seat ends with the winner's token."""
    with server(database_url) as a, server(database_url) as b:
        for _ in range(4):
            created = create(a, seats=TWO, take=False)
            gid, link = created["id"], links(created)[1]
            b.get(f"/api/games/{gid}")  # (loaded in both)
            answers = at_once(partial(take, a, gid, 1, link), partial(take, b, gid, 1, link))
            assert sorted(r.status_code for r in answers) == [200, 403], [r.text for r in answers]
            won = next(r.json() for r in answers if r.status_code == 200)
            lost = next(r.json() for r in answers if r.status_code == 403)
            assert lost["error"] == "link_used"
            assert stored_seats(a, gid)[1].token_hash == auth.token_hash(won["token"])
            for c in (a, b):
                assert c.get(f"/api/games/{gid}", headers=bearer(won["token"])).json()["seat"] == 1


def test_the_database_lets_one_of_two_storages_take_a_link(database_url: str) -> None:
    with server(database_url) as c:
        gid = create(c, seats=TWO, take=False)["id"]
        link = relink(c, gid, 1, None)  # (no admin token: refused, changes nothing)
        assert link.status_code == 403
    link_token = "the-link"
    first, second = Storage(database_url), Storage(database_url)
    try:
        assert first.replace_link(gid, 1, auth.token_hash(link_token))
        start = threading.Barrier(2)
        done: list[Take] = []

        def go(s: Storage, mine: str) -> None:
            start.wait(WAIT)
            done.append(s.take_seat(gid, 1, auth.token_hash(link_token), auth.token_hash(mine)))

        threads = [threading.Thread(target=go, args=(s, m)) for s, m in ((first, "one"), (second, "two"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(WAIT)
        assert sorted(d.value for d in done) == ["not_a_link", "taken"]
        assert first.seats(gid)[1].token_hash in (auth.token_hash("one"), auth.token_hash("two"))
    finally:
        first.close()
        second.close()


def test_the_host_gives_a_seat_a_new_link_and_its_old_holder_is_shut_out(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c, seats=TWO)
        gid, admin, bob = created["id"], created["admin_token"], created["seats"][1]["token"]
        service(c).storage.set_mail(gid, 1, "bob@example.org")
        with c.websocket_connect(f"/api/games/{gid}/ws") as old, c.websocket_connect(f"/api/games/{gid}/ws") as ann:
            old.send_json({"token": bob})
            assert recv_until(old, "hello")["seat"] == 1
            ann.send_json({"token": created["seats"][0]["token"]})
            recv_until(ann, "hello")
            r = relink(c, gid, 1, admin)
            assert r.status_code == 200, r.text
            new = r.json()
            assert new["seat"] == 1 and new["join_link"] == f"/play/{gid}#seat=1&token={new['token']}"
            # Bob's page is told, and its socket closed with 4403; Ann sees the seat waiting for its person.
            assert recv_until(old, "error")["message"] == "the host gave this seat to someone else"
            with pytest.raises(WebSocketDisconnect) as closed:
                recv(old)
            assert closed.value.code == 4403
            seat = recv_until(ann, "seat")
            assert [s["joined"] for s in seat["view"]["seats"]] == [True, False]
        assert service(c).storage.mail_address(gid, 1) is None  # (a new person: the address is forgotten)
        assert "someone else" in refused(c.get(f"/api/games/{gid}", headers=bearer(bob)), 403, "link_replaced")
        refused(take(c, gid, 1, created["seats"][1]["link_token"]), 403, "link_used")
        with c.websocket_connect(f"/api/games/{gid}/ws") as again:
            again.send_json({"token": bob})
            assert "someone else" in recv(again)["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                recv(again)
            assert closed.value.code == 4403
        # A second new link replaces the first, which is refused from then on; the newest seats Carl.
        newer = relink(c, gid, 1, admin).json()
        refused(take(c, gid, 1, new["token"]), 403, "link_replaced")
        carl = take_seat(c, gid, 1, newer["token"])
        assert c.get(f"/api/games/{gid}", headers=bearer(carl)).json()["seat"] == 1


def test_only_the_host_gives_a_new_link_and_bad_seats_are_told_clearly(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c, seats=[*TWO, {"kind": "bot", "level": "random"}], config={"players": 3})
        gid, admin = created["id"], created["admin_token"]
        before = stored_seats(c, gid)
        for token in (None, created["seats"][0]["token"], created["seats"][1]["token"], "nonsense"):
            assert refused(relink(c, gid, 1, token), 403, "forbidden")
        for seat in (3, -1, 99):
            assert f"no seat {seat}" in refused(take(c, gid, seat, created["seats"][0]["token"]), 404, "not_found")
            assert f"no seat {seat}" in refused(relink(c, gid, seat, admin), 404, "not_found")
        assert "bot" in refused(relink(c, gid, 2, admin), 404, "not_found")
        assert "bot" in refused(take(c, gid, 2, admin), 404, "not_found")
        assert "seat" in refused(take(c, gid, "first", admin), 422, "invalid_request")
        assert "join link of seat 1" in refused(take(c, gid, 1, created["seats"][0]["token"]), 403, "forbidden")
        assert "needed" in refused(take(c, gid, 1, None), 403, "forbidden")
        refused(take(c, "0000000000000000", 0, admin), 404, "not_found")
        assert stored_seats(c, gid) == before


def test_a_seat_moves_to_another_device_with_a_link_its_own_token_makes(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c, seats=TWO)
        gid, ann = created["id"], created["seats"][0]["token"]
        refused(c.post(f"/api/games/{gid}/seats/0/device-link", headers=bearer(created["seats"][1]["token"])),
                403, "forbidden")
        refused(c.post(f"/api/games/{gid}/seats/0/device-link", headers=bearer(created["admin_token"])),
                403, "forbidden")
        r = c.post(f"/api/games/{gid}/seats/0/device-link", headers=bearer(ann))
        assert r.status_code == 200, r.text
        link = r.json()["token"]
        assert c.get(f"/api/games/{gid}", headers=bearer(ann)).json()["seat"] == 0  # (still this device's)
        with c.websocket_connect(f"/api/games/{gid}/ws") as here:
            here.send_json({"token": ann})
            recv_until(here, "hello")
            phone = take_seat(c, gid, 0, link)
            assert recv_until(here, "error")["message"] == "this seat was moved to another device"
            with pytest.raises(WebSocketDisconnect) as closed:
                recv(here)
            assert closed.value.code == 4403
        refused(c.get(f"/api/games/{gid}", headers=bearer(ann)), 403, "seat_moved")
        refused(take(c, gid, 0, link), 403, "link_used")
        assert c.get(f"/api/games/{gid}", headers=bearer(phone)).json()["seat"] == 0
        assert [s["joined"] for s in c.get(f"/api/games/{gid}").json()["seats"]] == [True, True]


def test_a_rematch_after_links_were_taken_derives_from_the_tokens_the_people_hold(database_url: str) -> None:
    with server(database_url, bot_workers=1) as c:
        created = create(c, seats=TWO)
        gid = created["id"]
        held = {s["seat"]: s["token"] for s in created["seats"]}
        for seat, token in held.items():  # (bots play both seats to the end)
            r = c.post(f"/api/games/{gid}/seats/{seat}/bot", json={"bot": True, "level": "random"},
                       headers=bearer(token))
            assert r.status_code == 200, r.text
        eventually(lambda: c.get(f"/api/games/{gid}").json()["status"] == "over", "the bots finish the game", 120)
        refused(c.post(f"/api/games/{gid}/rematch", headers=bearer(created["seats"][0]["link_token"])),
                403, "link_used")
        r = c.post(f"/api/games/{gid}/rematch", headers=bearer(held[0]))
        assert r.status_code == 201, r.text
        made = r.json()
        assert made["token"] == rematch_token(held[0], made["id"], 0)
        bob = c.get(f"/api/games/{gid}", headers=bearer(held[1])).json()["rematch"]
        assert bob["token"] == rematch_token(held[1], made["id"], 1)
        assert c.get(f"/api/games/{made['id']}", headers=bearer(bob["token"])).json()["seat"] == 1
        assert [s["joined"] for s in c.get(f"/api/games/{made['id']}").json()["seats"]] == [True, True]


def test_a_seat_given_away_through_another_server_is_refused_before_its_notice_comes(database_url: str) -> None:
    """Server ``b`` has the game loaded and never hears from ``a`` (its notifier is its own). Ann
    plays through ``b``; then, through ``a``, Bob's seat moves to another device and the host
    gives Ann's seat a new link. ``b`` still refuses Bob's old token an action and Ann's an
    undo, each with why, because the database decides; nothing is stored."""
    with server(database_url) as a, server(database_url, notifier=LocalNotifier()) as b:
        created = create(a, seats=TWO)
        gid, admin = created["id"], created["admin_token"]
        keys = links(created)
        assert b.get(f"/api/games/{gid}").json()["current_seat"] == 0  # (seed 7)
        view = b.get(f"/api/games/{gid}", headers=bearer(keys[0])).json()
        played = b.post(f"/api/games/{gid}/actions", headers=bearer(keys[0]),
                        json={"action": view["legal_actions"][0]["notation"], "expected_index": 0})
        assert played.status_code == 200, played.text
        assert b.get(f"/api/games/{gid}", headers=bearer(keys[0])).json()["undoable"]
        bob = b.get(f"/api/games/{gid}", headers=bearer(keys[1])).json()
        assert bob["current_seat"] == 1 and bob["legal_actions"]
        moved = a.post(f"/api/games/{gid}/seats/1/device-link", headers=bearer(keys[1]))
        assert moved.status_code == 200, moved.text
        take_seat(a, gid, 1, moved.json()["token"])  # (taken on the other device: the seat is its now)
        assert relink(a, gid, 0, admin).status_code == 200
        before = stored_seats(a, gid)
        act = b.post(f"/api/games/{gid}/actions", headers=bearer(keys[1]),
                     json={"action": bob["legal_actions"][0]["notation"], "expected_index": 1})
        refused(act, 403, "seat_moved")
        undo = b.post(f"/api/games/{gid}/undo", headers=bearer(keys[0]), json={"expected_index": 1})
        refused(undo, 403, "link_replaced")
        assert [r.index for r in service(a).storage.actions(gid)] == [0] and stored_seats(a, gid) == before
        assert b.get(f"/api/games/{gid}").json()["index"] == 1


def test_a_seat_given_away_through_another_server_says_nothing_in_its_name_there(database_url: str) -> None:
    with server(database_url) as a, server(database_url, notifier=LocalNotifier()) as b:
        created = create(a, seats=TWO)
        gid, keys = created["id"], links(created)
        assert b.get(f"/api/games/{gid}", headers=bearer(keys[0])).json()["seat"] == 0  # (loaded in b)
        assert relink(a, gid, 0, created["admin_token"]).status_code == 200
        said = b.post(f"/api/games/{gid}/chat", headers=bearer(keys[0]), json={"text": "still here"})
        refused(said, 403, "link_replaced")
        assert service(a).storage.chat(gid) == []
        assert b.post(f"/api/games/{gid}/chat", headers=bearer(keys[1]), json={"text": "hi"}).status_code == 201
