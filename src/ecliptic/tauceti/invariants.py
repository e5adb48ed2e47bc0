"""Conservation laws of the components, checked after every action in property tests.

Every counted component is in exactly one place, and the counts match the
rulebook's component list; no track or count is negative. :func:`problems`
returns what is wrong in words (an empty list for a sound state).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import chain
from typing import Any

from ecliptic.engine.invariants import decision_problems, exactly_once, seat_problems
from ecliptic.tauceti.checks import CONTINUATIONS
from ecliptic.tauceti.content import Content
from ecliptic.tauceti.registry import KINDS
from ecliptic.tauceti.state import Decision, State


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


def problems(state: State) -> list[str]:
    c = state.content
    n = c.numbers
    out: list[str] = []
    pending = [list(_ids_in(d.data)) for d in state.stack]
    # Decisions may mention a card that is also elsewhere (e.g. the card being played);
    # they are a place only for cards found nowhere else.
    hands = [p.hand for p in state.players] + [p.face_up for p in state.players]

    def places(*lists: Sequence[str]) -> Iterator[str]:
        found = {x for place in lists for x in place}
        return chain(*lists, *([x for x in ids if x not in found] for ids in pending))

    # Decision data holds other strings too, so only the expected ids count (others=False).
    exactly_once("Crisis cards", {x.id for x in c.crisis_cards},
                 places(state.crisis_deck, state.crisis_discard, state.enlightenment.active, *hands),
                 out, others=False)
    exactly_once("Specialist cards",
                 {x.id for x in c.specialists if not x.advanced or state.config.advanced_specialists},
                 places(state.specialist_deck, state.specialist_discard, state.enlightenment.active, *hands),
                 out, others=False)
    exactly_once("Knowledge cards", {x.id for x in c.knowledge_cards},
                 places(state.knowledge_deck, state.knowledge_discard), out, others=False)
    exactly_once("Mission cards", {x.id for x in c.missions},
                 places(state.mission_deck, state.mission_discard,
                        *[[m.card for m in p.missions] for p in state.players]), out, others=False)
    exactly_once("Crisis tokens", {x.id for x in c.crisis_tokens},
                 chain(*state.crisis_stacks.values(), *state.planet_crises.values()), out, others=False)
    exactly_once("Commodity tokens", {x.id for x in c.commodity_tokens},
                 chain(state.planet_commodity.values(), state.demand_pile, state.supply,
                       *[[h.token for h in p.holdings] for p in state.players]), out, others=False)
    exactly_once("Systems tokens", {x.id for x in c.systems_tokens},
                 chain(state.depot_systems, *[p.systems_tokens.values() for p in state.players]),
                 out, others=False)
    exactly_once("GP tokens", {x.id for x in c.gp_tokens},
                 places(state.gp_supply, *[p.gp_tokens for p in state.players]), out, others=False)
    exactly_once("Exotic Tech cards", {x.id for x in c.exotic_tech},
                 chain(state.exotic_deck, *[[p.exotic_tech] if p.exotic_tech else [] for p in state.players]),
                 out, others=False)
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
    _reference_problems(state, out)
    for d in decision_problems(state, KINDS, DECISION_DATA, out):
        _decision_data_problems(state, d, out)
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


DECISION_DATA: dict[str, dict[str, Any]] = {
    "place_tile": {},
    "enlighten": {},
    "turn": {"major_done": bool},
    "claim": {"sector": str},
    "keep_mission": {"cards": list[str]},
    "keep_specialist": {"cards": list[str]},
    "trade_offer": {"from": int, "give": tuple[str, str], "want": str},
    "sell": {"planet": str, "demanded": str, "sold": list[str]},
    "move": {"left": int, "jump": bool, "path": list[str]},
    "virus": {"planet": str, "absorb": int, "drop": int},
    "repair": {},
    "reroll": {"skill": str, "target": int, "successes": int, "dice": list[int], "then": str,
               "ctx": dict[str, str | None]},
    "damage": {"left": int, "cause": str},
    "battle_prepare": {},
    "battle_shield": {},
    "battle_attack": {},
    "battle_steal": {},
    "battle_takeover": {},
}
"""The data each decision kind reads (:func:`ecliptic.engine.invariants.decision_problems`);
what the data names is checked by :func:`_decision_data_problems`."""

_CONTEXT = {"explore": {"point", "card"}, "im_permission": {"card"}, "mission": {"card"}}
"""The context each skill check's continuation reads (``checks.start_check``'s ``ctx``)."""


def _decision_data_problems(state: State, d: Decision, out: list[str]) -> None:
    """What a decision's data names exists: a tile of the map, a card of the right deck, a
    seat, a skill (the shape is already checked)."""
    c = state.content
    data = d.data
    where = f"{d.kind} decision of seat {d.player}"
    wrong: list[str] = []
    if d.kind.startswith("battle_") and (state.battle is None
                                         or d.player not in (state.battle.initiator, state.battle.defender)):
        wrong.append("the seat fights no battle")
    if d.kind == "enlighten" and state.phase != "enlightenment":
        wrong.append("it is not the Enlightenment phase")
    if d.kind == "claim" and data["sector"] not in state.layout:
        wrong.append(f"sector {data['sector']!r} is not on the map")
    if d.kind in ("keep_mission", "keep_specialist"):
        deck = {x.id for x in (c.missions if d.kind == "keep_mission" else c.specialists)}
        if not data["cards"] or any(card not in deck for card in data["cards"]):
            wrong.append(f"cards {data['cards']} are not cards of that deck")
    if d.kind == "trade_offer":
        if not 0 <= data["from"] < len(state.players) or data["from"] == d.player:
            wrong.append(f"the offer comes from {data['from']}, not another seat")
        if any(k not in c.knowledge_types for k in (*data["give"], data["want"])):
            wrong.append("the offer names an unknown Knowledge type")
    if d.kind in ("sell", "virus") and (data["planet"] not in state.layout or not c.tile(data["planet"]).is_planet):
        wrong.append(f"{data['planet']!r} is not a planet on the map")
    if d.kind == "sell":
        names = _names(c, "commodities")
        if (data["demanded"] and data["demanded"] not in names) or any(x not in names for x in data["sold"]):
            wrong.append("it names an unknown commodity")
    if d.kind == "move" and (data["left"] < 0 or not data["path"] or any(t not in state.layout for t in data["path"])):
        wrong.append("its path is not on the map or its propulsion is negative")
    if d.kind == "virus" and (data["absorb"] < 0 or data["drop"] < 0):
        wrong.append("a negative count of virus crystals")
    if d.kind == "damage" and data["left"] < 1:
        wrong.append("no damage is left to allocate")
    if d.kind == "reroll":
        if data["skill"] not in c.skills or not 1 <= data["target"] <= 6 or data["successes"] < 1:
            wrong.append("it is not a skill check")
        if any(not 1 <= die <= 6 for die in data["dice"]):
            wrong.append("a die is not 1-6")
        if data["then"] not in CONTINUATIONS or set(data["ctx"]) != _CONTEXT.get(data["then"]):
            wrong.append(f"no outcome {data['then']!r} with the context {sorted(data['ctx'])}")
        elif "point" in data["ctx"] and data["ctx"]["point"] not in state.points:
            wrong.append(f"no Exploration point {data['ctx']['point']!r}")
        elif data["then"] != "explore" and data["ctx"]["card"] not in {
                m.card for m in state.players[d.player].missions}:
            wrong.append(f"mission {data['ctx']['card']!r} is not on the player's Interface")
    out += [f"{where}: {w}" for w in wrong]


def _reference_problems(state: State, out: list[str]) -> None:
    """Every id a state names is one of the game's, every seat one of this game's, every
    table keyed by a set of names has exactly those (a save file could lie; the rules look
    names up without asking)."""
    c = state.content
    seats = len(state.players)
    tiles = _names(c, "tiles")
    exactly_once("tiles", tiles, [*state.layout, *state.large_tile_stack, *state.outer_limit_stack], out)
    if len(set(state.layout.values())) != len(state.layout):
        out.append("layout: two tiles in one place")
    if len(state.players) != state.config.players or [p.seat for p in state.players] != list(range(seats)):
        out.append("players do not match the config")
    factions = [p.faction for p in state.players]
    if len(set(factions)) != len(factions) or any(f not in _names(c, "factions") for f in factions):
        out.append(f"players: factions {factions} are not distinct factions of the game")
    seat_problems("first_player", state.first_player, seats, out)
    seat_problems("turn_seat", state.turn_seat, seats, out)
    seat_problems("setup_seat", state.setup_seat, seats, out)
    _ids_known(state, out)
    _keys("market", state.market, c.skills, out, every=True)
    _keys("market_raised", state.market_raised, c.skills, out)
    _keys("depot_knowledge", state.depot_knowledge, c.knowledge_types, out)
    for name, table in (("cubes", state.cubes), ("orbitals", state.orbitals), ("virus_on", state.virus_on),
                        ("planet_commodity", state.planet_commodity), ("planet_crises", state.planet_crises)):
        _keys(name, table, tiles, out)
    _keys("crisis_stacks", state.crisis_stacks, _names(c, "crisis_types"), out)
    for pid, point in state.points.items():
        if point.id != pid or point.sector not in tiles or (point.token is not None
                                                              and point.token not in c.knowledge_types):
            out.append(f"points.{pid}: not an Exploration point of a tile")
        seat_problems(f"points.{pid}.claimed_by", point.claimed_by, seats, out, optional=True)
        seat_problems(f"points.{pid}.explored_by", point.explored_by, seats, out, optional=True)
    for p in state.players:
        where = f"players[{p.seat}]"
        if p.position not in (state.layout if state.phase != "setup" else tiles):  # (home not yet placed)
            out.append(f"{where}.position: {p.position!r} is not a tile on the map")
        _keys(f"{where}.knowledge", p.knowledge, c.knowledge_types, out)
        for name, table in (("systems_tokens", p.systems_tokens), ("damage", p.damage), ("virus", p.virus)):
            _keys(f"{where}.{name}", table, c.systems, out)
        if p.claim is not None and p.claim not in state.points:
            out.append(f"{where}.claim: {p.claim!r} is not an Exploration point")
        if p.battle_sector is not None and p.battle_sector not in state.layout:
            out.append(f"{where}.battle_sector: {p.battle_sector!r} is not a tile on the map")
        seat_problems(f"{where}.battle_defender", p.battle_defender, seats, out, optional=True)
        for i, seat in enumerate(p.offers_made):
            seat_problems(f"{where}.offers_made[{i}]", seat, seats, out)
    e = state.enlightenment
    if (e.affected or state.phase == "enlightenment") and (e.affected not in state.layout
                                                           or not c.tile(e.affected).is_planet):
        out.append(f"enlightenment.affected: {e.affected!r} is not a planet on the map")
    seat_problems("enlightenment.next_seat", e.next_seat, seats, out)
    every_seat = {str(s) for s in range(len(state.players))}
    if (e.played or state.phase == "enlightenment") and set(e.played) != every_seat:
        out.append(f"enlightenment.played: counts for seats {sorted(e.played)}, not one for each of "
                   f"{sorted(every_seat)}")  # the phase counts every seat's cards from its start
    for key, count in e.played.items():
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            out.append(f"enlightenment.played[{key}]: {count!r} cards, not a count")
    for i, seat in enumerate(e.done):
        seat_problems(f"enlightenment.done[{i}]", seat, seats, out)
    for i, sector in enumerate(state.battles):
        if sector not in state.layout:
            out.append(f"battles[{i}]: {sector!r} is not a tile on the map")
    b = state.battle
    if b is not None:
        if b.sector not in state.layout:
            out.append(f"battle.sector: {b.sector!r} is not a tile on the map")
        seat_problems("battle.initiator", b.initiator, seats, out)
        seat_problems("battle.defender", b.defender, seats, out)
        fighters = {b.initiator, b.defender}
        if len(fighters) != 2 or b.attacker not in fighters:
            out.append(f"battle: {b.attacker} attacks in a battle of {sorted(fighters)}")
        for name, fighter in (("winner", b.winner), ("retreated", b.retreated)):
            if fighter is not None and fighter not in fighters:
                out.append(f"battle.{name}: {fighter} does not fight this battle")
        for name, table in (("shields", b.shields), ("destroyed_at_start", b.destroyed_at_start)):
            _keys(f"battle.{name}", table, {str(s) for s in fighters}, out)
            if any(x not in c.systems for systems in table.values() for x in systems):
                out.append(f"battle.{name}: an unknown system")
    for i, seat in enumerate(state.winners):
        seat_problems(f"winners[{i}]", seat, seats, out)
    if any(not 1 <= die <= 6 for die in state.rng.dice_script) or any(x < 0 for x in state.rng.choice_script):
        out.append("rng: a scripted die is not 1-6 or a scripted choice is negative")
    if not state.is_over and not state.stack:
        out.append("stack: no decision is pending before the end of the game")


def _ids_known(state: State, out: list[str]) -> None:
    """Each place holds ids of the components that go there (the conservation laws above
    count the known ids only, so an unknown one would pass them)."""
    c = state.content
    crisis, specialist = _names(c, "crisis_cards"), _names(c, "specialists")
    knowledge, mission = _names(c, "knowledge_cards"), _names(c, "missions")
    commodity, systems = _names(c, "commodity_tokens"), _names(c, "systems_tokens")
    crisis_tokens, gp = _names(c, "crisis_tokens"), _names(c, "gp_tokens")
    places: list[tuple[str, Iterable[str], frozenset[str]]] = [
        ("crisis_deck", state.crisis_deck, crisis), ("crisis_discard", state.crisis_discard, crisis),
        ("specialist_deck", state.specialist_deck, specialist),
        ("specialist_discard", state.specialist_discard, specialist),
        ("knowledge_deck", state.knowledge_deck, knowledge), ("knowledge_discard", state.knowledge_discard, knowledge),
        ("mission_deck", state.mission_deck, mission), ("mission_discard", state.mission_discard, mission),
        ("exotic_deck", state.exotic_deck, _names(c, "exotic_tech")), ("gp_supply", state.gp_supply, gp),
        ("depot_systems", state.depot_systems, systems), ("demand_pile", state.demand_pile, commodity),
        ("supply", state.supply, commodity), ("planet_commodity", state.planet_commodity.values(), commodity),
        ("enlightenment.active", state.enlightenment.active, crisis | specialist),
        ("outer_limit_knowledge", state.outer_limit_knowledge, frozenset(c.knowledge_types)),
        ("bag", state.bag, _names(c, "factions")),
        *((f"crisis_stacks.{k}", v, crisis_tokens) for k, v in state.crisis_stacks.items()),
        *((f"planet_crises.{k}", v, crisis_tokens) for k, v in state.planet_crises.items()),
        *((f"cubes.{k}", v, _names(c, "factions")) for k, v in state.cubes.items()),
    ]
    for p in state.players:
        where = f"players[{p.seat}]"
        places += [
            (f"{where}.hand", p.hand, crisis | specialist), (f"{where}.face_up", p.face_up, crisis | specialist),
            (f"{where}.gp_tokens", p.gp_tokens, gp), (f"{where}.missions", [m.card for m in p.missions], mission),
            (f"{where}.holdings", [h.token for h in p.holdings], commodity),
            (f"{where}.systems_tokens", p.systems_tokens.values(), systems),
            (f"{where}.exotic_tech", [p.exotic_tech] if p.exotic_tech else [], _names(c, "exotic_tech")),
        ]
    for name, ids, known in places:
        unknown = [x for x in ids if x not in known]
        if unknown:
            out.append(f"{name}: unknown {unknown[:3]}")


def _keys(name: str, table: Mapping[str, object], known: Iterable[str], out: list[str], *, every: bool = False) -> None:
    """The keys of a table are names of ``known`` (all of them, with ``every``)."""
    names = set(known)
    unknown = sorted(set(table) - names)
    if unknown:
        out.append(f"{name}: unknown {unknown[:3]}")
    if every and set(table) != names:
        out.append(f"{name}: missing {sorted(names - set(table))[:3]}")


_NAMES: dict[tuple[int, str], tuple[Content, frozenset[str]]] = {}


def _names(c: Content, part: str) -> frozenset[str]:
    """The ids (or names) of one list of the components, worked out once per Content: the
    property tests check every state a playout reaches."""
    entry = _NAMES.get((id(c), part))
    if entry is None or entry[0] is not c:
        items = getattr(c, part)
        entry = _NAMES[(id(c), part)] = (c, frozenset(getattr(x, "id", None) or x.name for x in items))
    return entry[1]
