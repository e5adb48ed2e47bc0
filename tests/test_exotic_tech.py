"""Advanced Rule 6 (an Exotic Tech acquired with the Upgrade action once the materials are
maximized) and the four Exotic Tech cards' effects.

Captain Borzon (Zorhkonian, seat 0) starts on Zorhkon with 12T and 6 energy; his Materials
track has 7 spaces (index 6, the right-most, is maximized); Upgrade costs him 2 energy;
weapons 3, shields 2, propulsion 2; Military 4. Captain Anor (Azars, seat 1): shields 3,
computers 2.
"""

from __future__ import annotations

import pytest

from ecliptic.engine.frozendict import FrozenDict
from ecliptic.tauceti import battle, flow, ship
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import ActiveMission, State
from tauceti_checks import legal, refused

GAME = TauCeti()
BORZON, ANOR = 0, 1
MAX = 6  # Borzon's right-most Materials space


def new_game(*advanced: int) -> State:
    state = GAME.new_game({"layout": "preset", "players": 2, "factions": ["Zorhkonian", "Azars"],
                           "advanced": list(advanced)}, 1)
    assert state.current_player == BORZON
    return state


def maximized(state: State) -> State:
    state.players[BORZON].materials = MAX
    return state


def finish_turn(state: State) -> None:
    """End this turn and the other player's, so Borzon's next turn begins."""
    for _ in range(2):
        if not state.decision.data["major_done"]:
            GAME.apply(state, "REF")
        GAME.apply(state, "END")
    assert state.current_player == BORZON and state.decision.kind == "turn"


# -- Advanced Rule 6: acquiring an Exotic Tech -------------------------------------------------


@pytest.mark.rules("TC-ADV6-2", "TC-COMP-1")
def test_the_content_gives_each_exotic_tech_a_structured_effect() -> None:
    content = new_game().content
    effects = {e.id: (e.effect, e.amount, e.one_time) for e in content.exotic_tech}
    assert effects == {
        "E1": ("battle_shields", 1, False),
        "E2": ("move_sectors", 1, False),
        "E3": ("free_reroll", 1, False),
        "E4": ("attack_dice", 2, True),
    }


@pytest.mark.rules("TC-ADV6-1")
def test_upgrade_acquires_an_exotic_tech_of_your_choice_once_materials_are_maximized() -> None:
    state = maximized(new_game(6))
    p = state.players[BORZON]
    assert {"UPG exotic E1", "UPG exotic E2", "UPG exotic E3", "UPG exotic E4"} <= legal(state)
    energy = p.energy
    GAME.apply(state, "UPG exotic E2")
    assert p.exotic_tech == "E2"
    assert "E2" not in state.exotic_deck and len(state.exotic_deck) == 3
    # "you still need to take the Upgrade action and pay the cost in energy"
    assert p.energy == energy - state.faction(BORZON).action_costs["UPG"]
    assert p.markers_used == 1
    # "you do not have to go through the normal process": no commodity, no token.
    assert p.materials == MAX and p.systems_tokens == {} and p.holdings == ()


@pytest.mark.rules("TC-ADV6-1")
@pytest.mark.parametrize("materials", [0, 3, MAX - 1])
def test_not_before_the_materials_are_maximized(materials: int) -> None:
    state = new_game(6)
    state.players[BORZON].materials = materials
    refused(state, "UPG exotic E1", "TC-ADV6-1")
    assert not any(a.startswith("UPG exotic") for a in legal(state))


@pytest.mark.rules("TC-ADV6-1")
def test_only_with_advanced_rule_6() -> None:
    state = maximized(new_game())
    refused(state, "UPG exotic E1", "TC-ADV6-1")
    assert not any(a.startswith("UPG exotic") for a in legal(state))


@pytest.mark.rules("TC-ADV6-1", "TC-UPG-2")
def test_unknown_exotic_tech_and_malformed_actions_are_refused() -> None:
    state = maximized(new_game(6))
    refused(state, "UPG exotic E9", "TC-ADV6-1")
    refused(state, "UPG exotic S01", "TC-ADV6-1")
    refused(state, "UPG exotic", "TC-UPG-2")
    refused(state, "UPG exotic E1 E2", "TC-UPG-2")


@pytest.mark.rules("TC-ADV6-1")
def test_only_if_it_is_available() -> None:
    state = maximized(new_game(6))
    state.exotic_deck = tuple(x for x in state.exotic_deck if x != "E3")
    state.players[ANOR].exotic_tech = "E3"
    refused(state, "UPG exotic E3", "TC-ADV6-1")
    assert "UPG exotic E1" in legal(state)


