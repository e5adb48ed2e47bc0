"""The hex system: where tiles lie, which sectors connect, and who has Economic Influence.

Tiles sit on an axial hex grid around TAU CETI at ``0,0``. Large tiles are
placed within ``LARGE_RADIUS`` of it and Outer Limit tiles within
``BOARD_RADIUS`` (a recorded decision: the table is finite).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

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


def occupied(state: State) -> dict[Cell, str]:
    """The tile at each position (the layout turned around; built in C, it is asked for often)."""
    return dict(zip(state.layout.values(), state.layout, strict=True))


def adjacent_tiles(state: State, tile: str) -> list[str]:
    """Tiles sharing an edge with ``tile``, sorted by id."""
    where = occupied(state)
    pos = state.layout[tile]
    return sorted(where[c] for c in neighbour_cells(pos) if c in where)


def empty_neighbours(state: State, tile: str, radius: int = BOARD_RADIUS) -> list[Cell]:
    where = occupied(state)
    return sorted(
        c
        for c in neighbour_cells(state.layout[tile])
        if c not in where and distance_from_centre(c) <= radius
    )


def is_planet(state: State, tile: str) -> bool:
    return state.content.tile(tile).is_planet


def passable(state: State, tile: str) -> bool:
    """TAU CETI cannot be moved through."""
    return state.content.tile(tile).kind != "tau_ceti"


def route_length(state: State, start: str, goal: str) -> int | None:
    """Fewest sectors travelled from ``start`` to ``goal`` (wormhole jumps are not counted on:
    they depend on a die roll, see docs/rules-decisions.md). ``None`` if unreachable."""
    if start == goal:
        return 0
    where = occupied(state)  # (once, not once per tile visited)
    seen = {start}
    queue: deque[tuple[str, int]] = deque([(start, 0)])
    while queue:
        tile, dist = queue.popleft()
        for cell in neighbour_cells(state.layout[tile]):
            nxt = where.get(cell)
            if nxt is None or nxt in seen or not passable(state, nxt):
                continue
            if nxt == goal:
                return dist + 1
            seen.add(nxt)
            queue.append((nxt, dist + 1))
    return None


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
