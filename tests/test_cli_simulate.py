"""``ecliptic simulate``'s summary as a designer reads it: every win rate and mean with its 95%
interval (the balance studio's statistics), the score sheet's names of the sources, and a line
saying when the numbers played are the packaged stand-ins, not the printed game's."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from typer.testing import CliRunner, Result

from ecliptic.balance.report import SOURCE_LABELS
from ecliptic.balance.stats import wilson
from ecliptic.cli import app

RUNNER = CliRunner(env={"COLUMNS": "200"})
SHORT = ["--players", "2", "--games", "3", "--seed", "9", "--game-length", "short", "--workers", "1"]


def run(*args: str) -> Result:
    result = RUNNER.invoke(app, ["simulate", *args])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result


def test_the_table_gives_each_win_rate_and_mean_its_interval_and_the_score_sheets_names() -> None:
    table = run(*SHORT).stdout
    data = json.loads(run(*SHORT, "--json").stdout)
    for name, faction in data["factions"].items():
        low, high = wilson(faction["wins"], faction["games"])
        row = next(line for line in table.splitlines() if line.split()[:1] == [name])
        assert f"[{100 * low:.1f}%, {100 * high:.1f}%]" in row  # the win rate's Wilson interval
        total_low, total_high = faction["mean_gp_ci95"]["total"]
        assert f"{faction['mean_gp']['total']:.2f} [{total_low:.2f}, {total_high:.2f}]" in row
    assert "95% interval" in table and "Mean GP by source [95% interval]" in table
    for words in ("TAU", "GP tokens", "Resource cubes", "Crises at home", "Specialization raised", "Total"):
        assert any(line.split()[:len(words.split())] == words.split() for line in table.splitlines()), words
    for key in ("gp tokens", "home crises", "gp_tokens", "specialization_raised"):  # the engine's keys
        assert key not in table
    assert "Wilson's for a win rate" in table and "Student's t for a mean" in table


def test_the_summary_says_when_the_numbers_played_are_invented_stand_ins(tmp_path: Path) -> None:
    stand_ins = run(*SHORT).stdout.splitlines()
    assert stand_ins[1] == ("Stand-in numbers: these games play the packaged stand-ins (invented where the rulebook "
                            "prints no value: docs/content-stand-ins.md), not the printed game.")
    ceres = run("--game", "ceres", "--players", "2", "--games", "1", "--seed", "1", "--workers", "1").stdout
    assert "the packaged stand-ins (a reconstructed host game, its numbers invented: docs/ceres.md)" in ceres
    factions = resources.files("ecliptic.tauceti.content").joinpath("factions.toml").read_text(encoding="utf-8")
    same = tmp_path / "copy"
    same.mkdir()
    (same / "factions.toml").write_text(factions, encoding="utf-8")
    copied = run(*SHORT, "--content", str(same)).stdout  # the packaged file itself: still the stand-ins
    assert "Stand-in numbers: these games play the packaged stand-ins" in copied
    assert json.loads(run(*SHORT, "--json", "--content", str(same)).stdout)["stand_ins"] is True
    folder = tmp_path / "printed"
    folder.mkdir()
    assert "start_tau = 10\n" in factions  # Xunon's, as docs/balance.md changes it
    (folder / "factions.toml").write_text(factions.replace("start_tau = 10\n", "start_tau = 14\n"), encoding="utf-8")
    printed = run(*SHORT, "--content", str(folder)).stdout
    assert "Stand-in numbers" not in printed
    assert f"These games play the files of {folder}; a file the folder does not have is still the stand-ins'." in (
        printed.replace("\n", " "))
    assert json.loads(run(*SHORT, "--json").stdout)["stand_ins"] is True
    assert json.loads(run(*SHORT, "--json", "--content", str(folder)).stdout)["stand_ins"] is False


def test_the_mean_rounds_have_their_interval_and_every_source_its_score_sheet_name() -> None:
    table = run(*SHORT).stdout
    assert "Mean rounds 8.00 [8.00, 8.00]" in table  # short games always last 8 rounds
    data = json.loads(run(*SHORT, "--json").stdout)
    assert set(data["mean_gp"]) <= set(SOURCE_LABELS)  # every source the engine scores has its sheet name
    assert data["mean_rounds_ci95"] == [8.0, 8.0]


def test_the_win_rates_first_column_names_the_seats_as_the_game_does() -> None:
    """Tau Ceti's players are factions; Ceres' are Player 1-4, which have no faction."""
    tau_ceti = run(*SHORT).stdout.splitlines()
    table = run("--game", "ceres", "--players", "2", "--games", "1", "--seed", "1", "--workers", "1").stdout
    ceres = table.splitlines()
    assert any(line.split()[:2] == ["Faction", "Games"] for line in tau_ceti)
    assert any(line.split()[:2] == ["Player", "Games"] for line in ceres)
    assert not any(line.split()[:1] == ["Faction"] for line in ceres)


def test_the_tables_say_the_options_and_version_they_were_played_with() -> None:
    """The heading named the seed and the bots only: a table shared apart from its command did
    not say whether its games were short or full, nor which Advanced Rules were in play."""
    from ecliptic import __version__

    lines = run(*SHORT, "--advanced", "1,3", "--layout", "preset").stdout.splitlines()
    assert lines[2] == f"Played with --game-length short, --layout preset, --advanced 1,3; Ecliptic {__version__}"
    ceres = run("--game", "ceres", "--players", "2", "--games", "1", "--workers", "1", "--expansions", "comets")
    assert f"Played with --expansions comets; Ecliptic {__version__}" in ceres.stdout
    table = RUNNER.invoke(app, ["tournament", "--bots", "random", "--players", "2", "--games", "2",
                                "--game-length", "short", "--workers", "1"])
    assert table.exit_code == 0, table.output
    assert table.stdout.splitlines()[1] == (f"Played with --game-length short, --layout random, no Advanced Rules; "
                                            f"Ecliptic {__version__}")
