"""The engine contract every game implements (see DESIGN.md).

Bots, the CLI, the simulator and the adapters only ever talk to a game
through this protocol, so a bot written for Tau Ceti also plays Ceres.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from ecliptic.engine.actions import Action, ActionSpace
from ecliptic.engine.events import Event
from ecliptic.engine.rng import Rng
from ecliptic.engine.rules import Utility

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

    def observe(self, state: S, player: int | None) -> dict[str, Any]:
        """What ``player`` may see; ``None`` is a spectator. A seat not in the game (7 in a
        2-player game, -1, ``True``, ``"0"``) raises :class:`ecliptic.engine.errors.SeatError`."""

    def determinize(self, state: S, player: int, rng: Rng) -> S:
        """A copy with what ``player`` cannot see re-dealt; a bad seat (``None`` too) raises
        :class:`ecliptic.engine.errors.SeatError`."""

    def reseed(self, state: S, rng: Rng) -> S:
        """A copy with the same past and everything dealt, but the future chance (the dice
        generator, the order of every undrawn pile) re-drawn from ``rng`` alone, so a search on
        the copy cannot foretell the dice or the draws; every seat observes it as ``state``."""

    def returns(self, state: S) -> list[float]: ...

    def utility(self, config: Any = None) -> Utility:
        """What :meth:`returns` means for a game of this config (kind, range, sum, ties, solo)."""

    def max_decisions(self, config: Any = None) -> int:
        """A bound the engine guarantees on the decisions (applied actions) of a whole game."""

    def points_so_far(self, state: S, seat: int) -> int:
        """The points (GP, VP) ``seat`` has counted so far on the true state: a dense signal."""

    def public_points(self, state: S, seat: int) -> int:
        """The points of ``seat`` every seat can count (hidden cards left out, the final
        total once the game is over): a dense signal that may be shown to every seat."""

    def action_space(self, state: S) -> ActionSpace: ...

    def to_json(self, state: S) -> dict[str, Any]: ...

    def from_json(self, data: dict[str, Any]) -> S: ...
