"""Tau Ceti behind the engine contract: new_game, legal_actions, apply, observe, ..."""

from __future__ import annotations

import dataclasses
from typing import Any

from ecliptic.engine.actions import Action
from ecliptic.engine.codec import encode
from ecliptic.engine.events import Event
from ecliptic.engine.rng import Rng
from ecliptic.engine.rules import RulesGame, build_config, seat_of

# Importing the rules modules registers their decision kinds and verbs.
from ecliptic.tauceti import (  # noqa: F401
    actions,
    checks,
    enlightenment,
    flow,
    scoring,
)
from ecliptic.tauceti.battle import canonical_shields
from ecliptic.tauceti.content import SLOT, Content, default_content
from ecliptic.tauceti.invariants import problems
from ecliptic.tauceti.registry import KINDS, say
from ecliptic.tauceti.setup import new_state
from ecliptic.tauceti.state import Config, Decision, State

FORMAT = "ecliptic.tauceti.state"
FORMAT_VERSION = 1

DECISIONS_PER_SEAT_AND_ROUND = 40
"""The allowance of decisions per seat and round behind :meth:`TauCeti.max_decisions`: random
play takes about 7 (the longest random game issue 18 reports, 510 decisions, is under 11 even
as a 4-player 12-round game), a person who trades and plays cards a lot perhaps twice that."""


def make_config(config: Config | dict[str, Any] | None) -> Config:
    """A :class:`Config` from a config table (``{"players": 2, "factions": ["Xunon", "Azars"]}``)."""
    return build_config(Config, config)


def _decision_limit(config: Config) -> int:
    """:meth:`TauCeti.max_decisions` of a config: ``apply`` asks for it after every decision, so
    it reads the one immutable content directly (hashing the config for a cache costs more)."""
    numbers = State.content.numbers
    rounds = numbers.short_game_rounds if config.game == "short" else numbers.longest_game_rounds
    return rounds * config.players * DECISIONS_PER_SEAT_AND_ROUND


class TauCeti(RulesGame[State, Decision, Content]):
    """The rules of Tau Ceti: Planetary Crisis. Stateless; every method takes the state."""

    name = "tauceti"
    title = "Tau Ceti"
    config_type = Config
    state_type = State
    state_format = FORMAT
    format_version = FORMAT_VERSION
    kinds = KINDS
    action_ids_package = "ecliptic.tauceti.content"
    content_slot = SLOT
    game_over_rule = "TC-END-1"
    not_offered_rule = "TC-ACT-3"

    def _canonical(self, action: Action) -> Action:
        """Shields may be named in any order (``SHIELD 4,1,3`` is ``SHIELD 1,3,4``)."""
        return action if action.verb != "SHIELD" else canonical_shields(action)

    def _setup(self, config: Config, seed: int, ev: list[Event]) -> State:
        return new_state(config, seed)

    _advance = staticmethod(flow.advance)  # (not a method calling it: one call less per decision)

    def _problems(self, state: State) -> list[str]:
        return problems(state)

    def apply(self, state: State, action: Action | str) -> list[Event]:
        """The contract's ``apply``, and the decision limit: when the ``max_decisions``-th
        decision has been taken and the game is not over, it ends there and is scored as at the
        end of the last round (docs/rules-decisions.md, "Decision limit")."""
        ev = RulesGame.apply(self, state, action)  # (super() builds an object per call)
        state.decisions_made += 1
        limit = _decision_limit(state.config)
        if state.decisions_made >= limit and not state.is_over:
            say(ev, "decision_limit", f"The game has lasted {limit} decisions, the most it may: "
                "it ends now.", decisions=limit)
            scoring.finish(state, ev)
        return ev

    def max_decisions(self, config: Config | dict[str, Any] | None = None) -> int:
        """The most decisions a game of this config takes, enforced, not derived.

        Rounds are bounded (the short game 8, the full game at most 12) and so are the Major
        actions (4 Action markers a round), but "Minor actions ... are unlimited" and several
        of them, follow-up decisions included (trade offers, re-rolls, damage allocation),
        can be repeated as long as resources that other actions replenish last, so no count
        of the rules gives a bound that can be checked. :meth:`apply` therefore ends the game
        at ``rounds x players x DECISIONS_PER_SEAT_AND_ROUND`` decisions (setup placements
        included): 3.5-4.3 times the longest of 100 random games of each config, so no game
        seen meets it, and an agent that only trades cannot keep the game going for ever."""
        return _decision_limit(make_config(config))

    def _solo(self) -> str:
        target = default_content().numbers.solo_target_gp
        return f"1 when the player ends with {target} GP or more (numbers.solo_target_gp), else 0"

    def points_so_far(self, state: State, seat: int) -> int:
        """The GP ``seat`` has counted so far on the true state (its hand included), by the
        engine's end-of-game scoring (:func:`ecliptic.tauceti.scoring.score`, which
        ``present.score`` also runs for the running score): a dense per-step signal, for
        instance its change as a reward. Once the game is over it is the final total."""
        s = seat_of(state, seat, spectator=False)
        assert s is not None
        return scoring.score(state, s)["total"]

    def public_points(self, state: State, seat: int) -> int:
        """The GP of ``seat`` that every seat can count: its public facts only (face-up
        cards, TAU, orbitals, cubes, GP tokens), its hand left out while the game runs, and
        the final total once the game is over (the hands are then shown). A reward read by
        every seat (PettingZoo's ``rewards``) built from :meth:`points_so_far` would tell a
        rival the GP of the cards in ``seat``'s hand; this one tells nothing ``observe``
        hides, and its changes over a game still add up to the final total less the start."""
        s = seat_of(state, seat, spectator=False)
        assert s is not None
        return scoring.score(state, s, hand_seen=bool(state.is_over))["total"]

    def observe(self, state: State, player: int | None) -> dict[str, Any]:
        from ecliptic.tauceti.observation import observe

        return observe(state, player)

    def determinize(self, state: State, player: int, rng: Rng) -> State:
        from ecliptic.tauceti.observation import determinize

        return determinize(state, player, rng)

    def reseed(self, state: State, rng: Rng) -> State:
        from ecliptic.tauceti.observation import reseed

        return reseed(state, rng)


def config_dict(config: Config) -> dict[str, Any]:
    return encode(dataclasses.asdict(config))  # type: ignore[no-any-return]
