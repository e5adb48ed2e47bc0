""""Your turn" by email (docs/server.md, "Email when it is your turn"), on both backends: a
local SMTP server (aiosmtpd) receives what the game server sends. The mail delay is 0 here, so a
test waits on conditions (the seat's mail task done, a message received), never on time."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from email import message_from_bytes
from email.message import Message
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
import uvicorn
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from browser_support import assert_clean, needs_browser, new_page, wait_loaded, wait_my_turn_or_over
from ecliptic.games import get_game
from ecliptic.server import auth, create_app
from ecliptic.server.mail import MailConfigError, MailSettings
from ecliptic.server.serve import mail_settings
from ecliptic.server.storage import ActionRow, GameRow, MailSkip, SeatRow, Storage, seat_mail
from server_helpers import bearer, create, eventually, live, recv, server, service, tokens

PUBLIC = "https://games.example.org"
ANN, BOB = "ann.mail-test@example.org", "bob.mail-test@example.org"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Inbox:
    """aiosmtpd's handler: every message the server accepted, parsed, with its envelope."""

    def __init__(self) -> None:
        self.received: list[tuple[list[str], Message]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # (aiosmtpd calls it by this name)
        self.received.append((list(envelope.rcpt_tos), message_from_bytes(envelope.content)))
        return "250 OK"

    def to(self, address: str) -> list[Message]:
        return [m for rcpt, m in self.received if rcpt == [address]]


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    handler = Inbox()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


def settings(port: int, url: str = "smtp+insecure://127.0.0.1:{port}", retries: tuple[float, ...] = ()) -> MailSettings:
    """No new tries of a failed email unless a test asks (each would keep its mail task waiting)."""
    return MailSettings(url.format(port=port), "ecliptic@example.org", PUBLIC, delay=0.0, timeout=5.0,
                        retries=retries)


def settled(c: TestClient, gid: str) -> None:
    """Every mail task of the game has finished (claimed, sent or given up)."""
    eventually(lambda: all(t.done() for t in live(c, gid).mail_tasks.values()), "the mail tasks finishing")


class Play:
    """Plays a Ceres game (seed 7) through the API, the engine on the side choosing the actions:
    ``PICK`` 3 gives seat 1 a run of four decisions at indexes 7 to 10."""

    PICK = 3

    def __init__(self, c: TestClient, created: dict[str, Any], pick: int = PICK) -> None:
        self.c, self.gid, self.keys, self.pick = c, created["id"], tokens(created), pick
        self.game = get_game("ceres")
        self.state = self.game.new_game({"players": 2}, 7)
        self.index = 0

    @property
    def to_decide(self) -> int:
        return int(self.state.current_player)

    def step(self, settle: bool = True) -> int:
        """Play one action; the seat that played it. The mail tasks it started are waited for
        (unless not to ``settle``)."""
        seat = self.to_decide
        legal = self.game.legal_actions(self.state)
        action = legal[min(self.pick, len(legal) - 1)]
        r = self.c.post(f"/api/games/{self.gid}/actions", headers=bearer(self.keys[seat]),
                        json={"action": str(action), "expected_index": self.index})
        assert r.status_code == 200, r.text
        self.game.apply(self.state, action)
        self.index += 1
        if settle:
            settled(self.c, self.gid)
        return seat


def opt_in(c: TestClient, created: dict[str, Any], seat: int, address: str) -> None:
    r = c.put(f"/api/games/{created['id']}/seats/{seat}/mail", headers=bearer(tokens(created)[seat]),
              json={"address": address})
    assert r.status_code == 200, r.text
    assert r.json() == {"offered": True, "seat": seat, "address": address, "over": False}
    settled(c, created["id"])


def secrets_of(created: dict[str, Any]) -> list[str]:
    return [created["admin_token"], *tokens(created).values()]


def test_an_email_comes_once_per_run_of_the_seats_decisions_with_the_link_and_no_token(
        database_url: str, inbox: tuple[Inbox, int]) -> None:
    """Seat 1 asked and has no page open: it is emailed when its turn comes, once for the run of
    four decisions it makes in a row (indexes 7 to 10), to its address, linking the game page
    without a token; seat 0, which did not ask, gets nothing."""
    box, port = inbox
    with server(database_url, mail=settings(port)) as c:
        created = create(c)
        gid = created["id"]
        opt_in(c, created, 1, BOB)
        play = Play(c, created)
        decisions = [play.step() for _ in range(11)]
        assert decisions == [0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1]
        mails = box.to(BOB)
        assert len(mails) == 4  # the runs beginning at 1, 3, 5 and 7
        assert [rcpt for rcpt, _ in box.received] == [[BOB]] * 4
        first = mails[0]
        assert first["To"] == BOB and first["From"] == "ecliptic@example.org"
        assert first["Subject"] == f"Your turn in Ceres (game {gid})"
        text = first.get_payload(decode=True).decode().replace("\r\n", "\n")  # type: ignore[union-attr]
        assert f"{PUBLIC}/play/{gid}\n" in text and "Hello Bob" in text and "Ann has played" in text
        assert "Stop emailing me" in text and "browser you play this game in" in text
        raw = b"".join(m.as_bytes() for m in mails).decode()
        for secret in secrets_of(created):
            assert secret not in raw
        assert "#token" not in raw


def test_no_email_while_the_seats_page_is_connected(database_url: str, inbox: tuple[Inbox, int]) -> None:
    """With seat 1's page (its WebSocket) connected when its turn comes, the turn is claimed as
    seen and no email is sent, even after the page goes; the next turn, with no page, is emailed."""
    box, port = inbox
    with server(database_url, mail=settings(port)) as c:
        created = create(c)
        gid = created["id"]
        opt_in(c, created, 1, BOB)
        play = Play(c, created)
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"token": tokens(created)[1]})
            assert recv(ws)["type"] == "hello"
            play.step()  # seat 0 plays: seat 1's turn, its page open
            assert play.to_decide == 1
        eventually(lambda: not service(c).hub.connections(gid), "the page's connection closed")
        stored = Storage(database_url)
        with stored.engine.connect() as conn:
            assert conn.execute(sa.select(seat_mail.c.turn_sent)).scalar() == 1  # claimed as seen
        stored.close()
        assert box.received == []
        play.step()  # seat 1 plays with no page: no new turn for it yet
        assert box.received == []
        play.step()  # seat 0 plays: seat 1's next turn, nobody on its page
        assert len(eventually(lambda: box.to(BOB), "the email of seat 1's next turn")) == 1


