"""The Battle phase and the Battle token (rulebook: Battle Phase, with both examples)."""

from __future__ import annotations

from typing import Any

import pytest

from ecliptic.engine.events import Event
from ecliptic.engine.frozendict import FrozenDict
from ecliptic.tauceti import battle, flow
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import State
from tauceti_checks import refused

GAME = TauCeti()
BORZON, ANOR = 0, 1  # seats in the two-player games below


def new_game(factions: tuple[str, ...] = ("Zorhkonian", "Azars"), seed: int = 1) -> State:
    return GAME.new_game({"layout": "preset", "players": len(factions), "factions": list(factions)}, seed)


def put_cube(state: State, sector: str, faction: str) -> None:
    state.bag.remove(faction)
    state.cubes.setdefault(sector, []).append(faction)


def put_orbital(state: State, sector: str, seat: int) -> None:
    state.players[seat].orbitals_home -= 1
    state.orbitals.setdefault(sector, []).append(seat)


def start_battle(state: State, sector: str = "01", initiator: int = BORZON, defender: int = ANOR) -> list[Event]:
    """Jump straight to the Battle phase with one Battle token on the board."""
    state.stack.clear()
    state.phase = "battle"
    p = state.players[initiator]
    p.battle_sector, p.battle_defender = sector, defender
    state.battles = (sector,)
    ev: list[Event] = []
    flow.advance(state, ev)
    return ev


def kind(state: State) -> tuple[str, int]:
    d = state.decision
    return d.kind, d.player


def events(ev: list[Event], name: str) -> list[Event]:
    return [e for e in ev if e.kind == name]


def data(ev: list[Event], name: str) -> list[dict[str, Any]]:
    return [e.data for e in events(ev, name)]


# -- placing the Battle token ---------------------------------------------------------------


@pytest.mark.rules("TC-BAT-2", "TC-MINOR-1")
def test_battle_token_initiates_a_battle_where_the_defender_has_a_cube() -> None:
    state = new_game()
    put_cube(state, "01", "Azars")
    GAME.apply(state, "BATTLE 01 1")
    p = state.players[BORZON]
    assert (p.battle_sector, p.battle_defender) == ("01", ANOR)
    assert state.decision.kind == "turn"  # a Minor action: the turn goes on


@pytest.mark.rules("TC-BAT-2")
def test_battle_token_against_an_orbital_is_allowed() -> None:
    state = new_game()
    put_orbital(state, "03", ANOR)
    assert "BATTLE 03 1" in {str(a) for a in GAME.legal_actions(state)}


@pytest.mark.rules("TC-BAT-2")
def test_battles_are_outlawed_on_all_planets() -> None:
    state = new_game()
    put_cube(state, "AZAR", "Azars")
    refused(state, "BATTLE AZAR 1", "TC-BAT-2")


@pytest.mark.rules("TC-BAT-3")
def test_two_battle_tokens_cannot_share_a_sector_in_one_round() -> None:
    state = new_game(("Zorhkonian", "Azars", "Xunon"))
    put_cube(state, "01", "Azars")
    GAME.apply(state, "BATTLE 01 1")
    GAME.apply(state, "PASS")
    GAME.apply(state, "PASS")
    assert state.current_player == 2
    refused(state, "BATTLE 01 1", "TC-BAT-3")


@pytest.mark.rules("TC-BAT-2")
def test_battle_token_needs_a_cube_or_orbital_of_the_target_there() -> None:
    state = new_game()
    put_cube(state, "01", "Zorhkonian")
    refused(state, "BATTLE 01 1", "TC-BAT-2")
    refused(state, "BATTLE 01 0", "TC-BAT-2")  # yourself


@pytest.mark.rules("TC-BAT-2", "TC-COMP-2")
def test_one_battle_token_per_round_and_malformed_placements() -> None:
    state = new_game()
    put_cube(state, "01", "Azars")
    put_cube(state, "03", "Azars")
    refused(state, "BATTLE 01", "TC-BAT-2")
    refused(state, "BATTLE 99 1", "TC-BAT-2")
    refused(state, "BATTLE 01 7", "TC-BAT-2")
    refused(state, "BATTLE 01 x", "TC-BAT-2")
    GAME.apply(state, "BATTLE 01 1")
    refused(state, "BATTLE 03 1", "TC-BAT-2")


