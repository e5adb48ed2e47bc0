"""Many bot games in a row, summarized: who wins how often, and where the Galactic Points
come from.

Reproducibility: the run seed feeds one :class:`~ecliptic.engine.rng.Rng` that draws one
u64 per game, in game order (:func:`seed_stream`). Game ``i`` therefore always gets the
same seed whatever plays it, in whichever order or process, and its bots are seeded from
that game seed and their seat. A run may start further along its seed's sequence
(``first_game``): games 16-31 of a seed played alone are the same games as the second half
of its 32-game run. Run seeds are 0 to 2**64 - 1, what the generator keeps (:func:`check_run`).
Wall-clock timing is measured but kept apart (:attr:`SimulationSummary.timing`) from the
deterministic results.

Ctrl-C ends a run with :class:`SimulationInterrupted`, which carries the summary of the
games finished before it (always the first ones, as the results are taken in game order); a
tournament's is the same :class:`RunInterrupted` with its result.

Where the games are played: ``simulate(..., workers=W)`` hands them out in chunks to ``W``
processes of this machine, ``simulate(..., backend=B)`` to any backend (Ray:
:mod:`ecliptic.sim.backends`, docs/scale-out.md), each running :func:`play_one`; the results
are taken back in game order, so any backend and number of workers gives the same summary.
Seeds, games and results are drawn and folded one at a time, a few chunks ahead: memory does
not grow with the number of games, so ``--games 100000000000`` is bounded by time, not by a
list.

How sure the figures are: every win rate and mean comes with its 95% interval, computed by the
balance studio's statistics (:mod:`ecliptic.balance.stats`: Wilson's interval for a win rate at
the effective number of games its games' spread gives, :class:`~ecliptic.balance.stats.ClusteredRate`,
as a shared win varies less than a win or a loss; Student's t for a mean, cut at 0 on the side a
score source cannot cross as :data:`ecliptic.balance.results.SIGNS` says), so ``ecliptic simulate``
and ``ecliptic balance`` never disagree about the same games. A faction's values are one per
game (a faction has one seat a game); the figures over all seats take each game's mean over its
seats as one value, as the seats of one game are not independent of each other.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import islice
from typing import Any, Generic, Protocol, TypeVar

from ecliptic.balance.results import SIGNS
from ecliptic.balance.stats import ClusteredRate, Moments
from ecliptic.bots.base import bot_seed, make_bot
from ecliptic.engine.errors import EclipticError
from ecliptic.engine.rng import Rng
from ecliptic.games import ContentPack, get_game, using_content
from ecliptic.sim.backends import Backend, backend_or_local
from ecliptic.sim.backends import all_cores as all_cores  # where the commands and benchmarks look for them
from ecliptic.sim.backends import play_in_order as play_in_order

MAX_DECISIONS = 100_000
"""No game may need more decisions than this; more means the engine loops (a bug)."""
SEEDS = 1 << 64
"""How many run seeds there are: the generator keeps 64 bits, so -1 and 2**64 - 1 (or 2**64 and
0) would play the same games under two names; seeds outside 0 to 2**64 - 1 are refused."""

Progress = Callable[[int, int], None]
"""Called after each game with (games done, games in all)."""


class SimulationError(EclipticError, RuntimeError):
    """A simulated game could not be finished: the engine looped or failed."""


class Partial(Protocol):
    """What a run stopped by Ctrl-C hands back: the games finished, of the games asked for."""

    @property
    def games(self) -> int: ...

    @property
    def games_asked(self) -> int | None: ...


P = TypeVar("P", bound=Partial)


class RunInterrupted(KeyboardInterrupt, Generic[P]):
    """Ctrl-C stopped a run of many games (:func:`simulate`, a tournament); ``partial`` is what
    the games finished before it show, marked partial: the first games of the run, as the results
    are taken in game order. A ``KeyboardInterrupt``, so that nothing catching ``Exception``
    swallows it; one class for every run, so the command line answers them with one handler."""

    def __init__(self, partial: P) -> None:
        super().__init__(f"interrupted after {partial.games} of {partial.games_asked} games")
        self.partial = partial


class SimulationInterrupted(RunInterrupted["SimulationSummary"]):
    """Ctrl-C stopped :func:`simulate`; ``summary`` sums up the games finished before it."""

    @property
    def summary(self) -> SimulationSummary:
        return self.partial


def range_text(first_game: int, games: int) -> str:
    """Which games of a seed's sequence a run holds, as every message and table names them
    (counted from 0, as ``--first-game`` counts): ``game 16``, ``games 16–31``."""
    return f"game {first_game}" if games == 1 else f"games {first_game}–{first_game + games - 1}"


def check_seed(seed: int) -> None:
    """Refuse, with ``ValueError``, a run seed outside 0 to 2**64 - 1: it would alias another
    (:data:`SEEDS`). The one rule of run seeds, for the library and every command that takes one
    (:data:`ecliptic.cli_options.RunSeedOption`)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"the seed must be a whole number, not {seed!r}")
    if not 0 <= seed < SEEDS:
        raise ValueError(f"the seed must be from 0 to {SEEDS - 1}, not {seed}: the games' generator keeps 64 "
                         f"bits, so {seed} would play the games of seed {seed % SEEDS} under another name")


