"""Build (BUI), Recruit (REC), Sell/Buy (S/B), Reverse Engineer (ENG) and Upgrade (UPG).

Commodity tokens: Q01-Q03 quark-gluon plasma (Military), Q04-Q06 nano processors
(Technology), Q07-Q09 octo-nanofluid (Logistics), Q10-Q12 Xunari algae (Agriculture),
Q13-Q15 Zuron ore (Industry), Q16-Q18 antiviral serum (Science). Propulsion System Upgrade
tokens: Y10 (level 2), Y11 (level 3), Y12 (level 4).
"""

from __future__ import annotations

import pytest

from ecliptic.tauceti import ship
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import Holding, State
from tauceti_checks import legal, refused

GAME = TauCeti()
ME = 0


def new_game(first: str, other: str = "Xunon") -> State:
    """A preset 2-player game where ``first`` (seat 0) is on turn with plenty of energy."""
    state = GAME.new_game({"layout": "preset", "players": 2, "factions": [first, other]}, 1)
    state.players[ME].energy = 10
    home = state.faction(ME).home_planet
    set_tokens(state, home, "Q18", ["Q16", "Q17"])
    return state


def set_tokens(state: State, planet: str, on_planet: str, demand_pile: list[str]) -> None:
    """Put known Commodity tokens on ``planet`` and in the Demand pile; the other planets get
    quark-gluon plasma (Q01-Q03) and every other token is in the Supply pile."""
    everything = [f"Q{i:02d}" for i in range(1, 19)]
    spare = iter(t for t in everything if t != on_planet and t not in demand_pile)
    for p in sorted(state.planet_commodity):
        state.planet_commodity = state.planet_commodity.set(p, on_planet if p == planet else next(spare))
    state.demand_pile = tuple(demand_pile)
    used = {*state.planet_commodity.values(), *demand_pile}
    state.supply = tuple(t for t in everything if t not in used)


def hold(state: State, token: str, quantity: int, engineered: bool = False) -> None:
    state.supply = tuple(x for x in state.supply if x != token)
    state.players[ME].holdings += (Holding(token, quantity, engineered),)


# -- Build -------------------------------------------------------------------------------


def oxoroi_with_cube_in(sector: str) -> State:
    state = new_game("Triolor")
    state.bag.remove("Triolor")
    state.cubes.setdefault(sector, []).append("Triolor")
    return state


@pytest.mark.rules("TC-BUI-1", "TC-BUI-2", "TC-BUI-3", "TC-BUI-5", "TC-MAT-1", "TC-ECON-1", "TC-ORB-1", "TC-CUBE-1")
def test_captain_oxoroi_pays_4t_to_build_with_technology_at_level_2() -> None:
    state = oxoroi_with_cube_in("09")
    state.market = state.market.set("Technology", 2)
    p = state.players[ME]
    tau, materials, energy = p.tau, p.materials, p.energy
    assert "BUI 09" in legal(state)
    GAME.apply(state, "BUI 09")
    assert p.tau == tau - 4
    assert p.materials == materials - 1
    assert p.energy == energy - state.faction(ME).action_costs["BUI"]
    assert p.orbitals_home == 3
    assert state.orbitals["09"] == [ME]
    assert "Triolor" not in state.cubes["09"]
    assert state.cubes["TRIOLO"] == ["Triolor"]


@pytest.mark.parametrize(("level", "cost"), [(1, 2), (3, 6), (4, 8)])
@pytest.mark.rules("TC-BUI-2")
def test_build_costs_2_x_the_market_level_of_the_comparative_advantage(level: int, cost: int) -> None:
    state = oxoroi_with_cube_in("09")
    state.market = state.market.set("Technology", level)
    state.market = state.market.set("Industry", 4)  # the secondary skill set does not count
    tau = state.players[ME].tau
    GAME.apply(state, "BUI 09")
    assert state.players[ME].tau == tau - cost


@pytest.mark.rules("TC-BUI-3")
def test_build_refused_without_a_resource_cube_in_the_sector() -> None:
    state = oxoroi_with_cube_in("09")
    refused(state, "BUI 01", "TC-BUI-3")


@pytest.mark.rules("TC-BUI-1", "TC-BUI-3")
def test_build_refused_on_a_planet_or_an_unknown_tile() -> None:
    state = oxoroi_with_cube_in("09")
    refused(state, "BUI XUNO", "TC-BUI-3")
    refused(state, "BUI 99", "TC-BUI-3")
    refused(state, "BUI", "TC-BUI-3")


