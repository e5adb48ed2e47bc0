"""The terminal session every game shares: one human seat against bots.

:class:`Session` is the game loop of ``ecliptic play`` (Tau Ceti's ``cli.PlaySession``, Ceres'
``ceres_terminal.CeresSession``): bots move by themselves; the human types a menu number, a
notation or a command (``quit``, ``help``, ``board``, ``log``, ``save FILE``, ``undo``: the
server's undo policy, :meth:`Session.undo`); an illegal input is answered and asked again;
every applied action is appended to ``record`` so ``save`` can write the game as a replayable
record. A game fills in the hooks that draw it (the board, the status line, the decision, the
menu, the final scores, an event) and its help text.

The session never loses a game: whatever the human types is answered and the game goes on;
from its first moment, and again after every applied action (the human's and the bots'), the
game is written to an autosave file in the user's data folder (:func:`data_dir`), never the
working folder, so that even ``kill -9`` loses nothing but the action being applied; leaving
an unfinished game (``quit``, end of input, Ctrl-C, a closed terminal, SIGTERM, an output pipe
that closed) writes it there once more. A finished game is kept there too (``finished/``, to
replay), and a failure of the rules engine writes a crash file, each under a name no other file
has. While a game runs it holds a lock on its autosave, so that ``--resume autosave`` elsewhere
takes the game left last, not one being played. A resumed game goes on as it would have: each
decision of a bot is seeded from the game's seed, its seat and the number of actions so far
(:meth:`Session.bot_choice`, as the server seeds its bots), and a bot caught between two of its
own decisions is walked through them again (:meth:`Session.recall_bots`).

Also here: the save file format (:func:`write_save`, :func:`read_meta`: a game record plus the
``cli`` table naming the human's seat and the bots) and :func:`make_bots`, one bot per seat.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import shlex
import signal
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from types import FrameType
from typing import Any, ClassVar

import platformdirs
from rich.console import Console, RenderableType
from rich.text import Text

from ecliptic.bots.base import Bot, BotSpecError, bot_seed, decide, make_bot, replay_for
from ecliptic.engine import durable
from ecliptic.engine.actions import Action
from ecliptic.engine.errors import IllegalAction, SaveFileError
from ecliptic.engine.events import Event
from ecliptic.engine.files import UnreadableFile, read_json
from ecliptic.engine.record import GameRecord, replay, state_digest
from ecliptic.engine.undo import why_not_undoable
from ecliptic.engine.wording import plural
from ecliptic.ui import terminal
from ecliptic.ui.signals import Redelivery

try:
    import fcntl
except ImportError:  # not on every platform: there, a running game's autosave is not locked
    fcntl = None  # type: ignore[assignment]

Obs = dict[str, Any]
InputFn = Callable[[str], str]

CLI_META = "cli"
"""The extra table of a save file naming the human's seat and the bots (other readers of the
record ignore it; ``ecliptic play --resume`` reads it back)."""
MAX_BOT_STREAK = 100_000
"""Bot decisions in a row beyond which the engine must be looping (a bug, not a game)."""
LOG_LINES = 40
RECALLED = 10
"""The events a resumed game shows again before its first decision (``log`` shows more)."""
MAX_MENU_DIGITS = 9
"""A longer run of digits is no menu number (and ``int`` of 5,000 digits is refused anyway)."""
DATA_DIR_ENV = "ECLIPTIC_DATA_DIR"
"""Overrides the folder of autosaves and crash files (the tests point it at a temporary one)."""
AUTOSAVE = "autosave"
"""What ``ecliptic play --resume`` takes for "the last game left unfinished"."""
EXIT_INTERRUPTED = 130  # Ctrl-C, as a shell reports SIGINT
EXIT_HANGUP = 129  # the terminal closed, as a shell reports SIGHUP
EXIT_BROKEN_PIPE = 141  # the output pipe closed (ecliptic play | head), as a shell reports SIGPIPE
EXIT_TERMINATED = 143  # SIGTERM (kill, a shutdown), as a shell reports it
EXIT_ENGINE_BUG = 1


def write_save(path: Path, record: GameRecord, meta: dict[str, Any], *, hold: bool = False) -> int | None:
    """A game record plus the command line's own table (who is human, which bots), written
    atomically: into a temporary file of the same folder, flushed to the disk, then renamed
    over ``path``, so a failure (a full disk, Ctrl-C) or ``kill -9`` at any moment leaves the
    old file whole (or the new one) and no temporary file behind; the folder is synced after
    the rename (:func:`ecliptic.engine.durable.replace`), so a power cut does not bring the old
    file back either. Other readers ignore the extra table.

    With ``hold``, the new file is locked (``flock``) before it takes the place of the old one,
    and the open descriptor holding the lock is returned, for the caller to close when it lets
    go (:func:`in_play` tells a held file; the process ending lets go too, even by
    ``kill -9``). ``None`` without ``hold``, or where files cannot be locked."""
    data = record.to_json()
    data[CLI_META] = meta
    text = json.dumps(data, indent=1)
    held = None
    try:
        with durable.writing(path) as f:
            if hold and fcntl is not None:
                held = os.dup(f.fileno())  # the lock stays with the file while this descriptor is open
                fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a new file: nobody else has it
            f.write(text)
    except BaseException:
        if held is not None:
            os.close(held)
        raise
    return held


def in_play(path: Path) -> bool:
    """Whether a running game holds ``path``, its autosave (:func:`write_save` with ``hold``).
    False where files cannot be locked, and for a file that cannot be opened."""
    if fcntl is None:
        return False
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)  # let go at once (closing fd)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
    return False


def read_meta(path: Path) -> dict[str, Any]:
    """The ``cli`` table of a save file, without a ``human_seat`` that is not a seat number or
    ``bots`` that are not a list of bot texts (a hand-edited table: ignored, never a crash).
    Empty when there is none or the file cannot be read."""
    try:
        data = read_json(path)
    except UnreadableFile:
        return {}
    meta = data.get(CLI_META) if isinstance(data, dict) else None
    if not isinstance(meta, dict):
        return {}
    seat, bots = meta.get("human_seat"), meta.get("bots")
    if not isinstance(seat, int) or isinstance(seat, bool):
        meta.pop("human_seat", None)
    if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
        meta.pop("bots", None)
    return meta


class SaveRefused(Exception):
    """A ``save`` the session will not do, with the reason to show (nothing was written)."""


def save_target(name: str) -> Path:
    """The file ``save NAME`` writes, or :class:`SaveRefused`: a NUL byte, an
    unknown user's ``~``, a folder, or an existing thing that is not a regular file (a FIFO, a
    device, a symbolic link) are refused before anything is written."""
    if "\0" in name:
        raise SaveRefused("a file name cannot hold a NUL character")
    try:
        path = Path(name).expanduser()
    except (RuntimeError, KeyError):  # ~nosuchuser
        raise SaveRefused(f"{name}: there is no such user's home folder") from None
    if name.endswith(("/", os.sep)) or path.name in ("", ".", ".."):
        raise SaveRefused(f"{name} is a folder; name a file in it (save {name.rstrip('/')}/game.json)")
    try:
        st = path.lstat()
    except FileNotFoundError:
        return path
    except (OSError, ValueError) as exc:
        raise SaveRefused(f"cannot save to {name}: {_reason(exc)}") from None
    if stat.S_ISDIR(st.st_mode):
        raise SaveRefused(f"{name} is a folder; name a file in it (save {name.rstrip('/')}/game.json)")
    if not stat.S_ISREG(st.st_mode):
        raise SaveRefused(f"{name} exists and is not a regular file; it was left alone (choose another name)")
    return path


def _reason(exc: BaseException) -> str:
    return str(exc.strerror if isinstance(exc, OSError) and exc.strerror else exc)


def data_dir() -> Path:
    """The folder of the autosaves and crash files: ``$ECLIPTIC_DATA_DIR``, else the user's
    data folder (``platformdirs``: ``~/.local/share/ecliptic`` on Linux), never the working
    folder, where nothing is written unasked."""
    override = os.environ.get(DATA_DIR_ENV)
    return Path(override) if override else Path(platformdirs.user_data_dir("ecliptic", appauthor=False))


def autosave_dir() -> Path:
    return data_dir() / "autosaves"


def crash_dir() -> Path:
    return data_dir() / "crashes"


def finished_dir() -> Path:
    """Where every game played to its end is kept (a save file like any other), so that a
    game once finished can be replayed: the terminal prints nothing else that holds it."""
    return data_dir() / "finished"


def new_file(folder: Path, stem: str) -> Path:
    """A new, empty file ``folder/stem.json`` (``stem-2.json``... if taken), created exclusively
    so that two games never write the same file (crash files never overwrite each other). The
    folders it makes are synced (:func:`ecliptic.engine.durable.make_folders`); the file's own
    name is synced when :func:`write_save` puts the game in its place."""
    durable.make_folders(folder)
    n = 1
    while True:
        path = folder / (f"{stem}.json" if n == 1 else f"{stem}-{n}.json")
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
        except FileExistsError:
            n += 1
            continue
        return path


def filed_copy(record: GameRecord) -> Path | None:
    """The file of :func:`finished_dir` that holds the same game as ``record`` (same game,
    config, seed and actions), if any: the one an autosave that outlived its removal (a power
    cut) was filed as. Only the files named after the record's seed are read (the names
    :meth:`Session._file_stem` gives), so a long list of finished games costs nothing."""
    folder = finished_dir()
    names = (f"{record.game}-*-seed{record.seed}.json", f"{record.game}-*-seed{record.seed}-*.json")
    with contextlib.suppress(OSError):
        for path in sorted({p for name in names for p in folder.glob(name)}):
            try:
                filed = GameRecord.load(path)
            except (SaveFileError, OSError, ValueError):
                continue
            if (filed.game, filed.config, filed.seed, filed.actions) == (
                    record.game, record.config, record.seed, record.actions):
                return path
    return None


def latest_autosave() -> Path | None:
    """The game left unfinished last (the newest autosave), if any; a game being played now
    (its autosave held: :func:`in_play`) has not been left, and is passed over."""
    found: list[tuple[int, str, Path]] = []
    with contextlib.suppress(OSError):
        for path in autosave_dir().glob("*.json"):
            with contextlib.suppress(OSError):
                st = path.stat()
                if stat.S_ISREG(st.st_mode) and st.st_size:
                    found.append((st.st_mtime_ns, path.name, path))
    for _, _, path in sorted(found, reverse=True):
        if not in_play(path):
            return path
    return None


def is_autosave(path: Path) -> bool:
    """Whether ``path`` is one of the autosaves (a resumed autosave is saved over itself)."""
    try:
        return path.resolve().parent == autosave_dir().resolve()
    except (OSError, RuntimeError, ValueError):
        return False


def autosave_notice() -> Text | None:
    """The line ``ecliptic play`` shows when a game was left unfinished: where it is, how to
    resume it."""
    path = latest_autosave()
    if path is None:
        return None
    try:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))
    except OSError:
        return None
    return Text(f"Your last unfinished game (left {when}) is saved in {path}.\nResume it with: "
                f"ecliptic play --resume {AUTOSAVE}", style="yellow")


def resolve_save(path: Path) -> Path:
    """The file a command that reads a save means by ``path``: the word ``autosave`` is the
    newest autosave (the game left last), anything else the file itself (a file named
    ``autosave`` is ``$PWD/autosave``). ``play --resume`` and ``replay`` both ask here, so the
    word means the same to each. :class:`SaveFileError` when there is no autosave."""
    if str(path) != AUTOSAVE:
        return path
    found = latest_autosave()
    if found is None:
        raise SaveFileError(f"there is no unfinished game to resume in {autosave_dir()} "
                            f"('{AUTOSAVE}' names the game left last, not one being played now)")
    return found


def resume_command(path: Path) -> str:
    return f"ecliptic play --resume {AUTOSAVE if is_autosave(path) else shlex.quote(str(path))}"


def replay_command(path: Path) -> str:
    return f"ecliptic replay {shlex.quote(str(path))}"


def against(specs: Sequence[str]) -> str:
    """Who the human plays against, for the opening line: ``against 3 bots (normal)``,
    ``against 2 bots (heuristic, random)`` (each bot once, in seat order), or ``playing
    alone``. A level or a bot name alone (``against normal``) reads as an adjective."""
    if not specs:
        return "playing alone"
    return f"against {plural(len(specs), 'bot')} ({', '.join(dict.fromkeys(specs))})"


def stdin_is_tty() -> bool:
    try:
        return bool(sys.stdin and sys.stdin.isatty())
    except (AttributeError, ValueError, OSError):
        return False


_ANSI = re.compile(r"(\x1b\[[0-9;]*m)")


def terminal_reader(console: Console) -> InputFn:
    """The human's input: on a terminal, ``input`` with line editing and a history (the
    standard library's ``readline``, so arrow keys edit and recall lines instead of arriving
    as escape codes); else Rich's ``console.input`` (a pipe, a file)."""
    if not stdin_is_tty():
        return lambda prompt: console.input(Text(prompt, style="bold cyan"))
    with contextlib.suppress(ImportError):  # not on every platform; input() still works
        import readline  # noqa: F401  (loading it gives input() line editing and a history)

    def read(prompt: str) -> str:
        with console.capture() as capture:
            console.print(Text(prompt, style="bold cyan"), end="")
        # readline must be told which characters of the prompt take no room on the screen.
        return input(_ANSI.sub("\x01\\1\x02", capture.get()))

    return read


