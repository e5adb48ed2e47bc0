"""Ceres behind the engine contract: random play under Hypothesis with its invariants,
saving and loading, hidden information, replay, and the refusals' rule ids. Which tests and
scenarios cover each rule id is checked, with the Tau Ceti ids, by the one coverage tool
(``python -m ecliptic.tools.coverage``, tests/test_rules_coverage.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ecliptic.bots.random_bot import RandomBot
from ecliptic.ceres.content import default_content, load_content
from ecliptic.ceres.game import Ceres
from ecliptic.ceres.invariants import problems
from ecliptic.ceres.rules import RULES
from ecliptic.ceres.state import State
from ecliptic.engine.actions import Action
from ecliptic.engine.errors import ContentError, IllegalAction, SaveFileError
from ecliptic.engine.record import GameRecord, replay, state_digest
from ecliptic.engine.rng import Rng
from ecliptic.games import GAME_NAMES, get_game

GAME = Ceres()
CONTENT = default_content()
MAX_DECISIONS = 5_000
ROOT = Path(__file__).resolve().parent.parent


def _round_trip(state: State) -> None:
    data = GAME.to_json(state)
    again = GAME.to_json(GAME.from_json(json.loads(json.dumps(data))))
    assert again == data


def _config(players: int, comets: bool) -> dict[str, Any]:
    return {"players": players, "expansions": ["comets"] if comets else []}


def _counts(state: State) -> tuple[int, int]:
    """Tail tokens and Mining Probes wherever they are."""
    tails = sum(t is not None for c in state.comets for tail in c.tails for t in tail)
    tails += sum(len(p.tail_tokens) for p in state.players) + len(state.removed_tails)
    probes = sum(p.probes for p in state.players) + len(state.claims)
    probes += sum(s is not None for c in state.comets for s in c.slots)
    return tails, probes


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(1, 4), comets=st.booleans(),
       launch_bias=st.integers(0, 4))
def test_random_games_keep_every_invariant(seed: int, players: int, comets: bool, launch_bias: int) -> None:
    config = _config(players, comets)
    state = GAME.new_game(config, seed)
    rng = Rng.from_seed(seed ^ 0x5EED)
    played: list[str] = []
    expected = (18 if comets else 0, players * CONTENT.numbers.probes)
    while not state.is_over:
        assert len(played) < MAX_DECISIONS, "the game did not end"
        legal = GAME.legal_actions(state)
        assert legal, "no legal action before the end"
        assert legal == sorted(legal) and len(set(legal)) == len(legal)
        assert all(a in GAME.action_space(state) and Action.parse(str(a)) == a for a in legal)
        # Random play passes too soon to reach the Comets; lean away from PASS.
        choices = [a for a in legal if a.verb != "PASS"] if rng.below(5) < launch_bias else legal
        action = rng.choice(choices or legal)
        if len(played) % 7 == 0:
            clone = state.clone()
            assert GAME.to_json(clone) == GAME.to_json(state)
            before = GAME.to_json(state)
            GAME.apply(clone, action)
            assert GAME.to_json(state) == before, "applying to a clone changed the original"
            _round_trip(state)
        GAME.apply(state, action)
        played.append(str(action))
        assert _counts(state) == expected
        found = problems(state)
        assert not found, f"after {action}: {found}"
    assert GAME.legal_actions(state) == [] and state.round == 3
    assert sum(GAME.returns(state)) == pytest.approx(1.0)
    _round_trip(state)
    record = GameRecord("ceres", config, seed, played)
    assert state_digest(GAME, replay(record)) == state_digest(GAME, state)


def test_random_bots_reach_every_comet_decision_over_many_games() -> None:
    """Random play with a lean toward Launch visits the Comets' decisions and outcomes."""
    seen: set[str] = set()
    for seed in range(60):
        state = GAME.new_game(_config(1 + seed % 4, True), seed)
        rng = Rng.from_seed(seed)
        while not state.is_over:
            legal = GAME.legal_actions(state)
            launches = [a for a in legal if a.verb != "PASS"]
            action = rng.choice(launches if launches and rng.below(4) else legal)
            for e in GAME.apply(state, action):
                seen.add(e.kind if e.kind != "explosion_check" else f"check:{e.data['result']}")
            seen.add(action.verb)
    assert {"STAY", "JUMP", "TAIL", "tails_removed", "check:Safe", "check:Explosion",
            "comet_removed"} <= seen


