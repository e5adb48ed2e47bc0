"""The game page's tools, in the browser: hot-seat with its "pass the device" screen, the notation
box with its completion, undo, the keyboard, chat, handing the seat to a bot and taking it back,
the log, and the lobby's lists of my games and games to watch."""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

import pytest

from browser_support import (
    DESKTOP,
    PHONE,
    Site,
    assert_clean,
    click_action,
    create_in_lobby,
    needs_browser,
    new_page,
    screenshot,
    too_wide,
    view_of,
    wait_my_turn_or_over,
)
from ecliptic.web import STATIC

pytestmark = needs_browser


def log_index(w: Any) -> int:
    index: int = w.page.evaluate("() => Number(document.body.dataset.index)")
    return index


def test_hot_seat_passes_the_device_and_never_shows_a_seat_the_others_table(server_site: Site, chromium: Any) -> None:
    w = new_page(chromium)
    create_in_lobby(w, server_site.url, "tauceti", ["person", "person"], seed=31,
                    choices={"game": "short", "layout": "preset"})
    w.page.click("#hotseat-link")
    page = w.page
    page.wait_for_selector("#pass-screen:not([hidden])")
    # The seats kept the lobby's names ("Player 1"): the page calls them by their factions, as the board does.
    first, second = (p["faction"] for p in view_of(w)["view"]["players"])
    assert page.locator("#pass-text").inner_text().startswith(f"Pass the device to {first}.")
    assert page.locator("#table > *").count() == 0 and page.locator("#decision-panel > *").count() == 0
    page.click("#pass-ready")
    page.wait_for_selector("#decision-panel button.action", state="attached")
    assert f"you are {first} · hot-seat" in page.locator("#status").inner_text()
    # The first player opens "Why not?": a fold of theirs, which the next player's panel does not inherit.
    page.click("#decision-panel details[data-fold='refused'] > summary")
    assert page.locator("#decision-panel details[data-fold='refused']").get_attribute("open") is not None
    rng = random.Random(31)
    for _ in range(60):  # Player 1 plays until the decision is Player 2's
        if page.locator("#pass-screen:not([hidden])").count():
            break
        wait_my_turn_or_over(w)
        view = view_of(w)
        if view["current_seat"] != 0:
            break
        click_action(w, rng.choice(view["legal_actions"]))
    page.wait_for_selector("#pass-screen:not([hidden])")
    assert page.locator("#pass-text").inner_text().startswith(f"Pass the device to {second}.")
    # While the device is passed nothing of either seat's table is on the page.
    assert page.locator("#table > *").count() == 0 and page.locator("#decision-panel > *").count() == 0
    screenshot(w, "hotseat-pass-the-device-1280x800")
    page.click("#pass-ready")
    page.wait_for_selector("#decision-panel button.action", state="attached")
    assert f"you are {second}" in page.locator("#status").inner_text()
    view = view_of(w)
    assert view["seat"] == 1 and view["current_seat"] == 1
    why_not = page.locator("#decision-panel details[data-fold='refused']")
    why_not.wait_for(state="attached")
    assert why_not.get_attribute("open") is None
    assert_clean(w)


