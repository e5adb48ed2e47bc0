"""The Comets expansion, sentence by sentence (rule ids CC-<SECTION>-<n>, see
ecliptic.ceres.rules and docs/rules-coverage.md)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ecliptic.ceres import belt, comets
from ecliptic.ceres.content import default_content
from ecliptic.ceres.game import Ceres
from ecliptic.ceres.invariants import problems
from ecliptic.ceres.setup import new_state
from ecliptic.ceres.state import Config, State
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event

GAME = Ceres()
CONTENT = default_content()
SUNGRAZERS = [n.id for n in CONTENT.nucleus_cards if n.kind == "Sungrazer"]
NEAR_SUNS = [n.id for n in CONTENT.nucleus_cards if n.kind == "Near-sun"]


# -- helpers ----------------------------------------------------------------------


def new(players: int = 2, seed: int = 1) -> State:
    return GAME.new_game({"players": players, "expansions": ["comets"]}, seed)


def play(state: State, *actions: str) -> list[Event]:
    ev: list[Event] = []
    for a in actions:
        ev += GAME.apply(state, a)
    return ev


def refuse(state: State, action: str, rule: str) -> IllegalAction:
    """The action is refused naming ``rule``, and the state is exactly as it was."""
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, action)
    assert info.value.rule == rule, info.value
    assert GAME.to_json(state) == before
    return info.value


def set_nuclei(state: State, left: str, right: str) -> None:
    """Put these Nucleus cards under the Surface cards (the others go to the box), the
    Surface cards showing their side: a stacked Nucleus pile, after the fact."""
    state.nucleus_box = [n.id for n in CONTENT.nucleus_cards if n.id not in (left, right)]
    for comet, card in zip(state.comets, (left, right), strict=True):
        comet.nucleus = card
        comet.kind = CONTENT.nucleus(card).kind


def pass_all(state: State) -> list[Event]:
    """Everyone passes, ending this round's Activation phase; stops at the next decision
    that is not a turn, at the next round's first turn, or at the end."""
    ev: list[Event] = []
    start = state.round
    while not state.is_over and state.stack[-1].kind == "turn" and state.round == start:
        ev += GAME.apply(state, "PASS")
    return ev


def seed_where(players: int, test: Callable[[State], bool]) -> State:
    for seed in range(2000):
        state = new(players, seed)
        if test(state):
            return state
    raise AssertionError("no seed gives this setup")


def kinds(state: State) -> tuple[str, str]:
    a, b = state.comets
    return a.kind, b.kind


def zones(state: State) -> tuple[int, int]:
    a, b = state.comets
    return a.zone, b.zone


def events_of(ev: list[Event], kind: str) -> list[Event]:
    return [e for e in ev if e.kind == kind]


def lowest_token(state: State, comet: int, tail: int) -> str:
    c = state.comets[comet]
    row = comets.lowest_tokens(c)[tail]
    token = c.tails[tail][row]
    assert token is not None
    return token


# -- Components (CC-COMP) ---------------------------------------------------------


@pytest.mark.rules("CC-COMP-1")
def test_eighteen_tail_tokens_all_under_the_comets_at_setup() -> None:
    assert len(CONTENT.tail_tokens) == 18
    state = new()
    placed = [t for c in state.comets for tail in c.tails for t in tail if t is not None]
    assert len(placed) == 18 and sorted(placed) == sorted(t.id for t in CONTENT.tail_tokens)


@pytest.mark.rules("CC-COMP-2")
def test_two_double_sided_comet_tokens_show_either_side() -> None:
    seen: set[str] = set()
    for seed in range(40):
        state = new(2, seed)
        assert len(state.comets) == 2
        seen.update(c.kind for c in state.comets)
    assert seen == {"Sungrazer", "Near-sun"}


@pytest.mark.rules("CC-COMP-3")
def test_two_double_sided_surface_cards() -> None:
    state = new()
    assert [c.id for c in state.comets] == list(comets.SURFACE_CARDS) == ["C1", "C2"]
    left = seed_where(2, lambda s: s.comets[0].kind == "Sungrazer")
    right = seed_where(2, lambda s: s.comets[0].kind == "Near-sun")
    assert left.comets[0].kind != right.comets[0].kind  # the same card, either side up


@pytest.mark.rules("CC-COMP-4")
def test_eight_nucleus_cards() -> None:
    assert len(CONTENT.nucleus_cards) == 8
    state = new()
    assert len(state.nucleus_box) + len(state.comets) == 8
    assert problems(state) == []


