"""History and analysis over the API (docs/server.md, "History and analysis"): the view at an
earlier index is what each viewer saw then and nothing more; suggestions only when the game
allows them, for the seat to decide, judged on re-dealt copies only; the win-chance chart of
a finished game; playing on from a position of a finished game; every bad request refused
with nothing stored."""

from __future__ import annotations

import json
import random
import secrets
import time
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from ecliptic.bots.evaluator import evaluator_for
from ecliptic.bots.random_bot import RandomBot
from ecliptic.engine.record import GameRecord, replay, state_digest
from ecliptic.engine.rng import Rng
from ecliptic.games import get_game
from ecliptic.server import auth
from ecliptic.server.analysis import Analysis, sample_indices, suggest_from
from ecliptic.server.games import plain
from ecliptic.server.storage import SERVER_KEY, ActionRow, GameRow, SeatRow, games
from server_helpers import WAIT, bearer, create, live, random_log, server, service, tokens
from test_hidden_information import ceres_secret, ids, tc_secret

BIG_SEED = 6_150_473_189_227_950_000
"""Seeds of 19 digits, so that finding one's digits in an answer is a leak, not chance."""
TC_CONFIG = {"game": "short", "layout": "preset"}


def finished(c: TestClient, game: str = "tauceti", players: int = 3, seed: int = 11,
             suggestions: bool = False) -> tuple[str, dict[int, str], list[str]]:
    """A finished game of random play stored as the server stores one: its id, seat tokens and log."""
    rules = get_game(game)
    config = {"players": players, **(TC_CONFIG if game == "tauceti" else {})}
    log = random_log(rules, config, seed)
    game_id = secrets.token_hex(8)
    keys = {i: auth.new_token() for i in range(players)}
    now = time.time()
    row = GameRow(game_id, game, config, seed, players, None, "over", now, now, auth.token_hash(auth.new_token()),
                  suggestions=suggestions)
    seats = [SeatRow(i, "person", f"P{i}", auth.token_hash(keys[i]), None, "person") for i in range(players)]
    service(c).storage.create_game(row, seats, log)
    assert c.get(f"/api/games/{game_id}").json()["status"] == "over"  # loaded (replayed) as any stored game
    return game_id, keys, [r.notation for r in log]


def game_count(c: TestClient) -> int:
    return len(c.get("/api/games").json())


def stored(c: TestClient, game_id: str) -> list[ActionRow]:
    return service(c).storage.actions(game_id)


def play_random(c: TestClient, created: dict[str, Any], steps: int, seed: int) -> list[dict[int | None, Any]]:
    """Play ``steps`` random legal actions through the API; each viewer's view before each step
    and after the last (what it saw at each index)."""
    gid, keys, rng = created["id"], tokens(created), random.Random(seed)
    seen: list[dict[int | None, Any]] = []
    for _ in range(steps + 1):
        views: dict[int | None, Any] = {None: c.get(f"/api/games/{gid}").json()}
        for seat, key in keys.items():
            views[seat] = c.get(f"/api/games/{gid}", headers=bearer(key)).json()
        seen.append(views)
        if len(seen) > steps or views[None]["status"] == "over":
            break
        seat = views[None]["current_seat"]
        choice = rng.choice(views[seat]["legal_actions"])
        r = c.post(f"/api/games/{gid}/actions", headers=bearer(keys[seat]),
                   json={"action": choice["notation"], "expected_index": views[seat]["index"]})
        assert r.status_code == 200, r.text
    return seen


# -- the view at an index ------------------------------------------------------------------------


@pytest.mark.parametrize("game, players", [("tauceti", 3), ("ceres", 2)])
def test_the_view_at_an_index_is_what_each_viewer_saw_then(tmp_path: Any, game: str, players: int) -> None:
    with server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as c:
        config = TC_CONFIG if game == "tauceti" else {"expansions": ["comets"]}
        created = create(c, game, seats=[{} for _ in range(players)], config=config, seed=BIG_SEED + 23)
        gid, keys = created["id"], tokens(created)
        seen = play_random(c, created, 25, seed=5)
        row = live(c, gid).row
        secret = tc_secret if game == "tauceti" else ceres_secret
        for index, then in enumerate(seen):
            state = replay(GameRecord(game, row.config, row.seed, [r.notation for r in stored(c, gid)]), upto=index)
            for viewer in [*keys, None]:
                headers = bearer(keys[viewer]) if viewer is not None else {}
                r = c.get(f"/api/games/{gid}/views/{index}", headers=headers)
                assert r.status_code == 200, r.text
                past = r.json()
                assert past["index"] == index and past["seat"] == viewer
                assert past["view"] == plain(get_game(game).observe(state, viewer)) == then[viewer]["view"]
                assert past["current_seat"] == then[viewer]["current_seat"]
                assert past["legal_actions"] == [] and past["undoable"] is False
                mine = set(state.enlightenment.cards_by.get(str(viewer), [])) if game == "tauceti" else set()
                leaked = ids(past) & (secret(state, viewer) - mine)
                assert not leaked, f"{viewer} at {index} sees {sorted(leaked)}"
                assert str(row.seed) not in r.text


