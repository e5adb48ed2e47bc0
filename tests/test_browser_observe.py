"""The browser table says what ``observe`` says: each field a player needs, read from the right
key and worded as the rulebook words it (docs/web.md, "What the table shows").

The states are real games (random play from a seed, benchmarks.web_redraw), with a few pieces
moved from where the rulebook keeps them onto an Interface where a test needs a field the random
game did not reach; each such state passes ``tauceti.invariants.problems``. The page is the
board harness of tests/test_browser_board.py (the table's modules in Chromium, no server).
"""

from __future__ import annotations

import importlib.util
import random
import shutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from benchmarks.web_redraw import CHROMIUM, BoardPage, board_page, crowded_4p, game_view

from ecliptic.games import get_game
from ecliptic.tauceti.invariants import problems

browser = pytest.mark.skipif(importlib.util.find_spec("playwright") is None or not shutil.which(CHROMIUM),
                             reason="Playwright or Debian's chromium is not installed (make test installs them)")


def test_the_crowded_table_is_a_state_the_engine_could_reach() -> None:
    """The redraw benchmark's and the board tests' busy table keeps every component count."""
    state, seat = crowded_4p()
    assert problems(state) == []
    assert state.phase == "action" and state.battles == ()  # Battle tokens wait for the Battle phase
    assert state.stack[-1].kind == "reroll" and state.current_player == seat


@pytest.fixture(scope="module")
def board() -> Iterator[BoardPage]:
    if importlib.util.find_spec("playwright") is None or not shutil.which(CHROMIUM):
        pytest.skip("Playwright or Debian's chromium is not installed")
    with board_page() as b:
        yield b


@pytest.fixture
def page(board: BoardPage) -> Iterator[BoardPage]:
    board.errors.clear()
    yield board
    assert board.errors == []


def text(board: BoardPage, selector: str) -> str:
    """The text of the elements ``selector`` names, whitespace folded."""
    got: list[str] = board.page.eval_on_selector_all(selector, "els => els.map(e => e.textContent)")
    return " | ".join(" ".join(t.split()) for t in got)


def titles(board: BoardPage, selector: str) -> list[str]:
    got: list[str] = board.page.eval_on_selector_all(selector, "els => els.map(e => e.textContent)")
    return got


def iface(seat: int, faction: str) -> str:
    return f".ecl-interfaces .iface.f-{faction}"


def first_state(game: str, config: dict[str, Any], seed: int, want: Callable[[Any], bool]) -> Any:
    """The first state of a random game for which ``want(state)`` holds."""
    g = get_game(game)
    state = g.new_game(config, seed)
    rng = random.Random(seed)
    while not want(state):
        assert not state.is_over, "the random game never reached the state wanted"
        g.apply(state, rng.choice(g.legal_actions(state)))
    return state