@pytest.mark.rules("TC-BUI-3")
def test_build_refused_with_no_orbital_left_on_the_planet() -> None:
    state = oxoroi_with_cube_in("09")
    state.players[ME].orbitals_home = 0
    state.orbitals = {"01": [ME, ME], "02": [ME, ME]}
    refused(state, "BUI 09", "TC-BUI-3")


@pytest.mark.rules("TC-BUI-2")
def test_build_refused_when_the_materials_marker_is_left_most() -> None:
    state = oxoroi_with_cube_in("09")
    state.players[ME].materials = 0
    refused(state, "BUI 09", "TC-BUI-2")


@pytest.mark.rules("TC-BUI-2")
def test_build_refused_without_enough_tau() -> None:
    state = oxoroi_with_cube_in("09")
    state.market = state.market.set("Technology", 2)
    state.players[ME].tau = 3
    refused(state, "BUI 09", "TC-BUI-2")


# -- Recruit -----------------------------------------------------------------------------


@pytest.mark.parametrize("materials", [0, 3, 6])
@pytest.mark.rules("TC-REC-4", "TC-TAU-1")
def test_recruit_cost_is_the_number_right_of_the_materials_marker(materials: int) -> None:
    state = new_game("Azars")
    p = state.players[ME]
    p.materials = materials
    p.tau = 20
    GAME.apply(state, "REC")
    assert p.tau == 20 - state.faction(ME).materials_track[materials]


@pytest.mark.rules("TC-REC-1", "TC-REC-4")
def test_recruit_draws_one_specialist_and_one_crisis_card() -> None:
    state = new_game("Azars")
    specialist, crisis = state.specialist_deck[0], state.crisis_deck[0]
    hand = list(state.players[ME].hand)
    events = GAME.apply(state, "REC")
    assert state.players[ME].hand == [*hand, specialist, crisis]
    private = [e for e in events if e.kind == "recruit_private"]
    assert private[0].visible_to == frozenset({ME}) and private[0].data["drawn"] == [specialist, crisis]
    public = [e for e in events if e.kind == "recruit"]
    assert public[0].visible_to is None and public[0].data["count"] == 2


@pytest.mark.rules("TC-ASSIST-2")
def test_a_diplomacy_card_draws_two_specialists_instead() -> None:
    state = new_game("Azars")
    state.players[ME].diplomacy = True
    state.diplomacy_left -= 1
    first, second = state.specialist_deck[:2]
    crisis_deck = state.crisis_deck
    GAME.apply(state, "REC")
    assert state.players[ME].hand[-2:] == [first, second]
    assert state.crisis_deck == crisis_deck


@pytest.mark.rules("TC-UPG-1", "TC-REC-4")
def test_an_upgrade_lowers_the_recruit_cost() -> None:
    state = new_game("Azars")
    p = state.players[ME]
    before = state.faction(ME).materials_track[p.materials]
    p.free_upgrades = 1
    GAME.apply(state, "UPG weapons free")
    GAME.apply(state, "END")
    GAME.apply(state, "PASS")
    p.tau = 20
    GAME.apply(state, "REC")
    assert p.tau == 20 - (before - 1)


@pytest.mark.rules("TC-REC-4")
def test_recruit_refused_without_enough_tau() -> None:
    state = new_game("Azars")
    state.players[ME].tau = 1
    refused(state, "REC", "TC-REC-4")


# -- Sell/Buy ----------------------------------------------------------------------------


def krenji_on_xuno(in_demand: str = "Q10") -> State:
    """Dr. Krenji (Xunon) on planet Xuno, where ``in_demand`` is the Commodity token."""
    state = new_game("Xunon", "Azars")
    state.players[ME].tau = 30
    set_tokens(state, "XUNO", in_demand, ["Q16", "Q07"])
    state.market = state.market.set("Agriculture", 3)
    state.market = state.market.set("Industry", 2)
    return state