@pytest.mark.rules("CC-COMP-5")
def test_three_explosion_check_cards() -> None:
    assert len(CONTENT.explosion_checks) == 3
    assert {c.result for c in CONTENT.explosion_checks} == {"Safe", "Explosion"}
    state = new()
    assert sorted(state.explosion_deck) == sorted(c.id for c in CONTENT.explosion_checks)


@pytest.mark.rules("CC-COMP-6")
def test_the_expansion_is_added_only_when_chosen() -> None:
    plain = GAME.new_game({"players": 2}, 1)
    assert plain.comets == [] and plain.explosion_deck == [] and plain.nucleus_box == []
    assert all(a.args[0].startswith("A") for a in GAME.legal_actions(plain) if a.verb == "LAUNCH")
    refuse(plain, "LAUNCH C1", "CC-COMP-6")
    with_comets = new()
    assert len(with_comets.comets) == 2
    with pytest.raises(ValueError, match="unknown expansion"):
        GAME.new_game({"players": 2, "expansions": ["moons"]}, 1)


# -- Game Setup (CC-SETUP) --------------------------------------------------------


@pytest.mark.rules("CC-SETUP-1")
def test_the_four_steps_are_added_to_the_board_setup_in_order() -> None:
    _, ev = GAME.new_game_events({"players": 2, "expansions": ["comets"]}, 3)
    order = [e.kind for e in ev if e.kind in ("setup", "surface_cards", "nucleus", "tails", "comet_token")]
    assert order[0] == "setup"  # the host game's board first
    assert order[1:] == ["surface_cards", "nucleus", "nucleus", "tails", "tails", "comet_token", "comet_token"]
    _, plain = GAME.new_game_events({"players": 2}, 3)
    assert not [e for e in plain if e.kind in ("surface_cards", "nucleus", "tails", "comet_token")]


@pytest.mark.rules("CC-SETUP-2")
def test_step_1_two_surface_cards_next_to_the_belt() -> None:
    _, ev = GAME.new_game_events({"players": 3, "expansions": ["comets"]}, 3)
    (placed,) = events_of(ev, "surface_cards")
    assert placed.data["slots"] == CONTENT.surface.slots[3]


@pytest.mark.rules("CC-SETUP-3")
def test_step_2_nucleus_cards_come_from_a_shuffled_face_down_pile() -> None:
    state = new_state(Config(players=2, expansions=("comets",)), 1, [])
    comets.reveal_nuclei(state, ["N6", "N2", "N1", "N3", "N4", "N5", "N7", "N8"], [])
    assert [c.nucleus for c in state.comets] == ["N6", "N2"]  # one under each Surface card, in turn
    drawn = {tuple(c.nucleus for c in new(2, seed).comets) for seed in range(30)}
    assert len(drawn) > 5  # shuffled: different games reveal different cards


@pytest.mark.rules("CC-SETUP-4")
def test_step_2_surface_cards_flipped_to_the_nucleus_colour() -> None:
    state = new_state(Config(players=2, expansions=("comets",)), 1, [])
    ev: list[Event] = []
    comets.reveal_nuclei(state, [SUNGRAZERS[0], NEAR_SUNS[0], *SUNGRAZERS[1:], *NEAR_SUNS[1:]], ev)
    assert kinds(state) == ("Sungrazer", "Near-sun")
    assert [e.data["kind"] for e in events_of(ev, "nucleus")] == ["Sungrazer", "Near-sun"]
    comets.reveal_nuclei(state, [NEAR_SUNS[1], NEAR_SUNS[2], *SUNGRAZERS, NEAR_SUNS[0], NEAR_SUNS[3]], [])
    assert kinds(state) == ("Near-sun", "Near-sun")


@pytest.mark.rules("CC-SETUP-5")
def test_step_2_the_other_nucleus_cards_go_back_to_the_box_unseen() -> None:
    state = new()
    assert len(state.nucleus_box) == 6
    assert not set(state.nucleus_box) & {c.nucleus for c in state.comets}
    for seat in (0, 1, None):
        view = GAME.observe(state, seat)
        assert view["nucleus_box"] == 6
        for card in state.nucleus_box:
            assert card not in str(view)


