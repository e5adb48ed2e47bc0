"""Playing in the browser as a person does: a game made in the lobby, every decision a click on
the table or on an action of the grouped list (never the notation box), against the server's
bots; a whole short game to the score sheet; a reload and a server restart in the middle."""

from __future__ import annotations

import random
import re
import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any

from browser_support import (
    DESKTOP,
    PHONE,
    Site,
    assert_clean,
    click_action,
    create_in_lobby,
    needs_browser,
    new_page,
    play_randomly,
    screenshot,
    site,
    start_on,
    too_wide,
    view_of,
    wait_my_turn_or_over,
)
from ecliptic.web import STATIC
from server_helpers import eventually

pytestmark = needs_browser

TOWARD = ("BUI", "EXP", "REC", "BUY", "MOV", "GO")
"""The kinds of action the first test sets out to play: build, explore, recruit, buy, move."""


def verb(action: dict[str, Any]) -> str:
    return str(action["notation"]).split(" ")[0]


def toward_the_table(view: dict[str, Any], done: list[str], rng: random.Random) -> dict[str, Any]:
    """A person who wants to try everything: build when offered, explore, travel toward
    unexplored points, recruit and buy once, else anything (chosen by the test, the rules are
    the server's: only its legal actions are candidates)."""
    legal = view["legal_actions"]
    by_verb: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        by_verb.setdefault(verb(a), []).append(a)
    if "BUI" in by_verb:
        return by_verb["BUI"][0]
    if "EXP" in by_verb:
        return by_verb["EXP"][0]
    if "GO" in by_verb:
        hidden = {p["sector"] for p in view["view"]["points"].values() if p["token"] == "hidden"}
        unexplored = [a for a in by_verb["GO"] if a["notation"].split(" ")[1] in hidden]
        return (unexplored or [rng.choice(by_verb["GO"])])[0]
    for v in ("REC", "BUY", "MOV"):
        if v in by_verb and (v not in done or v == "MOV"):
            return by_verb[v][0]
    return rng.choice(legal)


def test_a_tau_ceti_game_against_three_bots_made_in_the_lobby_and_played_by_clicking(
        server_site: Site, chromium: Any) -> None:
    w = new_page(chromium)
    game_id = create_in_lobby(w, server_site.url, "tauceti", ["person", "bot", "bot", "bot"], seed=6,
                              choices={"game": "short", "layout": "preset"})
    w.page.wait_for_selector("#decision-panel button.action", state="attached")
    assert w.page.locator("#status").inner_text().startswith("Tau Ceti")
    screenshot(w, "tauceti-4p-start-1280x800")
    # "Why not" is asked for once the decision is mine (it is not pushed with every view): the
    # refused actions arrive with their rule links.
    w.page.locator("#refused .refused-action a.rule").first.wait_for(state="attached")
    assert w.page.locator("#refused .refused-action").count() > 0
    rng = random.Random(6)
    done: list[str] = []
    offered: set[str] = set()
    while len(done) < 60 and not set(TOWARD) <= set(done):
        if wait_my_turn_or_over(w) == "over":
            break
        view = view_of(w)
        offered |= {verb(a) for a in view["legal_actions"]}
        choice = toward_the_table(view, done, rng)
        click_action(w, choice)
        done.append(verb(choice))
    # The game is the same at every run (its seed fixes the bots' choices too): all were played.
    for wanted in TOWARD:
        assert wanted in done, f"{wanted} was never played in {done} (offered: {sorted(offered)})"
    # The log shows the moves of the bots too, each with its seat, and the dice as dice faces.
    assert w.page.locator("#log .log-entry").count() > len(done)
    assert w.page.locator("#log .event[data-kind='skill_check'] .dice .die").count() > 0
    if (STATIC / "patch.js").exists():  # the views came as patches of the one before (docs/server.md)
        assert int(w.page.evaluate("() => document.body.dataset.patched || 0")) > len(done)
    screenshot(w, "tauceti-4p-midgame-1280x800")
    w.page.set_viewport_size(PHONE)
    w.page.wait_for_timeout(100)
    screenshot(w, "tauceti-4p-midgame-390x844")
    assert not too_wide(w), too_wide(w)
    w.page.set_viewport_size(DESKTOP)
    assert_clean(w)
    del game_id


