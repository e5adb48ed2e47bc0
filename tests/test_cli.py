"""The ``ecliptic`` command: play against bots from scripted input, save, resume, replay,
simulate; user errors get a message and an exit code, never a traceback; the screen shows
only what the human's seat may see."""

from __future__ import annotations

import importlib
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from ecliptic.bots import RandomBot
from ecliptic.cli import PlaySession, app
from ecliptic.engine.events import Event
from ecliptic.engine.record import GameRecord
from ecliptic.tauceti.game import TauCeti

GAME = TauCeti()
RUNNER = CliRunner(env={"COLUMNS": "200"})
PRESET = ["--seed", "1", "--layout", "preset", "--players", "2"]


def run(*args: str, input: str | None = None) -> Result:
    result = RUNNER.invoke(app, list(args), input=input)
    assert "Traceback" not in result.output
    return result


# -- simulate -------------------------------------------------------------------------


def _sim_json(seed: str) -> dict[str, object]:
    result = run("simulate", "--game", "tauceti", "--players", "2", "--games", "3", "--seed", seed,
                 "--game-length", "short", "--json")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().count("\n") == 0  # exactly one JSON object, nothing else
    data: dict[str, object] = json.loads(result.stdout)
    data.pop("timing")
    return data


def test_simulate_json_is_identical_for_the_same_seed() -> None:
    first = _sim_json("9")
    assert first == _sim_json("9")
    assert first["games"] == 3
    assert first != _sim_json("10")


def test_simulate_prints_a_table_of_win_rates_and_gp_by_source() -> None:
    result = run("simulate", "--players", "2", "--games", "2", "--seed", "1", "--game-length", "short")
    assert result.exit_code == 0, result.output
    for text in ("Win rate", "Mean GP by source", "tau", "total", "Mean rounds", "decisions per game", "games/s"):
        assert text in result.stdout


def test_simulate_refuses_an_unknown_bot_or_game_with_exit_2() -> None:
    result = run("simulate", "--games", "1", "--bot", "genius")
    assert result.exit_code == 2
    assert "unknown bot 'genius'" in result.output
    result = run("simulate", "--games", "1", "--game", "chess")
    assert result.exit_code == 2
    assert "unknown game 'chess'" in result.output


def test_simulate_takes_bots_like_the_other_commands_and_bot_still_works() -> None:
    args = ["simulate", "--players", "2", "--games", "1", "--seed", "4", "--game-length", "short", "--json"]
    named, old = run(*args, "--bots", "heuristic"), run(*args, "--bot", "heuristic")
    assert named.exit_code == old.exit_code == 0, named.output + old.output
    new_json, old_json = json.loads(named.stdout), json.loads(old.stdout)
    assert new_json["bot"] == "heuristic" and new_json.pop("timing") and old_json.pop("timing")
    assert new_json == old_json  # the same option under two names
    assert "--bots" in run("simulate", "--help").stdout
    listed = run("simulate", "--games", "1", "--bots", "heuristic,random")
    assert listed.exit_code == 2 and listed.stdout == ""
    assert "simulate plays one bot in every seat, not a list ('heuristic,random')" in listed.stderr
    assert "ecliptic tournament --bots heuristic,random" in listed.stderr


def test_simulate_refuses_a_negative_seed_in_one_line_and_plays_from_first_game() -> None:
    result = run("simulate", "--games", "1", "--seed", "-1")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip() == ("Error: the seed must be from 0 to 18446744073709551615, not -1: the games' "
                                     "generator keeps 64 bits, so -1 would play the games of seed "
                                     "18446744073709551615 under another name")
    part = run("simulate", "--players", "2", "--games", "1", "--seed", "9", "--first-game", "2",
               "--game-length", "short", "--json")
    assert part.exit_code == 0, part.output
    assert json.loads(part.stdout)["first_game"] == 2
    table = run("simulate", "--players", "2", "--games", "2", "--seed", "9", "--first-game", "2",
                "--game-length", "short")
    assert "bot random, seed 9 (games 2–3)" in table.stdout


