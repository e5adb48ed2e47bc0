"""The OpenSpiel-ISMCTS-against-Ecliptic-ISMCTS harness (benchmarks/ismcts_h2h.py) on tiny budgets.

What is measured is in docs/bots.md; these tests check the harness: games play to the end
through a pyspiel game with both kinds of bot, seats rotate, parts resume, merge counts right."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("open_spiel.python.algorithms.ismcts")

import pyspiel
from benchmarks import ismcts_h2h as h2h

from ecliptic.engine.rng import Rng
from ecliptic.games import get_game
from ecliptic.sim.tournament import faction_names, seating

G = get_game("tauceti")
STANDIN = "python_h2h_standin_tauceti"


class StandinState(pyspiel.State):  # type: ignore[misc]
    """The least a pyspiel state over the engine needs for OpenSpiel's Python ISMCTS (a stand-in
    for the adapter, so the harness is tested whatever the adapter does beyond it)."""

    def __init__(self, game: Any, engine: Any) -> None:
        super().__init__(game)
        self.engine = engine
        self.space = G.action_space(engine)

    def current_player(self) -> int:
        return int(pyspiel.PlayerId.TERMINAL) if self.engine.is_over else int(self.engine.current_player)

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.space.id(a) for a in G.legal_actions(self.engine))

    def _apply_action(self, action: int) -> None:
        G.apply(self.engine, self.space.action(action))

    def is_terminal(self) -> bool:
        return bool(self.engine.is_over)

    def returns(self) -> list[float]:
        return [float(r) for r in G.returns(self.engine)] if self.engine.is_over else [0.0] * len(
            self.engine.players)

    def information_state_string(self, player: int | None = None) -> str:
        seat = self.engine.current_player if player is None else player
        return json.dumps(G.observe(self.engine, seat), sort_keys=True, default=str)

    def clone(self) -> StandinState:
        return StandinState(self.get_game(), self.engine.clone())

    def resample_from_infostate(self, player: int, sampler: Any) -> StandinState:
        seed = int(sampler() * 2**53)
        return StandinState(self.get_game(), G.determinize(self.engine, player, Rng.from_seed(seed)))

    def __str__(self) -> str:
        return f"decision {self.engine.decisions_made}"


_PARAMS = {"players": 2, "game": "short", "factions": "", "seed": 0}


class StandinGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: Any = None) -> None:
        p = {**_PARAMS, **(params or {})}
        self.config = {"players": p["players"], "game": p["game"],
                       "factions": [f for f in p["factions"].split(",") if f]}
        self.seed = p["seed"]
        state = G.new_game(self.config, self.seed)
        info = pyspiel.GameInfo(num_distinct_actions=len(G.action_space(state)), max_chance_outcomes=0,
                                num_players=p["players"], min_utility=0.0, max_utility=1.0, utility_sum=1.0,
                                max_game_length=G.max_decisions(self.config))
        super().__init__(_TYPE, info, p)

    def new_initial_state(self) -> StandinState:
        return StandinState(self, G.new_game(self.config, self.seed))


_TYPE = pyspiel.GameType(
    short_name=STANDIN, long_name="Tau Ceti stand-in", dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4, min_num_players=2, provides_information_state_string=True,
    provides_information_state_tensor=False, provides_observation_string=False,
    provides_observation_tensor=False, parameter_specification=_PARAMS)
pyspiel.register_game(_TYPE, StandinGame)


def settings(players: int = 2, games: int = 2) -> h2h.Settings:
    return h2h.Settings(players=players, games=games, seconds=0.001, adapter=STANDIN)


def test_a_two_player_game_plays_to_the_end_with_both_bots_searching() -> None:
    result = h2h.play_game(settings(), 0, 7)
    assert result["sides"] == ["ecliptic", "openspiel"]
    assert sum(result["returns"]) == pytest.approx(1.0)
    assert result["returns"] == result["adapter_returns"]
    assert result["think_ms"]["ecliptic"] and result["think_ms"]["openspiel"]
    assert len(result["simulations"]) == len(result["think_ms"]["openspiel"])
    assert min(result["simulations"]) >= h2h.MIN_SIMULATIONS
    searched = len(result["think_ms"]["ecliptic"]) + len(result["think_ms"]["openspiel"])
    assert searched + result["forced"] == result["decisions"]


def test_seats_and_factions_rotate_from_game_to_game() -> None:
    s2, s4 = settings(), settings(players=4)
    assert [seating(i, h2h.SIDES, 2, faction_names("tauceti")).bots for i in range(2)] == [
        ("ecliptic", "openspiel"), ("openspiel", "ecliptic")]
    four = [seating(i, h2h.SIDES, 4, faction_names("tauceti")).bots for i in range(32)]
    assert all(sorted(b) == ["ecliptic"] * 2 + ["openspiel"] * 2 for b in four)
    assert all(sum(b[seat] == "ecliptic" for b in four) == 16 for seat in range(4))
    assert s2.config["players"] == 2 and s4.config["players"] == 4


def test_a_part_resumes_and_the_merge_counts_every_game_once(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    s = settings(games=4)
    assert list(h2h.part_indices(4, 1, 2)) == [0, 1] and list(h2h.part_indices(4, 2, 2)) == [2, 3]
    first = tmp_path / "p1.json"
    calls: list[int] = []

    def fake(settings: h2h.Settings, index: int, seed: int) -> dict[str, Any]:
        calls.append(index)
        sides = list(seating(index, h2h.SIDES, 2, []).bots)
        winner = [0.0, 1.0] if index == 1 else [1.0, 0.0]  # seat 1 wins, but in game 1 seat 2
        return {"index": index, "seed": seed, "sides": sides, "factions": [], "returns": winner,
                "adapter_returns": winner, "gp": [0.0, 0.0], "rounds": 8, "decisions": 10, "forced": 0,
                "think_ms": {"ecliptic": [1.0, 3.0], "openspiel": [2.0]}, "simulations": [2]}

    monkeypatch.setattr(h2h, "play_game", fake)
    h2h.run_part(s, 1, 2, first)
    h2h.run_part(s, 1, 2, first)  # again: nothing left to play
    h2h.run_part(s, 2, 2, tmp_path / "p2.json")
    assert calls == [0, 1, 2, 3]
    merged = h2h.merge([first, tmp_path / "p2.json", first])
    assert merged["games"] == 4 and merged["complete"]
    # seats (e, o), (o, e), (e, o), (o, e): ecliptic wins games 0 and 2 in seat 1, 1 in seat 2
    assert merged["sides"]["ecliptic"]["wins"] == 3 and merged["sides"]["openspiel"]["wins"] == 1
    assert [b["wins"] for b in merged["sides"]["ecliptic"]["by_seat"]] == [2, 1]
    assert [b["wins"] for b in merged["sides"]["openspiel"]["by_seat"]] == [1, 0]
    assert merged["sides"]["ecliptic"]["ms_per_decision"]["mean"] == 2.0
    assert merged["sides"]["openspiel"]["decisions"] == 4
    assert merged["sign_test"]["p_two_sided"] == pytest.approx(2 * 5 / 16)
    assert "4 of 4 games" in h2h.table(merged)
    with pytest.raises(ValueError, match="other settings"):
        h2h.run_part(settings(games=5), 1, 2, first)


def test_sign_test_and_percentiles() -> None:
    assert h2h.sign_test(10, 0) == pytest.approx(2 / 2**10)
    assert h2h.sign_test(3, 3) == 1.0
    assert h2h.percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5) == 3.0
