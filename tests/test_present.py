"""The presentation module (issue 17): what a person is shown of each action, the same in the
terminal and the browser, and nothing a seat may not see.

Costs and effects are the engine's own change (the action performed on determinized copies),
so the tests compare them with what ``apply`` really does to the true state.
"""

from __future__ import annotations

import dataclasses
import io
import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ecliptic.ceres import belt
from ecliptic.ceres.game import Ceres
from ecliptic.engine.actions import Action
from ecliptic.engine.rng import Rng
from ecliptic.present import ceres_components
from ecliptic.present import effects as effects_module
from ecliptic.present.decision import WAITING_WORDS
from ecliptic.present.groups import OTHER, TAUCETI_GROUPS, group, order
from ecliptic.present.labels import label
from ecliptic.present.refusals import strings
from ecliptic.present.view import actions, block, closed_reasons, present
from ecliptic.tauceti import ship
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import State
from ecliptic.ui.terminal import menu_item
from test_hidden_information import WATCHED, ceres_secret, tc_secret

TC = TauCeti()
CERES = Ceres()
XUNON, AZARS = 0, 1
ID = re.compile(r"\b[A-Z]\d+\b")


def new_game() -> State:
    """Xunon (seat 0, on its home planet Xuno) to take its first turn."""
    state = TC.new_game({"layout": "preset", "players": 2, "factions": ["Xunon", "Azars"]}, 1)
    assert state.current_player == XUNON and state.decision.kind == "turn"
    return state


def shown(game: Any, state: Any, seat: int) -> dict[str, dict[str, Any]]:
    """The presented legal actions of ``seat`` by notation."""
    obs = game.observe(state, seat)
    return {str(p.action): p.to_json() for p in actions(game, state, seat, obs, game.legal_actions(state))}


def facts(state: State, seat: int) -> tuple[int, int, int]:
    p = state.players[seat]
    return p.tau, p.energy, p.markers_used


def spent(state: State, action: str, seat: int = XUNON) -> tuple[int, int, int]:
    """TAU, energy and Action markers the real ``apply`` takes from ``seat``."""
    after = state.clone()
    TC.apply(after, action)
    (tau0, en0, mk0), (tau1, en1, mk1) = facts(state, seat), facts(after, seat)
    return tau0 - tau1, en0 - en1, mk1 - mk0


# -- groups ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", [TC, CERES], ids=["tauceti", "ceres"])
def test_every_action_either_game_can_offer_has_a_group(game: Any) -> None:
    content = game._content()
    for kind, k in game.kinds.items():
        for action in k.domain(content):
            g = group(game.name, kind, action)
            assert g != OTHER and g in order(game.name), (kind, action)


# -- each action in words ----------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "config"), [
    (TC, {"layout": "preset", "players": 2, "factions": ["Xunon", "Azars"]}),
    (CERES, {"players": 2, "expansions": ["comets"]}),
], ids=["tauceti", "ceres"])
def test_every_action_either_game_can_offer_is_said_in_words(game: Any, config: dict[str, Any]) -> None:
    """A button read "IM", "REF", "EXP 15.1": every action of both action spaces has a phrase of
    the table, whose words are not its notation, with no rule id and no id left unsaid."""
    from ecliptic.present.words import phrase, text

    content = game._content()
    obs = game.observe(game.new_game(config, 1), 0)
    for kind, k in game.kinds.items():
        for action in k.domain(content):
            assert phrase(game.name, kind, action) is not None, (kind, action)
            for seen in (obs, {}):
                said = text(game.name, kind, seen, action)
                assert said and said != str(action) and not said.startswith(action.verb), (kind, action, said)
                assert not re.search(r"\b(?:TC|CC|CR)-[A-Z0-9]+-\d+\b|[{}]", said), (kind, action, said)


def test_an_action_is_said_as_the_rulebook_says_it() -> None:
    from ecliptic.engine.actions import act
    from ecliptic.present.words import text

    state = new_game()
    obs = TC.observe(state, XUNON)
    said = {str(a): text("tauceti", kind, obs, a) for kind, a in [
        ("turn", act("IM")), ("turn", act("MOV")), ("turn", act("REC")), ("turn", act("REF")),
        ("turn", act("EXP", "11.1")), ("turn", act("UPG", "computers", "free")), ("turn", act("SELL")),
        ("turn", act("BUY", "algae", "1")), ("move", act("GO", "XUNO")), ("turn", act("END")), ("turn", act("PASS")),
        ("turn", act("BATTLE", "06", "1")), ("turn", act("TRADE-K", "Cosmic", "Cosmic", "Chemical", "P1")),
        ("battle_shield", act("SHIELD", "1,5")), ("reroll", act("ACCEPT")), ("trade_offer", act("ACCEPT")),
        ("keep_mission", act("KEEP", "M24")), ("keep_specialist", act("KEEP", "S37"))]}
    assert said == {
        "IM": "Take an Interplanetary Mission", "MOV": "Move", "REC": "Recruit", "REF": "Refuel (+2 energy)",
        "EXP 11.1": "Explore Exploration point 1 of Cosmic Energy I",
        "UPG computers free": "Upgrade Computers (free upgrade)", "SELL": "Sell commodities",
        "BUY algae 1": "Buy 1 Xunari algae", "GO XUNO": "Go to Xuno", "END": "End your turn", "PASS": "Pass",
        "BATTLE 06 1": "Battle Azars in Sector 06",
        "TRADE-K Cosmic Cosmic Chemical P1": "Trade Cosmic and Cosmic Knowledge for Chemical Knowledge with Azars",
        "SHIELD 1,5": "Shield Weapons and Cargo", "ACCEPT": "Accept the trade",
        "KEEP M24": "Keep the mission: octo-nanofluid (Triolo → Zorhkon)", "KEEP S37": "Keep Diplomat"}
    assert text("tauceti", "reroll", obs, act("ACCEPT")) == "Accept the result"
    ceres = CERES.new_game({"players": 2, "expansions": ["comets"]}, 1)
    seen = CERES.observe(ceres, 0)
    assert text("ceres", "turn", seen, act("LAUNCH", "A05")) == "Launch a Probe onto Asteroid A05 (Outer Ring)"
    assert text("ceres", "turn", seen, act("PASS")) == "Pass for this round"
    tail = {**seen, "decision": {"kind": "tail", "player": 0, "data": {"comet": "C1", "mode": "launch"}}}
    assert text("ceres", "tail", tail, act("TAIL", "2")) == "Take the token of Tail 2 of Comet C1"


