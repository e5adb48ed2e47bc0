"""The PettingZoo AEC adapter (``ecliptic.adapters.pettingzoo``) passes PettingZoo's own
``api_test`` and ``seed_test`` in every configuration issue 18 names, without a warning about
its observations, and translates the engine faithfully: every id the mask offers is accepted,
any other is refused with nothing changed, and a whole game's rewards are ``G.returns``.
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import io
import json
import os
import re
import shlex
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.wrappers import TerminateIllegalWrapper

from ecliptic.adapters.pettingzoo import env, raw_env
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.rng import Rng
from ecliptic.games import get_game

api_test_module = importlib.import_module("pettingzoo.test.api_test")  # the module, not its function
ALL_ADVANCED = list(range(1, 10))
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    *[("tauceti", {"players": n, "game": length, "advanced": ALL_ADVANCED})
      for n in (1, 2, 4) for length in ("short", "full")],
    *[("ceres", {"players": n, "expansions": ["comets"]}) for n in (1, 2, 4)],
]
IDS = [f"{g}-{c['players']}p-{c.get('game', 'comets')}" for g, c in CONFIGS]
NAME_ADVICE = "We recommend agents to be named in the format"
"""api_test's advice to name agents ``player_0``: issue 18 names them by faction (``Xunon``)
and ``P1``..``P4``, so this one advice is expected."""


def make(game: str, config: dict[str, Any], **kw: Any) -> Any:
    return env(game, config=config, **kw)


@pytest.fixture
def dict_observations_allowed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """PettingZoo 1.27's api_test warns "Observation is not a NumPy array" and "Observation
    space ... should be box" for every environment observing PettingZoo's own classic
    convention (a dict of ``observation`` and ``action_mask``) unless its name is on two
    allowlists of PettingZoo's environments (chess_v6, go_v5...). Upstream removed both false
    warnings (Farama-Foundation/PettingZoo#1391); here our names join the allowlists, so every
    other observation check of the suite still runs and still warns."""
    names = [f"ecliptic_{g}_v0" for g in ("tauceti", "ceres")]
    monkeypatch.setattr(api_test_module, "env_obs_dicts", [*api_test_module.env_obs_dicts, *names])
    monkeypatch.setattr(api_test_module, "env_obs_space", [*api_test_module.env_obs_space, *names])
    yield


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_api_test_passes_without_a_warning_about_observations(index: int, dict_observations_allowed: None) -> None:
    game, config = CONFIGS[index]
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(io.StringIO()) as out:
        warnings.simplefilter("always")
        api_test(make(game, config), num_cycles=1000)  # whole games: they end well within
    assert "Passed API test" in out.getvalue()
    others = {str(w.message) for w in caught if NAME_ADVICE not in str(w.message)}
    assert others == set()


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_seed_test_passes(index: int) -> None:
    game, config = CONFIGS[index]
    seed_test(lambda: make(game, config), num_cycles=1000)


def test_the_allowlist_fixture_hides_nothing_but_the_dict_convention(dict_observations_allowed: None) -> None:
    """An observation check still warns under the fixture: an all-zero tensor is reported."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test_module.test_observation({"observation": np.zeros(3, np.float32)}, np.zeros(3, np.float32),
                                         "ecliptic_tauceti_v0")
    assert [str(w.message) for w in caught] == ["Observation numpy array is all zeros."]


# -- agents, spaces ----------------------------------------------------------------------


def test_tau_ceti_agents_are_the_factions_the_engine_deals_to_the_seats() -> None:
    e = raw_env("tauceti", 2)
    G = get_game("tauceti")
    for seed in (1, 2, 3):
        e.reset(seed=seed)
        factions = [p["faction"] for p in G.observe(G.new_game({"players": 2}, seed), None)["players"]]
        assert e.agents == factions
        assert e.agent_selection == factions[G.new_game({"players": 2}, seed).current_player]
    assert e.possible_agents == ["Zorhkonian", "Xunon", "Triolor", "Azars"]  # dealt at random
    named = raw_env("tauceti", 2, factions=["Azars", "Xunon"])
    named.reset(seed=0)
    assert named.agents == named.possible_agents == ["Azars", "Xunon"]


def test_ceres_agents_are_p1_to_p4() -> None:
    e = raw_env("ceres", 3, expansions=["comets"])
    e.reset(seed=0)
    assert e.agents == e.possible_agents == ["P1", "P2", "P3"]


