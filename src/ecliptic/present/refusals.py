"""The actions of the current decision that are not legal now, each with the engine's why not.

The candidates are the decision kind's ``domain`` (every action the kind could ever offer,
registered by the rules modules) that name only things the seat sees: an action naming a
card that is not in its hand or a token it has never been shown is no candidate (and would
tell it nothing it may know). Each is judged by ``game.why_not``, the one definition of
legality, whose refusal names the rule; a refusal that says the action is no option of this
game for this seat at all (:class:`~ecliptic.engine.errors.NotAnOption`: a seat not in the
game, battling oneself, a card not in its hand) is left out, as it says nothing of the situation. At most
:data:`MAX_REFUSED` are listed, taken in turn from each verb so that every verb that is
closed now says why.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from itertools import zip_longest
from typing import Any

from ecliptic.engine.actions import Action
from ecliptic.engine.content import content_cache
from ecliptic.engine.errors import NotAnOption
from ecliptic.games import get_game
from ecliptic.tauceti.actions.minor import K3

MAX_REFUSED = 300
NUMBERED = re.compile(r"^[A-Z]\d+$")
"""A card or token id (``S11``, ``X09``, ``G04``, ``A07``, ``C1``): named only when seen."""
_KEYWORDS = frozenset({K3})


def strings(data: Any, out: set[str] | None = None) -> set[str]:
    """Every string in JSON-ready data, dict keys included (what an observation names)."""
    out = set() if out is None else out
    if isinstance(data, str):
        out.add(data)
    elif isinstance(data, dict):
        for k, v in data.items():
            out.add(str(k))
            strings(v, out)
    elif isinstance(data, list | tuple):
        for v in data:
            strings(v, out)
    return out


@content_cache
def _domain(name: str, kind: str) -> tuple[Action, ...]:
    """Every action a ``kind`` decision could ever offer (built once per game and kind)."""
    game = get_game(name)
    return tuple(game.kinds[kind].domain(game._content()))


@content_cache
def _tiles(name: str) -> frozenset[str]:
    if name != "tauceti":
        return frozenset()
    return frozenset(t.id for t in get_game(name)._content().tiles)


def seen_only(game: Any, actions: Iterable[Action], seen: set[str]) -> list[Action]:
    """The actions all of whose ids (cards, tokens, tiles) are among the ``seen`` strings."""
    tiles = _tiles(game.name)
    return [a for a in actions
            if all(arg in seen or arg in _KEYWORDS or not (NUMBERED.match(arg) or arg in tiles) for arg in a.args)]


def refused(game: Any, state: Any, seen: set[str], legal: set[Action]) -> list[tuple[Action, str, str]]:
    """``(action, rule, reason)`` for the candidates that are not legal, at most :data:`MAX_REFUSED`."""
    if state.is_over or not state.stack:
        return []
    kind = state.stack[-1].kind
    by_verb: dict[str, list[tuple[Action, str, str]]] = {}
    for action in seen_only(game, _domain(game.name, kind), seen):
        if action in legal:
            continue
        why = game.why_not(state, action)
        if why is None or isinstance(why, NotAnOption):  # (None: a legal action outside the list, a bug)
            continue
        by_verb.setdefault(action.verb, []).append((action, why.rule, why.reason))
    out: list[tuple[Action, str, str]] = []
    for row in zip_longest(*by_verb.values()):
        out.extend(x for x in row if x is not None)
        if len(out) >= MAX_REFUSED:
            break
    return sorted(out[:MAX_REFUSED])


def why_closed(game: Any, copy: Any, seen: set[str]) -> Callable[[str], str | None]:
    """``why(verb)``: why no action of ``verb`` is open in the current decision, said once: the
    reason that refuses more than half of the verb's candidates (``you have no Mining Probe
    left in your supply``), or ``None`` when no one reason does (each position of a far GO has
    its own). The candidates and their refusals are :func:`refused`'s, judged on ``copy``, a
    determinized copy, so the reason cannot tell what the seat does not see."""
    kind = copy.stack[-1].kind if copy.stack and not copy.is_over else None

    def why(verb: str) -> str | None:
        if kind is None:
            return None
        every = [a for a in _domain(game.name, kind) if a.verb == verb]
        # (With no card seen yet, an empty hand's PLAY has no seen candidate: the unseen ones
        # are judged then, and a reason that names an id the seat has not seen is never said.)
        candidates = seen_only(game, every, seen) or every
        reasons: Counter[str] = Counter()
        for action in candidates:
            refusal = game.why_not(copy, action)
            if refusal is not None:  # (a NotAnOption counts here: "your hand is empty" closes PLAY)
                reasons[refusal.reason] += 1
        if not reasons:
            return None
        reason, count = reasons.most_common(1)[0]
        named = {w for w in re.findall(r"[A-Z]\d+", reason) if NUMBERED.match(w)}
        return reason if 2 * count > reasons.total() and named <= seen else None

    return why
