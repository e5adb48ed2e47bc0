"""How rules modules plug into the engine: one mechanism for every choice.

Every pending choice is a :class:`~ecliptic.tauceti.state.Decision` on the
state's stack, and every decision kind is served by a :class:`DecisionKind`.
A player's turn in the Action phase is the ``turn`` decision; its options are
the :class:`Verb` objects that the action-family modules register.

Each kind and verb answers three questions:

* ``options`` — a cheap superset of the actions that might be legal,
* ``why_not`` — ``None`` if an action is legal, else the :class:`IllegalAction`
  that names the rule it breaks,
* ``perform`` — change the state (only ever called after ``why_not`` passed).

Legal actions are the options that pass ``why_not``; applying an action runs
``why_not`` first, so a refused action leaves the state untouched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ecliptic.engine.actions import Action
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.tauceti.content import Content
from ecliptic.tauceti.state import Decision, State

Options = Callable[[State, Decision], Iterable[Action]]
WhyNot = Callable[[State, Decision, Action], IllegalAction | None]
Perform = Callable[[State, Decision, Action, list[Event]], None]
Domain = Callable[[Content], Iterable[Action]]


@dataclass(frozen=True)
class DecisionKind:
    kind: str
    options: Options
    why_not: WhyNot
    perform: Perform
    domain: Domain


@dataclass(frozen=True)
class Verb:
    """A Minor or Major action a player may take in the ``turn`` decision.

    ``major`` is the Interface action code (``MOV``, ``SB``, ...) whose Action
    marker and energy the verb costs, or ``None`` for a Minor action.
    """

    verb: str
    major: str | None
    options: Callable[[State, int], Iterable[Action]]
    why_not: Callable[[State, int, Action], IllegalAction | None]
    perform: Callable[[State, int, Action, list[Event]], None]
    domain: Domain


KINDS: dict[str, DecisionKind] = {}
VERBS: dict[str, Verb] = {}


def decision_kind(
    kind: str, *, options: Options, why_not: WhyNot, perform: Perform, domain: Domain
) -> None:
    if kind in KINDS:
        raise RuntimeError(f"decision kind {kind} registered twice")
    KINDS[kind] = DecisionKind(kind, options, why_not, perform, domain)


def verb(
    name: str,
    *,
    major: str | None,
    options: Callable[[State, int], Iterable[Action]],
    why_not: Callable[[State, int, Action], IllegalAction | None],
    perform: Callable[[State, int, Action, list[Event]], None],
    domain: Domain,
) -> None:
    if name in VERBS:
        raise RuntimeError(f"verb {name} registered twice")
    VERBS[name] = Verb(name, major, options, why_not, perform, domain)


def say(
    ev: list[Event], kind: str, text: str, *, to: Iterable[int] | None = None, **data: object
) -> None:
    """Record an event; ``to`` limits who may see it (a drawn card, a secret roll)."""
    ev.append(Event(kind, text, dict(data), None if to is None else frozenset(to)))


def illegal(rule: str, message: str) -> IllegalAction:
    return IllegalAction(rule, message)
