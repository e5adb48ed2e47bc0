"""The ISMCTS bot: budgets, legality, reproducibility, fair play and any game behind the contract.

Timing (a 200 ms decision taking at most 220 ms) is measured by benchmarks/bots.py, not here:
a timed test would fail on a busy machine for reasons that are not bugs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from ecliptic.bots import BotSpecError, IsmctsBot, make_bot
from ecliptic.bots.evaluator import evaluator_for
from ecliptic.bots.heuristic import greedy_move
from ecliptic.bots.ismcts import Node, Sweep, _decided, _paired_choice, parse_budget
from ecliptic.engine.actions import Action
from ecliptic.engine.rng import Rng
from ecliptic.games import get_game
from test_heuristic import GAME, Nim, NimState, Spy, assert_fair, mid_game, play


def test_budgets_in_time_or_iterations() -> None:
    assert parse_budget("200ms") == (None, 0.2)
    assert parse_budget("1s") == (None, 1.0)
    assert parse_budget("1.5s") == (None, 1.5)
    assert parse_budget("500it") == (500, None)
    for bad in ("fast", "200", "0ms", "2.5it", "-1s"):
        with pytest.raises(BotSpecError, match="budget"):
            parse_budget(bad)


def test_make_bot_reads_the_budget_and_options() -> None:
    bot = make_bot("ismcts:300it/policy=quick/c=0.4/rollout=3/prior=0", 1)
    assert isinstance(bot, IsmctsBot) and not bot.greedy
    assert (bot.iterations, bot.seconds, bot.c, bot.rollout, bot.prior) == (300, None, 0.4, 3, 0.0)
    timed = make_bot("ismcts:200ms", 1)
    assert isinstance(timed, IsmctsBot) and (timed.iterations, timed.seconds) == (None, 0.2)
    default = make_bot("ismcts", 1)
    assert isinstance(default, IsmctsBot)
    assert (default.seconds, default.greedy, default.width, default.margin, default.z) == (0.2, True, 3, 1.5, 0.5)
    narrow = make_bot("ismcts:50it/width=2/margin=0.5/z=0", 1)
    assert isinstance(narrow, IsmctsBot) and (narrow.width, narrow.margin, narrow.z) == (2, 0.5, 0.0)
    quick = make_bot("ismcts:10it/policy=quick", 1)
    assert isinstance(quick, IsmctsBot)
    assert (quick.rollout, quick.prior, quick.quick, quick.prune) == (0, 3.0, True, True)
    tree = make_bot("ismcts:10it/policy=quick/model=tree", 1)
    assert isinstance(tree, IsmctsBot) and not tree.quick
    full = make_bot("ismcts:10it/policy=quick/prune=0", 1)
    assert isinstance(full, IsmctsBot) and not full.prune


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:10it/policy=random", "policy is greedy or quick"),
        ("ismcts:10it/c=0.4", "option c does not apply to policy=greedy"),
        ("ismcts:10it/policy=quick/width=4", "option width does not apply to policy=quick"),
        ("ismcts:10it/width=2.5", "width is a whole number"),
        ("ismcts:10it/width=1", "width must be between 2 and 100"),
        ("ismcts:10it/policy=quick/model=paranoid", "model is tree or quick"),
        ("ismcts:10it/policy=quick/prune=0.5", "prune is 0 or 1"),
        ("ismcts:100it/depth=3", "has no option 'depth'"),
        ("ismcts:100it/200ms", "one budget"),
    ],
)
def test_make_bot_refuses_bad_ismcts_options(spec: str, message: str) -> None:
    with pytest.raises(BotSpecError, match=message):
        make_bot(spec, 1)


def test_an_iteration_budget_is_spent_exactly() -> None:
    state = mid_game(2, 90)
    bot = IsmctsBot(3, iterations=40, greedy=False, prune=False)
    action = bot.choose(GAME, state, state.current_player)
    assert action in GAME.legal_actions(state)
    assert bot.last_iterations == 40


def test_a_search_stops_once_no_other_action_can_catch_the_leader() -> None:
    root = Node()
    a, b, c = Action("A"), Action("B"), Action("C")
    for action, visits in ((a, 10), (b, 4)):
        root.children[(0, action)] = Node()
        root.children[(0, action)].visits = visits
    assert _decided(root, 0, [a, b, c], 5)  # B can reach 9 at most
    assert not _decided(root, 0, [a, b, c], 6)  # B could tie at 10
    assert not _decided(Node(), 0, [a, b], 0)  # nothing visited: nothing decided


@pytest.mark.parametrize(("seed", "steps"), [(2, 90), (4, 240), (7, 150), (11, 40)])
def test_early_termination_plays_the_move_of_the_full_budget(seed: int, steps: int) -> None:
    """Smart pruning is a pure speed gain: on an iteration budget it plays exactly what the
    whole budget plays, having stopped as soon as that move could no longer change."""
    state = mid_game(seed, steps)
    seat = state.current_player
    full = IsmctsBot(seed, iterations=200, greedy=False, prune=False)
    pruned = IsmctsBot(seed, iterations=200, greedy=False)
    assert pruned.choose(GAME, state, seat) == full.choose(GAME, state, seat)
    assert full.last_iterations == 200
    assert pruned.last_iterations < 200


def test_an_evaluators_value_of_one_seat_is_its_entry_in_values() -> None:
    """``settle`` judges candidates by ``ev.value(state, seat)`` (one seat, faster): it must be
    exactly ``ev.values(state)[seat]``, so the moves are those of judging every seat."""
    ev = evaluator_for(GAME)
    for seed in range(12):
        state = mid_game(seed, 30 + 11 * seed)
        for seat in range(len(state.players)):
            assert ev.value(state, seat) == ev.values(state)[seat]


def test_a_time_budget_stops_the_search() -> None:
    state = mid_game(2, 90)
    for greedy in (True, False):  # (a wide margin: the greedy search has a shortlist to try)
        bot = IsmctsBot(3, seconds=0.05, greedy=greedy, margin=1000.0)
        assert bot.choose(GAME, state, state.current_player) in GAME.legal_actions(state)
        assert bot.last_iterations >= 1


def test_no_search_when_only_one_action_is_legal() -> None:
    state = GAME.new_game({"layout": "preset", "players": 2}, 1)
    while len(GAME.legal_actions(state)) != 1:
        GAME.apply(state, GAME.legal_actions(state)[0])
    spy = Spy()
    bot = IsmctsBot(1, iterations=50)
    assert bot.choose(spy, state, state.current_player) == GAME.legal_actions(state)[0]
    assert spy.calls == ["legal_actions"]
    assert bot.last_iterations == 0


def test_ismcts_only_plays_legal_actions_and_is_reproducible() -> None:
    for specs in (["ismcts:8it", "random"], ["ismcts:8it/policy=quick/rollout=4", "random"]):
        first = play(specs, 5, limit=60)
        assert first == play(specs, 5, limit=60)


def test_ismcts_decides_the_same_whatever_it_cannot_see() -> None:
    assert_fair(lambda: IsmctsBot(91, iterations=9, margin=1000.0))  # (playouts every time)


def test_the_tree_search_is_fair_too() -> None:
    assert_fair(lambda: IsmctsBot(91, iterations=12, greedy=False, rollout=4))


def test_the_tree_search_without_the_root_bias_or_the_quick_model_is_fair_too() -> None:
    assert_fair(lambda: IsmctsBot(92, iterations=12, greedy=False, rollout=4, prior=0.0, quick=False))


def test_the_tree_counts_availability_and_visits() -> None:
    state = mid_game(4, 220)
    bot = IsmctsBot(5, iterations=30, greedy=False, prior=0.0, prune=False)
    seen: list[Node] = []
    original = bot._select

    def spy(node: Node, *args: object) -> tuple[Node, Action, bool]:
        seen.append(node)
        return original(node, *args)  # type: ignore[arg-type]

    bot._select = spy  # type: ignore[method-assign]
    bot.choose(GAME, state, state.current_player)
    root = seen[0]
    assert sum(c.visits for c in root.children.values()) == 30
    assert all(c.avail >= c.visits >= 1 for c in root.children.values())


# Any game behind the contract ------------------------------------------------------------


def test_ismcts_finds_the_winning_move_in_a_game_it_was_not_written_for() -> None:
    """Nim with 4 stones: taking 1 leaves 3, a lost position for the opponent."""
    for bot in (IsmctsBot(1, iterations=400, greedy=False, rollout=50), IsmctsBot(1, iterations=60)):
        assert bot.choose(Nim(), NimState(4), 0) == Action("TAKE", ("1",))
        assert bot.choose(Nim(), NimState(5, player=1), 1) == Action("TAKE", ("2",))


# Greedy playouts (the default policy) ---------------------------------------------------------


def sweeps(*diffs: list[float]) -> list[Sweep]:
    """The favourite's sweep (rewards 0.5) and one per list of paired gains over it."""
    favourite = Sweep()
    for _ in diffs[0]:
        favourite.add(0.5, 0.0)
    others = []
    for gains in diffs:
        s = Sweep()
        for g in gains:
            s.add(0.5 + g, g)
        others.append(s)
    return [favourite, *others]


