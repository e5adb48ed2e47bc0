"""Scenario files: exact situations and their expected outcomes, for rules fidelity.

``load_scenario`` reads and checks a file (:mod:`ecliptic.scenario.format`);
``run_paths`` / ``run_file`` play them and ``format_report`` says what happened
(:mod:`ecliptic.scenario.runner`). What differs between games (Tau Ceti, Ceres) is in
:mod:`ecliptic.scenario.adapters`. The format is documented for players in
docs/scenarios.md.
"""

from ecliptic.scenario.format import FORMAT, Scenario, ScenarioError, load_scenario
from ecliptic.scenario.runner import (
    ScenarioResult,
    all_passed,
    format_report,
    format_result,
    run_file,
    run_paths,
    run_scenario,
)

__all__ = [
    "FORMAT",
    "Scenario",
    "ScenarioError",
    "ScenarioResult",
    "all_passed",
    "format_report",
    "format_result",
    "load_scenario",
    "run_file",
    "run_paths",
    "run_scenario",
]
