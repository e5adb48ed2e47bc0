"""The game page's states, in the browser: catching up with a game that ran ahead (skip to now,
and by itself when the page's own seat was played by a bot), the notice of a page that watches
where a seat was asked for, a wrong join link or a missing game finishing into a clear state, the
"thinking" indicator drawn without a font glyph, and the board zoomed to a readable size on a
phone, the zoom kept per game."""

from __future__ import annotations

import itertools
import random
import re
import time
from typing import Any

import pytest

from browser_support import (
    PHONE,
    Site,
    assert_clean,
    click_action,
    create_in_lobby,
    needs_browser,
    new_page,
    no_null_text,
    screenshot,
    too_wide,
    view_of,
    wait_loaded,
    wait_my_turn_or_over,
)

pytestmark = needs_browser

SLOW = 600_000  # ten minutes between two moves of other seats: a page catches up only by skipping


def shown(w: Any) -> int:
    index: int = w.page.evaluate("() => Number(document.body.dataset.index)")
    return index


def wait_for_seat_to_decide(site: Site, game_id: str, seat: int, timeout: float = 60) -> None:
    """Wait until the game, on the server, waits for ``seat`` (the bots have made their moves)."""
    deadline = time.monotonic() + timeout
    with site.api() as api:
        while time.monotonic() < deadline:
            view = api.get(f"/api/games/{game_id}").json()
            if view["status"] == "over" or view["current_seat"] == seat:
                return
            time.sleep(0.1)
    raise AssertionError(f"the game never came to seat {seat}")


def test_skip_to_now_shows_at_once_the_moves_still_queued(server_site: Site, chromium: Any) -> None:
    w = new_page(chromium, pace=SLOW)
    game_id = create_in_lobby(w, server_site.url, "tauceti", ["person", "bot", "bot", "bot"], seed=51,
                    choices={"game": "short", "layout": "preset", "first_player": "0"})
    page = w.page
    rng = random.Random(51)
    behind = page.locator("#behind")
    for _ in range(40):  # my moves until the bots' answer is more than the one shown at once
        page.wait_for_function("() => document.querySelector('#decision-panel button.action')"
                               " || !document.querySelector('#behind').hidden")
        if behind.is_visible():
            break
        click_action(w, rng.choice(view_of(w)["legal_actions"]))
    else:
        raise AssertionError("the bots never made two moves in a row")
    assert re.search(r"\d+ moves? not shown yet", behind.inner_text()), behind.inner_text()
    wait_for_seat_to_decide(server_site, game_id, 0)  # every move to skip has reached the page
    assert shown(w) < view_of(w)["index"]
    page.click("#skip-to-now")
    assert wait_my_turn_or_over(w) in ("turn", "over")
    page.wait_for_selector("#behind", state="hidden")
    view = view_of(w)
    assert shown(w) == view["index"]
    assert page.locator(f"#log .log-entry[data-index='{view['index']}']").count() == 1
    assert_clean(w)


def test_the_page_catches_up_by_itself_when_a_bot_plays_its_seat(server_site: Site, chromium: Any) -> None:
    w = new_page(chromium, pace=SLOW)
    game_id = create_in_lobby(w, server_site.url, "tauceti", ["person", "bot", "bot", "bot"], seed=52,
                              choices={"game": "short", "layout": "preset", "first_player": "0"})
    page = w.page
    assert wait_my_turn_or_over(w) == "turn"
    page.select_option("#hand-level", "random")
    page.click("#hand-to-bot")
    # The bots play the game to its end in seconds; the page follows without a click.
    page.wait_for_function("() => document.querySelector('#score-sheet caption')?.textContent.startsWith('Final')",
                           timeout=120_000)
    assert "finished" in page.locator("#status").inner_text()
    with server_site.api() as api:
        final = api.get(f"/api/games/{game_id}").json()
    assert final["status"] == "over"
    assert shown(w) == final["index"]
    assert page.locator(f"#log .log-entry[data-index='{final['index']}']").count() == 1
    assert page.locator("#behind").is_hidden()
    no_null_text(w)
    assert_clean(w)


def test_a_seat_address_without_its_token_says_the_page_is_watching(server_site: Site, chromium: Any) -> None:
    maker = new_page(chromium)
    game_id = create_in_lobby(maker, server_site.url, "tauceti", ["person", "bot"], seed=53,
                              choices={"game": "short", "layout": "preset"})
    w = new_page(chromium)  # another browser: no token stored
    page = w.page
    page.goto(f"{server_site.url}/play/{game_id}#seat=0")
    wait_loaded(w)
    notice = page.locator("#notice")
    notice.wait_for()
    assert notice.inner_text() == "You are watching. To play seat 1 (Player 1), open your join link."
    assert "watching" in page.locator("#status").inner_text()
    assert page.locator("#decision-panel button.action").count() == 0
    # No box to write in the chat, and words that say why.
    assert page.locator("#chat-form").is_hidden()
    assert page.locator("#chat-readonly").inner_text() == "Spectators read the chat; only the players write in it."
    # The seat's own browser, with its token, plays and sees no notice.
    wait_my_turn_or_over(maker)
    assert maker.page.locator("#notice").is_hidden()
    assert maker.page.locator("#chat-readonly").is_hidden() and maker.page.locator("#chat-form").is_visible()
    assert_clean(w, maker)


