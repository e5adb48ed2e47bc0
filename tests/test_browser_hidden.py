"""Two people in two browsers: neither ever receives the other's hand, GP tokens or face-down
cards. Checked on everything the browser receives (every WebSocket frame, every HTTP answer of
the API), not only on the screen, against the true state of the game at that index: the game's
log read from the server's database afterwards and replayed by the engine, with the
hidden-information test's may-not-see sets (tests/test_hidden_information.py)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from browser_support import (
    assert_clean,
    browser,
    click_action,
    create_in_lobby,
    needs_browser,
    new_page,
    site,
    view_of,
    wait_loaded,
    wait_my_turn_or_over,
)
from ecliptic.engine.actions import Action
from ecliptic.games import get_game
from ecliptic.server.storage import Storage
from ecliptic.web import STATIC
from test_hidden_information import ids, tc_secret, tc_unseen

pytestmark = needs_browser

Received = list[tuple[str, str, Any]]
"""What a page received, in order: ("ws" or the API path, the text)."""


def record(w: Any) -> Received:
    """Every WebSocket frame and every API answer the page receives."""
    got: Received = []
    page = w.page
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: got.append(("ws", "", payload))))

    def answer(route: Any) -> None:
        response = route.fetch()
        got.append(("http", route.request.url, response.text()))
        route.fulfill(response=response)

    page.route("**/api/**", answer)
    return got


def pieces(kind: str, url: str, text: str) -> list[tuple[int | None, str, Any]]:
    """(index, "events" or "view", data) of one received message; index None: not about a position."""
    try:
        m = json.loads(text)
    except ValueError:
        return []
    if not isinstance(m, dict):
        return [(None, "other", m)]
    out: list[tuple[int | None, str, Any]] = []
    if kind == "ws":
        for missed in m.get("missed", []):
            out.append((missed["index"], "events", missed["events"]))
        if m.get("setup_events"):
            out.append((0, "events", m["setup_events"]))
        if "events" in m:
            out.append((m["index"], "events", m["events"]))
        if isinstance(m.get("view"), dict):
            out.append((m["view"]["index"], "view", m["view"]))
        if "patch" in m:  # a view patch (docs/server.md): only what the new view shows
            out.append((m.get("index"), "patch", m["patch"]))
        if not out:
            out.append((None, "other", m))
    elif "legal_actions" in m and "view" in m:
        out.append((m["index"], "view", m))
    elif url.endswith("/actions") and "events" in m:
        out.append((m["index"], "events", m["events"]))
    else:
        out.append((None, "other", m))
    return out


def check(received: Received, seat: int, states: list[Any]) -> tuple[int, set[str]]:
    """Fail on any id ``seat`` may not see at that index; the number of checked pieces and the
    ids it was shown."""
    seen: set[str] = set()
    told: set[str] = set()
    latest = 0
    checked = 0
    shown: set[str] = set()
    for kind, url, text in received:
        for index, what, data in pieces(kind, url, text):
            at = latest if index is None else index
            latest = max(latest, at)
            state = states[at]
            found = ids(data)
            if what == "view":
                leaked = found & tc_unseen(state, seat, told)
                seen = found
            elif what == "patch":
                leaked = found & tc_unseen(state, seat, told)
                seen |= found
            else:
                leaked = found & (tc_secret(state, seat) - seen)
                if what == "events":
                    told |= found
            assert not leaked, f"seat {seat} received {sorted(leaked)} at index {at} ({kind} {url}): {text[:300]}"
            checked += 1
            shown |= found
    return checked, shown


def test_two_seats_in_two_browsers_never_receive_each_others_secrets(tmp_path: Path) -> None:
    with site(tmp_path) as s, browser() as b:
        ann, bob = new_page(b), new_page(b)
        got = {0: record(ann), 1: record(bob)}
        game_id = create_in_lobby(ann, s.url, "tauceti", ["person", "person", "bot", "bot"], seed=21,
                                  choices={"game": "short", "layout": "preset"})
        bob_link = ann.page.locator("#created li.join").nth(1).locator("input.join-link").input_value()
        assert "&token=" in bob_link
        ann.page.click("#created li.join >> nth=0 >> a.play-here")
        wait_loaded(ann)
        bob.page.goto(bob_link)  # Bob's own browser, with the join link Ann sent him
        wait_loaded(bob)
        assert "#token=" not in bob.page.url  # the token leaves the address bar (kept in Bob's localStorage)
        pages = {0: ann, 1: bob}
        rng = random.Random(21)
        clicks = 0
        with s.api() as api:
            while clicks < 120:
                public = api.get(f"/api/games/{game_id}").json()
                # Round 2's Enlightenment phase (cards played face down) and into its Action phase.
                if public["status"] == "over" or (public["view"]["round"] >= 2 and public["view"]["phase"] == "action"):
                    break
                seat = public["current_seat"]
                if seat not in pages:
                    time.sleep(0.05)  # a bot's turn: its move is on its way
                    continue
                w = pages[seat]
                if wait_my_turn_or_over(w) == "over":
                    break
                view = view_of(w)
                if view["index"] != public["index"] or not view["legal_actions"]:
                    time.sleep(0.05)
                    continue
                # Recruit cards and play them face down when offered, so there are secrets to keep.
                keen = [a for a in view["legal_actions"] if a["notation"].split(" ")[0] in ("PLAY", "REC")]
                click_action(w, (keen or [rng.choice(view["legal_actions"])])[0])
                clicks += 1
            public = api.get(f"/api/games/{game_id}").json()
        assert public["view"]["round"] >= 2 or public["status"] == "over"
        # Bob looks back at earlier positions from his log: those answers are checked too.
        looked = 0
        for entry in (1, 5, 9):
            pick = bob.page.locator("#log .log-pick").nth(entry)
            index = pick.get_attribute("data-index")
            pick.click()
            if (STATIC / "extras.js").exists():
                bob.page.wait_for_selector(f"#history-bar:has-text('after action {index} ')")
                looked += 1
            else:
                bob.page.wait_for_selector("#error:has-text('not available')")
        assert_clean(ann, bob)

        storage = Storage(s.database_url)
        try:
            row = storage.game(game_id)
            assert row is not None
            log = storage.actions(game_id)
        finally:
            storage.close()
        game = get_game("tauceti")
        state = game.new_game(row.config, row.seed)
        states = [state.clone()]
        hands: dict[int, set[str]] = {0: set(), 1: set()}
        for r in log:
            game.apply(state, Action.parse(r.notation))
            states.append(state.clone())
            for seat in hands:
                hands[seat] |= set(state.players[seat].hand)
        views_at = [u for kind, u, _ in got[1] if kind == "http" and "/views/" in u]
        assert len(views_at) == looked
        for seat in (0, 1):
            checked, shown = check(got[seat], seat, states)
            assert checked > 50
            # Not vacuous: each browser did receive its own hand, and cards were played face down.
            assert hands[seat] and shown & hands[seat]
        assert any(r.notation.startswith("PLAY ") and r.seat in (0, 1) for r in log)
        # And the check is live: Ann's hand in a frame to Bob fails it.
        at = max(i for i, st in enumerate(states) if st.players[0].hand)
        secret = " ".join(sorted(states[at].players[0].hand))
        forged = {"type": "action", "index": at, "seat": 0, "events": [{"kind": "x", "text": secret, "data": {}}]}
        with pytest.raises(AssertionError, match="seat 1 received"):
            check([("ws", "", json.dumps(forged))], 1, states)
