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
