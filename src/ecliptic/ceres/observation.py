"""What a player may see, and sampling what they may not.

Ceres hides little. The Nucleus cards returned to the game box stay face down (only
their number is shown) and the order of the face-down Explosion Check cards is unknown
to everyone (their number and the Safe/Explosion mix are public: the cards are known
components). The Tail tokens are shuffled face down at setup but every one of the 18 is
revealed under a resource table in that same step (2 Comets x 3 tables x 3 types), so
none stays face down during play. Everything else is public.

:func:`determinize` re-deals what the observer cannot see (the box's Nucleus cards, the
Explosion Check order) and gives the copy a fresh generator so it cannot foretell the
next Explosion Check. :func:`reseed` re-draws only the future chance: what nobody sees in
Ceres is exactly the future's (the Explosion Check order) and the box, so it re-shuffles
the same two and replaces the generator, for any seat at once.
"""

from __future__ import annotations

from typing import Any

from ecliptic.ceres import belt
from ecliptic.ceres.scoring import score
from ecliptic.ceres.state import State
from ecliptic.engine.codec import encode
from ecliptic.engine.rng import Rng
from ecliptic.engine.rules import observation_header, seat_of


def _player_view(state: State, seat: int) -> dict[str, Any]:
    p = state.players[seat]
    return {
        "seat": seat,
        "name": f"Player {seat + 1}",
        "faction": f"Player {seat + 1}",  # tools that group results by faction group by seat
        "resources": dict(p.resources),
        "probes": p.probes,
        "vp": score(state, seat),
        "tail_tokens": list(p.tail_tokens),
        "passed": p.passed,
        "asteroids": sorted(a for a, s in state.claims.items() if s == seat),
    }


def _comet_view(state: State, i: int) -> dict[str, Any]:
    c = state.comets[i]
    return {
        "id": c.id,
        "nucleus": c.nucleus,
        "kind": c.kind,
        "zone": c.zone,
        "ring": c.ring,
        "in_belt": c.in_belt,
        "removed": c.removed,
        "tails": [list(t) for t in c.tails],
        "slots": list(c.slots),
    }


def observe(state: State, player: int | None) -> dict[str, Any]:
    """Everything ``player`` may see, as JSON-ready data (``None``: a spectator). No decision
    data is private: a player chooses among public things only."""
    player = seat_of(state, player, spectator=True)
    content = state.content
    deck = [content.explosion_check(c).result for c in state.explosion_deck]
    return {
        **observation_header("ceres", state, player),
        "rotation": dict(state.rotation),
        "belt": {a.id: {"ring": a.ring, "zone": belt.zone_of(state, a.id), "probe": state.claims.get(a.id)}
                 for a in content.asteroids},
        "comets": [_comet_view(state, i) for i in range(len(state.comets))],
        "nucleus_box": len(state.nucleus_box),
        "explosion_deck": {"cards": len(deck), "Safe": deck.count("Safe"), "Explosion": deck.count("Explosion")},
        "removed_tails": list(state.removed_tails),
        "players": [_player_view(state, s) for s in range(len(state.players))],
        "final_scores": encode(state.final_scores),
        "winners": list(state.winners),
    }


def determinize(state: State, player: int, rng: Rng) -> State:
    """A copy of ``state`` with everything ``player`` cannot see re-dealt at random; each
    hidden pool is sorted first, so the copy never depends on the true hidden order."""
    seat_of(state, player, spectator=False)  # (refuses a seat not in the game)
    # Ceres has no hidden hands: what no seat can see is what no seat has drawn yet.
    return reseed(state, rng)


def reseed(state: State, rng: Rng) -> State:
    """A copy of ``state`` whose future chance depends only on ``rng``: the Explosion Check
    cards and the box's Nucleus cards sorted then shuffled (so the true order cannot leak into
    the copy), a fresh generator, scripted dice and choices dropped."""
    s = state.clone()
    s.nucleus_box.sort()
    rng.shuffle(s.nucleus_box)
    s.explosion_deck.sort()
    rng.shuffle(s.explosion_deck)
    s.rng = Rng.from_seed(rng.next_u64())
    return s
