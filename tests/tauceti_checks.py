"""The two checks the Tau Ceti rules tests are written with, kept once.

``refused`` is the engine contract for a refusal as a test states it: the action raises an
:class:`IllegalAction` naming the rule, the state is exactly as it was, and the action is not
among the legal ones (so ``why_not`` and ``legal_actions`` agree)."""

from __future__ import annotations

import pytest

from ecliptic.engine.actions import Action
from ecliptic.engine.errors import IllegalAction
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import State

GAME = TauCeti()


def legal(state: State) -> set[str]:
    """The legal actions in their notation."""
    return {str(a) for a in GAME.legal_actions(state)}


def refused(state: State, action: str, rule: str | None = None) -> IllegalAction:
    """Apply an action that must be refused (with ``rule``, when given); nothing may change."""
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, action)
    if rule is not None:
        assert caught.value.rule == rule, caught.value
    assert GAME.to_json(state) == before
    assert Action.parse(action) not in GAME.legal_actions(state)
    return caught.value
