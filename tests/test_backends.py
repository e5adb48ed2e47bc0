"""Backends (ecliptic.sim.backends): the same seed gives the same results on this machine's
processes and on Ray; a failing game, a bad backend or address, a missing Ray are clear
messages; a run holds a bounded number of chunks and cancels them when it stops.

The Ray tests share the session's local Ray of two CPUs (``ray_cluster``, tests/conftest.py)."""

from __future__ import annotations

import itertools
import json
import os
import signal
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import ecliptic
from ecliptic.cli import app
from ecliptic.sim.backends import (
    AHEAD,
    BackendError,
    LocalBackend,
    RayBackend,
    get_backend,
    ordered,
)
from ecliptic.sim.simulate import SimulationError, simulate
from ecliptic.sim.tournament import run_tournament

SHORT = {"game": "short", "layout": "random", "advanced": []}
"""What the command line asks for with --game-length short --layout random."""
GAMES = 6


def _closed_port() -> int:
    """A port of this machine nobody listens on (it was free a moment ago)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def _cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def _deterministic(output: str) -> dict[str, Any]:
    """What the seed fixes of ``simulate --json``'s output: without its timing and the version
    of Ecliptic that played it (which the run's object, compared with, does not hold)."""
    data: dict[str, Any] = json.loads(output)
    data.pop("timing")
    assert data.pop("ecliptic")
    return data


# Without Ray --------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "options", "message"), [
    ("nope", {}, "unknown backend 'nope'; choose from local, ray"),
    ("local", {"workers": 0}, "use at least one worker, not 0"),
    ("ray", {"workers": True}, "use at least one worker, not True"),
    ("local", {"address": "auto"}, "an address is a Ray cluster's: give it with the ray backend"),
])
def test_a_bad_backend_is_refused_saying_what_to_give(name: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as caught:
        get_backend(name, **options)
    assert str(caught.value) == message


def test_the_local_backend_gives_the_results_in_task_order_with_any_number_of_workers() -> None:
    tasks = [-i for i in range(300)]
    for workers in (1, 2):
        with get_backend("local", workers=workers) as backend:
            assert isinstance(backend, LocalBackend) and backend.workers == workers
            assert list(backend.map(abs, iter(tasks), len(tasks))) == list(range(300))


def test_a_run_takes_its_workers_from_the_backend_not_twice() -> None:
    with pytest.raises(ValueError, match="give the workers to the backend"):
        simulate("tauceti", 2, 1, 0, config=SHORT, workers=2, backend=LocalBackend(2))


def test_stopping_a_run_cancels_the_chunks_in_flight_and_submits_no_more() -> None:
    """The loop every backend runs: at most ``limit`` chunks in flight, and whatever stops the
    run (here the caller, as Ctrl-C or a failed game would) hands those chunks to ``cancel``."""
    submitted: list[list[int]] = []
    cancelled: list[list[int]] = []

    def submit(chunk: list[int]) -> list[int]:
        submitted.append(chunk)
        return chunk

    chunks = ([i, i + 1] for i in range(0, 10**9, 2))
    results = ordered(chunks, submit, lambda chunk: chunk, cancelled.extend, limit=3)
    assert [next(results) for _ in range(5)] == [0, 1, 2, 3, 4]
    results.close()
    assert len(submitted) == 5  # two taken back, one being read, two behind it (the sixth was never sent)
    assert cancelled == [[6, 7], [8, 9]]  # the two behind the one being read


def _slow_game(task: tuple[str, str]) -> None:
    """A game a worker takes ten seconds over, saying (in files) when it starts and when it ends."""
    started, finished = task
    Path(started).touch()
    time.sleep(10)
    Path(finished).touch()


def test_ctrl_c_with_several_workers_ends_the_games_being_played_at_once(tmp_path: Path) -> None:
    """Ctrl-C (here: the KeyboardInterrupt it raises while the run draws its next task) once a
    worker is playing a long game: the local backend ends its workers then and there, so the
    game never finishes (it used to wait for the chunks being played: a chunk of ISMCTS games is
    minutes)."""
    started, finished = tmp_path / "started", tmp_path / "finished"

    def tasks() -> Iterator[tuple[str, str]]:
        yield str(started), str(finished)
        while not started.exists():  # the first game is being played by a worker
            time.sleep(0.01)
        raise KeyboardInterrupt

    with get_backend("local", workers=2) as backend, pytest.raises(KeyboardInterrupt):
        list(backend.map(_slow_game, tasks(), 2))
    assert started.exists() and not finished.exists()  # the workers are gone: it never will


def test_without_ray_the_ray_backend_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as where it is not installed
    with pytest.raises(BackendError, match=r"the ray backend needs Ray: pip install 'ecliptic\[ray\]'"):
        get_backend("ray")
    result = _cli("simulate", "--games", "1", "--backend", "ray")
    assert result.exit_code == 2 and "pip install 'ecliptic[ray]'" in result.output


def test_the_engine_and_the_local_backend_never_load_ray() -> None:
    import subprocess

    code = ("import sys, ecliptic.cli, ecliptic.sim.backends as b\n"
            "list(b.get_backend('local', workers=1).map(abs, [1], 1))\n"
            "assert 'ray' not in sys.modules, 'ray was imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize(("address", "message"), [
    ("nope", "'nope' is not the address of a Ray cluster: give 'auto'"),
    ("ray://", "'ray://' is not the address of a Ray cluster"),
    ("host:99999", "'host:99999' is not the address of a Ray cluster"),
])
def test_a_malformed_address_is_refused_with_the_forms_it_may_take(address: str, message: str) -> None:
    pytest.importorskip("ray")
    result = _cli("simulate", "--games", "1", "--backend", "ray", "--address", address)
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"Error: {message}")
    assert "Traceback" not in result.output


