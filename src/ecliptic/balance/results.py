"""A study file's records folded into its results: the content of ``results.json``, which the
report's page and figures are drawn from.

Streaming: a record is folded into its arm's accumulators (counts, exact sums, histograms as
dicts of counts) and dropped, so memory does not grow with the games; what does grow (a
histogram's distinct values, the planets, the rounds of the Market) is bounded by the game.

Deterministic: every sum is exact (points, rounds and decisions are integers; a return such as
1/3 is added as the fraction its float is), so the results do not depend on the order the
records come in (a study file interleaves its arms as the games finished), and every list is
sorted. :func:`results_json` writes them with sorted keys; there is no timing and no date.

The tests of a win rate against its fair share (1/players) are corrected by Holm's method over
the family they belong to (an arm's factions, its positions, its bots); the comparisons of the
arms against the base arm (the study's first) are all one family, whatever they measure, except
those that cannot differ by chance: a mean the same in every game of both arms (Ceres' three
rounds) is known exactly, is no test, and would only make the correction of the others stricter.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from ecliptic.balance import stats
from ecliptic.balance.provenance import VERSION_KEY, study_command
from ecliptic.engine.errors import EclipticError

FORMAT = "ecliptic-balance-results/2"
DELTA_RATE = 0.05
"""The difference of win rate the "games needed" columns are for: 5 percentage points."""
DELTA_MEANS = {"total": 1.0, "rounds": 0.5}
"""The differences of mean the "games needed" columns of the comparisons are for: 1 GP (VP) of
mean total, half a round of game length."""
SOURCES = {
    "tauceti": ("tau", "cards", "orbitals", "cubes", "gp_tokens", "assists",
                "virus_crystals", "specialization_raised", "home_crises"),
    "ceres": ("asteroids", "tail_tokens", "nucleus_tables"),
}
"""The engine's score sources (``scoring.SOURCES`` of each game) in the order its score sheet
lists them; a source the file has and this does not know is listed after them."""
COMET_OUTCOMES = ("launches", "stays", "jumps", "explosions")
SIGNS = {
    "tauceti": {"tau": 1, "cards": 1, "orbitals": 1, "cubes": 1, "gp_tokens": 1,
                "virus_crystals": -1, "specialization_raised": -1, "home_crises": -1},
    "ceres": {"asteroids": 1, "tail_tokens": 1, "nucleus_tables": 1, "total": 1},
}
"""The side of 0 each score source keeps to (``scoring.score`` of each game): 1, never negative
(GP or VP the components print); -1, never positive (Advanced Rules 7-9 deduct). ``assists``
moves GP from one player to another and a Tau Ceti total can fall below 0: not bounded. The
intervals of their means are cut at 0 on that side (:meth:`stats.Moments.bounded_interval`), as
are those of every count (rounds, decisions, margins, crises prevented, comet outcomes)."""

Json = dict[str, Any]


class ResultsError(EclipticError, ValueError):
    """A study file's header or record is not one the results can be folded from."""


class _Group:
    """A faction, a position or a bot: its seat-games, returns and points by source. Its win
    rate is one value a game (:class:`stats.ClusteredRate`): a bot's seats of one game are not
    independent seat-games; a faction's or a position's is one seat a game."""

    __slots__ = ("points", "returns")

    def __init__(self) -> None:
        self.returns = stats.ClusteredRate()
        self.points: dict[str, stats.Moments] = {}

    def add_game(self, returns: Sequence[float], points: Sequence[Mapping[str, int]], players: int) -> None:
        """One game's seats of this group (of its ``players``): their returns summed as one value,
        and each seat's points (the points are means over seat-games: their intervals, one seat a
        game, are those of factions and positions; a bot's row shows no points)."""
        self.returns.add(sum((Fraction(r) for r in returns), Fraction(0)), len(returns), players)
        for p in points:
            self._add_points(p)

    def _add_points(self, points: Mapping[str, int]) -> None:
        for source, value in points.items():
            m = self.points.get(source)
            if m is None:
                m = self.points[source] = stats.Moments()
            m.add(value)


