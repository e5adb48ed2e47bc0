"""The server's storage, on every backend the ``database_url`` fixture gives (SQLite here;
the PostgreSQL set-up adds its own): migrations, the action log's arbiter, undo, chat,
tokens kept as hashes only."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from ecliptic.server import auth
from ecliptic.server.storage import ActionRow, Conflict, GameRow, SeatRow, Storage, engine_url, metadata
from server_helpers import at_revision, server


@pytest.fixture
def storage(database_url: str) -> Iterator[Storage]:
    s = Storage(database_url)
    s.migrate()
    yield s
    s.close()


HEAD = "0007"
"""The newest migration's revision."""


def new_game(s: Storage, game_id: str = "g1", created_at: float = 1.0) -> str:
    token = auth.new_token()
    s.create_game(GameRow(game_id, "ceres", {"players": 2}, 2**62 + 5, 2, None, "playing", created_at, None,
                          auth.token_hash("admin")),
                  [SeatRow(0, "person", "Ann", auth.token_hash(token), None, "person"),
                   SeatRow(1, "bot", "Bot", None, "random", "bot")])
    return token


def old_game(s: Storage, game_id: str = "g1", created_at: float = 1.0) -> str:
    """:func:`new_game` as a server of a revision before 0006 stored it (seats had no join link)."""
    token = auth.new_token()
    with s.engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO games (id, game, config, seed, players, clock_seconds, status, created_at,"
                             " finished_at, admin_hash, wake_at) VALUES (:id, 'ceres', '{\"players\": 2}', :seed, 2,"
                             " NULL, 'playing', :at, NULL, :admin, NULL)"),
                     {"id": game_id, "seed": 2**62 + 5, "at": created_at, "admin": auth.token_hash("admin")})
        conn.execute(sa.text("INSERT INTO seats (game_id, seat, kind, name, token_hash, bot_level, controller) VALUES"
                             " (:id, 0, 'person', 'Ann', :t, NULL, 'person'), (:id, 1, 'bot', 'Bot', NULL, 'random',"
                             " 'bot')"), {"id": game_id, "t": auth.token_hash(token)})
    return token


def act(index: int, notation: str = "PASS") -> ActionRow:
    return ActionRow(index, index % 2, notation, "person", True)


