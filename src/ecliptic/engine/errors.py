"""Precise exception classes, in the manner of python-chess.

An :class:`IllegalAction` names the rule it breaks, so a player (or a scenario
file) can see *why* an action was refused, not only that it was.
"""

from __future__ import annotations


class EclipticError(Exception):
    """Base class of every error Ecliptic raises on purpose."""


class IllegalAction(EclipticError, ValueError):
    """An action the rules do not allow in this state. The state is left untouched."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.reason = message
        super().__init__(f"[{rule}] {message}")


class ContentError(EclipticError, ValueError):
    """A content data file does not match its schema."""


class SaveFileError(EclipticError, ValueError):
    """A save file or game record is corrupt, foreign, or from an incompatible version."""
