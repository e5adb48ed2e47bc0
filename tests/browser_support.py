"""What the browser tests share: a real ``ecliptic serve`` process on a free port with a
throw-away SQLite file, a headless Chromium (Debian's, /usr/bin/chromium: Playwright's own
download does not work on these machines), pages that fail the test on any console error or
page error, and helpers that play by clicking as a person does.

The server is started through :class:`server_process.Launcher` (imports paid once, forked per
start), so a test can also stop it and start it again on the same database.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from server_process import Launcher, Server, serve_args, wait_until_up

CHROMIUM = os.environ.get("ECLIPTIC_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
WAIT_MS = 30_000


def have_browser() -> bool:
    if os.environ.get("ECLIPTIC_TEST_BROWSER") == "skip" or not os.access(CHROMIUM, os.X_OK):
        return False
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return False
    return True


needs_browser = pytest.mark.skipif(not have_browser(),
                                   reason=f"needs Playwright and {CHROMIUM} (make test installs it)")


@dataclass
class Site:
    """The server under test: its address, its database file and how to restart it."""

    launcher: Launcher
    database_url: str
    server: Server

    @property
    def url(self) -> str:
        return self.server.base_url

    def api(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=30)

    def restart(self) -> None:
        """Stop the server (SIGTERM, graceful) and start a new one on the same database and the
        same port, so the pages open on it find it again."""
        port = self.server.port
        self.server.stop()
        self.server = start_on(self.launcher, self.database_url, port)


def start_on(launcher: Launcher, database_url: str, port: int) -> Server:
    """:meth:`Launcher.start` on a given port (a restart keeps the address the pages use)."""
    assert launcher.proc.stdin is not None and launcher.proc.stdout is not None
    log = launcher.data_dir / f"server-{port}-{time.monotonic_ns()}.log"
    started = time.monotonic()
    launcher.proc.stdin.write(json.dumps([serve_args(database_url, port), str(log)]) + "\n")
    launcher.proc.stdin.flush()
    line = launcher.proc.stdout.readline()
    if not line:
        raise RuntimeError("the launcher process died")
    pid = int(line)
    return Server(pid, port, log, wait_until_up(pid, port, log, started))


@contextlib.contextmanager
def site(tmp: Path) -> Iterator[Site]:
    launcher = Launcher(tmp)
    try:
        database = f"sqlite:///{tmp / 'server.db'}"
        s = Site(launcher, database, launcher.start(database))
        try:
            yield s
        finally:
            s.server.stop()
    finally:
        launcher.close()


@dataclass
class Watched:
    """A page whose console errors, page errors and failed requests are recorded."""

    page: Any
    errors: list[str] = field(default_factory=list)
    allowed: list[re.Pattern[str]] = field(default_factory=list)

    def allow(self, pattern: str) -> None:
        """An error message this test expects (a server it stopped on purpose)."""
        self.allowed.append(re.compile(pattern))

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self.allowed)]


def watch(page: Any) -> Watched:
    w = Watched(page)
    page.on("console", lambda m: w.errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: w.errors.append(f"pageerror: {e}"))
    page.set_default_timeout(WAIT_MS)
    return w


@contextlib.contextmanager
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One headless Chromium per test module (a plugin of conftest.py: every browser test may ask)."""
    with browser() as b:
        yield b


@pytest.fixture(scope="module")
def server_site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """One real server per test module, on a database of its own."""
    with site(tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])) as s:
        yield s


def new_page(b: Any, viewport: dict[str, int] = DESKTOP, pace: int = 0, init: str = "") -> Watched:
    """A page in a context of its own (its own localStorage: another person's browser). ``pace``:
    the milliseconds between two moves of other seats (0: at once, the tests' default)."""
    context = b.new_context(viewport=viewport)
    context.add_init_script(f"localStorage.setItem('ecliptic.pace', '{pace}')")
    if init:
        context.add_init_script(init)
    return watch(context.new_page())


def assert_clean(*pages: Watched) -> None:
    errors = [e for w in pages for e in w.unexpected()]
    assert not errors, "errors in the browser:\n" + "\n".join(errors)


