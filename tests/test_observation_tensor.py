"""The observation tensor (ecliptic.adapters.observation): built only from ``observe``.

* fixed length and float32 across whole random games of every config, every value inside
  ``space``, and a meaning for every index;
* a function of what the seat sees: two states ``observe`` cannot tell apart for a seat
  (determinizations with two rngs) give that seat the same tensor, whatever another seat's
  hand holds;
* it says what it claims: a state change the seat sees changes the slice that encodes it
  (Hypothesis), the index a label names holds what the label says, and consecutive
  observations of random games that differ anywhere but in the few fields the tensor leaves
  out (docs/observation.md) give different tensors;
* the recall vector and ``ids_in`` (every id an event names), the index tool, pickling, clear
  errors for what is not an observation, docs/observation.md's table equal to the encoder;
* Tau Ceti's ``observe``, made faster for the tensor, answers byte for byte what it answered;
* ``Encoder.tensor(state, seat)``, which copies the parts whose inputs did not change, gives
  exactly ``encode(observe(state, seat))`` on random states of every config, after changes in
  place, on determinizations and re-seeded copies, with a store that has seen other games
  (two games stepped in turn), and the inputs it compares are all its parts read.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ecliptic.adapters.observation import Encoder, encoder, ids_in, main
from ecliptic.engine.rng import Rng
from ecliptic.games import get_game
from tensor_checks import same_tensor, seats_of, states, tensor_along_a_game

TAUCETI_CONFIGS: list[dict[str, Any]] = [
    {"players": 1},
    {"players": 2, "game": "short"},
    {"players": 3, "layout": "random", "advanced": [1, 3, 6]},
    {"players": 4, "advanced": list(range(1, 10)), "advanced_specialists": True},
    {"players": 4, "game": "short", "layout": "preset", "advanced": [2, 4, 5, 7, 8, 9]},
]
CERES_CONFIGS: list[dict[str, Any]] = [
    {"players": 1}, {"players": 2}, {"players": 4},
    {"players": 1, "expansions": ["comets"]}, {"players": 3, "expansions": ["comets"]},
    {"players": 4, "expansions": ["comets"]},
]
CONFIGS = [("tauceti", c) for c in TAUCETI_CONFIGS] + [("ceres", c) for c in CERES_CONFIGS]
IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in c.items())}" for g, c in CONFIGS]

# Observation fields the tensor leaves out, each with its reason (docs/observation.md).
LEFT_OUT = {
    "character",  # the faction's captain: the faction one-hot says it
    "name",  # Ceres' "Player 2": the seat says it
    "last_attempt_turn",  # a turn count the observation gives nothing to compare with
    "asteroids",  # Ceres: a player's Asteroids, already in the belt's probes
    "game", "config", "observer",  # constant through a game (the config slice holds it)
}


@pytest.mark.parametrize(("game", "config"), CONFIGS, ids=IDS)
def test_fixed_size_float32_inside_space_for_whole_games(game: str, config: dict[str, Any]) -> None:
    g = get_game(game)
    enc = encoder(game, config)
    space = enc.space
    assert space.shape == (enc.size,) and space.dtype == np.float32
    seen_over = False
    for i, s in enumerate(states(game, config, seed=7)):
        for seat in seats_of(config) if i % 3 == 0 or s.is_over else [s.current_player]:
            x = enc.encode(g.observe(s, seat))
            assert x.shape == (enc.size,) and x.dtype == np.float32
            assert space.contains(x), [enc.meaning(int(j)) for j in np.nonzero((x < enc.low) | (x > enc.high))[0]]
        seen_over = seen_over or s.is_over
    assert seen_over


@pytest.mark.parametrize(("game", "config"), CONFIGS, ids=IDS)
def test_every_index_has_a_meaning_and_the_slices_tile_the_tensor(game: str, config: dict[str, Any]) -> None:
    enc = encoder(game, config)
    meanings = [enc.meaning(i) for i in range(enc.size)]
    assert len(set(meanings)) == enc.size  # no two indices say the same thing
    covered = sorted(i for sl in enc.slices.values() for i in range(sl.start, sl.stop))
    assert covered == list(range(enc.size))
    with pytest.raises(IndexError, match="no index"):
        enc.meaning(enc.size)


def test_size_depends_on_the_player_count_only_where_it_must() -> None:
    sizes = {p: encoder("tauceti", {"players": p}).size for p in (1, 2, 3, 4)}
    assert sizes[1] < sizes[2] < sizes[3] < sizes[4]
    assert encoder("tauceti", {"players": 4, "advanced": [1, 2], "game": "short"}).size == sizes[4]
    assert encoder("ceres", {"players": 2, "expansions": ["comets"]}).size > encoder("ceres", {"players": 2}).size
    assert encoder("tauceti", {"players": 2}) is encoder("tauceti", {"players": 2, "game": "full"})  # cached


def _determinized_pairs(game: str, config: dict[str, Any], seed: int, every: int) -> Iterator[tuple[Any, Any, int]]:
    g = get_game(game)
    for i, s in enumerate(states(game, config, seed)):
        if i % every or s.is_over:
            continue
        for seat in range(config["players"]):
            a = g.determinize(s, seat, Rng.from_seed(1000 + i))
            b = g.determinize(s, seat, Rng.from_seed(2000 + i))
            yield a, b, seat


@pytest.mark.parametrize(("game", "config"), [CONFIGS[1], CONFIGS[3], CONFIGS[-1]], ids=[IDS[1], IDS[3], IDS[-1]])
def test_states_a_seat_cannot_tell_apart_give_it_thesame_tensor(game: str, config: dict[str, Any]) -> None:
    g = get_game(game)
    enc = encoder(game, config)
    pairs = 0
    for a, b, seat in _determinized_pairs(game, config, seed=3, every=4):
        oa, ob = g.observe(a, seat), g.observe(b, seat)
        assert oa == ob
        assert np.array_equal(enc.encode(oa), enc.encode(ob))
        assert np.array_equal(enc.tensor(a, seat), enc.encode(oa))  # the memo's way, on both
        assert np.array_equal(enc.tensor(b, seat), enc.encode(oa))
        pairs += 1
    assert pairs > 20


def test_another_seats_hand_does_not_reach_the_tensor() -> None:
    """Two determinizations that deal a rival different hands give this seat the same tensor,
    while the rival's own tensors differ (the hands are in them)."""
    g = get_game("tauceti")
    config = {"players": 3}
    enc = encoder("tauceti", config)
    differing = 0
    for a, b, seat in _determinized_pairs("tauceti", config, seed=5, every=2):
        for rival in range(3):
            if rival == seat or sorted(a.players[rival].hand) == sorted(b.players[rival].hand):
                continue
            differing += 1
            assert np.array_equal(enc.encode(g.observe(a, seat)), enc.encode(g.observe(b, seat)))
            assert not np.array_equal(enc.encode(g.observe(a, rival)), enc.encode(g.observe(b, rival)))
            assert np.array_equal(enc.tensor(a, seat), enc.tensor(b, seat))
            assert not np.array_equal(enc.tensor(a, rival), enc.tensor(b, rival))
    assert differing > 10


