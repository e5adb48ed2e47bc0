"""The statistics of the balance report, in plain Python (``math`` and ``fractions`` only), so
that the numbers of ``results.json`` never depend on an optional library.

Every test is two-sided at ``ALPHA`` = 0.05; every interval is 95%.

- :func:`wilson` — the interval of a win rate;
- :class:`ClusteredRate` — a win rate over seat-games that come in games (a bot or faction in
  several seats of one game): its Wilson interval at the effective number of seat-games;
- :func:`share_test` — a win rate against its fair share (1/players);
- :func:`rate_difference`, :func:`clustered_rate_difference` — two win rates (an arm against
  the base arm);
- :class:`Moments` and :func:`mean_difference` — means of GP, VP, rounds (Welch's t);
- :class:`ClusteredMean` — a mean over seat-games that come in games (a bot's points);
- :func:`holm` — Holm's step-down correction of a family of p-values;
- :func:`games_needed`, :func:`games_needed_two_arms`, :func:`games_needed_means` — how many
  games a difference of a given size needs to be detected (power ``POWER`` = 0.8).

The same functions give ``ecliptic simulate`` its intervals (:mod:`ecliptic.sim.simulate`), so a
simulation's figures and a study's never disagree on how sure they are.

Why normal approximations for rates and not the exact binomial test: a shared win counts 1/k
for each of its k winners, so a faction's wins are not a whole number and the binomial
distribution does not apply; and a study has hundreds or thousands of games per arm, where the
normal approximation is accurate to the third decimal of a p-value.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

ALPHA = 0.05
POWER = 0.8
Z95 = 1.959963984540054
"""The normal quantile of 1 - ALPHA/2: a 95% interval is the estimate plus or minus Z95 standard
errors (the tournament's constant, one ulp from ``NormalDist().inv_cdf(0.975)``, kept so that its
intervals stay the same to the last digit)."""
Z_POWER = NormalDist().inv_cdf(POWER)
"""The normal quantile of ``POWER``: a true difference of the size looked for lands beyond the
test's critical value in 80% of studies."""

Number = int | float | Fraction


