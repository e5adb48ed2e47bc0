"""The one mechanism every game's rules plug into: decision kinds on a stack.

A game state keeps its pending choices as a stack of decisions; the top one is
the current decision and its ``player`` the current player. Each decision
*kind* is served by a :class:`DecisionKind` that answers three questions:

* ``options`` — a cheap superset of the actions that might be legal,
* ``why_not`` — ``None`` if an action is legal, else the :class:`IllegalAction`
  that names the rule it breaks (the one definition of legality),
* ``perform`` — change the state; called only after ``why_not`` passed, so a
  refused action leaves the state untouched.

``domain`` lists every action the kind could ever offer (the fixed action
space). For speed a kind may also answer ``legal`` (the options that pass
``why_not``) and ``offers`` (is an action among the options?) directly; by
default they are computed from the definitions.

:class:`RulesGame` implements the engine contract's generic half (legal
actions, why not, apply, returns, the action space, JSON saves) once for every
game; a game adds its setup, its automatic steps and its observation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from ecliptic.engine.actions import Action, ActionSpace
from ecliptic.engine.codec import DecodeError, decode, encode
from ecliptic.engine.errors import IllegalAction, SaveFileError
from ecliptic.engine.events import Event


class DecisionLike(Protocol):
    kind: str
    player: int


D = TypeVar("D", bound=DecisionLike)


class StateLike(Protocol[D]):
    stack: list[D]
    winners: list[int]

    @property
    def is_over(self) -> bool: ...

    @property
    def players(self) -> Any: ...


S = TypeVar("S", bound=StateLike[Any])
C = TypeVar("C")


@dataclass(frozen=True)
class DecisionKind(Generic[S, D, C]):
    """A kind of decision; ``legal`` and ``offers`` always agree with ``options`` and ``why_not``."""

    kind: str
    options: Callable[[S, D], Iterable[Action]]
    why_not: Callable[[S, D, Action], IllegalAction | None]
    perform: Callable[[S, D, Action, list[Event]], None]
    domain: Callable[[C], Iterable[Action]]
    legal: Callable[[S, D], Iterable[Action]]
    offers: Callable[[S, D, Action], bool]


class Kinds(dict[str, DecisionKind[S, D, C]]):
    """A game's decision kinds by name."""

    def register(
        self,
        kind: str,
        *,
        options: Callable[[S, D], Iterable[Action]],
        why_not: Callable[[S, D, Action], IllegalAction | None],
        perform: Callable[[S, D, Action, list[Event]], None],
        domain: Callable[[C], Iterable[Action]],
        legal: Callable[[S, D], Iterable[Action]] | None = None,
        offers: Callable[[S, D, Action], bool] | None = None,
    ) -> None:
        if kind in self:
            raise RuntimeError(f"decision kind {kind} registered twice")

        def filtered(state: S, d: D) -> list[Action]:
            return [a for a in options(state, d) if why_not(state, d, a) is None]

        def scanned(state: S, d: D, action: Action) -> bool:
            return action in options(state, d)

        self[kind] = DecisionKind(kind, options, why_not, perform, domain,
                                  legal or filtered, offers or scanned)

    def action_space(self, content: C) -> ActionSpace:
        return ActionSpace(a for k in self.values() for a in k.domain(content))


def say(ev: list[Event], kind: str, text: str, /, *, to: Iterable[int] | None = None, **data: object) -> None:
    """Record an event; ``to`` limits who may see it (a drawn card, a secret roll)."""
    ev.append(Event(kind, text, data, None if to is None else frozenset(to)))  # (**data is a new dict)


_SPACES: dict[type, ActionSpace] = {}