def test_no_email_without_asking_and_none_offered_without_smtp(database_url: str, inbox: tuple[Inbox, int]) -> None:
    box, port = inbox
    with server(database_url, mail=settings(port)) as c:
        created = create(c)
        gid = created["id"]
        r = c.get(f"/api/games/{gid}/seats/1/mail", headers=bearer(tokens(created)[1]))
        assert r.json() == {"offered": True, "seat": 1, "address": None, "over": False}
        play = Play(c, created)
        for _ in range(4):
            play.step()
        assert live(c, gid).mail_tasks == {} and box.received == []
        # Asked, then taken back: nothing either.
        opt_in(c, created, 1, BOB)
        r = c.delete(f"/api/games/{gid}/seats/1/mail", headers=bearer(tokens(created)[1]))
        assert r.status_code == 200 and r.json()["address"] is None
        for _ in range(4):
            play.step()
        assert box.received == []
        assert service(c).storage.mail_seats(gid) == frozenset()
    with server(database_url) as c:  # no SMTP configured: the page is told email is not offered
        created = create(c)
        gid, key = created["id"], tokens(created)[1]
        assert c.get(f"/api/games/{gid}/seats/1/mail", headers=bearer(key)).json() == {
            "offered": False, "seat": 1, "address": None, "over": False}
        r = c.put(f"/api/games/{gid}/seats/1/mail", headers=bearer(key), json={"address": BOB})
        assert r.status_code == 409 and r.json()["error"] == "mail_not_configured"
        assert "sends no email" in r.json()["message"]
        assert service(c).storage.mail_seats(gid) == frozenset()


REFUSALS: list[tuple[int, Any, dict[str, Any], int, str]] = [
    (1, 1, {"address": "bob"}, 422, "not an email address"),
    (1, 1, {"address": "bob@example.org\nBcc: eve@example.org"}, 422, "not an email address"),
    (1, 1, {"address": "Bob <bob@example.org>"}, 422, "not an email address"),
    (1, 1, {"address": "bob\x00@example.org"}, 422, "not an email address"),
    (1, 1, {"address": "\u202ebob@example.org"}, 422, "not an email address"),
    (1, 1, {"address": "b" * 250 + "@example.org"}, 422, "at most 254 characters"),
    (1, 1, {}, 422, "address: Field required"),
    (1, None, {"address": BOB}, 403, "this seat's own token is needed"),
    (1, 0, {"address": BOB}, 403, "this seat's own token is needed"),
    (1, "admin", {"address": BOB}, 403, "this seat's own token is needed"),
    (1, "wrong", {"address": BOB}, 403, "this seat's own token is needed"),
    (2, 1, {"address": BOB}, 404, "is a bot's: it gets no email"),
    (9, 1, {"address": BOB}, 404, "has no seat 9"),
]


def test_a_bad_address_or_token_gets_a_clear_refusal_and_stores_nothing(tmp_path: Any,
                                                                        inbox: tuple[Inbox, int]) -> None:
    _, port = inbox
    with server(f"sqlite:///{tmp_path / 'db.sqlite3'}", mail=settings(port)) as c:
        created = create(c, seats=[{"name": "Ann"}, {"name": "Bob"}, {"kind": "bot", "level": "random"}])
        gid = created["id"]
        for seat, who, body, status, says in REFUSALS:
            token = tokens(created)[who] if isinstance(who, int) else {"admin": created["admin_token"],
                                                                       "wrong": "x" * 43}.get(who)
            r = c.put(f"/api/games/{gid}/seats/{seat}/mail", headers=bearer(token) if token else {}, json=body)
            assert (r.status_code, says in r.json()["message"]) == (status, True), (seat, who, body, r.text)
            assert "Traceback" not in r.text
        assert service(c).storage.mail_seats(gid) == frozenset()
        # Nor can another seat read an address, or anyone set one in a game that is not there.
        opt_in(c, created, 1, BOB)
        r = c.get(f"/api/games/{gid}/seats/1/mail", headers=bearer(tokens(created)[0]))
        assert r.status_code == 403 and BOB not in r.text
        assert c.put("/api/games/nosuchgame/seats/1/mail", headers=bearer(tokens(created)[1]),
                     json={"address": BOB}).status_code == 404