def wilson(wins: float, n: float, z: float = Z95, *, all_won: bool | None = None) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (95% by default; ``n`` may be an
    effective number, :class:`ClusteredRate`). No wins has the lower bound 0 and all wins the
    upper bound 1 exactly (in floating point the formula lands a rounding error inside, and "won
    every game" must read as 1; ``all_won`` says so when ``wins`` is a product that may not)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if (wins >= n if all_won is None else all_won) else min(1.0, centre + half)
    return max(0.0, min(low, p)), min(1.0, max(high, p))


class _Tally:
    """Exact running sums (:class:`ClusteredRate`, :class:`Moments`): two tallies of the same
    games, added in any order, are equal (a study run locally and on Ray gives equal results)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        names: tuple[str, ...] = type(self).__slots__
        return all(getattr(self, k) == getattr(other, k) for k in names)

    __hash__ = None  # type: ignore[assignment]  # (mutable: equal by value, so not hashable)


def _spread_about(ratio: Fraction, squares: Number, cross: Number, seats_squared: int) -> Fraction:
    """sum_g (x_g - seats_g ratio)^2 from the running sums of x_g^2, x_g seats_g and seats_g^2:
    the games' totals about the ratio estimate, for :class:`ClusteredRate` and :class:`ClusteredMean`."""
    return Fraction(squares) - 2 * ratio * Fraction(cross) + ratio * ratio * seats_squared


class ClusteredRate(_Tally):
    """A win rate over seat-games grouped by game, kept exactly: each game adds the returns of
    the group's seats in it (``won``, a shared win counting 1/k) and how many seats it had.

    Why: the seats of one game are not independent. Two seats of one bot in a 4-player game
    cannot both win (the returns of a game add up to 1), so its total of a game varies less
    than two independent seat-games would, and the Wilson interval over seat-games is too wide
    (2 of 4 seats at a true 25%: 98.5% coverage over 4,000 simulated 50-game runs, not 95%); and
    a group whose seat counts differ from game to game can vary more than seat-games would.
    The games themselves are independent, so the variance of the rate is taken from the spread
    of the games' totals about the rate (the cluster-robust, "ratio estimator" variance):
    v = sum_g (won_g - seats_g p)^2 / n^2, n the seat-games. The interval is then Wilson's at
    the effective number of seat-games n_eff = p (1 - p) / v (the design effect of Kish, as in
    Korn and Graubard's interval for a proportion of clustered survey data), which keeps what
    Wilson gives that the Wald interval p +- 1.96 sqrt(v) does not: bounds within [0, 1] that
    contain the rate and do not collapse to a point at a rate of 0 or 1.

    With one seat a game and no shared win, n_eff = n: the plain Wilson interval, to the last
    digit. A rate of 0 or 1 has no spread to measure (every seat lost, or won) and keeps
    n_eff = n: near the edges a bot's seats of one game are nearly independent (their totals
    vary as k p (1 - k p), about k p). A group in every seat of every game (one bot playing
    itself) has exactly 1/players, the rules' constant sum: its interval is that rate. Any other
    rate with no spread in its games (a few games, each a shared win of 1/2) keeps n_eff = n: the
    games seen did not vary, but the next one may, and the interval must not claim certainty."""

    __slots__ = ("cross", "games", "n", "partial_tables", "seats_squared", "wins", "wins_squared")

    def __init__(self) -> None:
        self.games = 0
        self.n = 0
        self.wins: Fraction | int = 0
        self.wins_squared: Fraction | int = 0
        self.cross: Fraction | int = 0
        self.seats_squared = 0
        self.partial_tables = 0

    def add(self, won: Number, seats: int = 1, players: int | None = None) -> None:
        """One game: the group's ``seats`` in it and their returns summed (``won``); ``players``,
        the seats of the game, says whether the group held all of them (``None``: not all)."""
        v = Fraction(won) if isinstance(won, float) else won
        self.partial_tables += seats != players
        self.games += 1
        self.n += seats
        self.wins += v
        self.wins_squared += v * v
        self.cross += v * seats
        self.seats_squared += seats * seats

    @property
    def rate(self) -> float:
        return float(Fraction(self.wins) / self.n) if self.n else 0.0

    @property
    def variance(self) -> Fraction:
        """The cluster-robust variance of :attr:`rate` (exact): the games' totals about it."""
        if not self.n:
            return Fraction(0)
        p = Fraction(self.wins) / self.n
        return _spread_about(p, self.wins_squared, self.cross, self.seats_squared) / (self.n * self.n)

    @property
    def exact(self) -> bool:
        """Every seat of every game was the group's and won part of it: its rate is the rules'
        (1/players), no estimate (a solo game's rate of 0 or 1 is one)."""
        return self.games > 0 and not self.partial_tables and self.variance == 0 and 0 < self.wins < self.n

    @property
    def effective_n(self) -> float:
        """The seat-games that independent ones would have to be to vary as these did
        (``inf`` for an :attr:`exact` rate; the seat-games themselves where the games showed
        no spread to measure: a rate of 0 or 1, or every game the same)."""
        if self.exact:
            return math.inf
        p = Fraction(self.wins) / self.n if self.n else Fraction(0)
        v = self.variance
        return float(p * (1 - p) / v) if 0 < p < 1 and v > 0 else float(self.n)

    def interval(self, z: float = Z95) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`rate` at :attr:`effective_n` (why: the class text)."""
        if not self.n:
            return 0.0, 1.0
        n_eff = self.effective_n
        if math.isinf(n_eff):
            return self.rate, self.rate
        return wilson(self.rate * n_eff, n_eff, z, all_won=self.wins >= self.n)

    def share_p(self, share: float) -> float:
        """:func:`share_test` of the rate against ``share`` at :attr:`effective_n` (so that it
        agrees with :meth:`interval`): an :attr:`exact` rate gives 1 at its share, 0 off it."""
        if not self.n or not 0 < share < 1:
            return 1.0
        n_eff = self.effective_n
        if math.isinf(n_eff):
            return 1.0 if self.rate == share else 0.0
        return share_test(self.rate * n_eff, n_eff, share)


def normal_p(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def share_test(wins: float, n: float, share: float) -> float:
    """The p-value of "this win rate is the fair share": the score test, whose statistic is
    (rate - share) / sqrt(share (1 - share) / n) with the variance the fair share implies.

    It is the test the Wilson interval inverts, so the two never disagree: p < 0.05 exactly when
    the share lies outside the 95% Wilson interval. A shared win (a return between 0 and 1) has
    less variance than a win or a loss, so the test is slightly conservative when wins are shared.
    No games (or a share of 0 or 1, the solo game's) give 1.0: nothing to test."""
    if n <= 0 or not 0 < share < 1:
        return 1.0
    return normal_p((wins / n - share) / math.sqrt(share * (1 - share) / n))


@dataclass(frozen=True)
class Difference:
    """An estimated difference (arm minus base), its 95% interval and the p-value of the test
    against the difference expected when nothing changed (``null``)."""

    value: float
    low: float
    high: float
    p: float
    null: float = 0.0
    constant: bool = False
    """A mean that was the same in every game of both sides (Ceres' three rounds against three:
    a length the rules fix): the difference is known exactly, so ``p`` (0 or 1) is no test, and a
    family of tests leaves it out of its correction (it cannot be a false finding). Never set for
    win rates: a faction that won no game of either arm is a chance outcome of each game, which
    the next game may break, not a quantity the rules fix."""


def rate_difference(wins: float, n: int, base_wins: float, base_n: int, null: float = 0.0) -> Difference:
    """Win rate of an arm minus that of the base arm.

    The interval is Newcombe's hybrid score interval (his method 10: the two Wilson intervals
    combined), which keeps its coverage near rates of 0 or 1 where the Wald interval does not.
    The test is the unpooled z-test, z = (d - null) / sqrt(p1 q1 / n1 + p2 q2 / n2), because the
    difference expected without any effect need not be 0: the fair shares differ when the arms
    have different numbers of players (``null`` = 1/players of the arm minus that of the base).
    With hundreds of games per arm it agrees with the pooled test to the third decimal."""
    if n <= 0 or base_n <= 0:
        return Difference(0.0, -1.0, 1.0, 1.0, null)
    p1, p2 = wins / n, base_wins / base_n
    return _newcombe((p1, wilson(wins, n), p1 * (1 - p1) / n), (p2, wilson(base_wins, base_n), p2 * (1 - p2) / base_n),
                     null)


def clustered_rate_difference(arm: ClusteredRate, base: ClusteredRate, null: float = 0.0) -> Difference:
    """:func:`rate_difference` of two :class:`ClusteredRate`: each side's Wilson interval and
    variance at its effective number of seat-games, so that a comparison between arms is as
    sure as the rows it compares (a shared win, which varies less than a win or a loss, makes
    it narrower than over seat-games; a bot's seats of one game count as the game they are).
    With one seat a game and no shared win it is :func:`rate_difference` to the last digit."""
    if not arm.n or not base.n:
        return Difference(0.0, -1.0, 1.0, 1.0, null)
    return _newcombe(_side(arm), _side(base), null)


def _side(c: ClusteredRate) -> tuple[float, tuple[float, float], float]:
    """A rate, its interval and its variance at its effective number of seat-games (none for an
    exact rate: the rules fix it)."""
    n_eff = c.effective_n
    p = c.rate
    return p, c.interval(), 0.0 if math.isinf(n_eff) else p * (1 - p) / n_eff


def _newcombe(arm: tuple[float, tuple[float, float], float], base: tuple[float, tuple[float, float], float],
              null: float) -> Difference:
    """Newcombe's hybrid interval from each side's rate, interval and variance; the unpooled z-test."""
    (p1, (l1, u1), v1), (p2, (l2, u2), v2) = arm, base
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return Difference(d, max(-1.0, low), min(1.0, high), _p_or_certain(d - null, math.sqrt(v1 + v2)), null)


def _p_or_certain(shift: float, se: float) -> float:
    """The two-sided normal p-value of ``shift`` with standard error ``se``; with no spread at all
    (every game the same) a difference is certain and no difference is none."""
    if se > 0:
        return normal_p(shift / se)
    return 1.0 if shift == 0 else 0.0


def _exact(v: Number) -> Fraction | int:
    """A value kept exactly: a float becomes the integer or fraction it is."""
    return (int(v) if v.is_integer() else Fraction(v)) if isinstance(v, float) else v


def _widen(least: Fraction | int | None, most: Fraction | int | None,
           v: Fraction | int) -> tuple[Fraction | int, Fraction | int]:
    """The least and most value seen, ``v`` included."""
    return (v if least is None or v < least else least), (v if most is None or v > most else most)


class _MeanTally(_Tally):
    """What :class:`Moments` and :class:`ClusteredMean` share: the mean of their ``total`` over
    ``n``, the least and most value seen, and the interval cut at 0 where no value crossed it."""

    __slots__ = ()
    n: int
    total: Fraction | int
    least: Fraction | int | None
    most: Fraction | int | None

    @property
    def mean(self) -> float:
        return float(Fraction(self.total) / self.n) if self.n else 0.0

    def interval(self) -> tuple[float, float]:
        raise NotImplementedError

    def bounded_interval(self, sign: int) -> tuple[float, float]:
        """:meth:`interval` cut at 0 on the side the quantity cannot cross: ``sign`` 1 for one
        that is never negative (a count, points gained), -1 for one never positive (a deduction),
        0 for neither (nothing cut). Why: the t interval of a mean of few or skewed values (most
        games 0, a few 1) reaches values no game can give, e.g. 0.12 [-0.17, 0.42] GP of
        Resource cubes. Cut only when every value added keeps to that side: a value across it
        (an owner's content printing a negative GP) shows the quantity is not bounded there."""
        low, high = self.interval()
        if sign > 0 and self.least is not None and self.least >= 0:
            low = max(low, 0.0)
        elif sign < 0 and self.most is not None and self.most <= 0:
            high = min(high, 0.0)
        return low, high


class Moments(_MeanTally):
    """The count, sum and sum of squares of a measure (GP, rounds), kept exactly (integers or
    fractions), so that the mean and variance do not depend on the order the games are added in:
    a study file interleaves its arms in whatever order the games finished. Also the least and
    the most value (``None`` before the first): whether every value kept to one side of 0."""

    __slots__ = ("least", "most", "n", "squares", "total")

    def __init__(self) -> None:
        self.n = 0
        self.total: Fraction | int = 0
        self.squares: Fraction | int = 0
        self.least: Fraction | int | None = None
        self.most: Fraction | int | None = None

    def add(self, x: Number) -> None:
        v = _exact(x)
        self.n += 1
        self.total += v
        self.squares += v * v
        self.least, self.most = _widen(self.least, self.most, v)

    @property
    def variance(self) -> float:
        """The sample variance (divided by n - 1); 0 for fewer than two values."""
        if self.n < 2:
            return 0.0
        return float((self.n * Fraction(self.squares) - Fraction(self.total) ** 2) / (self.n * (self.n - 1)))

    def interval(self) -> tuple[float, float]:
        """The 95% interval of the mean: mean plus or minus Student's t quantile (n - 1 degrees of
        freedom) times the standard error; the mean itself when there is no spread."""
        if self.n < 2:
            return self.mean, self.mean
        half = t_quantile(self.n - 1) * math.sqrt(self.variance / self.n)
        return self.mean - half, self.mean + half


class ClusteredMean(_MeanTally):
    """The mean of a measure over seat-games that come in games (a bot's points, in a
    tournament where it holds 1 seat of one game and 2 of the next), kept exactly.

    Why not :class:`Moments` of each game's mean of its seats: that is a mean of games, and
    where the seats per game vary it is not the seat-games' mean that is reported beside it, so
    the interval need not contain the mean. Here the estimate is the seat-games' mean
    m = sum_g x_g / n (x_g the game's total over the group's seats, n the seat-games), and its
    variance is taken from the spread of the games' totals about it, as for
    :class:`ClusteredRate` (the games are independent, their seats need not be):
    v = G / (G - 1) sum_g (x_g - seats_g m)^2 / n^2, G the games; the interval is Student's t
    at G - 1 degrees of freedom. With one seat a game it is :meth:`Moments.interval` exactly."""

    __slots__ = ("cross", "games", "least", "most", "n", "seats_squared", "squares", "total")

    def __init__(self) -> None:
        self.games = 0
        self.n = 0
        self.total: Fraction | int = 0
        self.squares: Fraction | int = 0
        self.cross: Fraction | int = 0
        self.seats_squared = 0
        self.least: Fraction | int | None = None
        self.most: Fraction | int | None = None

    def add(self, values: Sequence[Number]) -> None:
        """One game: the measure of each of the group's seats in it."""
        exact = [_exact(v) for v in values]
        x = sum(exact, Fraction(0))
        x = int(x) if x.denominator == 1 else x
        k = len(exact)
        self.games += 1
        self.n += k
        self.total += x
        self.squares += x * x
        self.cross += x * k
        self.seats_squared += k * k
        for v in exact:
            self.least, self.most = _widen(self.least, self.most, v)

    @property
    def variance(self) -> float:
        """The cluster-robust variance of :attr:`mean` (0 for fewer than two games)."""
        if self.games < 2:
            return 0.0
        m = Fraction(self.total) / self.n
        spread = _spread_about(m, self.squares, self.cross, self.seats_squared)
        return float(spread * self.games / ((self.games - 1) * self.n * self.n))

    def interval(self) -> tuple[float, float]:
        """The 95% interval of :attr:`mean` (Student's t, G - 1 degrees of freedom); the mean
        itself when there is no spread."""
        if self.games < 2:
            return self.mean, self.mean
        half = t_quantile(self.games - 1) * math.sqrt(self.variance)
        return self.mean - half, self.mean + half


def mean_difference(arm: Moments, base: Moments) -> Difference:
    """Mean of an arm minus that of the base arm, by Welch's t-test (unequal variances, the
    Welch-Satterthwaite degrees of freedom); the interval is the difference plus or minus the t
    quantile times the standard error. Fewer than two games on a side: no test (p = 1)."""
    d = arm.mean - base.mean
    if arm.n < 2 or base.n < 2:
        return Difference(d, -math.inf, math.inf, 1.0)
    a, b = arm.variance / arm.n, base.variance / base.n
    se = math.sqrt(a + b)
    if se == 0:
        return Difference(d, d, d, _p_or_certain(d, 0.0), constant=True)
    df = (a + b) ** 2 / (a * a / (arm.n - 1) + b * b / (base.n - 1))
    half = t_quantile(df) * se
    return Difference(d, d - half, d + half, t_p(d / se, df))


def t_p(t: float, df: float) -> float:
    """The two-sided p-value of Student's t with ``df`` degrees of freedom: the regularized
    incomplete beta function I_x(df/2, 1/2) at x = df / (df + t^2)."""
    if df <= 0:
        return 1.0
    return _incomplete_beta(df / 2, 0.5, df / (df + t * t))


@functools.lru_cache(maxsize=4096)
def t_quantile(df: float, alpha: float = ALPHA) -> float:
    """The t with two-sided p-value ``alpha`` (1.96 for many degrees of freedom, 12.71 for one),
    found by bisection of :func:`t_p`, which falls as t grows; it is never below the normal
    quantile. Remembered: an arm's intervals share a few degrees of freedom."""
    low = NormalDist().inv_cdf(1 - alpha / 2)
    high = 2 * low
    while t_p(high, df) > alpha:
        low, high = high, high * 2
    while high - low > 1e-12 * high:
        mid = (low + high) / 2
        if t_p(mid, df) > alpha:
            low = mid
        else:
            high = mid
    return high


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction (evaluated
    with the modified Lentz method), on the side of x where the fraction converges fast."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    out = d
    for m in range(1, 10_000):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            out *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return out


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given: the i-th smallest of m p-values is
    multiplied by m - i + 1 (i from 1), each adjusted value is at least the one before it in that
    order, and none exceeds 1. A test is significant after the correction when its adjusted
    value is below ``ALPHA``; the chance of any false finding in the family stays below ALPHA."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: (p_values[i], i))
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        out[i] = running
    return out


def _toward_half(rate: float, delta: float) -> float:
    """The rate ``delta`` away from ``rate`` on the side of 1/2, where a rate varies most: the
    harder of the two differences to detect."""
    return rate + delta if rate < 0.5 else rate - delta


def planning_rate(rate: float, share: float | None) -> float:
    """The rate the games-needed formulas are worked at: whichever of the measured ``rate`` and
    the fair ``share`` is nearer 1/2 (has the larger variance p q); without a share (a solo
    game's), 1/2 itself.

    Why not the measured rate alone: at a rate of 0 or 1 its variance is 0 and the formula
    collapses (a faction that never won "needed" 14 games to tell 0% from 5%, when 14 games
    without a win do not even tell 0% from 15%). The fair share is what the table's test is
    against (:func:`share_test` works at its variance), so near the edges the games needed are
    those of a rate at the fair share, never fewer; from the share toward 1/2 the measured rate
    varies more and is kept. The figure is then conservative, never optimistic."""
    p = min(1.0, max(0.0, rate))
    reference = 0.5 if share is None else min(1.0, max(0.0, share))
    return p if p * (1 - p) >= reference * (1 - reference) else reference


def games_needed(rate: float, delta: float = 0.05, *, share: float | None = None) -> int:
    """Games needed to tell a win rate of ``rate`` from one ``delta`` away (two-sided test at
    ALPHA, power POWER), one sample against a fixed value (Fleiss, without continuity correction):
    n = ((z_{1-alpha/2} sqrt(p0 q0) + z_{power} sqrt(p1 q1)) / delta)^2, p0 the
    :func:`planning_rate` of ``rate`` and the fair ``share``, p1 = p0 +- delta toward 1/2."""
    p0 = planning_rate(rate, share)
    p1 = _toward_half(p0, delta)
    root = Z95 * math.sqrt(p0 * (1 - p0)) + Z_POWER * math.sqrt(p1 * (1 - p1))
    return max(1, math.ceil((root / delta) ** 2))


def games_needed_two_arms(rate: float, delta: float = 0.05, *, share: float | None = None) -> int:
    """Games needed in EACH of two arms to detect a difference ``delta`` between their win rates
    when the base's is ``rate`` (Fleiss, without continuity correction):
    n = (z_{1-alpha/2} sqrt(2 pbar qbar) + z_{power} sqrt(p1 q1 + p2 q2))^2 / delta^2,
    p1 the :func:`planning_rate` of ``rate`` and the base's fair ``share`` (the same reason as
    :func:`games_needed`), p2 = p1 +- delta toward 1/2, pbar = (p1 + p2) / 2."""
    p1 = planning_rate(rate, share)
    p2 = _toward_half(p1, delta)
    bar = (p1 + p2) / 2
    root = Z95 * math.sqrt(2 * bar * (1 - bar)) + Z_POWER * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
    return max(1, math.ceil((root / delta) ** 2))


def games_needed_means(variance: float, delta: float) -> int:
    """Games needed in EACH of two arms to detect a difference ``delta`` between two means whose
    values have ``variance`` (the normal approximation): n = 2 (z_{1-alpha/2} + z_{power})^2
    variance / delta^2."""
    return max(2, math.ceil(2 * (Z95 + Z_POWER) ** 2 * variance / (delta * delta)))

