#!/usr/bin/env python3
"""Bring each game's committed action id table (``src/ecliptic/<game>/content/action-ids.toml``)
up to date with what its rules can offer.

When the rules' domain differs from the table's latest version, the script appends one version:
new actions get the next ids (in sorted order), actions the rules no longer offer are retired
(their ids stay, never reused), actions offered again are revived under their old ids. It never
reorders or renumbers, so a checkpoint trained on an older version keeps its meaning
(docs/action-ids.md). A game without a table gets version 1: its domain in sorted order.

Usage: ``python scripts/build-action-ids.py`` (write) or ``--check`` (exit 1 when out of date);
``tests/test_action_ids.py`` fails while a table is out of date.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from ecliptic.engine import action_ids  # noqa: E402
from ecliptic.games import get_game  # noqa: E402

GAMES = ("tauceti", "ceres")


def table_path(game: str) -> Path:
    package = get_game(game).action_ids_package
    return ROOT.joinpath("src", *package.split("."), "action-ids.toml")


def build(game: str) -> tuple[action_ids.IdTable, bool]:
    """The game's table brought up to date, and whether that changed it."""
    g = get_game(game)
    path, prefix, domain = table_path(game), f"{g.name}-actions", g.action_domain()
    if not path.exists():
        return action_ids.first(prefix, domain), True
    table = action_ids.parse(path.read_text(), prefix, str(path.relative_to(ROOT)))
    updated = action_ids.update(table, domain)
    return updated, updated is not table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only report; exit 1 when a table is out of date")
    args = parser.parse_args(argv)
    stale = 0
    for game in GAMES:
        table, changed = build(game)
        path = table_path(game)
        if not changed:
            print(f"{game}: {table.version} is up to date ({table.space().size} ids)")
            continue
        step = table.versions[-1]
        what = f"+{len(step.added)} added, {len(step.retired)} retired, {len(step.revived)} revived"
        if args.check:
            stale += 1
            print(f"{game}: out of date, would write {step.name} ({what})")
        else:
            path.write_text(action_ids.render(table, get_game(game).title))
            print(f"{game}: wrote {step.name} ({what}) to {path.relative_to(ROOT)}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
