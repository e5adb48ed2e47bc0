"""Resident memory over thousands of simulated games: it must stay flat.

``simulate`` plays the games in this process, folding each into the summary and dropping it
(``keep_results=False``, as ``ecliptic simulate`` does), while resident memory is read every
few games. Memory that grows with the number of games is a leak (a cache, a registry, an
event log kept by mistake). The first sample is taken after the first twentieth of the
games, when every lazily loaded module and table is in memory; the figure to watch is the
growth from there to the end.

Run: ``ecliptic bench --memory [--games N]`` or ``python -m benchmarks.memory [N]``.
"""

from __future__ import annotations

import sys
from typing import Any

from benchmarks.timing import resident_bytes
from ecliptic.sim.simulate import simulate

GAMES = 10_000
SAMPLES = 20


def measure(games: int = GAMES, players: int = 4, keep_results: bool = False) -> dict[str, Any]:
    """Simulate ``games`` random-bot games and sample resident memory ``SAMPLES`` times."""
    step = max(1, games // SAMPLES)
    samples: list[tuple[int, int]] = []

    def sample(done: int, total: int) -> None:
        if done % step == 0 or done == total:
            samples.append((done, resident_bytes()))

    before = resident_bytes()
    summary = simulate("tauceti", players, games, seed=0, progress=sample, keep_results=keep_results)
    first_games, first = samples[0]
    last_games, last = samples[-1]
    growth = last - first
    per_thousand = growth / (last_games - first_games) * 1000 if last_games > first_games else 0.0
    return {
        "games": games,
        "players": players,
        "keep_results": keep_results,
        "seconds": summary.seconds,
        "rss_before": before,
        "rss_first": first,
        "rss_first_games": first_games,
        "rss_end": last,
        "rss_peak": max(b for _, b in samples),
        "growth": growth,
        "growth_per_1000_games": per_thousand,
        "samples": samples,
    }


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else GAMES
    r = measure(games)
    mib = 1024 * 1024
    print(f"{r['games']} games in {r['seconds']:.0f}s: resident memory {r['rss_first'] / mib:.1f} MiB after "
          f"{r['rss_first_games']} games, {r['rss_end'] / mib:.1f} MiB at the end (peak {r['rss_peak'] / mib:.1f}), "
          f"{r['growth_per_1000_games'] / 1024:.1f} KiB per 1,000 games")
    for done, rss in r["samples"]:
        print(f"  {done:>7} games  {rss / mib:8.1f} MiB")


if __name__ == "__main__":
    main(sys.argv[1:])
