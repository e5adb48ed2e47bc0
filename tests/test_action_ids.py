"""Stable, versioned action ids (docs/action-ids.md): the committed tables agree with the rules,
every action a game offers has an id, and a new version keeps every old id."""

from __future__ import annotations

import hashlib
import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ecliptic.ceres.game import Ceres
from ecliptic.engine import action_ids
from ecliptic.engine.actions import Action, ActionSpace, act
from ecliptic.engine.errors import ContentError, IllegalAction
from ecliptic.games import get_game
from ecliptic.tauceti.game import TauCeti

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("tauceti", "ceres")

FIRST_VERSION = {"tauceti": (2565, "4ec1a7dc3001ac8d"), "ceres": (55, "44cdc7e11d5fafd2")}
"""Version 1 of each table (its size and a digest of its notations in id order): the numbering
before ids were committed. History: it never changes."""

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("tauceti", {"players": 4, "advanced": list(range(1, 10)), "advanced_specialists": True}),
    ("tauceti", {"players": 4}),
    ("tauceti", {"players": 3, "game": "short", "advanced_specialists": True}),
    ("tauceti", {"players": 2, "advanced": list(range(1, 10))}),
    ("tauceti", {"players": 1}),
    ("ceres", {"players": 4, "expansions": ["comets"]}),
    ("ceres", {"players": 2, "expansions": ["comets"]}),
    ("ceres", {"players": 1, "expansions": ["comets"]}),
    ("ceres", {"players": 3}),
]


def _builder() -> ModuleType:
    """scripts/build-action-ids.py as a module (its name has dashes, so it is loaded by path)."""
    spec = importlib.util.spec_from_file_location("build_action_ids", ROOT / "scripts" / "build-action-ids.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", GAMES)
def test_the_committed_table_agrees_with_the_rules(game: str) -> None:
    g = get_game(game)
    problem = action_ids.disagreement(g.action_table(), g.action_domain())
    assert problem is None, problem  # the message ends "run scripts/build-action-ids.py"
    path = ROOT.joinpath("src", *g.action_ids_package.split("."), "action-ids.toml")
    assert path.read_text() == action_ids.render(g.action_table(), g.title), "hand-edited: " + action_ids.REGENERATE


def test_the_build_script_finds_the_committed_tables_current(capsys: pytest.CaptureFixture[str]) -> None:
    assert _builder().main(["--check"]) == 0
    assert "tauceti-actions/" in capsys.readouterr().out


@pytest.mark.parametrize("game", GAMES)
def test_version_1_is_the_sorted_numbering_from_before_ids_were_committed(game: str) -> None:
    g = get_game(game)
    table, space = g.action_table(), g.action_space()
    first = table.versions[0]
    size, digest = FIRST_VERSION[game]
    assert first.name == f"{game}-actions/1" and first.added == tuple(sorted(first.added))
    assert (len(first.added), hashlib.sha256("\n".join(map(str, first.added)).encode()).hexdigest()[:16]) == (
        size, digest), "version 1 was edited: an id table is append-only"
    assert space.sizes[first.name] == size
    for i, action in enumerate(first.added):
        assert i in space.retired or space.id(action) == i


@pytest.mark.parametrize("game", GAMES)
def test_the_space_is_the_tables_latest_version_and_ids_round_trip(game: str) -> None:
    g = get_game(game)
    space = g.action_space()
    assert space is g.action_space(g.new_game()) and space.version == g.action_table().version
    assert len(space) == space.size == space.sizes[space.version] == len(space.actions) + len(space.retired)
    for i in range(space.size):
        if i in space.retired:
            with pytest.raises(IllegalAction, match="retired"):
                space.action(i)
            continue
        action = space.action(i)
        assert space.id(action) == i and action in space and Action.parse(str(action)) == action
    for bad in (-1, space.size, "3", 2.0):
        with pytest.raises(IllegalAction):
            space.action(bad)
    assert act("NO-SUCH-VERB") not in space and [] not in space
    with pytest.raises(IllegalAction, match="not in this game's action space"):
        space.mask([act("NO-SUCH-VERB")])


def _play(game: str, config: dict[str, Any], seed: int) -> int:
    """A random game in which every legal action must have an id and the mask must say exactly
    which ids are legal; the decisions played."""
    g = get_game(game)
    space = g.action_space()
    state, rng, n = g.new_game(config, seed), random.Random(seed), 0
    while not state.is_over:
        legal = g.legal_actions(state)
        mask = space.mask(legal)
        assert len(mask) == space.size and sum(mask) == len(legal)
        assert [space.action(i) for i, on in enumerate(mask) if on] == sorted(legal, key=space.id)
        assert not any(mask[i] for i in space.retired)
        g.apply(state, rng.choice(legal))
        n += 1
    return n


@pytest.mark.parametrize(("game", "config"), CONFIGS, ids=[f"{g}-{c}" for g, c in CONFIGS])
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_legal_action_of_random_games_has_an_id_and_is_masked_exactly(
        game: str, config: dict[str, Any], seed: int) -> None:
    assert _play(game, config, seed) > 0


# -- a new version in a temporary copy ---------------------------------------------------

def _copy(game: str) -> action_ids.IdTable:
    g = get_game(game)
    text = ROOT.joinpath("src", *g.action_ids_package.split("."), "action-ids.toml").read_text()
    return action_ids.parse(text, f"{game}-actions", "copy")


