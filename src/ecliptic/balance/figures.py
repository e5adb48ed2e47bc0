"""The report's figures: SVG files drawn by Matplotlib from the same numbers as the tables beside
them (the report builds both from one list of rows).

Reproducible: each figure is a ``Figure`` with an Agg canvas of its own (no pyplot, so no GUI
backend and no global figure state), saved with a fixed ``svg.hashsalt`` (the ids of clip paths
and glyphs are hashes of it) and without a date, text kept as text; the same numbers give the
same bytes on the same Matplotlib. This module imports Matplotlib; :mod:`ecliptic.balance.report`
imports it only once it has checked that the balance extra is installed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import matplotlib
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

SALT = "ecliptic-balance"
WIDTH = 7.5


@dataclass(frozen=True)
class Series:
    """One arm's (or one measure's) values over the categories of a figure, with intervals."""

    label: str
    values: Sequence[float]
    lows: Sequence[float] | None = None
    highs: Sequence[float] | None = None


def _colours(n: int) -> list[tuple[float, float, float, float]]:
    cmap = matplotlib.colormaps["tab10" if n <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(n)]


def _widths(n: int) -> list[float]:
    """Line widths from thick (the base arm, drawn first) to thin: arms that played the same
    games often draw the same line, and each must stay visible under the next."""
    return [1.2 + 2.4 * (n - 1 - k) / max(1, n - 1) for k in range(n)]


def _figure(height: float) -> Figure:
    fig = Figure(figsize=(WIDTH, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _axes(fig: Figure) -> Axes:
    ax = fig.subplots()
    ax.set_axisbelow(True)  # grid lines behind the bars and points
    return ax


def _save(fig: Figure, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with matplotlib.rc_context({"svg.hashsalt": SALT, "svg.fonttype": "none"}):
        fig.savefig(path, format="svg", metadata={"Date": None})


def intervals(path: Path, title: str, categories: Sequence[str], series: Sequence[Series], xlabel: str,
              references: Sequence[tuple[float, str]] = (), *, overlay: bool = False, percent: bool = False) -> None:
    """Points with their 95% intervals, a row per category, the series side by side within a row
    (``overlay``: on the row's line, for series that split one set of points, each row in one);
    ``references`` are vertical lines (a fair share, no difference). ``percent``: the values are
    shares, and the axis writes them as the tables do (25%, not 0.25), so a reader comparing the
    figure with its table reads the same numbers."""
    side_by_side = 1 if overlay else len(series)
    fig = _figure(1.2 + 0.28 * len(categories) * max(1, min(side_by_side, 6)) ** 0.5 + 0.2 * side_by_side)
    ax = _axes(fig)
    step = 0.8 / max(1, side_by_side)
    for k, (s, colour) in enumerate(zip(series, _colours(len(series)), strict=True)):
        ys = [float(i) if overlay else i - 0.4 + step * (k + 0.5) for i in range(len(categories))]
        if s.lows is not None and s.highs is not None:
            err = [[v - lo for v, lo in zip(s.values, s.lows, strict=True)],
                   [hi - v for v, hi in zip(s.values, s.highs, strict=True)]]
            ax.errorbar(s.values, ys, xerr=err, fmt="o", color=colour, label=s.label, markersize=4, capsize=2)
        else:
            ax.plot(s.values, ys, "o", color=colour, label=s.label, markersize=4)
    for x, label in references:
        ax.axvline(x, color="0.4", linestyle="--", linewidth=0.8, label=label)
    ax.set_yticks(range(len(categories)), categories)
    ax.invert_yaxis()
    if percent:
        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", color="0.9")
    if len(series) > 1 or references:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    _save(fig, path)


def stacked(path: Path, title: str, categories: Sequence[str], parts: Sequence[Series], xlabel: str) -> None:
    """Horizontal bars made of parts (sources of points): positive parts to the right of 0, negative
    ones (deductions) to the left."""
    fig = _figure(1.4 + 0.45 * len(categories))
    ax = _axes(fig)
    right = [0.0] * len(categories)
    left = [0.0] * len(categories)
    for s, colour in zip(parts, _colours(len(parts)), strict=True):
        starts = [r if v >= 0 else lo for v, r, lo in zip(s.values, right, left, strict=True)]
        ax.barh(range(len(categories)), s.values, left=starts, color=colour, label=s.label, height=0.6)
        right = [r + max(v, 0) for v, r in zip(s.values, right, strict=True)]
        left = [lo + min(v, 0) for v, lo in zip(s.values, left, strict=True)]
    ax.axvline(0, color="0.2", linewidth=0.8)
    ax.set_yticks(range(len(categories)), categories)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    _save(fig, path)


def histograms(path: Path, title: str, bins: Sequence[str], series: Sequence[Series], xlabel: str) -> None:
    """The share of games in each bin, one line of steps per series (arms overlaid)."""
    fig = _figure(3.2)
    ax = _axes(fig)
    xs = list(range(len(bins)))
    edges = [x - 0.5 for x in xs] + [len(xs) - 0.5]
    for s, colour, width in zip(series, _colours(len(series)), _widths(len(series)), strict=True):
        ax.stairs([100 * v for v in s.values], edges, color=colour, label=s.label, linewidth=width)
    ax.set_ylim(bottom=0)
    ax.set_xticks(xs, bins, rotation=90 if len(bins) > 12 else 0, fontsize="small")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("% of games")
    ax.set_title(title)
    ax.grid(axis="y", color="0.9")
    if len(series) > 1:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    _save(fig, path)


def heatmap(path: Path, title: str, rows: Sequence[str], columns: Sequence[str],
            values: Sequence[Sequence[float]], label: str, fmt: str = "{:.2f}") -> None:
    """A table of numbers as colours, each cell written in, and the colour bar under it, as wide
    as the table and named (``label``): beside a table of one or two rows a vertical bar is too
    short for more than two ticks (0 and 1, when every cell is about 1.4), so the colours could
    not be read back as numbers. Its ticks are round numbers from 0 to the largest value."""
    fig = _figure(2.0 + 0.4 * len(rows))
    ax = _axes(fig)
    top = max((v for row in values for v in row), default=0.0)
    image = ax.imshow(values, cmap="Oranges", aspect="auto", vmin=0, vmax=top or 1)
    for i, row in enumerate(values):
        for j, v in enumerate(row):
            ax.text(j, i, fmt.format(v), ha="center", va="center", fontsize="small",
                    color="white" if top and v > 0.6 * top else "black")
    ax.set_xticks(range(len(columns)), columns)
    ax.set_yticks(range(len(rows)), rows)
    ax.set_title(title)
    bar = fig.colorbar(image, ax=ax, orientation="horizontal", location="bottom", fraction=0.08, aspect=40,
                       ticks=MaxNLocator(nbins=8, steps=[1, 2, 5, 10], min_n_ticks=4))
    bar.set_label(label)
    _save(fig, path)


def panels(path: Path, title: str, names: Sequence[str], lines: Sequence[Sequence[tuple[str, Sequence[float],
           Sequence[float]]]], xlabel: str, ylabel: str) -> None:
    """Small multiples: a panel per name, in each a line (x, y) per series, the same colours for
    the same series in every panel."""
    columns = min(3, len(names))
    rows = -(-len(names) // columns)
    fig = _figure(0.4 + 2.2 * rows)
    axes = fig.subplots(rows, columns, squeeze=False, sharex=True, sharey=True)
    labels = sorted({label for panel in lines for label, _, _ in panel}, key=[
        label for panel in lines for label, _, _ in panel].index)
    colour = dict(zip(labels, _colours(len(labels)), strict=True))
    width = dict(zip(labels, _widths(len(labels)), strict=True))
    for k, ax in enumerate(axes.flat):
        if k >= len(names):
            ax.set_visible(False)
            continue
        for label, xs, ys in lines[k]:
            ax.plot(xs, ys, marker=".", color=colour[label], label=label, linewidth=width[label])
        ax.set_title(names[k], fontsize="medium")
        ax.grid(color="0.9")
    for ax in axes[-1]:
        ax.set_xlabel(xlabel)
    for ax in axes[:, 0]:
        ax.set_ylabel(ylabel)
    fig.suptitle(title)
    if len(labels) > 1:
        handles, texts = axes.flat[0].get_legend_handles_labels()
        fig.legend(handles, texts, fontsize="small", loc="outside lower center", ncols=min(4, len(labels)))
    _save(fig, path)


def bars(path: Path, title: str, categories: Sequence[str], series: Sequence[Series], ylabel: str) -> None:
    """Grouped vertical bars with 95% intervals: a group per category, a bar per series."""
    fig = _figure(3.2)
    ax = _axes(fig)
    width = 0.8 / max(1, len(series))
    for k, (s, colour) in enumerate(zip(series, _colours(len(series)), strict=True)):
        xs = [i - 0.4 + width * (k + 0.5) for i in range(len(categories))]
        err = None
        if s.lows is not None and s.highs is not None:
            err = [[max(0.0, v - lo) for v, lo in zip(s.values, s.lows, strict=True)],
                   [max(0.0, hi - v) for v, hi in zip(s.values, s.highs, strict=True)]]
        ax.bar(xs, s.values, width=width, yerr=err, color=colour, label=s.label, capsize=2)
    ax.set_xticks(range(len(categories)), categories)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(axis="y", color="0.9")
    if len(series) > 1:
        ax.legend(fontsize="small")
    _save(fig, path)
