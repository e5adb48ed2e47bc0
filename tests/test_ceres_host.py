"""The host game: the reconstruction of base Ceres (rule ids CR-<SECTION>-<n>, see
ecliptic.ceres.rules, docs/ceres.md and docs/rules-decisions.md (section Ceres))."""

from __future__ import annotations

import pytest

from ecliptic.ceres import belt
from ecliptic.ceres.content import default_content
from ecliptic.ceres.game import Ceres
from ecliptic.ceres.state import State
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event

GAME = Ceres()
CONTENT = default_content()
N = CONTENT.numbers


def new(players: int = 2, seed: int = 1, first_player: int = 0) -> State:
    return GAME.new_game({"players": players, "first_player": first_player}, seed)


def play(state: State, *actions: str) -> list[Event]:
    ev: list[Event] = []
    for a in actions:
        ev += GAME.apply(state, a)
    return ev


def refuse(state: State, action: str, rule: str) -> None:
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, action)
    assert info.value.rule == rule, info.value
    assert GAME.to_json(state) == before


def pass_round(state: State) -> list[Event]:
    ev: list[Event] = []
    start = state.round
    while not state.is_over and state.round == start:
        ev += GAME.apply(state, "PASS")
    return ev


def ring_asteroid(ring: str, zone: int, state: State) -> str:
    (found,) = [a for a in belt.asteroids_in_zone(state, zone) if CONTENT.asteroid(a).ring == ring]
    return found


@pytest.mark.rules("CR-SETUP-1")
def test_one_to_four_players_each_with_probes_and_starting_ice() -> None:
    for players in (1, 2, 3, 4):
        state = new(players)
        assert len(state.players) == players
        for p in state.players:
            assert p.probes == N.probes
            assert p.tail_tokens == [] and p.total_vp == 0
    for bad in (0, 5):
        with pytest.raises(ValueError, match="1-4 players"):
            GAME.new_game({"players": bad}, 1)
    with pytest.raises(ValueError, match="bad game config"):
        GAME.new_game({"players": 2, "faction": "x"}, 1)
    _, ev = GAME.new_game_events({"players": 2}, 1)
    assert ev[0].kind == "setup"


@pytest.mark.rules("CR-SETUP-2")
def test_the_belt_has_one_asteroid_on_each_position_of_three_rings() -> None:
    assert N.rings == ["Outer", "Intermediate", "Inner"]
    assert len(CONTENT.asteroids) == 3 * N.zones
    state = GAME.new_game({"players": 2}, 1)
    state.rotation = dict.fromkeys(N.rings, 0)  # as set up, before round 1's rotation
    for zone in range(1, N.zones + 1):
        here = belt.asteroids_in_zone(state, zone)
        assert [CONTENT.asteroid(a).ring for a in here] == N.rings
    assert state.claims == {}


@pytest.mark.rules("CR-ROUND-1")
def test_three_rounds_of_asteroid_belt_production_and_activation_phases() -> None:
    state, ev = GAME.new_game_events({"players": 2}, 1)
    for _ in range(3):
        ev += pass_round(state)
    phases = [(e.kind, e.data.get("round") or e.data.get("phase")) for e in ev if e.kind in ("round", "phase")]
    one_round = ["belt", "production", "activation"]
    assert [p for k, p in phases if k == "phase"] == one_round * 3
    assert [p for k, p in phases if k == "round"] == [1, 2, 3]
    assert state.is_over and state.round == 3


@pytest.mark.rules("CR-ROUND-2")
def test_the_first_player_passes_clockwise_each_round() -> None:
    state = new(3, 1, first_player=2)
    assert state.current_player == 2 and state.first_player == 2
    pass_round(state)
    assert state.first_player == 0 and state.current_player == 0
    pass_round(state)
    assert state.first_player == 1 and state.current_player == 1
    with pytest.raises(ValueError, match="first_player"):
        new(2, 1, first_player=2)


@pytest.mark.rules("CR-BELT-1")
def test_rings_rotate_each_round_inner_rings_faster() -> None:
    state = new(2, 1)
    assert state.rotation == {r: N.rotation[r] % N.zones for r in N.rings}  # round 1 already turned
    steps = [N.rotation[r] for r in N.rings]
    assert steps == sorted(steps) and steps[0] < steps[-1]
    a = CONTENT.asteroids[0]
    zone = belt.zone_of(state, a.id)
    assert zone == (a.position - 1 + N.rotation[a.ring]) % N.zones + 1
    pass_round(state)
    assert belt.zone_of(state, a.id) == (zone - 1 + N.rotation[a.ring]) % N.zones + 1
    inner = next(x for x in CONTENT.asteroids if x.ring == "Inner")
    assert belt.zone_of(state, inner.id) == (inner.position - 1 + 2 * N.rotation["Inner"]) % N.zones + 1
    for _ in range(N.zones):  # every rotation the rings reach: all the Zones at once, Zone by Zone
        assert belt.zones(state) == {x.id: belt.zone_of(state, x.id) for x in CONTENT.asteroids}
        for zone in range(1, N.zones + 1):
            assert set(belt.asteroids_in_zone(state, zone)) == {
                x.id for x in CONTENT.asteroids if belt.zone_of(state, x.id) == zone}
        state.rotation = {r: (k + 1) % N.zones for r, k in state.rotation.items()}


@pytest.mark.rules("CR-PROD-1")
def test_every_production_phase_gives_ice_income() -> None:
    state = new(2, 1)
    assert all(p.resources["Ice"] == N.start_ice + N.ice_income for p in state.players)
    pass_round(state)
    assert all(p.resources["Ice"] == N.start_ice + 2 * N.ice_income for p in state.players)


