"""Explore (EXP), Claim tokens and Expanding Economic Influence, with the rulebook's examples.

In the preset layout sector 01 has three Exploration points: ``01.2`` plays the one "in the
center of this sector" and ``01.1`` "the leftmost Knowledge token" of Captain Anor's example.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.tauceti import board, checks
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import Point, State
from tauceti_checks import refused

GAME = TauCeti()
ANOR, BORZON, KRENJI = "Azars", "Zorhkonian", "Xunon"


def new(first: str, second: str, seed: int = 1) -> State:
    """A preset-layout game where ``first`` (seat 0) is taking the first turn."""
    return GAME.new_game({"layout": "preset", "players": 2, "factions": [first, second]}, seed)


def on_top(state: State, *cards: str) -> None:
    """Stack the Knowledge deck: ``cards`` on top, in this order."""
    for card in cards:
        state.knowledge_deck = tuple(x for x in state.knowledge_deck if x != card)
    state.knowledge_deck = (*cards, *state.knowledge_deck)


def first_card(state: State, knowledge_type: str) -> str:
    return next(c for c in state.knowledge_deck
                if state.content.knowledge_card(c).knowledge_type == knowledge_type)


def script(state: State, seat: int, card: str, die: int) -> None:
    """Every die of the card's skill check shows ``die`` (6: success, 1: failure)."""
    check = state.content.knowledge_card(card).check
    state.rng.script_dice([die] * checks.dice_for(state, seat, check.skill))


def ready(state: State, seat: int, point: str, token: str, *, succeed: bool = True) -> str:
    """Ship in the point's sector, ``token`` on the point, its first card's dice scripted."""
    pt = replace(state.points[point], token=token)
    state.points = state.points.set(point, pt)
    state.players[seat].position = pt.sector
    card = first_card(state, token)
    script(state, seat, card, 6 if succeed else 1)
    return card


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def next_turn_of_seat_0(state: State) -> None:
    """End seat 0's turn; seat 1 refuels; seat 0 is up again on a later turn."""
    GAME.apply(state, "END")
    GAME.apply(state, "REF")
    GAME.apply(state, "END")
    assert state.current_player == 0


def add_outer_limit(state: State, tile: str, cell: tuple[int, int], token: str) -> None:
    state.outer_limit_stack = tuple(x for x in state.outer_limit_stack if x != tile)
    state.layout = state.layout.set(tile, cell)
    state.points = state.points.set(f"{tile}.1", Point(f"{tile}.1", tile, token))


# -- Explore (EXP) ---------------------------------------------------------------------


@pytest.mark.rules("TC-EXP-2", "TC-EXP-3", "TC-EXP-5", "TC-KNOW-1", "TC-ENERGY-1")
def test_chemical_token_draws_the_first_chemical_card_of_the_deck() -> None:
    """Example: "a Chemical Knowledge token was revealed, and the corresponding Chemical
    Knowledge card is drawn" — by flipping through the deck; the flipped-past cards stay."""
    state = new(ANOR, BORZON)
    on_top(state, "K01", "K09", "K05", "K06")  # Biohazard, Cosmic, then the Chemical cards
    ready(state, 0, "01.2", "Chemical")
    p = state.players[0]
    energy = p.energy
    ev = GAME.apply(state, "EXP 01.2")
    reveal = next(e for e in ev if e.kind == "knowledge_revealed")
    assert reveal.visible_to is None and reveal.data["knowledge"] == "Chemical"
    assert next(e for e in ev if e.kind == "knowledge_card").data["card"] == "K05"
    assert state.knowledge_deck[:3] == ("K01", "K09", "K06")
    # K05 rewards the token and 1 energy; EXP costs the Azars 2 energy.
    assert p.knowledge["Chemical"] == 1
    assert p.energy == energy - 2 + 1
    assert state.knowledge_discard == ("K05",)
    assert state.points["01.2"].token is None and state.points["01.2"].explored_by == 0


def test_the_success_in_the_log_leaves_out_a_reward_of_nothing() -> None:
    state = new(ANOR, BORZON)
    on_top(state, "K05")  # Chemical: the token and 1 energy, no TAU
    ready(state, 0, "01.2", "Chemical")
    text = next(e.text for e in GAME.apply(state, "EXP 01.2") if e.kind == "explore_success")
    # It was "+0T, +1 energy; ...".
    assert text == ("Azars explores Exploration point 2 of Sector 01 successfully: +1 energy; takes the Knowledge "
                    "token; K05 is discarded.")


