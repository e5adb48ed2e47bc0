"""Minor actions: trading, playing a Specialist card, resolving a crisis, assisting."""

from __future__ import annotations

import pytest

from ecliptic.engine.actions import act
from ecliptic.engine.frozendict import FrozenDict
from ecliptic.tauceti import scoring
from ecliptic.tauceti.decks import without
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import State
from tauceti_checks import refused

GAME = TauCeti()
XUNON, AZARS = 0, 1


def new_game(seed: int = 1) -> State:
    """Xunon (seat 0, home Xuno, Science) and Azars (seat 1, home Azar, Industry), Xunon to act."""
    state = GAME.new_game({"layout": "preset", "players": 2, "factions": ["Xunon", "Azars"]}, seed)
    assert state.current_player == XUNON and state.decision.kind == "turn"
    return state


def give_knowledge(state: State, seat: int, **counts: int) -> None:
    for ktype, n in counts.items():
        state.players[seat].knowledge = state.players[seat].knowledge.set(ktype, n)


# -- minor actions are free and unlimited -----------------------------------------------------


@pytest.mark.rules("TC-MINOR-1")
def test_minor_actions_cost_no_action_marker_and_no_energy_and_can_follow_the_major_action() -> None:
    state = new_game()
    give_knowledge(state, XUNON, Chemical=2, Cosmic=1)
    p = state.players[XUNON]
    energy = p.energy
    GAME.apply(state, "SELL-K Chemical")
    GAME.apply(state, "REF")
    GAME.apply(state, "SELL-K Chemical")
    GAME.apply(state, "SELL-K Cosmic")
    assert p.markers_used == 1
    assert p.energy == energy + 2
    assert state.current_player == XUNON


# -- Trading: Specialists [2:1] ----------------------------------------------------------------


@pytest.mark.rules("TC-TRADE-1")
def test_trade_specialists_two_for_one_of_the_top_three() -> None:
    state = new_game()
    p = state.players[XUNON]
    p.hand = ["C01", "S02", "S09"]
    state.specialist_deck = tuple(x for x in state.specialist_deck if x != "S20")
    state.specialist_deck = tuple(x for x in state.specialist_deck if x != "S30")
    state.specialist_deck = tuple(x for x in state.specialist_deck if x != "S40")
    state.specialist_deck = ("S20", "S30", "S40", *state.specialist_deck)
    GAME.apply(state, "TRADE-S S02 S09")
    assert state.decision.kind == "keep_specialist"
    assert state.current_player == XUNON
    assert state.decision.data["cards"] == ["S20", "S30", "S40"]
    assert state.specialist_deck[-2:] == ("S02", "S09")
    assert sorted(map(str, GAME.legal_actions(state))) == ["KEEP S20", "KEEP S30", "KEEP S40"]
    GAME.apply(state, "KEEP S30")
    assert sorted(p.hand) == ["C01", "S30"]
    assert state.specialist_deck[-4:] == ("S02", "S09", "S20", "S40")
    assert state.decision.kind == "turn" and state.current_player == XUNON


@pytest.mark.rules("TC-TRADE-1")
def test_the_drawn_cards_are_seen_only_by_the_trading_player() -> None:
    state = new_game()
    state.players[XUNON].hand = ["S02", "S09"]
    events = GAME.apply(state, "TRADE-S S02 S09")
    drawn = state.decision.data["cards"]
    private = [e for e in events if e.data.get("drawn")]
    assert private and all(e.visible_to == frozenset({XUNON}) for e in private)
    for e in events:
        if e.visible_to is None:
            assert not any(card in e.text or card in str(e.data) for card in [*drawn, "S02", "S09"])


@pytest.mark.rules("TC-TRADE-1")
def test_keep_must_name_one_of_the_drawn_cards() -> None:
    state = new_game()
    state.players[XUNON].hand = ["S02", "S09"]
    GAME.apply(state, "TRADE-S S02 S09")
    drawn = state.decision.data["cards"]
    other = next(s for s in ("S01", "S03", "S04", "S05") if s not in drawn)
    refused(state, f"KEEP {other}", "TC-TRADE-1")