def _sample_states(game: str, config: dict[str, Any]) -> list[Any]:
    return [s.clone() for i, s in enumerate(states(game, config, seed=11)) if i % 9 == 0 and not s.is_over]


TC_CONFIG = {"players": 4, "advanced": [3, 6]}
TC_SAMPLE = _sample_states("tauceti", TC_CONFIG)


def _next_card(s: Any) -> str:
    card: str = s.specialist_deck[0]
    s.specialist_deck = s.specialist_deck[1:]
    return card


def _crisis_onto_a_planet(s: Any) -> None:
    kind = next(k for k, stack in s.crisis_stacks.items() if stack)
    *rest, token = s.crisis_stacks[kind]
    s.crisis_stacks = {**s.crisis_stacks, kind: tuple(rest)}
    s.planet_crises = {**s.planet_crises, "AZAR": (*s.planet_crises.get("AZAR", ()), token)}


def _elsewhere(s: Any, tile: str) -> str:
    return str(next(t for t in sorted(s.layout) if t != tile))


# A change to the state that observe shows the observer (seat ``me``; ``r`` the next seat),
# and the slice of the observer's tensor that must show it.
CHANGES: dict[str, tuple[Callable[[Any, int, int], Any], str]] = {
    "own TAU": (lambda s, me, r: setattr(s.players[me], "tau", s.players[me].tau + (1 if s.players[me].tau < 49
                                                                                  else -1)), "players[+0].tracks"),
    "a rival's hand grows": (lambda s, me, r: s.players[r].hand.append(_next_card(s)), "players[+1].counts"),
    "a rival moves": (lambda s, me, r: setattr(s.players[r], "position", _elsewhere(s, s.players[r].position)),
                      "players[+1].position"),
    "own hand gets a card": (lambda s, me, r: s.players[me].hand.append(_next_card(s)), "players[+0].hand"),
    "a Market level": (lambda s, me, r: setattr(s, "market", s.market.set("Science", 1 + s.market["Science"] % 4)),
                       "market"),
    "a cube on a tile": (lambda s, me, r: s.cubes.setdefault("TC", []).append("Azars"), "cubes"),
    "a crisis on a planet": (lambda s, me, r: _crisis_onto_a_planet(s), "planet_crises"),
    "the round": (lambda s, me, r: setattr(s, "round", s.round % 12 + 1), "round"),
    "own Knowledge token": (lambda s, me, r: setattr(s.players[me], "knowledge", s.players[me].knowledge.set(
        "Cosmic", s.players[me].knowledge["Cosmic"] + 1)), "players[+0].knowledge"),
    "a rival's damage": (lambda s, me, r: setattr(s.players[r], "damage", s.players[r].damage.set(
        "cargo", s.players[r].damage.get("cargo", 0) + 1)), "players[+1].systems"),
}


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(TC_SAMPLE))), st.sampled_from(sorted(CHANGES)), st.integers(0, 3))
def test_a_state_change_the_seat_sees_changes_its_own_slice(pick: int, change: str, me: int) -> None:
    """Two states whose observations differ in an encoded field give different tensors, and
    the difference is in that field's slice (seats counted from the observer)."""
    g = get_game("tauceti")
    enc = encoder("tauceti", TC_CONFIG)
    before = TC_SAMPLE[pick]
    after = before.clone()
    mutate, slice_name = CHANGES[change]
    mutate(after, me, (me + 1) % 4)
    assert g.observe(after, me) != g.observe(before, me)
    x, y = enc.encode(g.observe(before, me)), enc.encode(g.observe(after, me))
    changed = {enc.slice_of(int(i)) for i in np.nonzero(x != y)[0]}
    assert slice_name in changed, (change, changed)


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in LEFT_OUT}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def _canonical(value: Any) -> Any:
    """Order-free: a list the tensor stores as a set compares as a sorted list."""
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        items = [_canonical(v) for v in value]
        return sorted(items, key=repr)
    return value