@pytest.mark.rules("TC-EXP-3")
def test_a_card_without_the_token_reward_sends_the_token_to_the_galactic_depot() -> None:
    state = new(ANOR, BORZON)
    on_top(state, "K08")  # Chemical: 3T and 1 energy, no token
    ready(state, 0, "10.1", "Chemical")
    depot = state.depot_knowledge["Chemical"]
    tau = state.players[0].tau
    GAME.apply(state, "EXP 10.1")
    assert state.players[0].knowledge["Chemical"] == 0
    assert state.depot_knowledge["Chemical"] == depot + 1
    assert state.players[0].tau == tau + 3


@pytest.mark.rules("TC-EXP-4", "TC-REROLL-1")
def test_failed_exploration_turns_the_token_face_down_and_the_card_goes_to_the_bottom() -> None:
    state = new(ANOR, BORZON)
    card = ready(state, 0, "01.2", "Cosmic", succeed=False)
    GAME.apply(state, "EXP 01.2")
    assert state.decision.kind == "reroll"
    assert state.points["01.2"].face_up  # revealed while the player decides
    ev = GAME.apply(state, "ACCEPT")
    pt = state.points["01.2"]
    assert pt.token == "Cosmic" and not pt.face_up and pt.explored_by is None
    assert state.knowledge_deck[-1] == card
    assert state.players[0].knowledge["Cosmic"] == 0
    assert "explore_failed" in kinds(ev)
    assert state.decision.kind == "turn"  # no Claim token after a failure


@pytest.mark.rules("TC-EXP-4", "TC-REROLL-1")
def test_failure_without_two_tau_ends_at_once() -> None:
    state = new(ANOR, BORZON)
    state.players[0].tau = 1
    card = ready(state, 0, "01.2", "Cosmic", succeed=False)
    GAME.apply(state, "EXP 01.2")
    assert state.decision.kind == "turn"
    assert state.knowledge_deck[-1] == card and not state.points["01.2"].face_up


@pytest.mark.rules("TC-REROLL-1", "TC-EXP-3")
def test_a_re_roll_for_2_tau_can_turn_the_exploration_into_a_success() -> None:
    state = new(ANOR, BORZON)
    card = ready(state, 0, "01.2", "Cosmic", succeed=False)
    GAME.apply(state, "EXP 01.2")
    tau = state.players[0].tau
    script(state, 0, card, 6)
    GAME.apply(state, "REROLL")
    assert state.players[0].tau == tau - 2 + state.content.knowledge_card(card).reward_tau
    assert state.points["01.2"].token is None and state.points["01.2"].explored_by == 0
    assert card in state.knowledge_discard
    assert state.decision.kind == "claim"


@pytest.mark.rules("TC-EXP-2")
def test_no_card_of_the_type_left_in_the_deck_shuffles_the_discard_pile_under_it() -> None:
    state = new(ANOR, BORZON)
    chemical = [c for c in state.knowledge_deck
                if state.content.knowledge_card(c).knowledge_type == "Chemical"]
    rest = [c for c in state.knowledge_deck if c not in chemical]
    state.knowledge_deck = tuple(rest)
    state.knowledge_discard = tuple(chemical)
    state.points = state.points.set("10.1", replace(state.points["10.1"], token="Chemical"))
    state.players[0].position = "10"
    state.players[0].tau = 0  # no re-roll: the check settles at once
    ev = GAME.apply(state, "EXP 10.1")
    assert "knowledge_reshuffle" in kinds(ev)
    assert list(state.knowledge_deck[: len(rest)]) == rest
    drawn = next(e for e in ev if e.kind == "knowledge_card").data["card"]
    assert drawn in chemical
    assert sorted(state.knowledge_deck + state.knowledge_discard) == sorted(rest + chemical)


# -- refusals ---------------------------------------------------------------------------


@pytest.mark.rules("TC-EXP-2")
def test_explore_only_the_sector_your_starship_is_in() -> None:
    state = new(ANOR, BORZON)
    state.players[0].position = "03"
    assert refused(state, "EXP 01.2").rule == "TC-EXP-2"


@pytest.mark.rules("TC-EXP-2")
def test_malformed_and_unknown_points_are_refused() -> None:
    state = new(ANOR, BORZON)
    state.players[0].position = "01"
    assert refused(state, "EXP").rule == "TC-EXP-2"
    assert refused(state, "EXP 01.2 01.3").rule == "TC-EXP-2"
    assert refused(state, "EXP 99.1").rule == "TC-EXP-2"


