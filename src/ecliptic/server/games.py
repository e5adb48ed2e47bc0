"""The game service: the server's referee. A game is its config, seed and action log; the
engine decides everything else.

* **Restore lazily.** A game is replayed from its log on first access, so start-up does
  not grow with the number of stored games.
* **One path for every action.** A person's action, a bot's and a zombie's (a seat whose
  turn clock ran out) all go through :meth:`GameService.submit`: checked against the
  expected index (optimistic concurrency: a double click or a retry never applies twice),
  the seat, the engine (on a copy of the state, so a refusal changes nothing), then
  **committed** to the database, and only then applied to the live state, acknowledged and
  broadcast. The database's primary key on ``(game_id, action_index)`` is the final
  arbiter between processes: a second action at an index is a 409.
* **Only observe and filtered events leave.** Each viewer gets ``observe(state, seat)``
  and the events ``Event.visible(seat)``; never another seat's action notation (it can name
  a card played face down), never the seed or the generator before the end.
* **Undo** (Board Game Arena's policy, :mod:`ecliptic.engine.undo`): only the last action,
  only by the person who made it, only when it had no random outcome and revealed nothing;
  undo replays the shorter log.
* **Turn clock.** With ``clock_seconds``, each person's decision has a deadline, stored with
  the change that started it (``games.wake_at``); a task per game wakes at it and, if the
  decision is still pending, a bot ("zombie") plays the seat until its person makes any
  request with the seat's token. A deadline that passed while the server was down zombies
  the seat as soon as the game is loaded again.
* **Resume without a visitor.** A game whose next decision is a bot's (or a zombie's), or
  whose deadline comes, is loaded by :meth:`GameService._wake_due` in the background: one
  query on the indexed ``wake_at`` every ``wake_seconds`` (the first once the server listens).
  Several processes sharing a database may all play one bot's move; the database keeps the
  first, the others get a 409 and catch up.
* **Play again.** A finished game's rematch (:meth:`GameService.rematch`) is made once, the
  database deciding between two requests; each seat's token in it is derived from the seat's
  token in the finished game (:func:`ecliptic.server.auth.derived_token`), so it is told only
  to whoever shows that token: the asker, the seat's WebSockets, its ``GET`` of the old game.
* **Unload idle games.** A loaded game with no viewer, no bot thinking, no clock running and
  no request for ``idle_seconds`` is dropped from memory (:meth:`GameService.unload_idle`);
  the next access replays it. Every service call holds the game ``busy`` while it may wait,
  so a game is never dropped in the middle of a request or with its lock held.
* **Email when it is your turn** (with a :class:`ecliptic.server.mail.Mailer`): a seat that gave
  an address is emailed once per run of its decisions, when it has waited ``delay`` seconds and
  no page of it is connected here, and once at the end. Each email is claimed in the database
  first (:meth:`Storage.claim_mail`): a process where the seat's page is connected claims it as
  seen, so of several processes sharing a database only one sends, and only if nobody saw it.
  Every email has an unsubscribe link that stops all of this server's emails to its address, an
  address gets at most ``per_hour`` of them an hour (:meth:`Storage.permit_mail`), a finished
  game keeps no address once its end is claimed, and a start-up loads the games that may owe an
  email (:meth:`Storage.mail_pending_games`), so a restart during the delay loses none.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import re
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from email.message import EmailMessage
from typing import Any, NoReturn, TypeVar

from ecliptic.engine.actions import Action
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.engine.record import state_digest
from ecliptic.engine.rules import build_config
from ecliptic.engine.undo import why_not_undoable
from ecliptic.games import get_game
from ecliptic.present.names import event_text
from ecliptic.present.view import present
from ecliptic.server import auth, models
from ecliptic.server.bots import BotPool, BotTurn
from ecliptic.server.hub import Connection, Hub, Message
from ecliptic.server.mail import Mailer, Sent, over_message, turn_message
from ecliptic.server.notify import LocalNotifier, Notifier
from ecliptic.server.storage import (
    KEEP,
    LINK_REPLACED,
    LINK_USED,
    SEAT_MOVED,
    UNCLAIMED,
    ActionRow,
    Conflict,
    GameRow,
    MailSkip,
    SeatGone,
    SeatRow,
    Sit,
    Storage,
    Take,
    Wake,
    address_hash,
)

log = logging.getLogger("ecliptic.server")
T = TypeVar("T")

PERSON, BOT, ZOMBIE = "person", "bot", "zombie"
REPLAY = "replay"
"""The actor of the actions a game played on from a finished one copied from it."""
ZOMBIE_LEVEL = "normal"
BOT_PLAYS_IT = "a bot plays your seat now; take it back first"
MAX_BOT_FAILURES = 3
IDLE_SECONDS = 600.0
"""A loaded game nobody has used for this long is dropped from memory."""
WAKE_SECONDS = 30.0
"""How often the database is asked for the games that need the server (bots, clocks)."""


ECHO_WORD = 80
"""A refusal's message quotes at most this many characters of a word without spaces (a
60,000-character action comes back as its first :data:`ECHO_KEPT` and its length)."""
ECHO_KEPT = ECHO_WORD // 2
ECHO_MESSAGE = 600
"""The longest refusal message; a longer one keeps its start and its end."""
_LONG_WORD = re.compile(rf"\S{{{ECHO_WORD + 1},}}")


def clip(text: str) -> str:
    """``text`` with what it echoes of a request kept short: each run of more than
    :data:`ECHO_WORD` characters without a space cut to its first :data:`ECHO_KEPT` and its
    length, and the whole to :data:`ECHO_MESSAGE` characters (its start and its end, where a
    refusal says why)."""
    text = _LONG_WORD.sub(lambda m: f"{m.group()[:ECHO_KEPT]}… ({len(m.group())} characters)", text)
    if len(text) > ECHO_MESSAGE:
        text = f"{text[:ECHO_MESSAGE * 2 // 3]} … {text[-(ECHO_MESSAGE // 3):]}"
    return text


class ServiceError(Exception):
    """A refusal the API answers with ``status`` and a JSON body; nothing was changed. The
    message is clipped (:func:`clip`): it may quote the request, which can be 64 KB long."""

    status = 400
    code = "bad_request"

    def __init__(self, message: str, **extra: Any) -> None:
        message = clip(message)
        super().__init__(message)
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.extra}


class NotFound(ServiceError):
    status, code = 404, "not_found"


class Forbidden(ServiceError):
    status, code = 403, "forbidden"


class LinkUsed(Forbidden):
    """A join link taken already (by someone, maybe its own holder in another browser)."""

    code = "link_used"


class LinkReplaced(Forbidden):
    """A link, or a seat's token, that the host replaced: the seat is someone else's now."""

    code = "link_replaced"


class SeatMoved(Forbidden):
    """A seat's token after its holder moved the seat to another device (a device link taken)."""

    code = "seat_moved"


class LinkNotTaken(Forbidden):
    """A join link's token used as a seat's token: the link has to be taken first."""

    code = "link_not_taken"


SPENT: dict[str, tuple[type[Forbidden], str]] = {
    LINK_USED: (LinkUsed, "This invitation was already used. Ask the host for a new link."),
    LINK_REPLACED: (LinkReplaced, "The host gave this seat to someone else: this link or token no longer opens it. "
                                  "Ask the host for a new link."),
    SEAT_MOVED: (SeatMoved, "This seat was moved to another device: this browser's token no longer opens it."),
}
"""The refusal of a spent token (``spent_tokens.reason``): its class (the ``error`` code) and message."""
HOST_GAVE_IT = "the host gave this seat to someone else"
"""The close reason of a seat's WebSockets (code 4403) when the host replaced its link."""
MOVED_AWAY = "this seat was moved to another device"


class Stale(ServiceError):
    status, code = 409, "stale_index"


class NotOver(ServiceError):
    status, code = 409, "game_not_over"


class Refused(ServiceError):
    """Illegal by the rules (``rule`` names the rule) or by the undo policy."""

    status, code = 422, "illegal"


class MailOff(ServiceError):
    """A seat asked for email from a server whose host configured none."""

    status, code = 409, "mail_not_configured"


class MailBlocked(ServiceError):
    """An address given that unsubscribed from this server through an email's link."""

    status, code = 409, "mail_blocked"


class Finished(ServiceError):
    """An email address given to a game that is over: no turn is left to email about."""

    status, code = 409, "game_over"


class Invalid(ServiceError):
    status, code = 422, "invalid"


class NotOpen(Forbidden):
    """Sitting down at a seat the host did not open to anyone: it waits for its join link."""

    code = "not_open"


class SeatOccupied(ServiceError):
    """An open seat someone sat down at (or took with its link) first."""

    status, code = 409, "seat_taken"


class Broken(ServiceError):
    status, code = 500, "server_error"