def test_a_refusing_smtp_server_is_logged_without_the_password_and_the_game_goes_on(
        database_url: str, caplog: pytest.LogCaptureFixture) -> None:
    closed = free_port()  # nothing listens there
    url = "smtp://ecliptic:s3cret-Pw@127.0.0.1:{port}"
    caplog.set_level(logging.INFO, logger="ecliptic")
    with server(database_url, mail=settings(closed, url)) as c:
        created = create(c)
        opt_in(c, created, 1, BOB)
        play = Play(c, created)
        play.step()
        warned = eventually(lambda: [r for r in caplog.records if "was not sent" in r.getMessage()],
                            "the warning of the failed email")
        assert warned[0].levelno == logging.WARNING
        assert f"seat 1 of game {created['id']}" in warned[0].getMessage()
        assert "ConnectionRefusedError" in warned[0].getMessage()
        play.step()  # the game goes on
        play.step()
        assert c.get(f"/api/games/{created['id']}").json()["index"] == 3
    assert all("s3cret-Pw" not in r.getMessage() for r in caplog.records)
    assert "s3cret-Pw" not in repr(settings(closed, url)) and "s3cret-Pw" not in settings(closed, url).describe()


def test_two_servers_sharing_a_database_send_an_email_once(database_url: str, inbox: tuple[Inbox, int]) -> None:
    """Both servers have the game loaded, neither has seat 1's page: both look after its turn's
    email, the database's claim lets one send."""
    box, port = inbox
    with server(database_url, mail=settings(port)) as a, server(database_url, mail=settings(port)) as b:
        created = create(a)
        gid = created["id"]
        opt_in(a, created, 1, BOB)
        assert b.get(f"/api/games/{gid}").status_code == 200  # loaded in b too
        play = Play(a, created)
        play.step()
        b.portal.call(service(b).sync, gid, -1)  # (what PostgreSQL's notice does between processes)
        assert live(b, gid).index == 1 and 1 in live(b, gid).mail_tasks
        settled(b, gid)
        assert len(box.to(BOB)) == 1
    s1, s2 = Storage(database_url), Storage(database_url)
    try:
        assert s1.claim_mail(gid, 1, 1) is None and s2.claim_mail(gid, 1, 1) is None  # claimed above
        assert [s.claim_mail(gid, 1, 3) for s in (s1, s2)] == [BOB, None]
        assert [s.claim_mail(gid, 1, None) for s in (s2, s1)] == [BOB, None]  # the end: once too
        assert s1.claim_mail(gid, 0, 3) is None  # seat 0 asked for nothing
    finally:
        s1.close()
        s2.close()


def everything(ws: WebSocketTestSession, index: int) -> list[dict[str, Any]]:
    """Every message of ``ws`` up to the one of the action that leaves the game at ``index``,
    and then up to the answer to a ping."""
    got = []
    while True:
        m = recv(ws)
        got.append(m)
        if m["type"] == "action" and m["index"] == index:
            break
    ws.send_json({"type": "ping"})
    while got[-1]["type"] != "pong":
        got.append(recv(ws))
    return got


def test_the_address_never_reaches_another_seat_or_a_spectator(database_url: str, inbox: tuple[Inbox, int]) -> None:
    """Every message seat 0's page and a spectator's receive while seat 1 asks for email, is
    emailed, plays and changes its address, and every answer they and the lobby get."""
    box, port = inbox
    with server(database_url, mail=settings(port)) as c:
        created = create(c)
        gid, keys = created["id"], tokens(created)
        with c.websocket_connect(f"/api/games/{gid}/ws") as seat0, c.websocket_connect(f"/api/games/{gid}/ws") as spy:
            seat0.send_json({"token": keys[0]})
            spy.send_json({"spectator": True})
            opt_in(c, created, 1, BOB)
            play = Play(c, created)
            for _ in range(5):
                play.step()
            c.post(f"/api/games/{gid}/chat", headers=bearer(keys[1]), json={"text": "hello"})
            c.put(f"/api/games/{gid}/seats/1/mail", headers=bearer(keys[1]), json={"address": ANN})
            play.step()
            play.step()
            received = everything(seat0, 7) + everything(spy, 7)
        assert len(box.to(BOB)) == 3 and len(box.to(ANN)) == 1  # (seat 1 was emailed meanwhile)
        answers = [c.get(f"/api/games/{gid}", headers=bearer(keys[0])).text, c.get(f"/api/games/{gid}").text,
                   c.get(f"/api/games/{gid}?refused=true").text, c.get("/api/games").text,
                   c.get(f"/api/games/{gid}/chat").text,
                   c.get(f"/api/games/{gid}/seats/1/mail", headers=bearer(keys[0])).text,
                   c.get(f"/api/games/{gid}/seats/1/mail").text]
        seen = json.dumps(received) + "".join(answers)
        assert {m["type"] for m in received} >= {"hello", "action", "chat", "pong"}
        for address in (BOB, ANN, "mail-test"):
            assert address not in seen