@pytest.mark.rules("TC-EXP-1")
def test_an_explored_point_has_no_knowledge_token_left() -> None:
    state = new(ANOR, BORZON)
    state.players[0].position = "10"
    state.points = state.points.set("10.1", replace(state.points["10.1"], token=None, explored_by=1))
    assert refused(state, "EXP 10.1").rule == "TC-EXP-1"
    assert "EXP 10.1" not in {str(a) for a in GAME.legal_actions(state)}


@pytest.mark.rules("TC-CLAIM-1")
def test_a_point_claimed_by_another_player_cannot_be_explored() -> None:
    state = new(ANOR, BORZON)
    state.players[0].position = "01"
    state.points = state.points.set("01.1", replace(state.points["01.1"], claimed_by=1))
    state.players[1].claim = "01.1"
    err = refused(state, "EXP 01.1")
    assert err.rule == "TC-CLAIM-1"
    assert "EXP 01.1" not in {str(a) for a in GAME.legal_actions(state)}


@pytest.mark.rules("TC-CLAIM-2")
def test_your_claimed_point_waits_for_your_next_turn() -> None:
    state = new(ANOR, BORZON)
    p = state.players[0]
    p.position = "01"
    p.claim, p.claim_turn = "01.1", state.turn_count
    state.points = state.points.set("01.1", replace(state.points["01.1"], claimed_by=0))
    assert refused(state, "EXP 01.1").rule == "TC-CLAIM-2"


# -- Claim tokens --------------------------------------------------------------------------


@pytest.mark.rules("TC-CLAIM-1", "TC-CLAIM-2", "TC-CLAIM-4", "TC-CLAIM-5", "TC-CUBE-1")
def test_captain_anor_claims_a_point_and_explores_it_on_her_next_turn() -> None:
    """Examples: Anor explores the centre point of the sector, puts her Claim token on the
    leftmost Knowledge token, explores it on her next turn, then "removed her Claim token and
    placed one of her Resource cubes in between the two explored points"."""
    state = new(ANOR, BORZON)
    anor = state.players[0]
    ready(state, 0, "01.2", "Chemical")
    GAME.apply(state, "EXP 01.2")
    assert state.decision.kind == "claim"
    assert [str(a) for a in GAME.legal_actions(state)] == ["CLAIM 01.1", "CLAIM 01.3", "NOCLAIM"]
    GAME.apply(state, "CLAIM 01.1")
    assert anor.claim == "01.1" and state.points["01.1"].claimed_by == 0
    assert anor.claim_turn == state.turn_count

    next_turn_of_seat_0(state)
    ready(state, 0, "01.1", "Cosmic")
    in_bag = state.bag.count(ANOR)
    ev = GAME.apply(state, "EXP 01.1")
    assert anor.claim is None and state.points["01.1"].claimed_by is None
    assert state.cubes["01"] == [ANOR]
    assert state.bag.count(ANOR) == in_bag - 1
    assert "cube_placed" in kinds(ev)
    assert state.decision.kind == "turn"  # the Claim token is not placed again
    assert board.controllers(state, "01") == {0}


@pytest.mark.rules("TC-CLAIM-1")
def test_declining_the_claim_keeps_the_token() -> None:
    state = new(ANOR, BORZON)
    ready(state, 0, "05.1", "Political")
    GAME.apply(state, "EXP 05.1")
    GAME.apply(state, "NOCLAIM")
    assert state.players[0].claim is None and state.points["05.2"].claimed_by is None
    assert state.decision.kind == "turn"


@pytest.mark.rules("TC-CLAIM-1")
def test_claim_decision_refuses_other_points() -> None:
    state = new(ANOR, BORZON)
    ready(state, 0, "01.2", "Chemical")
    GAME.apply(state, "EXP 01.2")
    assert refused(state, "CLAIM 01.2").rule == "TC-CLAIM-1"  # the point just explored
    assert refused(state, "CLAIM 05.1").rule == "TC-CLAIM-1"  # another sector
    assert refused(state, "CLAIM").rule == "TC-CLAIM-1"


@pytest.mark.rules("TC-CLAIM-2")
def test_the_claim_token_is_used_for_one_point_at_a_time() -> None:
    state = new(ANOR, BORZON)
    anor = state.players[0]
    anor.claim, anor.claim_turn = "05.2", 0
    state.points = state.points.set("05.2", replace(state.points["05.2"], claimed_by=0))
    ready(state, 0, "01.2", "Chemical")
    GAME.apply(state, "EXP 01.2")
    assert state.decision.kind == "turn"
    assert anor.claim == "05.2"


