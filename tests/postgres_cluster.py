"""A throw-away PostgreSQL cluster for the test session (a pytest plugin, registered by conftest.py).

The storage tests run on PostgreSQL as well as SQLite, against a real server and not a mock: the
unique index that orders each game's actions and LISTEN/NOTIFY between server processes are what
PostgreSQL is there for. The session makes its own cluster with ``initdb`` / ``pg_ctl`` in a temporary
folder, on a free port of 127.0.0.1 only, with a random password, and removes it at the end, so a test
run never touches (or needs) a PostgreSQL server of the machine's.

Fixtures:

- ``postgresql_server`` (session): the running server; ``create_database()`` makes an empty database.
- ``postgresql_url`` (session): a ``postgresql+psycopg://`` URL of a database made for the session.
- ``fresh_postgresql_url`` (function): a new empty database for one test, dropped after it, so storage
  tests never see each other's rows.

``make test`` installs PostgreSQL when it is missing (scripts/ensure-postgres.sh), so a missing
PostgreSQL *fails* these fixtures with a message saying what to do, never a silent skip. The variable
``ECLIPTIC_TEST_POSTGRES`` changes that: ``skip`` skips the tests that need PostgreSQL (for running
pytest on a machine without it); a ``postgresql://`` URL of an existing server (a superuser's, or a
role allowed to create databases) makes the tests use that server instead of a cluster of their own.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

import pytest

ENV = "ECLIPTIC_TEST_POSTGRES"
SUPERUSER = "ecliptic"
SYSTEM_USER = "postgres"
"""The unprivileged account Debian's package creates: initdb and postgres refuse to run as root."""

START_ATTEMPTS = 5
"""Another process may take the free port between our look-up and the server's bind: try another."""

DEBIAN_PROGRAMS = Path("/usr/lib/postgresql")
"""Debian installs each major version's server programs in ``<version>/bin`` here, not on the PATH."""

SOCKET_PATH_MAX = 90
"""A Unix socket path has at most 107 bytes; the server adds ``/.s.PGSQL.<port>`` to its folder."""

SERVER_SETTINGS = {
    "listen_addresses": "'127.0.0.1'",
    # The cluster lives for one test session: durability across a crash of the machine is not needed.
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "200",
}


class PostgresUnavailable(Exception):
    """PostgreSQL cannot be found or started; the message says why and what to do."""


def _help(reason: str) -> str:
    return (
        f"{reason}\nThe storage tests need PostgreSQL. `make test` installs it (scripts/ensure-postgres.sh); "
        "or install it yourself (Debian/Ubuntu: apt-get install postgresql); or set "
        f"{ENV}=skip to skip the PostgreSQL tests, or {ENV}=postgresql://user:password@host/db "
        "to use a server of your own."
    )


def find_server_programs() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``: Debian's (newest version first), else the PATH's."""
    candidates = sorted(
        DEBIAN_PROGRAMS.glob("*/bin"),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else -1,
        reverse=True,
    )
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).parent)
    for folder in candidates:
        if all(os.access(folder / name, os.X_OK) for name in ("initdb", "pg_ctl")):
            return folder
    raise PostgresUnavailable(
        _help("PostgreSQL's initdb and pg_ctl were not found (looked in /usr/lib/postgresql/*/bin and on the PATH).")
    )


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class PostgresServer:
    """A server the tests may create databases on; ``url`` names its maintenance database."""

    url: str
    """``postgresql+psycopg://user:password@host:port/dbname``"""

    def url_of(self, dbname: str) -> str:
        parts = urlsplit(self.url)
        return urlunsplit((parts.scheme, parts.netloc, "/" + quote(dbname), parts.query, ""))

    def _execute(self, statement: str, dbname: str) -> None:
        """Runs ``statement`` (with ``{}`` for the database's name) outside a transaction, where CREATE
        and DROP DATABASE must run."""
        # Imported here: this plugin loads in every test session, also one without the server extra.
        import psycopg
        from psycopg import sql

        from ecliptic.server.pg_notify import libpq_conninfo

        with psycopg.connect(libpq_conninfo(self.url), autocommit=True) as conn:
            conn.execute(sql.SQL(statement).format(sql.Identifier(dbname)))

    def create_database(self) -> str:
        """A new empty database with a name no other test uses; answers its URL."""
        name = f"ecliptic_test_{secrets.token_hex(6)}"
        self._execute("CREATE DATABASE {}", name)
        return self.url_of(name)

    def drop_database(self, url: str) -> None:
        # FORCE: a test that left a connection open (an engine not disposed) must not block the drop.
        self._execute("DROP DATABASE IF EXISTS {} WITH (FORCE)", urlsplit(url).path.lstrip("/"))


