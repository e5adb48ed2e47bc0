"""A small learning agent in pure NumPy: a masked linear softmax policy trained with REINFORCE
on the Gymnasium env of Ceres against random bots (``--opponents``), then measured against a
random policy.

    python examples/reinforce_gymnasium.py --minutes 5 --seed 1 [--plot curve.png] [--save weights.npz]

``--save`` writes the trained weights; ``examples/reinforce_bot.py`` plays them as a bot anywhere
a bot plays (``ecliptic simulate --plugin examples/reinforce_bot.py:register --bots
reinforce:weights.npz``).

The policy scores every id of the game's fixed action space with ``W @ x + b`` (``x`` the
observation tensor scaled into [-1, 1] by the observation space's bounds) and samples from the
softmax over the ids the env's action mask allows; an illegal id gets probability 0, so the
agent never sends one. REINFORCE raises the log-probability of each action taken in proportion
to the episode's return minus a running-mean baseline, plus a small entropy bonus, with Adam.
With all weights 0 the policy is uniform over the legal ids, i.e. a random player: the
learning curve starts at the random baseline and the evaluation compares against that same
policy on the same game seeds.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from numpy.typing import NDArray

import ecliptic.adapters.gymnasium  # noqa: F401  (registers the ecliptic/ envs)
from ecliptic.sim.tournament import wilson

Array = NDArray[np.float64]
Mask = NDArray[np.bool_]
Chooser = Callable[[Array, Mask], int]


# The policy --------------------------------------------------------------------------------


def masked_softmax(logits: Array, mask: Mask) -> Array:
    """Softmax over the allowed entries (last axis); a masked entry gets exactly 0."""
    z = np.where(mask, logits, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    out: Array = e / e.sum(axis=-1, keepdims=True)
    return out


class LinearPolicy:
    """``logits = W @ x + b`` over the whole action space, illegal ids masked out."""

    def __init__(self, obs_size: int, actions: int) -> None:
        self.W: Array = np.zeros((actions, obs_size))
        self.b: Array = np.zeros(actions)

    def probs(self, x: Array, mask: Mask) -> Array:
        return masked_softmax(x @ self.W.T + self.b, mask)

    def sample(self, rng: np.random.Generator) -> Chooser:
        return lambda x, mask: int(rng.choice(len(mask), p=self.probs(x, mask)))

    def greedy(self, x: Array, mask: Mask) -> int:
        return int(np.argmax(np.where(mask, x @ self.W.T + self.b, -np.inf)))


@dataclass
class Batch:
    """The steps of some episodes: scaled observations, masks, actions and each step's advantage
    (its episode's return minus the baseline)."""

    x: Array
    mask: Mask
    action: NDArray[np.int64]
    advantage: Array
    episodes: int


def log_probs(p: Array, mask: Mask) -> Array:
    """log p where the mask allows (0 elsewhere, where p is 0 too: no 0 * -inf)."""
    out: Array = np.log(np.where(mask, np.maximum(p, 1e-300), 1.0))
    return out


def surrogate(policy: LinearPolicy, batch: Batch, entropy: float) -> float:
    """The objective whose gradient is REINFORCE's: per episode, the advantage-weighted sum of
    the log-probabilities of the actions taken, plus ``entropy`` times the policy's entropy."""
    p = policy.probs(batch.x, batch.mask)
    logp = log_probs(p, batch.mask)
    h = -(p * logp).sum(axis=1)
    taken = logp[np.arange(len(batch.action)), batch.action]
    return float((batch.advantage * taken + entropy * h).sum() / batch.episodes)


def surrogate_gradient(policy: LinearPolicy, batch: Batch, entropy: float) -> tuple[Array, Array]:
    """The gradient of :func:`surrogate` with respect to ``W`` and ``b``.

    d log p_a / d z = onehot(a) - p, and dH / d z_k = -p_k (log p_k + H); a masked id has
    p_k = 0 and so no gradient: what the mask forbids is never learned about."""
    p = policy.probs(batch.x, batch.mask)
    onehot = np.zeros_like(p)
    onehot[np.arange(len(batch.action)), batch.action] = 1.0
    logp = log_probs(p, batch.mask)
    h = -(p * logp).sum(axis=1, keepdims=True)
    dz = batch.advantage[:, None] * (onehot - p) - entropy * p * (logp + h)
    return dz.T @ batch.x / batch.episodes, dz.sum(axis=0) / batch.episodes


class Adam:
    """Adam ascent on the policy's parameters (Kingma & Ba, 2015)."""

    def __init__(self, policy: LinearPolicy, lr: float, beta1: float = 0.9, beta2: float = 0.999) -> None:
        self.policy, self.lr, self.beta1, self.beta2, self.t = policy, lr, beta1, beta2, 0
        self.m = [np.zeros_like(policy.W), np.zeros_like(policy.b)]
        self.v = [np.zeros_like(policy.W), np.zeros_like(policy.b)]

    def ascend(self, grads: Iterable[Array]) -> None:
        self.t += 1
        for param, g, m, v in zip((self.policy.W, self.policy.b), grads, self.m, self.v, strict=True):
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            m_hat = m / (1 - self.beta1**self.t)
            v_hat = v / (1 - self.beta2**self.t)
            param += self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


# Playing the env -------------------------------------------------------------------------


def obs_scale(space: Any) -> Array:
    """Divides each feature by its largest magnitude the observation space allows (1 where that
    is unbounded or 0), so that no feature dominates the logits by its units."""
    bound = np.maximum(np.abs(np.asarray(space.low, float)), np.abs(np.asarray(space.high, float)))
    out: Array = 1.0 / np.where(np.isfinite(bound) & (bound > 0), bound, 1.0)
    return out


@dataclass
class Episode:
    xs: list[Array] = field(default_factory=list)
    masks: list[Mask] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    ret: float = 0.0


def play(env: Any, choose: Chooser, scale: Array, seed: int) -> Episode:
    """One episode of the learning seat; the env plays the other seats."""
    obs, info = env.reset(seed=seed)
    episode, done = Episode(), False
    while not done:
        x, mask = np.asarray(obs, float) * scale, np.asarray(info["action_mask"], bool)
        action = choose(x, mask)
        episode.xs.append(x)
        episode.masks.append(mask)
        episode.actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        episode.ret += float(reward)
        done = terminated or truncated
    return episode


def batch_of(episodes: list[Episode], baseline: float) -> Batch:
    steps = [len(e.actions) for e in episodes]
    return Batch(
        x=np.array([x for e in episodes for x in e.xs]),
        mask=np.array([m for e in episodes for m in e.masks]),
        action=np.array([a for e in episodes for a in e.actions], dtype=np.int64),
        advantage=np.repeat([e.ret - baseline for e in episodes], steps).astype(float),
        episodes=len(episodes),
    )


def train(envs: list[Any], policy: LinearPolicy, scale: Array, *, seed: int, seconds: float,
          episodes: int, batch_size: int, lr: float, entropy: float) -> list[dict[str, float]]:
    """REINFORCE until the time or the episodes run out; the learning seat takes each env (seat)
    in turn. Returns the learning curve: one point per batch."""
    rng = np.random.default_rng(seed)
    adam, baseline, played = Adam(policy, lr), 0.0, 0
    curve: list[dict[str, float]] = []
    end = time.monotonic() + seconds
    while played < episodes and time.monotonic() < end:
        batch = [play(envs[(played + i) % len(envs)], policy.sample(rng), scale, seed * 1_000_003 + played + i)
                 for i in range(min(batch_size, episodes - played))]
        played += len(batch)
        mean = float(np.mean([e.ret for e in batch]))
        baseline = baseline if curve else mean
        adam.ascend(surrogate_gradient(policy, batch_of(batch, baseline), entropy))
        baseline = 0.9 * baseline + 0.1 * mean
        curve.append({"episodes": played, "mean_return": mean, "baseline": baseline})
    return curve


# Measuring ---------------------------------------------------------------------------------


@dataclass
class Score:
    name: str
    returns: list[float]
    seats: int = 1
    """Game ``i`` was played from seat ``i % seats``."""

    @property
    def mean(self) -> float:
        return float(np.mean(self.returns))

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(sum(self.returns), len(self.returns))

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {"policy": self.name, "games": len(self.returns), "win_rate": self.mean, "ci95": [lo, hi],
                "win_rate_by_seat": self.by_seat()}

    def by_seat(self) -> list[float]:
        return [float(np.mean(self.returns[s::self.seats])) for s in range(self.seats)]


def evaluate(envs: list[Any], name: str, choose: Chooser, scale: Array, games: int, seed: int) -> Score:
    """``games`` episodes on fixed seeds, seats taken in turn: every policy meets the same deals."""
    return Score(name, [play(envs[i % len(envs)], choose, scale, seed + i).ret for i in range(games)], len(envs))


def p_value(a: Score, b: Score) -> float:
    """Two-sided p-value of the two-proportion z-test that ``a`` and ``b`` win equally often."""
    n, m = len(a.returns), len(b.returns)
    pooled = (sum(a.returns) + sum(b.returns)) / (n + m)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n + 1 / m))
    return 1.0 if se == 0 else math.erfc(abs(a.mean - b.mean) / se / math.sqrt(2))


