"""Where the server keeps its games: a game is its config, its seed and its append-only
action log (18xx.games, Terraforming Mars), never a snapshot of a state.

SQLAlchemy Core, written for both backends: SQLite (the default, one file, WAL mode) and
PostgreSQL through psycopg 3 (``postgresql://`` or ``postgresql+psycopg://`` URLs). The
schema is made by the Alembic migrations in ``migrations/``, applied at start
(:meth:`Storage.migrate`); the tables below mirror them for queries (a test checks the two
agree).

The primary key of ``actions`` is ``(game_id, action_index)``: the database, not the
server process, is the final arbiter of which action is a game's next one, so two
processes (or a retry) can never store two actions at one index. An undo moves the taken
back action into ``undone`` and deletes it from ``actions`` in one transaction, so the log
stays the exact list of actions that replay to the game, and nothing is ever lost.

``games.wake_at`` (indexed) is when a game needs the server without a visitor: the turn
clock's deadline of a person's decision, or the moment a bot's (or a zombie's) decision came
due; ``NULL`` while it waits for a person with no clock, or is over. It is written in the
transaction that changes the decision (an action, an undo, a seat changing hands), so a
restarted server, or another process, finds the same deadline, and a start-up asks only
for the games due (:meth:`Storage.due_games`) instead of replaying every stored game.

Seat and admin tokens are stored only as SHA-256 hashes. A finished game's rematch
(``games.rematch_id``, set once: :meth:`Storage.create_rematch`) starts with no hash for its
person seats and an empty admin hash: each is stored when its person first comes for the token
derived from their old one (:meth:`Storage.claim_tokens`), so no token is ever stored.

A join link is an invitation, not a seat's token: ``seats.link_hash`` is its token's hash until
someone takes the seat with it (:meth:`Storage.take_seat`), which stores a fresh token's hash as the
seat's and spends the link. ``spent_tokens`` keeps the hashes of tokens that no longer open anything
(a link taken, a link or token the host replaced, a seat moved to another device) and why, so their
holders are told why. ``seats.joined``: a person has taken the seat (a bot seat always counts).

``seat_mail`` holds the address of each seat that asked to be emailed when it is its turn
(:mod:`ecliptic.server.mail`), in a table of its own that only the mail code reads, so no view,
lobby list or WebSocket message is ever built from a row that carries it. An email is claimed
before it is sent (:meth:`Storage.claim_mail`), so processes sharing the database send it once;
claiming the end's email deletes the row, so a finished game keeps no address. ``mail_sent``
(the hash of each email's address and of its unsubscribe token) and ``mail_blocked`` (the hashes
of addresses that unsubscribed) keep no address at all.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.migration import MigrationContext
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ecliptic.server import auth

MIGRATIONS = Path(__file__).parent / "migrations"
UNCLAIMED = ""
"""The ``admin_hash`` of a rematch whose admin has not come for its token yet (no token hashes to it)."""
SERVER_KEY = "_server"
"""The key of the stored config under which the server keeps a game's own options (``suggestions``).
No engine config has it, and :func:`_game_row` takes it out on reading, so the engine, the bots and
the record only ever see the engine's config; an option costs no schema migration."""

metadata = sa.MetaData()

