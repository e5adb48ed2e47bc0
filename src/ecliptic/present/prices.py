"""The prices on the planet the viewing seat is at, as the engine's own S/B price reads them.

A Commodity's price is the engine's :func:`ecliptic.tauceti.actions.economy.price` for one
unit at the planet's demand (the Commodity token on the planet doubles it), so a buy or a
sale of ``n`` costs or earns ``n`` times it (TC-SB-2). ``None`` off a planet, for a
spectator, and in Ceres, which has no prices.
"""

from __future__ import annotations

from typing import Any

from ecliptic.tauceti import board
from ecliptic.tauceti.actions.economy import demand, price


def prices(game_name: str, state: Any, seat: int | None) -> dict[str, dict[str, int]] | None:
    if game_name != "tauceti" or seat is None:
        return None
    planet = state.players[seat].position
    if planet not in state.layout or not board.is_planet(state, planet):
        return None
    out = {}
    for commodity in state.content.commodities:
        unit = price(state, commodity.name, demand(state, planet, commodity.name), 1)
        out[commodity.name] = {"buy": unit, "sell": unit}
    return out
