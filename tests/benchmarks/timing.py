"""What the benchmark scripts share: timing a call the same way everywhere.

A benchmark times paperscore and its reference in alternating rounds (A, B, A, B, ...) and
compares medians, so that a shared machine whose speed drifts during the run weighs on
both alike; it prints the machine's load when it starts and when it ends, so that a
reader can tell a quiet run from a busy one:

    from timing import command, interleaved, report_load

    def main(argv=None):
        report_load()  # "machine load at start: ..." now, "... at end: ..." at exit
        times = interleaved({"paperscore": lambda: compute(p, r), "sklearn": with_sklearn}, repeat)
        ours, result = times["paperscore"]  # (median seconds, the last call's result)
        theirs, expected = times["sklearn"]
        print(f"ratio {theirs / ours:.1f}x")

`command(argv)` makes a whole process one of the timed functions (its result is stdout).
`timed()` (one function, median of `repeat` calls) is kept for the scripts that use it;
`traced_peak(function)` is the memory one call holds at most beyond what exists before it.
"""

import atexit
import os
import statistics
import subprocess
import time
import tracemalloc
from pathlib import Path


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


def interleaved(functions, repeat, before=None):
    """{name: (median wall time, the last result)} of the named functions called in
    alternating rounds: each round calls every function once, in the order given.

    `repeat` is the number of rounds, or {name: rounds} when a slow reference is called
    fewer times (a function then sits out the rounds after its own count; every name
    needs a count of at least 1). before(), when given, runs untimed ahead of every call."""
    counts = repeat if isinstance(repeat, dict) else dict.fromkeys(functions, repeat)
    if set(counts) != set(functions) or min(counts.values(), default=0) < 1:
        raise ValueError(f"repeat: give every function ({', '.join(functions)}) at least 1 round, got {repeat!r}")
    times, results = {name: [] for name in functions}, {}
    for round_number in range(max(counts.values())):
        for name, function in functions.items():
            if round_number >= counts[name]:
                continue
            if before:
                before()
            start = time.perf_counter()
            results[name] = function()
            times[name].append(time.perf_counter() - start)
    return {name: (statistics.median(times[name]), results[name]) for name in functions}


def traced_peak(function):
    """The most memory function() holds at once beyond what exists before it (tracemalloc,
    which numpy reports its arrays to), in bytes; an untimed call of its own."""
    tracemalloc.start()
    function()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def command(argv, **kwargs):
    """A function that runs `argv` as a process and returns its stdout, for interleaved();
    a failing process stops the benchmark with its error output."""

    def run():
        done = subprocess.run(argv, capture_output=True, text=True, **kwargs)
        if done.returncode:
            raise SystemExit(f"{' '.join(map(str, argv[:4]))} ... failed (exit {done.returncode}): {done.stderr[-2000:]}")
        return done.stdout

    return run


def machine_load():
    """The machine's load averages over 1, 5 and 15 minutes and its usable cores, as a line."""
    one, five, fifteen = os.getloadavg()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {cores} cores (nproc)"


FLOOR_SCRIPT = '''
import datasets
import evaluate


class Floor(evaluate.Metric):
    """The framework's floor: a Space's features, a _compute that does nothing."""

    def _info(self):
        return evaluate.MetricInfo(description="", citation="", inputs_description="", features={features})

    def _compute(self, predictions, references):
        return {{"n": len(predictions)}}
'''


def evaluate_floor(folder, features):
    """evaluate.load of a no-op metric with `features` (Python source, datasets imported),
    written under `folder`: what a Space's compute() costs in evaluate alone."""
    import evaluate

    path = Path(folder) / "floor"
    path.mkdir()
    (path / "floor.py").write_text(FLOOR_SCRIPT.format(features=features))
    return evaluate.load(str(path), keep_in_memory=True)


_REPORTING = []


def report_load():
    """Print the machine's load now and again when the script exits (once, however often
    it is called)."""
    if _REPORTING:
        return
    _REPORTING.append(True)
    print(f"machine load at start: {machine_load()}", flush=True)
    atexit.register(lambda: print(f"machine load at end: {machine_load()}", flush=True))
