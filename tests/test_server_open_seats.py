"""Open seats (docs/server.md "Open tables"): the host opens a person seat to anyone; the lobby
lists the games in play with such a seat nobody holds (``GET /api/games?open=true``); whoever
sits down first (``POST /api/games/{id}/seats/{seat}/sit``, no token) holds the seat under a
name of their own, its join link spent as if taken. A later sitter, a seat not open, a game over
and a bad name are refused with why, changing nothing. On both backends; the database decides
between two people sitting down at one moment."""

from __future__ import annotations

import secrets
import time
from functools import partial
from typing import Any

from fastapi.testclient import TestClient

from ecliptic.games import get_game
from ecliptic.server import auth
from ecliptic.server.games import plain
from ecliptic.server.storage import GameRow, SeatRow, Sit, Storage
from server_helpers import (
    WAIT,
    at_once,
    bearer,
    create,
    live,
    random_log,
    recv,
    recv_until,
    refused,
    server,
    service,
    stored_seats,
    take_seat,
)

OPEN_SECOND = [{"name": "Ann"}, {"open": True}]


def hosted(c: TestClient, seats: list[dict[str, Any]] = OPEN_SECOND) -> dict[str, Any]:
    """A new Ceres game whose host took seat 1 (its ``token`` is the host's own): the others wait."""
    created = create(c, seats=seats, take=False)
    created["seats"][0]["token"] = take_seat(c, created["id"], 0, created["seats"][0]["token"])
    return created


def sit(c: TestClient, gid: str, seat: int | str, name: str | None = "Cleo") -> Any:
    return c.post(f"/api/games/{gid}/seats/{seat}/sit", json={} if name is None else {"name": name})


def set_open(c: TestClient, gid: str, seat: int, token: str | None, value: bool) -> Any:
    return c.put(f"/api/games/{gid}/seats/{seat}/open", json={"open": value},
                 headers=bearer(token) if token else {})


def open_tables(c: TestClient) -> list[str]:
    r = c.get("/api/games", params={"open": "true"})
    assert r.status_code == 200, r.text
    return [g["id"] for g in r.json()]




def test_an_open_seat_is_listed_and_seats_whoever_sits_down_first_under_their_name(database_url: str) -> None:
    with server(database_url) as c:
        created = hosted(c)
        gid = created["id"]
        closed = create(c, seats=[{"name": "Ann"}, {"name": "Bob"}], take=False)["id"]
        seats = c.get(f"/api/games/{gid}").json()["seats"]
        assert [(s["joined"], s["open"]) for s in seats] == [(True, False), (False, True)]
        tables = open_tables(c)
        assert gid in tables and closed not in tables
        assert closed in [g["id"] for g in c.get("/api/games").json()]  # (the full listing has it)
        r = sit(c, gid, 1, "  Cleo ")
        assert r.status_code == 200, r.text
        mine = r.json()
        assert mine["seat"] == 1 and mine["name"] == "Cleo" and mine["taken"] is True
        # The seat is Cleo's: her token plays it, every viewer sees her name, and nobody else may sit.
        view = c.get(f"/api/games/{gid}", headers=bearer(mine["token"])).json()
        assert view["seat"] == 1
        assert [(s["name"], s["joined"], s["open"]) for s in view["seats"]] == [
            ("Ann", True, False), ("Cleo", True, False)]
        assert gid not in open_tables(c)
        rows = stored_seats(c, gid)
        assert rows[1].token_hash == auth.token_hash(mine["token"]) and rows[1].link_hash is None
        assert mine["token"] not in repr(rows)
        before = stored_seats(c, gid)
        assert "someone sat down at seat 2 first" in refused(sit(c, gid, 1, "Dan"), 409, "seat_taken")
        assert stored_seats(c, gid) == before
        # The seat's join link, which the host still had, is spent as if taken.
        link = created["seats"][1]["token"]
        refused(c.post(f"/api/games/{gid}/seats/1/take", headers=bearer(link)), 403, "link_used")


def test_sitting_down_without_a_name_keeps_the_seats_own(database_url: str) -> None:
    with server(database_url) as c:
        gid = hosted(c, [{"name": "Ann"}, {"open": True, "name": "Guest"}])["id"]
        assert sit(c, gid, 1, None).json()["name"] == "Guest"
        gid = hosted(c)["id"]
        assert sit(c, gid, 1, "").json()["name"] == "Player 2"


