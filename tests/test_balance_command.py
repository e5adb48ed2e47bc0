"""``ecliptic balance``: a study and its report from the command line; a run killed (kill -9)
or interrupted (Ctrl-C) resumes to the same file; every backend gives the same study."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ecliptic.balance.stream import read_study
from ecliptic.balance.study import Study, base_arms, run_study
from ecliptic.cli import app

RUNNER = CliRunner()
CERES = ["--game", "ceres", "--players", "3", "--bots", "random", "--sweep", "comets", "--seed", "4"]


def balance(*args: str) -> Any:
    return RUNNER.invoke(app, ["balance", *args], env={"COLUMNS": "400"})


def test_a_study_writes_its_file_and_report(tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = balance(*CERES, "--games", "6", "--workers", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "12 games played (0 found done)" in result.output
    study = read_study(out / "games.jsonl")
    assert [a["name"] for a in study.header["arms"]] == ["without-comets", "with-comets"]
    assert len(list(study.records())) == 12
    results = json.loads((out / "results.json").read_text())
    assert [a["name"] for a in results["arms"]] == ["without-comets", "with-comets"]
    page = (out / "index.html").read_text()
    assert "with Comets" in page and "without Comets" in page
    assert list((out / "figures").glob("*.svg"))


def test_the_report_is_rebuilt_from_the_file_alone(tmp_path: Path) -> None:
    out = tmp_path / "report"
    assert balance(*CERES, "--games", "4", "--workers", "1", "--out", str(out)).exit_code == 0
    again = tmp_path / "again"
    result = RUNNER.invoke(app, ["balance", "report", str(out / "games.jsonl"), "--out", str(again)])
    assert result.exit_code == 0, result.output
    assert (again / "results.json").read_bytes() == (out / "results.json").read_bytes()


@pytest.mark.parametrize(("args", "words"), [
    (["--sweep", "nope"], "unknown sweep 'nope'"),
    (["--bots", "nobot"], "unknown bot 'nobot'"),
    (["--game", "chess"], "unknown game 'chess'"),
    (["--backend", "mars"], "mars"),
    (["--content", "/no/such/folder"], "folder"),
])
def test_bad_options_are_refused_in_one_line_before_any_game(tmp_path: Path, args: list[str], words: str) -> None:
    out = tmp_path / "report"
    result = balance("--game", "ceres", "--games", "2", "--out", str(out), *args)
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output
    assert not (out / "games.jsonl").exists()


@pytest.mark.parametrize(("out", "words"), [
    ("afile", "cannot write the study into {tmp}/afile: it is a file, not a folder"),
    ("afile/report", "cannot write the study into {tmp}/afile/report: Not a directory"),
    pytest.param("/proc/nope/", "cannot write the study into /proc/nope: No such file or directory",
                 marks=pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="no /proc here")),
])
def test_an_out_folder_that_cannot_be_made_is_one_line_and_nothing_is_written(tmp_path: Path, out: str,
                                                                               words: str) -> None:
    (tmp_path / "afile").write_text("mine", encoding="utf-8")
    target = out if out.startswith("/") else str(tmp_path / out)
    result = balance(*CERES, "--games", "1", "--workers", "1", "--out", target)
    assert result.exit_code == 2, result.output
    assert result.output == f"Error: {words.format(tmp=tmp_path)}\n"  # one line, no traceback
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]
    assert (tmp_path / "afile").read_text(encoding="utf-8") == "mine"


@pytest.mark.parametrize(("args", "words"), [
    (["--sweep", "advanced", "--advanced", "1"], "--sweep advanced sets the Advanced Rules of each arm (all off, "
                                                 "each alone, all on): leave out --advanced"),
    (["--sweep", "players", "--players", "4"], "--sweep players sets the players of each arm (1 to 4): leave out "
                                               "--players"),
    (["--game", "ceres", "--sweep", "comets", "--expansions", "comets"],
     "--sweep comets plays each arm without and with the Comets: leave 'comets' out of --expansions"),
])
def test_a_sweep_refuses_a_value_for_the_option_it_sweeps(tmp_path: Path, args: list[str], words: str) -> None:
    out = tmp_path / "report"
    result = balance("--games", "1", "--out", str(out), *args)
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_the_summary_is_printed_on_stdout_and_the_messages_on_stderr(tmp_path: Path) -> None:
    from ecliptic.balance.report import mean_text, pct, position_name

    out = tmp_path / "report"
    result = balance(*CERES, "--bots", "random,heuristic", "--games", "4", "--workers", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "8 games played (0 found done)" in result.stderr and f"Report: {out / 'index.html'}" in result.stderr
    assert "games played" not in result.stdout and "Report:" not in result.stdout
    lines = result.stdout.splitlines()
    from ecliptic import __version__

    assert lines[0] == ("Ceres, balance study: 4 games per arm, seed 4, bots random,heuristic, "
                        f"begun with Ecliptic {__version__}")
    results = json.loads((out / "results.json").read_text())
    for arm in results["arms"]:  # the figures of results.json, as the page writes them
        for kind in ("positions", "bots"):
            for g in arm[kind]:
                name = position_name(g["position"]) if kind == "positions" else g["name"]
                row = [arm["label"], name, str(g["games"]), pct(g["win_rate"]) + ("*" if g["significant"] else ""),
                       f"[{pct(g['interval'][0])}, {pct(g['interval'][1])}]", pct(g["fair_share"])]
                assert any(line.split() == " ".join(row).split() for line in lines), row
        means = [arm["label"], str(arm["games"]), mean_text(arm["total_points"]), mean_text(arm["rounds"])]
        assert any(line.split() == " ".join(means).split() for line in lines), means
    again = RUNNER.invoke(app, ["balance", "report", str(out / "games.jsonl")])
    assert again.exit_code == 0 and again.stdout == result.stdout  # the report command prints it too


def test_an_edited_study_file_is_refused_by_resume_and_by_the_report(tmp_path: Path) -> None:
    out = tmp_path / "report"
    assert balance(*CERES, "--games", "8", "--workers", "1", "--out", str(out)).exit_code == 0
    path = out / "games.jsonl"
    rows = path.read_text().splitlines(keepends=True)[:6]
    record = json.loads(rows[2])
    record["decisions"] = 5 if record["decisions"] != 5 else 6
    rows[2] = json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n"
    path.write_text("".join(rows))
    for written in ("results.json", "index.html", "win-rates.csv", "comparisons.csv"):
        (out / written).unlink()
    result = balance(*CERES, "--games", "8", "--workers", "1", "--out", str(out), "--resume")
    assert result.exit_code == 2, result.output
    assert "line 3: the record of game 0 of arm 'with-comets' does not match its checksum" in result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert path.read_text() == "".join(rows)
    result = RUNNER.invoke(app, ["balance", "report", str(path)])
    assert result.exit_code == 2 and "line 3: the record of game 0 of arm 'with-comets'" in result.output
    assert sorted(p.name for p in out.iterdir()) == ["figures", "games.jsonl"]  # no report of an edited file


def test_an_existing_study_is_continued_only_with_resume(tmp_path: Path) -> None:
    out = tmp_path / "report"
    assert balance(*CERES, "--games", "2", "--workers", "1", "--out", str(out)).exit_code == 0
    before = (out / "games.jsonl").read_bytes()
    result = balance(*CERES, "--games", "2", "--workers", "1", "--out", str(out))
    assert result.exit_code == 2 and "--resume" in result.output
    assert (out / "games.jsonl").read_bytes() == before
    result = balance(*CERES, "--games", "3", "--workers", "1", "--out", str(out), "--resume")
    assert result.exit_code == 0 and "2 games played (4 found done)" in result.output


def test_a_content_folder_is_played_beside_the_stand_ins(tmp_path: Path) -> None:
    from ecliptic.games import content_slot

    folder = tmp_path / "icy"
    folder.mkdir()
    belt = content_slot("ceres").packaged_texts()["belt.toml"]
    (folder / "belt.toml").write_text(re.sub(r"(?m)^start_ice = 1\b", "start_ice = 3", belt, count=1))
    out = tmp_path / "report"
    result = balance(*CERES, "--games", "4", "--workers", "1", "--out", str(out), "--content", str(folder))
    assert result.exit_code == 0, result.output
    study = read_study(out / "games.jsonl")
    arms = study.header["arms"]
    assert [a["name"] for a in arms] == ["without-comets@stand-ins", "with-comets@stand-ins",
                                         "without-comets@icy", "with-comets@icy"]
    assert arms[0]["content"] is None and len(arms[2]["content"]["digest"]) == 64
    records: dict[str, list[Any]] = {}
    for r in study.records():
        records.setdefault(r["arm"], []).append(r)
    seeds = {arm: [r["seed"] for r in rs] for arm, rs in records.items()}
    assert seeds["without-comets@icy"] == seeds["without-comets@stand-ins"]
    points = {arm: [r["points"] for r in rs] for arm, rs in records.items()}
    assert points["without-comets@icy"] != points["without-comets@stand-ins"]  # more Ice: other Launches
    assert "icy" in (out / "index.html").read_text()


# -- kill -9 and Ctrl-C -------------------------------------------------------------------

SLOW = ["--game", "ceres", "--players", "4", "--bots", "heuristic:epsilon=0.2", "--sweep", "comets",
        "--games", "30", "--seed", "9", "--workers", "1"]
"""A study long enough (some seconds) to be stopped in the middle."""


def slow_study() -> Study:
    return Study("ceres", ("heuristic:epsilon=0.2",), 30, 9,
                 tuple(base_arms("ceres", 4, {"expansions": []}, "comets")), "comets")


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("whole") / "games.jsonl"
    run_study(slow_study(), path)
    return path.read_bytes()


def start(out: Path) -> subprocess.Popen[bytes]:
    code = "from ecliptic.cli import main; main()"
    return subprocess.Popen([sys.executable, "-c", code, "balance", *SLOW, "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
                            env={**os.environ, "COLUMNS": "400"})


def records_written(path: Path) -> Iterator[int]:
    while True:
        yield path.read_text().count("\n") - 1 if path.exists() else 0


def wait_for_records(proc: subprocess.Popen[bytes], path: Path, count: int) -> None:
    """Until ``count`` games are in the file (the test stops the run in the middle, wherever
    that lands; what it checks does not depend on where)."""
    deadline = time.monotonic() + 120
    for written in records_written(path):
        if written >= count:
            return
        assert proc.poll() is None, proc.stdout.read().decode() if proc.stdout else ""
        assert time.monotonic() < deadline, "the study wrote no games"
        time.sleep(0.02)


def test_a_study_killed_with_kill_9_resumes_to_the_same_file(tmp_path: Path, uninterrupted: bytes) -> None:
    out = tmp_path / "report"
    proc = start(out)
    wait_for_records(proc, out / "games.jsonl", 5)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    kept = (out / "games.jsonl").read_bytes()
    assert len(kept) < len(uninterrupted) and uninterrupted.startswith(kept.rpartition(b"\n")[0])
    done = kept.count(b"\n") - 1
    result = balance(*SLOW, "--out", str(out), "--resume")
    assert result.exit_code == 0, result.output
    assert f"{60 - done} games played ({done} found done)" in result.output
    assert (out / "games.jsonl").read_bytes() == uninterrupted


def test_ctrl_c_keeps_the_finished_games_and_says_how_to_resume(tmp_path: Path, uninterrupted: bytes) -> None:
    out = tmp_path / "report"
    proc = start(out)
    wait_for_records(proc, out / "games.jsonl", 5)
    os.killpg(proc.pid, signal.SIGINT)
    output = proc.communicate(timeout=60)[0].decode()
    assert proc.returncode == 130, output
    assert "interrupted" in output and "--resume" in output and "Traceback" not in output
    assert balance(*SLOW, "--out", str(out), "--resume").exit_code == 0
    assert (out / "games.jsonl").read_bytes() == uninterrupted


# -- backends -----------------------------------------------------------------------------


def test_every_backend_and_worker_count_gives_the_same_study(tmp_path: Path, ray_cluster: Any) -> None:
    from ecliptic.sim.backends import get_backend

    study = Study("tauceti", ("random", "heuristic"), 3, 2,
                  tuple(base_arms("tauceti", 2, {"game": "short", "layout": "players", "advanced": []}, "players")),
                  "players")
    files = {}
    for name, workers in (("in-process", 1), ("local", 2), ("ray", 2)):
        path = tmp_path / name / "games.jsonl"
        if name == "in-process":
            run_study(study, path)
        else:
            with get_backend(name, workers=workers) as backend:
                run_study(study, path, backend=backend)
        files[name] = path.read_bytes()
    assert files["local"] == files["in-process"] == files["ray"]
    from ecliptic.balance.report import write_report

    reports = {}
    for name in files:
        write_report(tmp_path / name / "games.jsonl", tmp_path / name)
        reports[name] = (tmp_path / name / "results.json").read_bytes()
    assert reports["local"] == reports["in-process"] == reports["ray"]


def test_a_content_folder_that_changes_no_value_is_refused_before_any_game(tmp_path: Path) -> None:
    from ecliptic.games import content_slot

    copy, twin = tmp_path / "copy", tmp_path / "twin"
    for folder in (copy, twin):
        folder.mkdir()
    belt = content_slot("ceres").packaged_texts()["belt.toml"]
    (copy / "belt.toml").write_text(belt)  # a sed whose pattern matched no line leaves this
    out = tmp_path / "report"
    result = balance(*CERES, "--games", "2", "--workers", "1", "--out", str(out), "--content", str(copy))
    assert result.exit_code == 2, result.output
    assert f"--content {copy} plays exactly the packaged stand-ins" in result.output
    assert "Traceback" not in result.output and not out.exists()
    icy = re.sub(r"(?m)^start_ice = 1\b", "start_ice = 3", belt, count=1)
    (copy / "belt.toml").write_text(icy)
    (twin / "belt.toml").write_text(icy)
    result = balance(*CERES, "--games", "2", "--workers", "1", "--out", str(out), "--content", str(copy),
                     "--content", str(twin))
    assert result.exit_code == 2, result.output
    assert f"--content {twin} and --content {copy} hold the same values" in result.output and not out.exists()


def test_the_report_says_how_it_was_made_and_its_command_plays_the_same_study(tmp_path: Path) -> None:
    import shlex

    from ecliptic import __version__

    out = tmp_path / "report"
    options = ["--game", "tauceti", "--players", "2", "--bots", "random", "--games", "2", "--seed", "5",
               "--game-length", "short", "--layout", "preset", "--advanced", "1,3"]
    result = balance(*options, "--workers", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert f"begun with Ecliptic {__version__}" in result.stdout
    results = json.loads((out / "results.json").read_text())
    assert results["ecliptic"] == __version__
    command = shlex.split(results["command"])
    assert command[:2] == ["ecliptic", "balance"] and "--out" not in command  # results.json: wherever the file is
    page = (out / "index.html").read_text()
    assert f"{__version__} (the version that began the study)" in page
    assert f"{results['command']} --out {out}" in page
    again = tmp_path / "again"
    replayed = RUNNER.invoke(app, [*command[1:], "--workers", "1", "--out", str(again)])
    assert replayed.exit_code == 0, replayed.output
    assert (again / "games.jsonl").read_bytes() == (out / "games.jsonl").read_bytes()


def test_the_command_names_a_sweep_and_its_content_folders_but_not_what_the_sweep_sets() -> None:
    from ecliptic.balance.provenance import study_command

    header = {"game": "ceres", "players": 4, "bots": ["heuristic:epsilon=0.1"], "seed": 1, "games": 4000,
              "sweep": "comets", "arms": [
                  {"config": {"expansions": [], "players": 4}, "content": None},
                  {"config": {"expansions": ["comets"], "players": 4}, "content": None},
                  {"config": {"expansions": [], "players": 4}, "content": {"folder": "my values", "digest": "d"}},
                  {"config": {"expansions": ["comets"], "players": 4}, "content": {"folder": "my values",
                                                                                   "digest": "d"}}]}
    assert study_command(header, "docs/balance/ceres-4p-comets") == (
        "ecliptic balance --game ceres --players 4 --bots heuristic:epsilon=0.1 --games 4000 --seed 1 "
        "--sweep comets --content 'my values' --out docs/balance/ceres-4p-comets")
    players = {"game": "tauceti", "players": 1, "bots": ["random"], "seed": 2, "games": 10, "sweep": "players",
               "arms": [{"config": {"game": "full", "layout": "players", "advanced": [2], "players": 1}}]}
    assert study_command(players, "out") == ("ecliptic balance --game tauceti --bots random --games 10 --seed 2 "
                                             "--sweep players --advanced 2 --out out")


def test_the_report_writes_its_figures_as_csv_for_a_spreadsheet(tmp_path: Path) -> None:
    import csv

    out = tmp_path / "report"
    assert balance(*CERES, "--games", "4", "--workers", "1", "--out", str(out)).exit_code == 0
    results = json.loads((out / "results.json").read_text())
    with open(out / "win-rates.csv", newline="", encoding="utf-8") as f:
        rates = list(csv.DictReader(f))
    arm = results["arms"][1]
    rows = {(r["arm"], r["kind"], r["name"]): r for r in rates}
    first = arm["factions"][0]
    row = rows[(arm["name"], "player", first["name"])]
    assert float(row["win_rate"]) == first["win_rate"] and float(row["low95"]) == first["interval"][0]
    assert float(row["mean_points"]) == first["points"]["total"]["mean"]
    assert row["significant"] in ("yes", "no") and int(row["games_needed"]) == first["games_needed"]
    assert rows[(arm["name"], "position", "position 0")]["fair_share"] == str(1 / 3)
    assert len(rates) == sum(len(a["factions"]) + len(a["positions"]) + len(a["bots"]) for a in results["arms"])
    with open(out / "comparisons.csv", newline="", encoding="utf-8") as f:
        comparisons = list(csv.DictReader(f))
    assert len(comparisons) == len(results["comparisons"])
    assert {c["base"] for c in comparisons} == {"without-comets"}
    assert "win-rates.csv" in (out / "index.html").read_text()
    again = tmp_path / "again"
    assert RUNNER.invoke(app, ["balance", "report", str(out / "games.jsonl"), "--out", str(again)]).exit_code == 0
    for name in ("win-rates.csv", "comparisons.csv"):
        assert (again / name).read_bytes() == (out / name).read_bytes()
