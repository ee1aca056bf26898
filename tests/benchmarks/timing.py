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

The medians are `Median` floats that keep their rounds. What a run measured goes into a
results file, one JSON line per run (date, machine, load at start and end, each figure with
its reference and their rounds), which `render.py` draws:

        args = parse(parser, argv, __file__)  # adds --results; --quick runs keep nothing
        record("micro_macro vs sklearn", "1e6 labels", ours, theirs, reference_name="sklearn", goal=40)
        return finish(0 if agree else 1)      # appends the run to results/bench_x.jsonl if it passed
"""

import atexit
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


class Median(float):
    """The median of timed rounds (seconds), keeping the rounds themselves in `.rounds`."""

    def __new__(cls, rounds):
        value = super().__new__(cls, statistics.median(rounds))
        value.rounds = list(rounds)
        return value


def timed(function, repeat, before=None):
    """(Median wall time of `repeat` calls of function(), the last result); before(), when
    given, runs untimed ahead of each call (e.g. to empty a cache)."""
    times = []
    for _ in range(repeat):
        if before:
            before()
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return Median(times), result


def interleaved(functions, repeat, before=None):
    """{name: (Median wall time, the last result)} of the named functions called in
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
    return {name: (Median(times[name]), results[name]) for name in functions}


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
_RUN = {"figures": [], "path": None}


def report_load():
    """Print the machine's load now and again when the script exits (once, however often
    it is called)."""
    if _REPORTING:
        return
    _REPORTING.append(True)
    _RUN["load_start"] = [round(x, 2) for x in os.getloadavg()]
    print(f"machine load at start: {machine_load()}", flush=True)
    atexit.register(lambda: print(f"machine load at end: {machine_load()}", flush=True))


# ---------------------------------------------------------------------------------------
# Results files


def parse(parser, argv, script):
    """parser.parse_args(argv), with --results added: the file this run's figures are
    appended to when it passes (default results/<script>.jsonl; a --quick run keeps nothing
    unless --results is given)."""
    parser.add_argument("--results", type=Path, help=f"append this run's figures to this JSON-lines file (default {RESULTS.name}/{Path(script).stem}.jsonl; none with --quick)")
    args = parser.parse_args(argv)
    _RUN["script"] = Path(script).name
    _RUN["path"] = args.results or (None if getattr(args, "quick", False) else RESULTS / f"{Path(script).stem}.jsonl")
    _RUN["argv"] = list(sys.argv[1:] if argv is None else argv)
    return args


def record(benchmark, size, paperscore, reference=None, *, reference_name="", unit="s", goal=None, target="", note=""):
    """Keep one figure of this run: `benchmark` (a stable name) at input `size`, paperscore's
    value and the reference's (Medians keep their rounds; memory and sizes in bytes, unit
    "B"). `goal` is the least reference / paperscore the target asks (40 for ">= 40x
    faster", 1 / 1.2 for "<= 1.2x the floor"); `target` says it in words."""
    _RUN["figures"].append({
        "benchmark": benchmark, "size": size, "unit": unit,
        "paperscore": _value(paperscore), "reference": _value(reference), "reference_name": reference_name,
        "goal": goal, "target": target, "note": note,
    })  # fmt: skip


def _value(value):
    if value is None:
        return None
    rounds = getattr(value, "rounds", None)
    short = lambda x: float(f"{x:.6g}")  # noqa: E731 (six digits: far below the rounds' spread)
    return {"median": short(value), "rounds": [short(x) for x in rounds]} if rounds else {"median": short(value)}


def machine():
    """What the figures were measured on: the CPU, its cores, the Python and numpy."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    import numpy

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {"cpu": cpu, "cores": cores, "python": platform.python_version(), "numpy": numpy.__version__, "system": platform.platform()}


def _commit():
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=Path(__file__).parent, capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else None


def finish(status):
    """Append this run to its results file (when it passed and recorded a figure); return
    `status`, the script's exit status."""
    path = _RUN["path"]
    if status == 0 and path and _RUN["figures"]:
        run = {
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "script": _RUN["script"], "argv": _RUN["argv"], "commit": _commit(), "machine": machine(),
            "load_start": _RUN.get("load_start"), "load_end": [round(x, 2) for x in os.getloadavg()],
            "figures": _RUN["figures"],
        }  # fmt: skip
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(run, ensure_ascii=False) + "\n")
        print(f"results appended to {path}", flush=True)
    return status
