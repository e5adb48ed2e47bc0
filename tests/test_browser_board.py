"""The table drawn in SVG (src/ecliptic/web/static/table.js) in Chromium, from real observations.

Each GameView is built from a real game (random play) by benchmarks.web_redraw.game_view, which
follows the server's contract; the page loads the table's ES modules from a static HTTP server
in a thread (no Ecliptic server needed). For every configuration the table draws one element per
thing the observation has, raises no console error, hides what the seat may not see, and turns
the legal actions' target keys into clickable, keyboard-reachable targets.
"""

from __future__ import annotations

import copy
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from benchmarks.web_redraw import (
    CHROMIUM,
    STATIC,
    BoardPage,
    board_page,
    crowded_4p,
    game_view,
    mid_game_4p,
    play_to,
)

pytest.importorskip("playwright")
if not shutil.which(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (make test installs it)", allow_module_level=True)

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
KNOWLEDGE_TYPES = ("Biohazard", "Chemical", "Cosmic", "Geological", "Technological", "Political")


@pytest.fixture(scope="module")
def board() -> Iterator[BoardPage]:
    with board_page() as b:
        yield b


@pytest.fixture(autouse=True)
def no_console_errors(board: BoardPage) -> Iterator[None]:
    board.errors.clear()
    yield
    assert board.errors == []


def count(board: BoardPage, selector: str) -> int:
    n: int = board.page.locator(selector).count()
    return n


def tauceti_counts(obs: dict[str, Any]) -> dict[str, int]:
    """What the map must show, counted from the Python observation."""
    return {
        ".ecl-map .tile:not(.free-cell):not(.next-tile)": len(obs["layout"]),
        ".ecl-map .point": len(obs["points"]),
        ".ecl-map .ship": len(obs["players"]),
        ".ecl-map .cube": sum(len(c) for c in obs["cubes"].values()),
        ".ecl-map .orbital": sum(len(o) for o in obs["orbitals"].values()),
        ".ecl-map .crisis": sum(len(c) for c in obs["planet_crises"].values()),
        ".ecl-map .virus": sum(obs["virus_on"].values()),
        ".ecl-map .battle": sum(1 for p in obs["players"] if p["battle_sector"]),
        ".ecl-map .claim": sum(1 for p in obs["players"] if p["claim"]),
        ".ecl-interfaces .iface": len(obs["players"]),
        ".ecl-map .tile.kind-planet": sum(1 for t in obs["layout"] if t in obs["planet_commodity"]),
        ".ecl-map .tile.kind-outer": sum(1 for t in obs["layout"] if t.isdigit() and int(t) > 10),
    }


def ceres_counts(obs: dict[str, Any]) -> dict[str, int]:
    return {
        ".ecl-belt .asteroid": len(obs["belt"]),
        ".ecl-belt .probe": sum(1 for a in obs["belt"].values() if a["probe"] is not None),
        ".ecl-comets .slot.probe": sum(1 for c in obs["comets"] for s in c["slots"] if s is not None),
        ".ecl-comets .comet-card": len(obs["comets"]),
        ".ecl-belt .comet-mark": sum(1 for c in obs["comets"] if c["in_belt"] and not c["removed"]),
        ".ecl-interfaces .iface": len(obs["players"]),
    }


def assert_drawn(board: BoardPage, counts: dict[str, int]) -> None:
    got = {sel: count(board, sel) for sel in counts}
    assert got == counts


def assert_face_down_hidden(board: BoardPage, obs: dict[str, Any]) -> None:
    """A face-down Knowledge token shows no type, neither on the map nor in its tooltip."""
    hidden = [pid for pid, pt in obs["points"].items() if pt["token"] == "hidden"]
    texts: list[str] = board.page.eval_on_selector_all(
        ".ecl-map .point.face-down", "els => els.map(e => e.textContent)")
    assert len(texts) == len(hidden)
    for text in texts:
        assert not any(k in text for k in KNOWLEDGE_TYPES), text


TAUCETI_CONFIGS = [(layout, players) for layout in ("players", "random", "preset") for players in (1, 2, 3, 4)]


@pytest.mark.parametrize(("layout", "players"), TAUCETI_CONFIGS)
def test_tauceti_table_draws_every_thing_of_the_observation(board: BoardPage, layout: str, players: int) -> None:
    config = {"players": players, "layout": layout}
    for steps in (1, 60, 160, None):  # setup, early, mid-game, (usually) over
        state = play_to("tauceti", config, 11 * players + len(layout), steps)
        seat = state.current_player if state.current_player is not None else 0
        gv = game_view("tauceti", state, seat)
        board.draw(gv, seat)
        assert_drawn(board, tauceti_counts(gv["view"]))
        assert_face_down_hidden(board, gv["view"])
        targets = {k for a in gv["legal_actions"] for k in a["targets"]}
        drawn = set(board.page.eval_on_selector_all(".target", "els => els.map(e => e.dataset.target)"))
        assert targets <= drawn, targets - drawn


def test_ceres_table_draws_every_thing_with_and_without_comets(board: BoardPage) -> None:
    for players in (1, 2, 3, 4):
        for expansions in ([], ["comets"]):
            for steps in (0, 12, None):
                state = play_to("ceres", {"players": players, "expansions": expansions}, players, steps)
                seat = state.current_player if state.current_player is not None else 0
                gv = game_view("ceres", state, seat)
                board.draw(gv, seat)
                assert_drawn(board, ceres_counts(gv["view"]))
                # One line for every player, and the rules page's section for who wants the detail.
                banner = board.page.locator(".ecl-banner")
                assert banner.inner_text() == f"{gv['present']['banner']} About the stand-in"
                assert banner.locator("a").get_attribute("href") == "/rules#ceres:section:reconstruction"
                targets = {k for a in gv["legal_actions"] for k in a["targets"]}
                drawn = set(board.page.eval_on_selector_all(".target", "els => els.map(e => e.dataset.target)"))
                assert targets <= drawn, targets - drawn



def ceres_states(seed: int, want: Any) -> Iterator[Any]:
    """Each state of a random 4-player Ceres game with Comets for which ``want(obs)`` holds."""
    from ecliptic.games import get_game

    g = get_game("ceres")
    state = g.new_game({"players": 4, "expansions": ["comets"]}, seed)
    rng = random.Random(seed)
    while not state.is_over:
        if want(g.observe(state, state.current_player)):
            yield state
        g.apply(state, rng.choice(g.legal_actions(state)))


def test_a_tail_choice_marks_the_tails_of_its_comet_only_one_stop_a_tail(board: BoardPage) -> None:
    """The Tail target keys (tail:1..3) name the tails of the decision's Comet: the other Comet's
    tails are no targets (a click there played this one's), and the keyboard stops once per tail."""
    state = next(ceres_states(3, lambda obs: (obs["decision"] or {}).get("kind") == "tail"))
    seat = state.current_player
    gv = game_view("ceres", state, seat)
    comet = gv["view"]["decision"]["data"]["comet"]
    board.draw(gv, seat)
    cards = board.page.locator(".comet-card")
    for i in range(cards.count()):
        card = cards.nth(i)
        mine = card.locator("header b").inner_text() == f"Comet {comet}"
        assert card.locator('.target[data-target^="tail:"]').count() > 0 if mine else True
        if not mine:
            assert card.locator('[data-target^="tail:"]').count() == 0
    stops = board.page.locator('[tabindex="0"][data-target^="tail:"]')
    assert sorted(stops.evaluate_all("els => els.map(e => e.dataset.target)")) == ["tail:1", "tail:2", "tail:3"]
    # Only the cells of the tokens a legal TAIL takes are outlined, not every cell of the tails.
    taken = {t for a in gv["legal_actions"] for t in a["targets"] if t.startswith("tail-token:")}
    outlined = board.page.locator(".comet-card .tail-cell.target").evaluate_all("els => els.map(e => e.dataset.target)")
    assert taken and sorted(outlined) == sorted(taken)
    # a Surface card slot is read out by its name, not as a dot, and the card says in words what is free
    slots = board.page.locator(".comet-card .slot").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert slots and all(s and s.startswith("slot ") for s in slots), slots
    words = board.page.locator(".comet-card .slots").all_inner_texts()
    assert words and all("·" not in w and ("free" in w or "no slot" in w) for w in words), words
    # VP by source said as VP (a bare "asteroids 4" beside the Asteroids claimed read as a count)
    assert " ".join(board.page.locator(".ceres-players .by-source").first.inner_text().split()).startswith(
        "VP from Asteroids ")


COVERS = """() => {
  // what a Comet token covers: its box (head, tail and name) against each Asteroid's circle and
  // the boxes of its print (id and gain), and against the other Comet's box
  const box = (e) => e.getBoundingClientRect();
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const out = [];
  const comets = [...document.querySelectorAll(".ecl-belt .comet-mark")];
  for (const c of comets) {
    const cb = box(c), name = c.dataset.target;
    for (const a of document.querySelectorAll(".ecl-belt .asteroid")) {
      for (const t of a.querySelectorAll("text"))
        if (meets(cb, box(t))) out.push(`${name} over ${a.dataset.target}'s "${t.textContent}"`);
      const r = box(a.querySelector("circle.rock")), h = box(c.querySelector("circle"));
      const gap = Math.hypot((r.left + r.right - h.left - h.right) / 2, (r.top + r.bottom - h.top - h.bottom) / 2);
      if (gap < (r.width + h.width) / 2) out.push(`${name}'s head over ${a.dataset.target}`);
    }
    for (const d of comets) if (d !== c && meets(cb, box(d))) out.push(`${name} over ${d.dataset.target}`);
  }
  return out;
}"""


def test_a_comet_in_the_belt_covers_no_asteroid(board: BoardPage) -> None:
    """In every game state with Comets in the belt (seeded games: each round's ring, each pair of
    Zones the setup gives them), and with a Comet moved to every cell of the belt in each round's
    rotation, no Comet token (head, tail, name) covers an Asteroid's circle or print, or the
    other Comet (the QA pass saw C1 over A19's "1Met 1Gas 5VP" in the Inner ring)."""
    from ecliptic.games import get_game

    g = get_game("ceres")
    seen: dict[tuple[Any, ...], dict[str, Any]] = {}
    for seed in (1, 10, 12):  # Near-sun and Sungrazer (Zones 4, 5), two Near-sun (3, 4), two Sungrazers (3, 5)
        state = g.new_game({"players": 4, "expansions": ["comets"]}, seed)
        rng = random.Random(seed)
        while not state.is_over:
            obs = g.observe(state, state.current_player)
            key = tuple((c["ring"], c["zone"]) for c in obs["comets"] if c["in_belt"] and not c["removed"])
            if key and key not in seen:
                seen[key] = game_view("ceres", state, state.current_player)
            g.apply(state, rng.choice(g.legal_actions(state)))
    assert {ring for key in seen for ring, _ in key} == {"Outer", "Intermediate", "Inner"}
    assert {zone for key in seen for _, zone in key} == {3, 4, 5}
    views = list(seen.values())
    # each round's rotation once more, with the Comets moved through every cell, side by side
    for ring in ("Outer", "Intermediate", "Inner"):
        gv = next(v for k, v in seen.items() if k[0][0] == ring)
        for zone in range(1, 9):
            for r in ("Outer", "Intermediate", "Inner"):
                moved = copy.deepcopy(gv)
                for c, z in zip(moved["view"]["comets"], (zone, zone % 8 + 1), strict=False):
                    c.update(in_belt=True, removed=False, ring=r, zone=z)
                views.append(moved)
    failures: list[str] = []
    for gv in views:
        board.draw(gv, gv["seat"])
        where = [(c["id"], c["ring"], c["zone"]) for c in gv["view"]["comets"]]
        failures += [f"{where}: {o}" for o in board.page.evaluate(COVERS)]
    assert failures == []


TAUCETI_COVERS = """() => {
  // the box a shape paints (its stroke included), a group's the union of its shapes'
  const paint = (e) => {
    const r = e.getBoundingClientRect(), st = getComputedStyle(e);
    const w = st.stroke === "none" ? 0 : parseFloat(st.strokeWidth) / 2 * e.getScreenCTM().a;
    return { left: r.left - w, right: r.right + w, top: r.top - w, bottom: r.bottom + w };
  };
  const box = (g) => [...g.querySelectorAll("circle, path, polygon, rect")].map(paint).reduce((a, b) => ({
    left: Math.min(a.left, b.left), right: Math.max(a.right, b.right),
    top: Math.min(a.top, b.top), bottom: Math.max(a.bottom, b.bottom) }));
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const inside = (a, b) => a.left >= b.left && a.right <= b.right && a.top >= b.top && a.bottom <= b.bottom;
  const out = [];
  const points = [...document.querySelectorAll(".ecl-map .point")];
  for (const tile of document.querySelectorAll(".ecl-map .tile")) {
    if (!tile.querySelector(".hex")) continue;
    const name = tile.dataset.target, hex = tile.querySelector(".hex").getBoundingClientRect();
    // the tile's print: its label, name, GP values and commodity
    const print = [...tile.querySelectorAll(":scope > text, :scope > .planet-things > text")]
      .filter((t) => getComputedStyle(t).display !== "none");  // a phone hides the sectors' names
    // the print's lines (their boxes, half a pixel of rounding allowed): none over another, none
    // wider than the hex
    const words = (t) => [...t.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("");
    const inset = (r) => ({ left: r.left + 0.5, right: r.right - 0.5, top: r.top + 0.5, bottom: r.bottom - 0.5 });
    print.forEach((t, i) => {
      const tb = t.getBoundingClientRect();
      if (tb.left < hex.left || tb.right > hex.right) out.push(`${name}'s "${words(t)}" wider than its hex`);
      for (const u of print.slice(i + 1))
        if (meets(inset(tb), u.getBoundingClientRect())) out.push(`${name}'s "${words(t)}" over its "${words(u)}"`);
    });
    // a name said whole: "Asteroid Field …" lost the "II" that tells it from Asteroid Field I
    for (const t of print.filter((t) => t.classList.contains("tile-name") && t.textContent.endsWith("…")))
      out.push(`${name}'s name cut to "${t.textContent}"`);
    for (const m of tile.querySelectorAll(".crisis, .virus")) {
      const mb = box(m), what = m.dataset.target || "a virus crystal";
      for (const t of print)
        if (meets(mb, t.getBoundingClientRect())) out.push(`${what} over ${name}'s "${t.textContent}"`);
      if (!inside(mb, hex)) out.push(`${what} out of ${name}`);
    }
    for (const ship of tile.querySelectorAll(".ship")) {
      const sb = box(ship);
      for (const p of points)
        if (meets(sb, box(p))) out.push(`${ship.dataset.target} in ${name} over ${p.dataset.target}`);
      if (!inside(sb, hex)) out.push(`${ship.dataset.target} out of ${name}`);
    }
    const ring = tile.querySelector(".enlightenment-ring");  // drawn under the print, not over it
    for (const t of ring ? print : []) {
      const under = ring.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING;
      if (!under) out.push(`the ring over ${name}'s "${t.textContent}"`);
    }
  }
  return out;
}"""


def test_crisis_tokens_cover_no_print_of_their_planet_and_a_ship_no_exploration_point(board: BoardPage) -> None:
    """Mid-game Tau Ceti tables (random play, 2 and 4 players, with Crisis tokens on the planets),
    and each with the starships moved onto every sector that has Exploration points, on a desktop
    and a phone: no Crisis token or virus crystal covers its planet's print (the QA pass saw the
    tokens over Triolo's "antiviral serum / cube 2 GP"), no starship covers an Exploration point's
    token (a ship over the claimed token of 01.1), each stays inside its hex, and the Enlightenment
    ring is drawn under the print. The print's own lines meet neither one another nor the hex's
    sides (on a phone, Zorhkon's name touched its "quark-gluon plasma", which was wider than the
    hex), and no sector's name is cut short ("Asteroid Field …" for Asteroid Field II). The engine's
    own Claim (Azars claim 01.1, their ship in 01) too."""
    from ecliptic.games import get_game
    from test_exploration import ready

    g = get_game("tauceti")
    state = g.new_game({"layout": "preset", "players": 2, "factions": ["Azars", "Zorhkonian"]}, 1)
    ready(state, 0, "01.2", "Chemical")
    g.apply(state, "EXP 01.2")
    g.apply(state, "CLAIM 01.1")
    views = [game_view("tauceti", state, 0)]
    for players, seed, steps in ((2, 1, 150), (2, 3, 150), (4, 1, 150), (4, 3, 200)):
        st = play_to("tauceti", {"players": players}, seed, steps)
        gv = game_view("tauceti", st, st.current_player if st.current_player is not None else 0)
        assert any(gv["view"]["planet_crises"].values())
        views.append(gv)
        sectors = sorted({pt["sector"] for pt in gv["view"]["points"].values()} & set(gv["view"]["layout"]))
        for i, sector in enumerate(sectors):  # one ship there, then two, ... all of them
            moved = copy.deepcopy(gv)
            for p in moved["view"]["players"][: i % players + 1]:
                p["position"] = sector
            views.append(moved)
    assert any(p["position"] == "01" for gv in views for p in gv["view"]["players"])
    failures: list[str] = []
    try:
        for width, height in ((1280, 800), (390, 844)):
            board.page.set_viewport_size({"width": width, "height": height})
            for gv in views:
                board.draw(gv, gv["seat"])
                failures += [f"{width}px: {o}" for o in board.page.evaluate(TAUCETI_COVERS)]
    finally:
        board.page.set_viewport_size({"width": 1280, "height": 800})
    assert failures == []


# The game page (game.html and app.css: the table's column beside the 400 px side panel, the
# "Zoom the board" row above it) with the table drawn into #table, its style sheet loaded first.
GAME_PAGE = (STATIC / "game.html").read_text().replace('href="/static/', 'href="/').replace(
    '<script type="module" src="/static/game.js"></script>',
    '<link rel="stylesheet" href="/table.css"><script type="module">import { renderTable } from "/table.js";'
    ' window.drawOn = (gv, seat) => renderTable(document.getElementById("table"), gv,'
    ' { seat, selected: new Set(), names: {}, onTarget: () => {} }); window.ready = true;</script>')

PRINT_SIZES = """() => {
  // the least size an Asteroid's id and its gain render at: font-size x the SVG's scale, and
  // the height of the text's box
  const least = (cls) => {
    let px = Infinity, box = Infinity;
    for (const t of document.querySelectorAll(`.ecl-belt .asteroid text.${cls}`)) {
      px = Math.min(px, parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
      box = Math.min(box, t.getBoundingClientRect().height);
    }
    return [px, box];
  };
  return { aid: least("aid"), gain: least("gain"), wide: document.documentElement.scrollWidth };
}"""


def test_an_asteroids_print_reads_on_the_game_page_unzoomed(board: BoardPage) -> None:
    """On the game page at 1280x800 and 1440x900, not zoomed, an Asteroid's id renders at 11 px
    or more and what it gives at 9.5 px or more, in base Ceres and with Comets (the QA pass read
    6-7 px prints and 8 px ids beside the Comets' cards); on a 390x844 phone no smaller than
    before (5.9 px ids, 4.8 px prints: the zoom is there), and no page widens."""
    assert "window.drawOn" in GAME_PAGE
    page = board.page.context.browser.new_page(viewport={"width": 1280, "height": 800})
    page.on("console", lambda m: board.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: board.errors.append(str(e)))
    try:
        page.route(board.base + "/game-page.html",
                   lambda route: route.fulfill(body=GAME_PAGE, content_type="text/html"))
        page.goto(board.base + "/game-page.html")
        page.wait_for_function("window.ready === true")
        views = [game_view("ceres", play_to("ceres", {"players": 4, "expansions": e}, 3, 25), 0)
                 for e in ([], ["comets"])]
        failures = []
        for width, height, aid, gain in ((1280, 800, 11, 9.5), (1440, 900, 11, 9.5), (390, 844, 5.9, 4.8)):
            page.set_viewport_size({"width": width, "height": height})
            for gv in views:
                page.evaluate("(gv) => window.drawOn(gv, 0)", gv)
                got = page.evaluate(PRINT_SIZES)
                said = f"{width}x{height} {gv['view']['config']['expansions']}: {got}"
                if got["aid"][0] < aid or got["gain"][0] < gain or got["wide"] > width:
                    failures.append(said)
        assert failures == []
    finally:
        page.close()


def clicked(board: BoardPage) -> list[list[str]]:
    got: list[list[str]] = board.page.evaluate("window.clicked.splice(0)")
    return got


def test_a_legal_target_is_clickable_and_keyboard_reachable(board: BoardPage) -> None:
    state, seat = mid_game_4p()
    gv = game_view("tauceti", state, seat)
    keys = [k for a in gv["legal_actions"] for k in a["targets"]]
    assert keys, "the mid-game position offers targets"
    board.draw(gv, seat)
    clicked(board)
    for key in dict.fromkeys(keys):
        target = board.page.locator(f'.target[data-target="{key}"]').first
        assert target.get_attribute("role") == "button"
        assert target.get_attribute("tabindex") == "0"
        label = target.get_attribute("aria-label")
        first = next(a for a in gv["legal_actions"] if key in a["targets"])
        assert label and first["text"] in label, (label, first)  # what clicking offers, in words
        # role=img makes its children presentational (ARIA): no target may sit inside one
        assert target.evaluate("e => !e.parentElement.closest('[role=img]')")
        target.click()
        assert clicked(board) == [[key, "click"]]
        for press in ("Enter", " "):
            target.focus()
            board.page.keyboard.press(press)
            assert clicked(board) == [[key, "keydown"]]


def test_a_redraw_keeps_the_keyboard_focus(board: BoardPage) -> None:
    state, seat = mid_game_4p()
    gv = game_view("tauceti", state, seat)
    key = next(k for a in gv["legal_actions"] for k in a["targets"])
    board.draw(gv, seat)
    board.page.locator(f'.target[data-target="{key}"]').first.focus()
    board.draw(gv, seat)  # what the page does after every action and every message
    assert board.page.evaluate("document.activeElement.dataset.target") == key


def test_selected_and_refused_keys_are_marked(board: BoardPage) -> None:
    state, seat = mid_game_4p()
    gv = game_view("tauceti", state, seat)
    gv["legal_actions"] = [{"id": 0, "notation": "X", "label": "X", "group": "Shield", "cost": "", "effect": "",
                            "targets": [f"system:{seat}:weapons", f"system:{seat}:shields"],
                            "select": "set", "help": ""}]
    gv["refused"] = [{"notation": "Y", "label": "Y", "group": "Shield", "targets": [f"system:{seat}:cargo"],
                      "rule": "TC-BAT-1", "reason": "no"}]
    board.draw(gv, seat, selected=[f"system:{seat}:weapons"])
    assert count(board, f'.target.selected[data-target="system:{seat}:weapons"]') == 1
    assert count(board, f'.target:not(.selected)[data-target="system:{seat}:shields"]') == 1
    assert count(board, f'.refused[data-target="system:{seat}:cargo"]') == 1
    assert count(board, ".target") == 2
    clicked(board)
    board.page.locator(f'.refused[data-target="system:{seat}:cargo"]').click()
    assert clicked(board) == [[f"system:{seat}:cargo", "click"]]  # the page may show why not


def test_a_refused_crisis_token_does_not_hide_its_target_sector(board: BoardPage) -> None:
    """A Crisis token sits on its planet's sector: when the token can only say why not and the
    sector is a legal target (a move there), a click on the token is the sector's."""
    state, seat = mid_game_4p()
    gv = game_view("tauceti", state, seat)
    planet, crises = next((p, c) for p, c in gv["view"]["planet_crises"].items() if c)
    crisis = f"crisis:{crises[0]['id']}"
    gv["legal_actions"] = [{"id": 0, "notation": f"GO {planet}", "label": "GO", "group": "Move", "cost": "",
                            "effect": "", "targets": [f"sector:{planet}"], "select": "one", "help": ""}]
    gv["refused"] = [{"notation": "R", "label": "R", "group": "Crisis", "targets": [crisis], "rule": "TC-RES-1",
                      "reason": "no"}]
    board.draw(gv, seat)
    token = board.page.locator(f'.refused[data-target="{crisis}"]')
    assert token.count() == 1
    clicked(board)
    token.click()
    assert clicked(board) == [[f"sector:{planet}", "click"]]
    gv["legal_actions"] = []  # with no target around it, the token says why not
    board.draw(gv, seat)
    board.page.locator(f'.refused[data-target="{crisis}"]').click()
    assert clicked(board) == [[crisis, "click"]]


def test_a_bare_game_view_is_drawn_from_the_observation_alone(board: BoardPage) -> None:
    """An older server sends no present, refused or targets: the table still draws, by ids."""
    for game, state in (("tauceti", mid_game_4p()[0]), ("ceres", play_to("ceres", {"players": 2}, 1, 5))):
        gv = game_view(game, state, 0)
        bare = {"game": game, "view": gv["view"], "legal_actions": [{"notation": a["notation"]}
                                                                   for a in gv["legal_actions"]]}
        board.draw(bare, 0)
        assert count(board, ".ecl-interfaces .iface") == len(gv["view"]["players"])
        assert count(board, ".target") == 0


def test_a_seat_sees_no_other_hand_and_its_own(board: BoardPage) -> None:
    state = play_to("tauceti", {"players": 3}, 4, 120)
    for seat in range(3):
        gv = game_view("tauceti", state, seat)
        board.draw(gv, seat)
        own = gv["view"]["players"][seat]["hand"]
        assert count(board, ".iface .hand .card") == len(own)
        assert count(board, ".iface.mine") == 1
        others = [c for p in state.players if p.seat != seat for c in p.hand]
        text = board.page.locator("#root").inner_text()
        names = gv["present"]["names"]
        for c in others:
            if c not in own:
                assert c not in names  # the names table only names what the seat sees
                assert c not in text


def test_a_crowded_table_draws_every_cube_orbital_token_and_crystal(board: BoardPage) -> None:
    state, seat = crowded_4p()
    gv = game_view("tauceti", state, seat)
    board.draw(gv, seat)
    counts = tauceti_counts(gv["view"])
    assert counts[".ecl-map .cube"] == 5 and counts[".ecl-map .orbital"] == 3 and counts[".ecl-map .virus"] == 2
    assert_drawn(board, counts)
    assert_face_down_hidden(board, gv["view"])
    face_up = [pt["token"] for pt in gv["view"]["points"].values() if pt["token"] not in (None, "hidden")]
    assert len(face_up) == 1  # the token of the point being explored
    assert count(board, f".ecl-map .point.face-up.k-{face_up[0]}") == 1
    assert count(board, ".ecl-map .point circle.claimed.f-" + gv["view"]["players"][3]["faction"]) == 1
    assert count(board, ".iface.mine .system.damaged") == 2


def test_a_claim_token_is_drawn_on_its_points_sector_and_a_battle_token_while_its_battle_is_fought(
        board: BoardPage) -> None:
    """The engine's own Claim (test_exploration's example: Azars explore 01.2 and claim 01.1)
    and Battle token (test_battle's): the player's ``claim`` is a point's id, and the view's
    ``battles`` drops the sector once its battle is fought; the page drew neither then."""
    from ecliptic.games import get_game
    from test_battle import start_battle
    from test_exploration import ready

    g = get_game("tauceti")
    state = g.new_game({"layout": "preset", "players": 2, "factions": ["Azars", "Zorhkonian"]}, 1)
    ready(state, 0, "01.2", "Chemical")
    g.apply(state, "EXP 01.2")
    g.apply(state, "CLAIM 01.1")
    assert state.players[0].claim == "01.1"
    gv = game_view("tauceti", state, 1)
    board.draw(gv, 1)
    assert_drawn(board, tauceti_counts(gv["view"]))
    assert count(board, ".ecl-map [data-target='sector:01'] .claim.f-Azars") == 1  # on the point's sector
    said = board.page.locator(".ecl-map .claim title").text_content() or ""
    assert "Claim token of Azars on Exploration point 01.1" in said
    start_battle(state, "01", 0, 1)  # the Azars' Battle token in 01, against the Zorhkonians
    assert state.battle is not None and state.battles == ()
    gv = game_view("tauceti", state, 1)
    board.draw(gv, 1)
    assert count(board, ".ecl-map [data-target='sector:01'] .battle.f-Azars") == 1
    said = board.page.locator(".ecl-map .battle title").text_content() or ""
    assert "its battle being fought" in said


def test_a_battle_shows_its_shields(board: BoardPage) -> None:
    """Random play into a battle: the systems each side shields are marked on its Interface."""
    from ecliptic.games import get_game

    g = get_game("tauceti")
    state = play_to("tauceti", {"players": 4}, 5, 272)  # random play with seed 5 is mid-battle here
    assert state.battle is not None
    state.battle.shields = {str(state.battle.defender): ["weapons", "cargo"]}
    gv = game_view("tauceti", state, state.battle.defender)
    board.draw(gv, state.battle.defender)
    assert count(board, ".iface.mine .system.shielded") == 2
    assert count(board, ".ecl-tcx .battle-panel") == 1
    assert g.observe(state, 0)["battle"]["sector"] in board.page.locator(".battle-panel").inner_text()


def test_the_table_links_its_stylesheet_once(board: BoardPage) -> None:
    state, seat = mid_game_4p()
    gv = game_view("tauceti", state, seat)
    board.draw(gv, seat)
    board.draw(gv, seat)
    assert count(board, 'link[rel="stylesheet"][href$="/table.css"]') == 1
    colour = board.page.eval_on_selector(".ecl-map .ship path", "e => getComputedStyle(e).fill")
    assert colour not in ("", "none", "rgb(0, 0, 0)")  # the faction colours applied


def test_a_finished_game_shows_the_winners_and_final_scores(board: BoardPage) -> None:
    for game in ("tauceti", "ceres"):
        state = play_to(game, {"players": 2}, 1, None)
        assert state.is_over
        gv = game_view(game, state, 0)
        board.draw(gv, 0)
        assert count(board, ".iface .badge.winner") == len(gv["view"]["winners"])
        scores = board.page.eval_on_selector_all(".iface .t-score", "els => els.map(e => e.textContent)")
        finals = [s["total"] for s in gv["view"]["final_scores"]]
        assert sorted(int(s.split()[0]) for s in scores) == sorted(finals)


def test_a_spectator_sees_the_table(board: BoardPage) -> None:
    state, _ = mid_game_4p()
    gv = game_view("tauceti", state, None)
    board.draw(gv, None)
    assert count(board, ".iface.mine") == 0
    assert count(board, ".target") == 0
    assert_drawn(board, tauceti_counts(gv["view"]))


def test_setup_shows_the_tile_to_place_and_where_it_may_go(board: BoardPage) -> None:
    state = play_to("tauceti", {"players": 2}, 2, 1)
    seat = state.current_player
    gv = game_view("tauceti", state, seat)
    assert gv["view"]["next_large_tile"]
    board.draw(gv, seat)
    cells = [k for a in gv["legal_actions"] for k in a["targets"]]
    assert cells and all(k.startswith("cell:") for k in cells)
    assert count(board, ".ecl-map .free-cell.target") == len(cells)
    assert count(board, ".ecl-map .next-tile") == 1


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_screenshots(board: BoardPage, width: int, height: int) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    board.page.set_viewport_size({"width": width, "height": height})
    try:
        state, seat = crowded_4p()
        board.draw(game_view("tauceti", state, seat), seat)
        overflow = board.page.evaluate("document.documentElement.scrollWidth")
        board.page.screenshot(path=str(ARTIFACTS / f"board-tauceti-{width}x{height}.png"), full_page=True)
        assert overflow <= width  # the map scales and the Interfaces wrap: no sideways scrolling
        ceres = play_to("ceres", {"players": 4, "expansions": ["comets"]}, 3, 25)
        board.draw(game_view("ceres", ceres, 0), 0)
        overflow = board.page.evaluate("document.documentElement.scrollWidth")
        board.page.screenshot(path=str(ARTIFACTS / f"board-ceres-{width}x{height}.png"), full_page=True)
        assert overflow <= width
    finally:
        board.page.set_viewport_size({"width": 1280, "height": 800})
