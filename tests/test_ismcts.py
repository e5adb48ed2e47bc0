"""The ISMCTS bot: budgets, legality, reproducibility, fair play and any game behind the contract.

Timing (a 200 ms decision taking at most 220 ms) is measured by benchmarks/bots.py, not here:
a timed test would fail on a busy machine for reasons that are not bugs.
"""

from __future__ import annotations

import pytest

from ecliptic.bots import BotSpecError, IsmctsBot, make_bot
from ecliptic.bots.evaluator import evaluator_for
from ecliptic.bots.ismcts import Node, _decided, parse_budget
from ecliptic.engine.actions import Action
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
    bot = make_bot("ismcts:300it/c=0.4/rollout=3/prior=0", 1)
    assert isinstance(bot, IsmctsBot)
    assert (bot.iterations, bot.seconds, bot.c, bot.rollout, bot.prior) == (300, None, 0.4, 3, 0.0)
    timed = make_bot("ismcts:200ms", 1)
    assert isinstance(timed, IsmctsBot) and (timed.iterations, timed.seconds) == (None, 0.2)
    default = make_bot("ismcts", 1)
    assert isinstance(default, IsmctsBot)
    assert (default.seconds, default.rollout, default.prior, default.quick) == (0.2, 0, 3.0, True)
    tree = make_bot("ismcts:10it/model=tree", 1)
    assert isinstance(tree, IsmctsBot) and not tree.quick
    with pytest.raises(BotSpecError, match="model is tree or quick"):
        make_bot("ismcts:10it/model=paranoid", 1)
    assert default.prune
    full = make_bot("ismcts:10it/prune=0", 1)
    assert isinstance(full, IsmctsBot) and not full.prune
    with pytest.raises(BotSpecError, match="prune is 0 or 1"):
        make_bot("ismcts:10it/prune=0.5", 1)
    with pytest.raises(BotSpecError, match="has no option 'depth'"):
        make_bot("ismcts:100it/depth=3", 1)
    with pytest.raises(BotSpecError, match="one budget"):
        make_bot("ismcts:100it/200ms", 1)


def test_an_iteration_budget_is_spent_exactly() -> None:
    state = mid_game(2, 90)
    bot = IsmctsBot(3, iterations=40, prune=False)
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


@pytest.mark.parametrize(("seed", "steps"), [(2, 90), (4, 220), (7, 150), (11, 40)])
def test_early_termination_plays_the_move_of_the_full_budget(seed: int, steps: int) -> None:
    """Smart pruning is a pure speed gain: on an iteration budget it plays exactly what the
    whole budget plays, having stopped as soon as that move could no longer change."""
    state = mid_game(seed, steps)
    seat = state.current_player
    full = IsmctsBot(seed, iterations=200, prune=False)
    pruned = IsmctsBot(seed, iterations=200)
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
    bot = IsmctsBot(3, seconds=0.05)
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
    specs = ["ismcts:8it/rollout=4", "random"]
    first = play(specs, 5, limit=60)
    assert first == play(specs, 5, limit=60)


def test_ismcts_decides_the_same_whatever_it_cannot_see() -> None:
    assert_fair(lambda: IsmctsBot(91, iterations=12, rollout=4))


def test_ismcts_without_the_root_bias_or_the_quick_model_is_fair_too() -> None:
    assert_fair(lambda: IsmctsBot(92, iterations=12, rollout=4, prior=0.0, quick=False))


def test_the_tree_counts_availability_and_visits() -> None:
    state = mid_game(4, 220)
    bot = IsmctsBot(5, iterations=30, prior=0.0, prune=False)
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
    bot = IsmctsBot(1, iterations=400, rollout=50)
    assert bot.choose(Nim(), NimState(4), 0) == Action("TAKE", ("1",))
    assert bot.choose(Nim(), NimState(5, player=1), 1) == Action("TAKE", ("2",))