@pytest.mark.rules("CC-SETUP-6")
def test_step_3_one_token_of_each_type_under_each_table_forming_separate_tails() -> None:
    state = new(2, 5)
    for comet in state.comets:
        assert len(comet.tails) == 3  # one tail under each of the three resource tables
        for tail in comet.tails:
            assert [CONTENT.tail_token(t).tail for t in tail if t] == ["Coma", "Ion", "Dust"]
    view = GAME.observe(state, None)
    assert [c["tails"] for c in view["comets"]] == [c.tails for c in state.comets]  # revealed
    layouts = {tuple(tuple(t) for t in new(2, seed).comets[0].tails) for seed in range(10)}
    assert len(layouts) > 1  # shuffled


@pytest.mark.rules("CC-SETUP-7")
def test_step_4_comet_tokens_start_outside_the_belt_next_to_a_zone() -> None:
    ev: list[Event] = []
    state = new_state(Config(players=2, expansions=("comets",)), 4, ev)
    for comet in state.comets:
        assert comet.ring is None and not comet.in_belt  # outside the Asteroid Belt
        assert comet.zone in (3, 4, 5)
    assert [e.data["kind"] for e in events_of(ev, "comet_token")] == [c.kind for c in state.comets]


def _stack(state: State, left: str, right: str) -> None:
    others = [n.id for n in CONTENT.nucleus_cards if n.id not in (left, right)]
    comets.reveal_nuclei(state, [left, right, *others], [])


@pytest.mark.rules("CC-SETUP-8")
def test_two_sungrazers_at_random_next_to_zones_3_and_5() -> None:
    state = new_state(Config(players=2, expansions=("comets",)), 1, [])
    _stack(state, SUNGRAZERS[0], SUNGRAZERS[1])
    state.rng.script_choices([0])
    comets.place_comet_tokens(state, [])
    assert zones(state) == (3, 5)
    state.rng.script_choices([1])
    comets.place_comet_tokens(state, [])
    assert zones(state) == (5, 3)
    for placement in ((3, 5), (5, 3)):  # a real game draws both placements

        def drawn(s: State, placement: tuple[int, int] = placement) -> bool:
            return kinds(s) == ("Sungrazer", "Sungrazer") and zones(s) == placement

        seed_where(2, drawn)


@pytest.mark.rules("CC-SETUP-9")
def test_a_sungrazer_and_a_near_sun_go_next_to_zones_5_and_4() -> None:
    for left, right in ((SUNGRAZERS[0], NEAR_SUNS[0]), (NEAR_SUNS[1], SUNGRAZERS[2])):
        state = new_state(Config(players=2, expansions=("comets",)), 1, [])
        _stack(state, left, right)
        rng_before = state.rng.state
        comets.place_comet_tokens(state, [])
        by_kind = {c.kind: c.zone for c in state.comets}
        assert by_kind == {"Sungrazer": 5, "Near-sun": 4}
        assert state.rng.state == rng_before  # not at random


@pytest.mark.rules("CC-SETUP-10")
def test_two_near_suns_at_random_next_to_zones_3_and_4() -> None:
    state = new_state(Config(players=2, expansions=("comets",)), 1, [])
    _stack(state, NEAR_SUNS[0], NEAR_SUNS[1])
    state.rng.script_choices([0])
    comets.place_comet_tokens(state, [])
    assert zones(state) == (3, 4)
    state.rng.script_choices([1])
    comets.place_comet_tokens(state, [])
    assert zones(state) == (4, 3)
    for placement in ((3, 4), (4, 3)):  # a real game draws both placements

        def drawn(s: State, placement: tuple[int, int] = placement) -> bool:
            return kinds(s) == ("Near-sun", "Near-sun") and zones(s) == placement

        seed_where(2, drawn)


@pytest.mark.rules("CC-SETUP-11", "CC-SETUP-9")
def test_rulebook_example_sungrazer_next_to_zone_5_near_sun_next_to_zone_4() -> None:
    state = seed_where(4, lambda s: sorted(kinds(s)) == ["Near-sun", "Sungrazer"])
    sungrazer = next(c for c in state.comets if c.kind == "Sungrazer")
    near_sun = next(c for c in state.comets if c.kind == "Near-sun")
    assert (sungrazer.zone, near_sun.zone) == (5, 4)
    view = GAME.observe(state, 0)
    assert {c["kind"]: c["zone"] for c in view["comets"]} == {"Sungrazer": 5, "Near-sun": 4}


# -- Asteroid Belt phase (CC-BELT) --------------------------------------------------


