"""The browser client's routes (server/web_api.py): the pages and static files with their content
types, the lobby's options read from the engine, and the page weight budget (JS + CSS ≤ 300 KB)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ecliptic.bots import LEVELS
from ecliptic.ceres.state import EXPANSIONS
from ecliptic.games import get_game
from ecliptic.server.models import BOT_LEVELS
from ecliptic.tauceti.content import default_content
from ecliptic.web import STATIC
from server_helpers import server

BUDGET = 300 * 1024


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The routes here do not touch the database: SQLite only."""
    with server(f"sqlite:///{tmp_path / 'web.db'}") as c:
        yield c


def options(client: TestClient, game: str) -> dict[str, Any]:
    r = client.get(f"/api/options/{game}")
    assert r.status_code == 200, r.text
    found: dict[str, Any] = r.json()
    return found


def test_the_pages_are_served_as_html_with_their_modules(client: TestClient) -> None:
    for path in ("/", "/play/abc", "/watch/abc"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html"), path
        for src in re.findall(r'(?:src|href)="(/static/[^"]+)"', r.text):
            s = client.get(src)
            assert s.status_code == 200, src
    assert client.get("/static/game.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/static/app.css").headers["content-type"].startswith("text/css")
    assert client.get("/static/no-such.js").status_code == 404
    assert client.get("/static/../server/app.py").status_code == 404


def test_every_module_a_page_imports_is_served(client: TestClient) -> None:
    """The modules import each other by absolute /static paths; each one named must exist."""
    for module in STATIC.glob("*.js"):
        for name in re.findall(r'from "(/static/[^"]+)"', module.read_text()):
            assert client.get(name).status_code == 200, f"{module.name} imports {name}"
    listed = client.get("/api/web/modules").json()["files"]
    assert "game.js" in listed and "lobby.html" in listed


def test_no_page_loads_anything_from_another_site() -> None:
    for f in STATIC.iterdir():
        text = f.read_text()
        assert not re.search(r"""(src|href)=["']https?://""", text), f.name
        assert not re.search(r"""import[^;]*["']https?://""", text), f.name


def test_the_javascript_and_css_stay_within_300_kb() -> None:
    total = sum(f.stat().st_size for f in STATIC.iterdir() if f.suffix in (".js", ".css"))
    assert 0 < total <= BUDGET, f"{total} bytes of JS and CSS"


def test_the_tau_ceti_options_are_the_engines_config_fields(client: TestClient) -> None:
    found = options(client, "tauceti")
    by_name = {o["name"]: o for o in found["options"]}
    fields = {f.name for f in dataclasses.fields(get_game("tauceti").config_type)}
    assert set(by_name) == fields - {"players"}  # a new config field without a control fails here
    assert found["players"] == {"min": 1, "max": 4, "default": 4}
    assert [c["value"] for c in by_name["factions"]["choices"]] == [f.name for f in default_content().factions]
    assert by_name["factions"]["kind"] == "per_seat"
    assert [c["value"] for c in by_name["advanced"]["choices"]] == list(range(1, 10))
    assert by_name["advanced"]["kind"] == "multi"
    assert {c["value"] for c in by_name["game"]["choices"]} == {"short", "full"}
    assert "8 rounds" in next(c["text"] for c in by_name["game"]["choices"] if c["value"] == "short")
    assert (by_name["game"]["default"], by_name["layout"]["default"]) == ("short", "random")  # a first game
    assert {c["value"] for c in by_name["layout"]["choices"]} == {"players", "random", "preset"}
    assert by_name["advanced_specialists"]["kind"] == "bool"
    assert by_name["first_player"]["kind"] == "seat"
    assert [lv["value"] for lv in found["bot_levels"]] == list(BOT_LEVELS)
    assert set(LEVELS) <= {lv["value"] for lv in found["bot_levels"]}


def test_the_ceres_options_offer_the_comets_expansion(client: TestClient) -> None:
    found = options(client, "ceres")
    by_name = {o["name"]: o for o in found["options"]}
    assert set(by_name) == {"expansions", "first_player"}
    assert [ch["value"] for ch in by_name["expansions"]["choices"]] == list(EXPANSIONS) == ["comets"]
    # Offered as "Ceres (with its Comets expansion)": the form starts with Comets, the engine does not.
    assert "Comets" in next(g["title"] for g in client.get("/api/options").json() if g["game"] == "ceres")
    assert by_name["expansions"]["default"] == ["comets"]
    assert get_game("ceres").config_type().expansions == ()


def test_an_unknown_game_has_no_options(client: TestClient) -> None:
    r = client.get("/api/options/chess")
    assert r.status_code == 404
    assert r.json()["error"] == "not_found" and "tauceti" in r.json()["message"]
    assert [g["game"] for g in client.get("/api/options").json()] == ["tauceti", "ceres"]


def test_a_config_built_from_the_options_is_one_the_server_accepts(client: TestClient) -> None:
    """Every choice the form offers, all at once where they combine, makes a game."""
    found = options(client, "tauceti")
    by_name = {o["name"]: o for o in found["options"]}
    config = {"players": 4, "factions": [ch["value"] for ch in by_name["factions"]["choices"]][:4],
              "advanced": [ch["value"] for ch in by_name["advanced"]["choices"]], "advanced_specialists": True,
              "game": "short", "layout": "random", "tie_break": "tau", "first_player": 3}
    seats = [{"name": "Ann"}] + [{"kind": "bot", "level": lv["value"]} for lv in found["bot_levels"][:3]]
    r = client.post("/api/games", json={"game": "tauceti", "config": config, "seats": seats, "seed": 3})
    assert r.status_code == 201, r.text
    ceres = options(client, "ceres")
    exp = [ch["value"] for ch in ceres["options"][0]["choices"]]
    r = client.post("/api/games", json={"game": "ceres", "config": {"expansions": exp}, "seats": [{}, {}]})
    assert r.status_code == 201, r.text