@pytest.mark.parametrize(("hand", "action", "message"), [
    (["C01", "S02"], "TRADE-S C01 S02", "cannot trade Crisis cards"),
    (["S02"], "TRADE-S S02 S09", "not in your hand"),
    (["S02", "S09"], "TRADE-S S02 S02", "two different"),
    (["S02", "S09"], "TRADE-S S09 S02", "in order"),
    (["S02", "S09"], "TRADE-S S02", "TRADE-S <card> <card>"),
    (["S02", "S09"], "TRADE-S S02 Z99", "not a Crisis or Specialist card"),
])
@pytest.mark.rules("TC-TRADE-1")
def test_trade_specialists_refusals(hand: list[str], action: str, message: str) -> None:
    state = new_game()
    state.players[XUNON].hand = hand
    assert message in str(refused(state, action, "TC-TRADE-1"))


@pytest.mark.rules("TC-TRADE-1")
def test_face_up_specialists_cannot_be_traded() -> None:
    state = new_game()
    state.players[XUNON].hand = ["S02"]
    state.players[XUNON].face_up = ("S05",)
    refused(state, "TRADE-S S02 S05", "TC-TRADE-1")


# -- Trading: Knowledge [2:1] ----------------------------------------------------------------


@pytest.mark.rules("TC-TRADE-2")
def test_trade_knowledge_with_the_galactic_depot() -> None:
    state = new_game()
    give_knowledge(state, XUNON, Chemical=1, Cosmic=1)
    depot = dict(state.depot_knowledge)
    GAME.apply(state, "TRADE-K Chemical Cosmic Political depot")
    k = state.players[XUNON].knowledge
    assert (k["Chemical"], k["Cosmic"], k["Political"]) == (0, 0, 1)
    assert state.depot_knowledge["Chemical"] == depot["Chemical"] + 1
    assert state.depot_knowledge["Cosmic"] == depot["Cosmic"] + 1
    assert state.depot_knowledge["Political"] == depot["Political"] - 1


@pytest.mark.rules("TC-TRADE-2")
def test_the_two_knowledge_tokens_given_may_be_the_same_type() -> None:
    state = new_game()
    give_knowledge(state, XUNON, Chemical=2)
    GAME.apply(state, "TRADE-K Chemical Chemical Cosmic depot")
    assert state.players[XUNON].knowledge["Chemical"] == 0
    assert state.players[XUNON].knowledge["Cosmic"] == 1


@pytest.mark.rules("TC-TRADE-2")
def test_trade_offer_accepted_by_the_other_player() -> None:
    state = new_game()
    give_knowledge(state, XUNON, Chemical=1, Cosmic=1)
    give_knowledge(state, AZARS, Biohazard=1)
    GAME.apply(state, "TRADE-K Chemical Cosmic Biohazard P1")
    assert state.decision.kind == "trade_offer"
    assert state.current_player == AZARS
    assert sorted(map(str, GAME.legal_actions(state))) == ["ACCEPT", "DECLINE"]
    GAME.apply(state, "ACCEPT")
    x, a = state.players[XUNON].knowledge, state.players[AZARS].knowledge
    assert (x["Chemical"], x["Cosmic"], x["Biohazard"]) == (0, 0, 1)
    assert (a["Chemical"], a["Cosmic"], a["Biohazard"]) == (1, 1, 0)
    assert state.current_player == XUNON and state.decision.kind == "turn"
    assert state.players[XUNON].offers_made == (AZARS,)


@pytest.mark.rules("TC-TRADE-2")
def test_trade_offer_declined_changes_no_tokens() -> None:
    state = new_game()
    give_knowledge(state, XUNON, Chemical=2)
    give_knowledge(state, AZARS, Biohazard=1)
    GAME.apply(state, "TRADE-K Chemical Chemical Biohazard P1")
    assert state.current_player == AZARS
    GAME.apply(state, "DECLINE")
    assert state.players[XUNON].knowledge["Chemical"] == 2
    assert state.players[AZARS].knowledge["Biohazard"] == 1
    assert state.current_player == XUNON


