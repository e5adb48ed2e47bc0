"""The study file: JSON Lines, a header line and then one record per finished game.

Why JSON Lines: a record is appended (and flushed) as each game finishes, so memory stays
flat over any number of games, a reader can fold the file one line at a time, and a run
killed at any moment loses at most the line being written. Resuming a study reads the file,
cuts a torn last line, checks that every record is the one the study would have written at
that place, and plays on from there (:class:`StudyWriter`). A finished file may be gzipped
(``games.jsonl.gz``) to keep or share it; :func:`read_study` reads both.

Checksums: every line (the header and each record) carries ``checksum``, the SHA-256 of its
own content (:func:`checksum`), written with the line. A record's arm, index and seed say
which game it is, but nothing else in it can be checked without playing the game again, so
an edited figure would otherwise enter a report, or a resumed study, unnoticed. The reader
checks every line it reads; a file begun before lines carried checksums (its header has
none) is read, and continued, without them. A checksum catches an edit, not a forgery:
anyone can compute a new one.

Every problem with a file is a :class:`StudyFileError` that names the file and the line.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import json
import math
import os
import shutil
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ecliptic.balance.provenance import VERSION_KEY
from ecliptic.engine import durable
from ecliptic.engine.errors import EclipticError

FORMAT = "ecliptic-balance/1"
"""The header's ``format``: a reader refuses a file of another format instead of misreading it."""
RECORD_KEYS = ("arm", "index", "seed", "bots", "factions", "first_player", "points", "returns", "winners",
               "rounds", "decisions")
"""The keys every record has (a game's probe adds its own)."""
SYNC_SECONDS = 1.0
"""How often the writer asks the disk to keep what it wrote (each line is flushed at once)."""
CHECKSUM = "checksum"
"""The key of a line's checksum (the module text)."""
COMPARED = ("game", "players", "bots", "seed", "sweep", "arms")
"""The header's keys a resumed study must match, in the order a difference is named (then any
other key the header has, but ``games`` and ``checksum``: see :func:`_difference`)."""


class StudyFileError(EclipticError, ValueError):
    """A study file that cannot be read, or does not belong to the study it should continue."""


@dataclass
class StudyFile:
    """A study file opened for reading: its header, and its records read lazily in file order."""

    path: Path
    header: dict[str, Any]

    @property
    def checksummed(self) -> bool:
        """Whether the file's lines carry checksums (a file begun before they did has none)."""
        return CHECKSUM in self.header

    def records(self) -> Iterator[dict[str, Any]]:
        """Every record, checked (its checksum too); a torn last line (a run killed while
        writing) is left out."""
        with _open_text(self.path) as f:
            f.readline()
            for number, line in enumerate(f, 2):
                if not line.endswith("\n"):
                    return  # torn by a crash: the resumed run writes that game again
                yield _record(self.path, number, line, self.checksummed)


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
    _check_sum(path, 1, "the header", header, required=False)
    return StudyFile(path, header)


def checksum(line: Mapping[str, Any]) -> str:
    """The SHA-256 (hex) of a line's content: its canonical JSON (sorted keys, no spaces, ASCII)
    without its own ``checksum``. Canonical, so that it does not depend on how the line was
    laid out, and it survives a reader's round trip (JSON gives every float back exactly)."""
    content = {k: v for k, v in line.items() if k != CHECKSUM}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def with_checksum(line: Mapping[str, Any]) -> dict[str, Any]:
    """The line with its checksum."""
    return {**{k: v for k, v in line.items() if k != CHECKSUM}, CHECKSUM: checksum(line)}