def test_the_view_says_each_legal_and_refused_action_in_words() -> None:
    state = new_game()
    out = present(TC, state, XUNON, TC.observe(state, XUNON))
    legal = {r["notation"]: r for r in out["legal_actions"]}
    assert legal["IM"]["text"] == "Take an Interplanetary Mission" and legal["IM"]["label"] == "IM"
    assert legal["BUY algae 1"]["label"] == "BUY algae 1 (Xunari algae)"  # the terminal's label stays
    assert out["refused"] and all(r["text"] and r["text"] != r["notation"] for r in out["refused"])
    assert all(r["text"] and r["text"] != r["notation"] for r in out["legal_actions"])


# -- costs and effects are the engine's own change ---------------------------------------------------


def test_a_purchase_costs_what_the_engine_takes_and_its_demand_change_is_random() -> None:
    state = new_game()
    rows = shown(TC, state, XUNON)
    buys = [n for n in rows if n.startswith("BUY")]
    assert buys
    for notation in buys:
        tau, energy, markers = spent(state, notation)
        row = rows[notation]
        assert row["cost"] == f"{markers} Action marker, {energy} energy, {tau} TAU", notation
        quantity = notation.split()[2]
        assert f"+{quantity} " in row["effect"]
        assert row["effect"].endswith("a random draw follows")  # the planet's new demand
        # The Major action Sell/Buy (TC-SB), not the Minor trades' "Trade" it was grouped with.
        assert row["group"] == "Sell/Buy" and row["targets"] == [f"commodity:{notation.split()[1]}"]


def test_a_move_costs_its_energy_and_marker_and_says_the_route_length() -> None:
    state = new_game()
    row = shown(TC, state, XUNON)["MOV"]
    tau, energy, markers = spent(state, "MOV")
    assert tau == 0
    assert row["cost"] == f"{markers} Action marker, {energy} energy"
    sectors = ship.move_allowance(state, XUNON)
    assert row["effect"] == f"up to {sectors} sectors"
    TC.apply(state, "MOV")
    steps = shown(TC, state, XUNON)
    go = next(n for n in steps if n.startswith("GO ") and "," not in n)
    tile = go.split()[1]
    assert steps[go]["cost"] == ""
    assert f"{sectors - 1} sector" in steps[go]["effect"] and steps[go]["targets"] == [f"sector:{tile}"]


def test_a_recruit_costs_the_tau_beside_the_materials_marker_and_draws_unknown_cards() -> None:
    state = new_game()
    row = shown(TC, state, XUNON)["REC"]
    tau, energy, markers = spent(state, "REC")
    assert row["cost"] == f"{markers} Action marker, {energy} energy, {tau} TAU"
    assert "+2 cards in hand" in row["effect"]
    assert not ID.search(row["effect"])  # which cards: the copies' re-dealt decks would only guess


def test_an_exploration_shows_what_it_pays_before_its_dice() -> None:
    state = new_game()
    state.players[XUNON].position = "01"  # a sector with Exploration points
    rows = shown(TC, state, XUNON)
    exp = next(n for n in rows if n.startswith("EXP"))
    _, energy, markers = spent_before_dice(state, exp)
    assert rows[exp]["cost"] == f"{markers} Action marker, {energy} energy"
    assert rows[exp]["effect"].endswith("rolls the dice")


def test_an_exploration_point_the_actions_name_has_a_name() -> None:
    """The decision panel heads a point's actions "On <its name>": it read "On 01.1"."""
    state = new_game()
    state.players[XUNON].position = "01"
    point = Action.parse(next(n for n in shown(TC, state, XUNON) if n.startswith("EXP"))).args[0]
    named = present(TC, state, XUNON, TC.observe(state, XUNON))["present"]["names"][point]
    assert named["name"] == f"Exploration point {point[-1]} of Sector 01"
    assert named["text"].startswith(named["name"] + f" ({point}): explore it (EXP {point})")


def test_a_damage_says_the_damage_then_the_power_and_nothing_of_the_move_it_returns_to() -> None:
    state = new_game()
    state.outer_limit_stack = tuple(x for x in state.outer_limit_stack if x != "13")
    state.layout = state.layout.set("13", (-2, 1))  # an Asteroid Field next to Xuno
    TC.apply(state, "MOV")
    state.rng.script_dice([3])  # 3 - Shields 2 = 1 damage
    TC.apply(state, "GO 13")
    assert state.decision.kind == "damage"
    rows = shown(TC, state, XUNON)
    # It was "-1 cargo power, +1 damage on cargo; 1 sector left" (and the damage first for
    # propulsion): the parts by their names' order, the move's allowance leaking in.
    assert rows["DAMAGE cargo"]["effect"] == "+1 damage on cargo, -1 cargo power"
    assert rows["DAMAGE propulsion"]["effect"] == "+1 damage on propulsion, -1 propulsion power"


def test_keeping_a_mission_does_not_say_it_shuffles_a_deck() -> None:
    state = new_game()
    TC.apply(state, "IM")
    rows = [r for n, r in shown(TC, state, XUNON).items() if n.startswith("KEEP")]
    assert rows and all(r["effect"] == "" for r in rows)  # it was "shuffles a deck"


def test_a_card_played_costs_a_card_from_the_hand() -> None:
    state = new_game()
    rng = random.Random(1)
    while state.decision.kind != "enlighten":
        TC.apply(state, rng.choice(TC.legal_actions(state)))
    state.players[state.current_player].hand = ["C01"]
    row = shown(TC, state, state.current_player)["PLAY C01"]
    assert (row["cost"], row["effect"]) == ("a card from your hand", "+2 energy")  # it was "1 card in hand"