@pytest.mark.parametrize(("game", "config"), [CONFIGS[3], CONFIGS[2], CONFIGS[-1], CONFIGS[-2]],
                         ids=[IDS[3], IDS[2], IDS[-1], IDS[-2]])
def test_observations_that_differ_give_different_tensors(game: str, config: dict[str, Any]) -> None:
    """Along a random game, each seat's consecutive observations that differ in anything the
    tensor does not leave out give different tensors: nothing a player would use is dropped."""
    g = get_game(game)
    enc = encoder(game, config)
    last: dict[int, tuple[Any, np.ndarray]] = {}
    compared = 0
    for s in states(game, config, seed=2):
        for seat in range(config["players"]):
            o = g.observe(s, seat)
            key = _canonical(_strip(o))
            x = enc.encode(o)
            if seat in last and last[seat][0] != key:
                compared += 1
                assert not np.array_equal(last[seat][1], x), (seat, o["decision"])
            last[seat] = (key, x)
    assert compared > 50


def test_recall_vector_and_the_ids_of_an_event() -> None:
    enc = encoder("tauceti", {"players": 2})
    assert len(set(enc.recall_ids)) == enc.recall_size
    assert {"C01", "S01", "K01", "M01", "X01", "Q01", "Y01", "G01", "E1"} <= set(enc.recall_ids)
    v = enc.encode_recall({"C01", "G20", "not an id"})
    assert v.dtype == np.float32 and v.shape == (enc.recall_size,)
    assert sorted(enc.recall_ids[i] for i in np.nonzero(v)[0]) == ["C01", "G20"]
    event = {"kind": "loser_hand", "data": {"hand": ["S07", "C12"], "cause": "crisis C10", "seat": 1}}
    assert enc.ids_in(event) == {"S07", "C12", "C10"}
    assert enc.recall_meaning(0).startswith("recall[")
    assert ids_in("tauceti", event) == {"S07", "C12", "C10"}
    assert ids_in("tauceti", {"text": "Xunon draws S07.", "data": {}}) == {"S07"}
    ceres = encoder("ceres", {"players": 2, "expansions": ["comets"]})
    assert ceres.ids_in({"data": {"tokens": ["T03", "T18"], "nucleus": "N2"}}) == {"T03", "T18", "N2"}


