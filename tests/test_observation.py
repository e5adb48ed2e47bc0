"""Hidden information: what observe() shows, and determinize() re-dealing only the unseen."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from ecliptic.engine.rng import Rng
from ecliptic.tauceti import checks, ship
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.invariants import problems
from ecliptic.tauceti.state import State

GAME = TauCeti()


def _midgame(seed: int, players: int, steps: int) -> State:
    state = GAME.new_game({"players": players, "layout": "random"}, seed)
    rng = Rng.from_seed(seed)
    for _ in range(steps):
        if state.is_over:
            break
        GAME.apply(state, rng.choice(GAME.legal_actions(state)))
    return state


def test_a_player_sees_their_own_hand_but_only_the_size_of_others() -> None:
    state = GAME.new_game({"layout": "preset", "players": 2}, 1)
    state.players[0].hand = ["C01", "S02"]
    state.players[1].hand = ["C03", "S04", "S05"]
    mine = GAME.observe(state, 0)
    assert mine["players"][0]["hand"] == ["C01", "S02"]
    assert "hand" not in mine["players"][1]
    assert mine["players"][1]["hand_size"] == 3
    text = str(mine)
    assert "C03" not in text and "S04" not in text
    spectator = GAME.observe(state, None)
    assert "hand" not in spectator["players"][0] and "C01" not in str(spectator)


def test_face_down_knowledge_tokens_are_hidden_until_revealed() -> None:
    state = GAME.new_game({"layout": "preset", "players": 2}, 1)
    view = GAME.observe(state, 0)
    assert all(p["token"] in ("hidden", None) for p in view["points"].values())
    point = replace(state.points["01.1"], face_up=True)
    state.points = state.points.set("01.1", point)
    assert GAME.observe(state, 1)["points"]["01.1"]["token"] == point.token


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), steps=st.integers(0, 400))
def test_determinize_changes_nothing_the_observer_can_see(seed: int, players: int, steps: int) -> None:
    state = _midgame(seed, players, steps)
    if state.is_over:
        return
    for seat in range(players):
        sample = GAME.determinize(state, seat, Rng.from_seed(seed + seat))
        assert GAME.observe(sample, seat) == GAME.observe(state, seat)
        assert problems(sample) == []
        assert GAME.legal_actions(sample) == GAME.legal_actions(state) or state.current_player != seat


def test_determinize_actually_redeals_hidden_cards() -> None:
    state = GAME.new_game({"layout": "preset", "players": 3}, 5)
    state.players[1].hand = list(state.crisis_deck[:3])
    state.crisis_deck = state.crisis_deck[3:]
    changed = False
    for i in range(20):
        sample = GAME.determinize(state, 0, Rng.from_seed(i))
        changed |= sample.players[1].hand != state.players[1].hand
        assert len(sample.players[1].hand) == 3
        assert all(c.startswith("C") for c in sample.players[1].hand)
    assert changed


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 300))
def test_determinize_does_not_depend_on_the_true_hidden_order(seed: int, steps: int) -> None:
    """Re-ordering what seat 0 cannot see (another hand against the deck, the deck order,
    face-down Knowledge tokens) gives the same determinized copy for the same generator."""
    state = _midgame(seed, 3, steps)
    if state.is_over:
        return
    other = state.clone()
    other.crisis_deck = other.crisis_deck[::-1]
    other.specialist_deck = other.specialist_deck[::-1]
    if other.players[1].hand and other.crisis_deck:
        i = next((k for k, c in enumerate(other.players[1].hand) if c.startswith("C")), None)
        if i is not None:
            top, card = other.crisis_deck[0], other.players[1].hand[i]
            other.players[1].hand[i], other.crisis_deck = top, (card, *other.crisis_deck[1:])
    hidden = [pt for pt in other.points.values() if pt.token and not pt.face_up]
    if len(hidden) >= 2:
        first, second = hidden[0], hidden[1]
        other.points = other.points.set(first.id, replace(first, token=second.token))
        other.points = other.points.set(second.id, replace(second, token=first.token))
    assert GAME.observe(other, 0) == GAME.observe(state, 0)
    a = GAME.determinize(state, 0, Rng.from_seed(seed))
    b = GAME.determinize(other, 0, Rng.from_seed(seed))
    assert GAME.to_json(a) == GAME.to_json(b)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([2, 4]), st.integers(0, 300))
def test_the_interface_read_at_once_agrees_with_each_system_and_skill_read_alone(
        seed: int, players: int, steps: int) -> None:
    """observe reads every system and skill at once (ship.systems_view, checks.dice_by_skill):
    the same figures as the rules' one-at-a-time ship.power / damage / effective and dice_for."""
    state = _midgame(seed, players, steps)
    for seat in range(players):
        systems = ship.systems_view(state, seat)
        assert list(systems) == list(state.content.systems)
        for name, view in systems.items():
            assert view == {"power": ship.power(state, seat, name), "damage": state.players[seat].damage.get(name, 0),
                            "virus": state.players[seat].virus.get(name, 0),
                            "effective": ship.effective(state, seat, name),
                            "token": state.players[seat].systems_tokens.get(name)}
        assert checks.dice_by_skill(state, seat) == {k: checks.dice_for(state, seat, k)
                                                     for k in state.faction(seat).skills}
