"""``ecliptic bench`` runs and reports every figure (a smoke test: it never checks a time), and
``simulate`` gives the same results whatever the number of worker processes.

The baselines (python-chess, OpenSpiel) are in the optional ``bench`` extra, which ``make
test`` does not install: when one is missing, its figure is ``None`` and the report says it
is unavailable, which is what this test accepts too.
"""

from __future__ import annotations

import json
import math

from typer.testing import CliRunner

from ecliptic.cli import app
from ecliptic.sim.simulate import simulate

RUNNER = CliRunner(env={"COLUMNS": "200"})
OURS = ["decisions_per_s", "games_per_s", "decisions_per_game", "legal_actions_us", "apply_us", "step_us",
        "clones_per_s", "state_bytes", "record_bytes", "clones_per_decision"]
BASELINES = {"chess_plies_per_s": "chess", "openspiel_steps_per_s": "openspiel"}
SHORT = {"game": "short", "layout": "random"}


def test_bench_quick_reports_every_figure_as_json_and_as_a_table() -> None:
    result = RUNNER.invoke(app, ["bench", "--quick", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    figures = report["figures"]
    for key in OURS:
        assert isinstance(figures[key], int | float) and figures[key] > 0 and math.isfinite(figures[key]), key
    assert figures["state_bytes"] > 1000 and figures["record_bytes"] > 100
    assert report["mid_game"]["round"] == 5
    for key, name in BASELINES.items():
        if figures[key] is None:  # the bench extra is not installed: said, not failed
            assert report["baselines"][name].startswith("unavailable"), report["baselines"]
        else:
            assert figures[key] > 0
    for ratio in ("decisions_per_chess_ply", "clones_per_chess_ply"):
        assert (figures[ratio] is None) == (figures["chess_plies_per_s"] is None), ratio

    table = RUNNER.invoke(app, ["bench", "--quick"])
    assert table.exit_code == 0, table.output
    for label in ("decisions/s", "games/s", "clones/s", "µs", "bytes", "python-chess", "OpenSpiel",
                  "chess plies/s", "clones/s ÷ chess plies/s", "clones/s ÷ our decisions/s"):
        assert label in table.output, label


def test_simulate_gives_identical_results_with_any_number_of_workers() -> None:
    one = simulate("tauceti", 2, 6, seed=7, config=SHORT, workers=1)
    two = simulate("tauceti", 2, 6, seed=7, config=SHORT, workers=2)
    three = simulate("tauceti", 2, 6, seed=7, config=SHORT, workers=3, keep_results=False)
    assert one.deterministic_json() == two.deterministic_json() == three.deterministic_json()
    assert one.results == two.results
    assert [r.index for r in two.results] == list(range(6))
    assert three.results == [] and three.decisions == one.decisions == sum(r.decisions for r in one.results)


def test_the_progress_callback_counts_every_game_played_by_workers() -> None:
    seen: list[tuple[int, int]] = []
    simulate("tauceti", 1, 5, seed=2, config=SHORT, workers=2, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(n, 5) for n in range(1, 6)]
