"""The game server's figures: action round trip, broadcast latency, start-up with many stored
games, disk bytes per stored action, on SQLite and PostgreSQL (docs/server-benchmark.md).

``python -m benchmarks.server [--quick] [--clients 100,1000] [--actions 200] [--backends sqlite,postgresql]``

* The server is a real ``ecliptic serve`` process (uvicorn on a port, a new interpreter);
  the load generator is a process of its own (``multiprocessing``, spawned), so neither
  measures the other's work as its own, though on a 2-core machine they share the cores.
* One Tau Ceti game (full, four person seats), every seat connected by WebSocket, the rest of
  the clients spectators. Each action is chosen at random from the deciding seat's own view
  (pushed to it by the WebSocket) and sent by HTTP; the next is sent once every client has
  the last one. **Round trip**: the ``POST /actions`` from send to its 200. **Broadcast**: from
  that send to the ``action`` message's arrival at each other client: the other seats (the
  issue's goal: round trip and this, p99 <= 50 ms at 1,000 clients), the spectators, and all.
  Baselines from the same run and server: ``GET /api/health`` (the HTTP floor) and a WebSocket
  ping → pong (the WebSocket floor, each time another client's socket).
* The clients ask for view patches (``--full-views``: they do not); a seat's client applies
  them (it chooses its actions from its view), a spectator's only counts them. Also reported:
  the server's and the load generator's CPU time per action (less sensitive than latency to
  other work on the machine), the mean size of an ``action`` message, the load average.
* **Start-up**: ``ecliptic serve`` from launch to its first answer, on a database holding
  ``--stored-games`` games (each with a played-out log, inserted through the server's storage
  tables in one transaction), against an empty database; then the first view of a stored
  game (its lazy replay).
* **Bytes per action**: the database's growth when those logs were inserted, divided by the
  number of actions (SQLite: file size after a checkpoint; PostgreSQL: the ``actions``
  table's size with its index).

PostgreSQL runs on a throw-away cluster made by ``tests/postgres_cluster.py`` (imported);
when that cannot run, its figures are reported as unavailable.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import resource
import secrets
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from tests.server_process import Server, start_cold

GAME = {"game": "tauceti", "config": {"game": "full", "layout": "preset"}, "seed": 16,
        "seats": [{"name": f"P{i}"} for i in range(4)]}
STORED_GAME = ("ceres", {"players": 2})
"""The stored games of the start-up benchmark: short Ceres games, played out at random."""
GOAL_P99_MS = 50.0
WAIT = 60.0
INDEX = re.compile(r'^\{"type":\s*"(\w+)",\s*"index":\s*(\d+)')


@dataclass(frozen=True)
class Sizes:
    clients: tuple[int, ...]
    actions: int
    stored_games: int
    backends: tuple[str, ...]
    deflate: bool = True
    """Clients offer permessage-deflate, as browsers do (``--no-deflate``: they do not)."""
    kills: int = 0
    """``--kills N``: also run the crash-safety loop N times on each backend."""
    patches: bool = True
    """Clients ask for view patches (docs/server.md); ``--full-views``: the whole view each time."""


FULL = Sizes(clients=(100, 1000), actions=200, stored_games=10_000, backends=("sqlite", "postgresql"))
QUICK = Sizes(clients=(10,), actions=10, stored_games=200, backends=("sqlite",))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def ms(seconds: list[float]) -> dict[str, float]:
    return {"p50_ms": percentile(seconds, 50) * 1000, "p99_ms": percentile(seconds, 99) * 1000,
            "n": float(len(seconds))}


# -- the load generator (its own process) --------------------------------------------------


class Client:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.arrived: dict[int, float] = {}
        self.view: dict[str, Any] | None = None
        self.rev: str | None = None
        self.pongs: list[float] = []
        self.action_bytes = 0

    def take(self, message: dict[str, Any]) -> None:
        """A seat's client keeps its view (it chooses its actions from it), patched or whole."""
        from ecliptic.server.patch import apply

        if "patch" in message:
            assert message["base"] == self.rev, "a patch for another view than the one this client has"
            self.view = apply(self.view, message["patch"], in_place=True)
        else:
            self.view = message["view"]
        self.rev = message.get("rev")


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of process ``pid`` so far (Linux's /proc), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _load(base: str, game_id: str, tokens: list[str], clients: int, actions: int, seed: int,
                deflate: bool, patches: bool, server_pid: int) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    url = base.replace("http://", "ws://") + f"/api/games/{game_id}/ws"
    everyone = [Client(seat) for seat in range(len(tokens))] + [Client(None) for _ in range(clients - len(tokens))]
    sockets: list[Any] = []
    progress = asyncio.Event()
    gate = asyncio.Semaphore(50)

    async def open_one(c: Client) -> None:
        async with gate:
            ws = await connect(url, max_size=2**24, open_timeout=WAIT, ping_interval=None, close_timeout=1,
                               compression="deflate" if deflate else None)
            first: dict[str, Any] = {"token": tokens[c.seat]} if c.seat is not None else {"spectator": True}
            await ws.send(json.dumps({**first, "patches": True} if patches else first))
            hello = json.loads(await ws.recv())
            assert hello["type"] == "hello", hello
            c.take(hello)
            sockets.append((c, ws))

    failures: list[str] = []

    async def read(c: Client, ws: Any) -> None:
        with suppress(Exception):
            async for text in ws:
                now = time.perf_counter()
                found = INDEX.match(text)
                if found and found.group(1) == "action":
                    c.arrived[int(found.group(2))] = now
                    c.action_bytes += len(text)
                    if c.seat is not None:
                        try:
                            c.take(json.loads(text))
                        except (AssertionError, ValueError) as exc:  # reported, not a silent time-out
                            failures.append(f"seat {c.seat}: {exc}")
                    progress.set()
                elif text.startswith('{"type":"pong"') or '"pong"' in text[:20]:
                    c.pongs.append(now)
                    progress.set()

    connecting = time.perf_counter()
    await asyncio.gather(*(open_one(c) for c in everyone))
    connect_s = time.perf_counter() - connecting
    readers = [asyncio.create_task(read(c, ws)) for c, ws in sockets]

    async def until(done: Any) -> None:
        deadline = time.perf_counter() + WAIT
        while not done():
            if failures:
                raise RuntimeError(failures[0])
            progress.clear()
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError("a message did not come within the wait")
            with suppress(TimeoutError):
                await asyncio.wait_for(progress.wait(), remaining)

    round_trips: list[float] = []
    broadcasts: list[float] = []
    to_seats: list[float] = []
    to_spectators: list[float] = []
    health: list[float] = []
    pings: list[float] = []
    seats = {c.seat: c for c in everyone if c.seat is not None}
    server_cpu = cpu_seconds(server_pid)
    own_cpu = time.process_time()
    async with httpx.AsyncClient(base_url=base, timeout=WAIT) as http:
        index = 0
        played = 0
        while played < actions:
            view = seats[0].view
            assert view is not None
            index, current = view["index"], view["current_seat"]
            if view["status"] == "over" or current is None:
                break
            legal = seats[current].view["legal_actions"]  # type: ignore[index]
            choice = rng.choice(legal)["notation"]
            sent = time.perf_counter()
            answer = await http.post(f"/api/games/{game_id}/actions",
                                     headers={"Authorization": f"Bearer {tokens[current]}"},
                                     json={"action": choice, "expected_index": index})
            round_trips.append(time.perf_counter() - sent)
            assert answer.status_code == 200, answer.text
            new = index + 1
            await until(lambda n=new: all(n in c.arrived for c in everyone))
            broadcasts.extend(c.arrived[new] - sent for c in everyone if c.seat != current)
            to_seats.extend(c.arrived[new] - sent for c in everyone if c.seat is not None and c.seat != current)
            to_spectators.extend(c.arrived[new] - sent for c in everyone if c.seat is None)
            played += 1
            # the floors, measured between actions on the same server and connections
            started = time.perf_counter()
            await http.get("/api/health")
            health.append(time.perf_counter() - started)
            # (each time another client's socket: one socket pinged after every action would pass
            # the server's per-connection message rate limit when actions come fast)
            c, ws = sockets[played % len(sockets)]
            count = len(c.pongs)
            started = time.perf_counter()
            await ws.send('{"type": "ping"}')
            await until(lambda c=c, count=count: len(c.pongs) > count)
            pings.append(c.pongs[-1] - started)
    server_after = cpu_seconds(server_pid)
    own_cpu = time.process_time() - own_cpu
    for r in readers:
        r.cancel()
    await asyncio.gather(*(ws.close() for _, ws in sockets), return_exceptions=True)
    per_action = max(1, played)
    return {"clients": len(everyone), "actions": played, "connect_s": connect_s, "round_trip": ms(round_trips),
            "broadcast": ms(broadcasts), "broadcast_seats": ms(to_seats), "broadcast_spectators": ms(to_spectators),
            "health": ms(health), "ws_ping": ms(pings),
            "server_cpu_ms_per_action": None if server_cpu is None or server_after is None
            else (server_after - server_cpu) * 1000 / per_action,
            "load_cpu_ms_per_action": own_cpu * 1000 / per_action,
            "message_bytes": sum(c.action_bytes for c in everyone) / max(1, sum(len(c.arrived) for c in everyone))}


