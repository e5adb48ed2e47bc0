"""Tau Ceti behind the engine contract: new_game, legal_actions, apply, observe, ..."""

from __future__ import annotations

import dataclasses
from typing import Any

from ecliptic.engine.actions import Action
from ecliptic.engine.codec import encode
from ecliptic.engine.events import Event
from ecliptic.engine.rng import Rng
from ecliptic.engine.rules import RulesGame, build_config

# Importing the rules modules registers their decision kinds and verbs.
from ecliptic.tauceti import (  # noqa: F401
    actions,
    checks,
    enlightenment,
    flow,
)
from ecliptic.tauceti.battle import canonical_shields
from ecliptic.tauceti.content import Content, default_content
from ecliptic.tauceti.invariants import problems
from ecliptic.tauceti.registry import KINDS
from ecliptic.tauceti.setup import new_state
from ecliptic.tauceti.state import Config, Decision, State

FORMAT = "ecliptic.tauceti.state"
FORMAT_VERSION = 1


def make_config(config: Config | dict[str, Any] | None) -> Config:
    """A :class:`Config` from a config table (``{"players": 2, "factions": ["Xunon", "Azars"]}``)."""
    return build_config(Config, config)


class TauCeti(RulesGame[State, Decision, Content]):
    """The rules of Tau Ceti: Planetary Crisis. Stateless; every method takes the state."""

    name = "tauceti"
    title = "Tau Ceti"
    config_type = Config
    state_type = State
    state_format = FORMAT
    format_version = FORMAT_VERSION
    kinds = KINDS
    game_over_rule = "TC-END-1"
    not_offered_rule = "TC-ACT-3"

    def _canonical(self, action: Action) -> Action:
        """Shields may be named in any order (``SHIELD 4,1,3`` is ``SHIELD 1,3,4``)."""
        return canonical_shields(action)

    def _setup(self, config: Config, seed: int, ev: list[Event]) -> State:
        return new_state(config, seed)

    def _advance(self, state: State, ev: list[Event]) -> None:
        flow.advance(state, ev)

    def _content(self) -> Content:
        return default_content()

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
