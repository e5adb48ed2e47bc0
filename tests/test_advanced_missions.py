"""Advanced Rules 4 (TCA permission for pickup/deliver IMs) and 5 (quark-gluon plasma).

Dr. Krenji (Xunon, seat 0) starts on Xuno with 10T, cargo 3, Shields 2 and Logistics 2
(two dice for the permission check). M16 carries Xunari algae from Xuno to the Zuron
Asteroid (3 sectors); M29 carries quark-gluon plasma from Triolo to Xuno (5 sectors).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from ecliptic.engine.events import Event
from ecliptic.tauceti import ship
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import ActiveMission, Decision, State
from tauceti_checks import refused

GAME = TauCeti()
XUNON = 0


def new_game(*advanced: int) -> State:
    state = GAME.new_game({"layout": "preset", "players": 2, "factions": ["Xunon", "Azars"],
                           "advanced": list(advanced)}, 1)
    assert state.current_player == XUNON and state.players[XUNON].position == "XUNO"
    return state


def take(state: State, card: str, dice: list[int] | None = None) -> list[Event]:
    """Take an IM with ``card`` on top of the IM deck and keep it (``dice``: the permission
    check's scripted dice)."""
    state.mission_deck = tuple(x for x in state.mission_deck if x != card)
    state.mission_deck = (card, *state.mission_deck)
    GAME.apply(state, "IM")
    if dice is not None:
        state.rng.script_dice(dice)
    return GAME.apply(state, f"KEEP {card}")


def mission(state: State, card: str) -> ActiveMission:
    return next(m for m in state.players[XUNON].missions if m.card == card)


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def deliver_m16(state: State, die: int | None = None) -> list[Event]:
    """Pick up M16 on Xuno, fly to the Zuron Asteroid (another module) and deliver it."""
    GAME.apply(state, "PICKUP M16")
    state.players[XUNON].position = "10"
    if die is not None:
        state.rng.script_dice([die])
    return GAME.apply(state, "DELIVER M16")


# -- Advanced Rule 4: the permission check -------------------------------------------------


@pytest.mark.rules("TC-ADV4-1", "TC-SETUP-15")
def test_without_rule_4_a_delivery_im_needs_no_permission() -> None:
    state = new_game()
    events = take(state, "M16")
    assert "permission_check" not in kinds(events)
    assert mission(state, "M16").permitted and not mission(state, "M16").unauthorized
    tau = state.players[XUNON].tau
    events = deliver_m16(state)
    assert state.players[XUNON].tau == tau + 9
    assert "fine" not in kinds(events) and "smuggled" not in kinds(events)


@pytest.mark.parametrize(("dice", "permitted"), [
    ([5, 1], True), ([1, 6], True), ([6, 5], True), ([4, 4], False), ([1, 2], False),
])
@pytest.mark.rules("TC-ADV4-1")
def test_permission_when_a_logistics_die_shows_5_or_6(dice: list[int], permitted: bool) -> None:
    """"perform a Logistics skill check. If 5 or 6, you have permission": Krenji rolls his two
    Logistics dice; one die showing 5 or 6 is permission."""
    state = new_game(4)
    state.players[XUNON].tau = 1  # no 2T for a re-roll: the result stands
    events = take(state, "M16", dice)
    assert state.rng.dice_script == ()  # exactly the two Logistics dice were rolled
    check = next(e for e in events if e.kind == "skill_check")
    assert check.data["skill"] == "Logistics" and check.data["dice"] == dice
    m = mission(state, "M16")
    assert m.permitted is permitted
    assert m.unauthorized is not permitted  # no permission: the UT token goes on the card
    assert state.decision.kind == "turn"


@pytest.mark.rules("TC-ADV4-1")
def test_permission_check_is_asked_for_delivery_ims_only() -> None:
    state = new_game(4)
    events = take(state, "M01")  # a skill-check IM
    assert "permission_check" not in kinds(events)
    assert mission(state, "M01").permitted


@pytest.mark.rules("TC-ADV4-1", "TC-REROLL-1")
def test_failed_permission_check_may_be_re_rolled_for_2_tau() -> None:
    state = new_game(4)
    tau = state.players[XUNON].tau
    take(state, "M16", [1, 2])
    assert state.decision.kind == "reroll"
    assert not mission(state, "M16").permitted  # not settled yet
    state.rng.script_dice([3, 5])
    GAME.apply(state, "REROLL")
    assert state.players[XUNON].tau == tau - 2
    assert mission(state, "M16").permitted and not mission(state, "M16").unauthorized
    assert state.decision.kind == "turn"


@pytest.mark.rules("TC-ADV4-1")
def test_failed_permission_check_accepted_puts_the_ut_token_on_the_card() -> None:
    state = new_game(4)
    take(state, "M16", [1, 2])
    events = GAME.apply(state, "ACCEPT")
    m = mission(state, "M16")
    assert not m.permitted and m.unauthorized
    assert "unauthorized_transport" in kinds(events)


# -- Advanced Rule 4: delivering with the Unauthorized Transport token -----------------------


@pytest.mark.parametrize("die", [5, 6])
@pytest.mark.rules("TC-ADV4-2")
def test_unauthorized_delivery_smuggled_in_on_5_or_6(die: int) -> None:
    state = new_game(4)
    state.players[XUNON].missions = (ActiveMission("M16", unauthorized=True, permitted=False, route=3),)
    tau = state.players[XUNON].tau
    events = deliver_m16(state, die)
    assert state.rng.dice_script == ()
    assert state.players[XUNON].tau == tau + 9  # no fine
    assert [e.data["die"] for e in events if e.kind == "smuggled"] == [die]
    assert state.players[XUNON].missions == () and state.mission_discard == ("M16",)


@pytest.mark.parametrize("die", [1, 2, 3, 4])
@pytest.mark.rules("TC-ADV4-2")
def test_unauthorized_delivery_caught_on_1_to_4_pays_that_fine(die: int) -> None:
    state = new_game(4)
    state.players[XUNON].missions = (ActiveMission("M16", unauthorized=True, permitted=False, route=3),)
    tau = state.players[XUNON].tau
    events = deliver_m16(state, die)
    assert state.players[XUNON].tau == tau + 9 - die
    assert [e.data["fine"] for e in events if e.kind == "fine"] == [die]


@pytest.mark.rules("TC-ADV4-2")
def test_the_fine_never_takes_tau_below_0() -> None:
    """The reward is paid first; a fine larger than the TAU left takes what there is."""
    state = new_game(4)
    p = state.players[XUNON]
    p.missions = (ActiveMission("M16", unauthorized=True, permitted=False, route=3),)
    p.damage = p.damage.set("cargo", 3)  # cargo hold destroyed: the delivery pays 0
    p.tau = 1
    events = deliver_m16(state, 4)
    assert p.tau == 0
    assert [e.data["fine"] for e in events if e.kind == "fine"] == [1]


@pytest.mark.rules("TC-ADV4-2")
def test_permitted_delivery_rolls_no_die() -> None:
    state = new_game(4)
    state.players[XUNON].missions = (ActiveMission("M16", route=3),)
    tau = state.players[XUNON].tau
    events = deliver_m16(state)
    assert state.players[XUNON].tau == tau + 9
    assert "fine" not in kinds(events) and "smuggled" not in kinds(events)


@pytest.mark.rules("TC-ADV4-1")
def test_second_unauthorized_delivery_waits_for_the_ut_token() -> None:
    """The faction has 1 UT token: a second card refused permission while the token is on
    the first cannot be delivered until the first is; then the token moves to it. (No IM is
    taken while a delivery is under way, TC-IM-4, so play never holds two; a saved state may:
    the second card is drawn here by a scripted KEEP decision.)"""
    state = new_game(4)
    p = state.players[XUNON]
    p.tau = 0  # no re-roll
    p.missions = (ActiveMission("M21", unauthorized=True, permitted=False, route=5),)
    state.mission_deck = tuple(x for x in state.mission_deck if x not in ("M16", "M21"))
    state.stack.append(Decision("keep_mission", XUNON, {"cards": ["M16"]}))
    state.rng.script_dice([1, 1])
    events = GAME.apply(state, "KEEP M16")
    assert "unauthorized_transport_waits" in kinds(events)
    waiting = mission(state, "M16")
    assert not waiting.permitted and not waiting.unauthorized
    GAME.apply(state, "PICKUP M16")  # it may still be picked up
    p.position = "10"
    refused(state, "DELIVER M16", "TC-ADV4-1")
    # The first unauthorized delivery brings the token back; it goes onto M16 at once.
    p.position = "TRIOLO"
    p.missions = tuple(replace(m, picked_up=True) if m.card == "M21" else m for m in p.missions)
    state.rng.script_dice([6])
    events = GAME.apply(state, "DELIVER M21")
    assert "unauthorized_transport" in kinds(events)
    assert mission(state, "M16").unauthorized
    p.position = "10"
    state.rng.script_dice([2])
    tau = p.tau
    GAME.apply(state, "DELIVER M16")
    assert p.tau == tau + 9 - 2
    assert p.missions == ()


@pytest.mark.rules("TC-ADV4-1", "TC-SETUP-15")
def test_without_rule_4_the_ut_token_is_never_used() -> None:
    state = new_game()
    state.players[XUNON].tau = 0
    events = take(state, "M16", [])
    assert "skill_check" not in kinds(events)
    assert not mission(state, "M16").unauthorized


# -- Advanced Rule 5: quark-gluon plasma -------------------------------------------------------


def carrying_plasma(state: State) -> None:
    """Krenji on Xuno with the plasma of M22 on board (picked up on Zorhkon), bound for the
    Zuron Asteroid: the asteroid field next to Xuno is on the minimum route (TC-IM-4)."""
    state.players[XUNON].missions = (ActiveMission("M22", picked_up=True, route=3),)
    assert state.content.mission("M22").commodity == "plasma"


@pytest.mark.rules("TC-ADV5-1")
def test_the_content_marks_several_deliveries_as_plasma() -> None:
    plasma = [m.id for m in new_game().content.missions if m.commodity == "plasma"]
    assert plasma == ["M18", "M22", "M25", "M27", "M29"]


@pytest.mark.rules("TC-ADV5-1", "TC-IM-4")
def test_plasma_delivery_reward_is_doubled() -> None:
    state = new_game(5)
    state.players[XUNON].position = "TRIOLO"
    take(state, "M29")
    GAME.apply(state, "PICKUP M29")
    state.players[XUNON].position = "XUNO"
    tau = state.players[XUNON].tau
    GAME.apply(state, "DELIVER M29")
    assert state.players[XUNON].tau == tau + 3 * 5 * 2


@pytest.mark.rules("TC-ADV5-1", "TC-SETUP-15")
def test_plasma_reward_is_not_doubled_without_rule_5() -> None:
    state = new_game()
    state.players[XUNON].missions = (ActiveMission("M29", picked_up=True, route=5),)  # from Triolo
    tau = state.players[XUNON].tau
    GAME.apply(state, "DELIVER M29")
    assert state.players[XUNON].tau == tau + 3 * 5


@pytest.mark.rules("TC-ADV5-1")
def test_other_commodities_are_not_doubled() -> None:
    state = new_game(5)
    state.players[XUNON].missions = (ActiveMission("M16", route=3),)
    tau = state.players[XUNON].tau
    deliver_m16(state)
    assert state.players[XUNON].tau == tau + 9


def asteroid_hit(state: State) -> None:
    """Fly from Xuno into an asteroid field and roll 3: 3 - Shields 2 = 1 damage."""
    state.players[XUNON].energy = 10
    state.outer_limit_stack = tuple(x for x in state.outer_limit_stack if x != "13")
    state.layout = state.layout.set("13", (-2, 1))
    GAME.apply(state, "MOV")
    state.rng.script_dice([3])
    GAME.apply(state, "GO 13")
    assert state.decision.kind == "damage" and state.decision.data["left"] == 1
    GAME.apply(state, "DAMAGE sensors")


@pytest.mark.rules("TC-ADV5-1")
def test_hazard_damage_is_doubled_while_transporting_plasma() -> None:
    state = new_game(5)
    carrying_plasma(state)
    supply = state.damage_supply
    asteroid_hit(state)
    assert state.players[XUNON].damage == {"sensors": 2}
    assert state.damage_supply == supply - 2
    assert state.decision.kind == "move"


@pytest.mark.rules("TC-ADV5-1")
def test_hazard_damage_is_not_doubled_without_rule_5() -> None:
    state = new_game()
    carrying_plasma(state)
    asteroid_hit(state)
    assert state.players[XUNON].damage == {"sensors": 1}


@pytest.mark.rules("TC-ADV5-1")
def test_plasma_not_yet_picked_up_does_not_double_damage() -> None:
    state = new_game(5)
    state.players[XUNON].missions = (ActiveMission("M29", route=5),)
    asteroid_hit(state)
    assert state.players[XUNON].damage == {"sensors": 1}


@pytest.mark.rules("TC-ADV5-1")
def test_doubled_damage_takes_only_the_markers_left_in_the_supply() -> None:
    state = new_game(5)
    carrying_plasma(state)
    state.damage_supply = 1
    assert state.players[XUNON].damage == {}
    events: list[Event] = []
    assert ship.add_damage(state, XUNON, "weapons", events, "battle")
    assert state.players[XUNON].damage == {"weapons": 1} and state.damage_supply == 0
    assert not ship.add_damage(state, XUNON, "weapons", events, "battle")
    assert state.players[XUNON].damage == {"weapons": 1}


@pytest.mark.rules("TC-ADV5-1")
def test_battle_damage_is_doubled_too() -> None:
    """Battles and crisis effects put damage on a system through ship.add_damage as well."""
    state = new_game(5)
    carrying_plasma(state)
    events: list[Event] = []
    ship.add_damage(state, XUNON, "shields", events, "battle")
    assert state.players[XUNON].damage == {"shields": 2}
    assert events[-1].data["doubled"] is True


def test_permission_and_ut_token_survive_a_save_and_load() -> None:
    state = new_game(4, 5)
    state.players[XUNON].tau = 0
    take(state, "M16", [1, 1])
    loaded = GAME.from_json(GAME.to_json(state))
    assert loaded.players[XUNON].missions == state.players[XUNON].missions
    assert not loaded.players[XUNON].missions[0].permitted
    assert loaded.players[XUNON].missions[0].unauthorized
