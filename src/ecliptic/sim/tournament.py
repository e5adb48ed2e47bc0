"""Bots against bots: who wins how often, with confidence intervals and ratings.

``ecliptic tournament --players 4 --bots heuristic,random,random,random --games 200``.

Seating: the bot list fills the table (repeated in turn when it is shorter than the
table, e.g. ``random,heuristic,ismcts`` at 4 seats), and from game to game the lineup,
the seats and the factions rotate so that every bot plays every seat and every faction
equally often; exactly so when the number of games is a multiple of :func:`cycle_length`.

Reproducibility: every game's seed comes from the run seed alone
(:func:`ecliptic.sim.simulate.seed_stream`), its seating from its index, and its bots'
seeds from the game seed and the seat; the ratings are computed afterwards in game order.
So the same seed gives the same results whatever the number of worker processes. Only the
timing (seconds, milliseconds per decision) differs from run to run, and it is kept apart.
The games are handed to the workers of a backend (this machine's processes or a Ray cluster:
:mod:`ecliptic.sim.backends`) as they are ready for them, never listed beforehand; only the results
of the games played are kept (the JSON lists each one), so memory grows with the games
played, not with the games asked for.

Long tournaments can be played in parts (several commands, machines or seeds) and
merged afterwards (:func:`merge`, ``ecliptic tournament-merge a.json b.json``): each part's
JSON keeps every game's result, and the standings and ratings are computed again over all
the games. A part is a range of its seed's sequence (``first_game``, ``--first-game``), so one
run can be split exactly: games 0-15 and 16-31 of a seed merge into its 32-game run, the same
figures. A game may count only once: parts of one seed whose ranges overlap (the same file
twice, say) are refused, as they would narrow the intervals with copies.

Ctrl-C ends a run with :class:`TournamentInterrupted`, which carries the result of the games
finished before it: the first of its range (the results are taken in game order), so an exact
part that merges with a run of the rest (``--first-game``).

Win rates carry 95% intervals; a win shared by k players counts 1/k. The seats of one game are
not independent: a bot in 2 of 4 seats of a game cannot win in both (a game's returns add up to 1),
so a Wilson interval over its seat-games, as if each were a game of its own, is too wide (98.5%
coverage, not 95%, at a true 25% over 50 games), and a bot whose number of seats changes from game
to game can vary more than seat-games would. So the win rate's interval takes each game's total of
the bot's returns as one value (:class:`ecliptic.balance.stats.ClusteredRate`: Wilson's interval at
the effective number of seat-games, the balance report's), as the mean points do: a bot's seats of
one game share the deal and the dice and can be positively correlated, so ``mean_gp_ci95``
takes one value a game too, about ``mean_gp``, the seat-games' mean, however many seats the bot
held in each game (:class:`ecliptic.balance.stats.ClusteredMean`). Ratings are openskill's
Plackett-Luce model (mu, sigma; "ordinal" = mu - 3 sigma), updated once per game from the
finishing order; a bot that fills several seats of one game gets the mean of its seats' updates.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import islice, pairwise
from pathlib import Path
from typing import Any

from ecliptic.balance.results import SIGNS
from ecliptic.balance.stats import ClusteredMean, ClusteredRate
from ecliptic.balance.stats import wilson as wilson  # the report's Wilson interval (ClusteredRate's)
from ecliptic.bots.base import bot_seed, make_bot
from ecliptic.engine.files import UnreadableFile, read_json
from ecliptic.engine.wording import plural
from ecliptic.games import ContentPack, get_game, using_content
from ecliptic.sim.backends import Backend, backend_or_local
from ecliptic.sim.simulate import (
    MAX_DECISIONS,
    SEEDS,
    RunInterrupted,
    SimulationError,
    check_run,
    played_as,
    range_text,
    seed_stream,
)

Progress = Callable[[int, int], None]
"""Called after each game with (games done, games in all)."""

MAX_FILE_BYTES = 256 * 1024 * 1024
"""The largest tournament file read: some 300,000 games of four players (about 800 bytes each)."""


@dataclass(frozen=True)
class Seating:
    """Who sits where in one game, and with which faction (empty: the game deals them)."""

    bots: tuple[str, ...]
    factions: tuple[str, ...] = ()


class TournamentInterrupted(RunInterrupted["TournamentResult"]):
    """Ctrl-C stopped :func:`run_tournament`; ``result`` holds the games finished before it."""

    @property
    def result(self) -> TournamentResult:
        return self.partial


@dataclass(frozen=True)
class Part:
    """Games ``first_game`` to ``first_game + games - 1`` of the run seed ``seed``'s sequence: what
    one run plays, and what a merged tournament is made of (:func:`merge`)."""

    seed: int
    first_game: int
    games: int

    @property
    def end(self) -> int:
        """The index of the game after the part's last."""
        return self.first_game + self.games

    @property
    def range_text(self) -> str:
        return range_text(self.first_game, self.games)

    def to_json(self) -> dict[str, int]:
        return {"seed": self.seed, "first_game": self.first_game, "games": self.games}


