"""Immutable actions with a canonical text notation and a fixed integer action space.

An action is a verb and a tuple of string arguments. ``str(action)`` is its
canonical notation and :func:`Action.parse` reads it back, like UCI in chess.
An :class:`ActionSpace` numbers every action a game can ever offer, so that
reinforcement-learning agents get a fixed-size mask.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from ecliptic.engine.errors import IllegalAction


class Action(NamedTuple):
    """A verb and its string arguments; immutable, hashable, ordered by (verb, args).

    A named tuple rather than a dataclass because rules create, hash and compare actions by
    the hundred for every decision: tuples do all three in C, several times faster."""

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


_new_tuple = tuple.__new__


def number(text: str) -> int | None:
    """The integer an action argument spells in ASCII digits (a leading ``-`` allowed, nine
    digits at most), else ``None``. ``str.isdigit`` lets ``³`` through to an ``int()`` that
    raises, and ``int()`` alone reads ``٣``, ``+3``, ``1_0`` and `` 3``: not the notation."""
    digits = text[1:] if text[:1] == "-" else text
    return int(text) if digits.isdecimal() and digits.isascii() and len(digits) <= 9 else None


def well_formed(action: object) -> bool:
    """Is ``action`` an :class:`Action` of a text verb and a tuple of text arguments? (What
    the rules modules may assume of any action they are asked about.)"""
    return (type(action) is Action and type(action.verb) is str and type(action.args) is tuple
            and all(type(arg) is str for arg in action.args))


def act(verb: str, *args: object) -> Action:
    """Shorthand used by the rules modules: ``act("GO", "05")``; numbers become text. (Built
    with ``tuple.__new__``, skipping the keyword handling of the generated ``Action.__new__``,
    and keeping ``args`` as it is when it holds text only: ``act`` is the hottest constructor
    of the engine.)"""
    for arg in args:
        if arg.__class__ is not str:
            return _new_tuple(Action, (verb, tuple(map(str, args))))
    return _new_tuple(Action, (verb, args))


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