@pytest.mark.rules("CC-BELT-1")
def test_after_the_rings_rotate_comets_move_one_ring_inward_keeping_their_zone() -> None:
    state = new(2, 2)
    zone = state.comets[0].zone
    before = belt.asteroids_in_zone(state, zone)
    ev = pass_all(state)
    kinds_in_order = [e.kind for e in ev if e.kind in ("rotate", "comet_moves")]
    assert kinds_in_order == ["rotate", "comet_moves", "comet_moves"]  # after rotating
    assert state.comets[0].ring == "Intermediate" and state.comets[0].zone == zone
    assert belt.asteroids_in_zone(state, zone) != before  # the rings turned under the Comet


@pytest.mark.rules("CC-BELT-2")
def test_comets_end_on_outer_then_intermediate_then_inner() -> None:
    state = new(1, 7)
    rings = []
    while not state.is_over:
        rings.append((state.round, tuple(c.ring for c in state.comets)))
        pass_all(state)
    assert dict(rings) == {1: ("Outer", "Outer"), 2: ("Intermediate", "Intermediate"), 3: ("Inner", "Inner")}


# -- Production phase (CC-PROD) -----------------------------------------------------


def _launch_round_1(state: State, *launches: tuple[str, str]) -> None:
    """Each (comet, tail) is one player's Launch onto a Comet in round 1, in turn order."""
    for comet, tail in launches:
        play(state, f"LAUNCH {comet}", f"TAIL {tail}")


@pytest.mark.rules("CC-PROD-1", "CC-PROD-2")
def test_round_1_production_removes_no_tail_token() -> None:
    _, ev = GAME.new_game_events({"players": 2, "expansions": ["comets"]}, 1)
    assert not events_of(ev, "tails_removed")
    state = new()
    assert state.removed_tails == []
    assert all(t is not None for c in state.comets for tail in c.tails for t in tail)


@pytest.mark.rules("CC-PROD-1", "CC-PROD-3")
def test_round_2_production_removes_the_remaining_dust_tail_tokens() -> None:
    state = new(2, 1)
    _launch_round_1(state, ("C1", "2"))
    taken = state.players[0].tail_tokens[0]
    ev = pass_all(state)
    assert events_of(ev, "tails_removed")[0].data["tail"] == "Dust"
    assert all(tail[2] is None for c in state.comets for tail in c.tails)
    assert len(state.removed_tails) == 5 and taken not in state.removed_tails
    assert state.players[0].tail_tokens == [taken]  # a taken Dust token stays with its player
    assert all(tail[0] is not None and tail[1] is not None for c in state.comets for tail in c.tails)


@pytest.mark.rules("CC-PROD-1", "CC-PROD-4")
def test_round_3_production_removes_the_remaining_ion_tail_tokens() -> None:
    state = new(2, 1)
    pass_all(state)
    pass_all(state)
    assert state.round == 3
    assert all(tail[1] is None and tail[2] is None for c in state.comets for tail in c.tails)
    assert all(tail[0] is not None for c in state.comets for tail in c.tails)
    assert len(state.removed_tails) == 12


@pytest.mark.rules("CC-PROD-5")
def test_probes_decide_from_the_leftmost_slot_left_card_first() -> None:
    state = new(3, 1)
    # Round 1 turn order: seats 0, 1, 2. Seat 0 and 2 on C2, seat 1 on C1.
    _launch_round_1(state, ("C2", "1"), ("C1", "1"), ("C2", "2"))
    assert state.comets[1].slots == [0, 2, None]
    pass_all(state)
    order = []
    while state.stack[-1].kind != "turn":
        d = state.stack[-1]
        if d.kind == "comet_probe":
            order.append((d.data["comet"], d.data["slot"], d.player))
            play(state, "STAY")
        else:
            play(state, str(GAME.legal_actions(state)[0]))
    assert order == [("C1", 0, 1), ("C2", 0, 0), ("C2", 1, 2)]


@pytest.mark.rules("CC-PROD-5")
def test_a_probe_may_jump_only_onto_an_available_asteroid_of_the_same_zone() -> None:
    state = new(2, 1)
    _launch_round_1(state, ("C1", "1"))
    pass_all(state)
    assert state.stack[-1].kind == "comet_probe"
    zone = state.comets[0].zone
    here = belt.asteroids_in_zone(state, zone)
    assert len(here) == 3  # one Asteroid of each ring in the Zone
    jumps = sorted(str(a) for a in GAME.legal_actions(state) if a.verb == "JUMP")
    assert jumps == sorted(f"JUMP {a}" for a in here)
    elsewhere = next(a.id for a in CONTENT.asteroids if belt.zone_of(state, a.id) != zone)
    refuse(state, f"JUMP {elsewhere}", "CC-PROD-5")
    state.claims[here[1]] = 1
    state.players[1].probes -= 1
    refuse(state, f"JUMP {here[1]}", "CC-PROD-5")  # not available: a probe is on it
    refuse(state, "LAUNCH A01", "CC-PROD-5")
    refuse(state, "JUMP", "CC-PROD-5")
    refuse(state, "STAY 1", "CC-PROD-5")


