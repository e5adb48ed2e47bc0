"""Bad input gets a clear error and changes nothing (issue 15, items 3-5).

* ``apply``/``why_not`` refuse anything that is not a legal action with :class:`IllegalAction`
  only, and the state is unchanged;
* ``from_json`` refuses a save that the rules could not play on with :class:`SaveFileError`;
* a config value of the wrong type or outside its choices is a ``ValueError`` that says which.
"""

from __future__ import annotations

import copy
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ecliptic.ceres.game import Ceres
from ecliptic.engine.actions import Action, number
from ecliptic.engine.errors import IllegalAction, SaveFileError
from ecliptic.engine.rules import RulesGame
from ecliptic.tauceti.game import TauCeti

GAMES: dict[str, RulesGame[Any, Any, Any]] = {"tauceti": TauCeti(), "ceres": Ceres()}
CONFIGS: dict[str, Any] = {
    "tauceti": {"players": 3, "layout": "random", "advanced": [1, 2, 3, 4, 5, 6, 7, 8, 9],
                "advanced_specialists": True},
    "ceres": {"players": 3, "expansions": ["comets"]},
}


def _states(name: str, seed: int, every: int, limit: int) -> list[Any]:
    """Clones of the states of one random game, every ``every`` actions, at most ``limit``."""
    game = GAMES[name]
    state = game.new_game(CONFIGS[name], seed)
    rng = random.Random(seed)
    out = []
    step = 0
    while not state.is_over and len(out) < limit:
        if step % every == 0:
            out.append(state.clone())
        state_actions = game.legal_actions(state)
        game.apply(state, rng.choice(state_actions))
        step += 1
    return out


# -- item 3: apply and why_not -------------------------------------------------------

NOT_ACTIONS: list[Any] = [
    None, 5, 2.5, True, b"END", ["END"], ("END", ()), {"verb": "END"}, object(),
    Action("GO", (5,)),  # type: ignore[arg-type]
    Action("PLAY", None),  # type: ignore[arg-type]
    Action("PLAY", ["S01"]),  # type: ignore[arg-type]
    Action(None, ()),  # type: ignore[arg-type]
    Action("BUY", (b"nano", b"1")),  # type: ignore[arg-type]
]
UNICODE_DIGITS = [
    "BUY nano ³", "BUY nano ٣", "BUY nano +1", "BATTLE 05 ²", "BATTLE 05 ①",
    "TRADE-K Chemical Chemical Biological P²", "TRADE-K Chemical Physical Biological P٣",
    "GO ³,0", "GO ٣,0", "PLACE ²,1", "PLACE 1_0,0", "SHIELD ²", "SHIELD 1,²", "TAIL ²", "TAIL ٣",
    "RECRUIT ²", "KEEP ²",
]


@pytest.mark.parametrize("name", GAMES)
def test_anything_that_is_not_a_legal_action_raises_illegal_action_and_changes_nothing(name: str) -> None:
    game = GAMES[name]
    for state in _states(name, seed=3, every=7, limit=40):
        before = game.to_json(state)
        for bad in [*NOT_ACTIONS, *UNICODE_DIGITS, *(Action.parse(t) for t in UNICODE_DIGITS)]:
            reason = game.why_not(state, bad)
            assert isinstance(reason, IllegalAction), bad
            with pytest.raises(IllegalAction):
                game.apply(state, bad)
        assert game.to_json(state) == before


def test_a_refusal_of_a_malformed_action_says_what_an_action_is() -> None:
    game = TauCeti()
    state = game.new_game({"players": 2, "layout": "preset"}, 0)
    state.players[0].position = next(t for t in state.layout if state.content.tile(t).is_planet)
    reason = game.why_not(state, Action("BUY", ("nano", 1)))  # type: ignore[arg-type]
    assert reason is not None and reason.rule == "NOTATION"
    assert "Action(verb='BUY', args=('nano', 1)) is not an action" in reason.reason
    assert "None is not an action" in str(game.why_not(state, None))  # type: ignore[arg-type]