def check_run(seed: int, games: int, first_game: int = 0) -> None:
    """Refuse, with ``ValueError``, a bad run seed (:func:`check_seed`), fewer than one game, or
    games past the end of the seed's sequence."""
    check_seed(seed)
    if games < 1:
        raise ValueError("play at least one game")
    if first_game < 0:
        raise ValueError(f"the first game must be 0 or more (games are counted from 0), not {first_game}")
    if first_game + games > SEEDS:
        raise ValueError(f"a seed has {SEEDS} games: games {first_game} to {first_game + games - 1} run past "
                         "its last")


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


Number = int | Fraction
"""A game's points: a seat's (whole) or the mean of its seats' (a fraction, kept exact)."""


def _interval(m: Moments | None, game: str, source: str) -> tuple[float, float]:
    """The 95% interval of a mean of points of ``source``, cut at 0 where that source cannot
    cross it (as the balance report cuts it); ``(0, 0)`` for a source never seen."""
    if m is None:
        return 0.0, 0.0
    return m.bounded_interval(SIGNS.get(game, {}).get(source, 0))


def _add(points: dict[str, Moments], games_before: int, values: Mapping[str, Number]) -> None:
    """Add one game's points by source; a source first seen now was 0 in the games before it, and
    one this game lacks is 0 in it, so every source's moments count every game."""
    for source in values.keys() - points.keys():
        m = points[source] = Moments()
        for _ in range(games_before):
            m.add(0)
    for source, m in points.items():
        m.add(values.get(source, 0))


@dataclass
class FactionStats:
    games: int = 0
    wins: float = 0.0
    gp: dict[str, float] = field(default_factory=dict)
    """Summed GP by source over this faction's games (see :meth:`mean_gp`)."""
    points: dict[str, Moments] = field(default_factory=dict, repr=False)
    """The same GP as moments, one value a game (a faction has one seat a game): their intervals."""
    returns: ClusteredRate = field(default_factory=ClusteredRate, repr=False)
    """The faction's return of each game, one value a game: the interval of its win rate."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of the win rate (a shared win counts 1/k), the balance report's."""
        return self.returns.interval()

    def mean_gp(self) -> dict[str, float]:
        return {k: v / self.games for k, v in self.gp.items()} if self.games else {}

    def gp_interval(self, game: str, source: str) -> tuple[float, float]:
        """The 95% interval of :meth:`mean_gp`'s ``source`` (Student's t, cut at 0 where it cannot cross)."""
        return _interval(self.points.get(source), game, source)


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
    """Every game's result, in game order (empty when the run was told not to keep them)."""
    decisions: int = 0
    """Decisions made in all the games."""
    content: ContentPack | None = None
    """The content played (``None``: the packaged stand-ins)."""
    first_game: int = 0
    """The index of the run's first game in its seed's sequence (see the module text)."""
    games_asked: int | None = None
    """The games asked for, when Ctrl-C stopped the run after ``games`` of them (``None``: all played)."""
    points: dict[str, Moments] = field(default_factory=dict, repr=False)
    """Each game's mean points over its seats, by source: the intervals of :attr:`mean_gp` (the seats
    of one game are not independent, its games are)."""
    rounds_moments: Moments = field(default_factory=Moments, repr=False)
    decisions_moments: Moments = field(default_factory=Moments, repr=False)

    @property
    def partial(self) -> bool:
        return self.games_asked is not None

    @property
    def stand_ins(self) -> bool:
        """Whether these games played the packaged content, whose numbers are invented stand-ins
        where the rulebook prints none (docs/content-stand-ins.md; Ceres: docs/ceres.md): no
        content folder, or one whose files are the packaged ones (the same digest, the same games)."""
        return self.content is None or self.content.digest == ContentPack.packaged(self.game).digest

    def gp_interval(self, source: str) -> tuple[float, float]:
        """The 95% interval of :attr:`mean_gp`'s ``source``, over the games' means of their seats."""
        return _interval(self.points.get(source), self.game, source)

    @property
    def rounds_interval(self) -> tuple[float, float]:
        return self.rounds_moments.bounded_interval(1)

    @property
    def decisions_interval(self) -> tuple[float, float]:
        return self.decisions_moments.bounded_interval(1)

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
            "first_game": self.first_game,
            **({"partial": True, "games_asked": self.games_asked} if self.partial else {}),
            "bot": self.bot,
            "config": dict(self.config),
            "factions": {
                name: {"games": s.games, "wins": s.wins, "win_rate": s.win_rate, "mean_gp": s.mean_gp(),
                       "win_rate_ci95": list(s.interval),
                       "mean_gp_ci95": {k: list(s.gp_interval(self.game, k)) for k in s.gp}}
                for name, s in sorted(self.factions.items())
            },
            "mean_gp": dict(self.mean_gp),
            "mean_gp_ci95": {k: list(self.gp_interval(k)) for k in self.mean_gp},
            "mean_rounds": self.mean_rounds,
            "mean_rounds_ci95": list(self.rounds_interval),
            "mean_decisions": self.mean_decisions,
            "mean_decisions_ci95": list(self.decisions_interval),
            "stand_ins": self.stand_ins,
            **({"content": self.content.to_json()} if self.content is not None else {}),
        }

    def to_json(self) -> dict[str, Any]:
        """:meth:`deterministic_json`, the timing, and the Ecliptic version that played the games
        (with the seed and the config, what a reader needs to play them again)."""
        from ecliptic import __version__

        out = self.deterministic_json()
        out["timing"] = self.timing
        out["ecliptic"] = __version__
        return out