def test_the_index_tool_says_what_an_index_means(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "tauceti", "--players", "4", "--index", "1234"]) == 0
    assert capsys.readouterr().out == f"1234: {encoder('tauceti', {'players': 4}).meaning(1234)}\n"
    assert main(["--game", "ceres", "--players", "2", "--comets"]) == 0
    assert "tail_tokens" in capsys.readouterr().out
    assert main(["--game", "tauceti", "--players", "2", "--index", "99999"]) == 2
    assert "no index 99999" in capsys.readouterr().err
    assert main(["--game", "tauceti", "--players", "9"]) == 2
    assert "1-4 players" in capsys.readouterr().err


def test_the_index_tool_refuses_the_other_games_options(capsys: pytest.CaptureFixture[str]) -> None:
    """``--comets`` with Tau Ceti (or ``--short``, ``--advanced``, ``--advanced-specialists``
    with Ceres) changed nothing and the tool answered for a config not asked about: it is
    refused in one line, nothing printed on the output."""
    cases = [(["--game", "tauceti", "--comets"], "--comets is an option of Ceres, not of --game tauceti"),
             (["--game", "ceres", "--short", "--advanced", "1"], "--short, --advanced are options of Tau Ceti"),
             (["--game", "ceres", "--advanced-specialists", "--index", "3"], "--advanced-specialists")]
    for argv, stray in cases:
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert out == "" and stray in err and err.count("\n") == 1


