"""The one game-specific piece a searching bot needs: how good a position is for each seat.

The heuristic and ISMCTS bots talk to a game only through the engine contract
(``legal_actions``, ``apply``, ``clone``, ``determinize``, ``returns``, ``current_player``,
``is_over``). What they cannot get from the contract is a judgement of an unfinished
position, so each game may register an :class:`Evaluator` (Tau Ceti's is
:mod:`ecliptic.bots.eval_tauceti`). A game without one gets :class:`ReturnsEvaluator`,
which knows only who has won, so the bots still play it (ISMCTS then plays out to the end).

An evaluator is handed only states a fair bot may look into: a determinized copy
(everything the seat cannot see re-dealt at random by the bot's generator; the game's
``determinize`` depends only on what the seat sees and on that generator) or a clone of
it. It may therefore read any field of the state it is given.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping, Sequence, Set
from typing import Any, Protocol

from ecliptic.bots.base import BotSpecError
from ecliptic.engine.actions import Action


class Evaluator(Protocol):
    """A game's position judgement, in the game's own points (Galactic Points for Tau Ceti)."""

    def values(self, state: Any, clock: float | None = None) -> list[float]:
        """Each seat's standing: points now plus the points its resources are worth. With
        ``clock`` (an earlier :meth:`clock`), the resources are priced at that point of the
        game rather than at the state's own."""

    def value(self, state: Any, seat: int, clock: float | None = None) -> float:
        """``values(state, clock)[seat]`` (the same number), computed for that seat alone:
        settling a seat's follow-up decisions judges every candidate for that seat only, and
        valuing the other seats was most of that time."""

    def clock(self, state: Any) -> float:
        """How far the game has got, as the values read it (Tau Ceti: the share of the game
        still to come). The heuristic judges every candidate of one decision at the clock of
        the position it decides in: a candidate that happens to end the round (the last
        battle's retreat) must not look better or worse only because resources are priced
        lower in the next round."""

    def chances(self, state: Any) -> list[float]:
        """Each seat's chance of winning from ``state`` (they add up to 1): the reward ISMCTS
        backs up from a position it stopped playing out. Usually :func:`win_chances` of
        :meth:`values` with a temperature that shrinks as the game nears its end: a lead of
        one point early in the game decides little, in the last round nearly everything."""

    def quiet(self, state: Any, seat: int) -> bool:
        """Is ``state`` settled enough to judge for ``seat``? ``False`` while ``seat`` is in the
        middle of an action (a Move step, choosing which IM to keep): the heuristic bot plays
        such follow-up decisions out before judging, since half an action is worth nothing."""

    def stage(self, state: Any) -> int:
        """How far the game has got, in steps a search's playout may stop at: ISMCTS's
        greedy playouts (``policy=greedy``) play on until the stage changes and judge the
        position there. A round, usually; a stage that no longer changes (the last rounds,
        whose end is near or uncertain) sends playouts to the end of the game."""

    def quick_move(self, state: Any, legal: list[Action]) -> Action | None:
        """A cheap, plausible move for the player to move, or ``None`` to have none: ISMCTS's
        model of the *other* players (``model=quick``), so that its few hundred iterations
        are spent on the bot's own plans rather than on every move an opponent could make."""


EvaluatorFactory = Callable[[dict[str, str]], Evaluator]
"""Builds an evaluator from the bot's options (``{"w.energy": "0.3"}``: weight overrides)."""

_EVALUATORS: dict[str, EvaluatorFactory] = {}


def register_evaluator(game_name: str, factory: EvaluatorFactory) -> None:
    """Make ``factory`` the evaluator of the game called ``game_name`` (``game.name``)."""
    if game_name in _EVALUATORS:
        raise RuntimeError(f"an evaluator for {game_name!r} is registered twice")
    _EVALUATORS[game_name] = factory


