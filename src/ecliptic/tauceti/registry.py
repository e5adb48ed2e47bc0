"""How rules modules plug into the engine: one mechanism for every choice.

Every pending choice is a :class:`~ecliptic.tauceti.state.Decision` on the
state's stack, and every decision kind is served by an
:class:`ecliptic.engine.rules.DecisionKind` (the mechanism every game shares).
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
Action marker and energy once, not once per option, asks each open verb for its ``legal``
actions, and looks for an action among its own verb's options only. A kind or verb whose
options are legal by construction (``place_tile``, ``battle_shield``, ``move``, ``BUY``,
``BATTLE``...) registers ``legal=`` its options, so ``why_not`` is not asked again for each.
``why_not`` stays the one definition of legality: options may offer more than is legal, never
less, and ``tests/test_clone.py`` checks that every kind's and every verb's answers agree
with the definitions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from ecliptic.engine.actions import Action
from ecliptic.engine.errors import IllegalAction, NotAnOption
from ecliptic.engine.events import Event, Secrets
from ecliptic.engine.rules import Kinds
from ecliptic.tauceti.content import Content
from ecliptic.tauceti.state import Decision, State

Options = Callable[[State, Decision], Iterable[Action]]
WhyNot = Callable[[State, Decision, Action], IllegalAction | None]
Perform = Callable[[State, Decision, Action, list[Event]], None]
Domain = Callable[[Content], Iterable[Action]]
Legal = Callable[[State, Decision], Iterable[Action]]
Offers = Callable[[State, Decision, Action], bool]
VerbOptions = Callable[[State, int], Iterable[Action]]
VerbWhyNot = Callable[[State, int, Action], IllegalAction | None]


@dataclass(frozen=True)
class Verb:
    """A Minor or Major action a player may take in the ``turn`` decision.

    ``major`` is the Interface action code (``MOV``, ``SB``, ...) whose Action
    marker and energy the verb costs, or ``None`` for a Minor action. ``legal`` always
    agrees with ``options`` and ``why_not`` (by default it is computed from them,
    :func:`filter_verb_legal`).
    """

    verb: str
    major: str | None
    options: VerbOptions
    why_not: VerbWhyNot
    perform: Callable[[State, int, Action, list[Event]], None]
    domain: Domain
    legal: VerbOptions
    offered_is_legal: bool = False
    """The options are legal by construction (registered as the verb's ``legal``): an action
    among them is legal without asking ``why_not``."""


SECRETS = Secrets({
    "gp_token": ("seat",),  # a GP token's id: the reward on its back is for its holder's eyes
    "face_down": ("seat",),  # a card played face down into the Active deck
    "drawn": ("seat",),  # cards drawn into a hand, or to choose from
    "kept": ("seat",),  # the card kept of those drawn
    "traded": ("seat",),  # Specialist cards traded to the bottom of the deck
    "returned_cards": ("seat",),  # IM cards returned to the bottom of the deck
    "hand": ("seat",),  # another player's hand, looked at by the battle's winner
    "stolen": ("seat", "loser"),  # the card the winner steals from the loser's hand
})
"""Which event data is secret, and whose: the one place that decides it for Tau Ceti. A rules
module puts a secret id under one of these keys; :func:`say` tells everyone the rest and the
holders (the seats named by the listed data keys) a ``<kind>_private`` event with the id."""

say = SECRETS.say
"""Record an event (:meth:`ecliptic.engine.events.Secrets.say` with Tau Ceti's secrets)."""

KINDS: Kinds[State, Decision, Content] = Kinds()
VERBS: dict[str, Verb] = {}
MINOR_VERBS: list[Verb] = []
MAJOR_VERBS: list[Verb] = []
"""The verbs again, Minor and Major apart (the turn opens the Major ones only while a Major
action is still to take)."""


def filter_verb_legal(options: VerbOptions, why_not: VerbWhyNot) -> VerbOptions:
    """A verb's legal actions by definition: its options that its ``why_not`` lets through."""

    def legal(state: State, seat: int) -> Iterable[Action]:
        found = options(state, seat)
        if not found:  # (an empty list or tuple, as most turns: no filter is built for it)
            return found
        return [a for a in found if why_not(state, seat, a) is None]

    return legal


def when_legal(action: Action, why_not: VerbWhyNot) -> VerbOptions:
    """The options of a verb that is one action without a choice (REF, MOV, REC, IM): that
    action when ``why_not`` accepts it, else none. They are the verb's legal actions, so the
    verb registers them as its ``legal`` too; ``why_not`` stays the one place the rule is."""
    offered = (action,)

    def options(state: State, seat: int) -> tuple[Action, ...]:
        return offered if why_not(state, seat, action) is None else ()

    return options


def decision_kind(
    kind: str,
    *,
    options: Options,
    why_not: WhyNot,
    perform: Perform,
    domain: Domain,
    legal: Legal | None = None,
    offers: Offers | Literal["why_not"] | None = None,
    accepts: Offers | None = None,
    unique: bool = False,
) -> None:
    KINDS.register(kind, options=options, why_not=why_not, perform=perform, domain=domain,
                   legal=legal, offers=offers, accepts=accepts, unique=unique)


def verb(
    name: str,
    *,
    major: str | None,
    options: VerbOptions,
    why_not: VerbWhyNot,
    perform: Callable[[State, int, Action, list[Event]], None],
    domain: Domain,
    legal: VerbOptions | None = None,
) -> None:
    """Register a Minor or Major action. ``legal=options`` when every option passes
    ``why_not`` by construction (the options check the same conditions up front)."""
    if name in VERBS:
        raise RuntimeError(f"verb {name} registered twice")
    v = Verb(name, major, options, why_not, perform, domain, legal or filter_verb_legal(options, why_not),
             legal is options)
    VERBS[name] = v
    (MINOR_VERBS if major is None else MAJOR_VERBS).append(v)


illegal = IllegalAction
"""``illegal("TC-MOV-3", "...")``: the refusal a ``why_not`` returns. The class itself, not a
function wrapping it: legal-action listing builds thousands of refusals per second."""

not_an_option = NotAnOption
"""``not_an_option("TC-BAT-2", "you cannot battle yourself")``: the refusal of a candidate of
the domain that is no option of this game for this seat (see :class:`NotAnOption`)."""
