"""How a study was made, in a form a reader can act on: the Ecliptic version that began it and
the ``ecliptic balance`` command that plays it again.

Why: a report is shared (a page, a ``results.json``) apart from the terminal it was run in. Its
seed, bots and games are in the facts, but without the version and the options a designer who
receives it cannot play the same games again, nor tell whether a later Ecliptic would (the
rules or the bots may have changed since). The command is rebuilt from the study file's header
alone, so ``ecliptic balance report`` gives it too, for a file of any age."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from typing import Any

VERSION_KEY = "ecliptic"
"""The header's key for the Ecliptic version that began the study (files begun before it was
recorded lack it). It is not compared on ``--resume``: the last game is played again instead,
which tells whether this version plays the file's games as they were recorded."""


def study_command(header: Mapping[str, Any], out: str | None = None) -> str:
    """The ``ecliptic balance`` command that plays the study of ``header`` again (the same
    options give the same file, docs/balance.md), into ``out`` when given: without it the
    command is the same wherever the study file lies, as ``results.json`` must be. Only options
    that differ from the defaults of the arms are named, in the order of ``ecliptic balance --help``."""
    arms: Sequence[Mapping[str, Any]] = header.get("arms") or []
    sweep = header.get("sweep")
    game = str(header.get("game"))
    words = ["ecliptic", "balance", "--game", game]
    if sweep != "players":
        words += ["--players", str(header.get("players"))]
    words += ["--bots", ",".join(map(str, header.get("bots") or [])), "--games", str(header.get("games")),
              "--seed", str(header.get("seed"))]
    if sweep:
        words += ["--sweep", str(sweep)]
    folders = list(dict.fromkeys(str(c["folder"]) for a in arms if isinstance(c := a.get("content"), Mapping)
                                 and "folder" in c))
    for folder in folders:
        words += ["--content", folder]
    config: Mapping[str, Any] = arms[0].get("config") or {} if arms else {}
    if config.get("game", "full") != "full":
        words += ["--game-length", str(config["game"])]
    if config.get("layout", "players") != "players":
        words += ["--layout", str(config["layout"])]
    if sweep != "advanced" and config.get("advanced"):
        words += ["--advanced", ",".join(map(str, config["advanced"]))]
    if config.get("advanced_specialists"):
        words += ["--advanced-specialists"]
    expansions = [e for e in config.get("expansions") or [] if not (sweep == "comets" and e == "comets")]
    if expansions:
        words += ["--expansions", ",".join(map(str, expansions))]
    if out is not None:
        words += ["--out", out]
    return shlex.join(words)