def _written(table: action_ids.IdTable, tmp: Path) -> action_ids.IdTable:
    """The table written and read back, as the script does."""
    path = tmp / "action-ids.toml"
    path.write_text(action_ids.render(table, "test"))
    return action_ids.parse(path.read_text(), table.prefix, str(path))


def test_a_new_version_appends_new_actions_retires_missing_ones_and_keeps_every_old_id(tmp_path: Path) -> None:
    old = _copy("ceres")
    before = old.space()
    gone = [before.actions[3], before.actions[-1]]
    new = [act("WARP", "A01"), act("AAA")]  # "AAA" sorts first but is still appended
    domain = (set(before.actions) - set(gone)) | set(new)

    v2 = _written(action_ids.update(old, domain), tmp_path)
    after = v2.space()
    assert after.version == "ceres-actions/2" and after.sizes == {"ceres-actions/1": before.size,
                                                                 "ceres-actions/2": before.size + 2}
    assert [after.action(i) for i in range(before.size, after.size)] == sorted(new)
    for action in set(before.actions) - set(gone):
        assert after.id(action) == before.id(action)
    assert dict(after.retired) == {before.id(a): a for a in gone}
    assert set(after.actions) == domain and after.mask(domain).count(True) == len(domain)
    for action in gone:
        assert action not in after
        with pytest.raises(IllegalAction, match="retired in ceres-actions/2"):
            after.id(action)
        with pytest.raises(IllegalAction, match="retired"):
            after.mask([action])
    assert action_ids.update(v2, domain) is v2  # nothing new: no new version
    assert action_ids.disagreement(v2, domain) is None
    assert action_ids.REGENERATE in (action_ids.disagreement(old, domain) or "")

    v3 = _written(action_ids.update(v2, set(before.actions) | {new[1]}), tmp_path)  # back, and WARP gone
    again = v3.space()
    assert again.version == "ceres-actions/3" and again.size == after.size  # no id is ever reused
    assert v3.versions[-1].revived == tuple(sorted(gone)) and v3.versions[-1].retired == (new[0],)
    assert all(again.id(a) == before.id(a) for a in before.actions) and again.id(new[1]) == after.id(new[1])
    assert dict(again.retired) == {after.id(new[0]): new[0]}


def test_the_build_script_appends_a_version_to_an_out_of_date_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    builder = _builder()
    domain = sorted(Ceres().action_domain())
    path = tmp_path / "action-ids.toml"
    path.write_text(action_ids.render(action_ids.first("ceres-actions", domain[1:]), "Ceres"))
    monkeypatch.setattr(builder, "GAMES", ("ceres",))
    monkeypatch.setattr(builder, "table_path", lambda game: path)
    monkeypatch.setattr(builder, "ROOT", tmp_path)
    assert builder.main(["--check"]) == 1 and "would write ceres-actions/2" in capsys.readouterr().out
    assert builder.main([]) == 0
    space = action_ids.parse(path.read_text(), "ceres-actions", "tmp").space()
    assert space.version == "ceres-actions/2" and space.id(domain[0]) == len(domain) - 1
    assert [space.id(a) for a in domain[1:]] == list(range(len(domain) - 1))
    assert builder.main(["--check"]) == 0


def test_a_game_whose_table_disagrees_with_its_rules_refuses_to_number_its_actions() -> None:
    class Stale(TauCeti):
        def action_table(self) -> action_ids.IdTable:
            return action_ids.first("tauceti-actions", sorted(self.action_domain())[1:])

    with pytest.raises(RuntimeError, match=r"1 action.* have no id .*run scripts/build-action-ids\.py"):
        Stale().action_space()


TABLE = '[[version]]\nname = "t-actions/1"\nadded = ["A", "B 1"]\n'


@pytest.mark.parametrize(("text", "fault"), [
    ("", "only a list of"),
    ("[[version]\n", "not valid TOML"),
    (TABLE.replace("t-actions/1", "t-actions/2"), "expected name = 't-actions/1'"),
    (TABLE + '[[version]]\nname = "t-actions/3"\nadded = ["C"]\n', "expected name = 't-actions/2'"),
    (TABLE + '[[version]]\nname = "t-actions/2"\nadded = ["A"]\n', "A already has an id"),
    (TABLE + '[[version]]\nname = "t-actions/2"\n', "must add, retire or revive"),
    (TABLE + '[[version]]\nname = "t-actions/2"\nretired = ["C"]\n', "C cannot be retired"),
    (TABLE + '[[version]]\nname = "t-actions/2"\nrevived = ["A"]\n', "A cannot be revived"),
    (TABLE + '[[version]]\nname = "t-actions/2"\nremoved = ["A"]\n', "unknown keys"),
    (TABLE.replace('"B 1"', '"b  1"'), "not an action's canonical notation"),
    (TABLE.replace('"B 1"', '"A"'), "listed twice"),
    (TABLE.replace('["A", "B 1"]', '"A"'), "a list of action notations"),
])
def test_a_damaged_table_is_refused_with_what_is_wrong(text: str, fault: str) -> None:
    with pytest.raises(ContentError, match=fault):
        action_ids.parse(text, "t-actions", "t.toml")


def test_an_unversioned_space_numbers_a_set_in_sorted_order() -> None:
    space = ActionSpace([act("B"), act("A"), act("A")])
    assert space.version == "unversioned" and space.actions == (act("A"), act("B")) and not space.retired
    assert space.mask([act("B")]) == [False, True]
