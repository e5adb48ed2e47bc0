"""Simulating many bot games for balance questions (see :mod:`ecliptic.sim.simulate`)."""

from ecliptic.sim.simulate import (
    MAX_DECISIONS,
    GameResult,
    RunInterrupted,
    SimulationError,
    SimulationInterrupted,
    SimulationSummary,
    game_seeds,
    play_one,
    seed_stream,
    simulate,
)

__all__ = [
    "MAX_DECISIONS",
    "GameResult",
    "RunInterrupted",
    "SimulationError",
    "SimulationInterrupted",
    "SimulationSummary",
    "game_seeds",
    "play_one",
    "seed_stream",
    "simulate",
]