def _load_process(args: tuple[Any, ...], out: Any) -> None:
    _raise_file_limit()
    try:
        out.send(asyncio.run(_load(*args)))
    except BaseException as exc:  # reported by the parent
        out.send({"error": f"{type(exc).__name__}: {exc}"})


def _raise_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def load(base: str, game_id: str, tokens: list[str], clients: int, actions: int, seed: int = 1,
         deflate: bool = True, patches: bool = True, server_pid: int = 0) -> dict[str, Any]:
    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_load_process,
                       args=((base, game_id, tokens, clients, actions, seed, deflate, patches, server_pid), child))
    proc.start()
    child.close()
    result: dict[str, Any] = parent.recv()
    proc.join(timeout=30)
    if "error" in result:
        raise RuntimeError(f"the load generator failed: {result['error']}")
    return result


# -- databases -----------------------------------------------------------------------------


@contextmanager
def backend(name: str, folder: Path) -> Iterator[Any]:
    """Yields a function making a new empty database's URL on ``name``'s backend, or a string
    saying why it is unavailable."""
    if name == "sqlite":
        counter = iter(range(10**6))
        yield lambda: f"sqlite:///{folder / f'bench-{next(counter)}.db'}"
        return
    try:
        from tests.postgres_cluster import PostgresUnavailable, ThrowawayCluster, find_server_programs
    except ImportError as exc:
        yield f"unavailable ({exc})"
        return
    try:
        cluster = ThrowawayCluster(find_server_programs())
        server = cluster.start()
    except PostgresUnavailable as exc:
        yield f"unavailable ({str(exc).splitlines()[0]})"
        return
    try:
        import sqlalchemy as sa

        admin = sa.create_engine(server.url, isolation_level="AUTOCOMMIT")

        def new_database() -> str:
            name = f"bench_{secrets.token_hex(4)}"
            with admin.connect() as conn:
                conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
            return server.url_of(name)

        yield new_database
        admin.dispose()
    finally:
        cluster.stop()