def spent_before_dice(state: State, action: str) -> tuple[int, int, int]:
    after = state.clone()
    after.rng.script_dice([1] * 20)  # a failed check: nothing gained beyond what was paid
    TC.apply(after, action)
    (tau0, en0, mk0), (tau1, en1, mk1) = facts(state, XUNON), facts(after, XUNON)
    return tau0 - tau1, en0 - en1, mk1 - mk0


def test_the_view_never_moves_the_true_generator_or_changes_the_state() -> None:
    state = new_game()
    before = json.dumps(TC.to_json(state), sort_keys=True)
    present(TC, state, XUNON, TC.observe(state, XUNON))
    assert json.dumps(TC.to_json(state), sort_keys=True) == before


def test_the_tripwire_stops_at_the_first_random_step() -> None:
    rng = effects_module.Tripwire()
    for roll, what in ((lambda: rng.d6(), "dice"), (lambda: rng.roll(2), "dice"),
                       (lambda: rng.shuffle([1, 2]), "shuffle"), (lambda: rng.below(3), "draw")):
        with pytest.raises(effects_module.RandomOutcome) as stop:
            roll()
        assert stop.value.what == what


# -- naming what a person never sees otherwise ------------------------------------------------


def crisis_on(state: State, planet: str, token: str) -> None:
    ctype = state.content.crisis_token(token).crisis_type
    state.crisis_stacks[ctype] = tuple(t for t in state.crisis_stacks[ctype] if t != token)
    state.planet_crises[planet] = (*state.planet_crises.get(planet, ()), token)


def test_resolve_names_its_crisis_token_by_type_resource_and_planet() -> None:
    state = new_game()
    crisis_on(state, "AZAR", "X06")  # Chemical, affecting Industry
    state.players[XUNON].knowledge = state.players[XUNON].knowledge.set("Chemical", 3)
    obs = TC.observe(state, XUNON)
    out = present(TC, state, XUNON, obs)
    row = next(r for r in out["legal_actions"] if r["notation"] == "RESOLVE X06 K3")
    assert row["label"] == "RESOLVE X06 K3 (Chemical crisis (Industry) on Azar, with 3 Knowledge tokens)"
    assert row["group"] == "Crisis" and row["targets"] == ["crisis:X06"]
    assert row["cost"] == "3 Chemical Knowledge"
    assert "removes the crisis X06" in row["effect"] and "+1 GP token" in row["effect"]
    named = out["present"]["names"]["X06"]
    assert named["name"] == "Chemical crisis (Industry)" and "TC-RES-1" in named["text"]


def test_shield_is_a_set_choice_with_one_target_per_system() -> None:
    state = TC.new_game({"layout": "preset", "players": 2, "factions": ["Zorhkonian", "Azars"]}, 1)
    from test_battle import start_battle

    start_battle(state)
    assert state.decision.kind == "battle_shield"
    defender = state.current_player
    systems = state.content.systems
    rows = shown(TC, state, defender)
    shields = {n: r for n, r in rows.items() if n.startswith("SHIELD")}
    assert "SHIELD 1,2,5" in shields and "SHIELD -" in shields
    for notation, row in shields.items():
        assert row["select"] == "set" and row["group"] == "Shield"
        numbers = [] if notation == "SHIELD -" else [int(n) for n in notation.split()[1].split(",")]
        assert row["targets"] == [f"system:{defender}:{systems[n - 1]}" for n in numbers]
    # No two shield choices are the same set: a toggled set finds exactly one action.
    sets = [frozenset(r["targets"]) for r in shields.values()]
    assert len(sets) == len(set(sets))
    assert rows["RETREAT"]["select"] == "one"


def test_refused_candidates_say_why_with_the_rule() -> None:
    state = new_game()
    state.players[XUNON].energy = 0
    out = present(TC, state, XUNON, TC.observe(state, XUNON))
    refused = {r["notation"]: r for r in out["refused"]}
    assert refused["MOV"]["rule"].startswith("TC-") and "energy" in refused["MOV"]["reason"]
    legal = {r["notation"] for r in out["legal_actions"]}
    assert not legal & set(refused) and len(out["refused"]) <= 300
    for notation, row in refused.items():
        why = TC.why_not(state, notation)
        assert why is not None and (why.rule, why.reason) == (row["rule"], row["reason"])


def test_why_not_leaves_out_the_candidates_that_are_no_option_of_this_game() -> None:
    """The BATTLE domain names four seats, and GO names every position of the table: in a
    two-player game the seats 2 and 3, the seat itself, and a position that holds a tile (its
    move is GO <sector>) are no option at all. The engine still refuses them, rule and reason
    included, but "Why not?" does not list them; the other BATTLE refusals stay."""
    from ecliptic.engine.errors import NotAnOption

    state = new_game()
    refused = {r["notation"]: r for r in present(TC, state, XUNON, TC.observe(state, XUNON))["refused"]}
    battles = [n for n in refused if n.startswith("BATTLE ")]
    assert battles and {n.split()[2] for n in battles} == {str(AZARS)}
    assert all("Azars" in refused[n]["reason"] for n in battles)
    sector = battles[0].split()[1]
    for target in (XUNON, 2, 3):
        why = TC.why_not(state, f"BATTLE {sector} {target}")
        assert isinstance(why, NotAnOption) and why.rule == "TC-BAT-2"
    TC.apply(state, Action.parse("MOV"))
    assert state.decision.kind == "move"
    moves = {r["notation"]: r for r in present(TC, state, XUNON, TC.observe(state, XUNON))["refused"]}
    cells = {f"GO {q},{r}" for q, r in state.layout.values()}
    assert not cells & set(moves) and any(n.startswith("GO ") and "," in n for n in moves)
    why = TC.why_not(state, min(cells))
    assert isinstance(why, NotAnOption) and "GO <sector>" in why.reason


