"""``ecliptic play`` and ``ecliptic replay`` as a player meets them (the play audit): options that
set up a new game refused with ``--resume`` unless the save agrees, ``--bots`` with ``--level``
refused, an option error before anything else, every game kept (left before the first move,
played to its end), ``replay autosave``, one message for a broken save, and texts a person reads
(flags in words, no rule id for a word that is no action, "against 3 bots (normal)")."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import Result

from ecliptic.engine.record import GameRecord, replay, state_digest
from ecliptic.games import get_game
from ecliptic.tauceti.game import TauCeti
from ecliptic.ui import ceres_terminal as ct
from ecliptic.ui import session as sess
from ecliptic.ui import terminal
from play_support import run

pytestmark = pytest.mark.usefixtures("folders")  # a data folder and a working folder of its own

TC_SAVE = ["--players", "2", "--seed", "11", "--layout", "preset"]
CERES_SAVE = ["--game", "ceres", "--players", "2", "--seed", "5"]
CERES_TO_THE_END = "1\n" * 400  # the first menu item every time: a Ceres game ends well before


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


# -- 1. --resume goes on with the saved game ------------------------------------------------------


@pytest.mark.parametrize(("save", "options", "named"), [
    ("tc", ["--players", "4", "--faction", "Azars", "--seed", "3"], "--players, --faction, --seed set up"),
    ("tc", ["--game", "ceres", "--expansions", "comets"], "--game, --expansions set up"),
    ("tc", ["--game-length", "short"], "--game-length sets up a new one: drop it"),
    ("tc", ["--advanced", "1,3"], "--advanced sets up"),
    ("tc", ["--advanced-specialists"], "--advanced-specialists sets up"),
    ("ceres", ["--game", "tauceti"], "--game sets up a new one: drop it"),
    ("ceres", ["--layout", "preset", "--faction", "Xunon"], "--faction, --layout set up"),
    ("ceres", ["--expansions", "comets"], "--expansions sets up"),
], ids=["players-faction-seed", "game-expansions", "length", "advanced", "specialists", "game", "tc-options",
        "expansions"])
def test_resume_refuses_the_options_that_set_up_another_game(save: str, options: list[str], named: str) -> None:
    path = saved_game(f"{save}.json", TC_SAVE if save == "tc" else CERES_SAVE)
    before = path.read_bytes()
    line = error_line(run("play", "--resume", str(path), *options, input="quit\n"))
    assert line.startswith("Error: --resume goes on with the saved game (")
    assert named in line and ": drop " in line
    assert path.read_bytes() == before and files("autosaves") == []  # nothing started, nothing written


def test_resume_takes_options_that_agree_with_the_save_and_the_bots_and_seat_to_play_it() -> None:
    path = saved_game("tc.json", TC_SAVE)
    result = run("play", "--resume", str(path), "--players", "2", "--seed", "11", "--game", "tauceti",
                 "--layout", "preset", "--game-length", "full", "--advanced", "", "--faction", "zorhkonian",
                 "--level", "hard", input="quit\n")
    assert result.exit_code == 0, result.output
    assert f"Resumed {path}: 0 actions replayed, seed 11, against 1 bot (hard)." in result.output
    [left] = files("autosaves")
    assert json.loads(left.read_text())["cli"] == {"human_seat": 0, "bots": ["hard"]}
    ceres = saved_game("c.json", CERES_SAVE)
    result = run("play", "--resume", str(ceres), "--game", "ceres", "--seat", "2", "--bots", "heuristic",
                 input="quit\n")
    assert result.exit_code == 0, result.output
    assert "You are Player 2, against 1 bot (heuristic)." in result.output


# -- 2. --bots or --level ---------------------------------------------------------------------------


def test_bots_and_level_together_are_refused() -> None:
    line = error_line(run("play", "--bots", "random", "--level", "hard", input="quit\n"))
    assert line == "Error: --bots and --level both choose the bots: give one (--level hard is --bots hard)"
    assert files("autosaves") == []


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


# -- 7. one message for a broken save ----------------------------------------------------------------


def test_resume_of_a_save_edited_to_the_other_game_says_what_replay_says() -> None:
    for game, options in (("ceres", TC_SAVE), ("tauceti", CERES_SAVE)):
        path = saved_game(f"edited-to-{game}.json", options)
        data = json.loads(path.read_text())
        data["game"] = game
        path.write_text(json.dumps(data))
        said = error_line(run("replay", str(path)))
        assert error_line(run("play", "--resume", str(path))) == said, game
        assert said.startswith(f"Error: {path}: the record's config is not valid"), said
        assert "__init__" not in said


# -- 8. texts a person reads -------------------------------------------------------------------------


def test_a_decision_shows_its_flags_in_words_never_python_booleans() -> None:
    game = TauCeti()
    state = game.new_game({"players": 2, "layout": "preset", "factions": ["Xunon", "Azars"]}, 1)
    game.apply(state, "MOV")
    obs = game.observe(state, 0)
    assert obs["decision"]["kind"] == "move" and obs["decision"]["data"]["jump"] is False
    text = terminal.describe_decision(obs, 0).plain
    assert "left: 2" in text and "path: Xuno" in text
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
    (["--players", "4", "--level", "normal"], "at seat 1, against 3 bots (normal)."),
    (["--players", "3", "--bots", "heuristic,random"], "at seat 1, against 2 bots (heuristic, random)."),
    (["--players", "1"], "at seat 1, playing alone."),
    (["--game", "ceres", "--players", "3", "--level", "easy"], "You are Player 1, against 2 bots (easy)."),
], ids=["level", "mixed", "alone", "ceres"])
def test_the_opening_line_counts_the_bots_and_names_them(options: list[str], said: str) -> None:
    result = run("play", "--seed", "2", *options, input="quit\n")
    assert result.exit_code == 0, result.output
    assert said in result.output


# -- 9. an option error comes alone --------------------------------------------------------------------


@pytest.mark.parametrize("options", [["--faction", "Vulcan"], ["--bots", "nope"], ["--seat", "3"],
                                     ["--game", "ceres", "--expansions", "moons"]],
                         ids=["faction", "bots", "seat", "expansion"])
def test_an_option_error_is_shown_without_the_unfinished_game_notice(options: list[str]) -> None:
    assert run("play", *TC_SAVE, input="PASS\nquit\n").exit_code == 0  # a game left unfinished
    result = run("play", *options, input="quit\n")
    assert result.exit_code == 2, result.output
    assert "Your last unfinished game" not in result.output
    assert len(files("autosaves")) == 1  # no game was started
    started = run("play", *TC_SAVE, input="quit\n")  # a game that starts still says where it is
    assert started.output.startswith("Your last unfinished game")


# -- 10. seats count from 1, as the rulebooks, the web page and the events count them -------------------


def test_seat_0_is_refused_in_one_line_saying_seats_count_from_1() -> None:
    result = run("play", *TC_SAVE, "--seat", "0", input="quit\n")
    assert result.exit_code == 2
    said = " ".join(line.strip("│ ") for line in result.output.splitlines())
    assert "seats count from 1, as in the rulebooks: --seat 1 is the first player of round 1 (0 is no seat)" in said
    assert files("autosaves") == []  # no game was started


def test_the_seat_a_person_types_is_the_seat_every_text_names() -> None:
    result = run("play", *TC_SAVE, "--seat", "2", input="board\nquit\n")
    assert result.exit_code == 0, result.output
    assert ", at seat 2, against 1 bot (random)." in result.output
    assert "(seat 2)" in result.output  # the title of the Interface
    assert "│ ▶2 " in result.output  # the player's row of the Players table
    [left] = files("autosaves")
    assert json.loads(left.read_text())["cli"]["human_seat"] == 1  # the save keeps the engine's index
    resumed = run("play", "--resume", "autosave", input="quit\n")
    assert "(seat 2)" in resumed.output  # resumed at the same seat


@pytest.mark.parametrize(("options", "said"), [
    (["--seat", "3"], "seat 3 is not a seat of a 2-player game (1-2)"),
    (["--game", "ceres", "--players", "2", "--seat", "3"], "seat 3 is not a seat of a 2-player game (1-2)"),
], ids=["tauceti", "ceres"])
def test_a_seat_beyond_the_players_is_refused_counting_from_1(options: list[str], said: str) -> None:
    result = run("play", *options, input="quit\n")
    assert result.exit_code == 2 and said in result.output
    assert files("autosaves") == []


def test_resuming_at_a_seat_the_game_does_not_have_is_refused_counting_from_1() -> None:
    path = saved_game("tc.json", TC_SAVE)
    line = error_line(run("play", "--resume", str(path), "--seat", "3", input="quit\n"))
    assert line == "Error: --seat 3 is not a seat of this 2-player game (1-2)"


# -- 11. the game's events before the first decision --------------------------------------------------


def test_a_new_tau_ceti_game_shows_its_setup_events_as_ceres_does() -> None:
    result = run("play", *TC_SAVE, input="log\nquit\n")
    assert result.exit_code == 0, result.output
    opening, _, logged = result.output.partition("> log\n")
    assert "── Round 1 begins; Zorhkonian is the first player. ──" in opening  # the preset map: round 1 at once
    assert "Round 1 begins" in logged  # and in the log


def test_a_resumed_tau_ceti_game_recalls_its_last_events_and_log_has_them() -> None:
    assert run("play", *TC_SAVE, input="PASS\nquit\n").exit_code == 0
    result = run("play", "--resume", "autosave", input="log\nquit\n")
    assert result.exit_code == 0, result.output
    opening, _, logged = result.output.partition("> log\n")
    _, _, after = opening.partition("The last events ('log' for more):\n")
    recalled = after.split("\n\n")[0].splitlines()  # up to the table drawn for the decision
    shown = logged.split("\n> ")[0].splitlines()
    assert len(recalled) == sess.RECALLED and shown[-sess.RECALLED:] == recalled
    assert "Zorhkonian passes and earns" in logged  # the whole game so far is in the log


# -- 10. a plug-in's bot is a level ------------------------------------------------------------------

LAST_LEGAL = '''
from ecliptic.bots import register_bot


class LastLegal:
    def choose(self, game, state, seat):
        return game.legal_actions(state)[-1]


def register():
    register_bot("friendbot", lambda option, seed: LastLegal())
'''


def test_a_plugin_bot_is_picked_by_level_as_the_built_in_levels_are(tmp_path: Path, bot_registry: None) -> None:
    """A player who installed a friend's bot names it where a level goes, and it plays: seat 1
    moves first, the last legal action as the plug-in's bot chooses."""
    plugin = tmp_path / "plug_friend.py"
    plugin.write_text(LAST_LEGAL)
    result = run("play", "--plugin", f"{plugin}:register", "--game", "ceres", "--players", "2", "--seed", "3",
                 "--seat", "2", "--level", "friendbot", input="quit\n")
    assert result.exit_code == 0, result.output
    assert "You are Player 2, against 1 bot (friendbot)." in result.output
    [autosave] = files("autosaves")
    record = GameRecord.load(autosave)
    ceres = get_game("ceres")
    start = ceres.new_game(record.config, record.seed)
    assert record.actions[0] == str(ceres.legal_actions(start)[-1])


@pytest.mark.parametrize(("level", "said"), [
    ("ismcts:200ms", "Error: a level is one name: random, easy, normal, hard, or a bot's name (heuristic, ismcts); "
                     "a bot with options, or one per seat, is --bots ismcts:200ms"),
    ("nosuch", "Error: unknown level 'nosuch'; the levels are random, easy, normal, hard, or a bot's name "
               "(heuristic, ismcts)"),
], ids=["options", "unknown"])
def test_a_level_that_is_no_level_is_one_line_naming_the_levels(level: str, said: str) -> None:
    assert error_line(run("play", "--level", level, input="quit\n")) == said
