"""Every scenario file under tests/scenarios/ is a test; its failure text is the runner's report.
Also: every test runs with a fixed, wide terminal (:func:`wide_terminal`); ``database_url`` runs a
storage test on both backends, SQLite and PostgreSQL (tests/postgres_cluster.py); ``ray_cluster``
is a local Ray of two CPUs shared by the session's Ray tests (tests/test_backends.py).

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

pytest_plugins = ["postgres_cluster", "browser_support", "pytester"]

SCENARIOS = Path(__file__).parent / "scenarios"
TERMINAL_COLUMNS = "400"
"""Wider than any line a test reads, a message naming a long temporary path included."""


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rich wraps output at the terminal's width, which it reads from ``COLUMNS`` (80 when it
    cannot tell, as under ``CliRunner``): without this, a test reading a message that names a
    temporary file would pass or fail by the length of the path, or by the tester's own
    ``COLUMNS``. A test that needs another width says so (``CliRunner(env=...)``, ``Console(width=...)``)."""
    monkeypatch.setenv("COLUMNS", TERMINAL_COLUMNS)
    monkeypatch.delenv("TERMINAL_WIDTH", raising=False)  # Typer's own override of the width


@pytest.fixture(autouse=True, scope="session")
def _data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The terminal game's autosaves and crash files go to a temporary folder, never the
    user's data folder (a test that looks at them points ECLIPTIC_DATA_DIR at its own)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ECLIPTIC_DATA_DIR", str(tmp_path_factory.mktemp("ecliptic-data")))
        yield


@pytest.fixture
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data folder and an empty working folder of the test's own (the terminal game's tests use
    it for every test: ``pytestmark = pytest.mark.usefixtures("folders")``); returns the working
    folder, which a test checks stays empty unless the player saved there."""
    monkeypatch.setenv("ECLIPTIC_DATA_DIR", str(tmp_path / "data"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


@pytest.fixture
def bot_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The bots and plug-ins a test registers or loads are forgotten after it: the registry is
    the process's, and a plug-in left loaded would be sent to every later test's workers."""
    import sys

    from ecliptic.bots import base, plugins

    base.load_builtin_bots()
    factories, owners = dict(base._FACTORIES), dict(base._OWNERS)
    loaded, done, installed = list(plugins._loaded), set(plugins._done), plugins._installed
    modules = set(sys.modules)
    monkeypatch.delenv(plugins.ENV, raising=False)
    yield
    base._FACTORIES.clear()
    base._FACTORIES.update(factories)
    base._OWNERS.clear()
    base._OWNERS.update(owners)
    plugins._loaded[:] = loaded
    plugins._done.clear()
    plugins._done.update(done)
    plugins._installed = installed
    for name in set(sys.modules) - modules:
        if name.startswith("plug_"):
            del sys.modules[name]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of each backend the server supports, so one storage test covers both: a SQLite
    file of this test's own, or a fresh database of the session's PostgreSQL cluster (started only
    when a PostgreSQL case runs; ``-m "not postgresql"`` leaves them out)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ecliptic.sqlite3'}"
    url: str = request.getfixturevalue("fresh_postgresql_url")
    return url


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[Any]:
    """A local Ray of two CPUs, started once for the session (it takes seconds) and shut down at
    its end; ``get_backend("ray")`` finds it already joined and uses it. Its workers import
    Ecliptic as this process does (they inherit ``PYTHONPATH``, or the installed package)."""
    try:
        import ray
    except ImportError:
        pytest.skip("Ray is not installed (pip install 'ecliptic[ray]'; make test installs it)")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


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