def too_wide(w: Watched) -> list[str]:
    """The elements that reach past the right edge of the viewport (nothing may, on a phone);
    empty when the page does not scroll sideways."""
    if w.page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"):
        return []
    found: list[str] = w.page.evaluate("""() => {
      const width = document.documentElement.clientWidth, out = [];
      const scrolls = (e) => ['auto', 'hidden', 'scroll'].includes(getComputedStyle(e).overflowX);
      for (const e of document.querySelectorAll('body *')) {
        const r = e.getBoundingClientRect();
        if (!r.width || r.right <= width + 1 || getComputedStyle(e).position === 'fixed') continue;
        let up = e.parentElement;
        while (up && !scrolls(up)) up = up.parentElement;
        if (up) continue;  // inside a box that scrolls or clips: the page itself does not widen
        const cls = typeof e.className === 'string' ? e.className : e.className.baseVal;
        out.push(`${e.tagName.toLowerCase()}#${e.id}.${cls} right=${Math.round(r.right)}`);
      }
      return out.slice(0, 10);
    }""")
    return found


def no_null_text(w: Watched) -> None:
    """Fail when the page shows the words null, undefined or NaN: a missing value rendered as
    text (a null handed to the DOM, an unset field in a template string)."""
    text: str = w.page.evaluate("() => document.body.innerText")
    found = re.findall(r".{0,40}\b(?:null|undefined|NaN)\b.{0,40}", text)
    assert not found, found


