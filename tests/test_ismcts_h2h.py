"""The OpenSpiel-ISMCTS-against-Ecliptic-ISMCTS harness (benchmarks/ismcts_h2h.py) on tiny budgets.

What is measured is in docs/bots.md; these tests check the harness: games play to the end
through a pyspiel game with both kinds of bot, seats rotate, parts resume, merge counts right."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("open_spiel.python.algorithms.ismcts")

from benchmarks import ismcts_h2h as h2h

from ecliptic.sim.tournament import faction_names, seating


def settings(players: int = 2, games: int = 2) -> h2h.Settings:
    return h2h.Settings(players=players, games=games, seconds=0.001)


def test_a_two_player_game_plays_to_the_end_with_both_bots_searching() -> None:
    result = h2h.play_game(settings(), 0, 7)
    assert result["sides"] == ["ecliptic", "openspiel"]
    assert result["factions"] == list(seating(0, h2h.SIDES, 2, faction_names("tauceti")).factions)
    assert sum(result["returns"]) == pytest.approx(1.0)
    assert result["returns"] == result["adapter_returns"]
    assert result["think_ms"]["ecliptic"] and result["think_ms"]["openspiel"]
    assert len(result["simulations"]) == len(result["think_ms"]["openspiel"])
    assert min(result["simulations"]) >= h2h.MIN_SIMULATIONS
    searched = len(result["think_ms"]["ecliptic"]) + len(result["think_ms"]["openspiel"])
    assert searched + result["forced"] == result["decisions"]


def test_a_four_player_game_seats_two_of_each_rotated() -> None:
    result = h2h.play_game(settings(players=4), 1, 8)
    assert result["sides"] == ["openspiel", "ecliptic", "openspiel", "ecliptic"]
    assert result["factions"] == list(seating(1, h2h.SIDES, 4, faction_names("tauceti")).factions)
    assert sum(result["returns"]) == pytest.approx(1.0)
    assert result["returns"] == result["adapter_returns"]
    assert result["think_ms"]["ecliptic"] and result["think_ms"]["openspiel"]


def test_over_a_cycle_every_side_plays_every_seat_equally() -> None:
    two = [seating(i, h2h.SIDES, 2, faction_names("tauceti")).bots for i in range(8)]
    assert two[:2] == [("ecliptic", "openspiel"), ("openspiel", "ecliptic")]
    assert all(sum(b[seat] == "ecliptic" for b in two) == 4 for seat in range(2))
    four = [seating(i, h2h.SIDES, 4, faction_names("tauceti")).bots for i in range(32)]
    assert all(sorted(b) == ["ecliptic"] * 2 + ["openspiel"] * 2 for b in four)
    assert all(sum(b[seat] == "ecliptic" for b in four) == 16 for seat in range(4))


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
                "adapter_returns": winner, "gp": [3.0, 1.0], "rounds": 8, "decisions": 10, "forced": 0,
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
    assert merged["sides"]["ecliptic"]["mean_gp"] == 2.0  # 3 GP in seat 1 (games 0, 2), 1 in seat 2
    assert merged["sides"]["openspiel"]["decisions"] == 4
    assert merged["sign_test"]["p_two_sided"] == pytest.approx(2 * 5 / 16)
    assert "4 of 4 games" in h2h.table(merged)
    with pytest.raises(ValueError, match="other settings"):
        h2h.run_part(settings(games=5), 1, 2, first)


def test_a_file_that_is_not_a_result_is_refused_with_its_name(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "notes.json"
    bad.write_text('{"games": []}', encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        h2h.main(["merge", str(bad)])
    assert exit_.value.code == 2
    assert "notes.json: not a result file of this benchmark" in capsys.readouterr().err


def test_sign_test_and_percentiles() -> None:
    assert h2h.sign_test(10, 0) == pytest.approx(2 / 2**10)
    assert h2h.sign_test(3, 3) == 1.0
    assert h2h.percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5) == 3.0


def test_a_part_file_is_synced_to_the_disk_and_its_folder_too(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A part holds hours of games: a power cut after the write must not lose it, nor the rename."""
    synced: list[str] = []
    fsync = os.fsync

    def logged_fsync(fd: int) -> None:
        synced.append("folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        fsync(fd)

    monkeypatch.setattr(os, "fsync", logged_fsync)
    out = tmp_path / "p1.json"
    h2h.write_part(out, settings(), (1, 1), [])
    assert synced == ["file", "folder"]
    assert h2h.read_part(out) == (settings(), []) and [p.name for p in tmp_path.iterdir()] == ["p1.json"]