@pytest.mark.rules("CC-PROD-6")
def test_jumping_claims_the_asteroid_and_gains_its_resources_and_victory_points() -> None:
    state = new(2, 1)
    _launch_round_1(state, ("C1", "1"))
    pass_all(state)
    target = belt.asteroids_in_zone(state, state.comets[0].zone)[0]
    a = CONTENT.asteroid(target)
    p = state.players[0]
    resources, vp = dict(p.resources), p.total_vp
    play(state, f"JUMP {target}")
    assert state.claims[target] == 0
    assert state.comets[0].slots[0] is None  # the probe left the Surface card
    assert p.total_vp == vp + a.vp
    for r, n in a.resources.items():
        assert p.resources[r] == resources[r] + n
    assert problems(state) == []  # the probe moved, none appeared or vanished


@pytest.mark.rules("CC-PROD-7")
def test_staying_takes_one_of_the_lowest_tail_tokens_and_its_resources_and_vp() -> None:
    state = new(2, 1)
    _launch_round_1(state, ("C1", "1"), ("C1", "2"))
    pass_all(state)  # round 2: the Dust Tail tokens are gone, the Ion tokens are the lowest
    c = state.comets[0]
    ion = c.tails[0][1]
    assert ion is not None
    c.tails[0][1] = None  # tail 1's Ion is gone: its Coma is higher than the other Ions
    state.removed_tails.append(ion)
    play(state, "STAY")
    assert state.stack[-1].kind == "tail"
    assert sorted(str(a) for a in GAME.legal_actions(state)) == ["TAIL 2", "TAIL 3"]
    refuse(state, "TAIL 1", "CC-PROD-7")
    refuse(state, "TAIL 4", "CC-PROD-7")
    refuse(state, "STAY", "CC-PROD-7")
    lowest = lowest_token(state, 0, 1)
    assert CONTENT.tail_token(lowest).tail == "Ion"
    p = state.players[0]
    vp, res = p.total_vp, dict(p.resources)
    play(state, "TAIL 2")
    assert p.tail_tokens[-1] == lowest and c.tails[1][1] is None
    tok = CONTENT.tail_token(lowest)
    assert p.total_vp == vp + tok.vp
    for r, n in tok.resources.items():
        assert p.resources[r] == res[r] + n
    # the second probe: take the last Ion away too, and the Coma row is the lowest left
    last = c.tails[2][1]
    assert last is not None
    c.tails[2][1] = None
    state.removed_tails.append(last)
    play(state, "STAY")
    assert sorted(str(a) for a in GAME.legal_actions(state)) == ["TAIL 1", "TAIL 2", "TAIL 3"]
    play(state, "TAIL 1")
    assert CONTENT.tail_token(state.players[1].tail_tokens[-1]).tail == "Coma"


@pytest.mark.rules("CC-PROD-7")
def test_staying_with_no_tail_token_left_takes_nothing() -> None:
    state = new(2, 1)
    _launch_round_1(state, ("C1", "1"))
    pass_all(state)
    c = state.comets[0]
    for tail in c.tails:
        for row, tok in enumerate(tail):
            if tok is not None:
                state.removed_tails.append(tok)
                tail[row] = None
    ev = play(state, "STAY")
    assert events_of(ev, "no_tail") and state.stack[-1].kind == "turn"


@pytest.mark.rules("CC-PROD-8")
def test_the_nucleus_resolution_is_only_in_the_3rd_round() -> None:
    state = new(2, 1)
    set_nuclei(state, NEAR_SUNS[0], SUNGRAZERS[0])
    _launch_round_1(state, ("C1", "1"), ("C2", "1"))
    pass_all(state)
    ev = play(state, "STAY", "TAIL 1", "STAY", "TAIL 1")  # round 2: a Near-sun and a Sungrazer
    assert not [e for e in ev if e.kind == "gain" and e.data["source"] == "nucleus_tables"]
    assert not events_of(ev, "explosion_check")
    assert all(p.vp.get("nucleus_tables", 0) == 0 for p in state.players)


