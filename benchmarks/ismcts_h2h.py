"""OpenSpiel's ISMCTS against Ecliptic's ISMCTS, head to head at equal wall time per decision.

Issue 18 ("Strength against the field's reference"). Tau Ceti through the OpenSpiel adapter
(``pyspiel.load_game("python_ecliptic_tauceti", ...)``): some seats are OpenSpiel's ISMCTS
(``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with OpenSpiel's random-rollout evaluator,
searching the pyspiel state and its ``resample_from_infostate``), the others Ecliptic's
(``ismcts:<ms>ms``, searching the engine state). The engine state is kept in lockstep with the
adapter's state: every action, whoever chose it, is applied to both, and the harness checks at
every decision that both have the same player to move and the same legal action ids, so the
engine decides legality and both bots play one and the same game::

    python -m benchmarks.ismcts_h2h --players 4 --games 64 --seconds 0.25 --part 1/2 \\
        --out docs/results/ismcts-h2h/4p-part1.json
    python -m benchmarks.ismcts_h2h merge docs/results/ismcts-h2h/4p-part*.json

Seats: the two sides fill the table in turn and rotate with the factions exactly as a
tournament of two bots does (:func:`ecliptic.sim.tournament.seating`): at 4 players two seats
each, every side in every seat and faction equally often over 32 games (8 at 2 players).

Equal wall time: Ecliptic's bot gets its ``seconds`` budget. OpenSpiel's Python ISMCTS takes a
simulation count (the C++ ``pyspiel.ISMCTSBot``, which has a wall-clock limit, crashes on any
Python game in open-spiel 2.0.2: docs/bots.md), so each OpenSpiel seat counts its simulations
(through the bot's own resampler hook) and the time they took, and before every decision sets
the count to the budget over the seconds per simulation of its recent decisions (an
exponential mean, ``RATE_WEIGHT`` on the newest), at least ``MIN_SIMULATIONS``; its first
decision of a game plays ``MIN_SIMULATIONS``. The result file keeps the time every searched
decision took on each side, so the merge shows how equal the times were instead of assuming it.
Decisions with one legal action are played without asking either bot, and not timed.

Parts (``--part K/N``) play the K-th of N contiguous blocks of the game indices and write
their own file after every game; a part started again skips the games its file already has
(same settings required). ``merge`` folds any parts into one table: games won per side with
95% Wilson intervals, a two-sided exact sign test (games won wholly by one side, against an
even split), wins per seat position, and the time per decision of each side.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from itertools import islice
from pathlib import Path
from typing import Any

from ecliptic.bots.base import bot_seed, make_bot
from ecliptic.engine import durable
from ecliptic.games import get_game
from ecliptic.sim.simulate import seed_stream
from ecliptic.sim.tournament import faction_names, seating, wilson

SIDES = ("ecliptic", "openspiel")
FORMAT = "ecliptic-ismcts-h2h/1"
ADAPTER = "python_ecliptic_tauceti"
MIN_SIMULATIONS = 2
"""OpenSpiel's ISMCTS spends its first simulation expanding the root; it needs a second to
have visited any action at all (its final policy asserts a visit)."""
SEED_MASK = 0x7FFF_FFFF
"""Game seeds are a game parameter of the adapter, and OpenSpiel's integer parameters are C ints."""
RATE_WEIGHT = 0.5
"""The weight of the newest decision in an OpenSpiel seat's seconds per simulation."""


@dataclass(frozen=True)
class Settings:
    """Everything that fixes a run (a part resumes and parts merge only under equal settings)."""

    players: int
    games: int
    seconds: float
    length: str = "short"
    seed: int = 18
    uct_c: float = 2.0
    rollouts: int = 1
    final_policy: str = "max_visit_count"
    adapter: str = ADAPTER

    @property
    def ecliptic_bot(self) -> str:
        return f"ismcts:{self.seconds * 1000:g}ms"

    @property
    def config(self) -> dict[str, Any]:
        return {"players": self.players, "game": self.length}

    @classmethod
    def from_json(cls, data: Any) -> Settings:
        if not isinstance(data, dict):
            raise ValueError("its settings are not a table")
        try:
            return cls(**data)
        except TypeError as exc:
            raise ValueError(f"its settings are not this benchmark's ({exc})") from None


