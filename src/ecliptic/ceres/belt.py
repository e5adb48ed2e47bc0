"""The Asteroid Belt: three rings across numbered Zones, rotating each round.

The Zones are fixed places on the board, numbered 1..Z clockwise; the rings turn under
them. An Asteroid starts in the Zone of its ``position`` and, after its ring has turned
``k`` steps, is ``k`` Zones further clockwise (toward higher Zone numbers, wrapping).
Comet tokens keep their Zone and only move inward (see :mod:`ecliptic.ceres.comets`).

Also here: what every probe landing shares — paying Ice by ring, claiming an Asteroid,
and gaining depicted Resources and Victory Points.
"""

from __future__ import annotations

from collections.abc import Mapping

from ecliptic.ceres.content import Content
from ecliptic.ceres.registry import say
from ecliptic.ceres.state import State
from ecliptic.engine.events import Event
from ecliptic.engine.wording import plural


def zone_of(state: State, asteroid: str) -> int:
    """The Zone an Asteroid is in now (CR-BELT-1)."""
    a = state.content.asteroid(asteroid)
    return _zone(a.position, state.rotation.get(a.ring, 0), state.content.numbers.zones)


def zones(state: State) -> dict[str, int]:
    """:func:`zone_of` of every Asteroid, in the content's order, in one pass (the observation
    shows every Asteroid's Zone at every step)."""
    count, rotation = state.content.numbers.zones, state.rotation
    return {a.id: _zone(a.position, rotation.get(a.ring, 0), count) for a in state.content.asteroids}


def _zone(position: int, turned: int, count: int) -> int:
    """The Zone of the printed ``position`` on a ring turned ``turned`` Zones."""
    return (position - 1 + turned) % count + 1


def asteroids_in_zone(state: State, zone: int) -> list[str]:
    """The Asteroids of every ring that are in ``zone`` now, outermost ring first."""
    rings = state.content.numbers.rings
    found = [x for x, z in zones(state).items() if z == zone]
    return sorted(found, key=lambda a: rings.index(state.content.asteroid(a).ring))


def available(state: State, asteroid: str) -> bool:
    """An Asteroid is available while no Mining Probe is on it."""
    return asteroid not in state.claims


def launch_cost(state: State, ring: str) -> int:
    """Ice paid to Launch to ``ring``: farther costs more (CR-ACT-2)."""
    return ring_launch_cost(state.content, ring)


def ring_launch_cost(content: Content, ring: str) -> int:
    """:func:`launch_cost` from the components alone (for a front end that has no state)."""
    return content.numbers.launch_ice[ring]


def rotate(state: State, ev: list[Event]) -> None:
    """The Asteroid Belt phase's rotation: each ring turns its number of steps (CR-BELT-1)."""
    numbers = state.content.numbers
    for ring in numbers.rings:
        state.rotation[ring] = (state.rotation.get(ring, 0) + numbers.rotation[ring]) % numbers.zones
    steps = ", ".join(f"{ring} {plural(numbers.rotation[ring], 'Zone')}" for ring in numbers.rings)
    say(ev, "rotate", f"The Asteroid Rings rotate ({steps}).", rotation=dict(state.rotation))


def gain(
    state: State, seat: int, resources: Mapping[str, int], vp: int, source: str, why: str, ev: list[Event],
    rule: str | None = None,
) -> None:
    """A player gains depicted Resources and Victory Points (``source`` files the VP for scoring);
    ``rule`` goes into the event's data, not its text (the player's log shows no rule ids)."""
    p = state.players[seat]
    for resource, n in resources.items():
        p.resources[resource] = p.resources.get(resource, 0) + n
    if vp:
        p.vp[source] = p.vp.get(source, 0) + vp
    if resources or vp:
        parts = [f"{n} {r}" for r, n in resources.items()] + ([f"{vp} VP"] if vp else [])
        say(ev, "gain", f"Player {seat + 1} gains {', '.join(parts)} ({why}).",
            seat=seat, resources=dict(resources), vp=vp, source=source, rule=rule)


def pay_ice(state: State, seat: int, ice: int, ev: list[Event]) -> None:
    p = state.players[seat]
    p.resources["Ice"] = p.resources.get("Ice", 0) - ice
    say(ev, "pay", f"Player {seat + 1} pays {ice} Ice.", seat=seat, ice=ice)


def claim(state: State, seat: int, asteroid: str, ev: list[Event]) -> None:
    """A Mining Probe lands on an Asteroid: the player claims it and gains its Resources and
    Victory Points now (CR-ACT-5, CC-PROD-6); its income comes in later Production phases."""
    a = state.content.asteroid(asteroid)
    state.claims[asteroid] = seat
    say(ev, "claim", f"Player {seat + 1} claims Asteroid {asteroid} ({a.ring} Ring, Zone {zone_of(state, asteroid)}).",
        seat=seat, asteroid=asteroid)
    gain(state, seat, a.resources, a.vp, "asteroids", f"Asteroid {asteroid}", ev)
