"""Where the time of the random playouts ``ecliptic bench`` times goes: a pyinstrument profile,
and what each verb costs in the ``turn`` decision.

Run: ``python -m benchmarks.profiling [GAMES]`` (pyinstrument is in the ``bench`` extra) for the
profile; ``python -m benchmarks.profiling --verbs [GAMES]`` for the verbs' table. Profile before
optimizing, and again after: docs/performance.md quotes both.

The verbs' table: two thirds of all decisions are ``turn`` decisions, whose legal actions are
asked of every open verb in turn (``flow._turn_legal``). The same seeded games as the benchmark's
are played, and at each ``turn`` decision each open verb's ``legal`` is timed on the state as
the playout leaves it (in cache, as in a playout); the best of three runs is kept, verb by verb.
A verb's cost is in µs per turn decision (over all of them, open or not), with the options it
offered and the legal actions it gave per turn decision.
"""

from __future__ import annotations

import importlib
import random
import sys
import time
from dataclasses import dataclass

from benchmarks import tauceti
from ecliptic.tauceti import flow
from ecliptic.tauceti.game import TauCeti


@dataclass(frozen=True)
class VerbCost:
    verb: str
    us_per_turn: float
    options_per_turn: float
    legal_per_turn: float


def verb_costs(games: int, repeats: int = 3) -> tuple[int, list[VerbCost]]:
    """The turn decisions of ``games`` benchmark games, and each verb's cost in them (most
    expensive first)."""
    game = TauCeti()
    clock = time.perf_counter
    best: dict[str, float] = {}
    options: dict[str, int] = {}
    legal: dict[str, int] = {}
    turns = 0
    for repeat in range(repeats):
        spent: dict[str, float] = {}
        for seed in range(games):
            state = game.new_game(tauceti.CONFIG, seed)
            rng = random.Random(seed ^ tauceti._CHOICE_SALT)  # the same choices as the benchmark
            while not state.is_over:
                d = state.stack[-1]
                if d.kind == "turn":
                    for v in flow._open_verbs(state, d):
                        t0 = clock()
                        found = list(v.legal(state, d.player))
                        spent[v.verb] = spent.get(v.verb, 0.0) + clock() - t0
                        if repeat == 0:
                            options[v.verb] = options.get(v.verb, 0) + len(list(v.options(state, d.player)))
                            legal[v.verb] = legal.get(v.verb, 0) + len(found)
                    turns += repeat == 0
                actions = game.legal_actions(state)
                game.apply(state, actions[rng.randrange(len(actions))])
        for verb, seconds in spent.items():
            best[verb] = min(best.get(verb, seconds), seconds)
    costs = [VerbCost(v, best[v] / turns * 1e6, options[v] / turns, legal[v] / turns) for v in best]
    return turns, sorted(costs, key=lambda c: -c.us_per_turn)


def print_verb_costs(games: int) -> None:
    turns, costs = verb_costs(games)
    print(f"{turns} turn decisions in {games} games; the verbs' legal actions: "
          f"{sum(c.us_per_turn for c in costs):.1f} µs per turn decision")
    print(f"{'verb':<12} {'µs/turn':>8} {'options/turn':>13} {'legal/turn':>11}")
    for c in costs:
        print(f"{c.verb:<12} {c.us_per_turn:8.2f} {c.options_per_turn:13.2f} {c.legal_per_turn:11.2f}")


def main(argv: list[str]) -> None:
    verbs = "--verbs" in argv
    numbers = [a for a in argv if a != "--verbs"]
    games = int(numbers[0]) if numbers else (12 if verbs else 20)
    tauceti.mid_game_state()  # load the content and warm the code paths outside the measures
    if verbs:
        print_verb_costs(games)
        return
    try:
        pyinstrument = importlib.import_module("pyinstrument")
    except ImportError:
        sys.exit("pyinstrument is not installed: pip install -e '.[bench]'")
    profiler = pyinstrument.Profiler(interval=0.0002)
    profiler.start()
    tauceti.playouts(games)
    profiler.stop()
    print(profiler.output_text(unicode=True, color=False, show_all=False))


if __name__ == "__main__":
    main(sys.argv[1:])
