"""A human label for each legal action, the same in the terminal and the browser.

The label is the action's notation followed by what its ids stand for, read off the printed
components and the seat's observation (a card's face, a tile's name, the Asteroid a LAUNCH
reaches and the Ice it costs): ``GO 05 (Tau Ceti Prime)``. The notes are the terminal
menu's own (:func:`ecliptic.ui.terminal.annotate`, :func:`ecliptic.ui.ceres_terminal.annotate`),
so the two front ends never describe an action differently.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ecliptic.engine.actions import Action


def note(game: str, obs: dict[str, Any], action: Action) -> str:
    """What ``action`` stands for, or ``""`` when its notation says it all."""
    if game == "ceres":
        from ecliptic.ui import ceres_terminal

        return ceres_terminal.annotate(obs, action)
    from ecliptic.ui import terminal

    return terminal.annotate(action)


def label(game: str, obs: dict[str, Any], action: Action) -> str:
    text = note(game, obs, action)
    return f"{action} ({text})" if text else str(action)


def labelled(game: str, obs: dict[str, Any], actions: Sequence[Action]) -> list[tuple[Action, str]]:
    """Each action with its label, in the given (the engine's sorted) order."""
    return [(a, label(game, obs, a)) for a in actions]