def test_a_view_at_an_index_that_is_not_there_is_refused(tmp_path: Any) -> None:
    with server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as c:
        created = create(c, "ceres")
        gid = created["id"]
        play_random(c, created, 3, seed=1)
        n = live(c, gid).index
        for index in (n + 1, -1, 10**9):
            r = c.get(f"/api/games/{gid}/views/{index}")
            assert r.status_code == 404 and f"0 to {n}" in r.json()["message"], r.text
        assert c.get(f"/api/games/{gid}/views/two").json()["error"] == "invalid_request"
        assert c.get(f"/api/games/{gid}/views/0", headers=bearer("not-a-token")).status_code == 403
        assert c.get("/api/games/nosuchgame/views/0").status_code == 404
        assert c.get(f"/api/games/{gid}/views/{n}").status_code == 200


def test_a_kept_state_is_used_only_for_the_log_it_was_replayed_from(tmp_path: Any) -> None:
    """An undo and another action give an index another state: the kept one must not answer."""
    with server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as c:
        gid, _, log = finished(c)
        row = live(c, gid).row
        analysis = Analysis(service(c))
        game = get_game("tauceti")
        k = next(i for i in range(5, len(log)) if len(game.legal_actions(replay(
            GameRecord("tauceti", row.config, row.seed, log), upto=i))) > 1)
        before = replay(GameRecord("tauceti", row.config, row.seed, log), upto=k)
        other = next(str(a) for a in game.legal_actions(before) if str(a) != log[k])
        first = tuple(log[:k + 1])
        second = (*log[:k], other)
        assert state_digest(game, analysis._state_at(row, first)) == state_digest(
            game, replay(GameRecord("tauceti", row.config, row.seed, list(first))))
        assert state_digest(game, analysis._state_at(row, second)) == state_digest(
            game, replay(GameRecord("tauceti", row.config, row.seed, list(second))))
        assert state_digest(game, analysis._state_at(row, tuple(log[:k + 3]))) == state_digest(
            game, replay(GameRecord("tauceti", row.config, row.seed, log), upto=k + 3))


# -- suggestions --------------------------------------------------------------------------------


def test_suggestions_are_refused_unless_the_game_allows_them_and_it_is_your_decision(tmp_path: Any) -> None:
    with server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as c:
        off = create(c, "tauceti", seats=[{}, {}], config=TC_CONFIG)
        seat = c.get(f"/api/games/{off['id']}").json()["current_seat"]
        r = c.post(f"/api/games/{off['id']}/suggest", headers=bearer(tokens(off)[seat]))
        assert r.status_code == 403 and "off for this game" in r.json()["message"], r.text
        assert c.get(f"/api/games/{off['id']}/analysis").json() == {"id": off["id"], "suggestions": False,
                                                                     "copied": 0}

        on = create(c, "tauceti", seats=[{}, {}], config=TC_CONFIG, suggestions=True)
        gid, keys = on["id"], tokens(on)
        assert c.get(f"/api/games/{gid}/analysis").json()["suggestions"] is True
        seat = c.get(f"/api/games/{gid}").json()["current_seat"]
        r = c.post(f"/api/games/{gid}/suggest", headers=bearer(keys[1 - seat]))
        assert r.status_code == 403 and "not your decision" in r.json()["message"], r.text
        assert c.post(f"/api/games/{gid}/suggest").status_code == 403
        assert c.post(f"/api/games/{gid}/suggest", headers=bearer("x" * 43)).status_code == 403

        done, done_keys, _ = finished(c, suggestions=True)
        r = c.post(f"/api/games/{done}/suggest", headers=bearer(done_keys[0]))
        assert r.status_code == 403 and "over" in r.json()["message"]
        assert stored(c, gid) == [] and live(c, gid).index == 0


