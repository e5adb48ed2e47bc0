"""The test databases work as the server's storage needs them to, on both backends (``database_url``):
a second action at a game's index is refused by the unique index, which is what orders each game's
actions when several server processes share one database; SQLite runs in WAL mode. And a machine
without PostgreSQL fails the PostgreSQL tests, saying what to do, unless told to skip them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import sqlalchemy as sa

import postgres_cluster
from postgres_cluster import ENV, PostgresServer


def _actions_table() -> tuple[sa.MetaData, sa.Table]:
    metadata = sa.MetaData()
    actions = sa.Table(
        "actions", metadata,
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("idx", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.UniqueConstraint("game_id", "idx", name="actions_game_index"),
    )
    return metadata, actions


def _engine(url: str) -> sa.Engine:
    engine = sa.create_engine(url)
    if engine.dialect.name == "sqlite":

        @sa.event.listens_for(engine, "connect")
        def _wal(dbapi_connection: object, _record: object) -> None:
            dbapi_connection.execute("PRAGMA journal_mode=WAL")  # type: ignore[attr-defined]

    return engine


def test_a_second_action_at_the_same_index_is_refused(database_url: str) -> None:
    metadata, actions = _actions_table()
    engine = _engine(database_url)
    try:
        metadata.create_all(engine)
        with engine.begin() as conn:
            conn.execute(actions.insert(), [{"game_id": "g1", "idx": 0, "action": "PASS"}])
            conn.execute(actions.insert(), [{"game_id": "g2", "idx": 0, "action": "PASS"}])  # another game: fine
        with pytest.raises(sa.exc.IntegrityError), engine.begin() as conn:
            conn.execute(actions.insert(), [{"game_id": "g1", "idx": 0, "action": "MOVE 1"}])
        with engine.connect() as conn:
            rows = conn.execute(sa.select(actions.c.game_id, actions.c.action).order_by(actions.c.game_id)).all()
        assert [tuple(row) for row in rows] == [("g1", "PASS"), ("g2", "PASS")]  # the refused one left nothing
    finally:
        engine.dispose()


def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    engine = _engine(f"sqlite:///{tmp_path}/wal.sqlite3")
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    finally:
        engine.dispose()


@pytest.mark.postgresql
def test_each_test_gets_an_empty_database_of_its_own(
    postgresql_server: PostgresServer, fresh_postgresql_url: str, postgresql_url: str
) -> None:
    assert fresh_postgresql_url != postgresql_url
    metadata, _ = _actions_table()
    engine = sa.create_engine(fresh_postgresql_url)
    try:
        with engine.connect() as conn:
            if not os.environ.get(ENV):  # the session's own cluster, not a server named by ECLIPTIC_TEST_POSTGRES
                assert conn.exec_driver_sql("SELECT current_setting('listen_addresses')").scalar() == "127.0.0.1"
            assert sa.inspect(conn).get_table_names() == []
        metadata.create_all(engine)
    finally:
        engine.dispose()
    other = postgresql_server.create_database()
    engine = sa.create_engine(other)
    try:
        with engine.connect() as conn:
            assert sa.inspect(conn).get_table_names() == []  # the table above is not in another test's database
    finally:
        engine.dispose()
        postgresql_server.drop_database(other)


def _session_without_postgresql(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test session of its own, on a machine where initdb and pg_ctl are nowhere to be found."""
    monkeypatch.setattr(postgres_cluster, "DEBIAN_PROGRAMS", pytester.path / "no-postgresql")
    monkeypatch.setenv("PATH", str(pytester.path / "empty-bin"))
    pytester.makeconftest('pytest_plugins = ["postgres_cluster"]')
    pytester.makepyfile("def test_storage(postgresql_url):\n    assert postgresql_url\n")


def test_without_postgresql_the_tests_that_need_it_fail_and_say_what_to_do(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _session_without_postgresql(pytester, monkeypatch)
    monkeypatch.delenv(ENV, raising=False)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)  # not skipped: `make test` must not pass without PostgreSQL
    result.stdout.fnmatch_lines(["*initdb and pg_ctl were not found*", f"*{ENV}=skip*"])


def test_without_postgresql_the_tests_that_need_it_are_skipped_when_asked(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _session_without_postgresql(pytester, monkeypatch)
    monkeypatch.setenv(ENV, "skip")
    pytester.runpytest_inprocess("-p", "no:cacheprovider").assert_outcomes(skipped=1)
    monkeypatch.setenv(ENV, "yes")
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([f"*{ENV}='yes': expected nothing, 'skip', or a postgresql:// URL*"])
