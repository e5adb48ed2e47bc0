"""The interactive API docs the lobby links to (/docs) work on a server that reaches no other site
(a LAN, no internet): Swagger UI comes from this server, and every request the page makes goes to it
(FastAPI's own page loads it from cdn.jsdelivr.net and stays blank offline)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from browser_support import Site, assert_clean, needs_browser, new_page

pytestmark = needs_browser


def test_the_api_docs_render_from_this_server_alone(server_site: Site, chromium: Any) -> None:
    w = new_page(chromium)
    page = w.page
    here = urlsplit(server_site.url).netloc
    elsewhere: list[str] = []
    # Any other site is unreachable, as offline: asked, it fails (and is recorded).
    page.route("**/*", lambda route: (route.continue_() if urlsplit(route.request.url).netloc == here
                                       else (elsewhere.append(route.request.url), route.abort())))
    page.goto(server_site.url + "/")
    page.click("nav a[href='/docs']")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "Ecliptic game server" in page.locator(".swagger-ui .info .title").inner_text()
    page.wait_for_selector(".swagger-ui .opblock-summary-path[data-path='/api/games/{game_id}/seats/{seat}/sit']")
    # "Try it out" works from the page: the listing of games, asked of this server.
    page.click(".swagger-ui .opblock-get .opblock-summary-path[data-path='/api/games'] >> xpath=..")
    page.click(".swagger-ui .opblock.is-open button.try-out__btn")
    page.click(".swagger-ui .opblock.is-open button.execute")
    page.wait_for_selector(".swagger-ui .opblock.is-open .live-responses-table .response-col_status:has-text('200')")
    assert elsewhere == []
    assert_clean(w)
