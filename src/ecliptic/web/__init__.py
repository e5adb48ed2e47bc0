"""The browser client: plain ES modules, CSS and HTML pages served by the game server as
package data (``static/``), with no build step and nothing fetched from another site.

``server/web_api.py`` serves the pages and ``/static``; docs/web.md says how the client is put
together and which module owns what.
"""

from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
"""The static files: the pages, their modules and style sheets."""

__all__ = ["STATIC"]
