"""The Enlightenment phase, step by step, with stacked decks and a scripted bag draw."""

from __future__ import annotations

import pytest

from ecliptic.engine.errors import IllegalAction
from ecliptic.tauceti.decks import without
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import State

GAME = TauCeti()


def _round_one(factions: tuple[str, ...] = ("Xunon", "Azars")) -> State:
    return GAME.new_game({"layout": "preset", "players": len(factions), "factions": list(factions)}, 7)


def _to_enlightenment(state: State, affected: str, crisis_top: str, specialist_top: str) -> None:
    """Everyone passes round 1; the bag draw and the deck tops are scripted."""
    state.rng.script_choices([state.bag.index(affected)])
    state.crisis_deck = (crisis_top, *(c for c in state.crisis_deck if c != crisis_top))
    state.specialist_deck = (specialist_top, *(c for c in state.specialist_deck if c != specialist_top))
    while state.phase == "action":
        GAME.apply(state, "PASS")


@pytest.mark.rules("TC-ENL-1", "TC-ENL-2", "TC-ENL-3", "TC-ACT-2")
def test_enlightenment_starts_in_round_two_with_the_bag_draw_and_two_seeded_cards() -> None:
    state = _round_one()
    _to_enlightenment(state, "Xunon", "C01", "S15")
    assert state.round == 2 and state.phase == "enlightenment"
    assert state.enlightenment.affected == "XUNO"
    assert sorted(state.enlightenment.active) == ["C01", "S15"]
    assert state.bag.count("Xunon") == 5  # the cube went back into the bag
    assert state.current_player == state.first_player == 1  # the first player rotated


def test_the_bag_draw_is_told_with_the_article_its_faction_reads_with() -> None:
    """"An Azars Resource cube is drawn", "A Xunon Resource cube is drawn" (it said "A Azars")."""
    for faction, told in (("Azars", "An Azars Resource cube is drawn"), ("Xunon", "A Xunon Resource cube is drawn")):
        state = _round_one()
        state.rng.script_choices([state.bag.index(faction)])
        events = []
        while state.phase == "action":
            events += GAME.apply(state, "PASS")
        [draw] = [e for e in events if e.kind == "bag_draw"]
        assert draw.text.startswith(told), draw.text


@pytest.mark.rules("TC-ENL-4")
def test_playing_a_card_face_down_gives_two_energy_and_is_hidden_from_others() -> None:
    state = _round_one()
    _to_enlightenment(state, "Xunon", "C01", "S15")
    seat = state.current_player
    assert seat is not None
    state.players[seat].hand = ["C10", "S01"]
    energy = state.players[seat].energy
    GAME.apply(state, "PLAY C10")
    assert state.players[seat].energy == energy + 2
    assert "C10" in state.enlightenment.active
    other = 1 - seat
    assert "C10" not in str(GAME.observe(state, other))
    assert GAME.observe(state, seat)["enlightenment"]["mine"] == ["C10"]
    assert GAME.observe(state, other)["enlightenment"]["played"][str(seat)] == 1


@pytest.mark.rules("TC-REC-2", "TC-REC-3")
def test_a_battle_only_specialist_cannot_be_played_in_the_enlightenment_phase() -> None:
    state = _round_one()
    _to_enlightenment(state, "Xunon", "C01", "S15")
    seat = state.current_player
    assert seat is not None
    state.players[seat].hand = ["S07"]
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, "PLAY S07")
    assert err.value.rule == "TC-REC-2"
    assert GAME.to_json(state) == before


def _finish_plays(state: State) -> list[str]:
    events = []
    while state.phase == "enlightenment":
        events += GAME.apply(state, "DONE")
    return [e.kind for e in events]