def test_a_move_at_its_missions_sector_says_why_no_go_is_open_and_lists_no_card_not_held() -> None:
    """At the pickup or delivery sector of its IM a starship may not GO on: every GO, near or
    far, is refused for that one reason, so the prompt says it (it read "Not possible now: GO."
    with the reason the last of 62 "not next to" lines). And a card that is not in the seat's
    hand is no option of its: "Why not?" lists no PLAY of one."""
    state = new_game()
    rng = random.Random(0)  # (this game's random play meets such a move)
    while not (state.decision.kind == "move" and state.decision.data["left"] > 0
               and not any(a.verb == "GO" for a in TC.legal_actions(state))):
        assert not state.is_over
        TC.apply(state, rng.choice(TC.legal_actions(state)))
    seat = state.current_player
    out = present(TC, state, seat, TC.observe(state, seat))
    said = out["present"]["decision"]
    assert re.search(r"Not possible now: GO \(your starship is in [\w ]+: (deliver|pick) it (up )?before moving on "
                     r"with IM M\d+\)\.$", said), said
    assert all(r["rule"] == "TC-IM-4" for r in out["refused"] if r["notation"].startswith("GO "))
    while state.decision.kind != "enlighten":
        assert not state.is_over
        TC.apply(state, rng.choice(TC.legal_actions(state)))
    seat = state.current_player
    hand = set(state.players[seat].hand)
    refused = present(TC, state, seat, TC.observe(state, seat))["refused"]
    assert {r["notation"].split()[1] for r in refused if r["notation"].startswith("PLAY ")} <= hand


def test_the_running_score_counts_only_the_hands_a_seat_sees() -> None:
    state = new_game()
    state.players[AZARS].hand = ["S01", "C01"]  # both worth GP to some faction
    state.players[XUNON].hand = ["S02"]
    mine = block(TC, state, XUNON, TC.observe(state, XUNON))["score"]
    theirs = block(TC, state, AZARS, TC.observe(state, AZARS))["score"]
    from ecliptic.tauceti import scoring

    assert theirs[AZARS]["by_source"]["cards"] == scoring.score(state, AZARS)["cards"]
    assert mine[XUNON]["by_source"]["cards"] == scoring.score(state, XUNON)["cards"]
    hidden = state.clone()
    hidden.players[AZARS].hand = []
    assert mine[AZARS]["by_source"]["cards"] == scoring.score(hidden, AZARS)["cards"]


def test_prices_are_the_engines_at_the_seats_planet() -> None:
    from ecliptic.tauceti.actions.economy import demand, price

    state = new_game()
    prices = block(TC, state, XUNON, TC.observe(state, XUNON))["prices"]
    planet = state.players[XUNON].position
    for c in state.content.commodities:
        assert prices[c.name]["buy"] == price(state, c.name, demand(state, planet, c.name), 1)
    assert block(TC, state, None, TC.observe(state, None))["prices"] is None


def test_every_commodity_the_price_table_lists_is_named_when_nothing_else_mentions_it() -> None:
    """Late in a game a commodity can be in no Supply pile, hand or planet's demand; the price
    table still lists it, and reads its name ("nano processors"), not its id."""
    state = new_game()
    of = state.content.commodity_token
    demanded = {of(t).commodity for t in state.planet_commodity.values()}
    gone = next(c.name for c in state.content.commodities if c.name not in demanded)
    state = dataclasses.replace(state, supply=tuple(t for t in state.supply if of(t).commodity != gone))
    obs = TC.observe(state, XUNON)
    assert gone not in json.dumps(obs)
    shown = block(TC, state, XUNON, obs)
    assert gone in shown["prices"]
    assert set(shown["prices"]) <= set(shown["names"])
    assert shown["names"][gone]["name"] != gone


def test_ceres_shows_the_reconstruction_banner_and_launch_costs() -> None:
    state = CERES.new_game({"players": 2, "expansions": ["comets"]}, 3)
    seat = state.current_player
    out = present(CERES, state, seat, CERES.observe(state, seat))
    assert out["present"]["banner"] == ceres_components.BANNER
    launches = [r for r in out["legal_actions"] if r["notation"].startswith("LAUNCH A")]
    assert any("Ice" in state.content.asteroid(r["notation"].split()[1]).resources for r in launches)
    for row in launches:
        asteroid = row["notation"].split()[1]
        a = state.content.asteroid(asteroid)
        # The Ice paid and the Ice the Asteroid gives are shown apart, not as their net change.
        assert row["cost"] == f"{belt.launch_cost(state, a.ring)} Ice, 1 Mining Probe"
        if a.resources.get("Ice"):
            assert f"+{a.resources['Ice']} Ice" in row["effect"]
        assert row["targets"] == [f"asteroid:{asteroid}"]
        assert f"claims Asteroid {asteroid}" in row["effect"]
        # The rulebook's words for where it lies and what it pays later (it said "Outer Z2 · inc").
        zone = CERES.observe(state, seat)["belt"][asteroid]["zone"]
        assert f"{a.ring} Ring, Zone {zone} · " in row["label"]
        assert ("· income " in row["label"]) == bool(a.income) and not re.search(r" Z\d| inc ", row["label"])
        # What it gives in words, as the effect says it ("1Met 1VP" is the belt's print, too short to read).
        assert f" · {ceres_components.amounts(a.resources, a.vp)}" in row["label"], row["label"]
        assert not re.search(r"\d(Ice|Met|Gas|VP)\b", row["label"]), row["label"]
    comets = [r for r in out["legal_actions"] if r["notation"].startswith("LAUNCH C")]
    assert comets and all(re.fullmatch(r"LAUNCH C\d \((Near-sun|Sungrazer) Comet, \w+ Ring, Zone \d\)", r["label"])
                          for r in comets), [r["label"] for r in comets]
    # The Ice is said once, in the cost with the probe; the label says where and what, not "pay 1 Ice".
    assert not [r["label"] for r in out["legal_actions"] if "pay" in r["label"]]
    # A Launch onto a Comet leads to a Tail token: said so, not by the engine's decision key.
    assert all(r["effect"] == "then: take a Tail token" for r in comets), [r["effect"] for r in comets]


