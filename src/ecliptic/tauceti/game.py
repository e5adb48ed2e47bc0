"""Tau Ceti behind the engine contract: new_game, legal_actions, apply, observe, ..."""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any

from ecliptic.engine.actions import Action, ActionSpace
from ecliptic.engine.codec import DecodeError, decode, encode
from ecliptic.engine.errors import IllegalAction, SaveFileError
from ecliptic.engine.events import Event
from ecliptic.engine.rng import Rng

# Importing the rules modules registers their decision kinds and verbs.
from ecliptic.tauceti import (  # noqa: F401
    actions,
    checks,
    enlightenment,
    flow,
)
from ecliptic.tauceti.content import default_content
from ecliptic.tauceti.registry import KINDS
from ecliptic.tauceti.setup import new_state
from ecliptic.tauceti.state import Config, State

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


class TauCeti:
    """The rules of Tau Ceti: Planetary Crisis. Stateless; every method takes the state."""

    name = "tauceti"

    def new_game(self, config: Config | dict[str, Any] | None = None, seed: int = 0) -> State:
        state = new_state(make_config(config), seed)
        flow.advance(state, [])
        return state

    def legal_actions(self, state: State) -> list[Action]:
        if state.is_over or not state.stack:
            return []
        d = state.stack[-1]
        return sorted(set(KINDS[d.kind].legal(state, d)))

    def why_not(self, state: State, action: Action) -> IllegalAction | None:
        """``None`` if ``action`` is legal now, else the refusal naming the broken rule."""
        if state.is_over:
            return IllegalAction("TC-END-1", "the game is over")
        d = state.stack[-1]
        kind = KINDS[d.kind]
        reason = kind.why_not(state, d, action)
        if reason is None and not kind.offers(state, d, action):
            reason = IllegalAction("TC-ACT-3", f"{action} is not available now")
        return reason

    def apply(self, state: State, action: Action | str) -> list[Event]:
        """Apply a legal action and return its events; an illegal one raises and changes nothing."""
        if isinstance(action, str):
            action = Action.parse(action)
        reason = self.why_not(state, action)
        if reason is not None:
            raise reason
        d = state.stack[-1]
        ev: list[Event] = []
        KINDS[d.kind].perform(state, d, action, ev)
        flow.advance(state, ev)
        return ev

    def returns(self, state: State) -> list[float]:
        """1 shared among the winners at the end (a solo game: 1 for beating the target)."""
        out = [0.0] * len(state.players)
        if state.is_over and state.winners:
            for s in state.winners:
                out[s] = 1.0 / len(state.winners)
        return out

    def action_space(self, state: State | None = None) -> ActionSpace:
        return _action_space()

    def observe(self, state: State, player: int | None) -> dict[str, Any]:
        from ecliptic.tauceti.observation import observe

        return observe(state, player)

    def determinize(self, state: State, player: int, rng: Rng) -> State:
        from ecliptic.tauceti.observation import determinize

        return determinize(state, player, rng)

    def to_json(self, state: State) -> dict[str, Any]:
        return {"format": FORMAT, "version": FORMAT_VERSION, "state": encode(state)}

    def from_json(self, data: Any) -> State:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise SaveFileError("this is not a Tau Ceti save file")
        if data.get("version") != FORMAT_VERSION:
            raise SaveFileError(f"save file version {data.get('version')!r} is not supported "
                                f"(this Ecliptic reads version {FORMAT_VERSION})")
        try:
            return decode(State, data.get("state"))
        except DecodeError as exc:
            raise SaveFileError(f"the save file is corrupt at {exc}") from None


@cache
def _action_space() -> ActionSpace:
    content = default_content()
    return ActionSpace(a for kind in KINDS.values() for a in kind.domain(content))


def config_dict(config: Config) -> dict[str, Any]:
    return encode(dataclasses.asdict(config))  # type: ignore[no-any-return]
