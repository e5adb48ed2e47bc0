"""The Ceres observation tensor: its slices for one config and the writer that fills them.

Seats are counted from the observer, as in Tau Ceti. The belt is written twice: per
Asteroid (its Zone, whose probe) and as a ring x Zone grid of probes and Comet tokens, the
picture a player looks at. The Comets slices (Comet tokens, Surface card slots, Tail tokens,
the Nucleus cards in the box, the Explosion Check cards) exist only with the expansion.
docs/observation.md lists the slices.

``tensor`` is ``write(observe(state, seat))`` at the cost of what changed: the Zones' block
(the ``rotation`` and each Asteroid's Zone), each player's block and the Comets' block (all but
their seats) are kept in a memo by their key (``ceres.observation``), written from the part's
own view when the key is new. What is counted from the observer and changes nearly every step
(whose probe is on an Asteroid or a Surface card slot, who took a Tail token) is left out of
those blocks, so every seat shares them, and written each call, with the header, the decision
and the counts.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, get_args

from ecliptic.adapters.observation import Buffer, GameEncoding, Header, Layout, Memo, Recent, cap
from ecliptic.ceres.comets import SURFACE_CARDS as COMETS
from ecliptic.ceres.content import TAIL_TYPES, CometKind, default_content
from ecliptic.ceres.invariants import DECISION_DATA
from ecliptic.ceres.observation import (
    comet_view,
    comets_key,
    counts_view,
    end_view,
    player_counts,
    player_keys,
    seats_view,
    zones_key,
    zones_view,
)
from ecliptic.ceres.scoring import SOURCES
from ecliptic.ceres.state import Phase, State
from ecliptic.engine.rules import seat_of

PHASES: tuple[str, ...] = get_args(Phase)
KINDS: tuple[str, ...] = get_args(CometKind)
MODES: tuple[str, ...] = get_args(DECISION_DATA["tail"]["mode"])
RESOURCE_CAP = 20
VP_CAP = 40


class _ZonesMemo(Memo):
    """The memo of the belt's Zones, which keeps beside each block where a probe on each
    Asteroid is written in those Zones (the probes are written per call)."""

    def __init__(self) -> None:
        self.zones: dict[Any, dict[str, tuple[int, int]]] = {}
        super().__init__()

    def clear(self) -> None:
        super().clear()
        self.zones.clear()


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
        slot_off = len(nuclei) + len(KINDS) + len(zones) + len(rings) + 2  # a Comet's first slot
        slot_at = [comet_at + cstride * ci + slot_off + 1 for ci in range(len(COMETS))]  # + (n + 1) x slot + seat
        step = n + 1
        taken_at = {x: tail_at + nplaces * tail_i[x] + len(places) for x in tails}  # + the seat
        n_nuclei, n_checks = len(nuclei), len(c.explosion_checks)
    nz = len(zones)

    n_res = len(resources)
    res_i = {r: j for j, r in enumerate(resources)}
    t_res = [cap(x, RESOURCE_CAP) for x in range(RESOURCE_CAP + 1)]
    t_vp = [cap(x, VP_CAP) for x in range(VP_CAP + 1)]
    t_probes = [cap(x, num.probes) for x in range(num.probes + 1)]
    ast_base = {x: ast_at + astride * i for i, x in enumerate(asteroids)}  # + its Zone - 1
    grid_row = {a.id: grid_at + ring_i[a.ring] * nz * n for a in c.asteroids}  # + (Zone - 1) x n + seat
    kind_i = {k: i for i, k in enumerate(KINDS)}

    def write(o: Mapping[str, Any], a: Buffer) -> None:
        """``encode``: every part from the observation's dict."""
        rel = header.write(o, a)
        _config(a)
        d = o["decision"]
        if d is None:
            a[kind_at["none"]] = 1.0
        else:
            _decision(d["kind"], d["player"], d["data"], a, rel)
        _rotation(o["rotation"], a)
        for x, v in o["belt"].items():  # the places _zones and _probes write at, in one pass
            i = ast_base[x]
            z = v["zone"] - 1
            a[i + z] = 1.0
            s = v["probe"]
            if s is not None:
                k = rel[s]
                a[i + nz + k] = 1.0
                a[grid_row[x] + z * n + k] = 1.0
        for p in o["players"]:
            _player(p, pl_at[rel[p["seat"]]], a)
        _end(o, a, rel)
        if comets_on:
            comets = o["comets"]
            _comets(comets, o["removed_tails"], a)
            _comet_seats([cm["slots"] for cm in comets], [p["tail_tokens"] for p in o["players"]], a, rel)
            _counts(o, a)

    def _config(a: Buffer) -> None:
        a[cfg_at] = n / 4
        if comets_on:
            a[cfg_at + 1] = 1.0

    def _decision(kind: str, player: int, data: Mapping[str, Any], a: Buffer, rel: list[int]) -> None:
        a[kind_at[kind]] = 1.0
        a[dplayer_at + rel[player]] = 1.0
        if "comet" in data:
            a[dcomet_at[data["comet"]]] = 1.0
            a[dslot_at + data["slot"]] = 1.0
        if "mode" in data:
            a[dmode_at[data["mode"]]] = 1.0

    def _rotation(rotation: Mapping[str, int], a: Buffer) -> None:
        for r, v in rotation.items():
            a[rot_at[r]] = cap(v, steps[r])

    def _zones(zones: Mapping[str, int], a: Buffer) -> dict[str, tuple[int, int]]:
        """Each Asteroid's Zone one-hot (not its probe); returns where a probe on each Asteroid
        is written in these Zones (plus the seat counted from the observer): in the Asteroid's
        entries and in the ring x Zone grid."""
        at: dict[str, tuple[int, int]] = {}
        for x, z in zones.items():
            i = ast_base[x]
            a[i + z - 1] = 1.0
            at[x] = (i + nz, grid_row[x] + (z - 1) * n)
        return at

    def _probes(claims: Iterable[tuple[str, int]], at: Mapping[str, tuple[int, int]], a: Buffer,
                rel: list[int]) -> None:
        """Whose Mining Probe is on each claimed Asteroid (``(asteroid, seat)``), placed by
        ``at`` (what :func:`_zones` returned)."""
        for x, s in claims:
            i, j = at[x]
            k = rel[s]
            a[i + k] = a[j + k] = 1.0

    def _player(p: Mapping[str, Any], i: int, a: Buffer) -> None:
        """One player's block (at ``i``) from a view with the fields of ``player_counts``."""
        for r, x in p["resources"].items():
            if x:
                a[i + res_i[r]] = t_res[x] if 0 < x <= RESOURCE_CAP else cap(x, RESOURCE_CAP)
        j = i + n_res
        x = p["probes"]
        a[j] = t_probes[x] if 0 <= x <= num.probes else cap(x, num.probes)
        if p["passed"]:
            a[j + 1] = 1.0
        vp = p["vp"]
        j += 2
        for k, part in enumerate(parts):
            x = vp.get(part, 0)
            if x:
                a[j + k] = t_vp[x] if 0 < x <= VP_CAP else cap(x, VP_CAP)

    def _end(o: Mapping[str, Any], a: Buffer, rel: list[int]) -> None:
        for s, sc in enumerate(o["final_scores"]):
            for k, part in enumerate(parts):
                a[score_at + len(parts) * rel[s] + k] = cap(sc.get(part, 0), VP_CAP)
        for s in o["winners"]:
            a[win_at + rel[s]] = 1.0

    def _comets(comets: Sequence[Mapping[str, Any]], removed: Iterable[str], a: Buffer) -> None:
        """The Comets, their grid and the Tail tokens on them or removed: all but the seats."""
        for ci, cm in enumerate(comets):
            i = comet_at + cstride * ci
            a[i + nuc_i[cm["nucleus"]]] = 1.0
            j = i + len(nuclei)
            a[j + kind_i[cm["kind"]]] = 1.0
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
            for k in range(len(cm["slots"])):
                a[j + (n + 1) * k] = 1.0
            for t, column in enumerate(cm["tails"]):
                for row, x in enumerate(column):
                    if x is not None:
                        a[tail_at + nplaces * tail_i[x] + (ci * tables + t) * len(TAIL_TYPES) + row] = 1.0
        for x in removed:
            a[tail_at + nplaces * tail_i[x] + nplaces - 1] = 1.0

    def _comet_seats(slots: Sequence[Sequence[int | None]], taken: Sequence[Iterable[str]], a: Buffer,
                     rel: list[int]) -> None:
        """What the Comets slices count by seat: whose probe is on each Surface card slot, who
        took each Tail token."""
        for ci, column in enumerate(slots):
            j = slot_at[ci]
            for k, s in enumerate(column):
                if s is not None:
                    a[j + step * k + rel[s]] = 1.0
        for s, tokens in enumerate(taken):
            k = rel[s]
            for x in tokens:
                a[taken_at[x] + k] = 1.0

    def _counts(o: Mapping[str, Any], a: Buffer) -> None:
        x = o["nucleus_box"]
        if x:
            a[box_at] = cap(x, n_nuclei)
        deck = o["explosion_deck"]
        if deck["cards"]:
            a[box_at + 1] = cap(deck["cards"], n_checks)
            a[box_at + 2] = cap(deck["Safe"], n_checks)
            a[box_at + 3] = cap(deck["Explosion"], n_checks)

    # -- the tensor of a state: the same writers, each view built only when its key is new ------
    zones_block = slice(L.slices["rotation"].start, L.slices["belt.asteroids"].stop)
    player_blocks = [L.slices[f"players[{s}]"] for s in seats]
    comets_block = slice(comet_at, L.slices["tail_tokens"].stop) if comets_on else slice(0, 0)
    zones_memo, players_memo, comets_memo = _ZonesMemo(), Memo(), Memo()
    memos = (zones_memo, players_memo, comets_memo)
    zones_get, players_get, comets_get = zones_memo.blocks.get, players_memo.blocks.get, comets_memo.blocks.get
    zone_tables = zones_memo.zones
    zeros = array("f", bytes(4 * L.size))
    last_content: list[object] = [None]  # the content the memos were last told of

    def tensor(state: Any, seat: int | None, store: Recent | None = None) -> Buffer:
        """``write(observe(state, seat))``: the header and what is counted by seat written from
        the state each time, every other part copied from the memo when its key
        (``ceres.observation``) has been seen; equal keys give equal views. The memo is keyed
        by value and holds many blocks, so every environment shares it (``store`` is not used)."""
        if not isinstance(state, State):
            raise ValueError(f"not a Ceres state: {type(state).__name__}")
        if len(state.players) != n:
            raise ValueError(f"a state of {len(state.players)} players, not {n}")
        observer = seat_of(state, seat, spectator=True)
        if state.content is not last_content[0]:
            for memo in memos:
                memo.content(state.content)
            last_content[0] = state.content
        a = zeros[:]
        rel = header.write({"observer": observer, "round": state.round, "phase": state.phase,
                            "first_player": state.first_player, "turn_seat": state.turn_seat,
                            "current_player": state.current_player}, a)
        _config(a)
        stack = state.stack
        if stack:
            d = stack[-1]
            _decision(d.kind, d.player, d.data, a, rel)
        else:
            a[kind_at["none"]] = 1.0
        found = zones_key(state)
        block = zones_get(found)
        if block is None:
            _rotation(state.rotation, a)
            probe_at = _zones(zones_view(state), a)
            zones_memo.put(found, a[zones_block])
            zone_tables[found] = probe_at  # (after ``put``: a full memo empties both first)
        else:
            a[zones_block] = block
            probe_at = zone_tables[found]
        claims, slots, taken = seats_view(state)
        _probes(claims, probe_at, a, rel)
        for s, found in enumerate(player_keys(state)):
            k = rel[s]
            block = players_get(found)
            if block is None:
                _player(player_counts(state, s), pl_at[k], a)
                players_memo.put(found, a[player_blocks[k]])
            else:
                a[player_blocks[k]] = block
        if state.final_scores or state.winners:  # (the view is empty until the game is over)
            _end(end_view(state), a, rel)
        if comets_on:
            found = comets_key(state)
            block = comets_get(found)
            if block is None:
                _comets([comet_view(state, i) for i in range(len(state.comets))], state.removed_tails, a)
                comets_memo.put(found, a[comets_block])
            else:
                a[comets_block] = block
            _comet_seats(slots, taken, a, rel)
            _counts(counts_view(state), a)
        return a

    recall = tuple(tails + nuclei + [x.id for x in c.explosion_checks] + asteroids)
    return GameEncoding(L, write, recall, tensor, memos)