@pytest.mark.rules("TC-TRADE-2")
def test_one_offer_to_each_other_player_per_round() -> None:
    state = new_game()
    give_knowledge(state, XUNON, Chemical=2)
    give_knowledge(state, AZARS, Biohazard=1)
    GAME.apply(state, "TRADE-K Chemical Chemical Biohazard P1")
    GAME.apply(state, "DECLINE")
    refused(state, "TRADE-K Chemical Chemical Biohazard P1", "TC-TRADE-2")
    # the Galactic Depot is not a player: trading with it stays open
    GAME.apply(state, "TRADE-K Chemical Chemical Biohazard depot")


@pytest.mark.rules("TC-TRADE-2")
def test_offers_made_reset_at_the_next_round() -> None:
    state = new_game()
    give_knowledge(state, XUNON, Chemical=2)
    give_knowledge(state, AZARS, Biohazard=1)
    GAME.apply(state, "TRADE-K Chemical Chemical Biohazard P1")
    GAME.apply(state, "DECLINE")
    while state.round == 1:
        GAME.apply(state, "PASS")
    assert state.players[XUNON].offers_made == ()


@pytest.mark.parametrize(("action", "message"), [
    ("TRADE-K Chemical Cosmic Political", "TRADE-K <type> <type>"),
    ("TRADE-K Chemical Cosmic Nonsense depot", "not a Knowledge type"),
    ("TRADE-K Cosmic Chemical Political depot", "in order"),
    ("TRADE-K Chemical Chemical Political depot", "do not have"),
    ("TRADE-K Biohazard Chemical Political depot", "do not have"),
    ("TRADE-K Chemical Cosmic Cosmic depot", "different type"),
    ("TRADE-K Chemical Cosmic Geological depot", "Galactic Depot has no Geological"),
    ("TRADE-K Chemical Cosmic Political P0", "not P0"),
    ("TRADE-K Chemical Cosmic Political P2", "not P2"),
    ("TRADE-K Chemical Cosmic Political bank", "not bank"),
    ("TRADE-K Chemical Cosmic Political P1", "Azars has no Political"),
])
@pytest.mark.rules("TC-TRADE-2")
def test_trade_knowledge_refusals(action: str, message: str) -> None:
    state = new_game()
    give_knowledge(state, XUNON, Chemical=1, Cosmic=1)
    state.depot_knowledge = state.depot_knowledge.set("Geological", 0)
    assert message in str(refused(state, action, "TC-TRADE-2"))


@pytest.mark.rules("TC-TRADE-2")
def test_trade_offer_answer_must_be_accept_or_decline() -> None:
    state = new_game()
    give_knowledge(state, XUNON, Chemical=2)
    give_knowledge(state, AZARS, Biohazard=1)
    GAME.apply(state, "TRADE-K Chemical Chemical Biohazard P1")
    refused(state, "PASS", "TC-TRADE-2")


# -- Trading: Knowledge for TAU -------------------------------------------------------------------


@pytest.mark.rules("TC-TRADE-3", "TC-TAU-1")
def test_sell_knowledge_for_the_tau_on_its_back_and_it_goes_to_the_depot() -> None:
    state = new_game()
    give_knowledge(state, XUNON, Cosmic=1)
    tau, depot = state.players[XUNON].tau, state.depot_knowledge["Cosmic"]
    GAME.apply(state, "SELL-K Cosmic")
    assert state.players[XUNON].tau == tau + state.content.crisis_type("Cosmic").knowledge_tau
    assert state.players[XUNON].knowledge["Cosmic"] == 0
    assert state.depot_knowledge["Cosmic"] == depot + 1


@pytest.mark.rules("TC-TRADE-3")
def test_sell_knowledge_refusals() -> None:
    state = new_game()
    refused(state, "SELL-K Cosmic", "TC-TRADE-3")
    refused(state, "SELL-K Stardust", "TC-TRADE-3")
    refused(state, "SELL-K", "TC-TRADE-3")


# -- Trading: Resource units for Materials -----------------------------------------------------


