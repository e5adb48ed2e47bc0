"""A battle's prospects, roughly, for the Tau Ceti evaluator: who is likely to win it and how
much damage each starship should expect, from the dice the rules give each side.

"The first player to destroy ONE of the other player's systems wins the battle": an attack
rolls one die per weapons power, each die names a system, shielded systems block it and each
counter-defense die (one per computers power) blocks the number it shows. The model here
counts the hits an attack is expected to get through, and the hits the weakest system of the
other starship can take; each attack ends the battle with the chance that its hits reach
that (landing on the weakest system about one time in ``SPREAD``). It ignores the first
attack's advantage, the Exotic Tech and retreats: a bot's estimate, not a rule.
"""

from __future__ import annotations

from ecliptic.tauceti import battle as rules
from ecliptic.tauceti import ship
from ecliptic.tauceti.state import State

SPREAD = 3.0
"""Hits needed per point of the weakest system's power, since hits land on any system."""
MOST = 0.95
"""The highest chance an attack is taken to end the battle with."""


def battle_tokens_left(state: State) -> int:
    """1GP tokens left in the supply: what the winner of a battle earns."""
    gp = state.content.numbers.battle_gp
    return sum(1 for g in state.gp_supply if state.content.gp_token(g).gp == gp)


def battles_ahead(state: State) -> list[tuple[int, int]]:
    """(Initiator, Defender) of every battle of this round not yet over: the Battle tokens
    placed in the Action phase, the battles still to fight and the one being fought."""
    if state.phase == "action":
        return [(p.seat, p.battle_defender) for p in state.players
                if p.battle_sector is not None and p.battle_defender is not None]
    if state.phase != "battle":
        return []
    out = []
    b = state.battle
    if b is not None and b.winner is None:
        out.append((b.initiator, b.defender))
    for sector in state.battles:
        p = next((p for p in state.players if p.battle_sector == sector), None)
        if p is not None and p.battle_defender is not None:
            out.append((p.seat, p.battle_defender))
    return out


def hits(state: State, attacker: int, target: int) -> float:
    """Hits one attack of ``attacker`` is expected to get through ``target``'s shields (as many
    as it may assign, on systems the dice name at random) and counter-defense."""
    shielded = min(rules.shield_limit(state, target), 6)
    return rules.attack_dice(state, attacker) * (6 - shielded) / 6 * (5 / 6) ** rules.counter_dice(state, target)


def weakest(state: State, seat: int) -> int:
    """The power left in ``seat``'s weakest system that is not destroyed: the damage that
    would lose it the battle."""
    left = [ship.effective(state, seat, s) for s in state.content.systems]
    return min((n for n in left if n > 0), default=1)


def ending(state: State, attacker: int, target: int) -> float:
    """The chance that one attack of ``attacker`` destroys a system of ``target``."""
    return min(MOST, hits(state, attacker, target) / (SPREAD * weakest(state, target)))


def prospects(state: State, seat: int, other: int) -> tuple[float, float]:
    """``seat``'s chance of winning a battle against ``other``, and the damage it should
    expect to take in it: attacks alternate until one ends the battle."""
    mine, theirs = ending(state, seat, other), ending(state, other, seat)
    if mine + theirs <= 0:
        return 0.0, 0.0
    attacks = 1 / (mine + theirs)  # attacks each side makes, about
    return mine / (mine + theirs), attacks * hits(state, other, seat)
