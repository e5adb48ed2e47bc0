"""The examples (examples/): each runs as a script with tiny budgets and writes its files; the
REINFORCE agent's gradient is the true gradient of its objective, its masks are respected, and
it learns on a toy env where the best action is known."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import gymnasium
import numpy as np
import pytest

import ecliptic.adapters.gymnasium  # noqa: F401  (registers the ecliptic/ envs)

ROOT = Path(__file__).resolve().parent.parent


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


rf = load("reinforce_gymnasium")


class Toy(gymnasium.Env[np.ndarray, np.int64]):
    """Three steps; each shows a one-hot cue among 4 and allows the cued action plus two others
    (action 4 never). The return is the share of steps where the cued action was taken."""

    def __init__(self) -> None:
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, (4,), np.float32)
        self.action_space = gymnasium.spaces.Discrete(5)

    def _show(self) -> tuple[np.ndarray, dict[str, Any]]:
        self.cue = int(self.np_random.integers(4))
        others = self.np_random.permutation([a for a in range(4) if a != self.cue])[:2]
        mask = np.zeros(5, bool)
        mask[[self.cue, *others]] = True
        obs = np.zeros(4, np.float32)
        obs[self.cue] = 1.0
        return obs, {"action_mask": mask}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.steps, self.right = 0, 0
        self.mask = np.zeros(5, bool)
        obs, info = self._show()
        self.mask = info["action_mask"]
        return obs, info

    def step(self, action: np.int64) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        assert self.mask[int(action)], f"illegal action {action}"
        self.right += int(action) == self.cue
        self.steps += 1
        obs, info = self._show()
        self.mask = info["action_mask"]
        done = self.steps == 3
        return obs, (self.right / 3 if done else 0.0), done, False, info


def tiny_batch(rng: np.random.Generator) -> Any:
    mask = rng.random((6, 5)) < 0.6
    mask[np.arange(6), rng.integers(5, size=6)] = True
    action = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
    return rf.Batch(x=rng.normal(size=(6, 3)), mask=mask, action=action, advantage=rng.normal(size=6), episodes=2)


def test_the_reinforce_gradient_is_the_numerical_gradient_of_its_objective() -> None:
    rng = np.random.default_rng(3)
    policy = rf.LinearPolicy(3, 5)
    policy.W[:] = rng.normal(size=(5, 3))
    policy.b[:] = rng.normal(size=5)
    batch = tiny_batch(rng)
    dW, db = rf.surrogate_gradient(policy, batch, 0.1)
    eps = 1e-6
    for param, grad in ((policy.W, dW), (policy.b, db)):
        numeric = np.zeros_like(param)
        for i in np.ndindex(param.shape):
            keep = param[i]
            param[i] = keep + eps
            up = rf.surrogate(policy, batch, 0.1)
            param[i] = keep - eps
            down = rf.surrogate(policy, batch, 0.1)
            param[i] = keep
            numeric[i] = (up - down) / (2 * eps)
        np.testing.assert_allclose(grad, numeric, atol=1e-6)
    assert np.abs(dW).max() > 1e-3  # not a vacuous match of two zeros


def test_the_policy_never_picks_an_id_the_mask_forbids() -> None:
    rng = np.random.default_rng(5)
    policy = rf.LinearPolicy(4, 5)
    policy.b[4] = 1e6  # the forbidden id is by far the most attractive
    policy.W[4] = 1e6
    sample = policy.sample(rng)
    for _ in range(300):
        mask = rng.random(5) < 0.5
        mask[4] = False
        mask[rng.integers(4)] = True
        x = rng.normal(size=4)
        p = policy.probs(x, mask)
        assert np.all(p[~mask] == 0) and p.sum() == pytest.approx(1)
        assert mask[sample(x, mask)] and mask[policy.greedy(x, mask)]


def test_reinforce_learns_the_cued_action_on_a_toy_env() -> None:
    env = Toy()
    scale = rf.obs_scale(env.observation_space)
    policy = rf.LinearPolicy(4, 5)
    before = rf.evaluate([env], "random", policy.sample(np.random.default_rng(1)), scale, 200, 99)
    curve = rf.train([env], policy, scale, seed=1, seconds=float("inf"), episodes=1500, batch_size=16, lr=0.05,
                     entropy=0.0)
    after = rf.evaluate([env], "trained", policy.greedy, scale, 200, 99)
    assert curve[-1]["episodes"] == 1500 and len(curve) == 94
    assert before.mean < 0.5 and after.mean > 0.95  # random is right a third of the time


def test_the_policy_sends_the_ceres_env_only_legal_ids() -> None:
    """With large random weights (a far from uniform policy) every id sent is one the env
    accepts: it raises on an illegal id, so whole games played prove the mask respected."""
    env: Any = gymnasium.make("ecliptic/Ceres-v0", opponents="random", players=2, seat=1)
    rng = np.random.default_rng(7)
    policy = rf.LinearPolicy(env.observation_space.shape[0], env.action_space.n)
    policy.W[:] = 100 * rng.normal(size=policy.W.shape)
    policy.b[:] = 100 * rng.normal(size=policy.b.shape)
    scale = rf.obs_scale(env.observation_space)
    for seed in range(5):
        episode = rf.play(env, policy.sample(rng), scale, seed)
        assert episode.actions and all(m[a] for m, a in zip(episode.masks, episode.actions, strict=True))


def run_example(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, str(ROOT / "examples" / f"{name}.py"), *args], capture_output=True,
                          text=True, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done


def test_the_reinforce_example_runs_with_tiny_budgets(tmp_path: Path) -> None:
    plot = tmp_path / "curve.png"
    done = run_example("reinforce_gymnasium", "--episodes", "8", "--batch", "4", "--eval-games", "6",
                       "--seed", "3", "--plot", str(plot))
    assert plot.read_bytes().startswith(b"\x89PNG")
    report = json.loads(plot.with_suffix(".json").read_text())
    assert [c["episodes"] for c in report["curve"]] == [4, 8]
    assert [e["policy"] for e in report["evaluation"]] == ["random policy", "trained, sampled", "trained, greedy"]
    for e in report["evaluation"]:  # (Wilson's bounds are 1e-16 off at a rate of 0 or 1)
        assert e["games"] == 6 and e["ci95"][0] - 1e-9 <= e["win_rate"] <= e["ci95"][1] + 1e-9
        assert np.mean(e["win_rate_by_seat"]) == pytest.approx(e["win_rate"])  # 3 games from each seat
    weights = np.load(plot.with_suffix(".npz"))
    assert weights["W"].shape == (55, weights["scale"].shape[0])
    assert "random policy" in done.stdout


def test_the_saved_reinforce_policy_plays_as_a_plugin_bot_in_simulate(tmp_path: Path) -> None:
    """Train with tiny budgets, --save the weights, and play them through `ecliptic simulate
    --plugin examples/reinforce_bot.py:register` (on two worker processes, which load the plug-in
    too); the bot plays the trained policy's greedy choice."""
    weights = tmp_path / "weights.npz"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}  # this checkout's ecliptic, from any folder
    done = run_example("reinforce_gymnasium", "--episodes", "4", "--batch", "4", "--eval-games", "2", "--seed", "3",
                       "--save", str(weights))
    assert f"wrote the weights to {weights}" in done.stdout
    played = subprocess.run([sys.executable, "-c", "from ecliptic.entry import main; main()", "simulate", "--game",
                             "ceres", "--players", "2", "--games", "4", "--workers", "2", "--json", "--plugin",
                             str(ROOT / "examples" / "reinforce_bot.py") + ":register", "--bots",
                             f"reinforce:{weights}"], capture_output=True, text=True, check=False, cwd=tmp_path,
                            env=env)
    assert played.returncode == 0, played.stderr
    summary = json.loads(played.stdout)
    assert summary["games"] == 4 and summary["bot"] == f"reinforce:{weights}"

    bot_module = load("reinforce_bot")
    from ecliptic.adapters.policy import PolicyBot
    from ecliptic.games import get_game

    data = np.load(weights)
    trained = rf.LinearPolicy(data["W"].shape[1], data["W"].shape[0])
    trained.W[:], trained.b[:] = data["W"], data["b"]
    bot = PolicyBot("reinforce", bot_module.load(str(weights)))
    game = get_game("ceres")
    state = game.new_game({"players": 2}, 9)
    for _ in range(10):
        seat = state.current_player
        tensor, mask, _legal, space = bot.inputs(game, state, seat)
        expected = trained.greedy(np.asarray(tensor, float) * data["scale"], mask.astype(bool))
        assert space.id(bot.choose(game, state, seat)) == expected
        game.apply(state, bot.choose(game, state, seat))
    wrong = subprocess.run([sys.executable, "-c", "from ecliptic.entry import main; main()", "simulate", "--game",
                            "ceres", "--players", "2", "--games", "1", "--plugin",
                            str(ROOT / "examples" / "reinforce_bot.py") + ":register", "--bots", "reinforce:nope.npz"],
                           capture_output=True, text=True, check=False, cwd=tmp_path, env=env)
    assert wrong.returncode == 2 and "there is no weights file 'nope.npz'" in wrong.stderr


