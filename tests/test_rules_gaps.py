"""Rules that no action-family test exercised on its own: game size, setup, the rounds, the
first player, one orbital per Build, a cut-off root, and the end-of-game scoring.

Each test cites the paragraph ids of docs/rules-coverage.md it checks.
"""

from __future__ import annotations

from collections import Counter

import pytest

from ecliptic.engine.actions import act
from ecliptic.engine.events import Event
from ecliptic.tauceti import board, checks, flow, scoring, ship
from ecliptic.tauceti.content import MAJOR_ACTIONS, default_content
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import ActiveMission, Config, Point, State
from tauceti_checks import refused

GAME = TauCeti()
CONTENT = default_content()


def new_game(*factions: str, seed: int = 1, **config: object) -> State:
    names = list(factions or ("Xunon", "Azars"))
    return GAME.new_game({"layout": "preset", "players": len(names), "factions": names, **config}, seed)


def pass_round(state: State) -> list[Event]:
    """Every player passes (and says DONE in the Enlightenment phase) until the round ends."""
    start = state.round
    events: list[Event] = []
    while not state.is_over and state.round == start:
        legal = {str(a) for a in GAME.legal_actions(state)}
        events += GAME.apply(state, "PASS" if "PASS" in legal else "DONE")
    return events


# -- Game Overview: 1-4 players, each a unique faction ------------------------------------------


@pytest.mark.rules("TC-GAME-1")
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_one_to_four_players_each_with_a_faction_of_their_own(players: int) -> None:
    state = GAME.new_game({"layout": "preset", "players": players}, 3)
    factions = [p.faction for p in state.players]
    assert len(factions) == players == len(set(factions))


@pytest.mark.rules("TC-GAME-1")
def test_no_game_for_zero_or_five_players_nor_a_faction_played_twice() -> None:
    for players in (0, 5):
        with pytest.raises(ValueError, match="1-4 players"):
            Config(players=players)
    with pytest.raises(ValueError, match="one player only"):
        Config(players=2, factions=("Xunon", "Xunon"))


# -- Goal: the most GPs; the ways to earn them ---------------------------------------------------


@pytest.mark.rules("TC-GOAL-1")
def test_each_way_of_the_goal_earns_gps() -> None:
    """Resolve crises, build orbitals, earn TAU, retain cards, win battles: each adds GPs."""
    state = new_game("Zorhkonian", "Xunon")  # the Zorhkonian scores cards with a dot
    borzon = state.players[0]
    borzon.tau = 0
    base = scoring.score(state, 0)["total"]
    three, one = (next(g for g in state.gp_supply if CONTENT.gp_token(g).gp == n) for n in (3, 1))
    borzon.gp_tokens = (three, one)  # a resolved crisis and a won battle
    state.orbitals["02"] = [0]  # an orbital built in sector 02
    borzon.orbitals_home = 3
    borzon.tau = 20  # TAU
    borzon.hand = ["C01"]  # a Crisis card with a dot, worth 1 GP
    got = scoring.score(state, 0)
    assert got["gp_tokens"] == 4
    assert got["orbitals"] == CONTENT.tile("02").orbital_gp > 0
    assert got["tau"] == CONTENT.faction("Zorhkonian").tau_gp[2] > 0
    assert got["cards"] == 1
    assert got["total"] == base + 4 + got["orbitals"] + got["tau"] + 1


@pytest.mark.rules("TC-GOAL-1", "TC-END-6")
def test_the_player_with_the_most_gps_wins() -> None:
    state = new_game("Zorhkonian", "Xunon")
    state.players[1].gp_tokens = (next(g for g in state.gp_supply if CONTENT.gp_token(g).gp == 3),)
    scoring.finish(state, [])
    totals = [s["total"] for s in state.final_scores]
    assert totals[1] > totals[0]
    assert state.winners == [1]
    assert GAME.returns(state) == [0.0, 1.0]