@pytest.mark.rules("TC-ADV6-2")
def test_only_once_and_kept_for_the_rest_of_the_game() -> None:
    """"You cannot change it or acquire new exotic techs", even after building lowers the
    materials again."""
    state = maximized(new_game(6))
    GAME.apply(state, "UPG exotic E1")
    finish_turn(state)
    refused(state, "UPG exotic E2", "TC-ADV6-2")
    # Building moves the Materials marker left; the Exotic Tech stays.
    state.bag.remove("Zorhkonian")
    state.cubes.setdefault("01", []).append("Zorhkonian")
    GAME.apply(state, "BUI 01")
    p = state.players[BORZON]
    assert p.materials == MAX - 1 and p.exotic_tech == "E1"


@pytest.mark.rules("TC-ADV6-2")
def test_a_used_one_time_tech_still_counts_as_acquired() -> None:
    state = maximized(new_game(6))
    p = state.players[BORZON]
    p.exotic_tech, p.exotic_spent = "E4", True
    refused(state, "UPG exotic E1", "TC-ADV6-2")


@pytest.mark.rules("TC-ADV6-1", "TC-UPG-2")
def test_the_ordinary_upgrade_is_unchanged_beside_the_exotic_one() -> None:
    state = maximized(new_game(6))
    assert "UPG weapons free" in legal(state)  # Zorhkonian weapons need no engineering


# -- E1 Graviton Deflector: +1 shield in every battle -----------------------------------------


def start_battle(state: State) -> None:
    """Jump to the Battle phase: Borzon initiates against Anor in sector 01."""
    state.stack.clear()
    state.phase = "battle"
    p = state.players[BORZON]
    p.battle_sector, p.battle_defender = "01", ANOR
    state.battles = ("01",)
    flow.advance(state, [])
    assert state.decision.kind == "battle_shield" and state.decision.player == ANOR


@pytest.mark.rules("TC-BAT-6", "TC-ADV6-2")
def test_graviton_deflector_counts_shields_one_higher() -> None:
    state = new_game(6)
    start_battle(state)
    assert battle.shield_limit(state, ANOR) == 3
    refused(state, "SHIELD 1,2,3,5", "TC-BAT-6")
    state.players[ANOR].exotic_tech = "E1"
    assert battle.shield_limit(state, ANOR) == 4
    assert "SHIELD 1,2,3,5" in legal(state)
    GAME.apply(state, "SHIELD 1,2,3,5")
    assert state.battle is not None
    assert state.battle.shields["1"] == ["weapons", "shields", "computers", "cargo"]


@pytest.mark.rules("TC-ADV6-2", "TC-BAT-6")
def test_graviton_deflector_is_still_limited_by_the_action_markers() -> None:
    state = new_game(6)
    state.players[ANOR].exotic_tech = "E1"
    state.players[ANOR].markers_lost = 1
    assert battle.shield_limit(state, ANOR) == 3


# -- E2 Fold Drive: +1 sector on each Move action ----------------------------------------------


@pytest.mark.rules("TC-ADV6-2", "TC-MOV-1")
def test_fold_drive_adds_one_sector_to_the_move_allowance() -> None:
    state = new_game(6)
    assert ship.move_allowance(state, BORZON) == 2
    state.players[BORZON].exotic_tech = "E2"
    assert ship.move_allowance(state, BORZON) == 3
    state.players[BORZON].damage = FrozenDict({"propulsion": 1})
    assert ship.move_allowance(state, BORZON) == 2


@pytest.mark.rules("TC-ADV6-2", "TC-MOV-1")
def test_a_move_action_with_the_fold_drive_covers_one_more_sector() -> None:
    state = new_game(6)
    state.players[BORZON].exotic_tech = "E2"
    state.stack[-1].player = BORZON
    GAME.apply(state, "MOV")
    assert state.stack[-1].kind == "move"
    assert state.stack[-1].data["left"] == 3


@pytest.mark.rules("TC-ADV6-2", "TC-MOV-1")
def test_fold_drive_does_not_move_a_ship_with_destroyed_propulsion() -> None:
    state = new_game(6)
    state.players[BORZON].exotic_tech = "E2"
    state.players[BORZON].damage = FrozenDict({"propulsion": 2})
    assert ship.move_allowance(state, BORZON) == 0


@pytest.mark.rules("TC-ADV6-2")
def test_other_exotic_techs_do_not_change_the_move_allowance() -> None:
    state = new_game(6)
    state.players[BORZON].exotic_tech = "E1"
    assert ship.move_allowance(state, BORZON) == 2


# -- E3 Neural Lattice: a free re-roll once per round ------------------------------------------