class _Measure:
    """A per-game measure: its moments and its histogram (value -> games)."""

    __slots__ = ("counts", "moments")

    def __init__(self) -> None:
        self.moments = stats.Moments()
        self.counts: Counter[int] = Counter()

    def add(self, value: int) -> None:
        self.moments.add(value)
        self.counts[value] += 1

    def summary(self) -> Json:
        """Every measure of this kind (rounds, decisions, a margin) is a count: never negative."""
        m = self.moments
        low, high = m.bounded_interval(1)
        return {"games": m.n, "mean": m.mean, "sd": m.variance ** 0.5, "low": low, "high": high,
                "min": min(self.counts) if self.counts else None, "max": max(self.counts) if self.counts else None,
                "histogram": sorted([v, c] for v, c in self.counts.items())}


class _Arm:
    """Everything one arm's games are folded into."""

    def __init__(self, arm: Mapping[str, Any]) -> None:
        self.spec = arm
        self.players: int = arm["players"]
        self.games = 0
        self.factions: dict[str, _Group] = {}
        self.positions = [_Group() for _ in range(self.players)]
        self.bots: dict[str, _Group] = {}
        self.total = stats.Moments()
        self.rounds, self.margin, self.decisions = _Measure(), _Measure(), _Measure()
        self.crisis_types: Counter[str] = Counter()
        self.crisis_games: Counter[str] = Counter()
        self.crisis_planets: Counter[str] = Counter()
        self.prevented, self.no_crisis_rounds = _Measure(), _Measure()
        self.market: dict[int, dict[str, list[int]]] = {}
        self.comets: dict[str, _Measure] = {k: _Measure() for k in COMET_OUTCOMES}

    def add(self, r: Mapping[str, Any]) -> None:
        self.games += 1
        points, returns, first = r["points"], r["returns"], r["first_player"]
        seats = range(self.players)
        for name in dict.fromkeys(r["factions"]):
            mine = [s for s in seats if r["factions"][s] == name]
            self.factions.setdefault(name, _Group()).add_game([returns[s] for s in mine], [points[s] for s in mine],
                                                        self.players)
        for seat in seats:
            self.positions[(seat - first) % self.players].add_game([returns[seat]], [points[seat]], self.players)
        for name in dict.fromkeys(r["bots"]):
            mine = [s for s in seats if r["bots"][s] == name]
            self.bots.setdefault(name, _Group()).add_game([returns[s] for s in mine], [], self.players)
        totals = [p["total"] for p in points]
        self.total.add(Fraction(sum(totals), self.players))
        self.rounds.add(r["rounds"])
        self.decisions.add(r["decisions"])
        if self.players > 1:
            self.margin.add(_margin(totals, r["winners"]))
        if "crises" in r:
            self._add_crises(r)
        if "comets" in r:
            for k in COMET_OUTCOMES:
                self.comets[k].add(r["comets"][k])

    def _add_crises(self, r: Mapping[str, Any]) -> None:
        kinds = set()
        for _round, kind, planet in r["crises"]:
            self.crisis_types[kind] += 1
            self.crisis_planets[planet] += 1
            kinds.add(kind)
        self.crisis_games.update(kinds)
        self.prevented.add(r["prevented"])
        self.no_crisis_rounds.add(r["no_crisis_rounds"])
        for number, levels in enumerate(r["market"], start=1):
            row = self.market.setdefault(number, {})
            for resource, level in levels.items():
                acc = row.setdefault(resource, [0, 0])
                acc[0] += level
                acc[1] += 1


def _margin(totals: Sequence[int], winners: Sequence[int]) -> int:
    """The winner's total minus the best other total; 0 for a shared win."""
    if len(winners) != 1:
        return 0
    others = [t for seat, t in enumerate(totals) if seat != winners[0]]
    return totals[winners[0]] - max(others)


