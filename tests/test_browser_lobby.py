"""The lobby in the browser: "My games" gives a way back into a seat, the box of a game just
created shows only its links (never the words null or undefined), and a game created as the
lobby offers it is the game it names (Ceres with its Comets)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from browser_support import (
    DESKTOP,
    PHONE,
    Site,
    assert_clean,
    create_in_lobby,
    needs_browser,
    new_page,
    no_null_text,
    open_fresh_lobby,
    too_wide,
    view_of,
    wait_loaded,
)

pytestmark = needs_browser


def test_my_games_links_each_held_seat_back_into_the_game_with_its_stored_token(
        server_site: Site, chromium: Any) -> None:
    w = new_page(chromium)
    page = w.page
    game_id = create_in_lobby(w, server_site.url, "tauceti", ["person", "bot"], seed=41,
                              choices={"game": "short", "layout": "preset", "first_player": "0"})
    # The tab is closed; the player comes back to the lobby in the same browser.
    page.goto(server_site.url + "/")
    entry = page.locator(f"#my-games li[data-id='{game_id}']")
    link = entry.locator(f"a[href='/play/{game_id}#seat=0']")
    link.wait_for()
    assert link.inner_text().startswith("play seat 1")
    assert "http" not in entry.inner_text() and "#seat" not in entry.inner_text(), entry.inner_text()
    # Seat 1 is to decide (first_player 0): the game says so, first in the list, and the title counts it.
    with server_site.api() as api:
        assert api.get(f"/api/games/{game_id}").json()["current_seat"] == 0
    entry.locator(".your-turn").wait_for()
    assert entry.locator(".your-turn").inner_text() == "your turn (seat 1)"
    assert page.locator("#my-games li.my-game").first.get_attribute("data-id") == game_id
    assert re.match(r"\(\d+\) Ecliptic", page.title()), page.title()
    link.click()
    wait_loaded(w)
    page.wait_for_selector("#decision-panel button.action", state="attached")
    faction = view_of(w)["view"]["players"][0]["faction"]  # the seat kept the lobby's name: its faction says it
    assert page.locator("#status").inner_text().endswith(f"you are {faction}")
    assert page.evaluate("() => document.body.dataset.seat") == "0"
    assert page.locator("#notice").is_hidden()
    assert_clean(w)


def test_a_friend_who_came_by_a_join_link_finds_their_seat_by_name_in_my_games(
        server_site: Site, chromium: Any) -> None:
    with server_site.api() as api:
        created = api.post("/api/games", json={"game": "ceres", "config": {"expansions": ["comets"]},
                                                "seats": [{"name": "Ann"}, {"name": "Bob"}]}).json()
    bob = next(s for s in created["seats"] if s["seat"] == 1)
    w = new_page(chromium)   # Bob's own browser: it holds only what the join link gave it
    page = w.page
    page.goto(server_site.url + bob["join_link"])
    wait_loaded(w)
    page.goto(server_site.url + "/")
    link = page.locator(f"#my-games li[data-id='{created['id']}'] a.my-seat")
    link.wait_for()
    assert link.inner_text() == "play seat 2 (Bob)"
    assert_clean(w)


def test_copy_selects_the_join_link_where_the_browser_has_no_clipboard_api(
        server_site: Site, chromium: Any) -> None:
    # Served by plain http over the network (not localhost) a page has no navigator.clipboard:
    # the button said "Select and copy" and selected nothing.
    w = new_page(chromium, init="Object.defineProperty(navigator, 'clipboard', {value: undefined});"
                                "document.execCommand = () => false;")
    create_in_lobby(w, server_site.url, "ceres", ["person", "person"])
    page = w.page
    page.click("#created button.copy >> nth=0")  # (seat 2's: seat 1 is the creator's, taken here)
    button = page.locator("#created button.copy").nth(0)
    assert button.inner_text() == "Selected: press Ctrl+C"
    field = page.locator("#created input.join-link").nth(0)
    value = field.input_value()
    assert "#seat=1&token=" in value
    selected = page.evaluate("() => { const e = document.activeElement;"
                             " return [e.selectionStart, e.selectionEnd, e.getAttribute('aria-label')]; }")
    assert selected == [0, len(value), "join link of seat 2"]
    assert_clean(w)


def test_the_created_box_shows_no_null_whatever_the_seats(server_site: Site, chromium: Any) -> None:
    """With join links to hand out the lobby stays on the box of the game just created: its
    links, and the creator's own seat as its prominent first link ("Open your seat")."""
    w = new_page(chromium)
    page = w.page
    for seats, my_seat, links in ((["person", "person"], None, 1), (["person", "person", "bot"], "none", 2),
                                  (["bot", "person", "person", "open"], "2", 2)):
        game_id = create_in_lobby(w, server_site.url, "tauceti", seats, choices={"game": "short"}, my_seat=my_seat)
        assert page.url == server_site.url + "/", page.url   # the lobby stays: there are links to give
        box = page.locator("#created")
        text = box.inner_text()
        assert f"Game {game_id} created" in text
        assert not re.search(r"\b(null|undefined)\b", text), (seats, text)
        # The seat the creator plays is taken here: only the others' links are handed out (an open seat's too).
        assert box.locator("input.join-link").count() == links
        assert "join link" in box.locator("p.help").inner_text(), (seats, text)
        mine = box.locator("#open-my-seat")
        if my_seat == "none":
            assert mine.count() == 0
        else:
            assert mine.get_attribute("href") == f"/play/{game_id}#seat={my_seat or 0}"
            assert "primary" in (mine.get_attribute("class") or "")
            assert mine.inner_text() == "Open your seat"
        assert box.locator("#hotseat-link").count() == 1
        assert box.locator(f"a[href^='/watch/{game_id}']").count() == 0
        page.wait_for_selector(f"#my-games li[data-id='{game_id}']")
        no_null_text(w)
    page.click("#open-my-seat")
    page.wait_for_url(f"**/play/{game_id}#seat=2")
    wait_loaded(w)
    assert page.evaluate("() => document.body.dataset.seat") == "2"
    assert_clean(w)