# One game ------------------------------------------------------------------------------


def adapter_params(settings: Settings, factions: Sequence[str], seed: int) -> dict[str, Any]:
    """The adapter's game parameters for the engine configuration ``new_game(config, seed)``."""
    return {"players": settings.players, "game": settings.length, "factions": ",".join(factions), "seed": seed}


class OpenSpielSeat:
    """OpenSpiel's Python ISMCTS for one seat, its simulation count kept at the wall-time budget.

    The resampler hook is the bot's own default (``state.resample_from_infostate``) given a
    sampler from the seat's seeded generator, so a game replays; it also counts simulations."""

    def __init__(self, game: Any, settings: Settings, seed: int) -> None:
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts

        self.game = game
        self.uct_c = settings.uct_c
        self.final_policy = settings.final_policy
        self.seconds = settings.seconds
        self._random = np.random.RandomState(seed % 2**32)
        self.evaluator = mcts.RandomRolloutEvaluator(settings.rollouts, np.random.RandomState((seed >> 32) % 2**32))
        self._ismcts = ismcts
        self.simulations = 0
        self.seconds_per_simulation: float | None = None

    def _resample(self, state: Any, player: int) -> Any:
        self.simulations += 1
        return state.resample_from_infostate(player, self._random.uniform)

    def step(self, state: Any) -> tuple[int, int]:
        """The action id chosen, and the simulations it took."""
        rate = self.seconds_per_simulation
        planned = MIN_SIMULATIONS if rate is None else max(MIN_SIMULATIONS, round(self.seconds / rate))
        bot = self._ismcts.ISMCTSBot(  # a bot is only its settings: one per decision, its count planned
            self.game, self.evaluator, self.uct_c, planned, random_state=self._random,
            final_policy_type=self._ismcts.ISMCTSFinalPolicyType[self.final_policy.upper()],
            allow_inconsistent_action_sets=True)
        bot.set_resampler(self._resample)
        self.simulations = 0
        began = time.perf_counter()
        action = int(bot.step(state))
        took = time.perf_counter() - began
        newest = took / max(self.simulations, 1)
        self.seconds_per_simulation = newest if rate is None else RATE_WEIGHT * newest + (1 - RATE_WEIGHT) * rate
        return action, self.simulations


class Diverged(RuntimeError):
    """The adapter's state and the engine's no longer agree (a harness or adapter bug)."""