def test_the_reinforce_example_writes_nothing_without_plot(tmp_path: Path) -> None:
    """A trial run in the repository must not overwrite the committed curve under docs/results."""
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "reinforce_gymnasium.py"), "--episodes", "2",
                           "--batch", "2", "--eval-games", "2"], capture_output=True, text=True, check=False,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "random policy" in done.stdout and "were not written" in done.stdout
    assert list(tmp_path.iterdir()) == []


def test_the_pettingzoo_example_runs_with_tiny_budgets(tmp_path: Path) -> None:
    out = tmp_path / "agents.json"
    done = run_example("agents_pettingzoo", "--games", "2", "--json", str(out))
    rows = json.loads(out.read_text())["rows"]
    assert [(r["config"], r["agent"]) for r in rows] == [
        (config, agent) for config in ("Tau Ceti, 2 players, short", "Tau Ceti, 4 players, short",
                                       "Ceres with Comets, 4 players") for agent in ("heuristic", "random")]
    for r in rows:
        assert r["seat_games"] == r["players"]  # 2 games, half the seats each
        assert 0 <= r["win_rate"] <= 1 and r["mean_points"] >= 0
    for config in {r["config"] for r in rows}:  # the agents share each game's one win
        assert sum(r["win_rate"] * r["seat_games"] for r in rows if r["config"] == config) == pytest.approx(2)
    assert "heuristic" in done.stdout and "95% CI" in done.stdout