@pytest.mark.parametrize(("seats", "my_seat", "opened"), [
    (["person", "bot", "bot"], None, "/play/{id}#seat=0"),
    (["bot", "person", "open"], None, "/play/{id}#seat=1"),
    (["person", "person"], "all", "/play/{id}#hotseat"),
    (["bot", "bot"], None, "/watch/{id}#replay"),
], ids=["bots", "open-seat", "hot-seat", "bots-only"])
def test_with_no_join_link_to_hand_out_the_lobby_opens_the_game_at_once(
        server_site: Site, chromium: Any, seats: list[str], my_seat: str | None, opened: str) -> None:
    """Every other seat a bot or open to anyone, or every person seat played here (hot-seat):
    "Create" opens the creator's game page at once, and a game of bots its watch page (which
    replays it when the bots have finished it); "My games" knows the game as ever."""
    w = new_page(chromium)
    page = w.page
    game_id = create_in_lobby(w, server_site.url, "ceres", seats, my_seat=my_seat)
    assert page.url == server_site.url + opened.format(id=game_id)
    persons = [i for i, kind in enumerate(seats) if kind == "person"]
    if my_seat == "all":   # the device is passed to the seat to decide first
        page.wait_for_selector("#pass-screen:not([hidden])")
    else:
        wait_loaded(w)
        assert ("watching" in page.locator("#status").inner_text()) == (not persons)
    page.goto(server_site.url + "/")
    entry = page.locator(f"#my-games li[data-id='{game_id}']")
    entry.wait_for()
    held = sorted(held_tokens(w, game_id))
    assert held == [str(i) for i in persons]
    assert entry.locator("a.my-seat").evaluate_all("(as) => as.map((a) => a.dataset.seat)") == held
    assert entry.locator(f"a[href='/watch/{game_id}']").count() == 1
    assert_clean(w)


def test_on_a_phone_my_games_comes_before_the_form_once_there_are_some(server_site: Site, chromium: Any) -> None:
    w = new_page(chromium, viewport=PHONE)
    page = w.page
    page.goto(server_site.url + "/")
    page.wait_for_selector("#create[data-game='tauceti']")

    def top(selector: str) -> float:
        box = page.locator(selector).bounding_box()
        assert box is not None, selector
        return float(box["y"])

    assert top("#new-game") < top("#mine")   # no game yet: the form first
    game_id = create_in_lobby(w, server_site.url, "ceres", ["person", "person"])
    page.wait_for_selector(f"#my-games li[data-id='{game_id}']")
    assert top("#mine") < top("#new-game")
    assert not too_wide(w), too_wide(w)
    page.reload()
    page.wait_for_selector(f"#my-games li[data-id='{game_id}']")
    assert top("#mine") < top("#new-game")
    # On a desktop the form keeps the left column, "My games" beside it on the right.
    page.set_viewport_size(DESKTOP)
    form, mine = page.locator("#new-game").bounding_box(), page.locator("#mine").bounding_box()
    assert form is not None and mine is not None
    assert form["x"] < mine["x"] and form["y"] <= mine["y"]
    assert_clean(w)


