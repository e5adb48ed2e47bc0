"""One rule per kind of seed, on every command that takes one (ecliptic.cli_options): a game
seed (``play``, ``calibrate``) is 0 to 2**63 - 1, what the game server stores; a run seed
(``simulate``, ``tournament``, ``balance``) is 0 to 2**64 - 1, what the generator keeps. A seed
outside its range is refused in one line naming the range (exit 2), before anything is played;
the bounds themselves are taken. No full game is played: a run's command is stopped where it
would start playing, with the seed it was given."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from ecliptic.cli import app
from ecliptic.engine.record import GAME_SEEDS
from ecliptic.sim.simulate import SEEDS

RUNNER = CliRunner()
GAME_MAX, RUN_MAX = GAME_SEEDS - 1, SEEDS - 1
GAME_RANGE = f"the seed must be from 0 to {GAME_MAX}, not "
RUN_RANGE = f"the seed must be from 0 to {RUN_MAX}, not "

COMMANDS: dict[str, tuple[list[str], str, int]] = {
    "play": (["play", "--players", "2", "--layout", "preset"], GAME_RANGE, GAME_MAX),
    "play ceres": (["play", "--game", "ceres", "--players", "2"], GAME_RANGE, GAME_MAX),
    "calibrate": (["calibrate", "--games", "1", "--players", "2"], GAME_RANGE, GAME_MAX),
    "simulate": (["simulate", "--games", "1", "--players", "2"], RUN_RANGE, RUN_MAX),
    "tournament": (["tournament", "--bots", "random", "--games", "1", "--players", "2"], RUN_RANGE, RUN_MAX),
    "balance": (["balance", "--games", "1", "--players", "2", "--bots", "random"], RUN_RANGE, RUN_MAX),
}


class Started(Exception):
    """Raised where a command would start playing: its options, the seed included, were taken."""


def _invoke(args: list[str], input: str | None = None) -> Result:
    result = RUNNER.invoke(app, args, input=input, env={"COLUMNS": "400"})
    assert "Traceback" not in result.output
    return result


@pytest.mark.usefixtures("folders")  # were a seed taken, the game or study would not be kept here
@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("past", [False, True], ids=["-1", "past the last"])
def test_a_seed_outside_its_range_is_refused_in_one_line_naming_the_range(command: str, past: bool) -> None:
    args, says, top = COMMANDS[command]
    seed = top + 1 if past else -1
    result = _invoke([*args, "--seed", str(seed)], input="quit\n")
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith(f"Error: {says}{seed}: "), result.stderr


@pytest.fixture
def stopped_runs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[int]:
    """The seeds the run commands start with; each stops there (:class:`Started`)."""
    seeds: list[int] = []

    def start(seed_at: int) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            seeds.append(args[seed_at] if len(args) > seed_at else kwargs["seed"])
            raise Started
        return run

    monkeypatch.setattr("ecliptic.cli.run_simulation", start(3))  # (game, players, games, seed, ...)
    monkeypatch.setattr("ecliptic.sim.tournament.run_tournament", start(4))  # (game, players, bots, games, seed)
    monkeypatch.setattr("ecliptic.bots.calibrate.collect", start(3))  # (game, config, games, seed, ...)
    command = importlib.import_module("ecliptic.balance.command")  # the package's `balance` is the callback

    def study(_err: Any, study: Any, *_args: Any) -> None:
        seeds.append(study.seed)
        raise Started

    monkeypatch.setattr(command, "_run", study)
    monkeypatch.chdir(tmp_path)
    return seeds


@pytest.mark.parametrize("command", ["calibrate", "simulate", "tournament", "balance"])
def test_a_run_takes_the_bounds_of_its_seeds(command: str, stopped_runs: list[int]) -> None:
    args, _says, top = COMMANDS[command]
    for seed in (0, top):
        result = _invoke([*args, "--seed", str(seed)])
        assert isinstance(result.exception, Started), result.output
    assert stopped_runs == [0, top]


@pytest.mark.usefixtures("folders")
@pytest.mark.parametrize("command", ["play", "play ceres"])
def test_play_deals_the_games_of_the_bounds_of_the_game_seeds(command: str) -> None:
    args, _says, top = COMMANDS[command]
    for seed in (0, top):
        result = _invoke([*args, "--seed", str(seed)], input="quit\n")
        assert result.exit_code == 0, result.output
        assert f"seed {seed}" in result.stdout


def test_calibrate_refuses_games_whose_last_seed_is_past_the_game_seeds(stopped_runs: list[int]) -> None:
    """Game i of calibrate has the seed --seed + i: the last game's seed must be a game seed too."""
    result = _invoke(["calibrate", "--games", "2", "--seed", str(GAME_MAX)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip() == (f"Error: --seed {GAME_MAX} with --games 2 would seed its last game "
                                     f"{GAME_MAX + 1}, past the last game seed {GAME_MAX}: give a seed of at most "
                                     f"{GAME_MAX - 1}")
    assert isinstance(_invoke(["calibrate", "--games", "2", "--seed", str(GAME_MAX - 1)]).exception, Started)
    assert stopped_runs == [GAME_MAX - 1]


def test_the_game_seeds_are_the_seeds_the_server_stores() -> None:
    """A game started with ``play --seed`` can be created on the server with the same seed."""
    models = pytest.importorskip("ecliptic.server.models")
    assert models.MAX_SEED == GAME_SEEDS - 1
