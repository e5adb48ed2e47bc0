"""Every command that reads a file the user names refuses a bad one with one clear line, a
non-zero exit code and no traceback, and leaves the file as it was; ``scenario run`` reports a
bad scenario as an ERROR for that file and goes on with the others (ecliptic.engine.files)."""

from __future__ import annotations

import copy
import json
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from ecliptic.cli import app
from ecliptic.engine.errors import SaveFileError
from ecliptic.engine.files import MAX_BYTES, UnreadableFile, read_text
from ecliptic.engine.record import GameRecord, replay, state_digest
from ecliptic.games import get_game
from ecliptic.scenario.format import MAX_FILE_BYTES as SCENARIO_MAX_BYTES
from ecliptic.sim.tournament import MAX_FILE_BYTES as TOURNAMENT_MAX_BYTES
from ecliptic.sim.tournament import run_tournament

RUNNER = CliRunner()
CONFIG = {"players": 2, "layout": "preset"}


def invoke(args: list[str], input: str = "quit\n") -> Result:
    return RUNNER.invoke(app, args, input=input)


def assert_refused(result: Result, name: str) -> None:
    """Exit code 2, one line that starts with ``Error:`` and names the file, no traceback."""
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and name in lines[0], result.output


def fingerprint(path: Path) -> Any:
    """What a command must not change: the bytes of a small file, else the file's metadata."""
    info = os.lstat(path)
    if os.path.isfile(path) and info.st_size <= MAX_BYTES:
        return path.read_bytes()
    return info.st_mode, info.st_size, info.st_mtime_ns


# -- the corpus of bad files -----------------------------------------------------------------

Maker = Callable[[Path], Path]


def _write(name: str, data: bytes) -> Maker:
    def make(folder: Path) -> Path:
        path = folder / name
        path.write_bytes(data)
        return path
    return make


def _sparse(name: str, size: int) -> Maker:
    """A file of ``size`` bytes that takes no room on disk (and no time to write)."""
    def make(folder: Path) -> Path:
        path = folder / name
        with path.open("wb") as f:
            f.truncate(size)
        return path
    return make


def _fifo(name: str) -> Maker:
    def make(folder: Path) -> Path:
        path = folder / name
        os.mkfifo(path)
        return path
    return make


def _loop(name: str) -> Maker:
    def make(folder: Path) -> Path:
        path = folder / name
        path.symlink_to(name)  # a link to itself
        return path
    return make


def _folder(folder: Path) -> Path:
    path = folder / "folder.json"
    path.mkdir()
    return path


def _record_text(**changes: Any) -> bytes:
    data: dict[str, Any] = {"format": "ecliptic.record", "version": 1, "game": "tauceti", "config": CONFIG,
                            "seed": 1, "actions": ["PASS"]}
    data.update(changes)
    return json.dumps(data).encode()


def _nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


DEEP = b"[" * 100_000 + b"]" * 100_000
"""Python's JSON parser raises RecursionError on it."""
LONG_NUMBER = b'{"format": "ecliptic.record", "seed": ' + b"7" * 5000 + b"}"
"""``int()`` refuses more than 4,300 digits (ValueError)."""

