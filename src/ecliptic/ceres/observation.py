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

:func:`observe` is put together from parts (the belt's Zones, each player's counts, the
Comets, what is counted by seat, the counts, the end), each a function here; beside them a
*key* says what a part is a function of, so the observation tensor
(``ecliptic.adapters.observation_ceres``) builds again only the parts that changed.
"""

from __future__ import annotations

from typing import Any

from ecliptic.ceres import belt
from ecliptic.ceres.scoring import score
from ecliptic.ceres.state import State
from ecliptic.engine.rng import Rng
from ecliptic.engine.rules import observation_header, seat_of


def player_counts(state: State, seat: int) -> dict[str, Any]:
    """The fields of a player's view the tensor counts (Resources, Mining Probes in supply,
    Victory Points, passed), with the view's own values."""
    p = state.players[seat]
    return {"resources": dict(p.resources), "probes": p.probes, "vp": score(state, seat), "passed": p.passed}


def _player_view(state: State, seat: int, asteroids: list[str]) -> dict[str, Any]:
    counts = player_counts(state, seat)
    name = f"Player {seat + 1}"
    return {
        "seat": seat,
        "name": name,
        "faction": name,  # tools that group results by faction group by seat
        "resources": counts["resources"],
        "probes": counts["probes"],
        "vp": counts["vp"],
        "tail_tokens": list(state.players[seat].tail_tokens),
        "passed": counts["passed"],
        "asteroids": asteroids,
    }


def comet_view(state: State, i: int) -> dict[str, Any]:
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


def zones_view(state: State) -> dict[str, int]:
    """Each Asteroid's Zone now (a function of the rings' rotation alone)."""
    return belt.zones(state)


def counts_view(state: State) -> dict[str, Any]:
    """What is counted, not shown: the Nucleus cards in the box, the Explosion Check cards
    face down and how many of them are Safe and Explosion (not their order)."""
    check = state.content.explosion_check
    deck = [check(c).result for c in state.explosion_deck]
    return {"nucleus_box": len(state.nucleus_box),
            "explosion_deck": {"cards": len(deck), "Safe": deck.count("Safe"), "Explosion": deck.count("Explosion")}}


def end_view(state: State) -> dict[str, Any]:
    """The final scores and the winners (empty until the game is over)."""
    return {"final_scores": [dict(x) for x in state.final_scores], "winners": list(state.winners)}


def observe(state: State, player: int | None) -> dict[str, Any]:
    """Everything ``player`` may see, as JSON-ready data (``None``: a spectator). No decision
    data is private: a player chooses among public things only."""
    player = seat_of(state, player, spectator=True)
    zones = zones_view(state)
    claims = state.claims
    probe = claims.get
    owned: list[list[str]] = [[] for _ in state.players]
    for a, s in claims.items():
        owned[s].append(a)
    return {
        **observation_header("ceres", state, player),
        "rotation": dict(state.rotation),
        "belt": {a.id: {"ring": a.ring, "zone": zones[a.id], "probe": probe(a.id)} for a in state.content.asteroids},
        "comets": [comet_view(state, i) for i in range(len(state.comets))],
        **counts_view(state),
        "removed_tails": list(state.removed_tails),
        "players": [_player_view(state, s, sorted(owned[s])) for s in range(len(state.players))],
        **end_view(state),
    }


# -- what each part of an observation is a function of (the tensor's memo) -------------------
#
# A tensor built from ``observe`` rebuilds views that have not changed since the last step:
# the belt's Zones (they move once a round), the players who did not act, the Comets outside
# the Production phase. Each key below says what a part is a function of, beside the content:
# two states with equal keys give the part the same view (tests/test_observation_tensor_ceres.py
# checks it on random states). The Ceres state keeps its tables mutable (dicts and lists
# changed in place), so a key copies the values it reads. Like the views, a key holds nothing a seat may not see (every
# value here is public). What is counted from the observer (whose probe, whose Tail token)
# is left out of the keys, so every seat shares the memo; the tensor writes those per call
# from :func:`seats_view`.

Key = tuple[Any, ...]
"""A hashable key of the values a part reads."""


def zones_key(state: State) -> Key:
    """What the ``rotation`` and :func:`zones_view` are a function of."""
    return (tuple(state.rotation.items()),)


def player_keys(state: State) -> list[Key]:
    """What :func:`player_counts` is a function of, for each seat."""
    return [(tuple(p.resources.items()), p.probes, p.passed, tuple(p.vp.items())) for p in state.players]


def comets_key(state: State) -> Key:
    """What the Comets' views are a function of apart from the seats on their Surface card
    slots (:func:`seats_view`): each Comet's Surface card, Nucleus card, side, place and tails,
    its number of slots, and the Tail tokens removed from the game."""
    comets = [(c.id, c.nucleus, c.kind, c.zone, c.ring, c.removed, len(c.slots), *map(tuple, c.tails))
              for c in state.comets]
    return (*comets, tuple(state.removed_tails))


def seats_view(state: State) -> tuple[list[tuple[str, int]], list[list[int | None]], list[list[str]]]:
    """What the views count by seat, as they show it (copies): each claimed Asteroid with the
    seat whose Mining Probe is on it (the belt's ``probe``), the seat on each slot of each
    Comet's Surface card (``slots``), the Tail tokens in front of each player (``tail_tokens``)."""
    return ([*state.claims.items()], [c.slots[:] for c in state.comets],
            [p.tail_tokens[:] for p in state.players])


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
