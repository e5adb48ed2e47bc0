"""The policy that ``reinforce_gymnasium.py --save PATH`` trained, as an Ecliptic bot: a plug-in
(docs/bots.md, "Your own bot") that registers the bot ``reinforce``, whose option is the weights
file. It plays wherever a bot plays, e.g.

    ecliptic simulate --game ceres --players 2 --games 100 \\
        --plugin examples/reinforce_bot.py:register --bots reinforce:weights.npz

The bot is the trained policy played greedily: the legal id of the highest logit
``W @ (x * scale) + b``, ``x`` the seat's observation tensor (built from ``observe`` only, by
:class:`ecliptic.adapters.policy.PolicyBot`) and the mask its legal ids. The game and config must
be the ones it was trained on (the tensor's length and the action space say so; another is
refused in one line).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ecliptic.adapters.policy import Policy, register_policy

NAME = "reinforce"


class GreedyLinear:
    """``argmax`` over the mask's ids of the linear policy's logits."""

    def __init__(self, W: NDArray[Any], b: NDArray[Any], scale: NDArray[Any], where: str) -> None:
        self.W, self.b, self.scale, self.where = W.astype(np.float64), b.astype(np.float64), scale, where

    def __call__(self, tensor: NDArray[np.float32], mask: NDArray[np.int8]) -> int:
        if tensor.shape[0] != self.W.shape[1] or mask.shape[0] != self.W.shape[0]:
            raise ValueError(f"{self.where} was trained on observations of {self.W.shape[1]} values and "
                             f"{self.W.shape[0]} action ids, this game has {tensor.shape[0]} and {mask.shape[0]}: "
                             "play it on the game and config it was trained on")
        logits = self.W @ (np.asarray(tensor, np.float64) * self.scale) + self.b
        return int(np.argmax(np.where(mask.astype(bool), logits, -np.inf)))


def load(path: str | None, _seed: int = 0) -> Policy:
    """The greedy policy of the weights file ``path`` (``W``, ``b``, ``scale``, as ``--save``
    writes them); a missing or foreign file is a ``ValueError`` saying which. Read once per
    process: the server builds its bots anew for every decision."""
    if not path:
        raise ValueError(f"name the weights file: --bots {NAME}:PATH.npz")
    return _load(path)


@functools.lru_cache(maxsize=8)
def _load(path: str) -> Policy:
    file = Path(path)
    if not file.is_file():
        raise ValueError(f"there is no weights file {path!r}")
    try:
        with np.load(file) as data:
            W, b, scale = data["W"], data["b"], data["scale"]
    except (OSError, KeyError, ValueError) as exc:
        raise ValueError(f"{path!r} is not a weights file of reinforce_gymnasium.py --save ({exc})") from None
    return GreedyLinear(W, b, scale, repr(path))


def register() -> None:
    """The plug-in's entry point: ``--plugin examples/reinforce_bot.py:register``."""
    register_policy(NAME, load)
