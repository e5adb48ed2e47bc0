"""A starship's systems: power from the Interface or a System Upgrade token, less damage.

Each Damage marker lowers its system's power by 1. A system whose damage
equals its power is destroyed; further damage still lands on it and must be
repaired (the designers' published ruling). Virus crystals (Advanced Rule 3)
count as damage that cannot be repaired.
"""

from __future__ import annotations

from ecliptic.engine.events import Event
from ecliptic.tauceti.registry import say
from ecliptic.tauceti.state import State


def power(state: State, seat: int, system: str) -> int:
    """The printed power: the System Upgrade token's level, else the Interface's."""
    token = state.players[seat].systems_tokens.get(system)
    if token is not None:
        return state.content.systems_token(token).level
    return state.faction(seat).systems[system]


def damage(state: State, seat: int, system: str) -> int:
    p = state.players[seat]
    return p.damage.get(system, 0) + p.virus.get(system, 0)


def effective(state: State, seat: int, system: str) -> int:
    """Power left after damage; what dice pools, movement and cargo use."""
    return max(0, power(state, seat, system) - damage(state, seat, system))


def destroyed(state: State, seat: int, system: str) -> bool:
    return damage(state, seat, system) >= power(state, seat, system)


def system_number(state: State, system: str) -> int:
    return state.content.systems.index(system) + 1


def add_damage(state: State, seat: int, system: str, ev: list[Event], cause: str) -> bool:
    """Put one Damage marker on a system. Returns False when the supply of 32 is empty."""
    if state.damage_supply <= 0:
        say(ev, "damage_supply_empty", "No Damage markers are left; the damage is not applied.")
        return False
    state.damage_supply -= 1
    p = state.players[seat]
    p.damage[system] = p.damage.get(system, 0) + 1
    say(ev, "damage", f"{p.faction} takes 1 damage on {system} ({cause}).",
        seat=seat, system=system, cause=cause)
    return True


def total_damage(state: State, seat: int) -> int:
    return sum(state.players[seat].damage.values())
