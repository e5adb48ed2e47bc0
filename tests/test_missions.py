"""Interplanetary Missions (IM): draw 3 keep 1, skill-check IMs and pickup/deliver IMs."""

from __future__ import annotations

from typing import Any

import pytest

from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import ActiveMission, State
from tauceti_checks import refused

GAME = TauCeti()
XUNON = 0  # Dr. Krenji: Science 4, cargo 3, home planet Xuno; IM costs 2 energy
AZARS = 1


def new_game() -> State:
    state = GAME.new_game({"layout": "preset", "players": 2, "factions": ["Xunon", "Azars"]}, 1)
    assert state.current_player == XUNON and state.players[XUNON].position == "XUNO"
    return state


def cards(state: State, seat: int = XUNON) -> list[str]:
    return [m.card for m in state.players[seat].missions]


def take(state: State, card: str) -> None:
    """Take an IM with ``card`` on top of the IM deck and keep it."""
    state.mission_deck = tuple(x for x in state.mission_deck if x != card)
    state.mission_deck = (card, *state.mission_deck)
    GAME.apply(state, "IM")
    GAME.apply(state, f"KEEP {card}")


def finish_turn(state: State) -> None:
    """End this turn and the other player's (Refuel as the Major action), so the same
    player's next turn begins."""
    seat = state.current_player
    for _ in range(2):
        if not state.decision.data["major_done"]:
            GAME.apply(state, "REF")
        GAME.apply(state, "END")
    assert state.current_player == seat and state.decision.kind == "turn"


def mission(state: State, card: str, seat: int = XUNON) -> ActiveMission:
    return next(m for m in state.players[seat].missions if m.card == card)


# -- taking an IM ------------------------------------------------------------------


@pytest.mark.rules("TC-IM-2")
def test_im_draws_the_top_three_cards_and_keeps_one() -> None:
    state = new_game()
    for card in ("M03", "M02", "M01"):
        state.mission_deck = tuple(x for x in state.mission_deck if x != card)
        state.mission_deck = (card, *state.mission_deck)
    energy = state.players[XUNON].energy
    events = GAME.apply(state, "IM")
    assert state.players[XUNON].energy == energy - 2
    assert state.decision.kind == "keep_mission"
    assert state.decision.data["cards"] == ["M01", "M02", "M03"]
    assert sorted(str(a) for a in GAME.legal_actions(state)) == ["KEEP M01", "KEEP M02", "KEEP M03"]
    # "you may look at them": only the drawing player sees which cards were drawn.
    private = [e for e in events if e.data.get("drawn")]
    assert private and all(e.visible_to == frozenset({XUNON}) for e in private)
    assert all("M01" not in e.text for e in events if e.visible_to is None)
    GAME.apply(state, "KEEP M02")
    assert cards(state) == ["M02"]
    # "Shuffle the other two cards back into the bottom of the deck."
    assert sorted(state.mission_deck[-2:]) == ["M01", "M03"]
    assert len(state.mission_deck) == 29
    assert state.decision.kind == "turn" and state.decision.data["major_done"]


def test_the_log_says_what_the_kept_mission_asks_in_parentheses() -> None:
    state = new_game()
    top = ("M30", "M11")
    state.mission_deck = (*top, *(c for c in state.mission_deck if c not in top))
    GAME.apply(state, "IM")
    taken = next(e.text for e in GAME.apply(state, "KEEP M30") if e.kind == "mission_taken")
    # It was "places IM M30, a delivery from ... to Zorhkon on their Interface".
    assert taken.startswith(f"{state.players[XUNON].faction} places IM M30 (a delivery from Zuron Asteroid to "
                            "Zorhkon) on their Interface and returns 2 cards")


@pytest.mark.rules("TC-IM-2")
def test_keep_must_name_a_drawn_card() -> None:
    state = new_game()
    top = ("M01", "M02", "M03")
    state.mission_deck = (*top, *(c for c in state.mission_deck if c not in top))
    GAME.apply(state, "IM")
    assert refused(state, "KEEP M04").rule == "TC-IM-2"
    assert refused(state, "KEEP").rule == "TC-IM-2"
    assert refused(state, "KEEP M01 M02").rule == "TC-IM-2"
    assert refused(state, "END").rule == "TC-IM-2"


