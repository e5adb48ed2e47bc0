"""The games Ecliptic knows, by name."""

from __future__ import annotations

from typing import Any


def get_game(name: str) -> Any:
    """The rules object of a game (``tauceti``)."""
    if name == "tauceti":
        from ecliptic.tauceti.game import TauCeti

        return TauCeti()
    raise ValueError(f"unknown game {name!r}; known games: tauceti")


GAME_NAMES = ("tauceti",)