def fold(header: Mapping[str, Any], records: Iterable[Mapping[str, Any]], where: str = "the study file") -> Json:
    """The results of a study: its header's facts, each arm's results, the comparisons.
    ``where`` names the file in an error (the header is its line 1, record n its line n + 1)."""
    arms = _arms(header)
    for number, record in enumerate(records, start=1):
        name = record.get("arm") if isinstance(record, Mapping) else None
        arm = arms.get(name) if isinstance(name, str) else None
        if arm is None:
            raise ResultsError(f"{where}, line {number + 1}: no arm of the study is named {_name(record)}")
        problem = _problem(record, arm.players)
        if problem:
            raise ResultsError(f"{where}, line {number + 1} (game {record.get('index')!r} of arm "
                               f"{arm.spec['name']!r}): {problem}")
        arm.add(record)
    game = str(header.get("game"))
    out_arms = [_arm_results(game, a) for a in arms.values()]
    comparisons = _comparisons(game, list(arms.values()), out_arms)
    return {"format": FORMAT, **{k: header.get(k) for k in ("game", "players", "bots", "seed", "games", "sweep")},
            "ecliptic": header.get(VERSION_KEY), "command": study_command(header),
            "base": out_arms[0]["name"], "arms": out_arms, "comparisons": comparisons,
            "holm_families": {"fair_share": "each arm's factions, each arm's positions, each arm's bots",
                              "comparisons": _comparison_family(comparisons)},
            "alpha": stats.ALPHA, "power": stats.POWER, "delta_rate": DELTA_RATE, "delta_means": DELTA_MEANS}


def _comparison_family(comparisons: Sequence[Mapping[str, Any]]) -> str:
    constant = sum(1 for c in comparisons if c["constant"])
    tested = len(comparisons) - constant
    text = f"all {tested} comparisons with the base arm that can differ, one family"
    if constant:
        text += (f"; {constant} more {'is' if constant == 1 else 'are'} the same in every game of both arms, "
                 "known exactly, and left out")
    return text


