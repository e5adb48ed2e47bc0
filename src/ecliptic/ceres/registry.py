"""How rules modules plug into the Ceres engine: one mechanism for every choice.

Every pending choice is a :class:`~ecliptic.ceres.state.Decision` on the state's stack,
and every decision kind is served by an :class:`ecliptic.engine.rules.DecisionKind` (the
mechanism every game shares) that answers three questions:

* ``options`` — a cheap superset of the actions that might be legal,
* ``why_not`` — ``None`` if an action is legal, else the :class:`IllegalAction` naming the
  rule it breaks (``CC-...`` for the Comets rulebook, ``CR-...`` for the reconstruction),
* ``perform`` — change the state (only ever called after ``why_not`` passed).

``domain`` lists every action the kind could ever offer (the fixed action space).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ecliptic.ceres.content import Content
from ecliptic.ceres.rules import RULES
from ecliptic.ceres.state import Decision, State
from ecliptic.engine.actions import Action
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.engine.rules import Kinds
from ecliptic.engine.rules import say as say  # re-exported for the rules modules

KINDS: Kinds[State, Decision, Content] = Kinds()


def decision_kind(
    kind: str,
    *,
    options: Callable[[State, Decision], Iterable[Action]],
    why_not: Callable[[State, Decision, Action], IllegalAction | None],
    perform: Callable[[State, Decision, Action, list[Event]], None],
    domain: Callable[[Content], Iterable[Action]],
) -> None:
    KINDS.register(kind, options=options, why_not=why_not, perform=perform, domain=domain)


def illegal(rule: str, message: str) -> IllegalAction:
    """A refusal naming a rule of :data:`ecliptic.ceres.rules.RULES` (checked, so ids cannot drift)."""
    if rule not in RULES:
        raise KeyError(f"unknown Ceres rule id {rule}")
    return IllegalAction(rule, message)