@pytest.mark.rules("TC-SB-2", "TC-SB-3", "TC-SB-4", "TC-SB-5", "TC-SB-6", "TC-SB-7", "TC-TAU-1")
def test_buying_what_is_not_in_demand_costs_market_level_x_1_x_quantity() -> None:
    state = krenji_on_xuno(in_demand="Q13")  # Zuron ore in demand
    GAME.apply(state, "BUY algae 3")
    assert state.players[ME].tau == 30 - 3 * 1 * 3
    assert state.players[ME].holdings == (Holding("Q10", 3),)
    assert "Q10" not in state.supply


@pytest.mark.rules("TC-SB-4", "TC-SB-6", "TC-SB-7")
def test_buying_what_is_in_demand_costs_market_level_x_2_x_quantity() -> None:
    state = krenji_on_xuno(in_demand="Q10")  # Xunari algae in demand
    GAME.apply(state, "BUY algae 3")
    assert state.players[ME].tau == 30 - 3 * 2 * 3
    assert state.players[ME].holdings == (Holding("Q11", 3),)


@pytest.mark.rules("TC-SB-8")
def test_buying_swaps_the_planets_token_with_one_from_the_demand_pile() -> None:
    state = krenji_on_xuno(in_demand="Q10")
    state.rng.script_choices([1])
    GAME.apply(state, "BUY algae 1")
    assert state.planet_commodity["XUNO"] == "Q07"
    assert sorted(state.demand_pile) == ["Q10", "Q16"]


@pytest.mark.rules("TC-SB-8")
def test_the_log_says_what_the_demand_became_and_that_a_token_of_the_same_commodity_changes_nothing() -> None:
    """Three tokens show each commodity: a token drawn from the Demand pile may show the commodity
    of the one it replaces, and then the demand did not change (the log said it did)."""
    state = krenji_on_xuno(in_demand="Q10")  # Xunari algae in demand
    state.demand_pile = ("Q11", "Q16")  # another algae token, and one of something else
    state.rng.script_choices([0])
    said = [e.text for e in GAME.apply(state, "BUY algae 1") if e.kind == "demand"]
    assert state.planet_commodity["XUNO"] == "Q11"
    assert said == ["The demand on Xuno is drawn again: Xunari algae stays in demand."]
    state = krenji_on_xuno(in_demand="Q10")
    state.rng.script_choices([1])
    said = [e.text for e in GAME.apply(state, "BUY algae 1") if e.kind == "demand"]
    assert state.planet_commodity["XUNO"] == "Q07"
    assert said == ["The demand on Xuno changes: octo-nanofluid is now in demand instead of Xunari algae."]


@pytest.mark.rules("TC-SB-2", "TC-SB-4", "TC-SB-9", "TC-SB-10", "TC-SB-11", "TC-TAU-1")
def test_selling_pays_market_level_x_demand_x_quantity_and_changes_demand_once() -> None:
    state = krenji_on_xuno(in_demand="Q10")
    state.players[ME].tau = 10
    hold(state, "Q11", 3)
    hold(state, "Q14", 2)
    hold(state, "Q04", 3, engineered=True)
    GAME.apply(state, "SELL")
    assert state.decision.kind == "sell"
    assert legal(state) == {"SELL algae", "SELL ore"}
    GAME.apply(state, "SELL algae")
    assert state.players[ME].tau == 10 + 3 * 2 * 3
    assert state.planet_commodity["XUNO"] == "Q10"  # the demand has not changed yet
    assert "Q11" in state.supply
    assert legal(state) == {"SELL ore", "DONE"}
    state.rng.script_choices([0])
    GAME.apply(state, "SELL ore")  # nothing left to sell: the action ends by itself
    assert state.players[ME].tau == 10 + 18 + 2 * 1 * 2
    assert state.decision.kind == "turn"
    assert state.planet_commodity["XUNO"] == "Q16"
    assert sorted(state.demand_pile) == ["Q07", "Q10"]
    assert state.players[ME].holdings == (Holding("Q04", 3, True),)


@pytest.mark.rules("TC-SB-10")
def test_selling_uses_the_demand_of_when_the_action_began() -> None:
    state = krenji_on_xuno(in_demand="Q10")
    hold(state, "Q11", 2)
    hold(state, "Q13", 1)
    GAME.apply(state, "SELL")
    state.planet_commodity = state.planet_commodity.set("XUNO", state.demand_pile[0])
    state.demand_pile = ("Q10", *state.demand_pile[1:])
    GAME.apply(state, "SELL algae")
    assert state.players[ME].tau == 30 + 3 * 2 * 2


