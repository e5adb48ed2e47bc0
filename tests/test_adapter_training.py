"""What training code relies on beyond the adapters' own suites (docs/adapters.md, "Training
with sb3-contrib's MaskablePPO"), checked with Gymnasium alone: the project does not install
torch or stable-baselines3, so these tests reproduce the exact calls those libraries make."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.envs.registration import EnvSpec, load_env_creator

import ecliptic.adapters.gymnasium as adapter

ENV_IDS = ["ecliptic/TauCeti-v0", "ecliptic/Ceres-v0"]


def sb3_make(env_id: str, **env_kwargs: Any) -> Any:
    """stable-baselines3 2.x's ``make_vec_env`` making one environment from an id: it asks
    for ``render_mode="rgb_array"`` first and retries without it on a ``TypeError`` only."""
    kwargs: dict[str, Any] = {"render_mode": "rgb_array", **env_kwargs}
    try:
        return gymnasium.make(env_id, **kwargs)
    except TypeError:
        return gymnasium.make(env_id, **env_kwargs)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_sb3s_make_vec_env_falls_back_from_rgb_array(env_id: str) -> None:
    """The refusal of ``rgb_array`` is a ``TypeError`` as well, so ``make_vec_env(env_id)``
    builds the environment instead of failing in every worker."""
    with pytest.warns(UserWarning, match="rgb_array"):  # Gymnasium's own, before ours
        env = sb3_make(env_id, players=2, opponents="random")
    assert env.unwrapped.render_mode is None
    obs, info = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape and info["action_mask"].any()


def test_an_unsupported_render_mode_is_one_clear_line_and_still_a_value_error() -> None:
    with pytest.raises(TypeError) as raised:
        adapter.EclipticEnv("ceres", render_mode="rgb_array")
    assert isinstance(raised.value, ValueError)
    assert str(raised.value) == "render_mode is 'ansi', 'human' or None, not 'rgb_array'"


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_the_spec_goes_through_json_and_makes_the_same_environment(env_id: str) -> None:
    """``env.spec.to_json()`` (what a run's config file or a worker keeps) needs the entry
    point by name; the spec read back makes an environment with the same game and config."""
    kwargs: dict[str, Any] = {"players": 2, "opponents": ["heuristic"]}
    if env_id == "ecliptic/TauCeti-v0":
        kwargs.update(config={"game": "short"}, advanced=[1, 2])
    env = gymnasium.make(env_id, **kwargs)
    again = gymnasium.make(EnvSpec.from_json(env.spec.to_json()))
    assert again.unwrapped.table.config == env.unwrapped.table.config
    assert again.unwrapped.opponent_specs == env.unwrapped.opponent_specs
    first, _ = env.reset(seed=3)
    second, _ = again.reset(seed=3)
    assert np.array_equal(first, second)
    # by name, so a process that never imported the adapter imports it from the spec
    assert load_env_creator(gymnasium.spec(env_id).entry_point) is adapter.EclipticEnv
