"""Tau Ceti behind the engine contract: new_game, legal_actions, apply, observe, ..."""

from __future__ import annotations

import dataclasses
from typing import Any

from ecliptic.engine.actions import Action
from ecliptic.engine.codec import encode
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.engine.rng import Rng
from ecliptic.engine.rules import RulesGame

# Importing the rules modules registers their decision kinds and verbs.
from ecliptic.tauceti import (  # noqa: F401
    actions,
    checks,
    enlightenment,
    flow,
)
from ecliptic.tauceti.content import Content, default_content
from ecliptic.tauceti.invariants import problems
from ecliptic.tauceti.registry import KINDS
from ecliptic.tauceti.setup import new_state
from ecliptic.tauceti.state import Config, Decision, State

FORMAT = "ecliptic.tauceti.state"
FORMAT_VERSION = 1


def make_config(config: Config | dict[str, Any] | None) -> Config:
    if config is None:
        return Config()
    if isinstance(config, Config):
        return config
    data = dict(config)
    data.pop("game_name", None)
    for key in ("factions", "advanced"):
        if key in data:
            data[key] = tuple(data[key])
    try:
        return Config(**data)
    except TypeError as exc:
        raise ValueError(f"bad game config: {exc}") from None


class TauCeti(RulesGame[State, Decision, Content]):
    """The rules of Tau Ceti: Planetary Crisis. Stateless; every method takes the state."""

    name = "tauceti"
    title = "Tau Ceti"
    state_type = State
    state_format = FORMAT
    format_version = FORMAT_VERSION
    kinds = KINDS

    def _setup(self, config: Config | dict[str, Any] | None, seed: int, ev: list[Event]) -> State:
        return new_state(make_config(config), seed)

    def _advance(self, state: State, ev: list[Event]) -> None:
        flow.advance(state, ev)

    def _content(self) -> Content:
        return default_content()

    def _game_over(self) -> IllegalAction:
        return IllegalAction("TC-END-1", "the game is over")

    def _not_offered(self, action: Action) -> IllegalAction:
        return IllegalAction("TC-ACT-3", f"{action} is not available now")

    def _problems(self, state: State) -> list[str]:
        return problems(state)

    def observe(self, state: State, player: int | None) -> dict[str, Any]:
        from ecliptic.tauceti.observation import observe

        return observe(state, player)

    def determinize(self, state: State, player: int, rng: Rng) -> State:
        from ecliptic.tauceti.observation import determinize

        return determinize(state, player, rng)


def config_dict(config: Config) -> dict[str, Any]:
    return encode(dataclasses.asdict(config))  # type: ignore[no-any-return]
