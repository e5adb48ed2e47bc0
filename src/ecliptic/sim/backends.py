"""Where a run's games are played: this machine's processes (``local``) or a Ray cluster
(``ray``); docs/scale-out.md.

A backend is ``map(play, tasks, count)``: the results of ``play(task)`` in task order, the tasks
drawn only as workers are ready for them, a bounded number of chunks in flight. Every run
(simulate, tournament, balance) hands its games to one, and because a game is a pure function
of its task and the results are folded in task order, the backend and its number of workers
change how soon a run ends, never what it finds.

Ray is an optional extra (``pip install 'ecliptic[ray]'``): it is imported only when the ``ray``
backend is asked for, so the engine and the ``local`` backend never load it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import socket
import threading
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice
from types import TracebackType
from typing import Any, TypeVar

from ecliptic.bots.plugins import with_plugins
from ecliptic.engine.errors import EclipticError

T = TypeVar("T")
R = TypeVar("R")
H = TypeVar("H")
"""A handle on a chunk being played (a future, a Ray object reference)."""

BACKENDS = ("local", "ray")
AHEAD = 4
"""Chunks in flight per worker: enough that no worker waits for the next one, few enough that
the results waiting to be taken in order stay a handful of chunks (memory flat)."""
RAY_CLIENT_PORT = 10001
"""The port of a Ray cluster's client server (``ray://host`` without a port)."""
CONNECT_SECONDS = 5.0
"""How long the host of a cluster's address has to answer before it is called unreachable."""
WAIT_SECONDS = 0.2
"""How often a Ray run waiting for a chunk looks whether Ctrl-C came."""
CANCEL_SECONDS = 10.0
"""How long the cancelled Ray chunks have to stop (a game stops at its next Python line)."""


class BackendError(EclipticError, RuntimeError):
    """A backend that cannot be used: Ray is not installed, the cluster does not answer, its
    workers cannot import Ecliptic, or a worker was lost for good."""


def all_cores() -> int:
    """The cores this process may run on (the default number of workers)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


class Backend(ABC):
    """Plays tasks somewhere, the results in task order. A context manager: leaving it
    releases what the backend started (a local Ray); ``close`` may be called more than once."""

    name: str
    workers: int

    @abstractmethod
    def map(self, play: Callable[[T], R], tasks: Iterable[T], count: int) -> Iterator[R]:
        """``map(play, tasks)`` for ``count`` tasks (a hint for the chunk size: the tasks are
        drawn lazily, never listed). ``play`` and the tasks must be picklable; stopping the
        iteration (a failed game, Ctrl-C, ``close()`` on it) drops the chunks still queued."""

    @abstractmethod
    def close(self) -> None:
        """Release what the backend started."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{self.name} backend, {self.workers} workers>"


def get_backend(name: str = "local", *, workers: int | None = None, address: str | None = None) -> Backend:
    """The backend called ``name`` (``local`` or ``ray``) with ``workers`` workers (default: all
    cores of this machine, or every CPU of the Ray cluster). ``address`` is a Ray cluster's
    (``auto``, ``HOST:PORT`` of its head, ``ray://HOST:PORT`` of its client server); without it
    ``ray`` starts a Ray of its own on this machine for the run. Bad values raise
    ``ValueError``, a cluster that cannot be used :class:`BackendError`; both say what to do."""
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}; choose from {', '.join(BACKENDS)}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise ValueError(f"use at least one worker, not {workers!r}")
    if name == "local":
        if address is not None:
            raise ValueError("an address is a Ray cluster's: give it with the ray backend")
        return LocalBackend(workers)
    return RayBackend(workers, address)


def backend_or_local(backend: Backend | None, workers: int) -> Backend:
    """What a run (``simulate``, ``run_tournament``) plays on: the backend it was given, or
    ``workers`` processes of this machine (the runs' older ``workers=`` argument)."""
    if backend is None:
        return LocalBackend(workers)
    if workers != 1:
        raise ValueError("give the workers to the backend (get_backend(name, workers=...)), not to the run")
    return backend


def ordered(chunks: Iterator[list[T]], submit: Callable[[list[T]], H], collect: Callable[[H], list[R]],
            cancel: Callable[[list[H]], None], limit: int) -> Generator[R, None, None]:
    """The one loop of every backend: submit chunks until ``limit`` are in flight, then give up
    the oldest chunk's results (in task order) before submitting the next. Whatever stops it
    (a failed game, Ctrl-C, the caller closing it) cancels the chunks still in flight."""
    in_flight: deque[H] = deque()
    try:
        for chunk in chunks:
            if len(in_flight) >= limit:
                yield from collect(in_flight.popleft())
            in_flight.append(submit(chunk))
        while in_flight:
            yield from collect(in_flight.popleft())
    except BaseException:
        cancel(list(in_flight))
        raise