def played_as(game: str, config: Mapping[str, Any]) -> str:
    """The options the games were played with, in the command line's words, and the Ecliptic
    version, for the line under a table's heading: without them a table shared apart from its
    command (full or short games? which Advanced Rules?) could not be played again."""
    from ecliptic import __version__

    if game == "ceres":
        expansions = list(config.get("expansions") or [])
        options = [f"--expansions {','.join(expansions)}" if expansions else "no expansion"]
    else:
        advanced = list(config.get("advanced") or [])
        options = [f"--game-length {config.get('game', 'full')}", f"--layout {config.get('layout', 'players')}",
                   f"--advanced {','.join(map(str, advanced))}" if advanced else "no Advanced Rules"]
        if config.get("advanced_specialists"):
            options.append("--advanced-specialists")
    return f"Played with {', '.join(options)}; Ecliptic {__version__}"


def seed_stream(seed: int, first: int = 0) -> Iterator[int]:
    """The seeds of a run's games, game ``first`` first (default 0), drawn as they are needed (a
    run of 10**11 games never holds 10**11 seeds), fixed by the run seed alone. The games before
    ``first`` are skipped at once, not drawn (:meth:`~ecliptic.engine.rng.Rng.skip`)."""
    rng = Rng.from_seed(seed)
    if first:
        rng.skip(first)
    while True:
        yield rng.next_u64()


def game_seeds(seed: int, games: int) -> list[int]:
    """The seed of every game of a run (the first ``games`` of :func:`seed_stream`)."""
    return list(islice(seed_stream(seed), games))


def play_one(
    game_name: str,
    config: Mapping[str, Any],
    seed: int,
    bot: str = "random",
    *,
    index: int = 0,
    max_decisions: int = MAX_DECISIONS,
    content: ContentPack | None = None,
) -> GameResult:
    """Play one whole game with a ``bot`` in every seat, of ``content`` (``None``: the packaged
    stand-ins, whatever this process played before). Pure: the same arguments always give the
    same result, so it can run in any process."""
    with using_content(content):
        return _play_one(game_name, config, seed, bot, index, max_decisions)


def _play_one(game_name: str, config: Mapping[str, Any], seed: int, bot: str, index: int,
              max_decisions: int) -> GameResult:
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


class Tally:
    """Game results folded one at a time, in game order, into the figures of a summary; a
    run need not keep every result (memory stays flat over any number of games). A win shared
    by k players counts 1/k for each."""

    def __init__(self) -> None:
        self.factions: dict[str, FactionStats] = {}
        self.total_gp: dict[str, float] = {}
        self.points: dict[str, Moments] = {}
        self.rounds_moments, self.decisions_moments = Moments(), Moments()
        self.games = self.seat_games = self.rounds = self.decisions = 0

    def add(self, r: GameResult) -> None:
        for seat, name in enumerate(r.factions):
            stats = self.factions.setdefault(name, FactionStats())
            stats.games += 1
            won = Fraction(1, len(r.winners)) if seat in r.winners else Fraction(0)
            stats.wins += float(won)
            stats.returns.add(won)
            for source, gp in r.scores[seat].items():
                stats.gp[source] = stats.gp.get(source, 0.0) + gp
                self.total_gp[source] = self.total_gp.get(source, 0.0) + gp
            _add(stats.points, stats.games - 1, r.scores[seat])
            self.seat_games += 1
        seats = len(r.scores)
        if seats:
            sources = {k for sc in r.scores for k in sc}
            _add(self.points, self.games, {k: Fraction(sum(sc.get(k, 0) for sc in r.scores), seats) for k in sources})
        self.games += 1
        self.rounds += r.rounds
        self.decisions += r.decisions
        self.rounds_moments.add(r.rounds)
        self.decisions_moments.add(r.decisions)

    def summary(
        self, game_name: str, players: int, seed: int, bot: str, config: Mapping[str, Any],
        results: list[GameResult], seconds: float,
    ) -> SimulationSummary:
        n = self.games
        return SimulationSummary(
            game=game_name,
            players=players,
            games=n,
            seed=seed,
            bot=bot,
            config=dict(config),
            factions=self.factions,
            mean_gp={k: v / self.seat_games for k, v in self.total_gp.items()} if self.seat_games else {},
            mean_rounds=self.rounds / n if n else 0.0,
            mean_decisions=self.decisions / n if n else 0.0,
            seconds=seconds,
            results=results,
            decisions=self.decisions,
            points=self.points,
            rounds_moments=self.rounds_moments,
            decisions_moments=self.decisions_moments,
        )


