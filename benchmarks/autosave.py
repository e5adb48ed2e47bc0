"""What keeping the terminal game's autosave current costs: one write after every applied action.

``python -m benchmarks.autosave [--games 3] [--data DIR]`` plays whole 4-player games of Tau Ceti
(full length) and of Ceres through the terminal session itself (:class:`ecliptic.cli.PlaySession`,
:func:`ecliptic.ui.ceres_terminal.ceres_session`): seat 0 is the "person", answering each decision
with a random menu number, the other seats random bots. Every write of the autosave
(:meth:`ecliptic.ui.session.Session.keep_autosave`: the state's digest, then
:func:`~ecliptic.ui.session.write_save`: JSON, a temporary file, ``fsync``, ``os.replace``, the
folder's ``fsync``) is timed by the wall clock, since most of it is waiting for the disk, not
computing. The saves are written in ``DIR`` (default: a new temporary folder, removed
afterwards): choose a folder on the disk that holds your data folder to measure that disk.

Printed per game: the actions, the person's decisions, the size of the last save, the time of one
write (median, mean, 95th percentile, largest; and the digest's share of the mean), and the
whole game's writes per decision of the person. Then, since a save holds the whole action log
and grows with the game, :func:`write_save` alone (no digest) of logs far longer than any game's
(``--long``, default 300, 3000, 30000 actions), to show where rewriting the whole file would
start to cost, with and without the folder's ``fsync`` (alternating). A measurement, not a test.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from ecliptic.bots import RandomBot
from ecliptic.engine.record import GameRecord
from ecliptic.ui import ceres_terminal
from ecliptic.ui.session import DATA_DIR_ENV, Session, write_save


@dataclass
class Writes:
    """The timed writes of one game."""

    game: str
    actions: int
    decisions: int
    save_bytes: int
    seconds: list[float]
    digest_seconds: list[float]

    def line(self) -> str:
        ms = sorted(1000 * s for s in self.seconds)
        p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
        mean = statistics.mean(ms)
        digest = 1000 * statistics.mean(self.digest_seconds)
        per_decision = sum(ms) / max(1, self.decisions)
        return (f"{self.game:8} {self.actions:5} actions, {self.decisions:4} decisions of the person, "
                f"last save {self.save_bytes / 1024:5.1f} KiB | one write: median {ms[len(ms) // 2]:5.2f} ms, "
                f"mean {mean:5.2f} ms (digest {digest:4.2f}), p95 {p95:5.2f} ms, max {ms[-1]:6.2f} ms | "
                f"{len(ms)} writes, {sum(ms) / 1000:5.2f} s in all, {per_decision:5.1f} ms per decision")


def timed(session: Session, digest_seconds: list[float], seconds: list[float]) -> None:
    """Time every autosave write of ``session`` (and the digest within it)."""
    keep, current = session.keep_autosave, session.current_record

    def current_record() -> GameRecord:
        start = time.perf_counter()
        try:
            return current()
        finally:
            digest_seconds.append(time.perf_counter() - start)

    def keep_autosave() -> None:
        start = time.perf_counter()
        keep()
        seconds.append(time.perf_counter() - start)

    session.current_record = current_record  # type: ignore[method-assign]
    session.keep_autosave = keep_autosave  # type: ignore[method-assign]


def random_person(rng: random.Random, holder: list[Session], decisions: list[int]) -> Any:
    """The person at seat 0: a random menu number at every decision."""

    def read(_prompt: str) -> str:
        s = holder[0]
        decisions[0] += 1
        return str(rng.randrange(len(s.game.legal_actions(s.state))) + 1)

    return read


def play(game: str, seed: int) -> Writes:
    console = Console(file=io.StringIO(), width=200, color_system=None)
    rng, decisions = random.Random(seed), [0]
    holder: list[Session] = []
    read = random_person(rng, holder, decisions)
    session: Session
    if game == "ceres":
        session = ceres_terminal.ceres_session(console, read, seed=seed, players=4, echo=False)
    else:
        from ecliptic.cli import PlaySession
        from ecliptic.tauceti.game import TauCeti

        config = {"players": 4, "game": "full", "layout": "players", "advanced": []}
        rules = TauCeti()
        session = PlaySession(rules, rules.new_game(config, seed), GameRecord("tauceti", config, seed),
                              0, {s: RandomBot(seed * 10 + s) for s in (1, 2, 3)}, ["random"] * 3, console, read)
    holder.append(session)
    seconds: list[float] = []
    digests: list[float] = []
    timed(session, digests, seconds)
    last_size = [0]
    drop = session._drop_autosave

    def measure_then_drop() -> None:  # the finished game's autosave is removed: measure it first
        if session.autosave is not None and session.autosave.exists():
            last_size[0] = session.autosave.stat().st_size
        drop()

    session._drop_autosave = measure_then_drop  # type: ignore[method-assign]
    code = session.run()
    if code != 0 or not session.state.is_over:
        raise SystemExit(f"the {game} game did not end normally (exit code {code})")
    return Writes(game, len(session.record.actions), decisions[0], last_size[0], seconds, digests)


def long_logs(lengths: list[int], repeats: int = 21) -> None:
    """The median time of :func:`write_save` of a Tau Ceti record of each length (its actions
    a real game's, repeated), into the autosave folder; and, alternating with it so that both
    meet the same load, the same write without the folder's ``fsync`` after the rename (what
    that sync costs)."""
    from ecliptic.engine import durable
    from ecliptic.ui.session import autosave_dir

    actions = [f"BUY algae {1 + i % 4}" if i % 2 else "END" for i in range(max(lengths))]
    folder = autosave_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "long-log-benchmark.json"
    sync = durable.sync_folder
    try:
        for n in lengths:
            record = GameRecord("tauceti", {"players": 4}, 1, actions[:n], digest="0" * 64)
            times: dict[bool, list[float]] = {True: [], False: []}
            for _ in range(repeats):
                for synced in (True, False):
                    durable.sync_folder = sync if synced else lambda folder: None
                    start = time.perf_counter()
                    write_save(path, record, {"human_seat": 0, "bots": ["random"] * 3})
                    times[synced].append(time.perf_counter() - start)
            durable.sync_folder = sync
            print(f"write_save of {n:6} actions ({path.stat().st_size / 1024:7.1f} KiB): median "
                  f"{1000 * statistics.median(times[True]):6.2f} ms; without the folder's fsync "
                  f"{1000 * statistics.median(times[False]):6.2f} ms", flush=True)
    finally:
        durable.sync_folder = sync
        path.unlink(missing_ok=True)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games of each (seeds 1, 2, ...)")
    parser.add_argument("--data", type=Path, help="the data folder to write the saves in (default: a temporary one)")
    parser.add_argument("--long", type=int, nargs="*", default=[300, 3000, 30000], help="lengths of the long logs")
    args = parser.parse_args(argv)
    folder = args.data or Path(tempfile.mkdtemp(prefix="ecliptic-autosave-"))
    os.environ[DATA_DIR_ENV] = str(folder)
    print(f"writing in {folder}")
    try:
        for game in ("tauceti", "ceres"):
            for seed in range(1, args.games + 1):
                print(play(game, seed).line(), flush=True)
        long_logs(args.long)
    finally:
        if args.data is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])
