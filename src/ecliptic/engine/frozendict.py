"""A dict that is replaced on change instead of changed, so that cloned states can share it.

Bots clone a state thousands of times per decision, and every mutable table in a state is
copied by every clone (:mod:`ecliptic.engine.fastcopy`). A table that changes a few times a
game (a player's Damage markers, the tiles' positions once they are placed) is cheaper as a
:class:`FrozenDict`: a clone shares it, and the rare change builds a new one with
:meth:`FrozenDict.set` or :meth:`FrozenDict.without`.

It *is* a ``dict`` (reads are as fast, JSON and equality treat it as one, the codec saves it as
a table) whose changing methods raise ``TypeError``, so a rule that forgets to replace it
fails loudly instead of changing a table that a clone shares.
"""

from __future__ import annotations

from typing import Any, NoReturn, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FrozenDict(dict[K, V]):
    """A ``dict`` whose changing methods raise ``TypeError``; :meth:`set` and :meth:`without`
    return changed copies."""

    __slots__ = ()

    def set(self, key: K, value: V) -> FrozenDict[K, V]:
        """A copy with ``key`` set to ``value``."""
        new = dict(self)
        new[key] = value
        return FrozenDict(new)

    def without(self, key: K) -> FrozenDict[K, V]:
        """A copy without ``key`` (which must be there, as for ``del``)."""
        new = dict(self)
        del new[key]
        return FrozenDict(new)

    def _refuse(self) -> NoReturn:
        raise TypeError(f"a FrozenDict is replaced, not changed (use .set or .without): {self!r}")

    def __setitem__(self, key: K, value: V) -> NoReturn:
        self._refuse()

    def __delitem__(self, key: K) -> NoReturn:
        self._refuse()

    def __ior__(self, other: Any) -> NoReturn:  # type: ignore[misc]
        self._refuse()

    def clear(self) -> NoReturn:
        self._refuse()

    def pop(self, *args: Any) -> NoReturn:
        self._refuse()

    def popitem(self) -> NoReturn:
        self._refuse()

    def setdefault(self, *args: Any) -> NoReturn:
        self._refuse()

    def update(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._refuse()

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"

    def __reduce__(self) -> tuple[type, tuple[dict[K, V]]]:
        return (FrozenDict, (dict(self),))  # (pickle would otherwise refill it item by item)