@pytest.mark.rules("TC-BAT-1", "TC-BAT-3", "TC-BAT-4", "TC-BAT-5", "TC-BAT-9", "TC-BAT-16")
def test_rulebook_example_sector_03_is_resolved_before_sector_01() -> None:
    """Borzon initiates in 01 against Anor, Krenji in 03 against Borzon: 03 goes first."""
    state = new_game(("Zorhkonian", "Azars", "Xunon"))
    put_cube(state, "01", "Azars")
    put_cube(state, "03", "Zorhkonian")
    GAME.apply(state, "BATTLE 01 1")
    GAME.apply(state, "PASS")
    GAME.apply(state, "PASS")
    GAME.apply(state, "BATTLE 03 0")
    GAME.apply(state, "PASS")
    assert state.phase == "battle"
    assert state.battle is not None
    assert (state.battle.sector, state.battle.initiator, state.battle.defender) == ("03", 2, 0)
    assert state.battles == ("01",)
    # Krenji (the Initiator) attacks first: Borzon is asked for shields.
    assert kind(state) == ("battle_shield", 0)
    GAME.apply(state, "RETREAT")
    assert state.battle is not None
    assert (state.battle.sector, state.battle.initiator, state.battle.defender) == ("01", 0, 1)
    assert kind(state) == ("battle_shield", 1)


# -- preparation ---------------------------------------------------------------------------


@pytest.mark.rules("TC-BAT-7", "TC-REC-2", "TC-REC-5")
def test_battle_specialists_are_turned_face_up_initiator_first() -> None:
    state = new_game()
    state.players[BORZON].hand = ["S14", "S01"]  # Battle icon; Enlightenment only
    state.players[ANOR].hand = ["S07"]
    start_battle(state)
    assert kind(state) == ("battle_prepare", BORZON)
    assert {str(a) for a in GAME.legal_actions(state)} == {"PLAY-S S14", "READY"}
    refused(state, "PLAY-S S01", "TC-BAT-7")
    refused(state, "PLAY-S S07", "TC-BAT-7")
    GAME.apply(state, "PLAY-S S14")
    assert state.players[BORZON].face_up == ("S14",)
    assert state.players[BORZON].hand == ["S01"]
    GAME.apply(state, "READY")
    assert kind(state) == ("battle_prepare", ANOR)
    GAME.apply(state, "PLAY-S S07")
    GAME.apply(state, "READY")
    assert kind(state) == ("battle_shield", ANOR)
    # S14: one more attack die; S07: one more shield.
    assert battle.attack_dice(state, BORZON) == 3 + 1
    assert battle.shield_limit(state, ANOR) == 4


@pytest.mark.rules("TC-BAT-7")
def test_no_preparation_without_battle_specialists() -> None:
    state = new_game()
    state.players[BORZON].hand = ["S01"]
    start_battle(state)
    assert kind(state) == ("battle_shield", ANOR)


# -- shields --------------------------------------------------------------------------------


@pytest.mark.rules("TC-BAT-6", "TC-BAT-8", "TC-BAT-9")
def test_captain_anor_assigns_her_three_shields_and_a_fourth_is_refused() -> None:
    """Anor's Shield power is 3: shields on systems 1 (weapons), 2 (shields) and 5 (cargo)."""
    state = new_game()
    start_battle(state)
    assert battle.shield_limit(state, ANOR) == 3
    refused(state, "SHIELD 1,2,4,5", "TC-BAT-6")
    GAME.apply(state, "SHIELD 1,2,5")
    assert state.battle is not None
    assert state.battle.shields["1"] == ["weapons", "shields", "cargo"]
    # The Initiator always takes the first attack.
    assert kind(state) == ("battle_attack", BORZON)


