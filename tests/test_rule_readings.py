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


# -- 16. Ties share the win ------------------------------------------------------------------------


@pytest.mark.rules("TC-END-6")
def test_players_tied_on_gp_share_the_win_whatever_their_tau() -> None:
    """"The player with the most Galactic Points wins" names no tie-break."""
    state = new_game(("Triolor", "Zorhkonian"))
    state.players[0].tau, state.players[1].tau = 6, 5  # the same GPs for TAU 0-9
    events: list[Any] = []
    scoring.finish(state, events)
    assert state.final_scores[0]["total"] == state.final_scores[1]["total"]
    assert state.winners == [0, 1] and GAME.returns(state) == [0.5, 0.5]
    assert "Triolor and Zorhkonian share the win with" in events[-1].text


@pytest.mark.rules("TC-END-6")
def test_the_tau_tie_break_is_an_option_of_the_config() -> None:
    state = new_game(("Triolor", "Zorhkonian"), tie_break="tau")
    state.players[0].tau, state.players[1].tau = 6, 5
    events: list[Any] = []
    scoring.finish(state, events)
    assert state.winners == [0] and GAME.returns(state) == [1.0, 0.0]
    assert "Triolor wins with" in events[-1].text
    assert GAME.observe(state, None)["config"]["tie_break"] == "tau"


@pytest.mark.rules("TC-END-6")
def test_an_unknown_tie_break_is_refused_with_the_allowed_values() -> None:
    with pytest.raises(ValueError, match="tie_break must be one of shared, tau, not 'coin'"):
        new_game(tie_break="coin")


@pytest.mark.rules("TC-END-6")
def test_a_tournament_counts_a_shared_win_as_half_a_win_for_each() -> None:
    """Win rates come from the games' returns (1/k for each of k tied winners), not from
    membership of the winners."""
    from ecliptic.sim.tournament import TournamentGame, ranks_of, standings_of

    def game(index: int, returns: tuple[float, ...]) -> TournamentGame:
        gp = (20.0, 20.0) if returns == (0.5, 0.5) else (21.0, 20.0)
        return TournamentGame(index, index, ("heuristic", "random"), ("Xunon", "Azars"), gp, returns,
                              ranks_of(returns, gp), 8, 100)

    standings = {s.bot: s for s in standings_of(["heuristic", "random"],
                                                [game(0, (0.5, 0.5)), game(1, (1.0, 0.0))])}
    assert standings["heuristic"].wins == 1.5 and standings["random"].wins == 0.5
    assert standings["heuristic"].win_rate == 0.75


# -- 14. The wormhole hop is zero sectors on the minimum route ------------------------------------


def place(state: State, tile: str, cell: tuple[int, int]) -> None:
    """Put an Outer Limit tile on the map as if it had been drawn earlier."""
    state.outer_limit_stack = tuple(x for x in state.outer_limit_stack if x != tile)
    state.layout[tile] = cell


def with_wormholes(state: State, *tiles: str) -> State:
    """Wormhole 15 next to Xuno, wormhole 16 next to Triolo (the preset map)."""
    cells = {"15": (-2, 1), "16": (3, -1)}
    for tile in tiles:
        place(state, tile, cells[tile])
    return state


def take(state: State, card: str) -> None:
    """Take an IM with ``card`` on top of the IM deck and keep it."""
    state.mission_deck = (card, *(x for x in state.mission_deck if x != card))
    GAME.apply(state, "IM")
    GAME.apply(state, f"KEEP {card}")


@pytest.mark.rules("TC-MOV-7", "TC-IM-4")
def test_the_route_counts_the_wormhole_hop_as_zero_sectors() -> None:
    """Xuno -> wormhole 15 -> (hop) -> wormhole 16 -> Triolo is 2 sectors, not 5 around TAU CETI."""
    from ecliptic.tauceti import board

    state = with_wormholes(new_game(), "15", "16")
    assert board.route_length(state, "XUNO", "TRIOLO") == 2
    assert board.route_length(state, "15", "16") == 0
    assert board.distances_to(state, "TRIOLO")["15"] == 1


@pytest.mark.rules("TC-MOV-7")
def test_a_lone_wormhole_gives_no_hop() -> None:
    from ecliptic.tauceti import board

    assert board.route_length(with_wormholes(new_game(), "15"), "XUNO", "TRIOLO") == 5


@pytest.mark.rules("TC-IM-4", "TC-MOV-7")
def test_a_delivery_through_the_wormholes_pays_the_shorter_route() -> None:
    """Dr. Krenji (cargo 3) delivers M21 from Xuno to Triolo: 3 x 2 sectors = 6T."""
    state = with_wormholes(new_game(), "15", "16")
    take(state, "M21")
    assert state.players[0].missions[0].route == 2
    GAME.apply(state, "PICKUP M21")
    state.players[0].position = "TRIOLO"
    tau = state.players[0].tau
    GAME.apply(state, "DELIVER M21")
    assert state.players[0].tau == tau + 3 * 2
