"""A starship's systems: power from the Interface or a System Upgrade token, less damage.

Each Damage marker lowers its system's power by 1. A system whose damage
equals its power is destroyed; further damage still lands on it and must be
repaired (the designers' published ruling). Virus crystals (Advanced Rule 3)
count as damage that cannot be repaired.

Two things change what a starship can take and do: Advanced Rule 5 doubles every
damage incurred while transporting quark-gluon plasma (:func:`add_damage`, the one
place damage lands), and an acquired Exotic Tech card (Advanced Rule 6) adds to
a system's use (:func:`exotic_bonus`, :func:`move_allowance`).
"""

from __future__ import annotations

from ecliptic.engine.events import Event
from ecliptic.tauceti.content import ExoticEffect, ExoticTech
from ecliptic.tauceti.registry import say
from ecliptic.tauceti.state import State

PLASMA = "plasma"  # the commodity name of quark-gluon plasma (content)
PLASMA_RULE = 5  # Advanced Rule 5


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


def systems_view(state: State, seat: int) -> dict[str, dict[str, int | str | None]]:
    """Every system's printed power, damage, virus crystals, effective power and upgrade
    token, as :func:`power`, :func:`damage` and :func:`effective` give them one by one, read
    once for the whole Interface (the observation shows all of them at every step)."""
    p = state.players[seat]
    printed = state.faction(seat).systems
    token_of, damaged, infected = p.systems_tokens, p.damage, p.virus
    level = state.content.systems_token
    out: dict[str, dict[str, int | str | None]] = {}
    for system in state.content.systems:
        token = token_of.get(system)
        pw = printed[system] if token is None else level(token).level
        dm, vi = damaged.get(system, 0), infected.get(system, 0)
        out[system] = {"power": pw, "damage": dm, "virus": vi, "effective": max(0, pw - dm - vi), "token": token}
    return out


def destroyed(state: State, seat: int, system: str) -> bool:
    return damage(state, seat, system) >= power(state, seat, system)


def system_number(state: State, system: str) -> int:
    return state.content.systems.index(system) + 1


def transporting_plasma(state: State, seat: int) -> bool:
    """Advanced Rule 5: the player has picked up a pickup/deliver IM whose card carries
    quark-gluon plasma and not yet delivered it ("the card itself is considered the
    commodity")."""
    if not state.config.has(PLASMA_RULE):
        return False
    return any(m.picked_up and state.content.mission(m.card).commodity == PLASMA
               for m in state.players[seat].missions)


def add_damage(state: State, seat: int, system: str, ev: list[Event], cause: str) -> bool:
    """Put one point of damage on a system: one Damage marker, or two while transporting
    quark-gluon plasma ("If you incur damage while transporting it, that damage is
    doubled"). Markers come from the supply of 32; returns False when it is empty (the
    damage is not applied), and a doubled point takes only what is left."""
    if state.damage_supply <= 0:
        say(ev, "damage_supply_empty", "No Damage markers are left; the damage is not applied.")
        return False
    wanted = 2 if transporting_plasma(state, seat) else 1
    markers = min(wanted, state.damage_supply)
    state.damage_supply -= markers
    p = state.players[seat]
    p.damage = p.damage.set(system, p.damage.get(system, 0) + markers)
    doubled = " doubled by the quark-gluon plasma on board" if wanted == 2 else ""
    short = " (the last Damage marker of the supply)" if markers < wanted else ""
    say(ev, "damage", f"{p.faction} takes {markers} damage on {system} ({cause}){doubled}{short}.",
        seat=seat, system=system, cause=cause, markers=markers, doubled=wanted == 2)
    return True


def total_damage(state: State, seat: int) -> int:
    return sum(state.players[seat].damage.values())


# -- Exotic Tech (Advanced Rule 6) -------------------------------------------------------


def exotic(state: State, seat: int) -> ExoticTech | None:
    """The Exotic Tech card the player holds and can still use (a one-time card is gone
    once used)."""
    p = state.players[seat]
    if p.exotic_tech is None or p.exotic_spent:
        return None
    return state.content.exotic(p.exotic_tech)


def exotic_bonus(state: State, seat: int, effect: ExoticEffect) -> int:
    """What the player's Exotic Tech adds for ``effect`` (0 without one of that kind)."""
    card = exotic(state, seat)
    return card.amount if card is not None and card.effect == effect else 0


def move_allowance(state: State, seat: int) -> int:
    """Sectors one Move action may cover: the effective Propulsion power, plus the Fold
    Drive's extra sector. A destroyed propulsion system (effective power 0) moves nowhere:
    the Exotic Tech adds to a Move action, it does not replace the propulsion."""
    base = effective(state, seat, "propulsion")
    if base <= 0 or state.players[seat].exotic_tech is None:  # (without a card: no bonus to ask)
        return base if base > 0 else 0
    return base + exotic_bonus(state, seat, "move_sectors")
