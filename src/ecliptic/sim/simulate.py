"""Many bot games in a row, summarized: who wins how often, and where the Galactic Points
come from.

Reproducibility: the run seed feeds one :class:`~ecliptic.engine.rng.Rng` that draws one
u64 per game, in game order, before anything is played. Game ``i`` therefore always gets
the same seed whatever plays it, in whichever order or process (worker processes come
later), and its bots are seeded from that game seed and their seat. Wall-clock timing is
measured but kept apart (:attr:`SimulationSummary.timing`) from the deterministic results.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ecliptic.bots.base import bot_seed, make_bot
from ecliptic.engine.errors import EclipticError
from ecliptic.engine.rng import Rng
from ecliptic.games import get_game

MAX_DECISIONS = 100_000
"""No game may need more decisions than this; more means the engine loops (a bug)."""

Progress = Callable[[int, int], None]
"""Called after each game with (games done, games in all)."""


class SimulationError(EclipticError, RuntimeError):
    """A simulated game could not be finished: the engine looped or failed."""


@dataclass(frozen=True)
class GameResult:
    """One finished game: enough to summarize it and to replay it."""

    index: int
    seed: int
    factions: list[str]
    winners: list[int]
    scores: list[dict[str, int]]
    rounds: int
    decisions: int


@dataclass
class FactionStats:
    games: int = 0
    wins: float = 0.0
    gp: dict[str, float] = field(default_factory=dict)
    """Summed GP by source over this faction's games (see :meth:`mean_gp`)."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def mean_gp(self) -> dict[str, float]:
        return {k: v / self.games for k, v in self.gp.items()} if self.games else {}


@dataclass
class SimulationSummary:
    game: str
    players: int
    games: int
    seed: int
    bot: str
    config: dict[str, Any]
    factions: dict[str, FactionStats]
    mean_gp: dict[str, float]
    mean_rounds: float
    mean_decisions: float
    seconds: float = 0.0
    results: list[GameResult] = field(default_factory=list, repr=False)

    @property
    def decisions(self) -> int:
        return sum(r.decisions for r in self.results)

    @property
    def timing(self) -> dict[str, float]:
        """Wall-clock figures: they differ from run to run, unlike everything else."""
        secs = self.seconds
        return {
            "seconds": secs,
            "games_per_second": self.games / secs if secs > 0 else 0.0,
            "decisions_per_second": self.decisions / secs if secs > 0 else 0.0,
        }

    def deterministic_json(self) -> dict[str, Any]:
        """Everything the seed fixes (no timing): equal runs give equal dictionaries."""
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "bot": self.bot,
            "config": dict(self.config),
            "factions": {
                name: {"games": s.games, "wins": s.wins, "win_rate": s.win_rate, "mean_gp": s.mean_gp()}
                for name, s in sorted(self.factions.items())
            },
            "mean_gp": dict(self.mean_gp),
            "mean_rounds": self.mean_rounds,
            "mean_decisions": self.mean_decisions,
        }

    def to_json(self) -> dict[str, Any]:
        out = self.deterministic_json()
        out["timing"] = self.timing
        return out


def game_seeds(seed: int, games: int) -> list[int]:
    """The seed of every game of a run, fixed by the run seed alone."""
    rng = Rng.from_seed(seed)
    return [rng.next_u64() for _ in range(games)]


def play_one(
    game_name: str,
    config: Mapping[str, Any],
    seed: int,
    bot: str = "random",
    *,
    index: int = 0,
    max_decisions: int = MAX_DECISIONS,
) -> GameResult:
    """Play one whole game with a ``bot`` in every seat. Pure: the same arguments always
    give the same result, so it can run in any process."""
    game = get_game(game_name)
    state = game.new_game(dict(config), seed)
    seats = len(game.observe(state, None)["players"])
    bots = [make_bot(bot, bot_seed(seed, s)) for s in range(seats)]
    decisions = 0
    while not state.is_over:
        if decisions >= max_decisions:
            raise SimulationError(
                f"game {index + 1} (seed {seed}, config {dict(config)}) did not end within "
                f"{max_decisions} decisions: the rules engine is looping, which is a bug")
        seat = state.current_player
        try:
            game.apply(state, bots[seat].choose(game, state, seat))
        except Exception as exc:  # an engine bug: say which game, so it can be replayed
            raise SimulationError(
                f"game {index + 1} (seed {seed}, config {dict(config)}) failed at decision "
                f"{decisions + 1}: {type(exc).__name__}: {exc}") from exc
        decisions += 1
    view = game.observe(state, None)
    return GameResult(
        index=index,
        seed=seed,
        factions=[p["faction"] for p in view["players"]],
        winners=list(view["winners"]),
        scores=[dict(s) for s in view["final_scores"]],
        rounds=int(view["round"]),
        decisions=decisions,
    )


def summarize(
    game_name: str, players: int, seed: int, bot: str, config: Mapping[str, Any],
    results: list[GameResult], seconds: float = 0.0,
) -> SimulationSummary:
    """Fold game results (in game order, whoever played them) into a summary. A win shared
    by k players counts 1/k for each."""
    ordered = sorted(results, key=lambda r: r.index)
    factions: dict[str, FactionStats] = {}
    total_gp: dict[str, float] = {}
    seat_games = 0
    for r in ordered:
        for seat, name in enumerate(r.factions):
            stats = factions.setdefault(name, FactionStats())
            stats.games += 1
            if seat in r.winners:
                stats.wins += 1 / len(r.winners)
            for source, gp in r.scores[seat].items():
                stats.gp[source] = stats.gp.get(source, 0.0) + gp
                total_gp[source] = total_gp.get(source, 0.0) + gp
            seat_games += 1
    n = len(ordered)
    return SimulationSummary(
        game=game_name,
        players=players,
        games=n,
        seed=seed,
        bot=bot,
        config=dict(config),
        factions=factions,
        mean_gp={k: v / seat_games for k, v in total_gp.items()} if seat_games else {},
        mean_rounds=sum(r.rounds for r in ordered) / n if n else 0.0,
        mean_decisions=sum(r.decisions for r in ordered) / n if n else 0.0,
        seconds=seconds,
        results=ordered,
    )


def simulate(
    game_name: str,
    players: int,
    games: int,
    seed: int,
    bot: str = "random",
    config: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
    *,
    max_decisions: int = MAX_DECISIONS,
) -> SimulationSummary:
    """Play ``games`` bot games of ``game_name`` and summarize them.

    ``config`` overrides the game's settings (``{"game": "short", "layout": "preset"}``);
    ``players`` always wins over a ``players`` key in it. The bot text is checked before
    the first game, so a typo fails at once."""
    if games < 1:
        raise ValueError("simulate at least one game")
    make_bot(bot, 0)
    get_game(game_name)
    cfg = {**dict(config or {}), "players": players}
    start = time.perf_counter()
    results: list[GameResult] = []
    for i, game_seed in enumerate(game_seeds(seed, games)):
        results.append(play_one(game_name, cfg, game_seed, bot, index=i, max_decisions=max_decisions))
        if progress is not None:
            progress(i + 1, games)
    return summarize(game_name, players, seed, bot, cfg, results, time.perf_counter() - start)