def test_the_ceres_banner_tells_a_player_in_one_short_sentence() -> None:
    """Every player sees it: no designer's rule ids or file paths (those are on the rules page)."""
    text = ceres_components.BANNER
    assert text.count(". ") == 0 and text.endswith(".") and len(text) <= 120, text
    assert not re.search(r"CC-|CR-|docs/|rule ids", text), text
    assert "Comets expansion" in text and "stand-in" in text


def _tail_decision(mode_round: int) -> tuple[Any, dict[str, Any]]:
    """A Ceres game at a TAIL choice (after a Launch onto a Comet) in round ``mode_round``."""
    state = CERES.new_game({"players": 2, "expansions": ["comets"]}, 3)
    rng = random.Random(0)
    while not state.is_over:
        if state.stack[-1].kind == "tail" and state.round == mode_round:
            return state, CERES.observe(state, state.current_player)
        legal = CERES.legal_actions(state)
        onto = [a for a in legal if str(a).startswith(("LAUNCH C", "STAY"))]
        CERES.apply(state, (onto or [rng.choice(legal)])[0])
    raise AssertionError(f"no Tail choice in round {mode_round}")


@pytest.mark.parametrize("round_", [1, 3])
def test_a_tail_label_names_its_comet_and_token_in_words(round_: int) -> None:
    state, obs = _tail_decision(round_)
    comet = obs["decision"]["data"]["comet"]
    rows = present(CERES, state, state.current_player, obs, with_refused=False)["legal_actions"]
    assert [r["notation"] for r in rows] == ["TAIL 1", "TAIL 2", "TAIL 3"]
    for i, row in enumerate(rows, 1):
        # "TAIL 2 (T15 1Met)" named neither the Comet nor what the token gives in words.
        tail = next(c for c in obs["comets"] if c["id"] == comet)["tails"][i - 1]
        token = next(t for t in reversed(tail) if t)  # the lowest left: the round's type, in these games
        assert row["label"].startswith(f"TAIL {i} ({token} from Comet {comet} · "), row["label"]
        assert re.search(r" token: \d", row["label"]) and not re.search(r"\d(Ice|Met|Gas|VP)\b", row["label"])
        assert ("+ Nucleus table: " in row["label"]) == (round_ == 3), row["label"]
        # The token it takes is a target too: the Comet card outlines that cell, not the whole tail.
        assert row["targets"] == [f"tail:{i}", f"tail-token:{token}"]


# -- one text for the terminal and the browser ------------------------------------------------------


def test_the_terminal_menu_prints_the_servers_label_cost_and_effect() -> None:
    state = new_game()
    obs = TC.observe(state, XUNON)
    legal = TC.legal_actions(state)
    view = present(TC, state, XUNON, obs)["legal_actions"]
    menu = actions(TC, state, XUNON, obs, legal)
    assert [r["notation"] for r in view] == [str(a) for a in legal]
    for i, (row, p) in enumerate(zip(view, menu, strict=True), 1):
        line = menu_item(i, 2, p).plain
        assert row["label"] == label("tauceti", obs, Action.parse(row["notation"]))
        assert line.startswith(f"{i:>2} {row['label']}")
        assert (row["cost"] in line) and (row["effect"] in line)


# -- hidden information --------------------------------------------------------------------------


def ids(data: Any) -> set[str]:
    return set(ID.findall(json.dumps(data)))


@pytest.mark.parametrize(("game", "config", "secret"), [
    (TC, {"players": 2, "advanced": list(range(1, 10)), "advanced_specialists": True}, tc_secret),
    (TC, {"players": 4, "layout": "players"}, tc_secret),
    (CERES, {"players": 3, "expansions": ["comets"]}, ceres_secret),
], ids=["tauceti-advanced", "tauceti-4", "ceres-comets"])
def test_the_view_names_no_id_beyond_what_the_seat_sees(game: Any, config: dict[str, Any], secret: Any) -> None:
    """Every id in the presented actions, refusals and the ``present`` block is in the seat's
    observation or in its own legal actions (never another's hand card, a GP token's back, a
    face-down card), for the deciding seat and a spectator, through whole random games
    (checked at every decision that shows a seat something, and every few steps)."""
    state = game.new_game(config, 5)
    rng = random.Random(5)
    step = 0
    kinds = set()
    while not state.is_over and step < 1500:
        kind = state.decision.kind
        if kind in WATCHED or step % (4 * len(state.players)) == 0:
            kinds.add(kind)
            seat = state.current_player
            for viewer in (seat, None):
                obs = game.observe(state, viewer)
                out = present(game, state, viewer, obs)
                # Seats (TRADE-K P1), K3 and Ceres' Zones (Z4) are words of the notation, not components.
                allowed = ids(obs) | {f"P{n}" for n in range(4)} | {"K3"} | {f"Z{n}" for n in range(1, 13)}
                allowed |= {x for r in out["legal_actions"] for x in ids(r["notation"])}
                leaked = ids(out) - allowed
                assert not leaked, (viewer, state.decision, sorted(leaked))
                assert not ids(out) & secret(state, viewer)
        game.apply(state, rng.choice(game.legal_actions(state)))
        step += 1
    assert state.is_over
    if game is TC and config["players"] == 2:
        assert {"keep_mission", "enlighten", "place_tile"} <= kinds, kinds


def test_a_seats_effects_do_not_depend_on_what_it_cannot_see() -> None:
    """Re-dealing the hidden cards (another hand, the decks) leaves every text unchanged: the
    copies the actions are tried on depend only on the seat's observation."""
    state = new_game()
    state.players[AZARS].hand = ["S01", "S02"]
    other = TC.determinize(state, XUNON, Rng.from_seed(99))
    assert other.players[AZARS].hand != state.players[AZARS].hand or other.specialist_deck != state.specialist_deck
    a = present(TC, state, XUNON, TC.observe(state, XUNON))
    b = present(TC, other, XUNON, TC.observe(other, XUNON))
    assert a == b


