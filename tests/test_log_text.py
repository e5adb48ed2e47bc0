"""The log's texts, as the server sends them (``ecliptic.server.games.visible_events``): every
action's entry says something to every viewer, and a card the text gives by its id alone is
named as the hand names it (``present.names``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ecliptic.games import get_game
from ecliptic.present.names import event_text, names
from ecliptic.server.games import visible_events

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("tauceti", {"players": 2, "game": "short", "layout": "random"}),
    ("tauceti", {"players": 3, "game": "short", "layout": "players", "advanced": list(range(1, 10)),
                 "advanced_specialists": True}),
    ("tauceti", {"players": 4, "game": "full", "layout": "preset"}),
    ("ceres", {"players": 2}),
    ("ceres", {"players": 3, "expansions": ["comets"]}),
]
SEEDS = range(4)


def random_game(name: str, config: dict[str, Any], seed: int) -> tuple[Any, list[tuple[int, Any, list[Any]]]]:
    """A game of random legal actions to its end: ``(game, [(seat, action, events), ...])``."""
    game = get_game(name)
    state, _ = game.new_game_events(config, seed)
    rng = random.Random(seed)
    played = []
    while not state.is_over:
        seat = state.current_player
        action = rng.choice(game.legal_actions(state))
        played.append((seat, action, game.apply(state, action)))
    return game, played


def hand_name(card: str) -> str:
    """The name the browser shows for a card in a hand (``present.names``)."""
    return names("tauceti", [card])[card]["name"]


@pytest.mark.parametrize(("name", "config"), CONFIGS, ids=[f"{n}-{c['players']}p" for n, c in CONFIGS])
def test_every_log_entry_says_something_to_every_viewer(name: str, config: dict[str, Any]) -> None:
    """An entry whose events give no text showed only a heading (``#25 Ann (Azars)``): ending a
    turn (END) and ending one's Enlightenment (DONE) reported nothing."""
    for seed in SEEDS:
        _, played = random_game(name, config, seed)
        for index, (seat, action, events) in enumerate(played, start=1):
            for viewer in (None, *range(config["players"])):
                texts = [e["text"] for e in visible_events(name, events, viewer)]
                assert any(t.strip() for t in texts), (seed, index, seat, str(action), viewer, texts)


def test_the_log_names_a_card_given_by_its_id_as_the_hand_names_it() -> None:
    assert event_text("tauceti", "You recruit S37, C01.") == (
        "You recruit Diplomat (Political Specialist, S37), Biohazard Crisis card #1 (C01).")
    assert hand_name("S37") == "Diplomat (Political Specialist)" and hand_name("C01") == "Biohazard Crisis card #1"
    assert event_text("tauceti", "Xunon: +2 T (C17).") == "Xunon: +2 T (Chemical Crisis card #17, C17)."
    assert event_text("tauceti", "K05 is discarded.") == "Chemical Knowledge card (K05) is discarded."
    # What the text already says a card is of, it keeps; nor does it name what it never gave.
    for kept in ("Crisis C17 (Chemical) strikes Zorhkon.", "Xunon turns Astrophysicist S20 face up.",
                 "S37 (Diplomat) prevents crisis C24.", "Xunon places IM M21 on their Interface.",
                 "Xunon draws the Chemical Knowledge card K05.", "Xunon plays a card face down (+2 energy).",
                 "Sector 05 and token X03 are no cards."):
        assert event_text("tauceti", kept) == kept
    ceres = "Player 2 takes the Coma Tail token T01 from tail 1 of Comet C1."
    assert event_text("ceres", ceres) == ceres


def test_cards_drawn_played_and_revealed_are_named_in_the_log_as_in_the_hand() -> None:
    """In whole games, as each viewer is sent them: a recruit's draw, a card played face down
    and the revealed Active deck name every card as the hand does (its id kept beside it)."""
    told: dict[str, int] = {}
    for seed in SEEDS:
        _, played = random_game("tauceti", {"players": 3, "game": "short", "layout": "random"}, seed)
        for seat, _, events in played:
            for e in visible_events("tauceti", events, seat):
                cards = {"recruit_private": "drawn", "card_played_private": "face_down",
                         "active_deck": "cards"}.get(e["kind"])
                if cards is None:
                    continue
                ids = e["data"][cards]
                for card in [ids] if isinstance(ids, str) else ids:
                    assert hand_name(card).split(" (")[0] in e["text"] and card in e["text"], e
                told[e["kind"]] = told.get(e["kind"], 0) + 1
    assert set(told) == {"recruit_private", "card_played_private", "active_deck"}, told


@pytest.mark.parametrize(("name", "config"), [CONFIGS[0], CONFIGS[4]], ids=["tauceti", "ceres"])
def test_the_terminal_log_says_what_the_browsers_log_says(name: str, config: dict[str, Any]) -> None:
    """One wording for both front ends: the terminal's line of an event is the server's text
    (``event_text``), with only the bullet and the dice faces around it."""
    from ecliptic.ui.terminal import render_event

    _, played = random_game(name, config, 1)
    texts = [e for _, _, events in played for e in events if e.kind != "round"]
    assert texts
    named = 0
    for event in texts:
        line = render_event(event, name).plain
        assert line.startswith(f"• {event_text(name, event.text)}")
        named += event_text(name, event.text) != event.text
    assert (named > 0) == (name == "tauceti")  # Tau Ceti's texts give cards by id; Ceres' never change