def played_log(seed: int) -> list[str]:
    from ecliptic.games import get_game

    name, config = STORED_GAME
    game = get_game(name)
    state = game.new_game(config, seed)
    rng = random.Random(seed)
    log = []
    while not state.is_over:
        action = rng.choice(game.legal_actions(state))
        game.apply(state, action)
        log.append(str(action))
    return log


def store_games(url: str, count: int) -> dict[str, Any]:
    """``count`` games straight into the server's tables (one transaction each for the games and
    for their logs), and the database's growth per stored action."""
    import sqlalchemy as sa

    from ecliptic.server import auth
    from ecliptic.server.storage import Storage, actions, games, seats

    storage = Storage(url)
    storage.migrate()
    logs = [played_log(seed) for seed in range(20)]
    now = time.time()
    ids = [f"bench{i:011d}" for i in range(count)]
    with storage.engine.begin() as conn:
        conn.execute(games.insert(), [
            {"id": gid, "game": STORED_GAME[0], "config": json.dumps(STORED_GAME[1]), "seed": i % 20, "players": 2,
             "clock_seconds": None, "status": "over", "created_at": now + i, "finished_at": now + i,
             "admin_hash": auth.token_hash(gid)} for i, gid in enumerate(ids)])
        conn.execute(seats.insert(), [
            {"game_id": gid, "seat": s, "kind": "person", "name": f"P{s}", "token_hash": auth.token_hash(f"{gid}/{s}"),
             "bot_level": None, "controller": "person"} for gid in ids for s in (0, 1)])
    before = _size(storage)
    stored = 0
    with storage.engine.begin() as conn:
        rows = []
        for i, gid in enumerate(ids):
            for index, notation in enumerate(logs[i % 20]):
                rows.append({"game_id": gid, "action_index": index, "seat": 0, "notation": notation, "actor": "person",
                             "undoable": False, "created_at": now})
            if len(rows) > 20_000:
                conn.execute(actions.insert(), rows)
                stored += len(rows)
                rows = []
        if rows:
            conn.execute(actions.insert(), rows)
            stored += len(rows)
    after = _size(storage)
    if not storage.is_sqlite:
        with storage.engine.connect() as conn:
            after = int(conn.execute(sa.text("SELECT pg_total_relation_size('actions')")).scalar_one())
            before = 0
    storage.close()
    return {"games": count, "actions": stored, "bytes_per_action": (after - before) / max(1, stored),
            "first_id": ids[0]}