def test_numbers_in_the_notation_are_ascii_digits_only() -> None:
    assert [number(t) for t in ("0", "05", "-3", "49")] == [0, 5, -3, 49]
    for text in ("³", "٣", "①", "+1", "1_0", " 1", "1 ", "1\n", "", "-", "--1", "1" * 5000):
        assert number(text) is None, text


def test_a_buy_of_a_unicode_digit_quantity_is_refused_by_the_rule_not_a_crash() -> None:
    """``BUY nano ³``: ``"³".isdigit()`` is true and ``int("³")`` raises."""
    game = TauCeti()
    state = game.new_game({"players": 2, "layout": "preset", "factions": ["Xunon", "Azars"]}, 0)
    for action in (Action.parse("BUY nano ³"), "BUY nano ³"):  # (why_not reads notation as apply does)
        reason = game.why_not(state, action)
        assert reason is not None and reason.rule == "TC-SB-6"


# -- item 5: config values -----------------------------------------------------------

BAD_CONFIGS = [
    ("tauceti", {"game": "medium"}, r"game: expected one of \['short', 'full'\], got 'medium'"),
    ("tauceti", {"layout": "spiral"}, r"layout: expected one of \['players', 'random', 'preset'\]"),
    ("tauceti", {"advanced_specialists": "yes"}, "advanced_specialists: expected true or false, got 'yes'"),
    ("tauceti", {"players": True}, "players: expected int, got True"),
    ("tauceti", {"players": 2.0}, "players: expected int, got 2.0"),
    ("tauceti", {"first_player": "0"}, "first_player: expected int, got '0'"),
    ("tauceti", {"advanced": [True]}, r"advanced\[0\]: expected int, got True"),
    ("tauceti", {"players": 2, "factions": [1, 2]}, r"factions\[0\]: expected str, got 1"),
    ("tauceti", {"advanced": [1, 1]}, "each Advanced Rule is named once, not 1 twice"),
    ("ceres", {"players": True}, "players: expected int, got True"),
    ("ceres", {"expansions": [1]}, r"expansions\[0\]: expected str, got 1"),
    ("ceres", {"first_player": None}, "first_player: expected int, got None"),
]


@pytest.mark.parametrize(("name", "config", "message"), BAD_CONFIGS)
def test_a_config_value_of_the_wrong_type_or_choice_is_refused_with_the_allowed_values(
        name: str, config: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GAMES[name].new_game(config)


def test_the_config_dataclass_itself_checks_its_values() -> None:
    """Not only the config table: ``Config(...)`` in Python code is checked the same way."""
    from ecliptic.ceres.state import Config as CeresConfig
    from ecliptic.tauceti.state import Config

    with pytest.raises(ValueError, match="layout: expected one of"):
        Config(layout="spiral")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="players: expected int, got True"):
        CeresConfig(players=True)


# -- item 4: from_json refuses what the rules could not play on ----------------------

def _saves(name: str, config: dict[str, Any], seeds: range, kinds: set[str]) -> list[dict[str, Any]]:
    """Saves of real games after the first round, at the first decision of each of ``kinds``."""
    game = GAMES[name]
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for seed in seeds:
        state = game.new_game(config, seed)
        rng = random.Random(seed)
        while not state.is_over and seen != kinds:
            kind = state.stack[-1].kind
            if kind in kinds and kind not in seen and state.round > 1:
                seen.add(kind)
                out.append(game.to_json(state))
            game.apply(state, rng.choice(game.legal_actions(state)))
    return out