def test_the_favourite_is_played_unless_another_gains_by_z_standard_errors() -> None:
    noisy = [0.3, -0.2, 0.25, -0.15]  # mean +0.05, standard error 0.13
    assert _paired_choice(sweeps(noisy), 0.5) == 0
    assert _paired_choice(sweeps(noisy), 0.0) == 1  # any gain at all is enough with z = 0
    steady = [0.1, 0.12, 0.08, 0.1]  # mean +0.1, standard error 0.008
    assert _paired_choice(sweeps(steady), 0.5) == 1
    assert _paired_choice(sweeps(steady, [0.2, 0.21, 0.19, 0.2]), 0.5) == 2  # the better of two
    assert _paired_choice(sweeps([-0.1, -0.1, -0.1, -0.1]), 0.0) == 0  # a loss never is
    assert _paired_choice([Sweep(), Sweep()], 0.5) == 0  # no complete sweep: the favourite
    assert _paired_choice(sweeps([0.9]), 0.0) == 0  # one sweep shows no spread: never enough


def test_equal_judgements_are_shortlisted_in_an_order_drawn_by_the_generator() -> None:
    a, b, c, d = (Action(x) for x in "ABCD")
    judged = {a: 1.0, b: 1.0, c: 1.0, d: 0.0}
    firsts = set()
    for seed in range(20):
        shortlist = IsmctsBot(seed, iterations=10, width=3, margin=0.5)._shortlist(judged)
        assert sorted(shortlist) == [a, b, c]  # D is 1 GP behind: outside the margin
        firsts.add(shortlist[0])
    assert firsts == {a, b, c}
    assert IsmctsBot(1, iterations=10, width=2, margin=5.0)._shortlist({a: 3.0, b: 2.0, c: 1.0}) == [a, b]


