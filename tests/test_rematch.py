"""Play again: ``POST /api/games/{id}/rematch`` makes a finished game's rematch once (a second
request, a retry, another server finds the same one, and a restart keeps it), with the same
seats, bots, clock and options, the next seat first and a new seed; each seat is told its own
new token only, over HTTP and over its WebSocket, and spectators only that a rematch exists."""

from __future__ import annotations

import json
import secrets
import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ecliptic.games import get_game
from ecliptic.server import auth
from ecliptic.server.games import rematch_config, rematch_token
from ecliptic.server.storage import UNCLAIMED, GameRow, SeatRow, Storage
from server_helpers import bearer, create, live, random_log, recv, recv_until, server, service, tokens


def finished_game(c: TestClient, clock_seconds: float | None = None, suggestions: bool = False,
                  bob_came: bool = True) -> dict[str, Any]:
    """A finished Ceres game of Ann, Bob and an easy bot, stored as the server stores one (played
    by random bots here: no bot pool to start), in the shape of ``POST /api/games``' answer.
    Unless ``bob_came``, Bob never took his seat: it has its join link only (and no token)."""
    rules, config, seed = get_game("ceres"), {"players": 3}, 3
    log = random_log(rules, config, seed, lambda seat: "person" if seat < 2 else "bot")
    gid, admin = secrets.token_hex(8), auth.new_token()
    keys = {0: auth.new_token(), 1: auth.new_token()}
    now = time.time()
    row = GameRow(gid, "ceres", config, seed, 3, clock_seconds, "over", now, now, auth.token_hash(admin),
                  suggestions=suggestions)
    seats = [SeatRow(0, "person", "Ann", auth.token_hash(keys[0]), None, "person"),
             SeatRow(1, "person", "Bob", auth.token_hash(keys[1]), None, "bot")  # (handed to a bot at the end)
             if bob_came else SeatRow(1, "person", "Bob", None, None, "bot", link_hash=auth.token_hash(keys[1]),
                                      joined=False),
             SeatRow(2, "bot", "Bot (easy)", None, "easy", "bot")]
    service(c).storage.create_game(row, seats, log)
    assert c.get(f"/api/games/{gid}").json()["status"] == "over"
    return {"id": gid, "admin_token": admin,
            "seats": [{"seat": s, "token": t} for s, t in keys.items()] + [{"seat": 2, "token": None}]}


def rematch(c: TestClient, gid: str, token: str | None) -> Any:
    return c.post(f"/api/games/{gid}/rematch", headers=bearer(token) if token else {})


def test_the_rematch_is_the_same_game_with_the_next_seat_first_and_a_new_seed(database_url: str) -> None:
    with server(database_url) as c:
        created = finished_game(c, clock_seconds=3600, suggestions=True)
        gid, keys = created["id"], tokens(created)
        r = rematch(c, gid, keys[1])
        assert r.status_code == 201, r.text
        answer = r.json()
        new = live(c, answer["id"])
        old = live(c, gid)
        assert new.row.game == "ceres" and new.row.config == {**old.row.config, "first_player": 1}
        assert new.row.seed != old.row.seed and new.row.status == "playing" and new.index == 0
        assert (new.row.clock_seconds, new.row.suggestions) == (3600, True)
        assert [(s.kind, s.name, s.bot_level, s.controller) for s in new.seats] == [
            ("person", "Ann", None, "person"), ("person", "Bob", None, "person"), ("bot", "Bot (easy)", "easy", "bot")]
        assert answer["seat"] == 1 and answer["join_link"] == f"/play/{answer['id']}#token={answer['token']}"
        assert answer["admin_token"] is None
        mine = c.get(f"/api/games/{answer['id']}", headers=bearer(answer["token"]))
        assert mine.status_code == 200 and mine.json()["seat"] == 1


def test_the_engine_config_decides_the_next_first_player() -> None:
    tc = get_game("tauceti")
    assert rematch_config(tc, {"players": 4, "game": "short", "first_player": 3}) == {
        "players": 4, "game": "short", "first_player": 0}
    assert rematch_config(tc, {"players": 2})["first_player"] == 1  # the engine's default is seat 0
    assert rematch_config(get_game("ceres"), {"players": 3, "first_player": 1})["first_player"] == 2


