"""``--games`` is bounded by time, not by memory: ``simulate`` and ``tournament`` draw each
game's seed and task as the game is handed out, never a list of all of them, so a run of
10**11 games starts at once and its memory does not grow with the number asked for.

Each test asks for 10**11 games with the game itself replaced by a stand-in that stops the
run after a few games; a counting generator of seeds fails the test as soon as the run draws
more seeds than it plays games (so a regression fails at once, instead of filling memory)."""

from __future__ import annotations

import importlib
import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from ecliptic.bots.base import make_bot
from ecliptic.cli import app
from ecliptic.engine.rng import Rng
from ecliptic.games import get_game
from ecliptic.sim.simulate import GameResult, SimulationError, play_in_order, simulate
from ecliptic.sim.tournament import TournamentGame, faction_names, run_tournament

sim = importlib.import_module("ecliptic.sim.simulate")  # the package's `simulate` is the function
tour = importlib.import_module("ecliptic.sim.tournament")

HUGE = 10**11
PLAYED = 3
"""Games the stand-in plays before it stops the run."""
AHEAD = 1000
"""Seeds a run may draw beyond the games it played before the test calls it a list."""
PEAK_BYTES = 64 * 1024
"""About ten times what the few games take (some 6 KB); listing 10**11 seeds would take 4 TB."""


class CountingRng:
    """The run seed's generator, counting the seeds drawn from it."""

    drawn = 0

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    @classmethod
    def from_seed(cls, seed: int) -> CountingRng:
        return cls(Rng.from_seed(seed))

    def next_u64(self) -> int:
        CountingRng.drawn += 1
        if CountingRng.drawn > PLAYED + AHEAD:
            raise AssertionError(f"the run drew {CountingRng.drawn} game seeds for {PLAYED} games played")
        return self.rng.next_u64()


class Stop(Exception):
    """The stand-in game's way of ending a run of 10**11 games."""


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> None:
    CountingRng.drawn = 0
    monkeypatch.setattr(sim, "Rng", CountingRng)


def _stop_after(played: list[int], result: Any) -> Any:
    if len(played) == PLAYED:
        raise Stop
    played.append(1)
    return result


def _peak(run: Any) -> int:
    """The most memory allocated while ``run()`` ran (it must stop with :class:`Stop`), once
    the game, its components and the bots are loaded (what any run loads once)."""
    get_game("tauceti")
    make_bot("random", 0)
    faction_names("tauceti")
    tracemalloc.start()
    try:
        with pytest.raises(Stop):
            run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_simulate_plans_no_list_of_games(counted: None, monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[int] = []
    result = GameResult(0, 0, ["Xunon", "Azars"], [0], [{"total": 3}, {"total": 1}], 8, 100)
    monkeypatch.setattr(sim, "play_one", lambda *_a, **_k: _stop_after(played, result))
    peak = _peak(lambda: simulate("tauceti", 2, HUGE, 1, workers=1, keep_results=False))
    assert len(played) == PLAYED and CountingRng.drawn <= PLAYED + 1
    assert peak < PEAK_BYTES, peak


def test_a_tournament_plans_no_list_of_games(counted: None, monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[int] = []
    game = TournamentGame(0, 0, ("random", "random"), ("Xunon", "Azars"), (3.0, 1.0), (1.0, 0.0), (1.0, 2.0), 8,
                          100)
    monkeypatch.setattr(tour, "play_game", lambda *_a, **_k: _stop_after(played, game))
    peak = _peak(lambda: run_tournament("tauceti", 2, ["random"], HUGE, 1, workers=1))
    assert len(played) == PLAYED and CountingRng.drawn <= PLAYED + 1
    assert peak < PEAK_BYTES, peak


def test_the_workers_are_handed_a_few_chunks_at_a_time() -> None:
    drawn = 0

    def tasks() -> Iterator[int]:
        nonlocal drawn
        while True:
            drawn += 1
            yield -drawn

    results = play_in_order(abs, tasks(), HUGE, workers=2)
    assert [next(results) for _ in range(40)] == list(range(1, 41))  # in order, whoever played them
    results.close()  # the run stops: the queued chunks are dropped
    assert drawn <= 4 * 2 * 16 + 16 + 40  # four chunks of 16 per worker in flight, at most


def test_the_commands_start_a_run_of_10_to_the_11_games_at_once(counted: None,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The progress bar takes the huge total; the stand-in ends the run as a failed game would."""
    def fail(*_args: Any, **_kwargs: Any) -> Any:
        raise SimulationError("the stand-in game stops the run")

    monkeypatch.setattr(sim, "play_one", fail)
    monkeypatch.setattr(tour, "play_game", fail)
    for command in (["simulate"], ["tournament", "--bots", "random"]):
        result = CliRunner().invoke(app, [*command, "--games", str(HUGE), "--workers", "1"])
        assert result.exit_code == 1, result.output
        assert result.output.strip() == "Error: the stand-in game stops the run"
        assert CountingRng.drawn <= 1 + AHEAD