@pytest.mark.rules("TC-CLAIM-1")
def test_another_players_claim_leaves_nothing_to_claim() -> None:
    state = new(ANOR, BORZON)
    state.points = state.points.set("05.2", replace(state.points["05.2"], claimed_by=1))
    state.players[1].claim = "05.2"
    ready(state, 0, "05.1", "Political")
    GAME.apply(state, "EXP 05.1")
    assert state.decision.kind == "turn"


@pytest.mark.rules("TC-CLAIM-2", "TC-EXP-4")
def test_a_failed_claimed_exploration_keeps_the_claim() -> None:
    state = new(ANOR, BORZON)
    anor = state.players[0]
    anor.claim, anor.claim_turn = "01.1", 0
    anor.tau = 0
    state.points = state.points.set("01.1", replace(state.points["01.1"], claimed_by=0))
    ready(state, 0, "01.1", "Cosmic", succeed=False)
    GAME.apply(state, "EXP 01.1")
    assert anor.claim == "01.1" and state.points["01.1"].claimed_by == 0
    assert "01" not in state.cubes or ANOR not in state.cubes["01"]


@pytest.mark.rules("TC-CLAIM-3")
def test_at_most_four_resource_cubes_come_out_of_the_bag() -> None:
    """"you can only take a maximum of 4 of your Resource cubes out of the Enlightenment bag"."""
    state = new(ANOR, BORZON)
    for _ in range(4):
        state.bag.remove(ANOR)
    state.cubes["AZAR"] = [ANOR] * 4
    anor = state.players[0]
    anor.claim, anor.claim_turn = "01.1", 0
    state.points = state.points.set("01.1", replace(state.points["01.1"], claimed_by=0))
    ready(state, 0, "01.1", "Cosmic")
    ev = GAME.apply(state, "EXP 01.1")
    assert state.bag.count(ANOR) == 1
    assert ANOR not in state.cubes.get("01", [])
    assert anor.claim is None  # the Claim token still comes back
    assert "no_cube" in kinds(ev)


@pytest.mark.rules("TC-ECON-1", "TC-EI-7")
def test_no_cube_where_another_player_controls_the_sector() -> None:
    state = new(ANOR, BORZON)
    state.orbitals["05"] = [1]
    anor = state.players[0]
    anor.claim, anor.claim_turn = "05.2", 0
    state.points = state.points.set("05.2", replace(state.points["05.2"], claimed_by=0))
    ready(state, 0, "05.2", "Cosmic")
    GAME.apply(state, "EXP 05.2")
    assert ANOR not in state.cubes.get("05", [])
    assert board.controllers(state, "05") == {1}


# -- Expanding Economic Influence ------------------------------------------------------------


@pytest.mark.rules("TC-EI-1", "TC-EI-3")
def test_anor_expands_into_two_connected_outer_limit_tiles() -> None:
    """Example [1]-[3]: from a sector with her Resource cube Anor explores two Outer Limit tiles
    in a row and places a cube in each "since they are all connected". In the preset layout
    sector 01 is surrounded, so her root here is a cube in sector 02."""
    state = new(ANOR, BORZON)
    state.bag.remove(ANOR)
    state.cubes["02"] = [ANOR]
    add_outer_limit(state, "11", (1, 1), "Geological")
    add_outer_limit(state, "12", (2, 1), "Biohazard")
    assert "02" in board.adjacent_tiles(state, "11")
    assert board.adjacent_tiles(state, "12") == ["11", "TRIOLO"]

    ready(state, 0, "11.1", "Geological")
    GAME.apply(state, "EXP 11.1")
    assert state.cubes["11"] == [ANOR]
    next_turn_of_seat_0(state)
    ready(state, 0, "12.1", "Biohazard")
    GAME.apply(state, "EXP 12.1")
    assert state.cubes["12"] == [ANOR]
    assert state.decision.kind == "turn"  # single-point sectors take no Claim token


@pytest.mark.rules("TC-EI-1")
def test_an_outer_limit_tile_away_from_your_influence_gets_no_cube() -> None:
    state = new(ANOR, BORZON)
    add_outer_limit(state, "11", (1, 1), "Geological")
    ready(state, 0, "11.1", "Geological")
    ev = GAME.apply(state, "EXP 11.1")
    assert "11" not in state.cubes
    assert "no_cube" in kinds(ev)


