"""Ceres' printed components as a person reads them: what an Asteroid, a Tail token or a
Nucleus card's table depicts, where a Comet is, and what a TAIL takes.

Read off the content files and the seat's observation only (everything in Ceres is public
but the Nucleus cards in the box and the order of the Explosion Check cards), so the
terminal and the server describe an action alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ecliptic.ceres import belt
from ecliptic.ceres.comets import ROW, TAKEN_ON_LAUNCH
from ecliptic.ceres.content import TAIL_TYPES, Content, default_content

Obs = dict[str, Any]

TAIL_LABELS = {"Coma": "Coma", "Ion": "Ion", "Dust": "Dust Tail"}
BANNER = "The Comets expansion is played as written, on a stand-in for base Ceres, whose rules are not published."
"""What a player is told once, above the belt: the designers' detail (the rule ids CC-… of the
expansion, CR-… of the host game, docs/ceres.md) is on the rules page, which the page links
(``/rules#ceres:section:reconstruction``)."""


def content() -> Content:
    return default_content()


def amounts(resources: Mapping[str, int], vp: int = 0, *, short: bool = False) -> str:
    """What a component depicts: ``2 Ice, 1 Metal, 3 VP`` (``2Ice 1Met 3VP`` when short)."""
    if short:
        parts = [f"{n}{r[:3]}" for r, n in resources.items() if n] + ([f"{vp}VP"] if vp else [])
        return " ".join(parts) or "–"
    parts = [f"{n} {r}" for r, n in resources.items() if n] + ([f"{vp} VP"] if vp else [])
    return ", ".join(parts) or "nothing"


def asteroid_label(asteroid: str, *, short: bool = True) -> str:
    """The printed face of an Asteroid: what a claim gives and its income."""
    try:
        a = content().asteroid(asteroid)
    except KeyError:
        return asteroid
    gain = amounts(a.resources, a.vp, short=short)
    if not a.income:
        return gain
    return f"{gain} · income {amounts(a.income, short=short)}"


def tail_token_label(token: str, *, short: bool = True) -> str:
    try:
        t = content().tail_token(token)
    except KeyError:
        return token
    return f"{token} {amounts(t.resources, t.vp, short=short)}"


def nucleus_table_label(nucleus: str, table: int, *, short: bool = True) -> str:
    try:
        t = content().nucleus(nucleus).tables[table]
    except (KeyError, IndexError):
        return "?"
    return amounts(t.resources, t.vp, short=short)


def launch_cost(ring: str) -> int:
    return belt.ring_launch_cost(content(), ring)


def comet(obs: Obs, comet_id: str) -> Obs | None:
    for c in obs["comets"]:
        if c["id"] == comet_id:
            return dict(c)
    return None


def tail_row(obs: Obs, c: Obs, mode: str) -> int | None:
    """The row of the Tail token a ``TAIL`` takes: the round's type after a Launch (CC-ACT-5..7),
    the lowest row still holding a token when a probe stays (CC-PROD-7)."""
    if mode == "launch":
        kind = TAKEN_ON_LAUNCH.get(obs["round"])
        return None if kind is None else ROW[kind]
    for row in reversed(range(len(TAIL_TYPES))):
        if any(t[row] is not None for t in c["tails"]):
            return row
    return None


def table_note(obs: Obs, c: Obs, mode: str) -> str:
    """Round 3 adds the Nucleus table above the token: always after a Launch (CC-ACT-7) or on
    a Near-sun (CC-NEAR-1); on a Sungrazer only if the Explosion Check is Safe (CC-SUN-2)."""
    if obs["round"] != content().numbers.rounds:
        return ""
    if mode == "launch" or c["kind"] == "Near-sun":
        return "plus the Nucleus table above it"
    return "plus the Nucleus table above it if the Explosion Check is Safe"


def tail_taken(obs: Obs, tail: int) -> str | None:
    """The Tail token ``TAIL <tail + 1>`` takes in the pending ``tail`` decision, or ``None``."""
    data = (obs.get("decision") or {}).get("data") or {}
    c = comet(obs, data.get("comet", ""))
    if c is None or not 0 <= tail < len(c["tails"]):
        return None
    row = tail_row(obs, c, data.get("mode", "launch"))
    token = c["tails"][tail][row] if row is not None else None
    return None if token is None else str(token)


def tail_note(obs: Obs, tail: int) -> str:
    """What ``TAIL <tail + 1>`` takes in the pending ``tail`` decision, naming the Comet whose
    tail it is (the notation gives only the tail's number): ``T18 from Comet C1 · Dust Tail
    token: 1 Metal, 1 VP``."""
    data = obs["decision"]["data"]
    c = comet(obs, data.get("comet", ""))
    if c is None:
        return ""
    mode = data.get("mode", "launch")
    row = tail_row(obs, c, mode)
    token = c["tails"][tail][row] if row is not None else None
    if token is None:
        return ""
    t = content().tail_token(token)
    kind = TAIL_LABELS.get(t.tail, t.tail)
    note = f"{token} from Comet {c['id']} · {kind} token: {amounts(t.resources, t.vp)}"
    if table_note(obs, c, mode):
        note += f" + Nucleus table: {nucleus_table_label(c['nucleus'], tail, short=False)}"
        if mode == "stay" and c["kind"] == "Sungrazer":
            note += " if Safe"
    return note


def name_of(thing: str) -> tuple[str, str] | None:
    """``(name, text)`` of an Asteroid, Tail token, Nucleus card or Comet id, else ``None``."""
    c = content()
    try:
        a = c.asteroid(thing)
    except KeyError:
        pass
    else:
        income = f"; income each Production phase: {amounts(a.income)}" if a.income else ""
        return (f"Asteroid {thing} ({a.ring} Ring)",
                f"Launch here for {launch_cost(a.ring)} Ice (CR-ACT-2): gain {amounts(a.resources, a.vp)}{income}.")
    try:
        t = c.tail_token(thing)
    except KeyError:
        pass
    else:
        return f"{TAIL_LABELS.get(t.tail, t.tail)} token {thing}", f"Gives {amounts(t.resources, t.vp)} (CC-ACT-5)."
    try:
        n = c.nucleus(thing)
    except KeyError:
        pass
    else:
        tables = "; ".join(f"table {i + 1}: {amounts(t.resources, t.vp)}" for i, t in enumerate(n.tables))
        return f"{n.kind} Nucleus card {thing}", f"{tables} (CC-NEAR-1, CC-SUN-2)."
    if thing in ("C1", "C2"):
        side = "left" if thing == "C1" else "right"
        return (f"Comet {thing}", f"The Comet of the {side} Surface card: LAUNCH {thing} lands a Mining Probe on "
                "it for the Ice of its ring (CC-ACT-1); its probes take Tail tokens (CC-PROD-7).")
    return None