def test_ceres_offered_with_its_comets_is_created_with_them(server_site: Site, chromium: Any) -> None:
    w = new_page(chromium)
    page = w.page
    page.goto(server_site.url + "/")
    page.wait_for_selector("#create[data-game='tauceti']")
    offered = page.locator("#game option[value='ceres']").inner_text()
    assert "Comets" in offered
    page.select_option("#game", "ceres")
    page.wait_for_selector("#create[data-game='ceres']")
    assert page.get_by_label("Comets", exact=True).is_checked()

    def created() -> str:   # (a person and a bot: no link to give, the lobby opens the game at once)
        page.click("#create-button")
        page.wait_for_url("**/play/**")
        found = re.search(r"/play/(\w+)", page.url)
        assert found, page.url
        return found.group(1)

    first = created()
    with server_site.api() as api:
        config = api.get(f"/api/games/{first}").json()["view"]["config"]
    assert config["expansions"] == ["comets"], config
    # Unticked, the game is made without them.
    open_fresh_lobby(page, server_site.url)
    page.select_option("#game", "ceres")
    page.wait_for_selector("#create[data-game='ceres']")
    page.get_by_label("Comets", exact=True).uncheck()
    second = created()
    assert second != first
    with server_site.api() as api:
        assert api.get(f"/api/games/{second}").json()["view"]["config"]["expansions"] == []
    assert_clean(w)


def held_tokens(w: Any, game_id: str) -> dict[str, str]:
    """The seat tokens this browser keeps for the game (its localStorage), by seat."""
    found: dict[str, str] = w.page.evaluate("""(id) => {
      const entry = JSON.parse(localStorage.getItem('ecliptic.games') || '[]').find((g) => g.id === id);
      return Object.fromEntries(Object.entries((entry && entry.seats) || {}).map(([s, v]) => [s, v.token]));
    }""", game_id)
    return found


