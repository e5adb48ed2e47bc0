"""Bots playing on the server, in a pool of processes.

Bots are CPU-bound (an ISMCTS bot thinks for a second), so they never run on the event
loop: a worker process receives the game's record (config, seed, actions so far), replays
it, and returns the notation its bot chooses. The choice then takes the path of a person's
action (:meth:`ecliptic.server.games.GameService.submit`): validated, committed, broadcast.
The worker sees the whole state, as a bot at the table does through the engine contract:
the bots play fair by their own rules (:mod:`ecliptic.bots.base`).
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

from ecliptic.bots.base import bot_seed, make_bot
from ecliptic.engine.record import GameRecord, replay
from ecliptic.games import get_game

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


def choose(turn: BotTurn) -> str:
    """Runs in a worker process: the bot's action for ``turn.seat``, as notation. The bot's
    own seed comes from the game's seed, the seat and the index, so a restarted server's bot
    chooses as the first one would have."""
    state = replay(GameRecord(turn.game, dict(turn.config), turn.seed, list(turn.actions)))
    game = get_game(turn.game)
    bot = make_bot(turn.level, bot_seed(turn.seed, turn.seat) ^ len(turn.actions))
    return str(bot.choose(game, state, turn.seat))


class BotPool:
    """A lazily started process pool (``spawn``: the server process has threads)."""

    def __init__(self, workers: int = 1, executor: Executor | None = None) -> None:
        self.workers = workers
        self._executor = executor

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._executor

    async def run(self, fn: Callable[[J], R], job: J) -> R:
        """Any of the server's CPU-bound jobs (a bot's choice, a suggested move, a game's win
        chances) in a worker, so the event loop never waits on one."""
        return await asyncio.get_running_loop().run_in_executor(self._pool(), fn, job)

    async def choose(self, turn: BotTurn) -> str:
        return await self.run(choose, turn)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
