"""The games Ecliptic knows, by name, and the content they play (the packaged stand-ins, or an
owner's printed values: :class:`ContentPack`, :func:`using_content`)."""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ecliptic.engine.content import ContentSlot
from ecliptic.engine.errors import ContentError
from ecliptic.engine.files import UnreadableFile, read_text


def get_game(name: str) -> Any:
    """The rules object of a game (``tauceti``, ``ceres``)."""
    if name == "tauceti":
        from ecliptic.tauceti.game import TauCeti

        return TauCeti()
    if name == "ceres":
        from ecliptic.ceres.game import Ceres

        return Ceres()
    raise ValueError(f"unknown game {name!r}; known games: {', '.join(GAME_NAMES)}")


GAME_NAMES = ("tauceti", "ceres")


def points_name(game: str) -> str:
    """What a game scores, in its rulebook's words: Galactic Points in Tau Ceti, Victory Points
    in Ceres (for table headings)."""
    return "VP" if game == "ceres" else "GP"


def seat_name(game: str) -> str:
    """What a game's seats are, in its rulebook's words, for a table's first column: Tau Ceti's
    players are factions; Ceres' have no faction and are Player 1-4."""
    return "Player" if game == "ceres" else "Faction"


# -- content packs ---------------------------------------------------------------------------

IGNORED_FILES = frozenset({"action-ids.toml"})
"""Files of a content package that are not components: the action numbering is the engine's
(docs/action-ids.md), so a copy of the whole package folder reads as its content files."""
MAX_FILE_BYTES = 1024 * 1024
"""The largest content file read (the packaged ones are under 25 kB)."""

_DECODED: dict[tuple[str, str], Any] = {}
"""Each pack's decoded content, by game and digest: a worker decodes a pack once, however
many games of it it plays."""


_SLOTS: dict[str, ContentSlot[Any]] = {}


def content_slot(game: str) -> ContentSlot[Any]:
    """The :class:`~ecliptic.engine.content.ContentSlot` of a game (``ValueError`` for a game
    Ecliptic does not know)."""
    slot = _SLOTS.get(game)
    if slot is None:
        slot = _SLOTS[game] = get_game(game).content_slot
    return slot


