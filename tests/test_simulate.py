"""The simulator: reproducible from its seed, per-game seeds independent of play order,
shared wins split, GP summed by source, and a decision cap that catches a looping engine."""

from __future__ import annotations

import json
import signal
from collections.abc import Callable
from itertools import islice

import pytest

import ecliptic
from ecliptic.bots import BotSpecError
from ecliptic.sim.simulate import (
    GameResult,
    SimulationError,
    SimulationInterrupted,
    Tally,
    game_seeds,
    play_one,
    seed_stream,
    simulate,
    summarize,
)

SHORT = {"game": "short", "layout": "random"}


def test_the_same_seed_gives_the_same_summary() -> None:
    a = simulate("tauceti", 2, 4, seed=11, config=SHORT)
    b = simulate("tauceti", 2, 4, seed=11, config=SHORT)
    assert a.deterministic_json() == b.deterministic_json()
    assert json.dumps(a.to_json())  # JSON-ready, timing included
    assert set(a.to_json()) - set(a.deterministic_json()) == {"timing", "ecliptic"}
    assert a.to_json()["ecliptic"] == ecliptic.__version__  # which version played them, to play them again


def test_a_different_seed_gives_different_games() -> None:
    a = simulate("tauceti", 2, 4, seed=1, config=SHORT)
    b = simulate("tauceti", 2, 4, seed=2, config=SHORT)
    assert [r.seed for r in a.results] != [r.seed for r in b.results]


def test_game_seeds_depend_only_on_the_run_seed_and_the_game_index() -> None:
    assert game_seeds(5, 3) == game_seeds(5, 10)[:3]
    summary = simulate("tauceti", 2, 3, seed=5, config=SHORT)
    third = play_one("tauceti", {**SHORT, "players": 2}, game_seeds(5, 3)[2], index=2)
    assert summary.results[2] == third


def test_summary_does_not_depend_on_the_order_results_arrive_in() -> None:
    summary = simulate("tauceti", 3, 4, seed=3, config=SHORT)
    again = summarize("tauceti", 3, 3, "random", summary.config, list(reversed(summary.results)))
    assert again.deterministic_json() == summary.deterministic_json()


def test_counts_add_up() -> None:
    s = simulate("tauceti", 3, 5, seed=4, config=SHORT)
    assert s.games == 5
    assert sum(f.games for f in s.factions.values()) == 15
    assert all(0.0 <= f.win_rate <= 1.0 for f in s.factions.values())
    games_with_winners = sum(1 for r in s.results if r.winners)
    assert sum(f.wins for f in s.factions.values()) == pytest.approx(games_with_winners)
    assert s.mean_decisions == sum(r.decisions for r in s.results) / 5
    assert s.mean_rounds == sum(r.rounds for r in s.results) / 5
    assert all(r.rounds == 8 for r in s.results)  # short games end after round 8
    assert "total" in s.mean_gp
    assert s.mean_gp["total"] == pytest.approx(sum(sc["total"] for r in s.results for sc in r.scores) / 15)


def test_a_shared_win_counts_one_over_k() -> None:
    scores = [{"tau": 3, "total": 3}, {"tau": 3, "total": 3}, {"tau": 1, "total": 1}]
    shared = GameResult(0, 1, ["Xunon", "Azars", "Triolor"], [0, 1], scores, 8, 100)
    alone = GameResult(1, 2, ["Xunon", "Azars", "Triolor"], [2], scores, 9, 50)
    s = summarize("tauceti", 3, 0, "random", {}, [shared, alone])
    assert s.factions["Xunon"].wins == 0.5
    assert s.factions["Azars"].wins == 0.5
    assert s.factions["Triolor"].wins == 1.0
    assert s.factions["Xunon"].mean_gp() == {"tau": 3.0, "total": 3.0}
    assert s.mean_rounds == 8.5
    assert s.mean_decisions == 75.0


