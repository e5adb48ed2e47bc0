"""Reading a file a user names: a save file, a game record, a scenario, a tournament's JSON.

Every command reads its files through :func:`read_text` and :func:`parse_json`, so every one
refuses the same bad files the same way, with one :class:`UnreadableFile` message naming the
file, and never hangs or dies on them: a folder, a FIFO or a device (refused before it is
opened: reading a FIFO waits for a writer forever), a symlink loop, a file too large to be
what it claims (refused by its size, before a byte is read), bytes that are not UTF-8 text,
JSON nested deeper than any of ours (Python's parser raises ``RecursionError``; a tree that
only just parses would raise it later, in whatever walks it), or a number of thousands of
digits (``int()`` refuses more than 4,300). The file itself is only ever read.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ecliptic.engine.errors import EclipticError

MAX_BYTES = 16 * 1024 * 1024
"""The largest file read by default: a save of a whole game is a few tens of kilobytes."""
MAX_DEPTH = 64
"""The deepest nesting of lists and tables accepted; our own files nest fewer than ten levels."""


class UnreadableFile(EclipticError, ValueError):
    """A file cannot be read as text or parsed; the message names the file and says why."""


def read_text(path: Path | str, *, max_bytes: int = MAX_BYTES) -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes`` bytes."""
    path = Path(path)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFile(f"cannot read {path}: it is {_kind(info.st_mode)}, not a file")
        _check_size(path, info.st_size, max_bytes)
        # O_NONBLOCK: should the file have become a FIFO since the stat, opening it does not wait.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as file:
            info = os.fstat(file.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise UnreadableFile(f"cannot read {path}: it is {_kind(info.st_mode)}, not a file")
            data = file.read(max_bytes + 1)
    except OSError as exc:
        raise UnreadableFile(f"cannot read {path}: {exc.strerror or exc}") from None
    _check_size(path, len(data), max_bytes)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableFile(f"{path} is not a text file (byte {exc.start + 1} is not UTF-8)") from None


def parse_json(text: str, source: str) -> Any:
    """``json.loads``, with every way it can fail (and a tree nested too deeply) as one message."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UnreadableFile(f"{source} is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except RecursionError:
        raise too_deep(source) from None
    except ValueError:  # "Exceeds the limit (4300 digits) for integer string conversion"
        raise UnreadableFile(f"{source} holds a number too long to read (more than "
                             f"{sys.get_int_max_str_digits():,} digits)") from None
    check_depth(data, source)
    return data


def read_json(path: Path | str, *, max_bytes: int = MAX_BYTES) -> Any:
    """The parsed JSON of a file (:func:`read_text`, then :func:`parse_json`)."""
    return parse_json(read_text(path, max_bytes=max_bytes), str(path))


def check_depth(value: Any, source: str, limit: int = MAX_DEPTH,
                children: Callable[[Any], Iterable[Any] | None] | None = None) -> None:
    """Refuse a tree deeper than ``limit``, walked without recursion (so the walk itself cannot
    overflow the stack) and visiting a shared branch once (YAML aliases share them).
    ``children`` lists a node's children, ``None`` for a leaf; by default a node is parsed
    JSON (lists and tables)."""
    branches = children or _json_children
    pending: list[tuple[Any, int]] = [(value, 0)]
    seen: set[int] = set()
    while pending:
        node, depth = pending.pop()
        if id(node) in seen:
            continue
        below = branches(node)
        if below is None:
            continue
        if depth >= limit:
            raise too_deep(source, limit)
        seen.add(id(node))
        pending.extend((child, depth + 1) for child in below)


def _json_children(node: Any) -> Iterable[Any] | None:
    if isinstance(node, dict):
        return node.values()
    return node if isinstance(node, list) else None


def too_deep(source: str, limit: int = MAX_DEPTH) -> UnreadableFile:
    """The refusal of a file nested too deeply (by :func:`check_depth`, or by a parser's
    ``RecursionError``)."""
    return UnreadableFile(f"{source} nests lists or tables more than {limit} levels deep, which no Ecliptic "
                          "file does")


def _check_size(path: Path, size: int, max_bytes: int) -> None:
    if size > max_bytes:
        raise UnreadableFile(f"{path} is too large to read ({_megabytes(size)}; the limit is "
                             f"{_megabytes(max_bytes)})")


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB" if size >= 1024 * 1024 else f"{size} bytes"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (a named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "something else"
