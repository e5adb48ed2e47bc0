"""Bots from outside Ecliptic (src/ecliptic/bots/plugins.py): installed entry points of the group
``ecliptic.bots`` (a fake distribution: a folder on the path with a dist-info), ``--plugin`` on the
commands, ``$ECLIPTIC_PLUGINS``, their errors (one line, no traceback), and the worker processes
that play the games loading them too."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ecliptic.bots import plugins
from ecliptic.bots.base import BotNameError, BotSpecError, bot_names, make_bot, register_bot
from ecliptic.bots.plugins import PluginError, load_plugins
from ecliptic.games import get_game
from ecliptic.sim.backends import LocalBackend

SRC = Path(__file__).resolve().parents[1] / "src"

FIRST_LEGAL = '''
import os
from ecliptic.bots import register_bot


class FirstLegal:
    """Plays the first legal action; says in which process it was made."""

    def __init__(self, name):
        self.name = name
        self.pid = os.getpid()

    def choose(self, game, state, seat):
        return game.legal_actions(state)[0]


def register():
    register_bot({name!r}, lambda option, seed: FirstLegal({name!r}))
'''


def plugin_file(folder: Path, module: str, name: str, *, on_import: bool = False) -> Path:
    """A plug-in module ``module`` in ``folder`` with the bot ``name`` (registered by its
    ``register`` function, or as it is imported)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{module}.py"
    path.write_text(FIRST_LEGAL.format(name=name) + ("\nregister()\n" if on_import else ""))
    return path


def fake_distribution(folder: Path, module: str, name: str, value: str | None = None) -> None:
    """An installed distribution as importlib.metadata finds one: a dist-info with an
    entry_points.txt, beside its module, in a folder on the path."""
    plugin_file(folder, module, name)
    info = folder / f"{module}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[ecliptic.bots]\n{name} = {value or module + ':register'}\n")


@pytest.fixture(autouse=True)
def registry(bot_registry: None) -> None:
    """Each test's bots and plug-ins are forgotten after it (tests/conftest.py)."""


def ecliptic(*args: str, cwd: Path, path: list[Path] = (), env: dict[str, str] | None = None  # type: ignore[assignment]
             ) -> subprocess.CompletedProcess[str]:
    """The ``ecliptic`` command in a process of its own (a fresh registry), run in ``cwd``."""
    environ = {k: v for k, v in os.environ.items() if k != plugins.ENV}
    environ["PYTHONPATH"] = os.pathsep.join([str(SRC), *map(str, path)])
    environ["COLUMNS"] = "200"
    environ.update(env or {})
    return subprocess.run([sys.executable, "-c", "from ecliptic.entry import main; main()", *args], cwd=cwd,
                          env=environ, capture_output=True, text=True, check=False, timeout=300)


SIMULATE = ("simulate", "--game", "ceres", "--players", "2", "--games", "4", "--json")


def one_line_error(done: subprocess.CompletedProcess[str], *words: str) -> None:
    """Exit 2 and one line ``Error: ...`` with ``words`` in it (on stderr; ``play`` writes its own
    on the terminal it plays on, stdout)."""
    assert done.returncode == 2, done.stderr
    line = (done.stderr or done.stdout).strip()
    assert "Traceback" not in line and line.startswith("Error: "), done.stderr
    assert "\n" not in line and all(w in line for w in words), line


# -- installed entry points -------------------------------------------------------------


def test_an_installed_entry_point_registers_its_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_distribution(tmp_path, "plug_dist", "distbot")
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins._installed = False
    assert "distbot" in bot_names()
    bot = make_bot("distbot", 0)
    game = get_game("ceres")
    state = game.new_game({"players": 2}, 1)
    assert bot.choose(game, state, 0) == game.legal_actions(state)[0]