@dataclass
class Live:
    """A game in memory: its rows, its rules, the replayed state and what each action said."""

    row: GameRow
    seats: list[SeatRow]
    game: Any
    state: Any
    log: list[ActionRow]
    setup_events: list[Event]
    events: list[list[Event]]
    """``events[i]``: the events of the action at index ``i``."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clock_task: asyncio.Task[None] | None = None
    bot_task: asyncio.Task[None] | None = None
    used: float = field(default_factory=time.monotonic)
    """When a request last used the game (``time.monotonic``), for unloading idle games."""
    busy: int = 0
    """Service calls using the game now: a busy game is never unloaded."""
    stuck: bool = False
    """Its bot failed :data:`MAX_BOT_FAILURES` times: kept loaded, so no reload retries it in a loop."""
    mail_seats: frozenset[int] = frozenset()
    """The seats that asked to be emailed (their addresses stay in the database)."""
    mail_runs: dict[int, int] = field(default_factory=dict)
    """Per seat: the run of decisions (its first index, :data:`GAME_END` for the end) whose email
    this process has looked after already, so an action within the run schedules nothing."""
    mail_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    """Per seat: the task looking after its latest email (waiting, claiming, sending)."""

    def history(self, index: int | None = None) -> str:
        """A fingerprint of the log's first ``index`` actions (all of them by default), sent with
        every index a viewer is told of and given back when it reconnects: a viewer whose log is
        not the game's any more (an undo and another action while it was away, a database put
        back on a backup) is sent the whole log again instead of only what follows its index.
        An HMAC keyed by the game's seed, so it tells nothing of the actions a seat did not
        see (the seed is secret until the game is over, when the record is public)."""
        n = len(self.log) if index is None else index
        text = "\n".join(r.notation for r in self.log[:n])
        return hmac.new(str(self.row.seed).encode(), text.encode(), hashlib.sha256).hexdigest()[:32]

    @property
    def deadline(self) -> float | None:
        """The turn clock's deadline of the pending person's decision (Unix time): the stored
        ``wake_at`` while a person with a clock is to decide. Read off the row, which a commit
        updates before it broadcasts, so a pushed view never shows the previous deadline."""
        state = self.state
        if self.row.clock_seconds is None or state.is_over or self.seat(state.current_player).controller != PERSON:
            return None
        return self.row.wake_at

    @property
    def index(self) -> int:
        """The number of actions played: the ``expected_index`` of the next one."""
        return len(self.log)

    def seat(self, seat: int) -> SeatRow:
        return self.seats[seat]


UNSUBSCRIBE_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,64}")
"""What an unsubscribe link's token looks like (:func:`ecliptic.server.auth.new_token`): anything
else is answered "not known" without asking the database."""
GAME_END = -1
"""The "run" of the game's end in :attr:`Live.mail_runs` (a run's first index is never negative)."""


def run_start(log: Sequence[ActionRow], seat: int) -> int:
    """The index at which ``seat``'s current run of decisions began: its first decision after
    another seat's action. Decisions a seat makes in a row are one turn, emailed once."""
    start = len(log)
    while start > 0 and log[start - 1].seat == seat:
        start -= 1
    return start


def next_wake(state: Any, seats: list[SeatRow], clock_seconds: float | None, now: float) -> float | None:
    """When the game in ``state`` needs the server without a visitor (``games.wake_at``): now
    for a bot's or zombie's decision, the turn clock's deadline for a person's, ``None``
    without a clock or once over."""
    if state.is_over:
        return None
    if seats[state.current_player].controller != PERSON:
        return now
    return None if clock_seconds is None else now + clock_seconds


def distinct_names(names: Sequence[str]) -> list[str]:
    """The seats' names as people are shown them, all different: a name that several seats
    share (two ``Bot (normal)``, two ``Ann``; letter case aside) becomes the name and the seat's
    number counted from 1, as the lobby and the game count seats: ``Bot (normal) 2``, ``Bot
    (normal) 3``. A name no other seat has is kept as it is, so this changes nothing twice."""
    keys = [n.casefold() for n in names]
    shared = {k for k in keys if keys.count(k) > 1}
    taken = {k for k in keys if k not in shared}
    out = []
    for seat, (name, key) in enumerate(zip(names, keys, strict=True)):
        if key in shared:
            tries = [f"{name} {seat + 1}", f"{name} (seat {seat + 1})"]
            tries += (f"{name} (seat {seat + 1}) {n}" for n in range(2, len(names) + 3))
            name = next(t for t in tries if t.casefold() not in taken)
            taken.add(name.casefold())
        out.append(name)
    return out


def rematch_config(game: Any, config: dict[str, Any]) -> dict[str, Any]:
    """A finished game's config for its rematch: the same, with the next seat beginning where
    the game's config names a first player (read off the engine's own config type, which
    checks the result as it checks any config)."""
    engine = build_config(game.config_type, config)
    first = getattr(engine, "first_player", None)
    if not isinstance(first, int):
        return dict(config)
    return {**config, "first_player": (first + 1) % engine.players}


def rematch_token(token: str, game_id: str, seat: int) -> str:
    """``seat``'s token in the rematch ``game_id``, made from its token in the finished game."""
    return auth.derived_token(token, f"rematch {game_id} seat {seat}")


def rematch_admin_token(token: str, game_id: str) -> str:
    return auth.derived_token(token, f"rematch {game_id} admin")


def rematch_link_token(admin_token: str, game_id: str, seat: int) -> str:
    """The join link's token of ``seat`` in the rematch ``game_id``, made from the finished game's
    admin token: for a seat whose person never came (no old token to make its own from)."""
    return auth.derived_token(admin_token, f"rematch {game_id} seat {seat} link")


def plain(data: Any) -> Any:
    """JSON-ready data (tuples become lists; anything else is a bug shown as text)."""
    return json.loads(json.dumps(data, default=str))


def event_out(game: str, e: Event) -> dict[str, Any]:
    """An event as the log shows it: its text with the cards named (:func:`event_text`)."""
    return {"kind": e.kind, "text": event_text(game, e.text), "data": plain(e.data),
            "private": e.visible_to is not None}


def visible_events(game: str, events: list[Event], seat: int | None) -> list[dict[str, Any]]:
    return [event_out(game, e) for e in events if e.visible(seat)]


