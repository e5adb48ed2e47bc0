"""The random bot: a uniformly random legal action. The baseline every other bot must beat,
and the fastest way to drive the engine through every rule it offers."""

from __future__ import annotations

from typing import Any

from ecliptic.bots.base import BotSpecError, register_bot
from ecliptic.engine.actions import Action
from ecliptic.engine.rng import Rng


class RandomBot:
    """Picks uniformly among ``game.legal_actions(state)`` with its own seeded generator.

    It looks at nothing else, so it is trivially fair; the same seed and the same game
    give the same choices."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = Rng.from_seed(seed)

    def choose(self, game: Any, state: Any, seat: int) -> Action:
        actions: list[Action] = game.legal_actions(state)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action to choose from (is the game over?)")
        return actions[self.rng.below(len(actions))]


def _make(option: str | None, seed: int) -> RandomBot:
    if option is not None:
        raise BotSpecError(f"the random bot takes no options (got 'random:{option}')")
    return RandomBot(seed)


register_bot("random", _make)
