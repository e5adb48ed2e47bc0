"""schemathesis against the server's own ``/openapi.json``: requests generated from the schema
(valid ones and, with schemathesis' negative cases, invalid ones) never get a 5xx, and every
answer matches the schema the server publishes for its status.

Each operation runs twice: as an anonymous caller on generated paths (unknown games, mostly:
404s), and on a real game with a real seat token, so the authenticated paths (views with legal
actions, actions, undo, hand-overs, chat) are reached too. Bounded and reproducible: at most
:data:`EXAMPLES` examples per operation, derandomized, no deadline.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.python.asgi import get_client
from schemathesis.specs.openapi.checks import response_schema_conformance

from ecliptic.server import create_app

EXAMPLES = 20
CHECKS = [not_a_server_error, response_schema_conformance]
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))

# The schema is loaded when this module is imported (schemathesis parametrizes at collection);
# schemathesis runs the app's lifespan once and keeps it for the session.
_folder = tempfile.TemporaryDirectory(prefix="ecliptic-schema-")
app = create_app(f"sqlite:///{Path(_folder.name) / 'server.db'}", zombie_level="random")
schema = schemathesis.openapi.from_asgi("/openapi.json", app)

_game: dict[str, Any] = {}


def real_game() -> dict[str, Any]:
    """A game with two person seats, made once through the API itself."""
    if not _game:
        with get_client(app) as client:
            answer = client.post("http://testserver/api/games", json={
                "game": "ceres", "seed": 3, "seats": [{"name": "Ann"}, {"name": "Bob"}]})
        assert answer.status_code == 201, answer.text
        _game.update(answer.json())
    return _game


@schema.parametrize()
@SETTINGS
def test_anonymous_requests_get_no_5xx_and_match_the_schema(case: Any) -> None:
    case.call_and_validate(checks=CHECKS)


@schema.parametrize()
@SETTINGS
def test_requests_on_a_real_game_with_a_seat_token_get_no_5xx_and_match_the_schema(case: Any) -> None:
    game = real_game()
    params = case.path_parameters or {}
    if "game_id" not in params:
        pytest.skip("no game in this operation's path (the anonymous test covers it)")
    case.path_parameters = {**params, "game_id": game["id"]}
    if "seat" in params and isinstance(params["seat"], int):
        case.path_parameters["seat"] = abs(params["seat"]) % 3  # seats 0 and 1, and one that is not there
    token = game["seats"][0]["token"]
    case.call_and_validate(checks=CHECKS, headers={"Authorization": f"Bearer {token}"})


def declared(openapi: dict[str, Any], method: str, path: str, status: int) -> dict[str, Any] | None:
    """The schema ``/openapi.json`` declares for ``status`` of an operation (``None``: not declared)."""
    response = openapi["paths"][path][method].get("responses", {}).get(str(status))
    if response is None:
        return None
    found: dict[str, Any] = response["content"]["application/json"]["schema"]
    if "$ref" in found:
        found = openapi["components"]["schemas"][found["$ref"].rsplit("/", 1)[1]]
    return found


def test_every_refusal_is_declared_in_the_schema_with_its_body(tmp_path: Path) -> None:
    from server_helpers import bearer, create, server, tokens

    with server(f"sqlite:///{tmp_path / 'server.db'}") as client:
        openapi = client.get("/openapi.json").json()
        game = create(client)
        ann = bearer(tokens(game)[0])
        actions = f"/api/games/{game['id']}/actions"
        refusals = [
            ("get", "/api/games/{game_id}", client.get("/api/games/nope")),
            ("post", "/api/games/{game_id}/actions", client.post(actions, json={"action": 0, "expected_index": 0})),
            ("post", "/api/games/{game_id}/actions", client.post(actions, headers=ann,
                                                                 json={"action": 0, "expected_index": 9})),
            ("post", "/api/games/{game_id}/actions", client.post(actions, headers=ann,
                                                                 json={"action": "NOPE", "expected_index": 0})),
            ("post", "/api/games", client.post("/api/games", content=b"x" * 70_000,
                                               headers={"Content-Type": "application/json"})),
            ("get", "/api/games/{game_id}/record", client.get(f"/api/games/{game['id']}/record")),
        ]
    assert sorted({r.status_code for _, _, r in refusals}) == [403, 404, 409, 413, 422]
    for method, path, answer in refusals:
        schema = declared(openapi, method, path, answer.status_code)
        assert schema is not None, f"{method.upper()} {path}: {answer.status_code} is not declared"
        assert {"error", "message"} <= set(schema.get("required", [])), (path, answer.status_code, schema)
        assert {"error", "message"} <= set(answer.json())
