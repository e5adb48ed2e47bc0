"""``ecliptic bench --aec``: PettingZoo AEC steps/s of Ecliptic's environments beside
PettingZoo's ``chess_v6`` and OpenSpiel's games, measured in the same run.

A *step* is what a learner pays per decision through PettingZoo: ``last()`` (the observation
tensor and the action mask of the acting agent), a uniformly random id among the mask's, and
``step``; the steps of agents already done at the end (``step(None)``) are not counted. The
contenders run in exactly that loop (:func:`aec_steps`): Tau Ceti 4 players (full game) and
Ceres 4 players with Comets through :mod:`ecliptic.adapters.pettingzoo`, and ``chess_v6``.
OpenSpiel has no AEC loop: its ``python_tic_tac_toe`` (a Python game) and ``tic_tac_toe`` (C++)
are played as random ``legal_actions`` + ``apply_action`` steps, a yardstick of what a Python
and a compiled game cost on this machine.

CPU time of this process, best of ``repeats`` repeats, interleaved (ours, chess, OpenSpiel,
ours again...), as :mod:`benchmarks.suite` measures. :func:`split` times the parts of one
Ecliptic step: the engine (``legal_actions`` + ``apply``), ``observe``, the tensor's
encoding, the mask. A missing library (PettingZoo's classic games need pygame) is reported
as unavailable, never an error.
"""

from __future__ import annotations

import importlib
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from rich import box
from rich.table import Table as RichTable

from benchmarks import baselines
from benchmarks.baselines import Baseline
from benchmarks.timing import cpu_clock, rate

OURS: dict[str, tuple[str, dict[str, Any]]] = {
    "tauceti": ("tauceti", {"players": 4}),
    "ceres": ("ceres", {"players": 4, "expansions": ["comets"]}),
}
"""The Ecliptic environments measured, by figure prefix: game and config table."""
LABELS = {"tauceti": "Tau Ceti 4p (full game)", "ceres": "Ceres 4p with Comets"}
SHORT = {"tauceti": "Tau Ceti", "ceres": "Ceres"}


@dataclass(frozen=True)
class Sizes:
    repeats: int
    steps: int
    """AEC steps of each Ecliptic environment per repeat (and of the split)."""
    chess_steps: int
    spiel_games: int


FULL = Sizes(repeats=3, steps=3_000, chess_steps=1_000, spiel_games=4_000)
QUICK = Sizes(repeats=1, steps=60, chess_steps=30, spiel_games=50)


def aec_steps(env: Any, steps: int, seed: int = 0) -> int:
    """Play at least ``steps`` AEC steps with uniformly random masked ids, resetting the
    environment (next seed) whenever a game ends; the steps played."""
    rng = random.Random(seed)
    done_steps = 0
    while done_steps < steps:
        env.reset(seed=seed + done_steps)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            done_steps += 1
    return done_steps


def ecliptic(key: str) -> Baseline:
    from ecliptic.adapters.pettingzoo import env

    game, config = OURS[key]
    made = env(game, config=config)
    return Baseline(f"ecliptic {LABELS[key]}", "steps/s", lambda steps: aec_steps(made, steps))


def chess_v6() -> Baseline:
    """PettingZoo's ``chess_v6`` in the same AEC loop (its module imports pygame)."""
    try:
        module: Any = importlib.import_module("pettingzoo.classic.chess_v6")
        made = module.env()
    except Exception as exc:  # ImportError (pygame, python-chess), or a broken install
        return Baseline("PettingZoo chess_v6", "steps/s", None, f"unavailable ({type(exc).__name__}: {exc})")
    return Baseline("PettingZoo chess_v6", "steps/s", lambda steps: aec_steps(made, steps))


def openspiel_cpp(name: str = "tic_tac_toe") -> Baseline:
    """An OpenSpiel C++ game: random ``legal_actions`` + ``apply_action`` steps."""
    return baselines.openspiel(name, f"OpenSpiel {name} (C++)")


def split(key: str, steps: int, seed: int = 0) -> dict[str, float]:
    """Mean µs of the parts of one step of an Ecliptic environment, on the adapters' own
    table: ``engine`` (``legal_actions`` + ``apply``), ``observe``, ``encode`` (the tensor
    from the observation), ``mask``. The parts are timed by the wall clock (cheap to read)
    and their shares applied to the CPU time of the whole, as :mod:`benchmarks.tauceti` does."""
    from ecliptic.adapters._common import Table

    game, config = OURS[key]
    table = Table(game, config)
    rules, encoder = table.game, table.encoder
    parts = dict.fromkeys(("engine", "observe", "encode", "tensor", "mask"), 0.0)
    rng = random.Random(seed)
    clock = time.perf_counter
    done = 0
    start, wall_start = cpu_clock(), clock()
    while done < steps:
        table.new_game(seed + done)
        while not table.over:
            seat = table.current
            t0 = clock()
            observation = rules.observe(table.state, seat)
            t1 = clock()
            encoder.encode(observation)
            t2 = clock()
            encoder.tensor(table.state, seat)
            t2b = clock()
            legal = table.legal()
            t3 = clock()
            table.mask(seat)
            t4 = clock()
            table.apply(legal[rng.randrange(len(legal))])
            t5 = clock()
            parts["observe"] += t1 - t0
            parts["encode"] += t2 - t1
            parts["tensor"] += t2b - t2
            parts["engine"] += (t3 - t2b) + (t5 - t4)
            parts["mask"] += t4 - t3
            done += 1
    cpu_share = (cpu_clock() - start) / (clock() - wall_start)
    return {k: v * cpu_share / done * 1e6 for k, v in parts.items()}


