"""Immutable actions with a canonical text notation and a fixed integer action space.

An action is a verb and a tuple of string arguments. ``str(action)`` is its
canonical notation and :func:`Action.parse` reads it back, like UCI in chess.
An :class:`ActionSpace` numbers every action a game can ever offer, so that
reinforcement-learning agents get a fixed-size mask.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ecliptic.engine.errors import IllegalAction


@dataclass(frozen=True, order=True, slots=True)
class Action:
    verb: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.verb, *self.args))

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read an action back from its notation (case of the verb is ignored)."""
        parts = text.split()
        if not parts:
            raise IllegalAction("NOTATION", "an empty string is not an action")
        return cls(parts[0].upper(), tuple(parts[1:]))


def act(verb: str, *args: object) -> Action:
    """Shorthand used by the rules modules: ``act("GO", "05")``."""
    return Action(verb, tuple(str(a) for a in args))


class ActionSpace:
    """A fixed numbering of every action a game can offer."""

    def __init__(self, actions: Iterable[Action]) -> None:
        self.actions: tuple[Action, ...] = tuple(sorted(set(actions)))
        self._ids = {a: i for i, a in enumerate(self.actions)}

    def __len__(self) -> int:
        return len(self.actions)

    def id(self, action: Action) -> int:
        try:
            return self._ids[action]
        except KeyError:
            raise IllegalAction("NOTATION", f"{action} is not in this game's action space") from None

    def action(self, index: int) -> Action:
        if not 0 <= index < len(self.actions):
            raise IllegalAction("NOTATION", f"action id {index} is outside 0..{len(self) - 1}")
        return self.actions[index]

    def __contains__(self, action: object) -> bool:
        return action in self._ids
