"""The Rules page in Chromium (Playwright, Debian's /usr/bin/chromium, headless): it loads with
no console errors, the search narrows the rules as you type, an anchor link scrolls to its rule,
it wears the app's dark colours with readable contrast, and it fits a 1280x800 screen and a
390x844 phone (screenshots in test-artifacts/)."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server_process import Server, start_cold

sync_api = pytest.importorskip("playwright.sync_api")

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
TOTAL = sum(len(json.loads((ROOT / "src/ecliptic/present/rulebook" / f"{g}.json").read_text())["rules"])
            for g in ("tauceti", "ceres"))

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed (make test installs it)")


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with tempfile.TemporaryDirectory(prefix="ecliptic-rules-page-") as folder:
        started = start_cold(f"sqlite:///{Path(folder) / 'server.db'}", Path(folder))
        try:
            yield started
        finally:
            started.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"], headless=True)
        try:
            yield launched
        finally:
            launched.close()


class Page:
    """A page in a fresh context of the given size, with every console error and uncaught
    exception collected."""

    def __init__(self, browser: Any, server: Server, viewport: dict[str, int]) -> None:
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.base = server.base_url

    def open(self, path: str = "/rules") -> Any:
        self.page.goto(self.base + path)
        self.page.wait_for_selector("body[data-ready=true]", timeout=15000)
        return self.page

    def visible_rules(self) -> list[str]:
        ids: list[str] = self.page.eval_on_selector_all(
            ".rule", "els => els.filter(e => e.offsetParent !== null).map(e => e.id)")
        return ids


@pytest.fixture
def desktop(browser: Any, server: Server) -> Iterator[Page]:
    page = Page(browser, server, DESKTOP)
    yield page
    page.context.close()


@pytest.fixture
def phone(browser: Any, server: Server) -> Iterator[Page]:
    page = Page(browser, server, PHONE)
    yield page
    page.context.close()


def test_the_page_loads_both_books_with_no_console_errors(desktop: Page) -> None:
    page = desktop.open()
    assert page.locator("#book-tauceti h2").first.inner_text() == "Tau Ceti: Planetary Crisis"
    assert page.locator("#book-ceres h2").first.inner_text() == "Ceres: Comets"
    assert len(desktop.visible_rules()) == TOTAL
    assert page.locator("#count").inner_text() == f"{TOTAL} rules"
    # a decision is shown under its rule
    tie = page.locator('[id="tauceti:TC-END-6"] .decision summary')
    assert "Ties" in tie.first.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "rules-1280x800.png"))
    assert desktop.errors == []


def test_the_search_narrows_to_the_matching_rules_as_you_type(desktop: Page) -> None:
    page = desktop.open()
    page.keyboard.press("/")  # the shortcut to the search box
    page.keyboard.type("wormhole zero")
    page.wait_for_function(f"document.querySelector('#count').textContent !== '{TOTAL} rules'")
    shown = desktop.visible_rules()
    assert "tauceti:TC-MOV-7" in shown
    assert 0 < len(shown) < 10
    texts = page.eval_on_selector_all(".rule", "els => els.filter(e => e.offsetParent !== null)"
                                               ".map(e => e.dataset.search)")
    assert all("wormhole" in t and "zero" in t for t in texts)
    assert page.locator('[id="tauceti:TC-MOV-7"] .text mark').count() >= 1
    assert page.locator("#count").inner_text() == f"{len(shown)} of {TOTAL} rules"
    assert not page.locator('[id="tauceti:section:game-overview"]').is_visible()
    page.locator("#q").fill("")
    page.wait_for_function(f"document.querySelector('#count').textContent === '{TOTAL} rules'")
    assert len(desktop.visible_rules()) == TOTAL
    assert desktop.errors == []


def _in_view(page: Any, element_id: str) -> bool:
    box: dict[str, float] = page.evaluate(
        "id => { const r = document.getElementById(id).getBoundingClientRect();"
        " const bar = document.querySelector('.bar').getBoundingClientRect();"
        " return {top: r.top, bar: bar.bottom, height: innerHeight}; }", element_id)
    return box["bar"] <= box["top"] < box["height"]


def test_an_anchor_link_scrolls_to_its_rule(desktop: Page) -> None:
    page = desktop.open("/rules#tauceti:TC-BAT-15")
    assert page.evaluate("scrollY") > 1000  # far down the page
    assert _in_view(page, "tauceti:TC-BAT-15")
    assert "target" in (page.locator('[id="tauceti:TC-BAT-15"]').get_attribute("class") or "")
    # the short form names the game by the id's prefix, and following a link moves there too
    page.evaluate("location.hash = '#CC-SUN-3'")
    page.wait_for_function("document.getElementById('ceres:CC-SUN-3').classList.contains('target')")
    assert _in_view(page, "ceres:CC-SUN-3")
    assert desktop.errors == []


def test_a_phone_screen_shows_the_page_without_sideways_scrolling(phone: Page) -> None:
    page = phone.open("/rules#tauceti:TC-MOV-3")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert _in_view(page, "tauceti:TC-MOV-3")
    assert page.locator("#toc-box").get_attribute("open") is None  # the contents fold away
    page.locator("#toc-box summary").click()
    page.locator('#toc a[href="#ceres:section:sungrazer-comet"]').click()
    page.wait_for_function("location.hash === '#ceres:section:sungrazer-comet'")
    assert page.locator("#toc-box").get_attribute("open") is None
    assert _in_view(page, "ceres:section:sungrazer-comet")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "rules-390x844.png"))
    assert phone.errors == []


def _luminance(rgb: str) -> float:
    """The relative luminance (WCAG) of a computed colour, ``rgb(r, g, b)``."""
    channels = [int(x) / 255 for x in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_the_page_wears_the_apps_dark_colours(desktop: Page) -> None:
    """A rule opened from a game (its rule link) was a light page beside the dark app: the rules
    page takes the app's background and ink, and its text keeps a readable contrast."""
    style = "() => { const s = getComputedStyle(document.body); return [s.backgroundColor, s.color]; }"
    rules = desktop.open().evaluate(style)
    desktop.page.goto(desktop.base + "/")
    desktop.page.wait_for_selector("#game option", state="attached")
    assert rules == desktop.page.evaluate(style)

    page = desktop.open()
    for selector in (".rule .text", ".decision summary", ".toc li a", ".source"):
        ink, ground = page.locator(selector).first.evaluate(
            "e => { let g = e;"
            " while (g && getComputedStyle(g).backgroundColor === 'rgba(0, 0, 0, 0)') g = g.parentElement;"
            " return [getComputedStyle(e).color, getComputedStyle(g || document.body).backgroundColor]; }")
        light, dark = sorted((_luminance(ink), _luminance(ground)), reverse=True)
        assert (light + 0.05) / (dark + 0.05) >= 4.5, (selector, ink, ground)  # WCAG AA for body text


def test_the_page_links_back_to_the_lobby(desktop: Page, phone: Page) -> None:
    """A rule opened from a game or the lobby (its own tab) had no way back but the browser's: the
    header's site links lead to the lobby, readable on the header's dark ground, on a phone too."""
    for viewer in (desktop, phone):
        page = viewer.open("/rules#tauceti:TC-MOV-3")
        lobby = page.locator(".bar nav[aria-label='site'] a", has_text="Lobby")
        assert lobby.count() == 1 and lobby.is_visible()
        ink, ground = lobby.evaluate(
            "e => { let g = e;"
            " while (g && getComputedStyle(g).backgroundColor === 'rgba(0, 0, 0, 0)') g = g.parentElement;"
            " return [getComputedStyle(e).color, getComputedStyle(g || document.body).backgroundColor]; }")
        light, dark = sorted((_luminance(ink), _luminance(ground)), reverse=True)
        assert (light + 0.05) / (dark + 0.05) >= 4.5, (ink, ground)
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
        lobby.click()
        page.wait_for_url(viewer.base + "/")
        page.wait_for_selector("#game option", state="attached")  # the lobby's form, loaded
        assert viewer.errors == []
