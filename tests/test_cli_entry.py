"""The ``ecliptic`` console script (ecliptic.entry): Ctrl-C at any moment of start-up, while
Python is still importing the command line or once it runs, is exit 130 without a traceback.
No signal is sent (when it would land is a matter of timing): the import or the command is
made to raise the ``KeyboardInterrupt`` that Ctrl-C raises."""

from __future__ import annotations

import importlib.abc
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ecliptic import entry

ROOT = Path(__file__).resolve().parents[1]


class CtrlCOnImport(importlib.abc.MetaPathFinder):
    """Ctrl-C pressed while ``ecliptic.cli`` is being imported."""

    def find_spec(self, name: str, path: Any = None, target: ModuleType | None = None) -> None:
        if name == "ecliptic.cli":
            raise KeyboardInterrupt


def test_ctrl_c_while_the_command_line_is_imported_exits_130_without_a_traceback(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delitem(sys.modules, "ecliptic.cli", raising=False)
    monkeypatch.setattr(sys, "meta_path", [CtrlCOnImport(), *sys.meta_path])
    with pytest.raises(SystemExit) as stopped:
        entry.main()
    assert stopped.value.code == 130
    assert capsys.readouterr() == ("", "")


def test_ctrl_c_once_the_command_runs_exits_130_and_the_command_line_is_what_runs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import ecliptic.cli

    ran: list[str] = []

    def interrupted() -> None:
        ran.append("cli")
        raise KeyboardInterrupt

    monkeypatch.setattr(ecliptic.cli, "main", interrupted)
    with pytest.raises(SystemExit) as stopped:
        entry.main()
    assert stopped.value.code == 130 and ran == ["cli"]


def test_the_console_script_is_the_entry_and_the_entry_imports_nothing_before_its_guard() -> None:
    """What the script runs before ``main``'s ``try`` is the package and this module: if either
    loaded the command line (or Typer, Rich), Ctrl-C there would be a traceback again."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"ecliptic": "ecliptic.entry:main"}
    loaded = subprocess.run([sys.executable, "-c", "import sys; before = set(sys.modules); "
                             "from ecliptic.entry import main; print(sorted(set(sys.modules) - before))"],
                            capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['ecliptic', 'ecliptic.entry']"


def _ctrl_c(*_: Any, **__: Any) -> Any:
    raise KeyboardInterrupt


@pytest.mark.parametrize(("args", "where", "said"), [
    (["calibrate", "--games", "1"], "ecliptic.cli.game_config", "the calibration was stopped before its ratings"),
    (["scenario", "run", "."], "ecliptic.scenario.run_paths", "the scenarios were stopped before their report"),
    (["replay", "game.json"], "ecliptic.cli.resolve_save", "the replay was stopped"),
    (["bench", "--quick"], "benchmarks.suite.run_all", "the benchmark was stopped before its figures"),
], ids=["calibrate", "scenario-run", "replay", "bench"])
def test_ctrl_c_in_a_command_with_nothing_partial_to_show_is_one_line_and_exit_130(
        args: list[str], where: str, said: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Click's own answer to Ctrl-C is "Aborted!" and exit 1; the commands answer as play,
    simulate and tournament do: one line saying what stopped, exit 130."""
    from typer.testing import CliRunner

    from ecliptic.cli import app

    if where.startswith("benchmarks."):
        monkeypatch.syspath_prepend(str(ROOT))
    monkeypatch.setattr(where, _ctrl_c)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 130, result.output
    assert result.stderr.strip() == f"Error: interrupted: {said}"
    assert "Aborted" not in result.output and result.stdout == ""
