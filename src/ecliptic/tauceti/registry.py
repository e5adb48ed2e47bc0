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

Two questions follow from those three, and a kind may answer them faster than the
definitions do: ``legal`` (the options that pass ``why_not``) and ``offers`` (is an action
among the options?). The ``turn`` decision answers them verb by verb: it checks each verb's
Action marker and energy once, not once per option, and looks for an action among its own
verb's options only. ``place_tile``, whose options are exactly the legal placements, answers
them without listing the options twice. ``tests/test_clone.py`` checks that every kind's
answers agree with the definitions.
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
Legal = Callable[[State, Decision], Iterable[Action]]
Offers = Callable[[State, Decision, Action], bool]


@dataclass(frozen=True)
class DecisionKind:
    """A kind of decision. ``legal`` and ``offers`` always agree with ``options`` and
    ``why_not``: by default they are computed from them (:func:`filter_legal`, :func:`scan_offers`)."""

    kind: str
    options: Options
    why_not: WhyNot
    perform: Perform
    domain: Domain
    legal: Legal
    offers: Offers


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


def filter_legal(options: Options, why_not: WhyNot) -> Legal:
    """The definition of the legal actions: the options that ``why_not`` lets through."""

    def legal(state: State, d: Decision) -> list[Action]:
        return [a for a in options(state, d) if why_not(state, d, a) is None]

    return legal


def scan_offers(options: Options) -> Offers:
    """The definition of "offered": the action is among the options (the scan stops at it)."""

    def offers(state: State, d: Decision, action: Action) -> bool:
        return action in options(state, d)

    return offers


def decision_kind(
    kind: str,
    *,
    options: Options,
    why_not: WhyNot,
    perform: Perform,
    domain: Domain,
    legal: Legal | None = None,
    offers: Offers | None = None,
) -> None:
    if kind in KINDS:
        raise RuntimeError(f"decision kind {kind} registered twice")
    KINDS[kind] = DecisionKind(
        kind, options, why_not, perform, domain,
        legal or filter_legal(options, why_not), offers or scan_offers(options),
    )


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
    ev.append(Event(kind, text, data, None if to is None else frozenset(to)))  # (**data is a new dict)


illegal = IllegalAction
"""``illegal("TC-MOV-3", "...")``: the refusal a ``why_not`` returns. The class itself, not a
function wrapping it: legal-action listing builds thousands of refusals per second."""
