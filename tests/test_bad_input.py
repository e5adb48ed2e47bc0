"""Bad input gets a clear error and changes nothing (issue 15, items 3-5).

* ``apply``/``why_not`` refuse anything that is not a legal action with :class:`IllegalAction`
  only, and the state is unchanged;
* ``from_json`` refuses a save that the rules could not play on with :class:`SaveFileError`;
* a config value of the wrong type or outside its choices is a ``ValueError`` that says which.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from ecliptic.ceres.game import Ceres
from ecliptic.engine.actions import Action, number
from ecliptic.engine.errors import IllegalAction
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
    reason = game.why_not(state, Action.parse("BUY nano ³"))
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
