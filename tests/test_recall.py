"""The perfect-recall information state (``ecliptic.engine.recall``): a seat remembers the
events visible to it and its own actions, nothing else, in order."""

from __future__ import annotations

from typing import Any

import pytest

from ecliptic.bots.random_bot import RandomBot
from ecliptic.ceres.game import Ceres
from ecliptic.engine.events import Event
from ecliptic.engine.recall import Recall, action_item, event_item
from ecliptic.tauceti.game import TauCeti


def play(game: Any, config: dict[str, Any], seed: int) -> tuple[Recall, list[tuple[int | None, Any, list[Event]]]]:
    """A random game, its final recall and the log it was fed (the setup as seat ``None``)."""
    state, ev = game.new_game_events(config, seed)
    recall = Recall.start(len(state.players), ev)
    log: list[tuple[int | None, Any, list[Event]]] = [(None, None, ev)]
    bot = RandomBot(seed)
    while not state.is_over:
        seat = state.current_player
        action = bot.choose(game, state, seat)
        ev = game.apply(state, action)
        recall = recall.step(seat, action, ev)
        log.append((seat, action, ev))
    return recall, log


@pytest.fixture(scope="module")
def tauceti_game() -> tuple[Recall, list[tuple[int | None, Any, list[Event]]]]:
    return play(TauCeti(), {"players": 3, "game": "short"}, 4)


def test_a_seat_recalls_exactly_its_visible_events_and_its_own_actions_in_order(
        tauceti_game: tuple[Recall, list[tuple[int | None, Any, list[Event]]]]) -> None:
    recall, log = tauceti_game
    for seat in range(len(recall)):
        expected = []
        for actor, action, events in log:
            if actor == seat:
                expected.append(action_item(action))
            expected += [event_item(e) for e in events if e.visible(seat)]
        assert recall[seat].items() == expected
        assert len(recall[seat]) == len(expected)


def test_a_recall_never_holds_an_event_not_visible_to_its_seat(
        tauceti_game: tuple[Recall, list[tuple[int | None, Any, list[Event]]]]) -> None:
    recall, log = tauceti_game
    for seat in range(len(recall)):
        held = set(recall[seat].items())
        hidden = {event_item(e) for _, _, events in log for e in events if not e.visible(seat)}
        visible = {event_item(e) for _, _, events in log for e in events if e.visible(seat)}
        assert not (held & (hidden - visible))
        assert hidden, "the game should have had private events for this check to mean something"


def test_two_seats_recalls_differ_exactly_by_what_is_private(
        tauceti_game: tuple[Recall, list[tuple[int | None, Any, list[Event]]]]) -> None:
    recall, log = tauceti_game
    public = [event_item(e) for _, _, events in log for e in events if e.visible_to is None]
    for seat in range(len(recall)):
        private = [i for i in recall[seat].items() if not i.startswith("act ")]
        # What is left once the public events are taken out is addressed to this seat.
        for item in public:
            private.remove(item)
        mine = [event_item(e) for _, _, events in log for e in events
                if e.visible_to is not None and seat in e.visible_to]
        assert private == mine
    assert recall[0].digest != recall[1].digest
    assert recall[0].seen_ids != recall[1].seen_ids


def test_seen_ids_are_the_ids_in_what_the_seat_was_shown(
        tauceti_game: tuple[Recall, list[tuple[int | None, Any, list[Event]]]]) -> None:
    recall, log = tauceti_game
    hands_told = {c for _, _, events in log for e in events if e.visible_to == frozenset({0})
                  for c in e.data.get("drawn", []) if isinstance(c, str)}
    assert hands_told and hands_told <= recall[0].seen_ids


def test_the_digest_is_a_chain_of_the_items_and_a_clone_shares_the_past() -> None:
    a = Recall.start(2).step(0, "PASS", [Event("roll", "a 6", {"die": 6})])
    b = Recall.start(2).step(0, "PASS", [Event("roll", "a 6", {"die": 6})])
    c = Recall.start(2).step(0, "PASS", [Event("roll", "a 5", {"die": 5})])
    assert a == b and a[0].digest == b[0].digest and a[0].digest != c[0].digest
    d = a.step(1, "GO 05", [Event("card", "you draw S01", {"drawn": ["S01"]}, frozenset({1}))])
    assert d[0] is a[0]  # nothing new for seat 0: the same object, shared
    assert d[1].last is not None and d[1].last.parent is not None
    assert a[1].items() == d[1].items()[:len(a[1])]
    assert "S01" in d[1].seen_ids and "S01" not in d[0].seen_ids


def test_ceres_recall_is_fed_the_same_way() -> None:
    recall, log = play(Ceres(), {"players": 2, "expansions": ["comets"]}, 2)
    actions = [action_item(a) for seat, a, _ in log if seat == 1]
    assert [i for i in recall[1].items() if i.startswith("act ")] == actions