@pytest.mark.rules("TC-BAT-6")
def test_malformed_shields_are_refused() -> None:
    state = new_game()
    start_battle(state)
    for bad in ("SHIELD 1,1", "SHIELD 2,1,2", "SHIELD 7", "SHIELD 0", "SHIELD", "SHIELD 1 2", "SHIELD 1,,2"):
        refused(state, bad, "TC-BAT-6")
    GAME.apply(state, "SHIELD -")
    assert state.battle is not None
    assert state.battle.shields["1"] == []


@pytest.mark.rules("TC-BAT-6")
def test_shields_are_limited_by_the_action_markers_left() -> None:
    state = new_game()
    state.players[ANOR].markers_lost = 2
    start_battle(state)
    assert battle.shield_limit(state, ANOR) == 2
    refused(state, "SHIELD 1,2,5", "TC-BAT-6")


@pytest.mark.rules("TC-BAT-6", "TC-DMG-1")
def test_shields_are_limited_by_the_damaged_shields_power() -> None:
    state = new_game()
    state.players[ANOR].damage = FrozenDict({"shields": 2})
    start_battle(state)
    assert battle.shield_limit(state, ANOR) == 1
    refused(state, "SHIELD 1,2", "TC-BAT-6")


# -- the attack -------------------------------------------------------------------------------


@pytest.mark.rules("TC-BAT-10", "TC-BAT-11", "TC-BAT-12", "TC-BAT-13", "TC-BAT-14")
def test_shields_and_counter_defense_block_hits() -> None:
    state = new_game()
    start_battle(state)
    GAME.apply(state, "SHIELD 1,2,5")
    # Borzon's weapons power 3: dice 1, 3, 4. The 1 hits a shield; 3 and 4 get through.
    # Anor's computers power 2: counter-defense 3 and 6 blocks the 3; the 4 hits propulsion.
    state.rng.script_dice([1, 3, 4, 3, 6])
    ev = GAME.apply(state, "ATTACK")
    assert data(ev, "attack")[0]["through"] == [3, 4]
    assert data(ev, "counter_defense")[0]["dice"] == [3, 6]
    assert state.players[ANOR].damage == {"propulsion": 1}
    assert state.rng.dice_script == ()
    # No system fell: Anor attacks next, and Borzon reassigns his shields first.
    assert state.battle is not None and state.battle.winner is None
    assert state.battle.attacker == ANOR
    assert kind(state) == ("battle_shield", BORZON)
    GAME.apply(state, "SHIELD 1,3")
    assert kind(state) == ("battle_attack", ANOR)


@pytest.mark.rules("TC-BAT-13")
def test_a_counter_defense_number_blocks_every_hit_showing_it() -> None:
    state = new_game()
    start_battle(state)
    GAME.apply(state, "SHIELD -")
    state.rng.script_dice([4, 4, 6, 4, 1])
    GAME.apply(state, "ATTACK")
    assert state.players[ANOR].damage == {"sensors": 1}


@pytest.mark.rules("TC-BAT-11", "TC-BAT-12")
def test_no_counter_defense_roll_when_every_die_is_shielded() -> None:
    state = new_game()
    start_battle(state)
    GAME.apply(state, "SHIELD 1,2,5")
    state.rng.script_dice([1, 2, 5])
    ev = GAME.apply(state, "ATTACK")
    assert events(ev, "counter_defense") == []
    assert state.players[ANOR].damage == {}


@pytest.mark.rules("TC-BAT-15", "TC-BAT-17")
def test_destroying_one_system_wins_the_battle() -> None:
    state = new_game()
    put_cube(state, "01", "Azars")
    energy = state.players[ANOR].energy
    start_battle(state)
    GAME.apply(state, "SHIELD 2,5")
    # Weapons (power 1) takes a hit that the counter-defense (2, 3) does not block: destroyed.
    state.rng.script_dice([1, 4, 6, 2, 3])
    ev = GAME.apply(state, "ATTACK")
    assert state.players[ANOR].damage == {"weapons": 1, "propulsion": 1, "sensors": 1}
    assert data(ev, "battle_won") == [{"sector": "01", "winner": BORZON, "loser": ANOR, "retreated": False}]
    assert state.players[ANOR].energy == energy - 1
    assert len(state.players[BORZON].gp_tokens) == 1
    assert state.content.gp_token(state.players[BORZON].gp_tokens[0]).gp == 1
    assert kind(state) == ("battle_takeover", BORZON)