def test_the_index_tool_names_the_advanced_rules_as_the_openspiel_parameter_does(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--advanced all`` and ``1;5`` are the OpenSpiel parameter's forms (docs/adapters-openspiel.md);
    a list that is not numbers is refused saying how to write it, not with ``int()``'s words."""
    every = encoder("tauceti", {"players": 2, "advanced": list(range(1, 10))})
    assert main(["--game", "tauceti", "--players", "2", "--advanced", "all"]) == 0
    assert capsys.readouterr().out.startswith(f"tauceti: {every.size} values")
    some = encoder("tauceti", {"players": 2, "advanced": [1, 5]})
    assert main(["--game", "tauceti", "--players", "2", "--advanced", "1;5", "--index", str(some.size - 1)]) == 0
    assert capsys.readouterr().out == f"{some.size - 1}: {some.meaning(some.size - 1)}\n"
    for bad in ("x", "1,,two"):
        assert main(["--game", "tauceti", "--players", "2", "--advanced", bad]) == 2
        err = capsys.readouterr().err
        assert "name the Advanced Rules as numbers" in err and "invalid literal" not in err


def test_the_index_tool_piped_into_a_reader_that_stops_ends_without_a_traceback() -> None:
    """``--all | head``: the whole list of Tau Ceti's 3,417 indices is far more than a pipe
    holds, so the tool meets a closed pipe whatever the timing."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    src = str(Path(__file__).resolve().parents[1] / "src")
    proc = subprocess.Popen([sys.executable, "-m", "ecliptic.adapters.observation", "--game", "tauceti", "--players",
                             "4", "--all"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": src})
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith(b"0: observer")
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait() == 141 and err == b""


def test_a_bad_game_or_config_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        encoder("chess", None)
    with pytest.raises(ValueError, match="1-4 players"):
        encoder("tauceti", {"players": 5})


def test_encoder_is_what_the_interface_promises() -> None:
    enc: Encoder = encoder("ceres", None)
    assert enc.size == enc.space.shape[0] and enc.game == "ceres"
    assert set(enc.slices) >= {"belt.asteroids", "players[+0]", "decision.kind"}


# -- observe made faster, its output unchanged ------------------------------------------------


def _reference_player_view(state: Any, seat: int, observer: int | None, seen: frozenset[int]) -> dict[str, Any]:
    """``tauceti.observation._player_view`` as it was before the tensor work made it faster
    (codec.encode of the Holding and ActiveMission records), kept only as the reference."""
    from ecliptic.engine.codec import encode
    from ecliptic.tauceti import ship
    from ecliptic.tauceti.checks import dice_for
    from ecliptic.tauceti.tracks import markers_left, recruit_cost

    p = state.players[seat]
    content = state.content
    own = observer == seat
    view: dict[str, Any] = {
        "seat": seat,
        "faction": p.faction,
        "character": content.faction(p.faction).character,
        "tau": p.tau,
        "energy": p.energy,
        "materials": p.materials,
        "position": p.position,
        "knowledge": dict(p.knowledge),
        "orbitals_home": p.orbitals_home,
        "systems": {
            s: {"power": ship.power(state, seat, s), "damage": p.damage.get(s, 0),
                "virus": p.virus.get(s, 0), "effective": ship.effective(state, seat, s),
                "token": p.systems_tokens.get(s)}
            for s in content.systems
        },
        "holdings": encode(p.holdings),
        "missions": encode(p.missions),
        "gp_tokens": len(p.gp_tokens),
        "gp_token_points": sum(content.gp_token(g).gp for g in p.gp_tokens),
        "claim": p.claim,
        "battle_sector": p.battle_sector,
        "battle_defender": p.battle_defender,
        "cargo_cube": p.cargo_cube,
        "diplomacy": p.diplomacy,
        "free_upgrades": p.free_upgrades,
        "markers_used": p.markers_used,
        "markers_lost": p.markers_lost,
        "markers_left": markers_left(state, seat),
        "recruit_cost": recruit_cost(state, seat),
        "passed": p.passed,
        "face_up": list(p.face_up),
        "skills": {k: dice_for(state, seat, k) for k in content.faction(p.faction).skills},
        "hand_size": len(p.hand),
        "exotic_tech": p.exotic_tech,
        "exotic_spent": p.exotic_spent,
        "exotic_reroll_round": p.exotic_reroll_round,
    }
    if seat in seen:
        view["hand"] = list(p.hand)
    if own:
        view["gp_token_ids"] = list(p.gp_tokens)
    return view


def _reference_observe(state: Any, player: int | None) -> dict[str, Any]:
    """The old observe: the parts the speed-up changed rebuilt the old way, the rest as is."""
    from ecliptic.engine.codec import encode
    from ecliptic.tauceti.observation import hands_seen

    seen = hands_seen(state, player)
    return {**get_game("tauceti").observe(state, player),
            "players": [_reference_player_view(state, s, player, seen) for s in range(len(state.players))],
            "final_scores": encode(state.final_scores)}


def test_the_faster_observe_answers_what_it_answered() -> None:
    """On 200+ states of random games (Advanced Rules, finished games, states read back from
    their JSON save), every seat's and the spectator's observation is the same JSON (a player's
    view now lists its keys part by part: the order of an object's keys is not its value)."""

    g = get_game("tauceti")
    checked = 0
    for config, seed in (({"players": 4, "advanced": list(range(1, 10))}, 1), ({"players": 2}, 4),
                         ({"players": 3, "advanced": [5, 6], "advanced_specialists": True}, 8)):
        for i, s in enumerate(states("tauceti", config, seed)):
            if i % 3 and not s.is_over:
                continue
            for state in (s, g.from_json(json.loads(json.dumps(g.to_json(s))))):
                for seat in seats_of(config):
                    assert (json.dumps(g.observe(state, seat), sort_keys=True)
                            == json.dumps(_reference_observe(state, seat), sort_keys=True))
            checked += 1
    assert checked >= 200


def _doc_rows(section: str) -> dict[str, str]:
    """The ``| `slice` | sizes | encoding |`` rows of one section of docs/observation.md."""
    import re
    from pathlib import Path

    text = (Path(__file__).parent.parent / "docs" / "observation.md").read_text()
    body = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    return {m[1]: m[2] for m in re.finditer(r"^\| `([^`]+)` \| ([-\d /]+) \|", body, re.M)}


@pytest.mark.parametrize(("section", "game", "configs"), [
    ("Tau Ceti", "tauceti", [{"players": p} for p in (1, 2, 3, 4)]),
    ("Ceres", "ceres", [{"players": p, "expansions": e} for e in ([], ["comets"]) for p in (1, 2, 3, 4)]),
])
def test_docs_name_every_slice_with_its_size(section: str, game: str, configs: list[dict[str, Any]]) -> None:
    import re

    expected: dict[str, list[str]] = {}
    for i, config in enumerate(configs):
        for name, sl in encoder(game, config).slices.items():
            sizes = expected.setdefault(re.sub(r"\[\+\d\]", "[+k]", name), ["-"] * len(configs))
            sizes[i] = str(sl.stop - sl.start)
    assert {k: v.strip() for k, v in _doc_rows(section).items()} == {k: " / ".join(v) for k, v in expected.items()}


def test_what_is_not_an_observation_is_refused_clearly() -> None:
    g = get_game("tauceti")
    two = g.observe(g.new_game({"players": 2}, 1), 0)
    enc = encoder("tauceti", {"players": 4})
    with pytest.raises(ValueError, match="an observation of 2 players, not 4"):
        enc.encode(two)
    with pytest.raises(ValueError, match="not an observation of a tauceti game"):
        enc.encode({"players": [{}] * 4})
    with pytest.raises(ValueError, match="not an observation of a ceres game"):
        encoder("ceres", {"players": 2}).encode(two)


@pytest.mark.parametrize(("game", "config"), [("tauceti", {"players": 3, "advanced": [6]}),
                                              ("ceres", {"players": 2, "expansions": ["comets"]})])
def test_ids_in_finds_every_id_an_event_names(game: str, config: dict[str, Any]) -> None:
    """Every card or token id anywhere in a random game's events (data and text) is found."""
    import re

    g = get_game(game)
    universe = set(encoder(game, config).recall_ids)
    s, events = g.new_game_events(config, 3)
    rng = random.Random(3)
    found: set[str] = set()
    while True:
        for e in events:
            text = json.dumps(e.to_json())
            named = {x for x in re.findall(r"[A-Z0-9]+", text) if x in universe and re.search(r"\d", x)}
            got = ids_in(game, e.to_json())
            assert named <= got, (e.kind, named - got)
            found |= got
        if s.is_over:
            break
        events = g.apply(s, rng.choice(g.legal_actions(s)))
    assert len(found) > 20


def test_the_benchmark_measures_what_it_prints() -> None:
    """benchmarks/observation.py runs (a tiny budget: no figure is asserted, times are the
    machine's) and its table has the three timings and their ratios."""
    from benchmarks.observation import measure, table

    f = measure("ceres", {"players": 2, "expansions": ["comets"]}, games=1, repeats=1)
    assert f.states > 10 and f.size == encoder("ceres", {"players": 2, "expansions": ["comets"]}).size
    assert f.built_per_step == pytest.approx(f.observe_per_step + f.encode_per_step)
    assert f.tensor_per_step == pytest.approx(f.tensor_us / f.step_us)
    assert f.to_json()["tensor_per_step"] == f.tensor_per_step
    out = table([f])
    assert "tensor/step" in out.splitlines()[0] and out.splitlines()[1].startswith("ceres")


def test_an_encoder_pickles_and_copies_as_its_game_and_config() -> None:
    import pickle

    enc = encoder("tauceti", {"players": 3, "advanced": [2]})
    g = get_game("tauceti")
    o = g.observe(g.new_game({"players": 3, "advanced": [2]}, 4), 1)
    back = pickle.loads(pickle.dumps(enc))
    assert back is enc  # the cached encoder of that config
    assert copy.deepcopy(enc) is enc
    assert np.array_equal(back.encode(o), enc.encode(o))


def test_the_labels_say_where_things_are() -> None:
    """The index a label names holds what the label says: each Tail token at its Comet's tail
    and row, each probe in its ring and Zone, each ship at its tile, seen from the observer."""
    from ecliptic.ceres.content import TAIL_TYPES

    cfg = {"players": 3, "expansions": ["comets"]}
    enc = encoder("ceres", cfg)
    at = {enc.meaning(i).split(": ", 1)[0]: i for i in range(enc.size)}
    g = get_game("ceres")
    checked = 0
    for s in states("ceres", cfg, seed=6):
        me = 2
        x = enc.encode(g.observe(s, me))
        for comet in s.comets:
            for t, tail in enumerate(comet.tails):
                for row, tok in enumerate(tail):
                    if tok is not None:
                        assert x[at[f"tail_tokens[{tok} {comet.id} tail {t + 1} {TAIL_TYPES[row]}]"]] == 1.0
                        checked += 1
        for p in s.players:
            for tok in p.tail_tokens:
                assert x[at[f"tail_tokens[{tok} taken +{(p.seat - me) % 3}]"]] == 1.0
        for asteroid, seat in s.claims.items():
            a = s.content.asteroid(asteroid)
            zone = g.observe(s, me)["belt"][asteroid]["zone"]
            assert x[at[f"belt.grid[{a.ring} zone {zone} +{(seat - me) % 3}]"]] == 1.0
    assert checked > 50
    tc = encoder("tauceti", {"players": 2})
    tat = {tc.meaning(i).split(": ", 1)[0]: i for i in range(tc.size)}
    gt = get_game("tauceti")
    for i, s in enumerate(states("tauceti", {"players": 2}, seed=6)):
        if i % 10 == 0:
            x = tc.encode(gt.observe(s, 1))
            assert x[tat[f"players[+0].position[{s.players[1].position}]"]] == 1.0
            assert x[tat[f"players[+1].position[{s.players[0].position}]"]] == 1.0
            assert x[tat["players[+0].tracks[TAU]"]] == pytest.approx(s.players[1].tau / 49)


# -- Encoder.tensor: encode(observe) with the parts that did not change copied ----------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(CONFIGS))), st.integers(0, 10_000), st.integers(0, 400), st.integers(1, 6))
def test_the_tensor_of_a_state_is_the_tensor_of_its_observation(pick: int, seed: int, steps: int, every: int) -> None:
    """Along a random game (the store sees the states in order, as in play, and keeps what
    earlier examples left), every ``every``-th state: the seat to play's and one other seat's
    ``tensor`` equal ``encode(observe)``; at the end every seat's and the spectator's, also on the state read
    back from its JSON save, a determinization and a re-seeded copy."""
    game, config = CONFIGS[pick]
    tensor_along_a_game(game, config, seed, steps, every)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(TC_SAMPLE))), st.sampled_from(sorted(CHANGES)), st.integers(0, 3))
