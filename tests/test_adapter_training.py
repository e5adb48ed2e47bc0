"""What training code relies on beyond the adapters' own suites (docs/adapters.md, "Training
with sb3-contrib's MaskablePPO"), checked with Gymnasium alone: the project does not install
torch or stable-baselines3, so these tests reproduce the exact calls those libraries make."""

from __future__ import annotations

import warnings
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
def test_sb3s_make_vec_env_gets_rgb_array(env_id: str) -> None:
    """``make_vec_env(env_id)`` asks for ``rgb_array`` first: the environment takes it (no
    fallback, no warning), plays as before and draws a frame only when asked."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = sb3_make(env_id, players=2, opponents="random")
        obs, info = env.reset(seed=0)
    assert env.unwrapped.render_mode == "rgb_array"
    assert obs.shape == env.observation_space.shape and info["action_mask"].any()
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_sb3s_make_vec_env_still_falls_back_from_a_refused_mode(env_id: str) -> None:
    """A mode the adapters do not draw is refused with a ``TypeError`` too, so code that
    retries without it (as ``make_vec_env`` does) still builds the environment."""
    with pytest.warns(UserWarning, match="render_mode='rgb'"):  # Gymnasium's own, before ours
        try:
            env = gymnasium.make(env_id, render_mode="rgb", players=2, opponents="random")
        except TypeError:
            env = gymnasium.make(env_id, players=2, opponents="random")
    assert env.unwrapped.render_mode is None


def test_an_unsupported_render_mode_is_one_clear_line_and_still_a_value_error() -> None:
    with pytest.raises(TypeError) as raised:
        adapter.EclipticEnv("ceres", render_mode="rgb")
    assert isinstance(raised.value, ValueError)
    assert str(raised.value) == "render_mode is 'ansi', 'human', 'rgb_array' or None, not 'rgb'"


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


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_vectors_spec_makes_the_vector_again_and_one_environment_is_refused_clearly(mode: str) -> None:
    """``make_vec`` puts its own keys in the vector's ``spec.kwargs``: ``make_vec(spec)``
    makes the same vector, ``make(spec)`` says whose keys they are instead of calling them
    unknown game config keys."""
    vec = gymnasium.make_vec("ecliptic/Ceres-v0", num_envs=2, vectorization_mode=mode, opponents="random", players=3)
    again = gymnasium.make_vec(EnvSpec.from_json(vec.spec.to_json()))
    try:
        assert type(again) is type(vec) and again.num_envs == 2
        assert np.array_equal(vec.reset(seed=4)[0], again.reset(seed=4)[0])
        with pytest.raises(ValueError, match=r"^num_envs, vectorization_mode: gymnasium\.make_vec's keys, not an "
                                             r"environment's; this is a vector's spec: gymnasium\.make_vec\(spec\)"):
            gymnasium.make(vec.spec)
    finally:
        vec.close()
        again.close()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_an_illegal_id_in_a_vector_is_refused_with_the_environments_reason(mode: str) -> None:
    """``AsyncVectorEnv`` raises a worker's error again as ``type(error)(error)``: the refusal
    must still be an ``IllegalAction`` that prints the id, its action and the rule (it was
    ``<exception str() failed>``: the copy had one argument where two were wanted)."""
    from ecliptic.engine.errors import IllegalAction

    vec = gymnasium.make_vec("ecliptic/Ceres-v0", num_envs=2, vectorization_mode=mode, opponents="random")
    try:
        _, info = vec.reset(seed=0)
        illegal = int(np.flatnonzero(info["action_mask"][0] == 0)[0])
        legal = int(np.flatnonzero(info["action_mask"][1])[0])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the async vector's own report of the worker's error
            with pytest.raises(IllegalAction) as refusal:
                vec.step(np.array([illegal, legal]))
        assert str(refusal.value).startswith(f"[CR-ACT-1] action id {illegal} (")
        assert "is not legal now" in str(refusal.value) and refusal.value.rule == "CR-ACT-1"
    finally:
        vec.close()


def test_a_refusal_made_again_from_itself_is_the_same_refusal() -> None:
    import pickle

    from ecliptic.adapters._common import Table
    from ecliptic.engine.errors import IllegalAction

    table = Table("ceres", {"players": 2})
    table.new_game(0)
    with pytest.raises(IllegalAction) as refusal:
        table.play(0)
    for again in (type(refusal.value)(refusal.value), pickle.loads(pickle.dumps(refusal.value))):
        assert isinstance(again, IllegalAction) and isinstance(again, ValueError)
        assert (str(again), again.rule, again.reason) == (str(refusal.value), refusal.value.rule, refusal.value.reason)


SPAWN_PLUGIN = '''
import os
from ecliptic.bots import register_bot


class LastLegal:
    """Plays the last legal action and counts its decisions in a file named by its process."""

    def __init__(self, folder):
        self.folder = folder

    def choose(self, game, state, seat):
        with open(os.path.join(self.folder, str(os.getpid())), "a") as out:
            out.write("x")
        return game.legal_actions(state)[-1]


register_bot("lastlegal_spawn", lambda option, seed: LastLegal({folder!r}))
'''


def test_a_plugin_named_in_the_environments_keywords_plays_in_spawn_workers(tmp_path: Any, bot_registry: None) -> None:
    """A bot registered in code exists only in the process that ran the code; ``plugins=``
    is a keyword of the environment, so each ``AsyncVectorEnv`` worker (``spawn``: a fresh
    interpreter) loads the plug-in as it builds its environment, and the bot plays there."""
    import os

    plays = tmp_path / "plays"
    plays.mkdir()
    plugin = tmp_path / "plug_spawn_bots.py"
    plugin.write_text(SPAWN_PLUGIN.format(folder=str(plays)))
    vec = gymnasium.make_vec("ecliptic/Ceres-v0", num_envs=2, vectorization_mode="async",
                             vector_kwargs={"context": "spawn"}, opponents="lastlegal_spawn",
                             players=2, seat=1, plugins=[str(plugin)])
    try:
        _, info = vec.reset(seed=3)
        for _ in range(5):
            _, _, _, _, info = vec.step(np.array([int(np.flatnonzero(m)[0]) for m in info["action_mask"]]))
    finally:
        vec.close()
    workers = {int(name) for name in os.listdir(plays)} - {os.getpid()}
    assert len(workers) == 2  # each worker's env made the plug-in's bot, and it chose there


def test_a_plugin_that_is_not_a_target_is_a_clear_error(bot_registry: None) -> None:
    from ecliptic.bots.plugins import PluginError

    with pytest.raises(ValueError, match=r"^plugins is a plug-in \('mybots', .* or a list of them, not 3$"):
        adapter.EclipticEnv("ceres", opponents="random", plugins=3)  # type: ignore[arg-type]
    with pytest.raises(PluginError, match=r"^plug-in 'plug_nowhere_gym'"):
        adapter.EclipticEnv("ceres", opponents="random", plugins="plug_nowhere_gym")
