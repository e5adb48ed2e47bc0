"""Drawing from the decks: an empty deck is refilled by shuffling its discard pile.

The rulebook never says what happens when a deck runs out; the choice is
recorded in docs/rules-decisions.md.

Decks and discard piles are tuples, replaced on every change, so that a cloned state shares
them (bots clone thousands of times per decision; the piles change a few times per turn).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, TypeVar

from ecliptic.engine.rng import Rng
from ecliptic.tauceti.state import State

DeckName = Literal["crisis", "specialist", "knowledge", "mission"]
T = TypeVar("T")


Piles = tuple[tuple[str, ...], tuple[str, ...]]


def piles(state: State, name: DeckName) -> Piles:
    """The deck and its discard pile."""
    if name == "crisis":
        return state.crisis_deck, state.crisis_discard
    if name == "specialist":
        return state.specialist_deck, state.specialist_discard
    if name == "knowledge":
        return state.knowledge_deck, state.knowledge_discard
    return state.mission_deck, state.mission_discard


def set_piles(state: State, name: DeckName, deck: tuple[str, ...], discarded: tuple[str, ...]) -> None:
    if name == "crisis":
        state.crisis_deck, state.crisis_discard = deck, discarded
    elif name == "specialist":
        state.specialist_deck, state.specialist_discard = deck, discarded
    elif name == "knowledge":
        state.knowledge_deck, state.knowledge_discard = deck, discarded
    else:
        state.mission_deck, state.mission_discard = deck, discarded


def draw(state: State, name: DeckName) -> str | None:
    """Take the top card, or ``None`` when the deck and its discard pile are both empty."""
    deck, discarded = piles(state, name)
    if not deck and discarded:
        refill = list(discarded)
        state.rng.shuffle(refill)
        deck, discarded = tuple(refill), ()
    if not deck:
        return None
    set_piles(state, name, deck[1:], discarded)
    return deck[0]


def to_bottom(state: State, name: DeckName, card: str) -> None:
    deck, discarded = piles(state, name)
    set_piles(state, name, (*deck, card), discarded)


def discard(state: State, name: DeckName, card: str) -> None:
    deck, discarded = piles(state, name)
    set_piles(state, name, deck, (*discarded, card))


def without(pile: tuple[T, ...], item: T) -> tuple[T, ...]:
    """``pile`` less its first ``item`` (which must be there, as for ``list.remove``): a pile, or
    any list of the state kept as a tuple (a player's Commodity tokens, IM cards...)."""
    i = pile.index(item)
    return pile[:i] + pile[i + 1:]


def shuffled(rng: Rng, items: Iterable[str]) -> tuple[str, ...]:
    """``items`` in a random order, as a pile."""
    pile = list(items)
    rng.shuffle(pile)
    return tuple(pile)


def deck_of(card: str) -> DeckName:
    return "crisis" if card.startswith("C") else "specialist"
