"""The one mechanism every game's rules plug into: decision kinds on a stack.

A game state keeps its pending choices as a stack of decisions; the top one is
the current decision and its ``player`` the current player. Each decision
*kind* is served by a :class:`DecisionKind` that answers three questions:

* ``options`` — a cheap superset of the actions that might be legal,
* ``why_not`` — ``None`` if an action is legal, else the :class:`IllegalAction`
  that names the rule it breaks (the one definition of legality),
* ``perform`` — change the state; called only after ``why_not`` passed, so a
  refused action leaves the state untouched.

``domain`` lists every action the kind could ever offer (what the game's
committed action id table must number: :mod:`ecliptic.engine.action_ids`). For
speed a kind may also answer ``legal`` (the options that pass ``why_not``) and
``offers`` (is an action among the options?) directly; by default they are
computed from the definitions. ``accepts`` is ``apply``'s quick yes, asked first
(true only for a legal action; a refusal is still ``why_not``'s and ``offers``').

The pieces every game built on this mechanism shares live here once:

* :class:`Decision` — a pending choice on the stack;
* :class:`StackState` — the state's half of the engine contract (``current_player``,
  ``is_over``, ``clone``, ``decision``, ``turn_order``), mixed into each game's ``State``;
* :func:`advance_until_decision` — the loop of automatic steps between two decisions;
* :func:`build_config` — a game's frozen ``Config`` from a config table;
* :func:`observation_header` — the public part every observation starts with (and
  :func:`decision_view`, its decision);
* :class:`RulesGame` — the engine contract's generic half (legal actions, why not,
  apply, returns, the action space, JSON saves); a game adds its setup, its automatic
  steps and its observation.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import operator
import reprlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, Self, TypeVar, get_origin, get_type_hints

from ecliptic.engine import action_ids
from ecliptic.engine.actions import Action, ActionSpace, well_formed
from ecliptic.engine.codec import DecodeError, decode, encode
from ecliptic.engine.content import ContentSlot
from ecliptic.engine.errors import IllegalAction, SaveFileError, SeatError
from ecliptic.engine.events import PUBLIC, Event
from ecliptic.engine.fastcopy import deep_copy


class DecisionLike(Protocol):
    kind: str
    player: int


D = TypeVar("D", bound=DecisionLike)


@dataclass
class Decision:
    """A pending choice. ``kind`` names the decision kind that offers and performs it; ``data``
    stays JSON-ready (str, int, bool, lists, dicts) because states are saved."""

    kind: str
    player: int
    data: dict[str, Any] = field(default_factory=dict)


OVER = "over"
"""The ``phase`` of a finished game. The engine's own loops read ``phase`` rather than the
``is_over`` property (a property call costs several times a field read, and they ask at
every decision)."""


class StackState:
    """The state's half of the engine contract, for a game state dataclass that keeps its
    pending choices on ``stack`` and whose ``phase`` is ``"over"`` at the end.

    A mixin without fields or slots: the game's dataclass declares every field (so saves and
    :mod:`ecliptic.engine.fastcopy` see the game's own types), and the copier generated for it
    still copies the whole instance dict in one call. The annotations below only name the
    fields these methods read."""

    config: Any
    players: Sequence[Any]
    round: int
    phase: str
    first_player: int
    turn_seat: int
    stack: list[Decision]

    @property
    def current_player(self) -> int | None:
        """The seat whose decision is pending, ``None`` when none is (the game is over)."""
        return self.stack[-1].player if self.stack else None

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def decision(self) -> Decision:
        """The current decision (the top of the stack)."""
        return self.stack[-1]

    def clone(self) -> Self:
        """A copy sharing no mutable object with this state (bots clone thousands of times per
        decision; :mod:`ecliptic.engine.fastcopy` writes the copy code from the field types)."""
        return deep_copy(self)

    def turn_order(self) -> list[int]:
        """Every seat once, clockwise from the first player."""
        n = len(self.players)
        return [(self.first_player + i) % n for i in range(n)]


SS = TypeVar("SS", bound=StackState)


def advance_until_decision(state: SS, ev: list[Event], steps: Mapping[str, Callable[[SS, list[Event]], None]]) -> None:
    """Run the automatic step of the current phase (``steps[state.phase]``) again and again
    until some player has a decision to make or the game is over. Each step either pushes a
    decision or moves the game on (another phase, the next round, the end)."""
    while not state.stack and state.phase != OVER:  # (is_over)
        steps[state.phase](state, ev)


def seat_of(state: StackState, seat: object, *, spectator: bool) -> int | None:
    """``seat`` as a seat of this game, or :class:`SeatError`: an ``int`` (any integer type,
    such as NumPy's, but not a ``bool``) from 0 to players - 1, or ``None`` (the spectator)
    where ``spectator`` allows it. ``observe`` and ``determinize`` of both games ask it first,
    so a seat outside the game is refused instead of answered as if it saw nothing of its own."""
    if seat is None and spectator:
        return None
    if not isinstance(seat, bool):
        try:
            index = operator.index(seat)  # type: ignore[arg-type]
        except TypeError:
            pass
        else:
            if 0 <= index < len(state.players):
                return index
    allowed = f"0-{len(state.players) - 1}" + (" or None (a spectator)" if spectator else "")
    raise SeatError(f"{_SHORT.repr(seat)} is not a seat of this {len(state.players)}-player game: "
                    f"a seat is {allowed}")


@functools.lru_cache(maxsize=64)
def _config_json(config: Any) -> tuple[tuple[str, Any], ...]:
    return tuple(encode(config).items())


def config_json(config: Any) -> dict[str, Any]:
    """A frozen config as JSON data, encoded once per config (every observation carries it, and
    encoding a dataclass costs more than the rest of the header): a fresh dict with fresh lists,
    so whoever changes an observation cannot change the next one. A config's fields are
    scalars and tuples of scalars."""
    return {k: list(v) if v.__class__ is list else v for k, v in _config_json(config)}


def observation_header(
    game: str, state: StackState, observer: int | None, private: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """The public part every observation begins with: the game, the observer, the config, the
    round and phase, the seats that play now, and the current decision. The decision's
    ``private`` data keys (the cards a player chooses from) are shown to its player only."""
    return {
        "game": game,
        "observer": observer,
        "config": config_json(state.config),
        "round": state.round,
        "phase": state.phase,
        "first_player": state.first_player,
        "turn_seat": state.turn_seat,
        "current_player": state.current_player,
        "decision": decision_view(state, observer, private),
    }


def decision_view(
    state: StackState, observer: int | None, private: frozenset[str] = frozenset(), *, copy: bool = True
) -> dict[str, Any] | None:
    """The header's ``decision``: the current decision's kind, player and data, without the
    ``private`` keys for anyone but its player (``None`` when none is pending). Apart, so an
    observation tensor that needs the header without the config asks for the same thing;
    ``copy=False`` gives the decision's own data (JSON-ready already: ``Decision``) to a
    reader that keeps nothing of it, instead of a copy."""
    if not state.stack:
        return None
    d = state.stack[-1]
    data = d.data
    if d.player != observer and not private.isdisjoint(data):
        data = {k: v for k, v in data.items() if k not in private}
    return {"kind": d.kind, "player": d.player, "data": encode(data) if copy else data}


K = TypeVar("K")


def build_config(config_type: type[K], config: K | Mapping[str, Any] | None) -> K:
    """A game's frozen ``Config`` dataclass from a config table (a record's, a scenario's, the
    CLI's): ``None`` is the default config, lists become the tuples the dataclass holds, the
    ``game_name`` key (which game the table is for) is dropped. The dataclass's own
    ``__post_init__`` checks the values; anything malformed is a ``ValueError`` that says what."""
    if config is None:
        return config_type()
    if isinstance(config, config_type):
        return config
    if not isinstance(config, Mapping):
        raise ValueError(f"bad game config: expected a table, got {config!r}")
    data = dict(config)
    data.pop("game_name", None)
    known = [f.name for f in dataclasses.fields(config_type)]  # type: ignore[arg-type]
    unknown = sorted(str(k) for k in data if k not in known)
    if unknown:
        raise ValueError(f"bad game config: unknown key{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; "
                         f"the keys are {', '.join(known)}")
    for name in _tuple_fields(config_type):
        if name in data:
            data[name] = _as_tuple(name, data[name])
    try:
        return config_type(**data)
    except TypeError as exc:
        raise ValueError(f"bad game config: {exc}") from None


_TUPLE_FIELDS: dict[type[Any], tuple[str, ...]] = {}


def _tuple_fields(config_type: type[Any]) -> tuple[str, ...]:
    """The fields of a config dataclass that hold tuples (read from its type hints once: every
    new game builds a config, and resolving the hints costs more than the rest of it)."""
    found = _TUPLE_FIELDS.get(config_type)
    if found is None:
        hints = get_type_hints(config_type)
        found = _TUPLE_FIELDS[config_type] = tuple(
            f.name for f in dataclasses.fields(config_type) if get_origin(hints[f.name]) is tuple)
    return found


def _as_tuple(name: str, value: Any) -> tuple[Any, ...]:
    """A list field of the table as the dataclass's tuple. A lone string is refused, not split
    into its letters (``"factions": "Xunon"`` is a slip for ``["Xunon"]``)."""
    if isinstance(value, str):
        raise ValueError(f"bad game config: {name} is a list, e.g. {json.dumps([value])}")
    if not isinstance(value, list | tuple):
        raise ValueError(f"bad game config: {name} is a list, not {value!r}")
    return tuple(value)


class StateLike(Protocol[D]):
    stack: list[D]
    winners: list[int]
    @property
    def phase(self) -> str:
        """``OVER`` once the game is over (what ``is_over`` says: :class:`StackState`)."""
        ...

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
    offers_what_passes: bool = False
    """The options are exactly the actions ``why_not`` accepts (``offers="why_not"``): ``apply``
    then need not ask ``offers`` after ``why_not`` (a ``move`` asks for its route in both)."""
    accepts: Callable[[S, D, Action], bool] | None = None
    """A quick yes, asked before ``why_not`` and ``offers``: true only for a legal action (one
    among options that are legal by construction, for instance), false when it cannot tell
    at once. Nearly every action ``apply`` is given is legal (it was picked from the legal
    actions), and proving that is cheaper than re-deriving why another might not be: a
    refused action is judged by ``why_not`` and ``offers`` as before, so the refusal is the
    same. By default the membership test of a kind whose options are its ``legal``."""
    unique: bool = False
    """``legal`` never lists an action twice (the ``turn``: one verb's actions each, and each
    verb's once), so ``legal_actions`` sorts it without first making a set of it."""


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
        offers: Callable[[S, D, Action], bool] | Literal["why_not"] | None = None,
        accepts: Callable[[S, D, Action], bool] | None = None,
        unique: bool = False,
    ) -> None:
        if kind in self:
            raise RuntimeError(f"decision kind {kind} registered twice")

        def filtered(state: S, d: D) -> list[Action]:
            return [a for a in options(state, d) if why_not(state, d, a) is None]

        def scanned(state: S, d: D, action: Action) -> bool:
            return action in options(state, d)

        def passes(state: S, d: D, action: Action) -> bool:
            return why_not(state, d, action) is None

        if accepts is None and legal is options and offers is None:
            accepts = scanned  # (being offered is being legal)
        self[kind] = DecisionKind(kind, options, why_not, perform, domain, legal or filtered,
                                  passes if offers == "why_not" else offers or scanned, offers == "why_not",
                                  accepts, unique)

    def domain(self, content: C) -> set[Action]:
        """Every action the kinds could ever offer with this content."""
        return {a for k in self.values() for a in k.domain(content)}


say = PUBLIC.say
"""Record an event; ``to`` limits who may see it (a secret roll). A game with secret event
data declares it in an :class:`ecliptic.engine.events.Secrets` and reports with its ``say``."""


@dataclass(frozen=True)
class Utility:
    """What a game's ``returns(state)`` means, for an adapter that must declare it (OpenSpiel's
    utility type, a reward's range): every returns vector of a finished game lies within
    ``min``..``max`` per seat, and for ``"constant_sum"`` its seats add up to ``sum`` (``None``
    for ``"general_sum"``); while the game is played every return is 0.

    ``shared_wins``: tied winners share the 1 (each gets 1/k) instead of each getting it;
    ``solo``: what a one-player game returns (``""`` when the config has more players)."""

    kind: Literal["general_sum", "zero_sum", "constant_sum"]
    min: float
    max: float
    sum: float | None
    shared_wins: bool
    solo: str = ""


_SPACES: dict[type, ActionSpace] = {}
_VERBS: dict[type, frozenset[str]] = {}

_SHORT = reprlib.Repr()
"""Shows what was given instead of an action, shortened (it may be a long string or list)."""
_SHORT.maxstring = _SHORT.maxother = 80


class RulesGame(Generic[S, D, C]):
    """The generic half of the engine contract, shared by every game.

    A game sets the class attributes and implements :meth:`_setup` (a new state and its
    setup events, from a ``config_type`` instance), :meth:`_advance` (automatic steps until a
    decision is pending), :meth:`_content`, and :meth:`_problems` for save files; its two
    generic refusals (the game is over, an action not on offer) name its own rule ids.
    """

    name: str
    title: str
    config_type: type[Any]
    """The game's frozen ``Config`` dataclass; :meth:`new_game` builds it with :func:`build_config`."""
    state_type: type[S]
    action_ids_package: str
    """The package holding the game's ``action-ids.toml`` (its content package)."""
    state_format: str
    format_version = 1
    kinds: Kinds[S, D, C]
    content_slot: ContentSlot[C]
    """The content the game plays in this process (its content package's ``SLOT``)."""
    game_over_rule: str
    """The rule id that refuses every action once the game is over."""
    not_offered_rule: str
    """The rule id that refuses an action the current decision does not offer."""

    def _setup(self, config: Any, seed: int, ev: list[Event]) -> S:
        raise NotImplementedError

    def _advance(self, state: S, ev: list[Event]) -> None:
        raise NotImplementedError

    def _content(self) -> C:
        """The content this process plays now."""
        return self.content_slot.active()

    def _game_over(self) -> IllegalAction:
        return IllegalAction(self.game_over_rule, "the game is over")

    def _not_offered(self, action: Action) -> IllegalAction:
        return IllegalAction(self.not_offered_rule, f"{action} is not available now")

    def _malformed(self, action: object) -> IllegalAction:
        return IllegalAction("NOTATION", f"{_SHORT.repr(action)} is not an action: a verb and a "
                             "tuple of text arguments, as Action.parse('GO 05') gives")

    def _canonical(self, action: Action) -> Action:
        """The canonical action for one a player may write in more than one way (Tau Ceti's
        ``SHIELD 4,1,3`` is ``SHIELD 1,3,4``): what ``why_not`` judges and ``apply`` performs,
        so the rules see one notation only. By default the action itself."""
        return action

    def _problems(self, state: S) -> list[str]:
        """Broken conservation laws; a save file whose state has any is refused."""
        return []

    # -- the contract -------------------------------------------------------------------

    def new_game_events(self, config: Any = None, seed: int = 0) -> tuple[S, list[Event]]:
        """A new game and the events of its setup (revealed cards, the first round). ``config``
        is a config table, a ``config_type`` instance, or ``None`` for the defaults."""
        ev: list[Event] = []
        state = self._setup(build_config(self.config_type, config), seed, ev)
        self._advance(state, ev)
        return state, ev

    def new_game(self, config: Any = None, seed: int = 0) -> S:
        return self.new_game_events(config, seed)[0]

    def legal_actions(self, state: S) -> list[Action]:
        """The legal actions, sorted; empty only when the game is over."""
        if not state.stack or state.phase == OVER:  # (is_over)
            return []
        d = state.stack[-1]
        kind = self.kinds[d.kind]
        return sorted(kind.legal(state, d)) if kind.unique else sorted(set(kind.legal(state, d)))

    def why_not(self, state: S, action: Action | str) -> IllegalAction | None:
        """``None`` if ``action`` is legal now, else the refusal naming the broken rule (also for
        anything that is not an action at all: ``None``, a number, ``Action("GO", (5,))``).
        Notation is read as :meth:`apply` reads it."""
        if state.is_over or not state.stack:
            return self._game_over()
        if action.__class__ is not Action:
            if not isinstance(action, str):
                return self._malformed(action)
            try:  # notation, as apply takes it
                action = Action.parse(action)
            except IllegalAction as refusal:
                return refusal
        return self._refusal(state, self._canonical(action))

    def _refusal(self, state: S, action: Action) -> IllegalAction | None:
        """:meth:`why_not` of an action already in its canonical notation, the game not over."""
        d = state.stack[-1]
        kind = self.kinds[d.kind]
        try:
            if kind.accepts is not None and kind.accepts(state, d, action):
                return None
            reason = kind.why_not(state, d, action)
            if reason is None and not kind.offers_what_passes and not kind.offers(state, d, action):
                reason = self._not_offered(action)
        except Exception:
            # The rules modules assume text arguments. Checking that on every call would tax
            # the bots' millions of calls; an action that is not well formed is refused here,
            # once it has failed. (Equal to none of the options, it can never reach perform.)
            if well_formed(action):
                raise
            return self._malformed(action)
        return reason

    def apply(self, state: S, action: Action | str) -> list[Event]:
        """Apply a legal action and return its events. Anything else (an illegal action, bad
        notation, something that is not an action) raises :class:`IllegalAction`, nothing else,
        and changes nothing."""
        if action.__class__ is not Action:
            if not isinstance(action, str):
                raise self._game_over() if state.is_over or not state.stack else self._malformed(action)
            action = Action.parse(action)
        if not state.stack or state.phase == OVER:  # (is_over)
            raise self._game_over()
        action = self._canonical(action)
        d = state.stack[-1]
        kind = self.kinds[d.kind]
        accepts = kind.accepts
        try:  # (the quick yes of _refusal, asked here: nearly every action given is legal)
            legal = accepts is not None and accepts(state, d, action)
        except Exception:
            legal = False  # (_refusal judges it, and refuses what is not well formed)
        if not legal:
            reason = self._refusal(state, action)
            if reason is not None:
                raise reason
        ev: list[Event] = []
        kind.perform(state, d, action, ev)
        self._advance(state, ev)
        return ev

    def returns(self, state: S) -> list[float]:
        """1 shared among the winners at the end, 0 otherwise (and 0 for all while playing)."""
        out = [0.0] * len(state.players)
        if state.is_over and state.winners:
            for s in state.winners:
                out[s] = 1.0 / len(state.winners)
        return out

    def utility(self, config: Any = None) -> Utility:
        """What :meth:`returns` gives (it is generic: 1 shared among the winners). With two or
        more players someone always has the most points, so the winners are never empty and
        the returns add up to 1: constant-sum. A one-player game returns 1 when the game's
        ``winners`` holds the player, else 0 (:meth:`_solo` says when)."""
        if build_config(self.config_type, config).players == 1:
            return Utility("general_sum", 0.0, 1.0, None, shared_wins=False, solo=self._solo())
        return Utility("constant_sum", 0.0, 1.0, 1.0, shared_wins=True)

    def _solo(self) -> str:
        """When a one-player game is won."""
        raise NotImplementedError

    def action_space(self, state: S | None = None) -> ActionSpace:
        """Every action the game can ever offer, numbered by the game's committed id table
        (:mod:`ecliptic.engine.action_ids`; read once per game). A table that disagrees with
        the rules is refused: an action offered without an id would break every agent."""
        space = _SPACES.get(type(self))
        if space is None:
            table = self.action_table()
            problem = action_ids.disagreement(table, self.action_domain(self.content_slot.packaged()))
            if problem is not None:
                raise RuntimeError(problem)
            space = _SPACES[type(self)] = table.space()
        return space

    def verbs(self) -> frozenset[str]:
        """The verb of every action the game numbers (:meth:`action_space`): a word that is
        none of them is no action of this game at all, whatever the state, so a player's
        typo can be told from an action the rules refuse now (the terminal answers the first
        without a rule id)."""
        verbs = _VERBS.get(type(self))
        if verbs is None:
            verbs = _VERBS[type(self)] = frozenset(a.verb for a in self.action_space().actions)
        return verbs

    def action_table(self) -> action_ids.IdTable:
        """The game's committed action id table, as shipped (``action-ids.toml`` in the
        game's content package)."""
        return action_ids.load(self.action_ids_package, "action-ids.toml", f"{self.name}-actions")

    def action_domain(self, content: C | None = None) -> set[Action]:
        """Every action the rules can offer today with ``content`` (default: the content played
        now); with the packaged content, what the id table must number."""
        return self.kinds.domain(self._content() if content is None else content)

    def unnumbered(self, content: C) -> list[Action]:
        """The actions the rules could offer with ``content`` that the committed id table does
        not number (sorted): none for content whose components keep the packaged ids. The
        numbering is the packaged content's, so that one agent plays every content: an owner's
        values may offer fewer actions (their ids are never offered), never others."""
        offered = self.action_table().offered()
        return sorted(a for a in self.action_domain(content) if a not in offered)

    def to_json(self, state: S) -> dict[str, Any]:
        return {"format": self.state_format, "version": self.format_version, "state": encode(state)}

    def from_json(self, data: Any) -> S:
        """A state from a save; :class:`SaveFileError` if it is foreign, of another version,
        does not match the schema, breaks a conservation law of the components, names what
        the game does not have (a decision kind, a seat, a tile, a card) or leaves the current
        player without a legal action: a loaded state plays on without an error."""
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
            if not found and not state.is_over and not self.legal_actions(state):
                found = [f"stack[{len(state.stack) - 1}]: the {state.stack[-1].kind} decision of seat "
                         f"{state.stack[-1].player} offers no legal action"]
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, RecursionError) as exc:
            found = [f"{type(exc).__name__}: {str(exc)[:200]}"]
        if found:
            raise SaveFileError(f"the save file is corrupt: {'; '.join(found)}")
        return state
