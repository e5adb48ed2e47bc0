"""Putting a file in place so that it stays there after a power cut, not only after a crash.

Writing a temporary file, ``fsync`` and ``os.replace`` keep a file whole whatever happens to the
process (``kill -9``); but the rename and a new file's name are entries of the *folder*, which
the disk may still hold only in memory: a power cut right after the rename could bring back the
old file (the last moves of a game lost). :func:`replace` syncs the folder after the rename,
:func:`make_folders` syncs the folder above each folder it makes, so every new name is on the
disk too; :func:`write_text` does all of it for a whole text file; :func:`remove` syncs the
folder after an unlink, so a file removed (a finished game's autosave) does not come back.

Where a folder cannot be opened or synced (Windows refuses ``os.open`` of a folder, some file
systems refuse ``fsync`` of one), the sync is skipped quietly: the file is in place all the same,
and whatever the disk does, nothing is worse than without the sync.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def sync_folder(folder: Path) -> None:
    """Ask the disk to keep ``folder``'s entries as they are now (a file just renamed or made
    in it). Never raises: the entries are made whether or not they are synced, and a caller that
    holds a new file's lock must not let go of it for a sync that could not be done."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def replace(source: str | Path, target: Path) -> None:
    """``os.replace(source, target)``, then ``target``'s folder synced (:func:`sync_folder`):
    ``source`` must be a file already written and synced in the same folder."""
    os.replace(source, target)
    sync_folder(target.parent)


def write_text(path: Path, text: str) -> None:
    """``path`` holding ``text`` (UTF-8), whole or not at all, after a crash or a power cut: a
    temporary file of the same folder written and synced, then put in place (:func:`replace`);
    the folders missing are made (:func:`make_folders`). Whatever stops it leaves the old file
    and no temporary file behind."""
    make_folders(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # as an ordinary new file (mkstemp makes it private)
        replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def make_folders(folder: Path) -> None:
    """``folder.mkdir(parents=True, exist_ok=True)``, and for every folder it made, the folder
    above it synced, so that the new folder's name outlives a power cut as the files in it do."""
    missing = []
    at = folder
    while not at.is_dir() and at.parent != at:
        missing.append(at)
        at = at.parent
    folder.mkdir(parents=True, exist_ok=True)
    for made in reversed(missing):
        sync_folder(made.parent)


def remove(path: Path) -> None:
    """``path.unlink()``, then its folder synced (:func:`sync_folder`): without the sync, a power
    cut soon after could bring the file back (an autosave of a game already filed as finished,
    which would then be resumed as if it were still to play). Raises as ``unlink`` does; the
    folder is synced only when the file was removed."""
    path.unlink()
    sync_folder(path.parent)