def test_the_battle_winner_is_offered_the_losers_cards_it_looks_at_and_nobody_else_sees_them() -> None:
    from test_hidden_information import _steal_position

    state = _steal_position()
    assert state.decision.kind == "battle_steal" and state.current_player == 0
    winner = present(TC, state, 0, TC.observe(state, 0))
    steals = {r["notation"] for r in winner["legal_actions"]}
    assert {"STEAL card C05", "STEAL card S01", "STEAL card S02"} <= steals
    assert {"C05", "S01", "S02"} <= set(winner["present"]["names"])
    for viewer in (1, None):
        out = present(TC, state, viewer, TC.observe(state, viewer))
        if viewer is None:
            assert not {"C05", "S01", "S02"} & ids(out)
        assert out["legal_actions"] == [] and out["refused"] == []


# -- the server's view ------------------------------------------------------------------------------


def test_the_server_view_carries_the_presentation_for_the_deciding_seat_only(tmp_path: Any) -> None:
    from server_helpers import bearer, create, live, server, tokens

    with server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as c:
        created = create(c, game="tauceti", config={"layout": "preset", "factions": ["Xunon", "Azars"]}, seed=1)
        game_id = created["id"]
        seat = c.get(f"/api/games/{game_id}").json()["current_seat"]
        other = 1 - seat
        pushed = c.get(f"/api/games/{game_id}", headers=bearer(tokens(created)[seat])).json()
        mine = c.get(f"/api/games/{game_id}?refused=true", headers=bearer(tokens(created)[seat])).json()
        assert pushed["refused"] == [] and {**pushed, "refused": mine["refused"]} == mine  # asked for only
        theirs = c.get(f"/api/games/{game_id}", headers=bearer(tokens(created)[other])).json()
        spectator = c.get(f"/api/games/{game_id}").json()
        state = live(c, game_id).state
        expected = present(TC, state, seat, TC.observe(state, seat))
        rows = [{k: v for k, v in r.items() if k != "id"} for r in mine["legal_actions"]]
        assert rows == expected["legal_actions"] and mine["refused"] == expected["refused"]
        space = TC.action_space(state)
        assert [r["id"] for r in mine["legal_actions"]] == [space.id(a) for a in TC.legal_actions(state)]
        assert mine["refused"] and all(r["rule"] for r in mine["refused"])
        for view in (theirs, spectator):
            assert view["legal_actions"] == [] and view["refused"] == []
        for who in (tokens(created)[other], None):
            asked = c.get(f"/api/games/{game_id}?refused=true", headers=bearer(who) if who else {}).json()
            assert asked["refused"] == []
        assert spectator["present"]["prices"] is None and mine["present"]["prices"] is not None
        assert mine["present"]["decision"].startswith("Your turn")
        faction = mine["view"]["players"][seat]["faction"]
        # Seats are counted from 1 in the game's words, as in the lobby ("Seat 1" is index 0).
        assert theirs["present"]["decision"] == f"Waiting for {faction} (seat {seat + 1}) to decide their turn."
        # The menu's order of groups, the terminal's, for every viewer: Pass after the actions, Other last.
        for view in (mine, theirs, spectator):
            assert view["present"]["groups"] == [*TAUCETI_GROUPS, OTHER] and view["present"]["groups"][-2] == "Pass"
        assert {r["group"] for r in mine["legal_actions"]} <= set(mine["present"]["groups"])
        assert [s["seat"] for s in mine["present"]["score"]] == [0, 1]
        assert mine["present"]["banner"] is None
        # After an action every viewer's view is made again for the new position.
        r = c.post(f"/api/games/{game_id}/actions", headers=bearer(tokens(created)[seat]),
                   json={"action": "REF", "expected_index": mine["index"]})
        assert r.status_code == 200, r.text
        again = c.get(f"/api/games/{game_id}", headers=bearer(tokens(created)[seat])).json()
        assert again["index"] == mine["index"] + 1
        assert again["legal_actions"] != mine["legal_actions"]


def test_the_ceres_server_view_has_the_banner(tmp_path: Any) -> None:
    from server_helpers import create, server

    with server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as c:
        created = create(c, game="ceres", config={"expansions": ["comets"]}, seed=3)
        view = c.get(f"/api/games/{created['id']}").json()
        assert view["present"]["banner"] == ceres_components.BANNER
        assert view["present"]["names"] and view["present"]["prices"] is None


@pytest.mark.parametrize("game", [TC, CERES], ids=["tauceti", "ceres"])
def test_every_decision_kind_is_put_in_words_for_the_seats_that_wait(game: Any) -> None:
    from ecliptic.present.decision import WAITING_WORDS

    assert set(game.kinds) <= set(WAITING_WORDS)


def test_every_rule_id_the_texts_quote_is_a_rule_of_the_coverage_list() -> None:
    from pathlib import Path

    import ecliptic.present as package

    known = set(re.findall(r"\| ((?:TC|CC|CR)-[A-Z0-9]+-\d+) \|",
                           (Path(__file__).parent.parent / "docs" / "rules-coverage.md").read_text()))
    quoted: set[str] = set()
    for module in Path(package.__file__).parent.glob("*.py"):
        quoted |= set(re.findall(r"\b(?:TC|CC|CR)-[A-Z0-9]+-\d+\b", module.read_text()))
    assert quoted and quoted <= known, sorted(quoted - known)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), game_name=st.sampled_from(["tauceti", "ceres"]))
@example(seed=7673, game_name="tauceti")  # a move into uncharted space: all three copies drew the same Outer Limit tile
def test_a_certain_cost_and_effect_is_what_the_true_state_would_show(seed: int, game_name: str) -> None:
    """At positions of a random game, every action the presentation calls certain (no random
    step, nothing hidden) reads the same when it is tried on the true state itself: the texts
    are the engine's change, not a guess of the re-dealt copies."""
    game = TC if game_name == "tauceti" else CERES
    config = {"players": 3} if game is TC else {"players": 3, "expansions": ["comets"]}
    state = game.new_game(config, seed)
    rng = random.Random(seed)
    compared = 0
    for step in range(400):
        if state.is_over:
            break
        if step % 20 == 0:
            seat = state.current_player
            legal = game.legal_actions(state)
            groups = [group(game.name, state.decision.kind, a) for a in legal]
            guessed = effects_module.effects(game, game.name, effects_module.samples(game, state, seat), seat,
                                             legal, groups)
            true = effects_module.effects(game, game.name, [state], seat, legal, groups)
            for action, g, t in zip(legal, guessed, true, strict=True):
                if g.random is None and not g.hidden:
                    assert (g.cost, g.effect) == (t.cost, t.effect), action
                    compared += 1
        game.apply(state, rng.choice(game.legal_actions(state)))
    assert compared


