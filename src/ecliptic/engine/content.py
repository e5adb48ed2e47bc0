"""Loading a game's components from its packaged TOML files, the same way for every game.

A game keeps its components as data: a schema of frozen dataclasses, a few TOML files in
its ``content`` package, and a ``validate`` function for the cross-checks a schema cannot
express (component counts, references between tables). :func:`load` does the rest once for
every game: it reads the files (the packaged ones, or a folder an owner of the physical game
filled with the printed values), merges their tables, decodes them with
:mod:`ecliptic.engine.codec` (so a wrong value is reported with its path) and validates.
Every problem is a :class:`ContentError` that names the file or the value at fault.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from ecliptic.engine.codec import DecodeError, decode
from ecliptic.engine.errors import ContentError

T = TypeVar("T")


def read_tables(package: str, files: Sequence[str], folder: Path | None = None) -> dict[str, Any]:
    """The top-level tables of ``<name>.toml`` for each name in ``files``, merged into one table.

    The files come from the package ``package`` when ``folder`` is ``None``. A table defined in
    two files is refused rather than silently overwritten: the files split one schema."""
    merged: dict[str, Any] = {}
    for name in files:
        filename = f"{name}.toml"
        try:
            if folder is None:
                text = resources.files(package).joinpath(filename).read_text()
            else:
                text = (folder / filename).read_text()
            data = tomllib.loads(text)
        except FileNotFoundError:
            raise ContentError(f"content file {filename} is missing") from None
        except tomllib.TOMLDecodeError as exc:
            raise ContentError(f"{filename}: not valid TOML: {exc}") from None
        for key, value in data.items():
            if key in merged:
                raise ContentError(f"{filename}: table '{key}' is defined twice")
            merged[key] = value
    return merged


def load(
    schema: type[T],
    package: str,
    files: Sequence[str],
    validate: Callable[[T], None],
    folder: Path | None = None,
) -> T:
    """Read, decode and validate a game's content: a ``schema`` built from the ``files`` of
    ``package`` (or of ``folder``), checked by the game's own ``validate``."""
    data = read_tables(package, files, folder)
    try:
        content = decode(schema, data)
    except DecodeError as exc:
        raise ContentError(f"content does not match the schema at {exc}") from None
    validate(content)
    return content


def expect(condition: bool, message: str) -> None:
    """A check of ``validate``: refuse the content with ``message`` unless ``condition`` holds."""
    if not condition:
        raise ContentError(message)