@pytest.mark.rules("TC-GOAL-1", "TC-END-6")
def test_a_solo_player_wins_by_reaching_the_target() -> None:
    """The rulebook's 1-player game prints no target: the recorded stand-in is 25 GP."""
    state = new_game("Xunon")
    target = CONTENT.numbers.solo_target_gp
    scoring.finish(state, [])
    assert state.final_scores[0]["total"] < target and state.winners == []
    state = new_game("Xunon")
    state.players[0].gp_tokens = tuple([g for g in state.gp_supply if CONTENT.gp_token(g).gp == 3][:target // 3 + 1])
    scoring.finish(state, [])
    assert state.final_scores[0]["total"] >= target and state.winners == [0]


# -- Important Concepts: the 49T limit -----------------------------------------------------------


@pytest.mark.rules("TC-TAU-2")
def test_tau_goes_up_to_49_and_no_further() -> None:
    state = new_game()
    p = state.players[0]
    p.tau = 47
    p.knowledge = p.knowledge.set("Cosmic", 1)
    GAME.apply(state, "SELL-K Cosmic")  # worth 4T
    assert p.tau == 49
    GAME.apply(state, "PASS")  # 4 unused Action markers: 4T more, all lost
    assert p.tau == 49


# -- Game Setup ------------------------------------------------------------------------------------


@pytest.mark.rules("TC-SETUP-2", "TC-ACT-1")
def test_players_place_the_large_tiles_one_at_a_time_connected_first_player_first() -> None:
    state = GAME.new_game({"layout": "players", "players": 3, "first_player": 2}, 4)
    assert state.phase == "setup" and state.round == 0
    large = [t.id for t in CONTENT.tiles if not t.outer_limit and t.kind != "tau_ceti"]
    assert sorted(state.large_tile_stack) == sorted(large)
    assert state.layout == {"TC": (0, 0)}
    refused(state, "PLACE 0,2", "TC-SETUP-2")  # not connected to a placed tile
    refused(state, "PLACE", "TC-SETUP-2")
    seats = []
    while state.phase == "setup":
        seats.append(state.current_player)
        tile = state.large_tile_stack[0]
        action = GAME.legal_actions(state)[0]
        GAME.apply(state, action)
        placed = state.layout[tile]
        assert any(placed in set(board.neighbour_cells(other)) for t, other in state.layout.items() if t != tile)
    assert seats[:4] == [2, 0, 1, 2]  # the first player first, then clockwise
    assert set(state.layout) == {"TC", *large}
    assert state.round == 1 and state.phase == "action"


@pytest.mark.rules("TC-SETUP-5", "TC-SETUP-3", "TC-SETUP-4")
def test_eight_knowledge_tokens_face_up_on_the_depot_by_type() -> None:
    state = new_game(seed=9)
    assert sum(state.depot_knowledge.values()) == 8
    on_points = Counter(p.token for p in state.points.values())
    assert sum(on_points.values()) == 10 and not any(p.face_up for p in state.points.values())
    assert len(state.outer_limit_knowledge) == 6
    everywhere = on_points + Counter(state.outer_limit_knowledge) + Counter(state.depot_knowledge)
    assert everywhere == dict.fromkeys(CONTENT.knowledge_types, 4)
    assert GAME.observe(state, None)["depot_knowledge"] == state.depot_knowledge  # face up


@pytest.mark.rules("TC-SETUP-6")
def test_every_systems_token_starts_on_the_galactic_depot() -> None:
    state = new_game()
    assert sorted(state.depot_systems) == sorted(t.id for t in CONTENT.systems_tokens)
    assert all(not p.systems_tokens for p in state.players)


@pytest.mark.rules("TC-SETUP-7", "TC-SETUP-8", "TC-SB-8")
def test_a_commodity_token_on_each_planet_two_in_the_demand_pile_the_rest_for_supply() -> None:
    state = new_game(seed=5)
    planets = {t.id for t in CONTENT.tiles if t.is_planet}
    assert set(state.planet_commodity) == planets
    assert len(state.demand_pile) == 2
    assert len(state.supply) == 18 - 4 - 2
    assert sorted([*state.planet_commodity.values(), *state.demand_pile, *state.supply]) == sorted(
        t.id for t in CONTENT.commodity_tokens)
    seen = GAME.observe(state, None)
    assert seen["demand_pile"] == 2  # face down: only the count
    assert len(seen["supply"]) == 12 and len(seen["planet_commodity"]) == 4  # face up
    # "The demand pile will always have two Commodity tokens in it": also after a purchase.
    state.players[0].tau = 30
    GAME.apply(state, "BUY serum 1")
    assert len(state.demand_pile) == 2


@pytest.mark.rules("TC-SETUP-9")
def test_the_crisis_tokens_stand_in_six_stacks_on_the_tcx() -> None:
    state = new_game()
    assert set(state.crisis_stacks) == set(CONTENT.knowledge_types)
    for ctype, stack in state.crisis_stacks.items():
        assert len(stack) == 4
        assert {CONTENT.crisis_token(t).crisis_type for t in stack} == {ctype}
    assert not state.planet_crises


@pytest.mark.rules("TC-SETUP-10", "TC-SETUP-13")
def test_the_decks_are_complete_and_shuffled() -> None:
    one, two = new_game(seed=1), new_game(seed=2)
    decks = {
        "crisis_deck": [c.id for c in CONTENT.crisis_cards],
        "specialist_deck": [c.id for c in CONTENT.specialists if not c.advanced],
        "knowledge_deck": [c.id for c in CONTENT.knowledge_cards],
        "mission_deck": [c.id for c in CONTENT.missions],
        "exotic_deck": [c.id for c in CONTENT.exotic_tech],
    }
    for name, cards in decks.items():
        assert sorted(getattr(one, name)) == sorted(cards), name
    for name in ("crisis_deck", "specialist_deck", "knowledge_deck", "mission_deck"):
        assert getattr(one, name) != getattr(two, name), f"{name} is not shuffled"
    assert one.diplomacy_left == 4


@pytest.mark.rules("TC-SETUP-11", "TC-SETUP-12")
def test_market_levels_start_at_1_and_the_round_marker_on_its_first_space() -> None:
    state = new_game()
    assert state.market == dict.fromkeys(CONTENT.resources, 1)
    assert state.round == 1


@pytest.mark.rules("TC-SETUP-14")
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_bag_holds_every_players_cubes_and_two_of_each_other_colour(players: int) -> None:
    state = GAME.new_game({"layout": "preset", "players": players}, 2)
    played = {p.faction for p in state.players}
    expected = {f.name: (5 if f.name in played else 2) for f in CONTENT.factions}
    assert Counter(state.bag) == expected


@pytest.mark.rules("TC-SETUP-16")
def test_factions_named_or_dealt_from_the_seeded_generator() -> None:
    named = GAME.new_game({"layout": "preset", "players": 2, "factions": ["Triolor", "Xunon"]}, 1)
    assert [p.faction for p in named.players] == ["Triolor", "Xunon"]
    dealt = {tuple(p.faction for p in GAME.new_game({"layout": "preset", "players": 2}, s).players)
             for s in range(12)}
    assert len(dealt) > 1  # not always the same choice
    again = GAME.new_game({"layout": "preset", "players": 2}, 7)
    assert [p.faction for p in again.players] == [
        p.faction for p in GAME.new_game({"layout": "preset", "players": 2}, 7).players]
    with pytest.raises(ValueError, match="unknown faction"):
        GAME.new_game({"layout": "preset", "players": 1, "factions": ["Terran"]}, 1)


@pytest.mark.rules("TC-SETUP-17")
def test_starship_and_four_orbitals_start_on_the_home_planet() -> None:
    state = GAME.new_game({"layout": "preset", "players": 4}, 1)
    for p in state.players:
        assert p.position == CONTENT.faction(p.faction).home_planet
        assert p.orbitals_home == 4
    assert not state.orbitals


@pytest.mark.rules("TC-SETUP-18", "TC-ACT-4")
@pytest.mark.parametrize("faction", ["Zorhkonian", "Xunon", "Triolor", "Azars"])
def test_each_player_plays_from_their_own_interface(faction: str) -> None:
    """The Interface gives the system powers and the energy of each of the 10 Major actions."""
    state = new_game(faction, "Xunon" if faction != "Xunon" else "Azars")
    f = CONTENT.faction(faction)
    assert set(f.action_costs) == set(MAJOR_ACTIONS)
    for system, power in f.systems.items():
        assert ship.power(state, 0, system) == power
    p = state.players[0]
    p.energy = 20
    GAME.apply(state, "MOV")
    assert p.energy == 20 - f.action_costs["MOV"]


@pytest.mark.rules("TC-SETUP-19", "TC-SETUP-20")
def test_tracks_action_markers_and_faction_tokens_at_the_start() -> None:
    state = GAME.new_game({"layout": "preset", "players": 4}, 1)
    for p in state.players:
        f = CONTENT.faction(p.faction)
        assert (p.tau, p.energy, p.materials) == (f.start_tau, f.start_energy, f.start_materials)
        assert p.tau >= 10  # the +Marker starts on +10
        assert flow.markers_left(state, p.seat) == 4
        assert p.battle_sector is None and p.claim is None  # Battle and Claim tokens in hand
        assert not p.missions  # the Unauthorized Transport token is free
        assert not p.hand and not p.face_up


# -- Gameplay: the rounds ----------------------------------------------------------------------------


def _to_round(state: State, n: int) -> None:
    """Jump to the start of round ``n``'s Action phase (the rounds before are not played)."""
    state.round = n


@pytest.mark.rules("TC-ROUND-3", "TC-ROUND-1")
def test_a_full_game_rolls_after_rounds_10_and_11_and_never_passes_12() -> None:
    stand_in = CONTENT.numbers.continue_on
    state = new_game(game="full")
    _to_round(state, 10)
    state.rng.script_dice([stand_in[0]])
    events = pass_round(state)
    assert [e.data["die"] for e in events if e.kind == "round_roll"] == [stand_in[0]]
    assert state.round == 11 and not state.is_over
    state.rng.script_dice([stand_in[1]])
    pass_round(state)
    assert state.round == 12 and not state.is_over
    events = pass_round(state)  # round 12 is the longest possible game: no die
    assert not [e for e in events if e.kind == "round_roll"]
    assert state.is_over and state.round == 12


@pytest.mark.rules("TC-ROUND-3")
def test_a_full_game_ends_after_round_10_on_a_low_die() -> None:
    state = new_game(game="full")
    _to_round(state, 10)
    state.rng.script_dice([CONTENT.numbers.continue_on[0] - 1])
    pass_round(state)
    assert state.is_over and state.round == 10


@pytest.mark.rules("TC-ROUND-2", "TC-ROUND-3")
def test_a_short_game_ends_after_round_8_without_a_die() -> None:
    state = new_game(game="short")
    _to_round(state, 8)
    events = pass_round(state)
    assert state.is_over and not [e for e in events if e.kind == "round_roll"]
    state = new_game(game="full")
    _to_round(state, 8)
    pass_round(state)
    assert not state.is_over and state.round == 9


@pytest.mark.rules("TC-ROUND-4", "TC-BAT-1")
def test_each_round_runs_enlightenment_then_action_then_battle() -> None:
    state = new_game()
    assert state.phase == "action"  # round 1 has no Enlightenment phase
    events = pass_round(state) + pass_round(state)  # to the start of round 3
    phases = [e.data["phase"] for e in events if e.kind == "phase"]
    assert phases == ["battle", "enlightenment", "action", "battle", "enlightenment"]


# -- Action Phase: the first player --------------------------------------------------------------


@pytest.mark.rules("TC-ACT-1", "TC-ACT-2")
def test_the_first_player_is_chosen_and_the_next_round_starts_left_of_them() -> None:
    state = GAME.new_game({"layout": "preset", "players": 3, "first_player": 1}, 1)
    assert state.current_player == 1 and state.first_player == 1
    order = []
    while state.round == 1:
        order.append(state.current_player)
        GAME.apply(state, "PASS")
    assert order == [1, 2, 0]
    assert state.first_player == 2


# -- Build: one orbital per Build action ------------------------------------------------------------


@pytest.mark.rules("TC-BUI-4")
def test_one_build_action_builds_one_orbital() -> None:
    state = new_game("Triolor", "Xunon")
    for sector in ("09", "02"):
        state.bag.remove("Triolor")
        state.cubes[sector] = ["Triolor"]
    refused(state, "BUI 09 02", "TC-BUI-3")
    GAME.apply(state, "BUI 09")
    assert state.orbitals == {"09": [0]}
    assert state.cubes["02"] == ["Triolor"] and state.players[0].orbitals_home == 3
    refused(state, "BUI 02", "TC-ACT-3")  # the turn's Major action is taken


# -- Expanding Economic Influence: a root cut off -----------------------------------------------------


@pytest.mark.rules("TC-EI-6", "TC-EI-1")
def test_a_root_lost_in_battle_no_longer_carries_the_expansion() -> None:
    """Anor's only root next to the Outer Limit tile at 1,1 is her cube in sector 02; once
    Borzon has taken it over, exploring the tile places no cube of hers."""

    def anor_explores_tile_11(root_owner: str) -> State:
        state = new_game("Azars", "Zorhkonian")
        state.bag.remove(root_owner)
        state.cubes["02"] = [root_owner]
        state.outer_limit_stack = tuple(x for x in state.outer_limit_stack if x != "11")
        state.layout = state.layout.set("11", (1, 1))
        state.points = state.points.set("11.1", Point("11.1", "11", "Geological"))
        anor = state.players[0]
        anor.position = "11"
        card = next(c for c in state.knowledge_deck
                    if CONTENT.knowledge_card(c).knowledge_type == "Geological")
        check = CONTENT.knowledge_card(card).check
        state.rng.script_dice([6] * checks.dice_for(state, 0, check.skill))
        GAME.apply(state, "EXP 11.1")
        return state

    rooted = anor_explores_tile_11("Azars")
    assert rooted.cubes["11"] == ["Azars"]
    cut_off = anor_explores_tile_11("Zorhkonian")  # the cube in 02 was taken over
    assert "11" not in cut_off.cubes
    assert cut_off.points["11.1"].explored_by == 0


# -- End of Game ----------------------------------------------------------------------------------------


@pytest.mark.rules("TC-END-1")
def test_the_game_ends_after_the_battle_phase_of_the_final_round() -> None:
    state = new_game("Zorhkonian", "Azars", game="short")
    _to_round(state, 8)
    state.bag.remove("Azars")
    state.cubes["01"] = ["Azars"]
    GAME.apply(state, "BATTLE 01 1")
    GAME.apply(state, "PASS")
    GAME.apply(state, "PASS")
    assert state.phase == "battle" and not state.is_over  # the last round's battle is fought
    GAME.apply(state, "RETREAT")
    assert state.is_over and len(state.final_scores) == 2
    assert GAME.legal_actions(state) == []
    reason = GAME.why_not(state, act("PASS"))
    assert reason is not None and reason.rule == "TC-END-1"


@pytest.mark.rules("TC-END-2")
@pytest.mark.parametrize("tau", [0, 9, 10, 19, 25, 38, 49])
def test_every_ten_tau_scores_the_gps_printed_on_the_interface(tau: int) -> None:
    state = new_game("Triolor", "Xunon")
    state.players[0].tau = tau
    assert scoring.score(state, 0)["tau"] == CONTENT.faction("Triolor").tau_gp[tau // 10]


@pytest.mark.rules("TC-END-3")
def test_cards_score_with_or_without_a_dot_as_the_alien_card_says() -> None:
    state = new_game("Zorhkonian", "Xunon")  # Zorhkonian: dot; Xunon: no dot
    assert CONTENT.faction("Zorhkonian").card_gp_dot and not CONTENT.faction("Xunon").card_gp_dot
    cards = ["C01", "C03", "S03", "S04"]  # dot 1 GP, no dot 2 GP, dot 2 GP, no dot 1 GP
    for seat in (0, 1):
        state.players[seat].hand = cards[:2]
        state.players[seat].face_up = cards[2:]  # face-up Specialists are still held
    assert scoring.score(state, 0)["cards"] == 1 + 2
    assert scoring.score(state, 1)["cards"] == 2 + 1


@pytest.mark.rules("TC-END-4", "TC-ORB-1")
def test_orbitals_in_sectors_and_cubes_on_the_home_planet_score_the_tile_values() -> None:
    state = new_game("Azars", "Xunon")
    state.orbitals = {"02": [0], "10": [0, 1]}
    state.players[0].orbitals_home = 2
    state.players[1].orbitals_home = 3
    for _ in range(2):
        state.bag.remove("Azars")
    state.cubes = {"AZAR": ["Azars"], "05": ["Azars"]}  # a cube in a sector scores nothing
    azars = scoring.score(state, 0)
    assert azars["orbitals"] == CONTENT.tile("02").orbital_gp + CONTENT.tile("10").orbital_gp
    assert azars["cubes"] == CONTENT.tile("AZAR").cube_gp
    assert scoring.score(state, 1)["orbitals"] == CONTENT.tile("10").orbital_gp
    assert scoring.score(state, 1)["cubes"] == 0


@pytest.mark.rules("TC-END-5")
def test_gp_tokens_from_crises_and_battles_count_their_value() -> None:
    state = new_game()
    threes = [g for g in state.gp_supply if CONTENT.gp_token(g).gp == 3][:2]
    ones = [g for g in state.gp_supply if CONTENT.gp_token(g).gp == 1][:1]
    state.players[0].gp_tokens = (*threes, *ones)
    assert scoring.score(state, 0)["gp_tokens"] == 7


@pytest.mark.rules("TC-END-6")
def test_a_tie_on_gps_goes_to_the_most_tau_then_is_shared() -> None:
    """The optional tie-break (``tie_break: tau``): most TAU, then most GP tokens. Shared by
    default since issue 15 (tests/test_rule_readings.py)."""
    state = new_game("Triolor", "Zorhkonian", tie_break="tau")
    for p in state.players:
        p.tau = 5
    scoring.finish(state, [])
    assert state.final_scores[0]["total"] == state.final_scores[1]["total"]
    assert state.winners == [0, 1] and GAME.returns(state) == [0.5, 0.5]
    state = new_game("Triolor", "Zorhkonian", tie_break="tau")
    state.players[0].tau, state.players[1].tau = 6, 5  # the same GPs for TAU 0-9
    scoring.finish(state, [])
    assert state.winners == [0]


# -- refusals no family test asserted -------------------------------------------------------------


@pytest.mark.rules("TC-ACT-3")
def test_one_major_action_at_a_time_until_the_markers_are_used_or_the_player_passes() -> None:
    state = new_game()
    refused(state, "END", "TC-ACT-3")  # take a Major action or PASS
    refused(state, "FLY 05", "TC-ACT-3")  # not an action of the turn
    GAME.apply(state, "REF")
    refused(state, "PASS", "TC-ACT-3")  # after the Major action the turn ends with END
    refused(state, "REF", "TC-ACT-3")
    GAME.apply(state, "END")
    GAME.apply(state, "PASS")  # Azars passes
    p = state.players[0]
    p.markers_used = 4
    assert flow.markers_left(state, 0) == 0
    assert state.current_player == 0
    refused(state, "REF", "TC-ACT-3")


@pytest.mark.rules("TC-ACT-5")
def test_a_major_action_needs_its_energy_and_may_be_taken_again() -> None:
    state = new_game()
    p = state.players[0]
    p.energy = CONTENT.faction("Xunon").action_costs["MOV"] - 1
    refused(state, "MOV", "TC-ACT-5")
    assert "MOV" not in {str(a) for a in GAME.legal_actions(state)}
    GAME.apply(state, "REF")  # free
    GAME.apply(state, "END")
    GAME.apply(state, "REF")  # Azars
    GAME.apply(state, "END")
    GAME.apply(state, "REF")  # the same action again in the same round
    assert p.markers_used == 2


@pytest.mark.rules("TC-REF-1")
def test_refuel_takes_no_arguments() -> None:
    refused(new_game(), "REF 2", "TC-REF-1")


@pytest.mark.rules("TC-ENL-4")
def test_only_cards_in_your_hand_are_played_face_down() -> None:
    state = new_game()
    pass_round(state)
    assert state.phase == "enlightenment"
    seat = state.current_player
    assert seat is not None
    state.players[seat].hand = ["C10"]
    refused(state, "PLAY C11", "TC-ENL-4")
    refused(state, "PLAY", "TC-ENL-4")
    refused(state, "PASS", "TC-ENL-4")


@pytest.mark.rules("TC-REROLL-1")
def test_a_re_roll_costs_2t_and_only_re_roll_or_accept_answer_a_failed_check() -> None:
    state = new_game()
    state.players[0].missions = (ActiveMission("M01"),)
    state.rng.script_dice([1, 1, 1, 1])  # M01: a Science check in Xuno, failed
    GAME.apply(state, "IM-CHECK M01")
    assert state.decision.kind == "reroll"
    refused(state, "REROLL 2", "TC-REROLL-1")
    refused(state, "END", "TC-REROLL-1")
    state.players[0].tau = 1
    refused(state, "REROLL", "TC-REROLL-1")


@pytest.mark.rules("TC-SB-9")
def test_sell_names_no_commodity_the_choice_comes_next() -> None:
    refused(new_game(), "SELL serum", "TC-SB-9")


@pytest.mark.rules("TC-REC-4")
def test_recruit_takes_no_arguments_and_needs_a_specialist_card_to_draw() -> None:
    state = new_game()
    refused(state, "REC S01", "TC-REC-4")
    state.specialist_deck = ()
    refused(state, "REC", "TC-REC-4")