def play_game(settings: Settings, index: int, seed: int) -> dict[str, Any]:
    """Play game ``index`` (seeded ``seed``) to the end; its result as the file keeps it."""
    import pyspiel

    if settings.adapter == ADAPTER:
        importlib.import_module("ecliptic.adapters.openspiel")  # registers the adapter's games
    game = get_game("tauceti")
    seat = seating(index, SIDES, settings.players, faction_names("tauceti"))
    config = {**settings.config, "factions": list(seat.factions)}
    state = game.new_game(config, seed)
    space = game.action_space(state)
    ps = pyspiel.load_game(settings.adapter, adapter_params(settings, seat.factions, seed)).new_initial_state()
    bots: list[Any] = []
    for s, side in enumerate(seat.bots):
        own = bot_seed(seed, s)
        bots.append(make_bot(settings.ecliptic_bot, own) if side == "ecliptic"
                    else OpenSpielSeat(ps.get_game(), settings, own))
    think: dict[str, list[float]] = {side: [] for side in SIDES}
    simulations: list[int] = []
    decisions = forced = 0
    while not state.is_over:
        who = state.current_player
        legal = game.legal_actions(state)
        ids = sorted(space.id(a) for a in legal)
        if ps.is_terminal() or ps.current_player() != who or sorted(ps.legal_actions()) != ids:
            raise Diverged(f"game {index + 1} (seed {seed}), decision {decisions + 1}: the adapter's state "
                           f"is not the engine's (player {ps.current_player()}, not {who})")
        side = seat.bots[who]
        if len(legal) == 1:
            chosen = ids[0]
            forced += 1
        elif side == "ecliptic":
            began = time.perf_counter()
            chosen = space.id(bots[who].choose(game, state, who))
            think[side].append(time.perf_counter() - began)
        else:
            began = time.perf_counter()
            chosen, sims = bots[who].step(ps)
            think[side].append(time.perf_counter() - began)
            simulations.append(sims)
        game.apply(state, space.action(chosen))  # the engine refuses an illegal action
        ps.apply_action(chosen)
        decisions += 1
    if not ps.is_terminal():
        raise Diverged(f"game {index + 1} (seed {seed}): the engine's game is over, the adapter's is not")
    returns = [float(r) for r in game.returns(state)]
    view = game.observe(state, None)
    finals = view.get("final_scores") or []
    return {
        "index": index, "seed": seed, "sides": list(seat.bots),
        "factions": [p.get("faction", "") for p in view.get("players", [])],
        "returns": returns, "adapter_returns": [float(r) for r in ps.returns()],
        "gp": [float(finals[s]["total"]) if s < len(finals) else returns[s] for s in range(settings.players)],
        "rounds": int(view.get("round", 0)), "decisions": decisions, "forced": forced,
        "think_ms": {side: [round(1000 * t, 2) for t in ts] for side, ts in think.items()},
        "simulations": simulations,
    }


# Parts ---------------------------------------------------------------------------------