def test_a_whole_short_game_played_by_random_clicks_ends_on_the_score_sheet(server_site: Site, chromium: Any) -> None:
    w = new_page(chromium)
    game_id = create_in_lobby(w, server_site.url, "tauceti", ["person", "bot"], seed=11,
                    choices={"game": "short", "layout": "preset"})
    started = time.monotonic()
    clicks = play_randomly(w, random.Random(11), until=lambda v: False)
    assert clicks > 10
    sheet = w.page.locator("#score-sheet")
    sheet.wait_for()
    assert sheet.locator("caption").inner_text().startswith("Final score (GP)")
    view = view_of(w)
    assert view["status"] == "over"
    # The sheet's totals are the engine's final scores, by source.
    totals = [int(t) for t in sheet.locator("tr.total td").all_inner_texts()]
    assert totals == [s["total"] for s in view["view"]["final_scores"]]
    assert sheet.locator("tbody tr th[scope=row]").first.inner_text() == "TAU"
    assert "Game over" in w.page.locator("#decision").inner_text()
    assert w.page.locator("#decision-panel button.action").count() == 0
    assert w.page.title().startswith("Finished")
    screenshot(w, "tauceti-2p-finished-1280x800")
    w.page.set_viewport_size(PHONE)
    screenshot(w, "tauceti-2p-finished-390x844")
    assert not too_wide(w), too_wide(w)
    w.page.set_viewport_size(DESKTOP)
    assert time.monotonic() - started < 150
    if (STATIC / "extras.js").exists():  # the history module: the replay, the chart, play on
        page = w.page
        page.click("#replay-start")   # « shows the setup, the view at index 0
        page.wait_for_selector("#history-bar:has-text('after action 0 ')")
        page.locator("#replay-next").focus()
        for i in range(1, 4):   # by the keyboard: it stays on ▶ as the replay is redrawn
            page.keyboard.press("Enter")
            page.wait_for_selector(f"#history-bar:has-text('after action {i} ')")
        page.wait_for_selector("#win-chart svg polyline")
        screenshot(w, "tauceti-2p-replay-1280x800")
        page.click("#play-on")
        page.wait_for_url(lambda url: "/play/" in url and game_id not in url)
        page.wait_for_selector("#decision-panel button.action", state="attached")
        played_on = view_of(w)
        # The new game starts from those 3 actions (a bot may have played on already).
        assert played_on["status"] == "playing" and played_on["index"] >= 3 and played_on["seat"] == 0
    assert_clean(w)


def test_a_reload_in_the_middle_goes_on_where_it_was(server_site: Site, chromium: Any) -> None:
    w = new_page(chromium)
    game_id = create_in_lobby(w, server_site.url, "tauceti", ["person", "bot"], seed=12,
                              choices={"game": "short", "layout": "preset"})
    play_randomly(w, random.Random(12), until=lambda v: v["index"] >= 8)
    before = view_of(w)
    entries = w.page.locator("#log .log-entry").count()
    w.page.reload()
    w.page.wait_for_selector("#decision-panel button.action", state="attached")
    after = view_of(w)
    assert after["index"] == before["index"] and after["seat"] == 0
    # The whole log again, setup included.
    w.page.wait_for_function(f"() => document.querySelectorAll('#log .log-entry').length === {entries}")
    play_randomly(w, random.Random(13), until=lambda v: v["index"] >= before["index"] + 4)
    assert view_of(w)["index"] >= before["index"] + 4
    assert_clean(w)
    del game_id