@dataclass(frozen=True)
class TournamentGame:
    """One finished game of a tournament."""

    index: int
    seed: int
    bots: tuple[str, ...]
    factions: tuple[str, ...]
    gp: tuple[float, ...]
    returns: tuple[float, ...]
    ranks: tuple[float, ...]
    rounds: int
    decisions: int
    think_seconds: tuple[float, ...] = field(default=(), compare=False)
    """Wall-clock time each seat's bot spent choosing (timing: not part of the results)."""
    seat_decisions: tuple[int, ...] = ()


@dataclass
class Standing:
    """One bot's results over the whole tournament."""

    bot: str
    seat_games: int = 0
    wins: float = 0.0
    gp: float = 0.0
    rank: float = 0.0
    mu: float = 0.0
    sigma: float = 0.0
    by_seat: dict[int, int] = field(default_factory=dict)
    by_faction: dict[str, int] = field(default_factory=dict)
    decisions: int = 0
    think_seconds: float = 0.0
    gp_by_game: ClusteredMean = field(default_factory=ClusteredMean)
    """The bot's points, its seats of each game it played as one value: its seats in one game
    share the deal and the dice, so they are not independent values; the interval is that of
    :attr:`mean_gp`, the seat-games' mean, however many seats the bot held in each game."""
    wins_by_game: ClusteredRate = field(default_factory=ClusteredRate)
    """The bot's returns summed over its seats of each game it played, one value a game: the
    interval of its win rate (why: the module text)."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_games if self.seat_games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of :attr:`win_rate`, one value a game (why: the module text)."""
        return self.wins_by_game.interval()

    @property
    def mean_gp(self) -> float:
        return self.gp / self.seat_games if self.seat_games else 0.0

    def gp_interval(self, game: str) -> tuple[float, float]:
        """The 95% interval of :attr:`mean_gp` (Student's t over its games, :class:`ClusteredMean`;
        cut at 0 as simulate and the balance report cut the game's total: ``ecliptic.balance.results.SIGNS``)."""
        return self.gp_by_game.bounded_interval(SIGNS.get(game, {}).get("total", 0))

    @property
    def mean_rank(self) -> float:
        return self.rank / self.seat_games if self.seat_games else 0.0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {
            "bot": self.bot, "seat_games": self.seat_games, "wins": self.wins,
            "win_rate": self.win_rate, "win_rate_ci95": [lo, hi], "mean_gp": self.mean_gp,
            "mean_rank": self.mean_rank,
            "rating": {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal},
            "seats": {str(k): v for k, v in sorted(self.by_seat.items())},
            "factions": dict(sorted(self.by_faction.items())),
        }