def test_a_ceres_record_replays_with_the_engines_replay() -> None:
    assert "ceres" in GAME_NAMES and get_game("ceres").name == "ceres"
    config = _config(3, True)
    state = GAME.new_game(config, 42)
    bots = [RandomBot(100 + s) for s in range(3)]
    played = []
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        action = bots[seat].choose(GAME, state, seat)
        GAME.apply(state, action)
        played.append(str(action))
    record = GameRecord("ceres", config, 42, played, digest=state_digest(GAME, state))
    again = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert state_digest(GAME, replay(again)) == record.digest
    broken = GameRecord("ceres", config, 42, [*played[:1], "LAUNCH Z9"])
    with pytest.raises(SaveFileError, match="cannot be replayed"):
        replay(broken)


def _midgame(seed: int) -> State:
    state = GAME.new_game(_config(3, True), seed)
    rng = Rng.from_seed(seed)
    for _ in range(12):
        legal = [a for a in GAME.legal_actions(state) if a.verb != "PASS"] or GAME.legal_actions(state)
        GAME.apply(state, rng.choice(legal))
    return state


@pytest.mark.parametrize("seed", range(6))
def test_every_action_of_the_space_is_either_legal_or_refused_without_change(seed: int) -> None:
    """why_not rejects every malformed or impossible action, so perform never fails."""
    state = _midgame(seed)
    rng = Rng.from_seed(seed)
    odd = [Action("LAUNCH", ("A01", "A02")), Action("TAIL", ("0",)), Action("TAIL", ("x",)),
           Action("JUMP", ("C1",)), Action("STAY", ("A01",)), Action("PASS", ("1",)), Action("", ())]
    while not state.is_over:
        legal = set(GAME.legal_actions(state))
        for action in [*GAME.action_space(state).actions, *odd]:
            before = GAME.to_json(state)
            clone = state.clone()
            try:
                GAME.apply(clone, action)
            except IllegalAction as exc:
                assert exc.rule in RULES and action not in legal
                assert GAME.to_json(clone) == before
            else:
                assert action in legal, action
        GAME.apply(state, rng.choice(sorted(legal)))


def test_save_files_round_trip_and_corrupt_ones_are_refused() -> None:
    state = _midgame(3)
    data = json.loads(json.dumps(GAME.to_json(state)))
    assert GAME.to_json(GAME.from_json(data)) == GAME.to_json(state)
    with pytest.raises(SaveFileError, match="not a Ceres save"):
        GAME.from_json({"format": "ecliptic.tauceti.state", "version": 1, "state": {}})
    with pytest.raises(SaveFileError, match="version"):
        GAME.from_json({**data, "version": 99})
    with pytest.raises(SaveFileError, match="not a Ceres save"):
        GAME.from_json([])

    def corrupt(change: Any) -> None:
        bad = json.loads(json.dumps(data))
        change(bad["state"])
        with pytest.raises(SaveFileError, match="corrupt"):
            GAME.from_json(bad)

    corrupt(lambda s: s.update(round="three"))
    corrupt(lambda s: s["players"][0].update(probes=-1))
    corrupt(lambda s: s["comets"][0]["tails"][0].__setitem__(0, "T99"))
    corrupt(lambda s: s.update(explosion_deck=["E1", "E1", "E2"]))
    corrupt(lambda s: s["config"].update(players=9))
    corrupt(lambda s: s.update(claims={"A99": 0}))
    corrupt(lambda s: s["stack"].append({"kind": "dance", "player": 0, "data": {}}))
    corrupt(lambda s: s["stack"].append({"kind": "tail", "player": 0, "data": {"comet": "C7", "slot": 0}}))
    corrupt(lambda s: s.update(nonsense=1))