def evaluator_for(game: Any, options: dict[str, str] | None = None) -> Evaluator:
    """The evaluator of ``game``: the registered one (``ecliptic.bots.eval_<name>`` is imported
    on first use, so a new game only has to ship that module), else :class:`ReturnsEvaluator`."""
    name = str(getattr(game, "name", ""))
    if name not in _EVALUATORS and name.isidentifier():
        try:
            importlib.import_module(f"ecliptic.bots.eval_{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"ecliptic.bots.eval_{name}":
                raise
    factory = _EVALUATORS.get(name)
    if factory is None:
        return ReturnsEvaluator(game)
    return factory(dict(options or {}))


class ReturnsEvaluator:
    """For a game with no evaluator of its own: the returns at the end, nothing before."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def values(self, state: Any, clock: float | None = None) -> list[float]:
        returns: list[float] = self.game.returns(state)
        return [float(r) for r in returns] if state.is_over else [0.0] * len(returns)

    def value(self, state: Any, seat: int, clock: float | None = None) -> float:
        return self.values(state)[seat]

    def clock(self, state: Any) -> float:
        return 0.0

    def chances(self, state: Any) -> list[float]:
        values = self.values(state)
        return values if state.is_over else [1 / len(values)] * len(values)

    def quiet(self, state: Any, seat: int) -> bool:
        return bool(state.current_player != seat)

    def stage(self, state: Any) -> int:
        return 0  # nothing to judge before the end: playouts play to it

    def quick_move(self, state: Any, legal: list[Action]) -> Action | None:
        return None



class Evaluators:
    """A bot's evaluators, one per game, made on first use with the bot's weight options
    (``w.<name>``): the bot is built before it knows which game it will play."""

    def __init__(self, options: Mapping[str, str]) -> None:
        self.options = dict(options)
        self._made: dict[str, Evaluator] = {}

    def __call__(self, game: Any) -> Evaluator:
        name = str(getattr(game, "name", ""))
        if name not in self._made:
            self._made[name] = evaluator_for(game, self.options)
        return self._made[name]


def win_chances(values: Sequence[float], temperature: float) -> list[float]:
    """Point estimates turned into chances of winning that add up to 1 (a softmax in which
    ``temperature`` points of lead make a seat e = 2.718... times likelier to win)."""
    if not values:
        return []
    t = max(temperature, 1e-6)
    top = max(values)
    weights = [math.exp((v - top) / t) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


EVERY_RIVAL = 1e-6
"""The weight of ``seat``'s lead over the mean of all its rivals in :func:`advantage`: far too
small to outweigh any real difference against the strongest rival, it breaks what would
otherwise be a tie in favour of giving no rival anything. Without it a point handed to a
rival who is not the strongest (the 1GP token of a retreat) cost nothing."""


def advantage(values: Sequence[float], seat: int, rivals: float = 1.0) -> float:
    """How far ``seat`` is ahead of its strongest rival (``rivals`` scales the rival's part:
    0 plays for points alone, 1 plays to beat the leader), and by ``EVERY_RIVAL`` times its
    lead over the rivals' mean."""
    others = [v for i, v in enumerate(values) if i != seat]
    if not others:
        return values[seat]
    mean = sum(others) / len(others)
    return values[seat] - rivals * max(others) + EVERY_RIVAL * (values[seat] - mean)


def weights_tables(data: Mapping[str, Any], tables: Set[str], where: str) -> Mapping[str, Any]:
    """A weights file's top level, every entry one of the known ``tables``: a weight written
    above the first table header (outside ``[default]``) would otherwise be silently ignored."""
    for key, value in data.items():
        if key not in tables or not isinstance(value, Mapping):
            raise BotSpecError(f"{where}: {key!r} is not inside a table; weights go under "
                               f"{' or '.join(f'[{t}]' for t in sorted(tables))}")
    return data


def checked_weights(table: Mapping[str, Any], names: Set[str], where: str) -> dict[str, float]:
    """A weights table from a data file, every key a known weight and every value a number."""
    out: dict[str, float] = {}
    for key, value in table.items():
        if key not in names:
            raise BotSpecError(f"{where}: unknown weight {key!r}; known: {', '.join(sorted(names))}")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise BotSpecError(f"{where}: weight {key!r} must be a number, not {value!r}")
        out[key] = float(value)
    return out


def parse_weight_overrides(options: Mapping[str, str], names: Set[str]) -> dict[str, float]:
    """Bot options that are weights: ``{"w.energy": "0.3"}`` -> ``{"energy": 0.3}``."""
    out: dict[str, float] = {}
    for key, text in options.items():
        if not key.startswith("w."):
            continue
        name = key[2:]
        if name not in names:
            raise BotSpecError(f"unknown weight {name!r}; known: {', '.join(sorted(names))}")
        try:
            out[name] = float(text)
        except ValueError:
            raise BotSpecError(f"weight {name!r} must be a number, not {text!r}") from None
    return out