@pytest.mark.rules("TC-TRADE-4", "TC-CUBE-1")
def test_resource_cube_for_materials() -> None:
    state = new_game()
    state.bag.remove("Xunon")
    state.cubes["XUNO"] = ["Xunon"]
    materials = state.players[XUNON].materials
    GAME.apply(state, "CUBE-MAT")
    assert state.cubes["XUNO"] == []
    assert state.bag.count("Xunon") == 5
    assert state.bag == sorted(state.bag)
    assert state.players[XUNON].materials == materials + 1


@pytest.mark.rules("TC-TRADE-4")
def test_resource_cube_for_materials_refusals() -> None:
    state = new_game()
    state.cubes["XUNO"] = ["Azars"]
    assert "no Resource cube" in str(refused(state, "CUBE-MAT", "TC-TRADE-4"))
    state.cubes["XUNO"] = ["Xunon"]
    state.players[XUNON].materials = len(state.faction(XUNON).materials_track) - 1
    assert "right end" in str(refused(state, "CUBE-MAT", "TC-TRADE-4"))
    refused(state, "CUBE-MAT now", "TC-TRADE-4")


# -- Trading: GP tokens for rewards -------------------------------------------------------------


@pytest.mark.parametrize(("token", "tau", "energy", "upgrades"), [
    ("G01", 6, 0, 0), ("G05", 0, 4, 0), ("G08", 0, 0, 1),
])
@pytest.mark.rules("TC-TRADE-5", "TC-TAU-1")
def test_gp_token_for_the_reward_on_its_back(token: str, tau: int, energy: int, upgrades: int) -> None:
    state = new_game()
    p = state.players[XUNON]
    state.gp_supply = tuple(x for x in state.gp_supply if x != token)
    p.gp_tokens = (token,)
    before = (p.tau, p.energy, p.free_upgrades)
    GAME.apply(state, f"GP-TOKEN {token}")
    assert (p.tau, p.energy, p.free_upgrades) == (before[0] + tau, before[1] + energy, before[2] + upgrades)
    assert p.gp_tokens == ()
    assert state.gp_supply[-1] == token
    assert scoring.score(state, XUNON)["gp_tokens"] == 0


@pytest.mark.rules("TC-TRADE-5")
def test_gp_token_refusals() -> None:
    state = new_game()
    refused(state, "GP-TOKEN G01", "TC-TRADE-5")
    refused(state, "GP-TOKEN", "TC-TRADE-5")


# -- Playing a Specialist card (Action-phase icon) ----------------------------------------------


@pytest.mark.rules("TC-REC-3", "TC-REC-5")
def test_play_specialist_with_action_icon_turns_it_face_up_and_adds_its_skill_die() -> None:
    """Recruit: 'The Specialist card on the right can be played during Enlightenment phase or
    during Action phase.'"""
    from ecliptic.tauceti import checks

    state = new_game()
    p = state.players[XUNON]
    p.hand = ["S05"]  # E and A icons: +1 die on Science skill checks
    dice = checks.dice_for(state, XUNON, "Science")
    GAME.apply(state, "PLAY-S S05")
    assert p.hand == [] and p.face_up == ("S05",)
    assert checks.dice_for(state, XUNON, "Science") == dice + 1


@pytest.mark.rules("TC-REC-2", "TC-REC-3", "TC-REC-5")
def test_specialist_without_action_icon_cannot_be_played_in_the_action_phase() -> None:
    """Recruit: 'The Specialist card in the middle can only be played during Battle phase.'"""
    state = new_game()
    state.players[XUNON].hand = ["S07", "S02", "C01"]  # B only; E only; a Crisis card
    refused(state, "PLAY-S S07", "TC-REC-2")
    refused(state, "PLAY-S S02", "TC-REC-2")
    refused(state, "PLAY-S C01", "TC-REC-5")
    refused(state, "PLAY-S S05", "TC-REC-5")
    refused(state, "PLAY-S", "TC-REC-5")


# -- Resolving a crisis --------------------------------------------------------------------------


def crisis_on(state: State, planet: str, token: str) -> None:
    ctype = state.content.crisis_token(token).crisis_type
    state.crisis_stacks[ctype] = without(state.crisis_stacks[ctype], token)
    state.planet_crises[planet] = (*state.planet_crises.get(planet, ()), token)
    state.market = state.market.set(state.content.crisis_token(token).resource, 3)


