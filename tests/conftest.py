"""Every scenario file under tests/scenarios/ is a test; its failure text is the runner's report.

A scenario (docs/scenarios.md) is collected as one item named after its file. It
carries the ``rules`` marker with the rule ids the scenario names, so
``pytest -m rules`` style selections and coverage tools see them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ecliptic.scenario.format import ScenarioError, load_scenario
from ecliptic.scenario.runner import ScenarioResult, format_result, run_file

SCENARIOS = Path(__file__).parent / "scenarios"


@pytest.fixture(autouse=True, scope="session")
def _data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The terminal game's autosaves and crash files go to a temporary folder, never the
    user's data folder (a test that looks at them points ECLIPTIC_DATA_DIR at its own)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ECLIPTIC_DATA_DIR", str(tmp_path_factory.mktemp("ecliptic-data")))
        yield


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.suffix in (".yaml", ".yml") and SCENARIOS in file_path.parents:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFailed(Exception):
    """Raised by a scenario item whose run did not pass."""

    def __init__(self, result: ScenarioResult) -> None:
        super().__init__(result.message)
        self.result = result


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        item = ScenarioItem.from_parent(self, name=self.path.stem)
        try:
            rules = load_scenario(self.path).rules
        except ScenarioError:
            rules = ()  # the item reports the error when it runs
        if rules:
            item.add_marker(pytest.mark.rules(*rules))
        yield item


class ScenarioItem(pytest.Item):
    def runtest(self) -> None:
        result = run_file(self.path)
        if not result.ok:
            raise ScenarioFailed(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailed):
            return format_result(excinfo.value.result, verbose=True)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"scenario {self.path.name}"
