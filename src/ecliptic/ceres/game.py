"""Ceres (with the Comets expansion when chosen) behind the engine contract: new_game,
legal_actions, apply, observe, determinize, returns, action_space, to_json/from_json.

The method names are those of :class:`ecliptic.tauceti.game.TauCeti`, so the random bot,
the simulator and :func:`ecliptic.engine.record.replay` play Ceres unchanged.
"""

from __future__ import annotations

from functools import cache
from typing import Any

# Importing the rules modules registers their decision kinds.
from ecliptic.ceres import actions, comets  # noqa: F401
from ecliptic.ceres.content import default_content
from ecliptic.ceres.invariants import problems
from ecliptic.ceres.phases import advance
from ecliptic.ceres.registry import KINDS, illegal
from ecliptic.ceres.setup import new_state
from ecliptic.ceres.state import Config, State
from ecliptic.engine.actions import Action, ActionSpace
from ecliptic.engine.codec import DecodeError, decode, encode
from ecliptic.engine.errors import IllegalAction, SaveFileError
from ecliptic.engine.events import Event
from ecliptic.engine.rng import Rng

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


class Ceres:
    """The rules of Ceres (a reconstruction) and its Comets expansion. Stateless; every
    method takes the state."""

    name = "ceres"

    def new_game(self, config: Config | dict[str, Any] | None = None, seed: int = 0) -> State:
        ev: list[Event] = []
        state = new_state(make_config(config), seed, ev)
        advance(state, ev)
        return state

    def new_game_events(self, config: Config | dict[str, Any] | None = None,
                        seed: int = 0) -> tuple[State, list[Event]]:
        """Like :meth:`new_game`, also returning the setup's events (the revealed cards)."""
        ev: list[Event] = []
        state = new_state(make_config(config), seed, ev)
        advance(state, ev)
        return state, ev

    def legal_actions(self, state: State) -> list[Action]:
        if state.is_over or not state.stack:
            return []
        d = state.stack[-1]
        kind = KINDS[d.kind]
        return sorted({a for a in kind.options(state, d) if kind.why_not(state, d, a) is None})

    def why_not(self, state: State, action: Action) -> IllegalAction | None:
        """``None`` if ``action`` is legal now, else the refusal naming the broken rule."""
        if state.is_over or not state.stack:
            return illegal("CR-END-2", "the game is over")
        d = state.stack[-1]
        kind = KINDS[d.kind]
        reason = kind.why_not(state, d, action)
        if reason is None and action not in set(kind.options(state, d)):
            reason = illegal("CR-ACT-1", f"{action} is not available now")
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
        advance(state, ev)
        return ev

    def returns(self, state: State) -> list[float]:
        """1 shared among the winners at the end, 0 otherwise."""
        out = [0.0] * len(state.players)
        if state.is_over and state.winners:
            for s in state.winners:
                out[s] = 1.0 / len(state.winners)
        return out

    def action_space(self, state: State | None = None) -> ActionSpace:
        return _action_space()

    def observe(self, state: State, player: int | None) -> dict[str, Any]:
        from ecliptic.ceres.observation import observe

        return observe(state, player)

    def determinize(self, state: State, player: int, rng: Rng) -> State:
        from ecliptic.ceres.observation import determinize

        return determinize(state, player, rng)

    def to_json(self, state: State) -> dict[str, Any]:
        return {"format": FORMAT, "version": FORMAT_VERSION, "state": encode(state)}

    def from_json(self, data: Any) -> State:
        """A state from a save; :class:`SaveFileError` if it is foreign, of another version,
        does not match the schema, or breaks a conservation law of the components."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise SaveFileError("this is not a Ceres save file")
        if data.get("version") != FORMAT_VERSION:
            raise SaveFileError(f"save file version {data.get('version')!r} is not supported "
                                f"(this Ecliptic reads version {FORMAT_VERSION})")
        try:
            state = decode(State, data.get("state"))
        except DecodeError as exc:
            raise SaveFileError(f"the save file is corrupt at {exc}") from None
        try:
            found = problems(state)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            found = [f"{type(exc).__name__}: {exc}"]
        if found:
            raise SaveFileError(f"the save file is corrupt: {'; '.join(found)}")
        return state


@cache
def _action_space() -> ActionSpace:
    content = default_content()
    return ActionSpace(a for kind in KINDS.values() for a in kind.domain(content))
