"""A real ``ecliptic play`` process, as a person runs it, stopped the ways a process is stopped:
``kill -9`` (nothing can be done then: the autosave, kept current after every action, is what
is left), SIGTERM (saved, as a closed terminal is), and an output pipe that closes
(``ecliptic play | head``: saved, and the process leaves quietly). After each,
``play --resume autosave`` goes on at the decision the person last saw.

The process reads a pseudo-terminal (readline, as at a keyboard) or a pipe. Every wait is for a
condition (a prompt shown, the process gone), polled with a generous bound that only fails a
test that would otherwise hang; nothing is timed.
"""

from __future__ import annotations

import codecs
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Literal

import pytest

import ecliptic
from ecliptic.engine.record import GameRecord, replay, state_digest
from ecliptic.games import get_game
from ecliptic.ui import session as sess

SOURCES = str(Path(ecliptic.__file__).resolve().parents[1])
"""The ecliptic the tests import is the one the process runs (a source tree or an install)."""
PLAY = [sys.executable, "-c", "from ecliptic.cli import main; main()", "play"]
GAME = ["--players", "3", "--seed", "1", "--layout", "preset", "--bots", "random"]
"""Three seats, so that two bots move between two decisions of the person."""
BOUND = 180.0
"""Seconds to wait for a condition before the test fails instead of hanging (the machine may be
loaded; the conditions come in well under a second when it is not)."""
PROMPT = "\n> "
CONTROL = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()=>][0-9A-Za-z]?|\r")
"""Terminal control sequences (readline's, say) and carriage returns: not what is read."""

Channel = Literal["tty", "pipe"]


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The processes and the test share a data folder of this test's own."""
    folder = tmp_path / "data"
    monkeypatch.setenv("ECLIPTIC_DATA_DIR", str(folder))
    monkeypatch.chdir(tmp_path)
    return folder


class Play:
    """``ecliptic play ARGS`` in a process of its own: its input a pseudo-terminal (``tty``, as a
    person types) or a pipe, its output the same terminal or a pipe; :attr:`screen` is what it
    printed so far (control sequences removed), read by :meth:`wait_for`."""

    def __init__(self, *args: str, stdin: Channel = "tty", stdout: Channel = "tty") -> None:
        self.master: int | None = None
        slave = None
        if "tty" in (stdin, stdout):
            self.master, slave = pty.openpty()
            fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 100, 400, 0, 0))
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [SOURCES, os.environ.get("PYTHONPATH")])),
               "COLUMNS": "400", "LINES": "100", "TERM": "dumb", "NO_COLOR": "1"}
        self.proc = subprocess.Popen(
            [*PLAY, *args], env=env, start_new_session=True,
            stdin=slave if stdin == "tty" else subprocess.PIPE,
            stdout=slave if stdout == "tty" else subprocess.PIPE, stderr=subprocess.PIPE)
        if slave is not None:
            os.close(slave)
        self.typing: int = self.master if self.master is not None and stdin == "tty" else self.proc.stdin.fileno()  # type: ignore[union-attr]
        self.output: int | None = self.master if stdout == "tty" else self.proc.stdout.fileno()  # type: ignore[union-attr]
        self._printed = ""
        self._decode = codecs.getincrementaldecoder("utf-8")("replace").decode  # a character may span reads

    @property
    def screen(self) -> str:
        return CONTROL.sub("", self._printed)  # (a sequence, too, may span reads)

    def _read(self, wait: float) -> bool:
        """What the process printed meanwhile, waiting up to ``wait`` for some; False at the end
        of its output."""
        if self.output is None:
            return False
        ready, _, _ = select.select([self.output], [], [], wait)
        if not ready:
            return True
        try:
            chunk = os.read(self.output, 65536)
        except OSError:  # EIO: every end of the terminal's other side is closed
            chunk = b""
        if not chunk:
            self.output = None
            return False
        self._printed += self._decode(chunk)
        return True

    def wait_for(self, text: str, count: int = 1) -> str:
        """Until ``text`` has been printed ``count`` times; the screen so far."""
        deadline = time.monotonic() + BOUND
        while self.screen.count(text) < count:
            alive = self._read(0.1)
            assert alive or self.screen.count(text) >= count, f"the game ended first:\n{self.screen}\n{self.errors()}"
            assert time.monotonic() < deadline, f"{text!r} was not shown {count} times:\n{self.screen[-3000:]}"
        return self.screen

    def type(self, line: str) -> None:
        os.write(self.typing, f"{line}\n".encode())

    def close_output(self) -> None:
        """The reader of the output pipe goes away (``head`` has its lines)."""
        assert self.proc.stdout is not None
        self.proc.stdout.close()
        self.output = None

    def signal(self, signum: int) -> None:
        os.killpg(self.proc.pid, signum)

    def end(self) -> int:
        """Wait for the process to end, reading what it prints meanwhile; its exit status.

        A signal is sent once: one that lands while the game waits at its prompt, even in the
        moment before CPython's ``input()`` blocks reading the terminal, is answered without a
        key typed (ecliptic/ui/signals.py); a game that missed it would fail here at BOUND."""
        deadline = time.monotonic() + BOUND
        while self._read(0.1) and self.proc.poll() is None:
            assert time.monotonic() < deadline, f"the game did not end:\n{self.screen[-3000:]}"
        code = self.proc.wait(timeout=BOUND)
        while self._read(0):  # the last lines
            pass
        if self.master is not None:
            os.close(self.master)
            self.master = None
        return code

    def errors(self) -> str:
        """What the process wrote on stderr (once it ended)."""
        assert self.proc.stderr is not None
        if self.proc.poll() is None:
            return ""
        return self.proc.stderr.read().decode("utf-8", "replace")


