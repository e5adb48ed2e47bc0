"""The random bot and the bot factory: legal, reproducible, fair, and clear about unknown bots."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ecliptic.bots import BotSpecError, RandomBot, bot_seed, make_bot
from ecliptic.engine.actions import Action
from ecliptic.tauceti.game import TauCeti
from test_heuristic import play

GAME = TauCeti()


def _play(seed: int, bot_seed_base: int, players: int = 2, limit: int = 400) -> list[str]:
    """Random bots in every seat, checking each choice against the legal actions."""
    return play(["random"] * players, seed, limit, bot_seed_base=bot_seed_base)


def test_random_bot_only_returns_legal_actions() -> None:
    for seed in range(4):
        assert _play(seed, 100 * seed, players=1 + seed % 4)


def test_random_bot_is_reproducible_for_a_fixed_seed() -> None:
    assert _play(3, 7) == _play(3, 7)
    assert _play(3, 7) != _play(3, 8)


def test_random_bot_never_touches_pythons_global_random() -> None:
    random.seed(12345)
    before = random.getstate()
    _play(1, 1, limit=100)
    assert random.getstate() == before


class _Spy:
    """A game wrapper that records which methods a bot calls."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        self.calls.append(name)
        return getattr(GAME, name)


def test_random_bot_looks_only_at_the_legal_actions() -> None:
    state = GAME.new_game({"layout": "preset", "players": 2}, 1)
    spy = _Spy()
    RandomBot(1).choose(spy, state, 0)
    assert set(spy.calls) <= {"legal_actions", "observe", "determinize"}


def test_random_bot_picks_uniformly() -> None:
    class Three:
        def legal_actions(self, state: object) -> list[Action]:
            return [Action("A"), Action("B"), Action("C")]

    bot = RandomBot(5)
    counts = {"A": 0, "B": 0, "C": 0}
    for _ in range(3000):
        counts[bot.choose(Three(), None, 0).verb] += 1
    assert all(900 < n < 1100 for n in counts.values())


def test_random_bot_refuses_when_there_is_nothing_to_choose() -> None:
    state = GAME.new_game({"layout": "preset", "players": 1, "game": "short"}, 2)
    while not state.is_over:
        GAME.apply(state, GAME.legal_actions(state)[0] if Action("PASS") not in GAME.legal_actions(state)
                   else Action("PASS"))
    with pytest.raises(ValueError, match="no legal action"):
        RandomBot(1).choose(GAME, state, 0)


def test_make_bot_builds_the_random_bot_case_insensitively() -> None:
    bot = make_bot(" Random ", 3)
    assert isinstance(bot, RandomBot)
    assert bot.name == "random"


def test_make_bot_refuses_unknown_names_listing_the_known_ones() -> None:
    with pytest.raises(BotSpecError, match=r"unknown bot 'clever'; available bots: heuristic, ismcts, random"):
        make_bot("clever", 1)


def test_random_bot_takes_no_options() -> None:
    with pytest.raises(BotSpecError, match="takes no options"):
        make_bot("random:fast", 1)


def test_bot_seeds_differ_by_seat_and_game_and_from_the_game_seed() -> None:
    seeds = {bot_seed(g, s) for g in range(5) for s in range(4)}
    assert len(seeds) == 20
    assert bot_seed(9, 0) == bot_seed(9, 0)
    assert all(bot_seed(g, 0) != g for g in range(5))
