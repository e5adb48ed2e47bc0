"""Play again, in two browsers: at the end of a game one friend clicks "Play again", the other's
page says "Rematch ready — Join", and Join takes each into the new game at their own seat with
their own new token (kept as a join link's is, so the lobby's "My games" lists the new game); a
rematch of bots alone is watched as the lobby opens a new game of bots."""

from __future__ import annotations

import random
import re
import time
from typing import Any

from browser_support import Site, assert_clean, create_in_lobby, needs_browser, new_page, view_of, wait_loaded
from server_helpers import eventually

pytestmark = needs_browser


def finished_game(site: Site) -> dict[str, Any]:
    """A Ceres game of Ann and Bob played to its end through the API (about 20 actions). Their join
    links are taken first: each seat's ``token`` is then its own, and its ``join_link`` the address
    that opens the seat with it (``#token=``, as a link of before invitations did)."""
    rng = random.Random(4)
    with site.api() as api:
        created: dict[str, Any] = api.post("/api/games", json={
            "game": "ceres", "seed": 4, "seats": [{"name": "Ann"}, {"name": "Bob"}]}).json()
        for s in created["seats"]:
            taken = api.post(f"/api/games/{created['id']}/seats/{s['seat']}/take",
                             headers={"Authorization": f"Bearer {s['token']}"})
            assert taken.status_code == 200, taken.text
            s["token"] = taken.json()["token"]
            s["join_link"] = f"/play/{created['id']}#token={s['token']}"
        keys = {s["seat"]: s["token"] for s in created["seats"]}
        while True:
            public = api.get(f"/api/games/{created['id']}").json()
            if public["status"] == "over":
                return created
            seat = public["current_seat"]
            view = api.get(f"/api/games/{created['id']}", headers={"Authorization": f"Bearer {keys[seat]}"}).json()
            choice = rng.choice(view["legal_actions"])["notation"]
            r = api.post(f"/api/games/{created['id']}/actions", headers={"Authorization": f"Bearer {keys[seat]}"},
                         json={"action": choice, "expected_index": view["index"]})
            assert r.status_code == 200, r.text


def stored_tokens(w: Any, game_id: str) -> dict[str, str]:
    found: dict[str, str] = w.page.evaluate("""(id) => {
      const entry = JSON.parse(localStorage.getItem('ecliptic.games') || '[]').find((g) => g.id === id);
      return Object.fromEntries(Object.entries((entry && entry.seats) || {}).map(([s, v]) => [s, v.token]));
    }""", game_id)
    return found


def test_play_again_brings_both_friends_into_the_new_game_at_their_seats(server_site: Site, chromium: Any) -> None:
    created = finished_game(server_site)
    gid = created["id"]
    ann, bob = new_page(chromium), new_page(chromium)
    for w, s in ((ann, created["seats"][0]), (bob, created["seats"][1])):
        w.page.goto(server_site.url + s["join_link"])
        wait_loaded(w)
        w.page.wait_for_selector("#play-again")
    ann.page.click("#play-again")
    ann.page.wait_for_url(lambda url: "/play/" in url and gid not in url and url.endswith("#seat=0"))
    new_id = ann.page.url.split("/play/")[1].split("#")[0]
    assert new_id != gid
    # Bob's page, connected to the finished game, is told of it without a reload.
    bob.page.wait_for_selector("#rematch-join")
    assert "Rematch ready" in bob.page.locator("#rematch-ready").inner_text()
    bob.page.click("#rematch-join")
    bob.page.wait_for_url(f"**/play/{new_id}#seat=1")
    for w, seat in ((ann, 0), (bob, 1)):
        wait_loaded(w)
        view = view_of(w)
        assert (view["id"], view["seat"], view["status"], view["index"]) == (new_id, seat, "playing", 0)
    # Each browser holds its own seat's new token, and not the other's.
    ann_new, bob_new = stored_tokens(ann, new_id), stored_tokens(bob, new_id)
    assert list(ann_new) == ["0"] and list(bob_new) == ["1"] and ann_new["0"] != bob_new["1"]
    bob.page.goto(server_site.url + "/")
    bob.page.wait_for_selector(f"#my-games li[data-id='{new_id}'] a.my-seat[data-seat='1']")
    assert_clean(ann, bob)


def test_a_friend_who_left_before_the_rematch_finds_it_in_the_lobby(server_site: Site, chromium: Any) -> None:
    """Bob played from his join link and closed the page at the end; Ann made the rematch later.
    Bob's lobby asks the finished game with his old token and lists the new game at his seat."""
    created = finished_game(server_site)
    gid = created["id"]
    bob = new_page(chromium)
    bob.page.goto(server_site.url + created["seats"][1]["join_link"])
    wait_loaded(bob)
    bob.page.goto(server_site.url + "/")  # the game over, he leaves for the lobby: no rematch yet
    bob.page.wait_for_selector(f"#my-games li[data-id='{gid}']")
    with server_site.api() as api:
        ann = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
        made = api.post(f"/api/games/{gid}/rematch", headers=ann)
    assert made.status_code == 201, made.text
    new_id = made.json()["id"]
    bob.page.reload()  # days later
    link = bob.page.locator(f"#my-games li[data-id='{new_id}'] a.my-seat[data-seat='1']")
    link.wait_for()
    assert link.inner_text() == "play seat 2 (Bob)"
    assert list(stored_tokens(bob, new_id)) == ["1"]
    link.click()
    wait_loaded(bob)
    assert (view_of(bob)["id"], view_of(bob)["seat"]) == (new_id, 1)
    assert_clean(bob)


