"""A policy as a bot (src/ecliptic/adapters/policy.py): a function of the seat's observation tensor
and action mask, always answered with a legal action, seeing only what ``observe`` shows, and
made a bot by name with ``register_policy``."""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import pytest

from ecliptic.adapters.observation import encoder
from ecliptic.adapters.policy import Mask, PolicyBot, PolicyError, Tensor, register_policy
from ecliptic.bots.base import BotSpecError, make_bot
from ecliptic.engine.rng import Rng
from ecliptic.games import get_game


@pytest.fixture(autouse=True)
def registry(bot_registry: None) -> None:
    """Each test's policies are forgotten after it (tests/conftest.py)."""


def any_allowed(seed: int) -> Any:
    """A policy drawing any id the mask allows (ignoring the tensor)."""
    rng = np.random.default_rng(seed)
    return lambda tensor, mask: rng.choice(np.flatnonzero(mask))


def by_hash(tensor: Tensor, mask: Mask) -> int:
    """A policy that is a function of the tensor and mask alone: an allowed id picked by their hash."""
    allowed = np.flatnonzero(mask)
    digest = hashlib.sha256(tensor.tobytes() + mask.tobytes()).digest()
    return int(allowed[int.from_bytes(digest[:8], "big") % len(allowed)])


def play_out(game: Any, config: dict[str, Any], seed: int, bot: Any, limit: int = 20_000) -> int:
    """A whole game of ``bot`` in every seat; the engine refuses any illegal action it sends."""
    state = game.new_game(config, seed)
    decisions = 0
    while not state.is_over:
        seat = state.current_player
        game.apply(state, bot.choose(game, state, seat))
        decisions += 1
        assert decisions < limit
    return decisions


@pytest.mark.parametrize(("name", "config"), [("ceres", {"players": 3, "expansions": ["comets"]}),
                                              ("tauceti", {"players": 2, "game": "short", "layout": "random"})])
def test_a_policy_bot_always_plays_a_legal_action(name: str, config: dict[str, Any]) -> None:
    game = get_game(name)
    seen: list[tuple[int, int]] = []

    def policy(tensor: Tensor, mask: Mask) -> Any:
        seen.append((tensor.shape[0], mask.shape[0]))
        return any_allowed(len(seen))(tensor, mask)

    assert play_out(game, config, 5, PolicyBot("drawn", policy)) > 10
    state = game.new_game(config, 5)
    size = encoder(name, game.observe(state, 0)["config"]).size
    assert set(seen) == {(size, len(game.action_space(state)))}  # the adapters' tensor and action space


def test_the_mask_is_the_legal_actions_and_the_tensor_the_seats_observation() -> None:
    game = get_game("ceres")
    state = game.new_game({"players": 2}, 3)
    bot = PolicyBot("x", by_hash)
    tensor, mask, legal, space = bot.inputs(game, state, state.current_player)
    assert sorted(np.flatnonzero(mask)) == sorted(space.id(a) for a in legal)
    expected = encoder("ceres", {"players": 2}).encode(game.observe(state, state.current_player))
    np.testing.assert_array_equal(tensor, expected)


def test_two_states_the_seat_cannot_tell_apart_give_the_same_choice() -> None:
    """``determinize`` re-deals what the seat cannot see: the policy bot must not notice."""
    game = get_game("tauceti")
    config = {"players": 3, "game": "short", "layout": "random"}
    state = game.new_game(config, 11)
    mover = make_bot("random", 1)
    rng = Rng.from_seed(4)
    bot = PolicyBot("hashed", by_hash)
    compared = differed = 0
    for _ in range(120):
        if state.is_over:
            break
        seat = state.current_player
        other = game.determinize(state, seat, rng)
        assert game.observe(other, seat) == game.observe(state, seat)
        differed += any(game.observe(other, s) != game.observe(state, s) for s in range(3) if s != seat)
        assert bot.choose(game, other, seat) == bot.choose(game, state, seat)
        compared += 1
        game.apply(state, mover.choose(game, state, seat))
    assert compared > 50 and differed > 10  # the copies did hide something from the seat


@pytest.mark.parametrize(("answer", "message"), [
    (lambda mask: int(np.flatnonzero(mask == 0)[0]), r"chose action id \d+ \(.+\), which the action mask does not"),
    (lambda mask: len(mask), r"outside 0\.\.\d+"),
    (lambda mask: -1, r"outside 0\.\."),
    (lambda mask: 1.0, "not an action id"),
    (lambda mask: True, "not an action id"),
    (lambda mask: None, "not an action id"),
])
def test_a_policy_breaking_the_mask_is_refused_saying_what_it_answered(answer: Any, message: str) -> None:
    game = get_game("ceres")
    state = game.new_game({"players": 2}, 3)
    bot = PolicyBot("rogue", lambda tensor, mask: answer(mask))
    with pytest.raises(PolicyError, match=message):
        bot.choose(game, state, state.current_player)


def test_a_numpy_integer_or_one_element_array_is_an_answer() -> None:
    game = get_game("ceres")
    state = game.new_game({"players": 2}, 3)
    for wrap in (np.int64, lambda i: np.array([i], np.int32)):
        bot = PolicyBot("np", lambda tensor, mask, w=wrap: w(int(np.flatnonzero(mask)[0])))
        assert bot.choose(game, state, state.current_player) in game.legal_actions(state)


def test_register_policy_makes_a_bot_from_its_option_and_seed() -> None:
    built: list[tuple[str | None, int]] = []

    def factory(option: str | None, seed: int) -> Any:
        if option == "missing.npz":
            raise ValueError("there is no weights file 'missing.npz'")
        built.append((option, seed))
        return any_allowed(seed)

    register_policy("learned", factory)
    bot = make_bot("learned:v3.npz", 42)
    assert isinstance(bot, PolicyBot) and bot.name == "learned" and built == [("v3.npz", 42)]
    assert play_out(get_game("ceres"), {"players": 2}, 1, bot) > 10
    with pytest.raises(BotSpecError, match=r"the learned bot cannot be built from 'missing\.npz': there is no"):
        make_bot("learned:missing.npz", 0)
    with pytest.raises(BotSpecError, match="already registered"):
        register_policy("learned", factory)
