"""The engine contract every game implements (see DESIGN.md).

Bots, the CLI, the simulator and the adapters only ever talk to a game
through this protocol, so a bot written for Tau Ceti also plays Ceres.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from ecliptic.engine.actions import Action, ActionSpace
from ecliptic.engine.events import Event
from ecliptic.engine.rng import Rng

S = TypeVar("S", bound="GameState")


class GameState(Protocol):
    """What every game state offers."""

    rng: Rng

    @property
    def current_player(self) -> int | None:
        """The seat whose decision is pending, or ``None`` when the game is over."""

    @property
    def is_over(self) -> bool: ...

    def clone(self: S) -> S: ...


class Game(Protocol[S]):
    """A game's rules: pure functions of a state."""

    name: str

    def new_game(self, config: dict[str, Any], seed: int) -> S: ...

    def legal_actions(self, state: S) -> list[Action]: ...

    def apply(self, state: S, action: Action) -> list[Event]: ...

    def observe(self, state: S, player: int | None) -> dict[str, Any]: ...

    def determinize(self, state: S, player: int, rng: Rng) -> S: ...

    def returns(self, state: S) -> list[float]: ...

    def action_space(self, state: S) -> ActionSpace: ...

    def to_json(self, state: S) -> dict[str, Any]: ...

    def from_json(self, data: dict[str, Any]) -> S: ...