@pytest.mark.rules("TC-SB-10", "TC-SB-11")
def test_done_ends_selling_and_changes_the_demand() -> None:
    state = krenji_on_xuno(in_demand="Q10")
    hold(state, "Q11", 2)
    hold(state, "Q13", 1)
    GAME.apply(state, "SELL")
    refused(state, "DONE", "TC-SB-10")
    GAME.apply(state, "SELL ore")
    state.rng.script_choices([1])
    GAME.apply(state, "DONE")
    assert state.decision.kind == "turn"
    assert state.planet_commodity["XUNO"] == "Q07"
    assert len(state.demand_pile) == 2
    assert state.players[ME].holdings == (Holding("Q11", 2),)


@pytest.mark.rules("TC-SB-1")
def test_sell_buy_refused_when_not_on_a_planet() -> None:
    state = krenji_on_xuno()
    hold(state, "Q11", 2)
    state.players[ME].position = "05"
    refused(state, "BUY algae 1", "TC-SB-1")
    refused(state, "SELL", "TC-SB-1")


@pytest.mark.rules("TC-SB-6")
def test_buying_five_units_is_refused() -> None:
    state = krenji_on_xuno()
    refused(state, "BUY algae 5", "TC-SB-6")
    refused(state, "BUY algae 0", "TC-SB-6")
    refused(state, "BUY algae x", "TC-SB-6")


@pytest.mark.rules("TC-SB-5")
def test_buying_an_unknown_commodity_is_refused() -> None:
    state = krenji_on_xuno()
    refused(state, "BUY spice 1", "TC-SB-5")
    refused(state, "BUY algae", "TC-SB-5")


@pytest.mark.rules("TC-SB-6", "TC-SB-7")
def test_buy_refusals_token_held_supply_empty_and_tau() -> None:
    state = krenji_on_xuno(in_demand="Q10")
    hold(state, "Q11", 1)
    refused(state, "BUY algae 1", "TC-SB-6")
    state = krenji_on_xuno(in_demand="Q10")
    state.supply = tuple(x for x in state.supply if x != "Q11")
    state.supply = tuple(x for x in state.supply if x != "Q12")
    state.players[1].holdings = (Holding("Q11", 1), Holding("Q12", 1))
    refused(state, "BUY algae 1", "TC-SB-7")
    state = krenji_on_xuno(in_demand="Q10")
    state.players[ME].tau = 17
    refused(state, "BUY algae 3", "TC-SB-6")


@pytest.mark.rules("TC-SB-10")
def test_selling_with_nothing_to_sell_is_refused() -> None:
    state = krenji_on_xuno()
    hold(state, "Q04", 3, engineered=True)
    refused(state, "SELL", "TC-SB-10")


# -- Reverse Engineer and Upgrade ----------------------------------------------------------


def anor_with_nano(quantity: int = 3, engineered: bool = True) -> State:
    state = new_game("Azars")
    hold(state, "Q04", quantity, engineered)
    return state


@pytest.mark.rules("TC-ENG-3")
def test_reverse_engineering_marks_the_commodity_token() -> None:
    state = anor_with_nano(engineered=False)
    assert "ENG nano" in legal(state)
    GAME.apply(state, "ENG nano")
    assert state.players[ME].holdings == (Holding("Q04", 3, engineered=True),)


@pytest.mark.rules("TC-ENG-2")
def test_xunari_algae_cannot_be_reverse_engineered() -> None:
    state = new_game("Azars")
    hold(state, "Q10", 2)
    refused(state, "ENG algae", "TC-ENG-2")


@pytest.mark.rules("TC-ENG-2", "TC-ENG-3")
def test_reverse_engineering_needs_the_commodity_not_yet_engineered() -> None:
    state = new_game("Azars")
    refused(state, "ENG nano", "TC-ENG-2")
    refused(state, "ENG spice", "TC-ENG-3")
    state = anor_with_nano(engineered=True)
    refused(state, "ENG nano", "TC-ENG-3")


@pytest.mark.rules("TC-UPG-2", "TC-UPG-4", "TC-ENG-4", "TC-MAT-1")
def test_captain_anor_upgrades_propulsion_with_a_level_3_token() -> None:
    state = anor_with_nano(3)
    p = state.players[ME]
    materials = p.materials
    assert "UPG propulsion nano" in legal(state)
    GAME.apply(state, "UPG propulsion nano")
    assert p.systems_tokens["propulsion"] == "Y11"
    assert ship.power(state, ME, "propulsion") == 3
    assert "Y11" not in state.depot_systems
    assert p.materials == materials + 1
    assert p.holdings == ()
    assert "Q04" in state.supply