def test_spaces_are_the_tensor_and_a_mask_of_the_whole_action_space() -> None:
    e = raw_env("tauceti", 4)
    e.reset(seed=5)
    n = len(get_game("tauceti").action_space(None))
    for agent in e.agents:
        space = e.observation_space(agent)
        assert space["action_mask"].shape == (n,) and space["action_mask"].dtype == np.int8
        assert space["observation"].dtype == np.float32
        assert e.action_space(agent).n == n
        obs = e.observe(agent)
        assert space.contains(obs)
        seat = e.agents.index(agent)  # the tensor is that seat's observe, and nothing else
        assert (obs["observation"] == e.table.encoder.encode(e.table.game.observe(e.table.state, seat))).all()
        assert obs["action_mask"].any() == (agent == e.agent_selection)  # only the mover has moves


def test_the_mask_is_the_legal_actions_of_the_engine() -> None:
    G = get_game("tauceti")
    e = raw_env("tauceti", 2)
    e.reset(seed=9)
    state = G.new_game({"players": 2}, 9)
    mask = e.observe(e.agent_selection)["action_mask"]
    assert [G.action_space(state).action(i) for i in np.flatnonzero(mask)] == G.legal_actions(state)


# -- actions -------------------------------------------------------------------------------


def _random_states(game: str, config: dict[str, Any], seed: int, every: int) -> Iterator[Any]:
    """A raw environment at every ``every``-th decision of a random masked game."""
    e = raw_env(game, config=config)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for step, _agent in enumerate(e.agent_iter()):
        obs, _, done, _, _ = e.last()
        if done:
            break
        if step % every == 0:
            yield e
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("game,config,every", [("tauceti", {"players": 4, "advanced": ALL_ADVANCED}, 23),
                                               ("ceres", {"players": 2, "expansions": ["comets"]}, 3)],
                         ids=["tauceti", "ceres"])
def test_every_mask_id_is_accepted_and_any_other_is_refused_with_nothing_changed(
        game: str, config: dict[str, Any], every: int) -> None:
    G = get_game(game)
    checked = 0
    for e in _random_states(game, config, seed=11, every=every):
        table = e.table
        agent = e.agent_selection
        mask = e.observe(agent)["action_mask"]
        before = G.to_json(table.state)
        shared = {id(x): x for x in (table.game, table.space, table.encoder)}
        for i in np.flatnonzero(mask):
            other = copy.deepcopy(e, dict(shared))
            other.step(int(i))  # accepted
            assert G.to_json(other.table.state) != before
        for i in np.flatnonzero(mask == 0)[::41]:
            with pytest.raises(IllegalAction, match=f"action id {i} .* is not legal now"):
                e.step(int(i))
        for bad in (len(mask), -1, True, 1.5, "3", None):
            with pytest.raises(IllegalAction, match="action id"):
                e.step(bad)
        assert G.to_json(table.state) == before and e.agent_selection == agent  # all refused, none changed
        assert (e.observe(agent)["action_mask"] == mask).all()
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("game,config", [("tauceti", {"players": 4, "game": "full", "advanced": ALL_ADVANCED}),
                                         ("tauceti", {"players": 1, "game": "short"}),
                                         ("ceres", {"players": 4, "expansions": ["comets"]})],
                         ids=["tauceti-4p", "tauceti-1p", "ceres-4p"])
def test_a_whole_random_game_rewards_each_agent_the_engines_returns(game: str, config: dict[str, Any]) -> None:
    e = make(game, config)
    e.reset(seed=21)
    rng = np.random.default_rng(21)
    total = dict.fromkeys(e.agents, 0.0)
    played = []
    agents = list(e.agents)
    for agent in e.agent_iter():
        obs, reward, done, truncated, _ = e.last()
        total[agent] += reward
        assert not truncated
        if done:
            e.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        played.append(action)
        e.step(action)
    assert e.agents == []
    G = get_game(game)
    state = G.new_game(config, 21)  # the same game, replayed on the engine alone
    for i in played:
        G.apply(state, G.action_space(state).action(i))
    assert state.is_over
    assert [total[a] for a in agents] == G.returns(state)
    utility = G.utility(config)  # what the rewards mean, as the engine declares it
    assert all(utility.min <= total[a] <= utility.max for a in agents)
    assert utility.sum is None or sum(total.values()) == pytest.approx(utility.sum)


