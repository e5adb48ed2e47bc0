"""Move (MOV) and Repair (REP): flying the starship across the star system, and fixing it.

Move: "The amount of sectors you may travel in one Move action is based on your
Propulsion power." The ship goes one sector per ``GO`` so that every hazard is
settled where it is met (the player allocates cosmic-energy or asteroid damage,
or chooses to roll for a wormhole) before flying on. Flying into an empty space
next to the ship draws the top Outer Limit tile and puts the top Knowledge token
of the Outer Limit stack face down on it. TAU CETI cannot be moved through. A starship
bound to a pickup/deliver IM flies only on a minimum route to its pickup, then its delivery
sector (TC-IM-4, :class:`_Route`).

Repair: "Each Damage marker costs 1T to repair on a planet, and 2T to repair in
space (any non-planetary sector)." Virus crystals count as damage but cannot be
repaired.

The choices this module makes where the rulebook is silent are listed in
docs/decisions/movement.md.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ecliptic.engine.actions import Action, act
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.engine.frozendict import FrozenDict
from ecliptic.engine.wording import plural
from ecliptic.tauceti import board, checks, ship
from ecliptic.tauceti.actions import missions
from ecliptic.tauceti.content import Content
from ecliptic.tauceti.registry import decision_kind, illegal, not_an_option, say, verb, when_legal
from ecliptic.tauceti.state import Decision, Point, State
from ecliptic.tauceti.tracks import gain_energy, gain_tau

PROPULSION = "propulsion"
SHIELDS = "shields"
SAFE_ROLL = 5  # "If 5 or 6, nothing happens" / "you go through the wormhole"
JUMP = act("JUMP")
STOP = act("STOP")
REP = act("REP")
MOV = act("MOV")


def _name(state: State, tile: str) -> str:
    return state.content.tile(tile).name


def _kind(state: State, tile: str) -> str:
    return state.content.tile(tile).kind


# -- Move (MOV) -------------------------------------------------------------------------


def propulsion(state: State, seat: int) -> int:
    """Sectors one Move action may cover: the effective (damage-reduced) Propulsion power."""
    return ship.effective(state, seat, PROPULSION)


def _mov_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    if a != MOV:
        return illegal("TC-MOV-2", "MOV takes no arguments; you choose each sector once you are moving")
    if ship.move_allowance(state, seat) <= 0:
        return illegal("TC-MOV-1", "your propulsion is destroyed: your starship cannot move until you "
                       "repair it")
    return None


def _mov_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    p = state.players[seat]
    left = ship.move_allowance(state, seat)
    state.stack.append(Decision("move", seat, {"left": left, "jump": False, "path": [p.position]}))
    say(ev, "move_start", f"{p.faction} may travel up to {plural(left, 'sector')} from "
        f"{_name(state, p.position)}.", seat=seat, sectors=left, start=p.position)


_mov_options = when_legal(MOV, _mov_why_not)
verb(
    "MOV",
    major="MOV",
    options=_mov_options,
    why_not=_mov_why_not,
    perform=_mov_perform,
    domain=lambda c: (act("MOV"),),
    legal=_mov_options,
)


# -- the move decision: GO, JUMP, STOP ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Route:
    """The minimum route a starship bound to a pickup/deliver IM must keep to ("go directly on
    that route and make the delivery before pursuing any other actions", TC-IM-4): the sectors
    left to its pickup sector (until it is picked up), then to its delivery sector, counted from
    every tile on the map (the wormhole hop as zero sectors), and ``reach``, the length of the
    shortest route the ship can take from where it is now (the hop only right after entering
    the wormhole, when JUMP is offered)."""

    card: str
    target: str
    dist: Mapping[str, int]
    reach: int

    def on_route(self, tile: str) -> bool:
        """Does one sector into ``tile`` begin a shortest route from here?"""
        return tile in self.dist and 1 + self.dist[tile] == self.reach


def _route(state: State, d: Decision) -> _Route | None:
    """The route the player's starship must keep to, or ``None``: not bound to a delivery, or
    no route on the map yet (then the way is found by flying into uncharted space, and every
    move stays open so that the player can never be stranded)."""
    bound = missions.errand_route(state, d.player)
    if bound is None:
        return None
    card, target, counted = bound
    dist = board.distances_to(state, target) if counted is None else counted
    here = state.players[d.player].position
    if here == target:
        return _Route(card, target, dist, 0)
    steps = [1 + dist[n] for n in board.adjacent_tiles(state, here) if n in dist]
    if d.data["jump"]:
        steps.extend(dist[w] for w in board.wormholes_on_map(state) if w != here and w in dist)
    return _Route(card, target, dist, min(steps)) if steps else None


def _move_options(state: State, d: Decision) -> Iterator[Action]:
    """While propulsion is left, each neighbouring position: a passable tile, or empty space
    on the table while Outer Limit tiles are left to draw (for a starship bound to a delivery,
    only the sectors on its minimum route); JUMP right after entering a working wormhole (the
    hop is zero sectors: never off the route); STOP. These are what ``_move_why_not`` checks,
    so every option is legal (the kind registers them as its ``legal``)."""
    here = state.players[d.player].position
    if d.data["left"] > 0:
        route = _route(state, d)
        where = board.occupied(state)
        for cell in board.neighbour_cells(state.layout[here]):
            tile = where.get(cell)
            if tile is not None:
                if board.passable(state, tile) and (route is None or route.on_route(tile)):
                    go = _GO.get(tile)
                    if go is None:
                        go = _GO[tile] = act("GO", tile)
                    yield go
            elif (route is None and state.outer_limit_stack
                  and board.distance_from_centre(cell) <= board.BOARD_RADIUS):
                yield act("GO", board.cell_name(cell))
    if d.data["jump"]:
        yield JUMP
    yield STOP


_GO: dict[str, Action] = {}
"""GO <tile>, written once per tile (an action is immutable text: it never changes)."""


def _enter_why_not(state: State, here: str, target: str) -> IllegalAction | None:
    """Moving into a tile already on the map."""
    if target not in state.layout:
        return illegal("TC-MOV-1", f"there is no sector {target} on the map")
    if not board.passable(state, target):
        return illegal("TC-MOV-3", "TAU CETI cannot be moved through or into")
    if state.layout[target] not in board.neighbour_cells(state.layout[here]):
        return illegal("TC-MOV-1", f"{_name(state, target)} is not next to {_name(state, here)}; "
                       "you move one sector at a time")
    return None


def _draw_why_not(state: State, here: str, target: str, cell: board.Cell) -> IllegalAction | None:
    """Flying into an empty space, which draws an Outer Limit tile."""
    if board.cell_name(cell) != target:
        return illegal("TC-MOV-2", f"write the position as q,r (e.g. {board.cell_name(cell)})")
    if cell in board.occupied(state):
        return not_an_option("TC-MOV-2", f"a tile already lies at {target}; move there with GO <sector>")
    if board.distance_from_centre(cell) > board.BOARD_RADIUS:
        return illegal("TC-SETUP-1", f"{target} is off the edge of the table (at most {board.BOARD_RADIUS} "
                       "tiles from TAU CETI)")
    if cell not in board.neighbour_cells(state.layout[here]):
        return illegal("TC-MOV-1", f"{target} is not next to {_name(state, here)}; you move one sector "
                       "at a time")
    if not state.outer_limit_stack:
        return illegal("TC-SETUP-1", "every Outer Limit tile has been drawn; there is nothing more to discover")
    return None


def _move_why_not(state: State, d: Decision, a: Action) -> IllegalAction | None:
    if a.verb in ("STOP", "JUMP") and a.args:
        return illegal("TC-MOV-2", f"{a.verb} takes no arguments")
    if a.verb == "STOP":
        return None
    if a.verb == "JUMP":
        if d.data["jump"]:
            return None
        if _kind(state, state.players[d.player].position) == "wormhole" and not board.wormholes_work(state):
            return illegal("TC-MOV-7", "BOTH wormhole sectors must be present in the star system for a "
                           "wormhole to work")
        return illegal("TC-MOV-6", "you may try a wormhole once, right after moving into it")
    if a.verb != "GO" or len(a.args) != 1:
        return illegal("TC-MOV-2", "while moving: GO <sector>, GO q,r (into uncharted space), JUMP or STOP")
    if d.data["left"] <= 0:
        return illegal("TC-MOV-1", "you have used all your propulsion for this Move action")
    route = _route(state, d)
    if route is not None and route.reach == 0:  # (at the pickup or delivery sector: no GO at all, near or far)
        return _off_route(state, d, None)
    here = state.players[d.player].position
    cell = board.parse_cell(a.args[0])
    if cell is not None:
        why = _draw_why_not(state, here, a.args[0], cell)
    else:
        why = _enter_why_not(state, here, a.args[0])
    return why if why is not None else _off_route(state, d, None if cell is not None else a.args[0])


def _off_route(state: State, d: Decision, tile: str | None) -> IllegalAction | None:
    """A possible step into ``tile`` (``None``: into uncharted space) that leaves the minimum
    route of the delivery the player is bound to."""
    route = _route(state, d)
    if route is None or (tile is not None and route.on_route(tile)):
        return None
    card = state.content.mission(route.card)
    goal = "deliver it" if card.pickup != route.target else "pick it up"
    where = _name(state, route.target)
    if route.reach == 0:
        return illegal("TC-IM-4", f"your starship is in {where}: {goal} before moving on with IM {card.id}")
    steps = [str(a) for a in _move_options(state, d) if a.verb == "GO"]
    way = f" ({' or '.join(steps)})" if steps else ""
    return illegal("TC-IM-4", f"IM {card.id}: go directly on the minimum route to {where} and {goal} "
                   f"before pursuing any other actions{way}")


def _draw_outer_limit(state: State, seat: int, cell: board.Cell, ev: list[Event]) -> str:
    """Place the top Outer Limit tile at ``cell`` with the top Outer Limit Knowledge token
    face down on its Exploration point."""
    tile, state.outer_limit_stack = state.outer_limit_stack[0], state.outer_limit_stack[1:]
    state.layout = state.layout.set(tile, cell)
    where = board.cell_name(cell)
    token_text = ""
    if state.outer_limit_knowledge:
        point = f"{tile}.1"
        token, state.outer_limit_knowledge = state.outer_limit_knowledge[0], state.outer_limit_knowledge[1:]
        state.points = state.points.set(point, Point(point, tile, token))
        token_text = ", with a Knowledge token face down on it"
    say(ev, "outer_limit", f"{state.players[seat].faction} flies into uncharted space: "
        f"{_name(state, tile)} is drawn and placed at {where}{token_text}.",
        seat=seat, tile=tile, cell=where)
    return tile


def _go_perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    p = state.players[d.player]
    cell = board.parse_cell(a.args[0])
    tile = a.args[0] if cell is None else _draw_outer_limit(state, d.player, cell, ev)
    p.position = tile
    d.data["left"] -= 1
    d.data["path"].append(tile)
    d.data["jump"] = _kind(state, tile) == "wormhole" and board.wormholes_work(state)
    say(ev, "move", f"{p.faction} moves into {_name(state, tile)} ({plural(d.data['left'], 'sector')} of "
        "propulsion left).", seat=d.player, tile=tile, left=d.data["left"])
    if d.data["left"] <= 0 and not d.data["jump"]:
        state.stack.pop()  # the damage decision, if any, is then settled above the turn
    _hazard(state, d.player, tile, ev)
    if state.config.has(3) and board.is_planet(state, tile):
        _virus_on_entry(state, d.player, tile, ev)


def _hazard(state: State, seat: int, tile: str, ev: list[Event]) -> None:
    kind = _kind(state, tile)
    if kind == "cosmic_energy":
        _shields_roll(state, seat, tile, ev, energy_on_negative=True)
    elif kind == "asteroid_field":
        _shields_roll(state, seat, tile, ev, energy_on_negative=False)


def _shields_roll(state: State, seat: int, tile: str, ev: list[Event], *, energy_on_negative: bool) -> None:
    """Cosmic energy and asteroid fields: roll 1 die; 5-6 is safe, else the die minus Shields power
    is damage when positive (and, for cosmic energy only, energy gained when negative)."""
    p = state.players[seat]
    die = state.rng.d6()
    shields = ship.effective(state, seat, SHIELDS)
    where = _name(state, tile)
    if die >= SAFE_ROLL:
        say(ev, "hazard", f"{p.faction} rolls {die} in {where}: nothing happens.",
            seat=seat, tile=tile, die=die, result=0)
        return
    result = die - shields
    text = f"{p.faction} rolls {die} in {where}, minus Shields power {shields} = {result}"
    if result > 0:
        say(ev, "hazard", f"{text}: {result} damage.", seat=seat, tile=tile, die=die, result=result)
        checks.begin_damage(state, seat, result, where, ev)
    elif result < 0 and energy_on_negative:
        got = gain_energy(state, seat, -result)
        say(ev, "hazard", f"{text}: +{got} energy.", seat=seat, tile=tile, die=die, result=result, energy=got)
    else:
        say(ev, "hazard", f"{text}: nothing happens.", seat=seat, tile=tile, die=die, result=result)


def _jump_perform(state: State, d: Decision, ev: list[Event]) -> None:
    """Roll for the wormhole: 5-6 goes to the other wormhole (zero sectors); 1-4 minus
    Propulsion power, when positive, is energy lost."""
    p = state.players[d.player]
    d.data["jump"] = False
    die = state.rng.d6()
    here = p.position
    if die >= SAFE_ROLL:
        other = next(w for w in board.wormholes_on_map(state) if w != here)
        p.position = other
        d.data["path"].append(other)
        say(ev, "wormhole", f"{p.faction} rolls {die} and goes through the wormhole to "
            f"{_name(state, other)} (zero sectors travelled).", seat=d.player, die=die, tile=other)
    else:
        power = propulsion(state, d.player)
        result = die - power
        lost = -gain_energy(state, d.player, -result) if result > 0 else 0
        say(ev, "wormhole", f"{p.faction} rolls {die} at {_name(state, here)}, minus Propulsion power "
            f"{power} = {result}: the wormhole does not open" + (f"; -{lost} energy." if lost else "."),
            seat=d.player, die=die, result=result, energy=-lost)
    if d.data["left"] <= 0:
        state.stack.pop()


def _move_perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    if a.verb == "GO":
        _go_perform(state, d, a, ev)
    elif a.verb == "JUMP":
        _jump_perform(state, d, ev)
    else:
        state.stack.pop()
        p = state.players[d.player]
        say(ev, "move_stop", f"{p.faction} stops in {_name(state, p.position)}.",
            seat=d.player, tile=p.position)


def _move_domain(c: Content) -> Iterator[Action]:
    yield act("STOP")
    yield act("JUMP")
    for t in c.tiles:
        if t.kind != "tau_ceti":
            yield act("GO", t.id)
    for cell in board.cells_within(board.BOARD_RADIUS):
        yield act("GO", board.cell_name(cell))


decision_kind(
    "move",
    options=_move_options,
    why_not=_move_why_not,
    perform=_move_perform,
    domain=_move_domain,
    legal=_move_options,
    # _move_why_not accepts exactly the options (a GO position only in its q,r notation)
    offers="why_not",
    unique=True,  # (each neighbouring position once, JUMP, STOP)
)


# -- virus crystals (Advanced Rule 3) -------------------------------------------------------


def _virus_on_entry(state: State, seat: int, planet: str, ev: list[Event]) -> None:
    """Entering a planet: "they absorb the virus crystal" (every crystal there, compulsory),
    then the crystals carried in may be dropped off ("he can drop the virus crystal off
    there"). Both are settled in one ``virus`` decision above the move."""
    absorb = state.virus_on.get(planet, 0)
    carried = sum(state.players[seat].virus.values())
    if absorb == 0 and carried == 0:
        return
    state.stack.append(Decision("virus", seat, {"planet": planet, "absorb": absorb, "drop": carried}))
    if absorb:
        say(ev, "virus_absorb", f"{state.players[seat].faction} absorbs {plural(absorb, 'virus crystal')} on "
            f"{_name(state, planet)} and places each on a system.", seat=seat, planet=planet,
            count=absorb)


def _virus_options(state: State, d: Decision) -> Iterator[Action]:
    if d.data["absorb"] > 0:
        yield from (act("VIRUS", system) for system in state.content.systems)
        return
    p = state.players[d.player]
    yield from (act("DROP-VIRUS", system) for system in state.content.systems if p.virus.get(system, 0))
    yield act("KEEP-VIRUS")


def _virus_why_not(state: State, d: Decision, a: Action) -> IllegalAction | None:
    systems = state.content.systems
    if d.data["absorb"] > 0:
        if a.verb != "VIRUS" or len(a.args) != 1 or a.args[0] not in systems:
            return illegal("TC-ADV3-1", "you absorb the virus crystal: choose the system that takes it "
                           f"with VIRUS <system> ({', '.join(systems)})")
        return None
    if a == act("KEEP-VIRUS"):
        return None
    if a.verb != "DROP-VIRUS" or len(a.args) != 1 or a.args[0] not in systems:
        return illegal("TC-ADV3-1", "drop a virus crystal with DROP-VIRUS <system>, or KEEP-VIRUS")
    if not state.players[d.player].virus.get(a.args[0], 0):
        return illegal("TC-ADV3-1", f"your {a.args[0]} carries no virus crystal")
    return None


def _virus_perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    p = state.players[d.player]
    planet = d.data["planet"]
    if a == act("KEEP-VIRUS"):
        state.stack.pop()
        say(ev, "virus_kept", f"{p.faction} keeps the virus crystals it carries.", seat=d.player)
        return
    system = a.args[0]
    if a.verb == "VIRUS":
        state.virus_on = _moved(state.virus_on, planet, -1)
        p.virus = _moved(p.virus, system, 1)
        d.data["absorb"] -= 1
        say(ev, "virus", f"{p.faction} places a virus crystal on {system} (1 damage that cannot be "
            "repaired).", seat=d.player, system=system, planet=planet)
    else:
        p.virus = _moved(p.virus, system, -1)
        state.virus_on = _moved(state.virus_on, planet, 1)
        d.data["drop"] -= 1
        say(ev, "virus_dropped", f"{p.faction} drops a virus crystal from {system} off on "
            f"{_name(state, planet)}.", seat=d.player, system=system, planet=planet)
    if d.data["absorb"] == 0 and (d.data["drop"] <= 0 or not any(p.virus.values())):
        state.stack.pop()


def _moved(counts: FrozenDict[str, int], where: str, amount: int) -> FrozenDict[str, int]:
    """``counts`` with ``amount`` more at ``where`` (a count that reaches 0 is dropped)."""
    left = counts.get(where, 0) + amount
    return counts.set(where, left) if left else counts.without(where)


def _virus_domain(c: Content) -> Iterator[Action]:
    yield act("KEEP-VIRUS")
    for system in c.systems:
        yield act("VIRUS", system)
        yield act("DROP-VIRUS", system)


decision_kind(
    "virus",
    options=_virus_options,
    why_not=_virus_why_not,
    perform=_virus_perform,
    domain=_virus_domain,
)


# -- Repair (REP) -------------------------------------------------------------------------


def repair_cost(state: State, seat: int) -> int:
    """TAU per Damage marker: 1T on a planet, 2T in space (any non-planetary sector)."""
    n = state.content.numbers
    return n.repair_tau_planet if board.is_planet(state, state.players[seat].position) else n.repair_tau_space


def _repairable(state: State, seat: int) -> list[str]:
    """Systems carrying Damage markers (virus crystals are kept apart and never listed)."""
    p = state.players[seat]
    return [s for s in state.content.systems if p.damage.get(s, 0) > 0]


def _nothing_to_repair(state: State, seat: int) -> IllegalAction:
    virus = " (virus crystals cannot be repaired)" if any(state.players[seat].virus.values()) else ""
    return illegal("TC-REP-1", f"your starship has no Damage markers to repair{virus}")


def _cannot_pay(state: State, seat: int) -> IllegalAction:
    cost = repair_cost(state, seat)
    where = "on a planet" if cost == state.content.numbers.repair_tau_planet else "in space"
    return illegal("TC-REP-2", f"each Damage marker costs {cost}T to repair {where}; you have "
                   f"{state.players[seat].tau}T")


def _rep_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    if a != REP:
        return illegal("TC-REP-2", "REP takes no arguments; you choose the systems to fix afterwards")
    if not _repairable(state, seat):
        return _nothing_to_repair(state, seat)
    if state.players[seat].tau < repair_cost(state, seat):
        return _cannot_pay(state, seat)
    return None


def _rep_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    state.stack.append(Decision("repair", seat))
    say(ev, "repair_start", f"{state.players[seat].faction} repairs at {repair_cost(state, seat)}T per "
        "Damage marker.", seat=seat, cost=repair_cost(state, seat))


def _rep_options(state: State, seat: int) -> tuple[Action, ...]:
    """REP when it is legal (registered as the verb's ``legal``). Most turns the starship has
    no Damage marker: that is looked at first, without building ``_rep_why_not``'s refusal."""
    if not any(state.players[seat].damage.values()):
        return ()
    return (REP,) if _rep_why_not(state, seat, REP) is None else ()


verb(
    "REP",
    major="REP",
    options=_rep_options,
    legal=_rep_options,
    why_not=_rep_why_not,
    perform=_rep_perform,
    domain=lambda c: (act("REP"),),
)


def _can_fix_more(state: State, seat: int) -> bool:
    return bool(_repairable(state, seat)) and state.players[seat].tau >= repair_cost(state, seat)


def _repair_options(state: State, d: Decision) -> Iterator[Action]:
    if state.players[d.player].tau >= repair_cost(state, d.player):
        for system in _repairable(state, d.player):
            yield act("FIX", system)
    yield act("DONE")


def _repair_why_not(state: State, d: Decision, a: Action) -> IllegalAction | None:
    if a == act("DONE"):
        return None
    if a.verb != "FIX" or len(a.args) != 1 or a.args[0] not in state.content.systems:
        return illegal("TC-REP-2", f"repair with FIX <system> ({', '.join(state.content.systems)}) or "
                       "finish with DONE")
    if a.args[0] not in _repairable(state, d.player):
        if state.players[d.player].virus.get(a.args[0], 0):
            return illegal("TC-ADV3-2", f"the virus crystal on your {a.args[0]} cannot be repaired")
        return illegal("TC-REP-1", f"your {a.args[0]} system has no Damage marker")
    if state.players[d.player].tau < repair_cost(state, d.player):
        return _cannot_pay(state, d.player)
    return None


def _repair_perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    p = state.players[d.player]
    if a == act("DONE"):
        state.stack.pop()
        say(ev, "repair_done", f"{p.faction} finishes repairing.", seat=d.player)
        return
    system = a.args[0]
    cost = repair_cost(state, d.player)
    gain_tau(state, d.player, -cost)
    left = p.damage[system] - 1
    p.damage = p.damage.set(system, left) if left else p.damage.without(system)
    state.damage_supply += 1
    say(ev, "repair", f"{p.faction} pays {cost}T and removes a Damage marker from {system}.",
        seat=d.player, system=system, tau=cost)
    if not _can_fix_more(state, d.player):
        state.stack.pop()


def _repair_domain(c: Content) -> Iterator[Action]:
    yield act("DONE")
    for system in c.systems:
        yield act("FIX", system)


decision_kind(
    "repair",
    options=_repair_options,
    why_not=_repair_why_not,
    perform=_repair_perform,
    domain=_repair_domain,
)
