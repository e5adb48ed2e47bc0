"""Rounds and phases: each of the 3 rounds is an Asteroid Belt phase, a Production phase
and an Activation phase (CR-ROUND-1).

:func:`advance` runs every automatic step (rotating the rings, moving the Comets, income,
removing Tail tokens, Explosion Checks) until some player has a decision to make or the
game is over. With the Comets expansion the Production phase continues with the probes on
the Comets (phase ``comets``) before the Activation phase begins.
"""

from __future__ import annotations

from collections.abc import Callable

from ecliptic.ceres import belt, comets, scoring
from ecliptic.ceres.registry import say
from ecliptic.ceres.state import Decision, State
from ecliptic.engine.events import Event
from ecliptic.engine.rules import advance_until_decision


def advance(state: State, ev: list[Event]) -> None:
    """Run automatic steps until a decision is pending or the game is over."""
    advance_until_decision(state, ev, _STEPS)


def _start_round(state: State, ev: list[Event]) -> None:
    """A new round; after round 1 the first player passes clockwise (CR-ROUND-2)."""
    state.round += 1
    if state.round > 1:
        state.first_player = (state.first_player + 1) % len(state.players)
    for p in state.players:
        p.passed = False
    say(ev, "round", f"Round {state.round} begins; Player {state.first_player + 1} is the first player.",
        round=state.round, first_player=state.first_player, rule="CR-ROUND-1")
    state.phase = "belt"


def _asteroid_belt_phase(state: State, ev: list[Event]) -> None:
    say(ev, "phase", "Asteroid Belt phase.", phase="belt")
    belt.rotate(state, ev)
    if state.config.comets:
        comets.move_inward(state, ev)
    state.phase = "production"


def _production_phase(state: State, ev: list[Event]) -> None:
    """Ice income for everyone (CR-PROD-1), each claimed Asteroid's income to its owner
    (CR-PROD-2), then the Comets' Production (CC-PROD-1..8)."""
    say(ev, "phase", "Production phase.", phase="production")
    numbers = state.content.numbers
    for p in state.players:
        belt.gain(state, p.seat, {"Ice": numbers.ice_income}, 0, "income", "Ice income", ev)
    for asteroid, seat in sorted(state.claims.items()):
        a = state.content.asteroid(asteroid)
        belt.gain(state, seat, a.income, 0, "income", f"income of Asteroid {asteroid}", ev)
    if state.config.comets:
        comets.begin_production(state, ev)
        state.phase = "comets"
    else:
        _start_activation(state, ev)


def _start_activation(state: State, ev: list[Event]) -> None:
    state.phase = "activation"
    say(ev, "phase", "Activation phase.", phase="activation")
    state.turn_seat = state.first_player
    state.stack.append(Decision("turn", state.first_player))


def _next_turn(state: State, ev: list[Event]) -> None:
    """The next player clockwise who has not passed; when all have passed the round ends
    (CR-ACT-1, CR-ACT-6)."""
    n = len(state.players)
    for i in range(1, n + 1):
        seat = (state.turn_seat + i) % n
        if not state.players[seat].passed:
            state.turn_seat = seat
            state.stack.append(Decision("turn", seat))
            return
    if state.round >= state.content.numbers.rounds:
        scoring.finish(state, ev)
    else:
        _start_round(state, ev)


def _comets_step(state: State, ev: list[Event]) -> None:
    """The next Comet decision of the Production phase; when none is left, the Activation phase."""
    if not comets.production_step(state, ev):
        _start_activation(state, ev)


_STEPS: dict[str, Callable[[State, list[Event]], None]] = {
    "setup": _start_round,
    "belt": _asteroid_belt_phase,
    "production": _production_phase,
    "comets": _comets_step,
    "activation": _next_turn,
}
"""The automatic step of each phase (:func:`ecliptic.engine.rules.advance_until_decision`)."""