@pytest.mark.rules("TC-BAT-15", "TC-DMG-1")
def test_a_system_destroyed_before_the_battle_does_not_win_it() -> None:
    state = new_game()
    state.players[ANOR].damage = FrozenDict({"cargo": 2})  # cargo power 2: already destroyed
    start_battle(state)
    GAME.apply(state, "SHIELD -")
    state.rng.script_dice([5, 5, 5, 1, 2])
    GAME.apply(state, "ATTACK")
    assert state.players[ANOR].damage == {"cargo": 5}  # further damage still lands on it
    assert state.battle is not None and state.battle.winner is None
    assert kind(state) == ("battle_shield", BORZON)


@pytest.mark.rules("TC-BAT-14", "TC-BAT-15")
def test_the_defender_can_win_on_the_counter_attack() -> None:
    state = new_game()
    start_battle(state)
    GAME.apply(state, "SHIELD -")
    state.rng.script_dice([6, 6, 6, 6, 1])  # all blocked by the counter-defense 6
    GAME.apply(state, "ATTACK")
    GAME.apply(state, "SHIELD 1,2")
    state.rng.script_dice([5, 1, 1])  # Anor's 1 die hits Borzon's cargo (power 1)
    ev = GAME.apply(state, "ATTACK")
    assert state.players[BORZON].damage == {"cargo": 1}
    assert data(ev, "battle_won")[0]["winner"] == ANOR


@pytest.mark.rules("TC-BAT-14")
def test_a_battle_without_weapons_on_either_side_ends_without_a_winner() -> None:
    state = new_game()
    state.players[BORZON].damage = FrozenDict({"weapons": 3})
    state.players[ANOR].damage = FrozenDict({"weapons": 1})
    gp = state.gp_supply
    ev = start_battle(state)
    assert len(events(ev, "battle_undecided")) == 1
    assert state.battle is None
    assert state.gp_supply == gp
    assert state.phase != "battle"


@pytest.mark.rules("TC-BAT-14")
def test_an_empty_damage_supply_ends_the_battle_without_a_winner() -> None:
    state = new_game()
    state.damage_supply = 0
    ev = start_battle(state)
    assert len(events(ev, "battle_undecided")) == 1
    assert state.battle is None


@pytest.mark.rules("TC-BAT-10")
def test_attack_decision_refuses_anything_but_attack_or_retreat() -> None:
    state = new_game()
    start_battle(state)
    GAME.apply(state, "SHIELD -")
    refused(state, "SHIELD 1", "TC-BAT-10")
    refused(state, "ATTACK 3", "TC-BAT-10")


# -- retreat ------------------------------------------------------------------------------------


@pytest.mark.rules("TC-BAT-16", "TC-BAT-17")
def test_a_retreating_defender_loses_no_energy_and_nothing_is_stolen() -> None:
    state = new_game()
    put_cube(state, "01", "Azars")
    anor = state.players[ANOR]
    anor.hand = ["C05"]
    anor.knowledge = anor.knowledge.set("Chemical", 1)
    energy = anor.energy
    start_battle(state)
    ev = GAME.apply(state, "RETREAT")
    assert data(ev, "battle_won")[0] == {"sector": "01", "winner": BORZON, "loser": ANOR, "retreated": True}
    assert anor.energy == energy
    assert anor.hand == ["C05"] and anor.knowledge["Chemical"] == 1
    assert state.cubes["01"] == ["Azars"]
    # The winner of the battle ALWAYS earns a 1GP token.
    assert len(state.players[BORZON].gp_tokens) == 1
    assert state.battle is None
    assert state.phase != "battle"


@pytest.mark.rules("TC-BAT-16")
def test_a_retreating_attacker_loses_the_battle() -> None:
    state = new_game()
    energy = state.players[BORZON].energy
    start_battle(state)
    GAME.apply(state, "SHIELD -")
    ev = GAME.apply(state, "RETREAT")
    assert data(ev, "battle_won")[0]["winner"] == ANOR
    assert state.players[BORZON].energy == energy
    assert len(state.players[ANOR].gp_tokens) == 1


