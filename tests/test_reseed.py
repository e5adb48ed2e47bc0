"""``G.reseed``: a copy whose future chance (dice, the order of the undrawn piles) comes from
the given generator only, with the past and everything dealt kept (docs/adapters-openspiel.md)."""

from __future__ import annotations

from typing import Any

import pytest

from ecliptic.bots.random_bot import RandomBot
from ecliptic.ceres.game import Ceres
from ecliptic.engine.rng import Rng
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import State

TC = TauCeti()
CERES = Ceres()
CASES: list[tuple[Any, dict[str, Any]]] = [
    (TC, {"players": 2, "game": "short"}),
    (TC, {"players": 4, "game": "short", "advanced": list(range(1, 10))}),
    (TC, {"players": 1, "game": "short"}),
    (CERES, {"players": 3, "expansions": ["comets"]}),
]


def states_along(game: Any, config: dict[str, Any], seed: int, every: int) -> list[Any]:
    """Copies of the states of one random game, every ``every`` decisions."""
    state = game.new_game(config, seed)
    bot = RandomBot(seed)
    out = []
    step = 0
    while not state.is_over:
        if step % every == 0:
            out.append(state.clone())
        game.apply(state, bot.choose(game, state, state.current_player))
        step += 1
    return out


def viewers(state: Any) -> list[int | None]:
    return [*range(len(state.players)), None]


@pytest.mark.parametrize(("game", "config"), CASES, ids=lambda c: str(c) if isinstance(c, dict) else c.name)
def test_every_seat_observes_the_reseeded_copy_as_the_state(game: Any, config: dict[str, Any]) -> None:
    rng = Rng.from_seed(7)
    for state in states_along(game, config, seed=3, every=9):
        copy = game.reseed(state, rng)
        for seat in viewers(state):
            assert game.observe(copy, seat) == game.observe(state, seat), f"seat {seat} at {state.decision}"
        assert game.legal_actions(copy) == game.legal_actions(state)


@pytest.mark.parametrize(("game", "config"), CASES, ids=lambda c: str(c) if isinstance(c, dict) else c.name)
def test_a_reseeded_copy_plays_on_legally_to_the_end(game: Any, config: dict[str, Any]) -> None:
    states = states_along(game, config, seed=5, every=40)
    for i, state in enumerate(states[::3]):
        copy = game.reseed(state, Rng.from_seed(i))
        bot = RandomBot(i)
        while not copy.is_over:
            game.apply(copy, bot.choose(game, copy, copy.current_player))  # raises if not legal
        assert not game.legal_actions(copy)
        assert game._problems(copy) == []


def test_the_future_dice_and_draws_differ_across_generators() -> None:
    state = TC.new_game({"players": 4}, 11)
    a, b = TC.reseed(state, Rng.from_seed(1)), TC.reseed(state, Rng.from_seed(2))
    assert [a.rng.d6() for _ in range(30)] != [b.rng.d6() for _ in range(30)]
    assert a.specialist_deck != b.specialist_deck
    assert sorted(a.specialist_deck) == sorted(b.specialist_deck) == sorted(state.specialist_deck)
    again = TC.reseed(state, Rng.from_seed(1))
    assert TC.to_json(again) == TC.to_json(TC.reseed(state, Rng.from_seed(1)))


def test_what_is_dealt_is_kept_and_the_state_itself_is_untouched() -> None:
    state = states_along(TC, {"players": 3, "game": "short"}, seed=2, every=30)[2]
    before = TC.to_json(state)
    copy = TC.reseed(state, Rng.from_seed(9))
    assert TC.to_json(state) == before
    assert [p.hand for p in copy.players] == [p.hand for p in state.players]
    assert [p.gp_tokens for p in copy.players] == [p.gp_tokens for p in state.players]
    assert copy.points == state.points  # the face-down Exploration tokens on the board
    assert copy.enlightenment == state.enlightenment
    assert (copy.crisis_discard, copy.specialist_discard) == (state.crisis_discard, state.specialist_discard)


def _permute_undrawn(s: State) -> None:
    """The same game, the undrawn piles in another order (and another dice generator)."""
    s.crisis_deck, s.specialist_deck = s.crisis_deck[::-1], s.specialist_deck[::-1]
    s.knowledge_deck, s.mission_deck = s.knowledge_deck[::-1], s.mission_deck[::-1]
    s.exotic_deck, s.outer_limit_stack = s.exotic_deck[::-1], s.outer_limit_stack[::-1]
    s.outer_limit_knowledge.reverse()
    s.demand_pile, s.gp_supply = s.demand_pile[::-1], s.gp_supply[::-1]
    s.large_tile_stack = s.large_tile_stack[::-1]
    for stack in s.crisis_stacks.values():
        stack.reverse()
    s.bag.reverse()
    s.rng = Rng.from_seed(s.rng.state ^ 0xDEADBEEF)


@pytest.mark.parametrize("layout", ["random", "players"])
def test_a_reseed_cannot_reveal_the_true_order_of_an_undrawn_pile(layout: str) -> None:
    state = TC.new_game({"players": 4, "layout": layout, "advanced": [1, 2, 3]}, 21)
    other = state.clone()
    _permute_undrawn(other)
    if layout == "players":  # the tile the placing seat is shown stays on top in both
        other.large_tile_stack = (state.large_tile_stack[0], *reversed(state.large_tile_stack[1:]))
    assert TC.to_json(other) != TC.to_json(state)
    assert TC.to_json(TC.reseed(other, Rng.from_seed(4))) == TC.to_json(TC.reseed(state, Rng.from_seed(4)))


def test_the_large_tile_shown_to_the_placing_seat_stays_on_top() -> None:
    state = TC.new_game({"players": 4, "layout": "players"}, 6)
    assert state.decision.kind == "place_tile"
    for i in range(5):
        assert TC.reseed(state, Rng.from_seed(i)).large_tile_stack[0] == state.large_tile_stack[0]


def test_scripted_dice_and_choices_are_not_carried_into_the_copy() -> None:
    state = TC.new_game({"players": 2}, 1)
    state.rng.script_dice([6, 6, 6])
    state.rng.script_choices([0])
    copy = TC.reseed(state, Rng.from_seed(3))
    assert copy.rng.dice_script == () and copy.rng.choice_script == ()
    assert state.rng.dice_script == (6, 6, 6)


def test_ceres_reseed_redraws_the_explosion_checks_only_from_the_generator() -> None:
    state = CERES.new_game({"players": 2, "expansions": ["comets"]}, 8)
    other = state.clone()
    other.explosion_deck.reverse()
    other.nucleus_box.reverse()
    other.rng = Rng.from_seed(99)
    assert CERES.to_json(CERES.reseed(other, Rng.from_seed(1))) == CERES.to_json(CERES.reseed(state, Rng.from_seed(1)))
    a, b = CERES.reseed(state, Rng.from_seed(1)), CERES.reseed(state, Rng.from_seed(2))
    assert a.rng.state != b.rng.state
    assert a.comets == state.comets and a.claims == state.claims