def test_a_wrong_join_token_falls_back_to_watching_with_the_error_shown(server_site: Site, chromium: Any) -> None:
    maker = new_page(chromium)
    game_id = create_in_lobby(maker, server_site.url, "tauceti", ["person", "bot"], seed=54,
                              choices={"game": "short", "layout": "preset"})
    w = new_page(chromium)
    w.allow(r"status of 403")
    page = w.page
    page.goto(f"{server_site.url}/play/{game_id}#token=WRONG")
    notice = page.locator("#notice.error")
    notice.wait_for()
    assert "token is not one of this game's seats" in notice.inner_text()
    wait_loaded(w)
    assert "watching" in page.locator("#status").inner_text()
    page.wait_for_selector("#table .ecl-host, #table pre.observation", state="attached")
    assert "token" not in page.url
    assert page.locator("#decision").inner_text()
    assert_clean(w, maker)


def test_a_missing_game_finishes_the_page_into_an_error(server_site: Site, chromium: Any) -> None:
    w = new_page(chromium)
    w.allow(r"status of 404")
    page = w.page
    for path in ("/play/0000000000000000#token=abc", "/watch/0000000000000000"):
        page.goto(server_site.url + path)
        page.wait_for_selector("body[data-state='failed']")
        assert page.locator("#error").inner_text() == "There is no game 0000000000000000."
        assert page.locator("#status").inner_text() == "not available"
        assert page.locator("#table").is_hidden() and page.locator("#log").is_hidden()
    assert_clean(w)


def test_the_thinking_indicator_is_drawn_without_a_glyph(server_site: Site, chromium: Any) -> None:
    w = new_page(chromium)
    create_in_lobby(w, server_site.url, "tauceti", ["person", "person"], seed=55,
                    choices={"game": "short", "layout": "preset", "first_player": "1"})
    w.page.click("#created a.play-here")
    page = w.page
    # (seat 2's friend has not come: the heading names the seat, the line under it says why it waits)
    page.wait_for_selector("#thinking:has-text('Nobody has come to this seat yet: its join link has not been opened.')")
    assert page.locator("#decision").inner_text().startswith("Waiting for Azars (seat 2)")
    mark = page.evaluate("""() => {
      const s = getComputedStyle(document.querySelector('#thinking'), '::before');
      return {content: s.content, width: parseFloat(s.width), height: parseFloat(s.height),
              border: parseFloat(s.borderTopWidth), radius: s.borderTopLeftRadius};
    }""")
    # No character to draw (a font without it shows an empty box): a ring drawn by CSS.
    assert mark["content"] in ('""', "none"), mark
    assert mark["width"] > 0 and mark["height"] > 0 and mark["border"] >= 1, mark
    assert_clean(w)


SMALLEST_TEXT = """() => {
  let least = Infinity, text = '';
  for (const t of document.querySelectorAll('#table svg text')) {
    const r = t.getBoundingClientRect();
    if (r.height > 0 && r.height < least) { least = r.height; text = t.textContent; }
  }
  return [least, text];
}"""


def test_the_board_zooms_to_a_readable_size_on_a_phone(server_site: Site, chromium: Any) -> None:
    for game, choices, checks in (("ceres", {}, ("Comets",)), ("tauceti", {"game": "short", "layout": "preset"}, ())):
        w = new_page(chromium, viewport=PHONE)
        page = w.page
        create_in_lobby(w, server_site.url, game, ["person", "bot", "bot"], seed=56, choices=choices, checks=checks)
        page.wait_for_selector("#table svg text", state="attached")
        zoom = page.locator("#board-zoom")
        assert zoom.get_attribute("aria-pressed") == "false"
        zoom.click()
        page.wait_for_selector("#board-zoom[aria-pressed='true']")
        page.wait_for_selector("#table .ecl-zoomed svg text", state="attached")
        least, text = page.evaluate(SMALLEST_TEXT)
        assert least >= 9, f"{game}: {text!r} is {least:.1f} px tall"
        screenshot(w, f"board-zoomed-{game}-390x844")
        # The board's own box scrolls; the page does not widen.
        assert page.evaluate("() => { const b = document.querySelector('#table .ecl-zoom-box');"
                             " return b.scrollWidth > b.clientWidth; }")
        assert not too_wide(w), too_wide(w)
        # A move redraws the table: it stays zoomed.
        before = shown(w)
        if wait_my_turn_or_over(w) == "turn":
            click_action(w, random.Random(56).choice(view_of(w)["legal_actions"]))
            page.wait_for_function(f"() => Number(document.body.dataset.index) > {before}")
            assert page.locator("#table .ecl-zoomed").count() == 1
        zoom.click()
        page.wait_for_selector("#board-zoom[aria-pressed='false']")
        assert page.locator("#table .ecl-zoomed").count() == 0
        assert_clean(w)
        w.page.context.close()


