"""A balance study: the arms (variants) to compare, the games of each, and running them.

An arm is one variant of the game: a config (Advanced Rules, player count, expansions) and a
content (the packaged stand-ins or an owner's printed values). Every arm plays the same
``games`` games, and game ``i`` of every arm has the same seed (the ``i``-th of the run
seed's stream, :func:`ecliptic.sim.simulate.seed_stream`) and the same seating: the arms are
compared on common random numbers, so a difference between them is the variant's and not
the deal's. The seating rotates the bots over the seats and the factions over the seats
exactly as a tournament does (:func:`ecliptic.sim.tournament.seating`), so every faction
plays from every position equally often.

Order: the tasks are game 0 of every arm, then game 1 of every arm, and so on. A study cut
short therefore has every arm equally far along, and its file holds a prefix of this order:
:func:`run_study` resumes after the last complete record without replaying a game (and a study
resumed with more games per arm extends the same order). The file is the same whatever the
backend and the number of workers, since the backend gives the results back in task order, and
the same whether the study ran at once or in parts.

Sweeps (:func:`sweep_arms`): ``advanced`` (each Advanced Rule alone against all off, and all
on; Tau Ceti), ``players`` (1-4), ``comets`` (Ceres without and with the Comets expansion);
``contents`` adds, for every arm, the same arm on each content folder given.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any

from ecliptic.balance.probes import GameTask, play_recorded
from ecliptic.balance.provenance import VERSION_KEY
from ecliptic.balance.stream import CHECKSUM, StudyFileError, StudyWriter, read_study
from ecliptic.bots.base import make_bot
from ecliptic.games import ContentPack, get_game, using_content
from ecliptic.sim.simulate import MAX_DECISIONS, seed_stream
from ecliptic.sim.tournament import faction_names, seating

SWEEPS = ("advanced", "players", "comets")
Progress = Callable[[int, int], None]
"""Called after each game with (games done, games in all), resumed games included."""


@dataclass(frozen=True)
class Arm:
    """One variant of a study."""

    name: str
    label: str
    players: int
    config: Mapping[str, Any]
    """The game's config, ``players`` included."""
    content: ContentPack | None = None
    """An ``ecliptic.games.ContentPack``, or ``None`` for the packaged stand-ins."""

    def to_json(self) -> dict[str, Any]:
        content = None if self.content is None else {"folder": str(self.content.folder),
                                                     "digest": self.content.digest}
        return {"name": self.name, "label": self.label, "players": self.players, "config": dict(self.config),
                "content": content}


@dataclass(frozen=True)
class Study:
    """What to play: the same games on every arm."""

    game: str
    bots: tuple[str, ...]
    games: int
    seed: int
    arms: tuple[Arm, ...]
    sweep: str | None = None
    max_decisions: int = MAX_DECISIONS

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ValueError("a study plays at least one game per arm")
        if not self.bots:
            raise ValueError("name at least one bot")
        if not self.arms:
            raise ValueError("a study has at least one arm")
        names = [a.name for a in self.arms]
        if len(set(names)) != len(names):
            raise ValueError(f"two arms share a name: {names}")

    @property
    def total(self) -> int:
        return self.games * len(self.arms)

    def header(self) -> dict[str, Any]:
        """The study file's first line (the writer adds stream.FORMAT and the line's checksum)."""
        first = self.arms[0]
        from ecliptic import __version__

        return {"game": self.game, "players": first.players, "bots": list(self.bots), "seed": self.seed,
                "games": self.games, "sweep": self.sweep, "arms": [a.to_json() for a in self.arms],
                VERSION_KEY: __version__}

    def tasks(self) -> Iterator[GameTask]:
        """Every game of the study, in the order of the module text (drawn lazily)."""
        factions = faction_names(self.game)
        for index, seed in enumerate(islice(seed_stream(self.seed), self.games)):
            for arm in self.arms:
                seat = seating(index, self.bots, arm.players, factions)
                config = dict(arm.config)
                if seat.factions:
                    config["factions"] = list(seat.factions)
                yield GameTask(arm.name, index, seed, self.game, config, seat.bots, arm.content,
                               self.max_decisions)

    def check(self) -> None:
        """Fail before the first game on a bad bot text or a config the game refuses."""
        for spec in dict.fromkeys(self.bots):
            make_bot(spec, 0)
        game = get_game(self.game)
        for arm in self.arms:
            with using_content(arm.content):
                game.new_game(dict(arm.config), 0)