def test_two_processes_migrating_a_new_database_at_once_take_turns(database_url: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Two servers started together on an empty database (two systemd units) both migrate it:
    the second must wait for the first's transaction and find the schema made (before, both
    created the tables and one died on a duplicate ``alembic_version``). The first migration is
    held inside Alembic's upgrade until the second has had time to reach it; the second must
    not get there before the first commits."""
    from ecliptic.server import storage as storage_module

    upgrade = storage_module.command.upgrade
    inside: list[str] = []
    first_in, release = threading.Event(), threading.Event()

    def held_upgrade(cfg: object, revision: str) -> None:
        name = threading.current_thread().name
        inside.append(name)
        if name == "first":
            first_in.set()
            release.wait(10)
        upgrade(cfg, revision)  # type: ignore[arg-type]

    monkeypatch.setattr(storage_module.command, "upgrade", held_upgrade)
    errors: list[BaseException] = []

    def start() -> None:
        s = Storage(database_url)
        try:
            s.migrate()
        except BaseException as exc:  # (the test reports it)
            errors.append(exc)
        finally:
            s.close()

    first = threading.Thread(target=start, name="first")
    first.start()
    assert first_in.wait(10)
    second = threading.Thread(target=start, name="second")
    second.start()
    second.join(0.5)  # the second's migration has had its chance to start
    entered_early = "second" in inside
    release.set()
    first.join(20)
    second.join(20)
    assert not entered_early, "the second migration ran while the first held its transaction"
    assert errors == []
    s = Storage(database_url)
    with s.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == HEAD
    s.close()


def test_a_start_is_told_which_revision_the_schema_came_from(database_url: str,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    """A host upgrading reads in the log that the schema moved on (a new database: from none);
    a start that changes nothing says nothing."""
    from ecliptic.server.serve import log_config

    def said() -> list[str]:
        return [r.getMessage() for r in caplog.records if "schema migrated" in r.getMessage()]

    with caplog.at_level(logging.INFO, logger="ecliptic.server"):
        with server(database_url):
            pass
        assert said() == [f"database schema migrated from an empty database to revision {HEAD}"]
        caplog.clear()
        with server(database_url):
            pass
        assert said() == []
    s = Storage(database_url)
    assert s.migrate() == (HEAD, HEAD)
    s.close()
    # ``ecliptic serve`` shows the server's INFO lines beside uvicorn's (Python alone shows warnings only).
    assert log_config()["loggers"]["ecliptic"] == {"handlers": ["default"], "level": "INFO", "propagate": False}


def test_migrations_are_idempotent_and_match_the_tables(storage: Storage) -> None:
    storage.migrate()  # a second start changes nothing
    with storage.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == HEAD


def test_migration_0004_adds_the_seats_email_to_a_database_of_0003(database_url: str) -> None:
    """A database a server of revision 0003 made, with a game in progress, upgrades at the next
    start: the game is as it was, nobody is emailed, and a seat can ask for email."""
    with at_revision(database_url, "0003") as (old, conn):
        assert "seat_mail" not in sa.inspect(conn).get_table_names()
    token = old_game(old)
    old.append_action("g1", act(0, "PASS"), game_over=False)
    assert old.migrate() == ("0003", HEAD)
    assert old.mail_seats("g1") == frozenset() and [r.notation for r in old.actions("g1")] == ["PASS"]
    assert old.seats("g1")[0].token_hash == auth.token_hash(token)
    old.set_mail("g1", 0, "ann@example.org")
    assert old.claim_mail("g1", 0, 1) == "ann@example.org"
    with old.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    old.close()


def test_migration_0005_hashes_the_addresses_of_0004_and_forgets_those_whose_end_went(database_url: str) -> None:
    """A database of revision 0004 with two seats' addresses, one of a seat whose end email went
    already: after the upgrade that one is deleted, the other is kept with its hash (so an
    unsubscribe finds it), and the new tables work."""
    from ecliptic.server.storage import address_hash

    with at_revision(database_url, "0004") as (old, _):
        pass  # (the rows below are stored after the migration's transaction, as that server stored them)
    old_game(old, "g1")
    old_game(old, "g2", created_at=2.0)
    with old.engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO seat_mail (game_id, seat, address, turn_sent, over_sent) VALUES "
                             "('g1', 0, 'Ann@Example.org', 3, :f), ('g2', 0, 'bob@example.org', NULL, :t)"),
                     {"f": False, "t": True})
    assert old.migrate() == ("0004", HEAD)
    with old.engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT game_id, address, address_hash, turn_sent FROM seat_mail")).all()
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    assert [tuple(r) for r in rows] == [("g1", "Ann@Example.org", address_hash("ann@example.org"), 3)]
    token = old.permit_mail("ann@example.org", 20)
    assert isinstance(token, str) and old.unsubscribe(token, confirm=True) is False
    assert old.mail_seats("g1") == frozenset() and old.mail_is_blocked("ANN@example.org")
    old.close()


def test_sqlite_runs_in_wal_mode(storage: Storage) -> None:
    if not storage.is_sqlite:
        pytest.skip("SQLite only")
    with storage.engine.connect() as conn:
        assert conn.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"


def test_a_game_round_trips(storage: Storage) -> None:
    new_game(storage)
    row = storage.game("g1")
    assert row is not None and row.seed == 2**62 + 5 and row.config == {"players": 2}
    assert [s.name for s in storage.seats("g1")] == ["Ann", "Bot"]
    assert storage.game("nope") is None


def test_the_log_takes_one_action_per_index_and_no_gap(storage: Storage) -> None:
    new_game(storage)
    storage.append_action("g1", act(0), game_over=False)
    with pytest.raises(Conflict):
        storage.append_action("g1", act(0, "LAUNCH A01"), game_over=False)
    with pytest.raises(Conflict):
        storage.append_action("g1", act(2), game_over=False)
    storage.append_action("g1", act(1), game_over=True)
    assert [(r.index, r.notation) for r in storage.actions("g1")] == [(0, "PASS"), (1, "PASS")]
    assert [r.index for r in storage.actions("g1", since=1)] == [1]
    row = storage.game("g1")
    assert row is not None and row.status == "over" and row.finished_at is not None


def test_the_primary_key_is_the_final_arbiter(storage: Storage) -> None:
    """Even a writer that skips the service's check cannot store a second action at an index."""
    new_game(storage)
    storage.append_action("g1", act(0), game_over=False)
    with pytest.raises(sa.exc.IntegrityError), storage.engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO actions (game_id, action_index, seat, notation, actor, undoable, "
                             "created_at) VALUES ('g1', 0, 1, 'PASS', 'person', true, 0)"))


def test_undo_moves_the_last_action_aside_in_one_transaction(storage: Storage) -> None:
    new_game(storage)
    for i in range(3):
        storage.append_action("g1", act(i, f"A{i}"), game_over=False)
    with pytest.raises(Conflict):
        storage.undo_last("g1", 1)  # not the last one
    storage.undo_last("g1", 2)
    assert [r.notation for r in storage.actions("g1")] == ["A0", "A1"]
    assert [(r.index, r.notation) for r in storage.undone("g1")] == [(2, "A2")]
    storage.append_action("g1", act(2, "B2"), game_over=False)  # the index is free again
    assert [r.notation for r in storage.actions("g1")] == ["A0", "A1", "B2"]