class Stopped(BaseException):
    """The game must stop now: leave, saving it, with exit code :attr:`code`. A
    ``BaseException`` like ``KeyboardInterrupt``, so no ``except Exception`` swallows it."""

    code: ClassVar[int] = EXIT_HANGUP


class TerminalClosed(Stopped):
    """The terminal went away (SIGHUP, or reading it failed)."""

    code = EXIT_HANGUP


class Terminated(Stopped):
    """SIGTERM: asked to stop (``kill``, a shutdown)."""

    code = EXIT_TERMINATED


class OutputClosed(Stopped):
    """The output is a pipe whose reader has gone (``ecliptic play | head``)."""

    code = EXIT_BROKEN_PIPE


def close_output(console: Console) -> None:
    """The output pipe closed: nothing more is printed (the console goes quiet), and standard
    output now writes to the null device, so that Python's last flush at exit meets no broken
    pipe either (no "Exception ignored" on stderr)."""
    console.quiet = True
    with contextlib.suppress(OSError, ValueError, AttributeError):  # a stdout with no descriptor
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, sys.stdout.fileno())
        finally:
            os.close(null)


class GameConsole(Console):
    """The console of a terminal game. When its output is a pipe that closes, Rich's own
    answer is ``SystemExit(1)``, which would end the process without saving the game; this one
    goes quiet and raises :class:`OutputClosed`, so the session saves the game and leaves."""

    def on_broken_pipe(self) -> None:
        close_output(self)
        raise OutputClosed("The output closed (broken pipe): leaving the game.")