@pytest.mark.rules("TC-RES-1", "TC-RES-3", "TC-RES-4", "TC-RES-5", "TC-RES-6", "TC-RES-7", "TC-KNOW-1")
def test_resolve_with_a_chemist_and_a_chemical_knowledge_token() -> None:
    """'a Chemist Specialist card and Chemical Knowledge token can resolve a Chemical crisis'"""
    state = new_game()
    crisis_on(state, "AZAR", "X06")  # Chemical, affecting Industry
    p = state.players[XUNON]
    p.hand = ["S09"]  # a Chemist
    give_knowledge(state, XUNON, Chemical=1)
    depot = state.depot_knowledge["Chemical"]
    first_3gp = next(g for g in state.gp_supply if state.content.gp_token(g).gp == 3)
    GAME.apply(state, "RESOLVE X06 S09")
    assert p.knowledge["Chemical"] == 0
    assert state.depot_knowledge["Chemical"] == depot + 1
    assert p.hand == [] and state.specialist_deck[-1] == "S09"
    assert "X06" not in state.planet_crises.get("AZAR", [])
    assert state.crisis_stacks["Chemical"][-1] == "X06"
    assert state.market["Industry"] == 2
    assert p.gp_tokens == (first_3gp,) and first_3gp not in state.gp_supply
    assert scoring.score(state, XUNON)["gp_tokens"] == 3
    assert p.crises_resolved_since_loss == 1


@pytest.mark.rules("TC-RES-1", "TC-RES-3", "TC-RES-5", "TC-RES-6", "TC-RES-7")
def test_resolve_with_three_identical_knowledge_tokens() -> None:
    """'3 Chemical Knowledge tokens can resolve a Chemical crisis'"""
    state = new_game()
    crisis_on(state, "AZAR", "X06")
    p = state.players[XUNON]
    give_knowledge(state, XUNON, Chemical=3)
    depot = state.depot_knowledge["Chemical"]
    deck = state.specialist_deck
    GAME.apply(state, "RESOLVE X06 K3")
    assert p.knowledge["Chemical"] == 0
    assert state.depot_knowledge["Chemical"] == depot + 3
    assert state.specialist_deck == deck
    assert state.crisis_stacks["Chemical"][-1] == "X06"
    assert state.market["Industry"] == 2
    assert len(p.gp_tokens) == 1


@pytest.mark.rules("TC-RES-2", "TC-RES-4")
def test_resolve_from_another_sector() -> None:
    """'You do not have to be on the planet in crisis to resolve it'"""
    state = new_game()
    crisis_on(state, "TRIOLO", "X06")
    p = state.players[XUNON]
    p.position = "10"
    p.face_up = ("S12",)  # a face-up Chemist resolves too
    give_knowledge(state, XUNON, Chemical=1)
    GAME.apply(state, "RESOLVE X06 S12")
    assert "TRIOLO" not in state.planet_crises
    assert p.face_up == ()
    assert state.specialist_deck[-1] == "S12"


@pytest.mark.rules("TC-RES-6", "TC-MKT-1")
def test_market_level_does_not_go_below_one() -> None:
    state = new_game()
    crisis_on(state, "AZAR", "X06")
    state.market = state.market.set("Industry", 1)
    give_knowledge(state, XUNON, Chemical=3)
    GAME.apply(state, "RESOLVE X06 K3")
    assert state.market["Industry"] == 1


@pytest.mark.rules("TC-RES-7")
def test_resolving_with_no_3gp_token_left_earns_none() -> None:
    state = new_game()
    crisis_on(state, "AZAR", "X06")
    state.gp_supply = tuple(g for g in state.gp_supply if state.content.gp_token(g).gp == 1)
    give_knowledge(state, XUNON, Chemical=3)
    GAME.apply(state, "RESOLVE X06 K3")
    assert state.players[XUNON].gp_tokens == ()
    assert "X06" in state.crisis_stacks["Chemical"]


