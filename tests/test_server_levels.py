"""The bot levels a server offers (src/ecliptic/server/levels.py): the host's own
(``ecliptic serve --level NAME=BOTSPEC``) are accepted wherever a request names a level, and
play with the host's bot; a level not offered (or a bot text in its place) is refused 422 naming
the offered ones; the lobby's list (``GET /api/options/{game}``) shows them."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from browser_support import assert_clean, create_in_lobby, needs_browser, new_page
from ecliptic.bots import plugins
from ecliptic.bots.plugins import load_plugins
from ecliptic.engine.actions import Action
from ecliptic.games import get_game
from ecliptic.server import levels
from ecliptic.server.levels import LevelError, parse
from server_helpers import bearer, create, eventually, server, tokens
from server_process import Server, environment, free_port, serve_args, wait_until_up

LAST_LEGAL = '''
from ecliptic.bots import register_bot


class LastLegal:
    name = "lastlegal"

    def choose(self, game, state, seat):
        return game.legal_actions(state)[-1]


register_bot("lastlegal", lambda option, seed: LastLegal())
'''


@pytest.fixture
def host_bot(tmp_path: Path, bot_registry: None) -> str:
    """A plug-in bot (the last legal action, every time) loaded here, as ``serve --plugin`` does;
    forgotten after the test (tests/conftest.py)."""
    path = tmp_path / "plug_lastlegal.py"
    path.write_text(LAST_LEGAL)
    load_plugins([str(path)])
    return "lastlegal"


@pytest.fixture
def client(tmp_path: Path, host_bot: str) -> Iterator[TestClient]:
    with server(f"sqlite:///{tmp_path / 'levels.db'}", levels=parse([f"mine={host_bot}", "quick=ismcts:20it"])) as c:
        yield c
    levels.offer()


def offered_in_lobby(client: TestClient, game: str) -> list[str]:
    r = client.get(f"/api/options/{game}")
    assert r.status_code == 200, r.text
    return [level["value"] for level in r.json()["bot_levels"]]


def test_the_lobby_lists_the_host_levels_after_the_built_in_ones(client: TestClient) -> None:
    for game in ("tauceti", "ceres"):
        assert offered_in_lobby(client, game) == ["random", "easy", "normal", "hard", "mine", "quick"]
    texts = {lv["value"]: lv["text"] for lv in client.get("/api/options/ceres").json()["bot_levels"]}
    assert "lastlegal" in texts["mine"]


def test_a_server_without_levels_offers_the_built_in_ones_only(tmp_path: Path, client: TestClient) -> None:
    with server(f"sqlite:///{tmp_path / 'plain.db'}") as plain:
        assert offered_in_lobby(plain, "ceres") == ["random", "easy", "normal", "hard"]
        r = plain.post("/api/games", json={"game": "ceres", "seats": [{"kind": "bot", "level": "mine"}]})
        assert r.status_code == 422


def test_a_bot_seat_of_a_host_level_plays_with_the_host_bot(client: TestClient) -> None:
    created = create(client, seats=[{"kind": "bot", "level": "mine"}, {"kind": "bot", "level": "random"}])
    game_id = created["id"]
    eventually(lambda: client.get(f"/api/games/{game_id}").json()["status"] == "over", "the bots finish the game")
    record = client.get(f"/api/games/{game_id}/record").json()
    ceres = get_game("ceres")
    state = ceres.new_game(record["config"], record["seed"])
    choices = 0
    for notation in record["actions"]:
        action = Action.parse(notation)
        legal = ceres.legal_actions(state)
        if state.current_player == 0:
            assert action == legal[-1]  # the host's bot, not the random one
            choices += len(legal) > 1
        ceres.apply(state, action)
    assert choices >= 2


@pytest.mark.parametrize("level", ["nope", "ismcts:60s", "heuristic", "MINE", "x" * 100])
def test_a_level_not_offered_is_refused_naming_the_offered_ones(client: TestClient, level: str) -> None:
    r = client.post("/api/games", json={"game": "ceres", "seats": [{"name": "Ann"}, {"kind": "bot", "level": level}]})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"] == "invalid_request"
    if len(level) < 64:
        assert "random, easy, normal, hard, mine, quick" in body["message"], body
    assert client.get("/api/games").json() == []  # nothing was made


def test_a_seat_is_handed_to_a_host_level_and_never_to_another(client: TestClient) -> None:
    created = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}])
    token = tokens(created)[1]
    url = f"/api/games/{created['id']}/seats/1/bot"
    refused = client.post(url, json={"bot": True, "level": "ismcts:60s"}, headers=bearer(token))
    assert refused.status_code == 422 and "mine" in refused.json()["message"]
    taken = client.post(url, json={"bot": True, "level": "mine"}, headers=bearer(token))
    assert taken.status_code == 200, taken.text


def test_play_on_refuses_a_level_not_offered(client: TestClient) -> None:
    created = create(client, seats=[{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}])
    game_id = created["id"]
    eventually(lambda: client.get(f"/api/games/{game_id}").json()["status"] == "over", "the bots finish the game")
    r = client.post(f"/api/games/{game_id}/play-on", json={"index": 3, "seat": 0, "level": "ismcts:60s"})
    assert r.status_code == 422 and "quick" in r.json()["message"], r.text
    ok = client.post(f"/api/games/{game_id}/play-on", json={"index": 3, "seat": 0, "level": "quick"})
    assert ok.status_code == 201, ok.text


@pytest.mark.parametrize(("given", "message"), [
    (["mine"], "give NAME=BOTSPEC"),
    (["mine="], "give NAME=BOTSPEC"),
    (["=heuristic"], "give NAME=BOTSPEC"),
    (["9lives=random"], "beginning with a letter"),
    (["mine=nobot"], "unknown bot 'nobot'"),
    (["mine=ismcts:fast"], "ismcts"),
    (["mine=random,heuristic"], "one bot, not a list"),
    (["mine=random", "MINE=heuristic"], "given twice"),
])
def test_a_host_level_that_cannot_be_offered_is_refused(given: list[str], message: str) -> None:
    with pytest.raises(LevelError, match=message):
        parse(given)


def test_serve_refuses_a_bad_level_in_one_line_before_it_starts(tmp_path: Path) -> None:
    src = Path(__file__).resolve().parents[1] / "src"
    env = {**os.environ, "PYTHONPATH": str(src), "ECLIPTIC_DATA_DIR": str(tmp_path)}
    env.pop(plugins.ENV, None)
    done = subprocess.run([sys.executable, "-c", "from ecliptic.entry import main; main()", "serve", "--level",
                           "mine=myplugin:v3", "--port", "1"], env=env, capture_output=True, text=True,
                          check=False, timeout=120)
    out = done.stdout.strip()
    assert done.returncode == 2 and out.startswith("Error: --level 'mine=myplugin:v3': unknown bot 'myplugin:v3'"), out
    assert "\n" not in out and "Traceback" not in done.stderr


@needs_browser
def test_serve_with_a_plugin_level_offers_it_in_the_lobby_and_plays_it(tmp_path: Path, chromium: Any) -> None:
    """``ecliptic serve --plugin FILE --level mine=lastlegal``, as a host starts it: the lobby's
    seat menu lists Mine, a game created there with it is played by the plug-in's bot (in the
    server's bot workers, which loaded the plug-in)."""
    plugin = tmp_path / "plug_served.py"
    plugin.write_text(LAST_LEGAL)
    port = free_port()
    log = tmp_path / "serve.log"
    args = [*serve_args(f"sqlite:///{tmp_path / 'served.db'}", port), "--plugin", str(plugin),
            "--level", "mine=lastlegal"]
    with log.open("ab") as out:
        proc = subprocess.Popen([sys.executable, "-c", "from ecliptic.cli import main; main()", *args],
                                stdin=subprocess.DEVNULL, stdout=out, stderr=out, env=environment(tmp_path),
                                start_new_session=True)
    served = Server(proc.pid, port, log, wait_until_up(proc.pid, port, log, time.monotonic()))
    try:
        assert "the host's: mine (lastlegal)" in log.read_text()
        w = new_page(chromium)
        game_id = create_in_lobby(w, served.base_url, "ceres", ["bot", "bot"], seed=5, levels={0: "mine"})
        w.page.goto(served.base_url + "/")   # (the lobby opened the game of bots to watch: back to its form)
        menu = w.page.locator("#seats .seat[data-seat='0'] select.level option")
        menu.last.wait_for(state="attached")
        assert menu.all_text_contents()[-1] == "Mine"
        with httpx.Client(base_url=served.base_url, timeout=30) as api:
            eventually(lambda: api.get(f"/api/games/{game_id}").json()["status"] == "over", "the bots finish")
            record = api.get(f"/api/games/{game_id}/record").json()
        ceres = get_game("ceres")
        state = ceres.new_game(record["config"], record["seed"])
        for notation in record["actions"]:
            action = Action.parse(notation)
            if state.current_player == 0:
                assert action == ceres.legal_actions(state)[-1]
            ceres.apply(state, action)
        assert_clean(w)
    finally:
        served.stop()
        proc.wait(timeout=30)