def results_json(results: Mapping[str, Any]) -> str:
    """``results.json``: the same results always give the same bytes."""
    return json.dumps(results, sort_keys=True, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def _name(record: object) -> str:
    return repr(record.get("arm")) if isinstance(record, Mapping) else "(not an object)"


def _arms(header: Mapping[str, Any]) -> dict[Any, _Arm]:
    arms = header.get("arms")
    if header.get("game") not in SOURCES:
        raise ResultsError(f"the study's game is {header.get('game')!r}; the report knows {', '.join(SOURCES)}")
    if not isinstance(arms, list) or not arms:
        raise ResultsError("the study's header lists no arms")
    out: dict[Any, _Arm] = {}
    for arm in arms:
        ok = isinstance(arm, Mapping) and isinstance(arm.get("name"), str)
        players = arm.get("players") if ok else None
        if not ok or not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 8:
            raise ResultsError(f"the study's header has an arm without a name or players: {arm!r:.200}")
        if arm["name"] in out:
            raise ResultsError(f"the study's header names two arms {arm['name']!r}")
        out[arm["name"]] = _Arm(arm)
    return out


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _problem(r: Mapping[str, Any], players: int) -> str | None:
    """What makes a record unusable, in words; None when it can be folded."""
    for key in ("points", "returns", "factions", "bots"):
        v = r.get(key)
        if not isinstance(v, list) or len(v) != players:
            return f"{key!r} must list the {players} seats"
    if any(not isinstance(p, Mapping) or not _is_int(p.get("total")) or not all(_is_int(x) for x in p.values())
           for p in r["points"]):
        return "each seat's 'points' must be whole numbers by source, with a 'total'"
    if any(isinstance(x, bool) or not isinstance(x, int | float) or not 0 <= x <= 1 for x in r["returns"]):
        return "'returns' must be numbers from 0 to 1"
    if not all(isinstance(x, str) for x in (*r["factions"], *r["bots"])):
        return "'factions' and 'bots' must be names"
    if not _is_int(r.get("first_player")) or not 0 <= r["first_player"] < players:
        return "'first_player' must be a seat"
    winners = r.get("winners")
    if not isinstance(winners, list) or any(not _is_int(w) or not 0 <= w < players for w in winners):
        return "'winners' must list seats"  # none in a solo game lost
    for key in ("rounds", "decisions"):
        if not _is_int(r.get(key)) or r[key] < 0:
            return f"{key!r} must be a whole number"
    if "crises" in r:
        return _crisis_problem(r)
    if "comets" in r:
        c = r["comets"]
        if not isinstance(c, Mapping) or not all(_is_int(c.get(k)) for k in COMET_OUTCOMES):
            return f"'comets' must count {', '.join(COMET_OUTCOMES)}"
    return None


def _crisis_problem(r: Mapping[str, Any]) -> str | None:
    crises = r["crises"]
    if not isinstance(crises, list) or any(
            not isinstance(c, list) or len(c) != 3 or not _is_int(c[0]) or not isinstance(c[1], str)
            or not isinstance(c[2], str) for c in crises):
        return "'crises' must list [round, crisis type, planet]"
    if not _is_int(r.get("prevented")) or not _is_int(r.get("no_crisis_rounds")):
        return "'prevented' and 'no_crisis_rounds' must be whole numbers"
    market = r.get("market")
    if not isinstance(market, list) or any(
            not isinstance(m, Mapping) or not all(isinstance(k, str) and _is_int(v) for k, v in m.items())
            for m in market):
        return "'market' must list each round's levels by resource"
    return None


# Results of an arm ----------------------------------------------------------------------


def _sources(game: str, seen: Iterable[str]) -> list[str]:
    known = SOURCES[game]
    rest = sorted(set(seen) - set(known) - {"total"})
    return [s for s in known if s in seen] + rest + ["total"]


def _mean(m: stats.Moments, sign: int = 0) -> Json:
    """A mean, its 95% interval (cut at 0 on the side ``sign`` says it cannot cross) and its SD."""
    low, high = m.bounded_interval(sign)
    return {"mean": m.mean, "low": low, "high": high, "sd": m.variance ** 0.5}


def _groups(game: str, named: Sequence[tuple[Json, _Group]], share: float | None) -> list[Json]:
    """Rows of a family of groups with their win rates tested against ``share``, Holm-corrected
    (no share, no test: a solo game is won or lost against the game, not against players)."""
    rows = []
    for key, g in named:
        n, wins = g.returns.n, float(Fraction(g.returns.wins))
        low, high = g.returns.interval()
        rate = wins / n if n else 0.0
        seen = g.points.keys()
        rows.append({**key, "games": n, "wins": wins, "win_rate": rate, "interval": [low, high], "fair_share": share,
                     "p": g.returns.share_p(share) if n and share is not None else None,
                     "games_needed": stats.games_needed(rate, DELTA_RATE, share=share),
                     "points": {s: _mean(g.points[s], SIGNS[game].get(s, 0)) for s in _sources(game, seen)}
                     if seen else {}})
    tested = [r for r in rows if r["p"] is not None]
    for r, adjusted in zip(tested, stats.holm([r["p"] for r in tested]), strict=True):
        r["p_holm"], r["significant"] = adjusted, adjusted < stats.ALPHA
    for r in rows:
        r.setdefault("p_holm", None)
        r.setdefault("significant", None)
    return rows


def _arm_results(game: str, a: _Arm) -> Json:
    share = 1 / a.players if a.players > 1 else None
    spec = a.spec
    out: Json = {
        "name": spec["name"], "label": spec.get("label", spec["name"]), "players": a.players,
        "config": spec.get("config"), "content": spec.get("content"), "games": a.games,
        "factions": _groups(game, [({"name": f}, a.factions[f]) for f in sorted(a.factions)], share),
        "positions": _groups(game, [({"position": i}, g) for i, g in enumerate(a.positions)], share),
        "bots": _groups(game, [({"name": b}, a.bots[b]) for b in sorted(a.bots)], share),
        "total_points": _mean(a.total, SIGNS[game].get("total", 0)),
        "rounds": a.rounds.summary(), "decisions": a.decisions.summary(),
        "margin": a.margin.summary() if a.players > 1 else None,
        "crises": _crises(a) if a.prevented.moments.n else None,
        "market": _market(a) if a.market else None,
        "comets": ({"games": a.comets["launches"].moments.n,
                    **{k: {**_mean(a.comets[k].moments, 1), "total": int(a.comets[k].moments.total)}
                       for k in COMET_OUTCOMES}}
                   if a.comets["launches"].moments.n else None),
    }
    return out


def _crises(a: _Arm) -> Json:
    games = a.prevented.moments.n
    types = [{"name": k, "activations": a.crisis_types[k], "per_game": a.crisis_types[k] / games,
              "games_with": a.crisis_games[k], "share_of_games": a.crisis_games[k] / games}
             for k in sorted(a.crisis_types)]
    planets = [{"name": k, "activations": v, "per_game": v / games}
               for k, v in sorted(a.crisis_planets.items(), key=lambda kv: (-kv[1], kv[0]))]
    return {"games": games, "types": types, "planets": planets,
            "prevented": {**_mean(a.prevented.moments, 1), "total": int(a.prevented.moments.total)},
            "no_crisis_rounds": {**_mean(a.no_crisis_rounds.moments, 1),
                                 "total": int(a.no_crisis_rounds.moments.total)}}


def _market(a: _Arm) -> Json:
    resources = sorted({res for row in a.market.values() for res in row})
    rounds = [{"round": number, "games": max(acc[1] for acc in a.market[number].values()),
               "levels": {res: a.market[number][res][0] / a.market[number][res][1]
                          for res in sorted(a.market[number])}}
              for number in sorted(a.market)]
    return {"resources": resources, "rounds": rounds}


# Comparisons ------------------------------------------------------------------------------


def _comparisons(game: str, arms: Sequence[_Arm], results: Sequence[Json]) -> list[Json]:
    """Each arm against the base arm: each faction's win rate (Ceres: each position's, its
    players having no factions), the mean total points and the mean rounds; one Holm family."""
    base, base_results = arms[0], results[0]
    rows: list[Json] = []
    key = "factions" if game == "tauceti" else "positions"
    for arm, res in zip(arms[1:], results[1:], strict=True):
        if arm.players > 1 and base.players > 1:
            null = 1 / arm.players - 1 / base.players
            theirs = {_group_name(g): g for g in base_results[key]}
            for g in res[key]:
                other = theirs.get(_group_name(g))
                if other is None or not g["games"] or not other["games"]:
                    continue
                d = stats.clustered_rate_difference(_group_of(arm, key, g).returns,
                                                    _group_of(base, key, other).returns, null)
                needed = stats.games_needed_two_arms(other["win_rate"], DELTA_RATE, share=1 / base.players)
                rows.append(_row(res, "win_rate", _group_name(g), other["win_rate"], g["win_rate"], d, needed,
                                 DELTA_RATE))
        for measure, mine, theirs_m in (("total", arm.total, base.total),
                                        ("rounds", arm.rounds.moments, base.rounds.moments)):
            d = stats.mean_difference(mine, theirs_m)
            variance = (mine.variance + theirs_m.variance) / 2
            rows.append(_row(res, measure, None, theirs_m.mean, mine.mean, d,
                             stats.games_needed_means(variance, DELTA_MEANS[measure]), DELTA_MEANS[measure]))
    family = [r for r in rows if not r["constant"]]
    for r, adjusted in zip(family, stats.holm([r["p"] for r in family]), strict=True):
        r["p_holm"], r["significant"] = adjusted, adjusted < stats.ALPHA
    for r in rows:
        if r["constant"]:  # known exactly: a difference there is certain, none is certainly none
            r["p_holm"], r["significant"] = None, r["difference"] != r["null"]
    return rows


def _group_of(arm: _Arm, key: str, row: Mapping[str, Any]) -> _Group:
    """The faction's or position's tally behind a row of :func:`_groups`."""
    return arm.factions[row["name"]] if key == "factions" else arm.positions[row["position"]]


def _group_name(g: Mapping[str, Any]) -> str:
    return str(g["name"]) if "name" in g else f"position {g['position']}"


def _row(arm: Mapping[str, Any], measure: str, group: str | None, base_value: float, value: float,
         d: stats.Difference, needed: int, delta: float) -> Json:
    return {"arm": arm["name"], "measure": measure, "group": group, "base_value": base_value, "value": value,
            "difference": d.value, "low": _finite(d.low), "high": _finite(d.high), "null": d.null, "p": d.p,
            "games_needed": needed, "delta": delta, "constant": d.constant}


def _finite(x: float) -> float | None:
    """An interval's bound, or None (JSON has no infinity) when there were too few games for one."""
    return x if math.isfinite(x) else None
