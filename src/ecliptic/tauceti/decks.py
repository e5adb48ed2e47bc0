"""Drawing from the decks: an empty deck is refilled by shuffling its discard pile.

The rulebook never says what happens when a deck runs out; the choice is
recorded in docs/rules-decisions.md.
"""

from __future__ import annotations

from typing import Literal

from ecliptic.tauceti.state import State

DeckName = Literal["crisis", "specialist", "knowledge", "mission"]


def _piles(state: State, name: DeckName) -> tuple[list[str], list[str]]:
    if name == "crisis":
        return state.crisis_deck, state.crisis_discard
    if name == "specialist":
        return state.specialist_deck, state.specialist_discard
    if name == "knowledge":
        return state.knowledge_deck, state.knowledge_discard
    return state.mission_deck, state.mission_discard


def draw(state: State, name: DeckName) -> str | None:
    """Take the top card, or ``None`` when the deck and its discard pile are both empty."""
    deck, discard = _piles(state, name)
    if not deck and discard:
        deck.extend(discard)
        discard.clear()
        state.rng.shuffle(deck)
    return deck.pop(0) if deck else None


def to_bottom(state: State, name: DeckName, card: str) -> None:
    _piles(state, name)[0].append(card)


def discard(state: State, name: DeckName, card: str) -> None:
    _piles(state, name)[1].append(card)


def deck_of(card: str) -> DeckName:
    return "crisis" if card.startswith("C") else "specialist"