# -- Near-Sun Comet (CC-NEAR) ---------------------------------------------------------


def _to_round_3_production(state: State, launches: list[tuple[str, str]]) -> None:
    """Round 1 Launches onto Comets, then every probe stays (TAIL of the same tail) in round 2."""
    _launch_round_1(state, *launches)
    pass_all(state)
    for _comet, tail in launches:
        play(state, "STAY", f"TAIL {tail}")
    pass_all(state)
    assert state.round == 3


@pytest.mark.rules("CC-NEAR-1")
def test_near_sun_round_3_stay_gains_the_table_above_the_chosen_token() -> None:
    state = new(2, 1)
    set_nuclei(state, NEAR_SUNS[0], NEAR_SUNS[1])
    _to_round_3_production(state, [("C1", "1")])
    play(state, "STAY")
    p = state.players[0]
    vp, res = p.total_vp, dict(p.resources)
    coma = lowest_token(state, 0, 2)
    play(state, "TAIL 3")
    table = CONTENT.nucleus(NEAR_SUNS[0]).tables[2]
    tok = CONTENT.tail_token(coma)
    assert p.vp["nucleus_tables"] == table.vp
    assert p.total_vp == vp + tok.vp + table.vp
    for r in CONTENT.numbers.resources:
        assert p.resources[r] == res[r] + tok.resources.get(r, 0) + table.resources.get(r, 0)


# -- Sungrazer Comet (CC-SUN) ----------------------------------------------------------


@pytest.mark.rules("CC-SUN-1")
def test_sungrazer_check_is_drawn_after_every_probe_on_it_decided() -> None:
    state = new(2, 1)
    set_nuclei(state, SUNGRAZERS[0], NEAR_SUNS[0])
    _to_round_3_production(state, [("C1", "1"), ("C1", "2")])
    ev = play(state, "STAY", "TAIL 1")
    assert not events_of(ev, "explosion_check")  # the second probe has not decided yet
    state.explosion_deck = ["E1", "E2", "E3"]
    ev = play(state, "STAY", "TAIL 2")
    (check,) = events_of(ev, "explosion_check")
    assert check.data["card"] == "E1" and check.data["comet"] == "C1"


@pytest.mark.rules("CC-SUN-1")
def test_a_sungrazer_without_probes_is_still_checked_and_near_suns_never() -> None:
    state = new(2, 1)
    set_nuclei(state, SUNGRAZERS[0], NEAR_SUNS[0])
    pass_all(state)
    state.explosion_deck = ["E3", "E1", "E2"]
    ev = pass_all(state)
    assert [e.data["comet"] for e in events_of(ev, "explosion_check")] == ["C1"]
    assert state.comets[0].removed and not state.comets[1].removed


@pytest.mark.rules("CC-SUN-2")
def test_safe_pays_the_stayers_the_table_above_the_token_they_just_chose() -> None:
    state = new(3, 1)
    set_nuclei(state, SUNGRAZERS[1], NEAR_SUNS[0])
    _to_round_3_production(state, [("C1", "1"), ("C1", "2"), ("C1", "3")])
    state.explosion_deck = ["E2", "E1", "E3"]
    target = belt.asteroids_in_zone(state, state.comets[0].zone)[0]
    play(state, "STAY", "TAIL 3", f"JUMP {target}")
    before = [p.vp.get("nucleus_tables", 0) for p in state.players]
    assert before == [0, 0, 0]  # Sungrazer tables wait for the check
    ev = play(state, "STAY", "TAIL 1")
    assert events_of(ev, "explosion_check")[0].data["result"] == "Safe"
    tables = CONTENT.nucleus(SUNGRAZERS[1]).tables
    assert state.players[0].vp.get("nucleus_tables", 0) == tables[2].vp
    assert state.players[1].vp.get("nucleus_tables", 0) == 0  # jumped off: not on the Comet
    assert state.players[2].vp.get("nucleus_tables", 0) == tables[0].vp


@pytest.mark.rules("CC-SUN-3")
def test_explosion_pays_nothing_more() -> None:
    state = new(2, 1)
    set_nuclei(state, SUNGRAZERS[0], NEAR_SUNS[0])
    _to_round_3_production(state, [("C1", "1")])
    state.explosion_deck = ["E3", "E1", "E2"]
    play(state, "STAY")
    vp = state.players[0].total_vp
    coma = CONTENT.tail_token(lowest_token(state, 0, 0))
    ev = play(state, "TAIL 1")
    assert events_of(ev, "explosion_check")[0].data["result"] == "Explosion"
    assert state.players[0].total_vp == vp + coma.vp  # the token, nothing more
    assert state.players[0].vp.get("nucleus_tables", 0) == 0


