"""The browser table's redraw time: ``renderTable`` in Chromium, measured with performance marks.

``python -m benchmarks.web_redraw`` loads the table's ES modules (src/ecliptic/web/static) into
headless Chromium from a tiny static HTTP server, redraws a mid-game 4-player Tau Ceti view (and
a Ceres view with Comets) many times, and prints the median and 95th percentile milliseconds per
redraw and the size of the table's JavaScript + CSS. A figure, never an assertion (issue 17's
budget: ≤ 50 ms per redraw, ≤ 300 KB for the whole client).

The helpers here are shared with tests/test_browser_board.py: :func:`game_view` builds a GameView
from a real observation the way the server's contract describes it (COMMON2.md) — the
``legal_actions`` targets read off each action's notation and ``present.names`` from the printed
components, standing in for the presentation module so that the table can be drawn and tested
on its own — and :class:`BoardPage` is the page that loads the modules.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import random
import re
import statistics
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ecliptic.engine.frozendict import FrozenDict
from ecliptic.games import get_game

STATIC = Path(__file__).resolve().parent.parent / "src" / "ecliptic" / "web" / "static"
TABLE_FILES = ("table.js", "table.css", "svg.js", "tauceti-board.js", "tauceti-interfaces.js",
               "tauceti-tcx.js", "ceres-belt.js", "ceres-players.js")
CHROMIUM = "/usr/bin/chromium"

HARNESS = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body { margin: 8px; background: #0d1020; }</style></head>
<body><div id="root"></div>
<script type="module">
import { renderTable } from "/table.js";
window.clicked = [];
window.draw = (gv, seat, selected) => renderTable(document.getElementById("root"), gv, {
  seat, selected: new Set(selected || []), names: {},
  onTarget: (key, event) => window.clicked.push([key, event.type]),
});
window.bench = (gv, seat, n) => {
  const root = document.getElementById("root");
  const ui = { seat, selected: new Set(), names: {}, onTarget: () => {} };
  const times = [];
  for (let i = 0; i < n; i++) {
    performance.mark("draw-start");
    renderTable(root, gv, ui);
    performance.mark("draw-built");
    root.getBoundingClientRect();  // style and layout included: what the player waits for
    performance.mark("draw-end");
    times.push([performance.measure("draw", "draw-start", "draw-end").duration,
                performance.measure("build", "draw-start", "draw-built").duration]);
  }
  performance.clearMarks();
  performance.clearMeasures();
  return times;
};
window.ready = true;
</script></body></html>"""


# -- GameViews from real observations ----------------------------------------------------------

_TARGETS: tuple[tuple[str, str], ...] = (
    (r"^(GO|PLACE) (-?\d+,-?\d+)$", "cell:{1}"),
    (r"^(GO|PLACE) (\S+)$", "sector:{1}"),
    (r"^EXP (\S+)$", "point:{0}"),
    (r"^(PLAY|PLAY-S|DELIVER|PICKUP|KEEP) (\S+)$", "card:{1}"),
    (r"^(DAMAGE|FIX) (\S+)$", "system:{seat}:{1}"),
    (r"^(BUY|SELL|ENG) (\S+)", "commodity:{1}"),
    (r"^SELL-K (\S+)$", "knowledge:{0}"),
    (r"^(LAUNCH|JUMP) (C\d+)$", "comet:{1}"),
    (r"^(LAUNCH|JUMP) (\S+)$", "asteroid:{1}"),
    (r"^TAIL (\d)$", "tail:{0}"),
)


def targets_of(notation: str, seat: int | None) -> list[str]:
    """The target keys of an action by the contract's key grammar, read off its notation."""
    for pattern, key in _TARGETS:
        m = re.match(pattern, notation)
        if m:
            return [key.format(*m.groups(), seat=seat)]
    return []


def _strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for k, v in data.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(data, list):
        for v in data:
            yield from _strings(v)


def _amounts(resources: dict[str, int], vp: int = 0) -> str:
    parts = [f"{n} {r}" for r, n in resources.items() if n] + ([f"{vp} VP"] if vp else [])
    return ", ".join(parts) or "nothing"


