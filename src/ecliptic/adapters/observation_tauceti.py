"""The Tau Ceti observation tensor: its slices for one config and the writer that fills them.

Every table (which tile, card, token, point or seat sits at which index) is read off the
content once per config, so ``write`` only looks values up and stores the non-zero ones.
Seats are counted from the observer (``+0`` its own, ``+1`` the next seat; a spectator
counts from seat 0). What ``observe`` does not show is not here: other players' hands are a
count (``hand_size``) unless ``observe`` shows the hand (the loser's to a battle's winner),
GP token ids only the observer's. docs/observation.md lists the slices.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping
from operator import attrgetter, itemgetter
from typing import Any, get_args

from ecliptic.adapters.observation import Buffer, GameEncoding, Header, Layout, Recent, cap
from ecliptic.engine.rules import decision_view, seat_of
from ecliptic.tauceti.checks import CONTINUATIONS
from ecliptic.tauceti.content import default_content
from ecliptic.tauceti.invariants import DECISION_DATA
from ecliptic.tauceti.observation import (
    PRIVATE_DECISION_KEYS,
    counts_view,
    cubes_view,
    discards_view,
    end_view,
    hands_seen,
    layout_view,
    planets_view,
    player_interface,
    player_systems,
    player_tracks,
    points_view,
    seat_view,
    supply_view,
    tcx_view,
)
from ecliptic.tauceti.scoring import SOURCES
from ecliptic.tauceti.state import Layout as MapLayout
from ecliptic.tauceti.state import Phase, State

# The Player fields each part of a player's block is written from (``player_tracks``,
# ``player_systems``, ``player_interface``), beside the hand: its size, and the cards where the
# view shows them. tests/test_observation_tensor.py checks that the parts read nothing else.
TRACKS_FIELDS = ("faction", "tau", "energy", "materials", "position", "knowledge", "orbitals_home", "gp_tokens",
                 "cargo_cube", "diplomacy", "free_upgrades", "markers_used", "markers_lost", "passed", "exotic_spent",
                 "exotic_reroll_round")
SYSTEMS_FIELDS = ("faction", "systems_tokens", "damage", "virus", "face_up")
INTERFACE_FIELDS = ("holdings", "missions", "claim", "battle_sector", "battle_defender", "face_up", "exotic_tech",
                    "gp_tokens")
PHASES: tuple[str, ...] = get_args(Phase)
LAYOUTS: tuple[str, ...] = get_args(MapLayout)
RADIUS = 4  # board.BOARD_RADIUS: every tile lies within 4 steps of TAU CETI
SCORE_PARTS = (*SOURCES, "total")  # the final score's parts, as scoring.score counts them
# Caps for counts the components do not bound (a value above its cap is written as 1).
POWER_CAP = 6  # a system's power and effective power (levels 1-4, upgrades and tokens on top)
DICE_CAP = 8  # dice of a skill check, of one face in a re-roll
HAND_CAP = 12
SCORE_CAP = 60
TABLE = 64  # counts below this are scaled by a look-up table
BLOCKS = 4096  # scaled blocks remembered by value (Knowledge tokens, a player's counts) before forgetting


def build(config: Mapping[str, Any]) -> GameEncoding:
    c = default_content()
    n = int(config["players"])
    num = c.numbers
    L = Layout()
    seats = [f"+{k}" for k in range(n)]
    tiles = [t.id for t in c.tiles]
    large = [t.id for t in c.tiles if not t.outer_limit]
    planets = [t.id for t in c.tiles if t.is_planet]
    ktypes = list(c.knowledge_types)
    resources = list(c.resources)
    systems = list(c.systems)
    commodities = [x.name for x in c.commodities]
    factions = [f.name for f in c.factions]
    points = [f"{t.id}.{i}" for t in c.tiles if not t.outer_limit for i in range(1, t.exploration_points + 1)]
    points += [f"{t.id}.1" for t in c.tiles if t.outer_limit]
    crisis_cards = [x.id for x in c.crisis_cards]
    specialists = [x.id for x in c.specialists]
    knowledge_cards = [x.id for x in c.knowledge_cards]
    missions = [x.id for x in c.missions]
    crisis_tokens = [x.id for x in c.crisis_tokens]
    q_tokens = [x.id for x in c.commodity_tokens]
    y_tokens = [x.id for x in c.systems_tokens]
    g_tokens = [x.id for x in c.gp_tokens]
    exotic = [x.id for x in c.exotic_tech]
    kinds = list(DECISION_DATA)
    then = sorted(CONTINUATIONS)  # what a re-rolled check is for (the rules are loaded: get_game ran)
    hand_ids = crisis_cards + specialists
    all_cards = crisis_cards + specialists + knowledge_cards + missions
    track = num.track_cap
    decks = {"crisis": len(crisis_cards), "specialist": len(specialists), "knowledge": len(knowledge_cards),
             "mission": len(missions), "exotic": len(exotic), "outer_limit": len([t for t in c.tiles if t.outer_limit]),
             "large_tiles": len(large)}
    y_level = {y.id: y.level for y in c.systems_tokens}
    y_max = max(y_level.values())
    per_type_tokens = max(sum(1 for x in c.crisis_tokens if x.crisis_type == t) for t in ktypes)
    per_resource_tokens = max(sum(1 for x in c.crisis_tokens if x.resource == r) for r in resources)
    per_commodity = max(sum(1 for x in c.commodity_tokens if x.commodity == k) for k in commodities)
    x_type = {x.id: x.crisis_type for x in c.crisis_tokens}
    x_res = {x.id: x.resource for x in c.crisis_tokens}

    # -- header and config -----------------------------------------------------------
    header = Header(L, n, num.longest_game_rounds, PHASES)
    cfg_at = L.section("config", ["players/4", "short game", *(f"layout {x}" for x in LAYOUTS),
                                  *(f"Advanced Rule {r}" for r in range(1, 10)), "Advanced Specialists",
                                  "tie break by TAU"], "the game's config (constant through a game)")
    cfg_vals = {cfg_at: n / 4, cfg_at + 1: float(config["game"] == "short"),
                cfg_at + 2 + LAYOUTS.index(config["layout"]): 1.0,
                cfg_at + 14: float(bool(config["advanced_specialists"])),
                cfg_at + 15: float(config["tie_break"] == "tau")}
    for r in config["advanced"]:
        cfg_vals[cfg_at + 4 + r] = 1.0

    # -- the decision asked ------------------------------------------------------------
    kind_at = L.onehot("decision.kind", [*kinds, "none"])
    dplayer_at = L.section("decision.player", seats, "one-hot, seat counted from the observer")
    dflag_at = L.section("decision.flags", ["major_done", "jump"], "flag")
    dnum_at = L.section("decision.counts", ["move left", "virus absorb", "virus drop", "damage left",
                                            "reroll target", "reroll successes"],
                        f"move left / {POWER_CAP}, absorb and drop / {num.virus_crystals}, damage left / "
                        f"{POWER_CAP}, target / 6, successes / {DICE_CAP}")
    dcards_at = L.onehot("decision.cards", missions + specialists, "1 for each card offered to keep")
    dsector_at = L.onehot("decision.claim_sector", tiles)
    dfrom_at = L.section("decision.offer_from", seats, "one-hot, seat counted from the observer")
    dgive_at = L.onehot("decision.offer_give", ktypes, "Knowledge tokens given / 2")
    dwant_at = L.onehot("decision.offer_want", ktypes)
    dplanet_at = L.onehot("decision.planet", planets, "one-hot: the planet of a sale or of a virus")
    ddemand_at = L.onehot("decision.demanded", commodities)
    dsold_at = L.onehot("decision.sold", commodities, f"commodities sold / {per_commodity}")
    dpath_at = L.onehot("decision.path", tiles, "1 for each tile on the move's path so far")
    dhere_at = L.onehot("decision.path_end", tiles, "one-hot: the tile the move has reached")
    dskill_at = L.onehot("decision.reroll_skill", resources)
    ddice_at = L.section("decision.reroll_dice", [f"face {f}" for f in range(1, 7)], f"dice showing it / {DICE_CAP}")
    dthen_at = L.onehot("decision.reroll_for", then)
    dpoint_at = L.onehot("decision.reroll_point", points)
    dcard_at = L.onehot("decision.reroll_card", knowledge_cards + missions)
    dcause_at = L.section("decision.damage_cause", ["crisis card", "Outer Limit tile or other"])

    # -- the map -------------------------------------------------------------------------
    tile_at = {}
    start = L.section("tiles", [f"{t} {x}" for t in tiles for x in ("on map", "q", "r")],
                      f"flag on the map; axial q and r as (x + {RADIUS}) / {2 * RADIUS}")
    for i, t in enumerate(tiles):
        tile_at[t] = start + 3 * i
    next_at = L.onehot("next_large_tile", large, "one-hot: the Large tile its placer sees")
    cubes_at = L.section("cubes", [f"{t} {f}" for t in tiles for f in factions],
                         f"Resource cubes of each colour on the tile / {num.cubes_per_faction}")
    orbit_at = L.section("orbitals", [f"{t} {s}" for t in tiles for s in seats],
                         f"orbitals of each seat (from the observer) / {num.cubes_out_max}")
    battles_at = L.onehot("battles", tiles, "1 for each sector with a battle to fight")
    virus_at = L.onehot("virus_on", planets, f"virus crystals / {num.virus_crystals}")
    commodity_at = L.section("planet_commodity", [f"{p} {k}" for p in planets for k in commodities],
                             "one-hot per planet")
    pcrisis_at = L.section("planet_crises", [f"{p} {x}" for p in planets for x in crisis_tokens],
                           "1 for each Crisis token on the planet")
    ptype_at = L.section("planet_crisis_types", [f"{p} {x}" for p in planets for x in ktypes + resources],
                         f"Crisis tokens of each crisis type / {per_type_tokens}, then of each resource / "
                         f"{per_resource_tokens}")
    point_at = {}
    start = L.section("points", [f"{p} {x}" for p in points
                                 for x in ("on map", *ktypes, "hidden", *(f"claimed {s}" for s in seats),
                                           *(f"explored {s}" for s in seats))],
                      "flag on the map; the Knowledge token one-hot (type face up, or hidden); "
                      "claimed by and explored by, one-hot seat from the observer")
    pstride = 2 + len(ktypes) + 2 * n
    for i, p in enumerate(points):
        point_at[p] = start + pstride * i

    # -- the TCX, supplies and decks -----------------------------------------------------------
    market_at = L.onehot("market", resources, f"Market level / {num.market_levels}")
    stacks_at = L.onehot("crisis_stacks", ktypes, f"tokens in the stack / {per_type_tokens}")
    depot_at = L.onehot("depot_knowledge", ktypes, "Knowledge tokens on the Galactic Depot / 4")
    depsys_at = L.onehot("depot_systems", y_tokens, "1 for each Systems token on the Galactic Depot")
    supply_at = L.onehot("supply", commodities, f"Commodity tokens in the supply / {per_commodity}")
    bag_at = L.onehot("bag", factions, f"cubes of each colour in the bag / {num.cubes_per_faction}")
    deck_names = list(decks)
    decks_at = L.onehot("decks", deck_names, "cards or tiles left / the deck's full size")
    discards_at = L.onehot("discards", all_cards, "1 for each card in its discard pile")
    misc_at = L.section("supplies", ["demand pile", "Diplomacy cards left", "GP tokens in supply",
                                     "damage markers in supply"],
                        f"Demand pile / {num.demand_pile}, Diplomacy cards / {num.diplomacy_cards}, GP tokens / "
                        f"{len(g_tokens)}, damage markers / {num.damage_markers}")
    aff_at = L.onehot("enlightenment.affected", planets)
    active_at = L.section("enlightenment.active_deck", ["cards"], f"cards in the Active deck / {HAND_CAP}")
    played_at = L.section("enlightenment.played", seats, "cards played this Enlightenment phase / 4")
    mine_at = L.onehot("enlightenment.mine", hand_ids, "1 for each card the observer played face down")

    # -- the battle ----------------------------------------------------------------------
    bat_at = L.section("battle", ["fought"], "flag: a battle is being fought")
    bsector_at = L.onehot("battle.sector", tiles)
    broles = ("initiator", "defender", "attacker", "winner", "retreated")
    brole_at = L.section("battle.seats", [f"{r} {s}" for r in broles for s in seats],
                         "one-hot seat from the observer for each role")
    bshield_at = L.section("battle.shields", [f"{s} {x}" for s in seats for x in systems],
                           "1 for each system a seat shields")
    bdest_at = L.section("battle.destroyed_at_start", [f"{s} {x}" for s in seats for x in systems],
                         "1 for each system destroyed when the battle began")

    # -- the players ------------------------------------------------------------------------
    pl_at: list[dict[str, int]] = []
    for s in seats:
        b = f"players[{s}]"
        at = {
            "faction": L.section(f"{b}.faction", factions),
            "tracks": L.section(f"{b}.tracks", ["TAU", "energy", "materials"], f"/ {track}"),
            "position": L.section(f"{b}.position", tiles),
            "knowledge": L.section(f"{b}.knowledge", ktypes, "Knowledge tokens / 4"),
            "counts": L.section(f"{b}.counts", ["orbitals at home", "GP tokens", "GP of GP tokens",
                                                "free upgrades", "Action markers used", "Action markers lost",
                                                "Action markers left", "recruit cost", "cards in hand",
                                                "Exotic re-roll round"],
                                f"orbitals at home / {num.cubes_out_max}, GP tokens / {len(g_tokens)}, their GP / "
                                f"{SCORE_CAP}, free upgrades / 4, Action markers used, lost and left / "
                                f"{num.action_markers}, recruit cost / 8, cards in hand / {HAND_CAP}, the round an "
                                f"Exotic Tech re-roll was used / {num.longest_game_rounds}"),
            "flags": L.section(f"{b}.flags", ["cargo cube", "Diplomacy card", "passed", "Exotic Tech spent",
                                              "hand shown"], "flag"),
            "systems": L.section(f"{b}.systems", [f"{x} {v}" for x in systems
                                                  for v in ("power", "damage", "virus", "effective", "token level")],
                                 f"power, damage and effective / {POWER_CAP}; virus / {num.virus_crystals}; "
                                 f"Systems token level / {y_max}"),
            "skills": L.section(f"{b}.skills", resources, f"dice of a check of the skill / {DICE_CAP}"),
            "holdings": L.section(f"{b}.holdings", [f"{q} {v}" for q in q_tokens
                                                    for v in ("held", "quantity", "engineered")],
                                  "per Commodity token: flag, quantity column / 4, flag"),
        }
        at["missions"] = L.section(f"{b}.missions", [f"{m} {v}" for m in missions
                                                     for v in ("on interface", "picked up", "unauthorized",
                                                               "permitted", "route")],
                                   "per Interplanetary Mission: flags, route length / 6")
        at["claim"] = L.section(f"{b}.claim", points, "one-hot: the point the Claim token is on")
        at["battle_sector"] = L.section(f"{b}.battle_sector", tiles, "one-hot: the sector of a battle it declared")
        at["battle_defender"] = L.section(f"{b}.battle_defender", seats, "one-hot seat from the observer")
        at["face_up"] = L.section(f"{b}.face_up", hand_ids, "1 for each card face up on its Interface")
        at["exotic"] = L.section(f"{b}.exotic_tech", exotic)
        at["hand"] = L.section(f"{b}.hand", hand_ids, "1 for each card in the hand, when observe shows it")
        at["gp_ids"] = L.section(f"{b}.gp_token_ids", g_tokens, "1 for each GP token, when observe shows it")
        pl_at.append(at)

    score_at = L.section("final_scores", [f"{s} {x}" for s in seats for x in SCORE_PARTS],
                         f"each part of the final score / {SCORE_CAP}, signed", low=-1.0)
    win_at = L.section("winners", seats, "flag per seat from the observer")

    # -- index tables the writer reads -----------------------------------------------------
    kind_ix = {k: kind_at[k] for k in kinds}
    tile_i = {t: i for i, t in enumerate(tiles)}
    planet_i = {p: i for i, p in enumerate(planets)}
    faction_i = {f: i for i, f in enumerate(factions)}
    kt_i = {t: i for i, t in enumerate(ktypes)}
    res_i = {r: i for i, r in enumerate(resources)}
    com_i = {x: i for i, x in enumerate(commodities)}
    hand_i = {x: i for i, x in enumerate(hand_ids)}
    q_i = {x: i for i, x in enumerate(q_tokens)}
    m_i = {x: i for i, x in enumerate(missions)}
    point_i = {x: i for i, x in enumerate(points)}
    g_i = {x: i for i, x in enumerate(g_tokens)}
    ex_i = {x: i for i, x in enumerate(exotic)}
    x_i = {x: i for i, x in enumerate(crisis_tokens)}
    sys_i = {x: i for i, x in enumerate(systems)}
    nk, nr, nc, nf = len(ktypes), len(resources), len(commodities), len(factions)
    nx = len(crisis_tokens)
    deck_cap = [(decks_at[d], 1.0 / decks[d]) for d in deck_names]
    ptype_stride = nk + nr

    coord = {k: (k + RADIUS) / (2 * RADIUS) for k in range(-RADIUS, RADIUS + 1)}
    cfg_items = tuple(cfg_vals.items())

    def table(m: int) -> list[float]:
        """x / m for every count below TABLE, clipped at 1: a look-up instead of a division."""
        return [k / m if k < m else 1.0 for k in range(TABLE)]

    t_track, t_4, t_6, t_power = table(track), table(4), table(6), table(POWER_CAP)
    t_virus, t_dice, t_markers = table(num.virus_crystals), table(DICE_CAP), table(num.action_markers)
    t_market, t_stack, t_bag = table(num.market_levels), table(per_type_tokens), table(num.cubes_per_faction)
    counts = (("orbitals_home", table(num.cubes_out_max)), ("gp_tokens", table(len(g_tokens))),
              ("gp_token_points", table(SCORE_CAP)), ("free_upgrades", t_4), ("markers_used", t_markers),
              ("markers_lost", t_markers), ("markers_left", t_markers), ("recruit_cost", table(8)),
              ("hand_size", table(HAND_CAP)), ("exotic_reroll_round", table(num.longest_game_rounds)))
    count_values = itemgetter(*(key for key, _ in counts))  # one C call reads the ten counts
    count_tables = [t for _, t in counts]
    knowledge_blocks: dict[tuple[tuple[str, int], ...], Buffer] = {}
    count_blocks: dict[tuple[int, ...], Buffer] = {}
    """The Knowledge tokens and the counts of a player scaled, by their values: a few hundred
    combinations in a game, looked up instead of scaled one by one."""
    system_values = itemgetter("power", "damage", "virus", "effective", "token")

    def write(o: Mapping[str, Any], a: Buffer) -> None:
        for i, v in cfg_items:
            a[i] = v
        rel = _head(o, a)
        _public(o, a, rel)
        for p in o["players"]:
            _player(p, pl_at[rel[p["seat"]]], a, rel)
        _end(o, a, rel)

    def _head(o: Mapping[str, Any], a: Buffer) -> list[int]:
        """The header and the decision asked (not the config: ``write`` writes it, ``tensor``
        starts from a buffer that has it); returns the observer's ``rel``."""
        rel = header.write(o, a)
        d = o["decision"]
        if d is None:
            a[kind_at["none"]] = 1.0
        else:
            _decision(d, a, rel)
        return rel

    def _public(o: Mapping[str, Any], a: Buffer, rel: list[int]) -> None:
        """The slices from ``tiles`` to ``battle.*``: what ``public_view`` gives."""
        _shared(o, a)
        _counts(o, a)
        _points(o["points"], a, rel)
        _seat_parts(o, a, rel)

    def _shared(o: Mapping[str, Any], a: Buffer) -> None:
        """What ``shared_view`` gives: the same for every seat."""
        _layout(o, a)
        _cubes(o, a)
        _planets(o, a)
        _tcx(o, a)
        _supply(o, a)
        _discards(o, a)

    def _layout(o: Mapping[str, Any], a: Buffer) -> None:
        for t, (q, r) in o["layout"].items():
            i = tile_at[t]
            a[i] = 1.0
            a[i + 1] = coord[q]
            a[i + 2] = coord[r]

    def _cubes(o: Mapping[str, Any], a: Buffer) -> None:
        for t, cubes in o["cubes"].items():
            base = cubes_at + nf * tile_i[t]
            for f in cubes:
                a[base + faction_i[f]] += 1.0 / num.cubes_per_faction

    def _planets(o: Mapping[str, Any], a: Buffer) -> None:
        for t in o["battles"]:
            a[battles_at[t]] = 1.0
        for p, v in o["virus_on"].items():
            a[virus_at[p]] = cap(v, num.virus_crystals)
        for p, k in o["planet_commodity"].items():
            a[commodity_at + nc * planet_i[p] + com_i[k]] = 1.0
        for p, toks in o["planet_crises"].items():
            pi = planet_i[p]
            base = ptype_at + ptype_stride * pi
            for tok in toks:
                x = tok["id"]
                a[pcrisis_at + nx * pi + x_i[x]] = 1.0
                a[base + kt_i[x_type[x]]] += 1.0 / per_type_tokens
                a[base + nk + res_i[x_res[x]]] += 1.0 / per_resource_tokens

    def _tcx(o: Mapping[str, Any], a: Buffer) -> None:
        for r, v in o["market"].items():
            a[market_at[r]] = t_market[v] if v < TABLE else 1.0
        for t, v in o["crisis_stacks"].items():
            a[stacks_at[t]] = t_stack[v] if v < TABLE else 1.0
        for t, v in o["depot_knowledge"].items():
            a[depot_at[t]] = t_4[v] if v < TABLE else 1.0
        for y in o["depot_systems"]:
            a[depsys_at[y]] = 1.0

    def _supply(o: Mapping[str, Any], a: Buffer) -> None:
        for k in o["supply"]:
            a[supply_at[k]] += 1.0 / per_commodity
        for f, v in o["bag"].items():
            a[bag_at[f]] = t_bag[v] if v < TABLE else 1.0

    def _discards(o: Mapping[str, Any], a: Buffer) -> None:
        for pile in o["discards"].values():
            for x in pile:
                a[discards_at[x]] = 1.0

    def _counts(o: Mapping[str, Any], a: Buffer) -> None:
        """What ``counts_view`` gives."""
        dk = o["decks"]
        for (i, inv), name in zip(deck_cap, deck_names, strict=True):
            a[i] = dk[name] * inv
        a[misc_at] = cap(o["demand_pile"], num.demand_pile)
        a[misc_at + 1] = cap(o["diplomacy_left"], num.diplomacy_cards)
        a[misc_at + 2] = cap(o["gp_supply"], len(g_tokens))
        a[misc_at + 3] = cap(o["damage_supply"], num.damage_markers)

    def _points(points: Mapping[str, Any], a: Buffer, rel: list[int]) -> None:
        for pid, pt in points.items():
            i = point_at[pid]
            a[i] = 1.0
            tok = pt["token"]
            if tok is not None:
                a[i + 1 + (nk if tok == "hidden" else kt_i[tok])] = 1.0
            s = pt["claimed_by"]
            if s is not None:
                a[i + 2 + nk + rel[s]] = 1.0
            s = pt["explored_by"]
            if s is not None:
                a[i + 2 + nk + n + rel[s]] = 1.0

    def _seat_parts(o: Mapping[str, Any], a: Buffer, rel: list[int]) -> None:
        """The parts of ``public_view`` that differ by seat: what the seat is shown, and
        what is written by seat counted from it."""
        nt = o["next_large_tile"]
        if nt is not None:
            a[next_at[nt]] = 1.0
        for t, seats_there in o["orbitals"].items():
            base = orbit_at + n * tile_i[t]
            for s in seats_there:
                a[base + rel[s]] += 1.0 / num.cubes_out_max
        e = o["enlightenment"]
        if e["affected"]:
            a[aff_at[e["affected"]]] = 1.0
        a[active_at] = cap(e["active_deck"], HAND_CAP)
        for s, v in e["played"].items():
            a[played_at + rel[int(s)]] = cap(v, 4)
        for x in e["mine"]:
            a[mine_at[x]] = 1.0
        b = o["battle"]
        if b is not None:
            a[bat_at] = 1.0
            a[bsector_at[b["sector"]]] = 1.0
            for j, role in enumerate(broles):
                s = b[role]
                if s is not None and s >= 0:
                    a[brole_at + n * j + rel[s]] = 1.0
            for s, syss in b["shields"].items():
                base = bshield_at + len(systems) * rel[int(s)]
                for x in syss:
                    a[base + sys_i[x]] = 1.0
            for s, syss in b["destroyed_at_start"].items():
                base = bdest_at + len(systems) * rel[int(s)]
                for x in syss:
                    a[base + sys_i[x]] = 1.0

    def _end(o: Mapping[str, Any], a: Buffer, rel: list[int]) -> None:
        for s, sc in enumerate(o["final_scores"]):
            base = score_at + len(SCORE_PARTS) * rel[s]
            for j, part in enumerate(SCORE_PARTS):
                v = sc.get(part, 0) / SCORE_CAP
                a[base + j] = v if -1.0 <= v <= 1.0 else (1.0 if v > 0 else -1.0)
        for s in o["winners"]:
            a[win_at + rel[s]] = 1.0

    data_kinds = frozenset(k for k, keys in DECISION_DATA.items() if set(keys) - {"major_done", "jump"})
    """The decision kinds whose data has slices of its own (beside the two flags)."""

    def _decision(d: Mapping[str, Any], a: Buffer, rel: list[int]) -> None:
        a[kind_ix[d["kind"]]] = 1.0
        a[dplayer_at + rel[d["player"]]] = 1.0
        data = d["data"]
        if not data:
            return
        if data.get("major_done"):
            a[dflag_at] = 1.0
        if data.get("jump"):
            a[dflag_at + 1] = 1.0
        kind = d["kind"]
        if kind not in data_kinds:
            return
        if kind in ("keep_mission", "keep_specialist"):
            for x in data.get("cards", ()):  # the cards are the chooser's alone
                a[dcards_at[x]] = 1.0
        elif kind == "claim":
            a[dsector_at[data["sector"]]] = 1.0
        elif kind == "trade_offer":
            a[dfrom_at + rel[data["from"]]] = 1.0
            for t in data["give"]:
                a[dgive_at[t]] += 0.5
            a[dwant_at[data["want"]]] = 1.0
        elif kind == "sell":
            a[dplanet_at[data["planet"]]] = 1.0
            if data["demanded"]:
                a[ddemand_at[data["demanded"]]] = 1.0
            for x in data["sold"]:
                a[dsold_at[x]] += 1.0 / per_commodity
        elif kind == "move":
            a[dnum_at] = cap(data["left"], POWER_CAP)
            for t in data["path"]:
                a[dpath_at[t]] = 1.0
            a[dhere_at[data["path"][-1]]] = 1.0
        elif kind == "virus":
            a[dplanet_at[data["planet"]]] = 1.0
            a[dnum_at + 1] = cap(data["absorb"], num.virus_crystals)
            a[dnum_at + 2] = cap(data["drop"], num.virus_crystals)
        elif kind == "damage":
            a[dnum_at + 3] = cap(data["left"], POWER_CAP)
            a[dcause_at + (0 if data["cause"].startswith("crisis") else 1)] = 1.0
        elif kind == "reroll":
            a[dnum_at + 4] = data["target"] / 6
            a[dnum_at + 5] = cap(data["successes"], DICE_CAP)
            a[dskill_at[data["skill"]]] = 1.0
            dice = data["dice"]
            for f in set(dice):
                a[ddice_at + f - 1] = cap(dice.count(f), DICE_CAP)
            a[dthen_at[data["then"]]] = 1.0
            ctx = data["ctx"]
            if ctx.get("point"):
                a[dpoint_at[ctx["point"]]] = 1.0
            if ctx.get("card"):
                a[dcard_at[ctx["card"]]] = 1.0

    def _player(p: Mapping[str, Any], at: dict[str, int], a: Buffer, rel: list[int]) -> None:
        _tracks(p, at, a)
        _systems(p, at, a)
        _interface(p, at, a, rel)

    def _tracks(p: Mapping[str, Any], at: dict[str, int], a: Buffer) -> None:
        """The slices from ``faction`` to ``flags`` of one player block: what ``player_tracks`` gives."""
        a[at["faction"] + faction_i[p["faction"]]] = 1.0
        i = at["tracks"]
        x = p["tau"]
        if x:
            a[i] = t_track[x] if x < TABLE else 1.0
        x = p["energy"]
        if x:
            a[i + 1] = t_track[x] if x < TABLE else 1.0
        x = p["materials"]
        if x:
            a[i + 2] = t_track[x] if x < TABLE else 1.0
        a[at["position"] + tile_i[p["position"]]] = 1.0
        i = at["knowledge"]
        knowledge = tuple(p["knowledge"].items())
        block = knowledge_blocks.get(knowledge)
        if block is None:
            if len(knowledge_blocks) >= BLOCKS:
                knowledge_blocks.clear()
            block = knowledge_blocks.setdefault(knowledge, array("f", bytes(4 * nk)))
            for t, x in knowledge:
                block[kt_i[t]] = t_4[x] if x < TABLE else 1.0
        a[i:i + nk] = block
        i = at["counts"]
        values = count_values(p)
        block = count_blocks.get(values)
        if block is None:
            if len(count_blocks) >= BLOCKS:
                count_blocks.clear()
            block = count_blocks.setdefault(values, array("f", bytes(4 * len(values))))
            for j, x in enumerate(values):
                block[j] = count_tables[j][x] if x < TABLE else 1.0
        a[i:i + len(values)] = block
        i = at["flags"]
        if p["cargo_cube"]:
            a[i] = 1.0
        if p["diplomacy"]:
            a[i + 1] = 1.0
        if p["passed"]:
            a[i + 2] = 1.0
        if p["exotic_spent"]:
            a[i + 3] = 1.0
        if p.get("hand") is not None:
            a[i + 4] = 1.0

    def _systems(p: Mapping[str, Any], at: dict[str, int], a: Buffer) -> None:
        """The slices ``systems`` and ``skills`` of one player block: what ``player_systems`` gives."""
        i = at["systems"]
        for x, v in p["systems"].items():
            j = i + 5 * sys_i[x]
            pw, dm, vi, ef, tok = system_values(v)
            a[j] = t_power[pw] if pw < TABLE else 1.0
            if dm:
                a[j + 1] = t_power[dm] if dm < TABLE else 1.0
            if vi:
                a[j + 2] = t_virus[vi] if vi < TABLE else 1.0
            if ef:
                a[j + 3] = t_power[ef] if ef < TABLE else 1.0
            if tok is not None:
                a[j + 4] = y_level[tok] / y_max
        i = at["skills"]
        for r, x in p["skills"].items():
            a[i + res_i[r]] = t_dice[x] if x < TABLE else 1.0

    def _interface(p: Mapping[str, Any], at: dict[str, int], a: Buffer, rel: list[int]) -> None:
        """The slices from ``holdings`` to ``gp_token_ids`` of one player block: what
        ``player_interface`` gives."""
        i = at["holdings"]
        for h in p["holdings"]:
            j = i + 3 * q_i[h["token"]]
            a[j] = 1.0
            x = h["quantity"]
            a[j + 1] = t_4[x] if x < TABLE else 1.0
            if h["engineered"]:
                a[j + 2] = 1.0
        i = at["missions"]
        for m in p["missions"]:
            j = i + 5 * m_i[m["card"]]
            a[j] = 1.0
            if m["picked_up"]:
                a[j + 1] = 1.0
            if m["unauthorized"]:
                a[j + 2] = 1.0
            if m["permitted"]:
                a[j + 3] = 1.0
            x = m["route"]
            if x is not None:
                a[j + 4] = t_6[x] if x < TABLE else 1.0
        x = p["claim"]
        if x is not None:
            a[at["claim"] + point_i[x]] = 1.0
        x = p["battle_sector"]
        if x is not None:
            a[at["battle_sector"] + tile_i[x]] = 1.0
        x = p["battle_defender"]
        if x is not None:
            a[at["battle_defender"] + rel[x]] = 1.0
        i = at["face_up"]
        for x in p["face_up"]:
            a[i + hand_i[x]] = 1.0
        x = p["exotic_tech"]
        if x is not None:
            a[at["exotic"] + ex_i[x]] = 1.0
        hand = p.get("hand")
        if hand is not None:
            i = at["hand"]
            for x in hand:
                a[i + hand_i[x]] = 1.0
        ids = p.get("gp_token_ids")
        if ids:
            i = at["gp_ids"]
            for x in ids:
                a[i + g_i[x]] = 1.0

    # -- the tensor of a state: the same writers, each part written only when it may have changed --
    #
    # The tensor is cut into parts, each a run of slices written from one view of
    # ``tauceti.observation`` (the functions ``observe`` puts together). The store keeps, per
    # part, the blocks it last wrote with what the view was made from (the state's fields it
    # reads, copied where the state changes them in place), compared by value: equal inputs
    # give an equal view, so the blocks are copied (a memcpy each) instead of written. A step
    # changes the acting player and now and then the map, so most parts are copied. Whose
    # view a part is (the observer, seats counted from it) is in its key. The check (look up,
    # compare, copy or write and keep) is written out part by part in ``tensor`` and
    # ``player``: a helper called a dozen times a step cost more than the copies it saves.
    def sl(first: str, last: str | None = None) -> slice:
        return slice(L.slices[first].start, L.slices[last or first].stop)

    shared_reads: tuple[tuple[str, tuple[str, ...], slice, Callable[[State], Mapping[str, Any]],
                              Callable[[Mapping[str, Any], Buffer], None]], ...] = (
        ("tiles", ("layout",), sl("tiles"), layout_view, _layout),
        ("cubes", ("cubes",), sl("cubes"), cubes_view, _cubes),
        ("planets", ("planet_commodity", "planet_crises", "virus_on", "battles"),
         sl("battles", "planet_crisis_types"), planets_view, _planets),
        ("tcx", ("market", "crisis_stacks", "depot_knowledge", "depot_systems"),
         sl("market", "depot_systems"), tcx_view, _tcx),
        ("supply", ("supply", "bag"), sl("supply", "bag"), supply_view, _supply),
        ("discards", ("crisis_discard", "specialist_discard", "knowledge_discard", "mission_discard"),
         sl("discards"), discards_view, _discards),
    )
    """The parts of ``shared_view``: key, the State fields the view reads, the run of slices,
    the view and its writer."""
    shared_parts = tuple((name, attrgetter(*fields), at, view, write_part)
                         for name, fields, at, view, write_part in shared_reads)
    shared_fields = attrgetter(*(f for _, fields, _, _, _ in shared_reads for f in fields))
    """What all the shared parts read: when none changed, the run from the first to the last
    is one copy (it is kept before the points, counts and seat's parts inside it are written)."""
    shared_at = sl("tiles", "discards")
    plain_keys = [tuple((s, s == o, s == o, None) for s in range(n)) for o in range(n)]
    plain_keys.append(tuple((s, False, False, None) for s in range(n)))  # the spectator
    """The players' keys when nobody is shown another's hand and no battle was declared."""
    points_at = sl("points")
    decks_run, supplies_at = sl("decks"), sl("supplies")
    next_tile_at, orbitals_at = sl("next_large_tile"), sl("orbitals")
    enl_battle_at = sl("enlightenment.affected", "battle.destroyed_at_start")
    player_at = [sl(f"players[{k}].faction", f"players[{k}].gp_token_ids") for k in seats]
    tracks_at = [sl(f"players[{k}].faction", f"players[{k}].flags") for k in seats]
    systems_at = [sl(f"players[{k}].systems", f"players[{k}].skills") for k in seats]
    interface_at = [sl(f"players[{k}].holdings", f"players[{k}].gp_token_ids") for k in seats]
    blank = array("f", bytes(4 * L.size))  # every tensor's config slices are the same
    for i, v in cfg_items:
        blank[i] = v
    none_at = kind_at["none"]
    seat_keys = [("seat", o) for o in (*range(n), None)]
    default_store = Recent()
    tracks_keys = [("tracks", s) for s in range(n)]
    systems_keys = [("systems", s) for s in range(n)]
    tracks_fields = attrgetter(*TRACKS_FIELDS)
    systems_fields = attrgetter(*SYSTEMS_FIELDS)
    interface_fields = attrgetter(*INTERFACE_FIELDS)

    def player(state: State, s: int, observer: int | None, seen: frozenset[int], rel: list[int],
               key: Any, a: Buffer, last: Callable[[Any], Any], keep: Callable[[Any, Any], None]) -> None:
        """One player's block when some of the player's fields changed: its three parts
        (tracks, systems, the rest of the Interface), each copied if its own fields did not."""
        p = state.players[s]
        k = rel[s]
        at = pl_at[k]
        shown = s in seen
        now: Any = (tracks_fields(p), len(p.hand), shown)
        name = tracks_keys[s]
        r = last(name)
        if r is not None and r[0] == now:
            a[tracks_at[k]] = r[1]
        else:
            _tracks(player_tracks(state, s, seen), at, a)
            keep(name, (now, a[tracks_at[k]]))
        now = systems_fields(p)
        name = systems_keys[s]
        r = last(name)
        if r is not None and r[0] == now:
            a[systems_at[k]] = r[1]
        else:
            _systems(player_systems(state, s), at, a)
            keep(name, (now, a[systems_at[k]]))
        now = (interface_fields(p), tuple(p.hand) if shown else None)
        r = last(("interface", key))
        if r is not None and r[0] == now:
            a[interface_at[k]] = r[1]
        else:
            _interface(player_interface(state, s, observer, seen), at, a, rel)
            keep(("interface", key), (now, a[interface_at[k]]))
        copy = p.__dict__.copy()
        copy["hand"] = list(p.hand)  # the one field the state changes in place
        keep(key, (copy, a[player_at[k]]))

    def tensor(state: Any, seat: int | None, store: Recent | None = None) -> Buffer:
        """``write(observe(state, seat))``, each part copied from the store (the encoder's own
        unless one is given) when what its view is made from has not changed."""
        if not isinstance(state, State):
            raise ValueError(f"not a Tau Ceti state: {type(state).__name__}")
        if len(state.players) != n:
            raise ValueError(f"a state of {len(state.players)} players, not {n}")
        observer = seat if seat.__class__ is int and 0 <= seat < n else seat_of(state, seat, spectator=True)
        if store is None:
            store = default_store
        store.content(state.content)
        last, keep = store.entries.get, store.entries.__setitem__
        a = array("f", blank)
        rel = header.write({"observer": observer, "round": state.round, "phase": state.phase,
                            "first_player": state.first_player, "turn_seat": state.turn_seat,
                            "current_player": state.current_player}, a)
        d = decision_view(state, observer, PRIVATE_DECISION_KEYS, copy=False)
        if d is None:
            a[none_at] = 1.0
        else:
            _decision(d, a, rel)
        table = shared_fields(state)
        r = last("shared")
        if r is not None and r[0] == table:  # most steps: one copy for everything every seat sees alike
            a[shared_at] = r[1]
        else:
            for name, inputs, at, part_view, write_part in shared_parts:
                now = inputs(state)
                r = last(name)
                if r is not None and r[0] == now:
                    a[at] = r[1]
                else:
                    write_part(part_view(state), a)
                    keep(name, (_copied(now), a[at]))
            keep("shared", (_copied(table), a[shared_at]))  # the seat's slices in it are still 0
        key: Any = ("points", rel[0])  # claims and explorations are counted from the observer
        now = (state.points, state.layout)
        r = last(key)
        if r is not None and r[0] == now:
            a[points_at] = r[1]
        else:
            _points(points_view(state), a, rel)
            keep(key, (now, a[points_at]))
        counts = counts_view(state)
        r = last("counts")
        if r is not None and r[0] == counts:
            blocks = r[1]
            a[decks_run] = blocks[0]
            a[supplies_at] = blocks[1]
        else:
            _counts(counts, a)
            keep("counts", (counts, (a[decks_run], a[supplies_at])))
        view = seat_view(state, observer)
        key = seat_keys[n if observer is None else observer]
        r = last(key)
        if r is not None and r[0] == view:
            blocks = r[1]
            a[next_tile_at] = blocks[0]
            a[orbitals_at] = blocks[1]
            a[enl_battle_at] = blocks[2]
        else:
            _seat_parts(view, a, rel)
            keep(key, (view, (a[next_tile_at], a[orbitals_at], a[enl_battle_at])))
        seen = hands_seen(state, observer)
        plain = plain_keys[n if observer is None else observer] if len(seen) < 2 else None
        for s, p in enumerate(state.players):
            bd = p.battle_defender  # the one seat a player's block counts from the observer
            if bd is None and plain is not None:
                key = plain[s]
            else:
                key = (s, s in seen, observer == s, None if bd is None else rel[bd])
            r = last(key)
            if r is not None and r[0] == p.__dict__:
                a[player_at[rel[s]]] = r[1]
            else:
                player(state, s, observer, seen, rel, key, a, last, keep)
        if state.final_scores or state.winners:  # end_view is empty until the game is over
            _end(end_view(state), a, rel)
        return a

    recall = tuple(all_cards + exotic + crisis_tokens + q_tokens + y_tokens + g_tokens + tiles)
    return GameEncoding(L, write, recall, tensor, (default_store,))


def _copied(inputs: Any) -> Any:
    """A part's inputs as they are kept: the state's lists and dicts (and the lists in a dict:
    the cubes on each tile) copied, so a change in place cannot reach the copy. Tuples,
    FrozenDicts and frozen records are kept as they are: the state replaces them."""
    if inputs.__class__ is tuple:
        return tuple(map(_copied_one, inputs))
    return _copied_one(inputs)


def _copied_one(value: Any) -> Any:
    cls = value.__class__
    if cls is list:
        return value.copy()
    if cls is dict:
        return {k: v.copy() if v.__class__ is list else v for k, v in value.items()}
    return value