def attempt_m02(state: State, dice: list[int]) -> None:
    """M02: a Military check, 1 die showing 5+, on Zorhkon for 5T; Borzon rolls 4 dice."""
    state.players[BORZON].missions = (ActiveMission("M02"),)
    state.rng.script_dice(dice)
    GAME.apply(state, "IM-CHECK M02")


@pytest.mark.rules("TC-ADV6-2", "TC-REROLL-1")
def test_neural_lattice_re_rolls_without_paying_tau() -> None:
    state = new_game(6)
    p = state.players[BORZON]
    p.exotic_tech = "E3"
    tau = p.tau
    attempt_m02(state, [1, 2, 3, 4])
    assert state.decision.kind == "reroll"
    assert legal(state) == {"REROLL", "REROLL free", "ACCEPT"}
    state.rng.script_dice([5, 1, 1, 1])
    GAME.apply(state, "REROLL free")
    assert p.tau == tau + 5  # the IM's 5T, no 2T paid
    assert p.missions == ()
    assert p.exotic_reroll_round == state.round


@pytest.mark.rules("TC-ADV6-2")
def test_neural_lattice_works_once_per_round() -> None:
    state = new_game(6)
    p = state.players[BORZON]
    p.exotic_tech = "E3"
    attempt_m02(state, [1, 1, 1, 1])
    state.rng.script_dice([1, 1, 1, 1])
    GAME.apply(state, "REROLL free")
    # The free re-roll failed too; the paid re-roll is still offered, the free one is not.
    assert state.decision.kind == "reroll"
    refused(state, "REROLL free", "TC-ADV6-2")
    assert legal(state) == {"REROLL", "ACCEPT"}
    GAME.apply(state, "ACCEPT")
    # Next round the free re-roll is back.
    state.round += 1
    finish_turn(state)
    attempt_m02(state, [1, 1, 1, 1])
    assert "REROLL free" in legal(state)


@pytest.mark.rules("TC-ADV6-2", "TC-REROLL-1")
def test_neural_lattice_offers_a_re_roll_to_a_player_without_tau() -> None:
    state = new_game(6)
    p = state.players[BORZON]
    p.exotic_tech, p.tau = "E3", 0
    attempt_m02(state, [1, 1, 1, 1])
    assert legal(state) == {"REROLL free", "ACCEPT"}
    state.rng.script_dice([1, 1, 1, 1])
    GAME.apply(state, "REROLL free")
    assert state.decision.kind == "turn"  # no TAU and no free re-roll left: the failure stands


@pytest.mark.rules("TC-ADV6-2")
def test_free_re_roll_needs_the_neural_lattice() -> None:
    state = new_game(6)
    state.players[BORZON].exotic_tech = "E1"
    attempt_m02(state, [1, 1, 1, 1])
    refused(state, "REROLL free", "TC-ADV6-2")
    assert legal(state) == {"REROLL", "ACCEPT"}


# -- E4 Singularity Lance: one-time, 2 extra dice on one attack ---------------------------------


@pytest.mark.rules("TC-ADV6-2")
def test_singularity_lance_adds_two_dice_to_one_attack_then_is_discarded() -> None:
    state = new_game(6)
    p = state.players[BORZON]
    p.exotic_tech = "E4"
    start_battle(state)
    GAME.apply(state, "SHIELD 1,2,3")  # Anor shields weapons, shields, computers
    assert legal(state) == {"ATTACK", "ATTACK exotic", "RETREAT"}
    state.rng.script_dice([1, 2, 3, 1, 2])  # weapons 3 + 2 dice, all on shielded systems
    events = GAME.apply(state, "ATTACK exotic")
    assert [e.data["dice"] for e in events if e.kind == "attack"] == [[1, 2, 3, 1, 2]]
    assert p.exotic_spent and p.exotic_tech == "E4"
    assert ship.exotic(state, BORZON) is None
    # Anor attacks back; then Borzon's next attack has the 3 ordinary dice only.
    GAME.apply(state, "SHIELD 1,2")
    state.rng.script_dice([1])  # Anor's weapons 1: blocked
    GAME.apply(state, "ATTACK")
    GAME.apply(state, "SHIELD 1,2,3")
    assert state.decision.kind == "battle_attack" and state.decision.player == BORZON
    refused(state, "ATTACK exotic", "TC-ADV6-2")
    state.rng.script_dice([1, 2, 3])
    events = GAME.apply(state, "ATTACK")
    assert [e.data["dice"] for e in events if e.kind == "attack"] == [[1, 2, 3]]


@pytest.mark.rules("TC-ADV6-2")
def test_attack_exotic_needs_the_singularity_lance() -> None:
    state = new_game(6)
    state.players[BORZON].exotic_tech = "E1"
    start_battle(state)
    GAME.apply(state, "SHIELD -")
    refused(state, "ATTACK exotic", "TC-ADV6-2")
