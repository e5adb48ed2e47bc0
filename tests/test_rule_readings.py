"""Four rule readings changed by issue 15 (docs/rules-decisions.md gives each with its quote).

* Advanced Rule 8 counts the level above the start, not the raises;
* the wormhole hop is zero sectors on a pickup/deliver IM's minimum route;
* "go directly on that route and make the delivery before pursuing any other actions";
* tied players share the win unless the players chose the TAU tie-break.
"""

from __future__ import annotations

from typing import Any

import pytest

from ecliptic.engine.actions import Action
from ecliptic.engine.errors import IllegalAction
from ecliptic.tauceti import scoring
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import State

GAME = TauCeti()


def new_game(factions: tuple[str, ...] = ("Xunon", "Azars"), **config: Any) -> State:
    return GAME.new_game({"layout": "preset", "players": len(factions), "factions": list(factions),
                          **config}, 1)


def legal(state: State) -> set[str]:
    return {str(a) for a in GAME.legal_actions(state)}


def refused(state: State, action: str, rule: str) -> IllegalAction:
    """Apply an action that must be refused with ``rule``; the state must not change."""
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, action)
    assert caught.value.rule == rule, caught.value
    assert GAME.to_json(state) == before
    assert Action.parse(action) not in GAME.legal_actions(state)
    return caught.value


# -- 13. Advanced Rule 8 counts the level ---------------------------------------------------------


@pytest.mark.rules("TC-ADV8-1")
def test_rule_8_deducts_the_level_above_the_start_not_the_raises() -> None:
    """Military raised three times (1 -> 4) and brought back down twice by resolved crises
    stands at level 2: the Zorhkonian loses 1 GP, not 3."""
    state = new_game(("Zorhkonian", "Xunon"), advanced=[8])
    state.market["Military"], state.market_raised["Military"] = 2, 3
    assert scoring.score(state, 0)["specialization_raised"] == -1
    state.market["Military"] = 3  # the rulebook's example: level 3, 2 GP lost
    assert scoring.score(state, 0)["specialization_raised"] == -2


@pytest.mark.rules("TC-ADV8-1")
def test_rule_8_a_level_back_at_the_start_deducts_nothing() -> None:
    state = new_game(("Zorhkonian", "Xunon"), advanced=[8])
    state.market_raised["Military"] = 2  # raised twice, both crises since resolved
    assert state.market["Military"] == 1
    assert scoring.score(state, 0)["specialization_raised"] == 0