def test_the_notation_box_completes_and_plays_and_undo_takes_it_back(server_site: Site, chromium: Any) -> None:
    w = new_page(chromium)
    create_in_lobby(w, server_site.url, "tauceti", ["person", "bot"], seed=32,
                    choices={"game": "short", "layout": "preset"})
    page = w.page
    wait_my_turn_or_over(w)
    view = view_of(w)
    notations = sorted(a["notation"] for a in view["legal_actions"])
    assert sorted(page.locator("#notations option").evaluate_all("os => os.map(o => o.value)")) == notations
    assert "REF" in notations  # Refuel: a Major action with no random outcome, so it can be taken back
    before = view["index"]
    page.fill("#notation", "REF")
    page.press("#notation", "Enter")
    page.wait_for_function(f"() => Number(document.body.dataset.index) === {before + 1}")
    page.wait_for_selector("#undo")
    assert view_of(w)["undoable"]
    page.click("#undo")
    page.wait_for_function(f"() => Number(document.body.dataset.index) === {before}")
    assert page.locator(f"#log .log-entry[data-index='{before + 1}']").count() == 0
    # The page says what happened to the entry that went (the other seats' pages name who).
    page.wait_for_selector("#undone:not([hidden])")
    assert page.locator("#undone").inner_text() == f"You took back your last action (#{before + 1})."
    assert "REF" in {a["notation"] for a in view_of(w)["legal_actions"]}
    # A notation the rules refuse: the reason and the rule's link, nothing played.
    w.allow(r"status of 422")
    page.fill("#notation", "GO 99")
    page.press("#notation", "Enter")
    page.wait_for_selector("#error a.rule")
    assert page.locator("#error a.rule").get_attribute("href", timeout=1000).startswith("/rules#tauceti:")
    assert log_index(w) == before
    # A notation "Why not?" already refuses is answered with its reason at once: nothing is posted
    # (no 422 in the console), as a person typing a refused action reads the same words there.
    posted: list[str] = []
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    row = page.locator("#refused li.refused-action:not(.shared)").first
    row.wait_for(state="attached")
    notation, rule = row.get_attribute("data-notation"), row.locator("a.rule").text_content()
    reason = row.locator(".reason").text_content()
    assert notation and rule and reason
    verb, *args = notation.split()
    page.fill("#notation", " ".join([verb.lower(), *args]))  # the verb's case is the engine's to ignore
    page.press("#notation", "Enter")
    page.wait_for_function("r => document.querySelector('#error').textContent.includes(r)", arg=reason)
    assert page.locator("#error").inner_text().startswith(f"Not played: {reason}")
    assert page.locator("#error a.rule").inner_text() == rule
    assert posted == [] and log_index(w) == before
    assert_clean(w)


def test_every_action_is_reachable_by_the_keyboard_and_the_turn_clock_shows(server_site: Site, chromium: Any) -> None:
    w = new_page(chromium)
    create_in_lobby(w, server_site.url, "tauceti", ["person", "bot"], seed=33,
                    choices={"game": "short", "layout": "preset"}, clock_seconds=3600)
    page = w.page
    wait_my_turn_or_over(w)
    # Words only (a clock glyph is an empty box in the fonts of some systems), minutes and seconds.
    assert re.fullmatch(r"Turn clock: you have (59:\d\d|1:00:00) left, then a bot plays for you\.",
                        page.locator("#clock").inner_text())
    focused = "() => document.activeElement.id"
    # A decision of mine brings the keyboard to its heading (not the page's top, the whole map
    # away): the next Tab is in the decision's panel.
    assert page.evaluate(focused) == "decision"
    page.keyboard.press("Tab")
    assert page.evaluate("() => !!document.activeElement.closest('#decision-panel')")
    # The page's first Tab stop skips the header and the table to the decision.
    assert page.evaluate("() => document.body.firstElementChild.id") == "skip-to-decision"
    page.locator("#skip-to-decision").focus()
    page.keyboard.press("Enter")
    assert page.evaluate(focused) == "decision"
    before = log_index(w)
    for _ in range(300):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('#decision-panel button.action')"):
            break
    else:
        raise AssertionError("Tab never reached an action")
    label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert label
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => Number(document.body.dataset.index) > {before}")
    # The move made, its button gone: the keyboard is back at the decision, not lost on the body.
    page.wait_for_function("() => document.activeElement.id === 'decision'", timeout=5000)
    # A folded group opens from the keyboard too (its summary is focusable).
    assert page.locator("#groups details.group > summary").count() > 0
    # The last action of a long list, clicked far down a short window: the list shrinks and the
    # keyboard goes to the new decision's heading, which is brought into view (not left above it).
    assert wait_my_turn_or_over(w) == "turn"
    page.set_viewport_size({"width": 1280, "height": 420})
    page.evaluate("() => document.querySelectorAll('#decision-panel details').forEach((d) => { d.open = true; })")
    last = page.locator("#decision-panel button.action:not([disabled])").last
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    last.scroll_into_view_if_needed()
    assert page.evaluate("() => document.getElementById('decision').getBoundingClientRect().bottom < 0"), \
        page.evaluate("() => [document.getElementById('decision').getBoundingClientRect().top, window.scrollY,"
                      " document.querySelectorAll('#decision-panel button.action').length]")
    before = log_index(w)
    last.click()
    page.wait_for_function(f"() => Number(document.body.dataset.index) > {before}")
    page.wait_for_function("() => document.activeElement.id === 'decision'", timeout=5000)
    assert page.evaluate("() => { const r = document.getElementById('decision').getBoundingClientRect();"
                         " return r.top > -1 && r.bottom < window.innerHeight + 1; }"), \
        page.evaluate("() => [document.getElementById('decision').getBoundingClientRect().top,"
                      " document.getElementById('decision').getBoundingClientRect().bottom, window.scrollY,"
                      " window.innerHeight, document.getElementById('decision').textContent]")
    page.set_viewport_size(DESKTOP)
    assert_clean(w)