def test_an_iteration_budget_smaller_than_a_sweep_plays_the_favourite() -> None:
    state = mid_game(4, 220)
    seat = state.current_player
    bot = IsmctsBot(5, iterations=2, width=3, margin=1000.0)
    judged = IsmctsBot(5, iterations=2)._judged(GAME, bot.evaluator(GAME), state, seat, GAME.legal_actions(state))
    move = bot.choose(GAME, state, seat)
    assert bot.last_iterations == 0
    assert judged[move] == max(judged.values())


@dataclass
class SecretState:
    """One move: ``GUESS`` wins, and is legal only if the secret (hidden) says so."""

    secret: bool
    over: bool = False
    guessed: bool = False
    rng: Rng = field(default_factory=Rng)
    current_player: int | None = 0

    @property
    def is_over(self) -> bool:
        return self.over

    def clone(self) -> SecretState:
        return SecretState(self.secret, self.over, self.guessed, self.rng.copy(), self.current_player)


class Secret:
    name = "secret"

    def legal_actions(self, state: SecretState) -> list[Action]:
        return [Action("A"), Action("B")] + ([Action("GUESS")] if state.secret else [])

    def apply(self, state: SecretState, action: Action) -> list[Any]:
        state.over, state.guessed, state.current_player = True, action.verb == "GUESS", None
        return []

    def returns(self, state: SecretState) -> list[float]:
        return [1.0, 0.0] if state.guessed else [0.0, 1.0]

    def determinize(self, state: SecretState, player: int, rng: Rng) -> SecretState:
        return SecretState(rng.below(2) == 0, rng=state.rng.copy())


