"""A pyinstrument profile of the random playouts ``ecliptic bench`` times: where the time goes.

Run: ``python -m benchmarks.profiling [GAMES]`` (pyinstrument is in the ``bench`` extra). Profile
before optimizing, and again after: docs/performance.md quotes these profiles.
"""

from __future__ import annotations

import importlib
import sys

from benchmarks import tauceti


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 20
    try:
        pyinstrument = importlib.import_module("pyinstrument")
    except ImportError:
        sys.exit("pyinstrument is not installed: pip install -e '.[bench]'")
    tauceti.mid_game_state()  # load the content and warm the code paths outside the profile
    profiler = pyinstrument.Profiler(interval=0.0002)
    profiler.start()
    tauceti.playouts(games)
    profiler.stop()
    print(profiler.output_text(unicode=True, color=False, show_all=False))


if __name__ == "__main__":
    main(sys.argv[1:])
