"""How rules modules plug into the Ceres engine: one mechanism for every choice.

Every pending choice is a :class:`~ecliptic.ceres.state.Decision` on the state's stack,
and every decision kind is served by a :class:`DecisionKind` that answers three questions:

* ``options`` — a cheap superset of the actions that might be legal,
* ``why_not`` — ``None`` if an action is legal, else the :class:`IllegalAction` naming the
  rule it breaks (``CC-...`` for the Comets rulebook, ``CR-...`` for the reconstruction),
* ``perform`` — change the state (only ever called after ``why_not`` passed).

``domain`` lists every action the kind could ever offer (the fixed action space).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ecliptic.ceres.content import Content
from ecliptic.ceres.rules import RULES
from ecliptic.ceres.state import Decision, State
from ecliptic.engine.actions import Action
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event

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


KINDS: dict[str, DecisionKind] = {}


def decision_kind(kind: str, *, options: Options, why_not: WhyNot, perform: Perform, domain: Domain) -> None:
    if kind in KINDS:
        raise RuntimeError(f"decision kind {kind} registered twice")
    KINDS[kind] = DecisionKind(kind, options, why_not, perform, domain)


def say(ev: list[Event], kind: str, text: str, /, *, to: Iterable[int] | None = None, **data: object) -> None:
    """Record an event; ``to`` limits who may see it."""
    ev.append(Event(kind, text, dict(data), None if to is None else frozenset(to)))


def illegal(rule: str, message: str) -> IllegalAction:
    """A refusal naming a rule of :data:`ecliptic.ceres.rules.RULES` (checked, so ids cannot drift)."""
    if rule not in RULES:
        raise KeyError(f"unknown Ceres rule id {rule}")
    return IllegalAction(rule, message)