@pytest.mark.rules("TC-RES-1")
def test_only_the_matching_tokens_are_used_when_two_crises_share_a_planet() -> None:
    state = new_game()
    crisis_on(state, "AZAR", "X06")
    crisis_on(state, "AZAR", "X03")
    give_knowledge(state, XUNON, Chemical=3)
    GAME.apply(state, "RESOLVE X06 K3")
    assert state.planet_crises["AZAR"] == ("X03",)


@pytest.mark.parametrize(("action", "rule", "message"), [
    ("RESOLVE X06", "TC-RES-1", "RESOLVE <Crisis token>"),
    ("RESOLVE X05 K3", "TC-RES-1", "not a Crisis token on a planet"),
    ("RESOLVE X99 K3", "TC-RES-1", "not a Crisis token on a planet"),
    ("RESOLVE X06 K3", "TC-RES-1", "you have 2"),
    ("RESOLVE X06 S02", "TC-RES-1", "needs a Chemist"),
    ("RESOLVE X06 S10", "TC-RES-1", "you do not have S10"),
    ("RESOLVE X06 C04", "TC-RES-1", "not a Specialist card"),
    ("RESOLVE X06 K2", "TC-RES-1", "not a Specialist card"),
])
@pytest.mark.rules("TC-RES-1")
def test_resolve_refusals(action: str, rule: str, message: str) -> None:
    state = new_game()
    crisis_on(state, "AZAR", "X06")
    state.players[XUNON].hand = ["S02", "S09", "C04"]
    give_knowledge(state, XUNON, Chemical=2)
    assert message in str(refused(state, action, rule))


@pytest.mark.rules("TC-RES-1", "TC-KNOW-1")
def test_a_specialist_alone_does_not_resolve() -> None:
    state = new_game()
    crisis_on(state, "AZAR", "X06")
    state.players[XUNON].hand = ["S09"]
    assert "Knowledge token" in str(refused(state, "RESOLVE X06 S09", "TC-RES-1"))


# -- Assisting ------------------------------------------------------------------------------------


def assist_ready(state: State) -> None:
    """Xunon specializes in Science; X01 (Biohazard, Science) strikes Azar."""
    crisis_on(state, "AZAR", "X01")
    state.bag.remove("Xunon")
    state.cubes["XUNO"] = ["Xunon"]


@pytest.mark.rules("TC-ASSIST-1", "TC-ASSIST-2")
def test_assist_load_and_drop_earns_a_diplomacy_card() -> None:
    state = new_game()
    assist_ready(state)
    p = state.players[XUNON]
    GAME.apply(state, "ASSIST-LOAD")
    assert p.cargo_cube and state.cubes["XUNO"] == []
    p.position = "AZAR"  # the travel itself is a Move action
    left = state.diplomacy_left
    GAME.apply(state, "ASSIST-DROP")
    assert not p.cargo_cube
    assert state.cubes["AZAR"] == ["Xunon"]
    assert p.diplomacy and state.diplomacy_left == left - 1


@pytest.mark.rules("TC-ASSIST-1")
def test_the_assisting_cube_stays_after_the_crisis_is_resolved_and_moves_one_gp() -> None:
    state = new_game()
    assist_ready(state)
    before = [scoring.score(state, s)["assists"] for s in (XUNON, AZARS)]
    GAME.apply(state, "ASSIST-LOAD")
    state.players[XUNON].position = "AZAR"
    GAME.apply(state, "ASSIST-DROP")
    give_knowledge(state, XUNON, Biohazard=3)
    GAME.apply(state, "RESOLVE X01 K3")
    assert state.cubes["AZAR"] == ["Xunon"]
    after = [scoring.score(state, s)["assists"] for s in (XUNON, AZARS)]
    assert after == [before[0] - 1, before[1] + 1]


@pytest.mark.rules("TC-ASSIST-2")
def test_a_player_keeps_at_most_one_diplomacy_card() -> None:
    state = new_game()
    assist_ready(state)
    state.cubes["XUNO"] = ["Xunon", "Xunon"]
    p = state.players[XUNON]
    for _ in range(2):
        p.position = "XUNO"
        GAME.apply(state, "ASSIST-LOAD")
        p.position = "AZAR"
        GAME.apply(state, "ASSIST-DROP")
    assert state.cubes["AZAR"] == ["Xunon", "Xunon"]
    assert p.diplomacy and state.diplomacy_left == 3


