"""Random and heuristic agents playing Ecliptic through its PettingZoo AEC environment, with a
table of their win rates.

    python examples/agents_pettingzoo.py --games 100

An agent is a function from what PettingZoo hands the selected agent (its observation dict,
with the action mask) to an action id. The random agent draws an id among the mask's ones.
The heuristic agent is Ecliptic's heuristic bot: it decides on the game behind the env
(``env.unwrapped.table``: the engine's game, its state and the fixed action space) and its
choice is turned into that action's id. The bot plays fair there: it asks the engine for the
legal actions and looks only into copies re-dealt from what its seat sees (docs/bots.md).

In each configuration the agents take the seats in turn (``heuristic, random, ...`` shifted
one seat a game) and each deal is played once per seating, so neither agent keeps the first
seat or the luckier deal.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from ecliptic.adapters.pettingzoo import env as make_env
from ecliptic.bots import HeuristicBot
from ecliptic.bots.base import bot_seed
from ecliptic.games import points_name
from ecliptic.sim.tournament import wilson

Agent = Callable[[Any, dict[str, Any]], int]
"""(the env, the selected agent's observation) -> an action id."""

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("Tau Ceti, 2 players, short", {"game": "tauceti", "players": 2, "config": {"game": "short"}}),
    ("Tau Ceti, 4 players, short", {"game": "tauceti", "players": 4, "config": {"game": "short"}}),
    ("Ceres with Comets, 4 players", {"game": "ceres", "players": 4, "expansions": ["comets"]}),
]
LINEUP = ("heuristic", "random")
"""Repeated to fill the seats: 1 of each in 2-player games, 2 of each in 4-player games."""


def random_agent(seed: int) -> Agent:
    rng = np.random.default_rng(seed)
    return lambda env, obs: int(rng.choice(np.flatnonzero(obs["action_mask"])))


def heuristic_agent(seed: int) -> Agent:
    bot = HeuristicBot(seed)

    def choose(env: Any, obs: dict[str, Any]) -> int:
        table = env.unwrapped.table
        return int(table.space.id(bot.choose(table.game, table.state, table.current)))

    return choose


AGENTS: dict[str, Callable[[int], Agent]] = {"heuristic": heuristic_agent, "random": random_agent}


def play(env: Any, kinds: list[str], seed: int) -> tuple[list[float], list[int]]:
    """One game, ``kinds[s]`` playing seat ``s``: each seat's return and final points."""
    env.reset(seed=seed)
    names = list(env.agents)  # in seat order; PettingZoo removes each agent once it has seen the end
    agents = {name: AGENTS[kind](bot_seed(seed, s)) for s, (name, kind) in enumerate(zip(names, kinds, strict=True))}
    returns = dict.fromkeys(names, 0.0)
    for name in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        returns[name] += reward
        env.step(None if terminated or truncated else agents[name](env, obs))
    return [returns[name] for name in names], env.unwrapped.table.points()


def run(label: str, kwargs: dict[str, Any], games: int, seed: int) -> list[dict[str, Any]]:
    """``games`` games of one configuration; a row per agent kind over all its seat-games."""
    env = make_env(**kwargs)
    players = kwargs["players"]
    lineup = [LINEUP[s % len(LINEUP)] for s in range(players)]
    seat_games, wins, points = (dict.fromkeys(LINEUP, 0), dict.fromkeys(LINEUP, 0.0), dict.fromkeys(LINEUP, 0))
    for i in range(games):
        shift = i % len(LINEUP)
        kinds = lineup[shift:] + lineup[:shift]
        returns, final = play(env, kinds, seed + i // len(LINEUP))
        for kind, r, p in zip(kinds, returns, final, strict=True):
            seat_games[kind] += 1
            wins[kind] += r
            points[kind] += p
    rows = []
    for kind, n in seat_games.items():
        lo, hi = wilson(wins[kind], n)
        rows.append({"config": label, "game": kwargs["game"], "players": players, "agent": kind, "seat_games": n,
                     "win_rate": wins[kind] / n, "ci95": [lo, hi], "mean_points": points[kind] / n})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Random and heuristic agents through Ecliptic's PettingZoo env.")
    ap.add_argument("--games", type=int, default=40, help="games per configuration")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, help="also write the rows here")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")

    rows = [row for label, kwargs in CONFIGS for row in run(label, kwargs, args.games, args.seed)]
    table = Table(title=f"{args.games} games per configuration, seats rotated",
                  caption="4 players: two seats play each agent, so a win rate of 0.5 is every game won.")
    for column in ("configuration", "agent", "seat-games", "win rate", "95% CI", "mean points"):
        table.add_column(column, justify="left" if column in ("configuration", "agent") else "right")
    for row in rows:
        lo, hi = row["ci95"]
        table.add_row(row["config"], row["agent"], str(row["seat_games"]), f"{row['win_rate']:.3f}",
                      f"[{lo:.3f}, {hi:.3f}]", f"{row['mean_points']:.1f} {points_name(row['game'])}")
    Console().print(table)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"games": args.games, "seed": args.seed, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
