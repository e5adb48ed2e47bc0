"""Ray against this machine's processes: games/s of ``simulate`` on the ``ray`` backend and on
the ``local`` one with the same number of workers, for several numbers of games (docs/scale-out.md).

Both backends play the same random-bot short Tau Ceti games (same seed, identical results,
checked); the runs are interleaved and repeated, so a burst of other work on a shared machine
does not favour one side, and the range of the ratios is reported beside their median. The
ratio is Ray's games/s over local's (the goal: at least 0.8). The extra time per game
``(ray - local) / games`` shows how Ray's cost of sending chunks amortizes as runs grow. The
local backend starts its processes for every run, as each command does; starting the local Ray
is timed apart (once, for all the runs), and "with start" is the ratio of a command that starts
its own Ray (``--backend ray`` without ``--address``) and pays it in that one run.

Wall-clock time is what counts here, so a busy machine slows both sides down: the load average
before the run is part of the report.

Run: ``PYTHONPATH=src python -m benchmarks.backends [--games 20,100,400] [--repeats 3] [--workers 2] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

from ecliptic.sim.backends import Backend, get_backend
from ecliptic.sim.simulate import simulate

CONFIG = {"game": "short", "layout": "random"}
PLAYERS = 4


def timed(backend: Backend, games: int, seed: int) -> tuple[float, dict[str, Any]]:
    start = time.perf_counter()
    summary = simulate("tauceti", PLAYERS, games, seed, "random", CONFIG, keep_results=False, backend=backend)
    return time.perf_counter() - start, summary.deterministic_json()


def measure(counts: list[int], repeats: int = 3, workers: int = 2, seed: int = 0) -> dict[str, Any]:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    local = get_backend("local", workers=workers)
    start = time.perf_counter()
    ray = get_backend("ray", workers=workers)
    ray_start = time.perf_counter() - start
    rows = []
    try:
        timed(ray, 2 * workers, seed)  # the first tasks start Ray's worker processes: not part of a run
        for games in counts:
            seconds: dict[str, list[float]] = {"local": [], "ray": []}
            identical = True
            for _ in range(repeats):
                local_s, local_json = timed(local, games, seed)
                ray_s, ray_json = timed(ray, games, seed)
                seconds["local"].append(local_s)
                seconds["ray"].append(ray_s)
                identical = identical and local_json == ray_json
            ratios = [lo / ra for lo, ra in zip(seconds["local"], seconds["ray"], strict=True)]
            rows.append({
                "games": games,
                "local_games_per_second": [games / s for s in seconds["local"]],
                "ray_games_per_second": [games / s for s in seconds["ray"]],
                "ratio": {"min": min(ratios), "median": statistics.median(ratios), "max": max(ratios)},
                "ratio_with_ray_start": statistics.median(
                    lo / (ra + ray_start) for lo, ra in zip(seconds["local"], seconds["ray"], strict=True)),
                "extra_ms_per_game": statistics.median(
                    1000 * (ra - lo) / games for lo, ra in zip(seconds["local"], seconds["ray"], strict=True)),
                "identical": identical,
            })
    finally:
        ray.close()
    return {"workers": workers, "cores": os.cpu_count(), "players": PLAYERS, "config": CONFIG,
            "repeats": repeats, "load_average_before": load, "ray_start_seconds": ray_start, "runs": rows}


def table(report: dict[str, Any]) -> str:
    lines = [f"{report['workers']} workers on {report['cores']} cores, load average before "
             f"{report['load_average_before']}; starting the local Ray took {report['ray_start_seconds']:.1f} s",
             f"{'games':>6} {'local games/s':>16} {'ray games/s':>16} {'ray/local':>20} {'with start':>10} "
             f"{'extra ms/game':>14} {'identical':>9}"]
    for r in report["runs"]:
        lo, ra, q = r["local_games_per_second"], r["ray_games_per_second"], r["ratio"]
        lines.append(f"{r['games']:6d} {min(lo):7.1f}-{max(lo):<8.1f} {min(ra):7.1f}-{max(ra):<8.1f} "
                     f"{q['median']:6.2f} ({q['min']:.2f}-{q['max']:.2f}) {r['ratio_with_ray_start']:10.2f} "
                     f"{r['extra_ms_per_game']:14.1f} "
                     f"{r['identical']!s:>9}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.backends", description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="20,100,400", help="numbers of games, separated by commas")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = parser.parse_args(argv)
    report = measure([int(n) for n in args.games.split(",")], args.repeats, args.workers)
    print(json.dumps(report) if args.json else table(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