def base_arms(game: str, players: int, config: Mapping[str, Any], sweep: str | None) -> list[Arm]:
    """The arms of a sweep (or the one arm of no sweep) on the packaged content."""
    cfg = {**dict(config), "players": players}
    if sweep is None:
        return [Arm("base", "as configured", players, cfg)]
    if sweep not in SWEEPS:
        raise ValueError(f"unknown sweep {sweep!r}; sweeps: {', '.join(SWEEPS)}")
    if sweep == "players":
        return [Arm(f"players-{n}", f"{n} player{'s' if n > 1 else ''}", n, {**cfg, "players": n})
                for n in range(1, 5) if _valid(game, {**cfg, "players": n})]
    if sweep == "advanced":
        if game != "tauceti":
            raise ValueError("the advanced sweep is Tau Ceti's (its Advanced Rules); Ceres sweeps 'comets'")
        rules = [n for n in range(1, 21) if _valid(game, {**cfg, "advanced": [n]})]
        return ([Arm("advanced-off", "all Advanced Rules off", players, {**cfg, "advanced": []})]
                + [Arm(f"advanced-{n}", f"Advanced Rule {n} alone", players, {**cfg, "advanced": [n]})
                   for n in rules]
                + [Arm("advanced-all", "all Advanced Rules on", players, {**cfg, "advanced": rules})])
    if game != "ceres":
        raise ValueError("the comets sweep is Ceres's (its Comets expansion)")
    others = [e for e in cfg.get("expansions") or [] if e != "comets"]
    return [Arm("without-comets", "without Comets", players, {**cfg, "expansions": others}),
            Arm("with-comets", "with Comets", players, {**cfg, "expansions": [*others, "comets"]})]


def with_contents(arms: Sequence[Arm], packs: Sequence[ContentPack]) -> list[Arm]:
    """Every arm on the stand-ins, then the same arms on each content pack."""
    if not packs:
        return list(arms)
    out = [Arm(f"{a.name}@stand-ins", f"{a.label}, stand-in values", a.players, a.config) for a in arms]
    for pack in packs:
        tag = Path(str(pack.folder)).name or "content"
        out += [Arm(f"{a.name}@{tag}", f"{a.label}, {tag}", a.players, a.config, pack) for a in arms]
    return out


def _valid(game: str, config: Mapping[str, Any]) -> bool:
    """Whether the game accepts this config (the engine decides, not a list kept here)."""
    try:
        get_game(game).new_game(dict(config), 0)
    except (ValueError, TypeError):
        return False
    return True


@dataclass
class RunResult:
    """What a run did: the file, the games played now, the games found done, the seconds."""

    path: Path
    played: int
    resumed: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0


def run_study(study: Study, path: Path, *, resume: bool = False, backend: Any = None,
              progress: Progress | None = None) -> RunResult:
    """Play the study's games not yet in ``path`` and append their records (module text):
    :func:`open_study`, then :func:`play_study`.

    ``backend``: an ``ecliptic.sim.backends`` backend (``map(play, tasks, count)`` in task
    order), or ``None`` to play in this process. A Ctrl-C or a crash leaves the file with
    every game finished so far; ``resume=True`` continues it."""
    with open_study(study, path, resume=resume) as writer:
        return play_study(study, writer, backend=backend, progress=progress)


def open_study(study: Study, path: Path, *, resume: bool = False) -> StudyWriter:
    """The study file, ready for the games still to play: created, or (``resume``) checked
    record by record (:func:`_check_prefix`) and continued. Apart from :func:`play_study` so
    that a caller refuses a bad file or folder before it draws a progress bar or plays a game."""
    study.check()
    return StudyWriter(path, study.header(), resume=resume, check=partial(_check_prefix, study, path))


def play_study(study: Study, writer: StudyWriter, *, backend: Any = None,
               progress: Progress | None = None) -> RunResult:
    """Play the games after the ``writer.done`` already in its file, appending each record."""
    start = time.perf_counter()
    done = writer.done
    tasks = islice(study.tasks(), done, None)
    left = max(0, study.total - done)
    total = max(study.total, done)
    if progress is not None:
        progress(done, total)
    results = map(play_recorded, tasks) if backend is None else backend.map(play_recorded, tasks, left)
    for record in results:
        writer.write(record)
        if progress is not None:
            progress(writer.done, total)
    return RunResult(writer.path, writer.done - done, done, time.perf_counter() - start)


def _check_prefix(study: Study, path: Path, done: int) -> None:
    """The file's records must be the study's first ``done`` tasks, in order: a file whose lines
    were moved or written by another version is refused instead of being silently extended (an
    edited line is refused by its checksum as it is read, :mod:`ecliptic.balance.stream`). The
    last record's game is played again and must give the same record: a study resumed after a
    change to the rules (or the bots) would otherwise mix games of two versions."""
    if not done:
        return
    expected = study.tasks()
    last: tuple[dict[str, Any], GameTask, int] | None = None
    for number, record in enumerate(islice(read_study(path).records(), study.total), 2):
        task = next(expected)
        if (record["arm"], record["index"], record["seed"]) != (task.arm, task.index, task.seed):
            raise StudyFileError(f"{path}, line {number}: game {record['index']} of arm {record['arm']!r} is not "
                                 f"the study's next game (game {task.index} of arm {task.arm!r}); the file was "
                                 "changed or written by another version")
        last = record, task, number
    if last is not None and play_recorded(last[1]) != {k: v for k, v in last[0].items() if k != CHECKSUM}:
        raise StudyFileError(f"{path}, line {last[2]}: game {last[1].index} of arm {last[1].arm!r} plays "
                             "differently now than when it was recorded (the rules, the bots or the content "
                             "changed since): begin a new study in another folder")
