"""The turn clock across restarts, games resumed without a visitor, and idle games unloaded.

A restart is a new app on the same database (the SQLite file, or the same PostgreSQL
database): nothing of the first app's memory is left. The clocks are real (a deadline is
Unix time); where a test needs "an hour passed while the server was down" it writes the
stored deadline into the past instead of waiting.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from ecliptic.engine.record import GameRecord, replay
from ecliptic.server import auth, create_app
from ecliptic.server.bots import BotPool
from ecliptic.server.storage import GameRow, SeatRow, Storage, games, seats
from server_helpers import WAIT, at_revision, bearer, create, eventually, recv, service, tokens
from server_process import start_cold

BOTS = [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]


class Never(Executor):
    """A bot pool whose bots think forever (until the server closes)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return Future()


class Gated(ThreadPoolExecutor):
    """Bots that start thinking once ``gate`` is open."""

    def __init__(self, gate: threading.Event) -> None:
        super().__init__(1)
        self.gate = gate

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        def gated() -> Any:
            self.gate.wait(WAIT)
            return fn(*args, **kwargs)

        return super().submit(gated)


@contextmanager
def app_on(database_url: str, bots: Executor | None = None, **options: Any) -> Iterator[TestClient]:
    """A server on ``database_url``; ``bots`` replaces its process pool before it starts (the
    games it resumes at start-up begin thinking at once)."""
    options.setdefault("zombie_level", "random")
    app = create_app(database_url, **options)
    app.state.service.bots = BotPool(executor=bots or ThreadPoolExecutor(1))
    with TestClient(app) as client:
        yield client


def stored(database_url: str) -> Storage:
    return Storage(database_url)


def set_deadline(database_url: str, game_id: str, when: float) -> None:
    s = stored(database_url)
    with s.engine.begin() as conn:
        conn.execute(games.update().where(games.c.id == game_id).values(wake_at=when))
    s.close()


def actions_of(database_url: str, game_id: str) -> list[tuple[int, str, str]]:
    s = stored(database_url)
    try:
        return [(r.index, r.notation, r.actor) for r in s.actions(game_id)]
    finally:
        s.close()


# -- the deadline is stored -------------------------------------------------------------------


def test_the_deadline_is_stored_and_a_restart_keeps_it(database_url: str) -> None:
    with app_on(database_url) as a:
        created = create(a, clock_seconds=3600)
        gid = created["id"]
        deadline = a.get(f"/api/games/{gid}").json()["deadline"]
        assert deadline is not None
        assert service(a).storage.game(gid).wake_at == deadline  # type: ignore[union-attr]
    with app_on(database_url) as b:
        view = b.get(f"/api/games/{gid}").json()
        assert view["deadline"] == deadline, "a restart gave the pending decision a new clock"
        # An action starts the next decision's clock, stored with the action.
        seat = view["current_seat"]
        headers = bearer(tokens(created)[seat])
        move = b.get(f"/api/games/{gid}", headers=headers).json()["legal_actions"][0]["notation"]
        before = time.time()
        assert b.post(f"/api/games/{gid}/actions", headers=headers,
                      json={"action": move, "expected_index": 0}).status_code == 200
        after = b.get(f"/api/games/{gid}").json()["deadline"]
        assert before + 3600 <= after <= time.time() + 3600
        assert service(b).storage.game(gid).wake_at == after  # type: ignore[union-attr]


def test_a_deadline_that_passed_while_the_server_was_down_zombies_the_seat_at_once(database_url: str) -> None:
    with app_on(database_url) as a:
        created = create(a, clock_seconds=3600)
        gid = created["id"]
        seat = a.get(f"/api/games/{gid}").json()["current_seat"]
    set_deadline(database_url, gid, time.time() - 60)  # the hour went by while no server ran
    with app_on(database_url) as b:
        # Nobody asks for the game: the server resumes it by itself, and the zombie plays.
        log = eventually(lambda: actions_of(database_url, gid), "the zombie's move")
        assert log[0][2] == "zombie" and log[0][0] == 0
        assert service(b).storage.seats(gid)[seat].controller == "zombie"
        # Its person is back with any request; the seat's clock starts afresh.
        view = b.get(f"/api/games/{gid}", headers=bearer(tokens(created)[seat])).json()
        assert view["seats"][seat]["controller"] == "person"


def test_a_game_only_bots_play_resumes_after_a_restart_without_a_visitor(database_url: str) -> None:
    with app_on(database_url, bots=Never()) as a:  # its bots never move
        gid = create(a, seats=BOTS)["id"]
        wake = service(a).storage.game(gid).wake_at  # type: ignore[union-attr]
        assert wake is not None and wake <= time.time()  # due now: a bot is to decide
    assert actions_of(database_url, gid) == []
    with app_on(database_url) as b:
        eventually(lambda: service(b).storage.game(gid).status == "over",  # type: ignore[union-attr]
                   "the bots finishing the game")
        row = service(b).storage.game(gid)
        assert row is not None and row.wake_at is None  # over: nothing to wake for
        record = GameRecord(row.game, row.config, row.seed, [n for _, n, _ in actions_of(database_url, gid)])
        assert replay(record).is_over


