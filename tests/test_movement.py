"""Move (MOV) with its hazards, wormholes and Outer Limit tiles, and Repair (REP).

The preset map puts Dr. Krenji (Xunon, seat 0: Shields 2, Propulsion 2) on Xuno at -2,0,
next to sectors 05 and 08 and to four empty spaces (-2,-1; -2,1; -3,0; -3,1).
"""

from __future__ import annotations

import pytest

from ecliptic.engine.frozendict import FrozenDict
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import Point, State
from tauceti_checks import legal, refused

GAME = TauCeti()
KRENJI = 0


def new_game() -> State:
    state = GAME.new_game({"layout": "preset", "players": 2, "factions": ["Xunon", "Azars"]}, 1)
    state.players[KRENJI].energy = 10
    state.players[KRENJI].tau = 10
    return state


def place(state: State, tile: str, cell: tuple[int, int]) -> None:
    """Put an Outer Limit tile on the map as if it had been drawn earlier."""
    state.outer_limit_stack = tuple(x for x in state.outer_limit_stack if x != tile)
    state.layout = state.layout.set(tile, cell)


def moving(state: State) -> State:
    GAME.apply(state, "MOV")
    assert state.decision.kind == "move"
    return state


# -- moving --------------------------------------------------------------------------------


@pytest.mark.rules("TC-MOV-1", "TC-SETUP-1")
def test_move_offers_each_adjacent_sector_each_empty_space_and_stop() -> None:
    state = moving(new_game())
    assert state.decision.data["left"] == 2
    assert legal(state) == {"GO 05", "GO 08", "GO -2,-1", "GO -2,1", "GO -3,0", "GO -3,1", "STOP"}


@pytest.mark.rules("TC-MOV-2", "TC-ACT-5", "TC-ENERGY-1")
def test_move_costs_the_factions_energy_and_an_action_marker() -> None:
    state = new_game()
    GAME.apply(state, "MOV")
    assert state.players[KRENJI].energy == 10 - 2
    assert state.players[KRENJI].markers_used == 1


@pytest.mark.rules("TC-MOV-1")
def test_propulsion_power_limits_the_number_of_sectors() -> None:
    state = moving(new_game())
    GAME.apply(state, "GO 05")
    assert state.decision.data["left"] == 1
    GAME.apply(state, "GO 04")
    assert state.players[KRENJI].position == "04"
    assert state.decision.kind == "turn"  # two sectors with Propulsion 2: the move is over
    assert legal(state) == {"END"}


@pytest.mark.rules("TC-MOV-1", "TC-DMG-1")
def test_damaged_propulsion_moves_fewer_sectors() -> None:
    state = new_game()
    state.players[KRENJI].damage = FrozenDict({"propulsion": 1})
    moving(state)
    assert state.decision.data["left"] == 1
    GAME.apply(state, "GO 05")
    assert state.decision.kind == "turn"


@pytest.mark.rules("TC-MOV-1")
def test_stop_ends_the_move_early() -> None:
    state = moving(new_game())
    GAME.apply(state, "GO 08")
    GAME.apply(state, "STOP")
    assert state.players[KRENJI].position == "08"
    assert state.decision.kind == "turn"


@pytest.mark.rules("TC-MOV-1", "TC-DMG-1")
def test_move_is_refused_when_propulsion_is_destroyed() -> None:
    state = new_game()
    state.players[KRENJI].damage = FrozenDict({"propulsion": 2})
    refused(state, "MOV", "TC-MOV-1")
    assert "MOV" not in legal(state)


@pytest.mark.rules("TC-MOV-3")
def test_tau_ceti_cannot_be_moved_through_or_into() -> None:
    state = moving(new_game())
    GAME.apply(state, "GO 05")  # 05 touches TAU CETI
    assert "GO TC" not in legal(state)
    refused(state, "GO TC", "TC-MOV-3")


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        ("GO 02", "TC-MOV-1"),  # not adjacent
        ("GO ZZ", "TC-MOV-1"),  # no such sector
        ("GO 11", "TC-MOV-1"),  # an Outer Limit tile not drawn yet
        ("GO", "TC-MOV-2"),
        ("GO 05 08", "TC-MOV-2"),
        ("STOP now", "TC-MOV-2"),
        ("FLY 05", "TC-MOV-2"),
        ("GO -2,+1", "TC-MOV-2"),  # not the canonical q,r
        ("GO 0,1", "TC-MOV-2"),  # sector 03 lies there
        ("GO 9,-9", "TC-SETUP-1"),  # off the table
        ("GO 1,-3", "TC-MOV-1"),  # empty, but not next to Xuno
        ("JUMP", "TC-MOV-6"),  # not in a wormhole
    ],
)
@pytest.mark.rules("TC-MOV-1", "TC-MOV-2", "TC-MOV-6", "TC-SETUP-1")
def test_malformed_or_impossible_moves_are_refused(action: str, rule: str) -> None:
    refused(moving(new_game()), action, rule)


