"""Random play under Hypothesis, checking the engine's invariants after every action.

Every counted component is in exactly one place; nothing goes negative; legal
actions are non-empty until the end; a state survives JSON; a clone is
independent of its original; the record replays to the identical state; every
game ends.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ecliptic.engine.record import GameRecord, replay, state_digest
from ecliptic.engine.rng import Rng
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.invariants import problems

GAME = TauCeti()
MAX_DECISIONS = 50_000


def _round_trip(state: object) -> None:
    data = GAME.to_json(state)  # type: ignore[arg-type]
    again = GAME.to_json(GAME.from_json(json.loads(json.dumps(data))))
    assert again == data


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(1, 4),
    length=st.sampled_from(["short", "full"]),
    layout=st.sampled_from(["random", "preset", "players"]),
)
def test_random_games_keep_every_invariant(seed: int, players: int, length: str, layout: str) -> None:
    config = {"players": players, "game": length, "layout": layout}
    state = GAME.new_game(config, seed)
    rng = Rng.from_seed(seed ^ 0x5EED)
    played: list[str] = []
    while not state.is_over:
        assert len(played) < MAX_DECISIONS, "the game did not end"
        legal = GAME.legal_actions(state)
        assert legal, "no legal action before the end"
        assert legal == sorted(legal)
        action = rng.choice(legal)
        if len(played) % 97 == 0:
            clone = state.clone()
            before = GAME.to_json(state)
            GAME.apply(clone, action)
            assert GAME.to_json(state) == before, "applying to a clone changed the original"
            _round_trip(state)
        GAME.apply(state, action)
        played.append(str(action))
        found = problems(state)
        assert not found, f"after {action}: {found}"
    assert GAME.legal_actions(state) == []
    _round_trip(state)
    record = GameRecord("tauceti", config, seed, played)
    assert state_digest(GAME, replay(record)) == state_digest(GAME, state)
