"""The win-chance temperature: fitted to games, and read along the game by the evaluator."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable

import pytest
from typer.testing import CliRunner

from ecliptic.bots import calibrate as cal
from ecliptic.bots.eval_tauceti import TauCetiEvaluator, Weights, make_evaluator
from ecliptic.bots.evaluator import win_chances
from ecliptic.cli import app
from ecliptic.tauceti.game import TauCeti

GAME = TauCeti()


def synthetic(temperature: Callable[[float], float], n: int, seed: int) -> list[cal.Sample]:
    """Positions whose winners are drawn from the win chances at ``temperature``."""
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        future = rnd.random()
        values = tuple(rnd.gauss(10, 3) for _ in range(4))
        chances = win_chances(values, temperature(future))
        winner = rnd.choices(range(4), weights=chances)[0]
        out.append(cal.Sample(future, values, tuple(float(i == winner) for i in range(4))))
    return out


def test_the_best_temperature_is_the_one_the_winners_were_drawn_with() -> None:
    for true in (0.7, 2.0, 5.0):
        found = cal.best_temperature(synthetic(lambda _f, t=true: t, 4000, seed=int(true * 10)))
        assert found == pytest.approx(true, rel=0.25)


def test_the_fitted_curve_follows_a_temperature_that_changes_along_the_game() -> None:
    truth = cal.curve(1.0, 6.0, 1.5)
    samples = synthetic(truth, 3000, seed=3)
    fit = cal.fit_curve(samples)
    for future in (0.1, 0.5, 0.9):
        assert cal.curve(fit.end, fit.start, fit.shape)(future) == pytest.approx(truth(future), rel=0.35)
    # ...and it explains the winners better than one temperature for the whole game.
    one = cal.best_temperature(samples)
    assert fit.loss < cal.log_loss(samples, lambda _f: one)


def test_equal_values_say_nothing_and_a_sure_lead_says_everything() -> None:
    even = [cal.Sample(0.5, (3.0, 3.0, 3.0, 3.0), (1.0, 0.0, 0.0, 0.0))]
    assert cal.log_loss(even, lambda _f: 2.0) == pytest.approx(math.log(4))
    sure = [cal.Sample(0.0, (30.0, 3.0, 3.0, 3.0), (1.0, 0.0, 0.0, 0.0))]
    assert cal.log_loss(sure, lambda _f: 1.0) == pytest.approx(0.0, abs=1e-9)
    with pytest.raises(ValueError, match="no samples"):
        cal.log_loss([], lambda _f: 1.0)


def test_collect_keeps_positions_of_a_played_game_with_its_winners() -> None:
    config = {"players": 4, "layout": "random", "game": "short"}
    positions = cal.collect(GAME, config, games=1, seed=8, every=10)
    samples = cal.samples(positions, make_evaluator({}))
    assert len(samples) == len(positions) > 5
    futures = [s.future for s in samples]
    assert futures == sorted(futures, reverse=True) and 0.0 <= futures[-1] <= futures[0] <= 1.0
    assert all(len(s.values) == 4 and sum(s.returns) == pytest.approx(1.0) for s in samples)
    assert len({s.returns for s in samples}) == 1  # one game, one result
    assert [p.state.round for p in positions] == sorted(p.state.round for p in positions)  # copies, not one state
    with pytest.raises(ValueError, match="at least one game"):
        cal.collect(GAME, config, games=0, seed=8)


def test_collect_can_play_other_bots_turning_them_a_seat_each_game(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[tuple[str, int]] = []
    real = cal.make_bot

    def spy(spec: str, seed: int) -> object:
        made.append((spec, seed))
        return real(spec, seed)

    monkeypatch.setattr(cal, "make_bot", spy)
    config = {"players": 4, "layout": "random", "game": "short"}
    lineup = ["random", "heuristic", "heuristic", "heuristic"]
    cal.collect(GAME, config, games=3, seed=8, every=10, bots=lineup)
    turned = [lineup, ["heuristic", "random", "heuristic", "heuristic"],
              ["heuristic", "heuristic", "random", "heuristic"]]
    assert [spec for spec, _ in made] == [spec for game in turned for spec in game]
    assert len({seed for _, seed in made}) == 12  # each seat of each game its own seed
    made.clear()
    cal.collect(GAME, config, games=1, seed=8, every=10)
    assert [spec for spec, _ in made] == ["heuristic"] * 4
    with pytest.raises(ValueError, match="one bot per seat"):
        cal.collect(GAME, config, games=1, seed=8, bots=["random", "heuristic"])


def test_tuning_lowers_the_log_loss_and_changes_only_the_named_weights() -> None:
    config = {"players": 4, "layout": "random", "game": "short"}
    positions = cal.collect(GAME, config, games=5, seed=30, every=12)
    start = Weights()
    tuned = cal.tune(positions, start, lambda w: TauCetiEvaluator(w, {}), ("card", "system"), factors=(1.5,))
    assert tuned.changes and set(tuned.changes) <= {"card", "system"}
    assert tuned.train_after < tuned.train_before
    assert all(getattr(tuned.weights, n) == getattr(start, n) for n in ("energy", "tau", "temperature"))
    train, test = cal.split(positions)
    assert {p.game for p in test} == {0} and {p.game for p in train} == {1, 2, 3, 4}
    assert tuned.train_after == pytest.approx(cal.chances_loss(train, TauCetiEvaluator(tuned.weights, {})))
    assert tuned.test_before == pytest.approx(cal.chances_loss(test, TauCetiEvaluator(start, {})))
    with pytest.raises(ValueError, match="at least 5 games"):
        cal.tune([p for p in positions if p.game == 1], start, lambda w: TauCetiEvaluator(w, {}), ("card",))


def test_the_evaluator_is_surer_of_a_lead_late_in_the_game() -> None:
    ev = make_evaluator({})
    w = ev.default
    assert ev.temperature_at(0.0) == pytest.approx(w.temperature)
    assert ev.temperature_at(1.0) == pytest.approx(w.temperature_start)
    temperatures = [ev.temperature_at(f / 10) for f in range(11)]
    assert temperatures == sorted(temperatures) and temperatures[0] < temperatures[-1]
    # The same one-GP lead: a near thing at the start, most of a win in the last round.
    early = win_chances([11.0, 10.0, 10.0, 10.0], ev.temperature_at(1.0))[0]
    late = win_chances([11.0, 10.0, 10.0, 10.0], ev.temperature_at(0.0))[0]
    assert 0.25 < early < 0.4 and late > early + 0.2


def test_chances_are_the_values_softmax_at_the_temperature_of_that_moment() -> None:
    ev = make_evaluator({})
    state = GAME.new_game({"players": 4, "layout": "random"}, 2)
    chances = ev.chances(state)
    assert sum(chances) == pytest.approx(1.0)
    assert chances == pytest.approx(win_chances(ev.values(state), ev.temperature_at(ev.future(state))))
    flat = make_evaluator({"w.temperature": "3", "w.temperature_start": "3"})
    assert flat.temperature_at(0.2) == flat.temperature_at(0.9) == 3.0  # the old constant, by weights
    assert Weights().temperature < Weights().temperature_start


def test_ecliptic_calibrate_prints_the_fit() -> None:
    out = CliRunner().invoke(app, ["calibrate", "--games", "1", "--every", "20", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["games"] == 1 and data["positions"] > 0
    assert set(data["fit"]) == {"temperature", "temperature_start", "temperature_shape", "loss"}
    assert 0.05 <= data["constant"]["temperature"] <= 30 and data["constant"]["loss"] > 0
    assert sum(b["positions"] for b in data["buckets"]) == data["positions"]
    assert data["loss_uniform"] == pytest.approx(math.log(4)) and data["loss_in_use"] > 0


def test_ecliptic_calibrate_learns_from_the_bots_it_is_given() -> None:
    out = CliRunner().invoke(app, ["calibrate", "--games", "1", "--every", "20", "--players", "2",
                                   "--bots", "random, heuristic", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["bots"] == ["random", "heuristic"]
    wrong = CliRunner().invoke(app, ["calibrate", "--games", "1", "--bots", "random,heuristic"])
    assert wrong.exit_code != 0 and "2 bots for 4 players" in wrong.output
    bad = CliRunner().invoke(app, ["calibrate", "--games", "1", "--players", "2", "--bots", "random,genius"])
    assert bad.exit_code != 0 and "genius" in bad.output