@pytest.mark.rules("TC-IM-2")
def test_full_interface_refuses_im() -> None:
    state = new_game()
    state.players[XUNON].missions = (ActiveMission("M01"), ActiveMission("M02"))  # skill checks: a
    # delivery under way would refuse the IM first (TC-IM-4)
    assert state.content.numbers.im_slots == 2
    assert refused(state, "IM").rule == "TC-IM-2"


@pytest.mark.rules("TC-IM-2")
def test_im_takes_no_arguments() -> None:
    state = new_game()
    assert refused(state, "IM M01").rule == "TC-IM-2"


@pytest.mark.rules("TC-IM-2")
def test_second_im_fills_the_other_card_space() -> None:
    state = new_game()
    take(state, "M01")
    finish_turn(state)
    take(state, "M16")
    assert cards(state) == ["M01", "M16"]


# -- pickup/deliver IMs ---------------------------------------------------------------


@pytest.mark.rules("TC-IM-2", "TC-IM-3", "TC-IM-4", "TC-IM-5", "TC-TAU-1")
def test_krenji_delivers_from_xuno_to_zuron_asteroid_for_9_tau() -> None:
    """The rulebook's example: cargo capacity 3, 3 sectors from Xuno to Zuron Asteroid, 9T."""
    state = new_game()
    take(state, "M16")
    assert mission(state, "M16").route == 3
    GAME.apply(state, "PICKUP M16")
    assert mission(state, "M16").picked_up
    state.players[XUNON].position = "10"  # he travels 3 sectors (Move is another module)
    tau = state.players[XUNON].tau
    GAME.apply(state, "DELIVER M16")
    assert state.players[XUNON].tau == tau + 9
    assert cards(state) == []
    assert state.mission_discard == ("M16",)


@pytest.mark.rules("TC-IM-4", "TC-DMG-1")
def test_damaged_cargo_hold_lowers_the_delivery_reward() -> None:
    state = new_game()
    state.players[XUNON].missions = (ActiveMission("M16", picked_up=True),)
    state.players[XUNON].damage = state.players[XUNON].damage.set("cargo", 1)
    state.players[XUNON].position = "10"
    tau = state.players[XUNON].tau
    GAME.apply(state, "DELIVER M16")
    assert state.players[XUNON].tau == tau + 2 * 3


@pytest.mark.rules("TC-IM-4", "TC-MOV-3")
def test_reward_counts_the_minimum_route_not_the_detour() -> None:
    """Xuno to Triolo goes around TAU CETI (which cannot be moved through): 5 sectors."""
    state = new_game()
    take(state, "M21")
    GAME.apply(state, "PICKUP M21")
    state.players[XUNON].position = "TRIOLO"
    tau = state.players[XUNON].tau
    GAME.apply(state, "DELIVER M21")
    assert state.players[XUNON].tau == tau + 3 * 5


@pytest.mark.rules("TC-IM-3")
def test_delivery_needs_the_pickup_first() -> None:
    state = new_game()
    state.players[XUNON].missions = (ActiveMission("M16"),)
    state.players[XUNON].position = "10"
    assert refused(state, "DELIVER M16").rule == "TC-IM-3"
    assert refused(state, "PICKUP M16").rule == "TC-IM-3"  # not in Xuno


@pytest.mark.rules("TC-IM-3")
def test_delivery_only_in_the_delivery_sector() -> None:
    state = new_game()
    state.players[XUNON].missions = (ActiveMission("M16"),)
    GAME.apply(state, "PICKUP M16")
    assert refused(state, "PICKUP M16").rule == "TC-IM-3"  # already picked up
    assert refused(state, "DELIVER M16").rule == "TC-IM-3"  # still in Xuno


@pytest.mark.rules("TC-IM-1", "TC-IM-2", "TC-IM-3")
def test_delivery_verbs_refuse_other_cards() -> None:
    state = new_game()
    state.players[XUNON].missions = (ActiveMission("M01"),)
    assert refused(state, "PICKUP M01").rule == "TC-IM-1"  # a skill-check IM
    assert refused(state, "DELIVER M16").rule == "TC-IM-2"  # not on the Interface
    assert refused(state, "PICKUP M99").rule == "TC-IM-2"
    assert refused(state, "PICKUP").rule == "TC-IM-3"
    assert refused(state, "DELIVER M01 M16").rule == "TC-IM-3"