@dataclass
class TournamentResult:
    game: str
    players: int
    games: int
    seed: int
    bots: list[str]
    config: dict[str, Any]
    standings: list[Standing]
    results: list[TournamentGame] = field(default_factory=list, repr=False)
    seconds: float = 0.0
    merged_parts: tuple[Part, ...] = ()
    """The runs of a result merged from several (:func:`merge`), in the order of its games."""
    content: dict[str, Any] | None = None
    """The content played (``ContentPack.to_json``), ``None`` for the packaged stand-ins."""
    first_game: int = 0
    """A run's first game in its seed's sequence (``--first-game``); its games are indexed from it."""
    games_asked: int | None = None
    """The games a run was asked for, when Ctrl-C stopped it after ``games`` (``None``: all played).
    Its games are an exact part all the same: the first ``games`` from ``first_game``."""

    @property
    def merged_seeds(self) -> tuple[int, ...]:
        """The run seeds of the parts of a merged result (empty for a run)."""
        return tuple(p.seed for p in self.merged_parts)

    @property
    def partial(self) -> bool:
        return self.games_asked is not None

    @property
    def parts(self) -> tuple[Part, ...]:
        """The runs whose games this result holds, in the order of its games."""
        return self.merged_parts or (Part(self.seed, self.first_game, self.games),)

    @property
    def mean_rounds(self) -> float:
        """Over the games whose rounds are known (files of older versions did not keep them)."""
        known = [r.rounds for r in self.results if r.rounds]
        return sum(known) / len(known) if known else 0.0

    @property
    def timing(self) -> dict[str, Any]:
        """Wall-clock figures: they differ from run to run, unlike everything else."""
        return {
            "seconds": self.seconds,
            "games_per_second": self.games / self.seconds if self.seconds > 0 else 0.0,
            "ms_per_decision": {
                s.bot: 1000 * s.think_seconds / s.decisions if s.decisions else 0.0 for s in self.standings},
        }

    def deterministic_json(self) -> dict[str, Any]:
        """Everything the seed fixes (no timing): equal runs give equal dictionaries."""
        out: dict[str, Any] = {
            "game": self.game, "players": self.players, "games": self.games, "seed": self.seed,
            "bots": list(self.bots), "config": dict(self.config), "mean_rounds": self.mean_rounds,
            "standings": [{**s.to_json(), "mean_gp_ci95": list(s.gp_interval(self.game))} for s in self.standings],
            "results": [{"seed": r.seed, "bots": list(r.bots), "factions": list(r.factions),
                         "gp": list(r.gp), "ranks": list(r.ranks), "returns": list(r.returns),
                         "rounds": r.rounds, "decisions": r.decisions} for r in self.results],
        }
        if self.merged_parts:
            out["merged_seeds"] = list(self.merged_seeds)
            out["merged_parts"] = [p.to_json() for p in self.merged_parts]
        else:
            out["first_game"] = self.first_game
        if self.partial:
            out["partial"], out["games_asked"] = True, self.games_asked
        if self.content is not None:
            out["content"] = dict(self.content)
        return out

    def to_json(self) -> dict[str, Any]:
        """:meth:`deterministic_json`, the timing, and the Ecliptic version that played (or
        merged) the games: with the seeds and the config, what a reader needs to play them again."""
        from ecliptic import __version__

        out = self.deterministic_json()
        out["ecliptic"] = __version__
        out["timing"] = self.timing
        out["timing"]["games"] = [{"seat_decisions": list(r.seat_decisions),
                                   "think_seconds": list(r.think_seconds)} for r in self.results]
        return out

    @classmethod
    def from_json(cls, data: Any, source: str = "the tournament") -> TournamentResult:
        """Read back what :meth:`to_json` wrote (``ecliptic tournament --json``), for
        :func:`merge`. Files written before the games' returns were kept are read too: their
        winners are the seats in first place. Every value the standings and the table use is
        checked (a count that is a count, one entry per seat, a return between 0 and 1), so a
        malformed or hand-edited file raises ``ValueError`` saying what is wrong, and nothing
        later fails on it."""
        try:
            return cls._from_json(data)
        except _Malformed as exc:
            raise ValueError(f"{source} is not the JSON of `ecliptic tournament --json` ({exc})") from None

    @classmethod
    def _from_json(cls, data: Any) -> TournamentResult:
        data = _table(data, "the file")
        players = _whole(_field(data, "players"), "'players'", low=1)
        bots = list(_texts(_field(data, "bots"), "'bots'"))
        if not bots:
            raise _Malformed("'bots' names no bot")
        games = _field(data, "results")
        if not isinstance(games, list):
            raise _Malformed(f"'results' must be the list of games, not {_shown(games)}")
        timing = _table(data.get("timing", {}), "'timing'")
        per_game = timing.get("games") or [{}] * len(games)
        if not isinstance(per_game, list) or len(per_game) != len(games):
            raise _Malformed("its timing does not list every game")
        results = [_game_from_json(i, g, t, players, bots) for i, (g, t) in enumerate(zip(games, per_game,
                                                                                           strict=True))]
        count = _whole(_field(data, "games"), "'games'", low=0)
        if count != len(results):
            raise _Malformed(f"it says {count} games but lists {len(results)}")
        seed = _whole(_field(data, "seed"), "'seed'")
        merged = data.get("merged_seeds", [])
        if not isinstance(merged, list):
            raise _Malformed(f"'merged_seeds' must be a list of seeds, not {_shown(merged)}")
        merged_seeds = tuple(_whole(x, "a merged seed") for x in merged)
        first_game = 0
        if "merged_parts" in data:
            parts = _parts_from_json(data["merged_parts"])
            if merged_seeds and merged_seeds != tuple(p.seed for p in parts):
                raise _Malformed("its 'merged_seeds' and 'merged_parts' name different runs")
            if sum(p.games for p in parts) != len(results):
                raise _Malformed(f"its 'merged_parts' hold {sum(p.games for p in parts)} games but it lists "
                                 f"{len(results)}")
            _check_game_seeds(parts, results)
        elif merged_seeds:  # (its parts are found from the games' own seeds: nothing left to check)
            parts = _parts_of_an_older_merge(merged_seeds, results)
        else:
            parts = ()
            first_game = _whole(data.get("first_game", 0), "'first_game'", low=0)  # older files: 0
            if first_game:
                results = [dataclasses.replace(r, index=first_game + i) for i, r in enumerate(results)]
            _check_game_seeds((Part(seed, first_game, len(results)),), results)
        asked = data.get("games_asked")
        if asked is not None:
            asked = _whole(asked, "'games_asked'", low=len(results))
        content = data.get("content")
        if content is not None:
            content = _table(content, "'content'")
            _text(_field(content, "digest"), "'content.digest'")
        return cls(_text(_field(data, "game"), "'game'"), players, len(results), seed,
                   bots, _table(_field(data, "config"), "'config'"), standings_of(bots, results), results,
                   _number(timing.get("seconds", 0.0), "'timing.seconds'", low=0.0), parts, content, first_game,
                   asked)