def measure(quick: bool = False) -> dict[str, Any]:
    """Every AEC figure of one run; JSON-ready (``ecliptic bench --json`` puts it under ``aec``)."""
    size = QUICK if quick else FULL
    ours = {key: ecliptic(key) for key in OURS}
    chess = chess_v6()
    python_spiel, cpp_spiel = baselines.openspiel(), openspiel_cpp()
    best: dict[str, float] = {}

    def keep(name: str, play: Callable[[int], int] | None, amount: int) -> None:
        if play is not None:
            best[name] = max(best.get(name, 0.0), rate(lambda: play(amount)))

    for key, env in ours.items():  # warm up: content, copiers, the encoder's tables
        keep(key, env.play, 1)
    best.clear()
    for _ in range(size.repeats):
        for key, env in ours.items():
            keep(key, env.play, size.steps)
        keep("chess_v6", chess.play, size.chess_steps)
        keep("openspiel_python", python_spiel.play, size.spiel_games)
        keep("openspiel_cpp", cpp_spiel.play, size.spiel_games)
    figures: dict[str, float | None] = {}
    for key in OURS:
        figures[f"{key}_steps_per_s"] = best[key]
    for name in ("chess_v6", "openspiel_python", "openspiel_cpp"):
        figures[f"{name}_steps_per_s"] = best.get(name)
    chess_rate = best.get("chess_v6")
    for key in OURS:
        figures[f"{key}_per_chess_v6"] = best[key] / chess_rate if chess_rate else None
        parts = split(key, size.steps)
        for part, us in parts.items():
            figures[f"{key}_{part}_us"] = us
        figures[f"{key}_tensor_per_engine"] = parts["tensor"] / parts["engine"]
    return {
        "quick": quick,
        "repeats": size.repeats,
        "baselines": {"chess_v6": chess.name if chess.play else chess.reason,
                      "openspiel_python": python_spiel.name if python_spiel.play else python_spiel.reason,
                      "openspiel_cpp": cpp_spiel.name if cpp_spiel.play else cpp_spiel.reason},
        "figures": figures,
    }


def rows() -> list[tuple[str, str, str, str]]:
    """(figure, label, format, unit) of the table, in order."""
    out: list[tuple[str, str, str, str]] = []
    for key in OURS:
        out.append((f"{key}_steps_per_s", f"{LABELS[key]} AEC steps", ",.0f", "steps/s"))
    out += [("chess_v6_steps_per_s", "PettingZoo chess_v6 AEC steps", ",.0f", "steps/s"),
            ("openspiel_python_steps_per_s", "OpenSpiel python_tic_tac_toe", ",.0f", "steps/s"),
            ("openspiel_cpp_steps_per_s", "OpenSpiel tic_tac_toe (C++)", ",.0f", "steps/s")]
    for key in OURS:
        out.append((f"{key}_per_chess_v6", f"{LABELS[key]} ÷ chess_v6", ".2f", "×"))
    for key in OURS:
        for part, label in (("engine", "engine (legal_actions + apply)"), ("observe", "observe"),
                            ("encode", "tensor from observe"), ("tensor", "Encoder.tensor (the adapters')"),
                            ("mask", "action mask")):
            out.append((f"{key}_{part}_us", f"{SHORT[key]} step: {label}", ",.1f", "µs"))
    for key in OURS:
        out.append((f"{key}_tensor_per_engine", f"{SHORT[key]}: Encoder.tensor ÷ engine step", ".2f", "×"))
    return out


def table(report: dict[str, Any]) -> RichTable:
    """The AEC figures as a Rich table; a baseline that could not run says why."""
    fig = report["figures"]
    t = RichTable(title="PettingZoo AEC steps (observation tensor + mask + step), one core",
                  title_justify="left", box=box.SIMPLE_HEAD)
    t.add_column("Measure")
    t.add_column("Value", justify="right")
    t.add_column("Unit")
    reasons = {f"{name}_steps_per_s": reason for name, reason in report["baselines"].items()}
    for key, label, fmt, unit in rows():
        value = fig[key]
        if value is None:
            t.add_row(label, "—", reasons.get(key, "no chess_v6 baseline"))
        else:
            t.add_row(label, format(value, fmt), unit,
                      end_section=key in ("openspiel_cpp_steps_per_s", "ceres_per_chess_v6", "tauceti_mask_us",
                                                 "ceres_mask_us"))
    return t


def main(argv: list[str]) -> None:
    import json

    report = measure(quick="--quick" in argv)
    if "--json" in argv:
        print(json.dumps(report))
        return
    from rich.console import Console

    Console().print(table(report))


if __name__ == "__main__":
    main(sys.argv[1:])