games = sa.Table(
    "games", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("config", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("clock_seconds", sa.Float, nullable=True),
    sa.Column("status", sa.String(8), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("finished_at", sa.Float, nullable=True),
    sa.Column("admin_hash", sa.String(64), nullable=False),
    sa.Column("wake_at", sa.Float, nullable=True),
    sa.Column("rematch_id", sa.String(32), nullable=True),
    sa.Index("games_created_at", "created_at"),
    sa.Index("games_wake_at", "wake_at"),
)
seats = sa.Table(
    "seats", metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("bot_level", sa.String(32), nullable=True),
    sa.Column("controller", sa.String(8), nullable=False),
    sa.Column("link_hash", sa.String(64), nullable=True),
    sa.Column("joined", sa.Boolean, nullable=False, server_default=sa.true()),
    sa.Column("open", sa.Boolean, nullable=False, server_default=sa.false()),
)
spent_tokens = sa.Table(
    "spent_tokens", metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("reason", sa.String(16), nullable=False),
    sa.Column("spent_at", sa.Float, nullable=False),
)
actions = sa.Table(
    "actions", metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("action_index", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("notation", sa.Text, nullable=False),
    sa.Column("actor", sa.String(8), nullable=False),
    sa.Column("undoable", sa.Boolean, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)
undone = sa.Table(
    "undone", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
    sa.Column("action_index", sa.Integer, nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("notation", sa.Text, nullable=False),
    sa.Column("undone_at", sa.Float, nullable=False),
)
chat = sa.Table(
    "chat", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Index("chat_game", "game_id", "id"),
)
seat_mail = sa.Table(
    "seat_mail", metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("address", sa.String(254), nullable=False),
    sa.Column("turn_sent", sa.Integer, nullable=True),
    sa.Column("over_sent", sa.Boolean, nullable=False),
    sa.Column("address_hash", sa.String(64), nullable=True),
    sa.Index("seat_mail_address_hash", "address_hash"),
)
mail_blocked = sa.Table(
    "mail_blocked", metadata,
    sa.Column("address_hash", sa.String(64), primary_key=True),
    sa.Column("blocked_at", sa.Float, nullable=False),
)
mail_sent = sa.Table(
    "mail_sent", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("address_hash", sa.String(64), nullable=False),
    sa.Column("unsubscribe_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("sent_at", sa.Float, nullable=False),
    sa.Index("mail_sent_address", "address_hash", "sent_at"),
    sa.Index("mail_sent_at", "sent_at"),
)
UNSUBSCRIBE_SECONDS = 180 * 86400
"""How long an email's unsubscribe link works: its ``mail_sent`` row is deleted after that."""


def address_hash(address: str) -> str:
    """What the server keeps to recognise an address without keeping it: in lower case, so
    ``Ann@Example.org`` is not a way around a block (no mail provider tells those apart)."""
    return hashlib.sha256(address.strip().lower().encode("utf-8", "surrogatepass")).hexdigest()


class MailSkip(Enum):
    """Why :meth:`Storage.permit_mail` lets an email not go."""

    BLOCKED = "blocked"
    """The address unsubscribed from this server (every game)."""
    LIMIT = "limit"
    """The address had its emails of the last hour already."""


LINK_USED, LINK_REPLACED, SEAT_MOVED = "link_used", "link_replaced", "seat_moved"
"""Why a token is in ``spent_tokens``: its join link was taken, the host replaced it (or the
seat's token, giving the seat to someone else), its seat moved to another device."""


class Take(Enum):
    """What :meth:`Storage.take_seat` did."""

    TAKEN = "taken"
    """The link was the seat's, and is spent: the seat has the taker's token now."""
    HELD = "held"
    """The token given is the seat's own token already (nothing changed)."""
    NOT_A_LINK = "not_a_link"
    """Not the seat's link (spent, replaced, another seat's, or none): nothing changed."""


class Sit(Enum):
    """What sitting down at an open seat came to (:meth:`Storage.sit`, :meth:`Storage.set_open`)."""

    SAT = "sat"
    """Done: the asker holds the seat now (or, opening it, the seat is open)."""
    TAKEN = "taken"
    """Someone has joined the seat already."""
    NOT_OPEN = "not_open"
    """Not an open person seat."""


class Conflict(Exception):
    """Another action (or undo) was stored first: the caller's expected index is stale."""


class SeatGone(Exception):
    """The seat's token in the database is not the one the action came with: another server
    process gave the seat to someone else, or it moved to another device, and this process had
    not heard yet. Nothing was stored."""


class Keep(Enum):
    """``wake_at=KEEP``: leave the stored wake time as it is."""

    KEEP = "keep"


KEEP = Keep.KEEP
Wake = float | None | Keep


@dataclass(frozen=True)
class GameRow:
    id: str
    game: str
    config: dict[str, Any]
    seed: int
    players: int
    clock_seconds: float | None
    status: str
    created_at: float
    finished_at: float | None
    admin_hash: str
    suggestions: bool = False
    """The players may ask for a suggested move (``POST /suggest``); chosen when the game is created."""
    wake_at: float | None = None
    """When the game needs the server without a visitor (the module's docstring)."""
    rematch_id: str | None = None
    """The game that plays this finished one again with the same people ("Play again"), once made."""


@dataclass(frozen=True)
class SeatRow:
    seat: int
    kind: str
    """``person`` or ``bot``: what the seat was created as."""
    name: str
    token_hash: str | None
    bot_level: str | None
    controller: str
    """Who plays it now: ``person``, ``bot`` (handed to a bot) or ``zombie`` (its turn clock ran out)."""
    link_hash: str | None = None
    """The hash of the seat's join link's token while the link waits to be taken (an invitation:
    it opens nothing but :meth:`Storage.take_seat`)."""
    joined: bool = True
    """A person has taken the seat (its ``token_hash`` is theirs); a bot seat always counts as joined."""
    open: bool = False
    """The host opened the seat to anyone (:meth:`Storage.sit`): while nobody has joined it, the
    lobby offers it to whoever comes first."""


@dataclass(frozen=True)
class ActionRow:
    index: int
    seat: int
    notation: str
    actor: str
    undoable: bool


@dataclass(frozen=True)
class ChatRow:
    id: int
    seat: int | None
    name: str
    text: str
    created_at: float


def engine_url(url: str) -> str:
    """A ``postgresql://`` URL names psycopg 3 (SQLAlchemy would pick psycopg2)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def is_postgresql(url: str) -> bool:
    return sa.make_url(engine_url(url)).get_backend_name() == "postgresql"


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def describe(url: str) -> str:
    """Where the data is, for the start-up line, without a password."""
    parsed = sa.make_url(engine_url(url))
    if parsed.get_backend_name() == "sqlite":
        return f"SQLite file {parsed.database}"
    return f"PostgreSQL {parsed.render_as_string(hide_password=True)}"


MIGRATION_LOCK = 0x45_63_6C_69_70_74_69_63  # "Eclipti(c)": PostgreSQL's advisory lock for migrating, held to the commit
"""The key of the PostgreSQL advisory lock that :meth:`Storage.migrate` holds."""


class Storage:
    """The server's database. Every method is one transaction and blocks (the service runs
    them in a worker thread)."""

    def __init__(self, url: str) -> None:
        self.url = engine_url(url)
        parsed = sa.make_url(self.url)
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        if self.is_sqlite:
            if parsed.database and parsed.database != ":memory:":
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            self.engine: Engine = sa.create_engine(
                self.url, connect_args={"check_same_thread": False, "timeout": 30})
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = sa.create_engine(self.url, pool_pre_ping=True)

    def migrate(self) -> tuple[str | None, str | None]:
        """Bring the schema to the newest revision (Alembic), in one transaction that first takes
        the database's lock for it: server processes started together on a new database (``systemctl
        start ecliptic@8000 ecliptic@8001``) migrate one after the other, the second finding the
        schema made, instead of both creating it and one dying on the duplicate. The revisions
        before and after (``None``: an empty database), for the start-up log."""
        cfg = AlembicConfig()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as conn:
            if self.is_sqlite:
                conn.exec_driver_sql("BEGIN IMMEDIATE")  # the write lock now, not at the first write
            else:
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            before = MigrationContext.configure(conn).get_current_revision()
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
            return before, MigrationContext.configure(conn).get_current_revision()

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn

    # -- games and seats ----------------------------------------------------------------

    def create_game(self, game: GameRow, seat_rows: list[SeatRow], log: Sequence[ActionRow] = ()) -> None:
        """Store a new game, with ``log`` as its first actions (a game played on from a position of a
        finished one), in one transaction."""
        with self._tx() as conn:
            _insert_game(conn, game, seat_rows, log)

    def create_rematch(self, game_id: str, game: GameRow, seat_rows: list[SeatRow]) -> str:
        """Store ``game`` as the rematch of the finished game ``game_id``, unless that has one
        already: the id of its rematch, ``game.id`` or the one stored first. One transaction that
        sets ``games.rematch_id`` only while it is empty, so two requests (two processes, a double
        click) never store two rematches: the later one stores nothing and is told the first."""
        with self._tx() as conn:
            claimed = conn.execute(games.update().where(games.c.id == game_id, games.c.rematch_id.is_(None))
                                   .values(rematch_id=game.id))
            if claimed.rowcount == 1:
                _insert_game(conn, game, seat_rows, ())
                return game.id
            found = conn.execute(sa.select(games.c.rematch_id).where(games.c.id == game_id)).scalar()
        if found is None:
            raise LookupError(f"there is no game {game_id!r}")
        return str(found)

    def claim_tokens(self, game_id: str, hashes: dict[int, str], admin_hash: str | None = None) -> None:
        """Give the person seats of ``hashes`` (and the admin, with ``admin_hash``) their token
        hashes, where none is stored yet: a rematch's seats get theirs when their people first
        come back (``GameService.rematch``). A hash once stored is never replaced, and a seat the host
        gave a join link meanwhile (:meth:`replace_link`: a new person) is claimed by that link only."""
        with self._tx() as conn:
            _fill_empty_seats(conn, game_id, hashes, token_hash=True)
            if admin_hash is not None:
                conn.execute(games.update().where(games.c.id == game_id, games.c.admin_hash == UNCLAIMED)
                             .values(admin_hash=admin_hash))

    def offer_links(self, game_id: str, hashes: dict[int, str]) -> None:
        """Give the person seats of ``hashes`` a join link (its token's hash) where the seat has
        neither a token nor a link yet: a rematch's seat whose person never came to the finished
        game, when its host asks (``GameService.rematch``). Never replaces what is stored."""
        with self._tx() as conn:
            _fill_empty_seats(conn, game_id, hashes, token_hash=False)

    def game(self, game_id: str) -> GameRow | None:
        with self._tx() as conn:
            row = conn.execute(games.select().where(games.c.id == game_id)).first()
        return _game_row(row) if row is not None else None

    def seats(self, game_id: str) -> list[SeatRow]:
        with self._tx() as conn:
            rows = conn.execute(seats.select().where(seats.c.game_id == game_id).order_by(seats.c.seat)).all()
        return [SeatRow(r.seat, r.kind, r.name, r.token_hash, r.bot_level, r.controller, r.link_hash,
                        bool(r.joined), bool(r.open)) for r in rows]

    # -- join links: invitations taken once -------------------------------------------------

    @contextmanager
    def _locked(self) -> Iterator[Connection]:
        """A transaction that holds the write lock from its first statement (SQLite's ``BEGIN
        IMMEDIATE``; PostgreSQL locks the rows read ``FOR UPDATE``), so what it reads of a seat is
        still so when it writes: two takes of one link, in two processes, are one after the other."""
        with self.engine.begin() as conn:
            if self.is_sqlite:
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            yield conn

    def _lock_address(self, conn: Connection, hashed: str) -> None:
        """Hold ``hashed``'s address until the transaction ends. SQLite's ``BEGIN IMMEDIATE``
        (:meth:`_locked`) already holds the whole database; PostgreSQL has no row to lock ``FOR
        UPDATE`` before an address's first email, so a transaction-level advisory lock keyed by
        the address's hash stands for it (the key: its first 63 bits)."""
        if not self.is_sqlite:
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": int(hashed[:16], 16) >> 1})

    def _seat_for_update(self, conn: Connection, game_id: str, seat: int) -> Any:
        return conn.execute(seats.select().where(seats.c.game_id == game_id, seats.c.seat == seat)
                            .with_for_update()).first()

    @contextmanager
    def _as_seat(self, game_id: str, seat: int | None, seat_hash: str | None) -> Iterator[Connection]:
        """A transaction for a seat's write: with ``seat_hash``, under the lock that giving a seat
        away takes (:meth:`_locked`), and only while the seat's token is still that hash (else
        :class:`SeatGone`, nothing written); without it (a bot's move, the admin's message), plain."""
        if seat is None or seat_hash is None:
            with self._tx() as conn:
                yield conn
            return
        with self._locked() as conn:
            row = self._seat_for_update(conn, game_id, seat)
            if row is None or row.token_hash != seat_hash:
                raise SeatGone(seat)
            yield conn

    @staticmethod
    def _spend(conn: Connection, game_id: str, seat: int, token_hash: str | None, reason: str) -> None:
        if token_hash is None or token_hash == UNCLAIMED:
            return
        if conn.execute(sa.select(spent_tokens.c.token_hash)
                        .where(spent_tokens.c.token_hash == token_hash)).first() is not None:
            return  # (spent already, for an earlier reason: the first is kept)
        conn.execute(spent_tokens.insert().values(token_hash=token_hash, game_id=game_id, seat=seat,
                                                  reason=reason, spent_at=time.time()))

    def take_seat(self, game_id: str, seat: int, link_hash: str, token_hash: str) -> Take:
        """Take ``seat`` with its join link (the hash of the link's token): the seat's token becomes
        ``token_hash`` (the taker's own), the link is spent, and a token the seat had before (a
        seat moved to another device) is spent too. One transaction holding the seat's row, so of
        two takes of one link (two tabs, two processes) exactly one wins: the other finds the link
        spent. A take with the seat's own token changes nothing (an old link, from before links
        were invitations, is its seat's token)."""
        with self._locked() as conn:
            row = self._seat_for_update(conn, game_id, seat)
            if row is None or row.kind != "person":
                return Take.NOT_A_LINK
            if row.link_hash is not None and row.link_hash == link_hash:
                self._spend(conn, game_id, seat, link_hash, LINK_USED)
                self._spend(conn, game_id, seat, row.token_hash, SEAT_MOVED)
                conn.execute(seats.update().where(seats.c.game_id == game_id, seats.c.seat == seat)
                             .values(token_hash=token_hash, link_hash=None, joined=True))
                return Take.TAKEN
            if row.token_hash is not None and row.token_hash == link_hash:
                return Take.HELD
        return Take.NOT_A_LINK

    def sit(self, game_id: str, seat: int, token_hash: str, name: str | None) -> Sit:
        """Seat whoever asks first at the open ``seat`` (:attr:`SeatRow.open`) nobody has joined:
        the seat's token becomes ``token_hash`` (the sitter's own), its name ``name`` (when given),
        and its join link is spent as if taken (its holder is told ``link_used``). One transaction
        holding the seat's row, so of two people sitting down at one moment (two processes)
        exactly one is seated: the other finds the seat joined."""
        with self._locked() as conn:
            row = self._seat_for_update(conn, game_id, seat)
            if row is None or row.kind != "person" or not row.open:
                return Sit.NOT_OPEN
            if row.joined:
                return Sit.TAKEN
            self._spend(conn, game_id, seat, row.link_hash, LINK_USED)
            values: dict[str, Any] = {"token_hash": token_hash, "link_hash": None, "joined": True}
            if name:
                values["name"] = name
            conn.execute(seats.update().where(seats.c.game_id == game_id, seats.c.seat == seat).values(**values))
        return Sit.SAT

    def set_open(self, game_id: str, seat: int, open_: bool) -> Sit:
        """Open ``seat`` to anyone, or close it (``open_`` false: it waits for its join link only).
        Only a seat nobody has joined is opened (``Sit.TAKEN`` else: its person keeps it)."""
        with self._locked() as conn:
            row = self._seat_for_update(conn, game_id, seat)
            if row is None or row.kind != "person":
                return Sit.NOT_OPEN
            if open_ and row.joined:
                return Sit.TAKEN
            conn.execute(seats.update().where(seats.c.game_id == game_id, seats.c.seat == seat).values(open=open_))
        return Sit.SAT

    def replace_link(self, game_id: str, seat: int, link_hash: str, *, keep_token: bool = False) -> bool:
        """Give ``seat`` a new join link (its token's hash ``link_hash``): the link it had is spent
        (``link_replaced``). The host's (``keep_token=False``) gives the seat to a new person: the
        seat's token is spent too and its email address forgotten, in the same transaction. The
        seat's own (``keep_token``: "play on another device") keeps its token until the link is
        taken. Whether the seat is a person's."""
        with self._locked() as conn:
            row = self._seat_for_update(conn, game_id, seat)
            if row is None or row.kind != "person":
                return False
            self._spend(conn, game_id, seat, row.link_hash, LINK_REPLACED)
            values: dict[str, Any] = {"link_hash": link_hash}
            if not keep_token:
                self._spend(conn, game_id, seat, row.token_hash, LINK_REPLACED)
                values.update(token_hash=None, joined=False)
                conn.execute(seat_mail.delete().where(seat_mail.c.game_id == game_id, seat_mail.c.seat == seat))
            conn.execute(seats.update().where(seats.c.game_id == game_id, seats.c.seat == seat).values(**values))
        return True

    def spent(self, game_id: str, token_hash: str) -> str | None:
        """Why the token of ``token_hash`` no longer opens a seat of the game (``link_used``,
        ``link_replaced``, ``seat_moved``), or ``None`` if it never did."""
        with self._tx() as conn:
            found = conn.execute(sa.select(spent_tokens.c.reason).where(
                spent_tokens.c.token_hash == token_hash, spent_tokens.c.game_id == game_id)).scalar()
        return None if found is None else str(found)

    def set_controller(self, game_id: str, seat: int, controller: str, *, level: str | None = None,
                       wake_at: Wake = KEEP) -> None:
        """Hand ``seat`` to ``controller`` (with the bot ``level``, when given) and, unless
        ``KEEP``, store the game's new wake time in the same transaction."""
        values: dict[str, Any] = {"controller": controller}
        if level is not None:
            values["bot_level"] = level
        with self._tx() as conn:
            conn.execute(seats.update().where(seats.c.game_id == game_id, seats.c.seat == seat).values(**values))
            _set_wake(conn, game_id, wake_at)

    def set_wake(self, game_id: str, wake_at: float | None) -> None:
        with self._tx() as conn:
            _set_wake(conn, game_id, wake_at)

    def due_games(self, until: float, limit: int = 1000) -> list[str]:
        """The games that need the server by ``until`` (a bot's decision, a turn clock running
        out), soonest first: one query on the ``wake_at`` index, whatever the number of stored games."""
        with self._tx() as conn:
            rows = conn.execute(sa.select(games.c.id).where(games.c.wake_at <= until)
                                .order_by(games.c.wake_at).limit(limit)).all()
        return [r.id for r in rows]

    def list_games(self, limit: int = 100, *, open_only: bool = False) -> list[tuple[GameRow, int]]:
        """The newest games with their number of actions; ``open_only``: only the games in play
        with a seat anyone may sit down at (open, nobody joined), the lobby's open tables."""
        count = (sa.select(sa.func.count()).select_from(actions)
                 .where(actions.c.game_id == games.c.id).scalar_subquery())
        query = sa.select(games, count.label("n"))
        if open_only:
            free = sa.select(seats.c.seat).where(seats.c.game_id == games.c.id, seats.c.open.is_(True),
                                                 seats.c.joined.is_(False), seats.c.kind == "person")
            query = query.where(games.c.status == "playing", free.exists())
        with self._tx() as conn:
            rows = conn.execute(query.order_by(games.c.created_at.desc()).limit(limit)).all()
        return [(_game_row(r), int(r.n)) for r in rows]

    # -- the action log ------------------------------------------------------------------

    def actions(self, game_id: str, since: int = 0) -> list[ActionRow]:
        """The stored actions from index ``since`` on, in order."""
        with self._tx() as conn:
            rows = conn.execute(actions.select()
                                .where(actions.c.game_id == game_id, actions.c.action_index >= since)
                                .order_by(actions.c.action_index)).all()
        return [ActionRow(r.action_index, r.seat, r.notation, r.actor, r.undoable) for r in rows]

    def append_action(self, game_id: str, row: ActionRow, *, game_over: bool, wake_at: Wake = KEEP,
                      seat_hash: str | None = None) -> None:
        """Store the action at ``row.index`` (and the game's wake time for the next decision),
        or :class:`Conflict` if that index is taken (or would leave a gap): committed when this
        returns. ``seat_hash``: a person's action, stored only while the seat's token is still
        the one of that hash (else :class:`SeatGone`), read under the lock that giving the seat
        away takes, so no other process's change of hands comes between the check and the write."""
        try:
            with self._as_seat(game_id, row.seat, seat_hash) as conn:
                last = conn.execute(sa.select(sa.func.max(actions.c.action_index))
                                    .where(actions.c.game_id == game_id)).scalar()
                if (-1 if last is None else int(last)) != row.index - 1:
                    raise Conflict(row.index)
                conn.execute(actions.insert().values(
                    game_id=game_id, action_index=row.index, seat=row.seat, notation=row.notation,
                    actor=row.actor, undoable=row.undoable, created_at=time.time()))
                if game_over:
                    conn.execute(games.update().where(games.c.id == game_id)
                                 .values(status="over", finished_at=time.time(), wake_at=None))
                else:
                    _set_wake(conn, game_id, wake_at)
        except IntegrityError:
            raise Conflict(row.index) from None

    def undo_last(self, game_id: str, index: int, *, wake_at: Wake = KEEP, seat: int | None = None,
                  seat_hash: str | None = None) -> None:
        """Take back the action at ``index``, which must be the last one (else
        :class:`Conflict`): moved to ``undone``, deleted from the log, with the game's new
        wake time, in one transaction; with ``seat_hash``, only while ``seat`` (the action's) still
        has that token (:meth:`append_action`)."""
        with self._as_seat(game_id, seat, seat_hash) as conn:
            rows = conn.execute(actions.select().where(actions.c.game_id == game_id,
                                                       actions.c.action_index >= index)).all()
            if len(rows) != 1 or rows[0].action_index != index:
                raise Conflict(index)
            r = rows[0]
            conn.execute(undone.insert().values(game_id=game_id, action_index=index, seat=r.seat,
                                                notation=r.notation, undone_at=time.time()))
            deleted = conn.execute(actions.delete().where(actions.c.game_id == game_id,
                                                          actions.c.action_index == index))
            if deleted.rowcount != 1:
                raise Conflict(index)
            _set_wake(conn, game_id, wake_at)

    def undone(self, game_id: str) -> list[ActionRow]:
        with self._tx() as conn:
            rows = conn.execute(undone.select().where(undone.c.game_id == game_id).order_by(undone.c.id)).all()
        return [ActionRow(r.action_index, r.seat, r.notation, "person", True) for r in rows]

    # -- email when it is a seat's turn ----------------------------------------------------

    def set_mail(self, game_id: str, seat: int, address: str | None, *, claimed: int | None = None) -> None:
        """Store ``seat``'s address (``None``: forget it). A changed address keeps what was
        claimed already, so changing it mid-turn does not bring that turn's email again; a new
        row starts with the run ``claimed`` already claimed (the run the seat is in when it gives
        its address), so forgetting the address and giving it again, in a loop, brings no email
        either. Two requests at once (two processes) both end with one row: the later insert,
        refused by the primary key inside its savepoint, becomes an update."""
        where = (seat_mail.c.game_id == game_id, seat_mail.c.seat == seat)
        with self._tx() as conn:
            if address is None:
                conn.execute(seat_mail.delete().where(*where))
                return
            values = {"address": address, "address_hash": address_hash(address)}
            if conn.execute(seat_mail.update().where(*where).values(**values)).rowcount == 1:
                return
            try:
                with conn.begin_nested():
                    conn.execute(seat_mail.insert().values(game_id=game_id, seat=seat, turn_sent=claimed,
                                                           over_sent=False, **values))
            except IntegrityError:
                conn.execute(seat_mail.update().where(*where).values(**values))

    def mail_address(self, game_id: str, seat: int) -> str | None:
        with self._tx() as conn:
            found = conn.execute(sa.select(seat_mail.c.address).where(
                seat_mail.c.game_id == game_id, seat_mail.c.seat == seat)).scalar()
        return None if found is None else str(found)

    def mail_seats(self, game_id: str) -> frozenset[int]:
        """The seats of the game that asked for email (not their addresses)."""
        with self._tx() as conn:
            rows = conn.execute(sa.select(seat_mail.c.seat).where(seat_mail.c.game_id == game_id)).all()
        return frozenset(int(r.seat) for r in rows)

    def claim_mail(self, game_id: str, seat: int, turn: int | None) -> str | None:
        """Claim the email of ``seat``'s run of decisions that began at index ``turn`` (``None``:
        the game's end): the seat's address if this call claimed it, ``None`` if the seat asked for
        no email or another call (another process) claimed it first. One ``UPDATE`` that moves the
        stored mark only forward, the database deciding between processes, as for a rematch; the
        end's claim is the row's ``DELETE`` (nothing is left to send: the address goes with it)."""
        where = [seat_mail.c.game_id == game_id, seat_mail.c.seat == seat]
        with self._tx() as conn:
            if turn is None:
                found = conn.execute(sa.select(seat_mail.c.address).where(*where)).scalar()
                if found is None or conn.execute(seat_mail.delete().where(*where)).rowcount != 1:
                    return None
                return str(found)
            claim = (seat_mail.update().where(*where, sa.or_(seat_mail.c.turn_sent.is_(None),
                                                             seat_mail.c.turn_sent < turn))
                     .values(turn_sent=turn))
            if conn.execute(claim).rowcount != 1:
                return None
            found = conn.execute(sa.select(seat_mail.c.address).where(*where)).scalar()
        return None if found is None else str(found)

    def mail_is_blocked(self, address: str) -> bool:
        """Whether ``address`` unsubscribed from this server."""
        with self._tx() as conn:
            return conn.execute(sa.select(mail_blocked.c.address_hash).where(
                mail_blocked.c.address_hash == address_hash(address))).first() is not None

    def permit_mail(self, address: str, per_hour: int, now: float | None = None) -> str | MailSkip:
        """Let one email to ``address`` go: the token of its unsubscribe link (stored hashed, with
        the address's hash, which the limit counts), or why not. A blocked address's rows are
        deleted on the way (it unsubscribed: it is no longer anyone's to keep). The count and the
        insert are one locked step for the address (:meth:`_lock_address`), so two processes
        sending to one address at the same moment cannot both pass its limit."""
        now = time.time() if now is None else now
        hashed = address_hash(address)
        with self._locked() as conn:
            self._lock_address(conn, hashed)
            if conn.execute(sa.select(mail_blocked.c.address_hash)
                            .where(mail_blocked.c.address_hash == hashed)).first() is not None:
                conn.execute(seat_mail.delete().where(seat_mail.c.address_hash == hashed))
                return MailSkip.BLOCKED
            sent = conn.execute(sa.select(sa.func.count()).select_from(mail_sent).where(
                mail_sent.c.address_hash == hashed, mail_sent.c.sent_at > now - 3600)).scalar_one()
            if int(sent) >= per_hour:
                return MailSkip.LIMIT
            token = auth.new_token()
            conn.execute(mail_sent.delete().where(mail_sent.c.sent_at < now - UNSUBSCRIBE_SECONDS))
            conn.execute(mail_sent.insert().values(address_hash=hashed, unsubscribe_hash=auth.token_hash(token),
                                                   sent_at=now))
        return token

    def unsubscribe(self, token: str, *, confirm: bool) -> bool | None:
        """The address of the email whose unsubscribe link holds ``token``: ``None`` if no email
        had it (mistyped, or older than :data:`UNSUBSCRIBE_SECONDS`), else whether it was blocked
        already. With ``confirm``, block it and delete its rows in every game, in one
        transaction; a second confirm changes nothing."""
        with self._tx() as conn:
            hashed = conn.execute(sa.select(mail_sent.c.address_hash).where(
                mail_sent.c.unsubscribe_hash == auth.token_hash(token))).scalar()
            if hashed is None:
                return None
            blocked = conn.execute(sa.select(mail_blocked.c.address_hash)
                                   .where(mail_blocked.c.address_hash == hashed)).first() is not None
            if confirm:
                conn.execute(seat_mail.delete().where(seat_mail.c.address_hash == hashed))
                if not blocked:
                    try:
                        with conn.begin_nested():
                            conn.execute(mail_blocked.insert().values(address_hash=hashed, blocked_at=time.time()))
                    except IntegrityError:  # (another request blocked it at the same moment)
                        return True
        return blocked

    def mail_pending_games(self, limit: int = 1000) -> list[str]:
        """The games that may owe an email (for a start-up: a restart must not lose one): over
        with an address left (its end's email), or with a seat whose current run of decisions,
        if it is the one to decide, is not claimed yet. Which seat decides only the engine knows,
        so this is a few games more than owe one, never fewer."""
        others = (sa.select(sa.func.max(actions.c.action_index))
                  .where(actions.c.game_id == seat_mail.c.game_id, actions.c.seat != seat_mail.c.seat)
                  .scalar_subquery())
        run = sa.func.coalesce(others, -1) + 1
        with self._tx() as conn:
            rows = conn.execute(sa.select(games.c.id).distinct().join(seat_mail, seat_mail.c.game_id == games.c.id)
                                .where(sa.or_(games.c.status == "over", seat_mail.c.turn_sent.is_(None),
                                              seat_mail.c.turn_sent < run))
                                .order_by(games.c.id).limit(limit)).all()
        return [r.id for r in rows]

    # -- chat ----------------------------------------------------------------------------

    def add_chat(self, game_id: str, seat: int | None, name: str, text: str, *,
                 seat_hash: str | None = None) -> ChatRow:
        """Store a chat message; with ``seat_hash``, only while the seat still has that token
        (:meth:`append_action`: a seat given away cannot speak under its name)."""
        now = time.time()
        with self._as_seat(game_id, seat, seat_hash) as conn:
            result = conn.execute(chat.insert().values(game_id=game_id, seat=seat, name=name, text=text,
                                                       created_at=now).returning(chat.c.id))
            chat_id = int(result.scalar_one())
        return ChatRow(chat_id, seat, name, text, now)

    def chat(self, game_id: str, limit: int = 200) -> list[ChatRow]:
        with self._tx() as conn:
            rows = conn.execute(chat.select().where(chat.c.game_id == game_id)
                                .order_by(chat.c.id.desc()).limit(limit)).all()
        return [ChatRow(r.id, r.seat, r.name, r.text, r.created_at) for r in reversed(rows)]


def _fill_empty_seats(conn: Connection, game_id: str, hashes: dict[int, str], *, token_hash: bool) -> None:
    """Store each hash of ``hashes`` as its person seat's token (``token_hash``: the seat is
    joined) or join link, only where the seat has neither yet: one statement a seat, whose
    condition the database checks, so what another process stored first is never replaced."""
    for seat, hashed in sorted(hashes.items()):
        values = {"token_hash": hashed, "joined": True} if token_hash else {"link_hash": hashed, "joined": False}
        conn.execute(seats.update().where(seats.c.game_id == game_id, seats.c.seat == seat,
                                          seats.c.kind == "person", seats.c.token_hash.is_(None),
                                          seats.c.link_hash.is_(None)).values(**values))


def _insert_game(conn: Connection, game: GameRow, seat_rows: list[SeatRow], log: Sequence[ActionRow]) -> None:
    config = {**game.config, SERVER_KEY: {"suggestions": True}} if game.suggestions else game.config
    conn.execute(games.insert().values(
        id=game.id, game=game.game, config=json.dumps(config, sort_keys=True), seed=game.seed,
        players=game.players, clock_seconds=game.clock_seconds, status=game.status,
        created_at=game.created_at, finished_at=game.finished_at, admin_hash=game.admin_hash,
        wake_at=game.wake_at, rematch_id=game.rematch_id))
    conn.execute(seats.insert(), [
        {"game_id": game.id, "seat": s.seat, "kind": s.kind, "name": s.name, "token_hash": s.token_hash,
         "bot_level": s.bot_level, "controller": s.controller, "link_hash": s.link_hash, "joined": s.joined,
         "open": s.open}
        for s in seat_rows])
    if log:
        now = time.time()
        conn.execute(actions.insert(), [
            {"game_id": game.id, "action_index": r.index, "seat": r.seat, "notation": r.notation,
             "actor": r.actor, "undoable": r.undoable, "created_at": now} for r in log])


def _set_wake(conn: Connection, game_id: str, wake_at: Wake) -> None:
    if wake_at is not KEEP:
        conn.execute(games.update().where(games.c.id == game_id).values(wake_at=wake_at))


def _game_row(r: Any) -> GameRow:
    config = json.loads(r.config)
    server = config.pop(SERVER_KEY, None) or {}
    return GameRow(r.id, r.game, config, int(r.seed), r.players, r.clock_seconds, r.status,
                   r.created_at, r.finished_at, r.admin_hash, suggestions=bool(server.get("suggestions", False)),
                   wake_at=r.wake_at, rematch_id=r.rematch_id)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL lets readers go on while an action is written; ``synchronous=FULL`` makes a
    committed action survive a power cut, not only a crash of the process."""
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()