class StudyWriter:
    """Appends records to a study file, one flushed line per game (see the module text).

    A new file is created with ``header``; ``resume=True`` continues an existing one, which must
    have been begun with the same header (but its ``games``). :attr:`done` is the number of
    complete records found, every one read and its checksum checked; ``check(done)`` (the
    caller's check that they are the tasks it expects) runs before the file is changed at all.
    Then a torn last line is cut, and the header's ``games`` is set to this run's (never fewer
    than the games per arm the file holds), so that a study extended with more games is the
    file a study of that many would have written (:meth:`_replace_header`).

    Every failure to create, read or write the file (a folder that is a file, no permission, a
    full disk) is a :class:`StudyFileError`."""

    def __init__(self, path: Path, header: Mapping[str, Any], *, resume: bool = False,
                 check: Callable[[int], None] | None = None) -> None:
        self.path = path
        self.done = 0
        header = {"format": FORMAT, **header}
        if path.suffix == ".gz":
            raise StudyFileError(f"{path} is gzipped: a study is written to a plain .jsonl file (gzip it when done)")
        try:
            exists = path.exists()
            if exists and not resume:
                raise StudyFileError(f"{path} already exists: continue that study with --resume, or write to "
                                     "another folder (--out)")
            if exists:
                self._file = self._resume(header, check)
            else:
                self._checksummed = True
                self._file = self._create(header)
        except OSError as exc:
            raise _unwritable(path, exc) from None
        self._synced = time.monotonic()

    def _create(self, header: Mapping[str, Any]) -> IO[str]:
        folder = self.path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise StudyFileError(f"cannot write the study into {folder}: it is a file, not a folder") from None
        except OSError as exc:
            raise StudyFileError(f"cannot write the study into {folder}: {exc.strerror or exc}") from None
        f = open(self.path, "x", encoding="utf-8")  # noqa: SIM115 (closed by close())
        try:
            f.write(_header_line(header, checksummed=True))
            f.flush()
            os.fsync(f.fileno())
        except BaseException:
            f.close()
            self.path.unlink(missing_ok=True)  # a header half written is no study: nothing is left
            raise
        return f

    def _resume(self, header: Mapping[str, Any], check: Callable[[int], None] | None) -> IO[str]:
        study = read_study(self.path)
        difference = _difference(study.header, header)
        if difference:
            raise StudyFileError(f"{self.path} holds another study: {difference}; --resume continues the study "
                                 "begun with the same options")
        self._checksummed = study.checksummed
        self.done = sum(1 for _ in study.records())
        if check is not None:
            check(self.done)
        self._cut_torn_line()
        arms = len(study.header["arms"])
        games = max(int(header["games"]), math.ceil(self.done / arms))
        if study.header.get("games") != games:
            self._replace_header(_header_line({**study.header, "games": games}, checksummed=self._checksummed))
        return open(self.path, "a", encoding="utf-8")

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

    def _replace_header(self, line: str) -> None:
        """Write ``line`` as the file's first line: the new header and every record are written
        to a temporary file beside it, kept on disk, and put in the file's place in one step
        (``os.replace``), so that a crash at any moment leaves either the old file or the new
        one, whole. The records are copied as bytes: they stay what was written."""
        temporary = self.path.with_name(f".{self.path.name}.header")
        try:
            with open(self.path, "rb") as old, open(temporary, "wb") as new:
                old.readline()
                new.write(line.encode("utf-8"))
                shutil.copyfileobj(old, new, 1 << 20)
                new.flush()
                os.fsync(new.fileno())
            durable.replace(temporary, self.path)  # the folder synced too: the new name outlives a power cut
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise

    def write(self, record: Mapping[str, Any]) -> None:
        line = with_checksum(record) if self._checksummed else record
        try:
            self._file.write(json.dumps(line, sort_keys=True, separators=(",", ":")) + "\n")
            self._file.flush()
            self.done += 1
            if time.monotonic() - self._synced >= SYNC_SECONDS:
                self._sync()
        except OSError as exc:
            raise _unwritable(self.path, exc) from None

    def _sync(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())
        self._synced = time.monotonic()

    def close(self) -> None:
        if self._file.closed:
            return
        try:
            self._sync()
        except OSError as exc:
            raise _unwritable(self.path, exc) from None
        finally:
            with contextlib.suppress(OSError):  # what could not be flushed was said above
                self._file.close()

    def __enter__(self) -> StudyWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if kind is None:
            self.close()
            return
        with contextlib.suppress(StudyFileError):  # the error already on its way says more than this one
            self.close()


def _header_line(header: Mapping[str, Any], *, checksummed: bool) -> str:
    """The header's line (as the first writer laid it out: sorted keys, spaces after separators)."""
    content = with_checksum(header) if checksummed else {k: v for k, v in header.items() if k != CHECKSUM}
    return json.dumps(content, sort_keys=True) + "\n"