def test_dense_points_add_up_to_the_score_gained_during_the_game() -> None:
    """The rewards add up to the final score less the public points of the dealt game: the
    last step brings every seat to its final total, the hands counted."""
    config = {"players": 2, "game": "short"}
    e = make("tauceti", config, reward="points")
    e.reset(seed=4)
    table = e.unwrapped.table
    start = table.public_points()
    total = dict.fromkeys(e.agents, 0.0)
    agents = list(e.agents)
    rng = np.random.default_rng(4)
    changed = False
    for agent in e.agent_iter():
        obs, reward, done, _, _ = e.last()
        total[agent] += reward
        changed |= reward != 0
        e.step(None if done else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert changed
    final = [row["total"] for row in table.state.final_scores]
    assert table.points() == final
    assert [total[a] for a in agents] == [f - s for f, s in zip(final, start, strict=True)]


@pytest.mark.parametrize("players", [1, 2, 4])
def test_points_rewards_are_the_same_on_every_world_an_agent_cannot_tell_apart(players: int) -> None:
    """Every agent reads every agent's reward, so with ``reward="points"`` a reward must not
    change between worlds that ``observe`` does not tell apart for any one seat: at every
    step the points the rewards are changes of are the same on ``determinize(state, v)``
    for every viewer ``v``, and each step's rewards are exactly their changes. The true
    points (a hand counted) fail the first check in the same games: the test can see a leak."""
    game = get_game("tauceti")
    config = {"players": players, "game": "short", "advanced": ALL_ADVANCED}
    leaks_of_true_points = 0
    for seed in range(3):
        e = raw_env("tauceti", config=config, reward="points")
        e.reset(seed=seed)
        table = e.unwrapped.table
        rng = np.random.default_rng(seed)
        det = Rng.from_seed(seed)
        before = table.public_points()
        for step, _agent in enumerate(e.agent_iter()):
            obs, _, done, _, _ = e.last()
            if done:
                break
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            now = table.public_points()
            assert [e.rewards[a] for a in e.agents] == [float(n - b) for n, b in zip(now, before, strict=True)]
            before = now
            if step % 5 or table.over:
                continue
            for viewer in range(players):
                world = game.determinize(table.state, viewer, det)
                assert [game.public_points(world, s) for s in range(players)] == now
                leaks_of_true_points += any(
                    game.points_so_far(world, s) != game.points_so_far(table.state, s)
                    for s in range(players) if s != viewer)
    if players > 1:
        assert leaks_of_true_points > 0


def test_terminate_illegal_wrapper_ends_the_game_against_the_offender() -> None:
    e = TerminateIllegalWrapper(raw_env("ceres", 2, expansions=["comets"]), illegal_reward=-1)
    e.reset(seed=2)
    offender = e.agent_selection
    obs = e.observe(offender)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo reports the illegal move
        e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(e.terminations.values())
    assert e.rewards[offender] == -1 and all(r == 0 for a, r in e.rewards.items() if a != offender)


# -- the rest of the contract ----------------------------------------------------------------


def test_same_seed_same_game_and_an_unseeded_reset_follows_the_last_seed() -> None:
    a, b = raw_env("tauceti", 3), raw_env("tauceti", 3)
    a.reset(seed=8)
    b.reset(seed=8)
    a.reset()
    b.reset()
    G = get_game("tauceti")
    assert G.to_json(a.table.state) == G.to_json(b.table.state)
    assert a.table.seed != 8


def test_a_numpy_integer_seed_is_that_seed_and_a_seed_that_is_no_integer_is_refused_with_nothing_changed() -> None:
    """``np.random`` hands out NumPy integers; a float, a string or a bool is refused in one
    line (Python's ``random`` would speak of its own types, or read ``True`` as 1)."""
    a, b = raw_env("ceres", 2), raw_env("ceres", 2)
    a.reset(seed=np.int64(8))
    b.reset(seed=8)
    G = get_game("ceres")
    assert G.to_json(a.table.state) == G.to_json(b.table.state)
    before = G.to_json(a.table.state)
    for bad in (3.5, "3", True):
        with pytest.raises(ValueError, match=rf"^seed is an integer or None, not {re.escape(repr(bad))}$"):
            a.reset(seed=bad)
        assert G.to_json(a.table.state) == before and a.agent_selection == b.agent_selection


def test_a_name_that_is_not_an_agent_is_refused_naming_the_agents() -> None:
    """``player_0`` (PettingZoo's classic games' name) is the likely slip."""
    e = env("tauceti", 2, factions=["Xunon", "Azars"])
    with pytest.raises(KeyError) as raised:
        e.observation_space("player_0")
    assert str(raised.value) == "unknown agent 'player_0'; this game's agents are Xunon, Azars"
    with pytest.raises(KeyError, match=r"^unknown agent 'P1'; this game's agents are Xunon, Azars$"):
        e.action_space("P1")
    e.reset(seed=1)
    with pytest.raises(KeyError, match=r"^agent 'Triolor' is not at the table; the agents are Xunon, Azars$"):
        e.observe("Triolor")


def test_the_global_state_is_refused_saying_why() -> None:
    e = env("ceres", 2)
    e.reset(seed=1)
    with pytest.raises(NotImplementedError, match=r"^ecliptic_ceres_v0 offers no global state\(\): it would show "
                                                  r"every seat's hidden cards"):
        e.state()


def test_render_ansi_draws_the_table_as_the_selected_agent_sees_it() -> None:
    e = raw_env("tauceti", 2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and "Setup phase" in text and e.agent_selection in text
    c = raw_env("ceres", 2, expansions=["comets"], render_mode="ansi")
    c.reset(seed=1)
    assert "Ceres with the Comets expansion" in c.render()


def test_render_human_prints_the_table_at_every_step_and_passes_pettingzoos_render_test(
        capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's ``render_test`` makes the environment with ``render_mode="human"`` before
    it reads the modes; ``human`` draws the table to standard output at reset and each step."""
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: raw_env("ceres", 2, render_mode=render_mode))
    e = raw_env("ceres", 2, render_mode="human")
    capsys.readouterr()
    e.reset(seed=1)
    assert capsys.readouterr().out.count("Round 1 of 3") == 1
    e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    assert e.render() is None
    assert capsys.readouterr().out.count("Round 1 of 3") == 2  # the step's drawing, and render()'s


@pytest.mark.parametrize("kwargs,message", [
    ({"game": "chess"}, "unknown game 'chess'"),
    ({"game": "tauceti", "players": 5}, "1-4 players"),
    ({"game": "tauceti", "reward": "gold"}, "reward must be one of returns, points"),
    ({"game": "tauceti", "render_mode": "rgb_array_list"}, "render_mode is 'ansi', 'human', 'rgb_array' or None"),
    ({"game": "tauceti", "players": 2, "config": {"players": 3}}, "players is given twice"),
    ({"game": "ceres", "expansions": ["moons"]}, "unknown expansion 'moons'"),
])
def test_a_bad_constructor_argument_is_a_clear_value_error(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        raw_env(**kwargs)


def test_step_before_reset_is_refused_by_the_order_enforcing_wrapper() -> None:
    with pytest.raises(Exception, match="reset"):
        env("tauceti", 2).step(0)


def test_bench_aec_reports_every_figure_and_its_table() -> None:
    """``ecliptic bench --aec`` (a smoke test: it never checks a time)."""
    import json

    from benchmarks import aec
    from rich.console import Console
    from typer.testing import CliRunner

    from ecliptic.cli import app

    runner = CliRunner(env={"COLUMNS": "200"})
    result = runner.invoke(app, ["bench", "--quick", "--aec", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)["aec"]
    for key, _, _, _ in aec.rows():
        value = report["figures"][key]
        baseline = key.removesuffix("_steps_per_s")
        if value is None:  # a library that is not installed: said, not failed
            assert report["baselines"][baseline if baseline in report["baselines"] else "chess_v6"].startswith(
                "unavailable")
        else:
            assert value > 0, key
    out = io.StringIO()
    Console(file=out, width=200).print(aec.table(report))  # what the command prints without --json
    assert "chess_v6" in out.getvalue() and "Tau Ceti step: observe" in out.getvalue()


def test_the_python_examples_of_docs_adapters_run_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The MaskablePPO example needs torch and sb3-contrib, which the project does not install
    (and its training takes a minute): it is only compiled here; the docs say where it ran. The
    policy plug-in is registered (in a copy of the bot registry) and its bot plays a Ceres game
    with weights of the environment's shapes, as the ``ecliptic simulate`` line below it does."""
    from ecliptic.bots import base
    from ecliptic.bots.base import make_bot
    from ecliptic.games import get_game

    doc = Path(__file__).resolve().parents[1] / "docs" / "adapters.md"
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(), re.S)
    training = [b for b in blocks if "sb3_contrib" in b]
    plugin = [b for b in blocks if "register_policy" in b]
    assert len(blocks) == 4 and len(training) == 1 and len(plugin) == 1
    for block in blocks:
        code = compile(block, str(doc), "exec")
        if block not in training:
            names: dict[str, Any] = {}
            exec(code, names)
    base.load_builtin_bots()
    monkeypatch.setattr(base, "_FACTORIES", dict(base._FACTORIES))
    monkeypatch.setattr(base, "_OWNERS", dict(base._OWNERS))
    monkeypatch.setattr(base, "_PLANNED", dict(base._PLANNED))
    names = {}
    exec(compile(plugin[0], str(doc), "exec"), names)
    names["register"]()
    e = raw_env("ceres", 2)
    e.reset(seed=3)
    obs = e.observe(e.agent_selection)
    weights = tmp_path / "weights.npy"
    np.save(weights, np.zeros((obs["action_mask"].size, obs["observation"].size), np.float32))
    bot = make_bot(f"mine:{weights}", 1)
    game = get_game("ceres")
    state = game.new_game({"players": 2}, 3)
    while not state.is_over:  # the engine refuses any illegal action
        game.apply(state, bot.choose(game, state, state.current_player))


def test_the_policy_plugin_commands_of_docs_adapters_run_as_written(tmp_path: Path) -> None:
    """"A policy as a bot": the plug-in block saved as mypolicy.py, then the shell block's lines
    as a reader types them in that folder: the trial weights (their shape must be the 2-player
    Ceres tensor's and action space's, or the policy's product fails) and ``ecliptic simulate``
    with two games. The ``serve`` line starts a server and is left out."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "adapters.md").read_text()
    section = doc.split("## A policy as a bot")[1].split("\n## ")[0]
    (plugin,) = re.findall(r"```python\n(.*?)```", section, re.S)
    (shell,) = re.findall(r"```sh\n(.*?)```", section, re.S)
    (tmp_path / "mypolicy.py").write_text(plugin)
    lines = [shlex.split(line) for line in shell.splitlines() if line.strip()]
    trial = [line for line in lines if line[0] == "python"]
    simulate = [line for line in lines if line[:2] == ["ecliptic", "simulate"]]
    assert len(trial) == 1 and len(simulate) == 1, shell
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    commands = [[sys.executable, *trial[0][1:]],
                [sys.executable, "-c", "from ecliptic.entry import main; main()", *simulate[0][1:], "--games", "2",
                 "--json"]]
    for command in commands:
        done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 2 and summary["bot"] == "mine:weights.npy"
    # Weights of another shape (a 4-player game's, say) are refused, saying which shapes.
    np.save(tmp_path / "weights.npy", np.zeros((55, 10), np.float32))
    done = subprocess.run(commands[1], capture_output=True, text=True, check=False, cwd=tmp_path, env=env)
    assert done.returncode != 0 and "weights.npy holds (55, 10) weights; this game needs (55, 351)" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_environment_pickles_mid_game_and_plays_on_as_the_original() -> None:
    import pickle

    e = raw_env("tauceti", 2, config={"game": "short"})
    e.reset(seed=5)
    for _ in range(10):
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    copy_ = pickle.loads(pickle.dumps(e))
    assert copy_.agents == e.agents and copy_.agent_selection == e.agent_selection
    for _ in range(60):
        obs, *rest = e.last()
        other, *other_rest = copy_.last()
        assert (obs["observation"] == other["observation"]).all() and rest == other_rest
        if rest[1]:
            break
        action = int(np.flatnonzero(obs["action_mask"])[-1])
        e.step(action)
        copy_.step(action)


def test_the_spaces_are_also_the_classic_envs_dicts() -> None:
    e = raw_env("ceres", 2)
    assert set(e.observation_spaces) == set(e.action_spaces) == set(e.possible_agents)
    assert all(e.observation_spaces[a] is e.observation_space(a) for a in e.possible_agents)
    assert all(e.action_spaces[a] is e.action_space(a) for a in e.possible_agents)