def test_a_suggestion_is_a_legal_move_with_a_win_chance_and_changes_nothing(tmp_path: Any) -> None:
    with server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as c:
        created = create(c, "tauceti", seats=[{}, {}, {}], config=TC_CONFIG, suggestions=True, seed=31)
        gid, keys = created["id"], tokens(created)
        play_random(c, created, 6, seed=2)
        view = c.get(f"/api/games/{gid}", headers=bearer(keys[live(c, gid).state.current_player])).json()
        seat = view["seat"]
        r = c.post(f"/api/games/{gid}/suggest", headers=bearer(keys[seat]))
        assert r.status_code == 200, r.text
        got = r.json()
        legal = {a["notation"]: a["label"] for a in view["legal_actions"]}
        assert got["notation"] in legal and got["label"] == legal[got["notation"]]
        assert 0 <= got["win_chance"] <= 1 and got["index"] == view["index"]
        assert len(stored(c, gid)) == view["index"] == live(c, gid).index
        # The same position gets the same suggestion (the bot's seed is the position's).
        assert c.post(f"/api/games/{gid}/suggest", headers=bearer(keys[seat])).json() == got


def test_a_suggestion_depends_only_on_what_the_seat_sees() -> None:
    """The worker holds the whole state; the bot and the evaluator get re-dealt copies only, so
    a state and a copy with everything the seat cannot see dealt otherwise suggest alike, also
    where the evaluator judges the two differently (it would tell the hidden cards apart)."""
    game = get_game("tauceti")
    evaluator = evaluator_for(game)
    state = game.new_game({"players": 3, **TC_CONFIG}, 41)
    bots = [RandomBot(i) for i in range(3)]
    rng = Rng.from_seed(9)
    checked = telling = step = 0
    while not state.is_over:
        seat = state.current_player
        step += 1
        if step % 4 == 0:
            other = game.determinize(state, seat, rng)
            assert game.observe(other, seat) == game.observe(state, seat)
            assert suggest_from(game, state, seat, 77) == suggest_from(game, other, seat, 77)
            telling += evaluator.chances(other) != evaluator.chances(state)
            checked += 1
        game.apply(state, bots[seat].choose(game, state, seat))
    assert checked > 20 and telling >= 5, (checked, telling)


def test_the_suggestions_option_is_kept_out_of_the_engines_config(database_url: str) -> None:
    url = database_url
    with server(url) as c:
        gid = create(c, "ceres", suggestions=True)["id"]
        with service(c).storage.engine.begin() as conn:
            raw = json.loads(conn.execute(sa.select(games.c.config).where(games.c.id == gid)).scalar_one())
        assert raw[SERVER_KEY] == {"suggestions": True}
        row = service(c).storage.game(gid)
        assert row is not None and row.suggestions and SERVER_KEY not in row.config
    with server(url) as c:  # restored from the database after a restart
        assert c.get(f"/api/games/{gid}").status_code == 200
        assert live(c, gid).row.suggestions is True and SERVER_KEY not in live(c, gid).row.config
        r = c.post("/api/games", json={"game": "ceres", "seats": [{}], "config": {SERVER_KEY: {"suggestions": True}}})
        assert r.status_code == 422 and r.json()["error"] == "invalid"


# -- the win-chance chart ------------------------------------------------------------------------


def test_sampled_indices_are_bounded_and_keep_both_ends() -> None:
    assert sample_indices(5) == [0, 1, 2, 3, 4, 5]
    for n in (99, 100, 101, 1000, 12345):
        got = sample_indices(n)
        assert len(got) <= 100 and got[0] == 0 and got[-1] == n and got == sorted(set(got))
    assert len(sample_indices(1000)) == 100


def test_win_chances_of_a_finished_game(tmp_path: Any) -> None:
    with server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as c:
        gid, _, log = finished(c, players=3)
        assert len(log) > 100
        r = c.get(f"/api/games/{gid}/win-chances")
        assert r.status_code == 200, r.text
        chart = r.json()
        assert chart["actions"] == len(log) and [s["seat"] for s in chart["seats"]] == [0, 1, 2]
        assert [p["index"] for p in chart["points"]] == sample_indices(len(log))
        for point in chart["points"]:
            assert len(point["chances"]) == 3 and all(0 <= p <= 1 for p in point["chances"])
        final = replay(GameRecord("tauceti", live(c, gid).row.config, 11, log))
        assert chart["points"][-1]["chances"] == get_game("tauceti").returns(final)
        assert c.get(f"/api/games/{gid}/win-chances").json() == chart  # kept

        small, _, short_log = finished(c, "ceres", players=2, seed=3)
        points = c.get(f"/api/games/{small}/win-chances").json()["points"]
        assert [p["index"] for p in points] == list(range(len(short_log) + 1))

        playing = create(c, "ceres")["id"]
        r = c.get(f"/api/games/{playing}/win-chances")
        assert r.status_code == 409 and r.json()["error"] == "game_not_over"
        assert c.get("/api/games/nosuchgame/win-chances").status_code == 404