def test_the_host_gets_the_join_link_of_a_seat_whose_person_never_came(database_url: str) -> None:
    """Bob never took his seat: he has no token to make his new one from, so the rematch's seat
    gets a join link, given to the admin (only), the same one each time until it is taken."""
    with server(database_url) as c:
        created = finished_game(c, bob_came=False)
        gid, keys, admin = created["id"], tokens(created), created["admin_token"]
        made = rematch(c, gid, keys[0])
        assert made.status_code == 201 and made.json()["links"] == []  # (Ann is no host)
        new_id = made.json()["id"]
        asked = rematch(c, gid, admin)
        assert asked.status_code == 200, asked.text
        links = asked.json()["links"]
        assert [(link["seat"], link["name"]) for link in links] == [(1, "Bob")]
        link = links[0]
        assert link["join_link"] == f"/play/{new_id}#seat=1&token={link['token']}"
        assert link["token"] != keys[1]  # (the old link opens nothing in the new game)
        assert rematch(c, gid, admin).json()["links"] == links  # a retry, another tab: the same link
        assert [s["joined"] for s in c.get(f"/api/games/{new_id}").json()["seats"]][:2] == [True, False]
        taken = c.post(f"/api/games/{new_id}/seats/1/take", headers=bearer(link["token"]))
        assert taken.status_code == 200, taken.text
        bob = taken.json()["token"]
        assert c.get(f"/api/games/{new_id}", headers=bearer(bob)).json()["seat"] == 1
        again = c.post(f"/api/games/{new_id}/seats/1/take", headers=bearer(link["token"]))
        assert again.status_code == 403 and again.json()["error"] == "link_used"
        assert rematch(c, gid, admin).json()["links"] == []  # taken: nothing to hand out
        assert c.get(f"/api/games/{new_id}", headers=bearer(bob)).json()["seat"] == 1


def test_a_second_request_a_retry_or_another_seat_gets_the_same_rematch(database_url: str) -> None:
    with server(database_url) as c:
        created = finished_game(c)
        gid, keys = created["id"], tokens(created)
        games_before = len(c.get("/api/games").json())
        first = rematch(c, gid, keys[0])
        again, other = rematch(c, gid, keys[0]), rematch(c, gid, keys[1])
        assert (first.status_code, again.status_code, other.status_code) == (201, 200, 200)
        assert first.json() == again.json()  # the same answer, the same token
        assert other.json()["id"] == first.json()["id"] and other.json()["seat"] == 1
        assert len(c.get("/api/games").json()) == games_before + 1