@pytest.mark.rules("TC-ASSIST-2")
def test_no_diplomacy_card_when_none_is_left() -> None:
    state = new_game()
    assist_ready(state)
    state.diplomacy_left = 0
    GAME.apply(state, "ASSIST-LOAD")
    state.players[XUNON].position = "AZAR"
    GAME.apply(state, "ASSIST-DROP")
    assert not state.players[XUNON].diplomacy and state.diplomacy_left == 0


@pytest.mark.rules("TC-ASSIST-1")
def test_assist_load_refusals() -> None:
    state = new_game()
    assist_ready(state)
    p = state.players[XUNON]
    p.position = "01"
    assert "while on Xuno" in str(refused(state, "ASSIST-LOAD", "TC-ASSIST-1"))
    p.position = "XUNO"
    state.cubes["XUNO"] = []
    assert "no Resource cube" in str(refused(state, "ASSIST-LOAD", "TC-ASSIST-1"))
    state.cubes["XUNO"] = ["Xunon"]
    p.cargo_cube = True
    assert "already carries" in str(refused(state, "ASSIST-LOAD", "TC-ASSIST-1"))
    p.cargo_cube = False
    p.damage = p.damage.set("cargo", 3)
    assert "destroyed" in str(refused(state, "ASSIST-LOAD", "TC-ASSIST-1"))
    p.damage = FrozenDict({})
    refused(state, "ASSIST-LOAD XUNO", "TC-ASSIST-1")


@pytest.mark.rules("TC-ASSIST-1")
def test_no_assist_for_a_crisis_affecting_another_resource_or_the_own_planet() -> None:
    state = new_game()
    state.bag.remove("Xunon")
    state.cubes["XUNO"] = ["Xunon"]
    crisis_on(state, "AZAR", "X06")  # affects Industry, not Science
    crisis_on(state, "XUNO", "X16")  # affects Science, but on Xunon's own planet
    assert "Science" in str(refused(state, "ASSIST-LOAD", "TC-ASSIST-1"))


@pytest.mark.rules("TC-ASSIST-1")
def test_assist_drop_refusals() -> None:
    state = new_game()
    assist_ready(state)
    p = state.players[XUNON]
    p.position = "AZAR"
    assert "carries no" in str(refused(state, "ASSIST-DROP", "TC-ASSIST-1"))
    p.cargo_cube = True
    p.position = "TRIOLO"
    refused(state, "ASSIST-DROP", "TC-ASSIST-1")
    p.position = "XUNO"
    refused(state, "ASSIST-DROP", "TC-ASSIST-1")


# -- legal actions ---------------------------------------------------------------------------------


@pytest.mark.rules("TC-MINOR-1")
def test_every_minor_action_offered_is_in_the_action_space_and_applies() -> None:
    state = new_game()
    assist_ready(state)
    crisis_on(state, "AZAR", "X06")
    p = state.players[XUNON]
    p.hand = ["S02", "S05", "S09"]
    state.gp_supply = tuple(x for x in state.gp_supply if x != "G01")
    p.gp_tokens = ("G01",)
    give_knowledge(state, XUNON, Chemical=3, Cosmic=1)
    give_knowledge(state, AZARS, Biohazard=1)
    space = GAME.action_space(state)
    legal = GAME.legal_actions(state)
    for action in legal:
        assert action in space
        GAME.apply(state.clone(), action)
    names = {str(a) for a in legal}
    assert {"TRADE-S S02 S05", "TRADE-K Chemical Cosmic Biohazard P1", "TRADE-K Chemical Chemical Political depot",
            "SELL-K Cosmic", "GP-TOKEN G01", "PLAY-S S05", "RESOLVE X06 S09", "RESOLVE X06 K3",
            "ASSIST-LOAD"} <= names
    assert act("CUBE-MAT") in legal