def test_the_tensor_follows_a_state_changed_in_place(pick: int, change: str, me: int) -> None:
    """The store has seen the state; a change (in place where the state is mutable: a hand, the
    cubes on a tile, a player's TAU) gives the tensor of the changed state, never the store's."""
    g = get_game("tauceti")
    enc = encoder("tauceti", TC_CONFIG)
    s = TC_SAMPLE[pick].clone()
    before = enc.tensor(s, me)
    CHANGES[change][0](s, me, (me + 1) % 4)
    same_tensor(g, enc, s, [me, (me + 1) % 4, None])
    assert not np.array_equal(before, enc.tensor(s, me))


@pytest.mark.parametrize("config", [TAUCETI_CONFIGS[0], TAUCETI_CONFIGS[2], TAUCETI_CONFIGS[3]],
                         ids=["1p", "3p-random-layout", "4p-advanced"])
def test_interleaved_games_and_every_observer_share_one_store_and_get_their_own_tensor(config: dict[str, Any]) -> None:
    """The store keeps one entry per part, seat and view, for whichever state wrote it: two
    games stepped in turn, every seat and the spectator observing each after every step
    (so every entry is written by one game and looked up by the other), and a clone changed
    after the store has seen it, each give exactly ``encode(observe)``."""
    g = get_game("tauceti")
    enc = encoder("tauceti", config)
    a, b = g.new_game(config, 11), g.new_game(config, 12)
    rng = random.Random(5)
    for _ in range(120):
        for s in (a, b):
            if not s.is_over:
                g.apply(s, rng.choice(g.legal_actions(s)))
                same_tensor(g, enc, s, seats_of(config))
    twin = a.clone()
    enc.tensor(twin, 0)
    twin.players[0].hand.append("kept")  # changed in place after its tensor: no entry may share the list
    twin.cubes.setdefault("TC", []).append(twin.players[0].faction)
    same_tensor(g, enc, a, seats_of(config))


