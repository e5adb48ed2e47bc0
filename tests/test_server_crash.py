"""Crash safety: ``kill -9`` the server at random moments, while it plays, and restart it on the
same database. Every acknowledged action must be there, the log must be whole (an action whose
request died unanswered may or may not be there, never half of one: no gap, nothing else), and
the restored game must be the fresh replay of its log.

The server is a real ``ecliptic serve`` process on a port (tests/server_process.py), played
through HTTP only, with what the API gives a seat: its view and its legal actions. The test itself
reads the database (the server's clients never can) to compare it with what was acknowledged, and
replays the log with the engine to check the restored views and, when a game is over, the digest
of the server's final state (``/record``, which exists only then).

Kills come from a thread: either after a random time, or a random few milliseconds after a chosen
action request was sent, so some die with a request in flight. Seeded, so a run's choices repeat;
which requests the kills catch depends on timing, and every outcome must pass.

The second loop (:func:`race_loop`) kills the server while it is busiest: every seat has two
clients (two tabs) racing to act on the same index, the first tab takes its own actions back and
retries acknowledged requests at once (a retry must be 409, never a second application), a
chat client posts, and after each restart every request that died unanswered is sent again.
Acknowledged actions, undos and chat messages must all be in the database; of the unanswered
ones each is there whole or not at all.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from ecliptic.engine.record import GameRecord, replay, state_digest
from ecliptic.games import get_game
from ecliptic.server.games import plain
from ecliptic.server.storage import engine_url
from server_process import Launcher, Server, start_cold

KILLS = {"sqlite": 24, "postgresql": 8}
"""The issue asks for at least 20; PostgreSQL runs a shorter loop."""
SEED = 20261201


@dataclass
class Tracked:
    """A game as the client knows it: the actions acknowledged (200), and the one whose request
    died without an answer, if any."""

    id: str
    tokens: dict[int, str]
    acked: list[str] = field(default_factory=list)
    pending: str | None = None
    over: bool = False


@dataclass
class Figures:
    kills: int = 0
    in_flight: int = 0
    """Kills that left an action request without an answer."""
    pending_stored: int = 0
    """Of those, the actions that had been committed anyway."""
    acknowledged: int = 0
    games_over: int = 0
    games: int = 0
    cold_start: float = 0.0
    starts: list[float] = field(default_factory=list)


class Killer:
    """``kill -9`` from a thread: after ``delay`` seconds, or ``delay`` seconds after the
    ``nth`` request was sent (by any of the clients' threads)."""

    def __init__(self, server: Server, delay: float, nth: int | None) -> None:
        self.server, self.delay, self.nth, self.posts = server, delay, nth, 0
        self.timer: threading.Timer | None = None
        self.lock = threading.Lock()
        if nth is None:
            self._arm()

    def _arm(self) -> None:
        self.timer = threading.Timer(self.delay, self.server.kill)
        self.timer.start()

    def posting(self) -> None:
        with self.lock:
            self.posts += 1
            if self.posts == self.nth:
                self._arm()

    def join(self) -> None:
        if self.timer is None:  # the request it waited for never came: kill now
            self.server.kill()
        else:
            self.timer.join()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def stored_log(db: sa.Engine, game_id: str) -> list[tuple[int, str]]:
    with db.connect() as conn:
        rows = conn.execute(sa.text("SELECT action_index, notation FROM actions WHERE game_id = :g "
                                    "ORDER BY action_index"), {"g": game_id}).all()
    return [(int(r[0]), str(r[1])) for r in rows]


def stored_record(db: sa.Engine, game_id: str) -> GameRecord:
    with db.connect() as conn:
        row = conn.execute(sa.text("SELECT game, config, seed FROM games WHERE id = :g"), {"g": game_id}).one()
    return GameRecord(row[0], json.loads(row[1]), int(row[2]), [n for _, n in stored_log(db, game_id)])


def as_json(data: Any) -> Any:
    return json.loads(json.dumps(plain(data)))


def reconcile(db: sa.Engine, game: Tracked, figures: Figures) -> None:
    """The stored log against what the client was told: the acknowledged actions, in order, with no
    gap, plus at most the one that died in flight."""
    log = stored_log(db, game.id)
    assert [i for i, _ in log] == list(range(len(log))), f"a gap in game {game.id}'s log: {log}"
    notations = [n for _, n in log]
    if game.pending is None:
        assert notations == game.acked, (game.id, notations, game.acked)
    else:
        assert notations in (game.acked, [*game.acked, game.pending]), (game.id, notations, game.acked, game.pending)
        figures.pending_stored += notations != game.acked
    game.acked, game.pending = notations, None
    if db.dialect.name == "sqlite":  # the file itself survived whole
        with db.connect() as conn:
            assert conn.execute(sa.text("PRAGMA integrity_check")).scalar() == "ok"


def check_restored(api: httpx.Client, db: sa.Engine, game: Tracked) -> None:
    """The restarted server's views (a spectator's and each seat's) are those of a fresh replay of
    the stored log; once the game is over, so is the digest of its state."""
    assert check_views(api, db, game.id, game.tokens) == len(game.acked)


def check_views(api: httpx.Client, db: sa.Engine, game_id: str, tokens: dict[int, str]) -> int:
    """:func:`check_restored` for any game: its index (the stored log's length) is returned."""
    record = stored_record(db, game_id)
    rules = get_game(record.game)
    state = replay(record)
    for seat in [None, *tokens]:
        headers = bearer(tokens[seat]) if seat is not None else {}
        answer = api.get(f"/api/games/{game_id}", headers=headers)
        assert answer.status_code == 200, answer.text
        view = answer.json()
        assert view["index"] == len(record.actions)
        assert view["view"] == as_json(rules.observe(state, seat)), f"seat {seat}'s restored view differs"
    if state.is_over:
        done = api.get(f"/api/games/{game_id}/record")
        assert done.status_code == 200, done.text
        assert done.json()["actions"] == record.actions
        assert done.json()["digest"] == state_digest(rules, state)
    return len(record.actions)


def taken(api: httpx.Client, created: dict[str, Any]) -> dict[int, str]:
    """Each person seat's own token, for taking its join link (as its person's browser does)."""
    out: dict[int, str] = {}
    for s in created["seats"]:
        r = api.post(f"/api/games/{created['id']}/seats/{s['seat']}/take",
                     headers={"Authorization": f"Bearer {s['token']}"})
        assert r.status_code == 200, r.text
        out[s["seat"]] = r.json()["token"]
    return out


def create_game(api: httpx.Client, rng: random.Random) -> Tracked:
    body = {"game": "ceres", "config": {}, "seed": rng.randrange(2**32), "seats": [{"name": "Ann"}, {"name": "Bob"}]}
    answer = api.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    created = answer.json()
    return Tracked(created["id"], taken(api, created))


def play(api: httpx.Client, db: sa.Engine, game: Tracked, rng: random.Random, killer: Killer,
         figures: Figures) -> None:
    """Play ``game`` from its seats' views until it ends (checked against a fresh replay) or the
    server dies (``httpx.TransportError``)."""
    seat = 0
    while not game.over:
        view = api.get(f"/api/games/{game.id}", headers=bearer(game.tokens[seat])).json()
        assert view["index"] == len(game.acked)
        if view["status"] == "over":
            game.over = True
            figures.games_over += 1
            check_restored(api, db, game)
            return
        if view["current_seat"] != seat:
            seat = view["current_seat"]
            continue
        choice = rng.choice(view["legal_actions"])["notation"]
        game.pending = choice
        killer.posting()
        answer = api.post(f"/api/games/{game.id}/actions", headers=bearer(game.tokens[seat]),
                          json={"action": choice, "expected_index": view["index"]})
        assert answer.status_code == 200, answer.text
        assert answer.json()["index"] == view["index"] + 1
        game.acked.append(choice)
        game.pending = None
        figures.acknowledged += 1


def kill_loop(database_url: str, folder: Path, launcher: Launcher, kills: int, seed: int = SEED) -> Figures:
    """Play, ``kill -9`` and restart ``kills`` times, checking the stored log and the restored
    games after each restart and at the end (also run by ``python -m benchmarks.server --kills N``)."""
    rng = random.Random(seed)
    db = sa.create_engine(engine_url(database_url))
    figures = Figures()
    games: list[Tracked] = []
    # The first start is the command as a user runs it (a new interpreter); the others are forked
    # from a launcher that has imported the server already (same command, no import time).
    server = start_cold(database_url, folder)
    figures.cold_start = server.started_in
    try:
        while figures.kills < kills:
            figures.starts.append(server.started_in)
            with httpx.Client(base_url=server.base_url, timeout=30.0) as api:
                for game in games:
                    reconcile(db, game, figures)
                    check_restored(api, db, game)
                in_flight = rng.random() < 0.5
                killer = Killer(server, rng.uniform(0.0, 0.1) if in_flight else rng.uniform(0.0, 0.4),
                                rng.randint(1, 6) if in_flight else None)
                try:
                    while True:
                        if not games or games[-1].over:
                            games.append(create_game(api, rng))
                        play(api, db, games[-1], rng, killer, figures)
                except httpx.TransportError:
                    figures.in_flight += bool(games) and games[-1].pending is not None
                killer.join()
            figures.kills += 1
            server = launcher.start(database_url)
        with httpx.Client(base_url=server.base_url, timeout=30.0) as api:
            for game in games:
                reconcile(db, game, figures)
                check_restored(api, db, game)
        server.stop()
    finally:
        server.kill()
        db.dispose()
    figures.games = len(games)
    return figures


def summary(backend: str, figures: Figures) -> str:
    warm = sorted(figures.starts[1:]) or [float("nan")]
    return (f"{backend}: {figures.kills} kills survived ({figures.in_flight} with an action request in flight, "
            f"{figures.pending_stored} of those committed anyway); {figures.acknowledged} actions acknowledged "
            f"in {figures.games} games ({figures.games_over} over); start-up: cold {figures.cold_start:.2f} s, "
            f"forked median {warm[len(warm) // 2]:.2f} s")


# -- kills while clients race, take back and chat ------------------------------------------------

RACE_KILLS = {"sqlite": 10, "postgresql": 4}
RACE_SEATS = 3
MAX_CHAT = 60
"""Chat messages a game gets at most (the chat API answers the last 200)."""


@dataclass(frozen=True)
class Op:
    """A request that changes a game: an ``action`` (``text``: its notation) or an ``undo`` sent with
    the expected ``index``, or a ``chat`` message (``text``)."""

    kind: str
    seat: int
    index: int
    text: str


@dataclass
class Raced:
    """A game as its racing clients know it. Taken-back actions stay counted: the server moves them
    to the ``undone`` table, so the stored actions and undone ones together hold every action
    ever acknowledged."""

    id: str
    tokens: dict[int, str]
    actions: Counter[tuple[int, str]] = field(default_factory=Counter)
    """(index, notation) of each acknowledged action."""
    undos: Counter[int] = field(default_factory=Counter)
    """The index of the action each acknowledged undo took back."""
    chat: set[str] = field(default_factory=set)
    pending: list[Op] = field(default_factory=list)
    """The requests that died unanswered."""
    over: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ack(self, op: Op) -> None:
        with self.lock:
            if op.kind == "action":
                self.actions[(op.index, op.text)] += 1
            elif op.kind == "undo":
                self.undos[op.index - 1] += 1
            else:
                self.chat.add(op.text)


@dataclass
class RaceFigures:
    kills: int = 0
    in_flight: Counter[str] = field(default_factory=Counter)
    """Requests of each kind left unanswered by a kill."""
    committed_anyway: int = 0
    """Of those, the ones found stored after the restart."""
    acknowledged: Counter[str] = field(default_factory=Counter)
    refused: Counter[int] = field(default_factory=Counter)
    """The races lost: 409 (another tab or seat came first), 403, 422."""
    retries: int = 0
    """Acknowledged actions sent again at once: every one a 409."""
    resent: Counter[int] = field(default_factory=Counter)
    """Unanswered requests sent again after the restart, by answer."""
    games: int = 0
    games_over: int = 0


def stored_ops(db: sa.Engine, game_id: str) -> tuple[Counter[tuple[int, str]], Counter[int], list[str]]:
    """The game's stored and taken-back actions as (index, notation), the taken-back indices, and the
    chat texts in order."""
    with db.connect() as conn:
        done = conn.execute(sa.text("SELECT action_index, notation FROM actions WHERE game_id = :g"),
                            {"g": game_id}).all()
        undone = conn.execute(sa.text("SELECT action_index, notation FROM undone WHERE game_id = :g"),
                              {"g": game_id}).all()
        chat = conn.execute(sa.text("SELECT text FROM chat WHERE game_id = :g ORDER BY id"), {"g": game_id}).all()
    actions = Counter((int(i), str(n)) for i, n in [*done, *undone])
    return actions, Counter(int(i) for i, _ in undone), [str(t) for (t,) in chat]


def reconcile_race(db: sa.Engine, game: Raced, figures: RaceFigures) -> None:
    """What is stored against what the clients were told: every acknowledged action, undo and chat
    message, and of the unanswered requests only whole ones (an undo is its action moved to
    ``undone``; an action is one row at the next index)."""
    log = stored_log(db, game.id)
    assert [i for i, _ in log] == list(range(len(log))), f"a gap in game {game.id}'s log: {log}"
    actions, undos, chat = stored_ops(db, game.id)
    sent_actions = Counter((op.index, op.text) for op in game.pending if op.kind == "action")
    sent_undos = Counter(op.index - 1 for op in game.pending if op.kind == "undo")
    sent_chat = {op.text for op in game.pending if op.kind == "chat"}
    assert not game.actions - actions, f"acknowledged actions lost: {game.actions - actions}"
    assert not (actions - game.actions) - sent_actions, f"actions stored unasked: {(actions - game.actions)}"
    assert not game.undos - undos, f"acknowledged undos lost: {game.undos - undos}"
    assert not (undos - game.undos) - sent_undos, f"undos stored unasked: {undos - game.undos}"
    assert len(chat) == len(set(chat)) and game.chat <= set(chat) <= game.chat | sent_chat
    figures.committed_anyway += (sum((actions - game.actions).values()) + sum((undos - game.undos).values())
                                 + len(set(chat) - game.chat))
    game.actions, game.undos, game.chat = actions, undos, set(chat)
    if db.dialect.name == "sqlite":
        with db.connect() as conn:
            assert conn.execute(sa.text("PRAGMA integrity_check")).scalar() == "ok"


def resend(api: httpx.Client, game: Raced, figures: RaceFigures) -> None:
    """Send each action and undo that died unanswered again, as a client does after a restart: once
    the game has moved past its index, the answer must be 409 (it never applies twice)."""
    for op in game.pending:
        if op.kind == "chat":  # a chat message has no index to make a resend safe: not resent
            continue
        index = api.get(f"/api/games/{game.id}").json()["index"]
        path, body = (("actions", {"action": op.text, "expected_index": op.index}) if op.kind == "action"
                      else ("undo", {"expected_index": op.index}))
        answer = api.post(f"/api/games/{game.id}/{path}", headers=bearer(game.tokens[op.seat]), json=body)
        figures.resent[answer.status_code] += 1
        if index != op.index:
            assert answer.status_code == 409, (op, index, answer.text)
        else:
            assert answer.status_code in (200, 403, 409, 422), answer.text
        if answer.status_code == 200:
            game.ack(op)
    game.pending = []


def check_race(api: httpx.Client, db: sa.Engine, game: Raced) -> None:
    check_views(api, db, game.id, game.tokens)
    chat = api.get(f"/api/games/{game.id}/chat")
    assert chat.status_code == 200 and {m["text"] for m in chat.json()} == game.chat


def finish(api: httpx.Client, game: Raced) -> None:
    """Play ``game`` to its end, one request at a time."""
    while (view := api.get(f"/api/games/{game.id}").json())["status"] != "over":
        headers = bearer(game.tokens[view["current_seat"]])
        legal = api.get(f"/api/games/{game.id}", headers=headers).json()["legal_actions"]
        answer = api.post(f"/api/games/{game.id}/actions", headers=headers,
                          json={"action": legal[0]["notation"], "expected_index": view["index"]})
        assert answer.status_code == 200, answer.text
        game.ack(Op("action", view["current_seat"], view["index"], legal[0]["notation"]))


def race(base_url: str, game: Raced, rng: random.Random, killer: Killer, figures: RaceFigures) -> bool:
    """Two tabs per seat and a chat client play ``game`` at once until it ends (``False``) or the
    server dies (``True``, the requests left unanswered in ``game.pending``)."""
    stop, died = threading.Event(), threading.Event()
    slots: dict[str, Op | None] = {}
    errors: list[str] = []
    tally = threading.Lock()

    def count(kind: str, status: int) -> None:
        with tally:
            if status in (200, 201):
                figures.acknowledged[kind] += 1
            else:
                figures.refused[status] += 1

    def tab(name: str, seat: int, first: bool, seed: int) -> None:
        r = random.Random(seed)
        headers = bearer(game.tokens[seat])
        with httpx.Client(base_url=base_url, timeout=30.0) as http:
            try:
                while not stop.is_set():
                    view = http.get(f"/api/games/{game.id}", headers=headers).json()
                    if view["status"] == "over":
                        stop.set()
                        return
                    if first and view["undoable"] and r.random() < 0.4:
                        op = Op("undo", seat, view["index"], "")
                        path, body = "undo", {"expected_index": op.index}
                    elif view["current_seat"] != seat or not view["legal_actions"]:
                        time.sleep(0.03)  # (the waiting seats' polls must not crowd out the racing ones)
                        continue
                    else:
                        op = Op("action", seat, view["index"], r.choice(view["legal_actions"])["notation"])
                        path, body = "actions", {"action": op.text, "expected_index": op.index}
                    slots[name] = op
                    killer.posting()
                    answer = http.post(f"/api/games/{game.id}/{path}", headers=headers, json=body)
                    slots[name] = None
                    count(op.kind, answer.status_code)
                    if answer.status_code == 200:
                        game.ack(op)
                        if first and op.kind == "action":
                            after(http, headers, op, r)
                    elif answer.status_code not in (403, 409, 422):
                        errors.append(f"{op} was answered {answer.status_code}: {answer.text}")
            except httpx.TransportError:
                died.set()
                stop.set()
            except Exception as exc:  # a failure in a client thread fails the test, not only the thread
                errors.append(f"{type(exc).__name__}: {exc}")
                stop.set()

    def after(http: httpx.Client, headers: dict[str, str], op: Op, r: random.Random) -> None:
        """The first tab's acknowledged action: sent again, or taken back at once (or both)."""
        body = {"action": op.text, "expected_index": op.index}
        if r.random() < 0.3 or not figures.retries:
            # Only this tab takes its seat's actions back, so nothing can bring the game back
            # to this index: sent again, the action must be refused as stale. (The first
            # acknowledged action is always sent again, so a run with few acknowledgements on
            # a loaded machine still checks a retry.)
            again = http.post(f"/api/games/{game.id}/actions", headers=headers, json=body)
            with tally:
                figures.retries += 1
            if again.status_code != 409:
                errors.append(f"a retry of {op} was answered {again.status_code}: {again.text}")
        if r.random() < 0.4:
            undo = Op("undo", op.seat, op.index + 1, "")
            slots[f"{op.seat}a"] = undo
            killer.posting()
            answer = http.post(f"/api/games/{game.id}/undo", headers=headers, json={"expected_index": undo.index})
            slots[f"{op.seat}a"] = None
            count("undo", answer.status_code)
            if answer.status_code == 200:
                game.ack(undo)
            elif answer.status_code not in (409, 422):
                errors.append(f"{undo} was answered {answer.status_code}: {answer.text}")

    def chatter(seed: int) -> None:
        r = random.Random(seed)
        headers = bearer(game.tokens[0])
        with httpx.Client(base_url=base_url, timeout=30.0) as http:
            try:
                while not stop.is_set() and len(game.chat) < MAX_CHAT:
                    op = Op("chat", 0, -1, f"message {r.getrandbits(48):012x}")
                    slots["chat"] = op
                    killer.posting()
                    answer = http.post(f"/api/games/{game.id}/chat", headers=headers, json={"text": op.text})
                    slots["chat"] = None
                    count("chat", answer.status_code)
                    if answer.status_code == 201:
                        game.ack(op)
                    else:
                        errors.append(f"{op} was answered {answer.status_code}: {answer.text}")
                    time.sleep(r.uniform(0.005, 0.03))
            except httpx.TransportError:
                died.set()
                stop.set()
            except Exception as exc:  # a failure in a client thread fails the test, not only the thread
                errors.append(f"{type(exc).__name__}: {exc}")
                stop.set()

    threads = [threading.Thread(target=tab, args=(f"{seat}{tab_}", seat, tab_ == "a", rng.getrandbits(32)))
               for seat in game.tokens for tab_ in "ab"]
    threads.append(threading.Thread(target=chatter, args=(rng.getrandbits(32),)))
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    game.pending = [op for op in slots.values() if op is not None]
    for op in game.pending:
        figures.in_flight[op.kind] += 1
    return died.is_set()


def race_loop(database_url: str, launcher: Launcher, kills: int, seed: int = SEED) -> RaceFigures:
    """Race, ``kill -9`` and restart ``kills`` times; after each restart check every game, then
    send the unanswered requests again."""
    rng = random.Random(seed)
    db = sa.create_engine(engine_url(database_url))
    figures = RaceFigures()
    games: list[Raced] = []
    server = launcher.start(database_url)
    try:
        while True:
            with httpx.Client(base_url=server.base_url, timeout=30.0) as api:
                for game in games:
                    reconcile_race(db, game, figures)
                    check_race(api, db, game)
                    resend(api, game, figures)
                if figures.kills == kills:
                    for game in games:  # the last game to its end, for the digest of its final state
                        if not game.over:
                            finish(api, game)
                            check_race(api, db, game)
                            game.over = True
                            figures.games_over += 1
                    break
                in_flight = rng.random() < 0.6
                killer = Killer(server, rng.uniform(0.0, 0.02) if in_flight else rng.uniform(0.1, 0.8),
                                rng.randint(1, 30) if in_flight else None)
                try:
                    while True:
                        if not games or games[-1].over:
                            body = {"game": "ceres", "seed": rng.randrange(2**32),
                                    "seats": [{"name": f"P{i}"} for i in range(RACE_SEATS)]}
                            created = api.post("/api/games", json=body).json()
                            games.append(Raced(created["id"], taken(api, created)))
                        if race(server.base_url, games[-1], rng, killer, figures):
                            break
                        games[-1].over = True
                        figures.games_over += 1
                except httpx.TransportError:
                    pass
                killer.join()
            figures.kills += 1
            server = launcher.start(database_url)
        server.stop()
    finally:
        server.kill()
        db.dispose()
    figures.games = len(games)
    return figures


def race_summary(backend: str, figures: RaceFigures) -> str:
    return (f"{backend}, racing: {figures.kills} kills survived with requests in flight "
            f"{dict(figures.in_flight)} ({figures.committed_anyway} of them committed anyway); acknowledged "
            f"{dict(figures.acknowledged)}; races lost {dict(figures.refused)}; {figures.retries} retries of "
            f"acknowledged actions (all 409); resent after restart {dict(figures.resent)}; "
            f"{figures.games} games ({figures.games_over} over)")


@pytest.fixture
def launcher(tmp_path: Path) -> Iterator[Launcher]:
    started = Launcher(tmp_path)
    yield started
    started.close()


def test_kill_9_at_random_moments_loses_no_acknowledged_action(
        database_url: str, tmp_path: Path, launcher: Launcher) -> None:
    backend = "sqlite" if database_url.startswith("sqlite") else "postgresql"
    figures = kill_loop(database_url, tmp_path, launcher, KILLS[backend])
    print("\n" + summary(backend, figures))
    assert figures.kills == KILLS[backend] >= (20 if backend == "sqlite" else 5)
    assert figures.acknowledged > 0 and figures.games_over > 0


def test_kill_9_while_seats_race_take_back_and_chat_loses_nothing_acknowledged(
        database_url: str, launcher: Launcher) -> None:
    backend = "sqlite" if database_url.startswith("sqlite") else "postgresql"
    figures = race_loop(database_url, launcher, RACE_KILLS[backend])
    print("\n" + race_summary(backend, figures))
    assert figures.kills == RACE_KILLS[backend]
    assert figures.acknowledged["action"] and figures.acknowledged["undo"] and figures.acknowledged["chat"]
    assert figures.refused[409] > 0 and figures.retries > 0  # the tabs did race
    assert sum(figures.in_flight.values()) > 0 and figures.games_over > 0
