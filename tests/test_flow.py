"""Rounds, turns and passing, with only the Refuel action in play."""

from __future__ import annotations

import pytest

from ecliptic.engine.actions import Action
from ecliptic.engine.errors import IllegalAction
from ecliptic.tauceti.game import TauCeti

GAME = TauCeti()


@pytest.mark.rules("TC-ENL-1")
def test_first_round_has_no_enlightenment_phase() -> None:
    state = GAME.new_game({"layout": "preset", "players": 2, "factions": ["Xunon", "Azars"]}, 1)
    assert state.round == 1
    assert state.phase == "action"
    assert state.current_player == 0


@pytest.mark.rules("TC-ACT-3", "TC-ACT-6")
def test_passing_earns_one_tau_per_unused_action_marker() -> None:
    state = GAME.new_game({"layout": "preset", "players": 2, "factions": ["Xunon", "Azars"]}, 1)
    tau = state.players[0].tau
    GAME.apply(state, "PASS")
    assert state.players[0].tau == tau + 4
    assert state.players[0].passed


@pytest.mark.rules("TC-REF-1", "TC-ACT-3", "TC-ACT-5")
def test_refuel_costs_an_action_marker_and_gives_two_energy() -> None:
    state = GAME.new_game({"layout": "preset", "players": 2, "factions": ["Xunon", "Azars"]}, 1)
    energy = state.players[0].energy
    GAME.apply(state, "REF")
    assert state.players[0].energy == energy + 2
    assert state.players[0].markers_used == 1
    with pytest.raises(IllegalAction, match="one Major action per turn"):
        GAME.apply(state, "REF")
    GAME.apply(state, "END")
    assert state.current_player == 1


@pytest.mark.rules("TC-ROUND-1", "TC-ROUND-2")
def test_short_game_ends_after_round_eight() -> None:
    state = GAME.new_game({"layout": "preset", "players": 2, "game": "short"}, 5)
    while not state.is_over:
        GAME.apply(state, Action("PASS") if Action("PASS") in GAME.legal_actions(state)
                   else GAME.legal_actions(state)[-1])
    assert state.round == 8
    assert len(state.final_scores) == 2
