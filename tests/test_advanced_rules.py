"""Advanced Rules 1, 2, 3, 7, 8 and 9, and the Advanced Specialists (stand-ins S43-S48).

Each rule is tested switched on and switched off (the base game unchanged). Situations are
reached with a scripted bag draw, stacked decks and Crisis token stacks, or state fields.

Content used: C01 Biohazard (bottom: every player loses 1 energy), C02 Cosmic (+2 energy),
C03 Political (-2 TAU), C04 Chemical (1 damage), C05 Geological (Industry +1 level),
C10 Cosmic (1 damage); X01 Biohazard/Science, X06 Chemical/Industry, X12 Cosmic/Military,
X15 Geological/Military, X16 Geological/Science; S15 Astrophysicist, S01 Virologist.
Advanced Specialists: S43 Virologist and S46 Geologist (resolve any crisis), S44 Chemist
(+1 Science), S45 Astrophysicist (battle only, +2 computers), S47 Engineer (A and B, +1
weapons), S48 Diplomat (+1 Logistics).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from ecliptic.engine.actions import Action
from ecliptic.engine.events import Event
from ecliptic.engine.frozendict import FrozenDict
from ecliptic.tauceti import battle, checks, flow, scoring, ship
from ecliptic.tauceti.content import default_content, describe_effect
from ecliptic.tauceti.decks import without
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.invariants import problems
from ecliptic.tauceti.state import State
from tauceti_checks import legal, refused

GAME = TauCeti()
ADVANCED_SPECIALISTS = ["S43", "S44", "S45", "S46", "S47", "S48"]


def new_game(factions: tuple[str, ...] = ("Xunon", "Azars"), advanced: tuple[int, ...] = (),
             specialists: bool = False, seed: int = 7) -> State:
    config: dict[str, Any] = {"layout": "preset", "players": len(factions),
                              "factions": list(factions), "advanced": list(advanced),
                              "advanced_specialists": specialists}
    return GAME.new_game(config, seed)


def token_on_top(state: State, token: str) -> None:
    ctype = state.content.crisis_token(token).crisis_type
    state.crisis_stacks[ctype] = (token, *without(state.crisis_stacks[ctype], token))


def to_enlightenment(state: State, colour: str, crisis_top: str, specialist_top: str = "") -> None:
    """Everyone passes the Action phase; the bag draw and the deck tops are scripted. The
    default Specialist on top (S01 Virologist, or S15 Astrophysicist for a Biohazard crisis)
    does not prevent the crisis."""
    if not specialist_top:
        biohazard = state.content.crisis_card(crisis_top).crisis_type == "Biohazard"
        specialist_top = "S15" if biohazard else "S01"
    state.rng.script_choices([state.bag.index(colour)])
    state.crisis_deck = (crisis_top, *(c for c in state.crisis_deck if c != crisis_top))
    state.specialist_deck = (specialist_top, *(c for c in state.specialist_deck if c != specialist_top))
    while state.phase == "action":
        GAME.apply(state, "PASS")
    assert state.phase == "enlightenment"


def finish_plays(state: State) -> list[Event]:
    """Every player says DONE; stops at the first decision that is not a card play."""
    events: list[Event] = []
    while state.phase == "enlightenment" and state.decision.kind == "enlighten":
        events += GAME.apply(state, "DONE")
    return events


def give_knowledge(state: State, seat: int, ktype: str, count: int) -> None:
    """Hand a player Knowledge tokens taken from the Galactic Depot, then from the Outer Limit
    stack and the Exploration points, so that every token stays counted once."""
    for _ in range(count):
        if state.depot_knowledge.get(ktype, 0) > 0:
            state.depot_knowledge = state.depot_knowledge.set(ktype, state.depot_knowledge[ktype] - 1)
        elif ktype in state.outer_limit_knowledge:
            state.outer_limit_knowledge = without(state.outer_limit_knowledge, ktype)
        else:
            point = next(pt for pt in state.points.values() if pt.token == ktype)
            state.points = state.points.set(point.id, replace(point, token=None))
        p = state.players[seat]
        p.knowledge = p.knowledge.set(ktype, p.knowledge[ktype] + 1)


def crisis_on(state: State, planet: str, token: str) -> None:
    ctype = state.content.crisis_token(token).crisis_type
    state.crisis_stacks[ctype] = without(state.crisis_stacks[ctype], token)
    state.planet_crises[planet] = (*state.planet_crises.get(planet, ()), token)


def to_turn(state: State, seat: int) -> None:
    """Pass until ``seat`` has the turn decision."""
    while not (state.decision.kind == "turn" and state.current_player == seat):
        GAME.apply(state, "PASS")


# -- Advanced Rule 1: a crisis on the home planet costs an Action marker ----------------------


@pytest.mark.rules("TC-ADV1-1")
def test_rule_1_a_crisis_on_the_home_planet_costs_an_action_marker() -> None:
    state = new_game(advanced=(1,))
    token_on_top(state, "X01")
    to_enlightenment(state, "Xunon", "C01")
    events = finish_plays(state)
    assert state.planet_crises["XUNO"] == ("X01",)
    assert state.players[0].markers_lost == 1
    assert state.players[1].markers_lost == 0
    assert flow.markers_left(state, 0) == state.content.numbers.action_markers - 1
    assert "marker_lost" in [e.kind for e in events]


@pytest.mark.rules("TC-ADV1-1", "TC-SETUP-15")
def test_rule_1_off_the_base_game_loses_no_action_marker() -> None:
    state = new_game()
    to_enlightenment(state, "Xunon", "C01")
    finish_plays(state)
    assert state.planet_crises["XUNO"]
    assert state.players[0].markers_lost == 0


@pytest.mark.rules("TC-ADV1-1")
def test_rule_1_no_token_placed_no_marker_lost() -> None:
    state = new_game(advanced=(1,))
    state.planet_crises["AZAR"] = state.crisis_stacks["Biohazard"]  # all four Biohazard tokens already out
    state.crisis_stacks["Biohazard"] = ()
    to_enlightenment(state, "Xunon", "C01")
    finish_plays(state)
    assert "XUNO" not in state.planet_crises
    assert state.players[0].markers_lost == 0


@pytest.mark.rules("TC-ADV1-1")
def test_rule_1_never_more_than_one_action_marker_lost_at_a_time() -> None:
    state = new_game(advanced=(1,))
    state.players[0].markers_lost = 1
    state.players[0].crises_resolved_since_loss = 1
    to_enlightenment(state, "Xunon", "C01")
    events = finish_plays(state)
    assert state.players[0].markers_lost == 1
    assert state.players[0].crises_resolved_since_loss == 1  # the same loss goes on
    assert "marker_kept" in [e.kind for e in events]


@pytest.mark.rules("TC-ADV1-1")
def test_rule_1_resolutions_before_the_loss_do_not_count() -> None:
    state = new_game(advanced=(1,))
    state.players[0].crises_resolved_since_loss = 5
    to_enlightenment(state, "Xunon", "C01")
    finish_plays(state)
    assert state.players[0].markers_lost == 1
    assert state.players[0].crises_resolved_since_loss == 0


def _lost_marker_game(advanced: tuple[int, ...] = (1,)) -> State:
    state = new_game(advanced=advanced, seed=1)
    assert state.current_player == 0 and state.decision.kind == "turn"
    state.players[0].markers_lost = 1
    give_knowledge(state, 0, "Chemical", 3)
    return state


@pytest.mark.rules("TC-ADV1-1")
def test_rule_1_the_marker_comes_back_after_two_crises_resolved_elsewhere() -> None:
    state = _lost_marker_game()
    crisis_on(state, "AZAR", "X06")
    crisis_on(state, "AZAR", "X05")
    state.players[0].hand = ["S09", "S10"]  # two Chemists
    GAME.apply(state, "RESOLVE X06 S09")
    assert state.players[0].markers_lost == 1
    events = GAME.apply(state, "RESOLVE X05 S10")
    assert state.players[0].markers_lost == 0
    assert state.players[0].crises_resolved_since_loss == 0
    assert "marker_regained" in [e.kind for e in events]
    assert flow.markers_left(state, 0) == state.content.numbers.action_markers


@pytest.mark.rules("TC-ADV1-1")
def test_rule_1_the_marker_comes_back_after_one_crisis_resolved_on_the_home_planet() -> None:
    state = _lost_marker_game()
    crisis_on(state, "XUNO", "X06")
    state.players[0].hand = ["S09"]
    GAME.apply(state, "RESOLVE X06 S09")
    assert state.players[0].markers_lost == 0


@pytest.mark.rules("TC-ADV1-1")
def test_rule_1_a_regained_marker_gives_another_major_action_this_round() -> None:
    state = _lost_marker_game()
    p = state.players[0]
    p.energy = 20
    p.markers_used = 3  # every marker left is used...
    crisis_on(state, "XUNO", "X06")
    p.hand = ["S09"]
    assert flow.markers_left(state, 0) == 0
    GAME.apply(state, "RESOLVE X06 S09")
    assert flow.markers_left(state, 0) == 1  # ...until the lost one comes back


# -- Advanced Rule 2: the bottom of the active Crisis card ------------------------------------


@pytest.mark.rules("TC-ADV2-1")
def test_rule_2_every_crisis_card_has_a_structured_effect_matching_its_text() -> None:
    for card in default_content().crisis_cards:
        assert describe_effect(card.effect) == card.bottom_effect, card.id
    kinds = {card.effect.kind for card in default_content().crisis_cards}
    assert kinds == {"energy", "tau", "damage", "market"}


@pytest.mark.parametrize("rules", [(2,), ()])
@pytest.mark.rules("TC-ADV2-1", "TC-SETUP-15")
def test_rule_2_energy_effect(rules: tuple[int, ...]) -> None:
    state = new_game(advanced=rules)
    to_enlightenment(state, "Azars", "C02")  # +2 energy
    before = [p.energy for p in state.players]
    finish_plays(state)
    gain = 2 if rules else 0
    assert [p.energy for p in state.players] == [e + gain for e in before]
    assert state.crisis_deck[-1] == "C02"  # recycled after its effect


@pytest.mark.rules("TC-ADV2-1")
def test_rule_2_energy_loss_never_goes_below_zero() -> None:
    state = new_game(advanced=(2,))
    to_enlightenment(state, "Azars", "C01")  # every player loses 1 energy
    state.players[0].energy = 0
    before = state.players[1].energy
    finish_plays(state)
    assert state.players[0].energy == 0
    assert state.players[1].energy == before - 1


@pytest.mark.parametrize("rules", [(2,), ()])
@pytest.mark.rules("TC-ADV2-1", "TC-SETUP-15")
def test_rule_2_tau_effect(rules: tuple[int, ...]) -> None:
    state = new_game(advanced=rules)
    to_enlightenment(state, "Azars", "C03")  # every player loses 2 TAU
    before = [p.tau for p in state.players]
    finish_plays(state)
    loss = 2 if rules else 0
    assert [p.tau for p in state.players] == [t - loss for t in before]


@pytest.mark.parametrize("rules", [(2,), ()])
@pytest.mark.rules("TC-ADV2-1", "TC-SETUP-15")
def test_rule_2_market_effect(rules: tuple[int, ...]) -> None:
    state = new_game(advanced=rules)
    token_on_top(state, "X16")  # Geological, Science on its back: Industry is only the bottom
    to_enlightenment(state, "Azars", "C05")  # the Market level of Industry goes up 1 level
    finish_plays(state)
    assert state.market["Industry"] == (2 if rules else 1)
    assert state.market_raised["Industry"] == (1 if rules else 0)


@pytest.mark.rules("TC-ADV2-1", "TC-MKT-1")
def test_rule_2_market_effect_stops_at_level_four() -> None:
    state = new_game(advanced=(2,))
    token_on_top(state, "X16")
    state.market = state.market.set("Industry", 4)
    to_enlightenment(state, "Azars", "C05")
    finish_plays(state)
    assert state.market["Industry"] == 4
    assert state.market_raised["Industry"] == 0


@pytest.mark.rules("TC-ADV2-1", "TC-DMG-1")
def test_rule_2_damage_effect_each_player_allocates_first_player_first() -> None:
    state = new_game(advanced=(2,))
    to_enlightenment(state, "Azars", "C04")  # every player takes 1 damage
    finish_plays(state)
    first = state.first_player
    second = 1 - first
    assert state.phase == "enlightenment"
    assert state.decision.kind == "damage" and state.current_player == first
    assert [d.kind for d in state.stack] == ["damage", "damage"]
    refused(state, "DAMAGE nowhere", "TC-DMG-1")
    GAME.apply(state, "DAMAGE sensors")
    assert state.decision.kind == "damage" and state.current_player == second
    GAME.apply(state, "DAMAGE cargo")
    assert state.players[first].damage == {"sensors": 1}
    assert state.players[second].damage == {"cargo": 1}
    assert GAME.observe(state, None)["phase"] == "action"  # the phase ends once both allocated
    assert state.decision.kind == "turn" and state.current_player == first
    assert not problems(state)


@pytest.mark.rules("TC-ADV2-1", "TC-SETUP-15")
def test_rule_2_off_no_damage_decisions() -> None:
    state = new_game()
    to_enlightenment(state, "Azars", "C04")
    finish_plays(state)
    assert state.phase == "action" and state.decision.kind == "turn"
    assert all(not p.damage for p in state.players)


@pytest.mark.rules("TC-ADV2-1")
def test_rule_2_applies_even_when_no_crisis_token_is_left() -> None:
    state = new_game(advanced=(2,))
    state.planet_crises["XUNO"] = state.crisis_stacks["Cosmic"]
    state.crisis_stacks["Cosmic"] = ()
    to_enlightenment(state, "Azars", "C02")
    before = [p.energy for p in state.players]
    finish_plays(state)
    assert "AZAR" not in state.planet_crises
    assert [p.energy for p in state.players] == [e + 2 for e in before]


@pytest.mark.rules("TC-ADV2-1", "TC-ENL-5")
def test_rule_2_a_prevented_crisis_has_no_bottom_effect() -> None:
    state = new_game(advanced=(2,))
    to_enlightenment(state, "Azars", "C02", specialist_top="S15")  # S15 prevents Cosmic C02
    before = [p.energy for p in state.players]
    finish_plays(state)
    assert "C02" in state.crisis_discard
    assert [p.energy for p in state.players] == before


# -- Advanced Rule 3: virus crystals ------------------------------------------------------------


@pytest.mark.parametrize("rules", [(3,), ()])
@pytest.mark.rules("TC-ADV3-1", "TC-SETUP-15")
def test_rule_3_a_biohazard_crisis_places_a_virus_crystal(rules: tuple[int, ...]) -> None:
    state = new_game(advanced=rules)
    to_enlightenment(state, "Xunon", "C01")  # Biohazard
    finish_plays(state)
    assert state.virus_on == ({"XUNO": 1} if rules else {})
    assert state.virus_supply == (3 if rules else 4)
    assert not problems(state)


@pytest.mark.rules("TC-ADV3-1")
def test_rule_3_other_crises_place_no_crystal() -> None:
    state = new_game(advanced=(3,))
    to_enlightenment(state, "Xunon", "C02")  # Cosmic
    finish_plays(state)
    assert state.virus_on == {} and state.virus_supply == 4


@pytest.mark.rules("TC-ADV3-1")
def test_rule_3_no_crystal_left_in_the_supply() -> None:
    state = new_game(advanced=(3,))
    state.virus_supply = 0
    state.virus_on = FrozenDict({"AZAR": 4})
    to_enlightenment(state, "Xunon", "C01")
    events = finish_plays(state)
    assert state.virus_on == {"AZAR": 4}
    assert "virus_supply_empty" in [e.kind for e in events]


def _virus_game(rules: tuple[int, ...] = (3,)) -> State:
    """Xunon (seat 0) on turn in sector 05, next to Xuno; one crystal there (from the supply)."""
    state = new_game(advanced=rules, seed=1)
    assert state.current_player == 0 and state.decision.kind == "turn"
    p = state.players[0]
    p.energy = 20
    p.position = "05"
    if rules:
        state.virus_supply -= 1
        state.virus_on = state.virus_on.set("XUNO", 1)
    return state


@pytest.mark.rules("TC-ADV3-1")
def test_rule_3_entering_a_planet_absorbs_its_virus_crystal_compulsorily() -> None:
    state = _virus_game()
    GAME.apply(state, "MOV")
    GAME.apply(state, "GO XUNO")
    assert state.decision.kind == "virus" and state.current_player == 0
    assert legal(state) == {f"VIRUS {s}" for s in state.content.systems}
    refused(state, "KEEP-VIRUS", "TC-ADV3-1")
    refused(state, "STOP", "TC-ADV3-1")
    refused(state, "VIRUS hull", "TC-ADV3-1")
    power = ship.effective(state, 0, "weapons")
    supply = state.damage_supply
    GAME.apply(state, "VIRUS weapons")
    p = state.players[0]
    assert p.virus == {"weapons": 1}
    assert state.virus_on == {}
    assert ship.effective(state, 0, "weapons") == power - 1  # counts as 1 damage
    assert state.damage_supply == supply  # it is not a Damage marker
    assert state.decision.kind == "move"  # one sector of propulsion left
    assert not problems(state)


@pytest.mark.rules("TC-ADV3-1", "TC-SETUP-15")
def test_rule_3_off_entering_a_planet_absorbs_nothing() -> None:
    state = _virus_game(rules=())
    GAME.apply(state, "MOV")
    GAME.apply(state, "GO XUNO")
    assert state.decision.kind == "move"
    assert state.players[0].virus == {}


@pytest.mark.rules("TC-ADV3-1")
def test_rule_3_every_crystal_on_the_planet_is_absorbed() -> None:
    state = _virus_game()
    state.virus_supply -= 1
    state.virus_on = state.virus_on.set("XUNO", 2)
    GAME.apply(state, "MOV")
    GAME.apply(state, "GO XUNO")
    GAME.apply(state, "VIRUS weapons")
    assert state.decision.kind == "virus"
    GAME.apply(state, "VIRUS sensors")
    assert state.players[0].virus == {"weapons": 1, "sensors": 1}
    assert state.decision.kind == "move"


@pytest.mark.rules("TC-ADV3-1")
def test_rule_3_a_crystal_just_absorbed_cannot_be_dropped_on_the_same_planet() -> None:
    state = _virus_game()
    GAME.apply(state, "MOV")
    GAME.apply(state, "GO XUNO")
    GAME.apply(state, "VIRUS cargo")
    assert state.decision.kind == "move"
    assert not any(a.startswith("DROP-VIRUS") for a in legal(state))


@pytest.mark.rules("TC-ADV3-1", "TC-ADV3-2")
def test_rule_3_drop_the_crystal_off_on_another_planet() -> None:
    state = _virus_game()
    GAME.apply(state, "MOV")
    GAME.apply(state, "GO XUNO")
    GAME.apply(state, "VIRUS cargo")
    GAME.apply(state, "STOP")
    GAME.apply(state, "END")
    to_turn(state, 0)  # a later turn
    state.players[0].position = "03"  # next to Zorhkon
    GAME.apply(state, "MOV")
    GAME.apply(state, "GO ZORHKON")
    assert state.decision.kind == "virus"
    assert legal(state) == {"DROP-VIRUS cargo", "KEEP-VIRUS"}
    refused(state, "DROP-VIRUS weapons", "TC-ADV3-1")
    GAME.apply(state, "DROP-VIRUS cargo")
    assert state.players[0].virus == {}
    assert state.virus_on == {"ZORHKON": 1}
    assert state.decision.kind == "move"
    assert not problems(state)


@pytest.mark.rules("TC-ADV3-1")
def test_rule_3_the_crystal_may_be_kept() -> None:
    state = _virus_game()
    state.virus_on = FrozenDict({})
    state.players[0].virus = FrozenDict({"shields": 1})
    state.players[0].position = "03"
    GAME.apply(state, "MOV")
    GAME.apply(state, "GO ZORHKON")
    GAME.apply(state, "KEEP-VIRUS")
    assert state.players[0].virus == {"shields": 1}
    assert state.virus_on == {}
    assert state.decision.kind == "move"


@pytest.mark.rules("TC-ADV3-1")
def test_rule_3_arriving_with_a_crystal_at_an_infected_planet_absorbs_then_may_drop_one() -> None:
    state = _virus_game()
    state.virus_supply -= 1
    state.players[0].virus = FrozenDict({"shields": 1})
    GAME.apply(state, "MOV")
    GAME.apply(state, "GO XUNO")
    GAME.apply(state, "VIRUS weapons")
    assert legal(state) == {"DROP-VIRUS shields", "DROP-VIRUS weapons", "KEEP-VIRUS"}
    GAME.apply(state, "DROP-VIRUS shields")
    assert state.players[0].virus == {"weapons": 1}
    assert state.virus_on == {"XUNO": 1}
    assert state.decision.kind == "move"  # only the crystal carried in may be dropped


@pytest.mark.rules("TC-ADV3-2", "TC-REP-1")
def test_rule_3_virus_crystals_cannot_be_repaired() -> None:
    state = _virus_game()
    state.virus_on = FrozenDict({})
    state.players[0].virus = FrozenDict({"weapons": 1})
    refused(state, "REP", "TC-REP-1")
    state.players[0].damage = FrozenDict({"shields": 1})
    state.damage_supply -= 1
    GAME.apply(state, "REP")
    refused(state, "FIX weapons", "TC-ADV3-2")
    GAME.apply(state, "FIX shields")
    assert state.players[0].virus == {"weapons": 1}


@pytest.mark.rules("TC-ADV3-2")
def test_rule_3_crystals_stay_when_the_biohazard_crisis_is_resolved() -> None:
    state = new_game(advanced=(3,))
    token_on_top(state, "X01")
    to_enlightenment(state, "Xunon", "C01")
    finish_plays(state)
    seat = state.current_player
    assert seat is not None
    give_knowledge(state, seat, "Biohazard", 3)
    GAME.apply(state, "RESOLVE X01 K3")
    assert "XUNO" not in state.planet_crises
    assert state.virus_on == {"XUNO": 1}
    assert not problems(state)


# -- Advanced Rules 7, 8 and 9: end-of-game deductions -------------------------------------------


def test_scoring_sources_include_the_advanced_deductions() -> None:
    assert {"virus_crystals", "specialization_raised", "home_crises"} <= set(scoring.SOURCES)


@pytest.mark.parametrize("rules", [(7,), ()])
@pytest.mark.rules("TC-ADV7-1")
def test_rule_7_minus_one_gp_per_virus_crystal_on_the_home_planet(rules: tuple[int, ...]) -> None:
    state = new_game(advanced=(3, *rules))
    state.virus_supply = 1
    state.virus_on = FrozenDict({"XUNO": 2, "AZAR": 1})
    xunon, azars = scoring.score(state, 0), scoring.score(state, 1)
    assert xunon["virus_crystals"] == (-2 if rules else 0)
    assert azars["virus_crystals"] == (-1 if rules else 0)
    for s in (xunon, azars):
        assert s["total"] == sum(s[k] for k in scoring.SOURCES)


def _zorhkonian_military_at_three(rules: tuple[int, ...]) -> State:
    """Two crises raise Military from 1 to 3 (Cosmic X12, then Geological X15, on Xuno)."""
    state = new_game(factions=("Zorhkonian", "Xunon"), advanced=rules)
    token_on_top(state, "X12")
    token_on_top(state, "X15")
    to_enlightenment(state, "Xunon", "C10")
    finish_plays(state)
    to_enlightenment(state, "Xunon", "C05")
    finish_plays(state)
    assert state.market["Military"] == 3
    return state


@pytest.mark.parametrize("rules", [(8,), ()])
@pytest.mark.rules("TC-ADV8-1")
def test_rule_8_the_zorhkonian_with_military_at_level_three_loses_two_gp(rules: tuple[int, ...]) -> None:
    """'if you are a Zorhkonian and Military is at level 3, you lose 2 GPs'"""
    state = _zorhkonian_military_at_three(rules)
    zorhkonian = scoring.score(state, 0)
    assert zorhkonian["specialization_raised"] == (-2 if rules else 0)
    assert zorhkonian["total"] == sum(zorhkonian[k] for k in scoring.SOURCES)
    assert scoring.score(state, 1)["specialization_raised"] == 0  # Science was not raised


@pytest.mark.rules("TC-ADV8-1", "TC-RES-6")
def test_rule_8_a_resolved_crisis_gives_the_level_back() -> None:
    """The deduction is the level above the start: resolving a crisis moves it back down."""
    state = _zorhkonian_military_at_three((8,))
    to_turn(state, 0)
    give_knowledge(state, 0, "Geological", 3)
    GAME.apply(state, "RESOLVE X15 K3")
    assert state.market["Military"] == 2 and state.market_raised["Military"] == 2
    assert scoring.score(state, 0)["specialization_raised"] == -1


@pytest.mark.parametrize("rules", [(9,), ()])
@pytest.mark.rules("TC-ADV9-1")
def test_rule_9_minus_one_gp_per_crisis_token_on_the_home_planet(rules: tuple[int, ...]) -> None:
    state = new_game(advanced=rules)
    crisis_on(state, "XUNO", "X01")
    crisis_on(state, "XUNO", "X06")
    crisis_on(state, "AZAR", "X12")
    assert scoring.score(state, 0)["home_crises"] == (-2 if rules else 0)
    assert scoring.score(state, 1)["home_crises"] == (-1 if rules else 0)


@pytest.mark.rules("TC-ADV7-1", "TC-ADV9-1")
def test_the_final_scores_carry_the_deductions() -> None:
    state = new_game(advanced=(7, 9))
    crisis_on(state, "XUNO", "X01")
    state.virus_supply = 3
    state.virus_on = FrozenDict({"XUNO": 1})
    base = new_game()
    scoring.finish(state, [])
    assert state.final_scores[0]["total"] == scoring.score(base, 0)["total"] - 2


# -- Advanced Specialists ------------------------------------------------------------------------


@pytest.mark.rules("TC-SPEC-2", "TC-SETUP-15")
def test_advanced_specialists_are_only_in_the_deck_when_chosen() -> None:
    plain = new_game()
    assert not set(ADVANCED_SPECIALISTS) & set(plain.specialist_deck)
    assert len(plain.specialist_deck) == 42
    chosen = new_game(specialists=True)
    assert set(ADVANCED_SPECIALISTS) <= set(chosen.specialist_deck)
    assert len(chosen.specialist_deck) == 48
    assert not problems(chosen)


@pytest.mark.rules("TC-SPEC-2", "TC-COMP-1")
def test_the_content_still_counts_42_base_specialists() -> None:
    base = [s for s in default_content().specialists if not s.advanced]
    advanced = [s for s in default_content().specialists if s.advanced]
    assert len(base) == 42
    assert [s.id for s in advanced] == ADVANCED_SPECIALISTS
    assert all("E" in s.phases and s.ability.kind != "none" for s in advanced)


@pytest.mark.rules("TC-SPEC-2", "TC-ENL-4")
def test_an_advanced_specialist_gives_energy_but_never_prevents_a_crisis() -> None:
    state = new_game(specialists=True)
    to_enlightenment(state, "Xunon", "C01", specialist_top="S43")  # Biohazard + advanced Virologist
    seat = state.current_player
    assert seat is not None
    state.players[seat].hand = ["S46"]
    energy = state.players[seat].energy
    GAME.apply(state, "PLAY S46")
    assert state.players[seat].energy == energy + 2
    finish_plays(state)
    assert len(state.planet_crises["XUNO"]) == 1  # the Biohazard crisis was not prevented
    assert state.crisis_deck[-1] == "C01"
    assert set(state.specialist_deck[-2:]) == {"S43", "S46"}  # recycled, not discarded
    assert not state.specialist_discard


def _specialist_game() -> State:
    state = new_game(specialists=True, seed=1)
    assert state.current_player == 0 and state.decision.kind == "turn"
    for card in ("S43", "S44", "S45", "S46", "S47"):
        state.specialist_deck = tuple(x for x in state.specialist_deck if x != card)
    state.players[0].hand = ["S43", "S44", "S45", "S46", "S47"]
    return state


@pytest.mark.rules("TC-SPEC-2", "TC-SPEC-3")
def test_an_advanced_specialist_resolves_a_crisis_of_any_type_and_stays_face_up() -> None:
    state = _specialist_game()
    crisis_on(state, "AZAR", "X06")  # Chemical
    crisis_on(state, "TRIOLO", "X12")  # Cosmic
    p = state.players[0]
    give_knowledge(state, 0, "Chemical", 1)
    give_knowledge(state, 0, "Cosmic", 1)
    refused(state, "RESOLVE X06 S46", "TC-SPEC-3")  # still in the hand: turn it face up first
    GAME.apply(state, "PLAY-S S46")  # a Geologist
    assert "RESOLVE X06 S46" in legal(state)
    GAME.apply(state, "RESOLVE X06 S46")
    assert "AZAR" not in state.planet_crises
    assert p.face_up == ("S46",) and "S46" not in state.specialist_deck
    assert p.knowledge["Chemical"] == 0
    GAME.apply(state, "RESOLVE X12 S46")  # unlimited use of its ability
    assert "TRIOLO" not in state.planet_crises
    assert len(p.gp_tokens) == 2
    assert not problems(state)


@pytest.mark.rules("TC-SPEC-2", "TC-RES-1")
def test_the_resolve_ability_still_needs_a_matching_knowledge_token() -> None:
    state = _specialist_game()
    crisis_on(state, "AZAR", "X06")
    give_knowledge(state, 0, "Cosmic", 1)
    GAME.apply(state, "PLAY-S S43")
    assert "Chemical Knowledge token" in str(refused(state, "RESOLVE X06 S43", "TC-RES-1"))


@pytest.mark.rules("TC-SPEC-2")
def test_an_advanced_specialist_without_the_ability_cannot_resolve_even_its_own_icon() -> None:
    state = _specialist_game()
    crisis_on(state, "AZAR", "X06")  # Chemical
    give_knowledge(state, 0, "Chemical", 1)
    GAME.apply(state, "PLAY-S S44")  # an advanced Chemist that raises Science
    refused(state, "RESOLVE X06 S44", "TC-SPEC-2")


@pytest.mark.rules("TC-SPEC-2", "TC-SPEC-3", "TC-SKILL-3")
def test_an_advanced_specialist_increases_a_skill_set_once_face_up() -> None:
    state = _specialist_game()
    science = state.faction(0).skills["Science"]
    assert checks.dice_for(state, 0, "Science") == science
    GAME.apply(state, "PLAY-S S44")
    assert checks.dice_for(state, 0, "Science") == science + 1


@pytest.mark.rules("TC-SPEC-2", "TC-REC-2")
def test_advanced_specialists_with_a_battle_ability() -> None:
    state = _specialist_game()
    refused(state, "PLAY-S S45", "TC-REC-2")  # Battle phase only
    assert {"S45", "S47"} <= set(battle.battle_cards(state, 0))
    GAME.apply(state, "PLAY-S S47")  # A and B: turned face up in the Action phase
    assert battle.bonus(state, 0, "battle_weapons") == 1


def test_advanced_specialist_resolutions_are_in_the_action_space() -> None:
    space = GAME.action_space()
    assert Action.parse("RESOLVE X06 S46") in space
    assert Action.parse("RESOLVE X01 S43") in space
    assert Action.parse("VIRUS weapons") in space and Action.parse("KEEP-VIRUS") in space
