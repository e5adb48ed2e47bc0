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

Search clones states constantly, so a recall is immutable and shares its past: each seat's
history is a linked list of items (a step adds one node per new item), its digest a
BLAKE2b chain (``digest' = H(digest || item)``) and its ids a frozenset replaced only when a
new id appears. :meth:`Recall.step` returns a new recall; a clone keeps the same object.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator
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


class Recall:
    """Every seat's :class:`SeatRecall`, and the ``public`` one (the events everyone sees);
    immutable (``step`` returns a new one)."""

    __slots__ = ("public", "seats")

    def __init__(self, seats: tuple[SeatRecall, ...], public: SeatRecall | None = None) -> None:
        self.seats = seats
        self.public = SeatRecall() if public is None else public

    @classmethod
    def start(cls, players: int, setup_events: Iterable[Event] = ()) -> Recall:
        """The recall at the start of a game: each seat has seen the setup events visible to it
        (``RulesGame.new_game_events`` gives them)."""
        return cls(tuple(SeatRecall() for _ in range(players))).step(None, None, setup_events)

    def step(self, seat: int | None, action: Action | str | None, events: Iterable[Event]) -> Recall:
        """After ``seat`` took ``action`` and the engine reported ``events``: the seat remembers
        its action, then each seat the events visible to it."""
        events = list(events)
        out = []
        for s, recall in enumerate(self.seats):
            items = _items(s, seat, action, events)
            out.append(recall.add(items))
        public = self.public.add(event_item(e) for e in events if e.visible_to is None)
        return Recall(tuple(out), public)

    def as_seen_by(self, player: int) -> Recall:
        """What ``player`` knows of every seat's recall: its own, and for each other seat the
        public events only (a world sampled for ``player``'s search must not carry another
        seat's secrets, not even in the other seat's memory)."""
        return Recall(tuple(r if s == player else self.public for s, r in enumerate(self.seats)), self.public)

    def __getitem__(self, seat: int) -> SeatRecall:
        return self.seats[seat]

    def __len__(self) -> int:
        return len(self.seats)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Recall) and self.public.digest == other.public.digest
                and [r.digest for r in self.seats] == [r.digest for r in other.seats])

    def __hash__(self) -> int:
        return hash((self.public.digest, *(r.digest for r in self.seats)))


def _items(s: int, seat: int | None, action: Action | str | None, events: list[Event]) -> Iterator[str]:
    if seat == s and action is not None:
        yield action_item(action)
    for event in events:
        if event.visible(s):
            yield event_item(event)