@dataclass(frozen=True)
class ContentPack:
    """One game's components as the texts of its content files: the packaged stand-ins with
    some or all files replaced by an owner's printed values (docs/content-stand-ins.md,
    "Playing your printed values").

    A value, not a path: it pickles with its texts, so a worker process or a Ray node plays it
    without the folder. :meth:`read` checks it once; :meth:`content` decodes it once per
    process. Two packs of the same texts have the same :attr:`digest`, whatever their folder."""

    game: str
    folder: str
    """The folder as it was given, for display (``stand-ins`` for the packaged files)."""
    texts: tuple[tuple[str, str], ...]
    """``(file name, TOML text)`` for each of the game's content files, in the game's order."""
    from_folder: tuple[str, ...]
    """The files the folder gave; the others are the packaged ones."""
    digest: str
    """SHA-256 of the file names and texts: which content a result was played with."""

    @classmethod
    def read(cls, game: str, folder: Path | str) -> ContentPack:
        """The pack of a folder of ``<name>.toml`` content files, checked: each file is TOML,
        matches the schema, passes the game's own checks, and the rules offer no action the
        committed action id table does not number. A content file the folder lacks is the
        packaged one; a ``.toml`` file the game does not know is refused (a misspelt name
        would otherwise leave the stand-ins in play unnoticed). Every problem is a
        :class:`ContentError` naming the folder and the file or value."""
        slot = content_slot(game)
        folder = Path(folder)
        if not folder.is_dir():
            raise ContentError(f"{folder} is not a folder of {game} content files")
        names = [f"{name}.toml" for name in slot.files]
        try:
            found = {p.name for p in folder.iterdir() if p.suffix == ".toml"} - IGNORED_FILES
        except OSError as exc:
            raise ContentError(f"{folder} cannot be read ({exc.strerror})") from None
        unknown = sorted(found - set(names))
        if unknown:
            which = f"{unknown[0]} is not a {game} content file" if len(unknown) == 1 else \
                f"{', '.join(unknown)} are not {game} content files"
            raise ContentError(f"{folder}: {which}; the {game} content files are {', '.join(names)}")
        if not found:
            raise ContentError(f"{folder} holds none of the {game} content files ({', '.join(names)})")
        packaged = slot.packaged_texts()
        texts = []
        for filename in names:
            if filename in found:
                try:
                    texts.append((filename, read_text(folder / filename, max_bytes=MAX_FILE_BYTES)))
                except UnreadableFile as exc:
                    raise ContentError(str(exc)) from None
            else:
                texts.append((filename, packaged[filename]))
        pack = cls(game, str(folder), tuple(texts),
                   tuple(n for n in names if n in found), _digest(game, texts))
        try:
            content = pack.content()
        except ContentError as exc:
            raise ContentError(f"{folder}: {exc}") from None
        missing = get_game(game).unnumbered(content)
        if missing:
            _DECODED.pop((game, pack.digest), None)
            raise ContentError(
                f"{folder}: the rules would offer {len(missing)} action(s) that the action id table does not "
                f"number (e.g. {', '.join(map(str, missing[:3]))}): keep the packaged component ids")
        return pack

    @classmethod
    def packaged(cls, game: str) -> ContentPack:
        """The pack of the packaged stand-ins (to run them side by side with an owner's)."""
        slot = content_slot(game)
        texts = list(slot.packaged_texts().items())
        return cls(game, "stand-ins", tuple(texts), (), _digest(game, texts))

    def content(self) -> Any:
        """The decoded, validated content (once per process; the packaged object itself when
        the texts are the packaged ones, so nothing remembered from it is forgotten)."""
        key = (self.game, self.digest)
        content = _DECODED.get(key)
        if content is None:
            slot = content_slot(self.game)
            if self.digest == ContentPack.packaged(self.game).digest:
                content = slot.packaged()
            else:
                try:
                    content = slot.decode(dict(self.texts))
                except ContentError:
                    raise
                except (KeyError, IndexError, TypeError, AttributeError, ValueError, RecursionError) as exc:
                    raise ContentError(f"the content is inconsistent ({type(exc).__name__}: {exc})") from None
            _DECODED[key] = content
        return content

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled with its texts compressed (a tenth of their size): every task of a run
        carries its pack to a worker."""
        blob = zlib.compress(json.dumps(self.texts).encode(), 6)
        return _unpickle, (self.game, self.folder, blob, self.from_folder, self.digest)

    def to_json(self) -> dict[str, Any]:
        """What a result says of the content it was played with."""
        return {"folder": self.folder, "digest": self.digest, "files": list(self.from_folder)}


def _unpickle(game: str, folder: str, blob: bytes, from_folder: tuple[str, ...], digest: str) -> ContentPack:
    texts = tuple((filename, text) for filename, text in json.loads(zlib.decompress(blob)))
    return ContentPack(game, folder, texts, from_folder, digest)


def _digest(game: str, texts: list[tuple[str, str]]) -> str:
    h = hashlib.sha256(game.encode())
    for filename, text in texts:
        h.update(b"\0" + filename.encode() + b"\0" + text.encode())
    return h.hexdigest()


@contextmanager
def using_content(pack: ContentPack | None) -> Iterator[None]:
    """Within the block this process's engine plays ``pack``'s content for its game (the other
    games keep theirs); ``None``: every game plays its packaged stand-ins. The content played
    before is restored after the block, also when it raises. Games made inside are played
    inside (a state reads the content this process plays, not the one it was made with)."""
    if pack is None:
        slots = [content_slot(game) for game in GAME_NAMES]
        wanted = [slot.packaged() for slot in slots]
    else:
        slots, wanted = [content_slot(pack.game)], [pack.content()]
    before = [slot.active() for slot in slots]
    try:
        for slot, content in zip(slots, wanted, strict=True):
            slot.play(content)
        yield
    finally:
        for slot, content in zip(slots, before, strict=True):
            slot.play(content)