@pytest.mark.rules("CC-SUN-4")
def test_explosion_removes_the_comet_token_from_the_belt() -> None:
    state = new(2, 1)
    set_nuclei(state, SUNGRAZERS[0], SUNGRAZERS[1])
    _to_round_3_production(state, [("C1", "1")])
    state.explosion_deck = ["E3", "E1", "E2"]
    play(state, "STAY", "TAIL 1")
    assert state.comets[0].removed and not state.comets[0].in_belt
    assert state.comets[0].slots[0] == 0  # the probe leaves play with the Surface card
    assert "LAUNCH C1" not in map(str, GAME.legal_actions(state))
    state.players[state.current_player or 0].resources["Ice"] = 10
    refuse(state, "LAUNCH C1", "CC-ACT-1")
    assert GAME.observe(state, None)["comets"][0]["in_belt"] is False
    assert problems(state) == []


@pytest.mark.rules("CC-SUN-5")
def test_the_explosion_check_cards_are_reshuffled_after_each_check() -> None:
    results = set()
    for seed in range(12):
        state = new(2, seed)
        set_nuclei(state, SUNGRAZERS[0], SUNGRAZERS[1])
        pass_all(state)
        state.explosion_deck = ["E1", "E3", "E2"]
        ev = pass_all(state)
        checks = events_of(ev, "explosion_check")
        assert len(checks) == 2
        assert checks[0].data["card"] == "E1"
        assert events_of(ev, "reshuffle")
        assert sorted(state.explosion_deck) == ["E1", "E2", "E3"]  # the drawn cards are back
        results.add(checks[1].data["card"])
    assert len(results) > 1  # the second check drew from a reshuffled deck


# -- Activation phase (CC-ACT) ---------------------------------------------------------


@pytest.mark.rules("CC-ACT-1")
def test_launch_onto_a_comet_in_the_belt_paying_ice_for_its_ring() -> None:
    state = new(2, 1)
    assert {"LAUNCH C1", "LAUNCH C2"} <= set(map(str, GAME.legal_actions(state)))
    p = state.players[0]
    ice, probes = p.resources["Ice"], p.probes
    play(state, "LAUNCH C1")
    assert p.resources["Ice"] == ice - CONTENT.numbers.launch_ice["Outer"]
    assert p.probes == probes - 1
    play(state, "TAIL 1")
    state2 = new(2, 1)
    pass_all(state2)
    cost = CONTENT.numbers.launch_ice["Intermediate"]
    seat = state2.current_player
    assert seat is not None
    state2.players[seat].resources["Ice"] = cost - 1
    refuse(state2, "LAUNCH C2", "CC-ACT-1")
    state2.players[seat].resources["Ice"] = cost
    play(state2, "LAUNCH C2")
    assert state2.players[seat].resources["Ice"] == 0


@pytest.mark.rules("CC-ACT-1")
def test_no_launch_onto_a_comet_before_it_enters_the_belt() -> None:
    state = new_state(Config(players=2, expansions=("comets",)), 1, [])
    assert comets.launch_why_not(state, 0, "C1") is not None
    reason = comets.launch_why_not(state, 0, "C1")
    assert reason is not None and reason.rule == "CC-ACT-1"


@pytest.mark.rules("CC-ACT-2")
def test_the_probe_takes_the_leftmost_available_slot() -> None:
    state = new(3, 1)
    _launch_round_1(state, ("C1", "1"), ("C1", "2"))
    assert state.comets[0].slots == [0, 1, None]
    pass_all(state)
    target = belt.asteroids_in_zone(state, state.comets[0].zone)[0]
    play(state, f"JUMP {target}", "STAY", "TAIL 2")
    assert state.comets[0].slots == [None, 1, None]
    seat = state.current_player
    play(state, "LAUNCH C1")
    assert state.comets[0].slots == [seat, 1, None]  # the gap on the left is filled first


