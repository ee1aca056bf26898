"""Every benchmark script runs in its --quick mode and agrees with its reference (exit 0).
The timing targets themselves are checked by running the scripts in full (README)."""

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = sorted((Path(__file__).parent / "benchmarks").glob("bench_*.py"))


@pytest.mark.parametrize("script", BENCHMARKS, ids=[p.stem for p in BENCHMARKS])
def test_benchmark_runs_and_agrees_with_its_reference(script):
    done = subprocess.run([sys.executable, str(script), "--quick"], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "ratio" in done.stdout
