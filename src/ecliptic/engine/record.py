"""Game records: a game is its configuration, its seed and its list of actions.

``(config, seed, actions)`` replays to the identical game, byte for byte, so the
record is what we save, and undo is replaying a shorter record (like the
open-source 18xx and Terraforming Mars implementations). A save file is a record
plus, for checking, a digest of the final state.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ecliptic.engine import durable
from ecliptic.engine.actions import Action
from ecliptic.engine.errors import EclipticError, SaveFileError
from ecliptic.engine.events import Event
from ecliptic.engine.files import UnreadableFile, read_json

FORMAT = "ecliptic.record"
VERSION = 1
GAME_SEEDS = 1 << 63
"""How many game seeds there are: 0 to 2**63 - 1, what every front end accepts for a new game (the
command line's ``--seed``, the server's ``seed``) and the server can store (a PostgreSQL ``BIGINT``),
so that a game begun anywhere can be stored and replayed anywhere."""


@dataclass
class GameRecord:
    game: str
    config: dict[str, Any]
    seed: int
    actions: list[str] = field(default_factory=list)
    digest: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "game": self.game, "config": self.config,
            "seed": self.seed, "actions": list(self.actions),
        }
        if self.digest is not None:
            out["digest"] = self.digest
        return out

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise SaveFileError("this file is not an Ecliptic game record or save file")
        if data.get("version") != VERSION:
            raise SaveFileError(f"record version {data.get('version')!r} is not supported "
                                f"(this Ecliptic reads version {VERSION})")
        game, config, seed, actions = (data.get(k) for k in ("game", "config", "seed", "actions"))
        if not isinstance(game, str) or not isinstance(config, dict):
            raise SaveFileError("the record has no valid 'game' name or 'config' table")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise SaveFileError("the record's 'seed' must be a whole number")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise SaveFileError("the record's 'actions' must be a list of action notations")
        digest = data.get("digest")
        if digest is not None and not isinstance(digest, str):
            raise SaveFileError("the record's 'digest' must be text")
        return cls(game, config, seed, list(actions), digest)

    def save(self, path: Path) -> None:
        """Write atomically and durably: neither a crash nor a power cut leaves half a save file
        (the file synced, then put in place, then its folder synced: :mod:`ecliptic.engine.durable`)."""
        with durable.writing(path) as f:
            f.write(json.dumps(self.to_json(), indent=1))

    @classmethod
    def load(cls, path: Path) -> GameRecord:
        """Read a record or save file; a file that is not one (binary, too large, a FIFO, JSON
        nested a thousand deep, ...) is a :class:`SaveFileError` saying why
        (:mod:`ecliptic.engine.files`)."""
        try:
            return cls.from_json(read_json(path))
        except UnreadableFile as exc:
            raise SaveFileError(str(exc)) from None
        except SaveFileError as exc:
            raise SaveFileError(f"{path}: {exc}") from None


def state_digest(game: Any, state: Any) -> str:
    """A fingerprint of a whole state (its canonical JSON)."""
    text = json.dumps(game.to_json(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def replay(
    record: GameRecord,
    *,
    on_event: Callable[[int, Action, list[Event]], None] | None = None,
    upto: int | None = None,
) -> Any:
    """Rebuild the state a record describes. Raises :class:`SaveFileError` if an action
    in it is not legal where it stands (a corrupt or edited record)."""
    from ecliptic.games import get_game

    try:
        game = get_game(record.game)
    except ValueError as exc:
        raise SaveFileError(str(exc)) from None
    try:
        state = game.new_game(record.config, record.seed)
    except (ValueError, TypeError) as exc:
        raise SaveFileError(f"the record's config is not valid: {exc}") from None
    except Exception as exc:  # a config the game's own checks let through: still the file's fault
        raise SaveFileError(f"the record's config is not valid: {type(exc).__name__}: {exc}") from None
    actions = record.actions if upto is None else record.actions[:upto]
    for i, text in enumerate(actions):
        try:
            action = Action.parse(text)
            events = game.apply(state, action)
        except EclipticError as exc:
            raise SaveFileError(f"action {i + 1} ({text!r}) cannot be replayed: {exc}") from None
        if on_event is not None:
            on_event(i, action, events)
    return state


def verify(record: GameRecord) -> bool:
    """Does the record replay to the final state it was saved with?"""
    from ecliptic.games import get_game

    state = replay(record)
    return record.digest is None or state_digest(get_game(record.game), state) == record.digest