# -- play on from a position --------------------------------------------------------------------


def wait_for(check: Any, timeout: float = WAIT) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def test_play_on_starts_a_game_at_the_position_and_it_plays_on(database_url: str) -> None:
    with server(database_url) as c:
        gid, _, log = finished(c, players=3)
        old = live(c, gid)
        # A position where seat s made the last copied action and decides next.
        k = next(i for i in range(10, len(log)) if old.log[i - 1].seat == old.log[i].seat)
        s = old.log[k].seat
        r = c.post(f"/api/games/{gid}/play-on", json={"index": k, "seat": s, "level": "random", "name": "Ann"})
        assert r.status_code == 201, r.text
        created = r.json()
        new = created["id"]
        assert [x["kind"] for x in created["seats"]] == ["person" if i == s else "bot" for i in range(3)]
        assert created["seats"][s]["token"] and created["seats"][s]["name"] == "Ann"
        key = created["seats"][s]["token"]
        rows = stored(c, new)
        assert [r.notation for r in rows] == log[:k] and {r.actor for r in rows} == {"replay"}
        game = get_game("tauceti")
        assert state_digest(game, live(c, new).state) == state_digest(
            game, replay(GameRecord("tauceti", old.row.config, old.row.seed, log), upto=k))
        assert c.get(f"/api/games/{new}/analysis").json() == {"id": new, "suggestions": False, "copied": k}

        # Undo never reaches into the copied actions.
        r = c.post(f"/api/games/{new}/undo", headers=bearer(key), json={"expected_index": k})
        assert r.status_code == 422 and "copied" in r.json()["message"], r.text
        assert len(stored(c, new)) == k

        view = c.get(f"/api/games/{new}", headers=bearer(key)).json()
        assert view["current_seat"] == s and view["legal_actions"] and not view["undoable"]
        r = c.post(f"/api/games/{new}/actions", headers=bearer(key),
                   json={"action": view["legal_actions"][0]["notation"], "expected_index": k})
        assert r.status_code == 200, r.text
        # ... and the bots play on when it is their turn.
        wait_for(lambda: live(c, new).state.current_player == s or live(c, new).state.is_over)
        assert live(c, new).index > k
        assert live(c, gid).index == len(log)  # the finished game is untouched


@pytest.mark.parametrize("body, status, words", [
    ({"index": 10**6}, 422, "0 to"),
    ({"index": -1}, 422, "index"),
    ({"index": 3, "seat": 3}, 422, "seat 3"),
    ({"index": 3, "seat": -1}, 422, "seat"),
    ({"index": 3, "level": "ismcts:60s"}, 422, "level"),
    ({"index": 3, "seed": 1}, 422, "seed"),
    ({"index": "3"}, 422, "index"),
    ({}, 422, "index"),
])
def test_a_bad_play_on_is_refused_and_stores_nothing(tmp_path: Any, body: dict[str, Any], status: int,
                                                     words: str) -> None:
    with server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as c:
        gid, _, log = finished(c, players=3)
        before = game_count(c)
        if body.get("index") == 10**6:
            body = {"index": len(log)}  # the end itself is no position to play on from
        r = c.post(f"/api/games/{gid}/play-on", json=body)
        assert r.status_code == status and words in r.json()["message"], r.text
        assert game_count(c) == before


def test_play_on_needs_a_finished_game(tmp_path: Any) -> None:
    with server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as c:
        playing = create(c, "ceres")["id"]
        before = game_count(c)
        r = c.post(f"/api/games/{playing}/play-on", json={"index": 0})
        assert r.status_code == 409 and r.json()["error"] == "game_not_over"
        assert c.post("/api/games/nosuchgame/play-on", json={"index": 0}).status_code == 404
        assert game_count(c) == before


def test_the_views_of_a_played_on_game_start_at_its_copied_prefix(tmp_path: Any) -> None:
    """The copied actions are the new game's own history: its log views show them."""
    with server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as c:
        gid, _, log = finished(c, "ceres", players=2, seed=3)
        created = c.post(f"/api/games/{gid}/play-on", json={"index": 4, "seat": 1, "level": "random"}).json()
        new = created["id"]
        for index in range(5):
            assert (c.get(f"/api/games/{new}/views/{index}").json()["view"]
                    == c.get(f"/api/games/{gid}/views/{index}").json()["view"])
        assert len(log) > 4