@cache
def _mid_game_saves() -> dict[str, list[dict[str, Any]]]:
    return {
        "tauceti": _saves("tauceti", CONFIGS["tauceti"], range(1, 4),
                          {"turn", "move", "sell", "virus", "damage", "reroll", "keep_mission", "enlighten"})
        + _saves("tauceti", {"players": 4, "layout": "preset"}, range(7, 11),
                 {"claim", "keep_specialist", "repair", "battle_shield", "battle_attack", "battle_takeover"}),
        "ceres": _saves("ceres", CONFIGS["ceres"], range(1, 3), {"turn", "tail", "comet_probe"})
        + _saves("ceres", {"players": 2}, range(3, 4), {"turn"}),
    }


def _sites(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], str, Any]]:
    """Every single-value mutation of a saved state: a number changed (by one, to -1, to seat
    7), a flag flipped, a string or a key made an unknown id, a key deleted, a list element
    deleted or doubled."""
    out: list[tuple[tuple[Any, ...], str, Any]] = []
    if path:
        if type(node) is bool:
            out.append((path, "set", not node))
        elif type(node) is int:
            out += [(path, "set", v) for v in sorted({node + 1, node - 1, -1, 7})]
        elif type(node) is str:
            out.append((path, "set", "ZZ9"))
        out.append((path, "del", None))
        if type(path[-1]) is str:
            out.append((path, "rename", "ZZ9"))
        if type(path[-1]) is int:
            out.append((path, "double", None))
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in children:
        out += _sites(value, (*path, key))
    return out


@cache
def _mutations(name: str) -> list[tuple[dict[str, Any], tuple[tuple[Any, ...], str, Any]]]:
    return [(save, site) for save in _mid_game_saves()[name] for site in _sites(save["state"])]


