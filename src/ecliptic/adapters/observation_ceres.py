"""The Ceres observation tensor: its slices for one config and the writer that fills them.

Seats are counted from the observer, as in Tau Ceti. The belt is written twice: per
Asteroid (its Zone, whose probe) and as a ring x Zone grid of probes and Comet tokens, the
picture a player looks at. The Comets slices (Comet tokens, Surface card slots, Tail tokens,
the Nucleus cards in the box, the Explosion Check cards) exist only with the expansion.
docs/observation.md lists the slices.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_args

from ecliptic.adapters.observation import Buffer, GameEncoding, Header, Layout, cap
from ecliptic.ceres.comets import SURFACE_CARDS as COMETS
from ecliptic.ceres.content import TAIL_TYPES, CometKind, default_content
from ecliptic.ceres.invariants import DECISION_DATA
from ecliptic.ceres.scoring import SOURCES
from ecliptic.ceres.state import Phase

PHASES: tuple[str, ...] = get_args(Phase)
KINDS: tuple[str, ...] = get_args(CometKind)
MODES: tuple[str, ...] = get_args(DECISION_DATA["tail"]["mode"])
RESOURCE_CAP = 20
VP_CAP = 40


def build(config: Mapping[str, Any]) -> GameEncoding:
    c = default_content()
    num = c.numbers
    n = int(config["players"])
    comets_on = "comets" in config["expansions"]
    L = Layout()
    seats = [f"+{k}" for k in range(n)]
    rings = list(num.rings)
    zones = list(range(1, num.zones + 1))
    asteroids = [x.id for x in c.asteroids]
    tails = [x.id for x in c.tail_tokens]
    nuclei = [x.id for x in c.nucleus_cards]
    resources = list(num.resources)
    parts = [*SOURCES, "total"]
    slots = max(c.surface.slots.values())  # the most Surface card slots for any player count

    header = Header(L, n, num.rounds, PHASES)
    cfg_at = L.section("config", ["players/4", "Comets"], "the game's config (constant through a game)")
    kind_at = L.onehot("decision.kind", [*DECISION_DATA, "none"])
    dplayer_at = L.section("decision.player", seats, "one-hot, seat counted from the observer")
    dcomet_at = L.onehot("decision.comet", COMETS)
    dslot_at = L.section("decision.slot", [str(i) for i in range(slots)])
    dmode_at = L.onehot("decision.mode", MODES)
    steps = {r: max(1, num.rotation[r] * num.rounds) for r in rings}
    rot_at = L.onehot("rotation", rings, "steps the ring has turned / (its steps a round x rounds)")
    ast_at = L.section("belt.asteroids", [f"{x} {v}" for x in asteroids
                                          for v in (*(f"zone {z}" for z in zones), *(f"probe {s}" for s in seats))],
                       "per Asteroid: its Zone one-hot, whose Mining Probe claimed it (seat from the observer)")
    astride = len(zones) + n
    grid_at = L.section("belt.grid", [f"{r} zone {z} {s}" for r in rings for z in zones for s in seats],
                        "1 where a seat's Mining Probe is, by ring and Zone")
    ring_i = {r: i for i, r in enumerate(rings)}
    ast_i = {x: i for i, x in enumerate(asteroids)}
    pl_at: list[int] = []
    for s in seats:
        pl_at.append(L.section(f"players[{s}]", [*(f"{r}" for r in resources), "probes in supply", "passed",
                                                 *(f"VP {p}" for p in parts)],
                               f"Resources / {RESOURCE_CAP}, Mining Probes in supply / {num.probes}, passed flag, "
                               f"VP by source and total / {VP_CAP}"))
    score_at = L.section("final_scores", [f"{s} {p}" for s in seats for p in parts], f"VP / {VP_CAP}")
    win_at = L.section("winners", seats, "flag per seat from the observer")

    if comets_on:
        cstride = len(nuclei) + len(KINDS) + len(zones) + len(rings) + 2 + slots * (n + 1)
        comet_at = L.section("comets", [f"{cm} {v}" for cm in COMETS
                                        for v in (*(f"nucleus {x}" for x in nuclei), *KINDS,
                                                  *(f"zone {z}" for z in zones), *(f"ring {r}" for r in rings),
                                                  "in belt", "removed",
                                                  *(f"slot {i} {w}" for i in range(slots)
                                                    for w in ("available", *seats)))],
                             "per Comet: its Nucleus card, side, Zone and ring one-hot, flags, and each "
                             "Surface card slot (available, whose probe)")
        cgrid_at = L.section("comets.grid", [f"{cm} {r} zone {z}" for cm in COMETS for r in rings for z in zones],
                             "1 where a Comet token is in the belt")
        tables = len(c.nucleus_cards[0].tables)  # one tail under each resource table
        places = [f"{cm} tail {t + 1} {row}" for cm in COMETS for t in range(tables) for row in TAIL_TYPES]
        nplaces = len(places) + n + 1
        tail_at = L.section("tail_tokens", [f"{x} {w}" for x in tails for w in (*places, *(f"taken {s}" for s in seats),
                                                                                "removed")],
                            "per Tail token: where it is, one-hot (a Comet's tail and its row, Coma, Ion or "
                            "Dust; taken by a seat from the observer; removed from the game)")
        tail_i = {x: i for i, x in enumerate(tails)}
        box_at = L.section("comets.cards", ["Nucleus cards in the box", "Explosion Check cards", "Safe", "Explosion"],
                           f"Nucleus cards in the box / {len(nuclei)}; Explosion Check cards face down, of them "
                           f"Safe and Explosion / {len(c.explosion_checks)}")
        nuc_i = {x: i for i, x in enumerate(nuclei)}
    nz = len(zones)

    def write(o: Mapping[str, Any], a: Buffer) -> None:
        rel = header.write(o, a)
        a[cfg_at] = n / 4
        if comets_on:
            a[cfg_at + 1] = 1.0
        d = o["decision"]
        if d is None:
            a[kind_at["none"]] = 1.0
        else:
            a[kind_at[d["kind"]]] = 1.0
            a[dplayer_at + rel[d["player"]]] = 1.0
            data = d["data"]
            if "comet" in data:
                a[dcomet_at[data["comet"]]] = 1.0
                a[dslot_at + data["slot"]] = 1.0
            if "mode" in data:
                a[dmode_at[data["mode"]]] = 1.0
        for r, v in o["rotation"].items():
            a[rot_at[r]] = cap(v, steps[r])
        for x, v in o["belt"].items():
            i = ast_at + astride * ast_i[x]
            z = v["zone"]
            a[i + z - 1] = 1.0
            s = v["probe"]
            if s is not None:
                a[i + nz + rel[s]] = 1.0
                a[grid_at + (ring_i[v["ring"]] * nz + z - 1) * n + rel[s]] = 1.0
        for p in o["players"]:
            i = pl_at[rel[p["seat"]]]
            for j, r in enumerate(resources):
                a[i + j] = cap(p["resources"].get(r, 0), RESOURCE_CAP)
            j = i + len(resources)
            a[j] = cap(p["probes"], num.probes)
            if p["passed"]:
                a[j + 1] = 1.0
            vp = p["vp"]
            for k, part in enumerate(parts):
                a[j + 2 + k] = cap(vp.get(part, 0), VP_CAP)
            if comets_on:
                for x in p["tail_tokens"]:
                    a[tail_at + nplaces * tail_i[x] + len(places) + rel[p["seat"]]] = 1.0
        for s, sc in enumerate(o["final_scores"]):
            for k, part in enumerate(parts):
                a[score_at + len(parts) * rel[s] + k] = cap(sc.get(part, 0), VP_CAP)
        for s in o["winners"]:
            a[win_at + rel[s]] = 1.0
        if comets_on:
            _comets(o, a, rel)

    def _comets(o: Mapping[str, Any], a: Buffer, rel: list[int]) -> None:
        for ci, cm in enumerate(o["comets"]):
            i = comet_at + cstride * ci
            a[i + nuc_i[cm["nucleus"]]] = 1.0
            j = i + len(nuclei)
            a[j + KINDS.index(cm["kind"])] = 1.0
            j += len(KINDS)
            a[j + cm["zone"] - 1] = 1.0
            j += nz
            if cm["ring"] is not None:
                a[j + ring_i[cm["ring"]]] = 1.0
            j += len(rings)
            if cm["in_belt"]:
                a[j] = 1.0
                a[cgrid_at + (ci * len(rings) + ring_i[cm["ring"]]) * nz + cm["zone"] - 1] = 1.0
            if cm["removed"]:
                a[j + 1] = 1.0
            j += 2
            for k, s in enumerate(cm["slots"]):
                a[j + (n + 1) * k] = 1.0
                if s is not None:
                    a[j + (n + 1) * k + 1 + rel[s]] = 1.0
            for t, column in enumerate(cm["tails"]):
                for row, x in enumerate(column):
                    if x is not None:
                        a[tail_at + nplaces * tail_i[x] + (ci * tables + t) * len(TAIL_TYPES) + row] = 1.0
        for x in o["removed_tails"]:
            a[tail_at + nplaces * tail_i[x] + nplaces - 1] = 1.0
        a[box_at] = cap(o["nucleus_box"], len(nuclei))
        deck = o["explosion_deck"]
        m = len(c.explosion_checks)
        a[box_at + 1] = cap(deck["cards"], m)
        a[box_at + 2] = cap(deck["Safe"], m)
        a[box_at + 3] = cap(deck["Explosion"], m)

    recall = tuple(tails + nuclei + [x.id for x in c.explosion_checks] + asteroids)
    return GameEncoding(L, write, recall)