@pytest.mark.rules("TC-BAT-17")
def test_the_1gp_token_is_the_first_one_in_the_supply() -> None:
    state = new_game()
    ones = [g for g in state.gp_supply if state.content.gp_token(g).gp == 1]
    start_battle(state)
    GAME.apply(state, "RETREAT")
    assert state.players[BORZON].gp_tokens == (ones[0],)
    assert ones[0] not in state.gp_supply


@pytest.mark.rules("TC-BAT-17")
def test_no_1gp_token_left_means_no_token() -> None:
    state = new_game()
    state.gp_supply = tuple(g for g in state.gp_supply if state.content.gp_token(g).gp != 1)
    start_battle(state)
    ev = GAME.apply(state, "RETREAT")
    assert len(events(ev, "no_gp_token")) == 1
    assert state.players[BORZON].gp_tokens == ()


@pytest.mark.rules("TC-BAT-15")
def test_the_loser_never_goes_below_zero_energy() -> None:
    state = new_game()
    state.players[ANOR].energy = 0
    start_battle(state)
    GAME.apply(state, "SHIELD -")
    state.rng.script_dice([1, 1, 1, 2, 3])
    ev = GAME.apply(state, "ATTACK")
    assert state.players[ANOR].energy == 0
    assert data(ev, "battle_energy")[0]["energy"] == 0


# -- takeover and steal --------------------------------------------------------------------------


def win_for_borzon(state: State) -> list[Event]:
    """Borzon hits Anor's weapons (power 1) with no shield and no counter-defense match."""
    start_battle(state)
    GAME.apply(state, "SHIELD -")
    state.rng.script_dice([1, 1, 1, 2, 3])
    return GAME.apply(state, "ATTACK")


@pytest.mark.rules("TC-BAT-18")
def test_takeover_of_a_resource_cube() -> None:
    state = new_game()
    put_cube(state, "01", "Azars")
    bag_z, bag_a = state.bag.count("Zorhkonian"), state.bag.count("Azars")
    win_for_borzon(state)
    assert kind(state) == ("battle_takeover", BORZON)
    refused(state, "TAKEOVER orbital", "TC-BAT-18")
    GAME.apply(state, "TAKEOVER cube")
    assert state.cubes["01"] == ["Zorhkonian"]
    assert state.bag.count("Zorhkonian") == bag_z - 1
    assert state.bag.count("Azars") == bag_a + 1
    assert state.battle is None


@pytest.mark.rules("TC-BAT-18")
def test_takeover_of_an_orbital() -> None:
    state = new_game()
    put_orbital(state, "01", ANOR)
    win_for_borzon(state)
    refused(state, "TAKEOVER cube", "TC-BAT-18")
    GAME.apply(state, "TAKEOVER orbital")
    assert state.orbitals["01"] == [BORZON]
    assert state.players[BORZON].orbitals_home == 3
    assert state.players[ANOR].orbitals_home == 4


@pytest.mark.rules("TC-BAT-18", "TC-CLAIM-3")
def test_takeover_of_a_cube_needs_a_cube_the_winner_may_take_out_of_the_bag() -> None:
    state = new_game()
    put_cube(state, "01", "Azars")
    put_orbital(state, "01", ANOR)
    for sector in ("03", "04", "05", "07"):  # four Zorhkonian cubes already out
        put_cube(state, sector, "Zorhkonian")
    win_for_borzon(state)
    refused(state, "TAKEOVER cube", "TC-CLAIM-3")
    refused(state, "TAKEOVER planet", "TC-BAT-18")
    GAME.apply(state, "TAKEOVER none")
    assert state.cubes["01"] == ["Azars"] and state.orbitals["01"] == [ANOR]


@pytest.mark.rules("TC-BAT-18")
def test_nothing_to_take_over_skips_the_takeover() -> None:
    state = new_game()
    state.players[ANOR].hand = ["C05"]
    ev = win_for_borzon(state)
    assert len(events(ev, "no_takeover")) == 1
    assert kind(state) == ("battle_steal", BORZON)