@pytest.mark.rules("TC-MOV-1")
def test_no_more_sectors_once_propulsion_is_used_up() -> None:
    state = new_game()
    place(state, "15", (-2, 1))
    place(state, "16", (3, -1))
    state.players[KRENJI].damage = FrozenDict({"propulsion": 1})
    moving(state)
    GAME.apply(state, "GO 15")  # the last sector; the wormhole choice keeps the move open
    refused(state, "GO -3,1", "TC-MOV-1")


# -- Outer Limit tiles -------------------------------------------------------------------------


@pytest.mark.rules("TC-SETUP-1", "TC-SETUP-4")
def test_flying_into_empty_space_draws_an_outer_limit_tile_with_a_knowledge_token() -> None:
    state = new_game()
    state.outer_limit_stack = tuple(x for x in state.outer_limit_stack if x != "14")
    state.outer_limit_stack = ("14", *state.outer_limit_stack)
    state.outer_limit_knowledge = ("Chemical", *state.outer_limit_knowledge[1:])
    tiles, tokens = len(state.outer_limit_stack), len(state.outer_limit_knowledge)
    moving(state)
    state.rng.script_dice([6])  # asteroid field: navigated safely
    events = GAME.apply(state, "GO -2,1")
    assert state.layout["14"] == (-2, 1)
    assert state.players[KRENJI].position == "14"
    assert state.points["14.1"] == Point("14.1", "14", "Chemical", face_up=False)
    assert len(state.outer_limit_stack) == tiles - 1
    assert len(state.outer_limit_knowledge) == tokens - 1
    assert not any("Chemical" in e.text or "Chemical" in e.data.values() for e in events)  # face down
    assert state.decision.data["left"] == 1


@pytest.mark.rules("TC-SETUP-1")
def test_no_empty_space_to_fly_into_when_every_outer_limit_tile_is_drawn() -> None:
    state = new_game()
    state.outer_limit_stack = ()
    moving(state)
    assert legal(state) == {"GO 05", "GO 08", "STOP"}
    refused(state, "GO -2,1", "TC-SETUP-1")


# -- hazards -------------------------------------------------------------------------------


@pytest.mark.parametrize("die", [5, 6])
@pytest.mark.rules("TC-MOV-4")
def test_cosmic_energy_five_or_six_nothing_happens(die: int) -> None:
    state = new_game()
    place(state, "11", (-2, 1))
    moving(state)
    energy = state.players[KRENJI].energy
    state.rng.script_dice([die])
    GAME.apply(state, "GO 11")
    assert state.players[KRENJI].energy == energy
    assert state.players[KRENJI].damage == {}
    assert state.decision.kind == "move"


@pytest.mark.rules("TC-MOV-4", "TC-DMG-1")
def test_cosmic_energy_positive_result_is_damage_the_player_allocates() -> None:
    state = new_game()
    place(state, "11", (-2, 1))
    moving(state)
    state.rng.script_dice([4])  # 4 - Shields 2 = 2 damage
    GAME.apply(state, "GO 11")
    assert state.decision.kind == "damage"
    assert state.decision.data["left"] == 2
    assert state.stack[-2].kind == "move"  # the move goes on after the damage
    supply = state.damage_supply
    GAME.apply(state, "DAMAGE shields")
    GAME.apply(state, "DAMAGE cargo")
    assert state.players[KRENJI].damage == {"shields": 1, "cargo": 1}
    assert state.damage_supply == supply - 2
    assert state.decision.kind == "move"
    assert state.decision.data["left"] == 1


@pytest.mark.rules("TC-MOV-4")
def test_cosmic_energy_negative_result_is_energy_gained() -> None:
    state = new_game()
    place(state, "11", (-2, 1))
    moving(state)
    energy = state.players[KRENJI].energy
    state.rng.script_dice([1])  # 1 - Shields 2 = -1: +1 energy
    GAME.apply(state, "GO 11")
    assert state.players[KRENJI].energy == energy + 1
    assert state.players[KRENJI].damage == {}


