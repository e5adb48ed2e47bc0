"""A perfect-recall information state per seat: everything the seat has seen, in order.

``observe(state, seat)`` is what a seat sees *now*; a seat also remembers what it was shown
once and no longer sees (the loser's hand a battle's winner looked at, the IM cards it
returned to the bottom of the deck, a Crisis card revealed before it went under its deck)
and the actions it took. OpenSpiel's information state is that memory, so an adapter feeds a
:class:`Recall` the setup events and then every ``(seat, action, events)`` as the game is
played, and asks each seat's :class:`SeatRecall` for its history, a digest of it and the card
and token ids it has seen.

A seat's history is the events visible to it (``Event.visible(seat)``: the public ones and
those addressed to it) and its own actions; nothing else reaches it, so the recall cannot hold
a secret the engine keeps from the seat. Other seats' actions are not items: what of them a
seat may know is in the events the engine reports to it.

Search clones states constantly and plays random games on them, so a recall is immutable,
shares its past and costs little until it is read: :meth:`Recall.step` links one step (the
action and its events' text) to the last; a seat's recall is worked out from the steps when
asked and kept on the step. Each seat's history is a linked list of items, its digest a BLAKE2b chain
(``digest' = H(digest || item)``) and its ids a frozenset replaced only when a new id appears.
A clone keeps the same object.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

from ecliptic.engine.actions import Action
from ecliptic.engine.events import Event

ID = re.compile(r"\b[A-Z]\d+\b")
"""A card or token id (Tau Ceti's ``C07``, ``S13``, ``G13``, ``X21``, Ceres' ``N3``), the
convention every component id of both games follows. Tiles (``05``) are known components and
not ids a seat can be shown."""

_EMPTY = hashlib.blake2b(b"ecliptic-recall/1", digest_size=16).digest()


def event_item(event: Event) -> str:
    """The canonical text of an event as a seat remembers it (kind, text and data)."""
    return json.dumps({"kind": event.kind, "text": event.text, "data": event.data},
                      sort_keys=True, separators=(",", ":"), default=str)


def action_item(action: Action | str) -> str:
    """The canonical text of one of the seat's own actions."""
    return "act " + str(action)


@dataclass(frozen=True, slots=True)
class _Node:
    parent: _Node | None
    item: str


@dataclass(frozen=True, slots=True)
class SeatRecall:
    """What one seat has seen: ``len`` items, their chained ``digest`` and the ``seen_ids``."""

    last: _Node | None = None
    length: int = 0
    digest: bytes = _EMPTY
    seen_ids: frozenset[str] = frozenset()

    def items(self) -> list[str]:
        """The history, oldest first (walks the shared list: for tests and strings, not search)."""
        out: list[str] = []
        node = self.last
        while node is not None:
            out.append(node.item)
            node = node.parent
        out.reverse()
        return out

    def __len__(self) -> int:
        return self.length

    @property
    def hexdigest(self) -> str:
        return self.digest.hex()

    def add(self, items: Iterable[str]) -> SeatRecall:
        last, length, digest, seen = self.last, self.length, self.digest, self.seen_ids
        for item in items:
            last = _Node(last, item)
            length += 1
            digest = hashlib.blake2b(digest + item.encode(), digest_size=16).digest()
            found = ID.findall(item)
            if found and not seen.issuperset(found):
                seen = seen.union(found)
        if last is self.last:
            return self
        return SeatRecall(last, length, digest, seen)


class _Step:
    """One applied action and the items of its events (written at once: an event's data may
    name a list the rules go on changing), linked to the step before. A seat's recall at a
    step is computed when first asked and kept in ``memo`` (key ``None``: the public record);
    a root step (``parent`` ``None``) has every entry filled in. The memo only caches what the
    chain determines, so sharing a step between clones is safe."""

    __slots__ = ("action", "memo", "parent", "seat", "told")

    def __init__(self, parent: _Step | None, seat: int | None, action: Action | str | None,
                 told: tuple[tuple[frozenset[int] | None, str], ...],
                 memo: dict[int | None, SeatRecall] | None = None) -> None:
        self.parent, self.seat, self.action, self.told = parent, seat, action, told
        self.memo: dict[int | None, SeatRecall] = {} if memo is None else memo

    def items(self, seat: int | None) -> list[str]:
        """What ``seat`` (``None``: the public record) takes from this step."""
        mine = [action_item(self.action)] if seat is not None and seat == self.seat and self.action is not None else []
        return mine + [item for to, item in self.told if to is None or (seat is not None and seat in to)]

    def recall(self, seat: int | None) -> SeatRecall:
        path: list[_Step] = []
        step: _Step | None = self
        while step is not None and seat not in step.memo:
            path.append(step)
            step = step.parent
        recall = step.memo[seat] if step is not None else SeatRecall()
        for node in reversed(path):
            recall = node.memo[seat] = recall.add(node.items(seat))
        return recall


class Recall:
    """Every seat's :class:`SeatRecall`, and the ``public`` one (the events everyone sees).

    Immutable: :meth:`step` returns a new recall, one link longer, in constant time; a seat's
    history, digest and ids are worked out only when asked (a search's random playouts step
    thousands of times and ask nothing)."""

    __slots__ = ("_last", "players")

    def __init__(self, players: int, last: _Step) -> None:
        self.players, self._last = players, last

    @classmethod
    def start(cls, players: int, setup_events: Iterable[Event] = ()) -> Recall:
        """The recall at the start of a game: each seat has seen the setup events visible to it
        (``RulesGame.new_game_events`` gives them)."""
        empty = SeatRecall()
        root = _Step(None, None, None, (), {s: empty for s in [*range(players), None]})
        return cls(players, root).step(None, None, setup_events)

    @classmethod
    def of(cls, seats: Iterable[SeatRecall], public: SeatRecall) -> Recall:
        """A recall whose seats remember what is given (a saved recall, a sampled world's)."""
        memo: dict[int | None, SeatRecall] = dict(enumerate(seats))
        players = len(memo)
        memo[None] = public
        return cls(players, _Step(None, None, None, (), memo))

    def step(self, seat: int | None, action: Action | str | None, events: Iterable[Event]) -> Recall:
        """After ``seat`` took ``action`` and the engine reported ``events``: the seat remembers
        its action, then each seat the events visible to it."""
        told = tuple((e.visible_to, event_item(e)) for e in events)
        return Recall(self.players, _Step(self._last, seat, action, told))

    @property
    def seats(self) -> tuple[SeatRecall, ...]:
        return tuple(self._last.recall(s) for s in range(self.players))

    @property
    def public(self) -> SeatRecall:
        """The public record: the events every seat (and a spectator) sees."""
        return self._last.recall(None)

    def as_seen_by(self, player: int) -> Recall:
        """What ``player`` knows of every seat's recall: its own, and for each other seat the
        public events only (a world sampled for ``player``'s search must not carry another
        seat's secrets, not even in the other seat's memory)."""
        public = self.public
        return Recall.of([self[s] if s == player else public for s in range(self.players)], public)

    def __getitem__(self, seat: int) -> SeatRecall:
        if not 0 <= seat < self.players:
            raise IndexError(f"no seat {seat} in a recall of {self.players} seats")
        return self._last.recall(seat)

    def __len__(self) -> int:
        return self.players

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Recall) and self.public.digest == other.public.digest
                and [r.digest for r in self.seats] == [r.digest for r in other.seats])

    def __hash__(self) -> int:
        return hash((self.public.digest, *(r.digest for r in self.seats)))