def names_for(game: str, obs: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """present.names for every printed component id the observation mentions (only those), worded
    as the presentation module words them (its texts are what the table reads values off)."""
    mentioned = set(_strings(obs))
    out: dict[str, dict[str, Any]] = {}
    if game == "ceres":
        from ecliptic.ceres.content import default_content as ceres_content

        c = ceres_content()
        for a in c.asteroids:
            if a.id in mentioned:
                out[a.id] = {"name": f"Asteroid {a.id} ({a.ring} Ring)",
                             "text": f"Launch here (CR-ACT-2): gain {_amounts(a.resources, a.vp)}."}
        for t in c.tail_tokens:
            if t.id in mentioned:
                out[t.id] = {"name": f"{t.tail} token {t.id}",
                             "text": f"Gives {_amounts(t.resources, t.vp)} (CC-ACT-5)."}
        for n in c.nucleus_cards:
            if n.id in mentioned:
                tables = "; ".join(f"table {i + 1}: {_amounts(x.resources, x.vp)}" for i, x in enumerate(n.tables))
                out[n.id] = {"name": f"{n.kind} Nucleus card {n.id}", "text": f"{tables} (CC-NEAR-1, CC-SUN-2)."}
        return out
    from ecliptic.tauceti.content import default_content
    from ecliptic.ui import terminal

    c = default_content()
    for tile in c.tiles:
        if tile.id in mentioned:
            parts = [tile.kind.replace("_", " ")]
            if tile.orbital_gp:
                parts.append(f"{tile.orbital_gp} GP per orbital at the end")
            if tile.cube_gp:
                parts.append(f"{tile.cube_gp} GP per Resource cube of its faction at the end")
            out[tile.id] = {"name": tile.name, "text": f"{tile.name} ({tile.id}): " + ", ".join(parts) + "."}
    for f in c.factions:
        for thing in (f.name, f.character):
            if thing in mentioned:
                out[thing] = {"name": f"{f.character} of the {f.name}", "text": f"Home planet {f.home_planet}."}
    for cm in c.commodities:
        out[cm.name] = {"name": cm.label, "text": f"{cm.label}, priced by the {cm.resource} Market level."}
    for word in mentioned:
        if re.fullmatch(r"[CSMK]\d\d", word):
            out[word] = {"name": terminal.card_label(word), "text": terminal.card_label(word)}
        elif re.fullmatch(r"Q\d\d", word):
            label = c.commodity(c.commodity_token(word).commodity).label
            out[word] = {"name": f"{label} token", "text": f"A {label} Commodity token."}
    return out


def _presented(game: str, state: Any, seat: int | None, obs: dict[str, Any]) -> tuple[list[Any], list[Any], Any]:
    """legal_actions, refused and present from the presentation module when this tree has it
    (ecliptic.present.view), else from the stand-ins above."""
    g = get_game(game)
    current = obs["current_player"]
    actions = g.legal_actions(state) if current is not None and current == seat else []
    try:
        from ecliptic.present import view as present_view
    except ImportError:
        present_view = None
    if present_view is not None:
        rows = [dict(p.to_json(), id=i) for i, p in enumerate(present_view.actions(g, state, seat, obs, actions))]
        refused = present_view.refusals(g, state, seat, obs, actions) if actions else []
        return rows, refused, present_view.block(g, state, seat, obs, rows)
    rows = [{"id": i, "notation": str(a), "label": str(a), "group": str(a).split()[0], "cost": "",
             "effect": "", "targets": targets_of(str(a), seat), "select": "one", "help": ""}
            for i, a in enumerate(actions)]
    score = [{"seat": p["seat"], "total": p["vp"]["total"] if game == "ceres" else p["gp_token_points"],
              "by_source": {"GP tokens": p.get("gp_token_points", 0)} if game != "ceres"
              else {k: v for k, v in p["vp"].items() if k != "total"}}
             for p in obs["players"]]
    present = {"names": names_for(game, obs), "score": score, "prices": None, "decision": "",
               "banner": "The host game is a reconstruction." if game == "ceres" else None}
    return rows, [], present


def game_view(game: str, state: Any, seat: int | None) -> dict[str, Any]:
    """A GameView of ``state`` for ``seat`` as the server's contract has it (COMMON2.md)."""
    g = get_game(game)
    obs = json.loads(json.dumps(g.observe(state, seat)))
    legal, refused, present = _presented(game, state, seat, obs)
    return {"id": "g1", "game": game, "status": "over" if state.is_over else "playing", "index": 0,
            "seat": seat, "current_seat": obs["current_player"], "seats": [], "view": obs,
            "legal_actions": legal, "undoable": False, "deadline": None, "present": present, "refused": refused}


def play_to(game: str, config: dict[str, Any], seed: int, steps: int | None) -> Any:
    """A state after ``steps`` random legal actions (``None``: to the end of the game)."""
    g = get_game(game)
    state = g.new_game(config, seed)
    rng = random.Random(seed)
    n = 0
    while not state.is_over and (steps is None or n < steps):
        g.apply(state, rng.choice(g.legal_actions(state)))
        n += 1
    return state


def mid_game_4p() -> tuple[Any, int]:
    """A mid-game 4-player Tau Ceti position, and the seat to play."""
    state = play_to("tauceti", {"players": 4}, 5, 150)
    return state, state.current_player if state.current_player is not None else 0


CROWDED = ({"players": 4, "advanced": [3]}, 6, 174)
"""The crowded table's game (Advanced Rule 3 lets virus crystals out of the supply), seed and
steps of random play: there seat 0 is deciding whether to re-roll a failed exploration of 01.3,
whose Knowledge token lies face up meanwhile (the only time a token on a point is face up)."""


def crowded_4p() -> tuple[Any, int]:
    """A mid-game position with one of every kind of thing the map can hold put on it
    (Resource cubes, orbitals, a Claim token and the point explored beside it, a Battle token
    and its Defender, a face-up Knowledge token, virus crystals, damage): a picture of a busy
    table and a heavier redraw than random play reaches. Every piece put down is taken from
    where the rulebook keeps it (the bag, the home orbitals, the supplies), so the state passes
    ``tauceti.invariants.problems`` (tests/test_browser_board.py checks it) and draws what the
    engine could reach, not a table no game can show."""
    config, seed, steps = CROWDED
    state = play_to("tauceti", config, seed, steps)
    seat = state.current_player
    assert seat is not None and state.stack[-1].kind == "reroll", "the exploration's re-roll"
    players = state.players
    planets = list(state.planet_commodity)
    sectors = [t for t in state.layout if t[:1].isdigit() and t not in planets]
    # Resource cubes come out of the bag (those random play put down go back first).
    for cubes in state.cubes.values():
        state.bag.extend(cubes)
    # (a cube on a planet was moved there from a sector by building an orbital: its owner's home)
    home = [state.content.faction(p.faction).home_planet for p in players]
    state.cubes = {sectors[0]: [players[0].faction, players[1].faction, players[0].faction],
                   home[2]: [players[2].faction], home[3]: [players[3].faction]}
    for cubes in state.cubes.values():
        for faction in cubes:
            state.bag.remove(faction)
    # Orbitals come from their owner's home planet.
    state.orbitals = {sectors[0]: [0, 1], sectors[1]: [2]}
    for p in players:
        p.orbitals_home = 4 - sum(owners.count(p.seat) for owners in state.orbitals.values())
    # A Battle token in a sector where the Defender has an orbital (Battle phase lists it later).
    for p in players:
        p.battle_sector = p.battle_defender = None
    players[1].battle_sector, players[1].battle_defender = sectors[1], 2
    # A Claim token on a point of a sector where its player has just explored another point.
    _claim_beside_an_exploration(state, 3, skip=state.stack[-1].data["ctx"]["point"])
    # Virus crystals (Advanced Rule 3) and Damage markers come from their supplies.
    state.virus_on = FrozenDict({planets[1]: 2})
    players[0].damage = FrozenDict({"weapons": 1, "cargo": 2})
    players[0].virus = FrozenDict({"sensors": 1})
    n = state.content.numbers
    state.virus_supply = n.virus_crystals - sum(state.virus_on.values()) - sum(
        sum(p.virus.values()) for p in players)
    state.damage_supply = n.damage_markers - sum(sum(p.damage.values()) for p in players)
    return state, seat


def _claim_beside_an_exploration(state: Any, seat: int, skip: str) -> None:
    """``seat`` explored one point of a sector (its Knowledge token is theirs now) and placed
    the Claim token on another still holding a token, on an earlier turn."""
    from dataclasses import replace

    p = state.players[seat]
    if p.claim is not None:
        state.points = state.points.set(p.claim, replace(state.points[p.claim], claimed_by=None))
    by_sector: dict[str, list[str]] = {}
    for pid, pt in sorted(state.points.items()):
        if pt.sector in state.layout and pt.token is not None and pt.claimed_by is None and pid != skip:
            by_sector.setdefault(pt.sector, []).append(pid)
    explored, claimed = next(pids for pids in by_sector.values() if len(pids) >= 2)[:2]
    token = state.points[explored].token
    p.knowledge = p.knowledge.set(token, p.knowledge.get(token, 0) + 1)
    state.points = state.points.set(explored, replace(state.points[explored], token=None, explored_by=seat))
    state.points = state.points.set(claimed, replace(state.points[claimed], claimed_by=seat))
    p.claim, p.claim_turn = claimed, state.turn_count - 1


# -- the page -------------------------------------------------------------------------------------


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


class BoardPage:
    """Chromium with the harness page; ``errors`` collects console errors and page errors."""

    def __init__(self, page: Any, base: str) -> None:
        self.page = page
        self.base = base
        self.errors: list[str] = []
        page.set_default_timeout(5000)
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.route(base + "/harness.html", lambda route: route.fulfill(body=HARNESS, content_type="text/html"))
        page.goto(base + "/harness.html")
        page.wait_for_function("window.ready === true")

    def draw(self, gv: dict[str, Any], seat: int | None = None, selected: list[str] | None = None) -> None:
        self.page.evaluate("([gv, seat, sel]) => { window.draw(gv, seat, sel); }", [gv, seat, selected or []])


@contextmanager
def board_page(width: int = 1280, height: int = 800) -> Iterator[BoardPage]:
    from playwright.sync_api import sync_playwright

    handler = functools.partial(_Quiet, directory=str(STATIC))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
            try:
                page = browser.new_page(viewport={"width": width, "height": height})
                yield BoardPage(page, f"http://127.0.0.1:{server.server_address[1]}")
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()


def table_bytes() -> int:
    return sum((STATIC / f).stat().st_size for f in TABLE_FILES if (STATIC / f).exists())


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def main(redraws: int = 200) -> None:
    state, seat = crowded_4p()
    tau = game_view("tauceti", state, seat)
    ceres = game_view("ceres", play_to("ceres", {"players": 4, "expansions": ["comets"]}, 3, 25), 0)
    with board_page() as board:
        cases = (("Tau Ceti, 4 players, mid-game (crowded)", tau, seat), ("Ceres with Comets, 4 players", ceres, 0))
        for name, gv, s in cases:
            board.page.evaluate("([gv, seat]) => window.bench(gv, seat, 20)", [gv, s])  # warm-up
            rows = board.page.evaluate("([gv, seat, n]) => window.bench(gv, seat, n)", [gv, s, redraws])
            total = [r[0] for r in rows]
            build = [r[1] for r in rows]
            nodes = board.page.evaluate("document.querySelectorAll('#root *').length")
            print(f"{name}: renderTable + layout median {statistics.median(total):.1f} ms, p95 {_p95(total):.1f} ms, "
                  f"best {min(total):.1f} ms (building the DOM alone: median {statistics.median(build):.1f} ms) "
                  f"over {redraws} redraws; {nodes} elements")
        if board.errors:
            print("console errors:", *board.errors, sep="\n  ")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"table JS + CSS: {table_bytes() / 1024:.1f} KB in {len(TABLE_FILES)} files; "
          f"load average during the run {load:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