def decision(screen: str) -> str:
    """The last decision shown: the table from its heading line ('Round N · ...') to the prompt."""
    end = screen.rindex(PROMPT)
    return screen[screen.rindex("\nRound ", 0, end):end]


def the_autosave(data: Path) -> Path:
    """The one autosave, with no temporary file beside it."""
    [path] = (data / "autosaves").iterdir()
    assert path.suffix == ".json", path
    return path


def replays_to_its_digest(path: Path) -> GameRecord:
    record = GameRecord.load(path)
    assert record.digest == state_digest(get_game(record.game), replay(record))
    return record


def resumed_decision(record: GameRecord) -> str:
    """``play --resume autosave`` in a process of its own: the decision it shows first (then
    it is left again with ``quit``, saved over itself)."""
    game = Play("--resume", "autosave", stdin="pipe", stdout="pipe")
    screen = game.wait_for(PROMPT)
    assert f"{len(record.actions)} actions replayed" in screen
    shown = decision(screen)
    game.type("quit")
    assert game.end() == 0, game.screen
    assert game.errors() == ""
    return shown


def test_kill_9_loses_nothing_and_resume_goes_on_at_the_same_decision(data: Path) -> None:
    game = Play(*GAME)
    game.wait_for(PROMPT)
    game.type("PASS")  # then both bots play out the round, and the Enlightenment phase comes
    game.wait_for(PROMPT, 2)
    game.type("1")  # DONE
    before = decision(game.wait_for(PROMPT, 3))
    saved = the_autosave(data)  # written before anything of the last moves was shown
    record = replays_to_its_digest(saved)
    assert record.actions[0] == "PASS" and "DONE" in record.actions
    assert len(record.actions) > record.actions.index("DONE") + 1  # the bots' moves after it too
    assert sess.in_play(saved)  # the game being played holds it
    game.signal(signal.SIGKILL)
    assert game.end() == -signal.SIGKILL
    assert the_autosave(data) == saved and GameRecord.load(saved) == record
    assert not sess.in_play(saved)  # the kill let go of it: it is the game left last
    assert resumed_decision(record) == before
    assert GameRecord.load(the_autosave(data)).actions == record.actions  # saved over itself


@pytest.mark.parametrize(("signum", "code", "said"), [
    (signal.SIGTERM, sess.EXIT_TERMINATED, "Asked to stop (SIGTERM): leaving the game."),
    (signal.SIGHUP, sess.EXIT_HANGUP, "The terminal closed (SIGHUP): leaving the game."),
], ids=["sigterm", "sighup"])
def test_one_signal_at_the_prompt_saves_the_game_and_leaves_at_once(data: Path, signum: int, code: int,
                                                                      said: str) -> None:
    """The signal is sent once, as the prompt is shown (when the game has just started to
    wait for a line): the game leaves without a key typed, saved, with 128 + the signal."""
    game = Play(*GAME)
    game.wait_for(PROMPT)
    game.type("PASS")
    before = decision(game.wait_for(PROMPT, 2))
    game.signal(signum)
    assert game.end() == code == 128 + signum
    saved = the_autosave(data)
    assert said in game.screen
    assert f"The game is saved in {saved}.\nResume it with: ecliptic play --resume autosave" in game.screen
    assert "Traceback" not in game.screen and game.errors() == ""
    record = replays_to_its_digest(saved)
    assert record.actions[0] == "PASS"
    assert resumed_decision(record) == before


@pytest.mark.parametrize(("stdin", "applied"), [("tty", ["PASS"]), ("pipe", [])],
                         ids=["typed-at-a-terminal", "piped-in"])
def test_a_closed_output_pipe_saves_the_game_and_leaves_quietly(stdin: Channel, applied: list[str],
                                                                 data: Path) -> None:
    """``ecliptic play | head``: the next line printed meets the closed pipe. At a terminal
    that is PASS's first event (PASS applied, the bots not yet moved); from a pipe, the echo
    of the line read, before it is applied."""
    game = Play(*GAME, stdin=stdin, stdout="pipe")
    game.wait_for(PROMPT)
    game.close_output()
    game.type("PASS")
    assert game.end() == sess.EXIT_BROKEN_PIPE == 128 + signal.SIGPIPE
    assert game.errors() == ""  # no traceback, no "Exception ignored ... BrokenPipeError"
    record = replays_to_its_digest(the_autosave(data))
    assert record.actions == applied
    resumed = Play("--resume", "autosave", stdin="pipe", stdout="pipe")
    assert f"Resumed {the_autosave(data)}: {len(applied)} actions replayed" in resumed.wait_for(PROMPT)
    resumed.type("quit")
    assert resumed.end() == 0