def test_an_address_where_no_cluster_answers_is_refused_at_once() -> None:
    pytest.importorskip("ray")
    for address in (f"127.0.0.1:{_closed_port()}", f"ray://127.0.0.1:{_closed_port()}"):
        for command in (["simulate"], ["tournament", "--bots", "random"]):
            result = _cli(*command, "--games", "1", "--backend", "ray", "--address", address)
            assert result.exit_code == 2, result.output
            assert result.output.startswith(f"Error: no Ray cluster answers at {address} ("), result.output
            assert "ray start --head" in result.output and "Traceback" not in result.output


def test_an_unknown_backend_is_refused_by_both_commands() -> None:
    for command in (["simulate"], ["tournament", "--bots", "random"]):
        result = _cli(*command, "--games", "1", "--backend", "nope")
        assert result.exit_code == 2
        assert result.output.strip() == "Error: unknown backend 'nope'; choose from local, ray"


# On Ray --------------------------------------------------------------------------------


def test_simulate_gives_identical_results_on_one_or_two_processes_and_on_ray(ray_cluster: Any) -> None:
    one = simulate("tauceti", 4, GAMES, 11, "random", SHORT, workers=1)
    two = simulate("tauceti", 4, GAMES, 11, "random", SHORT, backend=get_backend("local", workers=2))
    with get_backend("ray") as backend:
        assert isinstance(backend, RayBackend) and backend.workers == 2  # the session's Ray: two CPUs
        on_ray = simulate("tauceti", 4, GAMES, 11, "random", SHORT, backend=backend)
    assert one.deterministic_json() == two.deterministic_json() == on_ray.deterministic_json()
    assert [r.seed for r in on_ray.results] == [r.seed for r in one.results]
    command = ["simulate", "--players", "4", "--games", str(GAMES), "--seed", "11", "--game-length", "short",
               "--layout", "random", "--json"]
    by_cli = [_cli(*command, *extra) for extra in (["--workers", "1"], ["--backend", "ray"])]
    assert all(r.exit_code == 0 for r in by_cli), [r.output for r in by_cli]
    assert _deterministic(by_cli[0].output) == _deterministic(by_cli[1].output) == one.deterministic_json()


def test_a_tournament_gives_identical_results_on_one_or_two_processes_and_on_ray(ray_cluster: Any) -> None:
    bots = ["random", "heuristic:depth=1"]
    one = run_tournament("tauceti", 2, bots, GAMES, 5, SHORT, workers=1)
    two = run_tournament("tauceti", 2, bots, GAMES, 5, SHORT, workers=2)
    on_ray = run_tournament("tauceti", 2, bots, GAMES, 5, SHORT, backend=get_backend("ray"))
    assert one.deterministic_json() == two.deterministic_json() == on_ray.deterministic_json()
    command = ["tournament", "--bots", ",".join(bots), "--players", "2", "--games", str(GAMES), "--seed", "5",
               "--game-length", "short", "--json"]
    local, ray = _cli(*command, "--workers", "1"), _cli(*command, "--backend", "ray")
    assert local.exit_code == ray.exit_code == 0, local.output + ray.output
    assert _deterministic(local.output) == _deterministic(ray.output)


def test_a_game_failing_on_a_ray_worker_gives_the_same_error_as_here(ray_cluster: Any) -> None:
    errors = []
    for backend in (get_backend("local", workers=1), get_backend("ray")):
        with pytest.raises(SimulationError) as caught:
            simulate("tauceti", 2, 4, 3, "random", SHORT, max_decisions=3, backend=backend)
        errors.append(str(caught.value))
    assert errors[0] == errors[1]
    assert errors[0].startswith("game 1 (seed ") and "did not end within 3 decisions" in errors[0]


def test_ray_holds_a_few_chunks_per_worker_and_drops_them_when_the_run_stops(ray_cluster: Any) -> None:
    drawn = 0

    def tasks() -> Iterator[int]:
        nonlocal drawn
        while True:
            drawn += 1
            yield -drawn

    backend = get_backend("ray")
    results: Any = backend.map(abs, tasks(), 10**11)
    assert [next(results) for _ in range(40)] == list(range(1, 41))  # in order, whichever worker played them
    results.close()
    assert drawn <= AHEAD * backend.workers * 16 + 16 + 40
    assert list(backend.map(abs, iter([-1, -2]), 2)) == [1, 2]  # nothing of the stopped run is left behind


def test_ray_workers_running_another_ecliptic_are_refused(ray_cluster: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    theirs = ecliptic.__version__  # what the workers import
    monkeypatch.setattr(ecliptic, "__version__", "0.0.0-here")
    with pytest.raises(BackendError) as caught:
        get_backend("ray")
    assert str(caught.value) == (f"the Ray workers run Ecliptic {theirs}, this machine 0.0.0-here: install the "
                                 "same version on every node (docs/scale-out.md)")


def test_ctrl_c_on_ray_stops_the_run_at_its_next_wait_and_leaves_the_backend_usable(ray_cluster: Any) -> None:
    """SIGINT (what Ctrl-C sends) while a Ray run is read: the run raises KeyboardInterrupt
    from its own wait for a chunk, not from inside Ray, cancels what is in flight, and puts
    the previous Ctrl-C handler back."""
    backend = get_backend("ray")
    before = signal.getsignal(signal.SIGINT)
    results: Any = backend.map(abs, (-i for i in itertools.count(1)), 10**11)
    assert next(results) == 1
    os.kill(os.getpid(), signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):
        for _ in range(10_000):
            next(results)
    assert signal.getsignal(signal.SIGINT) is before
    assert list(backend.map(abs, iter([-3, -4]), 2)) == [3, 4]
