"""The games Ecliptic knows, by name."""

from __future__ import annotations

from typing import Any


def get_game(name: str) -> Any:
    """The rules object of a game (``tauceti``, ``ceres``)."""
    if name == "tauceti":
        from ecliptic.tauceti.game import TauCeti

        return TauCeti()
    if name == "ceres":
        from ecliptic.ceres.game import Ceres

        return Ceres()
    raise ValueError(f"unknown game {name!r}; known games: {', '.join(GAME_NAMES)}")


GAME_NAMES = ("tauceti", "ceres")


def points_name(game: str) -> str:
    """What a game scores, in its rulebook's words: Galactic Points in Tau Ceti, Victory Points
    in Ceres (for table headings)."""
    return "VP" if game == "ceres" else "GP"