@pytest.mark.rules("TC-ENL-7", "TC-ENL-8", "TC-ENL-9", "TC-ENL-10", "TC-ENL-11", "TC-ENL-12")
def test_biohazard_crisis_raises_science_from_three_to_four_and_xunon_loses_a_cube() -> None:
    """The rulebook's example: a Biohazard crisis affecting Science on planet Xuno."""
    state = _round_one()
    state.market = state.market.set("Science", 3)
    state.crisis_stacks["Biohazard"] = ("X01", *without(state.crisis_stacks["Biohazard"], "X01"))  # Science on its back
    state.bag.remove("Xunon")
    state.cubes["XUNO"] = ["Xunon"]  # Dr. Krenji has a Resource cube on his planet
    _to_enlightenment(state, "Xunon", "C01", "S15")  # C01 is Biohazard; S15 is an Astrophysicist
    _finish_plays(state)
    assert state.planet_crises["XUNO"] == ("X01",)
    assert state.market["Science"] == 4
    assert state.cubes["XUNO"] == []
    assert state.bag.count("Xunon") == 5
    assert state.crisis_deck[-1] == "C01"  # the active crisis is recycled to the bottom
    assert state.specialist_deck[-1] == "S15"  # the unmatched Specialist too
    assert state.phase == "action"


@pytest.mark.rules("TC-ENL-9", "TC-ENL-11")
def test_no_cube_is_lost_when_the_resource_is_not_the_planet_owners_specialization() -> None:
    state = _round_one()
    state.crisis_stacks["Biohazard"] = ("X02", *without(state.crisis_stacks["Biohazard"], "X02"))  # Technology
    state.bag.remove("Xunon")
    state.cubes["XUNO"] = ["Xunon"]
    _to_enlightenment(state, "Xunon", "C01", "S15")
    _finish_plays(state)
    assert state.cubes["XUNO"] == ["Xunon"]
    assert state.market["Technology"] == 2


@pytest.mark.rules("TC-ENL-5", "TC-ENL-6", "TC-ENL-12", "TC-SPEC-1")
def test_two_cosmic_crises_and_one_astrophysicist_cancel_the_lowest_numbered() -> None:
    """The rulebook's note: the lowest-numbered cosmic Crisis card is cancelled out first."""
    state = _round_one()
    _to_enlightenment(state, "Azars", "C10", "S15")  # Cosmic 10 + Astrophysicist seed the deck
    seat = state.current_player
    assert seat is not None
    state.players[seat].hand = ["C21"]  # another Cosmic crisis, numbered 21
    GAME.apply(state, "PLAY C21")
    kinds = _finish_plays(state)
    assert "prevented" in kinds
    assert "C10" in state.crisis_discard and "S15" in state.specialist_discard
    tokens = state.planet_crises["AZAR"]
    assert len(tokens) == 1 and state.content.crisis_token(tokens[0]).crisis_type == "Cosmic"
    assert state.crisis_deck[-1] == "C21"


@pytest.mark.rules("TC-ENL-5", "TC-SPEC-1")
def test_no_crisis_when_every_crisis_card_is_prevented() -> None:
    state = _round_one()
    _to_enlightenment(state, "Azars", "C01", "S01")  # Biohazard + Virologist
    kinds = _finish_plays(state)
    assert "no_crisis" in kinds
    assert not any(state.planet_crises.values())


@pytest.mark.rules("TC-ENL-5", "TC-ENL-7")
def test_the_highest_numbered_remaining_crisis_becomes_active() -> None:
    state = _round_one()
    _to_enlightenment(state, "Azars", "C02", "S01")
    seat = state.current_player
    assert seat is not None
    state.players[seat].hand = ["C23", "C10"]
    GAME.apply(state, "PLAY C23")
    GAME.apply(state, "PLAY C10")
    _finish_plays(state)
    # The Virologist S01 cancels C23 (the only Biohazard); of C02 and C10 (Cosmic) the
    # higher-numbered C10 becomes active, C02 is recycled to the bottom.
    token = state.planet_crises["AZAR"][0]
    assert state.content.crisis_token(token).crisis_type == "Cosmic"
    assert "C23" in state.crisis_discard and "S01" in state.specialist_discard
    assert state.crisis_deck[-2:] == ("C02", "C10")
