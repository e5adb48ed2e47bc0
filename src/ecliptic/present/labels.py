"""A human label for each legal action, the same in the terminal and the browser.

The label is the action's notation followed by what its ids stand for, read off the printed
components and the seat's observation (a card's face, a tile's name, the Asteroid a LAUNCH
reaches and the Ice it costs): ``GO 05 (Tau Ceti Prime)``. The terminal menus
(:mod:`ecliptic.ui.terminal`, :mod:`ecliptic.ui.ceres_terminal`) and the server's view both
ask :func:`note`, so the two front ends never describe an action differently.
"""

from __future__ import annotations

from typing import Any

from ecliptic.engine.actions import Action
from ecliptic.present import ceres_components as cc
from ecliptic.present.tauceti_components import CARD_ID, card_label, commodity_label, tile_name
from ecliptic.tauceti.actions.minor import DEPOT, K3
from ecliptic.tauceti.board import neighbour_cells, parse_cell


def crisis_note(obs: dict[str, Any], token: str) -> str:
    """A Crisis token on the map as the table shows it: its type, the resource, the planet."""
    for planet, crises in obs.get("planet_crises", {}).items():
        for c in crises:
            if c["id"] == token:
                return f"{c['crisis_type']} crisis ({c['resource']}) on {tile_name(planet)}"
    return ""


def seat_name(obs: dict[str, Any], arg: str) -> str:
    """The faction of the seat a BATTLE (``1``) or a TRADE-K (``P1``) names, or ``""``."""
    number = arg.removeprefix("P")
    players = obs.get("players", [])
    if not number.isdigit() or int(number) >= len(players):
        return ""
    return str(players[int(number)]["faction"])


def _seat_note(obs: dict[str, Any], arg: str, verb: str) -> str:
    """The player a BATTLE is against or a TRADE-K offered to."""
    name = seat_name(obs, arg)
    return f"{'against' if verb == 'BATTLE' else 'with'} {name}" if name else ""


def cell_note(obs: dict[str, Any], arg: str, verb: str) -> str:
    """An empty position of the table (``q,r``) by the tiles around it, as a player finds it on
    the board: ``uncharted space beside Sector 05, XUNO``. Only the observation's layout is
    read (the positions around a cell are the board's). A position that holds a tile (a
    candidate the rules refuse: "a tile already lies at …") is named by that tile."""
    cell = parse_cell(arg)
    if cell is None:
        return ""
    at = {(pos[0], pos[1]): tile for tile, pos in obs.get("layout", {}).items()}
    if cell in at:  # (a refused candidate: the position holds a tile, so it is no empty space)
        return f"where {tile_name(at[cell])} lies"
    beside = [at[near] for near in neighbour_cells(cell) if near in at]
    what = "uncharted space" if verb == "GO" else "an empty position"
    if not beside:
        return what
    names = [tile_name(t) for t in sorted(beside)]
    shown = ", ".join(names[:2]) + (f" and {len(names) - 2} more" if len(names) > 2 else "")
    return f"{what} beside {shown}"


def tauceti_note(action: Action, obs: dict[str, Any] | None = None) -> str:
    """What a Tau Ceti action's ids stand for, when the id alone says little: a card's face, a
    tile's name, a Crisis token's type and planet, the player it is against, a commodity's name
    (the notation's ``octo`` is octo-nanofluid)."""
    notes = []
    obs = obs or {}
    for i, arg in enumerate(action.args):
        if arg[:1] == "X" and arg[1:].isdigit():
            crisis = crisis_note(obs, arg)
            if crisis:
                notes.append(crisis)
        elif (action.verb == "BATTLE" and i == 1) or (action.verb == "TRADE-K" and arg[:1] == "P"):
            seat = _seat_note(obs, arg, action.verb)
            if seat:
                notes.append(seat)
        elif action.verb in ("GO", "PLACE") and "," in arg:
            notes.append(cell_note(obs, arg, action.verb))
        elif action.verb == "RESOLVE" and arg == K3:
            notes.append("with 3 Knowledge tokens")
        elif action.verb == "TRADE-K" and arg == DEPOT:
            notes.append("with the Galactic Depot")
        elif commodity_label(arg) != arg:
            notes.append(commodity_label(arg))  # "octo" is the notation's short name of octo-nanofluid
        elif CARD_ID.match(arg) and arg[0] in "CSM":
            label = card_label(arg)
            if label != arg:
                notes.append(label.removeprefix(arg + " "))
        else:
            name = tile_name(arg)
            if name not in (arg, f"Sector {arg}") and name.upper() != arg:
                notes.append(name)
    return ", ".join(notes)


def ceres_note(obs: dict[str, Any], action: Action) -> str:
    """What a Ceres action would give, read off the printed components, in words (a label is
    read, not fitted on the belt as the board's ``1Ice 1VP`` is): the Asteroid's face and the
    Ice it costs, the Comet's place, the Comet and Tail token (and Nucleus table) a TAIL takes."""
    if action.verb == "PASS":
        return "no more turns this round"
    if action.verb == "STAY":
        return "take a Tail token"
    if not action.args:
        return ""
    arg = action.args[0]
    # (What a LAUNCH costs is the row's cost, the engine's: "1 Ice, 1 Mining Probe". The label
    # said "pay 1 Ice" beside it, the same Ice twice and the probe not at all.)
    if action.verb in ("LAUNCH", "JUMP") and arg in obs["belt"]:
        where = obs["belt"][arg]
        return f"{where['ring']} Ring, Zone {where['zone']} · {cc.asteroid_label(arg, short=False)}"
    if action.verb == "LAUNCH":
        c = cc.comet(obs, arg)
        if c is None or c["ring"] is None:
            return ""
        return f"{c['kind']} Comet, {c['ring']} Ring, Zone {c['zone']}"
    if action.verb == "TAIL" and obs["decision"] and arg in ("1", "2", "3"):
        return cc.tail_note(obs, int(arg) - 1)
    return ""


def note(game: str, obs: dict[str, Any], action: Action) -> str:
    """What ``action`` stands for, or ``""`` when its notation says it all."""
    if game == "ceres":
        return ceres_note(obs, action)
    return tauceti_note(action, obs)


def label(game: str, obs: dict[str, Any], action: Action) -> str:
    text = note(game, obs, action)
    return f"{action} ({text})" if text else str(action)
