"""The last actions taken at an adapter's table, as a seat's log shows them.

A video of a game is hard to follow from the boards alone: what just happened is what a
viewer looks for first. The ``rgb_array`` picture (:mod:`ecliptic.adapters.board_picture`)
draws the last few entries of this log, and the log is kept by the table, since an
observation says how the table is, not what changed.

What a seat reads here is what the server's log gives the same seat (docs/server.md,
"events addressed to it"): each action's number and the seat that took it, and the events
``Event.visible(seat)``, worded as the terminal's log words them (cards named, dice as dice
faces, private news marked ``(only you see this)``). Never an action's notation: it can
name a card played face down, so the server sends no seat another seat's notation, and a
seat's own notation says nothing its events do not. The log is bounded (``KEPT`` entries),
so it does not grow over a long game, and plain data, so a table still pickles and copies.
"""

from __future__ import annotations

import textwrap
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ecliptic.engine.events import Event

KEPT = 24
"""Entries kept: more than a frame has lines for, so the frame is always full once a game
has gone on a while."""


@dataclass(frozen=True)
class Entry:
    """One action's entry: its number in the game (0: the setup, before any action), the seat
    that took it (``None`` for the setup) and every event it reported, hidden or not (what a
    seat may read is chosen when the log is drawn for it)."""

    index: int
    seat: int | None
    events: tuple[Event, ...]


class ActionLog:
    """The table's last ``KEPT`` entries, oldest first."""

    def __init__(self, kept: int = KEPT) -> None:
        self.entries: deque[Entry] = deque(maxlen=kept)
        self.count = 0
        """Actions taken since the setup: the number of the last entry."""

    def start(self, events: Iterable[Event] = ()) -> None:
        """A new game: the log holds only its setup's events."""
        self.entries.clear()
        self.count = 0
        setup = tuple(events)
        if setup:
            self.entries.append(Entry(0, None, setup))

    def record(self, seat: int | None, events: Iterable[Event]) -> None:
        """``seat``'s action was applied and reported ``events``."""
        self.count += 1
        self.entries.append(Entry(self.count, seat, tuple(events)))

    def lines(self, game: str, obs: dict[str, Any], seat: int, width: int, rows: int) -> list[str]:
        """The log as ``seat`` reads it (``obs`` is its observation, which names the seats),
        lines of at most ``width`` characters, newest last: the last whole entries that fit
        ``rows`` lines (of an entry longer than that, its first lines and ``…``)."""
        out: list[str] = []
        for entry in reversed(self.entries):
            block = entry_lines(entry, game, obs, seat, width)
            if len(out) + len(block) > rows:
                if not out and rows > 0:
                    out = [*block[:rows - 1], "  …"]
                break
            out = block + out
        return out


def seat_name(obs: dict[str, Any], seat: int) -> str:
    """A seat as its log heading names it: its faction (Tau Ceti) or its name (Ceres)."""
    players = obs.get("players", [])
    if 0 <= seat < len(players):
        p = players[seat]
        return str(p.get("faction") or p.get("name") or f"Seat {seat + 1}")
    return f"Seat {seat + 1}"


def entry_lines(entry: Entry, game: str, obs: dict[str, Any], seat: int, width: int) -> list[str]:
    """``entry`` as ``seat`` reads it: the action's heading (``#12 Xunon``, or ``Setup``) and
    the first event it may see on one line, its other events under it, each wrapped under its
    bullet; an action whose every event is hidden from it keeps its heading, as the server's
    log does."""
    from ecliptic.ui import terminal

    heading = "Setup" if entry.seat is None else f"#{entry.index} {seat_name(obs, entry.seat)}"
    seen = [terminal.render_event(e, game).plain for e in entry.events if e.visible(seat)]
    if not seen:
        return [f"{heading}: nothing you may see"]
    out: list[str] = []
    for i, text in enumerate(seen):
        first = f"{heading} " if i == 0 else "  "
        out.extend(textwrap.wrap(text, width, initial_indent=first, subsequent_indent="    ") or [first.rstrip()])
    return out