def test_a_shortlisted_action_missing_from_some_copies_still_ends_the_search() -> None:
    """Copies where a shortlisted action is not legal give no sweep, but each counts against an
    iteration budget, and a time budget ends anyway."""
    for seed in range(12):
        bot = IsmctsBot(seed, iterations=12, margin=1000.0)
        assert bot.choose(Secret(), SecretState(True), 0) in Secret().legal_actions(SecretState(True))
        assert bot.last_iterations <= 12
    timed = IsmctsBot(3, seconds=0.02, margin=1000.0)
    assert timed.choose(Secret(), SecretState(True), 0) in Secret().legal_actions(SecretState(True))


def test_a_clear_favourite_is_played_without_playouts() -> None:
    state = mid_game(2, 90)
    seat = state.current_player
    bot = IsmctsBot(3, iterations=30, margin=0.0)
    judged = IsmctsBot(3, iterations=30)._judged(GAME, bot.evaluator(GAME), state, seat, GAME.legal_actions(state))
    top = max(judged.values())
    assert sum(1 for v in judged.values() if v == top) == 1, "the position needs a single favourite"
    assert judged[bot.choose(GAME, state, seat)] == top
    assert bot.last_iterations == 0


def test_greedy_search_plays_whole_sweeps_within_an_iteration_budget() -> None:
    state = mid_game(4, 220)
    seat = state.current_player
    seen: list[int] = []
    assert len(GAME.legal_actions(state)) >= 3
    bot = IsmctsBot(5, iterations=10, width=3, margin=1000.0)
    original = bot._greedy_playout

    def spy(*args: object) -> float | None:
        seen.append(1)
        return original(*args)  # type: ignore[arg-type]

    bot._greedy_playout = spy  # type: ignore[method-assign]
    assert bot.choose(GAME, state, seat) in GAME.legal_actions(state)
    assert len(seen) == bot.last_iterations == 9  # three whole sweeps of three: a fourth would overrun


def test_a_playout_ends_with_the_round_or_plays_out_the_last_rounds() -> None:
    bot = IsmctsBot(1, iterations=10)
    ev = bot.evaluator(GAME)
    state = mid_game(3, 150)
    assert state.round < 10
    world = GAME.determinize(state, state.current_player, Rng.from_seed(1))
    reward = bot._greedy_playout(GAME, ev, world, 0, ev.stage(state), Rng.from_seed(2), None)
    assert world.round == state.round + 1 and not world.is_over
    assert reward == ev.chances(world)[0]
    late = world
    while late.round < 10:  # every seat greedy up to the tenth round: from there on, the end
        GAME.apply(late, greedy_move(GAME, ev, late, Rng.from_seed(3)))
    assert ev.stage(late) == 10
    reward = bot._greedy_playout(GAME, ev, late, 0, ev.stage(late), Rng.from_seed(2), None)
    assert late.is_over and reward == GAME.returns(late)[0]


def test_a_playout_past_its_deadline_gives_up() -> None:
    bot = IsmctsBot(1, iterations=10)
    ev = bot.evaluator(GAME)
    state = mid_game(3, 150)
    before = GAME.to_json(state)
    assert bot._greedy_playout(GAME, ev, state, 0, ev.stage(state), Rng.from_seed(2), 0.0) is None
    assert GAME.to_json(state) == before


def test_a_stage_is_the_round_up_to_the_last_round_surely_played() -> None:
    """Greedy playouts stop where the stage changes: at a round's end, except in the rounds
    whose end is uncertain (Tau Ceti's full game from round 10 on) or the last round."""
    ev = evaluator_for(GAME)
    for length, last in (("full", "full_game_rounds"), ("short", "short_game_rounds")):
        state = GAME.new_game({"layout": "random", "players": 4, "game": length}, 1)
        sure = getattr(state.content.numbers, last)
        for played in range(sure + 3):
            state.round = played
            assert ev.stage(state) == min(played, sure)
    ceres = get_game("ceres")
    state = ceres.new_game({"players": 3}, 1)
    rounds = state.content.numbers.rounds
    ceres_ev = evaluator_for(ceres)
    for played in range(rounds + 2):
        state.round = played
        assert ceres_ev.stage(state) == min(played, rounds)
    assert evaluator_for(Nim()).stage(NimState(4)) == 0  # no evaluator: playouts to the end