BAD_FILES: dict[str, Maker] = {
    "binary": _write("image.json", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xd8"),
    "latin-1": _write("latin.json", '{"game": "tauceti é"}'.encode("latin-1")),
    "empty": _write("empty.json", b""),
    "not JSON": _write("broken.json", b'{"format": "ecliptic.rec'),
    "deep nesting": _write("deep.json", DEEP),
    "nesting that parses": _write("nested.json", _record_text(config={"players": _nested(500)})),
    "5,000-digit integer": _write("long.json", LONG_NUMBER),
    "FIFO": _fifo("pipe.json"),
    "symlink loop": _loop("loop.json"),
    "folder": _folder,
    "too large": _sparse("huge.json", TOURNAMENT_MAX_BYTES + 1),
}
SAVE_FILES: dict[str, Maker] = {
    "a list": _write("list.json", b"[1, 2]"),
    "foreign JSON": _write("package.json", b'{"name": "left-pad"}'),
    "a config the game refuses": _write("config.json", _record_text(config={"players": "many"})),
    "an unknown game": _write("chess.json", _record_text(game="chess")),
    "actions that are not text": _write("actions.json", _record_text(actions=[1, None])),
    "a seed of text": _write("seed.json", _record_text(seed="1")),
    "an action that cannot be replayed": _write("edited.json", _record_text(actions=["TELEPORT 01"])),
    "a save over the size limit": _sparse("big-save.json", MAX_BYTES + 1),
}

COMMANDS = {
    "replay": ["replay"],
    "replay --check": ["replay", "--check"],
    "play --resume": ["play", "--resume"],
    "tournament-merge": ["tournament-merge"],
}


@pytest.fixture
def watch_fifo() -> Iterator[Callable[[Path], None]]:
    """Releases a command that opened a FIFO to read it (it would wait for a writer forever)
    and records that it did, so that a regression fails instead of hanging the suite."""
    opened: list[Path] = []
    stop = threading.Event()

    def watch(path: Path) -> None:
        def run() -> None:
            while not stop.wait(0.05):
                try:  # succeeds only while a reader has the FIFO open
                    fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
                except OSError:
                    continue
                opened.append(path)
                os.close(fd)  # the reader sees the end of the file and goes on
        threading.Thread(target=run, daemon=True).start()

    yield watch
    stop.set()
    assert not opened, f"a command opened the FIFO {opened[0]} to read it"


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("kind", BAD_FILES)
def test_every_command_refuses_a_bad_file_in_one_line(command: str, kind: str, tmp_path: Path,
                                                      watch_fifo: Callable[[Path], None]) -> None:
    path = BAD_FILES[kind](tmp_path)
    if kind == "FIFO":
        watch_fifo(path)
    before = fingerprint(path)
    assert_refused(invoke([*COMMANDS[command], str(path)]), path.name)
    assert fingerprint(path) == before


@pytest.mark.parametrize("command", ["replay", "replay --check", "play --resume"])
@pytest.mark.parametrize("kind", SAVE_FILES)
def test_every_save_command_refuses_a_file_that_is_no_record(command: str, kind: str, tmp_path: Path) -> None:
    path = SAVE_FILES[kind](tmp_path)
    before = fingerprint(path)
    assert_refused(invoke([*COMMANDS[command], str(path)]), path.name)
    assert fingerprint(path) == before


def test_the_reader_refuses_a_file_by_its_size_before_opening_it(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    path = _sparse("big.yaml", 50 * 1024 * 1024)(tmp_path)

    def no_open(*_args: Any, **_kwargs: Any) -> int:
        raise AssertionError("the file was opened")

    monkeypatch.setattr(os, "open", no_open)
    with pytest.raises(UnreadableFile, match=r"big.yaml is too large to read \(50.0 MB; the limit is 16.0 MB\)"):
        read_text(path)


def test_a_record_loads_through_the_reader_and_says_why_not(tmp_path: Path) -> None:
    path = _write("long.json", LONG_NUMBER)(tmp_path)
    with pytest.raises(SaveFileError, match="holds a number too long to read"):
        GameRecord.load(path)


# -- save files with a hand-edited cli table ----------------------------------------------------


def _save(path: Path, game: str, config: dict[str, Any], meta: dict[str, Any]) -> Path:
    record = GameRecord(game, config, 1, [])
    state = replay(record)
    data = {**record.to_json(), "digest": state_digest(get_game(game), state), "cli": meta}
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(("game", "config"), [("ceres", {"players": 2}), ("tauceti", CONFIG)])
@pytest.mark.parametrize("meta", [{"human_seat": 0, "bots": [1, 2]}, {"human_seat": True, "bots": "random"},
                                  {"human_seat": "0", "bots": [None]}])
def test_resume_ignores_a_cli_table_of_the_wrong_types(game: str, config: dict[str, Any], meta: dict[str, Any],
                                                       tmp_path: Path) -> None:
    path = _save(tmp_path / "save.json", game, config, meta)
    before = path.read_bytes()
    result = invoke(["play", "--resume", str(path)])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and "Leaving the game" in result.output
    assert path.read_bytes() == before


# -- tournament-merge -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tournament() -> dict[str, Any]:
    result = run_tournament("tauceti", 2, ["random", "heuristic"], 2, 5, {"game": "short"})
    return result.to_json()


def _edit(change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def edited(data: dict[str, Any]) -> dict[str, Any]:
        data = copy.deepcopy(data)
        change(data)
        return data
    return edited


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """Set (or, for ``...``, delete) a value at a dotted path (``results.0.returns``)."""
    *parents, last = path.split(".")

    def change(data: dict[str, Any]) -> None:
        node: Any = data
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        if value is ...:
            del node[last]
        elif isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return change


BAD_TOURNAMENTS = {
    "games missing": (_set("games", ...), "'games' must be a whole number, not missing"),
    "games null": (_set("games", None), "'games' must be a whole number, not null"),
    "games miscounted": (_set("games", 3), "it says 3 games but lists 2"),
    "factions shorter than bots": (_set("results.0.factions", ["Xunon"]),
                                   "game 1: 'factions' must list one entry per seat (2), not 1 entry"),
    "seat_decisions shorter than bots": (_set("timing.games.1.seat_decisions", [3]),
                                         "game 2: 'seat_decisions' must list one entry per seat (2), not 1 entry"),
    "negative returns": (_set("results.0.returns", [-1.0, 0.0]), "game 1: a return must be between 0 and 1"),
    "returns over one win": (_set("results.0.returns", [1.0, 1.0]), "game 1: its returns add up to 2"),
    "a rank past the last seat": (_set("results.1.ranks", [1.0, 9.0]), "game 2: a rank must be between 1 and 2"),
    "an infinite GP total": (_set("results.0.gp", [1e999, 0.0]), "game 1: a GP total must be a number, not inf"),
    "a bot not in the tournament": (_set("results.0.bots", ["random", "ismcts"]),
                                    "game 1: 'ismcts' plays, but it is not one of the tournament's bots"),
    "bots not a list": (_set("bots", "random"), "'bots' must be a list of texts, not 'random'"),
    "results not a list": (_set("results", {}), "'results' must be the list of games, not {}"),
    "a seed of text": (_set("results.0.seed", "5"), "game 1: 'seed' must be a whole number, not '5'"),
    "config not a table": (_set("config", [1]), "'config' must be a table, not [1]"),
}


@pytest.mark.parametrize("kind", BAD_TOURNAMENTS)
def test_tournament_merge_refuses_a_malformed_tournament(kind: str, tournament: dict[str, Any],
                                                         tmp_path: Path) -> None:
    change, says = BAD_TOURNAMENTS[kind]
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(tournament))
    bad.write_text(json.dumps(_edit(change)(tournament)))
    before = bad.read_bytes()
    result = invoke(["tournament-merge", str(good), str(bad)])
    assert_refused(result, "bad.json is not the JSON of `ecliptic tournament --json`")
    assert says in result.output
    assert bad.read_bytes() == before


def test_a_bot_named_like_rich_markup_is_printed_as_it_is(tournament: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(tournament)
    names = {"random": "[/]", "heuristic": "[bold]x"}
    data["bots"] = [names[b] for b in data["bots"]]
    for game in data["results"]:
        game["bots"] = [names[b] for b in game["bots"]]
    path = tmp_path / "markup.json"
    path.write_text(json.dumps(data))
    result = invoke(["tournament-merge", str(path)])
    assert result.exit_code == 0, result.output
    assert "bots [/],[bold]x" in result.output
    rows = [line.split()[0] for line in result.output.splitlines() if line.strip().startswith("[")]
    assert sorted(rows) == ["[/]", "[bold]x"]


# -- scenario run ------------------------------------------------------------------------------------

HEAD = """\
format: ecliptic-scenario/1
title: a bad scenario
game: tauceti
config: {players: 2, factions: [Xunon, Azars], layout: preset}
seed: 7
"""
GOOD = HEAD + "steps:\n  - do: REF\nexpect:\n  players.Xunon.energy: 7\n"

BAD_SCENARIOS: dict[str, tuple[Maker, str]] = {
    "an empty decision stack": (_write("stack.yaml", (HEAD + "setup:\n  stack: []\nsteps:\n  - do: REF\n").encode()),
                                "stack.yaml:6: after the setup the components do not add up"),
    "an unknown decision kind": (_write("kind.yaml", (HEAD + "setup:\n  stack: [{kind: nosuch, player: 0}]\n"
                                                      "steps:\n  - do: REF\n").encode()),
                                 "kind.yaml:6: after the setup the components do not add up (each card, token and "
                                 "cube must be in exactly one place): stack[0].kind: unknown decision kind 'nosuch'"),
    "an unknown card in a hand": (_write("hand.yaml", (HEAD + "setup:\n  players.Azars.hand: [ZZZ99]\n"
                                                       "steps:\n  - do: REF\n").encode()),
                                  "hand.yaml:6: after the setup the components do not add up (each card, token and "
                                  "cube must be in exactly one place): players[1].hand: unknown ['ZZZ99']"),
    "config.players changed by the setup": (
        _write("players.yaml", (HEAD + "setup:\n  config.players: 4\nsteps:\n  - do: REF\n").encode()),
        "players.yaml:6: the run crashed after 0 step(s): ValueError: name one faction per player"),
    "more players than factions": (_write("four.yaml", HEAD.replace("players: 2", "players: 4").encode()
                                          + b"expect: {round: 1}\n"),
                                   "four.yaml:4: config: name one faction per player"),
    "deep nesting": (_write("deep.yaml", b"[" * 100_000 + b"]" * 100_000),
                     "deep.yaml:1: YAML: the file nests lists or tables more than 64 levels deep"),
    "nesting that parses": (_write("nested.yaml", HEAD.encode() + b"expect: {round: " + b"[" * 200 + b"]" * 200
                                   + b"}\n"), "nested.yaml:1: YAML: the file nests lists or tables more than 64"),
    "a 5,000-digit seed": (_write("seed.yaml", HEAD.replace("seed: 7", "seed: " + "7" * 5000).encode()
                                  + b"expect: {round: 1}\n"),
                           "seed.yaml:5: YAML: cannot read this value: Exceeds the limit"),
    "a symlink loop": (_loop("loop.yaml"), "loop.yaml:1: file: cannot read"),
    "a 50 MB file": (_sparse("huge.yaml", 50 * 1024 * 1024),
                     f"huge.yaml:1: file: {'{}'} is too large to read (50.0 MB; the limit is "
                     f"{SCENARIO_MAX_BYTES // (1024 * 1024)}.0 MB)"),
    "binary": (_write("binary.yaml", b"\x00\xff\xfe"), "binary.yaml:1: file:"),
    "a FIFO": (_fifo("pipe.yaml"), "pipe.yaml:1: file: cannot read"),
}


def test_scenario_run_reports_each_bad_file_as_an_error_and_goes_on(tmp_path: Path,
                                                                    watch_fifo: Callable[[Path], None]) -> None:
    (tmp_path / "a-good.yaml").write_text(GOOD)
    paths = [maker(tmp_path) for maker, _says in BAD_SCENARIOS.values()]
    watch_fifo(tmp_path / "pipe.yaml")
    (tmp_path / "z-good.yaml").write_text(GOOD)
    before = {p: fingerprint(p) for p in paths}
    result = invoke(["scenario", "run", str(tmp_path)])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    report = result.output.splitlines()
    assert report[-1] == f"{len(paths) + 2} scenario(s): 2 passed, 0 failed, {len(paths)} with errors in the file"
    assert sum(line.startswith("PASS  ") for line in report) == 2  # the good files, before and after the bad
    for path, (_maker, says) in zip(paths, BAD_SCENARIOS.values(), strict=True):
        assert any(line.startswith(f"ERROR {path}") for line in report), path.name
        assert any(says.format(path) in line for line in report), (says, result.output)
        assert fingerprint(path) == before[path]


def test_a_setup_the_game_would_not_load_from_a_save_is_an_error_in_the_file(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    """The runner asks the game's own save checks (from_json) about the state a setup wrote."""
    from ecliptic.scenario.adapters import adapter_for

    rules = adapter_for("tauceti").rules()

    def refuse(_data: Any) -> Any:
        raise SaveFileError("the save file is corrupt: Azars holds the unknown card ZZZ99")

    monkeypatch.setattr(rules, "from_json", refuse)
    path = tmp_path / "hand.yaml"
    path.write_text(HEAD + "setup:\n  players.Azars.tau: 5\nsteps:\n  - do: REF\n")
    result = invoke(["scenario", "run", str(path)])
    assert result.exit_code == 1
    assert (f"{path}:6: after the setup the state is not one the game can be in: the save file is corrupt: "
            "Azars holds the unknown card ZZZ99") in result.output
