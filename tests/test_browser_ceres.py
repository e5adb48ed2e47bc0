"""Ceres with its Comets expansion in the browser: a game made in the lobby and played by
clicking for a whole round, against a bot."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from browser_support import (
    PHONE,
    assert_clean,
    browser,
    create_in_lobby,
    needs_browser,
    new_page,
    play_randomly,
    screenshot,
    site,
    too_wide,
    view_of,
)

pytestmark = needs_browser


def test_a_ceres_game_with_comets_is_played_by_clicking_for_a_round(tmp_path: Path) -> None:
    with site(tmp_path) as s, browser() as b:
        w = new_page(b)
        create_in_lobby(w, s.url, "ceres", ["person", "bot"], seed=4, checks=("Comets",))
        w.page.wait_for_selector("#decision-panel button.action", state="attached")
        first = view_of(w)
        assert first["view"]["config"]["expansions"] == ["comets"] and first["view"]["comets"]
        assert w.page.locator("#status").inner_text().startswith("Ceres")
        screenshot(w, "ceres-comets-start-1280x800")
        clicks = play_randomly(w, random.Random(4), until=lambda v: v["view"]["round"] > first["view"]["round"])
        after: dict[str, Any] = view_of(w)
        assert clicks >= 2
        assert after["view"]["round"] > first["view"]["round"] or after["status"] == "over"
        assert w.page.locator("#log .log-entry").count() >= clicks
        screenshot(w, "ceres-comets-round-2-1280x800")
        w.page.set_viewport_size(PHONE)
        screenshot(w, "ceres-comets-round-2-390x844")
        assert not too_wide(w), too_wide(w)
        assert_clean(w)
