"""A real ``ecliptic serve`` process for the tests and the benchmark that need one (kill -9, a
uvicorn listening on a port), started fast.

Importing the server (FastAPI, SQLAlchemy, the engine) takes about 1.5 s on the 2-core test
machine, so 20 restarts would cost half a minute in imports alone. :class:`Launcher` pays it once:
a launcher process imports everything, then forks one child per start, which runs
``ecliptic.cli.main()`` with ``serve ...`` as its arguments: the same code path as the
``ecliptic serve`` command, a process of its own that ``kill -9`` ends for real.
:func:`start_cold` starts the command the ordinary way (a new interpreter), to measure what a
user waits for.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

START_TIMEOUT = 60.0

LAUNCHER = r"""
import json, os, signal, sys
import ecliptic.cli, ecliptic.server.app, ecliptic.server.serve, uvicorn  # the slow imports, once
signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the servers the tests kill
for line in sys.stdin:
    argv, log = json.loads(line)
    pid = os.fork()
    if pid == 0:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.setsid()
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        sys.argv = ["ecliptic", *argv]
        try:
            ecliptic.cli.main()
        finally:
            os._exit(0)
    print(pid, flush=True)
"""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@dataclass
class Server:
    pid: int
    port: int
    log: Path
    started_in: float
    """Seconds from the start to the first answer of ``/api/health``."""

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """``kill -9``, and wait until the process is gone (its port and files released)."""
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + 10
        while alive(self.pid) and time.monotonic() < deadline:
            time.sleep(0.005)
            _reap(self.pid)

    def stop(self) -> None:
        """SIGTERM: uvicorn's graceful shutdown."""
        try:
            os.kill(self.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + 20
        while alive(self.pid) and time.monotonic() < deadline:
            time.sleep(0.02)
            _reap(self.pid)
        if alive(self.pid):
            self.kill()


def _reap(pid: int) -> None:
    """A child of this process (a cold start) stays a zombie until waited for."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def serve_args(database_url: str, port: int) -> list[str]:
    return ["serve", "--host", "127.0.0.1", "--port", str(port), "--database", database_url]


def environment(data_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["ECLIPTIC_DATA_DIR"] = str(data_dir)
    src = str(Path(__file__).resolve().parents[1] / "src")
    env["PYTHONPATH"] = os.pathsep.join([src, *filter(None, [env.get("PYTHONPATH")])])
    return env


def wait_until_up(pid: int, port: int, log: Path, started: float) -> float:
    """Seconds from ``started`` until the server answers its health check."""
    deadline = started + START_TIMEOUT
    with httpx.Client(timeout=1.0) as client:
        while time.monotonic() < deadline:
            try:
                if client.get(f"http://127.0.0.1:{port}/api/health").status_code == 200:
                    return time.monotonic() - started
            except httpx.TransportError:
                pass
            _reap(pid)
            if not alive(pid):
                raise RuntimeError(f"the server died at start:\n{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.01)
    tail = log.read_text(errors="replace")[-3000:]
    raise RuntimeError(f"the server did not answer within {START_TIMEOUT} s:\n{tail}")


def start_cold(database_url: str, data_dir: Path) -> Server:
    """``ecliptic serve`` in a new interpreter, as a user starts it."""
    port = free_port()
    log = data_dir / f"server-{port}.log"
    started = time.monotonic()
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", "from ecliptic.cli import main; main()", *serve_args(database_url, port)],
            stdin=subprocess.DEVNULL, stdout=out, stderr=out, env=environment(data_dir), start_new_session=True)
    return Server(proc.pid, port, log, wait_until_up(proc.pid, port, log, started))


class Launcher:
    """Starts ``ecliptic serve`` processes forked from one that has imported the server already."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.proc = subprocess.Popen([sys.executable, "-c", LAUNCHER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=environment(data_dir), text=True, start_new_session=True)

    def start(self, database_url: str) -> Server:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        port = free_port()
        log = self.data_dir / f"server-{port}.log"
        started = time.monotonic()
        self.proc.stdin.write(json.dumps([serve_args(database_url, port), str(log)]) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the launcher process died")
        pid = int(line)
        return Server(pid, port, log, wait_until_up(pid, port, log, started))

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