def test_ctrl_c_on_simulate_prints_the_finished_games_marked_partial_and_exits_130(
        monkeypatch: pytest.MonkeyPatch) -> None:
    sim = importlib.import_module("ecliptic.sim.simulate")  # the package's `simulate` is the function
    real, calls = sim.play_one, []

    def play(*args: Any, **kwargs: Any) -> Any:
        if len(calls) == 2:
            raise KeyboardInterrupt  # Ctrl-C during the third game
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(sim, "play_one", play)
    args = ["simulate", "--players", "2", "--games", "5", "--seed", "9", "--game-length", "short", "--workers", "1"]
    result = run(*args, "--json")
    assert result.exit_code == 130, result.output
    data = json.loads(result.stdout)
    assert (data["games"], data["partial"], data["games_asked"]) == (2, True, 5)
    assert result.stderr.strip() == ("Error: interrupted after 2 of 5 games: the results are those of the 2 finished "
                                     "(games 0–1 of seed 9); play the rest with --first-game 2 --games 3")
    calls.clear()
    table = run(*args)
    assert table.exit_code == 130 and "Partial: 2 of 5 games of tauceti" in table.stdout


def test_ctrl_c_on_simulate_after_the_last_game_keeps_the_whole_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """As for a tournament: a backend slow to close (a Ray) meets Ctrl-C once every game is in."""
    from ecliptic.sim.backends import LocalBackend

    def close(_self: LocalBackend) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(LocalBackend, "close", close)
    result = run("simulate", "--players", "2", "--games", "2", "--seed", "9", "--game-length", "short", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 2 and "partial" not in data


# -- play -------------------------------------------------------------------------------


def test_play_save_then_replay_check_is_ok(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = run("play", *PRESET, input=f"PASS\nsave {save}\nquit\n")
    assert result.exit_code == 0, result.output
    assert "passes and earns" in result.output
    assert "Saved" in result.output
    record = GameRecord.load(save)
    assert record.actions[0] == "PASS"
    assert record.digest is not None
    check = run("replay", str(save), "--check")
    assert check.exit_code == 0, check.output
    assert check.output.strip() == "ok"


def test_play_accepts_a_menu_number(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    state = GAME.new_game({"players": 2, "game": "full", "layout": "preset"}, 1)
    first = str(GAME.legal_actions(state)[0])
    result = run("play", *PRESET, input=f"1\nsave {save}\nquit\n")
    assert result.exit_code == 0, result.output
    assert GameRecord.load(save).actions[0] == first


def test_play_accepts_a_lower_case_notation(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = run("play", *PRESET, input=f"pass\nsave {save}\nquit\n")
    assert result.exit_code == 0, result.output
    assert GameRecord.load(save).actions[0] == "PASS"


def test_an_illegal_action_shows_the_rule_a_non_action_says_so_and_the_game_goes_on(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = run("play", *PRESET, input=f"END\nFLY 99\n999\nPASS\nsave {save}\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Illegal: [TC-ACT-3] take a Major action or PASS" in result.output  # a rule refuses END now
    assert "FLY is not an action of Tau Ceti: type a number from the menu" in result.output
    assert "FLY is not an action you can take" not in result.output  # no rule judged FLY
    assert "Choose a number from 1 to" in result.output
    assert "passes and earns" in result.output
    assert GameRecord.load(save).actions[0] == "PASS"  # the refused inputs left no trace


def test_play_ends_cleanly_when_input_ends() -> None:
    result = run("play", *PRESET, input="")
    assert result.exit_code == 0
    assert "End of input" in result.output
    assert "Star system" in result.output and "Tau Ceti Exchange" in result.output


def test_the_commands_help_names_both_games_and_the_browser() -> None:
    """``ecliptic --help`` said "Tau Ceti ... in the terminal" only: a person who installed it to
    play Ceres, or with friends in a browser, was not told it could."""
    result = RUNNER.invoke(app, ["--help"])
    assert result.exit_code == 0
    said = " ".join(result.output.split())
    assert "Tau Ceti: Planetary Crisis and Ceres" in said and "in the browser" in said and "(serve)" in said


def test_the_commands_list_reflows_each_docstring_instead_of_keeping_its_line_breaks() -> None:
    """The docstrings are wrapped at 100 columns; the list of commands used to keep those breaks
    beside Rich's own ("… played in parts (several" and then "commands, machines" on the next
    line), so a wide terminal showed ragged lines. On a terminal 250 columns wide a summary
    breaks only where the terminal ends."""
    result = RUNNER.invoke(app, ["--help"], env={"COLUMNS": "250"}, terminal_width=250)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    merge = next(line for line in lines if "tournament-merge" in line)
    assert "played in parts (several commands, machines, seeds or --first-game ranges)" in merge
    calibrate = next(line for line in lines if "│ calibrate" in line)
    assert "to played games (of heuristic bots unless --bots names others)" in calibrate


def test_play_shows_help_and_the_board() -> None:
    result = run("play", *PRESET, input="help\nboard\nquit\n")
    assert result.exit_code == 0
    assert "save FILE" in result.output
    assert result.output.count("Star system") == 2


def test_play_gives_the_chosen_faction_at_the_chosen_seat(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = run("play", "--faction", "xunon", "--seat", "2", "--players", "3", "--seed", "4",
                 "--layout", "preset", input=f"save {save}\nquit\n")
    assert result.exit_code == 0, result.output
    assert "You are Xunon" in result.output and "at seat 2," in result.output  # seats count from 1
    record = GameRecord.load(save)
    assert record.config["factions"][1] == "Xunon"
    assert json.loads(save.read_text())["cli"]["human_seat"] == 1  # the save keeps the engine's index


def test_play_refuses_bad_options_with_exit_2() -> None:
    result = run("play", "--faction", "Vulcan", input="")
    assert result.exit_code == 2
    assert "unknown faction 'Vulcan'" in result.output
    result = run("play", "--players", "2", "--seat", "5", input="")
    assert result.exit_code == 2
    assert "seat 5" in result.output
    result = run("play", "--bots", "genius", input="")
    assert result.exit_code == 2
    assert "unknown bot" in result.output


def test_resume_continues_a_saved_game(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    run("play", *PRESET, input=f"PASS\nsave {save}\nquit\n")
    saved = GameRecord.load(save)
    again = tmp_path / "again.json"
    result = run("play", "--resume", str(save), input=f"save {again}\nquit\n")
    assert result.exit_code == 0, result.output
    assert f"{len(saved.actions)} actions replayed" in result.output
    assert GameRecord.load(again).actions == saved.actions
    assert run("replay", str(again), "--check").exit_code == 0


def test_resume_refuses_a_corrupt_file_with_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "ecliptic.rec')
    result = run("play", "--resume", str(bad), input="")
    assert result.exit_code == 2
    assert "is not valid JSON" in result.output


def test_resume_refuses_a_foreign_json_file_with_exit_2(tmp_path: Path) -> None:
    foreign = tmp_path / "package.json"
    foreign.write_text(json.dumps({"name": "left-pad", "version": "1.3.0"}))
    result = run("play", "--resume", str(foreign), input="")
    assert result.exit_code == 2
    assert "not an Ecliptic game record" in result.output


def test_resume_refuses_a_record_with_an_illegal_action(tmp_path: Path) -> None:
    edited = tmp_path / "edited.json"
    GameRecord("tauceti", {"players": 2, "layout": "preset"}, 1, ["PASS", "TELEPORT 01"]).save(edited)
    result = run("play", "--resume", str(edited), input="")
    assert result.exit_code == 2
    assert "action 2 ('TELEPORT 01') cannot be replayed" in result.output


# -- replay ---------------------------------------------------------------------------


def test_replay_prints_the_public_log_round_by_round(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    run("play", *PRESET, input=f"PASS\nsave {save}\nquit\n")
    result = run("replay", str(save))
    assert result.exit_code == 0, result.output
    assert "Round 1 begins" in result.output
    assert "Round 2 begins" in result.output
    assert "passes and earns" in result.output
    assert "only you see this" not in result.output


def test_replay_check_fails_with_exit_1_when_the_digest_differs(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    run("play", *PRESET, input=f"PASS\nsave {save}\nquit\n")
    data = json.loads(save.read_text())
    data["digest"] = "0" * 64
    save.write_text(json.dumps(data))
    result = run("replay", str(save), "--check")
    assert result.exit_code == 1
    assert "does not replay to the state it was saved with" in result.output


def test_replay_check_without_a_digest_is_not_ok(tmp_path: Path) -> None:
    plain = tmp_path / "plain.json"
    GameRecord("tauceti", {"players": 2, "layout": "preset"}, 1, ["PASS"]).save(plain)
    result = run("replay", str(plain), "--check")
    assert result.exit_code == 1
    assert "no digest" in result.output


def test_replay_refuses_corrupt_and_missing_files_with_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe not json")
    assert run("replay", str(bad)).exit_code == 2
    missing = run("replay", str(tmp_path / "nowhere.json"), "--check")
    assert missing.exit_code == 2
    assert "cannot read" in missing.output


# -- hidden information ---------------------------------------------------------------


def _session(state: object, human: int, lines: list[str]) -> tuple[PlaySession, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=160, color_system=None, highlight=False)
    feed: Iterator[str] = iter(lines)

    def read(_prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    bots = {s: RandomBot(s) for s in range(2) if s != human}
    record = GameRecord("tauceti", {"players": 2, "layout": "preset"}, 1)
    return PlaySession(GAME, state, record, human, bots, ["random"], console, read), out


def _deal(state: object, seat: int, cards: list[str]) -> None:
    """Put known cards in a hand, taking them out of their decks."""
    for card in cards:
        name = "crisis_deck" if card.startswith("C") else "specialist_deck"
        setattr(state, name, tuple(c for c in getattr(state, name) if c != card))
        state.players[seat].hand.append(card)  # type: ignore[attr-defined]


def test_the_screen_never_shows_another_players_hand() -> None:
    state = GAME.new_game({"layout": "preset", "players": 2, "factions": ["Xunon", "Azars"]}, 1)
    _deal(state, 0, ["C07", "S13"])
    _deal(state, 1, ["C03", "S05", "S21"])
    session, out = _session(state, 0, ["board", "log", "help", "quit"])
    assert session.run() == 0
    text = out.getvalue()
    assert "C07" in text and "S13" in text  # the human's own hand is shown
    for card in ("C03", "S05", "S21"):
        assert card not in text
    assert "Azars" in text  # the other player is shown, with only a count of cards


def test_events_for_other_seats_are_not_printed() -> None:
    state = GAME.new_game({"layout": "preset", "players": 2, "factions": ["Xunon", "Azars"]}, 1)
    session, out = _session(state, 0, [])
    session.show_events([
        Event("card_drawn", "Azars draws S05.", {"card": "S05"}, frozenset({1})),
        Event("card_drawn", "You draw S13.", {"card": "S13"}, frozenset({0})),
        Event("refuel", "Azars refuels: +2 energy."),
    ])
    text = out.getvalue()
    assert "S05" not in text
    # S13 named as the hand names it, as the browser's log does
    assert "You draw Chemist (Chemical Specialist, S13)." in text and "only you see this" in text
    assert "Azars refuels" in text


def test_bots_move_by_themselves_until_the_human_decides() -> None:
    state = GAME.new_game({"layout": "preset", "players": 2, "factions": ["Xunon", "Azars"]}, 1)
    session, out = _session(state, 1, ["quit"])
    assert session.run() == 0
    assert state.current_player == 1
    assert len(session.record.actions) >= 1  # the bot's turn was played and recorded
    assert "Your turn" in out.getvalue() or "Decision" in out.getvalue()


def test_scenario_run_reports_and_exits_by_the_result(tmp_path: Path) -> None:
    ok = run("scenario", "run", "tests/scenarios/tauceti/oxoroi-builds-for-4-tau.yaml")
    assert ok.exit_code == 0, ok.output
    assert "1 passed, 0 failed" in ok.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: ecliptic-scenario/1\ntitle: broken\ngame: tauceti\nbogus: 1\n")
    result = run("scenario", "run", str(bad))
    assert result.exit_code == 1
    assert "bad.yaml" in result.output and "bogus" in result.output


def test_scenario_run_help_says_verbose_prints_the_traceback_of_a_crash() -> None:
    text = run("scenario", "run", "--help").output
    assert "traceback" in text and "passing" not in text
    quiet = run("scenario", "run", "tests/scenarios/tauceti/oxoroi-builds-for-4-tau.yaml")
    assert quiet.output.startswith("PASS ")  # passing scenarios are listed without --verbose


def test_simulate_takes_advanced_rules_and_ceres_expansions() -> None:
    tc = run("simulate", "--players", "2", "--games", "2", "--seed", "3", "--workers", "1",
             "--advanced", "1,3,8", "--json")
    assert tc.exit_code == 0, tc.output
    assert json.loads(tc.output)["config"]["advanced"] == [1, 3, 8]
    ceres = run("simulate", "--game", "ceres", "--expansions", "comets", "--players", "3", "--games", "2",
                "--seed", "3", "--workers", "1", "--json")
    assert ceres.exit_code == 0, ceres.output
    assert json.loads(ceres.output)["config"]["expansions"] == ["comets"]
    refused = run("simulate", "--games", "1", "--advanced", "12")
    assert refused.exit_code != 0
    assert "Advanced Rule 12" in refused.output


def test_play_ceres_with_comets_to_the_first_prompt() -> None:
    result = run("play", "--game", "ceres", "--expansions", "comets", "--players", "2", "--seed", "4",
                 input="quit\n")
    assert result.exit_code == 0, result.output
    assert "Comet" in result.output


def test_tournament_plays_ceres_with_comets() -> None:
    result = run("tournament", "--game", "ceres", "--expansions", "comets", "--players", "3",
                 "--bots", "heuristic,random,random", "--games", "3", "--seed", "2", "--workers", "1", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["games"] == 3


def test_a_piped_simulate_table_is_the_same_whatever_columns_says() -> None:
    """Not a terminal (CliRunner, a pipe): the table gets the width it needs, not 80 columns or $COLUMNS."""
    outputs = []
    for columns in ("30", "400"):
        result = CliRunner(env={"COLUMNS": columns}).invoke(
            app, ["simulate", "--players", "4", "--games", "1", "--seed", "2", "--game-length", "short"])
        assert result.exit_code == 0, result.output
        outputs.append(result.stdout.splitlines()[:-1])  # the last line is timing
    assert outputs[0] == outputs[1]
    assert any(line.split()[:2] == ["Specialization", "raised"] and len(line.split()) == 7 for line in outputs[0])


def _commands(cmd: Any, path: list[str]) -> Iterator[list[str]]:
    yield path
    for name, sub in getattr(cmd, "commands", {}).items():
        yield from _commands(sub, [*path, name])


@pytest.mark.parametrize("columns", ["80", "100"])
def test_every_commands_help_is_read_whole_in_a_narrow_terminal(columns: str) -> None:
    """At 80 columns the options' help had 17 characters a line and its words were cut ("…"):
    the empty "--no-advanced-specialists" column of a flag that is off by default took the room.
    A flag that is off by default is now one switch, and no option's help loses a word."""
    from typer.main import get_command

    for path in _commands(get_command(app), []):
        result = RUNNER.invoke(app, [*path, "--help"], env={"COLUMNS": columns})
        assert result.exit_code == 0, (path, result.output)
        cut = [line for line in result.output.splitlines() if "…" in line]
        assert not cut, (" ".join(path), cut)
        assert "--no-" not in result.output, " ".join(path)


def test_no_flag_in_any_commands_help_looks_as_if_it_took_a_value() -> None:
    """Typer 0.29 printed ``<bool>`` beside every flag, ``--help`` included (``--help <bool>``),
    as if a person had to type a value after it; pyproject.toml keeps Typer below 0.29. Every
    flag of every command (``--help``, ``--advanced-specialists``, ...) shows no value to give."""
    from typer.main import get_command

    for path in _commands(get_command(app), []):
        result = RUNNER.invoke(app, [*path, "--help"])
        assert result.exit_code == 0, (path, result.output)
        shown = [line for line in result.output.splitlines() if "<bool>" in line or "BOOLEAN" in line]
        assert not shown, (" ".join(path), shown)