def test_a_join_link_seats_one_friend_once_and_the_creator_holds_no_other_seat(
        server_site: Site, chromium: Any) -> None:
    """The creator's browser keeps Bob's join link to hand out, never a token that plays his seat;
    Bob's browser takes the seat with the link (the address drops it); the same link opened again,
    in a third browser, says it was used and watches."""
    ann = new_page(chromium)
    game_id = create_in_lobby(ann, server_site.url, "ceres", ["person", "person"])
    bob_link = ann.page.locator("#created li.join").nth(1).locator("input.join-link").input_value()
    assert f"/play/{game_id}#seat=1&token=" in bob_link
    link_token = bob_link.split("token=")[1]
    mine = held_tokens(ann, game_id)
    assert list(mine) == ["0"]
    stored = ann.page.evaluate("() => localStorage.getItem('ecliptic.games')")
    with server_site.api() as api:
        # The link kept is no seat token: the creator's browser cannot open Bob's hand with it.
        r = api.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {link_token}"})
        assert r.status_code == 403 and r.json()["error"] == "link_not_taken"
        assert [s["joined"] for s in api.get(f"/api/games/{game_id}").json()["seats"]] == [True, False]
    bob = new_page(chromium)
    bob.page.goto(bob_link)
    wait_loaded(bob)
    assert "token=" not in bob.page.url and bob.page.url.endswith(f"/play/{game_id}#seat=1")
    assert bob.page.evaluate("() => document.body.dataset.seat") == "1"
    bob_token = held_tokens(bob, game_id)["1"]
    assert bob_token != link_token and bob_token not in stored
    assert bob.page.locator("#notice").is_hidden()
    with server_site.api() as api:
        assert [s["joined"] for s in api.get(f"/api/games/{game_id}").json()["seats"]] == [True, True]
    # Ann's lobby says Bob has come.
    ann.page.goto(server_site.url + "/")
    ann.page.locator(f"#my-games li[data-id='{game_id}'] li.invitation .joined").wait_for()
    ann.page.wait_for_function(
        f"() => document.querySelector(\"#my-games li[data-id='{game_id}'] li.invitation .joined\")"
        ".textContent === 'has joined'")
    # Bob's link is spent: it is no longer offered to copy, only "new link" to give the seat to someone else.
    joined = ann.page.locator(f"#my-games li[data-id='{game_id}'] li.invitation[data-seat='1']")
    assert joined.locator("input.join-link").count() == 0 and joined.locator("button.copy").count() == 0
    assert joined.locator("button.new-link").count() == 1
    eve = new_page(chromium)   # the link forwarded to a third person
    eve.allow("status of 403")
    eve.page.goto(bob_link)
    wait_loaded(eve)
    notice = eve.page.locator("#notice")
    notice.wait_for()
    assert "This invitation was already used. Ask the host for a new link." in notice.inner_text()
    assert eve.page.evaluate("() => document.body.dataset.seat") == ""
    assert held_tokens(eve, game_id) == {}
    assert "token=" not in eve.page.url
    # The host gives Bob's seat to someone else from the lobby: a new link is shown, Bob's page watches.
    invitation = ann.page.locator(f"#my-games li[data-id='{game_id}'] li.invitation[data-seat='1']")
    invitation.locator("button.new-link").click()
    ann.page.wait_for_function(
        f"(old) => {{ const f = document.querySelector(\"#my-games li[data-id='{game_id}'] li.invitation input\");"
        " return f && f.value !== old; }", arg=bob_link)
    new_link = ann.page.locator(f"#my-games li[data-id='{game_id}'] li.invitation input.join-link").input_value()
    assert f"/play/{game_id}#seat=1&token=" in new_link and new_link != bob_link
    bob.page.locator("#notice").wait_for()
    assert bob.page.locator("#notice").inner_text() == "The host gave this seat to someone else. You are watching."
    assert_clean(ann, bob, eve)


def test_a_seat_moved_to_another_device_or_given_to_someone_else_leaves_the_old_page_watching(
        server_site: Site, chromium: Any) -> None:
    """Ann's page makes a link that moves her seat to her phone: the phone plays the seat, and the
    page she left says so and watches (its socket was closed with 4403). The host then gives the
    seat to someone else: the phone's page says the host gave it away, and watches too."""
    with server_site.api() as api:
        created = api.post("/api/games", json={"game": "ceres", "seats": [{"name": "Ann"}, {"name": "Bob"}]}).json()
    gid, ann = created["id"], created["seats"][0]
    laptop = new_page(chromium)
    laptop.page.goto(server_site.url + ann["join_link"])
    wait_loaded(laptop)
    laptop.page.click("#device-link-button")
    move = laptop.page.locator("#device-link").input_value()
    assert f"/play/{gid}#seat=0&token=" in move
    phone = new_page(chromium)
    phone.page.goto(move)
    wait_loaded(phone)
    assert phone.page.evaluate("() => document.body.dataset.seat") == "0"
    notice = laptop.page.locator("#notice")
    notice.wait_for()
    assert notice.inner_text() == "This seat was moved to another device. You are watching."
    laptop.page.wait_for_function("() => document.body.dataset.seat === ''")
    assert held_tokens(laptop, gid) == {}
    # (the phone's socket is open first: the host's new link then closes it, with the host's words)
    phone.page.wait_for_function("() => Number(document.body.dataset.hellos || 0) >= 1")
    with server_site.api() as api:
        r = api.post(f"/api/games/{gid}/seats/0/link", headers={"Authorization": f"Bearer {created['admin_token']}"})
        assert r.status_code == 200, r.text
    phone.page.locator("#notice").wait_for()
    assert phone.page.locator("#notice").inner_text() == (
        "The host gave this seat to someone else. You are watching.")
    assert held_tokens(phone, gid) == {}
    assert_clean(laptop, phone)


