"""Conservation laws of a game's components, shared by every game's ``problems`` check.

A game's ``invariants.problems(state)`` lists what is wrong with a state in words (an empty
list for a sound one); :class:`ecliptic.engine.rules.RulesGame` refuses a save file whose
state has any, and the property tests check every state a playout reaches. The law every
game has is that each counted component (a card, a token) is in exactly one place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Set


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