@pytest.mark.rules("TC-BAT-19", "TC-BAT-20")
def test_steal_a_card_after_looking_at_the_losers_hand() -> None:
    state = new_game()
    put_cube(state, "01", "Azars")
    state.players[ANOR].hand = ["C05", "S01"]
    ev = win_for_borzon(state)
    [look] = events(ev, "loser_hand_private")
    assert look.visible_to == frozenset({BORZON})
    assert look.data["hand"] == ["C05", "S01"]
    GAME.apply(state, "TAKEOVER cube")
    assert kind(state) == ("battle_steal", BORZON)
    refused(state, "STEAL card S02", "TC-BAT-20")
    ev = GAME.apply(state, "STEAL card S01")
    assert state.players[BORZON].hand == ["S01"]
    assert state.players[ANOR].hand == ["C05"]
    [secret] = events(ev, "steal_private")
    assert secret.visible_to == frozenset({BORZON, ANOR}) and secret.data["stolen"] == "S01"
    assert all("S01" not in e.text for e in ev if e.visible_to is None)


@pytest.mark.rules("TC-BAT-21")
def test_steal_a_knowledge_token() -> None:
    state = new_game()
    state.players[ANOR].knowledge = state.players[ANOR].knowledge.set("Chemical", 2)
    win_for_borzon(state)
    refused(state, "STEAL knowledge Cosmic", "TC-BAT-21")
    GAME.apply(state, "STEAL knowledge Chemical")
    assert state.players[ANOR].knowledge["Chemical"] == 1
    assert state.players[BORZON].knowledge["Chemical"] == 1


@pytest.mark.rules("TC-BAT-22")
def test_steal_the_cube_in_the_cargo_hold() -> None:
    state = new_game()
    state.bag.remove("Azars")
    state.players[ANOR].cargo_cube = True
    bag_a = state.bag.count("Azars")
    win_for_borzon(state)
    assert {str(a) for a in GAME.legal_actions(state)} == {"STEAL cube", "STEAL none"}
    GAME.apply(state, "STEAL cube")
    assert not state.players[ANOR].cargo_cube
    assert state.bag.count("Azars") == bag_a + 1


@pytest.mark.rules("TC-BAT-19", "TC-BAT-22")
def test_steal_nothing_and_malformed_steals() -> None:
    state = new_game()
    state.players[ANOR].hand = ["C05"]
    win_for_borzon(state)
    for bad in ("STEAL", "STEAL card", "STEAL none C05", "STEAL gold C05", "TAKEOVER none"):
        refused(state, bad, "TC-BAT-19")
    refused(state, "STEAL cube", "TC-BAT-22")  # Anor carries no Resource cube
    GAME.apply(state, "STEAL none")
    assert state.players[ANOR].hand == ["C05"]
    assert state.battle is None


@pytest.mark.rules("TC-BAT-19")
def test_nothing_to_steal_and_nothing_to_take_over_ends_the_battle() -> None:
    state = new_game()
    win_for_borzon(state)
    assert state.battle is None
    assert state.phase != "battle"


def test_every_legal_battle_action_is_in_the_action_space() -> None:
    state = new_game()
    put_cube(state, "01", "Azars")
    state.players[BORZON].hand = ["S14"]
    state.players[ANOR].hand = ["C05"]
    state.players[ANOR].knowledge = state.players[ANOR].knowledge.set("Cosmic", 1)
    space = GAME.action_space(state)
    start_battle(state)
    seen = set()
    for action in ("PLAY-S S14", "READY", "SHIELD 1,2,5", "ATTACK", "TAKEOVER cube", "STEAL none"):
        if action == "ATTACK":
            state.rng.script_dice([1, 3, 3, 2, 4])  # 3 hits computers twice: destroyed
        seen.add(state.decision.kind)
        assert all(a in space for a in GAME.legal_actions(state))
        GAME.apply(state, action)
    assert seen == {"battle_prepare", "battle_shield", "battle_attack", "battle_takeover", "battle_steal"}
