"""Conservation laws of the components, checked after every action in property tests.

Every counted component is in exactly one place, and the counts match the
rulebook's component list; no track or count is negative. :func:`problems`
returns what is wrong in words (an empty list for a sound state).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import chain
from typing import Any

from ecliptic.engine.invariants import exactly_once
from ecliptic.tauceti.state import State


def _ids_in(value: Any) -> Iterator[str]:
    """Card and token ids held in pending decisions (a card being chosen is in nobody's hand)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _ids_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from _ids_in(v)


def _exactly_once(name: str, expected: set[str], places: Sequence[Sequence[str]], out: list[str]) -> None:
    """The places may also hold other things (a decision's data), so only ``expected`` counts."""
    exactly_once(name, expected, chain.from_iterable(places), out, others=False)


def problems(state: State) -> list[str]:
    c = state.content
    n = c.numbers
    out: list[str] = []
    pending = [list(_ids_in(d.data)) for d in state.stack]
    # Decisions may mention a card that is also elsewhere (e.g. the card being played);
    # they are a place only for cards found nowhere else.
    hands = [p.hand for p in state.players] + [p.face_up for p in state.players]

    def places(*lists: Sequence[str]) -> list[Sequence[str]]:
        found = {x for place in lists for x in place}
        extra = [[x for x in ids if x not in found] for ids in pending]
        return [*lists, *extra]

    _exactly_once("Crisis cards", {x.id for x in c.crisis_cards},
                  places(state.crisis_deck, state.crisis_discard, state.enlightenment.active, *hands), out)
    _exactly_once("Specialist cards",
                  {x.id for x in c.specialists if not x.advanced or state.config.advanced_specialists},
                  places(state.specialist_deck, state.specialist_discard, state.enlightenment.active,
                         *hands), out)
    _exactly_once("Knowledge cards", {x.id for x in c.knowledge_cards},
                  places(state.knowledge_deck, state.knowledge_discard), out)
    _exactly_once("Mission cards", {x.id for x in c.missions},
                  places(state.mission_deck, state.mission_discard,
                         *[[m.card for m in p.missions] for p in state.players]), out)
    _exactly_once("Crisis tokens", {x.id for x in c.crisis_tokens},
                  [*state.crisis_stacks.values(), *state.planet_crises.values()], out)
    _exactly_once("Commodity tokens", {x.id for x in c.commodity_tokens},
                  [list(state.planet_commodity.values()), state.demand_pile, state.supply,
                   *[[h.token for h in p.holdings] for p in state.players]], out)
    _exactly_once("Systems tokens", {x.id for x in c.systems_tokens},
                  [state.depot_systems, *[list(p.systems_tokens.values()) for p in state.players]], out)
    _exactly_once("GP tokens", {x.id for x in c.gp_tokens},
                  places(state.gp_supply, *[p.gp_tokens for p in state.players]), out)
    _exactly_once("Exotic Tech cards", {x.id for x in c.exotic_tech},
                  [state.exotic_deck, *[[p.exotic_tech] if p.exotic_tech else [] for p in state.players]], out)
    # Knowledge tokens: 4 of each type.
    for t in c.knowledge_types:
        count = (
            sum(1 for pt in state.points.values() if pt.token == t)
            + state.outer_limit_knowledge.count(t)
            + state.depot_knowledge.get(t, 0)
            + sum(p.knowledge.get(t, 0) for p in state.players)
        )
        if count != 4:
            out.append(f"Knowledge tokens of type {t}: {count} instead of 4")
    # Resource cubes by colour.
    for f in c.factions:
        seat = state.seat_of_faction(f.name)
        expected = n.cubes_per_faction if seat is not None else n.npc_cubes_per_colour
        count = state.bag.count(f.name) + sum(cubes.count(f.name) for cubes in state.cubes.values())
        if seat is not None and state.players[seat].cargo_cube:
            count += 1
        if count != expected:
            out.append(f"{f.name} Resource cubes: {count} instead of {expected}")
        if seat is not None and expected - state.bag.count(f.name) > n.cubes_out_max:
            out.append(f"{f.name} has more than {n.cubes_out_max} Resource cubes out of the bag")
    # Orbitals, Damage markers, Diplomacy cards.
    for p in state.players:
        on_tiles = sum(owners.count(p.seat) for owners in state.orbitals.values())
        if p.orbitals_home + on_tiles != 4 or p.orbitals_home < 0:
            out.append(f"{p.faction} orbitals: {p.orbitals_home} home + {on_tiles} placed != 4")
    damage = sum(sum(p.damage.values()) for p in state.players)
    if damage + state.damage_supply != n.damage_markers:
        out.append(f"Damage markers: {damage} placed + {state.damage_supply} in supply != {n.damage_markers}")
    if state.diplomacy_left + sum(p.diplomacy for p in state.players) != n.diplomacy_cards:
        out.append("Diplomacy cards are not conserved")
    _virus_crystals(state, out)
    # Nothing negative, tracks within bounds.
    for p in state.players:
        f = c.faction(p.faction)
        if not 0 <= p.tau <= n.track_cap:
            out.append(f"{p.faction} TAU {p.tau} outside 0..{n.track_cap}")
        if not 0 <= p.energy <= n.track_cap:
            out.append(f"{p.faction} energy {p.energy} outside 0..{n.track_cap}")
        if not 0 <= p.materials < len(f.materials_track):
            out.append(f"{p.faction} Materials marker off the track")
        if any(v < 0 for v in p.knowledge.values()) or any(v < 0 for v in p.damage.values()):
            out.append(f"{p.faction} has a negative count")
        if p.markers_used + p.markers_lost > n.action_markers:
            out.append(f"{p.faction} used more Action markers than it has")
    for r, level in state.market.items():
        if not 1 <= level <= n.market_levels:
            out.append(f"Market level of {r} is {level}")
    if len(state.demand_pile) != n.demand_pile:
        out.append(f"the Demand pile holds {len(state.demand_pile)} tokens instead of {n.demand_pile}")
    return out


def _virus_crystals(state: State, out: list[str]) -> None:
    """Advanced Rule 3: the 4 crystals are in the supply, on planets or in starship systems,
    and "will remain in the star system for the duration of the game"."""
    n = state.content.numbers
    on_planets = sum(state.virus_on.values())
    on_ships = sum(sum(p.virus.values()) for p in state.players)
    if state.virus_supply + on_planets + on_ships != n.virus_crystals:
        out.append(f"virus crystals: {state.virus_supply} in supply + {on_planets} on planets + "
                   f"{on_ships} on starships != {n.virus_crystals}")
    counts = [state.virus_supply, *state.virus_on.values(), *(v for p in state.players for v in p.virus.values())]
    if any(v < 0 for v in counts):
        out.append("a negative count of virus crystals")
    if any(not state.content.tile(t).is_planet for t in state.virus_on):
        out.append("a virus crystal lies outside a planet")
    if not state.config.has(3) and state.virus_supply != n.virus_crystals:
        out.append("virus crystals left the supply without Advanced Rule 3")
