"""The terminal game's texts as a person reads them: a decision's flags in words, and a word that is no
action of the game answered without a rule id (a rule id is for the rules' refusals)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from ecliptic.cli import app
from ecliptic.tauceti.game import TauCeti
from ecliptic.ui import ceres_terminal as ct
from ecliptic.ui import session as sess
from ecliptic.ui import terminal

RUNNER = CliRunner()  # conftest's wide_terminal: no line is wrapped
TC_SAVE = ["--players", "2", "--seed", "11", "--layout", "preset"]
CERES_SAVE = ["--game", "ceres", "--players", "2", "--seed", "5"]
CERES_TO_THE_END = "1\n" * 400  # the first menu item every time: a Ceres game ends well before


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test has its own data folder and works in an empty folder of its own."""
    monkeypatch.setenv("ECLIPTIC_DATA_DIR", str(tmp_path / "data"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


def run(*args: str, input: str | None = None) -> Result:
    result = RUNNER.invoke(app, list(args), input=input)
    assert "Traceback" not in result.output
    return result


def saved_game(name: str, options: list[str]) -> Path:
    """A game saved before anyone moved, as ``save NAME`` writes it; then no autosave is left."""
    result = run("play", *options, input=f"save {name}\nquit\n")
    assert result.exit_code == 0, result.output
    for path in files("autosaves"):
        path.unlink()
    return Path(name).resolve()


def files(folder: str) -> list[Path]:
    where = sess.data_dir() / folder
    return sorted(where.glob("*.json")) if where.exists() else []


def error_line(result: Result) -> str:
    """The output of a refused command: one line, starting with ``Error:``."""
    assert result.exit_code == 2, result.output
    [line] = result.output.strip().splitlines()
    assert line.startswith("Error: "), line
    return line


# -- 8. texts a person reads -------------------------------------------------------------------------


def test_a_decision_shows_its_flags_in_words_never_python_booleans() -> None:
    game = TauCeti()
    state = game.new_game({"players": 2, "layout": "preset", "factions": ["Xunon", "Azars"]}, 1)
    game.apply(state, "MOV")
    obs = game.observe(state, 0)
    assert obs["decision"]["kind"] == "move" and obs["decision"]["data"]["jump"] is False
    text = terminal.describe_decision(obs, 0).plain
    assert "left: 2" in text and "path: XUNO" in text
    assert "False" not in text and "jump" not in text.lower()
    obs["decision"]["data"]["jump"] = True  # just entered a working wormhole
    text = terminal.describe_decision(obs, 0).plain
    assert "can JUMP" in text and "True" not in text


def test_a_word_that_is_no_ceres_action_is_said_without_a_rule_id() -> None:
    out = io.StringIO()
    s = ct.ceres_session(Console(file=out, width=200, color_system=None), ["FOO", "PASS 3", "quit"], seed=5)
    s.run()
    text = out.getvalue()
    assert "FOO is not an action of Ceres: type a number from the menu" in text
    assert "[CR-ACT-1] on your turn" not in text  # the rule FOO was answered with before
    assert "Illegal: [CR-ACT-1] PASS takes no argument" in text  # a refusal of the rules keeps its id