def test_a_seat_not_open_a_bot_seat_a_finished_game_and_a_bad_name_are_refused_changing_nothing(
        database_url: str) -> None:
    with server(database_url) as c:
        gid = create(c, seats=[{"name": "Ann"}, {"name": "Bob"}, {"kind": "bot", "level": "random"}],
                     take=False)["id"]
        before = stored_seats(c, gid)
        assert "not open to anyone" in refused(sit(c, gid, 1), 403, "not_open")
        refused(sit(c, gid, 2), 404, "not_found")
        refused(sit(c, gid, 9), 404, "not_found")
        refused(sit(c, "0000000000000000", 1), 404, "not_found")
        assert stored_seats(c, gid) == before
        gid = hosted(c)["id"]
        before = stored_seats(c, gid)
        for name in ("Cle\no", "\u202eoelC", "x" * 41):
            refused(sit(c, gid, 1, name), 422, "invalid_request")
        refused(c.post(f"/api/games/{gid}/seats/1/sit", json={"name": "Cleo", "seat": 0}), 422, "invalid_request")
        assert stored_seats(c, gid) == before and gid in open_tables(c)
        # A bot's seat is not opened, nor is a person seat named with a line break.
        for seats in ([{"name": "Ann"}, {"kind": "bot", "open": True}], [{"name": "A\nB"}, {"open": True}]):
            r = c.post("/api/games", json={"game": "ceres", "seats": seats})
            refused(r, 422, "invalid_request")


def finished_game(c: TestClient, *, stranger: bool) -> str:
    """A finished Ceres game of Ann and an open seat (played out by random bots here), stored as
    the server stores one: nobody sat down at the open seat, or (``stranger``) someone did."""
    rules, config, seed = get_game("ceres"), {"players": 2}, 5
    log = random_log(rules, config, seed)
    gid, now = secrets.token_hex(8), time.time()
    row = GameRow(gid, "ceres", config, seed, 2, None, "over", now, now, auth.token_hash(auth.new_token()))
    second = (SeatRow(1, "person", "Cleo", auth.token_hash(auth.new_token()), None, "person", open=True)
              if stranger else SeatRow(1, "person", "Player 2", None, None, "person",
                                       link_hash=auth.token_hash(auth.new_token()), joined=False, open=True))
    seats = [SeatRow(0, "person", "Ann", auth.token_hash(ANN), None, "person"), second]
    service(c).storage.create_game(row, seats, log)
    assert c.get(f"/api/games/{gid}").json()["status"] == "over"
    return gid


ANN = auth.new_token()


def test_a_finished_game_offers_no_seat_and_its_rematch_keeps_an_empty_open_seat_open(database_url: str) -> None:
    with server(database_url) as c:
        gid = finished_game(c, stranger=False)
        assert gid not in open_tables(c)
        assert c.get(f"/api/games/{gid}").json()["seats"][1]["open"] is True  # (open, only nobody can sit now)
        before = stored_seats(c, gid)
        refused(sit(c, gid, 1), 409, "game_over")
        assert stored_seats(c, gid) == before
        again = c.post(f"/api/games/{gid}/rematch", headers=bearer(ANN))
        assert again.status_code == 201, again.text
        new = again.json()["id"]
        assert new in open_tables(c)
        assert sit(c, new, 1, "Dan").json()["name"] == "Dan"
        # A seat someone sat down at is kept for them in the rematch: it is not offered to anyone.
        gid = finished_game(c, stranger=True)
        new = c.post(f"/api/games/{gid}/rematch", headers=bearer(ANN)).json()["id"]
        assert c.get(f"/api/games/{new}").json()["seats"][1]["open"] is False
        assert new not in open_tables(c)
        refused(sit(c, new, 1), 403, "not_open")


