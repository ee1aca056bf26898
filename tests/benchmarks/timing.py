"""What the benchmark scripts share: timing a call the same way everywhere."""

import statistics
import time


def timed(function, repeat, before=None):
    """(median wall time of `repeat` calls of function(), the last result); before(), when
    given, runs untimed ahead of each call (e.g. to empty a cache)."""
    times = []
    for _ in range(repeat):
        if before:
            before()
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result