@pytest.mark.rules("TC-UPG-4")
def test_if_the_level_is_gone_the_next_lowest_token_is_taken() -> None:
    state = anor_with_nano(3)
    state.depot_systems = tuple(x for x in state.depot_systems if x != "Y11")
    state.players[1].systems_tokens = state.players[1].systems_tokens.set("propulsion", "Y11")
    GAME.apply(state, "UPG propulsion nano")
    assert state.players[ME].systems_tokens["propulsion"] == "Y10"


@pytest.mark.rules("TC-UPG-3")
def test_damage_stays_on_an_upgraded_system() -> None:
    state = anor_with_nano(3)
    p = state.players[ME]
    p.damage = p.damage.set("propulsion", 1)
    state.damage_supply -= 1
    GAME.apply(state, "UPG propulsion nano")
    assert p.damage["propulsion"] == 1
    assert ship.effective(state, ME, "propulsion") == 2


@pytest.mark.rules("TC-UPG-2")
def test_the_replaced_token_goes_back_to_the_galactic_depot() -> None:
    state = anor_with_nano(4)
    p = state.players[ME]
    state.depot_systems = tuple(x for x in state.depot_systems if x != "Y10")
    p.systems_tokens = p.systems_tokens.set("propulsion", "Y10")
    GAME.apply(state, "UPG propulsion nano")
    assert p.systems_tokens["propulsion"] == "Y12"
    assert "Y10" in state.depot_systems


@pytest.mark.rules("TC-UPG-5")
def test_upgrade_refused_with_a_commodity_that_does_not_upgrade_that_system() -> None:
    state = anor_with_nano(3)
    refused(state, "UPG weapons nano", "TC-UPG-5")


@pytest.mark.rules("TC-ENG-1", "TC-UPG-2", "TC-UPG-4")
def test_upgrade_refusals_not_engineered_unknown_and_no_token() -> None:
    state = anor_with_nano(3, engineered=False)
    refused(state, "UPG propulsion nano", "TC-ENG-1")
    refused(state, "UPG engines nano", "TC-UPG-2")
    refused(state, "UPG propulsion spice", "TC-UPG-2")
    refused(state, "UPG weapons free", "TC-ENG-1")
    state = anor_with_nano(1)  # no level-1 token exists
    refused(state, "UPG propulsion nano", "TC-UPG-4")


@pytest.mark.rules("TC-UPG-1")
def test_upgrade_refused_when_the_token_would_lower_the_power() -> None:
    state = anor_with_nano(2)
    p = state.players[ME]
    state.depot_systems = tuple(x for x in state.depot_systems if x != "Y12")
    p.systems_tokens = p.systems_tokens.set("propulsion", "Y12")
    refused(state, "UPG propulsion nano", "TC-UPG-1")


@pytest.mark.rules("TC-TRADE-5")
def test_a_free_upgrade_from_a_gp_token_gives_one_level_more() -> None:
    state = new_game("Azars")
    p = state.players[ME]
    p.free_upgrades = 1
    GAME.apply(state, "UPG weapons free")  # weapons power 1 -> level 2 token
    assert p.systems_tokens["weapons"] == "Y01"
    assert p.free_upgrades == 0


@pytest.mark.rules("TC-ENG-1")
def test_an_interface_exemption_upgrades_without_engineering_for_free() -> None:
    state = new_game("Triolor")
    p = state.players[ME]
    assert "UPG computers free" in legal(state)
    assert "UPG weapons free" not in legal(state)
    GAME.apply(state, "UPG computers free")  # computers power 3 -> level 4 token
    assert p.systems_tokens["computers"] == "Y09"
    assert p.free_upgrades == 0


@pytest.mark.rules("TC-UPG-2")
def test_upgrading_with_the_materials_marker_right_most_leaves_it_there() -> None:
    state = anor_with_nano(3)
    p = state.players[ME]
    right_most = len(state.faction(ME).materials_track) - 1
    p.materials = right_most
    GAME.apply(state, "UPG propulsion nano")
    assert p.materials == right_most
    assert p.systems_tokens["propulsion"] == "Y11"