# -- skill-check IMs ---------------------------------------------------------------------


@pytest.mark.rules("TC-IM-1", "TC-IM-2", "TC-SKILL-1", "TC-SKILL-3", "TC-TAU-1")
def test_skill_check_success_pays_the_card_and_discards_it() -> None:
    state = new_game()  # M01: Science check, 1 die showing 4+, in Xuno, 4T
    take(state, "M01")
    tau = state.players[XUNON].tau
    state.rng.script_dice([4, 1, 1, 1])  # Dr. Krenji rolls 4 dice (Science 4)
    GAME.apply(state, "IM-CHECK M01")
    assert state.players[XUNON].tau == tau + 4
    assert cards(state) == []
    assert state.mission_discard == ("M01",)


@pytest.mark.rules("TC-IM-1", "TC-REROLL-1")
def test_failed_skill_check_leaves_the_card_on_the_interface() -> None:
    state = new_game()
    state.players[XUNON].missions = (ActiveMission("M01"),)
    tau = state.players[XUNON].tau
    state.rng.script_dice([3, 3, 2, 1])
    GAME.apply(state, "IM-CHECK M01")
    assert state.decision.kind == "reroll"
    GAME.apply(state, "ACCEPT")
    assert state.players[XUNON].tau == tau
    assert cards(state) == ["M01"]
    assert state.mission_discard == ()


@pytest.mark.rules("TC-REROLL-1")
def test_failed_skill_check_may_be_re_rolled_for_2_tau() -> None:
    state = new_game()
    state.players[XUNON].missions = (ActiveMission("M01"),)
    tau = state.players[XUNON].tau
    state.rng.script_dice([3, 3, 2, 1, 6, 1, 1, 1])
    GAME.apply(state, "IM-CHECK M01")
    GAME.apply(state, "REROLL")
    assert state.players[XUNON].tau == tau - 2 + 4
    assert cards(state) == []


@pytest.mark.rules("TC-IM-1")
def test_skill_check_once_per_card_per_turn() -> None:
    state = new_game()
    state.players[XUNON].missions = (ActiveMission("M01"),)
    state.rng.script_dice([1, 1, 1, 1])
    GAME.apply(state, "IM-CHECK M01")
    GAME.apply(state, "ACCEPT")
    assert refused(state, "IM-CHECK M01").rule == "TC-IM-1"
    finish_turn(state)
    state.rng.script_dice([5, 1, 1, 1])
    GAME.apply(state, "IM-CHECK M01")
    assert cards(state) == []


@pytest.mark.rules("TC-IM-1")
def test_skill_check_only_in_the_cards_sector() -> None:
    state = new_game()
    state.players[XUNON].missions = (ActiveMission("M02"),)  # in Zorhkon
    assert refused(state, "IM-CHECK M02").rule == "TC-IM-1"
    state.players[XUNON].position = "ZORHKON"
    state.rng.script_dice([6, 1])
    GAME.apply(state, "IM-CHECK M02")
    assert cards(state) == []


@pytest.mark.rules("TC-IM-1", "TC-IM-2")
def test_skill_check_refuses_malformed_actions() -> None:
    state = new_game()
    state.players[XUNON].missions = (ActiveMission("M16"),)
    assert refused(state, "IM-CHECK M16").rule == "TC-IM-1"  # a pickup/deliver IM
    assert refused(state, "IM-CHECK M01").rule == "TC-IM-2"  # not on the Interface
    assert refused(state, "IM-CHECK").rule == "TC-IM-1"
    assert refused(state, "IM-CHECK M16 M01").rule == "TC-IM-1"


# -- saving -------------------------------------------------------------------------------


def test_missions_survive_a_save_and_load() -> None:
    state = new_game()
    take(state, "M16")
    GAME.apply(state, "PICKUP M16")
    data: dict[str, Any] = GAME.to_json(state)
    loaded = GAME.from_json(data)
    assert loaded.players[XUNON].missions == state.players[XUNON].missions