def load_tournament(path: Path) -> TournamentResult:
    """A tournament's JSON file (``ecliptic tournament --json > FILE``), read as every command
    reads its files (:mod:`ecliptic.engine.files`); any problem is a ``ValueError`` saying it."""
    try:
        data = read_json(path, max_bytes=MAX_FILE_BYTES)
    except UnreadableFile as exc:
        raise ValueError(str(exc)) from None
    return TournamentResult.from_json(data, str(path))


class _Malformed(ValueError):
    """One value of a tournament file is not what :meth:`TournamentResult.to_json` writes."""


def _parts_from_json(value: Any) -> tuple[Part, ...]:
    if not isinstance(value, list) or not value:
        raise _Malformed(f"'merged_parts' must be a list of runs, not {_shown(value)}")
    parts = []
    for i, part in enumerate(value, 1):
        at = f"merged part {i}:"
        part = _table(part, f"{at} the run")
        parts.append(Part(_whole(_field(part, "seed"), f"{at} 'seed'"),
                          _whole(_field(part, "first_game"), f"{at} 'first_game'", low=0),
                          _whole(_field(part, "games"), f"{at} 'games'", low=1)))
    return tuple(parts)


def _parts_of_an_older_merge(seeds: Sequence[int], results: Sequence[TournamentGame]) -> tuple[Part, ...]:
    """The parts of a file merged before the parts' ranges were kept: it names only their seeds.
    Every run began at its seed's game 0 then, so each part is the games that follow its seed's
    sequence from there; the games' own seeds tell where one part ends and the next begins."""
    parts, at = [], 0
    for seed in seeds:
        count = 0
        for expected in seed_stream(seed):
            if at + count == len(results) or results[at + count].seed != expected:
                break
            count += 1
        if not count:
            raise _Malformed(f"'merged_seeds' names the run seed {seed}, but "
                             + ("no game is left for it" if at == len(results) else
                                f"game {at + 1} is not that run's first game"))
        parts.append(Part(seed, 0, count))
        at += count
    if at != len(results):
        raise _Malformed(f"game {at + 1} is not a game of the runs its 'merged_seeds' name")
    return tuple(parts)


def _check_game_seeds(parts: Sequence[Part], results: Sequence[TournamentGame]) -> None:
    """Every game's seed is the one its run seed and index give (games are the same games exactly
    when these are), so the ranges :func:`merge` compares are those of the games the file holds:
    a copy whose run seed or first game was edited is refused, not merged as other games."""
    at = 0
    for part in parts:
        for i, expected in enumerate(islice(seed_stream(part.seed, part.first_game), part.games)):
            if results[at + i].seed != expected:
                raise _Malformed(f"game {at + i + 1}: its seed {results[at + i].seed} is not that of game "
                                 f"{part.first_game + i} of the run seed {part.seed} ({expected}): the file was "
                                 "edited, or the games are another run's")
        at += part.games


_MISSING: Any = object()
"""What :func:`_field` gives for a key the file does not have."""


def _field(table: dict[str, Any], key: str) -> Any:
    return table.get(key, _MISSING)


