"""Open tables in the browser (docs/web.md): a host creates a game with a seat open to anyone; a
stranger's lobby lists it, and "Sit down" seats them there under the name they gave, on the game
page, holding only their own seat; the host's page names them; the table leaves every lobby's list.
A host opens a seat nobody has come to from "My games", and closes it again."""

from __future__ import annotations

from typing import Any

from browser_support import Site, assert_clean, create_in_lobby, needs_browser, new_page, view_of, wait_loaded
from server_helpers import eventually

pytestmark = needs_browser


def test_a_stranger_sits_down_at_an_open_seat_from_the_lobby_and_plays_it_under_their_name(
        server_site: Site, chromium: Any) -> None:
    host = new_page(chromium)
    gid = create_in_lobby(host, server_site.url, "tauceti", ["person", "open"], seed=55,
                          choices={"game": "short", "layout": "preset", "first_player": "1"})
    # No link to hand out (the other seat is open to anyone): the lobby opened the host's seat at once.
    host.page.wait_for_url(f"**/play/{gid}#seat=0")
    wait_loaded(host)
    # The open seat is to decide first: the host's page says the game waits for someone to sit down.
    host.page.wait_for_selector("#thinking:has-text('Seat 2 is open to anyone: the game waits for someone "
                                "to sit down at it')")

    cleo = new_page(chromium)   # a stranger's own browser: it holds nothing of this game
    page = cleo.page
    page.goto(server_site.url + "/")
    table = page.locator(f"#open-tables li.open-table[data-id='{gid}']")
    table.wait_for()
    assert "open seat" in table.inner_text() and "Player 1" in table.inner_text(), table.inner_text()
    page.fill("#my-name", "Cleo")
    table.locator("button.sit[data-seat='1']").click()
    page.wait_for_url(f"**/play/{gid}#seat=1")
    wait_loaded(cleo)
    assert page.evaluate("() => document.body.dataset.seat") == "1"
    assert "Cleo" in page.locator("#status").inner_text()
    # What Cleo's browser holds opens her seat only, and her view is her seat's.
    stored = page.evaluate(f"() => JSON.parse(localStorage.getItem('ecliptic.games')).find((g) => g.id === '{gid}')")
    assert list(stored["seats"]) == ["1"] and "admin" not in stored and not stored.get("links")
    assert view_of(cleo)["seat"] == 1
    # The host's page is told who sat down, without a reload.
    host.page.wait_for_selector("#thinking:has-text('Cleo is deciding')")
    # The table is full now: no lobby offers it, Cleo's name is remembered for the next table.
    page.goto(server_site.url + "/")
    # (The lobby fills the name in once its script has loaded the game options, which may be
    # after the first list item is there: wait for the name rather than read it at once.)
    page.wait_for_function("() => document.getElementById('my-name').value === 'Cleo'")
    page.locator("#open-tables li:not(:text('loading…'))").first.wait_for()
    assert page.locator(f"#open-tables li[data-id='{gid}']").count() == 0
    other = new_page(chromium)
    other.page.goto(server_site.url + "/")
    other.page.locator("#open-tables li:not(:text('loading…'))").first.wait_for()
    assert other.page.locator(f"#open-tables li[data-id='{gid}']").count() == 0
    assert_clean(host, cleo, other)


def test_the_host_opens_a_seat_nobody_came_to_from_my_games_and_a_second_sitter_is_told_it_is_taken(
        server_site: Site, chromium: Any) -> None:
    host = new_page(chromium)
    gid = create_in_lobby(host, server_site.url, "ceres", ["person", "person"])
    host.page.goto(server_site.url + "/")
    toggle = host.page.locator(f"#my-games li[data-id='{gid}'] .invitation[data-seat='1'] input.open-seat")
    toggle.wait_for()
    assert not toggle.is_checked()
    two = [new_page(chromium), new_page(chromium)]
    for w in two:   # both lobbies are open before the seat is: each will show it
        w.page.goto(server_site.url + "/")
        w.page.locator("#open-tables li:not(:text('loading…'))").first.wait_for()
        assert w.page.locator(f"#open-tables li[data-id='{gid}']").count() == 0
    toggle.check()
    with server_site.api() as api:
        eventually(lambda: gid in [g["id"] for g in api.get("/api/games", params={"open": "true"}).json()],
                   "the seat opened by the host's tick")
    for w in two:
        w.page.reload()
        w.page.locator(f"#open-tables li[data-id='{gid}'] button.sit").wait_for()
    two[0].page.fill("#my-name", "Dan")
    two[0].page.click(f"#open-tables li[data-id='{gid}'] button.sit")
    two[0].page.wait_for_url(f"**/play/{gid}#seat=1")
    # The second stranger's lobby still shows the button: clicking it says someone came first.
    two[1].allow("409")
    two[1].page.click(f"#open-tables li[data-id='{gid}'] button.sit")
    error = two[1].page.locator("#open-error")
    error.wait_for(state="visible")
    assert "You were not seated: someone sat down at seat 2 first" in error.inner_text()
    two[1].page.wait_for_function(f"() => !document.querySelector(\"#open-tables li[data-id='{gid}']\")")
    # The host's list says the seat has its person now, and offers no toggle for it.
    host.page.reload()
    entry = host.page.locator(f"#my-games li[data-id='{gid}'] .invitation[data-seat='1']")
    entry.wait_for()
    host.page.wait_for_function(
        f"() => document.querySelector(\"#my-games li[data-id='{gid}'] .invitation[data-seat='1'] .joined\")"
        ".textContent === 'has joined'")
    assert entry.locator("input.open-seat").count() == 0
    assert_clean(host, *two)
