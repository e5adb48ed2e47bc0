"""What each player may see (placeholder: filled in with the observation rules)."""

from __future__ import annotations

from typing import Any

from ecliptic.engine.rng import Rng
from ecliptic.tauceti.state import State


def observe(state: State, player: int | None) -> dict[str, Any]:
    return {"round": state.round, "phase": state.phase}


def determinize(state: State, player: int, rng: Rng) -> State:
    return state.clone()
