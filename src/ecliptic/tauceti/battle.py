"""Battle phase (placeholder until the battle rules land)."""

from __future__ import annotations

from ecliptic.engine.events import Event
from ecliptic.tauceti.state import State


def next_battle(state: State, ev: list[Event]) -> bool:
    """Start or continue the next battle; False when no battle is left this round."""
    state.battles.clear()
    return False