@pytest.mark.parametrize(("name", "args", "message"), [
    ("reinforce_gymnasium", ["--players", "7"], "Ceres is played here by 1-4 players"),
    ("reinforce_gymnasium", ["--opponents", "nobody"], "unknown bot 'nobody'"),
    ("reinforce_gymnasium", ["--eval-games", "0"], "--eval-games must be at least 1"),
    ("reinforce_gymnasium", ["--lr", "-0.01"], "--lr must be more than 0"),
    ("agents_pettingzoo", ["--games", "0"], "--games must be at least 1"),
])
def test_bad_options_are_refused_with_a_clear_error_and_write_nothing(tmp_path: Path, name: str, args: list[str],
                                                                       message: str) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "examples" / f"{name}.py"), *args,
                           *(["--plot", str(tmp_path / "x.png")] if name == "reinforce_gymnasium" else [])],
                          capture_output=True, text=True, check=False, cwd=tmp_path)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_learning_curve_is_drawn_when_the_trained_policy_wins_every_game(tmp_path: Path) -> None:
    curve = [{"episodes": 32.0 * (i + 1), "mean_return": min(1.0, 0.5 + i / 10), "baseline": 0.5} for i in range(8)]
    random, trained = rf.Score("random policy", [0.0, 1.0] * 200), rf.Score("trained, greedy", [1.0] * 400)
    rf.plot(curve, random, trained, tmp_path / "curve.png", "all won")
    assert (tmp_path / "curve.png").read_bytes().startswith(b"\x89PNG")