def screenshot(w: Watched, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    w.page.screenshot(path=str(path), full_page=False)
    return path


# -- the lobby and the game page, as a person uses them -----------------------------------------


def open_fresh_lobby(page: Any, url: str) -> None:
    """Open the lobby with its form at the defaults, not as this browser last created a game
    (lobby-last.js): a form restored to the same game would have a second `change` of the game
    select redraw it under the test's later clicks."""
    page.goto(url + "/")
    if page.evaluate("() => { const had = localStorage.getItem('ecliptic.lobby.last') !== null; "
                     "localStorage.removeItem('ecliptic.lobby.last'); return had; }"):
        page.reload()


def create_in_lobby(w: Watched, url: str, game: str, seats: list[str], *, seed: int | None = None,
                    choices: dict[str, str] | None = None, checks: tuple[str, ...] = (),
                    levels: dict[int, str] | None = None, suggestions: bool = False,
                    clock_seconds: int | None = None, my_seat: str | None = None) -> str:
    """Fill the lobby's form (``seats``: "person", "bot" or "open" per seat), create the game and
    return its id. ``choices`` picks a value in a config select by its option name; ``checks``
    ticks checkboxes by their aria-label; ``my_seat`` is the "You play" choice (a seat index as
    text, "all" for hot-seat, or "none"; the first person seat if not given). With join links to
    hand out the page stays in the lobby, on the created box; without, the lobby opens the game
    (the creator's seat, the hot-seat page, or a game of bots' watch page) and the page is there."""
    page = w.page
    open_fresh_lobby(page, url)
    page.select_option("#game", game)
    page.wait_for_selector(f"#create[data-game='{game}']")
    page.select_option("#players", str(len(seats)))
    for i, kind in enumerate(seats):
        row = page.locator(f"#seats .seat[data-seat='{i}']")
        row.locator("select.kind").select_option(kind)
        if kind == "bot":
            row.locator("select.level").select_option((levels or {}).get(i, "random"))
    for name, value in (choices or {}).items():
        page.locator(f"#config fieldset[data-option='{name}'] select").select_option(value)
    for label in checks:
        page.get_by_label(label, exact=True).check()
    if seed is not None:
        page.fill("#seed", str(seed))
    if suggestions:
        page.check("#suggestions")
    if clock_seconds is not None:
        page.select_option("#clock", str(clock_seconds))
    if my_seat is not None:
        page.select_option("#my-seat", my_seat)
    page.click("#create-button")
    persons = [str(i) for i, kind in enumerate(seats) if kind == "person"]
    mine = my_seat if my_seat is not None else (persons[0] if persons else "none")
    played = persons if mine == "all" else [mine] if mine in persons else []
    if set(persons) - set(played):   # links to hand out: the created box shows them
        page.wait_for_selector("#created h3")
        heading = page.locator("#created h3").inner_text()
        found = re.search(r"Game (\w+) created", heading)
        assert found, heading
        return found.group(1)
    page.wait_for_url(re.compile(r"/(play|watch)/"))
    opened = re.search(r"/(?:play|watch)/(\w+)", page.url)
    assert opened, page.url
    return opened.group(1)


def open_seat(w: Watched, url: str, game_id: str, seat: int) -> None:
    w.page.goto(f"{url}/play/{game_id}#seat={seat}")
    wait_loaded(w)


def wait_loaded(w: Watched) -> None:
    w.page.wait_for_function("() => document.querySelector('#status').textContent !== 'loading…'")


def view_of(w: Watched) -> dict[str, Any]:
    """The GameView the page holds, as its seat reads it from the server (the page's own
    token, through the page's own fetch: what the browser received)."""
    view: dict[str, Any] = w.page.evaluate("""async () => {
      const id = location.pathname.split('/')[2];
      const games = JSON.parse(localStorage.getItem('ecliptic.games') || '[]');
      const entry = games.find((g) => g.id === id);
      const seat = document.body.dataset.seat;
      const token = entry && seat ? entry.seats[seat].token : null;
      const r = await fetch('/api/games/' + id, {headers: token ? {Authorization: 'Bearer ' + token} : {}});
      return await r.json();
    }""")
    return view


def wait_my_turn_or_over(w: Watched, timeout_ms: int = WAIT_MS) -> str:
    """Wait until the page offers this seat actions, or shows the game over; "turn" or "over"."""
    w.page.wait_for_function(
        "() => document.querySelector('#decision-panel button.action, #confirm-set')"
        " || document.querySelector('#score-sheet caption')?.textContent.startsWith('Final')",
        timeout=timeout_ms)
    over = w.page.evaluate("() => !!document.querySelector('#score-sheet caption')?.textContent.startsWith('Final')")
    return "over" if over else "turn"


def shown_index(w: Watched) -> int:
    index: int = w.page.evaluate("() => Number(document.querySelector('#log .log-entry')?.dataset.index || 0)")
    return index


def click_action(w: Watched, action: dict[str, Any]) -> None:
    """Play ``action`` by clicking: through its first target on the table when it has one (the
    actions that name the target are offered, then the one wanted), else its button in its group."""
    page = w.page
    before = shown_index(w)
    targets = action.get("targets") or []
    notation = action["notation"]
    if action.get("select") == "set":
        for key in targets:
            page.locator(f"#set-select [data-target='{key}']").click()
        page.click("#confirm-set")
    elif targets and page.locator(f"#table [data-target='{targets[0]}'].target").count():
        target = page.locator(f"#table [data-target='{targets[0]}'].target").first
        target.click()
        try:
            page.locator(f"#target-actions[data-target='{targets[0]}']").wait_for(state="attached", timeout=2000)
        except Exception:
            # The click landed on a token drawn over the target (a Crisis token on its planet):
            # a person clicks beside it; the test activates the target from the keyboard.
            target.focus()
            page.keyboard.press("Enter")
        offered = page.locator(f"#target-actions button.action[data-notation='{notation}']")
        try:
            offered.wait_for(state="attached", timeout=10_000)
        except Exception:
            screenshot(w, "failed-click")
            panel = page.locator("#decision-panel").inner_text()
            raise AssertionError(f"clicking {targets[0]} did not offer {notation}; the panel shows:\n{panel}") from None
        offered.click()
    else:
        button = page.locator(f"#groups button.action[data-notation='{notation}']")
        details = button.locator("xpath=ancestor::details[1]")
        if not details.evaluate("d => d.open"):
            details.locator("summary").click()
        button.click()
    page.wait_for_function(f"() => Number(document.querySelector('#log .log-entry')?.dataset.index || 0) > {before}"
                           " || document.querySelector('#error')?.textContent")
    error = page.locator("#error").inner_text()
    assert not error, f"{notation}: {error}"


def play_randomly(w: Watched, rng: Any, *, until: Callable[[dict[str, Any]], bool], limit: int = 2000) -> int:
    """Click a random legal action at each of this seat's decisions until ``until(view)`` or the
    end; the number of actions clicked."""
    clicks = 0
    while clicks < limit:
        if wait_my_turn_or_over(w) == "over":
            return clicks
        view = view_of(w)
        if view["status"] == "over" or until(view):
            return clicks
        if not view["legal_actions"]:
            time.sleep(0.05)
            continue
        click_action(w, rng.choice(view["legal_actions"]))
        clicks += 1
    raise AssertionError(f"no end after {limit} clicks")


__all__ = ["ARTIFACTS", "DESKTOP", "PHONE", "Site", "Watched", "assert_clean", "browser", "click_action",
           "create_in_lobby", "have_browser", "needs_browser", "new_page", "no_null_text", "open_seat", "play_randomly",
           "screenshot", "site", "view_of", "wait_loaded", "wait_my_turn_or_over"]