def chunk_size(tasks: int, workers: int) -> int:
    """Small enough chunks that the workers finish together and the progress bar moves (about
    eight per worker), large enough that sending them costs little next to playing them."""
    return max(1, min(16, tasks // (workers * 8)))


def chunks(tasks: Iterator[T], size: int) -> Iterator[list[T]]:
    while chunk := list(islice(tasks, size)):
        yield chunk


def play_chunk(play: Callable[[T], R], chunk: list[T]) -> list[R]:
    """What a worker runs: a few tasks, in order."""
    return [play(task) for task in chunk]


# local -----------------------------------------------------------------------------


class LocalBackend(Backend):
    """This machine's processes. Workers are started by a fork server (a clean process that
    forks them), not by forking this one, which may be running threads (a progress bar):
    forking a threaded process can deadlock the child."""

    name = "local"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = all_cores() if workers is None else workers
        if self.workers < 1:
            raise ValueError("use at least one worker")

    def map(self, play: Callable[[T], R], tasks: Iterable[T], count: int) -> Iterator[R]:
        return play_in_order(play, tasks, count, self.workers)

    def close(self) -> None:
        """Nothing to release: each ``map`` starts its processes and stops them at its end."""


def play_in_order(play: Callable[[T], R], tasks: Iterable[T], count: int,
                  workers: int) -> Generator[R, None, None]:
    """The local backend's ``map``: ``workers`` processes play the chunks (``play`` must be a
    module-level function, to be pickled). One worker, or too few tasks to share out, plays
    them in this process."""
    size = chunk_size(count, workers)
    if workers == 1 or size >= count:
        yield from map(play, tasks)
        return
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=_worker_context(), initializer=_leave_interrupts)
    sent = with_plugins(play)  # the workers load this process's --plugin modules before they play

    def submit(chunk: list[T]) -> Future[list[R]]:
        return pool.submit(play_chunk, sent, chunk)

    def cancel(_queued: list[Future[list[R]]]) -> None:
        _stop_now(pool)

    yield from ordered(chunks(iter(tasks), size), submit, Future.result, cancel, AHEAD * workers)
    pool.shutdown()


def _stop_now(pool: ProcessPoolExecutor) -> None:
    """Drop the chunks queued and end the workers at once, with the chunks they are playing: a run
    that stops (Ctrl-C, a failed game, a caller that stops reading) does not wait for games nobody
    will read (a chunk of ISMCTS games takes minutes). The results are taken in task order, so a
    chunk still being played comes after every result handed out: the run's games stay exactly
    its first ones. The workers ignore SIGINT (:func:`_leave_interrupts`); SIGTERM ends them.
    Python 3.14's ``terminate_workers`` does this; before it the pool's own list of its processes
    is read."""
    terminate = getattr(pool, "terminate_workers", None)
    if terminate is not None:
        terminate()
    else:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(ProcessLookupError, ValueError):  # already ended, or closed
                if process.is_alive():
                    process.terminate()
    pool.shutdown(wait=True)  # the pool's own thread sees its workers gone, and ends


def _leave_interrupts() -> None:
    """Workers ignore Ctrl-C (SIGINT reaches the whole process group): this process alone
    answers it, by ending the workers (:func:`_stop_now`). A worker interrupted in the middle of
    taking a task off the shared queue would leave its lock held, and the run hung for good."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _worker_context() -> multiprocessing.context.BaseContext:
    """A fork server where the platform has one (Linux, macOS), else spawned processes."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


# ray -------------------------------------------------------------------------------


class RayBackend(Backend):
    """Ray: a Ray of its own on this machine for the run (``num_cpus`` = the workers; shut down
    at ``close``), a cluster at ``address``, or the Ray this process has already joined (a
    test's, a notebook's: used whatever the address, and left running). Each chunk is one Ray
    task; a game that fails on a worker raises its own exception here (the same
    :class:`~ecliptic.sim.simulate.SimulationError` text as locally). Ray retries a task whose
    worker or node died; a task lost for good is a :class:`BackendError`."""

    name = "ray"

    def __init__(self, workers: int | None = None, address: str | None = None) -> None:
        ray = _import_ray()
        self._ray = ray
        self._started = False
        if address is not None:
            _check_address(address)
        if not ray.is_initialized():
            options: dict[str, Any] = {"include_dashboard": False, "logging_level": "ERROR"}
            if address is None:
                options["num_cpus"] = all_cores() if workers is None else workers
            else:
                options["address"] = address
            try:
                ray.init(**options)
            except (ConnectionError, ValueError, RuntimeError) as exc:
                hint = "" if address is None else (
                    " (a cluster started with token authentication needs RAY_AUTH_MODE=token and its token "
                    "in ~/.ray/auth_token or RAY_AUTH_TOKEN here; docs/scale-out.md)")
                raise BackendError(f"could not start or join Ray{_at(address)}: {exc}{hint}") from None
            self._started = True
        try:
            self.workers = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
            self._remote = ray.remote(play_chunk)
            _check_workers(ray)
        except BaseException:
            self.close()
            raise

    def map(self, play: Callable[[T], R], tasks: Iterable[T], count: int) -> Iterator[R]:
        """Ctrl-C is taken between waits for a chunk, never inside a call into Ray: a
        ``KeyboardInterrupt`` raised in the middle of one could leave Ray's driver half torn down,
        and the process crashed when it then shut its Ray down (Ray 2.60)."""
        ray = self._ray
        sent = with_plugins(play)  # the workers load this process's --plugin modules before they play

        def submit(chunk: list[T]) -> Any:
            return self._remote.remote(sent, chunk)

        def cancel(refs: list[Any]) -> None:
            """Cancel the chunks still queued or running, then take what they left (their own
            failures, the cancellations) so that Ray does not log them as errors nobody saw."""
            for ref in refs:
                ray.cancel(ref)
            ended, _ = ray.wait(refs, num_returns=len(refs), timeout=CANCEL_SECONDS) if refs else ([], [])
            for ref in ended:
                with contextlib.suppress(ray.exceptions.RayError):
                    ray.get(ref)

        with _interrupts_between_waits() as interrupted:
            yield from ordered(chunks(iter(tasks), chunk_size(count, self.workers)), submit,
                               lambda ref: self._collect(ref, interrupted), cancel, AHEAD * self.workers)

    def _collect(self, ref: Any, interrupted: Callable[[], bool]) -> list[Any]:
        ray, exceptions = self._ray, self._ray.exceptions
        while not ray.wait([ref], timeout=WAIT_SECONDS)[0]:
            if interrupted():
                raise KeyboardInterrupt
        if interrupted():
            raise KeyboardInterrupt
        try:
            results: list[Any] = ray.get(ref)
        except exceptions.RayTaskError as exc:
            if isinstance(exc.cause, Exception):  # the game's own error, as a local run raises it
                raise exc.cause from None
            raise BackendError(f"a chunk of games failed on a Ray worker: {exc}") from None
        except exceptions.RayError as exc:  # a worker or node lost after Ray's retries
            raise BackendError(f"Ray lost a chunk of games: {type(exc).__name__}: {exc}") from None
        return results

    def close(self) -> None:
        if self._started:
            self._started = False
            self._ray.shutdown()


@contextlib.contextmanager
def _interrupts_between_waits() -> Iterator[Callable[[], bool]]:
    """While a Ray run is read: Ctrl-C only notes that it came, and the run raises
    ``KeyboardInterrupt`` at its next check (at most :data:`WAIT_SECONDS` later). Outside the
    main thread, or where Ctrl-C is ignored, nothing changes."""
    came: list[int] = []
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or previous is signal.SIG_IGN:
        yield lambda: False
        return
    signal.signal(signal.SIGINT, lambda signum, _frame: came.append(signum))
    try:
        yield lambda: bool(came)
    finally:
        signal.signal(signal.SIGINT, previous)


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BackendError("the ray backend needs Ray: pip install 'ecliptic[ray]'") from None
    return ray


def _at(address: str | None) -> str:
    return "" if address is None else f" at {address}"


def _check_address(address: str) -> None:
    """Refuse at once an address that cannot be a Ray cluster's, or whose host does not answer
    (Ray itself would retry for a minute and then exit the process)."""
    if address == "auto":
        return
    rest = address.removeprefix("ray://")
    host, colon, port_text = rest.rpartition(":")
    if not colon and address.startswith("ray://"):
        host, port_text = rest, str(RAY_CLIENT_PORT)
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536 or "/" in host:
        raise ValueError(f"{address!r} is not the address of a Ray cluster: give 'auto' (the cluster this "
                         "machine belongs to), HOST:PORT of its head node (port 6379 by default) or "
                         f"ray://HOST:PORT of its client server (port {RAY_CLIENT_PORT} by default)")
    try:
        socket.create_connection((host.strip("[]"), int(port_text)), timeout=CONNECT_SECONDS).close()
    except OSError as exc:
        raise BackendError(f"no Ray cluster answers at {address} ({exc.strerror or exc}); start one with "
                           "`ray start --head` on its head node, or check the address") from None


def _check_workers(ray: Any) -> None:
    """Ask one worker which Ecliptic it runs: a cluster whose nodes lack it, or run another
    version, is refused before any game is played (docs/scale-out.md, what each node needs)."""
    from ecliptic import __version__

    def version() -> str:  # nested: Ray sends it by value, so a node without Ecliptic can run it
        try:
            import ecliptic
        except ImportError as exc:
            return f"missing: {exc}"
        return str(ecliptic.__version__)

    try:
        theirs = ray.get(ray.remote(version).remote())
    except ray.exceptions.RayError as exc:
        raise BackendError(f"the Ray workers cannot run a task: {exc}") from None
    if theirs != __version__:
        raise BackendError(f"the Ray workers run Ecliptic {theirs}, this machine {__version__}: install the "
                           "same version on every node (docs/scale-out.md)")