def test_the_progress_callback_sees_every_game() -> None:
    seen: list[tuple[int, int]] = []
    simulate("tauceti", 1, 3, seed=0, config=SHORT, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_the_decision_cap_stops_a_game_that_does_not_end() -> None:
    with pytest.raises(SimulationError, match=r"did not end within 5 decisions"):
        simulate("tauceti", 2, 1, seed=0, config=SHORT, max_decisions=5)


def test_bad_bots_and_games_are_refused_before_playing() -> None:
    with pytest.raises(BotSpecError, match="unknown bot"):
        simulate("tauceti", 2, 1, seed=0, bot="genius")
    with pytest.raises(ValueError, match="unknown game"):
        simulate("chess", 2, 1, seed=0)
    with pytest.raises(ValueError, match="at least one game"):
        simulate("tauceti", 2, 0, seed=0)


def test_timing_is_kept_apart() -> None:
    s = simulate("tauceti", 1, 2, seed=0, config=SHORT)
    assert set(s.timing) == {"seconds", "games_per_second", "decisions_per_second"}
    assert s.timing["games_per_second"] > 0
    assert "seconds" not in json.dumps(s.deterministic_json())


def test_a_run_from_a_later_first_game_plays_those_games_of_the_seed() -> None:
    whole = simulate("tauceti", 2, 4, seed=5, config=SHORT)
    part = simulate("tauceti", 2, 2, seed=5, config=SHORT, first_game=2)
    assert part.results == whole.results[2:]  # the same games, the same indices
    assert part.deterministic_json()["first_game"] == 2 and whole.deterministic_json()["first_game"] == 0
    assert list(islice(seed_stream(5, 10**6), 3)) == list(islice(seed_stream(5), 10**6, 10**6 + 3))


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_a_seed_outside_the_generators_64_bits_is_refused_not_aliased(seed: int) -> None:
    with pytest.raises(ValueError, match=f"the seed must be from 0 to {2**64 - 1}, not {seed}: .* the games of seed "
                                         f"{seed % 2**64} under another name"):
        simulate("tauceti", 2, 1, seed=seed, config=SHORT)
    simulate("tauceti", 2, 1, seed=seed % 2**64, config=SHORT)  # the seed it would have aliased is fine
    with pytest.raises(ValueError, match="the first game must be 0 or more"):
        simulate("tauceti", 2, 1, seed=0, config=SHORT, first_game=-1)
    with pytest.raises(ValueError, match="run past its last"):
        simulate("tauceti", 2, 2, seed=0, config=SHORT, first_game=2**64 - 1)


def _stop_at(game: int) -> Callable[[int, int], None]:
    """A progress callback that presses Ctrl-C once ``game`` games are done."""
    def progress(done: int, _total: int) -> None:
        if done == game:
            raise KeyboardInterrupt
    return progress


def test_ctrl_c_keeps_the_summary_of_the_finished_games() -> None:
    with pytest.raises(SimulationInterrupted) as stopped:
        simulate("tauceti", 2, 5, seed=7, config=SHORT, keep_results=False, progress=_stop_at(2))
    partial = stopped.value.summary
    assert partial.games == 2 and partial.games_asked == 5
    data, done = partial.deterministic_json(), simulate("tauceti", 2, 2, seed=7, config=SHORT).deterministic_json()
    assert data.pop("partial") is True and data.pop("games_asked") == 5
    assert data == done  # the figures of exactly the first two games


def test_ctrl_c_while_a_game_is_counted_counts_it_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game folded into the figures is several updates: Ctrl-C among them waits for the last."""
    fold = Tally.add

    def interrupted_fold(self: Tally, result: GameResult) -> None:
        if self.games == 1:
            signal.raise_signal(signal.SIGINT)  # Ctrl-C as the second game is being counted
        fold(self, result)

    monkeypatch.setattr(Tally, "add", interrupted_fold)
    with pytest.raises(SimulationInterrupted) as stopped:
        simulate("tauceti", 2, 4, seed=7, config=SHORT)
    monkeypatch.setattr(Tally, "add", fold)
    partial = stopped.value.summary
    assert partial.games == 2 and len(partial.results) == 2
    assert partial.factions == simulate("tauceti", 2, 2, seed=7, config=SHORT).factions


def test_win_rates_and_means_carry_the_balance_reports_intervals() -> None:
    """The same statistics as ecliptic balance: Wilson for a win rate, Student's t for a mean, cut at 0
    where a source cannot cross it; the figures over all seats take one value a game (its seats' mean)."""
    from fractions import Fraction

    from ecliptic.balance.stats import ClusteredRate, Moments, wilson

    def scores(cubes: int, tau: int) -> dict[str, int]:
        return {"tau": tau, "cubes": cubes, "assists": 0, "total": tau + cubes}

    games = [GameResult(i, i, ["Xunon", "Azars"], [i % 2] if i % 3 else [0, 1],
                        [scores(1 if i == 0 else 0, i), scores(0, 2)], 8 + i % 2, 100) for i in range(8)]
    s = summarize("tauceti", 2, 0, "random", {}, games)
    xunon = s.factions["Xunon"]
    by_game = ClusteredRate()  # Xunon's return of each game: the shared wins (games 0, 3, 6) count 1/2
    for won in (Fraction(1, 2), 0, 1, Fraction(1, 2), 1, 0, Fraction(1, 2), 0):
        by_game.add(won)
    assert xunon.interval == by_game.interval() != wilson(xunon.wins, 8)  # a shared win varies less

    def moments(values: list[int] | list[Fraction]) -> Moments:
        m = Moments()
        for v in values:
            m.add(v)
        return m

    cubes = moments([1] + [0] * 7)
    assert cubes.interval()[0] < 0  # Student's t alone reaches below any game's GP of Resource cubes
    assert xunon.gp_interval("tauceti", "cubes") == (0.0, cubes.interval()[1])
    assert xunon.gp_interval("tauceti", "tau") == moments(list(range(8))).bounded_interval(1)
    per_game = moments([Fraction(i + 2 + (1 if i == 0 else 0), 2) for i in range(8)])  # each game's mean total
    assert s.gp_interval("total") == per_game.interval()  # a Tau Ceti total is not bounded: not cut
    assert s.mean_gp["total"] == pytest.approx(per_game.mean)
    assert s.rounds_interval == moments([8 + i % 2 for i in range(8)]).bounded_interval(1)
    data = s.deterministic_json()
    assert data["factions"]["Xunon"]["win_rate_ci95"] == list(xunon.interval)
    assert data["factions"]["Xunon"]["mean_gp_ci95"]["cubes"] == [0.0, cubes.interval()[1]]
    assert data["mean_gp_ci95"]["total"] == list(per_game.interval())
    assert data["mean_rounds_ci95"] == list(s.rounds_interval) and "mean_decisions_ci95" in data
    assert data["stand_ins"] is True  # the packaged content: its numbers are invented stand-ins
    json.dumps(data)


def test_the_json_keeps_every_key_it_had() -> None:
    """simulate --json is read by scripts: the intervals are new keys beside the old ones, not changes."""
    data = simulate("tauceti", 2, 2, seed=3, config=SHORT).to_json()
    assert {"game", "players", "games", "seed", "first_game", "bot", "config", "factions", "mean_gp", "mean_rounds",
            "mean_decisions", "timing"} <= set(data)
    for faction in data["factions"].values():
        assert {"games", "wins", "win_rate", "mean_gp"} <= set(faction)
        assert set(faction["mean_gp_ci95"]) == set(faction["mean_gp"])
        low, high = faction["win_rate_ci95"]
        assert 0.0 <= low <= faction["win_rate"] <= high <= 1.0


def test_a_source_a_game_lacks_is_0_in_that_game_for_its_interval() -> None:
    first = GameResult(0, 0, ["Xunon"], [0], [{"tau": 2, "total": 2}], 8, 10)
    later = GameResult(1, 1, ["Xunon"], [0], [{"tau": 2, "cards": 4, "total": 6}], 8, 10)
    s = summarize("tauceti", 1, 0, "random", {}, [first, later, first])
    assert s.factions["Xunon"].mean_gp()["cards"] == pytest.approx(4 / 3)
    assert s.factions["Xunon"].points["cards"].n == 3 and s.points["cards"].n == 3  # 0, 4, 0
    assert s.factions["Xunon"].points["cards"].mean == pytest.approx(4 / 3)
