"""Four rule readings changed by issue 15 (docs/rules-decisions.md gives each with its quote).

* Advanced Rule 8 counts the level above the start, not the raises;
* the wormhole hop is zero sectors on a pickup/deliver IM's minimum route;
* "go directly on that route and make the delivery before pursuing any other actions";
* tied players share the win unless the players chose the TAU tie-break.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ecliptic.engine.frozendict import FrozenDict
from ecliptic.tauceti import scoring, ship
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import State
from tauceti_checks import legal, refused

GAME = TauCeti()


def new_game(factions: tuple[str, ...] = ("Xunon", "Azars"), **config: Any) -> State:
    return GAME.new_game({"layout": "preset", "players": len(factions), "factions": list(factions),
                          **config}, 1)


# -- 13. Advanced Rule 8 counts the level ---------------------------------------------------------


@pytest.mark.rules("TC-ADV8-1")
def test_rule_8_deducts_the_level_above_the_start_not_the_raises() -> None:
    """Military raised three times (1 -> 4) and brought back down twice by resolved crises
    stands at level 2: the Zorhkonian loses 1 GP, not 3."""
    state = new_game(("Zorhkonian", "Xunon"), advanced=[8])
    state.market, state.market_raised = state.market.set("Military", 2), state.market_raised.set("Military", 3)
    assert scoring.score(state, 0)["specialization_raised"] == -1
    state.market = state.market.set("Military", 3)  # the rulebook's example: level 3, 2 GP lost
    assert scoring.score(state, 0)["specialization_raised"] == -2


@pytest.mark.rules("TC-ADV8-1")
def test_rule_8_a_level_back_at_the_start_deducts_nothing() -> None:
    state = new_game(("Zorhkonian", "Xunon"), advanced=[8])
    state.market_raised = state.market_raised.set("Military", 2)  # raised twice, both crises since resolved
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
    with pytest.raises(ValueError, match=r"tie_break: expected one of \['shared', 'tau'\], got 'coin'"):
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
    state.layout = state.layout.set(tile, cell)


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


# -- 15. "go directly on that route and make the delivery before pursuing any other actions" --------

MAJORS = {"BUI", "EXP", "REC", "IM", "REP", "MOV", "ENG", "UPG", "REF", "BUY", "SELL"}


def majors(state: State) -> set[str]:
    return {a.verb for a in GAME.legal_actions(state) if a.verb in MAJORS}


def minors(state: State) -> set[str]:
    return {str(a) for a in GAME.legal_actions(state) if a.verb not in MAJORS}


def next_turn(state: State) -> None:
    """End this turn; the other player passes; the same player's next turn begins."""
    seat = state.current_player
    GAME.apply(state, "END")
    while state.current_player != seat:
        GAME.apply(state, "PASS")
    assert state.decision.kind == "turn" and not state.decision.data["major_done"]


def bound_for_zuron(state: State) -> State:
    """Dr. Krenji takes M16 (Xuno -> Zuron Asteroid, 3 sectors), picks it up and begins his
    next turn on Xuno."""
    state.players[0].energy = state.players[0].tau = 10
    take(state, "M16")
    GAME.apply(state, "PICKUP M16")
    next_turn(state)
    return state


@pytest.mark.rules("TC-IM-4")
def test_until_the_delivery_the_major_actions_are_move_refuel_and_repair() -> None:
    state = new_game()
    state.players[0].energy = state.players[0].tau = 10
    assert {"IM", "REC", "MOV", "REF"} <= majors(state)
    bound_for_zuron(state)
    assert majors(state) == {"MOV", "REF"}  # REP too once there is damage to repair
    error = refused(state, "IM", "TC-IM-4")
    assert "M16" in str(error) and "MOV, REF and REP" in str(error)
    refused(state, "REC", "TC-IM-4")
    state.players[0].damage = FrozenDict({"sensors": 1})
    state.damage_supply -= 1
    assert majors(state) == {"MOV", "REF", "REP"}
    assert "PASS" in legal(state)