class _OwnAction:
    """The human's last action, kept so that ``undo`` can take it back: the state before it,
    the events it caused, and how long the record and the log were before it."""

    def __init__(self, before: Any, action: Action, events: list[Event], actions: int, log: int) -> None:
        self.before, self.action, self.events, self.actions, self.log = before, action, events, actions, log


class _Leave(Exception):
    """The human leaves (``quit``, end of input)."""


_NOT_SHOWN = (OSError, OutputClosed)
"""What printing the last lines may raise once the terminal or the output pipe is gone (the
game is saved by then)."""


def make_bots(spec: str | Sequence[str], human: int, players: int,
              seed: int) -> tuple[dict[int, Bot], list[str]]:
    """One bot name for every other seat, or one per other seat (``"random,random"`` or a
    list); each bot seeded from ``seed`` and its seat (the session reseeds it for every
    decision it takes: :meth:`Session.bot_choice`)."""
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    specs = [s.strip() for s in names if s.strip()] or ["random"]
    seats = [s for s in range(players) if s != human]
    if len(specs) == 1:
        specs = specs * len(seats)
    if len(specs) != len(seats):
        raise BotSpecError(f"name one bot for all {len(seats)} other seats, or one per seat (got {len(specs)})")
    return {s: make_bot(b, bot_seed(seed, s)) for s, b in zip(seats, specs, strict=True)}, specs


