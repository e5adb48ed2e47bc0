"""Friends playing a live game are told who is away and why: a seat whose turn clock ran out
(a "zombie", docs/server.md) or that was handed to a bot is not its person deciding; an action
taken back (an undo) is named with whoever took it back; the turn clock is words, not a glyph;
the log does not credit a person with the moves a bot made for them.

Found by playing a 4-seat Tau Ceti with two friends and a spectator: when Ann's clock ran out,
her page showed "Take my seat back" with no word of why, the others read "Ann is deciding…"
for a bot, the log headed the bot's moves "Xunon · Ann", Bob's log lost an entry without a word
when Ann undid, and the clock's ⏱ was an empty box. Here api.js's and log.js's functions run in
Chromium on views shaped as the server sends them (no game server: the modules come from
test_browser_decision's static server).
"""

from __future__ import annotations

from typing import Any

from browser_support import assert_clean, needs_browser, new_page
from test_browser_decision import base_url  # noqa: F401  (the fixture: the modules on a static server)

pytestmark = needs_browser

GV = {
    "game": "tauceti", "status": "playing", "current_seat": 1, "deadline": 1000.0 + 95,
    "view": {"players": [{"faction": "Xunon"}, {"faction": "Triolor"}, {"faction": "Azars"}]},
    "seats": [{"seat": 0, "name": "Ann", "kind": "person", "controller": "zombie"},
              {"seat": 1, "name": "Bob", "kind": "person", "controller": "bot"},
              {"seat": 2, "name": "Bot (normal)", "kind": "bot", "controller": "bot"}],
}

READ = """async (gv) => {
  const api = await import('/static/api.js');
  const at = 1000 * 1000;   // ms: the deadline is 95 s after it
  const mine = {...gv, current_seat: 0};
  return {
    standIn: [0, 1, 2].map((seat) => [api.standIn(gv, seat, 0), api.standIn(gv, seat, null)]),
    clock: [api.clockText(gv, 0, at), api.clockText(mine, 0, at),
            api.clockText({...mine, deadline: gv.deadline + 2 * 3600}, 0, at),
            api.clockText({...gv, deadline: null}, 0, at), api.clockText({...gv, status: "over"}, 0, at)],
    undo: [api.undoNote(gv, 1, 7, 0), api.undoNote(gv, 0, 7, 0), api.undoNote(gv, null, 7, 0)],
  };
}"""


def test_the_page_says_who_plays_a_seat_its_person_left_and_who_took_an_action_back(
        chromium: Any, base_url: str) -> None:  # noqa: F811
    w = new_page(chromium)
    w.page.goto(base_url + "/blank")
    out = w.page.evaluate(READ, GV)
    assert out["standIn"] == [
        ["Your turn clock ran out, so a bot plays your seat until you take it back.",
         "Xunon · Ann's turn clock ran out: a bot plays the seat until they come back."],
        ["Triolor · Bob handed the seat to a bot.", "Triolor · Bob handed the seat to a bot."],
        ["", ""],   # a seat created for a bot: nobody is away
    ]
    assert out["clock"] == [
        "Turn clock: Triolor · Bob has 1:35 left, then a bot plays for them.",
        "Turn clock: you have 1:35 left, then a bot plays for you.",
        "Turn clock: you have 2:01:35 left, then a bot plays for you.",
        "", "",
    ]
    assert out["undo"] == ["Triolor · Bob took back their last action (#7).",
                           "You took back your last action (#7).", "Action #7 was taken back."]
    assert_clean(w)


LOG = """async (gv) => {
  const api = await import('/static/api.js');
  const { Log } = await import('/static/log.js');
  const root = document.getElementById('root');
  const log = new Log(root, { seatName: (s) => api.seatName(gv, s), onPick: () => {},
                              playedBy: (s, actor) => api.playedBy(gv, s, actor) });
  const said = [{kind: 'x', text: 'something happens.'}];
  log.add(1, 0, said, false, 'person');
  log.add(2, 0, said, false, 'zombie');
  log.add(3, 1, said, false, 'bot');
  log.add(4, 2, said, false, 'bot');
  log.add(5, 1, said, true);   // an older server: no actor
  return [...root.querySelectorAll('.log-pick')].map((b) => b.textContent).reverse();
}"""


def test_the_log_does_not_credit_a_person_with_a_bots_move(chromium: Any, base_url: str) -> None:  # noqa: F811
    w = new_page(chromium)
    w.page.goto(base_url + "/blank")
    assert w.page.evaluate(LOG, GV) == [
        "#1 Xunon · Ann", "#2 Xunon · Ann · by a bot, clock ran out", "#3 Triolor · Bob · by a bot",
        "#4 Azars · Bot (normal)", "#5 Triolor · Bob"]
    assert_clean(w)