def test_observe_hides_the_box_and_the_explosion_check_order_only() -> None:
    state = _midgame(5)
    for seat in (None, 0, 1, 2):
        view = GAME.observe(state, seat)
        json.dumps(view)
        text = json.dumps(view)
        for card in state.nucleus_box:
            assert f'"{card}"' not in text
        assert view["explosion_deck"] == {"cards": 3, "Safe": 2, "Explosion": 1}
        assert "E1" not in text and "E2" not in text and "E3" not in text
        assert [c["tails"] for c in view["comets"]] == [c.tails for c in state.comets]
        assert view["players"][0]["tail_tokens"] == state.players[0].tail_tokens


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_determinize_keeps_what_the_observer_sees_and_redeals_the_rest(seed: int) -> None:
    state = _midgame(seed % 1000)
    for seat in range(3):
        sample = GAME.determinize(state, seat, Rng.from_seed(seed + seat))
        assert GAME.observe(sample, seat) == GAME.observe(state, seat)
        assert problems(sample) == []
        assert GAME.legal_actions(sample) == GAME.legal_actions(state)
        assert sample.rng.state != state.rng.state
    orders = {tuple(GAME.determinize(state, 0, Rng.from_seed(i)).explosion_deck) for i in range(20)}
    assert len(orders) > 1


def test_content_files_are_validated_at_load(tmp_path: Path) -> None:
    folder = ROOT / "src" / "ecliptic" / "ceres" / "content"
    assert load_content(folder) == CONTENT
    for name in ("belt", "comets"):
        (tmp_path / f"{name}.toml").write_text((folder / f"{name}.toml").read_text())
    comets = (tmp_path / "comets.toml").read_text()
    (tmp_path / "comets.toml").write_text(comets.replace('tail = "Dust"', 'tail = "Coma"', 1))
    with pytest.raises(ContentError, match="6 Coma"):
        load_content(tmp_path)
    (tmp_path / "comets.toml").write_text(comets.replace("vp = 2", 'vp = "two"', 1))
    with pytest.raises(ContentError, match="expected int"):
        load_content(tmp_path)
    (tmp_path / "comets.toml").write_text(comets)
    belt = (tmp_path / "belt.toml").read_text()
    (tmp_path / "belt.toml").write_text(belt.replace("position = 8", "position = 7", 1))
    with pytest.raises(ContentError, match="one Asteroid in each Zone"):
        load_content(tmp_path)


def test_every_number_of_the_reconstruction_is_marked_as_a_stand_in() -> None:
    n = CONTENT.numbers
    assert set(n.stand_in) == {"zones", "rotation", "launch_ice", "resources", "probes", "start_ice",
                               "ice_income"}
    assert all(set(a.stand_in) == {"resources", "vp", "income"} for a in CONTENT.asteroids)
    assert all(t.stand_in for t in CONTENT.tail_tokens)
    assert all(c.stand_in for c in CONTENT.nucleus_cards)
    assert all(c.stand_in for c in CONTENT.explosion_checks)
    assert CONTENT.surface.stand_in == ["slots"]
    decisions = (ROOT / "docs" / "rules-decisions.md").read_text().split("\n# Ceres\n", 1)[1]
    for name in ("zones", "rotation", "launch_ice", "probes", "start_ice", "ice_income", "slots"):
        assert f"`{name}`" in decisions, name


def test_the_python_example_in_docs_ceres_runs(capsys: pytest.CaptureFixture[str]) -> None:
    doc = (ROOT / "docs" / "ceres.md").read_text()
    (code,) = re.findall(r"```python\n(.*?)```", doc, re.S)
    exec(compile(code, "docs/ceres.md", "exec"), {})
    assert "total" in capsys.readouterr().out


# -- rule ids ----------------------------------------------------------------------


def test_every_refusal_names_a_known_rule() -> None:
    used = set()
    for path in (ROOT / "src" / "ecliptic" / "ceres").glob("*.py"):
        used |= set(re.findall(r'illegal\(\s*"([A-Z]+-[A-Z]+-\d+)"', path.read_text()))
        used |= set(re.findall(r'"(C[CR]-[A-Z]+-\d+)"', path.read_text()))
    assert used and used <= set(RULES)
    rules_text = (ROOT / "src" / "ecliptic" / "ceres" / "rules.py").read_text()
    assert len(re.findall(r'"CC-', rules_text)) == len([r for r in RULES if r.startswith("CC-")])