@pytest.mark.rules("TC-EI-1", "TC-EI-4")
def test_borzon_expands_from_sector_03_into_the_zuron_asteroid() -> None:
    """Example [4]-[5]: a cube in sector 03, then sector 10 "Zuron Asteroid" is explored."""
    state = new(BORZON, ANOR)
    state.bag.remove(BORZON)
    state.cubes["03"] = [BORZON]
    ready(state, 0, "10.1", "Technological")
    GAME.apply(state, "EXP 10.1")
    assert state.cubes["10"] == [BORZON]


@pytest.mark.rules("TC-EI-1", "TC-EI-2")
def test_the_zuron_asteroid_is_reached_through_sector_03_alone() -> None:
    """Dr. Krenji's home planet does not touch sector 10: only his cube in 03 connects it."""
    with_root = new(KRENJI, ANOR)
    with_root.bag.remove(KRENJI)
    with_root.cubes["03"] = [KRENJI]
    ready(with_root, 0, "10.1", "Technological")
    GAME.apply(with_root, "EXP 10.1")
    assert with_root.cubes["10"] == [KRENJI]

    without = new(KRENJI, ANOR)
    ready(without, 0, "10.1", "Technological")
    GAME.apply(without, "EXP 10.1")
    assert "10" not in without.cubes


@pytest.mark.rules("TC-EI-2", "TC-EI-5")
def test_borzon_cannot_expand_into_sector_06_but_anor_can() -> None:
    """Example [6]: sector 06 is not connected to Borzon's influence (03, 10), but it is
    connected to Anor's home planet."""
    state = new(BORZON, ANOR)
    state.bag.remove(BORZON)
    state.bag.remove(BORZON)
    state.cubes["03"] = [BORZON]
    state.cubes["10"] = [BORZON]
    ready(state, 0, "06.1", "Cosmic")
    GAME.apply(state, "EXP 06.1")
    assert state.points["06.1"].explored_by == 0
    assert "06" not in state.cubes

    state = new(ANOR, BORZON)
    assert "AZAR" in board.adjacent_tiles(state, "06")
    ready(state, 0, "06.1", "Cosmic")
    GAME.apply(state, "EXP 06.1")
    assert state.cubes["06"] == [ANOR]


@pytest.mark.rules("TC-CLAIM-3", "TC-EI-2")
def test_expansion_stops_at_the_four_cube_limit() -> None:
    state = new(ANOR, BORZON)
    for _ in range(4):
        state.bag.remove(ANOR)
    state.cubes["AZAR"] = [ANOR] * 4
    ready(state, 0, "06.1", "Cosmic")
    GAME.apply(state, "EXP 06.1")
    assert "06" not in state.cubes and state.bag.count(ANOR) == 1


POINT_ID = re.compile(r"\b\d\d\.\d\b")
EXPLORATION_LOG = {"knowledge_revealed", "explore_failed", "explore_success", "claim", "claim_removed"}


def test_the_log_and_the_refusals_name_an_exploration_point_in_words() -> None:
    """The log said "Xunon explores 01.2 in Wormhole Sector": ``01.2`` is the notation's name,
    which a player reading the log has nowhere to look up. The log and the refusals of EXP say
    "Exploration point 2 of Wormhole Sector". Random games that explore whenever they can, until
    a dozen exploration lines are seen; every line and every refusal of an EXP checked."""
    rng = random.Random(3)
    lines: list[str] = []
    refusals: list[str] = []
    kinds: set[str] = set()
    for seed in range(3, 13):
        state = GAME.new_game({"layout": "random", "players": 2, "game": "short"}, seed)
        while not state.is_over:
            actions = GAME.legal_actions(state)
            if any(a.verb == "EXP" for a in actions):
                for pid in list(state.points)[:6]:
                    try:
                        GAME.apply(state.clone(), f"EXP {pid}")
                    except IllegalAction as refusal:
                        refusals.append(str(refusal))
            explore = [a for a in actions if a.verb in ("EXP", "CLAIM")]
            action = rng.choice(explore or actions)
            events = [e for e in GAME.apply(state, action) if e.kind in EXPLORATION_LOG]
            lines += [e.text for e in events]
            kinds |= {e.kind for e in events}
        if len(lines) >= 12 and {"explore_failed", "explore_success"} <= kinds:
            break
    assert len(lines) >= 12 and refusals
    for text in lines + refusals:
        assert not POINT_ID.search(text) and "{" not in text, text
    assert all("Exploration point" in text for text in lines if "explores" in text)
    assert {"explore_failed", "explore_success"} <= kinds