def test_seats_change_hands_and_games_are_listed_newest_first(storage: Storage) -> None:
    new_game(storage, "old", created_at=1.0)
    new_game(storage, "new", created_at=2.0)
    storage.append_action("old", act(0), game_over=False)
    storage.set_controller("old", 0, "zombie")
    assert storage.seats("old")[0].controller == "zombie"
    assert [(g.id, n) for g, n in storage.list_games()] == [("new", 0), ("old", 1)]


def test_chat_keeps_its_order(storage: Storage) -> None:
    new_game(storage)
    for text in ("one", "two", "three"):
        storage.add_chat("g1", 0, "Ann", text)
    assert [m.text for m in storage.chat("g1")] == ["one", "two", "three"]
    assert [m.text for m in storage.chat("g1", limit=2)] == ["two", "three"]


def test_only_token_hashes_are_stored(storage: Storage) -> None:
    token = new_game(storage)
    with storage.engine.connect() as conn:
        dump = repr([conn.execute(t.select()).all() for t in metadata.sorted_tables])
    assert token not in dump and "admin" not in dump.replace("'admin_hash'", "")
    assert auth.token_hash(token) in dump


def test_postgresql_urls_name_psycopg_3() -> None:
    assert engine_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert engine_url("sqlite:///x.db") == "sqlite:///x.db"


def test_migration_0006_keeps_the_seats_of_0005_joined_and_their_links_working_as_tokens(database_url: str) -> None:
    """A database of revision 0005 with a game whose join link (the seat's token, then) was given
    out: after the upgrade the seat counts as joined, its token still opens it (a take with it
    gives it back unchanged), and the new columns and table work (a link taken, then spent)."""
    from ecliptic.server.storage import LINK_USED, Take

    with at_revision(database_url, "0005") as (old, conn):
        assert "spent_tokens" not in sa.inspect(conn).get_table_names()
    token = old_game(old)
    assert old.migrate() == ("0005", HEAD)
    seats = old.seats("g1")
    assert [(s.joined, s.link_hash) for s in seats] == [(True, None), (True, None)]
    assert seats[0].token_hash == auth.token_hash(token)
    assert old.take_seat("g1", 0, auth.token_hash(token), auth.token_hash("new")) is Take.HELD
    assert old.seats("g1") == seats
    assert old.replace_link("g1", 0, auth.token_hash("link"))
    assert old.take_seat("g1", 0, auth.token_hash("link"), auth.token_hash("mine")) is Take.TAKEN
    assert old.spent("g1", auth.token_hash("link")) == LINK_USED
    with old.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    old.close()


def test_migration_0007_opens_no_seat_stored_before_it(database_url: str) -> None:
    """A database of revision 0006 with a game waiting for a person: after the upgrade no seat is
    open (nobody may sit down at it: ``not_open``) until its host opens it."""
    from ecliptic.server.storage import Sit

    with at_revision(database_url, "0006") as (old, conn):
        assert "open" not in {c["name"] for c in sa.inspect(conn).get_columns("seats")}
        conn.execute(sa.text("INSERT INTO games (id, game, config, seed, players, clock_seconds, status, created_at, "
                             "finished_at, admin_hash, wake_at, rematch_id) VALUES ('g1', 'ceres', '{\"players\": 2}', "
                             "5, 2, NULL, 'playing', 1.0, NULL, :admin, NULL, NULL)"),
                     {"admin": auth.token_hash("admin")})
        conn.execute(sa.text("INSERT INTO seats (game_id, seat, kind, name, token_hash, bot_level, controller, "
                             "link_hash, joined) VALUES ('g1', 0, 'person', 'Ann', NULL, NULL, 'person', :link, :no), "
                             "('g1', 1, 'bot', 'Bot', NULL, 'random', 'bot', NULL, :yes)"),
                     {"link": auth.token_hash("link"), "no": False, "yes": True})
    assert old.migrate() == ("0006", HEAD)
    assert [s.open for s in old.seats("g1")] == [False, False]
    assert old.sit("g1", 0, auth.token_hash("mine"), "Cleo") is Sit.NOT_OPEN
    assert old.list_games(open_only=True) == []
    assert old.set_open("g1", 0, True) is Sit.SAT
    assert [g.id for g, _ in old.list_games(open_only=True)] == ["g1"]
    assert old.sit("g1", 0, auth.token_hash("mine"), "Cleo") is Sit.SAT
    with old.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    old.close()