def _shown(value: Any) -> str:
    if value is _MISSING:
        return "missing"
    text = "null" if value is None else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _table(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Malformed(f"{what} must be a table, not {_shown(value)}")
    return value


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise _Malformed(f"{what} must be text, not {_shown(value)}")
    return value


def _texts(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise _Malformed(f"{what} must be a list of texts, not {_shown(value)}")
    return tuple(value)


def _whole(value: Any, what: str, *, low: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Malformed(f"{what} must be a whole number, not {_shown(value)}")
    if low is not None and value < low:
        raise _Malformed(f"{what} must be at least {low}, not {_shown(value)}")
    return value


def _number(value: Any, what: str, *, low: float | None = None, high: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _Malformed(f"{what} must be a number, not {_shown(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise _Malformed(f"{what} must be between {low} and {high}, not {_shown(value)}")
    return float(value)


def _per_seat(value: Any, what: str, seats: int, *, may_be_empty: bool = False) -> list[Any]:
    """A list with one entry per seat (or none, where older files kept none)."""
    if not isinstance(value, list) or not (len(value) == seats or (may_be_empty and not value)):
        have = (f"{len(value)} entr{'y' if len(value) == 1 else 'ies'}" if isinstance(value, list)
                else _shown(value))
        raise _Malformed(f"{what} must list one entry per seat ({seats}), not {have}")
    return value


# Statistics ---------------------------------------------------------------------------


def ranks_of(returns: Sequence[float], gp: Sequence[float]) -> tuple[float, ...]:
    """Finishing places (1 = first): winners first, then by points; equal places are shared
    as the mean of the places they cover (two players tied for 2nd both get 2.5)."""
    keys = [(returns[i], gp[i]) for i in range(len(returns))]
    out = []
    for k in keys:
        better = sum(1 for o in keys if o > k)
        equal = sum(1 for o in keys if o == k)
        out.append(better + (equal + 1) / 2)
    return tuple(out)


# Seating ------------------------------------------------------------------------------


def cycle_length(bots: int, players: int, factions: int) -> int:
    """Games after which every bot has played every seat and faction equally often."""
    return players * max(factions, 1) * (1 if bots == players else bots)


def seating(index: int, bots: Sequence[str], players: int, factions: Sequence[str]) -> Seating:
    """The seating of game ``index``: lineup ``k`` (the bot list read from position ``k``),
    shifted ``s`` seats, factions shifted ``f`` places (see the module text)."""
    b, f_count = len(bots), len(factions)
    if b == players:
        k, rest = 0, index
    else:
        k, rest = index % b, index // b
    shift, f = rest % players, (rest // players) % max(f_count, 1)
    lineup = [bots[(k + i) % b] for i in range(players)]
    seated = tuple(lineup[(j + shift) % players] for j in range(players))
    dealt = tuple(factions[(j + f) % f_count] for j in range(players)) if f_count >= players else ()
    return Seating(seated, dealt)


def faction_names(game_name: str) -> list[str]:
    """The factions a game deals, for the rotation (none for a game without factions)."""
    if game_name == "tauceti":
        from ecliptic.tauceti.content import default_content

        return [f.name for f in default_content().factions]
    return []


# Playing ------------------------------------------------------------------------------


def play_game(game_name: str, config: Mapping[str, Any], index: int, seed: int, seat: Seating,
              max_decisions: int = MAX_DECISIONS, content: ContentPack | None = None) -> TournamentGame:
    """Play one tournament game of ``content`` (``None``: the packaged stand-ins). Pure: the
    same arguments give the same result in any process (only ``think_seconds`` differs)."""
    with using_content(content):
        return _play_game(game_name, config, index, seed, seat, max_decisions)


def _play_game(game_name: str, config: Mapping[str, Any], index: int, seed: int, seat: Seating,
               max_decisions: int) -> TournamentGame:
    game = get_game(game_name)
    cfg = dict(config)
    if seat.factions:
        cfg["factions"] = list(seat.factions)
    state = game.new_game(cfg, seed)
    players = len(seat.bots)
    bots = [make_bot(spec, bot_seed(seed, s)) for s, spec in enumerate(seat.bots)]
    think = [0.0] * players
    count = [0] * players
    decisions = 0
    while not state.is_over:
        if decisions >= max_decisions:
            raise SimulationError(f"game {index + 1} (seed {seed}) did not end within {max_decisions} "
                                  "decisions: the rules engine is looping, which is a bug")
        who = state.current_player
        try:
            start = time.perf_counter()
            action = bots[who].choose(game, state, who)
            think[who] += time.perf_counter() - start
            count[who] += 1
            game.apply(state, action)
        except Exception as exc:  # a bot or engine bug: say which game, so it can be replayed
            raise SimulationError(f"game {index + 1} (seed {seed}, bots {list(seat.bots)}) failed at "
                                  f"decision {decisions + 1} ({seat.bots[who]} at seat {who}): "
                                  f"{type(exc).__name__}: {exc}") from None
        decisions += 1
    returns = tuple(float(r) for r in game.returns(state))
    view = game.observe(state, None)
    finals = view.get("final_scores") or []
    gp = tuple(float(finals[s]["total"]) if s < len(finals) else returns[s] for s in range(players))
    factions = tuple(p.get("faction", "") for p in view.get("players", [])) or seat.factions
    return TournamentGame(index, seed, seat.bots, tuple(factions), gp, returns, ranks_of(returns, gp),
                          int(view.get("round", 0)), decisions, tuple(think), tuple(count))


def _play_task(args: tuple[str, dict[str, Any], int, int, Seating, int, ContentPack | None]) -> TournamentGame:
    return play_game(*args)


def run_tournament(
    game_name: str,
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int,
    config: Mapping[str, Any] | None = None,
    *,
    workers: int = 1,
    progress: Progress | None = None,
    max_decisions: int = MAX_DECISIONS,
    content: ContentPack | None = None,
    backend: Backend | None = None,
    first_game: int = 0,
) -> TournamentResult:
    """Play ``games`` games of ``bots`` and rank the bots (see the module text), on ``workers``
    processes of this machine or on ``backend``: the results are the same. ``content`` is played
    instead of the packaged stand-ins (``None``). The games are ``first_game`` to ``first_game +
    games - 1`` of the seed's sequence, seated as in a run from game 0: one part of a longer run."""
    specs = [b.strip() for b in bots if b.strip()]
    if not specs:
        raise ValueError("name at least one bot")
    check_run(seed, games, first_game)
    runner = backend_or_local(backend, workers)
    game = get_game(game_name)
    for spec in dict.fromkeys(specs):  # a typo or a bad option fails before the first game
        bot = make_bot(spec, 0)
        if hasattr(bot, "evaluator"):
            bot.evaluator(game)
    if content is not None and content.game != game_name:
        raise ValueError(f"the content is {content.game}'s, not {game_name}'s")
    cfg = {**dict(config or {}), "players": players}
    with using_content(content):
        factions = faction_names(game_name)
    tasks = ((game_name, cfg, i, s, seating(i, specs, players, factions), max_decisions, content)
             for i, s in enumerate(islice(seed_stream(seed, first_game), games), first_game))
    start = time.perf_counter()
    results: list[TournamentGame] = []

    def result(asked: int | None = None) -> TournamentResult:
        return TournamentResult(game_name, players, len(results), seed, specs, cfg, standings_of(specs, results),
                                results, time.perf_counter() - start,
                                content=None if content is None else content.to_json(), first_game=first_game,
                                games_asked=asked)

    try:
        for played in runner.map(_play_task, tasks, games):
            results.append(played)  # one step: Ctrl-C leaves the games kept an exact run of the first
            if progress is not None:
                progress(len(results), games)
    except KeyboardInterrupt:
        raise TournamentInterrupted(result(games)) from None
    return result()


def _game_from_json(index: int, g: Any, timing: Any, players: int, bots: Sequence[str]) -> TournamentGame:
    at = f"game {index + 1}:"
    g, timing = _table(g, f"{at} its result"), _table(timing, f"{at} its timing")
    seats = _texts(_field(g, "bots"), f"{at} 'bots'")
    _per_seat(list(seats), f"{at} 'bots'", players)
    strangers = [b for b in seats if b not in bots]
    if strangers:
        raise _Malformed(f"{at} {strangers[0]!r} plays, but it is not one of the tournament's bots")
    ranks = tuple(_number(r, f"{at} a rank", low=1, high=players) for r in _per_seat(_field(g, "ranks"),
                                                                                        f"{at} 'ranks'", players))
    if "returns" in g:
        returns = tuple(_number(r, f"{at} a return", low=0, high=1)
                        for r in _per_seat(g["returns"], f"{at} 'returns'", players))
        if sum(returns) > 1 + 1e-9:
            raise _Malformed(f"{at} its returns add up to {sum(returns):g}, more than the one win there is")
    else:  # an older file: the winners are the seats in first place, sharing the win
        first = [i for i, r in enumerate(ranks) if r == min(ranks)]
        returns = tuple(1.0 / len(first) if i in first else 0.0 for i in range(len(ranks)))
    factions = _texts(g.get("factions", []), f"{at} 'factions'")
    _per_seat(list(factions), f"{at} 'factions'", players, may_be_empty=True)
    gp = tuple(_number(x, f"{at} a GP total") for x in _per_seat(_field(g, "gp"), f"{at} 'gp'", players))
    think = _per_seat(timing.get("think_seconds", []), f"{at} 'think_seconds'", players, may_be_empty=True)
    decided = _per_seat(timing.get("seat_decisions", []), f"{at} 'seat_decisions'", players, may_be_empty=True)
    if len(think) != len(decided):
        raise _Malformed(f"{at} its timing lists {len(think)} thinking times for {len(decided)} seat decisions")
    return TournamentGame(index, _whole(_field(g, "seed"), f"{at} 'seed'"), seats, factions, gp, returns, ranks,
                          _whole(g.get("rounds", 0), f"{at} 'rounds'", low=0),
                          _whole(g.get("decisions", 0), f"{at} 'decisions'", low=0),
                          tuple(_number(x, f"{at} a thinking time", low=0) for x in think),
                          tuple(_whole(x, f"{at} a count of decisions", low=0) for x in decided))


def merge(parts: Sequence[TournamentResult], names: Sequence[str] | None = None) -> TournamentResult:
    """One tournament from several runs of the same bots, game and configuration (played in
    parts, on several machines, or with several seeds): every game of every part, and the
    standings and ratings computed again over all of them.

    Each game counts once: parts of one seed whose ranges overlap (a file named twice, a run
    played again) are refused with ``ValueError`` naming them (``names``: the files; by default
    "tournament 1", "tournament 2", ...), as copies would narrow the intervals. The games of one
    seed are taken in game order whatever the order of the parts, the seeds in the order they
    first come, and ranges of one seed that meet are joined: parts that are together one run's
    games (0-15 and 16-31 of its 32) give exactly that run's result, a run and not a merge."""
    if not parts:
        raise ValueError("name at least one tournament to merge")
    named = list(names) if names is not None else [f"tournament {i}" for i in range(1, len(parts) + 1)]
    first = parts[0]
    for i, p in enumerate(parts[1:], 2):
        for what, mine, theirs in (("game", first.game, p.game), ("players", first.players, p.players),
                                   ("bots", first.bots, p.bots), ("config", first.config, p.config),
                                   ("content", _digest(first), _digest(p))):
            if mine != theirs:
                raise ValueError(f"{named[i - 1]} differs from the first in its {what} ({theirs!r}, not {mine!r} "
                                 f"in {named[0]}): "
                                 "only runs of the same bots, game and configuration can be merged")
    pieces: list[tuple[int, Part, list[TournamentGame]]] = []  # (which of the parts, its run, its games)
    for k, p in enumerate(parts):
        games, at = sorted(p.results, key=lambda g: g.index), 0
        for run in p.parts:
            if run.games:
                pieces.append((k, run, games[at:at + run.games]))
            at += run.games
    seed_order: dict[int, int] = {}
    for _, run, _ in pieces:
        seed_order.setdefault(run.seed % SEEDS, len(seed_order))
    pieces.sort(key=lambda piece: (seed_order[piece[1].seed % SEEDS], piece[1].first_game))
    for (k, a, _), (j, b, _) in pairwise(pieces):
        if a.seed % SEEDS == b.seed % SEEDS and b.first_game < a.end:
            raise ValueError(_overlap(named, k, j, Part(b.seed, b.first_game, min(a.end, b.end) - b.first_game)))
    runs: list[Part] = []
    results: list[TournamentGame] = []
    for _, run, games in pieces:
        if runs and runs[-1].seed % SEEDS == run.seed % SEEDS and runs[-1].end == run.first_game:
            runs[-1] = Part(runs[-1].seed, runs[-1].first_game, runs[-1].games + run.games)
        else:
            runs.append(run)
        results.extend(games)
    whole = runs[0] if len(runs) == 1 else Part(runs[0].seed if runs else first.seed, 0, len(results))
    results = [dataclasses.replace(r, index=whole.first_game + i) for i, r in enumerate(results)]
    return TournamentResult(first.game, first.players, len(results), whole.seed, list(first.bots),
                            dict(first.config), standings_of(first.bots, results), results,
                            sum(p.seconds for p in parts), tuple(runs) if len(runs) > 1 else (), first.content,
                            whole.first_game)


def _overlap(names: Sequence[str], k: int, j: int, shared: Part) -> str:
    """Why parts ``k`` and ``j`` (the same part, for a merged file that holds a game twice) cannot
    be merged: they hold the games ``shared``."""
    k, j = min(k, j), max(k, j)
    games = f"{shared.range_text} of seed {shared.seed}"
    if k == j:
        return f"{names[k]} holds {games} twice (it was merged from parts that overlap): a game may count only once"
    if names[k] == names[j]:
        return f"{names[k]} is named twice: its games ({games}) would count twice"
    return (f"{names[k]} and {names[j]} hold the same games ({games}): a game may count only once; to split a run, "
            "play its parts with --first-game so that their ranges do not overlap")


def _digest(result: TournamentResult) -> str | None:
    """Which content a result was played with (``None``: the packaged stand-ins)."""
    return None if result.content is None else result.content.get("digest")


def standings_of(bots: Sequence[str], results: Sequence[TournamentGame]) -> list[Standing]:
    """Fold the games (in game order) into one standing per bot, ratings included."""
    table = {b: Standing(b) for b in dict.fromkeys(bots)}
    for r in sorted(results, key=lambda g: g.index):
        for seat, bot in enumerate(r.bots):
            s = table[bot]
            s.seat_games += 1
            s.wins += r.returns[seat]
            s.gp += r.gp[seat]
            s.rank += r.ranks[seat]
            s.by_seat[seat] = s.by_seat.get(seat, 0) + 1
            if r.factions:
                s.by_faction[r.factions[seat]] = s.by_faction.get(r.factions[seat], 0) + 1
            if r.seat_decisions:
                s.decisions += r.seat_decisions[seat]
                s.think_seconds += r.think_seconds[seat]
        for bot in dict.fromkeys(r.bots):
            table[bot].gp_by_game.add([r.gp[seat] for seat, b in enumerate(r.bots) if b == bot])
            won = [Fraction(r.returns[seat]) for seat, b in enumerate(r.bots) if b == bot]
            table[bot].wins_by_game.add(sum(won, Fraction(0)), len(won), len(r.bots))
    for bot, (mu, sigma) in rate(list(table), results).items():
        table[bot].mu, table[bot].sigma = mu, sigma
    return list(table.values())


def rate(bots: Sequence[str], results: Sequence[TournamentGame]) -> dict[str, tuple[float, float]]:
    """openskill Plackett-Luce ratings from each game's finishing order, in game order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {b: model.rating(name=b) for b in bots}
    for r in sorted(results, key=lambda g: g.index):
        if len(r.bots) < 2:
            continue
        teams = [[model.rating(mu=ratings[b].mu, sigma=ratings[b].sigma)] for b in r.bots]
        new = model.rate(teams, ranks=list(r.ranks))
        for bot in dict.fromkeys(r.bots):
            seats = [i for i, b in enumerate(r.bots) if b == bot]
            ratings[bot] = model.rating(mu=sum(new[i][0].mu for i in seats) / len(seats),
                                        sigma=sum(new[i][0].sigma for i in seats) / len(seats), name=bot)
    return {b: (ratings[b].mu, ratings[b].sigma) for b in bots}


# The table ----------------------------------------------------------------------------


def _runs_text(result: TournamentResult) -> str:
    """Which games of which seeds: ``seed 7``, ``seed 7 (games 16–31)``, ``merged from 2 runs, seeds
    7, 8``; the ranges are shown once one run starts past its seed's game 0."""
    if not result.merged_parts:
        return f"seed {result.seed}" + (f" ({result.parts[0].range_text})" if result.first_game else "")
    ranged = any(p.first_game for p in result.merged_parts)
    labels = [f"{p.seed} ({p.range_text})" if ranged else str(p.seed) for p in result.merged_parts]
    return f"merged from {len(labels)} runs, seeds {', '.join(labels)}"


def tournament_table(result: TournamentResult) -> Any:
    """The standings as a Rich table, best rating first, with a heading and a timing line."""
    from rich import box
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from ecliptic.games import points_name

    seeds = _runs_text(result)
    count = f"Partial: {result.games} of {result.games_asked}" if result.partial else str(result.games)
    heading = Text(f"{count} games of {result.game}, {plural(result.players, 'player')} each, "
                   f"{seeds}, bots {','.join(result.bots)}", style="bold")
    points = points_name(result.game)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for col in ("Bot", "Games", "Wins", "Win rate", "95% CI", points, "Rank", "Rating", "ms/dec"):
        # A long bot text (ismcts:250ms/model=tree/c=0.3) folds onto more lines; the figures never wrap.
        if col == "Bot":
            table.add_column(col, overflow="fold", min_width=10)
        else:
            table.add_column(col, justify="right", no_wrap=True)
    ms = result.timing["ms_per_decision"]
    for s in sorted(result.standings, key=lambda s: -s.ordinal):
        lo, hi = s.interval
        table.add_row(Text(s.bot), str(s.seat_games), f"{s.wins:.4g}", f"{s.win_rate:.1%}", f"{lo:.1%}–{hi:.1%}",
                      f"{s.mean_gp:.2f}", f"{s.mean_rank:.2f}", f"{s.mu:.1f}±{s.sigma:.1f}",
                      f"{ms[s.bot]:.1f}" if s.decisions else "–")
    footer = Text(f"Games = seat-games; {points} and Rank are means ({points}'s 95% CI: --json); "
                  "Rating = openskill Plackett-Luce mu±sigma. "
                  f"Mean rounds {result.mean_rounds:.2f} · {result.seconds:.1f} s wall clock", style="dim")
    return Group(heading, Text(played_as(result.game, result.config), style="dim"), table, footer)