def test_the_host_gets_a_new_link_for_the_seat_whose_person_never_came(server_site: Site, chromium: Any) -> None:
    """Ann hosts and plays seat 1; Bob never took his link, so Ann handed his seat to a bot and
    finished. Her "Play again" keeps a join link for Bob's seat in the new game (he has no old
    token to make his own from), her lobby lists it to hand out, and it seats Bob."""
    ann = new_page(chromium)
    gid = create_in_lobby(ann, server_site.url, "ceres", ["person", "person"], seed=5, my_seat="0")
    entry = ann.page.evaluate("""(id) => JSON.parse(localStorage.getItem('ecliptic.games')).find((g) => g.id === id)""",
                              gid)
    admin, mine = entry["admin"], entry["seats"]["0"]["token"]
    rng = random.Random(5)
    with server_site.api() as api:
        handed = api.post(f"/api/games/{gid}/seats/1/bot", headers={"Authorization": f"Bearer {admin}"},
                          json={"bot": True, "level": "random"})
        assert handed.status_code == 200, handed.text
        for _ in range(2000):
            view = api.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {mine}"}).json()
            if view["status"] == "over":
                break
            if view["current_seat"] != 0:
                time.sleep(0.02)  # (the bot plays Bob's seat on the server)
                continue
            choice = rng.choice(view["legal_actions"])["notation"]
            r = api.post(f"/api/games/{gid}/actions", headers={"Authorization": f"Bearer {mine}"},
                         json={"action": choice, "expected_index": view["index"]})
            assert r.status_code in (200, 409), r.text  # (409: the bot came first)
        assert view["status"] == "over"
    ann.page.goto(f"{server_site.url}/play/{gid}#seat=0")
    wait_loaded(ann)
    ann.page.click("#play-again")
    ann.page.wait_for_url(lambda url: "/play/" in url and gid not in url and url.endswith("#seat=0"))
    new_id = ann.page.url.split("/play/")[1].split("#")[0]
    kept = ann.page.evaluate("""(id) => JSON.parse(localStorage.getItem('ecliptic.games')).find((g) => g.id === id)""",
                             new_id)
    assert list(kept["links"]) == ["1"] and kept["admin"] and list(kept["seats"]) == ["0"]
    # Had Ann's page closed before it kept them, her lobby finds the same from the finished game.
    ann.page.evaluate("""(id) => localStorage.setItem('ecliptic.games', JSON.stringify(
      JSON.parse(localStorage.getItem('ecliptic.games')).filter((g) => g.id !== id)))""", new_id)
    ann.page.goto(server_site.url + "/")
    invitation = ann.page.locator(f"#my-games li[data-id='{new_id}'] li.invitation[data-seat='1']")
    invitation.wait_for()
    assert "Seat 2 (Player 2): not joined yet" in invitation.inner_text()  # (the lobby names seats so)
    # The finished game's own link is not offered any more: nobody comes to a game that is over.
    assert ann.page.locator(f"#my-games li[data-id='{gid}'] li.invitation").count() == 0
    link = invitation.locator("input.join-link").input_value()
    assert link == server_site.url + kept["links"]["1"]["link"]
    bob = new_page(chromium)
    bob.page.goto(link)
    wait_loaded(bob)
    assert (view_of(bob)["id"], view_of(bob)["seat"]) == (new_id, 1)
    ann.page.reload()
    ann.page.locator(f"#my-games li[data-id='{new_id}'] li.invitation[data-seat='1'] .joined",
                     has_text="has joined").wait_for()
    assert_clean(ann, bob)


def test_a_rematch_of_bots_alone_opens_as_the_lobby_opens_a_game_of_bots(server_site: Site, chromium: Any) -> None:
    """The lobby opens a game of bots at /watch/{id}#replay (bots finish it in a moment: the page
    replays it from its start). Its rematch, a game of bots alone too, opened by the host's "Play
    again" or a spectator's "Watch it", went to /watch/{id}, where a game found over shows only its
    end: both now open /watch/{id}#replay, which replays it."""
    from playwright.sync_api import expect  # (imported here: without Playwright the module is skipped)

    host = new_page(chromium)
    gid = create_in_lobby(host, server_site.url, "ceres", ["bot", "bot"])
    assert host.page.url == f"{server_site.url}/watch/{gid}#replay"
    host.page.click("#play-again")   # (offered once the bots have finished: the host holds the admin token)
    host.page.wait_for_url(lambda url: "/watch/" in url and gid not in url)
    new_id = host.page.url.split("/watch/")[1].split("#")[0]
    assert host.page.url == f"{server_site.url}/watch/{new_id}#replay"
    # A spectator of the finished game (no token at all) is offered the same address.
    fan = new_page(chromium)
    fan.page.clock.install()   # the replay's seconds run only when the test says so
    fan.page.goto(f"{server_site.url}/watch/{gid}")
    watch_it = fan.page.locator("#rematch-watch")
    watch_it.wait_for()
    assert watch_it.get_attribute("href") == f"/watch/{new_id}#replay"
    with server_site.api() as api:
        last = eventually(lambda: (lambda g: g["status"] == "over" and g["index"])(
            api.get(f"/api/games/{new_id}").json()), "the bots finish the rematch")
    watch_it.click()
    fan.page.wait_for_url(f"{server_site.url}/watch/{new_id}#replay")
    # Found over, the rematch is replayed from its start, as a new game of bots from the lobby is.
    expect(fan.page.locator("#replay-index")).to_have_text(re.compile(rf"^\s*0 / {last}\s*$"))
    expect(fan.page.locator("#replay-play")).to_have_attribute("aria-pressed", "true")
    assert_clean(host, fan)
