"""Files put in place whole (:mod:`ecliptic.engine.durable`): the three writers of the project
(a text file, a game record, the terminal's save with its lock) share one mechanism, which
gives a new file the mode an ordinary ``open`` gives without touching the process's umask, and
leaves the old file and no temporary file behind whatever stops it."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ecliptic.engine import durable
from ecliptic.engine.record import GameRecord
from ecliptic.ui import session as sess

RECORD = GameRecord("tauceti", {"players": 2}, 7, ["END"])

WRITERS: dict[str, Callable[[Path], object]] = {
    "write_text": lambda path: durable.write_text(path, "{}"),
    "GameRecord.save": RECORD.save,
    "write_save": lambda path: sess.write_save(path, RECORD, {}),
}


@pytest.fixture
def umask_027() -> Iterator[None]:
    """A umask a test can tell from the default (group may read, others nothing)."""
    before = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(before)


@pytest.mark.parametrize("writer", WRITERS, ids=list(WRITERS))
def test_a_new_file_has_the_umasks_mode_and_the_umask_is_never_set(writer: str, tmp_path: Path,
                                                                   umask_027: None,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Setting the umask to read it changes it, for a moment, for every thread of the process
    (a server writing files beside the terminal game's thread would make them with the wrong
    mode)."""
    def no_umask(mask: int) -> int:
        raise AssertionError("os.umask called while writing a file")

    monkeypatch.setattr(os, "umask", no_umask)
    path = tmp_path / "game.json"
    WRITERS[writer](path)
    monkeypatch.undo()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


@pytest.mark.parametrize("writer", WRITERS, ids=list(WRITERS))
def test_a_write_that_fails_leaves_the_old_file_and_no_temporary_file(writer: str, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    path.write_text("old")

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space left"):
        WRITERS[writer](path)
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_an_exception_in_the_block_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("old")
    with pytest.raises(KeyboardInterrupt), durable.writing(path) as f:
        f.write("half")
        raise KeyboardInterrupt
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_a_temporary_file_left_by_another_writer_is_not_in_the_way(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Two writers of one file (two processes saving one game) each write their own temporary
    file: the first name tried is taken, so the writer takes another (``O_EXCL``)."""
    path = tmp_path / "game.json"
    names = iter(["aaaaaaaaaaaa", "bbbbbbbbbbbb"])
    monkeypatch.setattr(durable.secrets, "token_hex", lambda n: next(names))
    other = tmp_path / ".game.json.aaaaaaaaaaaa.tmp"
    other.write_text("another writer's")
    RECORD.save(path)
    assert GameRecord.load(path).actions == ["END"]
    assert other.read_text() == "another writer's"


def test_a_save_into_a_missing_folder_is_refused_not_made(tmp_path: Path) -> None:
    """A typed folder name that does not exist is an error to show, not a folder to make;
    ``write_text`` (the project's own data folders) makes them."""
    with pytest.raises(FileNotFoundError):
        sess.write_save(tmp_path / "typo" / "game.json", RECORD, {})
    assert not (tmp_path / "typo").exists()
    durable.write_text(tmp_path / "data" / "x.txt", "x")
    assert (tmp_path / "data" / "x.txt").read_text() == "x"