def test_two_requests_at_once_make_one_rematch(database_url: str) -> None:
    with server(database_url) as c:
        created = finished_game(c)
        gid, keys = created["id"], tokens(created)
        answers: dict[int, Any] = {}
        start = threading.Barrier(2)

        def ask(seat: int) -> None:
            start.wait()
            answers[seat] = rematch(c, gid, keys[seat])

        threads = [threading.Thread(target=ask, args=(seat,)) for seat in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(a.status_code for a in answers.values()) == [200, 201]
        assert answers[0].json()["id"] == answers[1].json()["id"]
        made = [g for g in c.get("/api/games").json() if g["id"] != gid]
        assert [g["id"] for g in made] == [answers[0].json()["id"]]


def test_two_servers_on_one_database_make_one_rematch(database_url: str) -> None:
    """A server that has the finished game loaded but has not heard of the other's rematch is
    told it by the database, and makes none of its own."""
    with server(database_url) as a, server(database_url) as b:
        created = finished_game(a)
        gid, keys = created["id"], tokens(created)
        assert b.get(f"/api/games/{gid}").json()["rematch"] is None  # b has it loaded, without a rematch
        made = rematch(a, gid, keys[0]).json()
        found = rematch(b, gid, keys[1])
        assert found.status_code == 200 and found.json()["id"] == made["id"]
        assert b.get(f"/api/games/{found.json()['id']}", headers=bearer(found.json()["token"])).json()["seat"] == 1
        assert len(a.get("/api/games").json()) == 2


def test_the_storage_stores_a_second_rematch_of_a_game_never(database_url: str) -> None:
    storage = Storage(database_url)
    storage.migrate()
    try:
        old = GameRow("old", "ceres", {"players": 1}, 1, 1, None, "over", 1.0, 2.0, "h")
        storage.create_game(old, [SeatRow(0, "person", "Ann", "t", None, "person")])
        seat = [SeatRow(0, "person", "Ann", None, None, "person")]
        first = replace_id(old, "new1")
        assert storage.create_rematch("old", first, seat) == "new1"
        assert storage.create_rematch("old", replace_id(old, "new2"), seat) == "new1"
        assert storage.game("new2") is None and storage.game("old").rematch_id == "new1"  # type: ignore[union-attr]
        with pytest.raises(LookupError):
            storage.create_rematch("nosuch", replace_id(old, "new3"), seat)
    finally:
        storage.close()


def replace_id(row: GameRow, game_id: str) -> GameRow:
    return GameRow(game_id, row.game, row.config, 2, row.players, None, "playing", 3.0, None, UNCLAIMED)


def test_before_the_end_with_no_or_a_wrong_token_nothing_is_made(database_url: str) -> None:
    with server(database_url) as c:
        playing = create(c, "ceres", seats=[{"name": "Ann"}, {"name": "Bob"}], seed=3)
        r = rematch(c, playing["id"], tokens(playing)[0])
        assert r.status_code == 409 and r.json()["error"] == "game_not_over", r.text
        assert rematch(c, playing["id"], playing["admin_token"]).status_code == 409
        done = finished_game(c)
        for token in (None, "not-a-token", tokens(playing)[0], playing["admin_token"]):
            r = rematch(c, done["id"], token)
            assert r.status_code == 403 and r.json()["error"] == "forbidden", r.text
        assert rematch(c, "nosuchgame", tokens(done)[0]).status_code == 404
        assert len(c.get("/api/games").json()) == 2
        assert live(c, playing["id"]).row.rematch_id is None and live(c, done["id"]).row.rematch_id is None


def test_each_seat_learns_only_its_own_new_token_over_http(database_url: str) -> None:
    with server(database_url) as c:
        created = finished_game(c)
        gid, keys = created["id"], tokens(created)
        asked = rematch(c, gid, keys[0]).json()
        new_id = asked["id"]
        spectator = c.get(f"/api/games/{gid}").json()
        assert spectator["rematch"] == {"id": new_id, "seat": None, "token": None, "join_link": None,
                                        "admin_token": None}
        assert [g["rematch"] for g in c.get("/api/games").json() if g["id"] == gid] == [new_id]
        bob = c.get(f"/api/games/{gid}", headers=bearer(keys[1])).json()["rematch"]
        assert bob["seat"] == 1 and bob["token"] == rematch_token(keys[1], new_id, 1) != asked["token"]
        assert c.get(f"/api/games/{new_id}", headers=bearer(bob["token"])).json()["seat"] == 1
        # Nobody else's token is in any answer: not in the asker's, not in the spectator's or the list.
        assert bob["token"] not in json.dumps(asked) and asked["token"] not in json.dumps(bob)
        for text in (json.dumps(spectator), c.get("/api/games").text, c.get(f"/api/games/{new_id}").text):
            assert asked["token"] not in text and bob["token"] not in text
        # The tokens in the new game are the derived ones, stored as hashes only.
        stored = {s.seat: s.token_hash for s in service(c).storage.seats(new_id)}
        assert stored == {0: auth.token_hash(asked["token"]), 1: auth.token_hash(bob["token"]), 2: None}


def test_the_admin_gets_the_new_admin_token_and_a_seat_does_not(database_url: str) -> None:
    with server(database_url) as c:
        created = finished_game(c)
        gid = created["id"]
        seat_answer = rematch(c, gid, tokens(created)[0]).json()
        admin = rematch(c, gid, created["admin_token"])
        assert admin.status_code == 200 and admin.json()["seat"] is None and admin.json()["token"] is None
        admin_token = admin.json()["admin_token"]
        assert admin_token and seat_answer["admin_token"] is None
        new_id = admin.json()["id"]
        said = c.post(f"/api/games/{new_id}/chat", headers=bearer(admin_token), json={"text": "again!"})
        assert said.status_code == 201 and said.json()["name"] == "admin", said.text
        assert c.post(f"/api/games/{new_id}/chat", headers=bearer(created["admin_token"]),
                      json={"text": "me?"}).status_code == 403  # the old admin token is not the new one


def all_messages(ws: Any, until: str) -> list[dict[str, Any]]:
    """Every message up to and including the first of type ``until``."""
    out = [recv(ws)]
    while out[-1]["type"] != until:
        out.append(recv(ws))
    return out


def test_each_websocket_is_told_its_own_seats_new_token_and_a_spectator_none(database_url: str) -> None:
    with server(database_url) as c:
        created = finished_game(c)
        gid, keys = created["id"], tokens(created)
        with c.websocket_connect(f"/api/games/{gid}/ws") as ann, \
                c.websocket_connect(f"/api/games/{gid}/ws") as bob, \
                c.websocket_connect(f"/api/games/{gid}/ws") as watcher:
            ann.send_json({"token": keys[0]})
            bob.send_json({"token": keys[1], "patches": True})
            watcher.send_json({"spectator": True})
            for ws in (ann, bob, watcher):
                assert recv(ws)["type"] == "hello"
            asked = rematch(c, gid, keys[1]).json()
            new_id = asked["id"]
            got = {seat: all_messages(ws, "rematch") for seat, ws in ((0, ann), (1, bob), (None, watcher))}
        mine = {0: rematch_token(keys[0], new_id, 0), 1: asked["token"]}
        for seat, messages in got.items():
            told = messages[-1]
            if seat is None:
                assert told == {"type": "rematch", "id": new_id, "seat": None, "token": None, "join_link": None}
            else:
                assert told == {"type": "rematch", "id": new_id, "seat": seat, "token": mine[seat],
                                "join_link": f"/play/{new_id}#token={mine[seat]}"}
            text = json.dumps(messages)
            for other, token in mine.items():
                assert (token in text) == (other == seat), (seat, other)
        assert c.get(f"/api/games/{new_id}", headers=bearer(mine[0])).json()["seat"] == 0


def test_a_seat_that_was_away_is_told_when_it_connects(database_url: str) -> None:
    with server(database_url) as c:
        created = finished_game(c)
        gid, keys = created["id"], tokens(created)
        new_id = rematch(c, gid, keys[0]).json()["id"]
        with c.websocket_connect(f"/api/games/{gid}/ws") as bob, c.websocket_connect(f"/api/games/{gid}/ws") as watcher:
            bob.send_json({"token": keys[1]})
            watcher.send_json({"spectator": True})
            hello, told = recv(bob), recv(bob)
            assert hello["type"] == "hello" and hello["view"]["rematch"]["token"] is None  # (the view is public)
            assert told["type"] == "rematch" and told["token"] == rematch_token(keys[1], new_id, 1)
            assert recv(watcher)["type"] == "hello" and recv(watcher)["token"] is None


def test_the_rematch_survives_a_restart(database_url: str) -> None:
    with server(database_url) as c:
        created = finished_game(c)
        gid, keys = created["id"], tokens(created)
        made = rematch(c, gid, keys[0]).json()
    with server(database_url) as c:
        again = rematch(c, gid, keys[0])
        assert again.status_code == 200 and again.json() == made
        bob = c.get(f"/api/games/{gid}", headers=bearer(keys[1])).json()["rematch"]
        assert bob["id"] == made["id"]
        assert c.get(f"/api/games/{made['id']}", headers=bearer(bob["token"])).json()["seat"] == 1
        assert c.get(f"/api/games/{made['id']}", headers=bearer(made["token"])).json()["seat"] == 0


@pytest.mark.postgresql
def test_a_rematch_made_through_one_server_reaches_the_seats_of_another(fresh_postgresql_url: str) -> None:
    with server(fresh_postgresql_url) as a, server(fresh_postgresql_url) as b:
        created = finished_game(a)
        gid, keys = created["id"], tokens(created)
        with b.websocket_connect(f"/api/games/{gid}/ws") as bob:
            bob.send_json({"token": keys[1]})
            assert recv(bob)["type"] == "hello"
            new_id = rematch(a, gid, keys[0]).json()["id"]
            told = recv_until(bob, "rematch")
        assert told["id"] == new_id and told["token"] == rematch_token(keys[1], new_id, 1)
        # The new game, loaded on a before b stored Bob's token, lets Bob in on a too.
        assert a.get(f"/api/games/{new_id}", headers=bearer(told["token"])).json()["seat"] == 1


def test_a_server_that_learns_of_the_rematch_from_a_request_tells_its_own_seats(database_url: str) -> None:
    """A request reaching a server before the notifier's notice (a retry sent to the other
    process) finds the rematch in the database: that server's seat connections are told then,
    as the notice, arriving later for a rematch already known there, tells nobody."""
    with server(database_url) as a, server(database_url) as b:  # (SQLite: b hears no notice from a)
        created = finished_game(a)
        gid, keys = created["id"], tokens(created)
        with b.websocket_connect(f"/api/games/{gid}/ws") as ann:
            ann.send_json({"token": keys[0]})
            assert recv(ann)["type"] == "hello"
            new_id = rematch(a, gid, keys[1]).json()["id"]
            assert rematch(b, gid, keys[1]).status_code == 200  # Bob's retry, through b
            told = recv_until(ann, "rematch")
        assert told["id"] == new_id and told["token"] == rematch_token(keys[0], new_id, 0)