def test_a_hot_seat_page_whose_seat_is_given_away_says_so_and_plays_its_other_seats(
        server_site: Site, chromium: Any) -> None:
    """One browser plays both seats (hot-seat). The host gives seat 2 to someone else: that
    seat's socket is closed with 4403, and the page forgets that seat's token, says which seat
    went and why, and plays on with seat 1, the seat it still holds (it went blank, or kept a
    token that opens nothing, before)."""
    w = new_page(chromium)
    game_id = create_in_lobby(w, server_site.url, "ceres", ["person", "person"])
    admin = w.page.evaluate("""(id) => JSON.parse(localStorage.getItem('ecliptic.games')).find((g) => g.id === id)
      .admin""", game_id)
    w.page.click("#hotseat-link")
    w.page.wait_for_selector("#pass-screen:not([hidden])")
    w.page.click("#pass-ready")
    wait_loaded(w)
    assert sorted(held_tokens(w, game_id)) == ["0", "1"]
    playing = w.page.evaluate("() => document.body.dataset.seat")
    with server_site.api() as api:
        gone = int(playing)  # the seat the page plays now: its socket is the one closed
        r = api.post(f"/api/games/{game_id}/seats/{gone}/link", headers={"Authorization": f"Bearer {admin}"})
        assert r.status_code == 200, r.text
    notice = w.page.locator("#notice")
    notice.wait_for()
    w.page.wait_for_function(f"() => document.body.dataset.seat === '{1 - gone}'")
    assert notice.inner_text() == (f"Seat {gone + 1} (Player {gone + 1}): the host gave this seat to someone else. "
                                   f"This browser plays Player {2 - gone} still.")
    assert sorted(held_tokens(w, game_id)) == [str(1 - gone)]
    assert_clean(w)


@pytest.mark.parametrize(("my_seat", "held", "said"), [("2", ["2"], "You play seat 3."),
                                                     ("none", [], "You only host: this browser plays no seat.")],
                         ids=["seat-3", "only-host"])
def test_the_creator_chooses_the_seat_they_play_or_none(
        server_site: Site, chromium: Any, my_seat: str, held: list[str], said: str) -> None:
    """"You play" picks the creator's seat among the person seats (the bot seat is not offered),
    or none for a host who only hosts: this browser takes that seat alone and keeps the other
    person seats' links, never their tokens."""
    w = new_page(chromium)
    w.page.goto(server_site.url + "/")
    w.page.select_option("#game", "ceres")
    w.page.wait_for_selector("#create[data-game='ceres']")
    w.page.select_option("#players", "4")
    for seat, kind in enumerate(["person", "bot", "person", "person"]):
        w.page.locator(f"#seats .seat[data-seat='{seat}'] select.kind").select_option(kind)
    offered = w.page.locator("#my-seat option").evaluate_all("(os) => os.map((o) => o.value)")
    assert offered == ["0", "2", "3", "all", "none"]
    game_id = create_in_lobby(w, server_site.url, "ceres", ["person", "bot", "person", "person"], my_seat=my_seat)
    assert sorted(held_tokens(w, game_id)) == held
    box = w.page.locator("#created")
    assert said in box.inner_text()
    assert box.locator("input.join-link").count() == 3 - len(held)
    links = w.page.evaluate("""(id) => Object.keys(JSON.parse(localStorage.getItem('ecliptic.games'))
      .find((g) => g.id === id).links).sort()""", game_id)
    assert links == sorted({"0", "2", "3"} - set(held))
    with server_site.api() as api:
        joined = [s["joined"] for s in api.get(f"/api/games/{game_id}").json()["seats"]]
    assert [joined[i] for i in (0, 2, 3)] == [str(i) in held for i in (0, 2, 3)]
    assert_clean(w)


FORM = """() => ({
  game: document.querySelector('#game').value,
  players: document.querySelector('#players').value,
  seats: [...document.querySelectorAll('#seats .seat')].map((r) => [r.querySelector('.kind').value,
    r.querySelector('.name').value, r.querySelector('.level').value]),
  mine: document.querySelector('#my-seat').value,
  game_length: document.querySelector("#config fieldset[data-option='game'] select").value,
  advanced: [...document.querySelectorAll("#config fieldset[data-option='advanced'] input:checked")]
    .map((i) => i.value),
  clock: document.querySelector('#clock').value,
})"""


