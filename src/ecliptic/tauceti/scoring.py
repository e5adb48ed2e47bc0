"""End of game: Galactic Points by source, the winners and the chosen tie-break.

1. TAU by the brackets on each Interface; 2. Crisis/Specialist cards with (or
without) a dot, as the Alien card says; 3. orbitals in non-planetary sectors and
Resource cubes on the home planet, by the values on the tiles; 4. GP tokens.
Assisting moves 1 GP per delivered cube from the assisting player to the
assisted one. Tied players share the win unless the config chose the TAU tie-break
(docs/rules-decisions.md).

Advanced Rules 7-9, when chosen, are deductions of their own: -1 GP per virus crystal
on the home planet (7), per level the faction's specialization stands above its starting
level on the TCX at the end (8: the rulebook's example counts the level, so a crisis
resolved, which moves the level back down, gives the GP back; docs/rules-decisions.md), and
per Crisis token on the home planet (9).
"""

from __future__ import annotations

from ecliptic.engine.events import Event
from ecliptic.tauceti.registry import say
from ecliptic.tauceti.setup import MARKET_START
from ecliptic.tauceti.state import State

SOURCES = ("tau", "cards", "orbitals", "cubes", "gp_tokens", "assists",
           "virus_crystals", "specialization_raised", "home_crises")


def score(state: State, seat: int, hand_seen: bool = True) -> dict[str, int]:
    """GP by source for one seat, and the total. ``hand_seen=False`` leaves the cards in the
    seat's hand out: the score as someone who does not see that hand counts it (the hand is
    the only hidden thing the score reads), for the running score of a rival and the public
    points (:meth:`ecliptic.tauceti.game.TauCeti.public_points`)."""
    content = state.content
    p = state.players[seat]
    f = content.faction(p.faction)
    out = dict.fromkeys(SOURCES, 0)
    out["tau"] = f.tau_gp[min(p.tau // 10, len(f.tau_gp) - 1)]
    for card in (*(p.hand if hand_seen else ()), *p.face_up):
        gp, dot = content.card_gp(card)
        if dot == f.card_gp_dot:
            out["cards"] += gp
    for tile, owners in state.orbitals.items():
        t = content.tile(tile)
        if not t.is_planet:
            out["orbitals"] += owners.count(seat) * t.orbital_gp
    home = content.tile(f.home_planet)
    out["cubes"] = state.cubes.get(home.id, []).count(p.faction) * home.cube_gp
    out["gp_tokens"] = sum(content.gp_token(g).gp for g in p.gp_tokens)
    for tile, cubes in state.cubes.items():
        if not content.tile(tile).is_planet:
            continue
        if tile != home.id:
            out["assists"] -= cubes.count(p.faction)
        else:
            out["assists"] += sum(1 for c in cubes if c != p.faction and state.seat_of_faction(c) is not None)
    _advanced_deductions(state, seat, out)
    out["total"] = sum(out[s] for s in SOURCES)
    return out


def _advanced_deductions(state: State, seat: int, out: dict[str, int]) -> None:
    """Advanced Rules 7, 8 and 9: each a separate negative source, 0 when the rule is off."""
    f = state.faction(seat)
    if state.config.has(7):
        out["virus_crystals"] = -state.virus_on.get(f.home_planet, 0)
    if state.config.has(8):
        # "if you are a Zorhkonian and Military is at level 3, you lose 2 GPs": the level
        # above the start, never a gain for a level below it.
        out["specialization_raised"] = -max(0, state.market[f.specialization] - MARKET_START)
    if state.config.has(9):
        out["home_crises"] = -len(state.planet_crises.get(f.home_planet, []))


def ranking_key(state: State, seat: int, scores: dict[str, int]) -> tuple[int, ...]:
    """Most GP wins; tied players share the win ("The player with the most Galactic Points
    wins" names no tie-break), unless the players chose ``tie_break: tau``: then most TAU,
    then most GP tokens (docs/rules-decisions.md)."""
    if state.config.tie_break == "shared":
        return (scores["total"],)
    p = state.players[seat]
    return scores["total"], p.tau, len(p.gp_tokens)


def finish(state: State, ev: list[Event]) -> None:
    state.phase = "over"
    state.stack.clear()
    state.final_scores = [score(state, s) for s in range(len(state.players))]
    keys = [ranking_key(state, s, state.final_scores[s]) for s in range(len(state.players))]
    if len(state.players) == 1:
        target = state.content.numbers.solo_target_gp
        state.winners = [0] if state.final_scores[0]["total"] >= target else []
        say(ev, "game_over", f"Game over: {state.final_scores[0]['total']} GP against a target of "
            f"{target} GP: {'won' if state.winners else 'lost'}.", scores=state.final_scores)
        return
    best = max(keys)
    state.winners = [s for s, k in enumerate(keys) if k == best]
    names = " and ".join(state.players[s].faction for s in state.winners)
    verdict = "wins" if len(state.winners) == 1 else "share the win"
    say(ev, "game_over", f"Game over. {names} {verdict} with {best[0]} GP.",
        scores=state.final_scores, winners=state.winners)
