"""``simulate`` with 1 and with W worker processes: the same results, and the speed-up.

Wall-clock time is what counts here (the point of workers is to finish sooner), so this is
the one benchmark that a busy machine slows down: the load average before the run is part
of the report. On an idle machine with W cores the speed-up should approach W.

Run: ``ecliptic bench --parallel [--games N] [--workers W]`` or
``python -m benchmarks.parallel [N] [W]``.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from ecliptic.sim.simulate import all_cores, simulate

GAMES = 400


def measure(games: int = GAMES, workers: int | None = None, players: int = 4) -> dict[str, Any]:
    """Time ``simulate`` with one worker, then with ``workers`` (default: all cores, at least 2)."""
    many = max(2, workers or all_cores())
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    seconds: dict[int, float] = {}
    summaries = {}
    for w in (1, many):
        start = time.perf_counter()
        summaries[w] = simulate("tauceti", players, games, seed=0, workers=w, keep_results=False)
        seconds[w] = time.perf_counter() - start
    return {
        "games": games,
        "players": players,
        "workers": many,
        "cores": all_cores(),
        "load_average_before": load,
        "seconds_one": seconds[1],
        "seconds_many": seconds[many],
        "speedup": seconds[1] / seconds[many],
        "identical": summaries[1].deterministic_json() == summaries[many].deterministic_json(),
    }


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else GAMES
    workers = int(argv[1]) if len(argv) > 1 else None
    r = measure(games, workers)
    print(f"{r['games']} games: 1 worker {r['seconds_one']:.2f}s, {r['workers']} workers "
          f"{r['seconds_many']:.2f}s: {r['speedup']:.2f}x on {r['cores']} core(s), load average before "
          f"{r['load_average_before']}; identical results: {r['identical']}")


if __name__ == "__main__":
    main(sys.argv[1:])
