"""The terminal game's saves as a power cut meets them: a save whose folder is synced after the
rename, so that the rename outlives a power cut as the file does."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

from ecliptic.engine.record import GameRecord
from ecliptic.ui import session as sess

pytestmark = pytest.mark.usefixtures("folders")  # a data folder and a working folder of its own

def same_file(fd: int, path: Path) -> bool:
    st, want = os.fstat(fd), path.stat()
    return (st.st_dev, st.st_ino) == (want.st_dev, want.st_ino)


def test_a_save_syncs_its_folder_after_the_rename(folders: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, Any]] = []
    fsync, replace = os.fsync, os.replace

    def logged_fsync(fd: int) -> None:
        calls.append(("fsync", "folder" if same_file(fd, folders) and stat.S_ISDIR(os.fstat(fd).st_mode)
                      else "file"))
        fsync(fd)

    def logged_replace(src: Any, dst: Any) -> None:
        replace(src, dst)
        calls.append(("replace", Path(dst).name))

    monkeypatch.setattr(os, "fsync", logged_fsync)
    monkeypatch.setattr(os, "replace", logged_replace)
    sess.write_save(folders / "game.json", GameRecord("tauceti", {"players": 2}, 1), {})
    assert calls == [("fsync", "file"), ("replace", "game.json"), ("fsync", "folder")]


def test_new_folders_of_the_data_folder_are_synced_in_the_folder_above(folders: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[Path] = []
    fsync = os.fsync

    def logged_fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            synced.extend(p for p in (folders, folders / "data", folders / "data" / "finished") if same_file(fd, p))
        fsync(fd)

    monkeypatch.setattr(os, "fsync", logged_fsync)
    made = sess.new_file(folders / "data" / "finished", "game")
    assert made.parent.is_dir()
    assert synced == [folders, folders / "data"]  # where "data" was made, then where "finished" was


def test_a_folder_that_cannot_be_synced_is_skipped_quietly(folders: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As on Windows, where a folder cannot be opened: the sync is tried, and the save is
    written all the same, its lock held."""
    opened, refused = os.open, []

    def no_folders(path: Any, flags: int, *args: Any) -> int:
        if Path(path).is_dir():
            refused.append(Path(path))
            raise PermissionError(13, "Permission denied")
        return opened(path, flags, *args)

    monkeypatch.setattr(os, "open", no_folders)
    held = sess.write_save(folders / "game.json", GameRecord("tauceti", {"players": 2}, 1), {}, hold=True)
    try:
        assert refused == [folders]
        assert GameRecord.load(folders / "game.json").seed == 1
        assert held is None or sess.in_play(folders / "game.json")
    finally:
        if held is not None:
            os.close(held)