def test_the_host_opens_and_closes_a_seat_nobody_holds_and_only_the_host(database_url: str) -> None:
    with server(database_url) as c:
        created = create(c, seats=[{"name": "Ann"}, {"name": "Bob"}, {"name": "Cleo"}], take=False)
        gid, admin = created["id"], created["admin_token"]
        bob = c.post(f"/api/games/{gid}/seats/1/take", headers=bearer(created["seats"][1]["token"])).json()["token"]
        before = stored_seats(c, gid)
        refused(set_open(c, gid, 2, None, True), 403, "forbidden")
        refused(set_open(c, gid, 2, bob, True), 403, "forbidden")
        assert "has its person" in refused(set_open(c, gid, 1, admin, True), 409, "seat_taken")
        assert stored_seats(c, gid) == before and gid not in open_tables(c)
        r = set_open(c, gid, 2, admin, True)
        assert r.status_code == 200, r.text
        assert r.json()["open"] is True and gid in open_tables(c)
        assert set_open(c, gid, 2, admin, False).json()["open"] is False
        assert gid not in open_tables(c)
        refused(sit(c, gid, 2), 403, "not_open")
        # Opened again; the seat's own link still works, and whoever comes first has it.
        set_open(c, gid, 2, admin, True)
        r = c.post(f"/api/games/{gid}/seats/2/take", headers=bearer(created["seats"][2]["token"]))
        assert r.status_code == 200 and gid not in open_tables(c)
        refused(sit(c, gid, 2), 409, "seat_taken")
        # The host frees the seat with a new link: it is open to anyone again.
        assert c.post(f"/api/games/{gid}/seats/2/link", headers=bearer(admin)).status_code == 200
        assert gid in open_tables(c)
        assert sit(c, gid, 2, "Dan").json()["name"] == "Dan"


def test_every_viewer_is_told_who_sat_down_and_the_sitter_sees_only_their_own_hand(database_url: str) -> None:
    with server(database_url) as c:
        created = hosted(c)
        gid, ann = created["id"], created["seats"][0]["token"]
        with c.websocket_connect(f"/api/games/{gid}/ws") as host, c.websocket_connect(f"/api/games/{gid}/ws") as crowd:
            host.send_json({"token": ann})
            crowd.send_json({"spectator": True})
            for ws in (host, crowd):
                assert recv(ws)["type"] == "hello"
            cleo = sit(c, gid, 1, "Cleo").json()["token"]
            for ws, seat in ((host, 0), (crowd, None)):
                told = recv_until(ws, "seat", WAIT)
                assert told["seat"] == 1 and told["view"]["seat"] == seat
                assert told["view"]["seats"][1]["name"] == "Cleo" and told["view"]["seats"][1]["joined"] is True
                assert cleo not in repr(told)
        # Cleo's token is given her seat's observation, and Ann's hers: nothing of the other's hand.
        state = live(c, gid).state
        rules = get_game("ceres")
        for token, seat in ((cleo, 1), (ann, 0)):
            got = c.get(f"/api/games/{gid}", headers=bearer(token)).json()
            assert got["seat"] == seat and got["view"] == plain(rules.observe(state, seat))


def test_two_people_sitting_down_at_once_seat_one(database_url: str) -> None:
    """Two servers sharing the database are asked at the same moment, many times over: each time
    exactly one sitter is seated, the other is told someone came first, and the seat is the winner's."""
    with server(database_url) as a, server(database_url) as b:
        for _ in range(4):
            gid = hosted(a)["id"]
            b.get(f"/api/games/{gid}")  # (loaded in both)
            answers = at_once(partial(sit, a, gid, 1, "Cleo"), partial(sit, b, gid, 1, "Dan"))
            assert sorted(r.status_code for r in answers) == [200, 409], [r.text for r in answers]
            won = next(r.json() for r in answers if r.status_code == 200)
            assert stored_seats(a, gid)[1].token_hash == auth.token_hash(won["token"])
            assert stored_seats(a, gid)[1].name == won["name"]


def test_the_storage_seats_one_sitter_and_keeps_the_first(database_url: str) -> None:
    storage = Storage(database_url)
    storage.migrate()
    try:
        with server(database_url) as c:
            gid = hosted(c)["id"]
        assert storage.sit(gid, 0, "h" * 64, "X") is Sit.NOT_OPEN  # (Ann's seat: not open)
        assert storage.sit(gid, 1, "a" * 64, "Cleo") is Sit.SAT
        assert storage.sit(gid, 1, "b" * 64, "Dan") is Sit.TAKEN
        assert storage.set_open(gid, 1, True) is Sit.TAKEN
        row = storage.seats(gid)[1]
        assert (row.token_hash, row.name, row.joined, row.open) == ("a" * 64, "Cleo", True, True)
    finally:
        storage.close()
