"""The same run's yardsticks: python-chess and OpenSpiel's Python tic-tac-toe.

Both are played as our playouts are: uniformly random moves until the game ends, with the
library's own legal-move generation, move application and end-of-game test. They belong to
the optional ``bench`` extra; :func:`load` says why one cannot run instead of failing.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Baseline:
    """A loaded baseline: ``play(games)`` plays that many random games and returns the moves
    made (``None`` with the ``reason`` when the package is missing)."""

    name: str
    unit: str
    play: Callable[[int], int] | None
    reason: str = ""


def chess() -> Baseline:
    """python-chess random playouts: ``list(board.legal_moves)``, ``push``, ``is_game_over()``."""
    try:
        lib: Any = importlib.import_module("chess")
    except ImportError as exc:
        return Baseline("python-chess", "plies/s", None, f"unavailable ({exc})")

    def play(games: int) -> int:
        plies = 0
        for seed in range(games):
            rng = random.Random(seed)
            board = lib.Board()
            while not board.is_game_over():
                moves = list(board.legal_moves)
                board.push(moves[rng.randrange(len(moves))])
                plies += 1
        return plies

    return Baseline(f"python-chess {lib.__version__}", "plies/s", play)


def openspiel(name: str = "python_tic_tac_toe", label: str | None = None) -> Baseline:
    """An OpenSpiel game played with random ``legal_actions`` + ``apply_action`` steps: by
    default ``python_tic_tac_toe``, a game written in Python on OpenSpiel's API (a C++ game
    such as ``tic_tac_toe`` is the other yardstick, benchmarks/aec.py)."""
    label = label or f"OpenSpiel {name}"
    try:
        pyspiel: Any = importlib.import_module("pyspiel")
        importlib.import_module("open_spiel.python.games")  # registers the Python games
        game = pyspiel.load_game(name)
    except Exception as exc:  # ImportError, or a build without the Python games
        return Baseline(label, "steps/s", None, f"unavailable ({type(exc).__name__}: {exc})")

    def play(games: int) -> int:
        steps = 0
        rng = random.Random(0)
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
                steps += 1
        return steps

    return Baseline(label, "steps/s", play)