def test_the_zoom_is_kept_per_game_and_another_game_opens_fitted(server_site: Site, chromium: Any) -> None:
    w = new_page(chromium)  # a desktop: one browser, two games
    page = w.page
    choices = {"game": "short", "layout": "preset"}

    def opened(path: str, zoomed: bool) -> None:
        page.goto(server_site.url + path)
        page.wait_for_selector("#table svg text", state="attached")
        assert page.locator("#board-zoom").get_attribute("aria-pressed") == ("true" if zoomed else "false"), path
        assert page.locator("#table .ecl-zoomed").count() == (1 if zoomed else 0), path

    a = create_in_lobby(w, server_site.url, "tauceti", ["person", "bot"], seed=57, choices=choices)  # opens A
    page.wait_for_selector("#table svg text", state="attached")
    page.click("#board-zoom")
    page.wait_for_selector("#table .ecl-zoomed svg text", state="attached")
    b = create_in_lobby(w, server_site.url, "tauceti", ["person", "bot"], seed=58, choices=choices)
    page.evaluate("localStorage.setItem('ecliptic.zoom', '1')")  # the one key all games once shared
    opened(f"/play/{b}", zoomed=False)
    assert page.evaluate("localStorage.getItem('ecliptic.zoom')") is None
    opened(f"/watch/{b}", zoomed=False)
    opened(f"/play/{a}", zoomed=True)
    opened(f"/watch/{a}", zoomed=True)
    assert_clean(w)


OUTLINE = """() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
  .filter((h) => !h.closest('[hidden]'))
  .map((h) => [Number(h.tagName[1]), h.textContent.trim()])"""


@pytest.mark.parametrize("game", ["tauceti", "ceres"])
def test_the_headings_are_the_pages_outline_and_a_log_heading_is_named_by_what_it_shows(
        server_site: Site, chromium: Any, game: str) -> None:
    """A screen reader's list of headings reads the page in order: an h2 per part, the table's
    included ("The table", not drawn), under it an h3 per board part (the TCX before the
    Interfaces, each Interface and each Ceres player by name, each Comet's card), and no level
    skipped, so a heading is never under the wrong one."""
    with server_site.api() as api:
        config = {"expansions": ["comets"]} if game == "ceres" else {"game": "short", "layout": "preset"}
        gid = api.post("/api/games", json={"game": game, "seed": 5, "config": config, "seats": [
            {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]}).json()["id"]
    w = new_page(chromium)
    w.page.goto(f"{server_site.url}/watch/{gid}")
    wait_loaded(w)
    w.page.wait_for_selector("#table .iface")
    outline: list[list[Any]] = w.page.evaluate(OUTLINE)
    levels = [level for level, _ in outline]
    assert levels[0] == 1 and all(b <= a + 1 for a, b in itertools.pairwise(levels)), outline
    texts = [text for _, text in outline]
    table = texts.index("The table")
    assert outline[table][0] == 2
    box = w.page.locator("#table-title").bounding_box()   # read, not drawn: a clipped pixel
    assert box is not None and box["width"] <= 1 and box["height"] <= 1, box
    after = next(i for i in range(table + 1, len(outline)) if outline[i][0] <= 2)
    boards = [text for level, text in outline[table + 1:after] if level == 3]
    players = view_of(w)["view"]["players"]
    if game == "tauceti":
        assert boards[0].startswith("TCX")
        assert [b.split()[0] for b in boards[1:]] == [p["faction"] for p in players]
    else:
        comets = len(view_of(w)["view"]["comets"])   # the Comets' cards, then the players' boards
        assert comets and all(b.startswith("Comet ") for b in boards[:comets])
        assert [b.split(" · ")[0] for b in boards[comets:]] == [p["name"] for p in players]
    assert "Log" in texts[after:] and "Chat" in texts[after:]
    # A log heading's button is named by what it shows, then what it does (voice control says "#3 …").
    picks = w.page.locator("#log .log-pick").evaluate_all(
        "(bs) => bs.map((b) => [b.textContent.trim(), b.getAttribute('aria-label')])")
    assert picks and all(label.startswith(shown + ":") for shown, label in picks), picks[:3]
    assert_clean(w)
