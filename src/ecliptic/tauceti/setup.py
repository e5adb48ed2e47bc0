"""Game setup: the hex system, the Galactic Depot, the TCX, the decks, the bag and the factions."""

from __future__ import annotations

from ecliptic.engine.frozendict import FrozenDict
from ecliptic.engine.rng import Rng
from ecliptic.tauceti import board, decks
from ecliptic.tauceti.content import Content, default_content
from ecliptic.tauceti.state import Config, Player, Point, State

MARKET_START = 1
""""Place a Market Level marker (white disc) on level 1 for each resource" (TC-SETUP-11)."""

# The preset map (a recorded decision). It agrees with the rulebook's examples:
# sector 10 (Zuron Asteroid) touches sector 03, sector 06 touches the Azars' home
# planet but nothing Captain Borzon reaches from sector 03, and a delivery from
# Xuno to the Zuron Asteroid is 3 sectors long.
PRESET_LAYOUT: dict[str, tuple[int, int]] = {
    "TC": (0, 0),
    "01": (1, -1), "02": (1, 0), "03": (0, 1), "04": (-1, 1), "05": (-1, 0), "07": (0, -1),
    "AZAR": (2, -2), "06": (1, -2), "ZORHKON": (0, 2), "10": (-1, 2), "XUNO": (-2, 0),
    "TRIOLO": (2, 0), "08": (-1, -1), "09": (2, -1),
}


def new_state(config: Config, seed: int) -> State:
    content = default_content()
    rng = Rng.from_seed(seed)
    names = [f.name for f in content.factions]
    if config.factions:
        for name in config.factions:
            if name not in names:
                raise ValueError(f"unknown faction {name!r}; choose from {', '.join(names)}")
        factions = list(config.factions)
    else:
        pool = list(names)
        rng.shuffle(pool)
        factions = pool[: config.players]
    players = []
    for seat, name in enumerate(factions):
        f = content.faction(name)
        players.append(Player(
            seat=seat, faction=name, tau=f.start_tau, energy=f.start_energy,
            materials=f.start_materials, position=f.home_planet,
            knowledge=FrozenDict(dict.fromkeys(content.knowledge_types, 0)),
            orbitals_home=4,
        ))
    state = State(config=config, rng=rng, players=players, first_player=config.first_player,
                  setup_seat=config.first_player)
    _hex_system(state, content)
    _global_setup(state, content, factions)
    return state


def _hex_system(state: State, content: Content) -> None:
    large = [t.id for t in content.tiles if not t.outer_limit and t.kind != "tau_ceti"]
    centre = next(t.id for t in content.tiles if t.kind == "tau_ceti")
    state.layout = FrozenDict({centre: (0, 0)})
    if state.config.layout == "preset":
        state.layout = FrozenDict({centre: (0, 0), **PRESET_LAYOUT})
    else:
        state.large_tile_stack = decks.shuffled(state.rng, large)
        if state.config.layout == "random":
            while state.large_tile_stack:
                tile, state.large_tile_stack = state.large_tile_stack[0], state.large_tile_stack[1:]
                cells = placement_cells(state)
                state.layout = state.layout.set(tile, cells[state.rng.below(len(cells))])
    state.outer_limit_stack = decks.shuffled(state.rng, (t.id for t in content.tiles if t.outer_limit))


def placement_cells(state: State) -> list[tuple[int, int]]:
    """Free cells within the large-tile radius that touch a placed tile."""
    taken = board.occupied(state)
    free: set[tuple[int, int]] = set()
    for c in taken:
        free.update(board.neighbour_cells(c))  # (the positions added in one call per tile)
    free.difference_update(taken)
    return sorted(free & _LARGE_CELLS)


_LARGE_CELLS = frozenset(board.cells_within(board.LARGE_RADIUS))
"""The positions within the large-tile radius."""


def _global_setup(state: State, content: Content, factions: list[str]) -> None:
    rng = state.rng
    n = content.numbers
    # Knowledge tokens: 10 face down on the Exploration points, 6 for Outer Limit tiles,
    # 8 face up on the Galactic Depot.
    tokens = [t for t in content.knowledge_types for _ in range(4)]
    rng.shuffle(tokens)
    points = {}
    for tile in content.tiles:
        if tile.outer_limit:
            continue
        for i in range(1, tile.exploration_points + 1):
            pid = f"{tile.id}.{i}"
            points[pid] = Point(pid, tile.id, tokens.pop())
    state.points = FrozenDict(points)
    state.outer_limit_knowledge = tuple(tokens.pop() for _ in range(n.knowledge_for_outer_limits))
    depot = dict.fromkeys(content.knowledge_types, 0)
    for t in tokens:
        depot[t] += 1
    state.depot_knowledge = FrozenDict(depot)
    state.depot_systems = tuple(sorted(t.id for t in content.systems_tokens))
    # Commodity tokens: one on each planet, two in the Demand pile, the rest the Supply pile.
    commodity = [t.id for t in content.commodity_tokens]
    rng.shuffle(commodity)
    state.planet_commodity = FrozenDict((tile.id, commodity.pop()) for tile in content.tiles if tile.is_planet)
    state.demand_pile = tuple(commodity.pop() for _ in range(n.demand_pile))
    state.supply = tuple(sorted(commodity))
    # The TCX: Crisis token stacks, Market levels at 1.
    for ct in content.crisis_types:
        stack = [t.id for t in content.crisis_tokens if t.crisis_type == ct.name]
        rng.shuffle(stack)
        state.crisis_stacks[ct.name] = tuple(stack)
    state.market = FrozenDict(dict.fromkeys(content.resources, MARKET_START))
    state.market_raised = FrozenDict(dict.fromkeys(content.resources, 0))
    # Decks.
    state.crisis_deck = decks.shuffled(rng, (c.id for c in content.crisis_cards))
    state.specialist_deck = decks.shuffled(rng, (c.id for c in content.specialists
                                                 if not c.advanced or state.config.advanced_specialists))
    state.knowledge_deck = decks.shuffled(rng, (c.id for c in content.knowledge_cards))
    state.mission_deck = decks.shuffled(rng, (c.id for c in content.missions))
    state.exotic_deck = decks.shuffled(rng, (c.id for c in content.exotic_tech))
    state.diplomacy_left = n.diplomacy_cards
    state.gp_supply = decks.shuffled(rng, (t.id for t in content.gp_tokens))
    state.damage_supply = n.damage_markers
    state.virus_supply = n.virus_crystals
    # The Enlightenment bag: every player's cubes, 2 of each non-player civilization's colour.
    bag: list[str] = []
    for f in content.factions:
        count = n.cubes_per_faction if f.name in factions else n.npc_cubes_per_colour
        bag.extend([f.name] * count)
    state.bag = sorted(bag)
    for seat, name in enumerate(factions):
        state.players[seat].position = content.faction(name).home_planet