def test_the_end_is_emailed_once_to_each_seat_that_asked_with_the_results(
        database_url: str, inbox: tuple[Inbox, int]) -> None:
    box, port = inbox
    with server(database_url, mail=settings(port)) as c:
        created = create(c)
        gid = created["id"]
        play = Play(c, created, pick=0)  # (the first legal action each time: over after 16)
        for _ in range(13):
            play.step()
        opt_in(c, created, 0, ANN)
        opt_in(c, created, 1, BOB)
        while not play.state.is_over:
            play.step()
        c.get(f"/api/games/{gid}")  # a later visit sends nothing again
        settled(c, gid)
        for address, name in ((ANN, "Ann"), (BOB, "Bob")):
            over = [m for m in box.to(address) if m["Subject"] == f"The game is over: Ceres (game {gid})"]
            assert len(over) == 1
            text = over[0].get_payload(decode=True).decode().replace("\r\n", "\n")  # type: ignore[union-attr]
            assert f"Hello {name}" in text and "Ann: 5\n" in text and "Bob: 7\n" in text and "Winner: Bob" in text
            assert f"{PUBLIC}/play/{gid}" in text


def test_the_host_settings_say_what_is_missing_and_refuse_what_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ECLIPTIC_SMTP_URL", "ECLIPTIC_MAIL_FROM", "ECLIPTIC_PUBLIC_URL", "ECLIPTIC_MAIL_DELAY"):
        monkeypatch.delenv(name, raising=False)
    assert mail_settings(None, None, None) == (None, "Email: off (no --smtp)")
    off, line = mail_settings("smtp://u:pw@mail.example.org", "games@example.org", None)
    assert off is None and "--public-url" in line and "pw" not in line
    monkeypatch.setenv("ECLIPTIC_SMTP_URL", "smtps://u:hunter2@mail.example.org")
    monkeypatch.setenv("ECLIPTIC_PUBLIC_URL", "https://games.example.org/")
    on, line = mail_settings(None, "games@example.org", None)
    assert on is not None and on.public_url == "https://games.example.org" and on.delay == 60.0
    assert line == ("Email: through smtps://mail.example.org:465 from games@example.org, "
                    "links to https://games.example.org")
    for url, says in (("http://mail.example.org", "must start with smtp://"),
                      ("smtp://mail.example.org:port", "port is not a number"),
                      ("smtp://mail.example.org:99999", "port is not a number from 1 to 65535"),
                      ("smtp://mail.example.org:0", "port is not a number from 1 to 65535"),
                      ("smtp://", "names no host")):
        with pytest.raises(MailConfigError, match=says):
            mail_settings(url, "games@example.org", PUBLIC)
    with pytest.raises(MailConfigError, match="not an email address"):
        mail_settings("smtp://mail.example.org", "games", PUBLIC)
    with pytest.raises(MailConfigError, match="public URL must be"):
        mail_settings("smtp://mail.example.org", "games@example.org", "games.example.org")
    for public in ("https://games.example.org/?lang=en", "https://games.example.org/#top"):
        with pytest.raises(MailConfigError, match=r"no \?query or #fragment"):
            mail_settings("smtp://mail.example.org", "games@example.org", public)
    with pytest.raises(MailConfigError, match="no user or password") as refused:
        mail_settings("smtp://mail.example.org", "games@example.org", "https://admin:hunter2@games.example.org")
    assert "hunter2" not in str(refused.value)


def test_the_storage_keeps_one_address_per_seat(database_url: str) -> None:
    s = Storage(database_url)
    s.migrate()
    try:
        s.create_game(GameRow("g", "ceres", {"players": 2}, 1, 2, None, "playing", 1.0, None, auth.token_hash("a")),
                      [SeatRow(i, "person", f"P{i}", auth.token_hash(f"t{i}"), None, "person") for i in (0, 1)])
        s.set_mail("g", 1, BOB)
        assert s.claim_mail("g", 1, 4) == BOB
        s.set_mail("g", 1, ANN)  # a new address: the turn claimed stays claimed
        assert s.mail_address("g", 1) == ANN and s.claim_mail("g", 1, 4) is None and s.claim_mail("g", 1, 2) is None
        assert s.mail_seats("g") == frozenset({1}) and s.mail_address("g", 0) is None
        s.set_mail("g", 1, None)
        assert s.mail_seats("g") == frozenset() and s.claim_mail("g", 1, 9) is None
    finally:
        s.close()


@contextmanager
def http_server(database_url: str, mail: MailSettings) -> Iterator[str]:
    """The app on uvicorn in a thread of this process (no server process to start: the imports are
    paid already), as tests/test_browser_extras.py runs it; its address."""
    app = create_app(database_url, mail=mail)
    port = free_port()
    running = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    eventually(lambda: running.started or not thread.is_alive(), "the server starting")
    assert running.started, "the server did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        running.should_exit = True
        thread.join(30)