@browser
def test_the_crowded_table_says_the_phase_first_player_battle_token_claim_and_explorer(page: BoardPage) -> None:
    state, seat = crowded_4p()
    gv = game_view("tauceti", state, seat)
    v = gv["view"]
    page.draw(gv, seat)
    f = [p["faction"] for p in v["players"]]
    # The rulebook's phase name, not the view's key ("action").
    assert text(page, ".ecl-tcx h3") == f"TCX · round {v['round']} · Action phase"
    # The first player's badge on their Interface only (their Alien card in the card stand).
    assert page.page.locator(".iface .badge.first").count() == 1
    assert text(page, f"{iface(v['first_player'], f[v['first_player']])} .badge.first") == "first player"
    # The Battle token's sector and its Defender (battle_defender), on the Interface and the map.
    sector = v["players"][1]["battle_sector"]
    sector_name = gv["present"]["names"][sector]["name"]
    assert f"Battle token {sector_name} against {f[2]}" in text(page, f"{iface(1, f[1])} .stats")
    assert f"Battle token of {f[1]} against {f[2]}" in " ".join(titles(page, ".ecl-map .battle title"))
    # The Claim token lies on an Exploration point: the point and its sector, not a bare id.
    point = v["players"][3]["claim"]
    claimed_in = gv["present"]["names"][v["points"][point]["sector"]]["name"]
    assert f"Claim token Exploration point {point} in {claimed_in}" in text(page, f"{iface(3, f[3])} .stats")
    # Who explored a point (explored_by), beside it.
    explored = next(pid for pid, pt in v["points"].items() if pt["explored_by"] == 3)
    label = page.page.locator(f'.ecl-map [data-target="point:{explored}"]').get_attribute("aria-label") or ""
    tip = text(page, f'.ecl-map [data-target="point:{explored}"] > title')
    assert f"explored by {f[3]}" in label + tip
    assert page.page.locator(f'.ecl-map [data-target="point:{explored}"].explored.f-{f[3]}').count() == 1
    # The cards played in this round's Enlightenment phase are face up now (the Active deck
    # was revealed): said as played, not as lying face down.
    mine = v["enlightenment"]["mine"]
    assert mine and v["enlightenment"]["played"][str(seat)] == len(mine)
    assert text(page, f"{iface(seat, f[seat])} .enlightened").startswith("Played in the Enlightenment phase: ")
    assert page.page.locator(".card.face-down").count() == 0
    said = text(page, f"{iface(seat, f[seat])} .enlightenment-played")
    assert said == f"Played in the Enlightenment phase {len(mine)}"
    # A system whose damage equals its power is destroyed; a virus crystal is said as one.
    weapons = v["players"][0]["systems"]["weapons"]
    assert weapons["damage"] >= weapons["power"] > 0
    said = page.page.locator('[data-target="system:0:weapons"]').get_attribute("title") or ""
    assert said.endswith(", destroyed") and page.page.locator(".system.destroyed").count() == 1
    sensors = page.page.locator('[data-target="system:0:sensors"]').get_attribute("title") or ""
    assert "1 virus crystal" in sensors and "destroyed" not in sensors
    # The components as the rulebook's component list names them.
    tcx = text(page, ".ecl-tcx")
    assert f"Enlightenment bag {len(state.bag)}" in tcx and "Cube bag" not in tcx
    assert f"Large tiles {len(state.large_tile_stack)}" in tcx
    assert text(page, ".ecl-tcx .supply").startswith("Supply pile: ") and f"Demand pile {len(state.demand_pile)}" in tcx
    token = next(c[0] for c in v["planet_crises"].values() if c)
    drawn = f'[data-target="crisis:{token["id"]}"]'
    said = (page.page.locator(drawn).get_attribute("aria-label") or "") + text(page, f"{drawn} > title")
    assert f"{token['crisis_type']} Crisis token {token['id']} (affected resource: {token['resource']})" in said
    assert f"Orbitals on the home planet {v['players'][0]['orbitals_home']}" in text(page, f"{iface(0, f[0])} .stats")


@browser
def test_the_enlightenment_phase_shows_its_name_and_the_active_deck(page: BoardPage) -> None:
    state = first_state("tauceti", {"players": 4}, 5, lambda s: s.phase == "enlightenment"
                        and len(s.enlightenment.active) >= 2 and s.stack[-1].kind == "enlighten"
                        and any(str(a).startswith("PLAY ") for a in get_game("tauceti").legal_actions(s)))
    seat = state.current_player
    gv = game_view("tauceti", state, seat)
    v = gv["view"]
    assert v["enlightenment"]["active_deck"] == len(state.enlightenment.active)
    page.draw(gv, seat)
    assert text(page, ".ecl-tcx h3").endswith("· Enlightenment phase")
    assert text(page, ".ecl-tcx .active-deck") == f"Active deck {v['enlightenment']['active_deck']}"
    # A card played face down: its player sees it face down, the others its count.
    g = get_game("tauceti")
    play = next(str(a) for a in g.legal_actions(state) if str(a).startswith("PLAY "))
    card = play.split()[1]
    g.apply(state, play)
    gv = game_view("tauceti", state, seat)
    v = gv["view"]
    page.draw(gv, seat)
    mine = v["players"][seat]["faction"]
    assert text(page, f"{iface(seat, mine)} .enlightened .card.face-down") == gv["present"]["names"][card]["name"]
    assert text(page, f"{iface(seat, mine)} .enlightenment-played") == "Played face down 1"
    assert v["first_player"] != 0  # round 2: the first player has moved on from seat 0
    f = v["players"][v["first_player"]]["faction"]
    assert text(page, ".iface .badge.first") == "first player"
    assert page.page.locator(f"{iface(v['first_player'], f)} .badge.first").count() == 1


@browser
def test_a_battle_names_its_initiator_defender_and_who_attacks_next(page: BoardPage) -> None:
    """Random play into a battle where the Defender attacks next: the panel said "A attacks B"
    from the Initiator's side whatever ``battle.attacker`` said."""
    state = first_state("tauceti", {"players": 4}, 5, lambda s: s.battle is not None and s.battle.winner is None
                        and s.battle.attacker == s.battle.defender
                        and s.stack[-1].kind in ("battle_shield", "battle_attack"))
    b = state.battle
    gv = game_view("tauceti", state, b.defender)
    page.draw(gv, b.defender)
    f = [p.faction for p in state.players]
    panel = text(page, ".ecl-tcx .battle-panel")
    assert f"{f[b.initiator]} (Initiator) against {f[b.defender]} (Defender)" in panel
    assert text(page, ".battle-panel .attacker") == f"{f[b.defender]} attacks next"


