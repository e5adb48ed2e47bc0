"""Ceres (with the Comets expansion when chosen) behind the engine contract: new_game,
legal_actions, apply, observe, determinize, returns, action_space, to_json/from_json.

The method names are those of :class:`ecliptic.tauceti.game.TauCeti`, so the random bot,
the simulator and :func:`ecliptic.engine.record.replay` play Ceres unchanged.
"""

from __future__ import annotations

from typing import Any

# Importing the rules modules registers their decision kinds.
from ecliptic.ceres import actions, comets, scoring  # noqa: F401
from ecliptic.ceres.content import SLOT, Content, default_content
from ecliptic.ceres.invariants import problems
from ecliptic.ceres.phases import advance
from ecliptic.ceres.registry import KINDS
from ecliptic.ceres.setup import new_state
from ecliptic.ceres.state import Config, Decision, State
from ecliptic.engine.events import Event
from ecliptic.engine.rng import Rng
from ecliptic.engine.rules import RulesGame, build_config, seat_of

FORMAT = "ecliptic.ceres.state"
FORMAT_VERSION = 1


def make_config(config: Config | dict[str, Any] | None) -> Config:
    """A :class:`Config` from a config table (``{"players": 3, "expansions": ["comets"]}``)."""
    return build_config(Config, config)


class Ceres(RulesGame[State, Decision, Content]):
    """The rules of Ceres (a reconstruction) and its Comets expansion. Stateless; every
    method takes the state."""

    name = "ceres"
    title = "Ceres"
    config_type = Config
    state_type = State
    state_format = FORMAT
    format_version = FORMAT_VERSION
    kinds = KINDS
    action_ids_package = "ecliptic.ceres.content"
    content_slot = SLOT
    game_over_rule = "CR-END-2"
    not_offered_rule = "CR-ACT-1"

    def _setup(self, config: Config, seed: int, ev: list[Event]) -> State:
        return new_state(config, seed, ev)

    def _advance(self, state: State, ev: list[Event]) -> None:
        advance(state, ev)

    def _problems(self, state: State) -> list[str]:
        return problems(state)

    def max_decisions(self, config: Config | dict[str, Any] | None = None) -> int:
        """The most decisions a game of this config can take, derived from the rules.

        A player's Activation turn is a ``PASS`` (once per round: CR-ACT-6, a player who passes
        takes no more turns) or a ``LAUNCH``, which spends a Mining Probe from the supply for
        good (no rule returns one), so over the game a seat takes at most ``rounds`` passes and
        ``probes`` Launches, each Launch onto a Comet followed by at most one ``TAIL``
        decision. With the Comets, each round's Production phase asks each probe on a Surface
        card slot one ``comet_probe`` decision and at most one ``TAIL``: at most 2 x the slots
        of the Comets a round. Nothing else asks a player anything."""
        c = make_config(config)
        content = default_content()
        rounds, probes = content.numbers.rounds, content.numbers.probes
        bound = c.players * (rounds + 2 * probes)
        if c.comets:
            bound += rounds * 2 * len(comets.SURFACE_CARDS) * content.surface.slots[c.players]
        return bound

    def _solo(self) -> str:
        return ("always 1: the player has the most Victory Points (the reconstruction has no solo "
                "target)")

    def points_so_far(self, state: State, seat: int) -> int:
        """The Victory Points ``seat`` has counted so far (all public, gained during play), by
        the engine's scoring (:func:`ecliptic.ceres.scoring.score`, whose totals the observation
        and ``present.score`` show): a dense per-step signal."""
        s = seat_of(state, seat, spectator=False)
        assert s is not None
        return scoring.score(state, s)["total"]

    def public_points(self, state: State, seat: int) -> int:
        """The Victory Points of ``seat`` every seat can count: all of Ceres' VP are public,
        so they are :meth:`points_so_far`."""
        return self.points_so_far(state, seat)

    def observe(self, state: State, player: int | None) -> dict[str, Any]:
        from ecliptic.ceres.observation import observe

        return observe(state, player)

    def determinize(self, state: State, player: int, rng: Rng) -> State:
        from ecliptic.ceres.observation import determinize

        return determinize(state, player, rng)

    def reseed(self, state: State, rng: Rng) -> State:
        from ecliptic.ceres.observation import reseed

        return reseed(state, rng)