def test_an_empty_position_is_named_by_the_tiles_around_it() -> None:
    """``GO q,r`` and ``PLACE q,r`` say where the position is on the board, not only its
    coordinates: the tiles of the layout one step away, and nothing else."""
    from ecliptic.engine.actions import act
    from ecliptic.present.labels import label

    obs = {"layout": {"TC": [0, 0], "06": [1, 0], "XUNO": [3, -3], "07": [-1, 2]}}
    assert label("tauceti", obs, act("GO", "1,-1")) == "GO 1,-1 (uncharted space beside Sector 06, TAU CETI)"
    assert label("tauceti", obs, act("PLACE", "-1,1")) == "PLACE -1,1 (an empty position beside Sector 07, TAU CETI)"
    assert label("tauceti", obs, act("GO", "2,-3")) == "GO 2,-3 (uncharted space beside Xuno)"
    assert label("tauceti", obs, act("GO", "-4,0")) == "GO -4,0 (uncharted space)"
    assert label("tauceti", obs, act("GO", "06")) == "GO 06"
    # A position that holds a tile (a refused candidate) is no uncharted space: its tile names it.
    assert label("tauceti", obs, act("GO", "3,-3")) == "GO 3,-3 (where Xuno lies)"
    assert label("tauceti", obs, act("PLACE", "1,0")) == "PLACE 1,0 (where Sector 06 lies)"


def test_the_choice_an_action_leads_to_is_said_in_words_not_by_its_decision_key() -> None:
    state = new_game()
    rows = present(TC, state, XUNON, TC.observe(state, XUNON), with_refused=False)["legal_actions"]
    # It said "then: keep mission" (the engine's keep_mission), as Ceres' said "then: tail".
    assert [r["effect"] for r in rows if r["notation"] == "IM"] == ["then: keep a mission"]
    assert set(effects_module.FOLLOW_UPS) <= set(WAITING_WORDS), "a decision kind the game does not have"


def test_the_log_names_a_major_action_as_the_rulebook_does() -> None:
    state = new_game()
    events = TC.apply(state, Action.parse("REF"))
    # "Xunon takes REF (0 energy)." gave only the Interface's abbreviation.
    assert any(e.text.startswith("Xunon takes the Refuel action (REF, ") for e in events), [e.text for e in events]


def test_a_label_names_the_commodity_the_notation_shortens() -> None:
    state = new_game()
    labels = {r["notation"]: r["label"] for r in present(TC, state, XUNON, TC.observe(state, XUNON),
                                                          with_refused=False)["legal_actions"]}
    # "BUY octo 1" alone left a player to guess which commodity "octo" is.
    assert labels["BUY octo 1"] == "BUY octo 1 (octo-nanofluid)"
    assert labels["BUY nano 2"] == "BUY nano 2 (nano processors)"


def test_a_delivery_missions_label_names_what_it_carries() -> None:
    """"KEEP M24 (deliver Triolo→Zorhkon)" left the player to open the card to learn the cargo."""
    from ecliptic.engine.actions import act
    from ecliptic.present.labels import label

    assert label("tauceti", {}, act("KEEP", "M24")) == "KEEP M24 (deliver octo-nanofluid Triolo→Zorhkon)"


def test_every_tau_ceti_decision_is_asked_in_words() -> None:
    from ecliptic.present.decision import tauceti_prompt
    from ecliptic.tauceti.registry import KINDS

    state = new_game()
    obs = TC.observe(state, XUNON)
    for kind in KINDS:
        text, _ = tauceti_prompt({**obs, "decision": {"kind": kind, "player": XUNON, "data": {}}}, XUNON)
        # It was "Decision: battle attack." / "Decision: sell." for ten of them.
        assert not text.startswith("Decision:"), kind


def test_a_decisions_details_name_the_planet_and_commodities_not_their_ids() -> None:
    from ecliptic.present.decision import tauceti_prompt

    obs = TC.observe(new_game(), XUNON)
    data = {"planet": "TRIOLO", "demanded": "octo", "sold": ["algae"]}
    _, details = tauceti_prompt({**obs, "decision": {"kind": "sell", "player": XUNON, "data": data}}, XUNON)
    assert details == "planet: Triolo; demanded: octo-nanofluid; sold: Xunari algae"


def test_a_moves_path_and_the_cards_to_keep_are_named_not_given_by_their_ids() -> None:
    from ecliptic.present.decision import tauceti_prompt

    obs = TC.observe(new_game(), XUNON)
    move = {"left": 1, "jump": False, "path": ["ZORHKON", "13", "01"]}
    _, details = tauceti_prompt({**obs, "decision": {"kind": "move", "player": XUNON, "data": move}}, XUNON)
    # It was "path: ZORHKON, 13, 01".
    assert details == "left: 1; path: Zorhkon, Asteroid Field I, Sector 01"
    keep = {"cards": ["M30", "M11"]}
    _, details = tauceti_prompt({**obs, "decision": {"kind": "keep_mission", "player": XUNON, "data": keep}}, XUNON)
    # It was "cards: M30, M11".
    assert details == "cards: nano processors (Zuron Asteroid → Zorhkon), Logistics check at Sector 07"


