"""Tau Ceti measured as bots and designers use it: random playouts, clones, sizes.

A *decision* is one ``legal_actions`` plus one ``apply`` (and the random choice between them),
the equivalent of a ply in python-chess: generate the moves, play one, check for the end.
Playouts are whole 4-player full games (the default configuration: the players place the
tiles) from fixed seeds, so every run does the same work and runs compare. The random choice
is made with :class:`random.Random`, as in the python-chess and OpenSpiel baselines, so the
two sides of a ratio spend the same on choosing.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass
from typing import Any

from benchmarks.timing import cpu_clock
from ecliptic.engine.record import GameRecord, state_digest
from ecliptic.engine.rng import Rng
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import State

CONFIG: dict[str, Any] = {"players": 4}
MID_GAME_ROUND = 5
MID_GAME_SEED = 1
_CHOICE_SALT = 0xBE7C4


@dataclass
class Playouts:
    """One run of playouts: CPU seconds in all, and the CPU seconds of ``legal_actions`` and of
    ``apply`` within them."""

    games: int
    decisions: int
    seconds: float
    legal_seconds: float
    apply_seconds: float

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds


def playouts(games: int) -> Playouts:
    """Play ``games`` whole games (seeds 0, 1, ...) with uniformly random legal actions. The
    time covers everything, setup included. ``legal_actions`` and ``apply`` are timed by the
    wall clock (cheap to read); their share of the wall time, applied to the CPU time, is their
    CPU time, since interference from other processes spreads over every part alike."""
    game = TauCeti()
    decisions = 0
    legal_s = apply_s = 0.0
    clock = time.perf_counter
    start, wall_start = cpu_clock(), clock()
    for seed in range(games):
        state = game.new_game(CONFIG, seed)
        rng = random.Random(seed ^ _CHOICE_SALT)
        while not state.is_over:
            t0 = clock()
            legal = game.legal_actions(state)
            t1 = clock()
            action = legal[rng.randrange(len(legal))]
            t2 = clock()
            game.apply(state, action)
            t3 = clock()
            legal_s += t1 - t0
            apply_s += t3 - t2
            decisions += 1
    seconds = cpu_clock() - start
    share = seconds / (clock() - wall_start)
    return Playouts(games, decisions, seconds, legal_s * share, apply_s * share)


def game_record(seed: int = 0) -> GameRecord:
    """The record of the first benchmark game, as a save file holds it (with its digest)."""
    game = TauCeti()
    state = game.new_game(CONFIG, seed)
    rng = random.Random(seed ^ _CHOICE_SALT)
    played: list[str] = []
    while not state.is_over:
        legal = game.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        game.apply(state, action)
        played.append(str(action))
    return GameRecord("tauceti", dict(CONFIG), seed, played, state_digest(game, state))


def mid_game_state(seed: int = MID_GAME_SEED, round_: int = MID_GAME_ROUND) -> State:
    """A 4-player state at the first decision of round ``round_`` of a seeded random playout."""
    game = TauCeti()
    state = game.new_game(CONFIG, seed)
    rng = Rng.from_seed(seed)
    while state.round < round_ and not state.is_over:
        legal = game.legal_actions(state)
        game.apply(state, legal[rng.below(len(legal))])
    return state


def clone_many(state: State, clones: int) -> int:
    for _ in range(clones):
        state.clone()
    return clones


def compact_json(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


def state_bytes(state: State) -> int:
    """The size of a saved state (compact JSON)."""
    return len(compact_json(TauCeti().to_json(state)))


def record_bytes(record: GameRecord) -> int:
    """The size of a whole game's record (compact JSON, final-state digest included)."""
    return len(compact_json(record.to_json()))
