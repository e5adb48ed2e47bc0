"""Options that several commands share (``simulate``, ``tournament``, ``balance``): one
declaration each, so their names, types and help read the same everywhere. Each command gives
its own default."""

from __future__ import annotations

from typing import Annotated

import typer

from ecliptic.tauceti.state import GameLength, Layout

GameLengthOption = Annotated[GameLength, typer.Option(help="Tau Ceti: short (8 rounds) or full games.")]
LayoutOption = Annotated[Layout, typer.Option(help="Tau Ceti: how the tiles are laid out.")]
AdvancedOption = Annotated[str | None, typer.Option(help="Tau Ceti Advanced Rules: numbers separated by commas "
                                                         "(1,3,6) or 'all'.")]
AdvancedSpecialistsOption = Annotated[bool, typer.Option(help="Tau Ceti: with the Advanced Specialists.")]
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