class GameService:
    def __init__(self, storage: Storage, *, notifier: Notifier | None = None, bots: BotPool | None = None,
                 zombie_level: str = ZOMBIE_LEVEL, base_url: str = "", idle_seconds: float = IDLE_SECONDS,
                 wake_seconds: float = WAKE_SECONDS, resume_when_listening: bool = False,
                 mailer: Mailer | None = None) -> None:
        self.storage = storage
        self.mailer = mailer
        """Sends "your turn" emails; ``None``: the host configured none, and nothing is ever sent."""
        self.mail_retry_wait: Callable[[float], Awaitable[None]] = asyncio.sleep
        """How an email's next try waits its seconds (a test holds it until the game has moved on)."""
        self.notifier: Notifier = notifier or LocalNotifier()
        self.bots = bots or BotPool()
        self.hub = Hub()
        self.zombie_level = zombie_level
        self.base_url = base_url
        self.idle_seconds = idle_seconds
        self.wake_seconds = wake_seconds
        self.resume_when_listening = resume_when_listening
        """Wait for :meth:`listening` before resuming the games due (``ecliptic serve`` calls it
        once uvicorn has bound its socket); otherwise they are resumed as soon as it starts."""
        self._listening: asyncio.Event | None = None
        self._live: dict[str, Live] = {}
        self._shown: dict[str, tuple[Any, int, dict[tuple[int | None, bool], dict[str, Any]]]] = {}
        """Per game: the state and index the presentations were made for, and each seat's."""
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._commits: set[asyncio.Future[None]] = set()
        self._mail_limited: dict[str, float] = {}
        """Per address hash: when this process last logged that the address reached its limit."""
        self.closing = False

    async def _db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def start(self) -> None:
        """Migrate, listen to other processes, and start the background work: resuming the
        games due (at once, or with ``resume_when_listening`` once :meth:`listening` is
        called) and unloading idle ones."""
        before, after = await self._db(self.storage.migrate)
        if before != after:  # a host upgrading reads that the schema moved on, and from where
            log.info("database schema migrated from %s to revision %s", before or "an empty database", after)
        await self.notifier.start(self.sync)
        self._listening = asyncio.Event()
        if not self.resume_when_listening:
            self._listening.set()
        self._spawn(self._wake_due())
        self._spawn(self._unload_idle())

    def listening(self) -> None:
        """The server accepts connections now: resume the games due."""
        if self._listening is not None:
            self._listening.set()

    async def close(self) -> None:
        """Stop the bots and clocks (an action being committed finishes first), then the pool."""
        self.closing = True
        await self.notifier.stop()
        tasks = [t for live in self._live.values() for t in (live.bot_task, live.clock_task) if t is not None]
        tasks += list(self._tasks)
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        if self._commits:
            await asyncio.gather(*self._commits, return_exceptions=True)
        await self.hub.close_all()
        await asyncio.to_thread(self.bots.close)
        self.storage.close()

    def _spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- creating and loading --------------------------------------------------------

    async def create(self, req: models.CreateGame, prefix: Sequence[ActionRow] = (), *,
                     taken: bool = False) -> models.GameCreated:
        """A new game; ``prefix`` are actions it starts with, stored with it in one transaction
        (play on from a finished game's position: :mod:`ecliptic.server.analysis` checks them).

        Each person seat gets a join link, an invitation taken once (:meth:`take`): its token
        plays nothing, so the creator, who is told every link to hand out, holds no seat. With
        ``taken`` (a game made for its asker alone: play on) the seats' tokens are seat tokens."""
        game = get_game(req.game)
        config = dict(req.config)
        config.setdefault("players", len(req.seats))
        if config["players"] != len(req.seats):
            raise Invalid(f"the config names {config['players']!r} players but {len(req.seats)} seats are given")
        seed = req.seed if req.seed is not None else secrets.randbits(63)
        try:
            initial = game.new_game(config, seed)
        except Exception as exc:  # the engine's own checks: a config it refuses is the request's fault
            raise Invalid(f"the game config is not valid: {exc}") from None
        game_id = secrets.token_hex(8)
        admin = auth.new_token()
        rows: list[SeatRow] = []
        created: list[models.SeatCreated] = []
        names = distinct_names([spec.name.strip() or (f"Player {i + 1}" if spec.kind == PERSON
                                                      else f"Bot ({spec.level})") for i, spec in enumerate(req.seats)])
        for i, (spec, name) in enumerate(zip(req.seats, names, strict=True)):
            if spec.kind == PERSON and taken:
                token = auth.new_token()
                rows.append(SeatRow(i, PERSON, name, auth.token_hash(token), None, PERSON))
                created.append(models.SeatCreated(seat=i, name=name, kind=PERSON, token=token,
                                                  join_link=f"{self.base_url}/play/{game_id}#token={token}"))
            elif spec.kind == PERSON:
                token = auth.new_token()
                rows.append(SeatRow(i, PERSON, name, None, None, PERSON, link_hash=auth.token_hash(token),
                                    joined=False, open=spec.open))
                created.append(models.SeatCreated(seat=i, name=name, kind=PERSON, token=token,
                                                  join_link=self.join_link(game_id, i, token)))
            else:
                rows.append(SeatRow(i, BOT, name, None, spec.level, BOT))
                created.append(models.SeatCreated(seat=i, name=name, kind=BOT, token=None, join_link=None))
        start = initial
        for r in prefix:  # (checked by the caller: a replayed finished game's own actions)
            game.apply(start, Action.parse(r.notation))
        now = time.time()
        wake = next_wake(start, rows, req.clock_seconds, now)
        row = GameRow(game_id, req.game, config, seed, len(req.seats), req.clock_seconds, "playing", now,
                      None, auth.token_hash(admin), suggestions=req.suggestions, wake_at=wake)
        await self._db(self.storage.create_game, row, rows, list(prefix))
        await self.live(game_id)  # replays the new game and starts its bots or clock
        return models.GameCreated(id=game_id, admin_token=admin, seats=created)

    def join_link(self, game_id: str, seat: int, token: str) -> str:
        """A seat's join link: the game page, with the seat and the link's token after ``#`` (never
        sent to a server: the page takes the seat with it, then drops it from the address)."""
        return f"{self.base_url}/play/{game_id}#seat={seat}&token={token}"

    def loaded(self, game_id: str) -> Live | None:
        """The game if this process has it in memory (for tests and tools)."""
        return self._live.get(game_id)

    async def live(self, game_id: str) -> Live:
        """The game in memory, replayed from its log on first access."""
        live = self._live.get(game_id)
        if live is not None:
            live.used = time.monotonic()
            return live
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                live = self._live.get(game_id)
                if live is None:
                    live = await self._load(game_id)
                    await self._settle_wake(live)
                    self._live[game_id] = live
                    await self._after_change(live)  # before the first view: it shows the deadline
        finally:
            if not lock.locked():  # (requests for unknown games must not pile up locks)
                self._loading.pop(game_id, None)
        return live

    async def _load(self, game_id: str) -> Live:
        if len(game_id) > 32:
            raise NotFound(f"there is no game {game_id[:32]!r}…")
        row = await self._db(self.storage.game, game_id)
        if row is None:
            raise NotFound(f"there is no game {game_id!r}")
        seats = await self._db(self.storage.seats, game_id)
        rows = await self._db(self.storage.actions, game_id)
        # In a worker thread: a long log (or many games resumed at start) does not stall the loop.
        game, state, setup, events = await asyncio.to_thread(self._replay, row, rows)
        mail = await self._db(self.storage.mail_seats, game_id) if self.mailer is not None else frozenset()
        return Live(row, seats, game, state, rows, setup, events, mail_seats=mail)

    async def _settle_wake(self, live: Live) -> None:
        """Make the stored wake time fit the loaded game where it cannot be right: a bot's
        decision not marked due, a clock with no deadline (a game stored before deadlines
        were), a deadline with no clock to run. A stored deadline that fits is kept, even
        one that passed while the server was down: that seat is zombied at once."""
        now, stored = time.time(), live.row.wake_at
        wanted = next_wake(live.state, live.seats, live.row.clock_seconds, now)
        if wanted is None:
            fixed = None
        elif live.seat(live.state.current_player).controller != PERSON:
            fixed = stored if stored is not None and stored <= now else now
        else:
            fixed = wanted if stored is None else stored
        if fixed != stored:
            await self._db(self.storage.set_wake, live.row.id, fixed)
            live.row = replace(live.row, wake_at=fixed)

    @contextlib.asynccontextmanager
    async def _using(self, game_id: str) -> AsyncIterator[Live]:
        """The game, held busy (never unloaded) until the block ends."""
        live = await self.live(game_id)
        with self._busy(live):
            yield live

    @staticmethod
    @contextlib.contextmanager
    def _busy(live: Live) -> Iterator[None]:
        live.busy += 1
        try:
            yield
        finally:
            live.busy -= 1
            live.used = time.monotonic()

    def _replay(self, row: GameRow, rows: list[ActionRow]) -> tuple[Any, Any, list[Event], list[list[Event]]]:
        game = get_game(row.game)
        state, setup = game.new_game_events(row.config, row.seed)
        events: list[list[Event]] = []
        for r in rows:
            try:
                events.append(game.apply(state, Action.parse(r.notation)))
            except IllegalAction as exc:
                raise Broken(f"game {row.id}: stored action {r.index} cannot be replayed ({exc})") from None
        return game, state, setup, events

    # -- who is asking ---------------------------------------------------------------

    def seat_of(self, live: Live, token: str | None) -> int | None:
        return auth.find_seat(token, ((s.seat, s.token_hash) for s in live.seats))

    def is_admin(self, live: Live, token: str | None) -> bool:
        return auth.matches(token, live.row.admin_hash)

    async def authenticate(self, live: Live, token: str | None) -> int:
        """The seat of ``token`` (403 otherwise). A seat a zombie plays is its person's again."""
        seat = self.seat_of(live, token)
        if seat is None and token is not None and await self._reload_claims(live):
            seat = self.seat_of(live, token)
        if seat is None and token is not None:
            await self._refuse_spent(live, token)
        if seat is None:
            raise Forbidden("a seat token is needed (Authorization: Bearer <token>), and this is none of this game's")
        if live.seat(seat).controller == ZOMBIE:
            with self._busy(live):
                await self._set_controller(live, seat, PERSON)
        return seat

    async def _reload_claims(self, live: Live) -> bool:
        """A seat may have been given its token by another server process (a rematch's seat, or
        the admin, coming for theirs; a join link taken there): read the stored seats when one is
        waiting for its token. Whether any arrived."""
        if (all(s.token_hash is not None and s.link_hash is None for s in live.seats if s.kind == PERSON)
                and live.row.admin_hash != UNCLAIMED):
            return False
        with self._busy(live):
            stored = {s.seat: s for s in await self._db(self.storage.seats, live.row.id)}
            row = await self._db(self.storage.game, live.row.id)
        changed = False
        seats = []
        for s in live.seats:
            new = stored.get(s.seat)
            if new is not None and new != s:
                s, changed = new, True
            seats.append(s)
        live.seats = seats
        if row is not None and live.row.admin_hash == UNCLAIMED and row.admin_hash != UNCLAIMED:
            live.row, changed = replace(live.row, admin_hash=row.admin_hash), True
        return changed

    async def _who(self, live: Live, token: str | None) -> tuple[int | None, bool]:
        """The seat of ``token`` (or ``None``) and whether it is the admin's: a check that refuses
        nobody (the caller decides)."""
        seat, admin = self.seat_of(live, token), self.is_admin(live, token)
        if seat is None and not admin and token is not None and await self._reload_claims(live):
            seat, admin = self.seat_of(live, token), self.is_admin(live, token)
        if seat is None and not admin and token is not None:
            await self._refuse_spent(live, token)
        return seat, admin

    async def _refuse_spent(self, live: Live, token: str) -> None:
        """Refuse a token that opens no seat with why, when the server knows: a join link not taken
        yet (:class:`LinkNotTaken`), or a token spent (:data:`SPENT`: a link used, replaced, a seat
        moved). Returns for a token the game never had (the caller's own refusal follows)."""
        if len(token) > auth.MAX_TOKEN_LENGTH:
            return
        with self._busy(live):  # (first: this process's seats may not know yet that a link was taken elsewhere)
            reason = await self._db(self.storage.spent, live.row.id, auth.token_hash(token))
        if reason in SPENT:
            refusal, message = SPENT[reason]
            raise refusal(message)
        if auth.find_seat(token, ((s.seat, s.link_hash) for s in live.seats)) is not None:
            raise LinkNotTaken("this is a join link's token, which plays no seat: open the link in a browser "
                               "(or POST /api/games/{id}/seats/{seat}/take with it) to take the seat first")

    async def viewer(self, live: Live, token: str | None) -> int | None:
        """A seat for a seat token, ``None`` (a spectator) without a token; 403 for a wrong one."""
        if token is None:
            return None
        return await self.authenticate(live, token)

    # -- views -------------------------------------------------------------------------

    @staticmethod
    def _infos(seats: Sequence[SeatRow]) -> list[models.SeatInfo]:
        """The seats as every viewer is told of them, by names all different (a game stored
        before names were made so has them made so here)."""
        names = distinct_names([s.name for s in seats])
        return [models.SeatInfo(seat=s.seat, name=name, kind=s.kind, controller=s.controller,
                                joined=s.joined or s.kind != PERSON, open=s.open and not s.joined)
                for s, name in zip(seats, names, strict=True)]

    def seat_infos(self, live: Live) -> list[models.SeatInfo]:
        return self._infos(live.seats)

    def not_yours(self, live: Live) -> str:
        """The refusal of a seat's action out of turn, naming the seat to decide as every
        viewer sees it named (no seat index: people count seats from 1, the API from 0)."""
        return f"it is not your decision: {self.seat_infos(live)[live.state.current_player].name} is to decide"

    def view(self, live: Live, seat: int | None, *, with_refused: bool = False) -> dict[str, Any]:
        """The GameView of ``seat`` (``None``: a spectator) as JSON-ready data. The refused
        candidates (often 200 rows, five times the observation) are sent only when asked
        for (``GET /api/games/{id}?refused=true``: a player inspecting "why not"), never
        pushed with every action."""
        state, game = live.state, live.game
        obs = plain(game.observe(state, seat))
        # Every viewer is sent a view after each action: the presentation (which tries each
        # legal action on determinized copies) is computed once per state and seat.
        cached_state, cached_index, shown_by_seat = self._shown.get(live.row.id, (None, -1, {}))
        if cached_state is not state or cached_index != live.index:
            shown_by_seat = {}
            self._shown[live.row.id] = (state, live.index, shown_by_seat)
        shown = shown_by_seat.get((seat, with_refused))
        if shown is None:
            shown = shown_by_seat[(seat, with_refused)] = present(game, state, seat, obs, with_refused=with_refused)
        space = game.action_space(state)
        legal = [models.LabelledAction(id=space.id(Action.parse(row["notation"])), **row)
                 for row in shown["legal_actions"]]
        last = live.log[-1] if live.log else None
        undoable = (seat is not None and last is not None and last.seat == seat and last.actor == PERSON
                    and last.undoable and not state.is_over)
        return models.GameView(
            id=live.row.id, game=live.row.game, status=live.row.status, index=live.index, seat=seat,
            current_seat=state.current_player, seats=self.seat_infos(live), view=obs, legal_actions=legal,
            undoable=undoable, deadline=live.deadline, present=models.Present.model_validate(shown["present"]),
            refused=[models.RefusedAction(**row) for row in shown["refused"]],
            rematch=None if live.row.rematch_id is None else models.Rematch(id=live.row.rematch_id)).model_dump()

    def summary(self, row: GameRow, index: int, seats: list[SeatRow] | None) -> models.GameSummary:
        live = self._live.get(row.id)
        if live is not None:
            row, index, seats = live.row, live.index, live.seats
        infos = self._infos(seats or [])
        return models.GameSummary(id=row.id, game=row.game, players=row.players, status=row.status, index=index,
                                  created_at=row.created_at, clock_seconds=row.clock_seconds, seats=infos,
                                  rematch=row.rematch_id)

    async def list_games(self, *, open_only: bool = False) -> list[models.GameSummary]:
        """The newest games (``open_only``: those in play with a seat anyone may sit down at)."""
        found = await self._db(self.storage.list_games, open_only=open_only)
        out = []
        for row, n in found:
            seats = self._live[row.id].seats if row.id in self._live else await self._db(self.storage.seats, row.id)
            out.append(self.summary(row, n, seats))
        return out

    # -- actions ---------------------------------------------------------------------

    async def submit(self, game_id: str, seat: int, action: str | int, expected_index: int,
                     actor: str = PERSON, token: str | None = None) -> tuple[int, list[dict[str, Any]]]:
        """Apply ``seat``'s action: 409 if ``expected_index`` is stale, 403 if it is not the
        seat's decision (or a bot plays the seat), 422 if the rules refuse it. Committed
        before it is acknowledged or broadcast; a refusal stores and sends nothing. ``token``:
        the person's, which the database must still hold for the seat (:meth:`_holder`)."""
        async with self._using(game_id) as live:
            async with live.lock:
                if expected_index != live.index:
                    raise Stale(f"the game is at index {live.index}, not {expected_index}: another action came first",
                                index=live.index)
                controller = live.seat(seat).controller
                if actor == PERSON and controller == BOT:
                    raise Forbidden(BOT_PLAYS_IT)
                if actor != PERSON and controller == PERSON:
                    raise Forbidden(f"seat {seat}'s person plays it again")
                state, game = live.state, live.game
                if not state.is_over and state.current_player != seat:
                    raise Forbidden(self.not_yours(live))
                parsed = self._parse(game, state, action)
                after = state.clone()
                try:
                    events = game.apply(after, parsed)
                except IllegalAction as exc:
                    raise Refused(exc.reason, rule=exc.rule) from None
                except Exception as exc:  # an engine bug: the copy is dropped, nothing changed
                    log.exception("engine failure in game %s at index %s", game_id, live.index)
                    raise Broken(f"the rules engine failed on this action ({type(exc).__name__})") from None
                undoable = actor == PERSON and why_not_undoable(game, state, parsed, events, after, seat) is None
                row = ActionRow(live.index, seat, str(parsed), actor, undoable)
                # Shielded and awaited by close(): a shutdown that cancels the caller still lets the
                # commit and the live state end in agreement.
                commit = asyncio.ensure_future(self._commit(live, row, after, events, self._holder(token)))
                self._commits.add(commit)
                commit.add_done_callback(self._commits.discard)
                try:
                    await asyncio.shield(commit)
                except SeatGone:
                    await self._refuse_gone(live, token)
                index = live.index
            await self.notifier.publish(game_id, index)
            await self._after_change(live)
        return index, visible_events(live.row.game, events, seat)

    def _parse(self, game: Any, state: Any, action: str | int) -> Action:
        try:
            if isinstance(action, int):
                return game.action_space(state).action(action)  # type: ignore[no-any-return]
            return Action.parse(action)
        except IllegalAction as exc:
            raise Refused(exc.reason, rule=exc.rule) from None

    @staticmethod
    def _holder(token: str | None) -> str | None:
        """The hash the database must hold for the acting seat: a person's action (or chat
        message) is stored only while its token opens the seat there too, so a seat given away
        (or moved) through another server process is refused here before that process's notice
        arrives."""
        return None if token is None else auth.token_hash(token)

    async def _refuse_gone(self, live: Live, token: str | None) -> NoReturn:
        """Refuse an action whose token the database no longer holds for its seat, saying why,
        after bringing this process's seats (and their WebSockets) up to the database."""
        await self._reload_seats(live)
        if token is not None:
            await self._refuse_spent(live, token)
        raise Forbidden("this token no longer opens the seat")

    async def _commit(self, live: Live, row: ActionRow, after: Any, events: list[Event],
                      seat_hash: str | None) -> None:
        wake = next_wake(after, live.seats, live.row.clock_seconds, time.time())
        try:
            await self._db(self.storage.append_action, live.row.id, row, game_over=after.is_over, wake_at=wake,
                           seat_hash=seat_hash)
        except Conflict:
            self._spawn(self.sync(live.row.id, -1))
            raise Stale("another action was stored at this index first", index=row.index) from None
        live.state = after
        live.log.append(row)
        live.events.append(events)
        live.row = replace(live.row, wake_at=wake)
        if after.is_over:
            live.row = replace(live.row, status="over", finished_at=time.time())
        self.hub.send(live.row.id, lambda viewer: self._action_message(live, row, events, viewer))

    def _action_message(self, live: Live, row: ActionRow, events: list[Event], viewer: int | None) -> Message:
        # ``actor``: who played it (person, bot, zombie), so that a log never credits a person with
        # the move a bot made for them (their turn clock ran out, or they handed the seat over).
        return {"type": "action", "index": row.index + 1, "seat": row.seat, "actor": row.actor,
                "history": live.history(row.index + 1),
                "events": visible_events(live.row.game, events, viewer), "view": self.view(live, viewer)}

    # -- undo --------------------------------------------------------------------------

    async def undo(self, game_id: str, seat: int, expected_index: int, token: str | None = None) -> int:
        async with self._using(game_id) as live:
            async with live.lock:
                if expected_index != live.index:
                    raise Stale(f"the game is at index {live.index}, not {expected_index}", index=live.index)
                if not live.log:
                    raise Refused("there is no action to take back", rule="UNDO")
                last = live.log[-1]
                if last.seat != seat:
                    raise Refused("only your own last action can be taken back, and another player has acted since",
                                  rule="UNDO")
                if last.actor == REPLAY:
                    raise Refused("that action was copied from the finished game this one plays on from; "
                                  "the copied actions cannot be taken back", rule="UNDO")
                if last.actor != PERSON:
                    raise Refused("a bot played that action; it cannot be taken back", rule="UNDO")
                if live.state.is_over:
                    raise Refused("the game is over", rule="UNDO")
                game, before, _, events = self._replay(live.row, live.log[:-1])
                after = before.clone()
                action = Action.parse(last.notation)
                told = game.apply(after, action)
                reason = why_not_undoable(game, before, action, told, after, seat)
                if reason is not None:
                    raise Refused(f"that action cannot be taken back: {reason}", rule="UNDO")
                wake = next_wake(before, live.seats, live.row.clock_seconds, time.time())
                try:
                    await self._db(self.storage.undo_last, game_id, last.index, wake_at=wake, seat=seat,
                                   seat_hash=self._holder(token))
                except Conflict:
                    self._spawn(self.sync(game_id, -1))
                    raise Stale("the log changed first", index=live.index) from None
                except SeatGone:
                    await self._refuse_gone(live, token)
                live.state, live.events = before, events
                live.log.pop()
                live.row = replace(live.row, wake_at=wake)
                self.hub.send(game_id, lambda viewer: {"type": "undo", "index": live.index, "history": live.history(),
                                                       "view": self.view(live, viewer)})
                index = live.index
            await self.notifier.publish(game_id, index)
            await self._after_change(live)
        return index

    # -- seats: bots, zombies, the turn clock -------------------------------------------

    async def handover(self, game_id: str, seat: int, token: str | None, bot: bool, level: str | None) -> None:
        async with self._using(game_id) as live:
            if not 0 <= seat < len(live.seats):
                raise NotFound(f"game {game_id} has no seat {seat}")
            asker, admin = await self._who(live, token)
            if not admin and asker != seat:
                raise Forbidden("the admin token or this seat's token is needed")
            s = live.seat(seat)
            if bot:
                await self._set_controller(live, seat, BOT, level or s.bot_level or self.zombie_level)
            else:
                if s.kind == BOT:
                    raise Invalid(f"seat {seat} was created for a bot; it has no person to take it back")
                await self._set_controller(live, seat, PERSON)

    # -- join links: invitations taken once ------------------------------------------------

    def _person_seat(self, live: Live, seat: int) -> SeatRow:
        if not 0 <= seat < len(live.seats):
            raise NotFound(f"game {live.row.id} has no seat {seat} (its seats are 0 to {len(live.seats) - 1})")
        s = live.seat(seat)
        if s.kind != PERSON:
            raise NotFound(f"seat {seat} of game {live.row.id} is a bot's: it has no join link")
        return s

    async def take(self, game_id: str, seat: int, token: str | None) -> models.SeatTaken:
        """Take ``seat`` with its join link's ``token``: the answer holds a fresh token, the seat's
        from now on (only its hash is stored), and the link is spent: a second take (a forwarded
        link, a second tab, another process at the same moment: the database decides) is refused
        ``link_used``. A device link taken moves the seat: the old device's WebSockets are closed
        (4403) and its token is refused ``seat_moved``. The seat's own token is given back as it is."""
        async with self._using(game_id) as live:
            self._person_seat(live, seat)
            if token is None:
                raise Forbidden("the join link's token is needed (Authorization: Bearer <token>)")
            new = auth.new_token()
            done = Take.NOT_A_LINK
            name = self.seat_infos(live)[seat].name
            async with live.lock:  # (a sync reads the seats under it: none puts back what it read before this)
                if len(token) <= auth.MAX_TOKEN_LENGTH:
                    done = await self._db(self.storage.take_seat, game_id, seat, auth.token_hash(token),
                                          auth.token_hash(new))
                if done is not Take.HELD:  # (taken here, or maybe elsewhere)
                    live.seats = await self._db(self.storage.seats, game_id)
                if done is Take.TAKEN:
                    self._seat_changed(live, seat)
            if done is Take.HELD:
                return models.SeatTaken(seat=seat, name=name, token=token, taken=False)
            if done is Take.NOT_A_LINK:
                await self._refuse_spent(live, token)
                raise Forbidden(f"this is not the join link of seat {seat} of this game")
        await self.notifier.publish(game_id, -1)  # (other processes read the seats again)
        return models.SeatTaken(seat=seat, name=name, token=new, taken=True)

    # -- open seats: anyone may sit down ---------------------------------------------------

    async def sit(self, game_id: str, seat: int, name: str) -> models.SeatTaken:
        """Seat the asker at the open ``seat`` (the host opened it to anyone: the lobby's open
        tables) under ``name`` (empty: the seat's name stays): the answer holds the seat's token
        from now on, and its join link is spent as if taken. Whoever comes first is seated (the
        database decides between two at one moment); the later one is refused ``seat_taken``."""
        async with self._using(game_id) as live:
            self._person_seat(live, seat)
            if live.state.is_over:
                raise Finished("the game is over: there is no seat left to sit down at")
            token = auth.new_token()
            async with live.lock:
                done = await self._db(self.storage.sit, game_id, seat, auth.token_hash(token), name or None)
                live.seats = await self._db(self.storage.seats, game_id)
                if done is Sit.SAT:
                    self._seat_changed(live, seat)
            if done is Sit.NOT_OPEN:
                raise NotOpen(f"seat {seat + 1} is not open to anyone: it waits for the person the host invited")
            if done is Sit.TAKEN:
                raise SeatOccupied(f"someone sat down at seat {seat + 1} first; choose another open seat")
            seated = self.seat_infos(live)[seat].name
        await self.notifier.publish(game_id, -1)  # (other processes read the seats again)
        return models.SeatTaken(seat=seat, name=seated, token=token, taken=True)

    async def set_open(self, game_id: str, seat: int, token: str | None, open_: bool) -> models.SeatInfo:
        """The host (the admin token) opens ``seat`` to anyone, or closes it again: an open seat
        nobody has joined is offered in the lobby's open tables. A seat its person holds is not
        opened (``seat_taken``): the host gives it a new link first, to free it."""
        async with self._using(game_id) as live:
            self._person_seat(live, seat)
            if not (await self._who(live, token))[1]:
                raise Forbidden("the admin token is needed (Authorization: Bearer <token>): only the host "
                                "opens a seat to anyone")
            if open_ and live.state.is_over:
                raise Finished("the game is over: there is no seat left to open")
            async with live.lock:
                done = await self._db(self.storage.set_open, game_id, seat, open_)
                live.seats = await self._db(self.storage.seats, game_id)
                if done is Sit.SAT:
                    self._seat_changed(live, seat)
            if done is Sit.TAKEN:
                raise SeatOccupied(f"seat {seat + 1} has its person: give it a new link first to open it to anyone")
            info = self.seat_infos(live)[seat]
        await self.notifier.publish(game_id, -1)
        return info

    async def replace_link(self, game_id: str, seat: int, token: str | None) -> models.SeatLink:
        """The host (the admin token) gives ``seat`` a new join link, for a new person: the seat's
        link and token are spent (their holders are refused ``link_replaced``), its WebSockets are
        closed with 4403, and its email address is forgotten."""
        async with self._using(game_id) as live:
            self._person_seat(live, seat)
            if not (await self._who(live, token))[1]:
                raise Forbidden("the admin token is needed (Authorization: Bearer <token>): only the host "
                                "gives a seat a new join link")
            link = await self._new_link(live, seat, keep_token=False)
        await self.notifier.publish(game_id, -1)
        return link

    async def device_link(self, game_id: str, seat: int, token: str | None) -> models.SeatLink:
        """Play on another device: the seat's own token makes a one-use link for the seat. The seat
        stays this device's until the link is taken; then it is the other device's only."""
        async with self._using(game_id) as live:
            self._person_seat(live, seat)
            if (await self._who(live, token))[0] != seat:
                raise Forbidden("this seat's own token is needed (Authorization: Bearer <token>): only the "
                                "seat's player moves it to another device")
            link = await self._new_link(live, seat, keep_token=True)
        await self.notifier.publish(game_id, -1)
        return link

    async def _new_link(self, live: Live, seat: int, *, keep_token: bool) -> models.SeatLink:
        """A new join link for ``seat`` (:meth:`Storage.replace_link`), asked by the host (the seat
        goes to a new person: its email address goes, its sockets are closed) or, ``keep_token``,
        by the seat itself (it stays this device's until the link is taken)."""
        token = auth.new_token()
        async with live.lock:
            await self._db(self.storage.replace_link, live.row.id, seat, auth.token_hash(token), keep_token=keep_token)
            live.seats = await self._db(self.storage.seats, live.row.id)
            if not keep_token:
                live.mail_seats = live.mail_seats - {seat}
                self._seat_changed(live, seat)
        return models.SeatLink(seat=seat, name=self.seat_infos(live)[seat].name, token=token,
                               join_link=self.join_link(live.row.id, seat, token))

    def _seat_changed(self, live: Live, seat: int) -> None:
        """Tell every viewer the seat's news (``joined``), after closing (4403) the seat's
        WebSockets whose token no longer opens it."""
        self._close_stale(live)
        s = live.seat(seat)
        self.hub.send(live.row.id, lambda viewer: {"type": "seat", "seat": seat, "controller": s.controller,
                                                   "view": self.view(live, viewer)})

    def _close_stale(self, live: Live) -> None:
        """Close (4403) the seats' WebSockets authenticated with a token their seat no longer has:
        the host gave the seat to someone else (it waits for its new link), or it moved to another device."""
        for conn in self.hub.connections(live.row.id):
            if conn.seat is not None and not auth.matches(conn.token, live.seat(conn.seat).token_hash):
                # (closed first: removing it from the hub closes it with 1000)
                conn.close(4403, MOVED_AWAY if live.seat(conn.seat).joined else HOST_GAVE_IT)
                self.hub.remove(conn)

    async def _set_controller(self, live: Live, seat: int, controller: str, level: str | None = None, *,
                              clock_at: int | None = None) -> None:
        """Hand ``seat`` to ``controller``, stored with the game's new wake time when the
        seat is the one to decide. Under the game's lock, so no action falls between the
        check and the change; ``clock_at``: only if the game is still at that index with
        the seat's person to decide (a turn clock running out)."""
        async with live.lock:
            s = live.seat(seat)
            state = live.state
            if clock_at is not None:
                if live.index != clock_at or state.is_over or state.current_player != seat or s.controller != PERSON:
                    return
                log.info("game %s: seat %s's turn clock ran out; a bot plays it", live.row.id, seat)
            if s.controller == controller and (level is None or level == s.bot_level):
                return
            seats = list(live.seats)
            seats[seat] = replace(s, controller=controller, bot_level=level or s.bot_level)
            wake: Wake = KEEP
            if not state.is_over and state.current_player == seat:
                wake = next_wake(state, seats, live.row.clock_seconds, time.time())
            await self._db(self.storage.set_controller, live.row.id, seat, controller, level=level, wake_at=wake)
            live.seats = seats
            live.stuck = False  # a seat changing hands gives its bot another go
            if wake is not KEEP:
                live.row = replace(live.row, wake_at=wake)
            self.hub.send(live.row.id, lambda viewer: {"type": "seat", "seat": seat, "controller": controller,
                                                       "view": self.view(live, viewer)})
        await self._after_change(live)

    async def _after_change(self, live: Live) -> None:
        """Start the bot or the turn clock the next decision needs (the clock runs to the
        stored deadline, so a restart or another process keeps it)."""
        if self.closing:
            return
        self._mail_due(live)
        state = live.state
        if live.clock_task is not None and live.clock_task is not asyncio.current_task():
            live.clock_task.cancel()
        live.clock_task = None
        if state.is_over:
            return
        seat = state.current_player
        if live.seat(seat).controller != PERSON:
            if (live.bot_task is None or live.bot_task.done()) and not live.stuck:
                live.bot_task = asyncio.ensure_future(self._play_bots(live))
        elif live.row.clock_seconds is not None and live.row.wake_at is not None:
            live.clock_task = asyncio.ensure_future(self._clock(live, live.index, seat, live.row.wake_at))

    async def _clock(self, live: Live, index: int, seat: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        if live.clock_task is asyncio.current_task():
            live.clock_task = None
        await self._set_controller(live, seat, ZOMBIE, clock_at=index)

    async def _play_bots(self, live: Live) -> None:
        failures = 0
        while not self.closing and not live.state.is_over:
            seat = live.state.current_player
            s = live.seat(seat)
            if s.controller == PERSON:
                return
            index = live.index
            turn = BotTurn(live.row.game, live.row.config, live.row.seed, tuple(r.notation for r in live.log), seat,
                           s.bot_level or self.zombie_level)
            try:
                notation = await self.bots.choose(turn)
                await self.submit(live.row.id, seat, notation, index, actor=s.controller)
            except Stale:
                # Another process (or a person) stored an action at this index first: the
                # database kept one, this move is dropped. Catch up before thinking again.
                await self.sync(live.row.id, -1)
            except Forbidden:
                continue  # the seat changed hands meanwhile: the loop looks again
            except asyncio.CancelledError:
                raise
            except Exception:
                failures += 1
                log.exception("game %s: the bot of seat %s failed", live.row.id, seat)
                if failures >= MAX_BOT_FAILURES:
                    live.stuck = True
                    return

    # -- email when it is a seat's turn ------------------------------------------------------

    def mail_offered(self) -> bool:
        return self.mailer is not None

    async def mail_setting(self, game_id: str, seat: int, token: str | None) -> models.MailSetting:
        """``seat``'s own email setting, for its token only (no other seat, no admin, no spectator)."""
        async with self._using(game_id) as live:
            await self._mail_seat(live, seat, token)
            address = await self._db(self.storage.mail_address, game_id, seat) if self.mailer is not None else None
        return models.MailSetting(offered=self.mailer is not None, seat=seat, address=address,
                                  over=bool(live.state.is_over))

    async def set_mail(self, game_id: str, seat: int, token: str | None, address: str | None) -> models.MailSetting:
        """Store (or, with ``None``, forget) ``seat``'s address, asked with that seat's token.

        Giving it counts from the seat's next turn: the turn it is in is claimed with the new
        row, as its open page would claim it (:meth:`_mail`), and a finished game takes no
        address. Otherwise taking an address back and giving it again, in a loop, would send
        an email each time, to any address typed (a game over emails at once)."""
        async with self._using(game_id) as live:
            await self._mail_seat(live, seat, token)
            if self.mailer is None and address is not None:
                raise MailOff("this server sends no email: its host has not configured SMTP and a public address")
            state = live.state
            if address is not None and state.is_over:
                raise Finished("the game is over: there is no turn left to email you about")
            if address is not None and await self._db(self.storage.mail_is_blocked, address):
                raise MailBlocked("this address asked not to get emails from this server "
                                  "(through the unsubscribe link of one of its emails)")
            # Under the game's lock: a sync (another process's notice, or this one's own after a seat
            # was taken) reads the stored seats under it, and must not put back what it read before this.
            async with live.lock:
                claimed = run_start(live.log, seat) if state.current_player == seat else None
                await self._db(self.storage.set_mail, game_id, seat, address, claimed=claimed)
                live.mail_seats = (live.mail_seats | {seat}) if address is not None else (live.mail_seats - {seat})
            self._mail_due(live)
        return models.MailSetting(offered=self.mailer is not None, seat=seat, address=address,
                                  over=bool(state.is_over))

    async def _mail_seat(self, live: Live, seat: int, token: str | None) -> None:
        if not 0 <= seat < len(live.seats):
            raise NotFound(f"game {live.row.id} has no seat {seat}")
        if live.seat(seat).kind != PERSON:
            raise NotFound(f"seat {seat} of game {live.row.id} is a bot's: it gets no email")
        if (await self._who(live, token))[0] != seat:
            raise Forbidden("this seat's own token is needed (Authorization: Bearer <token>): "
                            "only the seat's player sets or reads its email address")

    def _seat_here(self, game_id: str, seat: int) -> bool:
        """Whether a page (a WebSocket) of ``seat`` is connected to this process."""
        return any(c.seat == seat for c in self.hub.connections(game_id))

    def _mail_due(self, live: Live) -> None:
        """Start looking after the email the game's new position may bring: its end for every
        seat that asked, else the run of decisions of the person to decide now. Once per run."""
        if self.mailer is None or not live.mail_seats or self.closing:
            return
        state = live.state
        if state.is_over:
            due = [(seat, GAME_END) for seat in sorted(live.mail_seats)]
        else:
            seat = state.current_player
            if seat not in live.mail_seats or live.seat(seat).controller != PERSON:
                return
            due = [(seat, run_start(live.log, seat))]
        for seat, run in due:
            if live.mail_runs.get(seat) != run:
                live.mail_runs[seat] = run
                live.mail_tasks[seat] = self._spawn(self._mail(live, seat, run))

    def _mail_still_due(self, live: Live, seat: int, run: int) -> bool:
        state = live.state
        if run == GAME_END:
            return bool(state.is_over)
        return (not state.is_over and state.current_player == seat and live.seat(seat).controller == PERSON
                and run_start(live.log, seat) == run)

    async def _mail(self, live: Live, seat: int, run: int) -> None:
        """Wait for the seat's decision to be still pending after the delay (the end is told at
        once), then claim the email in the database and send it unless a page of the seat is
        connected here: then it is claimed as seen, so no other process sends it either."""
        assert self.mailer is not None
        game_id = live.row.id
        with self._busy(live):  # (not unloaded while it waits)
            if run != GAME_END and not self._seat_here(game_id, seat) and self.mailer.settings.delay > 0:
                await asyncio.sleep(self.mailer.settings.delay)
            if not self._mail_still_due(live, seat, run) or seat not in live.mail_seats:
                return
            seen = self._seat_here(game_id, seat)
            try:
                address = await self._db(self.storage.claim_mail, game_id, seat, None if run == GAME_END else run)
            except Exception as exc:  # the database is away: this email is not sent
                log.warning("game %s: the email of seat %s could not be claimed: %s: %s",
                            game_id, seat, type(exc).__name__, exc)
                return
            if run == GAME_END:
                live.mail_seats = live.mail_seats - {seat}  # (its row, and address, went with the claim)
            if address is None or seen:
                return
            try:
                permit = await self._db(self.storage.permit_mail, address, self.mailer.settings.per_hour)
            except Exception as exc:  # the database is away: this email is not sent
                log.warning("game %s: the email of seat %s could not be claimed: %s: %s",
                            game_id, seat, type(exc).__name__, exc)
                return
            if permit is MailSkip.BLOCKED:
                live.mail_seats = live.mail_seats - {seat}
                log.info("game %s: seat %s is not emailed: its address unsubscribed from this server", game_id, seat)
                return
            if permit is MailSkip.LIMIT:
                self._log_limit(address, game_id, seat)
                return
            assert isinstance(permit, str)
            name = self.seat_infos(live)[seat].name
            if run == GAME_END:
                message = over_message(self.mailer.settings, game=live.row.game, game_id=game_id, seat_name=name,
                                       to=address, results=self._results(live), unsubscribe=permit)
            else:
                message = turn_message(self.mailer.settings, game=live.row.game, game_id=game_id, seat_name=name,
                                       to=address, waiting_since=self._turn_reason(live, run), unsubscribe=permit)
        await self._send_mail(live, seat, run, message)

    async def _send_mail(self, live: Live, seat: int, run: int, message: EmailMessage) -> None:
        """Send a claimed email; a failure that may pass is tried again after each of the
        settings' ``retries`` while the email is still due (the seat still to decide the same
        run, no page of it open here, its address not taken back). The claim stays with this
        process: a restart meanwhile drops the email, as it drops any claimed one."""
        assert self.mailer is not None
        game_id = live.row.id
        what = f"seat {seat} of game {game_id}"
        waits = self.mailer.settings.retries
        with self._busy(live):
            for i in range(len(waits) + 1):
                if i:
                    await self.mail_retry_wait(waits[i - 1])
                    if (self.closing or not self._mail_still_due(live, seat, run)
                            or (run != GAME_END and (seat not in live.mail_seats or self._seat_here(game_id, seat)))):
                        log.info("the email to %s is not tried again: it is no longer due", what)
                        return
                if await self.mailer.send(message, what, waits[i] if i < len(waits) else None) is not Sent.AGAIN:
                    return

    def _log_limit(self, address: str, game_id: str, seat: int) -> None:
        """One INFO line per address and hour, however many emails it skips (never the address)."""
        assert self.mailer is not None
        now = time.monotonic()
        self._mail_limited = {h: t for h, t in self._mail_limited.items() if now - t < 3600}
        hashed = address_hash(address)
        if hashed not in self._mail_limited:
            self._mail_limited[hashed] = now
            log.info("game %s: seat %s is not emailed: its address had %d emails from this server in the "
                     "last hour (the limit); its emails are skipped until the hour has passed",
                     game_id, seat, self.mailer.settings.per_hour)

    async def unsubscribe(self, token: str, *, confirm: bool) -> bool | None:
        """The unsubscribe link's ``token``: ``None`` if no email had it, else whether its address
        was blocked already; with ``confirm``, block it (every game of this server)."""
        if not UNSUBSCRIBE_TOKEN.fullmatch(token):
            return None
        return await self._db(self.storage.unsubscribe, token, confirm=confirm)

    def _turn_reason(self, live: Live, run: int) -> str:
        """What brought the seat's turn, as every seat may read it: who played before it."""
        if run == 0:
            return "the game has begun"
        before = live.log[run - 1].seat
        return f"{self.seat_infos(live)[before].name} has played"

    def _results(self, live: Live) -> list[str]:
        """The end as every viewer sees it (the public observation): the winners and the scores."""
        obs = live.game.observe(live.state, None)
        names = [s.name for s in self.seat_infos(live)]
        lines = []
        scores = obs.get("final_scores")
        if isinstance(scores, list | tuple) and len(scores) == len(names):
            for name, score in zip(names, scores, strict=True):
                total = score.get("total") if isinstance(score, dict) else score
                lines.append(f"{name}: {total}")
        winners = [names[w] for w in obs.get("winners") or [] if isinstance(w, int) and 0 <= w < len(names)]
        if winners:
            lines.append(("Winner: " if len(winners) == 1 else "Winners: ") + " and ".join(winners))
        return lines

    # -- play again: the rematch ----------------------------------------------------------

    async def rematch(self, game_id: str, token: str | None) -> tuple[bool, models.RematchMade]:
        """The finished game's rematch, made by the first request of a seat or the admin
        (``True``) and found by every later one: the same game, config (the next seat first),
        seats, bots, clock and options, a new seed. The answer holds the asker's own new token
        only; each other seat's goes to that seat's connections."""
        async with self._using(game_id) as live:
            seat, admin = await self._who(live, token)
            if seat is None and not admin:
                raise Forbidden("a seat token or the admin token of this game is needed "
                                "(Authorization: Bearer <token>)")
            if not live.state.is_over:
                raise NotOver("a rematch is made once the game is over: finish this one first")
            made = learnt = False
            async with live.lock:  # (one request of this process at a time; the database decides between processes)
                if live.row.rematch_id is None:
                    made = await self._make_rematch(live)
                    # Made here, or found made by another process whose notice is not here yet
                    # (it then finds the rematch known and tells nobody): this process's seats
                    # are told now, in both cases.
                    learnt = True
            new_id = live.row.rematch_id
            assert new_id is not None and token is not None
            given = {seat: token} if seat is not None else {}
            if learnt:
                given.update({c.seat: c.token for c in self.hub.connections(game_id)
                              if c.seat is not None and c.token is not None and c.seat != seat})
            tokens, admin_token = await self._issue(new_id, given, token if admin else None)
            links = await self._rematch_links(live, new_id, token) if admin else []
            if made:
                await self.live(new_id)  # replays it and starts its bots or clock
            if learnt:
                self._send_rematch(live, self.hub.connections(game_id), tokens)
            if made:
                await self.notifier.publish(game_id, -1)  # (other processes tell their viewers)
        info = self._rematch_info(new_id, seat, tokens.get(seat) if seat is not None else None)
        return made, models.RematchMade(**info.model_dump(exclude={"admin_token"}), admin_token=admin_token,
                                        links=links)

    async def rematch_for(self, live: Live, seat: int, token: str) -> models.Rematch:
        """The rematch as ``seat`` (which showed ``token``) is told of it, its new token included."""
        new_id = live.row.rematch_id
        assert new_id is not None
        tokens, _ = await self._issue(new_id, {seat: token}, None)
        return self._rematch_info(new_id, seat, tokens.get(seat))

    async def _make_rematch(self, live: Live) -> bool:
        """Store the rematch unless another process stored one first; whether this one did."""
        row = live.row
        config = rematch_config(live.game, row.config)
        seed = secrets.randbits(63)
        try:
            initial = live.game.new_game(config, seed)
        except Exception as exc:  # the engine took this config once: its refusal now is a bug
            raise Broken(f"the rematch's config was refused by the rules engine: {exc}") from None
        new_id = secrets.token_hex(8)
        # Person seats start without a token: each gets the one derived from its old token
        # when its person shows that (:meth:`_issue`); the database never holds a token.
        # An open seat nobody sat down at stays open to anyone; one a person held is kept for them.
        seats = [SeatRow(s.seat, PERSON, s.name, None, None, PERSON, joined=False,
                         open=s.open and s.token_hash is None) if s.kind == PERSON
                 else SeatRow(s.seat, BOT, s.name, None, s.bot_level, BOT) for s in live.seats]
        now = time.time()
        new = GameRow(new_id, row.game, config, seed, row.players, row.clock_seconds, "playing", now, None,
                      UNCLAIMED, suggestions=row.suggestions,
                      wake_at=next_wake(initial, seats, row.clock_seconds, now))
        try:
            stored = await self._db(self.storage.create_rematch, row.id, new, seats)
        except LookupError:
            raise NotFound(f"there is no game {row.id!r}") from None
        live.row = replace(live.row, rematch_id=stored)
        return stored == new_id

    async def _rematch_links(self, live: Live, new_id: str, admin: str) -> list[models.SeatLink]:
        """The join links, for the host to hand out, of the rematch's seats whose person never
        took their seat of the finished game (it had no token: nothing to make the seat's own
        from). The same links every time the admin asks, stored where the seat has neither a
        token nor a link yet; a link taken meanwhile, or one the host replaced, is not given again."""
        open_seats = [s.seat for s in live.seats if s.kind == PERSON and s.token_hash is None]
        if not open_seats:
            return []
        tokens = {seat: rematch_link_token(admin, new_id, seat) for seat in open_seats}
        hashes = {seat: auth.token_hash(t) for seat, t in tokens.items()}
        await self._db(self.storage.offer_links, new_id, hashes)
        stored = await self._db(self.storage.seats, new_id)
        new = self._live.get(new_id)
        if new is not None:
            new.seats = stored
        return [models.SeatLink(seat=s.seat, name=s.name, token=tokens[s.seat],
                                join_link=self.join_link(new_id, s.seat, tokens[s.seat]))
                for s in stored if s.seat in hashes and s.link_hash == hashes[s.seat]]

    async def _issue(self, new_id: str, old_tokens: dict[int, str],
                     admin: str | None) -> tuple[dict[int, str], str | None]:
        """The rematch tokens of the seats whose old tokens are given (and the admin's), their
        hashes stored where none is yet: the same tokens every time, so a retry, a second tab or
        a reconnection is told the same."""
        tokens = {seat: rematch_token(t, new_id, seat) for seat, t in old_tokens.items()}
        admin_token = rematch_admin_token(admin, new_id) if admin is not None else None
        hashes = {seat: auth.token_hash(t) for seat, t in tokens.items()}
        admin_hash = auth.token_hash(admin_token) if admin_token is not None else None
        new = self._live.get(new_id)
        if new is not None:
            known = {s.seat: s.token_hash for s in new.seats}
            if all(known.get(seat) == h for seat, h in hashes.items()) and admin_hash in (None, new.row.admin_hash):
                return tokens, admin_token  # stored already: nothing to write
        if hashes or admin_hash is not None:
            await self._db(self.storage.claim_tokens, new_id, hashes, admin_hash)
        if new is not None:
            new.seats = [replace(s, token_hash=hashes[s.seat], joined=True)
                         if s.token_hash is None and s.link_hash is None and s.kind == PERSON and s.seat in hashes
                         else s for s in new.seats]
            if admin_hash is not None and new.row.admin_hash == UNCLAIMED:
                new.row = replace(new.row, admin_hash=admin_hash)
        return tokens, admin_token

    def _rematch_info(self, new_id: str, seat: int | None, token: str | None) -> models.Rematch:
        if seat is None or token is None:
            return models.Rematch(id=new_id)
        return models.Rematch(id=new_id, seat=seat, token=token,
                              join_link=f"{self.base_url}/play/{new_id}#token={token}")

    async def _announce_rematch(self, live: Live, conns: Sequence[Connection]) -> None:
        """Tell ``conns`` of the game's rematch: each seat's connection its own new token (it
        authenticated with the old one), a spectator only the new game's id."""
        new_id = live.row.rematch_id
        assert new_id is not None
        old = {c.seat: c.token for c in conns if c.seat is not None and c.token is not None}
        tokens, _ = await self._issue(new_id, old, None)
        self._send_rematch(live, conns, tokens)

    def _send_rematch(self, live: Live, conns: Sequence[Connection], tokens: dict[int, str]) -> None:
        new_id = live.row.rematch_id
        assert new_id is not None
        for conn in conns:
            info = self._rematch_info(new_id, conn.seat, tokens.get(conn.seat) if conn.seat is not None else None)
            conn.put({"type": "rematch", **info.model_dump(exclude={"admin_token"})})

    # -- chat --------------------------------------------------------------------------

    async def post_chat(self, game_id: str, token: str | None, text: str) -> models.ChatMessage:
        async with self._using(game_id) as live:
            if (await self._who(live, token))[1]:
                seat, name, holder = None, "admin", None
            else:
                seat = await self.authenticate(live, token)
                name, holder = self.seat_infos(live)[seat].name, self._holder(token)
            text = text.strip()
            if not text:
                raise Invalid("a chat message cannot be empty")
            try:
                row = await self._db(self.storage.add_chat, game_id, seat, name, text, seat_hash=holder)
            except SeatGone:
                await self._refuse_gone(live, token)
        message = models.ChatMessage(id=row.id, seat=row.seat, name=row.name, text=row.text,
                                     created_at=row.created_at)
        payload = {"type": "chat", **message.model_dump()}
        self.hub.send(game_id, lambda viewer: payload)
        return message

    async def chat(self, game_id: str) -> list[models.ChatMessage]:
        async with self._using(game_id):
            rows = await self._db(self.storage.chat, game_id)
        return [models.ChatMessage(id=r.id, seat=r.seat, name=r.name, text=r.text, created_at=r.created_at)
                for r in rows]

    # -- the record --------------------------------------------------------------------

    async def record(self, game_id: str) -> models.GameRecordOut:
        live = await self.live(game_id)
        if not live.state.is_over:
            raise NotOver("the record (with the seed, which decides every future die) is given once the game is over")
        return models.GameRecordOut(game=live.row.game, config=live.row.config, seed=live.row.seed,
                                    actions=[r.notation for r in live.log],
                                    digest=state_digest(live.game, live.state))

    # -- WebSocket viewers -------------------------------------------------------------

    async def attach(self, conn: Connection, since: int | None, history: str | None = None) -> None:
        """Send the viewer its view and what it missed since ``since`` (its log's fingerprint
        there ``history``: :meth:`Live.history`), then every change: under the game's lock, so
        no action falls between the two."""
        async with self._using(conn.game_id) as live:
            async with live.lock:
                self._hello(live, conn, since, history)
                self.hub.add(conn)
            if live.row.rematch_id is not None:  # (a seat that was away when it was made learns its token)
                await self._announce_rematch(live, [conn])

    async def resend(self, conn: Connection, since: int | None, history: str | None = None) -> None:
        """A viewer asks again for what it missed (after a gap it noticed)."""
        async with self._using(conn.game_id) as live, live.lock:
            self._hello(live, conn, since, history)

    def _hello(self, live: Live, conn: Connection, since: int | None, history: str | None = None) -> None:
        """The view, and the events of the actions after ``since``; ``reset`` and every action's
        events when the viewer's log is not the game's up to ``since`` (it is past the game's
        index, or its fingerprint there differs): the viewer starts its log again."""
        missed = []
        reset = since is not None and since > 0 and (
            since > live.index or (history is not None and not hmac.compare_digest(history, live.history(since))))
        if reset:
            since = 0
        if since is not None and 0 <= since < live.index:
            missed = [{"index": i + 1, "seat": live.log[i].seat, "actor": live.log[i].actor,
                       "events": visible_events(live.row.game, live.events[i], conn.seat)}
                      for i in range(since, live.index)]
        setup = visible_events(live.row.game, live.setup_events, conn.seat) if since is None or since < 0 else []
        conn.put({"type": "hello", "seat": conn.seat, "index": live.index, "history": live.history(),
                  "reset": reset, "missed": missed, "setup_events": setup, "view": self.view(live, conn.seat)})

    # -- other processes ---------------------------------------------------------------

    async def resync(self) -> None:
        """After the notifier lost its connection (PostgreSQL keeps no notices for a listener
        that is away), bring every game loaded here up to the database."""
        for game_id in list(self._live):
            await self.sync(game_id, -1)

    async def sync(self, game_id: str, index: int) -> None:
        """The notifier's callback: another process (or a lost race) changed the log; bring
        the live game (if loaded here) up to the database and tell this process's viewers."""
        live = self._live.get(game_id)
        if live is None:
            return
        with self._busy(live):
            known = live.row.rematch_id
            await self._sync(live, index)
            if known is None and live.row.rematch_id is not None:  # made by another process
                await self._announce_rematch(live, self.hub.connections(game_id))

    async def _reload_seats(self, live: Live) -> None:
        """The seats as the database has them, each changed one told to every viewer (a seat
        taken, or given a new link, through another process)."""
        seats = await self._db(self.storage.seats, live.row.id)
        if seats != live.seats:
            changed = [new.seat for new, old in zip(seats, live.seats, strict=True) if new != old]
            live.seats = seats
            for seat in changed:
                self._seat_changed(live, seat)

    async def _sync(self, live: Live, index: int) -> None:
        game_id = live.row.id
        async with live.lock:
            if index == live.index and index > 0:
                # Our own action's notice (or one we have already caught up with). A remote
                # undo followed by a remote action can end at the same index with another
                # log; its undo notice (a smaller index) brings the full reload first.
                return
            rows = await self._db(self.storage.actions, game_id)
            await self._reload_seats(live)
            row = await self._db(self.storage.game, game_id)
            if row is not None:  # its wake time (a deadline) and rematch as the other process stored them
                live.row = replace(live.row, wake_at=row.wake_at, rematch_id=live.row.rematch_id or row.rematch_id)
            if self.mailer is not None:  # (a seat may have asked for email through another process)
                live.mail_seats = await self._db(self.storage.mail_seats, game_id)
            if rows == live.log:
                return
            n = len(live.log)
            if rows[:n] == live.log:
                for r in rows[n:]:
                    events = live.game.apply(live.state, Action.parse(r.notation))
                    live.log.append(r)
                    live.events.append(events)
                    self.hub.send(game_id, lambda viewer, r=r, events=events:  # type: ignore[misc]
                                  self._action_message(live, r, events, viewer))
            else:
                _, live.state, live.setup_events, live.events = self._replay(live.row, rows)
                live.log = rows
                self.hub.send(game_id, lambda viewer: {"type": "undo", "index": live.index, "history": live.history(),
                                                       "view": self.view(live, viewer)})
            if live.state.is_over:
                live.row = replace(live.row, status="over")
        await self._after_change(live)

    # -- background work: resuming games that need the server, unloading idle ones -------

    async def _wake_due(self) -> None:
        """Load the games that need the server within ``wake_seconds`` (a bot's or zombie's
        decision, a turn clock running out), now and every ``wake_seconds``: one indexed
        query, never a scan of the stored games. Loading one starts its bot or clock."""
        assert self._listening is not None
        await self._listening.wait()
        if self.mailer is not None:
            await self._resume_mail()
        while not self.closing:
            try:
                due = await self._db(self.storage.due_games, time.time() + self.wake_seconds)
            except Exception as exc:  # the database is away: try again at the next round
                log.warning("could not ask the database for the games due: %s: %s", type(exc).__name__, exc)
                due = []
            for game_id in due:
                if self.closing:
                    return
                if game_id not in self._live:
                    try:
                        await self.live(game_id)
                    except ServiceError as exc:
                        log.warning("game %s could not be resumed: %s", game_id, exc.message)
            await asyncio.sleep(self.wake_seconds)

    async def _resume_mail(self) -> None:
        """Load the games that may owe an email (a turn's delay, or the end, that a restart cut
        short), once at start: loading one looks after its email again, from the delay on."""
        try:
            pending = await self._db(self.storage.mail_pending_games)
        except Exception as exc:  # the database is away: their emails wait for a visit
            log.warning("could not ask the database for the games owing an email: %s: %s", type(exc).__name__, exc)
            return
        for game_id in pending:
            if self.closing:
                return
            try:
                await self.live(game_id)
            except ServiceError as exc:
                log.warning("game %s could not be resumed: %s", game_id, exc.message)

    async def _unload_idle(self) -> None:
        while not self.closing:
            await asyncio.sleep(max(0.05, min(60.0, self.idle_seconds / 4)))
            self.unload_idle()

    def unload_idle(self) -> list[str]:
        """Drop the idle games from memory (their next access replays them); the ids dropped."""
        now = time.monotonic()
        idle = [game_id for game_id, live in self._live.items() if self._idle(live, now)]
        for game_id in idle:
            del self._live[game_id]
            self._shown.pop(game_id, None)  # its presented views go with it
        if idle:
            log.info("unloaded %d idle game(s)", len(idle))
        return idle

    def _idle(self, live: Live, now: float) -> bool:
        return (live.busy == 0 and not live.lock.locked() and now - live.used >= self.idle_seconds
                and not self.hub.connections(live.row.id)
                and (live.bot_task is None or live.bot_task.done())
                and (live.clock_task is None or live.clock_task.done())
                and not live.stuck)