@pytest.mark.rules("TC-IM-4")
def test_taking_the_im_binds_the_player_before_the_pickup_too() -> None:
    """From taking the card the starship goes directly to the pickup sector, then on."""
    state = new_game()
    state.players[0].energy = 10
    state.players[0].position = "05"
    take(state, "M16")
    next_turn(state)
    assert majors(state) == {"MOV", "REF"}
    GAME.apply(state, "MOV")
    assert {a for a in legal(state) if a.startswith("GO")} == {"GO XUNO"}
    refused(state, "GO 04", "TC-IM-4")  # towards Zuron, but the cargo is on Xuno


@pytest.mark.rules("TC-IM-4", "TC-MOV-1")
def test_each_sector_of_the_move_is_on_a_minimum_route() -> None:
    """Xuno -> sector 05 -> sector 04 -> Zuron Asteroid; sector 08 and uncharted space are off it."""
    state = bound_for_zuron(new_game())
    GAME.apply(state, "MOV")
    assert {a for a in legal(state) if a.startswith("GO")} == {"GO 05"}
    error = refused(state, "GO 08", "TC-IM-4")
    assert "minimum route to Zuron Asteroid" in str(error) and "GO 05" in str(error)
    refused(state, "GO -3,0", "TC-IM-4")
    GAME.apply(state, "GO 05")
    assert {a for a in legal(state) if a.startswith("GO")} == {"GO 04"}
    assert "STOP" in legal(state)  # stopping on the way is not leaving the route


@pytest.mark.rules("TC-IM-4")
def test_in_the_delivery_sector_the_ship_stops_and_delivers() -> None:
    state = bound_for_zuron(new_game())
    state.players[0].position = "10"
    assert "DELIVER M16" in legal(state)
    GAME.apply(state, "MOV")
    assert legal(state) == {"STOP"}
    error = refused(state, "GO 04", "TC-IM-4")
    assert "deliver it" in str(error)
    GAME.apply(state, "STOP")
    GAME.apply(state, "DELIVER M16")
    next_turn(state)
    assert {"IM", "REC"} <= majors(state)  # free again


@pytest.mark.rules("TC-IM-4", "TC-MINOR-1")
def test_minor_actions_stay_open_on_the_way() -> None:
    """Minor actions take no Action marker and no sector: the same ones are open with or
    without a delivery under way."""
    state = bound_for_zuron(new_game())
    state.players[0].knowledge = state.players[0].knowledge.set("Chemical", 1)
    state.depot_knowledge = state.depot_knowledge.set("Chemical", state.depot_knowledge["Chemical"] - 1)
    bound = minors(state)
    state.players[0].missions = ()
    assert bound == minors(state)
    assert any(a.startswith("SELL-K") for a in bound)


@pytest.mark.rules("TC-IM-4", "TC-MOV-7")
def test_the_route_through_the_wormholes_offers_the_jump() -> None:
    """Xuno -> wormhole 15 -> (hop) -> wormhole 16 -> Triolo: 2 sectors."""
    state = with_wormholes(new_game(), "15", "16")
    state.players[0].energy = 10
    take(state, "M21")
    GAME.apply(state, "PICKUP M21")
    next_turn(state)
    GAME.apply(state, "MOV")
    assert {a for a in legal(state) if a.startswith("GO")} == {"GO 15"}
    GAME.apply(state, "GO 15")
    assert "JUMP" in legal(state)
    refused(state, "GO 04", "TC-IM-4")  # walking on from the wormhole is longer
    state.rng.script_dice([5])
    GAME.apply(state, "JUMP")
    assert state.players[0].position == "16"
    assert {a for a in legal(state) if a.startswith("GO")} == {"GO TRIOLO"}