def test_an_entry_point_may_name_a_module_whose_import_registers(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    plugin_file(tmp_path, "plug_modpoint", "modbot", on_import=True)
    info = tmp_path / "plug_modpoint-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: plug_modpoint\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[ecliptic.bots]\nmodbot = plug_modpoint\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins._installed = False
    assert make_bot("modbot", 0).name == "modbot"


def test_installed_bots_play_in_simulate_on_two_worker_processes(tmp_path: Path) -> None:
    """The workers load the entry points themselves (each process does, at its first bot)."""
    fake_distribution(tmp_path / "site", "plug_dist2", "distbot")
    done = ecliptic(*SIMULATE, "--workers", "2", "--bots", "distbot", cwd=tmp_path, path=[tmp_path / "site"])
    assert done.returncode == 0, done.stderr
    assert '"bot": "distbot"' in done.stdout and '"games": 4' in done.stdout


def test_a_broken_installed_plugin_is_one_line_naming_it(tmp_path: Path) -> None:
    site = tmp_path / "site"
    fake_distribution(site, "plug_broken", "brokenbot")
    (site / "plug_broken.py").write_text("raise ImportError('needs torch')\n")
    one_line_error(ecliptic(*SIMULATE, "--bots", "random", cwd=tmp_path, path=[site]),
                   "installed plug-in 'brokenbot'", "plug_broken:register", "from plug_broken", "needs torch")


# -- --plugin and $ECLIPTIC_PLUGINS ------------------------------------------------------


@pytest.mark.parametrize("form", ["file", "file:function", "module:function"])
def test_plugin_loads_a_file_or_a_module(tmp_path: Path, form: str) -> None:
    path = plugin_file(tmp_path / "mine", "plug_forms", "formbot", on_import=form == "file")
    target = {"file": str(path), "file:function": f"{path}:register", "module:function": "plug_forms:register"}[form]
    extra = [tmp_path / "mine"] if form == "module:function" else []
    done = ecliptic(*SIMULATE, "--bots", "formbot", "--plugin", target, cwd=tmp_path, path=extra)
    assert done.returncode == 0, done.stderr
    assert '"bot": "formbot"' in done.stdout


def test_plugin_on_every_command_that_builds_bots(tmp_path: Path) -> None:
    path = plugin_file(tmp_path, "plug_every", "everybot", on_import=True)
    tournament = ecliptic("tournament", "--game", "ceres", "--players", "2", "--games", "2", "--bots",
                          "everybot,random", "--plugin", str(path), "--json", cwd=tmp_path)
    assert tournament.returncode == 0 and "everybot" in tournament.stdout, tournament.stderr
    balance = ecliptic("balance", "--game", "ceres", "--players", "2", "--games", "2", "--bots", "everybot",
                       "--workers", "1", "--out", str(tmp_path / "report"), "--plugin", str(path), cwd=tmp_path)
    assert balance.returncode == 0, balance.stderr
    calibrate = ecliptic("calibrate", "--games", "1", "--players", "2", "--bots", "everybot,random", "--json",
                         "--plugin", str(path), cwd=tmp_path)
    assert calibrate.returncode == 0 and '"everybot"' in calibrate.stdout, calibrate.stderr
    for command in (["play"], ["serve"]):
        done = ecliptic(*command, "--help", cwd=tmp_path)
        assert "--plugin" in done.stdout, command
    play = ecliptic("play", "--game", "ceres", "--players", "2", "--bots", "nobot", "--plugin", str(path),
                    cwd=tmp_path, env={"ECLIPTIC_DATA_DIR": str(tmp_path / "data")})
    one_line_error(play, "unknown bot 'nobot'", "everybot")  # the plug-in's bot is listed as known


def test_the_environment_names_plugins_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = plugin_file(tmp_path, "plug_env", "envbot", on_import=True)
    other = plugin_file(tmp_path, "plug_env2", "envbot2")
    done = ecliptic(*SIMULATE, "--workers", "2", "--bots", "envbot2", cwd=tmp_path,
                    env={plugins.ENV: f"{path}, {other}:register"})
    assert done.returncode == 0 and '"bot": "envbot2"' in done.stdout, done.stderr
    monkeypatch.setenv(plugins.ENV, str(path))  # and in this process, at the first bot made
    assert make_bot("envbot", 0).name == "envbot"


def test_the_same_file_named_twice_is_loaded_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = plugin_file(tmp_path, "plug_twice", "twicebot", on_import=True)
    monkeypatch.chdir(tmp_path)
    load_plugins([str(path), "plug_twice.py"])
    monkeypatch.setenv(plugins.ENV, str(path))
    assert make_bot("twicebot", 0).name == "twicebot"
    assert plugins.loaded().count(str(path.resolve())) == 1


# -- worker processes --------------------------------------------------------------------


def _made_in(spec: str) -> tuple[str, int]:
    """What a worker runs: a bot of ``spec`` made there, and that process's id."""
    bot = make_bot(spec, 0)
    return bot.name, os.getpid()


def test_local_workers_load_the_plugins_of_this_process(tmp_path: Path) -> None:
    load_plugins([str(plugin_file(tmp_path, "plug_worker", "workerbot"))[:-3] + ".py:register"])
    made = list(LocalBackend(2).map(_made_in, iter(["workerbot"] * 8), 8))
    assert [name for name, _ in made] == ["workerbot"] * 8
    assert {pid for _, pid in made} - {os.getpid()}  # made in the workers, not here


def test_the_server_bot_pool_loads_the_plugins_in_its_workers(tmp_path: Path) -> None:
    import asyncio

    from ecliptic.server.bots import BotPool

    load_plugins([str(plugin_file(tmp_path, "plug_pool", "poolbot", on_import=True))])
    pool = BotPool(1)
    try:
        name, pid = asyncio.run(pool.run(_made_in, "poolbot"))
    finally:
        pool.close()
    assert name == "poolbot" and pid != os.getpid()


def test_ray_workers_load_the_plugins_of_this_process(tmp_path: Path, ray_cluster: Any) -> None:
    """The same games on Ray's workers as here: each worker loaded the --plugin file first."""
    from ecliptic.sim.backends import get_backend
    from ecliptic.sim.simulate import simulate

    load_plugins([str(plugin_file(tmp_path, "plug_ray", "raybot", on_import=True))])
    here = simulate("ceres", 2, 6, 5, "raybot", {"players": 2}, workers=1)
    with get_backend("ray") as backend:
        on_ray = simulate("ceres", 2, 6, 5, "raybot", {"players": 2}, backend=backend)
    assert on_ray.deterministic_json() == here.deterministic_json() and here.games == 6


# -- errors ------------------------------------------------------------------------------


def test_plugins_that_cannot_load_are_one_line_each(tmp_path: Path) -> None:
    (tmp_path / "plug_raises.py").write_text("raise RuntimeError('the weights are missing\\nsecond line')\n")
    (tmp_path / "plug_clash.py").write_text("from ecliptic.bots import register_bot\n"
                                            "register_bot('heuristic', lambda o, s: None)\n")
    plugin_file(tmp_path, "plug_a", "samebot", on_import=True)
    plugin_file(tmp_path, "plug_b", "samebot", on_import=True)
    cases = [
        (["--plugin", "plug_nowhere"], ["plug-in 'plug_nowhere'", "no module named 'plug_nowhere'"]),
        (["--plugin", "missing.py"], ["plug-in 'missing.py'", "there is no file"]),
        (["--plugin", "plug_raises.py"], ["plug-in 'plug_raises.py'", "RuntimeError: the weights are missing"]),
        (["--plugin", "plug_clash.py"], ["a bot named 'heuristic' is already registered (by ecliptic.bots.heuristic)"]),
        (["--plugin", "plug_a.py", "--plugin", "plug_b.py"],
         ["plug-in 'plug_b.py'", "'samebot' is already registered"]),
        (["--plugin", "plug_a.py:nothing"], ["has no function 'nothing'"]),
        (["--plugin", "not a module"], ["give a module"]),
    ]
    for options, words in cases:
        one_line_error(ecliptic(*SIMULATE, "--bots", "random", *options, cwd=tmp_path), *words)
    one_line_error(ecliptic(*SIMULATE, "--bots", "random", cwd=tmp_path, env={plugins.ENV: "plug_nowhere"}),
                   "$ECLIPTIC_PLUGINS plug-in 'plug_nowhere'")


def test_a_plugin_missing_a_module_it_needs_is_told_apart_from_a_missing_plugin(tmp_path: Path) -> None:
    (tmp_path / "plug_deps.py").write_text("import plug_dep  # not installed\n")
    one_line_error(ecliptic(*SIMULATE, "--plugin", "plug_deps", cwd=tmp_path, path=[tmp_path]),
                   "plug-in 'plug_deps': failed while being imported: ModuleNotFoundError: No module named 'plug_dep'")


def test_a_plugin_error_in_this_process_is_a_bot_spec_error(tmp_path: Path) -> None:
    with pytest.raises(PluginError, match="no module named 'plug_absent'") as caught:
        load_plugins(["plug_absent"])
    assert isinstance(caught.value, BotSpecError)
    assert plugins.loaded() == []  # nothing half-remembered


@pytest.mark.parametrize(("name", "message"), [
    ("heuristic", "already registered"),
    ("hard", "is a level"),
    ("Mine", "lower case"),
    ("mine:v3", "lower case"),
    ("", "lower case"),
])
def test_a_bot_name_that_no_bot_text_could_reach_is_refused(name: str, message: str) -> None:
    with pytest.raises(BotNameError, match=message):
        register_bot(name, lambda option, seed: make_bot("random", seed))
