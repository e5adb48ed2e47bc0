"""Options that several commands share (``simulate``, ``tournament``, ``balance``, ``play``,
``calibrate``): one declaration each, so their names, types, help and checks read the same
everywhere. Each command gives its own default.

Seeds are of two kinds, each with one rule, checked here for every command that takes one:

* a **run seed** (``simulate``, ``tournament``, ``balance``) seeds the sequence a run draws its
  games' seeds from; it is 0 to 2**64 - 1, what the generator keeps
  (:func:`ecliptic.sim.simulate.check_seed`);
* a **game seed** (``play``, ``calibrate``'s first game) is the seed of one game, kept in its
  record; it is 0 to 2**63 - 1, what the game server stores (a PostgreSQL ``BIGINT``, the
  the engine's ``GAME_SEEDS``), so a game started here can be stored and replayed there.

A seed outside its range is refused while the options are read, in one line naming the range,
before anything is played or printed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

import typer

from ecliptic.engine.record import GAME_SEEDS
from ecliptic.sim.simulate import check_seed
from ecliptic.tauceti.state import GameLength, Layout


def check_game_seed(seed: int, *, games: int = 1) -> None:
    """Refuse, with ``ValueError``, a game seed outside 0 to 2**63 - 1, or (``games`` games
    seeded ``seed``, ``seed + 1``, ...) a last game's seed past it."""
    if not 0 <= seed < GAME_SEEDS:
        raise ValueError(f"the seed must be from 0 to {GAME_SEEDS - 1}, not {seed}: a game's seed is kept with "
                         "its record, and the game server stores seeds of 63 bits")
    if seed + games > GAME_SEEDS:
        raise ValueError(f"--seed {seed} with --games {games} would seed its last game {seed + games - 1}, past the "
                         f"last game seed {GAME_SEEDS - 1}: give a seed of at most {GAME_SEEDS - games}")


def _checked(check: Callable[[int], None]) -> Callable[[typer.Context, int | None], int | None]:
    """A Typer callback refusing a seed that ``check`` refuses: the one line of every command's
    errors (``Error: ...``, exit 2), not a usage box, as the range is the whole message."""
    def callback(ctx: typer.Context, value: int | None) -> int | None:
        if value is None or ctx.resilient_parsing:
            return value
        try:
            check(value)
        except ValueError as exc:
            from ecliptic.cli import _console, _fail

            raise _fail(_console(stderr=True), str(exc)) from None
        return value
    return callback


RUN_SEED_CHECK = _checked(check_seed)
GAME_SEED_CHECK = _checked(check_game_seed)
RunSeedOption = Annotated[int, typer.Option(
    "--seed", callback=RUN_SEED_CHECK, help="Run seed, 0 to 2**64 - 1: the same seed gives the same results.")]
GameSeedOption = Annotated[int | None, typer.Option(
    "--seed", callback=GAME_SEED_CHECK, help="Seed of the game, 0 to 2**63 - 1 (the same seed deals the same "
                                             "game); random if not given.")]

GameLengthOption = Annotated[GameLength, typer.Option(help="Tau Ceti: short (8 rounds) or full games.")]
LayoutOption = Annotated[Layout, typer.Option(help="Tau Ceti: how the tiles are laid out.")]
AdvancedOption = Annotated[str | None, typer.Option(help="Tau Ceti Advanced Rules: numbers separated by commas "
                                                         "(1,3,6) or 'all'.")]
AdvancedSpecialistsOption = Annotated[bool, typer.Option("--advanced-specialists",
                                                         help="Tau Ceti: with the Advanced Specialists.")]
ExpansionsOption = Annotated[str | None, typer.Option(help="Ceres expansions, e.g. 'comets'.")]

BackendName = Annotated[str, typer.Option(
    "--backend", help="Where the games are played: local (this machine's processes) or ray (a Ray cluster, "
                      "or a Ray started for the run); the results do not depend on it.")]
RayAddress = Annotated[str | None, typer.Option(
    help="--backend ray: the cluster to use (auto, HOST:PORT of its head, ray://HOST:PORT); without it a "
         "Ray of --workers CPUs is started on this machine for the run (docs/scale-out.md).")]
WORKERS_HELP = ("Worker processes, or with --backend ray the CPUs used (default: all cores, or all the "
                "cluster's); the results do not depend on it.")
Workers = Annotated[int | None, typer.Option(min=1, help=WORKERS_HELP)]


def _load_plugins(ctx: typer.Context, value: list[str] | None) -> list[str]:
    """Load the installed plug-ins, ``$ECLIPTIC_PLUGINS``' and ``--plugin``'s while the options are
    read (:mod:`ecliptic.bots.plugins`), so a bot text naming a plug-in's bot is known by the time
    it is checked, and a plug-in that cannot be loaded is one line (exit 2) before anything is
    played."""
    targets = list(value or [])
    if ctx.resilient_parsing:
        return targets
    from ecliptic.bots.plugins import PluginError, load_all

    try:
        load_all(targets)
    except PluginError as exc:
        from ecliptic.cli import _console, _fail

        raise _fail(_console(stderr=True), str(exc)) from None
    return targets


PluginOption = Annotated[list[str] | None, typer.Option(
    "--plugin", callback=_load_plugins, metavar="MODULE",
    help="Load your own bots: a module (or module:function, or path/to/bots.py) that calls register_bot or "
         "register_policy; may be repeated. $ECLIPTIC_PLUGINS (commas between) and installed 'ecliptic.bots' "
         "entry points are loaded too (docs/bots.md, \"Your own bot\").")]
