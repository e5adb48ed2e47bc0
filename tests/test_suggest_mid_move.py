"""A suggestion in the middle of a person's Move is the advice of a bot told the person's actions:
the walk (``replay_for``) tells the bot what was taken at each of the seat's decisions, and the
heuristic keeps the copy it judged the decision on with the person's action applied, as it
keeps one with its own (docs/bots.md "Suggestions mid-Move"). Before, the suggestion came from
a fresh bot on a fresh copy of the dice and tiles."""

from __future__ import annotations

from typing import Any

from ecliptic.bots.base import decide, make_bot, replay_for
from ecliptic.bots.heuristic import HeuristicBot
from ecliptic.engine.actions import Action, act
from ecliptic.server.analysis import SuggestJob, suggest
from ecliptic.tauceti.game import TauCeti

GAME = TauCeti()
MOV, STOP = act("MOV"), act("STOP")
CONFIG: dict[str, Any] = {"players": 2, "layout": "preset"}
SEED = 11
"""A first turn whose bot upgrades instead of moving, and whose fresh bot, asked after the
person's MOV, said to stop at once (checked on the code before the walk told the bot)."""


def test_after_a_move_the_bot_would_not_have_started_the_suggestion_is_the_told_bots_not_stop() -> None:
    state = GAME.new_game(CONFIG, SEED)
    seat = state.current_player
    suggested, _ = suggest(SuggestJob("tauceti", CONFIG, SEED, ("MOV",), seat))
    assert suggested != str(STOP)
    told = make_bot("normal", 0)
    assert decide(told, GAME, state, seat, SEED, 0) != MOV  # the person's MOV was not the bot's choice
    told.taken(GAME, seat, MOV)  # type: ignore[attr-defined]
    GAME.apply(state, MOV)
    assert suggested == str(decide(told, GAME, state, seat, SEED, 1))


def test_told_another_action_the_heuristic_keeps_its_judged_copy_with_that_action_applied() -> None:
    state = GAME.new_game(CONFIG, SEED)
    seat = state.current_player
    bot = HeuristicBot(5)
    own = bot.choose(GAME, state, seat)
    assert own != MOV and bot._judged is not None
    judged = bot._judged[1]
    bot.taken(GAME, seat, MOV)
    assert bot._kept is not None and bot._kept[0] == seat
    expected = judged.clone()
    GAME.apply(expected, MOV)
    assert GAME.to_json(bot._kept[1]) == GAME.to_json(expected)
    moving = state.clone()
    GAME.apply(moving, MOV)
    assert GAME.observe(bot._kept[1], seat) == GAME.observe(moving, seat)


def test_told_its_own_choice_the_heuristic_keeps_what_it_kept() -> None:
    state = GAME.new_game(CONFIG, SEED)
    seat = state.current_player
    bot = HeuristicBot(5)
    own = bot.choose(GAME, state, seat)
    kept = bot._kept
    bot.taken(GAME, seat, own)
    assert bot._kept is kept


class _Listener:
    """A bot that remembers (so it is walked) and notes what it is told."""

    name = "listener"
    remembers = True

    def __init__(self) -> None:
        self.told: list[tuple[int, str]] = []

    def choose(self, game: Any, state: Any, seat: int) -> Action:
        return game.legal_actions(state)[-1]  # type: ignore[no-any-return]

    def taken(self, game: Any, seat: int, action: Action) -> None:
        self.told.append((seat, str(action)))


def test_the_walk_tells_the_bot_each_action_its_seat_took_in_the_run() -> None:
    state = GAME.new_game(CONFIG, SEED)
    seat = state.current_player
    GAME.apply(state, MOV)
    step = next(a for a in GAME.legal_actions(state) if a.verb == "GO")
    listener = _Listener()
    replay_for(listener, GAME, CONFIG, SEED, ["MOV", str(step)], seat)
    assert listener.told == [(seat, "MOV"), (seat, str(step))]
