"""The Gymnasium adapter (``ecliptic.adapters.gymnasium``): both environments pass
Gymnasium's ``check_env``; one seat learns while Ecliptic's bots play the others; the mask
(``info["action_mask"]``, ``action_masks()``) is the engine's legal actions; an illegal id is
refused with nothing changed, or ends the episode when asked; the last reward is the return."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import ecliptic.adapters.gymnasium as adapter
from ecliptic.bots.base import BotSpecError
from ecliptic.engine.errors import IllegalAction, SeatError
from ecliptic.games import get_game

ENVS = [("ecliptic/TauCeti-v0", {"config": {"game": "short"}, "advanced": list(range(1, 10))}),
        ("ecliptic/Ceres-v0", {"expansions": ["comets"]})]


@pytest.mark.parametrize("env_id,kwargs", ENVS, ids=["tauceti", "ceres"])
def test_check_env_passes(env_id: str, kwargs: dict[str, Any]) -> None:
    """``check_env`` steps with unmasked random ids, so it runs with ``illegal="terminate"``
    (the default, ``raise``, is checked below); made through the registry, as a user makes it."""
    env = gymnasium.make(env_id, opponents="random", illegal="terminate", **kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def test_the_environments_are_registered_on_import_and_by_module_prefix() -> None:
    assert {"ecliptic/TauCeti-v0", "ecliptic/Ceres-v0"} <= set(gymnasium.registry)
    env = gymnasium.make("ecliptic.adapters.gymnasium:ecliptic/Ceres-v0", players=2, opponents="random")
    assert env.unwrapped.table.name == "ceres"
    adapter.register()  # a second registration changes nothing (and does not warn)
    assert gymnasium.registry["ecliptic/TauCeti-v0"].kwargs == {"game": "tauceti"}


def _learner_game(env: Any, seed: int) -> tuple[list[float], dict[str, Any]]:
    """A whole episode of random masked choices; the rewards and the last info."""
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards = []
    done = False
    while not done:
        mask = env.unwrapped.action_masks()
        assert (mask == info["action_mask"]).all() and mask.any()
        _, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not truncated
        rewards.append(reward)
    return rewards, info


@pytest.mark.parametrize("env_id,kwargs,seat", [("ecliptic/TauCeti-v0", {"players": 4}, 2),
                                               ("ecliptic/Ceres-v0", {"players": 3, "expansions": ["comets"]}, 1)],
                         ids=["tauceti", "ceres"])
def test_a_whole_episode_ends_with_the_learners_return(env_id: str, kwargs: dict[str, Any], seat: int) -> None:
    env = gymnasium.make(env_id, opponents="heuristic", seat=seat, **kwargs)
    rewards, info = _learner_game(env, seed=5)
    table = env.unwrapped.table
    assert table.over
    assert rewards[-1] == table.game.returns(table.state)[seat] and all(r == 0 for r in rewards[:-1])
    assert not info["action_mask"].any()  # nothing left to do
    with pytest.raises(IllegalAction, match="call reset"):
        env.step(0)


def test_the_same_seed_plays_the_same_episode_bots_included() -> None:
    a = gymnasium.make("ecliptic/TauCeti-v0", opponents=["heuristic", "random", "heuristic"])
    b = gymnasium.make("ecliptic/TauCeti-v0", opponents=["heuristic", "random", "heuristic"])
    assert _learner_game(a, 3)[0] == _learner_game(b, 3)[0]
    G = get_game("tauceti")
    assert G.to_json(a.unwrapped.table.state) == G.to_json(b.unwrapped.table.state)


def test_a_search_bot_on_an_iteration_budget_replays_from_the_seed() -> None:
    """docs/adapters.md, Seeds: a time budget cannot replay, an iteration budget does."""
    a, b = (gymnasium.make("ecliptic/Ceres-v0", opponents="ismcts:20it", players=2) for _ in range(2))
    assert _learner_game(a, 4)[0] == _learner_game(b, 4)[0]
    G = get_game("ceres")
    assert G.to_json(a.unwrapped.table.state) == G.to_json(b.unwrapped.table.state)


def test_the_learner_sees_only_its_own_seat_and_acts_only_on_its_turn() -> None:
    env = adapter.EclipticEnv("tauceti", opponents="random", players=2, seat=1)
    obs, info = env.reset(seed=12)
    table = env.table
    assert table.current == 1
    assert (obs == table.encoder.encode(table.game.observe(table.state, 1))).all()
    G = table.game
    assert [table.space.action(i) for i in np.flatnonzero(info["action_mask"])] == G.legal_actions(table.state)


def test_an_illegal_id_is_refused_with_nothing_changed_and_every_mask_id_is_accepted() -> None:
    env = adapter.EclipticEnv("ceres", opponents="random", players=2, expansions=["comets"])
    _, info = env.reset(seed=7)
    G = env.table.game
    before = G.to_json(env.table.state)
    for i in np.flatnonzero(info["action_mask"] == 0)[::5]:
        with pytest.raises(IllegalAction, match="is not legal now"):
            env.step(int(i))
    for bad in (-1, len(info["action_mask"]), 2.0, None, True):
        with pytest.raises(IllegalAction, match="action id"):
            env.step(bad)
    assert G.to_json(env.table.state) == before
    for i in np.flatnonzero(info["action_mask"]):
        env.reset(seed=7)
        env.step(np.int64(i))  # a NumPy integer, as a policy gives it


def test_illegal_terminate_ends_the_episode_with_the_penalty() -> None:
    env = adapter.EclipticEnv("tauceti", opponents="random", players=2, illegal="terminate")
    _, info = env.reset(seed=1)
    _, reward, done, truncated, info = env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert (reward, done, truncated) == (adapter.ILLEGAL_REWARD, True, False)
    assert "is not legal now" in info["illegal_action"] and not info["action_mask"].any()


def test_dense_points_reward_is_the_learners_change_in_gp() -> None:
    env = adapter.EclipticEnv("tauceti", opponents="random", players=2, reward="points", config={"game": "short"})
    _, info = env.reset(seed=2)
    start = env.table.points()[0]
    rng = np.random.default_rng(2)
    total, done = 0.0, False
    while not done:
        _, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        total += reward
    assert total == env.table.points()[0] - start


def test_render_ansi_draws_the_learners_view() -> None:
    env = gymnasium.make("ecliptic/Ceres-v0", players=2, opponents="random", render_mode="ansi")
    env.reset(seed=0)
    assert "Ceres" in env.render()


def test_render_human_prints_the_learners_view_at_reset_and_step(capsys: pytest.CaptureFixture[str]) -> None:
    env = gymnasium.make("ecliptic/Ceres-v0", players=2, opponents="random", render_mode="human")
    _, info = env.reset(seed=0)
    assert capsys.readouterr().out.count("Ceres · Round") == 1  # Gymnasium's human: drawn at reset
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert capsys.readouterr().out.count("Ceres · Round") == 1  # and at every step
    assert env.render() is None and capsys.readouterr().out.count("Ceres · Round") == 1


@pytest.mark.parametrize("kwargs,error,message", [
    ({"seat": 4}, SeatError, "4 is not a seat of this 4-player game"),
    ({"seat": True}, SeatError, "True is not a seat"),
    ({"opponents": ["random", "random"]}, ValueError, "one per seat"),
    ({"opponents": "grandmaster"}, BotSpecError, "grandmaster"),
    ({"opponents": 5}, ValueError, r"^opponents is a bot spec .* not 5$"),
    ({"opponents": ["random", 5, "random"]}, ValueError, r"^opponents is a bot spec .* not \['random', 5, 'random'\]$"),
    ({"opponents": None}, ValueError, r"^opponents is a bot spec"),
    ({"illegal": "ignore"}, ValueError, "illegal is 'raise' or 'terminate'"),
    ({"reward": "gp"}, ValueError, "reward must be one of"),
    ({"advanced": [12]}, ValueError, "Advanced Rule 12"),
])
def test_a_bad_argument_is_a_clear_error(kwargs: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message) as raised:
        adapter.EclipticEnv("tauceti", **kwargs)
    assert isinstance(raised.value, ValueError)


def test_step_before_the_first_reset_is_refused() -> None:
    with pytest.raises(IllegalAction, match="call reset"):
        adapter.EclipticEnv("ceres", opponents="random").step(0)


@pytest.mark.parametrize("copier", ["pickle", "deepcopy"])
def test_an_environment_copies_mid_game_and_plays_on_as_the_original(copier: str) -> None:
    """Checkpoints, look-ahead and worker processes copy an environment: the copy (bots and
    generators included) gives the same observations and rewards for the same actions."""
    import copy
    import pickle

    env = gymnasium.make("ecliptic/Ceres-v0", opponents="heuristic", players=3, expansions=["comets"])
    _, info = env.reset(seed=21)
    for _ in range(5):
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert not done
    other = pickle.loads(pickle.dumps(env)) if copier == "pickle" else copy.deepcopy(env)
    for _ in range(40):
        action = int(np.flatnonzero(info["action_mask"])[-1])
        step, again = env.step(action), other.step(action)
        assert (step[0] == again[0]).all() and step[1:4] == again[1:4]
        info = step[4]
        if step[2]:
            break


def test_each_environment_has_its_own_observation_space() -> None:
    a = adapter.EclipticEnv("ceres", players=2)
    b = adapter.EclipticEnv("ceres", players=2)
    assert a.observation_space is not b.observation_space
    assert a.observation_space == b.observation_space
    a.observation_space.seed(1)
    b.observation_space.seed(1)
    first = a.observation_space.sample()
    a.observation_space.sample()  # moves a's generator only
    assert (b.observation_space.sample() == first).all()