class RulesGame(Generic[S, D, C]):
    """The generic half of the engine contract, shared by every game.

    A game sets the class attributes and implements :meth:`_setup` (a new state and its
    setup events), :meth:`_advance` (automatic steps until a decision is pending),
    :meth:`_content`, and the refusals for a finished game and an action not on offer.
    """

    name: str
    title: str
    state_type: type[S]
    state_format: str
    format_version = 1
    kinds: Kinds[S, D, C]

    def _setup(self, config: Any, seed: int, ev: list[Event]) -> S:
        raise NotImplementedError

    def _advance(self, state: S, ev: list[Event]) -> None:
        raise NotImplementedError

    def _content(self) -> C:
        raise NotImplementedError

    def _game_over(self) -> IllegalAction:
        raise NotImplementedError

    def _not_offered(self, action: Action) -> IllegalAction:
        raise NotImplementedError

    def _problems(self, state: S) -> list[str]:
        """Broken conservation laws; a save file whose state has any is refused."""
        return []

    # -- the contract -------------------------------------------------------------------

    def new_game_events(self, config: Any = None, seed: int = 0) -> tuple[S, list[Event]]:
        """A new game and the events of its setup (revealed cards, the first round)."""
        ev: list[Event] = []
        state = self._setup(config, seed, ev)
        self._advance(state, ev)
        return state, ev

    def new_game(self, config: Any = None, seed: int = 0) -> S:
        return self.new_game_events(config, seed)[0]

    def legal_actions(self, state: S) -> list[Action]:
        """The legal actions, sorted; empty only when the game is over."""
        if state.is_over or not state.stack:
            return []
        d = state.stack[-1]
        return sorted(set(self.kinds[d.kind].legal(state, d)))

    def why_not(self, state: S, action: Action) -> IllegalAction | None:
        """``None`` if ``action`` is legal now, else the refusal naming the broken rule."""
        if state.is_over or not state.stack:
            return self._game_over()
        d = state.stack[-1]
        kind = self.kinds[d.kind]
        reason = kind.why_not(state, d, action)
        if reason is None and not kind.offers(state, d, action):
            reason = self._not_offered(action)
        return reason

    def apply(self, state: S, action: Action | str) -> list[Event]:
        """Apply a legal action and return its events; an illegal one raises and changes nothing."""
        if isinstance(action, str):
            action = Action.parse(action)
        reason = self.why_not(state, action)
        if reason is not None:
            raise reason
        d = state.stack[-1]
        ev: list[Event] = []
        self.kinds[d.kind].perform(state, d, action, ev)
        self._advance(state, ev)
        return ev

    def returns(self, state: S) -> list[float]:
        """1 shared among the winners at the end, 0 otherwise (and 0 for all while playing)."""
        out = [0.0] * len(state.players)
        if state.is_over and state.winners:
            for s in state.winners:
                out[s] = 1.0 / len(state.winners)
        return out

    def action_space(self, state: S | None = None) -> ActionSpace:
        """Every action the game can ever offer, numbered (built once per game)."""
        space = _SPACES.get(type(self))
        if space is None:
            space = _SPACES[type(self)] = self.kinds.action_space(self._content())
        return space

    def to_json(self, state: S) -> dict[str, Any]:
        return {"format": self.state_format, "version": self.format_version, "state": encode(state)}

    def from_json(self, data: Any) -> S:
        """A state from a save; :class:`SaveFileError` if it is foreign, of another version,
        does not match the schema, or breaks a conservation law of the components."""
        if not isinstance(data, dict) or data.get("format") != self.state_format:
            raise SaveFileError(f"this is not a {self.title} save file")
        if data.get("version") != self.format_version:
            raise SaveFileError(f"save file version {data.get('version')!r} is not supported "
                                f"(this Ecliptic reads version {self.format_version})")
        try:
            state = decode(self.state_type, data.get("state"))
        except DecodeError as exc:
            raise SaveFileError(f"the save file is corrupt at {exc}") from None
        try:
            found = self._problems(state)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            found = [f"{type(exc).__name__}: {exc}"]
        if found:
            raise SaveFileError(f"the save file is corrupt: {'; '.join(found)}")
        return state
