"""A signal whose Python handler cannot run at once (the main thread is blocked in a read that
the signal did not interrupt) is answered all the same (ecliptic/ui/signals.py).

The moment the terminal game's race happens in (a signal landing just before ``input()``
blocks) cannot be hit on purpose, but its shape can: the signal is delivered to another
thread, so CPython's C handler notes it while the main thread stays blocked in ``os.read`` on a
pipe nobody writes. Without the redelivery that process never ends; the bound below only stops
a test that would hang, it times nothing."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import ecliptic

SOURCES = str(Path(ecliptic.__file__).resolve().parents[1])
BOUND = 120.0

PROGRAM = textwrap.dedent('''
    import os, signal, sys, threading, time
    from ecliptic.ui.signals import Redelivery

    redelivery = Redelivery()

    class Answered(BaseException):
        pass

    def handler(signum, frame):
        redelivery.answered(signum)
        raise Answered

    signal.signal(signal.SIGUSR1, handler)
    read_end, write_end = os.pipe()

    def elsewhere():
        time.sleep(0.5)  # the main thread is blocked in os.read by now (or the handler runs first)
        signal.pthread_kill(threading.get_ident(), signal.SIGUSR1)  # noted here, not in the main thread

    with redelivery.watching() if sys.argv[1] == "watching" else open(os.devnull):
        threading.Thread(target=elsewhere, daemon=True).start()
        try:
            os.read(read_end, 1)
        except Answered:
            print("answered")
''')


def run(mode: str, bound: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", PROGRAM, mode], capture_output=True, text=True, timeout=bound,
                          env={"PYTHONPATH": SOURCES, "PATH": "/usr/bin:/bin"})


def test_a_signal_the_blocked_main_thread_missed_is_answered() -> None:
    done = run("watching", BOUND)
    assert (done.returncode, done.stdout, done.stderr) == (0, "answered\n", "")


def test_without_the_redelivery_the_same_signal_goes_unanswered() -> None:
    """The shape above is the race's: without :class:`Redelivery` the handler never runs."""
    with pytest.raises(subprocess.TimeoutExpired):
        run("plain", 5.0)