def test_a_counted_fact_is_said_in_its_number() -> None:
    """``+2 cards in hand``, ``2 Resource cubes on XUNO``; amounts (TAU, energy) as they are."""
    from ecliptic.present.effects import counted

    assert counted(1, "card in hand") == "1 card in hand"
    assert counted(2, "card in hand") == "2 cards in hand"
    assert counted(-2, "Action marker") == "-2 Action markers"
    assert counted(3, "Resource cube on XUNO") == "3 Resource cubes on XUNO"
    assert counted(-1, "orbital in 05") == "-1 orbital in 05"
    assert counted(2, "TAU") == "2 TAU"
    assert counted(2, "Industry skill") == "2 Industry skill"


def _named_verbs(game_name: str, text: str) -> set[str]:
    from ecliptic.present.help import CERES_VERBS, TAUCETI_VERBS

    known = CERES_VERBS if game_name == "ceres" else TAUCETI_VERBS
    return {w for w in re.findall(r"(?<![\w-])[A-Z][A-Z-]*[A-Z](?![\w-])", text) if w in known}


def _outside_brackets(text: str) -> tuple[str, str]:
    """``text`` without its bracketed parts (a reason may hold brackets), and those parts."""
    outside, inside, depth = [], [], 0
    for ch in text:
        depth += ch == "("
        (inside if depth else outside).append(ch)
        depth -= ch == ")"
    return "".join(outside), "".join(inside)


@pytest.mark.parametrize(("game", "config"), [
    (TauCeti(), {"players": 2}),
    (TauCeti(), {"players": 4, "advanced": list(range(1, 10))}),
    (Ceres(), {"players": 3, "expansions": ["comets"]}),
], ids=["tauceti-2", "tauceti-4-advanced", "ceres-comets"])
def test_a_prompt_offers_no_option_the_rules_take_away_now(game: Any, config: dict[str, Any]) -> None:
    """Whatever a prompt names as an option (a verb in capitals) is legal now, or the prompt
    says it is not possible: it offered JUMP when no Asteroid could be jumped onto, PLAY with
    no card in hand."""
    from ecliptic.present.decision import decision_text

    said_not_possible = said_why = 0
    for seed in range(6):
        state = game.new_game(config, seed)
        rng = random.Random(seed)
        while not state.is_over:
            legal = game.legal_actions(state)
            seat = state.current_player
            verbs = {a.verb for a in legal}
            obs = game.observe(state, seat)
            text = decision_text(game.name, obs, seat, verbs, closed_reasons(game, state, seat, obs))
            offered, _, refused = text.partition("Not possible now:")
            closed, reasons = _outside_brackets(refused)
            assert _named_verbs(game.name, offered) - verbs <= _named_verbs(game.name, closed), text
            assert not _named_verbs(game.name, closed) & verbs, text
            # A closed verb's reason (in brackets) names no card or token the seat has not seen.
            assert set(ID.findall(reasons)) <= strings(obs), text
            said_not_possible += bool(refused)
            said_why += "(" in refused
            game.apply(state, rng.choice(legal))
    assert said_not_possible and said_why  # the random games met such decisions


def test_a_prompt_says_why_an_option_it_names_is_closed_now() -> None:
    """"Not possible now: PLAY." left a player guessing: the reason that refuses the verb's
    candidates is said with it, in the server's prompt and the terminal's alike."""
    from ecliptic.ui.ceres_terminal import describe_decision as ceres_decision
    from ecliptic.ui.terminal import describe_decision

    def prompt(game: Any, state: Any) -> str:
        seat = state.current_player
        obs = game.observe(state, seat)
        text = present(game, state, seat, obs, with_refused=False)["present"]["decision"]
        describe = ceres_decision if game.name == "ceres" else describe_decision
        legal = {a.verb for a in game.legal_actions(state)}
        assert describe(obs, seat, legal, closed_reasons(game, state, seat, obs)).plain.endswith(
            text.rpartition(" Not possible now:")[2])
        return text

    state = new_game()
    rng = random.Random(1)
    while not (state.decision.kind == "enlighten" and not state.players[state.current_player].hand):
        TC.apply(state, rng.choice(TC.legal_actions(state)))
    assert prompt(TC, state).endswith(" Not possible now: PLAY (your hand is empty: there is no card to play).")
    state.players[state.current_player].hand = ["S21"]  # a Specialist without the Enlightenment icon
    assert "E" not in state.content.specialist("S21").phases
    assert prompt(TC, state).endswith(" Not possible now: PLAY (S21 has no Enlightenment phase icon).")
    ceres = CERES.new_game({"players": 2}, 1)
    ceres.players[ceres.current_player].probes = 0
    assert prompt(CERES, ceres).endswith(" Not possible now: LAUNCH (you have no Mining Probe left in your supply).")


def test_a_probe_that_cannot_jump_is_told_it_stays() -> None:
    """CC-PROD-5: with no available Asteroid in the Comet's Zone only STAY is legal; the
    decision the server sends and the terminal's say so instead of offering a JUMP."""
    from rich.console import Console

    from ecliptic.ui.ceres_terminal import ceres_session, describe_decision

    game = Ceres()
    state = game.new_game({"players": 3, "expansions": ["comets"]}, 8)
    rng = random.Random(8)
    while not (state.stack[-1].kind == "comet_probe"
               and not any(a.verb == "JUMP" for a in game.legal_actions(state))):
        game.apply(state, rng.choice(game.legal_actions(state)))
    seat = state.current_player
    obs = game.observe(state, seat)
    sent = present(game, state, seat, obs)
    assert [r["notation"] for r in sent["legal_actions"]] == ["STAY"]
    text = sent["present"]["decision"]
    assert "JUMP" not in text and "STAYs and takes one of the lowest Tail tokens" in text
    assert re.search(r"no Asteroid of Zone \d is available to jump onto", text), text
    legal = game.legal_actions(state)
    assert describe_decision(obs, seat, {a.verb for a in legal}).plain == text
    # The terminal game shows its menu with the same words.
    out = io.StringIO()
    console = Console(file=out, width=160, soft_wrap=True, color_system=None)
    session = ceres_session(console, lambda _prompt: "", seat=seat, players=3, expansions=["comets"], seed=8)
    session.state = state
    session._show_decision(legal, full=False, obs=obs)
    assert text in out.getvalue() and "JUMP" not in out.getvalue()
