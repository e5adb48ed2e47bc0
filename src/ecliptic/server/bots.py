"""Bots playing on the server, in a pool of processes.

Bots are CPU-bound (an ISMCTS bot thinks for a second), so they never run on the event
loop: a worker process receives the game's record (config, seed, actions so far), replays
it, and returns the notation its bot chooses. The choice then takes the path of a person's
action (:meth:`ecliptic.server.games.GameService.submit`): validated, committed, broadcast.
The worker sees the whole state, as a bot at the table does through the engine contract:
the bots play fair by their own rules (:mod:`ecliptic.bots.base`).

A worker ends when the server process ends, however it ends (:func:`watch_parent`): after a
``kill -9`` no worker is left thinking, nor the resource tracker that the workers kept open.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import TypeVar

from ecliptic.bots.base import decide, decision_seed, make_bot, replay_for
from ecliptic.bots.plugins import with_plugins
from ecliptic.games import get_game
from ecliptic.server.levels import spec_of

J = TypeVar("J")
R = TypeVar("R")


@dataclass(frozen=True)
class BotTurn:
    """What a worker needs to choose one action."""

    game: str
    config: dict[str, object]
    seed: int
    actions: tuple[str, ...]
    seat: int
    level: str
    """The seat's level, or (as the pool sends it to a worker) the bot text it stands for."""


def choose(turn: BotTurn) -> str:
    """Runs in a worker process: the bot's action for ``turn.seat``, as notation. The bot is
    built anew for every decision, in whichever worker is free, so it is walked through its
    seat's own decisions leading up to this one (:func:`replay_for`: a heuristic bot in the
    middle of a Move's steps needs the copy it chose the Move on), and seeded from the game's
    seed, the seat and the index (:func:`decide`), as the terminal's bots are: a restarted
    server's bot, or one in another worker, chooses as the first one would have."""
    game = get_game(turn.game)
    index = len(turn.actions)
    bot = make_bot(turn.level, decision_seed(turn.seed, turn.seat, index))
    state = replay_for(bot, game, dict(turn.config), turn.seed, turn.actions, turn.seat)
    return str(decide(bot, game, state, turn.seat, turn.seed, index))


PARENT_GONE = 70
"""A worker's exit status when it ends because the server process is gone."""


def _exit_when_parent_ends(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()
    os._exit(PARENT_GONE)


def watch_parent() -> None:
    """The pool's initializer, run in each worker: a daemon thread that ends the worker as soon
    as the process that started it is gone, however it ended (a ``kill -9`` runs no clean-up,
    and a worker waiting for its next job would otherwise wait for good).

    It waits on the parent's *sentinel*, the read end of a pipe whose only write end the
    parent holds (multiprocessing's own ``spawn`` start, :func:`multiprocessing.parent_process`):
    the kernel closes that end when the parent dies, so the read returns at once, with no
    polling and nothing Linux-only. Chosen over ``prctl(PR_SET_PDEATHSIG)``, which fires when
    the *thread* that started the worker ends (the pool starts workers from whichever thread
    submits a job), and over polling ``os.getppid()``, which wakes every worker every interval
    and notices late. A parent that died before the thread started is noticed at once too
    (the pipe is already closed)."""
    parent = multiprocessing.parent_process()
    if parent is None:  # (not a child of multiprocessing: nothing to watch)
        return
    threading.Thread(target=_exit_when_parent_ends, args=(parent,), name="watch-parent", daemon=True).start()


class BotPool:
    """A lazily started process pool (``spawn``: the server process has threads), whose
    workers end with the server process (:func:`watch_parent`)."""

    def __init__(self, workers: int = 1, executor: Executor | None = None) -> None:
        self.workers = workers
        self._executor = executor

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=watch_parent)
        return self._executor

    async def run(self, fn: Callable[[J], R], job: J) -> R:
        """Any of the server's CPU-bound jobs (a bot's choice, a suggested move, a game's win
        chances) in a worker, so the event loop never waits on one. The worker loads the
        ``--plugin`` modules of ``ecliptic serve`` first (:func:`ecliptic.bots.plugins.with_plugins`)."""
        return await asyncio.get_running_loop().run_in_executor(self._pool(), with_plugins(fn), job)

    async def choose(self, turn: BotTurn) -> str:
        """The bot's move for ``turn``: its level turned into the bot text the host gave it
        (:mod:`ecliptic.server.levels`) here, where the offer is known, before a worker builds it."""
        return await self.run(choose, replace(turn, level=spec_of(turn.level)))

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
