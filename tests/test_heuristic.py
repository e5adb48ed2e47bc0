"""The heuristic bot and the Tau Ceti evaluator: legal, reproducible, fair, generic, tunable.

Fair play is proved the way a player would check it: take a mid-game position, change only
what the bot's seat cannot see (other hands, deck orders, face-down Knowledge tokens, the
future dice), check that the seat's observation is unchanged, and check that the bot with
the same seed still makes the same decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from ecliptic.bots import LEVELS, BotSpecError, HeuristicBot, IsmctsBot, RandomBot, make_bot
from ecliptic.bots.eval_tauceti import TauCetiEvaluator, Weights, check_chance, load_weights, make_evaluator
from ecliptic.bots.evaluator import ReturnsEvaluator, advantage, evaluator_for, win_chances
from ecliptic.engine.actions import Action
from ecliptic.engine.rng import Rng
from ecliptic.tauceti import scoring
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import State

GAME = TauCeti()


def mid_game(seed: int, steps: int, players: int = 4) -> State:
    """A position reached by random play, at a decision with more than one legal action: the
    first after ``steps`` decisions, or the last one if the game ends sooner (so the helper
    does not depend on how long one random game lasts with the stand-in numbers)."""
    state = GAME.new_game({"layout": "random", "players": players}, seed)
    bot = RandomBot(seed)
    last: State | None = None
    n = 0
    while not state.is_over:
        if len(GAME.legal_actions(state)) >= 2:
            if n >= steps:
                return state
            last = state.clone()
        GAME.apply(state, bot.choose(GAME, state, state.current_player))
        n += 1
    assert last is not None, "random play never reached a decision with a choice"
    return last


# Changes to what the seat to move cannot see ----------------------------------------------


def swap_hand_and_deck(state: State, seat: int) -> bool:
    """Swap a card of another player's hand with a card of the same kind in its deck."""
    for p in state.players:
        if p.seat == seat:
            continue
        for i, card in enumerate(p.hand):
            if card[0] == "C" and state.crisis_deck:
                p.hand[i], state.crisis_deck = state.crisis_deck[-1], (*state.crisis_deck[:-1], card)
                return True
            if card[0] == "S" and state.specialist_deck:
                p.hand[i], state.specialist_deck = state.specialist_deck[-1], (*state.specialist_deck[:-1], card)
                return True
    return False


def reorder_decks(state: State, seat: int) -> bool:
    changed = False
    for name in ("crisis_deck", "specialist_deck", "mission_deck", "knowledge_deck", "outer_limit_stack",
                 "demand_pile"):
        deck = getattr(state, name)
        if len(set(deck)) > 1:
            setattr(state, name, deck[::-1])
            changed = True
    return changed


def permute_face_down_tokens(state: State, seat: int) -> bool:
    hidden = [pt for pt in state.points.values() if pt.token is not None and not pt.face_up]
    tokens = [pt.token for pt in hidden] + list(state.outer_limit_knowledge)
    rotated = tokens[1:] + tokens[:1]
    if rotated == tokens:
        return False
    for pt, tok in zip(hidden, rotated, strict=False):
        state.points[pt.id] = replace(pt, token=tok)
    state.outer_limit_knowledge = [t for t in rotated[len(hidden):] if t is not None]
    return True


def new_future_dice(state: State, seat: int) -> bool:
    state.rng = Rng.from_seed(state.rng.state ^ 0xDEADBEEF)
    return True


HIDDEN_CHANGES: list[Callable[[State, int], bool]] = [
    swap_hand_and_deck, reorder_decks, permute_face_down_tokens, new_future_dice]
POSITIONS = [(1, 40), (2, 90), (3, 150), (4, 220), (5, 250)]


def assert_fair(make: Callable[[], Any]) -> None:
    """For every position and hidden change: same observation, same decision."""
    tried = 0
    for seed, steps in POSITIONS:
        state = mid_game(seed, steps)
        seat = state.current_player
        assert seat is not None
        decision = make().choose(GAME, state, seat)
        for change in HIDDEN_CHANGES:
            other = state.clone()
            if not change(other, seat):
                continue
            assert GAME.to_json(other) != GAME.to_json(state)
            assert GAME.observe(other, seat) == GAME.observe(state, seat), change.__name__
            assert make().choose(GAME, other, seat) == decision, (seed, steps, change.__name__)
            tried += 1
    assert tried >= 12


