"""``ecliptic content copy`` and ``content check``: a designer starts a folder of printed values
from the packaged files without looking for them inside the installed package, and learns
before a study whether an edit changed anything (docs/content-stand-ins.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from ecliptic.cli import app
from ecliptic.games import ContentPack, content_slot

RUNNER = CliRunner()


def content(*args: str) -> Any:
    return RUNNER.invoke(app, ["content", *args], env={"COLUMNS": "400"})


def test_copy_writes_the_packaged_files_which_play_the_stand_ins(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    result = content("copy", str(folder))
    assert result.exit_code == 0, result.output
    packaged = content_slot("tauceti").packaged_texts()
    assert sorted(p.name for p in folder.iterdir()) == sorted(packaged)
    assert all((folder / name).read_text(encoding="utf-8") == text for name, text in packaged.items())
    assert ContentPack.read("tauceti", folder).digest == ContentPack.packaged("tauceti").digest
    assert f"--content {folder}" in result.output


def test_copy_of_one_file_of_ceres(tmp_path: Path) -> None:
    folder = tmp_path / "icy"
    result = content("copy", "--game", "ceres", "--file", "belt", str(folder))
    assert result.exit_code == 0, result.output
    assert [p.name for p in folder.iterdir()] == ["belt.toml"]


def test_copy_never_replaces_a_file_and_writes_nothing_then(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "factions.toml").write_text("my edits\n", encoding="utf-8")
    result = content("copy", str(folder))
    assert result.exit_code == 2
    assert "already has factions.toml: nothing was copied" in result.output and "Traceback" not in result.output
    assert [p.name for p in folder.iterdir()] == ["factions.toml"]
    assert (folder / "factions.toml").read_text(encoding="utf-8") == "my edits\n"


def test_copy_refuses_an_unknown_file_or_game_in_one_line(tmp_path: Path) -> None:
    for args, words in ((["--file", "faction.toml"], "faction.toml: not a tauceti content file"),
                        (["--game", "chess"], "unknown game 'chess'")):
        result = content("copy", str(tmp_path / "x"), *args)
        assert result.exit_code == 2 and words in result.output and "Traceback" not in result.output
        assert not (tmp_path / "x").exists()


def test_check_names_the_changed_files_and_refuses_a_copy_that_changes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "rich"
    assert content("copy", "--file", "factions.toml", "--file", "cards.toml", str(folder)).exit_code == 0
    unchanged = content("check", str(folder))
    assert unchanged.exit_code == 1
    assert "plays exactly the packaged stand-ins" in unchanged.output
    path = folder / "factions.toml"
    path.write_text(re.sub(r"(?m)^start_tau = 10$", "start_tau = 14", path.read_text(encoding="utf-8"), count=1),
                    encoding="utf-8")
    result = content("check", str(folder))
    assert result.exit_code == 0, result.output
    assert "Changed from the stand-ins: factions.toml" in result.output
    assert "Copied unchanged: cards.toml" in result.output
    assert ContentPack.read("tauceti", folder).digest in result.output


def test_check_refuses_a_bad_value_in_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "bad"
    assert content("copy", "--file", "factions.toml", str(folder)).exit_code == 0
    path = folder / "factions.toml"
    path.write_text(re.sub(r"(?m)^start_tau = 10$", "start_tau = 'ten'", path.read_text(encoding="utf-8"),
                           count=1), encoding="utf-8")
    result = content("check", str(folder))
    assert result.exit_code == 2 and "start_tau" in result.output and "Traceback" not in result.output