@browser
def test_the_battles_still_to_fight_are_listed(page: BoardPage) -> None:
    state, seat = crowded_4p()
    gv = game_view("tauceti", state, seat)
    gv["view"]["battles"] = ["02", "01"]  # what the Battle phase's view lists, higher number first
    page.draw(gv, seat)
    names = gv["present"]["names"]
    assert text(page, ".battle-panel .battles-left") == (
        f"Battles still to fight: {names['02']['name']}, {names['01']['name']}")


def _interfaces_with_ims_exotic_tech_and_diplomacy() -> tuple[Any, int]:
    """A game with Advanced Rules 4 and 6 (random play; seat 2 holds a pickup/deliver IM with
    its minimum route), and pieces moved as the rules would: seat 1 takes two more delivery IMs,
    the first picked up under its Unauthorized Transport token, the second waiting without the
    TCA's permission; seat 1 has the Neural Lattice and re-rolled with it this round; seat 2
    used the one-time Singularity Lance and earned the Diplomacy card."""
    from benchmarks.web_redraw import play_to

    from ecliptic.tauceti.state import ActiveMission

    state = play_to("tauceti", {"players": 4, "advanced": [4, 6]}, 8, 120)
    c = state.content
    route = state.players[2].missions[0].route
    assert route is not None and route > 1
    delivery = [m for m in state.mission_deck if c.mission(m).kind == "delivery"][:2]
    state.mission_deck = tuple(m for m in state.mission_deck if m not in delivery)
    state.players[1].missions += (
        ActiveMission(delivery[0], picked_up=True, unauthorized=True, route=1, permitted=False),
        ActiveMission(delivery[1], route=2, permitted=False))
    state.exotic_deck = tuple(e for e in state.exotic_deck if e not in ("E3", "E4"))
    state.players[1].exotic_tech, state.players[1].exotic_reroll_round = "E3", state.round
    state.players[2].exotic_tech, state.players[2].exotic_spent = "E4", True
    state.players[2].diplomacy, state.diplomacy_left = True, state.diplomacy_left - 1
    assert problems(state) == []
    return state, 0


@browser
def test_an_interface_says_its_ims_exotic_tech_and_diplomacy_card(page: BoardPage) -> None:
    state, seat = _interfaces_with_ims_exotic_tech_and_diplomacy()
    gv = game_view("tauceti", state, seat)
    page.draw(gv, seat)
    f = [p.faction for p in state.players]
    ims = text(page, f"{iface(1, f[1])} .missions")
    assert ims.startswith("IMs: ")
    assert "minimum route 1 sector, picked up, Unauthorized Transport token on it" in ims
    assert "minimum route 2 sectors, no permission from the TCA" in ims
    assert f"minimum route {state.players[2].missions[0].route} sectors" in text(page, f"{iface(2, f[2])} .missions")
    assert "no permission" not in text(page, f"{iface(2, f[2])} .missions")  # the TCA gave it
    assert text(page, f"{iface(1, f[1])} .exotic small") == "free re-roll used this round"
    assert text(page, f"{iface(2, f[2])} .exotic small") == "one-time use: used and discarded"
    assert text(page, f"{iface(2, f[2])} .stats .diplomacy") == "Diplomacy card"
    assert page.page.locator(".iface .stats .diplomacy").count() == 1
    assert "Diplomacy yes" not in text(page, ".ecl-interfaces")


@browser
def test_an_exploded_comet_and_the_ceres_phases_are_said_as_the_rulebook_says(page: BoardPage) -> None:
    state = first_state("ceres", {"players": 4, "expansions": ["comets"]}, 3,
                        lambda s: any(c.removed for c in s.comets))
    gv = game_view("ceres", state, state.current_player)
    page.draw(gv, state.current_player)
    exploded = next(c for c in state.comets if c.removed)
    cards = page.page.locator(".comet-card.removed")
    assert cards.count() == 1
    assert f"Comet {exploded.id}" in text(page, ".comet-card.removed header")
    assert "exploded: its Comet token is removed from the Asteroid Belt" in text(page, ".comet-card.removed header")
    # No Mining Probe lands on it any more: its empty slots are not said to be free.
    stayed = any(seat is not None for seat in exploded.slots)
    assert text(page, ".comet-card.removed .slots-free") == (
        "its Mining Probes gain nothing more" if stayed else "no Mining Probe was on it")
    assert text(page, ".belt-facts .stat:first-child") == f"Round {state.round} · Activation phase"
    assert page.page.locator(".ceres-players .badge.first").count() == 1
    assert page.page.locator(f".ceres-players .iface.o-{state.first_player} .badge.first").count() == 1