def test_chat_hand_over_to_a_bot_take_back_and_the_log(server_site: Site, chromium: Any) -> None:
    w = new_page(chromium)
    # The other seat is a person who never moves: the game waits at their first decision, so it
    # cannot end while my seat is the bot's (two bots finished a short game before the seat was
    # taken back on a loaded machine).
    game_id = create_in_lobby(w, server_site.url, "tauceti", ["person", "person"], seed=34,
                              choices={"game": "short", "layout": "preset", "first_player": "0"})
    w.page.click("#created a.play-here")
    page = w.page
    assert wait_my_turn_or_over(w) == "turn"
    page.fill("#chat-text", "good luck")
    page.press("#chat-text", "Enter")
    page.wait_for_selector("#chat-messages li:has-text('good luck')")
    # The other player's answer, while this page looks at the board (the chat below, out of
    # sight): it is announced in the decision box until the chat is shown. One's own is not.
    assert page.locator("#chat-alert").is_hidden()
    page.evaluate("() => window.scrollTo(0, 0)")
    # (The friend takes seat 2 with the join link this browser keeps to hand out, as their own browser would.)
    page.evaluate("""async (id) => {
      const entry = JSON.parse(localStorage.getItem('ecliptic.games')).find((g) => g.id === id);
      const link = new URLSearchParams(new URL(entry.links[1].link, location.origin).hash.slice(1)).get('token');
      const taken = await (await fetch('/api/games/' + id + '/seats/1/take', {method: 'POST',
        headers: {Authorization: 'Bearer ' + link}})).json();
      await fetch('/api/games/' + id + '/chat', {method: 'POST', body: JSON.stringify({text: 'you too'}),
        headers: {'Content-Type': 'application/json', Authorization: 'Bearer ' + taken.token}});
    }""", game_id)
    page.wait_for_selector("#chat-alert:not([hidden])")
    assert page.locator("#chat-alert-text").inner_text() == "Player 2: you too"
    page.click("#chat-alert-show")
    assert page.locator("#chat-alert").is_hidden()
    assert page.evaluate("() => document.activeElement.id") == "chat-text"
    before = log_index(w)
    page.select_option("#hand-level", "random")
    page.click("#hand-to-bot")
    page.wait_for_selector("#take-back")
    # Beside the way back, why the game goes on without me.
    assert page.locator("#seat-note").inner_text() == (
        "You handed your seat to a bot: it plays until you take the seat back.")
    page.wait_for_function(f"() => Number(document.body.dataset.index) > {before}")  # the bot plays my seat
    page.click("#take-back")
    page.wait_for_selector("#hand-to-bot")
    assert view_of(w)["seats"][0]["controller"] == "person"
    # Clicking a log entry shows the board at that moment (with the history module), or says why not.
    page.locator("#log .log-pick").last.click()
    if (STATIC / "extras.js").exists():
        page.wait_for_selector("#history-bar:not([hidden])")
        page.click("#back-to-now")
    else:
        page.wait_for_selector("#error:has-text('not available')")
    # The lobby lists the game among mine and among the games to watch.
    page.goto(server_site.url + "/")
    page.wait_for_selector(f"#my-games li[data-id='{game_id}']")
    page.wait_for_selector(f"#all-games a[href='/watch/{game_id}']")
    page.click(f"#all-games a[href='/watch/{game_id}']")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('watching')")
    assert page.locator("#decision-panel button.action").count() == 0 and page.locator("#chat-form").is_hidden()
    assert_clean(w)


WATCHER = """
window.__notes = [];
window.Notification = class {
  constructor(title, options) { window.__notes.push([title, options && options.body]); }
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
};
// The person is in another tab: the page is hidden, so it notifies.
Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
window.__shown = [];
new MutationObserver(() => {
  const top = document.querySelector("#log .log-entry");
  if (!top) return;
  const index = Number(top.dataset.index);
  if (!window.__shown.length || window.__shown[window.__shown.length - 1].index !== index) {
    const thinking = document.querySelector("#thinking");
    window.__shown.push({ index, seat: top.dataset.seat === undefined ? null : Number(top.dataset.seat),
      at: performance.now(), thinking: !!thinking && !thinking.hidden && thinking.textContent });
  }
}).observe(document, { childList: true, subtree: true });
"""
PACE = 400


