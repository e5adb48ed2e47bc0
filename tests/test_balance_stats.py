"""The balance report's statistics against textbook and hand-computed values.

Reference values: Newcombe (1998), "Interval estimation for the difference between independent
proportions", example (a); Student's t quantiles from the printed tables; the Welch test and the
t p-values as SciPy 1.17 computes them (``scipy.stats.ttest_ind(..., equal_var=False)``,
``2 * scipy.stats.t.sf``), copied here so that the tests need no SciPy.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction
from statistics import NormalDist

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ecliptic.balance.stats import (
    ALPHA,
    Z95,
    Z_POWER,
    ClusteredMean,
    ClusteredRate,
    Moments,
    clustered_rate_difference,
    games_needed,
    games_needed_means,
    games_needed_two_arms,
    holm,
    mean_difference,
    normal_p,
    rate_difference,
    share_test,
    t_p,
    t_quantile,
    wilson,
)
from ecliptic.sim import tournament


def test_the_tournament_uses_the_one_wilson_interval() -> None:
    assert tournament.wilson is wilson
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)


def test_the_normal_quantiles_are_those_of_alpha_and_power() -> None:
    assert abs(Z95 - NormalDist().inv_cdf(1 - ALPHA / 2)) < 1e-15
    assert abs(Z_POWER - 0.8416212) < 1e-7
    assert normal_p(Z95) == pytest.approx(0.05, abs=1e-12)
    assert normal_p(0.0) == 1.0


def test_holm_on_the_four_p_values_worked_by_hand() -> None:
    # sorted: 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 = 0.04 -> raised to 0.06
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert [p < ALPHA for p in holm([0.01, 0.04, 0.03, 0.005])] == [True, False, False, True]


def test_holm_caps_at_one_keeps_ties_and_handles_an_empty_family() -> None:
    assert holm([]) == []
    assert holm([0.5, 0.5, 0.9]) == [1.0, 1.0, 1.0]
    assert holm([0.01, 0.01]) == [0.02, 0.02]
    assert holm([0.2]) == [0.2]


def test_holm_is_never_below_the_raw_p_and_never_below_bonferronis_smallest() -> None:
    rng = random.Random(7)
    for _ in range(200):
        ps = [rng.random() ** 3 for _ in range(rng.randint(1, 12))]
        adjusted = holm(ps)
        assert all(a >= p for a, p in zip(adjusted, ps, strict=True))
        assert min(adjusted) == pytest.approx(min(1.0, len(ps) * min(ps)))
        order = sorted(range(len(ps)), key=ps.__getitem__)
        assert [adjusted[i] for i in order] == sorted(adjusted)


def test_share_test_agrees_with_the_wilson_interval() -> None:
    # The score test is what the Wilson interval inverts: the fair share is outside the 95% interval
    # exactly when p < 0.05.
    for wins in range(0, 201, 3):
        low, high = wilson(wins, 200)
        p = share_test(wins, 200, 0.25)
        if abs(p - ALPHA) > 1e-9:
            assert (p < ALPHA) == (not low <= 0.25 <= high), wins


def test_share_test_known_value_and_the_untestable_cases() -> None:
    # 60 wins of 200 against 1/4: z = 0.05 / sqrt(0.1875 / 200) = 1.63299, p = 0.10247
    assert share_test(60, 200, 0.25) == pytest.approx(0.102470, abs=1e-6)
    assert share_test(50, 200, 0.25) == 1.0
    assert share_test(0, 0, 0.25) == 1.0
    assert share_test(3, 4, 1.0) == 1.0  # the solo game: its one player's share is all of it


def test_rate_difference_is_newcombes_example() -> None:
    d = rate_difference(56, 70, 48, 80)
    assert d.value == pytest.approx(0.2)
    assert (d.low, d.high) == pytest.approx((0.0524, 0.3339), abs=1e-4)
    # unpooled z = 0.2 / sqrt(0.8 * 0.2 / 70 + 0.6 * 0.4 / 80) = 2.7505
    assert d.p == pytest.approx(normal_p(0.2 / math.sqrt(0.16 / 70 + 0.24 / 80)))
    assert d.p == pytest.approx(0.005948, abs=1e-5)


def test_rate_difference_tests_against_the_difference_expected_without_an_effect() -> None:
    # An arm of 2 players against a base of 4: the fair shares differ by 1/2 - 1/4.
    d = rate_difference(500, 1000, 250, 1000, null=0.25)
    assert d.value == pytest.approx(0.25) and d.p == pytest.approx(1.0)
    assert rate_difference(500, 1000, 250, 1000).p < 1e-30
    assert rate_difference(0, 10, 0, 10).p == 1.0  # no spread and no difference
    assert rate_difference(0, 10, 10, 10).p == 0.0
    assert rate_difference(1, 0, 1, 1).p == 1.0


def test_moments_are_exact_and_do_not_depend_on_the_order() -> None:
    values = [0.5, 1 / 3, 0.25, 1.0, 0.0, 1 / 3, 1 / 3, 0.2, 0.1] * 50
    forward, backward = Moments(), Moments()
    for v in values:
        forward.add(v)
    for v in reversed(values):
        backward.add(v)
    assert (forward.mean, forward.variance, forward.interval()) == (backward.mean, backward.variance,
                                                                    backward.interval())
    m = Moments()
    for v in [1, 2, 3, 4, 5, 9]:
        m.add(v)
    assert m.mean == 4.0 and m.variance == pytest.approx(8.0)
    # mean +- t(0.975, 5) sd / sqrt(6), t = 2.570582
    assert m.interval() == pytest.approx((4 - 2.570582 * math.sqrt(8 / 6), 4 + 2.570582 * math.sqrt(8 / 6)))
    one = Moments()
    one.add(3)
    assert one.variance == 0.0 and one.interval() == (3.0, 3.0)
    assert Moments().mean == 0.0


@pytest.mark.parametrize(("df", "t"), [(1, 12.7062), (2, 4.3027), (5, 2.5706), (10, 2.2281), (30, 2.0423),
                                        (120, 1.9799), (10**6, 1.9600)])
def test_t_quantile_matches_the_printed_table(df: int, t: float) -> None:
    assert t_quantile(df) == pytest.approx(t, abs=1e-4)


def test_t_p_matches_scipy() -> None:
    assert t_p(2.0, 5) == pytest.approx(0.10193947882985835, rel=1e-9)
    assert t_p(1.0, 1) == pytest.approx(0.5, rel=1e-9)
    assert t_p(3.5, 30.5) == pytest.approx(0.0014544697872457407, rel=1e-9)
    assert t_p(0.3, 1000) == pytest.approx(0.7642395041672441, rel=1e-9)
    assert t_p(0.0, 7) == pytest.approx(1.0)


def test_welch_matches_scipy() -> None:
    a, b = Moments(), Moments()
    for x in [1, 2, 3, 4, 5, 9]:
        a.add(x)
    for x in [2, 4, 6, 9, 12, 15, 20]:
        b.add(x)
    d = mean_difference(a, b)
    assert d.value == pytest.approx(4 - 68 / 7)
    assert d.p == pytest.approx(0.06341938366215547, rel=1e-9)  # statistic -2.13302, df 8.51826
    assert d.low < d.value < d.high and d.low < 0 < d.high  # not significant: the interval holds 0


def test_welch_without_spread_or_games() -> None:
    same, other = Moments(), Moments()
    for _ in range(5):
        same.add(10)
        other.add(12)
    assert mean_difference(same, same).p == 1.0
    assert mean_difference(other, same).p == 0.0
    assert mean_difference(Moments(), same).p == 1.0


def test_games_needed_by_the_formula_worked_by_hand() -> None:
    # rate 0.25, 5 points toward 1/2: ((1.95996 sqrt(0.1875) + 0.84162 sqrt(0.21)) / 0.05)^2 = 609.47
    assert games_needed(0.25, share=0.25) == 610
    # two arms at 0.25 and 0.30, pbar 0.275:
    # (1.95996 sqrt(2 x 0.199375) + 0.84162 sqrt(0.1875 + 0.21))^2 / 0.0025 = 1250.72
    assert games_needed_two_arms(0.25, share=0.25) == 1251
    assert games_needed(0.75, share=0.25) == games_needed(0.25, share=0.25)  # symmetric about 1/2
    assert games_needed(0.5, share=0.25) > games_needed(0.4, share=0.25) > games_needed(0.3, share=0.25)
    # a rate nearer 1/2 than the fair share is worked at the measured rate: 0.4 -> 0.45
    # ((1.95996 sqrt(0.24) + 0.84162 sqrt(0.2475)) / 0.05)^2 = 760.5
    assert games_needed(0.4, share=0.25) == 761


@pytest.mark.parametrize("edge", [0.0, 1.0, 0.01, 0.97])
def test_games_needed_do_not_collapse_at_a_win_rate_of_0_or_100_percent(edge: float) -> None:
    # The variance p q of the measured rate is 0 at the edges: worked at it, a faction that never won
    # "needed" 14 games. Nearer the edge than the fair share, the fair share's figure is used.
    assert games_needed(edge, share=0.25) == games_needed(0.25, share=0.25) == 610
    assert games_needed_two_arms(edge, share=0.25) == games_needed_two_arms(0.25, share=0.25) == 1251
    # no fair share (a solo game): the largest variance a rate has, that of 1/2:
    # ((1.95996 x 0.5 + 0.84162 sqrt(0.2475)) / 0.05)^2 = 782.6
    assert games_needed(edge) == games_needed(0.5) == 783
    # means: 2 (1.95996 + 0.84162)^2 x 16 / 1^2 = 251.16
    assert games_needed_means(16.0, 1.0) == 252


def _coverage(game: Callable[[random.Random], tuple[int, int]], rate: float, seed: int) -> tuple[float, float]:
    """How often the 95% intervals of 4,000 runs of 50 games hold the true ``rate``: the naive
    Wilson interval over seat-games, and the clustered one (one value a game)."""
    rng = random.Random(seed)
    naive = clustered = 0
    for _ in range(4000):
        c = ClusteredRate()
        for _ in range(50):
            c.add(*game(rng))
        low, high = wilson(float(c.wins), c.n)
        naive += low <= rate <= high
        low, high = c.interval()
        clustered += low <= rate <= high
    return naive / 4000, clustered / 4000


def test_two_seats_of_four_at_a_true_quarter_the_naive_interval_is_too_wide_the_clustered_one_is_not() -> None:
    # one of the bot's 2 seats wins with chance 2 x 1/4, never both (seeded: always the same runs)
    naive, clustered = _coverage(lambda rng: (int(rng.random() < 0.5), 2), 0.25, seed=1)
    assert naive > 0.98 and 0.94 <= clustered <= 0.96


def test_seats_that_change_from_game_to_game_the_naive_interval_is_too_narrow_the_clustered_one_is_not() -> None:
    # half the games the bot holds 1 seat and wins 90% of them, half it holds 3 and wins 10%:
    # a true 0.5 / 2 = 1/4 a seat-game, its games' totals swinging wider than seat-games do
    def game(rng: random.Random) -> tuple[int, int]:
        return (int(rng.random() < 0.9), 1) if rng.random() < 0.5 else (int(rng.random() < 0.1), 3)

    naive, clustered = _coverage(game, 0.25, seed=2)
    assert naive < 0.92 and 0.94 <= clustered <= 0.96


def test_one_seat_a_game_without_shared_wins_is_the_plain_wilson_interval() -> None:
    c = ClusteredRate()
    for won in [1, 0, 0, 1, 0, 0, 0, 1, 0, 0]:
        c.add(won)
    assert c.effective_n == pytest.approx(10) and c.interval() == pytest.approx(wilson(3, 10))
    assert c.share_p(0.25) == pytest.approx(share_test(3, 10, 0.25))


def test_no_win_and_every_win_keep_the_seat_games_and_reach_the_edge() -> None:
    lost, won = ClusteredRate(), ClusteredRate()
    for _ in range(10):
        lost.add(0, 2)
        won.add(1)
    assert lost.interval() == wilson(0, 20) and lost.interval()[0] == 0.0
    assert won.interval() == wilson(10, 10) and won.interval()[1] == 1.0


def test_a_bot_in_every_seat_has_the_rules_exact_rate() -> None:
    # all 4 seats of every game: its returns add up to 1 a game, a rate of exactly 1/4
    c = ClusteredRate()
    for _ in range(30):
        c.add(1, 4, players=4)
    assert c.exact and c.interval() == (0.25, 0.25) and c.share_p(0.25) == 1.0 and c.share_p(0.5) == 0.0
    assert ClusteredRate().interval() == (0.0, 1.0)


def test_games_that_happen_not_to_vary_claim_no_certainty() -> None:
    # three games, each a win shared by two: no spread seen, but the next game may differ
    ties, half_table, solo = ClusteredRate(), ClusteredRate(), ClusteredRate()
    for _ in range(3):
        ties.add(Fraction(1, 2), 1, players=4)
        half_table.add(1, 2, players=4)  # won every game it held 2 of 4 seats of
        solo.add(1, 1, players=1)  # a solo game won every time: no constant sum
    assert not ties.exact and ties.interval() == wilson(1.5, 3)
    assert not half_table.exact and half_table.interval() == wilson(3, 6)
    assert not solo.exact and solo.interval() == wilson(3, 3)


_games = st.lists(st.tuples(st.integers(1, 4), st.integers(0, 12), st.integers(1, 4)), min_size=1, max_size=40)


@given(_games)
def test_the_clustered_interval_lies_in_0_1_and_holds_the_rate(games: list[tuple[int, int, int]]) -> None:
    c = ClusteredRate()
    for seats, won, winners in games:  # a game's returns: 0, 1 or a win shared by ``winners``
        c.add(Fraction(min(won, winners), winners) if won else 0, seats, players=4)
    low, high = c.interval()
    assert 0.0 <= low <= c.rate <= high <= 1.0


# -- a mean over seat-games grouped by game -----------------------------------------------------


def test_the_clustered_mean_with_one_seat_a_game_is_the_t_interval_of_the_values() -> None:
    values = [3, 7, 7, 12, 0, 5, 9]
    m, plain = ClusteredMean(), Moments()
    for v in values:
        m.add([v])
        plain.add(v)
    assert m.mean == plain.mean and m.interval() == pytest.approx(plain.interval(), rel=1e-12)
    assert m.bounded_interval(1) == pytest.approx(plain.bounded_interval(1), rel=1e-12)


def test_the_clustered_mean_with_equal_seats_a_game_is_the_t_interval_of_the_games_means() -> None:
    games = [[3, 5, 4], [10, 2, 6], [0, 0, 9], [7, 7, 7]]
    m, means = ClusteredMean(), Moments()
    for seats in games:
        m.add(seats)
        means.add(Fraction(sum(seats), len(seats)))
    assert m.mean == means.mean and m.interval() == pytest.approx(means.interval(), rel=1e-12)


def test_the_clustered_mean_is_the_seat_games_mean_when_the_seats_a_game_vary() -> None:
    # 20 games of 1 seat at 10 points, 20 of 3 seats at 0: the seat-games' mean is 200 / 80 = 2.5.
    # The mean of the games' means (5.0) is another quantity; its interval misses 2.5.
    m, means = ClusteredMean(), Moments()
    for i in range(40):
        seats = [10] if i % 2 else [0, 0, 0]
        m.add(seats)
        means.add(Fraction(sum(seats), len(seats)))
    assert m.mean == 2.5 and means.mean == 5.0
    low, high = m.interval()
    assert low < 2.5 < high and (high + low) / 2 == pytest.approx(2.5)
    assert not means.interval()[0] <= 2.5 <= means.interval()[1]
    # v = G / (G - 1) sum (x_g - k_g m)^2 / n^2: 20 games (10 - 2.5)^2 and 20 games (0 - 7.5)^2.
    v = 40 / 39 * (20 * 7.5 ** 2 + 20 * 7.5 ** 2) / 80 ** 2
    assert high - 2.5 == pytest.approx(t_quantile(39) * math.sqrt(v))


def test_the_clustered_mean_does_not_depend_on_the_order_of_the_games() -> None:
    games = [[1, 2], [Fraction(7, 2)], [0, 4, 4], [2.5]]
    a, b = ClusteredMean(), ClusteredMean()
    for g in games:
        a.add(g)
    for g in reversed(games):
        b.add(g)
    assert a == b and a.interval() == b.interval()


@given(st.lists(st.lists(st.integers(-5, 30), min_size=1, max_size=4), min_size=1, max_size=30))
def test_the_clustered_mean_interval_holds_the_mean_and_is_cut_only_where_no_value_crosses(
        games: list[list[int]]) -> None:
    m = ClusteredMean()
    for seats in games:
        m.add(seats)
    low, high = m.interval()
    assert low <= m.mean + 1e-9 and m.mean - 1e-9 <= high
    cut_low, _ = m.bounded_interval(1)
    assert cut_low == (max(low, 0.0) if min(min(g) for g in games) >= 0 else low)


# -- two clustered win rates ---------------------------------------------------------------------


def _rate(results: list[Fraction | int], seats: int = 1, players: int = 4) -> ClusteredRate:
    c = ClusteredRate()
    for won in results:
        c.add(won, seats, players)
    return c


def test_two_clustered_rates_of_one_seat_a_game_without_ties_are_newcombes_difference() -> None:
    arm, base = _rate([1] * 56 + [0] * 14), _rate([1] * 48 + [0] * 32)
    d, plain = clustered_rate_difference(arm, base, null=0.1), rate_difference(56, 70, 48, 80, null=0.1)
    assert (d.value, d.low, d.high, d.p) == pytest.approx((plain.value, plain.low, plain.high, plain.p), rel=1e-12)


def test_shared_wins_make_the_clustered_difference_narrower_than_over_seat_games() -> None:
    # Half the arm's wins are shared by 2: returns of 1/2 vary less than wins and losses do.
    arm = _rate([1] * 20 + [Fraction(1, 2)] * 40 + [0] * 40)
    base = _rate([1] * 25 + [0] * 75)
    d = clustered_rate_difference(arm, base)
    naive = rate_difference(40, 100, 25, 100)
    assert d.value == pytest.approx(naive.value)
    assert d.high - d.low < naive.high - naive.low and d.p < naive.p
    assert (d.low, d.high) != pytest.approx((naive.low, naive.high))


def test_a_rate_the_rules_fix_adds_no_variance_to_the_difference() -> None:
    # A bot in every seat: exactly 1/4, no estimate; only the other side's spread counts.
    mirror = _rate([1] * 30, seats=4)
    other = _rate([1] * 30 + [0] * 70)
    d = clustered_rate_difference(other, mirror)
    assert mirror.exact and d.value == pytest.approx(0.05)
    low, high = other.interval()
    assert (d.low, d.high) == pytest.approx((low - 0.25, high - 0.25))
    assert d.p == pytest.approx(normal_p(0.05 / math.sqrt(0.3 * 0.7 / 100)))
    assert clustered_rate_difference(ClusteredRate(), other).p == 1.0


def test_with_shared_wins_the_seat_games_difference_is_too_wide_the_clustered_one_is_not() -> None:
    # Two arms of 200 games, one faction's seat each: 15% (10%) wins, 30% wins shared by 2, the
    # rest lost; the true difference 0.05. 1,000 seeded runs of both intervals.
    rng = random.Random(3)

    def arm(p_win: float) -> tuple[ClusteredRate, float]:
        c, wins = ClusteredRate(), Fraction(0)
        for _ in range(200):
            u = rng.random()
            won = 1 if u < p_win else Fraction(1, 2) if u < p_win + 0.3 else 0
            c.add(won, 1, 4)
            wins += won
        return c, float(wins)

    clustered = naive = 0
    for _ in range(1000):
        (a, wa), (b, wb) = arm(0.15), arm(0.10)
        d, e = clustered_rate_difference(a, b), rate_difference(wa, 200, wb, 200)
        clustered += d.low <= 0.05 <= d.high
        naive += e.low <= 0.05 <= e.high
    assert naive / 1000 > 0.98 and 0.94 <= clustered / 1000 <= 0.96
