"""Ceres' ``Encoder.tensor``: ``encode(observe(state, seat))`` exactly, built from parts with keys.

``ceres.observation`` puts ``observe`` together from parts (the belt's Zones, each player's
counts, the Comets, what is counted by seat, the counts, the end) and says beside each what it
is a function of (a key); the adapter keeps a memo per part. These tests check:

* on random states of every config, with and without Comets, for every seat and the spectator,
  with the memo kept across examples (Hypothesis), on states read back from their JSON save,
  on determinizations and re-seeded copies: ``tensor == encode(observe)``;
* after changes in place of what the Ceres state keeps mutable (Resources, VP, the claims, the
  rotation, a Comet's place, tails and slots, the Tail tokens taken or removed, the box and the
  Explosion Check cards), the tensor of the changed state, never the memo's;
* equal keys give equal views; a key holds nothing a seat may not see (determinizations, which
  re-deal what nobody sees, give the same keys) and names no table that could change;
* ``observe``, put together from the parts, answers byte for byte what it answered before.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ecliptic.adapters.observation import encoder
from ecliptic.ceres import observation as obs
from ecliptic.engine.rng import Rng
from ecliptic.games import get_game
from tensor_checks import same_tensor, seats_of, states, tensor_along_a_game

G = get_game("ceres")
CONFIGS: list[dict[str, Any]] = [
    {"players": 1}, {"players": 2}, {"players": 3}, {"players": 4},
    {"players": 1, "expansions": ["comets"]}, {"players": 2, "expansions": ["comets"]},
    {"players": 3, "expansions": ["comets"]}, {"players": 4, "expansions": ["comets"]},
]
COMETS_4 = CONFIGS[-1]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(CONFIGS))), st.integers(0, 10_000), st.integers(0, 200), st.integers(1, 5))
def test_the_tensor_of_a_state_is_the_tensor_of_its_observation(pick: int, seed: int, steps: int, every: int) -> None:
    """Along a random game (the memo sees the states in order, as in play, and keeps what
    earlier examples left), every ``every``-th state: the seat to play's and one other seat's
    ``tensor`` equal ``encode(observe)``; at the end every seat's and the spectator's, also on
    the state read back from its JSON save, a determinization and a re-seeded copy."""
    tensor_along_a_game("ceres", CONFIGS[pick], seed, steps, every)


def _sample() -> list[Any]:
    """States of random 4-player games with Comets, the Comets in every phase."""
    return [s.clone() for seed in (3, 8) for i, s in enumerate(states("ceres", COMETS_4, seed)) if i % 4 == 1]


SAMPLE = _sample()


def _unclaimed(s: Any) -> str:
    return next(a.id for a in s.content.asteroids if a.id not in s.claims)


def _add(table: dict[str, int], key: str, n: int = 1) -> None:
    table[key] = table.get(key, 0) + n


def _new_resource(s: Any, me: int) -> None:
    p = s.players[me]
    _add(p.resources, next((r for r in s.content.numbers.resources if not p.resources.get(r)), "Ice"), 3)


def _claim_changes_hands(s: Any, me: int) -> None:
    if s.claims:
        x = next(iter(s.claims))
        s.claims[x] = (s.claims[x] + 1) % 4
    else:
        s.claims[_unclaimed(s)] = me


def _turn_a_ring(s: Any, me: int) -> None:
    numbers = s.content.numbers
    ring = numbers.rings[me % len(numbers.rings)]
    s.rotation[ring] = (s.rotation.get(ring, 0) + 1) % numbers.zones


def _take_a_tail_token(s: Any, me: int) -> None:
    for c in s.comets:
        for column in c.tails:
            for row, x in enumerate(column):
                if x is not None:
                    column[row] = None
                    s.players[me].tail_tokens.append(x)
                    return
    s.players[me].tail_tokens.append(s.removed_tails.pop())


def _remove_a_tail_token(s: Any, me: int) -> None:
    if s.players[me].tail_tokens:
        s.removed_tails.append(s.players[me].tail_tokens.pop())
    else:
        _take_a_tail_token(s, me)


def _move_a_comet(s: Any, me: int) -> None:
    c = s.comets[me % 2]
    rings = s.content.numbers.rings
    c.ring = rings[0] if c.ring is None else None if c.ring == rings[-1] else rings[rings.index(c.ring) + 1]


def _a_probe_on_a_slot(s: Any, me: int) -> None:
    c = s.comets[me % 2]
    free = [k for k, x in enumerate(c.slots) if x is None]
    if free:
        c.slots[free[0]] = me
    else:
        c.slots[0] = None


# Changes in place of what a Ceres state keeps mutable (its dicts and lists), each one the seat
# ``me`` or a rival sees (they all change the tensor) ...
CHANGES: dict[str, Callable[[Any, int], None]] = {
    "resources": lambda s, me: _add(s.players[me].resources, "Ice"),
    "a new resource": _new_resource,
    "vp": lambda s, me: _add(s.players[me].vp, "tail_tokens", 2),
    "probes": lambda s, me: setattr(s.players[me], "probes", s.players[me].probes - 1),
    "passed": lambda s, me: setattr(s.players[me], "passed", not s.players[me].passed),
    "a claim": lambda s, me: s.claims.__setitem__(_unclaimed(s), me),
    "a claim changes hands": _claim_changes_hands,
    "rotation": _turn_a_ring,
    "comet zone": lambda s, me: setattr(s.comets[me % 2], "zone", s.comets[me % 2].zone % s.content.numbers.zones + 1),
    "comet ring": _move_a_comet,
    "comet removed": lambda s, me: setattr(s.comets[me % 2], "removed", not s.comets[me % 2].removed),
    "a slot": _a_probe_on_a_slot,
    "a tail token taken": _take_a_tail_token,
    "a tail token removed": _remove_a_tail_token,
    "nucleus box": lambda s, me: s.nucleus_box.pop() if s.nucleus_box else s.nucleus_box.append(
        s.content.nucleus_cards[0].id),
    "explosion deck": lambda s, me: s.explosion_deck.pop() if s.explosion_deck else None,
}
# ... and changes that only what nobody sees: the tensor must not move.
UNSEEN: dict[str, Callable[[Any, int], None]] = {
    "explosion order": lambda s, me: s.explosion_deck.reverse(),
    "box order": lambda s, me: s.nucleus_box.reverse(),
}


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(SAMPLE))), st.sampled_from(sorted(CHANGES)), st.integers(0, 3))
def test_the_tensor_follows_a_state_changed_in_place(pick: int, change: str, who: int) -> None:
    """The memo has seen the state from every seat; a change in place gives the tensor of the
    changed state, never the memo's, for every seat and the spectator."""
    enc = encoder("ceres", COMETS_4)
    s = SAMPLE[pick].clone()
    before = [enc.tensor(s, seat).copy() for seat in seats_of(COMETS_4)]
    observed = G.observe(s, None)
    CHANGES[change](s, who)
    if G.observe(s, None) == observed:  # (a change with nothing to change here: a full deck, ...)
        return
    same_tensor(G, enc, s, seats_of(COMETS_4))
    assert not np.array_equal(before[0], enc.tensor(s, 0))