@dataclass
class Timings:
    start_seconds: float = 0.0
    stop_seconds: float = 0.0


class ThrowawayCluster:
    """``initdb`` + ``pg_ctl start`` in a temporary folder; ``stop()`` stops it and removes the folder.

    As root (CI), the programs run as the ``postgres`` system user through ``runuser``, and the folder is
    made that user's. A guardian process removes the cluster if this process dies without its
    teardown (killed, or the interpreter aborted): it waits for the end of a pipe only this process holds.
    """

    def __init__(self, programs: Path) -> None:
        self.programs = programs
        self.as_root = os.geteuid() == 0
        if self.as_root:
            try:
                import pwd

                entry = pwd.getpwnam(SYSTEM_USER)
            except KeyError:
                reason = f"Running as root, the cluster needs the unprivileged user {SYSTEM_USER!r}: not found."
                raise PostgresUnavailable(_help(reason)) from None
            if shutil.which("runuser") is None:
                raise PostgresUnavailable(_help("Running as root, the cluster needs runuser (util-linux), not found."))
            self._uid, self._gid = entry.pw_uid, entry.pw_gid
        self.base = Path(tempfile.mkdtemp(prefix="ecliptic-pg-", dir=self._temp_dir()))
        self.data = self.base / "data"
        self.sockets = self.base / "sockets"
        self.log = self.base / "server.log"
        self.password = secrets.token_urlsafe(24)
        self.port = 0
        self._guardian: subprocess.Popen[bytes] | None = None

    def _temp_dir(self) -> str:
        """The temporary folder, unless the server's socket path would be too long in it, or (as root) the
        ``postgres`` user could not reach it (pytest's own temporary folders are private to root)."""
        temp = Path(tempfile.gettempdir()).resolve()
        if len(str(temp)) + len("/ecliptic-pg-XXXXXXXX/sockets") >= SOCKET_PATH_MAX:
            return "/tmp"
        if self.as_root and not all(os.stat(folder).st_mode & 0o001 for folder in (temp, *temp.parents)):
            return "/tmp"
        return str(temp)

    def _command(self, program: str, *args: str) -> list[str]:
        command = [str(self.programs / program), *args]
        return ["runuser", "-u", SYSTEM_USER, "--", *command] if self.as_root else command

    def _run(self, command: Sequence[str]) -> None:
        done = subprocess.run(
            command, cwd=self.base, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False,
            start_new_session=True,  # Ctrl-C reaches pytest, whose teardown stops the server; not the server
        )
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise PostgresUnavailable(
                f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}\n{log}".rstrip()
            )

    def start(self) -> PostgresServer:
        self.sockets.mkdir()
        password_file = self.base / "password"
        password_file.write_text(self.password + "\n")
        if self.as_root:
            for path in (self.base, self.sockets, password_file):
                os.chown(path, self._uid, self._gid)
        self._start_guardian()
        self._run(self._command(
            "initdb", "--pgdata", str(self.data), "--username", SUPERUSER, "--pwfile", str(password_file),
            "--auth-local", "trust", "--auth-host", "scram-sha-256", "--encoding", "UTF8", "--no-locale",
            "--no-sync",
        ))
        password_file.unlink()
        settings = {**SERVER_SETTINGS, "unix_socket_directories": f"'{self.sockets}'"}
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write("\n# tests/postgres_cluster.py\n")
            conf.writelines(f"{key} = {value}\n" for key, value in settings.items())
        for attempt in range(START_ATTEMPTS):
            self.port = free_port()
            try:
                self._run(self._command(
                    "pg_ctl", "--pgdata", str(self.data), "--log", str(self.log), "--wait", "--timeout", "60",
                    "--options", f"-p {self.port}", "start",
                ))
                break
            except PostgresUnavailable as error:
                if attempt + 1 == START_ATTEMPTS or "Address already in use" not in str(error):
                    raise
        url = f"postgresql+psycopg://{SUPERUSER}:{quote(self.password)}@127.0.0.1:{self.port}/postgres"
        return PostgresServer(url)

    def _start_guardian(self) -> None:
        stop = self._command("pg_ctl", "--pgdata", str(self.data), "--mode", "immediate", "--wait", "stop")
        self._guardian = subprocess.Popen(
            [sys.executable, "-c", GUARDIAN, json.dumps(stop), str(self.base)],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            cwd=self.base, start_new_session=True,
        )

    def stop(self) -> None:
        """Stops the server (fast: open connections are ended) and removes the folder; safe to call twice."""
        try:
            if (self.data / "postmaster.pid").exists():
                self._run(self._command("pg_ctl", "--pgdata", str(self.data), "--mode", "fast", "--wait", "stop"))
        finally:
            shutil.rmtree(self.base, ignore_errors=True)
            if self._guardian is not None:
                assert self._guardian.stdin is not None
                self._guardian.stdin.close()  # the guardian finds nothing left to do and exits
                self._guardian.wait(timeout=30)
                self._guardian = None


