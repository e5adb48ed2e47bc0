"""A server process killed with ``kill -9`` leaves no process behind: its bot workers (and the
multiprocessing resource tracker they keep open) end with it. A real ``ecliptic serve`` on a
port (tests/server_process.py); its children are read from ``/proc``."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from ecliptic.server.storage import sqlite_url
from server_process import start_cold

PROC = Path("/proc")
GONE_WITHIN = 30.0
"""Seconds the workers get to notice that the server is gone (they need a fraction of one)."""

pytestmark = pytest.mark.skipif(not (PROC / "self" / "stat").exists(), reason="reads processes from /proc")


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent pid, ``None`` once it is gone."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text.rsplit(")", 1)[1].split()  # (the command name in parentheses may hold spaces)
    return fields[0], int(fields[1])


def running(pid: int) -> bool:
    """Not gone and not a zombie (an exited orphan stays one until its new parent reaps it)."""
    found = _stat(pid)
    return found is not None and found[0] not in ("Z", "X")


def children(pid: int) -> dict[int, str]:
    """The running children of ``pid`` with their command lines."""
    out = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        found = _stat(int(entry.name))
        if found is None or found[1] != pid or not running(int(entry.name)):
            continue
        try:
            out[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (FileNotFoundError, ProcessLookupError):
            continue
    return out


def wait_for(condition: Callable[[], bool], timeout: float) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_kill_9_of_the_server_ends_its_bot_workers_and_their_resource_tracker(tmp_path: Path) -> None:
    server = start_cold(sqlite_url(tmp_path / "games.db"), tmp_path)
    started: dict[int, str] = {}
    try:
        with httpx.Client(base_url=server.base_url, timeout=20) as api:
            r = api.post("/api/games", json={"game": "ceres", "seed": 5, "seats": [
                {"kind": "bot", "level": "normal"}, {"kind": "bot", "level": "normal"}]})
            assert r.status_code == 201, r.text
        # The pool starts with the first bot's move: a worker and the resource tracker.
        assert wait_for(lambda: any("spawn_main" in c for c in children(server.pid).values())
                        and any("resource_tracker" in c for c in children(server.pid).values()), 60), \
            children(server.pid)
        started.update(children(server.pid))
        server.kill()
        assert not running(server.pid)
        assert wait_for(lambda: not any(running(pid) for pid in started), GONE_WITHIN), \
            {pid: cmd for pid, cmd in started.items() if running(pid)}
    finally:
        server.kill()
        for pid in started:  # (what a failure left behind)
            if running(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