def test_the_lobby_remembers_the_last_choices_and_lists_the_new_game_to_watch(
        server_site: Site, chromium: Any) -> None:
    """A group that meets every evening makes the same table: the form comes back as this browser
    last created a game (game, seats, bot levels, names, "You play", options, turn clock; not the
    seed), a remembered entry that no longer fits the options falls back to the defaults without an
    error, and a game created while the lobby stays (links to hand out) is at once in "Games to watch"."""
    w = new_page(chromium)
    page = w.page
    page.goto(server_site.url + "/")
    page.wait_for_selector("#create[data-game]")
    defaults = page.evaluate(FORM)
    page.select_option("#game", "tauceti")
    page.wait_for_selector("#create[data-game='tauceti']")
    page.select_option("#players", "3")
    rows = page.locator("#seats .seat")
    rows.nth(0).locator("select.kind").select_option("person")
    rows.nth(0).locator("input.name").fill("Ann")
    rows.nth(1).locator("select.kind").select_option("bot")
    rows.nth(1).locator("select.level").select_option("hard")
    rows.nth(2).locator("select.kind").select_option("person")
    rows.nth(2).locator("input.name").fill("Bob")
    page.select_option("#my-seat", "2")
    page.locator("#config fieldset[data-option='game'] select").select_option("full")
    page.get_by_label("Advanced Rule 3", exact=True).check()
    page.select_option("#clock", "86400")
    page.fill("#seed", "7")
    chosen = page.evaluate(FORM)
    page.click("#create-button")
    page.wait_for_selector("#created h3")
    game_id = page.locator("#created h3").inner_text().split()[1]
    # The lobby stays (Ann's link to hand out): the new game is in the list to watch without a reload.
    page.wait_for_selector(f"#all-games a[href='/watch/{game_id}']")

    page.reload()
    page.wait_for_selector("#create[data-game='tauceti']")
    assert page.evaluate(FORM) == chosen
    assert chosen["seats"] == [["person", "Ann", "normal"], ["bot", "", "hard"], ["person", "Bob", "normal"]]
    assert chosen["mine"] == "2" and chosen["advanced"] == ["3"] and chosen["game_length"] == "full"
    assert page.input_value("#seed") == ""  # a new game is a new shuffle

    # Stale (a game, a level, an option value, a seat the engine does not offer) or not JSON: defaults.
    for stored in ('{"v": 1, "game": "chess", "players": 9}',
                   '{"v": 1, "game": "tauceti", "players": 9, "seats": [{"kind": "robot"},'
                   ' {"kind": "bot", "level": "god"}],'
                   ' "mySeat": "7", "config": {"game": "endless", "advanced": "all"}, "clock": "5"}',
                   "{not json", '{"v": 99, "game": "tauceti", "players": 2}'):
        page.evaluate("s => localStorage.setItem('ecliptic.lobby.last', s)", stored)
        page.reload()
        page.wait_for_selector("#create[data-game]")
        page.wait_for_function("() => document.querySelectorAll('#seats .seat').length > 0")
        form = page.evaluate(FORM)
        if '"tauceti"' in stored and '"v": 1' in stored:
            assert form["game"] == "tauceti" and form["players"] == "4"  # 9 players: the default count
            assert form["seats"][0][0] == "person" and form["seats"][1] == ["bot", "", "normal"]
            assert form["mine"] == "0" and form["game_length"] == "short" and form["advanced"] == []
            assert form["clock"] == ""
        else:
            assert form == defaults, stored
        assert page.locator("#create-error").inner_text() == ""

    # A game of bots alone has "none" as its only "You play", which the creator did not choose: the
    # next form, given a person seat, seats the creator there, as a fresh form does.
    page.evaluate("() => localStorage.removeItem('ecliptic.lobby.last')")
    page.reload()
    page.wait_for_selector("#create[data-game]")
    page.select_option("#game", "tauceti")
    page.wait_for_selector("#create[data-game='tauceti']")
    page.select_option("#players", "2")
    for seat in range(2):
        rows.nth(seat).locator("select.kind").select_option("bot")
        rows.nth(seat).locator("select.level").select_option("random")
    assert page.input_value("#my-seat") == "none"
    page.click("#create-button")
    page.wait_for_url("**/watch/**")
    page.goto(server_site.url + "/")
    page.wait_for_selector("#create[data-game='tauceti']")
    assert page.evaluate(FORM)["seats"] == [["bot", "", "random"], ["bot", "", "random"]]
    rows.nth(0).locator("select.kind").select_option("person")
    assert page.input_value("#my-seat") == "0"
    assert_clean(w)