def part_indices(games: int, part: int, parts: int) -> range:
    """The game indices of part ``part`` (1-based) of ``parts`` contiguous blocks."""
    if not 1 <= part <= parts:
        raise ValueError(f"part {part} of {parts} does not exist")
    return range(games * (part - 1) // parts, games * part // parts)


def read_part(path: Path) -> tuple[Settings, list[dict[str, Any]]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not a result file of this benchmark ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("games"), list):
        raise ValueError(f"{path}: not a result file of this benchmark (no {FORMAT!r} format)")
    try:
        return Settings.from_json(data.get("settings")), data["games"]
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


def write_part(path: Path, settings: Settings, part: tuple[int, int], games: list[dict[str, Any]]) -> None:
    """Atomically and durably (:func:`ecliptic.engine.durable.write_text`): a part killed while
    writing, or a power cut, keeps its previous file, never half of one; the hours of games it
    holds are the whole point of resuming a part."""
    durable.write_text(path, json.dumps({"format": FORMAT, "settings": asdict(settings), "part": list(part),
                                         "games": sorted(games, key=lambda g: g["index"])}, indent=1) + "\n")


def run_part(settings: Settings, part: int, parts: int, out: Path,
             progress: Callable[[str], None] = lambda line: None) -> list[dict[str, Any]]:
    """Play this part's games that ``out`` does not have yet, saving after every game."""
    indices = part_indices(settings.games, part, parts)
    done: list[dict[str, Any]] = []
    if out.exists():
        theirs, done = read_part(out)
        if theirs != settings:
            raise ValueError(f"{out} was played with other settings ({theirs}); use another --out")
    have = {g["index"] for g in done}
    seeds = [s & SEED_MASK for s in islice(seed_stream(settings.seed), settings.games)]
    for i in indices:
        if i in have:
            continue
        began = time.perf_counter()
        result = play_game(settings, i, seeds[i])
        done.append(result)
        write_part(out, settings, (part, parts), done)
        won = {side: sum(r for r, s in zip(result["returns"], result["sides"], strict=True) if s == side)
               for side in SIDES}
        progress(f"game {i + 1}: {result['decisions']} decisions, round {result['rounds']}, "
                 f"ecliptic {won['ecliptic']:g} openspiel {won['openspiel']:g}, {time.perf_counter() - began:.0f} s")
    return done


# Merge ---------------------------------------------------------------------------------


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact binomial p-value of ``wins`` against ``losses`` under an even chance."""
    n = wins + losses
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(0, min(wins, losses) + 1)) / (1 << n)
    return min(1.0, 2 * tail)


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def merge(paths: Sequence[Path]) -> dict[str, Any]:
    """One table from any parts of one run (a game in two files counts once)."""
    if not paths:
        raise ValueError("name at least one result file")
    settings: Settings | None = None
    games: dict[int, dict[str, Any]] = {}
    for path in paths:
        theirs, part = read_part(path)
        if settings is not None and theirs != settings:
            raise ValueError(f"{path} was played with other settings than {paths[0]}")
        settings = theirs
        for g in part:
            games.setdefault(g["index"], g)
    assert settings is not None
    played = [games[i] for i in sorted(games)]
    n = len(played)
    share = {side: [sum(r for r, s in zip(g["returns"], g["sides"], strict=True) if s == side) for g in played]
             for side in SIDES}
    whole = {side: sum(1 for x in share[side] if x >= 1 - 1e-9) for side in SIDES}
    by_seat: dict[str, list[float]] = {side: [0.0] * settings.players for side in SIDES}
    seat_games: dict[str, list[int]] = {side: [0] * settings.players for side in SIDES}
    for g in played:
        for seat, (side, r) in enumerate(zip(g["sides"], g["returns"], strict=True)):
            by_seat[side][seat] += r
            seat_games[side][seat] += 1
    sides: dict[str, Any] = {}
    for side in SIDES:
        wins = sum(share[side])
        lo, hi = wilson(wins, n)
        ms = [t for g in played for t in g["think_ms"][side]]
        gp = [x for g in played for x, s in zip(g["gp"], g["sides"], strict=True) if s == side]
        sides[side] = {
            "wins": wins, "win_rate": wins / n if n else 0.0, "win_rate_ci95": [lo, hi],
            "mean_gp": statistics.fmean(gp) if gp else 0.0,
            "whole_wins": whole[side],
            "by_seat": [{"seat": s + 1, "games": seat_games[side][s], "wins": by_seat[side][s]}
                        for s in range(settings.players)],
            "decisions": len(ms),
            "ms_per_decision": {"mean": statistics.fmean(ms) if ms else 0.0, "p50": percentile(ms, 0.5),
                                "p90": percentile(ms, 0.9), "p99": percentile(ms, 0.99),
                                "max": max(ms, default=0.0)},
        }
    sims = [x for g in played for x in g["simulations"]]
    sides["openspiel"]["simulations_per_decision"] = {"mean": statistics.fmean(sims) if sims else 0.0,
                                                       "p50": percentile(sims, 0.5), "min": min(sims, default=0),
                                                       "max": max(sims, default=0)}
    return {
        "settings": asdict(settings), "games": n, "complete": n == settings.games,
        "mean_rounds": statistics.fmean(g["rounds"] for g in played) if played else 0.0,
        "mean_decisions": statistics.fmean(g["decisions"] for g in played) if played else 0.0,
        "sides": sides,
        "sign_test": {"ecliptic_whole_wins": whole["ecliptic"], "openspiel_whole_wins": whole["openspiel"],
                      "shared": n - whole["ecliptic"] - whole["openspiel"],
                      "p_two_sided": sign_test(whole["ecliptic"], whole["openspiel"])},
    }


def table(merged: dict[str, Any]) -> str:
    """The merged result as a Markdown table (docs/bots.md quotes it)."""
    s = merged["settings"]
    lines = [f"{merged['games']} of {s['games']} games, Tau Ceti {s['players']} players ({s['length']}), "
             f"{s['seconds'] * 1000:g} ms per decision{'' if merged['complete'] else ' (partial)'}; "
             f"mean {merged['mean_rounds']:.1f} rounds, {merged['mean_decisions']:.0f} decisions",
             "",
             "| side | games won | win rate | 95% CI | GP per seat | by seat (wins/games) | searched decisions | "
             "ms per decision: mean / p50 / p90 / p99 |",
             "|---|---:|---:|---|---:|---|---:|---|"]
    for side, v in merged["sides"].items():
        lo, hi = v["win_rate_ci95"]
        seats = ", ".join(f"{_count(b['wins'])}/{b['games']}" for b in v["by_seat"])
        t = v["ms_per_decision"]
        lines.append(f"| {side} | {_count(v['wins'])} | {v['win_rate']:.1%} | {lo:.1%}–{hi:.1%} | "
                     f"{v['mean_gp']:.2f} | {seats} | {v['decisions']} | "
                     f"{t['mean']:.0f} / {t['p50']:.0f} / {t['p90']:.0f} / {t['p99']:.0f} |")
    st = merged["sign_test"]
    sims = merged["sides"]["openspiel"]["simulations_per_decision"]
    lines += ["", f"Sign test (games won wholly by one side): ecliptic {st['ecliptic_whole_wins']}, openspiel "
              f"{st['openspiel_whole_wins']}, shared {st['shared']}; two-sided p = {st['p_two_sided']:.2g}. "
              f"OpenSpiel simulations per decision: mean {sims['mean']:.1f}, median {sims['p50']:g}, "
              f"{sims['min']}–{sims['max']}."]
    return "\n".join(lines)


def _count(wins: float) -> str:
    """A count of wins, shared wins (1/k each) as two decimals."""
    return f"{wins:.0f}" if wins == int(wins) else f"{wins:.2f}"


# Command line --------------------------------------------------------------------------


def _part(text: str) -> tuple[int, int]:
    k, slash, n = text.partition("/")
    if not slash or not k.isdigit() or not n.isdigit() or not 1 <= int(k) <= int(n):
        raise argparse.ArgumentTypeError(f"a part is K/N with 1 <= K <= N, like 1/2 (got {text!r})")
    return int(k), int(n)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["merge"]:
        p = argparse.ArgumentParser(prog="python -m benchmarks.ismcts_h2h merge")
        p.add_argument("files", nargs="+", type=Path)
        p.add_argument("--json", type=Path, help="also write the merged figures here")
        m = p.parse_args(args[1:])
        try:
            merged = merge(m.files)
        except ValueError as exc:
            p.exit(2, f"error: {exc}\n")
        if m.json:
            m.json.write_text(json.dumps(merged, indent=1) + "\n", encoding="utf-8")
        print(table(merged))
        return 0
    p = argparse.ArgumentParser(prog="python -m benchmarks.ismcts_h2h",
                                description="OpenSpiel's ISMCTS against Ecliptic's at equal time per decision")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    p.add_argument("--games", type=int, default=64)
    p.add_argument("--seconds", type=float, default=1.0, help="wall time per decision, each side")
    p.add_argument("--length", choices=("short", "full"), default="short")
    p.add_argument("--seed", type=int, default=18)
    p.add_argument("--uct-c", type=float, default=2.0, help="OpenSpiel's UCT constant")
    p.add_argument("--rollouts", type=int, default=1, help="OpenSpiel's random rollouts per leaf")
    p.add_argument("--final-policy", choices=("max_visit_count", "max_value", "normalized_visited_count"),
                   default="max_visit_count", help="OpenSpiel's final policy (its Python default)")
    p.add_argument("--part", type=_part, default=(1, 1), help="K/N: play the K-th of N blocks of games")
    p.add_argument("--out", type=Path, required=True)
    a = p.parse_args(args)
    if a.games < 1 or not 0 < a.seconds <= 60 or a.rollouts < 1:
        p.error("--games and --rollouts must be at least 1, --seconds in (0, 60]")
    settings = Settings(a.players, a.games, a.seconds, a.length, a.seed, a.uct_c, a.rollouts, a.final_policy)
    try:
        run_part(settings, a.part[0], a.part[1], a.out, lambda line: print(line, flush=True))
    except ValueError as exc:
        p.exit(2, f"error: {exc}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