@pytest.mark.rules("CR-PROD-2")
def test_claimed_asteroids_give_their_owner_income() -> None:
    state = new(2, 1)
    target = next(a for a in CONTENT.asteroids if a.ring == "Outer" and a.income)
    play(state, f"LAUNCH {target.id}")
    p = state.players[0]
    before = dict(p.resources)
    other = dict(state.players[1].resources)
    pass_round(state)
    for r in N.resources:
        expected = before[r] + target.income.get(r, 0) + (N.ice_income if r == "Ice" else 0)
        assert p.resources[r] == expected
    assert state.players[1].resources["Ice"] == other["Ice"] + N.ice_income


@pytest.mark.rules("CR-ACT-1")
def test_turns_go_clockwise_one_launch_or_pass_each() -> None:
    state = new(3, 1, first_player=1)
    seen = []
    for _ in range(3):
        seen.append(state.current_player)
        play(state, str(next(a for a in GAME.legal_actions(state) if a.verb == "LAUNCH")))
    assert seen == [1, 2, 0]
    refuse(state, "MINE A01", "CR-ACT-1")
    refuse(state, "LAUNCH", "CR-ACT-1")
    refuse(state, "LAUNCH A99", "CR-ACT-1")
    refuse(state, "PASS now", "CR-ACT-1")
    legal = GAME.legal_actions(state)
    assert legal == sorted(legal) and all(a in GAME.action_space(state) for a in legal)


@pytest.mark.rules("CR-ACT-2")
def test_launching_to_farther_rings_costs_more_ice() -> None:
    costs = [N.launch_ice[r] for r in N.rings]
    assert costs == sorted(costs) and costs[0] < costs[-1]
    state = new(2, 1)
    p = state.players[0]
    for ring in N.rings:
        p.resources["Ice"] = 10
        target = next(a.id for a in CONTENT.asteroids if a.ring == ring and a.id not in state.claims)
        state.stack[-1].player = 0
        play(state, f"LAUNCH {target}")
        assert p.resources["Ice"] == 10 - N.launch_ice[ring] + CONTENT.asteroid(target).resources.get("Ice", 0)
    state.stack[-1].player = 0
    p.resources["Ice"] = N.launch_ice["Inner"] - 1
    inner = next(a.id for a in CONTENT.asteroids if a.ring == "Inner" and a.id not in state.claims)
    refuse(state, f"LAUNCH {inner}", "CR-ACT-2")
    assert f"LAUNCH {inner}" not in map(str, GAME.legal_actions(state))


@pytest.mark.rules("CR-ACT-3")
def test_a_launch_needs_a_mining_probe_from_the_supply() -> None:
    state = new(2, 1)
    p = state.players[0]
    probes = p.probes
    play(state, "LAUNCH A01")
    assert p.probes == probes - 1
    seat = state.current_player
    assert seat == 1
    state.players[1].probes = 0
    state.players[1].resources["Ice"] = 10
    refuse(state, "LAUNCH A02", "CR-ACT-3")
    assert [str(a) for a in GAME.legal_actions(state)] == ["PASS"]


@pytest.mark.rules("CR-ACT-4")
def test_a_launch_lands_only_on_an_available_asteroid() -> None:
    state = new(2, 1)
    play(state, "LAUNCH A01")
    refuse(state, "LAUNCH A01", "CR-ACT-4")
    assert "LAUNCH A01" not in map(str, GAME.legal_actions(state))


@pytest.mark.rules("CR-ACT-5")
def test_the_probe_claims_the_asteroid_and_gains_its_resources_and_vp() -> None:
    state = new(2, 1)
    p = state.players[0]
    before = dict(p.resources)
    a = CONTENT.asteroid("A03")
    play(state, "LAUNCH A03")
    assert state.claims["A03"] == 0
    assert p.vp.get("asteroids", 0) == a.vp
    for r in N.resources:
        spent = N.launch_ice[a.ring] if r == "Ice" else 0
        assert p.resources[r] == before[r] - spent + a.resources.get(r, 0)
    assert GAME.observe(state, 1)["belt"]["A03"]["probe"] == 0


@pytest.mark.rules("CR-ACT-6")
def test_a_passed_player_takes_no_more_turns_and_the_phase_ends_when_all_passed() -> None:
    state = new(3, 1)
    play(state, "PASS")  # seat 0
    play(state, "LAUNCH A01")  # seat 1
    play(state, "LAUNCH A02")  # seat 2
    assert state.current_player == 1  # seat 0 is skipped
    play(state, "PASS", "PASS")
    assert state.round == 2 and all(not p.passed for p in state.players)


@pytest.mark.rules("CR-END-1")
def test_most_victory_points_win_and_ties_share() -> None:
    state = new(3, 1)
    play(state, "LAUNCH A19")  # seat 0: 5 VP on the Inner Ring
    play(state, "LAUNCH A01", "PASS")  # seat 1, seat 2
    while not state.is_over:
        play(state, "PASS")
    assert state.winners == [0]
    assert state.final_scores[0]["asteroids"] == CONTENT.asteroid("A19").vp == state.final_scores[0]["total"]
    assert GAME.returns(state) == [1.0, 0.0, 0.0]
    tie = new(2, 1)
    while not tie.is_over:
        play(tie, "PASS")
    assert tie.winners == [0, 1] and GAME.returns(tie) == [0.5, 0.5]


@pytest.mark.rules("CR-END-2")
def test_nothing_can_be_done_after_the_end() -> None:
    state = new(1, 1)
    while not state.is_over:
        play(state, "PASS")
    assert GAME.legal_actions(state) == [] and state.current_player is None
    refuse(state, "PASS", "CR-END-2")
    assert GAME.returns(state) == [1.0]