def summarize(
    game_name: str, players: int, seed: int, bot: str, config: Mapping[str, Any],
    results: list[GameResult], seconds: float = 0.0,
) -> SimulationSummary:
    """Fold game results (in game order, whoever played them) into a summary."""
    ordered = sorted(results, key=lambda r: r.index)
    tally = Tally()
    for r in ordered:
        tally.add(r)
    return tally.summary(game_name, players, seed, bot, config, ordered, seconds)


@contextlib.contextmanager
def _held_interrupts() -> Iterator[None]:
    """Ctrl-C inside the block takes effect at its end: folding one game into a tally is several
    updates, and a ``KeyboardInterrupt`` between them would leave a game half counted in the
    figures an interrupted run reports. Only the main thread receives Ctrl-C; elsewhere, or
    where Ctrl-C is ignored, nothing changes."""
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(previous):
        yield
        return
    came: list[Any] = []
    signal.signal(signal.SIGINT, lambda signum, frame: came.append((signum, frame)))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if came:
            previous(*came[0])  # the handler it would have reached: KeyboardInterrupt, or a Ray run's note


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
    workers: int = 1,
    keep_results: bool = True,
    content: ContentPack | None = None,
    backend: Backend | None = None,
    first_game: int = 0,
) -> SimulationSummary:
    """Play ``games`` bot games of ``game_name`` and summarize them: games ``first_game`` to
    ``first_game + games - 1`` of the seed's sequence (see the module text).

    ``config`` overrides the game's settings (``{"game": "short", "layout": "preset"}``);
    ``players`` always wins over a ``players`` key in it. The bot text is checked before
    the first game, so a typo fails at once. ``workers`` processes play the games (1: this
    process); ``backend`` plays them instead (its own workers; ``workers`` is then not given);
    the summary is the same whatever plays them. ``keep_results=False`` folds
    each game into the summary and drops it (``summary.results`` stays empty), so memory
    does not grow with the number of games. ``content`` is played instead of the packaged
    stand-ins (each task carries it to its worker). Ctrl-C raises :class:`SimulationInterrupted`
    with the summary of the games finished."""
    check_run(seed, games, first_game)
    runner = backend_or_local(backend, workers)
    make_bot(bot, 0)
    get_game(game_name)
    cfg = {**dict(config or {}), "players": players}
    if content is not None and content.game != game_name:
        raise ValueError(f"the content is {content.game}'s, not {game_name}'s")
    tasks = (_Task(game_name, cfg, game_seed, bot, i, max_decisions, content)
             for i, game_seed in enumerate(islice(seed_stream(seed, first_game), games), first_game))
    start = time.perf_counter()
    tally = Tally()
    kept: list[GameResult] = []

    def summary() -> SimulationSummary:
        out = tally.summary(game_name, players, seed, bot, cfg, kept, time.perf_counter() - start)
        out.content, out.first_game = content, first_game
        return out

    try:
        for result in runner.map(_Task.play, tasks, games):
            with _held_interrupts():
                tally.add(result)
                if keep_results:
                    kept.append(result)
            if progress is not None:
                progress(tally.games, games)
    except KeyboardInterrupt:
        partial = summary()
        partial.games_asked = games
        raise SimulationInterrupted(partial) from None
    return summary()


@dataclass(frozen=True)
class _Task:
    """One game to play: the arguments of :func:`play_one` (picklable, for a worker)."""

    game_name: str
    config: dict[str, Any]
    seed: int
    bot: str
    index: int
    max_decisions: int
    content: ContentPack | None = None

    def play(self) -> GameResult:
        return play_one(self.game_name, self.config, self.seed, self.bot, index=self.index,
                        max_decisions=self.max_decisions, content=self.content)