def test_bot_moves_are_shown_one_by_one_at_a_readable_pace_then_my_turn_is_announced(
        server_site: Site, chromium: Any) -> None:
    w = new_page(chromium, pace=PACE, init=WATCHER)
    create_in_lobby(w, server_site.url, "tauceti", ["person", "bot", "bot", "bot"], seed=35,
                    choices={"game": "short", "layout": "preset"})
    page = w.page
    rng = random.Random(35)
    for _ in range(40):
        wait_my_turn_or_over(w, timeout_ms=60_000)
        assert page.title().startswith("▶ Your turn")
        shown = page.evaluate("() => window.__shown")
        if sum(1 for s in shown if s["seat"] not in (0, None)) >= 6:
            break
        view = view_of(w)
        click_action(w, rng.choice(view["legal_actions"]))
    shown = page.evaluate("() => window.__shown")
    bots = [s for s in shown if s["seat"] not in (0, None)]
    assert len(bots) >= 6
    pairs = [(a, b) for a, b in itertools.pairwise(shown) if a["seat"] not in (0, None)
             and b["seat"] not in (0, None)]
    assert pairs and all(b["at"] - a["at"] >= PACE * 0.9 for a, b in pairs), pairs
    # While a bot's move waits its turn to be shown, the page says who is thinking.
    assert any(s["thinking"] and "thinking" in s["thinking"] for s in bots)
    notes = page.evaluate("() => window.__notes")
    assert notes and notes[0][0] == "Ecliptic: your turn"
    assert_clean(w)


def test_suggest_a_move_when_the_game_was_made_with_suggestions(server_site: Site, chromium: Any) -> None:
    with server_site.api() as api:
        if not api.get("/api/options/tauceti").json()["suggestions"]:
            pytest.skip("this build's server offers no suggestions (no history and analysis module)")
    w = new_page(chromium)
    create_in_lobby(w, server_site.url, "tauceti", ["person", "bot"], seed=36,
                    choices={"game": "short", "layout": "preset"}, suggestions=True)
    page = w.page
    wait_my_turn_or_over(w)
    before = log_index(w)
    page.click("#suggest")
    page.wait_for_selector("#suggestion:has-text('Suggested:')", timeout=60_000)
    assert "win chance" in page.locator("#suggestion").inner_text()
    page.click("#suggestion button")
    page.wait_for_function(f"() => Number(document.body.dataset.index) > {before}")
    assert_clean(w)


def test_the_lobby_builds_its_form_from_the_engines_options(server_site: Site, chromium: Any) -> None:
    w = new_page(chromium)
    page = w.page
    page.goto(server_site.url + "/")
    page.wait_for_selector("#create[data-game='tauceti']")
    with server_site.api() as api:
        options = api.get("/api/options/tauceti").json()
        ceres = api.get("/api/options/ceres").json()
    for o in options["options"]:
        if o["kind"] == "per_seat":  # one select per seat, its choices and "at random"
            selects = page.locator(f"#seats .seat select[data-option='{o['name']}']")
            assert selects.count() == options["players"]["default"]
            assert selects.first.locator("option").count() == len(o["choices"]) + 1
        else:
            assert page.locator(f"#config fieldset[data-option='{o['name']}']").count() == 1, o["name"]
    advanced = next(o for o in options["options"] if o["name"] == "advanced")
    assert page.locator("#config fieldset[data-option='advanced'] input[type=checkbox]").count() == len(
        advanced["choices"])
    assert page.locator("#seats .seat select.level >> nth=1 >> option").all_inner_texts() == [
        lv["label"] for lv in options["bot_levels"]]
    screenshot(w, "lobby-1280x800")
    page.set_viewport_size(PHONE)
    screenshot(w, "lobby-390x844")
    assert not too_wide(w), too_wide(w)
    page.set_viewport_size(DESKTOP)
    page.select_option("#game", "ceres")
    page.wait_for_selector("#create[data-game='ceres']")
    assert page.locator("#config fieldset.option").count() == len(ceres["options"])
    assert page.locator("#seats select.per-seat").count() == 0
    assert page.get_by_label("Comets", exact=True).count() == 1
    assert_clean(w)
