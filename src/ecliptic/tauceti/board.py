"""The hex system: where tiles lie, which sectors connect, and who has Economic Influence.

Tiles sit on an axial hex grid around TAU CETI at ``0,0``. Large tiles are
placed within ``LARGE_RADIUS`` of it and Outer Limit tiles within
``BOARD_RADIUS`` (a recorded decision: the table is finite).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping

from ecliptic.engine.content import on_content_change
from ecliptic.engine.frozendict import FrozenDict
from ecliptic.tauceti.state import State

DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
LARGE_RADIUS = 3
BOARD_RADIUS = 4

Cell = tuple[int, int]


def cell_name(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def parse_cell(text: str) -> Cell | None:
    parts = text.split(",")
    if len(parts) != 2:
        return None
    try:
        return int(parts[0]), int(parts[1])
    except ValueError:
        return None


def distance_from_centre(cell: Cell) -> int:
    q, r = cell
    return max(abs(q), abs(r), abs(q + r))


def cells_within(radius: int) -> Iterator[Cell]:
    for q in range(-radius, radius + 1):
        for r in range(-radius, radius + 1):
            if distance_from_centre((q, r)) <= radius:
                yield (q, r)


def neighbour_cells(cell: Cell) -> tuple[Cell, ...]:
    """The six positions around ``cell`` (looked up for the table and its edge: every search
    of the map asks for them)."""
    near = _NEIGHBOURS.get(cell)
    if near is None:
        q, r = cell
        near = tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)
    return near


_NEIGHBOURS = {(q, r): tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)
               for q, r in cells_within(BOARD_RADIUS + 1)}


class _Map:
    """What the tiles' positions alone decide, worked out once per layout: the tile at each
    position, the wormholes on the map, and the fewest sectors to each goal asked for so far.

    The layout is a :class:`FrozenDict`, replaced (never changed) when a tile is placed or
    drawn, and shared by every clone of a state: so these answers, asked many times per
    decision (every move option, every turn of a player bound to a delivery) and by every
    ISMCTS iteration, stay true for as long as that layout object is the state's. They are a
    pure function of the layout and the content (a tile's kind), not a cache of a state:
    nothing in them can drift from a state, since a state whose tiles move has another layout
    object. A plain ``dict`` layout (a test's hand-made state) is never remembered."""

    __slots__ = ("content", "distances", "layout", "where", "wormholes")

    def __init__(self, layout: Mapping[str, Cell], content: object, wormholes: tuple[str, ...]) -> None:
        self.layout = layout
        self.content = content
        self.where: FrozenDict[Cell, str] = FrozenDict(zip(layout.values(), layout, strict=True))
        self.wormholes = wormholes
        self.distances: dict[str, FrozenDict[str, int]] = {}


_MAPS: dict[int, _Map] = {}
"""The maps of the layouts seen lately, by the layout's id (each entry keeps its layout alive,
so the id cannot be another object's while the entry is there)."""
_MAPS_KEPT = 64


def _map(state: State) -> _Map:
    layout = state.layout
    content = state.content
    found = _MAPS.get(id(layout))
    if found is not None and found.layout is layout and found.content is content:
        return found
    tile = content.tile
    made = _Map(layout, content, tuple(sorted(t for t in layout if tile(t).kind == "wormhole")))
    if layout.__class__ is FrozenDict:
        if len(_MAPS) >= _MAPS_KEPT:
            _MAPS.clear()  # (one call, safe beside another thread; a game has a few dozen layouts)
        _MAPS[id(layout)] = made
    return made


def occupied(state: State) -> Mapping[Cell, str]:
    """The tile at each position (the layout turned around; read-only, see :class:`_Map`)."""
    return _map(state).where


def adjacent_tiles(state: State, tile: str) -> list[str]:
    """Tiles sharing an edge with ``tile``, sorted by id."""
    where = _map(state).where
    pos = state.layout[tile]
    return sorted(where[c] for c in neighbour_cells(pos) if c in where)


def empty_neighbours(state: State, tile: str, radius: int = BOARD_RADIUS) -> list[Cell]:
    where = _map(state).where
    return sorted(
        c
        for c in neighbour_cells(state.layout[tile])
        if c not in where and distance_from_centre(c) <= radius
    )


def is_planet(state: State, tile: str) -> bool:
    found = _PLANET.get(tile)
    if found is None:  # (a tile the content does not have is its KeyError, as before)
        found = _PLANET[tile] = state.content.tile(tile).is_planet
    return found


_PLANET: dict[str, bool] = {}
"""Whether each tile is a planet, read once from the (immutable) content: several verbs ask
for the starship's position or each sector with pieces at every turn decision."""
on_content_change(_PLANET.clear)


def passable(state: State, tile: str) -> bool:
    """TAU CETI cannot be moved through."""
    found = _PASSABLE.get(tile)
    if found is None:  # (a tile the content does not have is its KeyError, as before)
        found = _PASSABLE[tile] = state.content.tile(tile).kind != "tau_ceti"
    return found


_PASSABLE: dict[str, bool] = {}
"""Whether each tile can be moved through, read once from the content (every move option)."""
on_content_change(_PASSABLE.clear)


def wormholes_on_map(state: State) -> list[str]:
    """The wormhole sectors drawn so far, by id."""
    return list(_map(state).wormholes)


def wormholes_work(state: State) -> bool:
    """A wormhole works only when "BOTH wormhole sectors [are] present in the star system"."""
    return len(_map(state).wormholes) == 2


def distances_to(state: State, goal: str) -> Mapping[str, int]:
    """Fewest sectors travelled from each reachable tile to ``goal``. With both wormholes on the
    map, going from one to the other "is considered zero sectors traveled" (TC-MOV-7), so the
    hop is an edge of length 0 (a 0-1 breadth-first search). Counted once per layout and goal
    (see :class:`_Map`); the table is read-only."""
    m = _map(state)
    dist = m.distances.get(goal)
    if dist is None:
        dist = m.distances[goal] = FrozenDict(_count_distances(state, m, goal))
    return dist


def _count_distances(state: State, m: _Map, goal: str) -> dict[str, int]:
    layout = state.layout
    if goal not in layout:
        return {}
    where = m.where
    content_tile = state.content.tile
    hop = m.wormholes if len(m.wormholes) == 2 else ()  # (what wormholes_work says)
    dist = {goal: 0}
    queue: deque[str] = deque([goal])
    while queue:
        tile = queue.popleft()
        d = dist[tile]
        if hop and tile in hop:
            other = hop[1 - hop.index(tile)]
            if dist.get(other, d + 1) > d:
                dist[other] = d
                queue.appendleft(other)
        further = d + 1
        for cell in neighbour_cells(layout[tile]):
            nxt = where.get(cell)
            # (a tile already reached as near is skipped before its kind is looked up;
            # TAU CETI cannot be moved through: what ``passable`` says)
            if nxt is None or dist.get(nxt, further + 1) <= further or content_tile(nxt).kind == "tau_ceti":
                continue
            dist[nxt] = further
            queue.append(nxt)
    return dist


def route_length(state: State, start: str, goal: str) -> int | None:
    """Sectors on the minimum route from ``start`` to ``goal`` over the tiles on the map, the
    wormhole hop counted as zero sectors when both wormholes are there; ``None`` if
    unreachable."""
    return 0 if start == goal else distances_to(state, goal).get(start)


def controllers(state: State, tile: str) -> set[int]:
    """Seats with Economic Influence (a Resource cube or an orbital) in a non-planet sector."""
    seats = set(state.orbitals.get(tile, []))
    for colour in state.cubes.get(tile, []):
        seat = state.seat_of_faction(colour)
        if seat is not None and not is_planet(state, tile):
            seats.add(seat)
    return seats


def has_influence(state: State, seat: int, tile: str) -> bool:
    return seat in controllers(state, tile)


def connected_to_influence(state: State, seat: int, tile: str) -> bool:
    """May ``seat`` expand its Economic Influence into ``tile``? Yes when the tile touches
    a sector where it has influence, or its home planet."""
    home = state.faction(seat).home_planet
    return any(
        n == home or has_influence(state, seat, n) for n in adjacent_tiles(state, tile)
    )