@pytest.mark.rules("TC-IM-4", "TC-MOV-6")
def test_after_a_failed_jump_the_route_goes_on_from_the_wormhole() -> None:
    """The hop is only there right after entering the wormhole: from wormhole 15 without it,
    the shortest way is out and back in (3 sectors), not around TAU CETI (4)."""
    state = with_wormholes(new_game(), "15", "16")
    state.players[0].energy = 10
    take(state, "M21")
    GAME.apply(state, "PICKUP M21")
    next_turn(state)
    GAME.apply(state, "MOV")
    GAME.apply(state, "GO 15")
    state.rng.script_dice([1])
    GAME.apply(state, "JUMP")
    assert state.players[0].position == "15"
    assert {a for a in legal(state) if a.startswith("GO")} == {"GO 04", "GO 05", "GO XUNO"}


@pytest.mark.rules("TC-IM-4", "TC-REP-2", "TC-REF-1")
def test_a_bound_player_with_destroyed_propulsion_is_never_stranded() -> None:
    state = bound_for_zuron(new_game())
    p = state.players[0]
    power = ship.power(state, 0, "propulsion")
    p.damage = FrozenDict({"propulsion": power})  # destroyed
    state.damage_supply -= power
    p.tau, p.energy = 0, 0
    assert majors(state) == {"REF"} and "PASS" in legal(state)  # Refuel, or pass for TAU
    p.tau = 5
    assert majors(state) == {"REF"}  # no energy for REP yet
    p.energy = 5
    assert majors(state) == {"REF", "REP"}


@pytest.mark.rules("TC-IM-4")
def test_with_no_route_on_the_map_every_move_is_open() -> None:
    """A delivery sector the map does not connect (here Zuron Asteroid moved to an edge of the
    table with no tile beside it) is reached by flying into uncharted space: no step is
    refused."""
    state = bound_for_zuron(new_game())
    state.layout = state.layout.set("10", (4, -4))  # an edge cell with no tile around it
    GAME.apply(state, "MOV")
    gos = {a for a in legal(state) if a.startswith("GO")}
    assert {"GO 05", "GO 08"} <= gos and any("," in a for a in gos)


@pytest.mark.rules("TC-IM-4")
def test_a_delivery_no_route_can_ever_reach_binds_nothing() -> None:
    """No route on the map and no Outer Limit tile left to draw: there is no route to go
    directly on, and the player is not held to MOV, REF and REP for the rest of the game."""
    state = bound_for_zuron(new_game())
    state.layout = state.layout.set("10", (4, -4))
    assert majors(state) == {"MOV", "REF"}
    state.outer_limit_stack = ()
    assert {"IM", "REC", "MOV", "REF"} <= majors(state)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(1, 4),
       layout=st.sampled_from(["random", "preset", "players"]), advanced=st.sampled_from([[], [4, 5]]))
@pytest.mark.rules("TC-IM-4")
def test_random_play_that_seeks_deliveries_is_never_stuck(seed: int, players: int, layout: str,
                                                          advanced: list[int]) -> None:
    """Players who take every IM they can, keep a pickup/deliver card when one is drawn and
    fly whenever they can, and otherwise play at random: a legal action is always there, a
    bound player's Major actions are only MOV, REF and REP, and every game ends."""
    from ecliptic.engine.rng import Rng
    from ecliptic.tauceti.actions import missions
    from ecliptic.tauceti.invariants import problems

    state = GAME.new_game({"players": players, "game": "short", "layout": layout, "advanced": advanced}, seed)
    rng = Rng.from_seed(seed)
    for _ in range(50_000):
        if state.is_over:
            break
        actions = GAME.legal_actions(state)
        assert actions, "no legal action before the end"
        d = state.decision
        if d.kind == "turn" and missions.errand(state, d.player) is not None:
            assert {a.verb for a in actions} & MAJORS <= missions.ERRAND_MAJORS
        keep = [a for a in actions if d.kind == "keep_mission" and state.content.mission(a.args[0]).kind == "delivery"]
        wanted = keep or [a for a in actions if a.verb in ("IM", "PICKUP", "DELIVER", "MOV", "GO", "JUMP")]
        GAME.apply(state, rng.choice(wanted or actions))
        assert not problems(state)
    assert state.is_over, "the game did not end"
