"""How sure is a lead? Fitting the temperature of ISMCTS's win chances to played games.

ISMCTS turns the evaluator's point estimates into chances of winning by a softmax whose
temperature is the lead that makes a seat e times likelier to win
(:meth:`~ecliptic.bots.evaluator.Evaluator.chances`). How much a lead of one GP means
depends on how much of the game is left: at the start of a Tau Ceti game it decides little,
in the last round nearly everything. Guessing one number for the whole game (the first
version used 3 GP throughout) makes the search indifferent to a lead exactly when it
matters most, so the temperature is fitted instead, to games of the heuristic bots:

* :func:`collect` plays games and keeps, every few decisions, a copy of the game and who won
  in the end; :func:`samples` reads each copy as the evaluator sees it (every seat's value and
  the share of the game still to come, ``future``);
* :func:`best_temperature` finds, for a set of such samples, the temperature whose win
  chances give the winners the highest likelihood (the lowest log loss);
* :func:`fit_curve` fits ``end + (start - end) * future ** shape`` to all samples at once,
  the form :meth:`~ecliptic.bots.eval_tauceti.TauCetiEvaluator.temperature_at` uses.

:func:`tune` fits the evaluation weights themselves to the same copies (``--tune``).
``ecliptic calibrate`` runs them and prints the table; docs/bots.md keeps the figures
behind the weights file's ``temperature``, ``temperature_start`` and ``temperature_shape``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ecliptic.bots.base import bot_seed, make_bot
from ecliptic.bots.evaluator import win_chances


@dataclass(frozen=True)
class Sample:
    """One position of a played game: how much was still to come, the evaluator's values of
    every seat, and each seat's share of the win at the end (1 for a sole winner)."""

    future: float
    values: tuple[float, ...]
    returns: tuple[float, ...]


@dataclass(frozen=True)
class Position:
    """A copy of a played game at one moment, the number of that game, and each seat's share
    of the win at its end: what the temperature and the weights are fitted to."""

    state: Any
    game: int
    returns: tuple[float, ...]


def collect(game: Any, config: dict[str, Any], games: int, seed: int, every: int = 4,
            progress: Callable[[], None] | None = None, bots: Sequence[str] = ()) -> list[Position]:
    """Positions from ``games`` games (game ``i`` has seed ``seed + i``), one every ``every``
    decisions. The players are heuristic bots, or the bots named in ``bots`` (one per seat,
    turned one seat further each game, so a lone search bot sits in every seat in turn), to
    fit the chances to the positions that bot reaches rather than the heuristic's (tried for
    ISMCTS: better predictions, worse play; docs/bots.md, "Fourth round")."""
    if games < 1 or every < 1:
        raise ValueError("calibrate at least one game, sampling at least every decision")
    positions: list[Position] = []
    for i in range(games):
        game_seed = seed + i
        state = game.new_game(config, game_seed)
        n = len(state.players)
        if bots and len(bots) != n:
            raise ValueError(f"name one bot per seat ({n}), not {len(bots)}")
        lineup = [bots[(seat - i) % n] for seat in range(n)] if bots else ["heuristic"] * n
        players = [make_bot(spec, bot_seed(game_seed, seat)) for seat, spec in enumerate(lineup)]
        seen = []
        decisions = 0
        while not state.is_over:
            if decisions % every == 0:
                seen.append(state.clone())
            seat = state.current_player
            game.apply(state, players[seat].choose(game, state, seat))
            decisions += 1
        returns = tuple(float(r) for r in game.returns(state))
        positions.extend(Position(copy, i, returns) for copy in seen)
        if progress is not None:
            progress()
    return positions


def samples(positions: Iterable[Position], ev: Any) -> list[Sample]:
    """The positions as the evaluator ``ev`` sees them: its ``future`` (the share of the game
    still to come, the one the temperature is read at) and its values of every seat."""
    future = getattr(ev, "future", None)
    if future is None:
        raise ValueError("this evaluator does not say how much of the game is left (it has no "
                         "future()), so its temperature cannot be fitted over the game")
    return [Sample(float(future(p.state)), tuple(ev.values(p.state)), p.returns) for p in positions]


def log_loss(samples: Sequence[Sample], temperature: Callable[[float], float]) -> float:
    """Mean negative log-likelihood of the winners under the win chances at ``temperature``
    (a function of ``future``); a shared win counts by its share. ``log(players)`` is the
    loss of knowing nothing."""
    if not samples:
        raise ValueError("no samples to judge a temperature by")
    return sum(_surprise(s.returns, win_chances(s.values, temperature(s.future))) for s in samples) / len(samples)


def _surprise(returns: Sequence[float], chances: Sequence[float]) -> float:
    """The log loss of one finished game's result under the chances given for it."""
    return -sum(r * math.log(max(c, 1e-12)) for r, c in zip(returns, chances, strict=True) if r > 0)


