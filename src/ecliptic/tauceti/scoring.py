"""End of game: Galactic Points by source, the winner and the tie-break.

1. TAU by the brackets on each Interface; 2. Crisis/Specialist cards with (or
without) a dot, as the Alien card says; 3. orbitals in non-planetary sectors and
Resource cubes on the home planet, by the values on the tiles; 4. GP tokens.
Assisting moves 1 GP per delivered cube from the assisting player to the
assisted one. Ties: see docs/rules-decisions.md.

Advanced Rules 7-9, when chosen, are deductions of their own: -1 GP per virus crystal
on the home planet (7), per level the faction's specialization was raised on the TCX
during the game (8, every raise counted, see docs/decisions/advanced.md), and per
Crisis token on the home planet (9).
"""

from __future__ import annotations

from ecliptic.engine.events import Event
from ecliptic.tauceti.registry import say
from ecliptic.tauceti.state import State

SOURCES = ("tau", "cards", "orbitals", "cubes", "gp_tokens", "assists",
           "virus_crystals", "specialization_raised", "home_crises")


def score(state: State, seat: int) -> dict[str, int]:
    """GP by source for one seat, and the total."""
    content = state.content
    p = state.players[seat]
    f = content.faction(p.faction)
    out = dict.fromkeys(SOURCES, 0)
    out["tau"] = f.tau_gp[min(p.tau // 10, len(f.tau_gp) - 1)]
    for card in (*p.hand, *p.face_up):
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
        out["specialization_raised"] = -state.market_raised.get(f.specialization, 0)
    if state.config.has(9):
        out["home_crises"] = -len(state.planet_crises.get(f.home_planet, []))


def ranking_key(state: State, seat: int, scores: dict[str, int]) -> tuple[int, int, int]:
    """Most GP; then most TAU; then most GP tokens (recorded decision)."""
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
    say(ev, "game_over", f"Game over. {names} {'wins' if len(state.winners) == 1 else 'share the win'} "
        f"with {best[0]} GP.",
        scores=state.final_scores, winners=state.winners)