def _unwritable(path: Path, exc: OSError) -> StudyFileError:
    return StudyFileError(f"cannot write the study file {path}: {exc.strerror or exc}")


def _difference(found: Mapping[str, Any], asked: Mapping[str, Any]) -> str | None:
    """What makes the file's header another study than the one asked, in words; None when it
    is the same study. ``games`` is not compared: a study resumed with more games per arm goes
    on (its tasks extend the same order). Neither is ``checksum`` (a file begun before lines
    carried one is the same study), nor the Ecliptic version that began the study: a resume by
    another version goes on when it plays the last recorded game as it was recorded (the check
    of :func:`ecliptic.balance.study.open_study`), and the header keeps the version it began with."""
    rest = sorted((set(found) | set(asked)) - set(COMPARED) - {"games", CHECKSUM, VERSION_KEY})
    for key in (*COMPARED, *rest):
        mine, theirs = found.get(key), asked.get(key)
        if mine == theirs:
            continue
        if key == "arms":  # (read_study has checked the file's arms: a list of named tables)
            return _arms_difference(mine, theirs)
        return f"the file has {key} {_shown(mine)}, these options {_shown(theirs)}"
    return None


def _arms_difference(found: Any, asked: Any) -> str:
    names = [a.get("name") for a in found]
    wanted = [a.get("name") for a in asked]
    if names != wanted:
        return f"the file has arms {_shown(names)}, these options {_shown(wanted)}"
    for mine, theirs in zip(found, asked, strict=True):
        where, a, b = _first_difference(mine, theirs)
        if where:
            return f"the file has {where} {_shown(a)} in arm {theirs['name']!r}, these options {_shown(b)}"
    return "its arms differ"  # pragma: no cover (equal lists are not a difference)


def _first_difference(mine: Any, theirs: Any, where: str = "") -> tuple[str, Any, Any]:
    """The first key (dotted, into nested objects: ``config.advanced``) whose values differ, and
    the two values; ``""`` when none does."""
    if not (isinstance(mine, Mapping) and isinstance(theirs, Mapping)):
        return (where, mine, theirs) if mine != theirs else ("", None, None)
    for key in sorted(set(mine) | set(theirs)):
        inner = _first_difference(mine.get(key), theirs.get(key), f"{where}.{key}" if where else key)
        if inner[0]:
            return inner
    return "", None, None


def _shown(value: object, most: int = 300) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= most else text[:most] + "…"


def _open_text(path: Path) -> IO[str]:
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def _json(path: Path, number: int, line: str) -> Any:
    try:
        return json.loads(line)
    except ValueError as exc:
        raise StudyFileError(f"{path}, line {number}: not JSON ({exc})") from None


def _record(path: Path, number: int, line: str, checksummed: bool = False) -> dict[str, Any]:
    record = _json(path, number, line)
    if not isinstance(record, dict):
        raise StudyFileError(f"{path}, line {number}: a record is a JSON object, not {type(record).__name__}")
    missing = [k for k in RECORD_KEYS if k not in record]
    if missing:
        raise StudyFileError(f"{path}, line {number}: the record has no {', '.join(repr(k) for k in missing)}")
    if not isinstance(record["arm"], str) or not isinstance(record["index"], int) or record["index"] < 0:
        raise StudyFileError(f"{path}, line {number}: 'arm' must be a name and 'index' a game number")
    _check_sum(path, number, f"the record of game {record['index']} of arm {record['arm']!r}", record,
               required=checksummed)
    return record


def _check_sum(path: Path, number: int, what: str, line: Mapping[str, Any], *, required: bool) -> None:
    """A line's checksum must be its content's (the module text). ``required``: in a file whose
    header carries a checksum, every record must carry one (a line without is an edited one)."""
    found = line.get(CHECKSUM)
    if found is None and not required:
        return
    if found is None:
        raise StudyFileError(f"{path}, line {number}: {what} has no checksum (every line of this file carries "
                             "one): the line was edited after it was written")
    if found != checksum(line):
        raise StudyFileError(f"{path}, line {number}: {what} does not match its checksum: the line was edited "
                             "after it was written; a study file is written only by ecliptic balance")
