"""How good a Ceres position is for each seat, in Victory Points.

A seat's value is its VP now (:func:`ecliptic.ceres.scoring.score`) plus what is still to
come: the Ice it holds and the Ice income of its Asteroids in the Production phases left
(Ice only pays for Launches, so it counts only up to what its probes left can spend and
only while an Activation phase is still to play), its Mining Probes left, and with the
Comets expansion each probe on a Comet's Surface card (a Tail token or a resource table
per Production phase left). Metal and Gas score nothing in this reconstruction, so they
weigh ``other`` (0 by default). At the end of the game only the VP count.

The weights live in ``weights/ceres.toml``; ``heuristic:w.ice=0.6`` overrides one.

This module is handed only states a fair bot may look into (a determinized copy: the
Nucleus cards in the box and the Explosion Check order re-dealt), so it reads the state's
fields directly; it does not look at either hidden pool.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ecliptic.bots.evaluator import (
    checked_weights,
    parse_weight_overrides,
    register_evaluator,
    weights_tables,
    win_chances,
)
from ecliptic.ceres import scoring
from ecliptic.ceres.state import State
from ecliptic.engine.actions import Action

WEIGHTS_FILE = Path(__file__).with_name("weights") / "ceres.toml"

# Follow-up decisions of an action under way (choosing the Tail token after a Launch onto a
# Comet or a STAY): the heuristic plays them out before judging.
_UNSETTLED_KINDS = frozenset({"tail"})


@dataclass(frozen=True)
class Weights:
    """The evaluation weights (see ``weights/ceres.toml`` for each meaning)."""

    rivals: float = 1.0
    temperature: float = 2.0
    ice: float = 0.8
    ice_per_probe: float = 3.0
    probe: float = 0.4
    other: float = 0.0
    income: float = 0.8
    comet_probe: float = 1.5

    def updated(self, changes: Mapping[str, float]) -> Weights:
        return dataclasses.replace(self, **changes)


WEIGHT_NAMES = frozenset(f.name for f in dataclasses.fields(Weights))


def _checked(table: Mapping[str, Any], where: str) -> dict[str, float]:
    return checked_weights(table, WEIGHT_NAMES, where)


@cache
def load_weights(path: Path = WEIGHTS_FILE) -> Weights:
    data = weights_tables(tomllib.loads(path.read_text()), {"default"}, str(path))
    return Weights().updated(_checked(data.get("default", {}), f"{path} [default]"))


def parse_overrides(options: Mapping[str, str]) -> dict[str, float]:
    """``{"w.ice": "0.6"}`` -> ``{"ice": 0.6}`` (bot options that are weights)."""
    return parse_weight_overrides(options, WEIGHT_NAMES)


def productions_left(state: State) -> int:
    """Production phases still to come (the current round's is over once its Activation or
    Comet decisions have begun)."""
    rounds = state.content.numbers.rounds
    if state.phase in ("setup", "belt", "production"):
        return rounds - state.round + (1 if state.phase != "setup" else 0)
    return max(0, rounds - state.round)


def activations_left(state: State, seat: int) -> int:
    """Activation phases in which ``seat`` may still Launch (the current one unless passed)."""
    later = max(0, state.content.numbers.rounds - state.round)
    now = state.phase in ("belt", "production", "comets") or (
        state.phase == "activation" and not state.players[seat].passed)
    return later + (1 if now else 0)


class CeresEvaluator:
    """Ceres positions judged in VP (see the module text)."""

    def __init__(self, weights: Weights) -> None:
        self.w = weights
        self.temperature = weights.temperature
        self.rivals = weights.rivals

    def values(self, state: State, clock: float | None = None) -> list[float]:
        return [self.seat_value(state, seat) for seat in range(len(state.players))]

    def value(self, state: State, seat: int, clock: float | None = None) -> float:
        return self.seat_value(state, seat)

    def clock(self, state: State) -> float:
        """Ceres's values do not depend on how far the game has got."""
        return 0.0

    def chances(self, state: State) -> list[float]:
        return win_chances(self.values(state), self.temperature)

    def quiet(self, state: State, seat: int) -> bool:
        if state.is_over or state.current_player != seat or not state.stack:
            return True
        return state.stack[-1].kind not in _UNSETTLED_KINDS

    def stage(self, state: State) -> int:
        """The round; the last round's playouts play to the end of the game."""
        return min(state.round, state.content.numbers.rounds)

    def quick_move(self, state: State, legal: list[Action]) -> Action | None:
        return None

    def seat_value(self, state: State, seat: int) -> float:
        vp = float(scoring.score(state, seat)["total"])
        if state.is_over:
            return vp
        w = self.w
        p = state.players[seat]
        prods = productions_left(state)
        acts = activations_left(state, seat)
        ice_income = state.content.numbers.ice_income
        other = 0.0
        for asteroid, owner in state.claims.items():
            if owner == seat:
                for resource, n in state.content.asteroid(asteroid).income.items():
                    if resource == "Ice":
                        ice_income += n
                    else:
                        other += n
        value = vp + w.other * (sum(n for r, n in p.resources.items() if r != "Ice") + other * prods)
        if acts > 0 and p.probes > 0:
            # Every Production phase to come is followed by its round's Activation phase.
            budget = w.ice_per_probe * p.probes
            ice_now = min(p.resources.get("Ice", 0), budget)
            ice_later = min(ice_income * prods, max(0.0, budget - ice_now))
            value += w.ice * ice_now + w.income * ice_later + w.probe * p.probes
        on_comets = sum(1 for c in state.comets if c.in_belt for s in c.slots if s == seat)
        return value + w.comet_probe * on_comets * prods


def make_evaluator(options: dict[str, str]) -> CeresEvaluator:
    """The evaluator with the weights file, plus ``w.<name>=<value>`` overrides."""
    return CeresEvaluator(load_weights().updated(parse_overrides(options)))


register_evaluator("ceres", make_evaluator)
