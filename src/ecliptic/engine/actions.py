"""Immutable actions with a canonical text notation and a fixed integer action space.

An action is a verb and a tuple of string arguments. ``str(action)`` is its
canonical notation and :func:`Action.parse` reads it back, like UCI in chess.
An :class:`ActionSpace` numbers every action a game can ever offer, so that
reinforcement-learning agents get a fixed-size mask.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple

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
    """A fixed numbering of every action a game can offer, for an agent's fixed-size mask.

    A game's space comes from its committed id table (:mod:`ecliptic.engine.action_ids`), so
    the ids survive content and rules changes: ``version`` names the numbering (a checkpoint
    records it), an id that once named an action names it for good, and an action the game no
    longer offers keeps its id as *retired*: never offered, its mask entry always false, the
    id never given to another action. ``len`` and :attr:`size` count the retired ids too (a
    policy's output layer has one unit per id). ``ActionSpace(actions)`` numbers a set in
    sorted order, unversioned (a table's first version is exactly that numbering)."""

    def __init__(self, actions: Iterable[Action], version: str = "unversioned") -> None:
        self._number(tuple(sorted(set(actions))), version, frozenset(), {version: 0})

    @classmethod
    def numbered(cls, by_id: Sequence[Action], version: str, retired: Iterable[int] = (),
                 sizes: Mapping[str, int] | None = None) -> ActionSpace:
        """The numbering of a table: ``by_id[i]`` is id ``i`` (retired ones included, so a
        refusal can name them); ``sizes`` says how many ids each version had."""
        space = cls.__new__(cls)
        space._number(tuple(by_id), version, frozenset(retired), dict(sizes or {}))
        return space

    def _number(self, by_id: tuple[Action, ...], version: str, retired: frozenset[int],
                sizes: dict[str, int]) -> None:
        if len(set(by_id)) != len(by_id):
            raise ValueError("an action space numbers each action once")
        if not retired <= set(range(len(by_id))):
            raise ValueError("a retired id must be one of the space's ids")
        self.version = version
        self.size = len(by_id)
        self.sizes: Mapping[str, int] = MappingProxyType({**sizes, version: self.size})
        """How many ids each version of the numbering had: the ids of an older version ``v``
        are ``0..sizes[v] - 1``, each naming the same action (or retired) in every later one."""
        self.retired: Mapping[int, Action] = MappingProxyType({i: by_id[i] for i in sorted(retired)})
        """The retired ids and the action each named (never offered again)."""
        self._by_id = by_id
        self._ids = {a: i for i, a in enumerate(by_id) if i not in retired}
        self.actions: tuple[Action, ...] = tuple(self._ids)
        """The actions the game can offer, in id order (retired ones left out)."""

    def __len__(self) -> int:
        return self.size

    def id(self, action: Action) -> int:
        try:
            return self._ids[action]
        except (KeyError, TypeError):
            raise IllegalAction("NOTATION", self._unknown(action)) from None

    def action(self, index: int) -> Action:
        """The action of id ``index`` (any integer type: an agent's NumPy integer too)."""
        try:
            index = operator.index(index)
        except TypeError:
            raise IllegalAction("NOTATION", f"an action id is an integer, not {index!r}") from None
        if not 0 <= index < self.size:
            raise IllegalAction("NOTATION", f"action id {index} is outside 0..{self.size - 1} of {self.version}")
        if index in self.retired:
            raise IllegalAction("NOTATION", f"action id {index} ({self._by_id[index]}) is retired in {self.version}: "
                                "the game no longer offers it")
        return self._by_id[index]

    def mask(self, legal: Iterable[Action]) -> list[bool]:
        """``mask[i]`` is true exactly when id ``i``'s action is in ``legal`` (asked every step
        by the adapters: one pass over the few legal actions, not over every id)."""
        out = [False] * self.size
        ids = self._ids
        for action in legal:
            i = ids.get(action)
            if i is None:
                raise IllegalAction("NOTATION", self._unknown(action))
            out[i] = True
        return out

    def _unknown(self, action: object) -> str:
        if action in self._by_id:
            return f"{action} is retired in {self.version}: the game no longer offers it"
        return f"{action} is not in this game's action space ({self.version})"

    def __reduce__(self) -> tuple[Any, tuple[tuple[Action, ...], str, tuple[int, ...], dict[str, int]]]:
        """Pickled as its table (the read-only mappings it shows do not pickle): an environment
        that holds a space can be pickled, deep-copied and sent to a worker process."""
        return ActionSpace.numbered, (self._by_id, self.version, tuple(self.retired), dict(self.sizes))

    def __contains__(self, action: object) -> bool:
        try:
            return action in self._ids
        except TypeError:  # unhashable: not an action
            return False
