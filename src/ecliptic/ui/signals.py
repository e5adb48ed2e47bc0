"""Signals that reach the terminal game while it waits at its prompt are answered at once.

CPython runs a Python signal handler only between two steps of the interpreter. While the game
waits at its prompt the main thread is inside ``input()``: readline's loop (or the plain line
reader) blocks in ``select``/``read`` on the terminal and checks for signals only when that call
is interrupted. A signal that lands in the moment after ``input()`` let go of the interpreter and
before the call blocks interrupts nothing: CPython's C handler notes it, and the Python handler
runs at the next key typed. A SIGTERM from a process manager, or the SIGHUP of a closed terminal
(no key will come), would then go unanswered.

:class:`Redelivery` closes that gap with the self-pipe CPython already offers:
:func:`signal.set_wakeup_fd` makes the C handler write the signal's number on a pipe, whenever it
lands. A watcher thread reads the pipe; until the Python handler has run (it calls
:meth:`Redelivery.answered`), the watcher sends the signal again to the main thread
(:func:`signal.pthread_kill`) every :data:`RESEND` seconds. That one interrupts the blocked call,
and the handler runs. A signal answered at once is never sent twice; a handler that waits (the
autosave being written) has still answered it.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import threading
from collections.abc import Iterator

RESEND = 0.2
"""Seconds the watcher waits for the Python handler before it sends the signal again: far
longer than a handler takes to start when the main thread runs Python, short enough that a
person does not notice the wait."""


class Redelivery:
    """The watcher of the wakeup pipe (see the module's docstring). Use :meth:`watching` from
    the main thread around the part of the program whose handlers must run promptly."""

    def __init__(self) -> None:
        self._answered: dict[int, threading.Event] = {}
        self._lock = threading.Lock()

    def answered(self, signum: int) -> None:
        """The Python handler of ``signum`` has run: the watcher stops sending it."""
        self._event(signum).set()

    def _event(self, signum: int) -> threading.Event:
        with self._lock:
            return self._answered.setdefault(signum, threading.Event())

    def _wait_for_handler(self, signum: int, main: int, stop: threading.Event) -> None:
        """Send ``signum`` again until its handler has run, then take that run as the answer
        to this delivery (each delivery writes a byte, and each handler run follows one)."""
        event = self._event(signum)
        while not event.wait(RESEND) and not stop.is_set():
            with contextlib.suppress(ProcessLookupError, OSError):
                signal.pthread_kill(main, signum)
        event.clear()

    def _watch(self, read_end: int, stop_end: int, main: int, stop: threading.Event) -> None:
        while not stop.is_set():
            ready, _, _ = select.select([read_end, stop_end], [], [])
            if stop_end in ready:
                return
            try:
                data = os.read(read_end, 64)
            except BlockingIOError:
                continue
            for signum in dict.fromkeys(data):  # each signal once, in the order it came
                self._wait_for_handler(signum, main, stop)

    @contextlib.contextmanager
    def watching(self) -> Iterator[None]:
        """While inside, a signal the process has a Python handler for is delivered again to
        the main thread until its handler has run. Elsewhere than in the main thread (where
        CPython allows no wakeup descriptor) nothing changes."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        with self._lock:  # a handler run outside (called directly) answers no delivery to come
            self._answered.clear()
        read_end, write_end = os.pipe()
        stop_read, stop_write = os.pipe()
        os.set_blocking(read_end, False)
        os.set_blocking(write_end, False)
        stop = threading.Event()
        previous = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
        main = threading.main_thread().ident
        assert main is not None
        watcher = threading.Thread(target=self._watch, args=(read_end, stop_read, main, stop),
                                   name="signal-redelivery", daemon=True)
        watcher.start()
        try:
            yield
        finally:
            signal.set_wakeup_fd(previous)
            stop.set()
            os.write(stop_write, b"x")
            watcher.join()
            for fd in (read_end, write_end, stop_read, stop_write):
                os.close(fd)
