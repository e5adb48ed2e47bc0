"""Ceres (with the Comets expansion when chosen) behind the engine contract: new_game,
legal_actions, apply, observe, determinize, returns, action_space, to_json/from_json.

The method names are those of :class:`ecliptic.tauceti.game.TauCeti`, so the random bot,
the simulator and :func:`ecliptic.engine.record.replay` play Ceres unchanged.
"""

from __future__ import annotations

from typing import Any

# Importing the rules modules registers their decision kinds.
from ecliptic.ceres import actions, comets  # noqa: F401
from ecliptic.ceres.content import Content, default_content
from ecliptic.ceres.invariants import problems
from ecliptic.ceres.phases import advance
from ecliptic.ceres.registry import KINDS, illegal
from ecliptic.ceres.setup import new_state
from ecliptic.ceres.state import Config, Decision, State
from ecliptic.engine.actions import Action
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.engine.rng import Rng
from ecliptic.engine.rules import RulesGame

FORMAT = "ecliptic.ceres.state"
FORMAT_VERSION = 1


def make_config(config: Config | dict[str, Any] | None) -> Config:
    """A :class:`Config` from a config table (``{"players": 3, "expansions": ["comets"]}``)."""
    if config is None:
        return Config()
    if isinstance(config, Config):
        return config
    data = dict(config)
    data.pop("game_name", None)
    if "expansions" in data:
        if isinstance(data["expansions"], str) or not isinstance(data["expansions"], list | tuple):
            raise ValueError("bad game config: expansions is a list, e.g. [\"comets\"]")
        data["expansions"] = tuple(data["expansions"])
    try:
        return Config(**data)
    except TypeError as exc:
        raise ValueError(f"bad game config: {exc}") from None


class Ceres(RulesGame[State, Decision, Content]):
    """The rules of Ceres (a reconstruction) and its Comets expansion. Stateless; every
    method takes the state."""

    name = "ceres"
    title = "Ceres"
    state_type = State
    state_format = FORMAT
    format_version = FORMAT_VERSION
    kinds = KINDS

    def _setup(self, config: Config | dict[str, Any] | None, seed: int, ev: list[Event]) -> State:
        return new_state(make_config(config), seed, ev)

    def _advance(self, state: State, ev: list[Event]) -> None:
        advance(state, ev)

    def _content(self) -> Content:
        return default_content()

    def _game_over(self) -> IllegalAction:
        return illegal("CR-END-2", "the game is over")

    def _not_offered(self, action: Action) -> IllegalAction:
        return illegal("CR-ACT-1", f"{action} is not available now")

    def _problems(self, state: State) -> list[str]:
        return problems(state)

    def observe(self, state: State, player: int | None) -> dict[str, Any]:
        from ecliptic.ceres.observation import observe

        return observe(state, player)

    def determinize(self, state: State, player: int, rng: Rng) -> State:
        from ecliptic.ceres.observation import determinize

        return determinize(state, player, rng)
