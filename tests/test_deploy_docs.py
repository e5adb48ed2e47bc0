"""docs/deploy.md's configuration blocks, held to what a host ran into following them.

The nginx site and the systemd unit are copied from the page as they are, so a mistake in them is a
server that does not start or a game page that never connects. These tests read the blocks from the
page itself; the first one sends a WebSocket through the real server as nginx would forward it.
"""

from __future__ import annotations

import re
from pathlib import Path

from server_helpers import create, recv, server

DEPLOY = Path(__file__).resolve().parents[1] / "docs" / "deploy.md"

BROWSER_HOST = "games.example.org:8443"
"""A site on a port other than 443: the browser's Origin and Host both name the port."""

NGINX_HOST = {"$http_host": BROWSER_HOST, "$host": "games.example.org", "$server_name": "games.example.org"}
"""What nginx puts in the upstream's Host for each variable: ``$host`` and ``$server_name`` drop the port."""


def block(language: str) -> str:
    """The first fenced block of ``language`` in docs/deploy.md, unindented."""
    text = DEPLOY.read_text()
    found = re.search(rf"^( *)```{language}\n(.*?)^\1```", text, re.S | re.M)
    assert found, f"docs/deploy.md has no {language} block"
    indent = len(found.group(1))
    return "\n".join(line[indent:] for line in found.group(2).splitlines())


def nginx_directives() -> list[str]:
    return [line.split("#", 1)[0].strip() for line in block("nginx").splitlines() if line.split("#", 1)[0].strip()]


def test_a_websocket_through_the_documented_nginx_is_accepted_on_a_port_other_than_443(tmp_path: Path) -> None:
    # The server accepts a browser's WebSocket only when its Origin names the Host it is given.
    hosts = [d.split()[2].rstrip(";") for d in nginx_directives() if d.startswith("proxy_set_header Host ")]
    assert len(hosts) == 1, hosts
    assert hosts[0] in NGINX_HOST, f"unknown nginx variable {hosts[0]}"
    with server(f"sqlite:///{tmp_path / 'deploy.sqlite3'}") as client:
        gid = create(client)["id"]
        headers = {"host": NGINX_HOST[hosts[0]], "origin": f"https://{BROWSER_HOST}"}
        with client.websocket_connect(f"/api/games/{gid}/ws", headers=headers) as ws:
            ws.send_json({"spectator": True})
            assert recv(ws)["type"] == "hello"


def test_the_documented_nginx_site_has_no_directive_debian_12s_nginx_refuses() -> None:
    # `http2 on;` came with nginx 1.25.1; Debian 12's 1.22 stops at "unknown directive".
    assert "http2 on;" not in nginx_directives()
    assert any(re.fullmatch(r"listen 443 ssl http2;", d) for d in nginx_directives())


def test_the_documented_systemd_unit_has_no_comment_after_a_value() -> None:
    # systemd keeps a `#` after a value as part of it: EnvironmentFile names a file that does not
    # exist (the unit fails to start), KillSignal an unknown signal.
    settings = [line for line in block("ini").splitlines() if "=" in line and not line.startswith(("#", ";"))]
    assert {line.split("=", 1)[0] for line in settings} >= {"User", "EnvironmentFile", "ExecStart", "KillSignal"}
    assert [line for line in settings if "#" in line] == []
