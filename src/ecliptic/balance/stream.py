"""The study file: JSON Lines, a header line and then one record per finished game.

Why JSON Lines: a record is appended (and flushed) as each game finishes, so memory stays
flat over any number of games, a reader can fold the file one line at a time, and a run
killed at any moment loses at most the line being written. Resuming a study reads the file,
cuts a torn last line, checks that every record is the one the study would have written at
that place, and plays on from there (:class:`StudyWriter`). A finished file may be gzipped
(``games.jsonl.gz``) to keep or share it; :func:`read_study` reads both.

Every problem with a file is a :class:`StudyFileError` that names the file and the line.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ecliptic.engine.errors import EclipticError

FORMAT = "ecliptic-balance/1"
"""The header's ``format``: a reader refuses a file of another format instead of misreading it."""
RECORD_KEYS = ("arm", "index", "seed", "bots", "factions", "first_player", "points", "returns", "winners",
               "rounds", "decisions")
"""The keys every record has (a game's probe adds its own)."""
SYNC_SECONDS = 1.0
"""How often the writer asks the disk to keep what it wrote (each line is flushed at once)."""


class StudyFileError(EclipticError, ValueError):
    """A study file that cannot be read, or does not belong to the study it should continue."""


@dataclass
class StudyFile:
    """A study file opened for reading: its header, and its records read lazily in file order."""

    path: Path
    header: dict[str, Any]

    def records(self) -> Iterator[dict[str, Any]]:
        """Every record, checked; a torn last line (a run killed while writing) is left out."""
        with _open_text(self.path) as f:
            f.readline()
            for number, line in enumerate(f, 2):
                if not line.endswith("\n"):
                    return  # torn by a crash: the resumed run writes that game again
                yield _record(self.path, number, line)


def read_study(path: Path) -> StudyFile:
    """Open a study file (``.jsonl`` or ``.jsonl.gz``) and check its header."""
    try:
        with _open_text(path) as f:
            first = f.readline()
    except OSError as exc:
        raise StudyFileError(f"cannot read the study file {path}: {exc.strerror or exc}") from None
    except (EOFError, gzip.BadGzipFile, UnicodeDecodeError) as exc:
        raise StudyFileError(f"{path} is not a study file (it cannot be read as text: {exc})") from None
    if not first.strip():
        raise StudyFileError(f"{path} is empty: a study file begins with its header line")
    header = _json(path, 1, first)
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        shown = header.get("format") if isinstance(header, dict) else None
        raise StudyFileError(f"{path} is not a study file of this version (its first line says format {shown!r}, "
                             f"expected {FORMAT!r})")
    arms = header.get("arms")
    if not isinstance(arms, list) or not arms or not all(isinstance(a, dict) and isinstance(a.get("name"), str)
                                                         for a in arms):
        raise StudyFileError(f"{path}: its header names no arms")
    return StudyFile(path, header)


class StudyWriter:
    """Appends records to a study file, one flushed line per game (see the module text).

    A new file is created with ``header``; ``resume=True`` continues an existing one, which must
    have been begun with the same header. :attr:`done` is the number of complete records found
    (the writer has cut a torn last line); the caller checks they are the tasks it expects."""

    def __init__(self, path: Path, header: Mapping[str, Any], *, resume: bool = False) -> None:
        self.path = path
        self.done = 0
        header = {"format": FORMAT, **header}
        if path.suffix == ".gz":
            raise StudyFileError(f"{path} is gzipped: a study is written to a plain .jsonl file (gzip it when done)")
        if path.exists() and not resume:
            raise StudyFileError(f"{path} already exists: continue that study with --resume, or write to "
                                 "another folder (--out)")
        if resume and path.exists():
            study = read_study(path)
            if _comparable(study.header) != _comparable(header):
                raise StudyFileError(f"{path} holds another study (its game, arms, bots or seed differ): "
                                     "--resume continues the study begun with the same options")
            self._cut_torn_line()
            self.done = sum(1 for _ in study.records())
            self._file: IO[str] = open(path, "a", encoding="utf-8")  # noqa: SIM115 (closed by close())
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(path, "x", encoding="utf-8")  # noqa: SIM115 (closed by close())
            self._file.write(json.dumps(header, sort_keys=True) + "\n")
            self._sync()
        self._synced = time.monotonic()

    def _cut_torn_line(self) -> int:
        """Cut the file after its last newline (a line torn by a crash); its new length."""
        with open(self.path, "rb+") as f:
            data_end = f.seek(0, io.SEEK_END)
            pos = data_end
            while pos > 0:
                step = min(65536, pos)
                f.seek(pos - step)
                chunk = f.read(step)
                newline = chunk.rfind(b"\n")
                if newline >= 0:
                    pos = pos - step + newline + 1
                    break
                pos -= step
            if pos != data_end:
                f.truncate(pos)
        return pos

    def write(self, record: Mapping[str, Any]) -> None:
        self._file.write(json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n")
        self._file.flush()
        self.done += 1
        if time.monotonic() - self._synced >= SYNC_SECONDS:
            self._sync()

    def _sync(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())
        self._synced = time.monotonic()

    def close(self) -> None:
        if not self._file.closed:
            self._sync()
            self._file.close()

    def __enter__(self) -> StudyWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _comparable(header: Mapping[str, Any]) -> str:
    """The header without ``games``: a study resumed with more games per arm goes on (its tasks
    extend the same order), and the header keeps the number first asked for; readers count
    the records."""
    return json.dumps({k: v for k, v in header.items() if k != "games"}, sort_keys=True)


def _open_text(path: Path) -> IO[str]:
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def _json(path: Path, number: int, line: str) -> Any:
    try:
        return json.loads(line)
    except ValueError as exc:
        raise StudyFileError(f"{path}, line {number}: not JSON ({exc})") from None


def _record(path: Path, number: int, line: str) -> dict[str, Any]:
    record = _json(path, number, line)
    if not isinstance(record, dict):
        raise StudyFileError(f"{path}, line {number}: a record is a JSON object, not {type(record).__name__}")
    missing = [k for k in RECORD_KEYS if k not in record]
    if missing:
        raise StudyFileError(f"{path}, line {number}: the record has no {', '.join(repr(k) for k in missing)}")
    if not isinstance(record["arm"], str) or not isinstance(record["index"], int) or record["index"] < 0:
        raise StudyFileError(f"{path}, line {number}: 'arm' must be a name and 'index' a game number")
    return record
