"""extras.js in Chromium: the win-chance chart of a finished game is drawn as an SVG line per
seat, and the board at an index and play on reach the server; no
console errors. The server runs in a thread (uvicorn) with extras.js mounted beside the API,
so the test needs none of the other pages."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.staticfiles import StaticFiles

from ecliptic.server import create_app
from test_server_analysis import finished

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

CHROMIUM = Path("/usr/bin/chromium")
STATIC = Path(__file__).parent.parent / "src" / "ecliptic" / "web" / "static"
ARTIFACTS = Path(__file__).parent.parent / "test-artifacts"
PAGE = "<!doctype html><html><head><title>extras</title></head><body><main id=chart></main></body></html>"

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    app.mount("/test-static", StaticFiles(directory=STATIC))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < end and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{server.config.port}", app
    finally:
        server.should_exit = True
        thread.join(30)


class Http:
    """What test_server_analysis.finished needs of a client: the app, and GET over HTTP."""

    def __init__(self, http: httpx.Client, app: Any) -> None:
        self.http, self.app = http, app

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path)


def on_test_page(url: str, script: str, args: list[Any], shot: str, full_page: bool = False) -> tuple[Any, list[str]]:
    """Run ``script`` (with ``args``) in Chromium on a bare page of the server under test, save a
    screenshot named ``shot``, and return what the script gave back and the page's console and
    page errors."""
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"], headless=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.route(f"{url}/extras-test", lambda route: route.fulfill(body=PAGE, content_type="text/html"))
            page.goto(f"{url}/extras-test")
            result = page.evaluate(script, args)
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / shot), full_page=full_page)
        finally:
            browser.close()
    return result, errors


def test_the_win_chart_is_drawn_and_the_calls_reach_the_server(base_url: tuple[str, Any]) -> None:
    url, app = base_url
    with httpx.Client(base_url=url) as http:
        gid, keys, _ = finished(Http(http, app), "tauceti", players=3)  # type: ignore[arg-type]
    drawn, errors = on_test_page(url, """async ([gid, token]) => {
        const x = await import("/test-static/extras.js");
        const picked = [];
        const svg = await x.renderWinChart(document.getElementById("chart"), gid,
                                           {onSelect: (i) => picked.push(i)});
        const dot = svg.querySelectorAll("circle[data-seat='0']")[20];
        dot.dispatchEvent(new MouseEvent("click"));
        const past = await x.viewAt(gid, token, 40);
        const mine = await x.playOnFrom(gid, 40, 2, "random");
        return {
            lines: [...svg.querySelectorAll("polyline")].map((l) => l.getAttribute("points").split(" ").length),
            seats: [...svg.querySelectorAll("polyline")].map((l) => l.dataset.seat),
            picked, clicked: Number(dot.dataset.index),
            pastIndex: past.index, pastSeat: past.seat, legal: past.legal_actions.length,
            playOn: [typeof mine.id, mine.seat, typeof mine.token],
        };
    }""", [gid, keys[0]], "extras-win-chart-1280x800.png")
    assert drawn["lines"] == [100, 100, 100] and drawn["seats"] == ["0", "1", "2"]
    assert drawn["picked"] == [drawn["clicked"]] and drawn["clicked"] > 0
    assert (drawn["pastIndex"], drawn["pastSeat"], drawn["legal"]) == (40, 0, 0)
    assert drawn["playOn"] == ["string", 2, "string"]
    assert errors == []


SEAT_COLOURS = """async ([gid]) => {
    // the finished game's table (board and panels) and its chart on one page, as the game page has them
    const table = await import("/test-static/table.js");
    const x = await import("/test-static/extras.js");
    const gv = await (await fetch(`/api/games/${gid}`)).json();
    const board = document.createElement("div");
    document.body.prepend(board);
    table.renderTable(board, gv, { seat: null });
    const link = document.querySelector("link[data-ecl-table]");
    if (link && !link.sheet) await new Promise((done) => link.addEventListener("load", done));
    const svg = await x.renderWinChart(document.getElementById("chart"), gid);
    const css = (e, prop) => getComputedStyle(e)[prop];
    const legend = [...svg.querySelectorAll(".win-chart-legend rect")];
    return gv.view.players.map((p) => {
        const panel = board.querySelector(`.iface[data-target="player:${p.seat}"]`);
        const marker = gv.game === "ceres" ? panel.querySelector(".swatch")
            : board.querySelector(`.ship[data-target="player:${p.seat}"] path`);
        return {
            who: p.faction || p.name,
            panel: css(panel, "borderTopColor"),
            marker: css(marker, gv.game === "ceres" ? "backgroundColor" : "fill"),
            line: css(svg.querySelector(`polyline[data-seat="${p.seat}"]`), "stroke"),
            legend: css(legend[p.seat], "fill"),
            dots: [...new Set([...svg.querySelectorAll(`circle[data-seat="${p.seat}"]`)].map((d) => css(d, "fill")))],
        };
    });
}"""


@pytest.mark.parametrize(("game", "players", "seed"), [("tauceti", 2, 11), ("ceres", 3, 5)])
def test_the_chart_colours_a_seat_as_its_board_and_panel_do(base_url: tuple[str, Any], game: str, players: int,
                                                            seed: int) -> None:
    """The QA pass's Tau Ceti game drew Xunon (blue on the board) red and Azars (yellow) blue: each
    line, its points and its legend take the colour of the seat's Interface (Ceres: its player
    board) and pieces, from the table's one table of colours."""
    url, app = base_url
    with httpx.Client(base_url=url) as http:
        gid, _, _ = finished(Http(http, app), game, players=players, seed=seed)  # type: ignore[arg-type]
    seats, errors = on_test_page(url, SEAT_COLOURS, [gid], f"extras-chart-colours-{game}.png", full_page=True)
    assert len(seats) == players
    for s in seats:
        assert s["line"] == s["legend"] == s["panel"] == s["marker"], s
        assert s["dots"] == [s["line"]], s
    assert len({s["line"] for s in seats}) == players  # and no two seats alike
    if game == "tauceti":  # Triolor at seat 1: a faction's colour, not seat 1's (Ceres' blue)
        assert [s["who"] for s in seats] == ["Zorhkonian", "Triolor"]
    assert errors == []