def _mutated(save: dict[str, Any], path: tuple[Any, ...], op: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(save)
    parent = data["state"]
    for key in path[:-1]:
        parent = parent[key]
    if op == "set":
        parent[path[-1]] = value
    elif op == "del":
        del parent[path[-1]]
    elif op == "rename":
        parent[value] = parent.pop(path[-1])
    else:
        parent.insert(path[-1], copy.deepcopy(parent[path[-1]]))
    return data


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_save_changed_in_one_value_is_refused_or_plays_on(name: str, data: st.DataObject) -> None:
    game = GAMES[name]
    save, (path, op, value) = data.draw(st.sampled_from(_mutations(name)), label="mutation")
    try:
        state = game.from_json(_mutated(save, path, op, value))
    except SaveFileError:
        return
    rng = random.Random(data.draw(st.integers(0, 2**16), label="seed"))
    game.observe(state, state.current_player)
    for _ in range(120):
        if state.is_over:
            break
        game.apply(state, rng.choice(game.legal_actions(state)))


def _tauceti_save(kind: str) -> dict[str, Any]:
    return next(s for s in _mid_game_saves()["tauceti"] if s["state"]["stack"][-1]["kind"] == kind)


@pytest.mark.parametrize(("change", "field"), [
    (lambda s: s["stack"][-1].update(kind="teleport"), r"stack\[\d\]\.kind: unknown decision kind 'teleport'"),
    (lambda s: s["stack"][-1].update(player=7), r"stack\[\d\]\.player: 7 is not a seat"),
    (lambda s: s["stack"][-1]["data"].pop("left"), r"stack\[\d\]\.data\.left: missing"),
    (lambda s: s["stack"][-1]["data"].update(left="two"), r"stack\[\d\]\.data\.left: expected int, got 'two'"),
    (lambda s: s["stack"][-1]["data"]["path"].append("99"), "move decision of seat .*: its path is not on the map"),
    (lambda s: s["players"][0].update(position="99"), r"players\[0\]\.position: '99' is not a tile on the map"),
    (lambda s: s["players"][0]["hand"].append("S99"), r"players\[0\]\.hand: unknown \['S99'\]"),
    (lambda s: s["layout"].update({"99": [9, 9]}), r"tiles: unknown \['99'\]"),
    (lambda s: s["market"].pop("Military"), r"market: missing \['Military'\]"),
    (lambda s: s.update(first_player=7), "first_player: 7 is not a seat"),
])
def test_a_tau_ceti_save_that_names_what_the_game_does_not_have_is_refused_naming_the_field(
        change: Any, field: str) -> None:
    """Before, each of these loaded and ``legal_actions``/``apply`` raised KeyError/IndexError."""
    save = copy.deepcopy(_tauceti_save("move"))
    change(save["state"])
    with pytest.raises(SaveFileError, match=field):
        TauCeti().from_json(save)


def test_a_ceres_save_with_a_decision_of_no_kind_or_seat_is_refused_naming_the_field() -> None:
    game = Ceres()
    save = copy.deepcopy(_mid_game_saves()["ceres"][0])
    save["state"]["stack"][-1]["player"] = 7
    with pytest.raises(SaveFileError, match=r"stack\[\d\]\.player: 7 is not a seat"):
        game.from_json(save)
    save["state"]["stack"][-1].update(player=0, kind="teleport")
    with pytest.raises(SaveFileError, match=r"stack\[\d\]\.kind: unknown decision kind 'teleport'"):
        game.from_json(save)


@pytest.mark.parametrize("name", GAMES)
def test_every_decision_kind_has_its_data_shape(name: str) -> None:
    """A new decision kind cannot be forgotten by the save check."""
    from ecliptic.ceres import invariants as ceres_invariants
    from ecliptic.tauceti import invariants as tauceti_invariants

    shapes = {"tauceti": tauceti_invariants.DECISION_DATA, "ceres": ceres_invariants.DECISION_DATA}[name]
    assert set(shapes) == set(GAMES[name].kinds)


@pytest.mark.parametrize("name", GAMES)
def test_real_mid_game_saves_of_every_decision_kind_load_unchanged(name: str) -> None:
    """The checks refuse no real save (the property tests check every state a playout reaches too)."""
    game = GAMES[name]
    for save in _mid_game_saves()[name]:
        assert game.to_json(game.from_json(save)) == save


def test_a_knowledge_trade_with_a_unicode_digit_seat_is_refused_by_the_rule_not_a_crash() -> None:
    """``TRADE-K … P²``: the seat digit went through ``isdigit`` to an ``int()`` that raises."""
    game = TauCeti()
    state = game.new_game({"players": 2, "layout": "preset", "factions": ["Xunon", "Azars"]}, 0)
    seat = state.current_player
    assert seat is not None
    state.players[seat].knowledge = state.players[seat].knowledge.set("Chemical", 2)
    state.players[1 - seat].knowledge = state.players[1 - seat].knowledge.set("Cosmic", 1)
    before = game.to_json(state)
    for text in ("TRADE-K Chemical Chemical Cosmic P²", "TRADE-K Chemical Chemical Cosmic P٣"):
        reason = game.why_not(state, Action.parse(text))
        assert reason is not None and reason.rule == "TC-TRADE-2", text
    assert game.why_not(state, Action.parse(f"TRADE-K Chemical Chemical Cosmic P{1 - seat}")) is None
    assert game.to_json(state) == before


@pytest.mark.parametrize("played", [{"1": 0, "2": 0}, {}, {"0": 0, "1": -1, "2": 0}, {"0": 0, "1": "2", "2": 0}])
def test_a_save_whose_enlightenment_counts_are_not_one_per_seat_is_refused(played: dict[str, Any]) -> None:
    """Found by the mutation test above: a count missing for the seat to decide made DONE fail
    inside the rules (its event reads the count); the save is refused when it is read instead."""
    game = TauCeti()
    state = game.new_game({"players": 3}, 2)
    rng = random.Random(2)
    while not (state.stack and state.stack[-1].kind == "enlighten"):
        game.apply(state, rng.choice(game.legal_actions(state)))
    save = game.to_json(state)
    game.from_json(copy.deepcopy(save))  # the save as written loads
    save["state"]["enlightenment"]["played"] = played
    with pytest.raises(SaveFileError, match=r"enlightenment\.played"):
        game.from_json(save)
