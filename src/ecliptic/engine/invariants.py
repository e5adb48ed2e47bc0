"""Conservation laws of a game's components, shared by every game's ``problems`` check.

A game's ``invariants.problems(state)`` lists what is wrong with a state in words (an empty
list for a sound one); :class:`ecliptic.engine.rules.RulesGame` refuses a save file whose
state has any, and the property tests check every state a playout reaches. The law every
game has is that each counted component (a card, a token) is in exactly one place; the law
every save file must keep is that each pending decision is one the rules can serve
(:func:`decision_problems`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Set
from typing import TYPE_CHECKING, Any

from ecliptic.engine.codec import DecodeError, decode

if TYPE_CHECKING:
    from ecliptic.engine.rules import Decision


def exactly_once(name: str, expected: Set[str], found: Iterable[str], out: list[str], *, others: bool = True) -> None:
    """Each id of ``expected`` (every ``name`` of the game) must be ``found`` exactly once:
    ``found`` lists the ids in every place the components can be, one place after another.
    What is missing or in two places is added to ``out``. An id that is not one of ``expected``
    is reported as unknown too, unless ``others=False`` (the places also hold other things,
    such as a decision's data)."""
    seen = Counter(found) if others else Counter(x for x in found if x in expected)
    missing = expected - set(seen)
    extra = sorted(x for x in seen if x not in expected)
    doubled = sorted(x for x, n in seen.items() if n > 1)
    if missing:
        out.append(f"{name}: {len(missing)} missing, e.g. {sorted(missing)[:3]}")
    if extra:
        out.append(f"{name}: unknown {extra[:3]}")
    if doubled:
        out.append(f"{name}: in two places: {doubled[:3]}")


def decision_problems(state: Any, kinds: Mapping[str, object], shapes: Mapping[str, Mapping[str, Any]],
                      out: list[str]) -> list[Decision]:
    """Every pending decision is of a kind the rules serve, for a seat of the game and not
    pending for it already, with the data its kind reads: ``shapes[kind]`` names each key of
    ``data`` and its type (as the codec reads types; ``tuple[str, str]``,
    ``Literal["stay", "launch"]``). A save file may lie, and the rules index ``data`` without
    looking. What is wrong is added to ``out`` with the field that is (``stack[1].data.left:
    expected int, got 'x'``); the decisions that passed are returned for the game's own checks
    of what the data refers to."""
    sound = []
    seats = len(state.players)
    pending: set[tuple[str, int]] = set()
    for i, d in enumerate(state.stack):
        where = f"stack[{i}]"
        if d.kind not in kinds or d.kind not in shapes:
            out.append(f"{where}.kind: unknown decision kind {d.kind!r}")
            continue
        if not 0 <= d.player < seats:
            out.append(f"{where}.player: {d.player} is not a seat of this game (0-{seats - 1})")
            continue
        if (d.kind, d.player) in pending:  # (a choice is asked once; the rules never nest it in itself)
            out.append(f"{where}: a second {d.kind} decision for seat {d.player}")
            continue
        pending.add((d.kind, d.player))
        shape = shapes[d.kind]
        problems = [f"{where}.data.{key}: missing" for key in shape if key not in d.data]
        problems += [f"{where}.data.{key}: not data of a {d.kind} decision" for key in d.data if key not in shape]
        for key, tp in shape.items():
            if key in d.data:
                try:
                    decode(tp, d.data[key], f"{where}.data.{key}")
                except DecodeError as exc:
                    problems.append(str(exc))
        out += problems
        if not problems:
            sound.append(d)
    return sound


def seat_problems(name: str, seat: int | None, seats: int, out: list[str], *, optional: bool = False) -> None:
    """A field that names a seat names one of this game (or nothing, when ``optional``)."""
    if seat is None and optional:
        return
    if seat is None or not 0 <= seat < seats:
        out.append(f"{name}: {seat} is not a seat of this game (0-{seats - 1})")