def _size(storage: Any) -> int:
    import sqlalchemy as sa

    if not storage.is_sqlite:
        return 0
    with storage.engine.connect() as conn:
        conn.execute(sa.text("PRAGMA wal_checkpoint(TRUNCATE)"))
    path = Path(sa.make_url(storage.url).database or "")
    return sum(p.stat().st_size for p in (path, path.with_name(path.name + "-wal")) if p.exists())


# -- the run -------------------------------------------------------------------------------


def create_game(server: Server) -> tuple[str, list[str]]:
    with httpx.Client(base_url=server.base_url, timeout=WAIT) as api:
        answer = api.post("/api/games", json=GAME)
        answer.raise_for_status()
        created = answer.json()
        tokens = []
        for s in created["seats"]:  # (each join link taken, as its person's browser takes it)
            taken = api.post(f"/api/games/{created['id']}/seats/{s['seat']}/take",
                             headers={"Authorization": f"Bearer {s['token']}"})
            taken.raise_for_status()
            tokens.append(taken.json()["token"])
    return created["id"], tokens


def startup(new_database: Any, folder: Path, stored: int) -> dict[str, Any]:
    empty_url = new_database()
    server = start_cold(empty_url, folder)
    empty = server.started_in
    server.stop()
    full_url = new_database()
    made = time.perf_counter()
    facts = store_games(full_url, stored)
    fill_s = time.perf_counter() - made
    server = start_cold(full_url, folder)
    full = server.started_in
    try:
        with httpx.Client(base_url=server.base_url, timeout=WAIT) as api:
            started = time.perf_counter()
            api.get(f"/api/games/{facts['first_id']}").raise_for_status()
            first_view = time.perf_counter() - started
    finally:
        server.stop()
    return {"stored_games": stored, "stored_actions": facts["actions"], "fill_s": fill_s, "empty_start_s": empty,
            "stored_start_s": full, "start_ratio": full / empty, "first_view_ms": first_view * 1000,
            "bytes_per_action": facts["bytes_per_action"]}


