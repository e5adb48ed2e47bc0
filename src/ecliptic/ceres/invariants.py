"""Conservation laws of the components, checked after every action in property tests and
when a save file is loaded.

Every Tail token, Nucleus card and Explosion Check card is in exactly one place; every
player's Mining Probes are in their supply, on an Asteroid or on a Surface card; nothing
is negative. :func:`problems` returns what is wrong in words (empty for a sound state).
"""

from __future__ import annotations

from typing import Any, Literal

from ecliptic.ceres.comets import SURFACE_CARDS
from ecliptic.ceres.content import TAIL_TYPES
from ecliptic.ceres.registry import KINDS
from ecliptic.ceres.state import State
from ecliptic.engine.invariants import decision_problems, exactly_once, seat_problems


def problems(state: State) -> list[str]:
    c = state.content
    out: list[str] = []
    seats = range(len(state.players))
    if len(state.players) != state.config.players or [p.seat for p in state.players] != list(seats):
        out.append("players do not match the config")
    for asteroid, seat in state.claims.items():
        if not c.is_asteroid(asteroid) or seat not in seats:
            out.append(f"claim {asteroid} -> {seat} is not an Asteroid and a seat")
    for seat in seats:
        p = state.players[seat]
        if p.probes < 0:
            out.append(f"Player {seat + 1} has {p.probes} Mining Probes")
        for resource, n in p.resources.items():
            if n < 0 or resource not in c.numbers.resources:
                out.append(f"Player {seat + 1} has {n} {resource}")
        if any(v < 0 for v in p.vp.values()):
            out.append(f"Player {seat + 1} has negative Victory Points")
        placed = sum(1 for s in state.claims.values() if s == seat)
        placed += sum(slot == seat for comet in state.comets for slot in comet.slots)
        if p.probes + placed != c.numbers.probes:
            out.append(f"Player {seat + 1}: {p.probes} + {placed} placed Mining Probes != {c.numbers.probes}")
    seat_problems("first_player", state.first_player, len(seats), out)
    seat_problems("turn_seat", state.turn_seat, len(seats), out)
    for i, seat in enumerate(state.winners):
        seat_problems(f"winners[{i}]", seat, len(seats), out)
    if state.phase not in ("setup", "over") and not 1 <= state.round <= c.numbers.rounds:
        out.append(f"round: {state.round} is not a round of the game (1-{c.numbers.rounds})")
    if (state.phase == "setup") != (state.round == 0):
        out.append(f"phase: {state.phase} in round {state.round} (the setup is round 0)")
    if sorted(state.rotation) != sorted(c.numbers.rings):
        out.append("rotation must name each ring")
    _decision_problems(state, out)
    if not state.is_over and not state.stack:
        out.append("no decision is pending before the end of the game")
    if not state.config.comets:
        if state.comets or state.nucleus_box or state.explosion_deck or state.removed_tails:
            out.append("Comets components in a game without the expansion")
        return out
    _comets_problems(state, out)
    return out


def _comets_problems(state: State, out: list[str]) -> None:
    c = state.content
    if [x.id for x in state.comets] != list(SURFACE_CARDS):
        out.append("the two Surface cards are C1 and C2")
        return
    tails = [t for comet in state.comets for tail in comet.tails for t in tail if t is not None]
    tails += [t for p in state.players for t in p.tail_tokens] + state.removed_tails
    exactly_once("Tail tokens", {t.id for t in c.tail_tokens}, tails, out)
    exactly_once("Nucleus cards", {n.id for n in c.nucleus_cards},
                  [x.nucleus for x in state.comets] + state.nucleus_box, out)
    exactly_once("Explosion Check cards", {e.id for e in c.explosion_checks}, state.explosion_deck, out)
    slots = c.surface.slots.get(len(state.players))
    known_nuclei = {n.id for n in c.nucleus_cards}
    known_tails = {t.id for t in c.tail_tokens}
    for comet in state.comets:
        if comet.nucleus not in known_nuclei or c.nucleus(comet.nucleus).kind != comet.kind:
            out.append(f"Comet {comet.id} does not show its Nucleus card's side")
        if len(comet.tails) != 3 or any(len(t) != 3 for t in comet.tails):
            out.append(f"Comet {comet.id} needs three tails of three rows")
        elif any(tok in known_tails and c.tail_token(tok).tail != TAIL_TYPES[row]
                 for tail in comet.tails for row, tok in enumerate(tail)):
            out.append(f"Comet {comet.id} has a Tail token in the wrong row")
        if len(comet.slots) != slots or len(comet.chosen) != slots:
            out.append(f"Comet {comet.id} needs {slots} slots")
        if any(s is not None and not 0 <= s < len(state.players) for s in comet.slots):
            out.append(f"Comet {comet.id} has a Mining Probe of no seat")
        if any(t is not None and not 0 <= t < 3 for t in comet.chosen):
            out.append(f"Comet {comet.id} remembers a tail that does not exist")
        if comet.zone not in (3, 4, 5) or (comet.ring is not None and comet.ring not in c.numbers.rings):
            out.append(f"Comet {comet.id} is in no valid Zone or ring")


DECISION_DATA: dict[str, dict[str, Any]] = {
    "turn": {},
    "comet_probe": {"comet": str, "slot": int},
    "tail": {"comet": str, "slot": int, "mode": Literal["stay", "launch"]},
}
"""The data each decision kind reads (:func:`ecliptic.engine.invariants.decision_problems`)."""


def _decision_problems(state: State, out: list[str]) -> None:
    """Pending decisions must be ones the rules modules can serve (a save file could lie)."""
    for d in decision_problems(state, KINDS, DECISION_DATA, out):
        if d.kind in ("comet_probe", "tail"):
            comet = state.comet(d.data["comet"])
            if comet is None or not 0 <= d.data["slot"] < len(comet.slots):
                out.append(f"decision {d.kind} names no Comet slot")