@needs_browser
def test_the_game_page_offers_email_to_its_seat_and_takes_it_back(
        tmp_path: Path, inbox: tuple[Inbox, int], chromium: Any) -> None:
    """The real page: the seat gives an address (a refused one says why), sees where emails go,
    and stops them; a spectator's page offers nothing; at the game's end, with the page open,
    the box goes (the address went with the end's email)."""
    _, port = inbox
    with http_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", settings(port)) as url, \
            httpx.Client(base_url=url, timeout=30) as http:
        created = http.post("/api/games", json={"game": "ceres", "seed": 7,
                                                "seats": [{"name": "Ann"}, {"name": "Bob"}]}).json()
        gid, key = created["id"], tokens(created)[1]
        w = new_page(chromium)
        w.allow("status of 422")  # (the address refused on purpose)
        page = w.page
        page.goto(f"{url}/play/{gid}?pace=0#seat=1&token={key}")
        wait_loaded(w)
        key = page.evaluate("(id) => JSON.parse(localStorage.getItem('ecliptic.games')).find((g) => g.id === id)"
                            ".seats[1].token", gid)  # (the seat's own token: the page took the link)
        assert page.locator("#mail-title").inner_text() == "Email me when it is my turn"
        page.fill("#mail-address", "bob@localhost")
        page.click("#mail-form button[type=submit]")
        page.wait_for_function("() => document.querySelector('#mail .error').textContent !== ''")
        assert page.locator("#mail .error").inner_text() == "That is not an email address (like you@example.org)."
        page.fill("#mail-address", BOB)
        page.click("#mail-form button[type=submit]")
        page.locator("#mail-status").wait_for()
        assert BOB in page.locator("#mail-status").inner_text()
        assert http.get(f"/api/games/{gid}/seats/1/mail", headers=bearer(key)).json()["address"] == BOB
        # A "Stop emailing me" that fails (the server away) still shows where emails go, and why.
        w.allow("status of 503")

        def away(route: Any) -> None:
            if route.request.method != "DELETE":
                route.continue_()
                return
            route.fulfill(status=503, content_type="application/json",
                          body=json.dumps({"error": "away", "message": "the server is restarting"}))

        page.route("**/seats/1/mail", away)
        page.click("#mail-stop")
        page.wait_for_function("() => document.querySelector('#mail .error').textContent !== ''")
        assert page.locator("#mail .error").inner_text() == "the server is restarting"
        assert page.locator("#mail-status").count() == 1 and BOB in page.locator("#mail-status").inner_text()
        page.unroute("**/seats/1/mail")
        page.click("#mail-stop")
        page.locator("#mail-address").wait_for()
        assert http.get(f"/api/games/{gid}/seats/1/mail", headers=bearer(key)).json()["address"] is None
        spy = new_page(chromium)
        spy.page.goto(f"{url}/watch/{gid}")
        wait_loaded(spy)
        assert spy.page.locator("#mail").is_hidden()
        page.fill("#mail-address", BOB)
        page.click("#mail-form button[type=submit]")
        page.locator("#mail-status").wait_for()
        game = get_game("ceres")
        state, index = game.new_game({"players": 2}, 7), 0
        held = {0: http.post(f"/api/games/{gid}/seats/0/take", headers=bearer(tokens(created)[0])).json()["token"],
                1: key}
        while not state.is_over:  # both seats play through the API while Bob's page looks on
            action = game.legal_actions(state)[0]
            r = http.post(f"/api/games/{gid}/actions", headers=bearer(held[state.current_player]),
                          json={"action": str(action), "expected_index": index})
            assert r.status_code == 200, r.text
            game.apply(state, action)
            index += 1
        assert wait_my_turn_or_over(w) == "over"
        page.locator("#mail").wait_for(state="hidden")  # it kept saying "Emails go to …" after the end
        assert http.get(f"/api/games/{gid}/seats/1/mail", headers=bearer(key)).json()["over"] is True
        assert_clean(w, spy)


def test_giving_the_address_again_and_again_sends_no_more_email(tmp_path: Any, inbox: tuple[Inbox, int]) -> None:
    """Taking the address back and giving it again (a loop of DELETE and PUT, by the seat or
    by a script with its token, at any address) brings no new email: not for the turn the seat
    is in (given during its turn, the address counts from its next turn, as from its page,
    which is open then), and not for a game already over, which takes no address at all."""
    box, port = inbox
    with server(f"sqlite:///{tmp_path / 'db.sqlite3'}", mail=settings(port)) as c:
        created = create(c)
        gid, key = created["id"], tokens(created)[1]
        play = Play(c, created)
        play.step()  # seat 1's turn, no page of it open
        url = f"/api/games/{gid}/seats/1/mail"
        for _ in range(3):
            assert c.put(url, headers=bearer(key), json={"address": BOB}).status_code == 200
            settled(c, gid)
            assert c.delete(url, headers=bearer(key)).status_code == 200
        assert c.put(url, headers=bearer(key), json={"address": BOB}).status_code == 200
        settled(c, gid)
        assert box.received == []
        play.step()
        play.step()  # seat 1's next turn: emailed once
        assert len(eventually(lambda: box.to(BOB), "the email of seat 1's next turn")) == 1
        play.pick = 0
        while not play.state.is_over:
            play.step()
        settled(c, gid)
        ended = len(box.to(BOB))
        for _ in range(3):
            assert c.delete(url, headers=bearer(key)).status_code == 200
            r = c.put(url, headers=bearer(key), json={"address": BOB})
            assert r.status_code == 409 and r.json()["error"] == "game_over", r.text
            assert "is over" in r.json()["message"]
            settled(c, gid)
        assert len(box.to(BOB)) == ended
        assert service(c).storage.mail_seats(gid) == frozenset()