@pytest.mark.parametrize("change", sorted(UNSEEN))
def test_what_nobody_sees_does_not_reach_the_tensor(change: str) -> None:
    enc = encoder("ceres", COMETS_4)
    moved = 0
    for s in SAMPLE:
        s = s.clone()
        before = [enc.tensor(s, seat).copy() for seat in seats_of(COMETS_4)]
        keys = _keys(s)
        order = (list(s.explosion_deck), list(s.nucleus_box))
        UNSEEN[change](s, 0)
        moved += order != (s.explosion_deck, s.nucleus_box)
        assert _keys(s) == keys
        for seat, x in zip(seats_of(COMETS_4), before, strict=True):
            assert np.array_equal(enc.tensor(s, seat), x)
        same_tensor(G, enc, s, seats_of(COMETS_4))
    assert moved > 5


def _keys(s: Any) -> list[Any]:
    return [obs.zones_key(s), *obs.player_keys(s), obs.comets_key(s)]


def test_equal_keys_give_equal_views_and_the_views_are_observes_own() -> None:
    """On every state of random games of both editions: each part's view is what ``observe``
    shows of it, and two states with the same key gave the part the same view. A key is the
    values it reads (the Ceres state changes its tables in place), and holds nothing a seat may
    not see: two determinizations, which re-deal the box and the Explosion Check cards, have
    the same keys."""
    seen: dict[Any, str] = {}
    checked = 0
    for config, seed in ((CONFIGS[3], 1), (COMETS_4, 2), (CONFIGS[5], 3), (COMETS_4, 4), (CONFIGS[6], 5)):
        for s in states("ceres", config, seed):
            o = G.observe(s, None)
            zones = obs.zones_view(s)
            claims, slots, taken = obs.seats_view(s)
            assert zones == {x: v["zone"] for x, v in o["belt"].items()}
            assert dict(claims) == {x: v["probe"] for x, v in o["belt"].items() if v["probe"] is not None}
            assert slots == [c["slots"] for c in o["comets"]]
            assert taken == [p["tail_tokens"] for p in o["players"]]
            assert [obs.comet_view(s, i) for i in range(len(s.comets))] == o["comets"]
            assert {**obs.counts_view(s), **obs.end_view(s)}.items() <= o.items()
            comets = [{k: v for k, v in c.items() if k != "slots"} for c in o["comets"]]
            views = [(obs.zones_key(s), json.dumps([o["rotation"], zones])),
                     (obs.comets_key(s), json.dumps([comets, [len(c) for c in slots], o["removed_tails"]]))]
            for seat, key in enumerate(obs.player_keys(s)):
                counts = obs.player_counts(s, seat)
                assert counts.items() <= o["players"][seat].items()
                views.append((key, json.dumps(counts)))
            for key, view in views:
                assert seen.setdefault(key, view) == view
            if not s.is_over:
                a, b = (G.determinize(s, 0, Rng.from_seed(x)) for x in (10, 20))
                assert _keys(a) == _keys(b) == _keys(s)
            checked += 1
    assert checked > 150 and len(seen) > 100