def test_the_heuristic_decides_the_same_whatever_it_cannot_see() -> None:
    assert_fair(lambda: HeuristicBot(77))


def test_the_heuristic_with_several_samples_is_fair_too() -> None:
    assert_fair(lambda: HeuristicBot(78, samples=2))


def test_a_determinized_copy_depends_only_on_what_the_seat_sees() -> None:
    """The premise of the bots' fairness: the game's determinize re-deals hidden things as a
    function of the seat's view and the generator, never of the true hidden order."""
    for seed, steps in POSITIONS:
        state = mid_game(seed, steps)
        seat = state.current_player
        assert seat is not None
        base = GAME.to_json(GAME.determinize(state, seat, Rng.from_seed(5)))
        for change in HIDDEN_CHANGES:
            other = state.clone()
            if change(other, seat):
                assert GAME.to_json(GAME.determinize(other, seat, Rng.from_seed(5))) == base, change.__name__


def test_the_quick_model_of_other_players_passes() -> None:
    ev = make_evaluator({})
    state = mid_game(1, 40)
    while state.stack[-1].kind != "turn":
        GAME.apply(state, GAME.legal_actions(state)[0])
    legal = GAME.legal_actions(state)
    assert ev.quick_move(state, legal) in (Action("PASS"), Action("END"))
    assert ReturnsEvaluator(GAME).quick_move(state, legal) is None


# Playing -------------------------------------------------------------------------------


def play(specs: list[str], seed: int, limit: int = 250, game: str = "short",
         bot_seed_base: int | None = None) -> list[str]:
    """Bots in every seat, each choice checked against the legal actions (bot seeds from
    ``bot_seed_base``, by default from the game seed)."""
    state = GAME.new_game({"layout": "random", "players": len(specs), "game": game}, seed)
    base = 1000 * seed if bot_seed_base is None else bot_seed_base
    bots = [make_bot(spec, base + s) for s, spec in enumerate(specs)]
    chosen: list[str] = []
    while not state.is_over and len(chosen) < limit:
        seat = state.current_player
        assert seat is not None
        legal = GAME.legal_actions(state)
        action = bots[seat].choose(GAME, state, seat)
        assert action in legal
        GAME.apply(state, action)
        chosen.append(str(action))
    return chosen


def test_the_heuristic_only_plays_legal_actions() -> None:
    assert play(["heuristic", "random", "heuristic"], 3)


def test_the_heuristic_is_reproducible_for_a_fixed_seed() -> None:
    assert play(["heuristic", "heuristic"], 4, limit=120) == play(["heuristic", "heuristic"], 4, limit=120)


def test_the_heuristic_outscores_random_play() -> None:
    """A whole short game: the heuristic seat ends with more GP than each random seat."""
    state = GAME.new_game({"layout": "random", "players": 3, "game": "short",
                           "factions": ["Azars", "Xunon", "Triolor"]}, 11)
    bots = [HeuristicBot(1), RandomBot(2), RandomBot(3)]
    while not state.is_over:
        seat = state.current_player
        GAME.apply(state, bots[seat].choose(GAME, state, seat))
    totals = [s["total"] for s in state.final_scores]
    assert totals[0] > max(totals[1:])