UNSUBSCRIBE = re.compile(re.escape(PUBLIC) + r"/mail/unsubscribe/([A-Za-z0-9_-]+)")


def text_of(message: Message) -> str:
    return message.get_payload(decode=True).decode().replace("\r\n", "\n")  # type: ignore[union-attr]


def test_every_email_has_a_one_click_unsubscribe_link_that_stops_every_game(
        database_url: str, inbox: tuple[Inbox, int]) -> None:
    """Someone gave Bob's address in two games: the first email's link (in its text and in RFC
    8058's headers) shows a page with a button and changes nothing; its POST (what a mail client's
    one-click sends) forgets the address in both games, blocks it for the server (the game page
    giving it again, in any case of letters, is told why), and a second POST changes nothing.
    A mistyped link is told so. No page shows the address; the database keeps only hashes."""
    box, port = inbox
    with server(database_url, mail=settings(port)) as c:
        first, second = create(c), create(c)
        for created in (first, second):
            opt_in(c, created, 1, BOB)
        Play(c, first).step()
        mail = eventually(lambda: box.to(BOB), "the email of seat 1's turn")[0]
        token = UNSUBSCRIBE.findall(text_of(mail))[0]
        link = f"{PUBLIC}/mail/unsubscribe/{token}"
        assert mail["List-Unsubscribe"] == f"<{link}>"
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert "no more email from this server at all" in text_of(mail)
        path = f"/mail/unsubscribe/{token}"
        page = c.get(path)
        assert page.status_code == 200 and f'<form method="post" action="{path}">' in page.text
        assert page.headers["referrer-policy"] == "no-referrer"
        assert service(c).storage.mail_seats(first["id"]) == frozenset({1})  # (a GET stops nothing)
        done = c.post(path, data={"List-Unsubscribe": "One-Click"})
        assert done.status_code == 200 and "sends no more email to this address" in done.text
        assert [service(c).storage.mail_seats(g["id"]) for g in (first, second)] == [frozenset(), frozenset()]
        again = c.post(path, data={"List-Unsubscribe": "One-Click"})
        assert again.status_code == 200 and "already" in again.text
        assert "already" in c.get(path).text and "<form" not in c.get(path).text
        for address in (BOB, BOB.upper()):
            r = c.put(f"/api/games/{second['id']}/seats/1/mail", headers=bearer(tokens(second)[1]),
                      json={"address": address})
            assert r.status_code == 409 and r.json()["error"] == "mail_blocked", r.text
            assert r.json()["message"].startswith("this address asked not to get emails from this server")
        assert service(c).storage.mail_seats(second["id"]) == frozenset()
        Play(c, second).step()  # seat 1's turn in the second game: nothing
        for bad in ("x" * 43, token[:-1] + ("A" if token[-1] != "A" else "B"), "not a token", "%00"):
            for r in (c.get(f"/mail/unsubscribe/{bad}"), c.post(f"/mail/unsubscribe/{bad}")):
                assert r.status_code == 404 and "not known" in r.text and "Traceback" not in r.text
        pages = page.text + done.text + again.text
        stored = Storage(database_url)
        with stored.engine.connect() as conn:
            rows = [tuple(r) for t in ("mail_sent", "mail_blocked", "seat_mail")
                    for r in conn.execute(sa.text(f"SELECT * FROM {t}")).all()]
        stored.close()
    assert len(box.to(BOB)) == 1
    assert "mail-test" not in pages.lower()
    assert rows and all(token not in str(r) and "mail-test" not in str(r).lower() for r in rows)


