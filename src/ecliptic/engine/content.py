"""Loading a game's components from its packaged TOML files, the same way for every game,
and which components this process plays.

A game keeps its components as data: a schema of frozen dataclasses, a few TOML files in
its ``content`` package, and a ``validate`` function for the cross-checks a schema cannot
express (component counts, references between tables). :func:`load` does the rest once for
every game: it reads the files (the packaged ones, or a folder an owner of the physical game
filled with the printed values), merges their tables, decodes them with
:mod:`ecliptic.engine.codec` (so a wrong value is reported with its path) and validates.
Every problem is a :class:`ContentError` that names the file or the value at fault.

A game's :class:`ContentSlot` holds the content its engine plays in this process: the packaged
stand-ins, or another (an owner's printed values, ``ecliptic.games.using_content``). The rules
read it through ``State.content``, a class attribute for speed, which the slot sets when the
content changes; anything worked out from the content and remembered (a table, a cache) is
registered with :func:`on_content_change` or built with :func:`content_cache`, so it is
forgotten then and worked out again from the new content.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Generic, TypeVar

from ecliptic.engine.codec import DecodeError, decode
from ecliptic.engine.errors import ContentError

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


def packaged_text(package: str, filename: str) -> str:
    """A packaged content file's text."""
    return resources.files(package).joinpath(filename).read_text(encoding="utf-8")


def read_texts(package: str, files: Sequence[str], folder: Path | None = None) -> dict[str, str]:
    """``{"<name>.toml": text}`` for each name in ``files``: from the package ``package`` when
    ``folder`` is ``None``, else from ``folder`` (every file must be there)."""
    texts: dict[str, str] = {}
    for name in files:
        filename = f"{name}.toml"
        try:
            if folder is None:
                texts[filename] = packaged_text(package, filename)
            else:
                texts[filename] = (folder / filename).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ContentError(f"content file {filename} is missing") from None
        except UnicodeDecodeError:
            raise ContentError(f"{filename}: not UTF-8 text") from None
    return texts


def merge_tables(texts: Mapping[str, str]) -> dict[str, Any]:
    """The top-level tables of every file's TOML text, merged into one table. A table defined
    in two files is refused rather than silently overwritten: the files split one schema."""
    merged: dict[str, Any] = {}
    for filename, text in texts.items():
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ContentError(f"{filename}: not valid TOML: {exc}") from None
        for key, value in data.items():
            if key in merged:
                raise ContentError(f"{filename}: table '{key}' is defined twice")
            merged[key] = value
    return merged


def read_tables(package: str, files: Sequence[str], folder: Path | None = None) -> dict[str, Any]:
    """The top-level tables of ``<name>.toml`` for each name in ``files``, merged into one table
    (:func:`read_texts`, then :func:`merge_tables`)."""
    return merge_tables(read_texts(package, files, folder))


def decode_texts(schema: type[T], texts: Mapping[str, str], validate: Callable[[T], None]) -> T:
    """Decode and validate a game's content from its files' texts."""
    data = merge_tables(texts)
    try:
        content = decode(schema, data)
    except DecodeError as exc:
        raise ContentError(f"content does not match the schema at {exc}") from None
    validate(content)
    return content


def load(
    schema: type[T],
    package: str,
    files: Sequence[str],
    validate: Callable[[T], None],
    folder: Path | None = None,
) -> T:
    """Read, decode and validate a game's content: a ``schema`` built from the ``files`` of
    ``package`` (or of ``folder``), checked by the game's own ``validate``."""
    return decode_texts(schema, read_texts(package, files, folder), validate)


def expect(condition: bool, message: str) -> None:
    """A check of ``validate``: refuse the content with ``message`` unless ``condition`` holds."""
    if not condition:
        raise ContentError(message)


# -- the content this process plays ---------------------------------------------------------

_FORGET: list[Callable[[], None]] = []


def on_content_change(forget: Callable[[], None]) -> None:
    """Have ``forget`` called whenever a game's content changes (a table's ``clear``): what was
    worked out from the old content must not answer for the new one."""
    _FORGET.append(forget)


def content_cache(fn: F) -> F:
    """``functools.cache``, emptied whenever a game's content changes: for look-ups that read
    the content (the cache's key does not name it). A hit costs what a ``functools.cache`` hit
    does; a change of content costs the look-ups worked out again."""
    cached = functools.cache(fn)
    on_content_change(cached.cache_clear)
    return cached  # type: ignore[return-value]


class ContentSlot(Generic[T]):
    """The content one game's engine plays in this process: the packaged files until
    :meth:`play` is given another. Process-wide (not per thread), as the rules read it from a
    class attribute."""

    def __init__(self, game: str, schema: type[T], package: str, files: Sequence[str],
                 validate: Callable[[T], None]) -> None:
        self.game = game
        self.schema = schema
        self.package = package
        self.files = tuple(files)
        self.validate = validate
        self._packaged: T | None = None
        self._active: T | None = None
        self._followers: list[Callable[[T], None]] = []

    def packaged(self) -> T:
        """The packaged stand-ins, loaded once."""
        if self._packaged is None:
            self._packaged = load(self.schema, self.package, self.files, self.validate)
        return self._packaged

    def active(self) -> T:
        """The content this process plays now."""
        current = self._active
        if current is None:
            current = self._active = self.packaged()
        return current

    def packaged_texts(self) -> dict[str, str]:
        """``{"<name>.toml": text}`` of the packaged files."""
        return read_texts(self.package, self.files)

    def decode(self, texts: Mapping[str, str]) -> T:
        """The content of these files' texts (one per name of :attr:`files`), validated."""
        return decode_texts(self.schema, texts, self.validate)

    def follow(self, follower: Callable[[T], None]) -> None:
        """Have ``follower`` told the content now and at every change (a ``State`` class sets
        its ``content`` attribute)."""
        self._followers.append(follower)
        follower(self.active())

    def play(self, content: T) -> None:
        """Play ``content`` from now on. The same object again changes nothing (a worker that
        plays game after game of one content pays nothing); another tells the followers and
        forgets every remembered look-up (:func:`on_content_change`)."""
        if content is self.active():
            return
        self._active = content
        for follower in self._followers:
            follower(content)
        for forget in _FORGET:
            forget()