@pytest.mark.rules("TC-MOV-4")
def test_cosmic_energy_zero_result_does_nothing() -> None:
    state = new_game()
    place(state, "11", (-2, 1))
    moving(state)
    energy = state.players[KRENJI].energy
    state.rng.script_dice([2])
    GAME.apply(state, "GO 11")
    assert state.players[KRENJI].energy == energy
    assert state.decision.kind == "move"


@pytest.mark.rules("TC-MOV-4", "TC-ENERGY-2")
def test_cosmic_energy_gain_stops_at_49() -> None:
    state = new_game()
    place(state, "11", (-2, 1))
    moving(state)
    state.players[KRENJI].energy = 49
    state.rng.script_dice([1])
    GAME.apply(state, "GO 11")
    assert state.players[KRENJI].energy == 49


@pytest.mark.rules("TC-MOV-4", "TC-DMG-1")
def test_damaged_shields_protect_less() -> None:
    state = new_game()
    place(state, "11", (-2, 1))
    state.players[KRENJI].damage = FrozenDict({"shields": 1})
    moving(state)
    state.rng.script_dice([3])  # 3 - effective Shields 1 = 2 damage
    GAME.apply(state, "GO 11")
    assert state.decision.kind == "damage"
    assert state.decision.data["left"] == 2


@pytest.mark.parametrize("die", [5, 6])
@pytest.mark.rules("TC-MOV-5")
def test_asteroid_field_five_or_six_navigates_safely(die: int) -> None:
    state = new_game()
    place(state, "13", (-2, 1))
    moving(state)
    state.rng.script_dice([die])
    GAME.apply(state, "GO 13")
    assert state.players[KRENJI].damage == {}
    assert state.decision.kind == "move"


@pytest.mark.rules("TC-MOV-5", "TC-DMG-1")
def test_asteroid_field_positive_result_is_damage() -> None:
    state = new_game()
    place(state, "13", (-2, 1))
    moving(state)
    state.rng.script_dice([3])  # 3 - Shields 2 = 1 damage
    GAME.apply(state, "GO 13")
    assert state.decision.kind == "damage"
    assert state.decision.data["left"] == 1
    GAME.apply(state, "DAMAGE sensors")
    assert state.players[KRENJI].damage == {"sensors": 1}
    assert state.decision.kind == "move"


@pytest.mark.rules("TC-MOV-5")
def test_asteroid_field_negative_result_does_nothing() -> None:
    state = new_game()
    place(state, "13", (-2, 1))
    moving(state)
    energy = state.players[KRENJI].energy
    state.rng.script_dice([1])  # 1 - Shields 2 = -1: no energy, unlike cosmic energy
    GAME.apply(state, "GO 13")
    assert state.players[KRENJI].energy == energy
    assert state.players[KRENJI].damage == {}


@pytest.mark.rules("TC-MOV-4", "TC-MOV-5", "TC-DMG-1")
def test_damage_on_the_last_sector_is_allocated_after_the_move_ends() -> None:
    state = new_game()
    place(state, "11", (-3, 1))
    place(state, "13", (-2, 1))
    moving(state)
    state.rng.script_dice([6, 4])
    GAME.apply(state, "GO 13")
    GAME.apply(state, "GO 11")  # the second and last sector: 4 - 2 = 2 damage
    assert [d.kind for d in state.stack] == ["turn", "damage"]
    GAME.apply(state, "DAMAGE weapons")
    GAME.apply(state, "DAMAGE weapons")
    assert state.players[KRENJI].damage == {"weapons": 2}
    assert state.decision.kind == "turn"


@pytest.mark.rules("TC-DMG-1")
def test_damage_allocation_refuses_an_unknown_system() -> None:
    state = new_game()
    place(state, "11", (-2, 1))
    moving(state)
    state.rng.script_dice([4])
    GAME.apply(state, "GO 11")
    refused(state, "DAMAGE hull", "TC-DMG-1")


@pytest.mark.rules("TC-MOV-5")
def test_hazards_strike_again_on_each_entry() -> None:
    state = new_game()
    place(state, "13", (-2, 1))
    GAME.apply(state, "MOV")
    state.rng.script_dice([6])
    GAME.apply(state, "GO 13")
    GAME.apply(state, "GO 04")
    GAME.apply(state, "END")
    GAME.apply(state, "PASS")  # Azars
    GAME.apply(state, "MOV")
    state.rng.script_dice([4])
    GAME.apply(state, "GO 13")
    assert state.decision.kind == "damage"


