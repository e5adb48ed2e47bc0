"""The Activation phase's turn: one Launch action or a pass (reconstruction, ``CR-ACT-...``).

``LAUNCH <Asteroid>`` pays Ice by the Asteroid's ring, places a Mining Probe from the
player's supply and claims the Asteroid; with the Comets expansion ``LAUNCH C1``/``C2``
lands on a Comet instead (:func:`ecliptic.ceres.comets.launch`). ``PASS`` ends the
player's Activation phase.
"""

from __future__ import annotations

from collections.abc import Iterable

from ecliptic.ceres import belt, comets
from ecliptic.ceres.content import Content
from ecliptic.ceres.registry import decision_kind, illegal, say
from ecliptic.ceres.state import Decision, State
from ecliptic.engine.actions import Action, act
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event


def _options(state: State, d: Decision) -> Iterable[Action]:
    yield act("PASS")
    for a in state.content.asteroids:
        if belt.available(state, a.id):
            yield act("LAUNCH", a.id)
    for comet in state.comets:
        if comet.in_belt:
            yield act("LAUNCH", comet.id)


def launch_why_not(state: State, seat: int, asteroid: str) -> IllegalAction | None:
    """Can ``seat`` Launch onto this Asteroid now? (CR-ACT-2..4.)"""
    if not belt.available(state, asteroid):
        return illegal("CR-ACT-4", f"Asteroid {asteroid} is not available: a Mining Probe is already on it")
    p = state.players[seat]
    if p.probes <= 0:
        return illegal("CR-ACT-3", "you have no Mining Probe left in your supply")
    ring = state.content.asteroid(asteroid).ring
    cost = belt.launch_cost(state, ring)
    if p.resources.get("Ice", 0) < cost:
        return illegal("CR-ACT-2", f"a Launch to the {ring} Ring costs {cost} Ice; you have "
                       f"{p.resources.get('Ice', 0)}")
    return None


def _why_not(state: State, d: Decision, action: Action) -> IllegalAction | None:
    if action.verb == "PASS":
        return None if not action.args else illegal("CR-ACT-1", "PASS takes no argument")
    if action.verb != "LAUNCH":
        return illegal("CR-ACT-1", "on your turn in the Activation phase: LAUNCH <Asteroid or Comet> or PASS")
    if len(action.args) != 1:
        return illegal("CR-ACT-1", "LAUNCH names one Asteroid or Comet, e.g. LAUNCH A07 or LAUNCH C1")
    target = action.args[0]
    if state.content.is_asteroid(target):
        return launch_why_not(state, d.player, target)
    if target in comets.SURFACE_CARDS:
        return comets.launch_why_not(state, d.player, target)
    return illegal("CR-ACT-1", f"there is no Asteroid or Comet {target}")


def _perform(state: State, d: Decision, action: Action, ev: list[Event]) -> None:
    seat = d.player
    state.stack.pop()
    if action.verb == "PASS":
        state.players[seat].passed = True
        say(ev, "pass", f"Player {seat + 1} passes.", seat=seat, rule="CR-ACT-6")
        return
    target = action.args[0]
    if not state.content.is_asteroid(target):
        comets.launch(state, seat, target, ev)
        return
    ring = state.content.asteroid(target).ring
    belt.pay_ice(state, seat, belt.launch_cost(state, ring), ev)
    state.players[seat].probes -= 1
    say(ev, "launch", f"Player {seat + 1} launches a Mining Probe to Asteroid {target} ({ring} Ring).",
        seat=seat, asteroid=target, rule="CR-ACT-3")
    belt.claim(state, seat, target, ev)


def _domain(content: Content) -> Iterable[Action]:
    yield act("PASS")
    for a in content.asteroids:
        yield act("LAUNCH", a.id)
    for c in comets.SURFACE_CARDS:
        yield act("LAUNCH", c)


decision_kind("turn", options=_options, why_not=_why_not, perform=_perform, domain=_domain)