def test_an_address_gets_at_most_its_limit_of_emails_an_hour_all_games_together(
        database_url: str, inbox: tuple[Inbox, int], caplog: pytest.LogCaptureFixture) -> None:
    """With a limit of 2, Bob's address given in four games gets two emails; the others are
    skipped, in one INFO line that names no address; Ann's address is not held back by Bob's."""
    box, port = inbox
    caplog.set_level(logging.INFO, logger="ecliptic")
    limited = replace(settings(port), per_hour=2)
    with server(database_url, mail=limited) as c:
        games = [create(c) for _ in range(4)]
        for created in games:
            opt_in(c, created, 1, BOB)
        opt_in(c, games[0], 0, ANN)
        for created in games:
            Play(c, created).step()
        eventually(lambda: len(box.to(BOB)) == 2, "two emails to Bob")
        play = Play(c, games[0])
        play.index, play.state = 1, play.game.new_game({"players": 2}, 7)
        play.game.apply(play.state, play.game.legal_actions(play.state)[Play.PICK])
        play.step()  # seat 1 plays: Ann's turn
        eventually(lambda: box.to(ANN), "the email to Ann")
    said = [r for r in caplog.records if "(the limit)" in r.getMessage()]
    assert len(box.to(BOB)) == 2 and len(said) == 1 and said[0].levelno == logging.INFO
    assert "its address had 2 emails from this server in the last hour" in said[0].getMessage()
    assert all("mail-test" not in r.getMessage() for r in caplog.records)


def test_a_finished_game_keeps_no_address_and_its_page_offers_no_email(
        database_url: str, inbox: tuple[Inbox, int]) -> None:
    """Once the end's email is claimed (sent, or seen on the seat's page), the game's addresses
    are deleted; the seat's setting then says the game is over, with no address."""
    box, port = inbox
    with server(database_url, mail=settings(port)) as c:
        created = create(c)
        gid = created["id"]
        opt_in(c, created, 0, ANN)
        opt_in(c, created, 1, BOB)
        play = Play(c, created, pick=0)
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:  # Ann's page is open at the end
            ws.send_json({"token": tokens(created)[0]})
            assert recv(ws)["type"] == "hello"
            while not play.state.is_over:
                play.step()
        assert eventually(lambda: [m for m in box.to(BOB) if m["Subject"].startswith("The game is over")],
                          "Bob's end email")
        assert not [m for m in box.to(ANN) if m["Subject"].startswith("The game is over")]
        stored = Storage(database_url)
        with stored.engine.connect() as conn:
            assert conn.execute(sa.select(sa.func.count()).select_from(seat_mail)).scalar() == 0
        stored.close()
        for seat in (0, 1):
            r = c.get(f"/api/games/{gid}/seats/{seat}/mail", headers=bearer(tokens(created)[seat]))
            assert r.json() == {"offered": True, "seat": seat, "address": None, "over": True}


def test_a_turn_email_waiting_out_its_delay_at_a_restart_goes_after_it(
        database_url: str, inbox: tuple[Inbox, int]) -> None:
    """The server stops while seat 1's email waits out its delay; the next start, with nobody
    visiting the game, loads it and sends the email (once)."""
    box, port = inbox
    with server(database_url, mail=replace(settings(port), delay=3600.0)) as c:
        created = create(c)
        opt_in(c, created, 1, BOB)
        play = Play(c, created)
        seat = play.to_decide
        r = c.post(f"/api/games/{play.gid}/actions", headers=bearer(play.keys[seat]),
                   json={"action": str(play.game.legal_actions(play.state)[Play.PICK]), "expected_index": 0})
        assert r.status_code == 200 and 1 in live(c, play.gid).mail_tasks
    assert box.received == []
    with server(database_url, mail=settings(port)) as c:
        assert len(eventually(lambda: box.to(BOB), "the email after the restart")) == 1
        settled(c, play.gid)
        assert service(c).storage.mail_pending_games() == []  # claimed: a further start loads nothing
    assert len(box.to(BOB)) == 1


def test_the_storage_finds_the_games_that_may_owe_an_email_and_limits_and_blocks(database_url: str) -> None:
    s = Storage(database_url)
    s.migrate()
    try:
        for gid in ("owes", "claimed", "none", "over"):
            s.create_game(GameRow(gid, "ceres", {"players": 2}, 1, 2, None, "playing", 1.0, None,
                                  auth.token_hash("a")),
                          [SeatRow(i, "person", f"P{i}", auth.token_hash(f"t{i}"), None, "person") for i in (0, 1)])
            s.append_action(gid, ActionRow(0, 0, "PASS", "person", True), game_over=gid == "over")
        for gid in ("owes", "claimed", "over"):
            s.set_mail(gid, 1, BOB, claimed=1 if gid == "claimed" else None)
        assert s.mail_pending_games() == ["over", "owes"]
        assert s.claim_mail("owes", 1, 1) == BOB and s.mail_pending_games() == ["over"]
        assert s.claim_mail("over", 1, None) == BOB and s.claim_mail("over", 1, None) is None
        assert s.mail_pending_games() == [] and s.mail_seats("over") == frozenset()
        tokens_ = [s.permit_mail(BOB, 2, now=1000.0), s.permit_mail(BOB.upper(), 2, now=1001.0)]
        assert all(isinstance(t, str) for t in tokens_) and tokens_[0] != tokens_[1]
        assert s.permit_mail(BOB, 2, now=1002.0) is MailSkip.LIMIT
        assert isinstance(s.permit_mail(ANN, 2, now=1002.0), str)
        assert isinstance(s.permit_mail(BOB, 2, now=1000.0 + 3601), str)  # an hour later
        assert s.unsubscribe("x" * 43, confirm=True) is None
        assert s.unsubscribe(str(tokens_[1]), confirm=False) is False and s.mail_seats("owes") == frozenset({1})
        assert s.unsubscribe(str(tokens_[1]), confirm=True) is False
        assert s.unsubscribe(str(tokens_[0]), confirm=True) is True  # (the same address: blocked already)
        assert s.mail_seats("owes") == frozenset() and s.mail_is_blocked(BOB) and not s.mail_is_blocked(ANN)
        assert s.permit_mail(BOB, 2, now=9999.0) is MailSkip.BLOCKED
    finally:
        s.close()


