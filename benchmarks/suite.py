"""``ecliptic bench``: every figure of one run, as a dictionary and as a Rich table.

``python -m benchmarks.suite [--json] [--quick]`` prints the same (without the optional memory
and worker benchmarks) from a source checkout, without the CLI.

The figures (keys of :func:`run`'s ``figures``):

* ``decisions_per_s``, ``games_per_s``, ``decisions_per_game`` — random playouts of whole
  4-player full games, on one core;
* ``legal_actions_us``, ``apply_us``, ``step_us`` — the mean time of one ``legal_actions``,
  one ``apply``, and the two together, over those playouts;
* ``clones_per_s`` — ``clone()`` of a mid-game 4-player state (round 5 of a seeded playout);
* ``state_bytes``, ``record_bytes`` — that state saved as compact JSON, and a whole game's
  record (configuration, seed, actions, digest);
* ``chess_plies_per_s``, ``openspiel_steps_per_s`` — the baselines (``None`` if unavailable);
* ``decisions_per_chess_ply`` — our decisions/s ÷ python-chess plies/s (≥ 2 is the target);
* ``clones_per_chess_ply`` — our clones/s ÷ python-chess plies/s (≥ 8 is the target: ISMCTS
  clones the state on every iteration);
* ``clones_per_decision`` — our clones/s ÷ our decisions/s.
"""

from __future__ import annotations

import json
import platform
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.table import Table

from benchmarks import baselines, tauceti
from benchmarks.tauceti import Playouts
from benchmarks.timing import rate


@dataclass(frozen=True)
class Sizes:
    """How much work one run does: ``QUICK`` is the smoke test's, a few seconds in all."""

    repeats: int
    playout_games: int
    clones: int
    chess_games: int
    openspiel_games: int


FULL = Sizes(repeats=9, playout_games=20, clones=50_000, chess_games=20, openspiel_games=4_000)
QUICK = Sizes(repeats=1, playout_games=1, clones=500, chess_games=1, openspiel_games=100)


def run_all(quick: bool = False, memory: bool = False, parallel: bool = False, games: int | None = None,
            workers: int | None = None, aec: bool = False) -> dict[str, Any]:
    """What ``ecliptic bench`` prints: :func:`run`, and on request the memory and worker
    benchmarks (``games`` and ``workers`` are theirs; ``quick`` shrinks them too) and the
    PettingZoo AEC steps (:mod:`benchmarks.aec`)."""
    report = run(quick)
    if aec:
        from benchmarks import aec as aec_steps

        report["aec"] = aec_steps.measure(quick)
    if memory:
        from benchmarks import memory as mem

        report["memory"] = mem.measure(games or (200 if quick else mem.GAMES))
    if parallel:
        from benchmarks import parallel as par

        report["parallel"] = par.measure(games or (16 if quick else par.GAMES), workers)
    return report


def run(quick: bool = False) -> dict[str, Any]:
    """Measure everything once; JSON-ready. Repeats are interleaved (ours, the baselines, ours
    again...) and the best of each kept, so the ratios compare like with like."""
    size = QUICK if quick else FULL
    mid = tauceti.mid_game_state()  # first: it also loads the content and warms every code path
    mid.clone()  # (the first clone also writes the copy functions)
    chess, spiel = baselines.chess(), baselines.openspiel()
    best: Playouts | None = None
    clones = chess_rate = spiel_rate = 0.0
    for _ in range(size.repeats):
        run_ = tauceti.playouts(size.playout_games)
        if best is None or run_.seconds < best.seconds:
            best = run_
        clones = max(clones, rate(lambda: tauceti.clone_many(mid, size.clones)))
        chess_rate = max(chess_rate, _rate(chess.play, size.chess_games))
        spiel_rate = max(spiel_rate, _rate(spiel.play, size.openspiel_games))
    assert best is not None
    figures: dict[str, float | int | None] = {
        "decisions_per_s": best.decisions_per_s,
        "games_per_s": best.games_per_s,
        "decisions_per_game": best.decisions / best.games,
        "legal_actions_us": best.legal_seconds / best.decisions * 1e6,
        "apply_us": best.apply_seconds / best.decisions * 1e6,
        "step_us": (best.legal_seconds + best.apply_seconds) / best.decisions * 1e6,
        "clones_per_s": clones,
        "state_bytes": tauceti.state_bytes(mid),
        "record_bytes": tauceti.record_bytes(tauceti.game_record()),
        "chess_plies_per_s": chess_rate or None,
        "openspiel_steps_per_s": spiel_rate or None,
        "decisions_per_chess_ply": best.decisions_per_s / chess_rate if chess_rate else None,
        "clones_per_chess_ply": clones / chess_rate if chess_rate else None,
        "clones_per_decision": clones / best.decisions_per_s,
    }
    return {
        "quick": quick,
        "python": platform.python_version(),
        "implementation": sys.implementation.name,
        "machine": platform.machine(),
        "playout_games": best.games,
        "repeats": size.repeats,
        "mid_game": {"seed": tauceti.MID_GAME_SEED, "round": mid.round, "phase": mid.phase},
        "baselines": {"chess": chess.name if chess.play else chess.reason,
                      "openspiel": spiel.name if spiel.play else spiel.reason},
        "figures": figures,
    }


