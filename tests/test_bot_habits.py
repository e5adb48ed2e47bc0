"""benchmarks/bot_habits.py counts what it names: zero-sector Moves, Battle tokens, how battles
end, steals taken when available, and the round the 1GP tokens ran out (docs/bots.md,
"Habits"). Each counter is fed a known sequence: actions applied to a real game, or the
events the engine emits for a battle."""

from __future__ import annotations

from benchmarks.bot_habits import Habits, play, steal_available

from ecliptic.bots.battle_odds import battle_tokens_left
from ecliptic.engine.actions import Action, act
from ecliptic.engine.events import Event
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import State

GAME = TauCeti()


def first_turn() -> State:
    state = GAME.new_game({"players": 2, "layout": "preset"}, 0)
    assert act("MOV") in GAME.legal_actions(state)
    return state


def apply_all(habits: Habits, state: State, actions: list[Action]) -> None:
    for action in actions:
        before = state.clone()
        events = GAME.apply(state, action)
        habits.step(before, action, events, state)


def test_a_move_then_stop_is_one_zero_sector_move_and_a_move_with_a_sector_is_not() -> None:
    habits = Habits()
    habits.new_game()
    state = first_turn()
    apply_all(habits, state, [act("MOV"), act("STOP")])
    assert (habits.moves, habits.zero_moves) == (1, 1)

    habits = Habits()
    habits.new_game()
    state = first_turn()
    apply_all(habits, state, [act("MOV")])
    go = next(a for a in GAME.legal_actions(state) if a.verb == "GO")
    apply_all(habits, state, [go])
    if state.stack and state.stack[-1].kind == "move":
        apply_all(habits, state, [act("STOP")])
    assert (habits.moves, habits.zero_moves) == (1, 0)


def battle_events(defender: int, loser: int, retreated: bool) -> list[Event]:
    """The events of one battle, as ``ecliptic.tauceti.battle`` emits them (initiator 0)."""
    return [
        Event("battle_token", "", {"seat": 0, "sector": "05", "defender": defender}),
        Event("battle", "", {"sector": "05", "initiator": 0, "defender": defender}),
        Event("battle_won", "", {"sector": "05", "winner": 1 - loser if loser in (0, 1) else 0,
                                 "loser": loser, "retreated": retreated}),
    ]


def test_battles_are_counted_by_how_they_ended() -> None:
    habits = Habits()
    habits.new_game()
    for e in (battle_events(defender=1, loser=1, retreated=True)
              + battle_events(defender=1, loser=0, retreated=True)
              + battle_events(defender=1, loser=1, retreated=False)):
        habits.count_event(e)
    habits.count_event(Event("battle", "", {"sector": "07", "initiator": 0, "defender": 1}))
    habits.count_event(Event("battle_undecided", "", {"sector": "07"}))
    assert habits.battle_tokens == 3
    assert habits.battles == 4
    assert habits.endings == {"defender_retreat": 1, "initiator_retreat": 1, "fought": 1, "undecided": 1}
    report = habits.report()
    assert report["defender_retreats"] == 1 and report["defender_retreat_share"] == 0.25
    assert report["battle_tokens_per_game"] == 3


def test_steals_are_counted_only_where_something_could_be_stolen() -> None:
    habits = Habits()
    nothing = [act("STEAL", "none")]
    cards = [act("STEAL", "none"), act("STEAL", "card", "C01"), act("STEAL", "card", "S02")]
    assert not steal_available(nothing) and steal_available(cards)
    habits.count_steal(nothing, act("STEAL", "none"))
    habits.count_steal(cards, act("STEAL", "none"))
    habits.count_steal(cards, act("STEAL", "card", "C01"))
    habits.count_steal(cards, act("STEAL", "card", "S02"))
    assert habits.steal_chances == 3
    assert habits.steals == {"none": 1, "card": 2}
    assert habits.report()["steal_taken_share"] == 2 / 3


def test_the_round_the_1gp_tokens_ran_out_is_counted_once_per_game() -> None:
    habits = Habits()
    habits.new_game()
    state = first_turn()
    state.round = 7
    emptied = state.clone()
    gp = state.content.numbers.battle_gp
    emptied.gp_supply = tuple(g for g in state.gp_supply if state.content.gp_token(g).gp != gp)
    assert battle_tokens_left(state) > 0 and battle_tokens_left(emptied) == 0
    habits.step(state, act("REF"), [], state)
    assert habits.exhausted_rounds == []
    habits.step(state, act("REF"), [], emptied)
    emptied.round = 8
    habits.step(state, act("REF"), [], emptied)
    assert habits.exhausted_rounds == [7]
    habits.new_game()
    assert habits.report()["gp_exhausted_share"] == 0.5


class Recording(Habits):
    """Habits that also keep every event and every MOV/STOP applied, for a plain count."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[Event] = []
        self.actions: list[tuple[int, str]] = []

    def step(self, before: State, action: Action, events: list[Event], after: State) -> None:
        self.events.extend(events)
        self.actions.append((int(before.current_player or 0), str(action)))
        super().step(before, action, events, after)


def test_a_whole_game_of_random_bots_is_counted_like_its_events() -> None:
    """One seeded game: the counters agree with a plain count of the same game's actions and
    events (a zero-sector Move is a MOV whose seat's next action is STOP)."""
    habits = Recording()
    play(habits, seed=3, index=0, bot="random")
    kinds = [e.kind for e in habits.events]
    assert habits.games == 1
    assert habits.moves == kinds.count("move_start") == sum(a == "MOV" for _, a in habits.actions)
    zero = 0
    for i, (seat, a) in enumerate(habits.actions):
        if a == "MOV":
            following = next(b for s, b in habits.actions[i + 1:] if s == seat)
            zero += following == "STOP"
    assert habits.zero_moves == zero
    assert habits.battle_tokens == kinds.count("battle_token") > 0
    assert habits.battles == kinds.count("battle")
    assert sum(habits.endings.values()) == kinds.count("battle_won") + kinds.count("battle_undecided")