# -- wormholes -----------------------------------------------------------------------------


def both_wormholes() -> State:
    state = new_game()
    place(state, "15", (-2, 1))
    place(state, "16", (3, -1))
    return moving(state)


@pytest.mark.rules("TC-MOV-6")
def test_entering_a_wormhole_offers_the_jump() -> None:
    state = both_wormholes()
    GAME.apply(state, "GO 15")
    assert "JUMP" in legal(state)


@pytest.mark.rules("TC-MOV-6", "TC-MOV-7")
def test_wormhole_five_or_six_goes_to_the_other_wormhole_for_zero_sectors() -> None:
    state = both_wormholes()
    GAME.apply(state, "GO 15")
    energy = state.players[KRENJI].energy
    state.rng.script_dice([5])
    GAME.apply(state, "JUMP")
    assert state.players[KRENJI].position == "16"
    assert state.decision.data["left"] == 1  # the jump used no propulsion
    assert state.players[KRENJI].energy == energy
    assert "JUMP" not in legal(state)  # no jumping straight back
    GAME.apply(state, "GO 09")
    assert state.players[KRENJI].position == "09"
    assert state.decision.kind == "turn"


@pytest.mark.rules("TC-MOV-6", "TC-ENERGY-1")
def test_wormhole_failure_loses_the_positive_result_in_energy() -> None:
    state = both_wormholes()
    GAME.apply(state, "GO 15")
    energy = state.players[KRENJI].energy
    state.rng.script_dice([4])  # 4 - Propulsion 2 = 2 energy lost
    GAME.apply(state, "JUMP")
    assert state.players[KRENJI].position == "15"
    assert state.players[KRENJI].energy == energy - 2
    refused(state, "JUMP", "TC-MOV-6")  # once per entry


@pytest.mark.rules("TC-MOV-6")
def test_wormhole_failure_with_a_negative_result_does_nothing() -> None:
    state = both_wormholes()
    GAME.apply(state, "GO 15")
    energy = state.players[KRENJI].energy
    state.rng.script_dice([1])  # 1 - 2 = -1
    GAME.apply(state, "JUMP")
    assert state.players[KRENJI].position == "15"
    assert state.players[KRENJI].energy == energy


@pytest.mark.rules("TC-MOV-6")
def test_wormhole_energy_loss_never_goes_below_zero() -> None:
    state = both_wormholes()
    GAME.apply(state, "GO 15")
    state.players[KRENJI].energy = 1
    state.rng.script_dice([4])
    GAME.apply(state, "JUMP")
    assert state.players[KRENJI].energy == 0


@pytest.mark.rules("TC-MOV-6", "TC-MOV-7")
def test_wormhole_jump_is_possible_on_the_last_sector() -> None:
    state = new_game()
    place(state, "15", (-2, 1))
    place(state, "16", (3, -1))
    state.players[KRENJI].damage = FrozenDict({"propulsion": 1})
    moving(state)
    GAME.apply(state, "GO 15")
    assert legal(state) == {"JUMP", "STOP"}
    state.rng.script_dice([6])
    GAME.apply(state, "JUMP")
    assert state.players[KRENJI].position == "16"
    assert state.decision.kind == "turn"


@pytest.mark.rules("TC-MOV-7")
def test_a_lone_wormhole_does_not_work() -> None:
    state = new_game()
    place(state, "15", (-2, 1))
    moving(state)
    GAME.apply(state, "GO 15")
    assert "JUMP" not in legal(state)
    err = refused(state, "JUMP", "TC-MOV-7")
    assert "BOTH" in err.reason


@pytest.mark.rules("TC-MOV-7", "TC-SETUP-1")
def test_drawing_the_second_wormhole_opens_both() -> None:
    state = new_game()
    place(state, "15", (3, -1))
    state.outer_limit_stack = tuple(x for x in state.outer_limit_stack if x != "16")
    state.outer_limit_stack = ("16", *state.outer_limit_stack)
    moving(state)
    GAME.apply(state, "GO -2,1")
    assert state.players[KRENJI].position == "16"
    state.rng.script_dice([5])
    GAME.apply(state, "JUMP")
    assert state.players[KRENJI].position == "15"