def test_each_environment_keeps_its_own_store() -> None:
    """Two environments stepped in turn in one process (a vector env) each give their own
    store to ``tensor``: the tensors are ``encode(observe)``, each store holds the parts of its
    own game only (a part's inputs name that game's tables), and the encoder's own is left alone."""
    from ecliptic.adapters._common import Table

    g = get_game("tauceti")
    tables = [Table("tauceti", {"players": 2}) for _ in range(2)]
    for t, seed in zip(tables, (3, 4), strict=True):
        t.new_game(seed)
    assert tables[0].store is not tables[1].store
    tables[0].encoder.forget()
    rng = random.Random(9)
    for _ in range(60):
        for t in tables:
            if not t.over:
                seat = t.state.current_player
                assert np.array_equal(t.tensor(seat), t.encoder.encode(g.observe(t.state, seat)))
                t.apply(rng.choice(g.legal_actions(t.state)))
    for t, other in (tables, tables[::-1]):
        layout = t.store.entries["tiles"][0]
        assert layout == t.state.layout and layout != other.state.layout
    assert len(tables[0].encoder._memos[0]) == 0


def test_the_store_forgets_for_other_content_and_keeps_inputs_the_state_cannot_change() -> None:
    """A content change empties the store (a view reads the content); what an entry keeps of
    the state's mutable lists and dicts is a copy, so changing the state afterwards cannot
    change it."""
    from ecliptic.adapters.observation import Recent
    from ecliptic.adapters.observation_tauceti import _copied

    store = Recent()
    store.entries["x"] = (1, ())
    store.content(object())
    assert len(store) == 0
    cubes = {"TC": ["Azars"], "AZAR": []}
    bag = ["Xunon", "Azars"]
    kept = _copied((cubes, bag, ("t",)))
    cubes["TC"].append("Xunon")
    bag.pop()
    assert kept == ({"TC": ["Azars"], "AZAR": []}, ["Xunon", "Azars"], ("t",))
    assert kept[0] != cubes and kept[1] != bag