GUARDIAN = """
import json, shutil, subprocess, sys
stop, base = json.loads(sys.argv[1]), sys.argv[2]
sys.stdin.buffer.read()  # returns when the test session's end of the pipe closes, however it ended
subprocess.run(stop, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
shutil.rmtree(base, ignore_errors=True)
"""
"""Runs beside the test session and stops and removes the cluster if the session dies without its teardown."""


_timings = Timings()
_used = False


@pytest.fixture(scope="session")
def postgresql_server() -> Iterator[PostgresServer]:
    global _used
    setting = os.environ.get(ENV, "").strip()
    if setting == "skip":
        pytest.skip(f"{ENV}=skip: the PostgreSQL tests are skipped")
    if setting.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
        yield PostgresServer("postgresql+psycopg://" + setting.partition("://")[2])
        return
    if setting:
        pytest.fail(f"{ENV}={setting!r}: expected nothing, 'skip', or a postgresql:// URL", pytrace=False)
    started = time.perf_counter()
    try:
        cluster = ThrowawayCluster(find_server_programs())
    except PostgresUnavailable as error:
        pytest.fail(str(error), pytrace=False)
    try:
        server = cluster.start()
    except PostgresUnavailable as error:
        cluster.stop()
        pytest.fail(_help(f"The test cluster did not start:\n{error}"), pytrace=False)
    _timings.start_seconds = time.perf_counter() - started
    _used = True
    try:
        yield server
    finally:
        stopping = time.perf_counter()
        cluster.stop()
        _timings.stop_seconds = time.perf_counter() - stopping


@pytest.fixture(scope="session")
def postgresql_url(postgresql_server: PostgresServer) -> Iterator[str]:
    """A database for the whole session (tests sharing it must not depend on each other's rows)."""
    url = postgresql_server.create_database()
    yield url
    postgresql_server.drop_database(url)  # on a server named by ECLIPTIC_TEST_POSTGRES, nothing is left behind


@pytest.fixture
def fresh_postgresql_url(postgresql_server: PostgresServer) -> Iterator[str]:
    """An empty database for this test alone, dropped after it."""
    url = postgresql_server.create_database()
    yield url
    postgresql_server.drop_database(url)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _used:
        terminalreporter.write_line(
            f"PostgreSQL test cluster: started in {_timings.start_seconds:.2f} s, "
            f"stopped and removed in {_timings.stop_seconds:.2f} s"
        )
