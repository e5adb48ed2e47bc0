"""The terminal game keeps every game and says things as a person reads them: a game left before
the first move is saved (an autosave, as any unfinished game), one played to its end is kept in
the data folder's finished/ (its end says how to replay it), and ``replay autosave`` reads the
game left last; a decision's flags are words, a word that is no action of the game is answered
without a rule id, and the opening line counts the bots ("against 3 bots (normal)")."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from ecliptic.cli import app
from ecliptic.engine.record import GameRecord, replay, state_digest
from ecliptic.games import get_game
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


# -- 3. a finished game is kept ---------------------------------------------------------------------


def test_a_finished_game_is_kept_in_the_data_folder_and_the_end_says_how_to_replay_it(folders: Path) -> None:
    result = run("play", *CERES_SAVE, input=CERES_TO_THE_END)
    assert result.exit_code == 0, result.output
    assert "Final scores (VP)" in result.output
    [kept] = files("finished")
    assert f"The game is kept in {kept}.\nReplay it with: ecliptic replay {kept}" in result.output
    record = GameRecord.load(kept)
    assert record.digest == state_digest(get_game("ceres"), replay(record)) and replay(record).is_over
    assert run("replay", str(kept), "--check").output.strip() == "ok"
    assert files("autosaves") == [] and list(folders.iterdir()) == []  # nothing in the working folder


def test_a_resumed_autosave_played_to_the_end_moves_to_the_finished_games() -> None:
    assert run("play", *CERES_SAVE, input="PASS\nquit\n").exit_code == 0
    [left] = files("autosaves")
    result = run("play", "--resume", "autosave", input=CERES_TO_THE_END)
    assert result.exit_code == 0, result.output
    [kept] = files("finished")
    assert files("autosaves") == []  # nothing left to resume
    assert GameRecord.load(kept).actions[0] == "PASS"
    again = run("play", "--resume", str(kept), input="")  # over already: shown, not kept twice
    assert again.exit_code == 0 and "Final scores (VP)" in again.output
    assert files("finished") == [kept] and left.name not in again.output


def test_a_finished_game_that_cannot_be_kept_is_said_and_the_autosave_stays() -> None:
    sess.data_dir().mkdir(parents=True)
    (sess.data_dir() / "finished").write_text("")  # a file where the folder should be
    autosave = sess.autosave_dir() / "left.json"
    autosave.parent.mkdir()
    autosave.write_text("{}")
    out = io.StringIO()
    s = ct.ceres_session(Console(file=out, width=200, color_system=None), ["1"] * 400, seed=5)
    s.autosave = autosave
    assert s.run() == 0
    assert f"The finished game could not be kept in {sess.finished_dir()}:" in out.getvalue()
    assert autosave.exists()


# -- 4. leaving before the first move ----------------------------------------------------------------


@pytest.mark.parametrize(("options", "keys", "shown"), [
    (["--players", "2", "--seed", "4"], "", "Setup: place"),  # Ctrl-D while the tiles are placed
    (TC_SAVE, "quit\n", "Your turn"),
    (CERES_SAVE, "quit\n", "Your turn"),
], ids=["eof-in-setup", "quit", "ceres-quit"])
def test_leaving_before_the_first_move_saves_the_game(options: list[str], keys: str, shown: str) -> None:
    result = run("play", *options, input=keys)
    assert result.exit_code == 0, result.output
    assert shown in result.output
    [saved] = files("autosaves")
    assert f"The game is saved in {saved}." in result.output
    record = GameRecord.load(saved)
    assert record.actions == [] and record.seed == int(options[options.index("--seed") + 1])
    assert record.digest == state_digest(get_game(record.game), replay(record))


# -- 5. replay autosave ------------------------------------------------------------------------------


def test_replay_autosave_reads_the_game_left_last_and_a_file_named_autosave_stays_reachable(folders: Path) -> None:
    missing = error_line(run("replay", "autosave"))
    assert f"there is no unfinished game to resume in {sess.autosave_dir()}" in missing
    assert run("play", *TC_SAVE, input="PASS\nquit\n").exit_code == 0
    log = run("replay", "autosave")
    assert log.exit_code == 0, log.output
    [saved] = files("autosaves")
    assert log.output.startswith(f"{saved}: tauceti,") and "passes and earns" in log.output
    assert run("replay", "autosave", "--check").output.strip() == "ok"
    GameRecord("tauceti", {"players": 2, "layout": "preset"}, 99).save(folders / "autosave")
    mine = run("replay", str(folders / "autosave"))
    assert mine.exit_code == 0 and mine.output.startswith(f"{folders / 'autosave'}: tauceti,")
    assert "seed 99" in mine.output


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


@pytest.mark.parametrize(("options", "said"), [
    (["--players", "4", "--level", "normal"], "at seat 0, against 3 bots (normal)."),
    (["--players", "3", "--bots", "heuristic,random"], "at seat 0, against 2 bots (heuristic, random)."),
    (["--players", "1"], "at seat 0, playing alone."),
    (["--game", "ceres", "--players", "3", "--level", "easy"], "(seat 0), against 2 bots (easy)."),
], ids=["level", "mixed", "alone", "ceres"])
def test_the_opening_line_counts_the_bots_and_names_them(options: list[str], said: str) -> None:
    result = run("play", "--seed", "2", *options, input="quit\n")
    assert result.exit_code == 0, result.output
    assert said in result.output