def plot(curve: list[dict[str, float]], random: Score, trained: Score, path: Path, title: str,
         opponents: str = "random") -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = np.array([c["episodes"] for c in curve])
    y = np.array([c["mean_return"] for c in curve])
    smooth = np.array([y[max(0, i - 19):i + 1].mean() for i in range(len(y))])
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(x, y, color="tab:blue", alpha=0.25, lw=0.8, label="win rate per batch (training, sampled)")
    ax.plot(x, smooth, color="tab:blue", lw=2, label="smoothed (20 batches)")
    lo, hi = random.interval
    ax.axhline(random.mean, color="tab:gray", ls="--", label=f"random policy {random.mean:.3f}")
    ax.axhspan(lo, hi, color="tab:gray", alpha=0.15, label="random policy, 95% CI")
    tlo, thi = trained.interval
    yerr = [[max(0.0, trained.mean - tlo)], [max(0.0, thi - trained.mean)]]  # no -1e-16 at a rate of 1
    ax.errorbar([x[-1]], [trained.mean], yerr=yerr, fmt="o",
                color="tab:red", capsize=4, label=f"{trained.name} {trained.mean:.3f} (evaluation)")
    ax.set(xlabel="training episodes", ylabel=f"win rate vs {opponents} bots", title=title)
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(alpha=0.3)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


