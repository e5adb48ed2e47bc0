"""Precise exception classes, in the manner of python-chess.

An :class:`IllegalAction` names the rule it breaks, so a player (or a scenario
file) can see *why* an action was refused, not only that it was.
"""

from __future__ import annotations

from typing import TYPE_CHECKING


class EclipticError(Exception):
    """Base class of every error Ecliptic raises on purpose."""


class IllegalAction(EclipticError, ValueError):
    """An action the rules do not allow in this state. The state is left untouched.

    ``IllegalAction(rule, message)``: ``.rule`` is the rule id, ``.reason`` the message, and
    ``str()`` reads ``[rule] message``. Listing the legal actions builds thousands of refusals
    per second and shows none of them, so construction is the exception's own C code (the two
    arguments are its ``args``) and the text is put together only when it is asked for."""

    if TYPE_CHECKING:

        def __init__(self, rule: str, message: str) -> None: ...

    @property
    def rule(self) -> str:
        return self.args[0]  # type: ignore[no-any-return]

    @property
    def reason(self) -> str:
        return self.args[1]  # type: ignore[no-any-return]

    def __str__(self) -> str:
        return f"[{self.args[0]}] {self.args[1]}"


class NotAnOption(IllegalAction):
    """The refusal of an action that is no option of this seat's at all: it names a seat that
    does not play, the seat itself as the player it attacks, a card that is not in its hand, or
    it spells again an action offered under another name (``GO -1,0`` where Sector 07 lies:
    ``GO 07``).

    It is refused like any other, rule and reason included. A list of what is closed *now*
    (the browser's "Why not?") leaves it out: it tells a player nothing they do not see on the
    table, and the action domains, being built per content, name such actions by the dozen."""


class ContentError(EclipticError, ValueError):
    """A content data file does not match its schema."""


class SaveFileError(EclipticError, ValueError):
    """A save file or game record is corrupt, foreign, or from an incompatible version."""


class SeatError(EclipticError, ValueError):
    """A seat that does not play this game (7 in a 2-player game, -1, ``True``, ``"0"``).

    A ``ValueError`` because the seat is a bad argument value, as Python's own convention
    has it, so ``except ValueError`` around bad input catches it; an :class:`EclipticError`
    so a caller can tell it from a bug. Not an :class:`IllegalAction`: no rule refuses it,
    the question itself is malformed, and answering it (an observation with no hand, say)
    would hide a caller's mistake."""