def test_a_server_restart_in_the_middle_is_survived(tmp_path: Path, chromium: Any) -> None:
    with site(tmp_path) as s:
        w = new_page(chromium)
        create_in_lobby(w, s.url, "tauceti", ["person", "bot"], seed=14, choices={"game": "short", "layout": "preset"})
        play_randomly(w, random.Random(14), until=lambda v: v["index"] >= 6)
        index = view_of(w)["index"]
        hellos = int(w.page.evaluate("() => document.body.dataset.hellos"))
        entries = w.page.locator("#log .log-entry").count()
        # The page keeps retrying its WebSocket while the server is away: the browser reports
        # each refused connection as a console error, which this test expects.
        w.allow(r"WebSocket connection to .* failed")
        w.allow(r"Failed to load resource: net::ERR_CONNECTION_REFUSED")
        s.restart()
        # The page's WebSocket reconnects by itself and says hello again, asking only for what it missed.
        w.page.wait_for_function(f"() => Number(document.body.dataset.hellos) > {hellos}", timeout=30_000)
        assert w.page.locator("#connection").inner_text() == ""
        assert view_of(w)["index"] == index
        assert w.page.locator("#log .log-entry").count() == entries
        # A backup taken now, put back after more moves (docs/deploy.md): the page, ahead of the
        # game it reconnects to, starts its log again rather than keep moves that no longer happened.
        backup = tmp_path / "backup.db"
        with sqlite3.connect(tmp_path / "server.db") as live_db, sqlite3.connect(backup) as copy:
            live_db.backup(copy)
        play_randomly(w, random.Random(15), until=lambda v: v["index"] >= index + 4)
        assert view_of(w)["index"] >= index + 4
        hellos = int(w.page.evaluate("() => document.body.dataset.hellos"))
        port = s.server.port
        s.server.stop()
        for suffix in ("-wal", "-shm"):
            (tmp_path / f"server.db{suffix}").unlink(missing_ok=True)
        shutil.copyfile(backup, tmp_path / "server.db")
        s.server = start_on(s.launcher, s.database_url, port)
        w.page.wait_for_function(f"() => Number(document.body.dataset.hellos) > {hellos}", timeout=30_000)
        w.page.wait_for_function(f"() => document.querySelectorAll('#log .log-entry').length === {entries}")
        assert view_of(w)["index"] == index
        assert_clean(w)


def test_watch_the_bots_play_replays_their_finished_game_one_action_a_second(server_site: Site, chromium: Any) -> None:
    """Bots finish a game of bots in a moment: "Watch the bots play" (/watch/{id}#replay) finds it
    over and plays its replay from the start, one action a second ("Play" / "Pause", aria-pressed,
    by the keyboard), stopping at the end. The page's clock is Playwright's: each second is run."""
    from playwright.sync_api import expect  # (imported here: without Playwright the module is skipped)

    with server_site.api() as api:
        gid = api.post("/api/games", json={"game": "ceres", "seed": 8, "seats": [
            {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]}).json()["id"]
        last = eventually(lambda: (lambda g: g["status"] == "over" and g["index"])(api.get(f"/api/games/{gid}").json()),
                          "the bots finish")
    w = new_page(chromium)
    page = w.page
    page.clock.install()
    page.goto(f"{server_site.url}/watch/{gid}#replay")
    at = page.locator("#replay-index")
    play = page.locator("#replay-play")

    def shows(index: int) -> None:
        expect(at).to_have_text(re.compile(rf"^\s*{index} / {last}\s*$"))

    shows(0)   # the start: the setup before the first action
    expect(play).to_have_attribute("aria-pressed", "true")
    expect(play).to_have_text("Pause")
    for index in (1, 2):
        page.clock.run_for(1000)
        shows(index)
        page.wait_for_selector(f"#history-bar:has-text('after action {index} ')")
    play.focus()   # a second press, by the keyboard, pauses: the button keeps the focus
    page.keyboard.press("Enter")
    expect(play).to_have_attribute("aria-pressed", "false")
    expect(play).to_have_text("Play")
    assert page.evaluate("() => document.activeElement.id") == "replay-play"
    page.clock.run_for(5000)
    shows(2)   # paused: the seconds go by, the replay stays
    # Played near the end it stops there by itself.
    page.click("#replay-end")
    shows(last)
    page.click("#replay-prev")
    shows(last - 1)
    play.click()
    expect(play).to_have_attribute("aria-pressed", "true")
    page.clock.run_for(1000)
    shows(last)
    expect(play).to_have_attribute("aria-pressed", "false")
    expect(play).to_have_text("Play")
    page.clock.run_for(3000)
    shows(last)
    # A game still going is watched live: no replay is started.
    with server_site.api() as api:
        going = api.post("/api/games", json={"game": "ceres", "seats": [{"name": "Ann"}, {"name": "Bob"}]}).json()["id"]
    page.goto(f"{server_site.url}/watch/{going}#replay")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('watching')")
    assert page.locator("#replay-play").count() == 0 and page.locator("#history-bar").is_hidden()
    assert_clean(w)
