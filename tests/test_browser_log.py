"""What a player reads about the seats in the browser names them as the game's own texts do.

The engine's log says "Player 2 passes." (Ceres) and "Xunon takes the Refuel action…" (Tau Ceti);
the page named those seats "Bot (random)" and "Ann (Xunon)", so a reader could not tell at a
glance who did what. Here the page's modules (api.js, log.js, score.js, actions.js) are run in
Chromium on GameViews built from real games (benchmarks.web_redraw.game_view, with the seats the
server sends), and the log's entries are the engine's real events. No game server: the modules
come from test_browser_decision's static server.
"""

from __future__ import annotations

from typing import Any

from benchmarks.web_redraw import game_view

from browser_support import assert_clean, needs_browser, new_page
from ecliptic.games import get_game
from test_browser_decision import base_url  # noqa: F401  (the fixture: the modules on a static server)

pytestmark = needs_browser

READ = """async ({gv, entries}) => {
  const api = await import('/static/api.js');
  const { Log } = await import('/static/log.js');
  const { renderScore } = await import('/static/score.js');
  const { nameOf } = await import('/static/actions.js');
  const seatName = (seat) => api.seatName(gv, seat);
  const root = document.getElementById('root');
  const log = new Log(root.appendChild(document.createElement('div')), { seatName, onPick: () => {} });
  entries.forEach(([index, seat, events]) => log.add(index, seat, events));
  const sheet = root.appendChild(document.createElement('div'));
  renderScore(sheet, gv, seatName);
  const keys = [...new Set(gv.legal_actions.flatMap((a) => a.targets))];
  return {
    names: gv.seats.map((s) => seatName(s.seat)),
    headings: [...root.querySelectorAll('.log-entry[data-seat] .log-pick')].map((b) => b.textContent),
    firsts: [...root.querySelectorAll('.log-entry[data-seat] .events li:first-child')].map((li) => li.textContent),
    columns: [...sheet.querySelectorAll('thead th[scope=col]')].slice(1).map((th) => th.textContent),
    targets: Object.fromEntries(keys.map((k) => [k, nameOf(gv, k)])),
  };
}"""


def seats(*names: str) -> list[dict[str, Any]]:
    """The seats as the server sends them (its names are the lobby's, made distinct)."""
    return [{"seat": i, "name": n, "controller": "bot" if n.startswith("Bot") else "person"}
            for i, n in enumerate(names)]


def played(game: str, config: dict[str, Any], seed: int, until: Any,
           prefer: str = "") -> tuple[Any, list[list[Any]]]:
    """A game played by its first legal actions (the first starting with ``prefer`` if any) until
    ``until(state, actions played)``, and its
    log entries as the page is given them: [index, seat, events], the events of the acting seat
    (``data.seat``) with their texts as the engine wrote them."""
    g = get_game(game)
    state = g.new_game(config, seed)
    entries: list[list[Any]] = []
    n = 0
    while not state.is_over and not until(state, n):
        seat = state.current_player
        legal = g.legal_actions(state)
        action = next((a for a in legal if prefer and str(a).startswith(prefer)), legal[0])
        events = [{"kind": e.kind, "text": e.text} for e in g.apply(state, action) if e.data.get("seat") == seat]
        n += 1
        if events:
            entries.append([n, seat, events])
    return state, entries


def read(chromium: Any, base_url: str, gv: dict[str, Any], entries: list[list[Any]]) -> dict[str, Any]:  # noqa: F811
    w = new_page(chromium)
    w.page.goto(base_url + "/blank")
    out: dict[str, Any] = w.page.evaluate(READ, {"gv": gv, "entries": entries})
    assert_clean(w)
    w.page.context.close()
    return out


def test_the_page_names_each_seat_as_the_log_does_then_who_plays_it(chromium: Any, base_url: str) -> None:  # noqa: F811
    # Ceres with Comets, a person who kept the lobby's "Player 1" and a bot, at a Tail choice.
    state, entries = played("ceres", {"players": 2, "expansions": ["comets"]}, 3,
                            lambda s, n: n > 2 and s.stack[-1].kind == "tail", prefer="LAUNCH C")
    gv = game_view("ceres", state, state.current_player)
    gv["seats"] = seats("Player 1", "Bot (random)")
    out = read(chromium, base_url, gv, entries)
    assert out["names"] == ["Player 1", "Player 2 · Bot (random)"]
    assert out["columns"] == ["Player 1", "Player 2"]
    # Each entry's heading starts with the name its sentence starts with ("Player 2 pays 1 Ice.").
    assert len(out["headings"]) == len(entries) >= 3
    for heading, first in zip(out["headings"], out["firsts"], strict=True):
        who = heading.split(" ", 1)[1].split(" · ")[0]
        assert first.startswith(who), (heading, first)
    # A Tail target is read with the Comet it belongs to (it read "On 2").
    comet = gv["view"]["decision"]["data"]["comet"]
    tails = {k: v for k, v in out["targets"].items() if k.startswith("tail:")}
    assert tails and tails == {k: f"Tail {k[5:]} of Comet {comet}" for k in tails}

    # Tau Ceti: the faction first, as every sentence of the log names the seat.
    state, entries = played("tauceti", {"players": 2, "layout": "preset", "factions": ["Xunon", "Azars"]}, 1,
                            lambda s, n: n == 12)
    gv = game_view("tauceti", state, 0)
    gv["seats"] = seats("Ann", "Bot (normal)")
    out = read(chromium, base_url, gv, entries)
    assert out["names"] == ["Xunon · Ann", "Azars · Bot (normal)"]
    assert out["columns"] == ["Xunon", "Azars"]
    assert len(out["headings"]) == len(entries) >= 3
    for heading, first in zip(out["headings"], out["firsts"], strict=True):
        assert first.startswith(heading.split(" ", 1)[1].split(" · ")[0]), (heading, first)