@pytest.mark.parametrize("config", [TAUCETI_CONFIGS[0], TAUCETI_CONFIGS[3], TAUCETI_CONFIGS[4]],
                         ids=["1p", "4p-advanced", "4p-short"])
def test_a_players_view_is_its_parts_and_they_read_only_what_the_store_compares(config: dict[str, Any]) -> None:
    """``player_view`` is its seat, character and three parts; each part the tensor copies is
    a function of the fields it compares: on every 5th state of a random game, a player
    whose compared fields are given to a fresh player record (every other field wrong) gets
    the same part views."""
    import dataclasses

    from ecliptic.adapters.observation_tauceti import INTERFACE_FIELDS, SYSTEMS_FIELDS, TRACKS_FIELDS
    from ecliptic.tauceti import observation as obs
    from ecliptic.tauceti.state import Player

    compared = {*TRACKS_FIELDS, *SYSTEMS_FIELDS, *INTERFACE_FIELDS}
    # What no part compares: the seat (the key has it), the hand (its size, and the cards where
    # shown, are compared apart), and the three fields changed below.
    assert {f.name for f in dataclasses.fields(Player)} - compared == {
        "seat", "hand", "offers_made", "claim_turn", "crises_resolved_since_loss"}
    for i, s in enumerate(states("tauceti", config, seed=2)):
        if i % 5:
            continue
        for observer in seats_of(config):
            seen = obs.hands_seen(s, observer)
            for seat in range(config["players"]):
                view = obs.player_view(s, seat, observer, seen)
                parts = {**obs.player_tracks(s, seat, seen), **obs.player_systems(s, seat),
                         **obs.player_interface(s, seat, observer, seen)}
                assert view == {"seat": seat, "character": view["character"], **parts}
                p = s.players[seat]
                # a record that shares only what the tensor's parts compare (and the hand's size)
                other = dataclasses.replace(
                    p, hand=[*p.hand] if seat in seen else ["?"] * len(p.hand), offers_made=(9, 9),
                    claim_turn=p.claim_turn + 7, crises_resolved_since_loss=p.crises_resolved_since_loss + 3)
                twin = s.clone()
                twin.players[seat] = other
                assert obs.player_tracks(twin, seat, seen) == obs.player_tracks(s, seat, seen)
                assert obs.player_systems(twin, seat) == obs.player_systems(s, seat)
                assert obs.player_interface(twin, seat, observer, seen) == obs.player_interface(s, seat, observer, seen)


def test_the_tensor_of_what_is_not_a_state_of_the_encoders_game_is_refused_clearly() -> None:
    from ecliptic.engine.errors import SeatError

    tc = get_game("tauceti")
    enc = encoder("tauceti", {"players": 4})
    with pytest.raises(ValueError, match="a state of 2 players, not 4"):
        enc.tensor(tc.new_game({"players": 2}, 1), 0)
    with pytest.raises(ValueError, match="not a Tau Ceti state"):
        enc.tensor(get_game("ceres").new_game({"players": 4}, 1), 0)
    with pytest.raises(SeatError):
        enc.tensor(tc.new_game({"players": 4}, 1), 4)
    ceres = get_game("ceres")
    s = ceres.new_game({"players": 2}, 1)
    assert np.array_equal(encoder("ceres", {"players": 2}).tensor(s, 1),
                          encoder("ceres", {"players": 2}).encode(ceres.observe(s, 1)))


def test_the_python_example_of_docs_observation_runs_as_written() -> None:
    """The page's one Python block, run as a reader pastes it; what its comments promise holds
    (the meaning of index 1234, the slice of the next seat's tracks, the Box)."""
    import re
    from pathlib import Path

    doc = Path(__file__).resolve().parents[1] / "docs" / "observation.md"
    (block,) = re.findall(r"```python\n(.*?)```", doc.read_text(), re.S)
    names: dict[str, Any] = {}
    exec(compile(block, str(doc), "exec"), names)
    enc = names["enc"]
    assert names["x"].dtype == np.float32 and names["x"].shape == (enc.size,)
    assert enc.meaning(1234).startswith("enlightenment.mine[C16]: 1 for each card")
    assert isinstance(enc.slices["players[+1].tracks"], slice)
    assert enc.space.shape == (enc.size,) and enc.space.dtype == np.float32
