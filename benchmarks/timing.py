"""Timing helpers shared by the benchmarks: CPU time of this process, best of N repeats.

Rates are operations per second of this process's CPU time (:func:`time.process_time`): the
benchmarks run on one core, and on a machine shared with other work the wall clock would also
count the time other processes held the core. Each measurement is repeated, and the fastest
repeat is kept, as :mod:`timeit` recommends: the slower ones measure interference, not code.
The suite interleaves the repeats of its measurements (ours, then the baselines, then ours
again), so a burst of interference does not favour one side of a ratio.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

cpu_clock = time.process_time
"""The clock of every rate: CPU seconds of this process."""


def rate(work: Callable[[], int]) -> float:
    """Run ``work`` once (it returns how many operations it did); operations per CPU second."""
    start = cpu_clock()
    done = work()
    elapsed = cpu_clock() - start
    return done / elapsed if elapsed > 0 else 0.0


def resident_bytes() -> int:
    """This process's resident memory now (Linux ``/proc``; elsewhere the peak so far)."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource  # not on Windows, where /proc is missing too

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024
