"""How fast the bots think, and whether ISMCTS keeps to its time budget.

``python -m benchmarks.bots`` (``--budget 200ms --positions 30 --json``) measures, on the same
mid-game 4-player positions (random playouts of full games from fixed seeds, stopped where
the player to move has at least two choices):

* the heuristic bot: milliseconds per decision (mean, 95th percentile, max);
* the ISMCTS bot with a time budget, with its default greedy playouts and with the tree
  search (``policy=quick``): wall-clock milliseconds per decision (mean, max), the iterations
  it managed (playouts, for the greedy playouts; a decision with a lone favourite plays none),
  iterations per second, and whether every decision kept to the budget plus 10% (a 200 ms
  decision within 220 ms).

The ISMCTS budget is wall-clock time, so this is measured with the wall clock; run it on an
otherwise idle machine. It is a measurement, not a test: nothing fails because a machine is
slow. docs/bots.md quotes its figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from ecliptic.bots import HeuristicBot, IsmctsBot, RandomBot
from ecliptic.bots.ismcts import parse_budget
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import State

GAME = TauCeti()
SLACK = 1.10
"""A time-budgeted decision keeps to its budget if it takes at most budget x SLACK."""


def positions(count: int) -> list[State]:
    """``count`` mid-game positions: seeded random playouts stopped at varied depths."""
    out: list[State] = []
    seed = 0
    while len(out) < count:
        state = GAME.new_game({"players": 4, "layout": "random"}, seed)
        bot = RandomBot(seed)
        stop = 30 + 37 * (seed % 9)
        steps = 0
        while not state.is_over and (steps < stop or len(GAME.legal_actions(state)) < 2):
            GAME.apply(state, bot.choose(GAME, state, _seat(state)))
            steps += 1
        if not state.is_over:
            out.append(state)
        seed += 1
    return out


def _seat(state: State) -> int:
    seat = state.current_player
    assert seat is not None, "positions are taken before the end of the game"
    return seat


def _summary(ms: list[float]) -> dict[str, float]:
    ordered = sorted(ms)
    return {"mean_ms": statistics.fmean(ms), "p95_ms": ordered[int(0.95 * (len(ordered) - 1))],
            "max_ms": ordered[-1]}


def heuristic(states: list[State]) -> dict[str, Any]:
    ms = []
    for i, state in enumerate(states):
        bot = HeuristicBot(i)
        start = time.perf_counter()
        bot.choose(GAME, state, _seat(state))
        ms.append(1000 * (time.perf_counter() - start))
    return {"bot": "heuristic", **_summary(ms)}


def ismcts(states: list[State], budget: str, greedy: bool) -> dict[str, Any]:
    _, seconds = parse_budget(budget)
    if seconds is None:
        raise SystemExit("give a time budget (e.g. 200ms), not iterations")
    ms: list[float] = []
    iterations: list[int] = []
    for i, state in enumerate(states):
        bot = IsmctsBot(i, seconds=seconds, greedy=greedy)
        start = time.perf_counter()
        bot.choose(GAME, state, _seat(state))
        ms.append(1000 * (time.perf_counter() - start))
        iterations.append(bot.last_iterations)
    limit = 1000 * seconds * SLACK
    return {
        "bot": f"ismcts:{budget}" + ("" if greedy else "/policy=quick"), **_summary(ms),
        "iterations_mean": statistics.fmean(iterations), "iterations_min": min(iterations),
        "iterations_per_s": sum(iterations) / (sum(ms) / 1000),
        "limit_ms": limit, "within_budget": sum(1 for m in ms if m <= limit), "decisions": len(ms),
    }


def run(budget: str = "200ms", count: int = 30) -> list[dict[str, Any]]:
    states = positions(count)
    return [heuristic(states), ismcts(states, budget, True), ismcts(states, budget, False)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", default="200ms", help="ISMCTS time budget per decision (200ms)")
    parser.add_argument("--positions", type=int, default=30, help="mid-game positions to decide (30)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of lines")
    args = parser.parse_args()
    rows = run(args.budget, args.positions)
    if args.json:
        print(json.dumps(rows))
        return
    for row in rows:
        line = (f"{row['bot']:28s} mean {row['mean_ms']:7.1f} ms  p95 {row['p95_ms']:7.1f} ms  "
                f"max {row['max_ms']:7.1f} ms")
        if "iterations_per_s" in row:
            line += (f"  iterations {row['iterations_mean']:.0f} (min {row['iterations_min']}), "
                     f"{row['iterations_per_s']:.0f}/s; within {row['limit_ms']:.0f} ms: "
                     f"{row['within_budget']}/{row['decisions']}")
        print(line)


if __name__ == "__main__":
    main()
