"""The check both games' tensor tests make: ``Encoder.tensor`` is ``encode(observe)``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ecliptic.adapters.observation import Encoder


def same_tensor(g: Any, enc: Encoder, s: Any, seats: list[int | None]) -> None:
    """For each seat (``None``: the spectator), the tensor of the state is, value for value and
    in float32, the tensor of its observation; a failure names the first indices that differ."""
    for seat in seats:
        expected = enc.encode(g.observe(s, seat))
        got = enc.tensor(s, seat)
        assert got.dtype == np.float32 and got.shape == expected.shape
        assert np.array_equal(got, expected), [enc.meaning(int(j)) for j in np.nonzero(got != expected)[0]][:5]
