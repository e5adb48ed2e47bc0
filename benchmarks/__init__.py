"""Benchmarks of the Ecliptic engine, with their baselines measured in the same run.

``ecliptic bench`` runs :func:`benchmarks.suite.run` and prints its figures; the slower
measurements have their own modules and command-line entries:

* :mod:`benchmarks.suite` — Tau Ceti random playouts, ``clone()``, state and record sizes,
  python-chess and OpenSpiel baselines, and the ratios between them;
* :mod:`benchmarks.memory` — resident memory over thousands of simulated games
  (``ecliptic bench --memory`` or ``python -m benchmarks.memory``);
* :mod:`benchmarks.parallel` — ``simulate`` with 1 and W worker processes: equal results,
  and the speed-up (``ecliptic bench --parallel`` or ``python -m benchmarks.parallel``);
* :mod:`benchmarks.profiling` — a pyinstrument profile of random playouts
  (``python -m benchmarks.profiling``).
* :mod:`benchmarks.aec` — PettingZoo AEC steps/s (tensor, mask and step) of both games beside
  PettingZoo's ``chess_v6`` and OpenSpiel's games (``ecliptic bench --aec``, docs/adapters.md);
* :mod:`benchmarks.observation` — the observation tensor's cost against ``observe`` and the
  engine's step (docs/observation.md);
* :mod:`benchmarks.ismcts_h2h` — OpenSpiel's ISMCTS against Ecliptic's (docs/bots.md);
* ``benchmarks.bots`` — the bots' thinking time (its own module text, docs/bots.md).

Every figure is a measurement, never an assertion: times depend on the machine, so nothing
here fails because the engine is slow. docs/performance.md has the figures and their history.
The baselines' packages are optional (the ``bench`` extra); a missing one is reported as
unavailable, not as an error.
"""