class Spy:
    """A game wrapper that records which methods a bot calls on the real game object."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        self.calls.append(name)
        return getattr(GAME, name)


def test_a_single_legal_action_is_played_without_looking() -> None:
    state = GAME.new_game({"layout": "preset", "players": 2}, 1)
    while len(GAME.legal_actions(state)) != 1:
        GAME.apply(state, GAME.legal_actions(state)[0])
    spy = Spy()
    assert HeuristicBot(1).choose(spy, state, state.current_player) == GAME.legal_actions(state)[0]
    assert spy.calls == ["legal_actions"]


def test_ties_are_broken_by_the_bots_generator_not_the_list_order() -> None:
    bot = HeuristicBot(9)
    actions = [Action("A"), Action("B"), Action("C")]
    picks = {bot._best(actions, [1.0, 1.0, 0.0]).verb for _ in range(40)}
    assert picks == {"A", "B"}


def test_epsilon_plays_random_actions_some_of_the_time() -> None:
    state = mid_game(1, 40)
    seat = state.current_player
    greedy = HeuristicBot(5).choose(GAME, state, seat)
    picks = {HeuristicBot(s, epsilon=1.0).choose(GAME, state, seat) for s in range(30)}
    assert len(picks) > 1 and all(p in GAME.legal_actions(state) for p in picks)
    assert greedy in GAME.legal_actions(state)


# The evaluator ---------------------------------------------------------------------------


def test_the_tau_ceti_evaluator_is_found_by_the_games_name() -> None:
    assert isinstance(evaluator_for(GAME), TauCetiEvaluator)


def test_at_the_end_a_seats_value_is_its_final_score() -> None:
    state = GAME.new_game({"layout": "random", "players": 2, "game": "short"}, 6)
    bots = [RandomBot(1), RandomBot(2)]
    while not state.is_over:
        GAME.apply(state, bots[state.current_player].choose(GAME, state, state.current_player))
    ev = make_evaluator({})
    assert ev.values(state) == [float(s["total"]) for s in state.final_scores]


def test_more_tau_energy_or_knowledge_is_worth_more() -> None:
    state = mid_game(3, 60)
    ev = make_evaluator({})
    before = ev.values(state)[0]
    for change in ("tau", "energy", "knowledge"):
        s = state.clone()
        p = s.players[0]
        if change == "knowledge":
            p.knowledge["Chemical"] = p.knowledge.get("Chemical", 0) + 1
        else:
            setattr(p, change, min(getattr(p, change) + 5, 49))
        assert ev.values(s)[0] > before, change


def test_gp_now_counts_in_full() -> None:
    """A GP token (3 GP, scored at once by scoring.score) raises the value by exactly 3."""
    state = mid_game(3, 60)
    ev = make_evaluator({})
    s = state.clone()
    token = next(t for t in s.gp_supply if s.content.gp_token(t).gp == 3)
    s.gp_supply = tuple(x for x in s.gp_supply if x != token)
    s.players[1].gp_tokens += (token,)
    assert scoring.score(s, 1)["total"] == scoring.score(state, 1)["total"] + 3
    assert ev.values(s)[1] == pytest.approx(ev.values(state)[1] + 3)


def test_weights_file_has_every_faction_and_overrides_apply_to_all() -> None:
    default, factions = load_weights()
    assert set(factions) == {"Zorhkonian", "Xunon", "Triolor", "Azars"}
    ev = make_evaluator({"w.energy": "0.5"})
    assert ev.default.energy == 0.5
    assert all(ev.weights(f).energy == 0.5 for f in factions)
    assert default.energy != 0.5


def test_unknown_weights_and_options_are_refused() -> None:
    with pytest.raises(BotSpecError, match="unknown weight 'speed'"):
        make_evaluator({"w.speed": "1"})
    with pytest.raises(BotSpecError, match="must be a number"):
        make_evaluator({"w.energy": "lots"})
    with pytest.raises(BotSpecError, match="has no option 'speed'"):
        make_bot("heuristic:speed=2", 1)
    with pytest.raises(BotSpecError, match="between 1 and 64"):
        make_bot("heuristic:samples=0", 1)


def test_a_weight_outside_any_table_is_refused_not_ignored(tmp_path: Path) -> None:
    path = tmp_path / "w.toml"
    path.write_text("energy = 0.3\n[default]\ncard = 0.2\n")
    with pytest.raises(BotSpecError, match="'energy' is not inside a table"):
        load_weights(path)
    path.write_text("[default]\ncard = 0.2\n[factions.Xunon]\nenergy = 0.3\n")
    default, factions = load_weights(path)
    assert default.card == 0.2 and factions["Xunon"].energy == 0.3 and factions["Xunon"].card == 0.2


def test_heuristic_options_and_levels() -> None:
    bot = make_bot("heuristic:samples=2/depth=3/epsilon=0.1/rivals=0/w.card=0.2", 1)
    assert isinstance(bot, HeuristicBot)
    assert (bot.samples, bot.depth, bot.epsilon, bot.rivals) == (2, 3, 0.1, 0.0)
    assert bot.options == {"w.card": "0.2"}
    assert set(LEVELS) == {"easy", "normal", "hard"}
    assert isinstance(make_bot("easy", 1), HeuristicBot)
    assert isinstance(make_bot("Normal", 1), HeuristicBot | IsmctsBot)
    assert isinstance(make_bot("hard", 1), IsmctsBot)


def test_distances_follow_the_layout_as_tiles_are_added() -> None:
    from ecliptic.bots.eval_tauceti import distances
    from ecliptic.tauceti import board

    state = GAME.new_game({"players": 4, "layout": "random"}, 4)
    start = state.players[0].position
    before = distances(state, start)
    assert before[start] == 0 and "TC" not in before
    # A tile laid next to the farthest sector is one sector farther (the answer is remembered
    # per layout, so a changed layout must not get the old answer).
    far = max(before, key=lambda t: before[t])
    taken = set(state.layout.values())
    q, r = state.layout[far]
    cell = next((q + dq, r + dr) for dq, dr in board.DIRECTIONS if (q + dq, r + dr) not in taken)
    state.layout["NEW"] = cell
    after = distances(state, start)
    assert after["NEW"] <= before[far] + 1 and set(after) == set(before) | {"NEW"}
    del state.layout["NEW"]
    assert distances(state, start) == before


def test_skill_check_chances() -> None:
    assert check_chance(1, 4, 1) == pytest.approx(0.5)
    assert check_chance(2, 5, 2) == pytest.approx(1 / 9)
    assert check_chance(3, 7, 1) == 0.0


def test_win_chances_and_advantage() -> None:
    chances = win_chances([10.0, 10.0, 4.0], 3.0)
    assert sum(chances) == pytest.approx(1.0)
    assert chances[0] == chances[1] > chances[2]
    assert advantage([5.0, 8.0, 2.0], 0, 1.0) == -3.0
    assert advantage([5.0, 8.0, 2.0], 1, 0.5) == pytest.approx(5.5)


def test_weights_are_plain_numbers_with_a_default_for_each() -> None:
    w = Weights()
    assert w.updated({"card": 1.0}).card == 1.0 and w.card != 1.0


# A game the bots were not written for ------------------------------------------------------


@dataclass
class NimState:
    """Take 1 or 2 stones; whoever takes the last stone wins. No hidden information."""

    stones: int
    rng: Rng = field(default_factory=Rng)
    player: int = 0

    @property
    def current_player(self) -> int | None:
        return None if self.stones == 0 else self.player

    @property
    def is_over(self) -> bool:
        return self.stones == 0

    def clone(self) -> NimState:
        return NimState(self.stones, self.rng.copy(), self.player)


class Nim:
    name = "nim"

    def legal_actions(self, state: NimState) -> list[Action]:
        return [Action("TAKE", (str(n),)) for n in (1, 2) if n <= state.stones]

    def apply(self, state: NimState, action: Action) -> list[Any]:
        state.stones -= int(action.args[0])
        if state.stones:
            state.player = 1 - state.player
        return []

    def returns(self, state: NimState) -> list[float]:
        if not state.is_over:
            return [0.0, 0.0]
        return [1.0 if s == state.player else 0.0 for s in (0, 1)]

    def determinize(self, state: NimState, player: int, rng: Rng) -> NimState:
        return state.clone()

    def observe(self, state: NimState, player: int | None) -> dict[str, Any]:
        return {"stones": state.stones}


def test_a_game_without_an_evaluator_gets_the_returns_one() -> None:
    ev = evaluator_for(Nim())
    assert isinstance(ev, ReturnsEvaluator)
    assert ev.chances(NimState(3)) == [0.5, 0.5]  # nothing known before the end...
    assert ev.chances(NimState(0, player=1)) == [0.0, 1.0]  # ...then who took the last stone


def test_the_heuristic_takes_the_last_stones_in_any_game() -> None:
    assert HeuristicBot(1).choose(Nim(), NimState(2), 0) == Action("TAKE", ("2",))
    assert HeuristicBot(1).choose(Nim(), NimState(1, player=1), 1) == Action("TAKE", ("1",))
