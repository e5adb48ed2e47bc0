"""The decision panel (static/actions.js) in Chromium, on GameViews written for the purpose: the
actions grouped with their cost and effect, a clicked target offering the actions that name it
and the refused ones with their rule, a SET choice made by toggling targets (the one legal
action whose targets are exactly the toggled set), and the fallback grouping by verb for a
server that sends no groups. No game server: a tiny static server serves the modules."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import assert_clean, needs_browser, new_page
from ecliptic.web import STATIC

pytestmark = needs_browser


class _Static(http.server.SimpleHTTPRequestHandler):
    def translate_path(self, path: str) -> str:
        name = path.split("?", 1)[0].removeprefix("/static/")
        return str(STATIC / name) if path.startswith("/static/") else str(STATIC / "none")

    def do_GET(self) -> None:
        if self.path in ("/", "/blank"):
            body = (b"<!doctype html><html><head><link rel='icon' href='data:,'></head>"
                    b"<body><div id='root'></div></body></html>")
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    http.server.SimpleHTTPRequestHandler.extensions_map[".js"] = "text/javascript"
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Static))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


SYSTEMS = ["weapons", "shields", "computers"]


def shield(systems: list[int]) -> dict[str, Any]:
    notation = "SHIELD " + (",".join(str(n) for n in systems) if systems else "none")
    words = "Shield " + (" and ".join(SYSTEMS[n - 1].capitalize() for n in systems) if systems else "no system")
    return {"id": 100 + len(systems), "notation": notation, "label": notation, "text": words, "group": "Shield",
            "cost": "", "effect": "", "targets": [f"system:0:{SYSTEMS[n - 1]}" for n in systems], "select": "set",
            "help": "Shield these systems"}


def action(notation: str, group: str | None, targets: list[str] | None = None, cost: str = "",
           effect: str = "") -> dict[str, Any]:
    a: dict[str, Any] = {"id": hash(notation) % 1000, "notation": notation, "label": notation}
    if group is not None:
        a.update(group=group, cost=cost, effect=effect, targets=targets or [], select="one", help=f"{notation}!")
    return a


def game_view(legal: list[dict[str, Any]], refused: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"id": "g", "game": "tauceti", "status": "playing", "index": 3, "seat": 0, "current_seat": 0,
            "seats": [], "view": {}, "legal_actions": legal, "undoable": False, "deadline": None,
            "present": {"names": {"05": {"name": "Sector 05", "text": ""}, "weapons": {"name": "Weapons", "text": ""}},
                        "score": [], "prices": None, "decision": "", "banner": None},
            "refused": refused or []}


RENDER = """async (gv) => {
  const m = await import('/static/actions.js');
  window.played = [];
  const ui = { selected: new Set(), focus: null };
  const draw = () => m.renderDecision(document.getElementById('root'), gv, ui, {
    act: (a) => window.played.push(a.notation),
    toggle: (k) => { ui.selected.has(k) ? ui.selected.delete(k) : ui.selected.add(k); draw(); },
    clearFocus: () => { ui.focus = null; draw(); },
    notation: (t) => window.played.push('typed ' + t),
  });
  window.focusOn = (k) => { ui.focus = k; draw(); };
  draw();
}"""


def open_panel(chromium: Any, base_url: str, gv: dict[str, Any]) -> Any:
    w = new_page(chromium)
    w.page.goto(base_url + "/blank")
    w.page.evaluate(RENDER, gv)
    return w


def test_the_actions_are_grouped_with_their_cost_and_effect(chromium: Any, base_url: str) -> None:
    buys = [action(f"BUY algae {n}", "Trade", ["commodity:algae"], f"{n}T", f"+{n} algae") for n in range(1, 15)]
    gv = game_view([action("MOV", "Move", ["sector:05"], "1 energy", "up to 2 sectors"), *buys, action("END", "Pass")])
    w = open_panel(chromium, base_url, gv)
    page = w.page
    assert page.locator("#groups details.group > summary .group-name").all_inner_texts() == ["Move", "Trade", "Pass"]
    move = page.locator("button.action[data-notation='MOV']")
    assert move.locator(".cost").inner_text() == "1 energy"
    assert move.locator(".effect").inner_text() == "up to 2 sectors"
    assert move.get_attribute("title") == "MOV!"
    assert "cost 1 energy" in (move.get_attribute("aria-label") or "")
    # A group of more than 12 starts folded; its summary opens it.
    trade = page.locator("details.group[data-group='Trade']")
    assert not trade.evaluate("d => d.open")
    trade.locator("summary").click()
    page.click("button.action[data-notation='BUY algae 3']")
    assert page.evaluate("() => window.played") == ["BUY algae 3"]
    assert page.locator("#notations option").count() == len(gv["legal_actions"])
    assert_clean(w)


def test_the_groups_come_in_the_servers_order_and_a_folded_group_stays_as_the_player_left_it(
        chromium: Any, base_url: str) -> None:
    """Groups came in the order of their first legal action, so Tau Ceti's Pass sat between Move
    and Recruit: they follow present.groups (the terminal's menu order, Pass last), refused ones
    too. A group the player folded or opened stays so when the panel is drawn anew (every view
    draws it)."""
    order = ["Move", "Explore", "Sell/Buy", "Recruit", "Pass", "Other"]
    legal = [action("END", "Pass"), action("REC S01", "Recruit"), action("REC S02", "Recruit"),
             action("BUY algae 1", "Sell/Buy"), action("GO 05", "Move"), action("ODD", "Odd")]
    refused = [refusal("PASS", "Pass", "TC-FLOW-1", "not now"), refusal("EXP 05.1", "Explore", "TC-EXP-1", "no")]
    gv = game_view(legal, refused=refused)
    gv["present"]["groups"] = order
    w = open_panel(chromium, base_url, gv)
    page = w.page
    names = page.locator("#groups details.group > summary .group-name")
    assert names.all_inner_texts() == ["Move", "Sell/Buy", "Recruit", "Pass", "Odd"]  # unnamed ones last
    refused_names = page.locator("#refused details.refused-group > summary .group-name")
    assert refused_names.all_text_contents() == ["Explore", "Pass"]
    recruit = page.locator("details.group[data-group='Recruit']")
    assert recruit.evaluate("d => d.open")
    recruit.locator("> summary").click()
    page.evaluate("() => window.focusOn(null)")  # drawn anew
    assert not recruit.evaluate("d => d.open")
    assert page.locator("details.group[data-group='Move']").evaluate("d => d.open")
    w.page.close()

    # A big group starts folded even beside a lone END (the table lights its targets); opened, it stays open.
    gos = [action(f"GO {n},0", "Move") for n in range(20)]
    w = open_panel(chromium, base_url, game_view([*gos, action("END", "Pass")]))
    move = w.page.locator("details.group[data-group='Move']")
    assert not move.evaluate("d => d.open")
    move.locator("> summary").click()
    w.page.evaluate("() => window.focusOn(null)")
    assert move.evaluate("d => d.open") and move.locator("button.action").count() == 20
    assert_clean(w)


def test_a_button_says_the_action_in_words_with_its_notation_small_beside(chromium: Any, base_url: str) -> None:
    """Buttons read "IM", "BUY algae 1 (Xunari algae)": the server's words are the main line, the
    notation (what the notation box takes) beside it, the label in the tooltip."""
    buy = {**action("BUY algae 1", "Trade", ["commodity:algae"], "1T"), "label": "BUY algae 1 (Xunari algae)",
           "text": "Buy 1 Xunari algae"}
    gv = game_view([{**action("IM", "Missions"), "text": "Take an Interplanetary Mission"}, buy, action("END", "Pass")])
    w = open_panel(chromium, base_url, gv)
    page = w.page
    im = page.locator("button.action[data-notation='IM']")
    assert im.locator(".text").inner_text() == "Take an Interplanetary Mission"
    assert im.locator(".notation").inner_text() == "IM"
    assert im.inner_text().startswith("Take an Interplanetary Mission")
    button = page.locator("button.action[data-notation='BUY algae 1']")
    assert (button.get_attribute("aria-label") or "").startswith("Buy 1 Xunari algae")
    assert "cost 1T" in (button.get_attribute("aria-label") or "")
    assert button.get_attribute("title") == "BUY algae 1 (Xunari algae): BUY algae 1!"
    page.get_by_role("button", name="Buy 1 Xunari algae").click()
    assert page.evaluate("() => window.played") == ["BUY algae 1"]
    # A row without words (an older server) shows its label as before.
    assert page.locator("button.action[data-notation='END'] .label").inner_text() == "END"
    assert page.locator("button.action[data-notation='END'] .notation").count() == 0
    assert_clean(w)


def test_a_target_offers_the_actions_that_name_it_and_why_the_others_are_not_allowed(
        chromium: Any, base_url: str) -> None:
    gv = game_view([action("GO 05", "Move", ["sector:05"], "", "1 sector"), action("END", "Pass")],
                   refused=[{"notation": "EXP 05.1", "label": "EXP 05.1", "group": "Explore", "targets": ["sector:05"],
                             "rule": "TC-EXP-1", "reason": "you are not at an Exploration point"}])
    w = open_panel(chromium, base_url, gv)
    page = w.page
    page.evaluate("() => window.focusOn('sector:05')")
    panel = page.locator("#target-actions[data-target='sector:05']")
    assert panel.locator("h3").inner_text().startswith("On Sector 05")
    assert panel.locator("button.action").all_inner_texts()[0].startswith("GO 05")
    assert "not at an Exploration point" in panel.locator(".refused-action").inner_text()
    assert panel.locator("a.rule").get_attribute("href") == "/rules#tauceti:TC-EXP-1"
    panel.locator("button.action").click()
    assert page.evaluate("() => window.played") == ["GO 05"]
    page.click("#refused summary")
    assert page.locator("#refused .refused-action a.rule").inner_text() == "TC-EXP-1"
    assert_clean(w)


def refusal(notation: str, group: str, rule: str, reason: str) -> dict[str, Any]:
    return {"notation": notation, "label": f"{notation} (label)", "text": f"Words of {notation}", "group": group,
            "targets": [], "rule": rule, "reason": reason}


def test_why_not_groups_the_refusals_and_says_a_shared_reason_once(chromium: Any, base_url: str) -> None:
    """200 refusals in one flat list were unreadable: they are grouped as the legal actions are,
    a reason that refuses many actions is one line naming a few of them, and a rule with many
    different reasons (every far GO) shows four and folds the rest. What a player opens stays
    open when the panel is drawn again (every view draws it anew)."""
    offers = [f"TRADE-K Chemical Cosmic {n}" for n in range(5)]
    refused = [*(refusal(n, "Trade", "TC-TRADE-2", "you do not have the Knowledge tokens you offer") for n in offers),
               refusal("SELL", "Trade", "TC-SB-1", "you are not on a planet"),
               *(refusal(f"GO {q},0", "Move", "TC-MOV-1", f"{q},0 is not next to Xuno") for q in range(7))]
    w = open_panel(chromium, base_url, game_view([action("END", "Pass")], refused=refused))
    page = w.page
    why = page.locator("#refused")
    assert why.locator("> summary").inner_text() == "Why not? (13 actions not allowed now)"
    why.locator("> summary").click()
    groups = why.locator("details.refused-group")
    assert groups.locator("> summary .group-name").all_inner_texts() == ["Trade", "Move"]
    assert groups.locator("> summary .count").all_inner_texts() == [" 6", " 7"]
    assert not any(groups.evaluate_all("ds => ds.map(d => d.open)"))  # two groups: both folded
    trade = why.locator("details.refused-group[data-group='Trade']")
    trade.locator("> summary").click()
    shared = trade.locator(".refused-action.shared")
    assert shared.count() == 1 and shared.get_attribute("data-count") == "5"
    text = shared.inner_text()
    assert text.count("you do not have the Knowledge tokens you offer") == 1 and "and 2 more" in text
    assert f"Words of {offers[0]}, Words of {offers[1]}" in text  # the actions said as their buttons say them
    assert shared.locator("a.rule").inner_text() == "TC-TRADE-2"
    assert (shared.locator(".which").get_attribute("title") or "").split("\n") == offers
    alone = trade.locator(".refused-action:not(.shared)")
    assert "you are not on a planet" in alone.inner_text()
    assert alone.locator(".label .text").inner_text() == "Words of SELL"
    assert alone.locator(".label .notation").inner_text() == "SELL"
    move = why.locator("details.refused-group[data-group='Move']")
    move.locator("> summary").click()
    assert move.locator("> ul > li.refused-action").count() == 4
    more = move.locator(".refused-more details")
    assert more.locator("> summary").inner_text() == "3 more refused by TC-MOV-1" and not more.evaluate("d => d.open")
    more.locator("> summary").click()
    assert more.locator(".refused-action").count() == 3
    page.evaluate("() => window.focusOn(null)")  # the panel drawn anew, as a new view does
    assert why.evaluate("d => d.open") and trade.evaluate("d => d.open") and move.evaluate("d => d.open")
    assert more.evaluate("d => d.open")
    assert_clean(w)


def test_a_set_choice_is_toggled_and_confirmed_as_the_one_action_with_exactly_that_set(
        chromium: Any, base_url: str) -> None:
    gv = game_view([shield([1]), shield([3]), shield([1, 3]), shield([1, 2, 3])])
    w = open_panel(chromium, base_url, gv)
    page = w.page
    confirm = page.locator("#confirm-set")
    assert confirm.is_disabled()  # no legal action shields nothing here
    assert page.locator("#set-select button.toggle").count() == 3  # one per system, not one per subset
    assert page.locator("#groups button.action").count() == 0
    page.click("#set-select [data-target='system:0:weapons']")
    assert page.locator("#set-select [data-target='system:0:weapons']").get_attribute("aria-pressed") == "true"
    assert confirm.inner_text() == "Confirm: Shield Weapons"  # the action's words, not "SHIELD 1"
    page.click("#set-select [data-target='system:0:shields']")
    assert confirm.is_disabled()  # weapons + shields is no legal set
    page.click("#set-select [data-target='system:0:computers']")
    assert confirm.inner_text() == "Confirm: Shield Weapons and Shields and Computers"
    page.click("#set-select [data-target='system:0:shields']")
    confirm.click()
    assert page.evaluate("() => window.played") == ["SHIELD 1,3"]
    assert_clean(w)


def test_a_server_without_groups_gets_its_actions_grouped_by_verb(chromium: Any, base_url: str) -> None:
    gv = game_view([action("BUY nano 1", None), action("BUY nano 2", None), action("REF", None)])
    for a in gv["legal_actions"]:
        assert "group" not in a and "targets" not in a
    del gv["refused"], gv["present"]
    w = open_panel(chromium, base_url, gv)
    assert w.page.locator("#groups .group-name").all_inner_texts() == ["BUY", "REF"]
    w.page.click("button.action[data-notation='REF']")
    assert w.page.evaluate("() => window.played") == ["REF"]
    assert_clean(w)
