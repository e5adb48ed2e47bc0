"""The game-agnostic kernel: RNG, action notation, action space, codec, records."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from ecliptic.engine.actions import Action, ActionSpace, act
from ecliptic.engine.codec import DecodeError, decode, encode
from ecliptic.engine.errors import IllegalAction, SaveFileError
from ecliptic.engine.record import GameRecord, replay, state_digest, verify
from ecliptic.engine.rng import Rng
from ecliptic.tauceti.game import TauCeti


def test_rng_is_reproducible_and_scriptable() -> None:
    a, b = Rng.from_seed(42), Rng.from_seed(42)
    assert [a.d6() for _ in range(50)] == [b.d6() for _ in range(50)]
    assert all(1 <= a.d6() <= 6 for _ in range(500))
    a.script_dice([6, 1])
    assert a.roll(3)[:2] == [6, 1]
    a.script_choices([2])
    assert a.choice(["x", "y", "z"]) == "z"
    with pytest.raises(ValueError):
        a.script_dice([7])
        a.d6()


def test_rng_copy_is_independent() -> None:
    a = Rng.from_seed(1)
    b = a.copy()
    a.d6()
    assert b.state != a.state


def test_action_notation_round_trips() -> None:
    for action in (act("PASS"), act("GO", "05"), act("BUY", "nano", 3), act("SHIELD", "1,2,5")):
        assert Action.parse(str(action)) == action
    assert Action.parse("  go 05 ") == act("GO", "05")
    with pytest.raises(IllegalAction):
        Action.parse("   ")


def test_action_space_numbers_every_action_once() -> None:
    space = ActionSpace([act("B"), act("A"), act("A")])
    assert len(space) == 2
    assert space.action(space.id(act("B"))) == act("B")
    with pytest.raises(IllegalAction):
        space.id(act("C"))


@dataclass
class _Inner:
    n: int
    tags: list[str] = field(default_factory=list)


@dataclass
class _Outer:
    name: str
    inner: _Inner
    table: dict[str, int]
    maybe: int | None = None
    pair: tuple[int, int] = (0, 0)


def test_codec_round_trips_nested_dataclasses() -> None:
    value = _Outer("x", _Inner(3, ["a"]), {"k": 1}, None, (2, 3))
    assert decode(_Outer, json.loads(json.dumps(encode(value)))) == value


def test_codec_names_the_path_of_a_bad_value() -> None:
    data = {"name": "x", "inner": {"n": "three"}, "table": {}}
    with pytest.raises(DecodeError) as err:
        decode(_Outer, data)
    assert err.value.path == "inner.n"
    with pytest.raises(DecodeError, match="unknown field"):
        decode(_Outer, {"name": "x", "inner": {"n": 1}, "table": {}, "bogus": 1})
    with pytest.raises(DecodeError, match="missing required field"):
        decode(_Outer, {"name": "x", "table": {}})


def test_game_record_replays_to_the_same_digest(tmp_path: Path) -> None:
    game = TauCeti()
    config = {"layout": "preset", "players": 2, "game": "short"}
    state = game.new_game(config, 3)
    rng = Rng.from_seed(9)
    actions = []
    for _ in range(60):
        legal = game.legal_actions(state)
        choice = rng.choice(legal)
        actions.append(str(choice))
        game.apply(state, choice)
    record = GameRecord("tauceti", config, 3, actions, state_digest(game, state))
    path = tmp_path / "game.json"
    record.save(path)
    loaded = GameRecord.load(path)
    assert loaded == record
    assert verify(loaded)
    assert state_digest(game, replay(loaded)) == record.digest


def test_corrupt_and_foreign_records_are_refused_clearly(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(SaveFileError, match="not valid JSON"):
        GameRecord.load(bad)
    bad.write_text(json.dumps({"hello": "world"}))
    with pytest.raises(SaveFileError, match="not an Ecliptic"):
        GameRecord.load(bad)
    record = GameRecord("tauceti", {"layout": "preset", "players": 2}, 1, ["FLY-TO-THE-MOON"])
    with pytest.raises(SaveFileError, match="cannot be replayed"):
        replay(record)
    with pytest.raises(SaveFileError, match="unknown game"):
        replay(GameRecord("chess", {}, 1, []))
    with pytest.raises(SaveFileError, match="config"):
        replay(GameRecord("tauceti", {"players": 9}, 1, []))


def test_corrupt_state_json_is_refused() -> None:
    game = TauCeti()
    data = game.to_json(game.new_game({"layout": "preset"}, 1))
    data["state"]["players"][0]["tau"] = "lots"
    with pytest.raises(SaveFileError, match=r"players\[0\]\.tau"):
        game.from_json(data)
    with pytest.raises(SaveFileError):
        game.from_json({"format": "something else"})
