"""The engine contract's promises to an adapter (issue 18): seats outside the game are
refused, the length of a game in decisions is bounded, and what ``returns`` means is declared."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from ecliptic.ceres.game import Ceres
from ecliptic.engine.errors import EclipticError, SeatError
from ecliptic.engine.rng import Rng
from ecliptic.engine.rules import Utility
from ecliptic.games import get_game
from ecliptic.present.score import running_score
from ecliptic.tauceti.game import TauCeti

TC = TauCeti()
CR = Ceres()
BAD_SEATS: list[Any] = [2, 7, -1, True, False, "0", 0.0, [0]]


def _games() -> list[tuple[Any, dict[str, Any]]]:
    return [(TC, {"players": 2, "layout": "preset", "factions": ["Xunon", "Azars"]}),
            (CR, {"players": 2, "expansions": ["comets"]})]


# -- 1. a seat that is not in the game is refused ---------------------------------------


@pytest.mark.parametrize("game,config", _games(), ids=["tauceti", "ceres"])
@pytest.mark.parametrize("seat", BAD_SEATS, ids=repr)
def test_observe_and_determinize_refuse_a_seat_not_in_the_game(game: Any, config: dict[str, Any], seat: Any) -> None:
    state = game.new_game(config, 3)
    before = game.to_json(state)
    with pytest.raises(SeatError, match="is not a seat of this 2-player game") as refused:
        game.observe(state, seat)
    assert isinstance(refused.value, ValueError) and isinstance(refused.value, EclipticError)
    with pytest.raises(SeatError):
        game.determinize(state, seat, Rng.from_seed(1))
    assert game.to_json(state) == before  # nothing changed


@pytest.mark.parametrize("game,config", _games(), ids=["tauceti", "ceres"])
def test_good_seats_and_the_spectator_are_still_answered(game: Any, config: dict[str, Any]) -> None:
    state = game.new_game(config, 3)
    assert game.observe(state, None)["observer"] is None
    for seat in (0, 1):
        assert game.observe(state, seat)["observer"] == seat
        world = game.determinize(state, seat, Rng.from_seed(seat))
        assert game.observe(world, seat) == game.observe(state, seat)
    with pytest.raises(SeatError, match=r"a seat is 0-1$"):  # determinize has no spectator
        game.determinize(state, None, Rng.from_seed(1))


def test_an_integer_of_another_type_is_a_seat() -> None:
    """Adapters hand over NumPy integers; ``operator.index`` takes them, as it takes an int."""

    class Index:
        def __index__(self) -> int:
            return 1

    state = TC.new_game({"players": 2}, 1)
    assert TC.observe(state, Index()) == TC.observe(state, 1)  # type: ignore[arg-type]


# -- random games, shared by 2 and 3 ----------------------------------------------------

CONFIGS: list[tuple[Any, dict[str, Any]]] = [
    *((TC, {"players": p, "game": g}) for p in (1, 2, 3, 4) for g in ("short", "full")),
    (TC, {"players": 4, "game": "full", "advanced": list(range(1, 10)), "advanced_specialists": True}),
    *((CR, {"players": p, "expansions": e}) for p in (1, 2, 4) for e in ([], ["comets"])),
]
GAMES_PER_CONFIG = 3
_PLAYED: dict[int, list[tuple[int, list[float], list[list[int]], Any]]] = {}


def _play(index: int) -> list[tuple[int, list[float], list[list[int]], Any]]:
    """Random games of ``CONFIGS[index]``: decisions taken, returns, each step's
    ``points_so_far`` of every seat, the final state (played once, shared by the tests)."""
    if index not in _PLAYED:
        game, config = CONFIGS[index]
        out = []
        for seed in range(GAMES_PER_CONFIG):
            state = game.new_game(config, seed)
            rng = random.Random(seed)
            n, points = 0, []
            while not state.is_over:
                assert game.returns(state) == [0.0] * len(state.players)
                game.apply(state, rng.choice(game.legal_actions(state)))
                n += 1
                points.append([game.points_so_far(state, s) for s in range(len(state.players))])
            out.append((n, game.returns(state), points, state))
        _PLAYED[index] = out
    return _PLAYED[index]


def _id(index: int) -> str:
    game, config = CONFIGS[index]
    return f"{game.name}-{'-'.join(str(v) for v in config.values())}"


# -- 2. a declared bound on game length -------------------------------------------------


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=_id)
def test_random_games_stay_within_max_decisions(index: int) -> None:
    game, config = CONFIGS[index]
    bound = game.max_decisions(config)
    longest = max(n for n, *_ in _play(index))
    print(f"{_id(index)}: longest {longest} of {bound}")
    assert 0 < longest <= bound
    if game is TC:  # the enforced limit is never what ends a real game
        assert longest * 3 < bound


@pytest.mark.parametrize("seed", range(6))
def test_tauceti_ends_the_game_at_max_decisions(seed: int) -> None:
    """Enforced: the decision that reaches the limit ends the game and scores it, wherever it
    falls (mid-turn, in a battle, in the Enlightenment phase), and the ended game is a sound
    state that saves and loads."""
    config = {"players": 3, "game": "short", "layout": "preset", "advanced": [1, 2, 7, 8, 9]}
    state = TC.new_game(config, seed)
    limit = TC.max_decisions(config)
    assert limit == 8 * 3 * 40
    rng = random.Random(seed)
    for _ in range(rng.randrange(20, 150)):
        TC.apply(state, rng.choice(TC.legal_actions(state)))
    assert not state.is_over
    state.decisions_made = limit - 2
    TC.apply(state, rng.choice(TC.legal_actions(state)))
    assert not state.is_over
    events = TC.apply(state, rng.choice(TC.legal_actions(state)))
    assert state.is_over and state.decisions_made == limit
    assert [e.kind for e in events][-2:] == ["decision_limit", "game_over"]
    assert state.winners and sum(TC.returns(state)) == pytest.approx(1.0)
    assert TC.legal_actions(state) == []
    assert TC.from_json(TC.to_json(state)).decisions_made == limit  # saved with the game


def test_tauceti_counts_every_decision() -> None:
    state = TC.new_game({"players": 2}, 2)
    rng = random.Random(0)
    for _ in range(30):
        TC.apply(state, rng.choice(TC.legal_actions(state)))
    assert state.decisions_made == 30
    assert TC.why_not(state, "NOT-A-VERB") is not None
    with pytest.raises(EclipticError):
        TC.apply(state, "NOT-A-VERB")
    assert state.decisions_made == 30  # a refused action is no decision


def test_ceres_bound_is_derived_from_the_numbers() -> None:
    # 3 rounds, 5 probes: a pass a round and a Launch (+ Tail) per probe; with the Comets,
    # 2 decisions per Surface card slot and round.
    assert CR.max_decisions({"players": 2}) == 2 * (3 + 2 * 5)
    slots = CR.new_game({"players": 4, "expansions": ["comets"]}, 0).comets[0].slots
    assert CR.max_decisions({"players": 4, "expansions": ["comets"]}) == 4 * 13 + 3 * 2 * 2 * len(slots)


# -- 3. utility declared, points so far ----------------------------------------------


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=_id)
def test_returns_respect_the_declared_utility(index: int) -> None:
    game, config = CONFIGS[index]
    u = game.utility(config)
    assert isinstance(u, Utility)
    for _, returns, _, state in _play(index):
        assert all(u.min <= r <= u.max for r in returns)
        if u.kind in ("constant_sum", "zero_sum"):
            assert u.sum is not None and sum(returns) == pytest.approx(u.sum)
        if u.shared_wins:
            assert returns == [1 / len(state.winners) if s in state.winners else 0.0
                               for s in range(len(returns))]


def test_utility_by_player_count() -> None:
    assert TC.utility({"players": 4}) == Utility("constant_sum", 0.0, 1.0, 1.0, shared_wins=True)
    solo = TC.utility({"players": 1})
    assert solo.kind == "general_sum" and solo.sum is None and "25 GP" in solo.solo
    assert CR.utility({"players": 1}).solo.startswith("always 1")
    with pytest.raises(ValueError, match="bad game config"):
        TC.utility({"players": 2, "colour": "red"})


def test_an_unknown_config_key_is_named_with_the_keys_there_are() -> None:
    with pytest.raises(ValueError, match=r"^bad game config: unknown key colour; the keys are players, .*tie_break"):
        TC.new_game({"players": 2, "colour": "red"}, 0)
    with pytest.raises(ValueError, match=r"unknown keys moons, rings; the keys are players, expansions"):
        CR.new_game({"rings": 2, "moons": 1}, 0)


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=_id)
def test_points_so_far_ends_at_the_final_scores(index: int) -> None:
    for _, _, points, state in _play(index):
        assert points[-1] == [row["total"] for row in state.final_scores]


def test_points_so_far_is_the_score_the_presentation_shows() -> None:
    """One mechanism: the running score of a seat that sees every hand it counts (its own,
    and no other player holds a card) is ``points_so_far``."""
    for game, config in _games():
        state = game.new_game(config, 4)
        rng = random.Random(4)
        for _ in range(40):
            if state.is_over:
                break
            game.apply(state, rng.choice(game.legal_actions(state)))
        for seat in range(len(state.players)):
            rows = running_score(game.name, state, game.observe(state, seat), seat)
            if game is TC and any(p.hand for p in state.players if p.seat != seat):
                continue
            assert rows[seat]["total"] == game.points_so_far(state, seat)
        with pytest.raises(SeatError):
            game.points_so_far(state, 9)


def test_public_points_are_the_spectators_running_score_and_end_at_the_final_scores() -> None:
    """One mechanism: ``public_points`` is the running score a spectator is shown (no hand
    counted) at every step, and the final total at the end."""
    for game, config in _games():
        state = game.new_game(config, 5)
        rng = random.Random(5)
        while not state.is_over:
            rows = running_score(game.name, state, game.observe(state, None), None)
            assert [r["total"] for r in rows] == [game.public_points(state, s) for s in range(len(state.players))]
            game.apply(state, rng.choice(game.legal_actions(state)))
        assert [game.public_points(state, s) for s in range(len(state.players))] == [
            row["total"] for row in state.final_scores]
        with pytest.raises(SeatError):
            game.public_points(state, 9)


@pytest.mark.parametrize("name", ["tauceti", "ceres"])
def test_an_observation_changed_by_its_reader_does_not_change_the_next_one(name: str) -> None:
    """The observation header's config is encoded once per config; each observation still gets its own."""
    game = get_game(name)
    state = game.new_game({"players": 2}, 3)
    first = game.observe(state, 0)
    expected = json.loads(json.dumps(first))
    for value in first["config"].values():
        if isinstance(value, list):
            value.append("changed")
    first["config"]["players"] = 99
    assert game.observe(state, 0) == expected
    assert game.observe(state, 1)["config"] == expected["config"]