def test_ecliptic_serve_resumes_the_games_due_once_it_listens(database_url: str, tmp_path: Path) -> None:
    """The real command: a stored game whose bot is to move is played to its end by a server
    nobody visits (its wake-up is started by uvicorn's start-up hook, after the socket is bound)."""
    s = stored(database_url)
    s.migrate()
    s.create_game(GameRow("botsonly", "ceres", {"players": 2}, 5, 2, None, "playing", time.time(), None,
                          auth.token_hash("admin"), wake_at=time.time()),
                  [SeatRow(i, "bot", f"Bot {i}", None, "random", "bot") for i in (0, 1)])
    server = start_cold(database_url, tmp_path)
    try:
        eventually(lambda: s.game("botsonly").status == "over", "the bots finishing the game",  # type: ignore[union-attr]
                   timeout=60)
    finally:
        server.stop()
        s.close()


def test_a_person_to_decide_without_a_clock_is_not_resumed_at_start_up(database_url: str) -> None:
    """Start-up loads only the games due: the query selects them on the ``wake_at`` index."""
    with app_on(database_url, bots=Never()) as a:
        waiting = create(a)["id"]  # two persons, no clock
        busy = create(a, seats=BOTS)["id"]
        assert service(a).storage.game(waiting).wake_at is None  # type: ignore[union-attr]
    with app_on(database_url, bots=Never()) as b:
        eventually(lambda: service(b).loaded(busy), "the bots' game resumed")
        assert service(b).loaded(waiting) is None
        assert service(b).storage.due_games(time.time()) == [busy]
        with service(b).storage.engine.connect() as conn:
            indexes = {i["name"]: i["column_names"] for i in sa.inspect(conn).get_indexes("games")}
        assert indexes["games_wake_at"] == ["wake_at"]


