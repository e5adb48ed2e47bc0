"""The interactive API docs the lobby links to (/docs) work on a server that reaches no other site
(a LAN, no internet): Swagger UI comes from this server, and every request the page makes goes to it
(FastAPI's own page loads it from cdn.jsdelivr.net and stays blank offline); and its description is
of use to a reader who has the server, not the project's files."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from browser_support import Site, assert_clean, needs_browser, new_page
from ecliptic.server.app import create_app


def test_the_api_description_says_how_to_authenticate_and_where_the_websocket_is(tmp_path: Path) -> None:
    """It said only "see docs/server.md", a file a reader of /docs does not have: it says how a seat
    authenticates, where the WebSocket is and what it takes, and names docs/server.md as part of
    the project's source."""
    description = create_app(f"sqlite:///{tmp_path / 'server.db'}").openapi()["info"]["description"]
    assert "Authorization: Bearer <token>" in description
    assert "/api/games/{id}/ws" in description and '{"token": "<seat token>"}' in description
    assert "/seats/{seat}/take" in description  # a join link's token is taken for the seat's own
    for mention in re.finditer(r"docs/server\.md", description):
        near = description[mention.start():mention.end() + 120]
        assert "source" in near, near


@needs_browser
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
    # The description is rendered as markdown on the page itself.
    assert page.locator(".swagger-ui .info .description code", has_text="Authorization: Bearer <token>").count() == 1
    page.wait_for_selector(".swagger-ui .opblock-summary-path[data-path='/api/games/{game_id}/seats/{seat}/sit']")
    # "Try it out" works from the page: the listing of games, asked of this server.
    page.click(".swagger-ui .opblock-get .opblock-summary-path[data-path='/api/games'] >> xpath=..")
    page.click(".swagger-ui .opblock.is-open button.try-out__btn")
    page.click(".swagger-ui .opblock.is-open button.execute")
    page.wait_for_selector(".swagger-ui .opblock.is-open .live-responses-table .response-col_status:has-text('200')")
    assert elsewhere == []
    assert_clean(w)
