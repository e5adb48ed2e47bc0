"""Events: every state change is reported as one, and logs, UIs and replays are built from them.

Some event data is secret (a drawn card, the id of a GP token whose back only its holder may
read). A game declares once, in its :class:`Secrets`, which data keys are secret and whose
they are; its ``say`` then never lets such a key out in a public event: it tells everyone the
public part and the holders a private event with the whole of it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, init=False)
class Event:
    """Something that happened. ``visible_to`` is ``None`` for public events,
    otherwise the seats that may see it (a drawn card is seen by its drawer only)."""

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    visible_to: frozenset[int] | None = None

    def __init__(self, kind: str, text: str, data: dict[str, Any] | None = None,
                 visible_to: frozenset[int] | None = None) -> None:
        # Frozen all the same, but filled in without the generated __init__'s object.__setattr__
        # call per field: every decision reports one or two events (2.4x faster to build).
        fields = self.__dict__
        fields["kind"] = kind
        fields["text"] = text
        fields["data"] = {} if data is None else data
        fields["visible_to"] = visible_to

    def visible(self, player: int | None) -> bool:
        return self.visible_to is None or (player is not None and player in self.visible_to)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text, "data": self.data}
        if self.visible_to is not None:
            out["visible_to"] = sorted(self.visible_to)
        return out


PRIVATE = "_private"
"""The suffix of the private event that carries an event's secret data to its holders."""


@dataclass(frozen=True)
class Secrets:
    """The one place a game decides which event data is private.

    ``holders[key]`` names the data keys whose seats may see the value of the secret ``key``:
    ``{"gp_token": ("seat",)}`` says a GP token's id is seen by the seat that earns or trades
    it, ``{"stolen": ("seat", "loser")}`` that a stolen card is seen by thief and victim.
    Rules modules report through :meth:`say` and put a secret under its declared key; the
    key can then never reach a seat it is not for, whoever writes the next rule."""

    holders: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    _secret: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The secret keys as a set, for say's first question (is any key secret?): asked of
        # every event, and a set looks the event's few keys up instead of being walked.
        object.__setattr__(self, "_secret", frozenset(self.holders))

    def say(self, ev: list[Event], kind: str, text: str, /, *, to: Iterable[int] | None = None,
            private: str | None = None, **data: object) -> None:
        """Record an event. ``to`` makes the whole event private to those seats. Otherwise
        the event is public, without its secret keys; if it has any, a ``<kind>_private``
        event (text ``private``, else ``text``) with all the data goes to their holders,
        one per audience."""
        if to is not None:
            ev.append(Event(kind, text, data, frozenset(to)))  # (**data is a new dict)
            return
        if self._secret.isdisjoint(data):  # (no secret key: one public event)
            # Event(kind, text, data) without the call of its __init__ from C: the same fields
            # in the same instance dict (every decision reports one or two events).
            event = _new(Event)
            fields = event.__dict__
            fields["kind"] = kind
            fields["text"] = text
            fields["data"] = data
            fields["visible_to"] = None
            ev.append(event)
            return
        secret = [k for k in data if k in self.holders]
        public = {k: v for k, v in data.items() if k not in self.holders}
        audiences: dict[frozenset[int], dict[str, object]] = {}
        for key in secret:
            seats = frozenset(_seat(data, h, kind, key) for h in self.holders[key])
            audiences.setdefault(seats, dict(public))[key] = data[key]
        ev.append(Event(kind, text, public))
        for seats, told in audiences.items():
            ev.append(Event(kind + PRIVATE, private or text, told, seats))


_new = object.__new__


def _seat(data: Mapping[str, object], holder: str, kind: str, key: str) -> int:
    seat = data.get(holder)
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ValueError(f"event {kind!r}: the secret {key!r} is for the seat in {holder!r}, "
                         f"which the event does not name")
    return seat


PUBLIC = Secrets()
"""A game without secret event data (every key public unless an event is sent ``to`` seats)."""