# -- repair --------------------------------------------------------------------------------


def repairing(state: State) -> State:
    GAME.apply(state, "REP")
    assert state.decision.kind == "repair"
    return state


@pytest.mark.rules("TC-REP-2", "TC-TAU-1")
def test_repair_on_a_planet_costs_1t_per_damage_marker() -> None:
    state = new_game()
    p = state.players[KRENJI]
    p.damage = FrozenDict({"shields": 2})
    supply = state.damage_supply
    repairing(state)
    assert p.energy == 10 - 2  # REP costs Xunon 2 energy
    assert legal(state) == {"FIX shields", "DONE"}
    why = GAME.why_not(state, "FIX computers")
    assert why is not None and why.reason == "your computers system has no Damage marker"  # (it read "computers has")
    GAME.apply(state, "FIX shields")
    assert p.tau == 9
    assert p.damage == {"shields": 1}
    assert state.damage_supply == supply + 1
    GAME.apply(state, "FIX shields")
    assert p.tau == 8
    assert p.damage == {}
    assert state.decision.kind == "turn"  # nothing left to repair: the repair is over


@pytest.mark.parametrize("sector", ["05", "10"])  # an empty sector and Zuron Asteroid
@pytest.mark.rules("TC-REP-2")
def test_repair_in_space_costs_2t_per_damage_marker(sector: str) -> None:
    state = new_game()
    p = state.players[KRENJI]
    p.position = sector
    p.damage = FrozenDict({"cargo": 1, "weapons": 1})
    repairing(state)
    GAME.apply(state, "FIX cargo")
    assert p.tau == 8
    assert p.damage == {"weapons": 1}
    GAME.apply(state, "DONE")  # keep the other marker
    assert p.damage == {"weapons": 1}
    assert state.decision.kind == "turn"


@pytest.mark.rules("TC-REP-2")
def test_repair_stops_when_the_tau_runs_out() -> None:
    state = new_game()
    p = state.players[KRENJI]
    p.position = "05"
    p.tau = 3
    p.damage = FrozenDict({"cargo": 2})
    repairing(state)
    GAME.apply(state, "FIX cargo")
    assert p.tau == 1
    assert state.decision.kind == "turn"


@pytest.mark.rules("TC-REP-1", "TC-ADV3-2")
def test_repair_is_refused_without_damage_markers_and_virus_crystals_are_not_repairable() -> None:
    state = new_game()
    state.players[KRENJI].virus = FrozenDict({"cargo": 1})
    err = refused(state, "REP", "TC-REP-1")
    assert "virus" in err.reason


@pytest.mark.rules("TC-ADV3-2")
def test_fixing_a_virus_crystal_is_refused() -> None:
    state = new_game()
    state.players[KRENJI].damage = FrozenDict({"shields": 1})
    state.players[KRENJI].virus = FrozenDict({"cargo": 1})
    repairing(state)
    assert legal(state) == {"FIX shields", "DONE"}
    refused(state, "FIX cargo", "TC-ADV3-2")


@pytest.mark.rules("TC-REP-2")
def test_repair_is_refused_when_the_player_cannot_pay_for_one_marker() -> None:
    state = new_game()
    p = state.players[KRENJI]
    p.position = "05"
    p.tau = 1
    p.damage = FrozenDict({"shields": 1})
    refused(state, "REP", "TC-REP-2")
    p.position = "XUNO"  # the same 1T is enough on a planet
    assert "REP" in legal(state)


@pytest.mark.parametrize(
    ("action", "rule"),
    [("FIX", "TC-REP-2"), ("FIX hull", "TC-REP-2"), ("FIX shields cargo", "TC-REP-2"),
     ("DONE now", "TC-REP-2"), ("FIX weapons", "TC-REP-1")],
)
@pytest.mark.rules("TC-REP-1", "TC-REP-2")
def test_malformed_repairs_are_refused(action: str, rule: str) -> None:
    state = new_game()
    state.players[KRENJI].damage = FrozenDict({"shields": 1})
    refused(repairing(state), action, rule)


@pytest.mark.rules("TC-REP-2", "TC-MOV-2")
def test_rep_and_mov_take_no_arguments() -> None:
    state = new_game()
    state.players[KRENJI].damage = FrozenDict({"shields": 1})
    refused(state, "REP shields", "TC-REP-2")
    refused(state, "MOV 05", "TC-MOV-2")
