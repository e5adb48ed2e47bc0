"""The observation tensor's cost beside the engine's own step, measured in one run.

For each game and config, the states of random games from fixed seeds are collected once;
then, best of ``repeats`` (CPU time, :mod:`benchmarks.timing`), on the same states:

* *step*: ``legal_actions`` plus ``apply`` of the action the game took there (on fresh
  clones made outside the timing), the engine's own step;
* *observe*: ``G.observe(state, current seat)``, the dict the tensor is built from;
* *encode*: ``Encoder.encode(observation)`` on the dicts observe gave;
* *tensor*: ``Encoder.tensor(state, seat)``, the same tensor as encode(observe) (Tau Ceti
  and Ceres copy the parts whose inputs did not change): what an
  adapter pays for an observation, measured along the games in their order, so each state
  follows the one before it as in play.

The issue's goal is that building the observation costs no more than the step: ``tensor /
step`` (``tensor_per_step`` in ``--json``) says how far it is. ``python -m
benchmarks.observation`` prints the table.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from benchmarks.timing import cpu_clock
from ecliptic.adapters.observation import encoder
from ecliptic.games import get_game

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("tauceti", {"players": 4}),
    ("tauceti", {"players": 2, "advanced": list(range(1, 10))}),
    ("ceres", {"players": 4, "expansions": ["comets"]}),
]


@dataclass
class Figures:
    game: str
    config: dict[str, Any]
    size: int
    states: int
    step_us: float
    observe_us: float
    encode_us: float
    tensor_us: float

    @property
    def encode_per_step(self) -> float:
        return self.encode_us / self.step_us

    @property
    def observe_per_step(self) -> float:
        return self.observe_us / self.step_us

    @property
    def built_per_step(self) -> float:
        """encode(observe(...)): the tensor built from the whole observation."""
        return (self.observe_us + self.encode_us) / self.step_us

    @property
    def tensor_per_step(self) -> float:
        """``Encoder.tensor``: the goal is at most 1."""
        return self.tensor_us / self.step_us

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "config": self.config, "size": self.size, "states": self.states,
                "step_us": self.step_us, "observe_us": self.observe_us, "encode_us": self.encode_us,
                "tensor_us": self.tensor_us, "encode_per_step": self.encode_per_step,
                "observe_per_step": self.observe_per_step, "built_per_step": self.built_per_step,
                "tensor_per_step": self.tensor_per_step}


def _best(repeats: int, work: Callable[[], float]) -> float:
    return min(work() for _ in range(repeats))


def measure(game: str, config: dict[str, Any], games: int = 2, repeats: int = 3) -> Figures:
    g = get_game(game)
    enc = encoder(game, config)
    states: list[Any] = []
    actions = []
    for seed in range(games):
        s = g.new_game(config, seed)
        rng = random.Random(seed)
        while not s.is_over:
            a = rng.choice(g.legal_actions(s))
            states.append(s.clone())
            actions.append(a)
            g.apply(s, a)
    observations = [g.observe(s, s.current_player) for s in states]

    def step() -> float:
        copies = [s.clone() for s in states]
        legal, apply = g.legal_actions, g.apply
        start = cpu_clock()
        for s, a in zip(copies, actions, strict=True):
            legal(s)
            apply(s, a)
        return cpu_clock() - start

    def observe() -> float:
        obs = g.observe
        start = cpu_clock()
        for s in states:
            obs(s, s.current_player)
        return cpu_clock() - start

    def encode() -> float:
        e = enc.encode
        start = cpu_clock()
        for o in observations:
            e(o)
        return cpu_clock() - start

    def tensor() -> float:
        enc.forget()  # a store that has seen none of these states
        t = enc.tensor
        start = cpu_clock()
        for s in states:
            t(s, s.current_player)
        return cpu_clock() - start

    n = len(states)
    times: dict[str, list[float]] = {"step": [], "observe": [], "encode": [], "tensor": []}
    for _ in range(repeats):  # interleaved, so a burst of other work does not favour one side
        times["step"].append(step())
        times["observe"].append(observe())
        times["encode"].append(encode())
        times["tensor"].append(tensor())
    us = {k: min(v) / n * 1e6 for k, v in times.items()}
    return Figures(game, config, enc.size, n, us["step"], us["observe"], us["encode"], us["tensor"])


def table(figures: list[Figures]) -> str:
    rows = [f"{'game':8} {'config':36} {'size':>5} {'states':>6} {'step µs':>8} {'observe µs':>10} "
            f"{'encode µs':>9} {'tensor µs':>9} {'(obs+enc)/step':>14} {'tensor/step':>11}"]
    for f in figures:
        cfg = ", ".join(f"{k}={v}" for k, v in f.config.items())
        rows.append(f"{f.game:8} {cfg:36.36} {f.size:5d} {f.states:6d} {f.step_us:8.1f} {f.observe_us:10.1f} "
                    f"{f.encode_us:9.1f} {f.tensor_us:9.1f} {f.built_per_step:14.2f} {f.tensor_per_step:11.2f}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.observation", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2, help="random games per config (default 2)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="the figures as JSON instead of the table")
    args = parser.parse_args(argv)
    figures = [measure(game, config, args.games, args.repeats) for game, config in CONFIGS]
    print(json.dumps([f.to_json() for f in figures], indent=1) if args.json else table(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