class Flaky(Inbox):
    """An SMTP server that answers the first ``fail`` messages with ``answer`` (a 4xx: try later;
    a 5xx: refused) and takes the rest; ``tries`` counts every message offered."""

    def __init__(self, answer: str, fail: int) -> None:
        super().__init__()
        self.answer, self.fail, self.tries = answer, fail, 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.tries += 1
        if self.tries <= self.fail:
            return self.answer
        return await super().handle_DATA(server, session, envelope)


@contextmanager
def smtp(handler: Inbox) -> Iterator[int]:
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield port
    finally:
        controller.stop()


def test_an_email_the_mail_server_could_not_take_yet_is_tried_again_and_comes_once(
        database_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """A 451 (greylisting, a busy server) twice: the third try sends it, and only it; each
    failure is one WARNING saying it is tried again."""
    caplog.set_level(logging.INFO, logger="ecliptic")
    box = Flaky("451 4.7.1 Greylisted, try again later", fail=2)
    with smtp(box) as port, server(database_url, mail=settings(port, retries=(0.0, 0.0, 0.0))) as c:
        created = create(c)
        opt_in(c, created, 1, BOB)
        Play(c, created).step()
        assert box.tries == 3 and len(box.to(BOB)) == 1
        warned = [r.getMessage() for r in caplog.records if "was not sent" in r.getMessage()]
        assert len(warned) == 2 and all("it is tried again in 0 s" in w and "451" in w for w in warned)


def test_a_refused_email_is_not_tried_again(database_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """A 550 (no such mailbox) would be refused again: one try, one WARNING that says so."""
    caplog.set_level(logging.INFO, logger="ecliptic")
    box = Flaky("550 5.1.1 No such mailbox", fail=99)
    with smtp(box) as port, server(database_url, mail=settings(port, retries=(0.0, 0.0))) as c:
        created = create(c)
        opt_in(c, created, 1, BOB)
        Play(c, created).step()
        assert box.tries == 1 and box.received == []
        warned = [r.getMessage() for r in caplog.records if "was not sent" in r.getMessage()]
        assert len(warned) == 1 and "not tried again (the mail server refused it)" in warned[0]


def test_a_failed_email_no_longer_due_is_not_tried_again(database_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """The mail server away, the seat plays before the next try (it came back by another way):
    the next try finds its turn gone and sends nothing. The wait is held by the test, not timed."""
    caplog.set_level(logging.INFO, logger="ecliptic")
    box = Flaky("421 4.3.2 Service not available", fail=99)
    released = threading.Event()

    async def held(_seconds: float) -> None:
        await asyncio.to_thread(released.wait, 30)

    with smtp(box) as port, server(database_url, mail=settings(port, retries=(60.0,))) as c:
        service(c).mail_retry_wait = held
        created = create(c)
        opt_in(c, created, 1, BOB)
        play = Play(c, created)
        assert play.step(settle=False) == 0
        eventually(lambda: box.tries == 1, "the first try")
        assert play.to_decide == 1  # seat 1's turn: its email failed once and waits for its next try
        assert play.step(settle=False) == 1
        released.set()
        settled(c, play.gid)
        assert box.tries == 1 and box.received == []
        assert any("is not tried again: it is no longer due" in r.getMessage() for r in caplog.records)


def _send_at_once(storages: list[Storage], address: str) -> list[object]:
    """Each storage asks to email ``address`` (limit 2 an hour) at one moment, from a thread of
    its own: what each was answered, or the error it met."""
    barrier = threading.Barrier(len(storages))
    got: list[object] = []

    def send(storage: Storage) -> None:
        barrier.wait()
        try:
            got.append(storage.permit_mail(address, 2, now=5000.0))
        except Exception as exc:
            got.append(exc)

    senders = [threading.Thread(target=send, args=(s,)) for s in storages]
    for t in senders:
        t.start()
    for t in senders:
        t.join()
    return got


def test_the_per_address_limit_holds_for_two_servers_sending_at_once(database_url: str) -> None:
    """Two servers (two storages on one database, three senders each) ask at the same moment
    to email one address whose limit is 2 an hour: exactly two emails are let go, each other
    sender is told the limit, and none fails. Rounds of fresh addresses, so the moment repeats."""
    first = Storage(database_url)
    first.migrate()
    second = Storage(database_url)
    try:
        for round_ in range(12):
            got = _send_at_once([first, second] * 3, f"racer{round_}@example.org")
            assert sorted(type(g).__name__ for g in got) == ["MailSkip"] * 4 + ["str"] * 2, got
    finally:
        first.close()
        second.close()