def test_several_servers_resuming_one_bot_game_keep_one_move_per_index_quietly(
        database_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """Two processes on one database both resume a bots' game and both play its moves: the
    database keeps the first at each index, the other server's bot gets a 409 and catches
    up. Nothing loops, nothing logs an error or a traceback."""
    with app_on(database_url, bots=Never()) as a:
        gid = create(a, seats=BOTS, seed=11)["id"]
    caplog.set_level(logging.INFO, logger="ecliptic.server")
    gate = threading.Event()  # both servers have resumed the game before either bot moves
    with app_on(database_url, bots=Gated(gate)) as a, app_on(database_url, bots=Gated(gate)) as b:
        for c in (a, b):
            eventually(lambda c=c: service(c).loaded(gid), "the game resumed")  # type: ignore[misc]
        gate.set()
        for c in (a, b):
            eventually(lambda c=c: (g := service(c).loaded(gid)) is not None and g.state.is_over,  # type: ignore[misc]
                       "both servers seeing the game end")
        log = actions_of(database_url, gid)
        assert [i for i, _, _ in log] == list(range(len(log)))
        assert [r.notation for r in service(a).loaded(gid).log] == [n for _, n, _ in log]  # type: ignore[union-attr]
        assert [r.notation for r in service(b).loaded(gid).log] == [n for _, n, _ in log]  # type: ignore[union-attr]
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    assert loud == [], [r.getMessage() for r in loud]


def test_an_upgrade_from_0001_stores_a_wake_time_for_the_games_in_progress(database_url: str) -> None:
    """Games stored by a server without deadlines: one without a clock is marked due, replayed
    once at the next start and given its true wake time; one with a clock gets a whole clock
    from the upgrade, kept from then on."""
    with at_revision(database_url, "0001") as (old, conn):
        for gid, clock in (("noclock", None), ("clock", 3600.0)):
            conn.execute(sa.text(
                "INSERT INTO games (id, game, config, seed, players, clock_seconds, status, created_at, admin_hash) "
                "VALUES (:id, 'ceres', '{\"players\": 2}', 7, 2, :clock, 'playing', 1.0, :admin)"),
                {"id": gid, "clock": clock, "admin": auth.token_hash("admin")})
            conn.execute(seats.insert(), [{"game_id": gid, "seat": i, "kind": "person", "name": f"P{i}",
                                           "token_hash": auth.token_hash(f"{gid}{i}"), "bot_level": None,
                                           "controller": "person"} for i in (0, 1)])
    before = time.time()
    old.migrate()
    noclock, clock = old.game("noclock"), old.game("clock")
    assert noclock is not None and clock is not None and noclock.wake_at is not None and clock.wake_at is not None
    assert before <= noclock.wake_at <= time.time() and before + 3600 <= clock.wake_at <= time.time() + 3600
    old.close()
    with app_on(database_url, bots=Never()) as c:
        eventually(lambda: service(c).storage.game("noclock").wake_at is None,  # type: ignore[union-attr]
                   "the game without a clock settled: a person is to decide")
        assert c.get("/api/games/clock").json()["deadline"] == clock.wake_at


# -- unloading idle games ---------------------------------------------------------------------


def test_an_idle_game_is_unloaded_and_the_next_access_replays_it(database_url: str) -> None:
    with app_on(database_url, idle_seconds=0.1) as c:
        created = create(c)
        gid = created["id"]
        seat = c.get(f"/api/games/{gid}").json()["current_seat"]
        headers = bearer(tokens(created)[seat])
        move = c.get(f"/api/games/{gid}", headers=headers).json()["legal_actions"][0]["notation"]
        assert c.post(f"/api/games/{gid}/actions", headers=headers,
                      json={"action": move, "expected_index": 0}).status_code == 200
        views = {s: c.get(f"/api/games/{gid}", headers=bearer(t)).json() for s, t in tokens(created).items()}
        eventually(lambda: service(c).loaded(gid) is None, "the idle game unloaded")
        assert gid not in service(c)._shown  # nothing of it stays in memory, its presented views neither
        again = {s: c.get(f"/api/games/{gid}", headers=bearer(t)).json() for s, t in tokens(created).items()}
        assert again == views
        assert service(c).loaded(gid) is not None


def test_a_game_with_a_viewer_a_running_clock_or_a_thinking_bot_stays_loaded(database_url: str) -> None:
    with app_on(database_url, bots=Never(), idle_seconds=0.1) as c:
        watched = create(c)["id"]
        clocked = create(c, clock_seconds=3600)["id"]
        thinking = create(c, seats=BOTS)["id"]
        idle = create(c)["id"]
        with c.websocket_connect(f"/api/games/{watched}/ws") as ws:
            ws.send_json({"spectator": True})
            recv(ws)
            eventually(lambda: service(c).loaded(idle) is None, "the idle game unloaded")
            time.sleep(0.3)  # a few more rounds of the unloader
            for gid in (watched, clocked, thinking):
                assert service(c).loaded(gid) is not None, gid
        eventually(lambda: service(c).loaded(watched) is None, "the game unloaded once its viewer left")
        assert service(c).loaded(clocked) is not None and service(c).loaded(thinking) is not None


def test_a_game_is_never_unloaded_in_the_middle_of_a_request_or_with_its_lock_held(database_url: str) -> None:
    with app_on(database_url, idle_seconds=0.05) as c:
        svc = service(c)
        created = create(c)
        gid = created["id"]
        # A chat post whose database write takes far longer than the idle time.
        entered, release = threading.Event(), threading.Event()
        add_chat = svc.storage.add_chat

        def slow_add_chat(*args: Any, **kwargs: Any) -> Any:
            entered.set()
            release.wait(WAIT)
            return add_chat(*args, **kwargs)

        svc.storage.add_chat = slow_add_chat  # type: ignore[method-assign]
        answer: dict[str, int] = {}
        post = threading.Thread(target=lambda: answer.setdefault("status", c.post(
            f"/api/games/{gid}/chat", json={"text": "hi"}, headers=bearer(tokens(created)[0])).status_code))
        post.start()
        assert entered.wait(WAIT)
        first = svc.loaded(gid)
        time.sleep(0.4)  # several rounds of the unloader, each past the idle time
        assert svc.loaded(gid) is first is not None, "unloaded in the middle of a request"
        release.set()
        post.join(WAIT)
        assert answer == {"status": 201}
        eventually(lambda: svc.loaded(gid) is None, "unloaded once the request was done")

    with app_on(database_url) as c:  # the default idle time: unload_idle is called by hand
        svc = service(c)
        gid = create(c)["id"]
        live = svc.loaded(gid)
        assert live is not None

        async def with_lock_held() -> list[str]:
            async with live.lock:
                live.used -= 10_000
                return svc.unload_idle()

        assert c.portal.call(with_lock_held) == []
        assert svc.loaded(gid) is live
        assert svc.unload_idle() == [gid] and svc.loaded(gid) is None
        assert c.get(f"/api/games/{gid}").json()["index"] == 0


def test_idle_and_wake_seconds_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from ecliptic.server.serve import seconds

    monkeypatch.setenv("ECLIPTIC_IDLE_SECONDS", "90")
    assert seconds("ECLIPTIC_IDLE_SECONDS", 600.0) == 90.0
    monkeypatch.delenv("ECLIPTIC_IDLE_SECONDS")
    assert seconds("ECLIPTIC_IDLE_SECONDS", 600.0) == 600.0
    for bad in ("0", "-5", "soon", "inf", "nan"):
        monkeypatch.setenv("ECLIPTIC_IDLE_SECONDS", bad)
        with pytest.raises(ValueError, match="ECLIPTIC_IDLE_SECONDS"):
            seconds("ECLIPTIC_IDLE_SECONDS", 600.0)