def _rate(play: Callable[[int], int] | None, games: int) -> float:
    """Moves per CPU second of a baseline (0 when it is unavailable)."""
    if play is None:
        return 0.0
    return rate(lambda: play(games))


ROWS: list[tuple[str, str, str, str]] = [
    # (figure, label, format, unit)
    ("decisions_per_s", "Random playouts (4p full games)", ",.0f", "decisions/s"),
    ("games_per_s", "  whole games", ",.2f", "games/s"),
    ("decisions_per_game", "  decisions per game", ",.0f", "decisions"),
    ("legal_actions_us", "  legal_actions", ",.1f", "µs"),
    ("apply_us", "  apply", ",.1f", "µs"),
    ("step_us", "  legal_actions + apply", ",.1f", "µs"),
    ("clones_per_s", "clone(), mid-game 4p state", ",.0f", "clones/s"),
    ("state_bytes", "Mid-game state (JSON)", ",d", "bytes"),
    ("record_bytes", "Whole game record (JSON)", ",d", "bytes"),
    ("chess_plies_per_s", "python-chess random playouts", ",.0f", "plies/s"),
    ("openspiel_steps_per_s", "OpenSpiel python_tic_tac_toe", ",.0f", "steps/s"),
    ("decisions_per_chess_ply", "Our decisions/s ÷ chess plies/s", ".2f", "×"),
    ("clones_per_chess_ply", "Our clones/s ÷ chess plies/s", ".2f", "×"),
    ("clones_per_decision", "Our clones/s ÷ our decisions/s", ".2f", "×"),
]


def table(report: dict[str, Any]) -> Table:
    """The figures as a Rich table; a baseline that could not run says why."""
    fig = report["figures"]
    title = (f"ecliptic bench{' --quick' if report['quick'] else ''} · {report['implementation']} "
             f"{report['python']} · {report['machine']} · one core")
    t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
    t.add_column("Measure")
    t.add_column("Value", justify="right")
    t.add_column("Unit")
    missing = {"chess_plies_per_s": report["baselines"]["chess"],
               "openspiel_steps_per_s": report["baselines"]["openspiel"],
               "decisions_per_chess_ply": "no python-chess baseline",
               "clones_per_chess_ply": "no python-chess baseline"}
    for key, label, fmt, unit in ROWS:
        value = fig[key]
        if value is None:
            t.add_row(label, "—", missing.get(key, "unavailable"))
        else:
            t.add_row(label, format(value, fmt), unit, end_section=key in ("step_us", "record_bytes",
                                                                          "openspiel_steps_per_s"))
    return t


def render(report: dict[str, Any]) -> list[Table]:
    """Every table of a report: the figures, then memory and workers when measured."""
    tables = [table(report)]
    if "aec" in report:
        from benchmarks import aec

        tables.append(aec.table(report["aec"]))
    mib = 1024 * 1024
    if "memory" in report:
        m = report["memory"]
        t = Table(title=f"Resident memory over {m['games']:,} simulated {m['players']}-player games",
                  title_justify="left", box=box.SIMPLE_HEAD)
        t.add_column("Measure")
        t.add_column("Value", justify="right")
        t.add_row(f"after {m['rss_first_games']:,} games", f"{m['rss_first'] / mib:.1f} MiB")
        t.add_row("at the end", f"{m['rss_end'] / mib:.1f} MiB")
        t.add_row("peak", f"{m['rss_peak'] / mib:.1f} MiB")
        t.add_row("growth per 1,000 games", f"{m['growth_per_1000_games'] / 1024:.1f} KiB")
        t.add_row("time", f"{m['seconds']:.0f} s")
        tables.append(t)
    if "parallel" in report:
        p = report["parallel"]
        t = Table(title=f"simulate --workers: {p['games']:,} games, {p['cores']} core(s), load average "
                        f"{p['load_average_before']:.2f} before", title_justify="left", box=box.SIMPLE_HEAD)
        t.add_column("Measure")
        t.add_column("Value", justify="right")
        t.add_row("1 worker", f"{p['seconds_one']:.2f} s")
        t.add_row(f"{p['workers']} workers", f"{p['seconds_many']:.2f} s")
        t.add_row("speed-up", f"{p['speedup']:.2f}×")
        t.add_row("identical results", "yes" if p["identical"] else "NO")
        tables.append(t)
    return tables


def main(argv: list[str]) -> None:
    report = run(quick="--quick" in argv)
    if "--json" in argv:
        print(json.dumps(report))
        return
    from rich.console import Console

    for t in render(report):
        Console().print(t)


if __name__ == "__main__":
    main(sys.argv[1:])
