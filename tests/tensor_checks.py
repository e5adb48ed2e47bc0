"""The check both games' tensor tests make: ``Encoder.tensor`` is ``encode(observe)``."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import numpy as np

from ecliptic.adapters.observation import Encoder, encoder
from ecliptic.engine.rng import Rng
from ecliptic.games import get_game


def states(game: str, config: dict[str, Any], seed: int) -> Iterator[Any]:
    """Every state of one random game, the last (over) one included."""
    g = get_game(game)
    s = g.new_game(config, seed)
    rng = random.Random(seed)
    yield s
    while not s.is_over:
        g.apply(s, rng.choice(g.legal_actions(s)))
        yield s


def seats_of(config: dict[str, Any]) -> list[int | None]:
    """Every seat of the config and the spectator."""
    return [*range(config["players"]), None]


def same_tensor(g: Any, enc: Encoder, s: Any, seats: list[int | None]) -> None:
    """For each seat (``None``: the spectator), the tensor of the state is, value for value and
    in float32, the tensor of its observation; a failure names the first indices that differ."""
    for seat in seats:
        expected = enc.encode(g.observe(s, seat))
        got = enc.tensor(s, seat)
        assert got.dtype == np.float32 and got.shape == expected.shape
        assert np.array_equal(got, expected), [enc.meaning(int(j)) for j in np.nonzero(got != expected)[0]][:5]


def tensor_along_a_game(game: str, config: dict[str, Any], seed: int, steps: int, every: int) -> None:
    """Along a random game (the encoder's store sees the states in order, as in play, and
    keeps what earlier calls left), every ``every``-th state: the seat to play's and one other
    seat's ``tensor`` equal ``encode(observe)``; at the end every seat's and the spectator's,
    also on the state read back from its JSON save, a determinization and a re-seeded copy."""
    g = get_game(game)
    enc = encoder(game, config)
    rng = random.Random(seed)
    s = g.new_game(config, seed)
    seats = seats_of(config)
    for i in range(steps):
        if s.is_over:
            break
        if i % every == 0:
            seat = s.current_player
            same_tensor(g, enc, s, [seat, (seat + i) % config["players"]])
        g.apply(s, rng.choice(g.legal_actions(s)))
    same_tensor(g, enc, s, seats)
    same_tensor(g, enc, g.from_json(json.loads(json.dumps(g.to_json(s)))), seats)  # read back
    if not s.is_over:
        seat = s.current_player
        same_tensor(g, enc, g.determinize(s, seat, Rng.from_seed(seed)), [seat, None])
        same_tensor(g, enc, g.reseed(s, Rng.from_seed(seed)), [seat])
