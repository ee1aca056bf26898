"""Every benchmark script runs in its --quick mode and agrees with its reference (exit 0),
printing the machine's load first and last (so that a reader can weigh its figures).
The timing targets themselves are checked by running the scripts in full (README).
The shared timing helpers (tests/benchmarks/timing.py) alternate their rounds and take
medians as they say, on a fake clock."""

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = sorted((Path(__file__).parent / "benchmarks").glob("bench_*.py"))
sys.path.insert(0, str(Path(__file__).parent / "benchmarks"))
import timing  # noqa: E402


@pytest.mark.parametrize("script", BENCHMARKS, ids=[p.stem for p in BENCHMARKS])
def test_benchmark_runs_and_agrees_with_its_reference(script, tmp_path):
    """... and writes its run to the results file it is given (date, machine, load at start
    and end, every figure with the rounds it is the median of)."""
    results = tmp_path / "run.jsonl"
    done = subprocess.run([sys.executable, str(script), "--quick", "--results", str(results)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "ratio" in done.stdout
    lines = done.stdout.splitlines()
    assert lines[0].startswith("machine load at start: load average "), lines[0]
    assert lines[-1].startswith("machine load at end: load average "), lines[-1]
    [run] = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]
    assert run["date"] and run["script"] == script.name and run["argv"][0] == "--quick"
    assert {"cpu", "cores", "python", "numpy"} <= set(run["machine"]) and len(run["load_start"]) == len(run["load_end"]) == 3
    timed = [f for f in run["figures"] if f["unit"] == "s" and f["paperscore"].get("rounds")]
    assert timed, run["figures"]
    for figure in timed:
        assert min(figure["paperscore"]["rounds"]) <= figure["paperscore"]["median"] <= max(figure["paperscore"]["rounds"]), figure


def test_a_quick_run_keeps_nothing_unless_told(tmp_path, monkeypatch):
    def parsed(argv):
        parser = argparse.ArgumentParser()
        parser.add_argument("--quick", action="store_true")
        return timing.parse(parser, argv, "bench_x.py")

    monkeypatch.setattr(timing, "_RUN", {"figures": []})
    parsed([])
    assert timing._RUN["path"] == timing.RESULTS / "bench_x.jsonl"  # a full run: the script's own file
    parsed(["--quick"])
    timing.record("b", "n", timing.Median([1.0, 3.0]))
    assert timing._RUN["path"] is None and timing.finish(0) == 0  # nothing written anywhere
    parsed(["--quick", "--results", str(tmp_path / "r.jsonl")])
    assert timing.finish(1) == 1 and not (tmp_path / "r.jsonl").exists()  # a failed run is not a measurement
    assert timing.finish(0) == 0
    [figure] = json.loads((tmp_path / "r.jsonl").read_text())["figures"]
    assert figure["paperscore"] == {"median": 2.0, "rounds": [1.0, 3.0]}


class FakeClock:
    """time.perf_counter for timing.py: each timed function advances it by its own cost."""

    def __init__(self):
        self.now, self.calls = 0.0, []

    def __call__(self):
        return self.now

    def costs(self, name, seconds):
        seconds = iter(seconds)

        def function():
            self.calls.append(name)
            self.now += next(seconds)
            return f"{name} {len(self.calls)}"

        return function


def test_interleaved_alternates_rounds_and_takes_medians(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(timing.time, "perf_counter", clock)
    emptied = []
    functions = {"ours": clock.costs("ours", [1, 5, 2]), "theirs": clock.costs("theirs", [30, 10, 20])}
    got = timing.interleaved(functions, 3, before=lambda: emptied.append(len(clock.calls)))
    assert clock.calls == ["ours", "theirs"] * 3
    assert emptied == [0, 1, 2, 3, 4, 5]  # before() ran ahead of every call, untimed
    # medians of (1, 5, 2) and (30, 10, 20); the results of each one's last call (5th, 6th)
    assert got == {"ours": (2, "ours 5"), "theirs": (20, "theirs 6")}


def test_interleaved_lets_a_slow_reference_sit_out_later_rounds(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(timing.time, "perf_counter", clock)
    functions = {"ours": clock.costs("ours", [1, 4, 3, 2]), "theirs": clock.costs("theirs", [50, 70])}
    got = timing.interleaved(functions, {"ours": 4, "theirs": 2})
    assert clock.calls == ["ours", "theirs", "ours", "theirs", "ours", "ours"]
    assert got == {"ours": (2.5, "ours 6"), "theirs": (60, "theirs 4")}  # median of 1,2,3,4 is 2.5
    for repeat in (0, {"ours": 2}, {"ours": 2, "theirs": 0}):
        with pytest.raises(ValueError, match="repeat: give every function"):
            timing.interleaved(functions, repeat)


def test_timed_keeps_its_api(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(timing.time, "perf_counter", clock)
    assert timing.timed(clock.costs("one", [3, 1, 2]), 3) == (2, "one 3")


def test_command_returns_stdout_and_stops_on_failure():
    assert timing.command([sys.executable, "-c", "print('out')"])() == "out\n"
    with pytest.raises(SystemExit, match=r"exit 3\): err"):
        timing.command([sys.executable, "-c", "import sys; sys.stderr.write('err'); sys.exit(3)"])()


def test_the_load_is_printed_at_start_and_at_exit():
    code = "import sys; sys.path.insert(0, sys.argv[1]); import timing; timing.report_load(); timing.report_load(); print('work')"
    done = subprocess.run([sys.executable, "-c", code, str(Path(timing.__file__).parent)], capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["machine load at start", "work", "machine load at end"]
    nproc = subprocess.run(["nproc"], capture_output=True, text=True, check=True).stdout.strip()
    assert all(line.endswith(f"on {nproc} cores (nproc)") and "load average " in line for line in (lines[0], lines[2]))
