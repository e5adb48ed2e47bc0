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
"""

from __future__ import annotations

import json
import random
import threading
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
    ``nth`` action request was sent."""

    def __init__(self, server: Server, delay: float, nth: int | None) -> None:
        self.server, self.delay, self.nth, self.posts = server, delay, nth, 0
        self.timer: threading.Timer | None = None
        if nth is None:
            self._arm()

    def _arm(self) -> None:
        self.timer = threading.Timer(self.delay, self.server.kill)
        self.timer.start()

    def posting(self) -> None:
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
    record = stored_record(db, game.id)
    rules = get_game(record.game)
    state = replay(record)
    for seat in [None, *game.tokens]:
        headers = bearer(game.tokens[seat]) if seat is not None else {}
        answer = api.get(f"/api/games/{game.id}", headers=headers)
        assert answer.status_code == 200, answer.text
        view = answer.json()
        assert view["index"] == len(game.acked) == len(record.actions)
        assert view["view"] == as_json(rules.observe(state, seat)), f"seat {seat}'s restored view differs"
    if state.is_over:
        done = api.get(f"/api/games/{game.id}/record")
        assert done.status_code == 200, done.text
        assert done.json()["actions"] == record.actions
        assert done.json()["digest"] == state_digest(rules, state)


def create_game(api: httpx.Client, rng: random.Random) -> Tracked:
    body = {"game": "ceres", "config": {}, "seed": rng.randrange(2**32), "seats": [{"name": "Ann"}, {"name": "Bob"}]}
    answer = api.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    created = answer.json()
    return Tracked(created["id"], {s["seat"]: s["token"] for s in created["seats"]})


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