@pytest.mark.rules("CC-ACT-3")
def test_available_slots_depend_on_the_player_count() -> None:
    for players in (1, 2, 3, 4):
        state = new(players, 1)
        assert all(len(c.slots) == CONTENT.surface.slots[players] for c in state.comets)
    assert len({CONTENT.surface.slots[n] for n in (1, 2, 3, 4)}) > 1
    state = new(2, 1)
    _launch_round_1(state, ("C1", "1"), ("C1", "2"))
    refuse(state, "LAUNCH C1", "CC-ACT-3")
    assert "LAUNCH C1" not in map(str, GAME.legal_actions(state))


@pytest.mark.rules("CC-ACT-4")
def test_then_the_launcher_takes_an_available_tail_token_and_its_gains() -> None:
    state = new(2, 1)
    play(state, "LAUNCH C2")
    assert state.stack[-1].kind == "tail" and state.current_player == 0
    p = state.players[0]
    vp, res = p.total_vp, dict(p.resources)
    dust = state.comets[1].tails[1][2]
    assert dust is not None
    play(state, "TAIL 2")
    tok = CONTENT.tail_token(dust)
    assert p.tail_tokens == [dust] and state.comets[1].tails[1][2] is None
    assert p.total_vp == vp + tok.vp
    for r, n in tok.resources.items():
        assert p.resources[r] == res[r] + n


@pytest.mark.rules("CC-ACT-4")
def test_a_launch_with_no_token_of_the_round_left_takes_none() -> None:
    state = new(2, 1)
    for tail in state.comets[0].tails:
        tok = tail[2]
        assert tok is not None
        state.removed_tails.append(tok)
        tail[2] = None
    ev = play(state, "LAUNCH C1")
    assert events_of(ev, "no_tail") and state.stack[-1].kind == "turn"


@pytest.mark.rules("CC-ACT-5")
def test_round_1_launch_takes_a_dust_tail_token() -> None:
    state = new(2, 1)
    play(state, "LAUNCH C1", "TAIL 3")
    assert CONTENT.tail_token(state.players[0].tail_tokens[0]).tail == "Dust"
    play(state, "LAUNCH C1")
    refuse(state, "TAIL 3", "CC-ACT-5")  # that tail's Dust token is gone
    refuse(state, "PASS", "CC-ACT-5")
    play(state, "TAIL 1")
    assert CONTENT.tail_token(state.players[1].tail_tokens[0]).tail == "Dust"


@pytest.mark.rules("CC-ACT-6")
def test_round_2_launch_takes_an_ion_tail_token() -> None:
    state = new(2, 1)
    pass_all(state)
    seat = state.current_player
    assert seat is not None
    play(state, "LAUNCH C1", "TAIL 2")
    assert CONTENT.tail_token(state.players[seat].tail_tokens[0]).tail == "Ion"
    assert state.players[seat].vp.get("nucleus_tables", 0) == 0
    play(state, "LAUNCH C1")
    refuse(state, "TAIL 2", "CC-ACT-6")


@pytest.mark.rules("CC-ACT-7")
def test_round_3_launch_takes_a_coma_token_plus_the_table_above_it() -> None:
    state = new(2, 1)
    set_nuclei(state, NEAR_SUNS[2], SUNGRAZERS[3])
    pass_all(state)
    state.explosion_deck = ["E1", "E2", "E3"]  # the Sungrazer is Safe
    pass_all(state)
    seat = state.current_player
    assert seat is not None and state.round == 3
    p = state.players[seat]
    p.resources["Ice"] = 10
    vp = p.total_vp
    coma = state.comets[1].tails[1][0]
    assert coma is not None
    play(state, "LAUNCH C2", "TAIL 2")
    table = CONTENT.nucleus(SUNGRAZERS[3]).tables[1]
    assert p.tail_tokens == [coma]
    assert p.total_vp == vp + CONTENT.tail_token(coma).vp + table.vp
    assert p.vp["nucleus_tables"] == table.vp
    play(state, "LAUNCH C2")
    refuse(state, "TAIL 2", "CC-ACT-7")


@pytest.mark.rules("CC-ACT-7")
def test_round_3_launch_onto_a_near_sun_gets_its_table() -> None:
    state = new(2, 1)
    set_nuclei(state, NEAR_SUNS[2], SUNGRAZERS[3])
    pass_all(state)
    state.explosion_deck = ["E1", "E2", "E3"]
    pass_all(state)
    seat = state.current_player
    assert seat is not None
    state.players[seat].resources["Ice"] = 10
    play(state, "LAUNCH C1", "TAIL 3")
    assert state.players[seat].vp["nucleus_tables"] == CONTENT.nucleus(NEAR_SUNS[2]).tables[2].vp
