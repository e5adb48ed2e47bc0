"""The board things an action is about, as target keys a client can click (docs/present.md).

Key grammar ``<kind>:<id>``, the ids exactly as the observation spells them: ``sector:05``,
``point:01.2``, ``cell:-3,1`` (an empty position of the table: PLACE, or GO into uncharted
space), ``system:<seat>:<system>``, ``card:S11``, ``crisis:X09``, ``commodity:algae``,
``knowledge:Cosmic``, ``gp:G04``, ``market:Industry``, ``player:<seat>``; Ceres'
``asteroid:A07``, ``comet:C1``, ``tail:<1|2|3>``, ``tail-token:T18`` (the token a TAIL takes).

The keys are read off the action's arguments and the seat's observation, never off the
state, so they name only what the seat already sees (and what the action itself names).
``select`` is ``"set"`` for an action that is the exact set of its targets (a SHIELD
choice: the client toggles systems and offers the one action whose targets equal them).
"""

from __future__ import annotations

import re
from typing import Any

from ecliptic.engine.actions import Action
from ecliptic.engine.content import content_cache
from ecliptic.present import ceres_components
from ecliptic.present.tauceti_components import CARD_ID, POINT_ID, content
from ecliptic.tauceti.battle import parse_shields

CELL = re.compile(r"^-?\d+,-?\d+$")
SEAT = re.compile(r"^P\d$")  # TRADE-K with another player
SET_VERBS = frozenset({"SHIELD"})


def select(game: str, action: Action) -> str:
    return "set" if game == "tauceti" and action.verb in SET_VERBS else "one"


def targets(game: str, obs: dict[str, Any], seat: int, action: Action) -> list[str]:
    """The target keys of ``seat``'s ``action`` (``[]`` when it has no place on the board)."""
    if game == "ceres":
        return _ceres(obs, action)
    return _tauceti(obs, seat, action)


def _tauceti(obs: dict[str, Any], seat: int, action: Action) -> list[str]:
    verb, args = action.verb, action.args
    if verb == "SHIELD":
        systems = content().systems
        return [f"system:{seat}:{systems[n - 1]}" for n in parse_shields(args[0]) or []] if args else []
    if verb == "BATTLE" and len(args) == 2:
        return [f"sector:{args[0]}", f"player:{args[1]}"]
    if verb == "TAKEOVER" or (verb == "STEAL" and args[:1] == ("cube",)):
        me = obs["players"][seat]
        return [f"sector:{me['battle_sector']}"] if me.get("battle_sector") else []
    if verb in ("MOV", "REF", "REP", "SELL") and not args:
        return [f"sector:{obs['players'][seat]['position']}"]
    out: list[str] = []
    for arg in args:
        key = _tauceti_key(seat, arg)
        if key is not None and key not in out:
            out.append(key)
    return out


@content_cache
def _tauceti_key(seat: int, arg: str) -> str | None:
    c = content()
    if CARD_ID.match(arg) or c.is_exotic(arg):
        return f"card:{arg}"
    if POINT_ID.match(arg):
        return f"point:{arg}"
    if CELL.match(arg):
        return f"cell:{arg}"
    if arg[:1] == "X" and arg[1:].isdigit():
        return f"crisis:{arg}"
    if arg[:1] == "G" and arg[1:].isdigit():
        return f"gp:{arg}"
    if SEAT.match(arg):
        return f"player:{arg.removeprefix('P')}"
    if arg in c.systems:
        return f"system:{seat}:{arg}"
    if arg in c.knowledge_types:
        return f"knowledge:{arg}"
    if arg in c.resources:
        return f"market:{arg}"
    if any(arg == x.name for x in c.commodities):
        return f"commodity:{arg}"
    try:
        c.tile(arg)
    except KeyError:
        return None
    return f"sector:{arg}"


def _ceres(obs: dict[str, Any], action: Action) -> list[str]:
    if action.verb == "STAY":
        d = obs.get("decision") or {}
        comet = d.get("data", {}).get("comet")
        return [f"comet:{comet}"] if comet else []
    if not action.args:
        return []
    arg = action.args[0]
    if action.verb == "TAIL":
        # the tail, and the token it takes (the one cell of the Comet card the action is about)
        token = ceres_components.tail_taken(obs, int(arg) - 1) if arg in ("1", "2", "3") else None
        return [f"tail:{arg}", *([f"tail-token:{token}"] if token else [])]
    if arg in obs["belt"]:
        return [f"asteroid:{arg}"]
    if any(c["id"] == arg for c in obs["comets"]):
        return [f"comet:{arg}"]
    return []