def best_temperature(samples: Sequence[Sample], low: float = 0.05, high: float = 30.0) -> float:
    """The one temperature with the lowest log loss on ``samples`` (a golden-section search:
    the loss falls and then rises with the temperature)."""
    def loss(t: float) -> float:
        return log_loss(samples, lambda _future: t)

    ratio = (math.sqrt(5) - 1) / 2
    a, b = low, high
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = loss(c), loss(d)
    for _ in range(40):
        if fc <= fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = loss(c)
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = loss(d)
    return (a + b) / 2


def curve(end: float, start: float, shape: float) -> Callable[[float], float]:
    """``end + (start - end) * future ** shape``: the temperature along the game."""
    return lambda future: end + (start - end) * future**shape


@dataclass(frozen=True)
class Fit:
    end: float
    start: float
    shape: float
    loss: float


def fit_curve(samples: Sequence[Sample], ends: Iterable[float] = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0),
              starts: Iterable[float] = (2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0),
              shapes: Iterable[float] = (0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 3.0)) -> Fit:
    """The curve on the grid ``ends x starts x shapes`` with the lowest log loss (a grid, not
    an optimizer: the loss is flat near its minimum and round numbers read better)."""
    best: Fit | None = None
    for end in ends:
        for start in starts:
            for shape in shapes:
                loss = log_loss(samples, curve(end, start, shape))
                if best is None or loss < best.loss:
                    best = Fit(end, start, shape, loss)
    if best is None:
        raise ValueError("fit the curve over at least one end, start and shape")
    return best


BUCKETS = (0.0, 1e-9, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0 + 1e-9)
"""Share-of-the-game buckets of the table: the first holds positions past the expected end
(future 0: a game that goes on to round 11 or 12), the last the first moves."""


def buckets(samples: Sequence[Sample]) -> list[tuple[float, float, list[Sample]]]:
    """The samples by share of the game to come, in :data:`BUCKETS` (empty buckets left out)."""
    out = []
    for low, high in itertools.pairwise(BUCKETS):
        inside = [s for s in samples if low <= s.future < high]
        if inside:
            out.append((low, high, inside))
    return out


# Tuning the weights ------------------------------------------------------------------------


def chances_loss(positions: Sequence[Position], ev: Any) -> float:
    """Mean log loss of the winners under ``ev.chances`` (the evaluator's whole judgement:
    its values and its temperature), like :func:`log_loss`."""
    if not positions:
        raise ValueError("no positions to judge the weights by")
    return sum(_surprise(p.returns, ev.chances(p.state)) for p in positions) / len(positions)


@dataclass(frozen=True)
class Tuned:
    """The weights :func:`tune` found, and the log loss before and after on the games it
    learned from (``train``) and on the games it kept apart (``test``)."""

    weights: Any
    changes: dict[str, float]
    train_before: float
    train_after: float
    test_before: float
    test_after: float


def split(positions: Sequence[Position], every: int = 5) -> tuple[list[Position], list[Position]]:
    """Every ``every``-th game kept apart to test on; the rest to learn from. Whole games, so
    the test positions are not near copies of the ones learned from."""
    train = [p for p in positions if p.game % every != 0]
    test = [p for p in positions if p.game % every == 0]
    return train, test


def tune(positions: Sequence[Position], start: Any, make: Callable[[Any], Any], names: Sequence[str],
         factors: Sequence[float] = (1.5, 1.2, 1.08), progress: Callable[[str], None] | None = None) -> Tuned:
    """Weights that predict the winners better ("Texel tuning"): one weight at a time is
    multiplied or divided by a factor, and the change is kept when the log loss of
    ``make(weights).chances`` on the learning games falls; a pass over all weights is repeated
    until none helps, then the factor shrinks. ``start.updated({name: value})`` makes the next
    weights (a weight at 0 is tried at 0.05). Games are split by :func:`split`; the test loss
    says whether the weights learned the game or the games."""
    train, test = split(positions)
    if not train or not test:
        raise ValueError("tune on at least 5 games, so that some can be kept apart to test on")
    weights = start
    best = chances_loss(train, make(weights))
    before = best
    for factor in factors:
        improved = True
        while improved:
            improved = False
            for name in names:
                now = float(getattr(weights, name))
                for value in ((now * factor, now / factor) if now else (0.05,)):
                    trial = weights.updated({name: value})
                    loss = chances_loss(train, make(trial))
                    if loss < best - 1e-5:
                        weights, best, improved = trial, loss, True
                        if progress is not None:
                            progress(f"{name} {now:.4g} -> {value:.4g}: log loss {loss:.4f}")
                        break
    changes = {n: float(getattr(weights, n)) for n in names if getattr(weights, n) != getattr(start, n)}
    return Tuned(weights, changes, before, best, chances_loss(test, make(start)), chances_loss(test, make(weights)))
