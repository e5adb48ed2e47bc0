"""The TAU, Energy and Materials tracks, with their limits.

TAU and Energy go up to 49 with the +Marker; gains past that are lost and
nothing ever goes below 0 (see docs/rules-decisions.md).
"""

from __future__ import annotations

from ecliptic.tauceti.state import State


def gain_tau(state: State, seat: int, amount: int) -> int:
    """Add (or with a negative amount, remove) TAU within 0..49; returns the real change."""
    p = state.players[seat]
    new = max(0, min(state.content.numbers.track_cap, p.tau + amount))
    changed = new - p.tau
    p.tau = new
    return changed


def gain_energy(state: State, seat: int, amount: int) -> int:
    """Add (or remove) energy within 0..49; returns the real change."""
    p = state.players[seat]
    new = max(0, min(state.content.numbers.track_cap, p.energy + amount))
    changed = new - p.energy
    p.energy = new
    return changed


def markers_left(state: State, seat: int) -> int:
    """The Action markers the seat can still use this round (neither used nor lost)."""
    p = state.players[seat]
    return state.content.numbers.action_markers - p.markers_lost - p.markers_used


def recruit_cost(state: State, seat: int) -> int:
    """The number to the right of the Materials marker."""
    p = state.players[seat]
    return state.faction(seat).materials_track[p.materials]


def materials_max(state: State, seat: int) -> int:
    return len(state.faction(seat).materials_track) - 1


def move_materials(state: State, seat: int, steps: int) -> int:
    """Move the Materials marker right (more materials) or left; returns the real move."""
    p = state.players[seat]
    new = max(0, min(materials_max(state, seat), p.materials + steps))
    moved = new - p.materials
    p.materials = new
    return moved