def save(path: Path, policy: LinearPolicy, scale: Array) -> None:
    """The weights as ``examples/reinforce_bot.py`` reads them (float32 ``W``, ``b``, ``scale``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:  # (savez would add .npz to a name without it)
        np.savez_compressed(out, W=policy.W.astype(np.float32), b=policy.b.astype(np.float32),
                            scale=scale.astype(np.float32))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--env", default="ecliptic/Ceres-v0")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponents", default="random", help="the bot of the other seats (random, heuristic, ...)")
    ap.add_argument("--expansions", default="", help="Ceres expansions, comma-separated (comets)")
    ap.add_argument("--minutes", type=float, default=5.0, help="training time budget")
    ap.add_argument("--episodes", type=int, default=10**9, help="training episode budget")
    ap.add_argument("--batch", type=int, default=32, help="episodes per update")
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--eval-games", type=int, default=400, help="evaluation games per policy")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--plot", type=Path, default=None,
                    help="write the learning curve here; its .json (curve, evaluation) and .npz (weights) go "
                         "beside it (without it nothing is written: a trial run must not overwrite a result)")
    ap.add_argument("--save", type=Path, default=None,
                    help="write the trained weights here (.npz: W, b, scale), for examples/reinforce_bot.py")
    args = ap.parse_args(argv)
    for name in ("episodes", "batch", "eval_games"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be at least 1")
    if not args.minutes > 0:
        ap.error("--minutes must be more than 0")
    if not args.lr > 0:
        ap.error("--lr must be more than 0 (a step against the gradient would unlearn)")

    options = {"expansions": args.expansions.split(",")} if args.expansions else {}
    try:
        envs = [gymnasium.make(args.env, opponents=args.opponents, players=args.players, seat=s, **options)
                for s in range(args.players)]
    except (ValueError, gymnasium.error.Error) as exc:  # a bad game config, bot or env id
        ap.error(str(exc))
    space: Any = envs[0].observation_space
    actions: Any = envs[0].action_space
    scale = obs_scale(space)
    policy = LinearPolicy(int(space.shape[0]), int(actions.n))

    start = time.monotonic()
    curve = train(envs, policy, scale, seed=args.seed, seconds=args.minutes * 60, episodes=args.episodes,
                  batch_size=args.batch, lr=args.lr, entropy=args.entropy)
    trained_seconds = time.monotonic() - start

    eval_seed = 10**9 + args.seed  # deals the training never saw
    rng = np.random.default_rng(args.seed + 1)
    random = evaluate(envs, "random policy", LinearPolicy(policy.W.shape[1], len(policy.b)).sample(rng),
                      scale, args.eval_games, eval_seed)
    sampled = evaluate(envs, "trained, sampled", policy.sample(rng), scale, args.eval_games, eval_seed)
    greedy = evaluate(envs, "trained, greedy", policy.greedy, scale, args.eval_games, eval_seed)
    scores = [random, sampled, greedy]

    setting = f"{args.env}{' + ' + args.expansions if args.expansions else ''}, {args.players} players"
    print(f"{setting}, learning seat vs {args.opponents} bots; trained {len(curve)} batches, "
          f"{curve[-1]['episodes'] if curve else 0} episodes in {trained_seconds:.0f} s")
    for s in scores:
        lo, hi = s.interval
        versus = "" if s is random else f"  p = {p_value(s, random):.2g} vs random"
        seats = ", ".join(f"{r:.3f}" for r in s.by_seat())
        print(f"  {s.name:18} win rate {s.mean:.3f}  95% CI [{lo:.3f}, {hi:.3f}]  ({len(s.returns)} games; "
              f"by seat {seats}){versus}")

    if args.save is not None:
        save(args.save, policy, scale)
        print(f"wrote the weights to {args.save}")
    if args.plot is None:
        print("(no --plot: the curve and the evaluation were not written)")
        return 0
    args.plot.parent.mkdir(parents=True, exist_ok=True)
    args.plot.with_suffix(".json").write_text(json.dumps({
        "env": args.env, "players": args.players, "expansions": options.get("expansions", []),
        "opponents": args.opponents, "seed": args.seed,
        "batch": args.batch, "lr": args.lr, "entropy": args.entropy, "training_seconds": round(trained_seconds, 1),
        "curve": curve,
        "evaluation": [s.to_json() | ({} if s is random else {"p_vs_random": p_value(s, random)}) for s in scores],
    }, indent=1) + "\n")
    save(args.plot.with_suffix(".npz"), policy, scale)
    best = max(sampled, greedy, key=lambda s: s.mean)
    title = f"REINFORCE, masked linear softmax: {setting} vs {args.opponents} bots"
    plot(curve, random, best, args.plot, title, args.opponents)
    print(f"wrote {args.plot} and its .json and .npz")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
