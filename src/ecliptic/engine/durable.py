"""Putting a file in place so that it stays there after a power cut, not only after a crash.

Writing a temporary file, ``fsync`` and ``os.replace`` keep a file whole whatever happens to the
process (``kill -9``); but the rename and a new file's name are entries of the *folder*, which
the disk may still hold only in memory: a power cut right after the rename could bring back the
old file (the last moves of a game lost). :func:`replace` syncs the folder after the rename,
:func:`make_folders` syncs the folder above each folder it makes, so every new name is on the
disk too; :func:`writing` and :func:`write_text` do all of it for a whole text file; :func:`remove` syncs the
folder after an unlink, so a file removed (a finished game's autosave) does not come back.

Where a folder cannot be opened or synced (Windows refuses ``os.open`` of a folder, some file
systems refuse ``fsync`` of one), the sync is skipped quietly: the file is in place all the same,
and whatever the disk does, nothing is worse than without the sync.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO


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
    """``path`` holding ``text`` (UTF-8), whole or not at all, after a crash or a power cut
    (:func:`writing`); the folders missing are made (:func:`make_folders`)."""
    make_folders(path.parent)
    with writing(path) as f:
        f.write(text)


@contextlib.contextmanager
def writing(path: Path) -> Iterator[TextIO]:
    """A text file (UTF-8) that takes ``path``'s place, whole, when the block ends: a temporary
    file of the same folder (which must exist), written, synced, then put in place
    (:func:`replace`). Whatever stops the block (an exception, Ctrl-C) leaves the old file and
    no temporary file behind.

    The temporary file is made with the mode of an ordinary new file (``0o666`` less the
    umask, as ``open`` gives), by the operating system: reading the umask would mean setting
    it, for a moment, for every thread of the process (``mkstemp`` makes a private file, which
    would then have to be widened by hand)."""
    fd, tmp = _new_temporary(path)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _new_temporary(path: Path) -> tuple[int, Path]:
    """A new file beside ``path``, open for writing, that no one else made (``O_EXCL``): its
    descriptor and its path (a name starting with a dot, ending in ``.tmp``)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    while True:
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue


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