def kill_loop(new_database: Any, folder: Path, kills: int) -> str:
    """The crash-safety test's loop (tests/test_server_crash.py), ``kills`` times: its checks fail loudly."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the test's own imports
    import test_server_crash as crash
    from server_process import Launcher

    launcher = Launcher(folder)
    try:
        url = new_database()
        return crash.summary("sqlite" if url.startswith("sqlite") else "postgresql",
                             crash.kill_loop(url, folder, launcher, kills))
    finally:
        launcher.close()


def run(sizes: Sizes, say: Any = print) -> dict[str, Any]:
    _raise_file_limit()
    report: dict[str, Any] = {"latency": [], "startup": {}, "unavailable": {}}
    with tempfile.TemporaryDirectory(prefix="ecliptic-bench-") as tmp:
        folder = Path(tmp)
        for name in sizes.backends:
            with backend(name, folder) as new_database:
                if isinstance(new_database, str):
                    report["unavailable"][name] = new_database
                    say(f"{name}: {new_database}")
                    continue
                if sizes.kills:
                    report.setdefault("kills", {})[name] = kill_loop(new_database, folder, sizes.kills)
                    say(report["kills"][name])
                for clients in sizes.clients:
                    server = start_cold(new_database(), folder)
                    try:
                        game_id, tokens = create_game(server)
                        before = os.getloadavg()[0]
                        figures = load(server.base_url, game_id, tokens, max(clients, len(tokens)), sizes.actions,
                                       deflate=sizes.deflate, patches=sizes.patches, server_pid=server.pid)
                        figures.update(deflate=sizes.deflate, patches=sizes.patches,
                                       load_average=(before, os.getloadavg()[0]))
                    finally:
                        server.stop()
                    figures["backend"] = name
                    report["latency"].append(figures)
                    say(latency_line(figures))
                if sizes.stored_games:
                    report["startup"][name] = startup(new_database, folder, sizes.stored_games)
                    say(startup_line(name, report["startup"][name]))
    return report


def latency_line(f: dict[str, Any]) -> str:
    rt, bc, h, p = f["round_trip"], f["broadcast"], f["health"], f["ws_ping"]
    seats, spectators = f.get("broadcast_seats", bc), f.get("broadcast_spectators", bc)
    goal = "meets" if seats["p99_ms"] <= GOAL_P99_MS and rt["p99_ms"] <= GOAL_P99_MS else "misses"
    kind = "" if f.get("deflate", True) else " (no deflate)"
    kind += "" if f.get("patches", True) else " (full views)"
    server_cpu = f.get("server_cpu_ms_per_action")
    cpu = "" if server_cpu is None else f"server CPU {server_cpu:.1f} ms/action, "
    load_average = f.get("load_average")
    machine = "" if load_average is None else f"; load average {load_average[0]:.1f} -> {load_average[1]:.1f}"
    return (f"{f['backend']:<10} {f['clients']:>5} clients{kind}, {f['actions']} actions: "
            f"round trip p50 {rt['p50_ms']:.1f} ms p99 {rt['p99_ms']:.1f} ms; "
            f"broadcast to the other seats p50 {seats['p50_ms']:.1f} ms p99 {seats['p99_ms']:.1f} ms "
            f"({goal} the p99 <= {GOAL_P99_MS:.0f} ms goal), "
            f"to the spectators p50 {spectators['p50_ms']:.1f} ms p99 {spectators['p99_ms']:.1f} ms, "
            f"to all p50 {bc['p50_ms']:.1f} ms p99 {bc['p99_ms']:.1f} ms; "
            f"baselines: health p50 {h['p50_ms']:.1f} ms, ws ping p50 {p['p50_ms']:.1f} ms; "
            f"round trip / health {rt['p50_ms'] / h['p50_ms']:.1f}x; connect {f['connect_s']:.1f} s; "
            f"{cpu}load generator CPU {f.get('load_cpu_ms_per_action', 0):.1f} ms/action, "
            f"{f.get('message_bytes', 0):.0f} bytes per action message{machine}")


def startup_line(name: str, s: dict[str, Any]) -> str:
    return (f"{name:<10} start-up with {s['stored_games']} stored games ({s['stored_actions']} actions): "
            f"{s['stored_start_s']:.2f} s vs {s['empty_start_s']:.2f} s empty (ratio {s['start_ratio']:.2f}); "
            f"first view of a stored game {s['first_view_ms']:.1f} ms; "
            f"{s['bytes_per_action']:.0f} bytes per stored action")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.server", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds: 10 clients, 10 actions, SQLite only")
    parser.add_argument("--clients",
                        help="comma-separated numbers of WebSocket clients (default 100,1000; none: no latency run)")
    parser.add_argument("--actions", type=int, help="actions per run (default 200)")
    parser.add_argument("--stored-games", type=int,
                        help="games stored for the start-up figure (default 10000; 0: no start-up run)")
    parser.add_argument("--backends", help="sqlite,postgresql (default both; --quick: sqlite)")
    parser.add_argument("--no-deflate", action="store_true", help="clients do not offer permessage-deflate")
    parser.add_argument("--full-views", action="store_true",
                        help="clients do not ask for view patches: the whole view with every action")
    parser.add_argument("--kills", type=int, default=0, help="also kill -9 and restart the server N times")
    parser.add_argument("--json", action="store_true", help="print the report as JSON at the end")
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    sizes = Sizes(
        clients=(() if args.clients == "none" else tuple(int(c) for c in args.clients.split(","))) if args.clients
        else sizes.clients,
        actions=args.actions or sizes.actions,
        stored_games=sizes.stored_games if args.stored_games is None else args.stored_games,
        backends=tuple(args.backends.split(",")) if args.backends else sizes.backends,
        deflate=not args.no_deflate, kills=args.kills, patches=not args.full_views)
    report = run(sizes)
    if args.json:
        print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