def test_the_memo_when_full_and_for_other_content() -> None:
    """A memo that empties itself every few blocks (the Zones' one keeps where each probe is
    written beside its blocks: it must empty both), and states playing other content (the
    Asteroids elsewhere) after the memo has seen the packaged one: still ``encode(observe)``."""
    enc = encoder("ceres", {"players": 3, "expansions": ["comets"]})
    memos = enc._memos
    zones = memos[0]
    enc.forget()
    try:
        for m in memos:
            m.limit = 2
        for s in states("ceres", {"players": 3, "expansions": ["comets"]}, seed=6):
            same_tensor(G, enc, s, [s.current_player])
            assert set(zones.zones) == set(zones.blocks)  # type: ignore[attr-defined]
        assert all(len(m) <= 2 for m in memos)
    finally:
        for m in memos:
            m.limit = 2048
    s = next(x for i, x in enumerate(states("ceres", {"players": 3, "expansions": ["comets"]}, 7)) if i == 20)
    same_tensor(G, enc, s, seats_of({"players": 3}))
    content = s.content
    shifted = dataclasses.replace(content, asteroids=[dataclasses.replace(a, position=a.position % 8 + 1)
                                                      for a in content.asteroids])
    s.content = shifted  # (this state alone reads other content)
    assert G.observe(s, 0)["belt"] != G.observe(_with(s, content), 0)["belt"]
    same_tensor(G, enc, s, seats_of({"players": 3}))
    s.content = content
    same_tensor(G, enc, s, seats_of({"players": 3}))


def _with(s: Any, content: Any) -> Any:
    t = s.clone()
    t.content = content
    return t


def test_the_tensor_of_what_is_not_a_state_of_the_encoders_game_is_refused_clearly() -> None:
    from ecliptic.engine.errors import SeatError

    enc = encoder("ceres", COMETS_4)
    with pytest.raises(ValueError, match="a state of 2 players, not 4"):
        enc.tensor(G.new_game({"players": 2, "expansions": ["comets"]}, 1), 0)
    with pytest.raises(ValueError, match="not a Ceres state"):
        enc.tensor(get_game("tauceti").new_game({"players": 4}, 1), 0)
    with pytest.raises(SeatError):
        enc.tensor(G.new_game(COMETS_4, 1), 4)


# -- observe, put together from its parts, answers what it answered ----------------------------


def _reference_observe(state: Any, player: int | None) -> dict[str, Any]:
    """``ceres.observation.observe`` as it was before it was put together from parts."""
    from ecliptic.ceres import belt
    from ecliptic.ceres.scoring import score
    from ecliptic.engine.codec import encode
    from ecliptic.engine.rules import observation_header, seat_of

    player = seat_of(state, player, spectator=True)
    content = state.content
    deck = [content.explosion_check(c).result for c in state.explosion_deck]

    def player_view(seat: int) -> dict[str, Any]:
        p = state.players[seat]
        return {"seat": seat, "name": f"Player {seat + 1}", "faction": f"Player {seat + 1}",
                "resources": dict(p.resources), "probes": p.probes, "vp": score(state, seat),
                "tail_tokens": list(p.tail_tokens), "passed": p.passed,
                "asteroids": sorted(a for a, s in state.claims.items() if s == seat)}

    def comet_view(i: int) -> dict[str, Any]:
        c = state.comets[i]
        return {"id": c.id, "nucleus": c.nucleus, "kind": c.kind, "zone": c.zone, "ring": c.ring,
                "in_belt": c.in_belt, "removed": c.removed, "tails": [list(t) for t in c.tails],
                "slots": list(c.slots)}

    return {
        **observation_header("ceres", state, player),
        "rotation": dict(state.rotation),
        "belt": {a.id: {"ring": a.ring, "zone": belt.zone_of(state, a.id), "probe": state.claims.get(a.id)}
                 for a in content.asteroids},
        "comets": [comet_view(i) for i in range(len(state.comets))],
        "nucleus_box": len(state.nucleus_box),
        "explosion_deck": {"cards": len(deck), "Safe": deck.count("Safe"), "Explosion": deck.count("Explosion")},
        "removed_tails": list(state.removed_tails),
        "players": [player_view(s) for s in range(len(state.players))],
        "final_scores": encode(state.final_scores),
        "winners": list(state.winners),
    }


def test_observe_answers_byte_for_byte_what_it_answered() -> None:
    """On 350+ states of random games of every config (finished games, states read back from
    their JSON save), every seat's and the spectator's observation is the same JSON text."""
    checked = 0
    for k, config in enumerate(CONFIGS):
        for s in itertools.chain(states("ceres", config, seed=20 + k), states("ceres", config, seed=40 + k)):
            for state in (s, G.from_json(json.loads(json.dumps(G.to_json(s))))):
                for seat in seats_of(config):
                    assert json.dumps(G.observe(state, seat)) == json.dumps(_reference_observe(state, seat))
            checked += 1
    assert checked >= 350