class Session:
    """One human seat against bots, at the terminal.

    The screen is drawn only from ``game.observe(state, human)`` and the events the human may
    see. Every applied action is appended to ``record`` (so it can be saved, and kept if the
    engine fails); ``log`` holds the events the human has seen. ``autosave`` is the file the
    game is kept in as it goes, and saved to when the human leaves (``None``: a new one in
    :func:`autosave_dir`, made when the game starts). ``opening`` is what :meth:`greet` prints
    when the game starts. Subclasses set the class attributes and fill in the drawing hooks."""

    help_text: ClassVar[str] = ""
    not_now_rule: ClassVar[str] = "NOTATION"
    """The rule id quoted when a malformed action cannot even be judged by the rules."""
    loop_error: ClassVar[type[Exception]] = RuntimeError
    """Raised when the bots make more than :data:`MAX_BOT_STREAK` decisions in a row."""

    def __init__(self, game: Any, state: Any, record: GameRecord, human: int, bots: Mapping[int, Bot],
                 bot_specs: list[str], console: Console, read: InputFn | None, *, echo: bool) -> None:
        self.game, self.state, self.record = game, state, record
        self.human, self.bots, self.bot_specs = human, dict(bots), bot_specs
        self.console, self.echo = console, echo
        self.read = read or terminal_reader(console)
        self.log: list[Event] = []
        self.autosave: Path | None = None
        self.opening: list[RenderableType] = []
        self.events: list[Event] = []  # the game's events before this session (greet shows them)
        self.resumed = False  # a saved game goes on: greet recalls only the last events
        self._applying = False  # an action is being applied: the state may be half changed
        self._leaving = False  # the game is being saved on the way out: signals are ignored
        self._writing = False  # the autosave is being written as the game goes: signals wait
        self._pending: BaseException | None = None  # the signal that waited, raised after
        self._redelivery = Redelivery()  # a signal at the prompt is answered at once
        self._held: int | None = None  # the descriptor locking the autosave (write_save's hold)
        self._autosave_problem = ""  # why the autosave could not be written, once said
        self._own_last: _OwnAction | None = None  # the human's last action, while undo may take it back
        self.same_seat = False  # a resumed game is played at the seat it was left at: its last action may be undone

    # The hooks a game fills in -------------------------------------------------------

    def render_board(self, obs: Obs, actions: list[Action]) -> RenderableType:
        """The whole table as the human sees it."""
        raise NotImplementedError

    def render_status(self, obs: Obs) -> RenderableType:
        """One line about the human, between two of their own decisions."""
        raise NotImplementedError

    def render_decision(self, obs: Obs, actions: Sequence[Action] = ()) -> RenderableType:
        """What the pending decision asks; the human's legal ``actions`` leave out of it the
        options the rules take away now."""
        raise NotImplementedError

    def render_menu(self, obs: Obs, actions: list[Action]) -> RenderableType:
        """The legal actions, numbered."""
        raise NotImplementedError

    def render_final(self, obs: Obs) -> RenderableType:
        """The final scores and the winners."""
        raise NotImplementedError

    def render_event(self, event: Event) -> RenderableType:
        return terminal.render_event(event, self.game.name)

    def notation(self, line: str) -> str:
        """A typed line as the notation :meth:`Action.parse` reads."""
        return line

    def show_turn(self, actions: list[Action], *, fresh: bool) -> None:
        """Before the human's decision: the whole table when ``fresh`` (the bots moved since)."""
        self._show_decision(actions, full=fresh)

    def greet(self) -> None:
        """The opening lines (:attr:`opening`), printed by :meth:`run` before the first move,
        not when the session is set up: so the command line can set up a game (every option
        checked), then say where the last unfinished game is, then let the game begin. Then
        the events of the game before this session (:attr:`events`) that the human may see:
        all of a new game's setup; the last :data:`RECALLED` of a resumed one (all of them in
        ``log``), so a person coming back reads where the game stands."""
        for item in self.opening:
            self.console.print(item)
        visible = [e for e in self.events if e.visible(self.human)]
        self.log.extend(visible)
        if self.resumed and self.same_seat:
            self._recall_own_last()
        for event in visible[-RECALLED:] if self.resumed else visible:
            self.console.print(self.render_event(event))

    # The whole game ------------------------------------------------------------------

    def observation(self) -> Obs:
        return self.game.observe(self.state, self.human)  # type: ignore[no-any-return]

    def run(self) -> int:
        """Greet, then play until the game ends (kept, final scores shown: :meth:`finish`) or
        the human leaves; the exit code.

        The game is in its autosave from the start, kept current after every applied action
        (:meth:`keep_autosave`), so a process killed outright (``kill -9``) loses nothing.
        Leaving an unfinished game saves it once more (:meth:`leave`): ``quit`` and the end of
        input (0), Ctrl-C (130), a closed terminal, by SIGHUP or a failing read (129), the
        output pipe closed (141, quietly), SIGTERM (143). A failure of the rules engine is
        reported with a crash file to replay it (1)."""
        # A game over from the start (a finished save resumed) is kept where it came from,
        # unless that is an autosave: then it moves to the finished games, once (finish).
        keep = not self.state.is_over or self.autosave is not None
        with self._signal_handlers():
            try:
                return self._run(keep, over=self.state.is_over)
            finally:
                self._let_go()

    def _run(self, keep: bool, *, over: bool = False) -> int:
        try:
            self.greet()
            if not self.state.is_over:  # kept from the start: the seed and the setup are the game
                self.keep_autosave()
            self.recall_bots()
            self._play()
        except _Leave as why:
            return self.leave(str(why), 0)
        except KeyboardInterrupt:
            return self.leave("Interrupted", EXIT_INTERRUPTED)
        except Stopped as why:
            return self.leave(str(why), why.code)
        except OSError as exc:
            if exc.errno == errno.EPIPE:  # a write to the closed pipe Rich did not make
                close_output(self.console)
                return self.leave("The output closed (broken pipe)", EXIT_BROKEN_PIPE)
            if exc.errno not in (errno.EIO, errno.ENXIO, errno.EBADF):
                return self.crash(exc)
            return self.leave("The terminal closed", EXIT_HANGUP)  # writing to it failed
        except Exception as exc:
            return self.crash(exc)
        self.finish(keep=keep, over_at_start=over)
        return 0

    def finish(self, *, keep: bool, over_at_start: bool = False) -> None:
        """The game is over: keep it in a new file of :func:`finished_dir` (with ``keep``), so
        it can be replayed, then show the final scores and where it is. The file is written
        before anything is printed (printing fails when the terminal is gone) and signals wait
        meanwhile, as when leaving. Its autosave (kept as the game went, or the resumed one)
        has nothing left to resume once the game is kept there, and is removed, durably
        (:func:`ecliptic.engine.durable.remove`); if the game cannot be kept, the autosave stays.

        A game ``over_at_start`` whose autosave is resumed was filed already if a power cut
        came between the filing and the removal (the autosave came back): the copy in
        :func:`finished_dir` is recognised (:func:`filed_copy`) and the game is not filed twice."""
        self._leaving = True
        kept, problem, already = None, "", False
        if keep and over_at_start:
            kept = filed_copy(self.record)
            already = kept is not None
        if keep and kept is None:
            try:
                kept = self._write_new(finished_dir())
            except (OSError, ValueError) as exc:
                problem = _reason(exc)
        if kept is not None:
            self._drop_autosave()
        with contextlib.suppress(*_NOT_SHOWN):
            self.console.print()
            self.console.print(self.render_final(self.observation()))
            if kept is not None:
                self.console.print(Text(f"The game {'was kept already' if already else 'is kept'} in {kept}.\n"
                                        f"Replay it with: {replay_command(kept)}", style="green"))
            elif problem:
                self.console.print(Text(f"The finished game could not be kept in {finished_dir()}: {problem}.",
                                        style="bold red"))

    def _play(self) -> None:
        fresh, streak = True, 0
        while not self.state.is_over:
            seat = self.state.current_player
            if seat != self.human:
                streak += 1
                if streak > MAX_BOT_STREAK:
                    raise self.loop_error(f"the bots made {MAX_BOT_STREAK} decisions in a row: the rules "
                                          "engine is looping, which is a bug")
                self._bot_move(seat)
                fresh = True
                continue
            streak = 0
            actions = self.game.legal_actions(self.state)
            self.show_turn(actions, fresh=fresh)
            fresh = False
            self._human_move(actions)

    def _bot_move(self, seat: int) -> None:
        events = self._applied(self.bot_choice(seat, self.state, len(self.record.actions)))
        self.keep_autosave()
        self.show_events(events)

    def bot_choice(self, seat: int, state: Any, index: int) -> Action:
        """The choice of ``seat``'s bot at action ``index`` of the game, its generator seeded
        afresh from the game's seed, the seat and the index (:func:`decide`, as the server's
        bot workers ask theirs): so a game resumed from its save, after ``kill -9`` or a
        ``quit``, has bots that choose as they would have had it gone on."""
        return decide(self.bots[seat], self.game, state, seat, self.record.seed, index)

    def recall_bots(self) -> None:
        """A game resumed while a bot is in the middle of its own decisions (a Move's steps:
        the process was killed between two of them) walks that bot through them again
        (:func:`replay_for`), so it holds what the bot of the game that went on holds; a new
        game, or one resumed at another seat's decision, needs nothing."""
        seat = self.state.current_player
        if not self.state.is_over and seat in self.bots and self.record.actions:
            replay_for(self.bots[seat], self.game, self.record.config, self.record.seed, self.record.actions, seat)

    def _applied(self, action: Action) -> list[Event]:
        """Apply and record one action; while it is applied the state may be half changed (an
        interrupt then saves the record without a digest of the state)."""
        self._applying = True
        events: list[Event] = self.game.apply(self.state, action)
        self.record.actions.append(str(action))
        self._applying = False
        return events

    def _human_move(self, actions: list[Action]) -> None:
        """Read lines until an action is applied; :class:`_Leave` when the human leaves."""
        while True:
            line = self._ask("> ").strip()
            if self.echo:
                self.console.print(Text(line))
            if line and self._command(line, actions):
                return

    def _ask(self, prompt: str) -> str:
        try:
            return self.read(prompt)
        except EOFError:
            self.console.print()
            raise _Leave("End of input: leaving the game.") from None
        except OSError as exc:  # EIO: the terminal is gone; EPIPE: the prompt met a closed pipe
            if exc.errno == errno.EPIPE:
                close_output(self.console)
                raise OutputClosed("The output closed (broken pipe): leaving the game.") from None
            raise TerminalClosed(f"The terminal closed ({_reason(exc)})") from None

    def _command(self, line: str, actions: list[Action]) -> bool:
        """One input line; True when an action was applied (else ask again)."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word in ("quit", "exit"):
            raise _Leave("Leaving the game.")
        if word in ("help", "?"):
            self.console.print(self.help_text)
        elif word in ("board", "show"):
            self._show_decision(actions, full=True)
        elif word == "log":
            if not self.log:  # the setup of a new game can be silent: say so, not nothing
                self.console.print(Text("Nothing has happened yet that you can see.", style="dim"))
            for event in self.log[-LOG_LINES:]:
                self.console.print(self.render_event(event))
        elif word in ("save", "save!"):
            self.save(rest.strip(), replace=word == "save!")
        elif word == "undo":
            if not rest.strip():
                return self.undo()
            self.console.print(Text("undo takes nothing after it: 'undo' takes back your last action.",
                                    style="yellow"))
        else:
            action = self._parse(line, actions)
            return action is not None and self._apply(action, actions)
        return False

    def _parse(self, line: str, actions: list[Action]) -> Action | None:
        if line.isdigit():  # also ² or ①, which int() refuses, and 5,000 digits
            n = int(line) if line.isascii() and len(line) <= MAX_MENU_DIGITS else 0
            if 1 <= n <= len(actions):
                return actions[n - 1]
            self.console.print(Text(f"Choose a number from 1 to {len(actions)}, or type an action.", style="yellow"))
            return None
        if line.split()[0].isdigit():  # "1 2": menu numbers are chosen one at a time
            self.console.print(Text(f"Choose one number from 1 to {len(actions)} at a time (a number alone on "
                                    "the line), or type an action.", style="yellow"))
            return None
        try:
            typed = Action.parse(self.notation(line))
        except IllegalAction as exc:
            self._refuse(exc)
            return None
        if all(a.verb != typed.verb for a in actions) and typed.verb not in self.game.verbs():
            self._not_an_action(f"{line.split()[0]} is not an action of {self.game.title}")
            return None
        for a in actions:  # arguments are matched without regard to case, too
            if str(a).lower() == str(typed).lower():
                typed = a
                break
        if str(typed).lower() != " ".join(line.split()).lower():  # say how the engine read it
            self.console.print(Text(f"({line} is {typed})", style="dim"))
        return typed

    def _apply(self, action: Action, actions: list[Action]) -> bool:
        before, marks = self.state.clone(), (len(self.record.actions), len(self.log))
        try:
            events = self._applied(action)
        except IllegalAction as exc:
            self._applying = False
            self._refuse(exc)
            return False
        except Exception:
            self._applying = False
            if action in actions:
                raise  # a legal action failed: an engine bug, for run() to report
            # A malformed action the rules could not even judge: refuse it all the same.
            self._refuse(IllegalAction(self.not_now_rule, f"{action} is not an action you can take now"))
            return False
        self._own_last = _OwnAction(before, action, events, *marks)
        self.keep_autosave()
        self.show_events(events)
        return True

    def _recall_own_last(self) -> None:
        """A resumed game whose last action was the human's (at the seat it was left at) lets
        ``undo`` take it back, as had the game never been left: the state before it is
        replayed from the record, the action applied again for its events. Leaving a game is
        no move of anyone's."""
        n = len(self.record.actions)
        if n == 0:
            return
        before = replay(self.record, upto=n - 1)
        if before.is_over or before.current_player != self.human:
            return
        action = Action.parse(self.record.actions[-1])
        events = self.game.apply(before.clone(), action)
        shown = sum(1 for e in events if e.visible(self.human))
        self._own_last = _OwnAction(before, action, events, n - 1, max(0, len(self.log) - shown))

    def undo(self) -> bool:
        """``undo``: take back the human's last action, as the game server does (Board Game
        Arena's policy, :func:`ecliptic.engine.undo.why_not_undoable`): only while it is the
        last action of the game (no bot moved since), and only if it rolled no die, shuffled
        nothing and showed nothing hidden, so that nobody looks and chooses again. The game
        goes back to the state before it, the autosave too; True when it was taken back."""
        last = self._own_last
        if last is None or last.actions + 1 != len(self.record.actions):
            self.console.print(Text("Nothing to take back: undo takes back your own last action, before "
                                    "anyone else has moved.", style="yellow"))
            return False
        why = why_not_undoable(self.game, last.before, last.action, last.events, self.state, self.human)
        if why is not None:
            self.console.print(Text(f"{last.action} cannot be taken back: {why}.", style="yellow"))
            return False
        self._applying = True  # the state and the record disagree a moment: a signal saves no digest
        self.state, self._own_last = last.before, None
        del self.record.actions[last.actions:]
        self._applying = False
        del self.log[last.log:]
        self.keep_autosave()
        self.console.print(Text(f"Took back {last.action}. Choose again.", style="green"))
        return True

    def _refuse(self, exc: IllegalAction) -> None:
        """An action the rules refuse, with the rule it breaks; text the notation cannot read
        is no action to judge, and is said plainly (:meth:`_not_an_action`)."""
        if exc.rule == "NOTATION":
            self._not_an_action(exc.reason)
            return
        self.console.print(Text.assemble(("Illegal: ", "bold red"), (f"[{exc.rule}] ", "red"), exc.reason))
        self.console.print(Text("Nothing changed. Choose again ('help' for the commands).", style="dim"))

    def _not_an_action(self, what: str) -> None:
        """Text that is not an action of the game at all (a typo, a misspelt command): said
        without a rule id, since none was broken; a rule id is kept for the rules' refusals."""
        self.console.print(Text(f"{what}: type a number from the menu, an action as the menu writes it, "
                                "or 'help' for the commands.", style="yellow"))

    # Showing the game ----------------------------------------------------------------

    def show_events(self, events: Iterable[Event]) -> None:
        """Print (and log) the events the human's seat may see, and only those."""
        for event in events:
            if event.visible(self.human):
                self.log.append(event)
                self.console.print(self.render_event(event))

    def _show_decision(self, actions: list[Action], *, full: bool, obs: Obs | None = None) -> None:
        obs = self.observation() if obs is None else obs
        self.console.print()
        self.console.print(self.render_board(obs, actions) if full else self.render_status(obs))
        self.console.print(self.render_decision(obs, actions))
        self.console.print(self.render_menu(obs, actions))

    # Saving --------------------------------------------------------------------------

    def current_record(self) -> GameRecord:
        """The game so far, with the digest of its state (checked by ``ecliptic replay --check``);
        without one while an action is half applied (the record stops before it)."""
        r = self.record
        digest = None if self._applying else state_digest(self.game, self.state)
        return GameRecord(r.game, dict(r.config), r.seed, list(r.actions), digest=digest)

    def save_meta(self) -> dict[str, Any]:
        """The ``cli`` table of this session's save files. ``human_seat`` is the engine's index
        (0 for the first player), not the seat a person types (``--seat 1``): saves of every
        version of the command line read back at the same seat."""
        return {"human_seat": self.human, "bots": self.bot_specs}

    def save(self, name: str, *, replace: bool = False) -> None:
        """``save FILE``: asks before replacing a file (``save! FILE`` does not ask); refuses
        what is not a regular file, and any name it cannot write, with one line."""
        if not name:
            self.console.print(Text("Say where: save FILE", style="yellow"))
            return
        try:
            path = save_target(name)
            if not replace and path.exists() and not self._confirm(f"{path} exists. Replace it? [y/N] "):
                self.console.print(Text(f"Not saved: {path} is unchanged (save! FILE replaces without "
                                        "asking).", style="yellow"))
                return
            write_save(path, self.current_record(), self.save_meta())
        except SaveRefused as exc:
            self.console.print(Text(f"Not saved: {exc}.", style="bold red"))
            return
        except (OSError, ValueError) as exc:
            self.console.print(Text(f"Cannot save to {name}: {_reason(exc)}.", style="bold red"))
            return
        self.console.print(Text(f"Saved {len(self.record.actions)} actions to {path}. "
                                f"Resume with: {resume_command(path)}", style="green"))

    def _confirm(self, question: str) -> bool:
        try:
            answer = self.read(question)
        except EOFError:
            return False
        if self.echo:
            self.console.print(Text(answer))
        return answer.strip().lower() in ("y", "yes")

    def keep_autosave(self) -> None:
        """Write the game so far over its autosave (a new file in :func:`autosave_dir` the
        first time), as :func:`write_save` does every save: whole or not at all. Called when
        the game starts and after every applied action, so the autosave is always the game as
        it stands, and ``kill -9`` at any moment loses at most the action being applied.

        Signals wait meanwhile (:meth:`_signalled`) and are answered once the file is
        written. A write that fails (a full disk) does not stop the game: it is said once,
        and tried again after the next action and when the human leaves."""
        self._writing = True
        problem = ""
        try:
            self._write_autosave()
        except (OSError, ValueError) as exc:
            problem = _reason(exc)
        finally:
            self._writing = False
        pending, self._pending = self._pending, None
        if pending is not None:
            raise pending
        if problem and problem != self._autosave_problem:
            self.console.print(Text(f"The game could not be autosaved in {autosave_dir()}: {problem}. "
                                    "It goes on; 'save FILE' saves it elsewhere.", style="bold red"))
        self._autosave_problem = problem

    def _write_autosave(self) -> Path:
        """The game so far in :attr:`autosave` (a new file the first time), its lock held."""
        if self.autosave is None:
            self.autosave = self._write_new(autosave_dir(), hold=True)
        else:
            self._hold(write_save(self.autosave, self.current_record(), self.save_meta(), hold=True))
        return self.autosave

    def _hold(self, fd: int | None) -> None:
        """Hold the lock of the autosave just written; let go of the one before it."""
        old, self._held = self._held, fd
        if old is not None:
            os.close(old)

    def _let_go(self) -> None:
        """The session ends: its autosave is no longer held (another game may resume it)."""
        self._hold(None)

    def _drop_autosave(self) -> None:
        """The game is kept elsewhere now (finished, or in a crash file): its autosave, which
        has nothing left to resume, is removed."""
        if self.autosave is not None:
            with contextlib.suppress(OSError):
                durable.remove(self.autosave)  # synced: a power cut must not bring it back
        self._let_go()

    def leave(self, why: str, code: int) -> int:
        """Leave the game with exit ``code``, saving it first unless it is over: to
        ``autosave`` (a new file in :func:`autosave_dir` if it has none yet). Printing may
        fail when the terminal or the output pipe is gone; the game is saved all the same."""
        self._leaving = True  # a second SIGHUP (or Ctrl-C) must not cut the save short
        saved = None
        problem = ""
        if not self.state.is_over:  # before any move too: the seed and the setup are the game
            try:
                saved = self._write_autosave()
            except (OSError, ValueError) as exc:
                problem = _reason(exc)
        with contextlib.suppress(*_NOT_SHOWN):
            self.console.print()
            self.console.print(why)
            if saved is not None:
                self.console.print(Text(f"The game is saved in {saved}.\nResume it with: "
                                        f"{resume_command(saved)}", style="green"))
            elif problem:
                self.console.print(Text(f"The game could not be saved in {autosave_dir()}: {problem}.",
                                        style="bold red"))
        return code

    def crash(self, exc: BaseException) -> int:
        """A failure of the rules engine (a bug): the game so far goes to a crash file of its
        own in :func:`crash_dir` (replayable, resumable), which replaces its autosave, and the
        exit code is 1. If the crash file cannot be written, the autosave stays."""
        self._applying = True  # the state may be half changed: the record stops before
        self._leaving = True
        try:
            path = self._write_new(crash_dir())
            where = f"the game so far is saved in {path} (resume it with: {resume_command(path)})"
            self._drop_autosave()
        except (OSError, ValueError) as problem:
            where = f"the game could not be saved ({_reason(problem)})"
        with contextlib.suppress(*_NOT_SHOWN):
            self.console.print(Text(f"Error: the rules engine failed ({type(exc).__name__}: {exc}); this is "
                                    f"a bug; {where}", style="bold red"))
        return EXIT_ENGINE_BUG

    def _write_new(self, folder: Path, *, hold: bool = False) -> Path:
        """The game so far in a new file of ``folder`` (:func:`new_file`, then written whole by
        :func:`write_save`; with ``hold``, its lock held); if writing fails, the empty file is
        removed and the error raised."""
        path = new_file(folder, self._file_stem())
        try:
            fd = write_save(path, self.current_record(), self.save_meta(), hold=hold)
        except BaseException:
            with contextlib.suppress(OSError):
                path.unlink()
            raise
        if hold:
            self._hold(fd)
        return path

    def _file_stem(self) -> str:
        return f"{self.record.game}-{time.strftime('%Y%m%d-%H%M%S')}-seed{self.record.seed}"

    @contextlib.contextmanager
    def _signal_handlers(self) -> Iterator[None]:
        """While the game runs and is being saved, SIGHUP (the terminal closed), SIGINT
        (Ctrl-C) and SIGTERM (``kill``) go to :meth:`on_hangup`, :meth:`on_interrupt` and
        :meth:`on_terminate`. (SIGKILL cannot be caught: the autosave, kept current as the
        game goes, is what survives it.)"""
        handlers = [(getattr(signal, "SIGHUP", None), self.on_hangup), (signal.SIGINT, self.on_interrupt),
                    (signal.SIGTERM, self.on_terminate)]
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = [(sig, signal.signal(sig, handler)) for sig, handler in handlers if sig is not None]
        try:
            with self._redelivery.watching():  # answered at the prompt too (ui/signals.py)
                yield
        finally:
            for sig, old in previous:
                signal.signal(sig, old)

    def _signalled(self, leave: BaseException) -> None:
        """A signal asks to leave: ``leave`` is raised now, or once the autosave being written
        is whole (the first signal to wait is the one answered), or never while the game is
        being saved on the way out."""
        if self._leaving:
            return
        if self._writing:
            self._pending = self._pending or leave
            return
        raise leave

    def on_hangup(self, signum: int, frame: FrameType | None) -> None:
        """SIGHUP: leave, saving the game (ignored while it is being saved)."""
        self._redelivery.answered(signum)
        self._signalled(TerminalClosed("The terminal closed (SIGHUP): leaving the game."))

    def on_interrupt(self, signum: int, frame: FrameType | None) -> None:
        """Ctrl-C: leave, saving the game (ignored while it is being saved)."""
        self._redelivery.answered(signum)
        self._signalled(KeyboardInterrupt())

    def on_terminate(self, signum: int, frame: FrameType | None) -> None:
        """SIGTERM: leave, saving the game, as for SIGHUP (ignored while it is being saved)."""
        self._redelivery.answered(signum)
        self._signalled(Terminated("Asked to stop (SIGTERM): leaving the game."))
