"""The report's figures as CSV files, for a spreadsheet: ``win-rates.csv`` (every arm's win rate
per faction, position and bot, with its 95 % interval, fair share and Holm-corrected test) and
``comparisons.csv`` (every arm against the base).

Why: ``results.json`` holds every figure, but nested, which a spreadsheet does not open; a
designer who wants to chart the factions of a sweep, or put two studies side by side, needs one
row per figure. Every value is one of the fold's (:mod:`ecliptic.balance.results`), so the CSV,
the page and ``results.json`` never disagree, and the same study file gives the same bytes."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

WIN_RATES = "win-rates.csv"
COMPARISONS = "comparisons.csv"

WIN_RATE_COLUMNS = ("arm", "label", "kind", "name", "games", "wins", "win_rate", "low95", "high95", "fair_share",
                    "p", "p_holm", "significant", "games_needed", "mean_points", "points_low95", "points_high95")
COMPARISON_COLUMNS = ("arm", "base", "measure", "group", "base_value", "value", "difference", "low95", "high95",
                      "p", "p_holm", "significant", "constant", "games_needed")


def write_tables(results: Mapping[str, Any], out: Path) -> list[Path]:
    """Write the CSV files of folded ``results`` into ``out``; their paths."""
    written = []
    for name, columns, rows in ((WIN_RATES, WIN_RATE_COLUMNS, win_rate_rows(results)),
                                (COMPARISONS, COMPARISON_COLUMNS, comparison_rows(results))):
        path = out / name
        path.write_text(to_csv(columns, rows), encoding="utf-8")
        written.append(path)
    return written


def to_csv(columns: Sequence[str], rows: Iterator[Mapping[str, Any]]) -> str:
    """CSV text: a header row, then the rows; ``None`` is an empty cell, a flag ``yes``/``no``."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(c)) for c in columns])
    return buffer.getvalue()


def win_rate_rows(results: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """One row per arm and faction (Ceres: player, as its rulebook has no factions), position
    from the first player, and bot."""
    seat = "player" if results.get("game") == "ceres" else "faction"  # Ceres' seats have no faction
    for arm in results["arms"]:
        for kind, key in ((seat, "factions"), ("position", "positions"), ("bot", "bots")):
            for g in arm.get(key) or []:
                total = (g.get("points") or {}).get("total") or {}
                low, high = g.get("interval") or (None, None)
                yield {"arm": arm["name"], "label": arm["label"], "kind": kind,
                       "name": g["name"] if "name" in g else f"position {g['position']}",
                       "games": g["games"], "wins": g["wins"], "win_rate": g["win_rate"], "low95": low,
                       "high95": high, "fair_share": g.get("fair_share"), "p": g.get("p"),
                       "p_holm": g.get("p_holm"), "significant": g.get("significant"),
                       "games_needed": g.get("games_needed"), "mean_points": total.get("mean"),
                       "points_low95": total.get("low"), "points_high95": total.get("high")}


def comparison_rows(results: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """One row per comparison of an arm with the base arm."""
    for c in results.get("comparisons") or []:
        yield {**c, "base": results.get("base"), "low95": c.get("low"), "high95": c.get("high")}


def _cell(value: object) -> object:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value
