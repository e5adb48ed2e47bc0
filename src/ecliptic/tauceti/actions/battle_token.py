"""Placing the Battle token: the Minor action that initiates a battle.

"A battle is initiated when a player places his Battle token in a sector where
another player has a Resource cube or orbital, during the Action phase."
Battles are outlawed on all planets, each player has one Battle token a round,
and two players cannot initiate a battle in the same sector in the same round.
The battle itself is fought in the Battle phase (:mod:`ecliptic.tauceti.battle`).
"""

from __future__ import annotations

from collections.abc import Iterator

from ecliptic.engine.actions import Action, act, number
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.tauceti import board
from ecliptic.tauceti.content import Content
from ecliptic.tauceti.registry import illegal, not_an_option, say, verb
from ecliptic.tauceti.state import State

MAX_SEATS = 4


def present(state: State, seat: int, sector: str) -> bool:
    """Does ``seat`` have a Resource cube or an orbital in ``sector``?"""
    colour = state.players[seat].faction
    return colour in state.cubes.get(sector, []) or seat in state.orbitals.get(sector, [])


def token_in(state: State, sector: str) -> bool:
    """Is some player's Battle token already in ``sector`` this round?"""
    return any(p.battle_sector == sector for p in state.players)


def _parse_seat(state: State, text: str) -> int | None:
    seat = number(text)
    return seat if seat is not None and 0 <= seat < len(state.players) else None


def _options(state: State, seat: int) -> list[Action]:
    """Each other player with pieces in a sector (not a planet) that holds no Battle token
    yet, while the player's own Battle token is unused: what ``_why_not`` checks, so every
    option is legal (registered as the verb's ``legal``)."""
    players = state.players
    if players[seat].battle_sector is not None or not (state.cubes or state.orbitals):
        return []  # (most turns nobody has a piece outside the planets' cubes: no set is built)
    tokens = {p.battle_sector for p in players}
    options: list[Action] = []
    for sector in state.cubes.keys() | state.orbitals.keys():
        if sector in tokens or sector not in state.layout or board.is_planet(state, sector):
            continue
        options.extend(act("BATTLE", sector, str(target)) for target in range(len(players))
                       if target != seat and present(state, target, sector))
    return options


def _why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    if len(a.args) != 2:
        return illegal("TC-BAT-2", "place your Battle token with BATTLE <sector> <seat of the player you attack>")
    sector, target_text = a.args
    p = state.players[seat]
    if p.battle_sector is not None:
        return illegal("TC-BAT-2", f"you already placed your Battle token in sector {p.battle_sector} this round")
    if sector not in state.layout:
        return illegal("TC-BAT-2", f"{sector} is not a tile of the hex system")
    if board.is_planet(state, sector):
        return illegal("TC-BAT-2", "battles are outlawed on all planets")
    target = _parse_seat(state, target_text)
    if target is None:
        return not_an_option("TC-BAT-2", f"{target_text} is not a seat in this game")
    if target == seat:
        return not_an_option("TC-BAT-2", "you cannot battle yourself")
    if not present(state, target, sector):
        return illegal("TC-BAT-2", f"{state.players[target].faction} has no Resource cube or orbital "
                       f"in sector {sector}")
    if token_in(state, sector):
        return illegal("TC-BAT-3", f"another Battle token is already in sector {sector} this round")
    return None


def _perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    sector, target_text = a.args
    target = number(target_text)
    assert target is not None
    p = state.players[seat]
    p.battle_sector = sector
    p.battle_defender = target
    say(ev, "battle_token", f"{p.faction} places the Battle token in "
        f"{state.content.tile(sector).name}: a battle against {state.players[target].faction} "
        "in the Battle phase.", seat=seat, sector=sector, defender=target)


def _domain(c: Content) -> Iterator[Action]:
    for tile in c.tiles:
        if not tile.is_planet and tile.kind != "tau_ceti":
            for target in range(MAX_SEATS):
                yield act("BATTLE", tile.id, target)


verb("BATTLE", major=None, options=_options, why_not=_why_not, perform=_perform, domain=_domain,
     legal=_options)
