"""Paired significance benchmark: 1,000 paired-bootstrap resamples (and approximate
randomization shuffles) over 100,000 CSC sentences and over 1e6 classification labels,
against re-running the metric on each resample (timed on a few, then scaled to 1,000).

    python tests/benchmarks/bench_compare.py          # full sizes
    python tests/benchmarks/bench_compare.py --quick  # small sizes, to check it runs

Data: the csc_sighan benchmark's SIGHAN15 corpus replicated to 100,100 sentences, with two
synthetic systems (its generator, two seeds); micro_macro's benchmark labels (1e6, 34
classes, NA 60%), system B a revision of A that changes 5% of its labels.
Target: each comparison (statistics included) <= 1 s.
Exit status 1 when the vectorised and re-run differences disagree.
"""

import argparse
import sys
from pathlib import Path

import numpy as np

BENCHMARKS = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCHMARKS.parents[1] / "shared"))
sys.path.insert(0, str(BENCHMARKS))

from bench_csc_sighan import corpus  # noqa: E402
from bench_micro_macro import labels  # noqa: E402
from timing import Median, finish, interleaved, parse, record, report_load  # noqa: E402

from paperscore import csc_sighan, micro_macro  # noqa: E402
from paperscore.compare import compare  # noqa: E402


def spelling(copies):
    sources, system_a, references = corpus(copies, seed=0)
    _, system_b, _ = corpus(copies, seed=1)
    return "csc_sighan", csc_sighan.compute, "correction_f1", references, system_a, system_b, {"sources": sources}


def classification(n):
    system_a, references = labels(n)
    rng = np.random.default_rng(7)
    revised = rng.random(n) < 0.05
    system_b = np.where(revised, np.where(rng.random(n) < 0.8, references, rng.integers(0, 34, n)), system_a)
    return "micro_macro", micro_macro.compute, "micro_f1", references, system_a, system_b, {"negative_labels": [0]}


def rerun(compute, key, references, system_a, system_b, options, resamples, seed=0):
    """The straightforward way: draw examples, re-run the metric on both systems."""
    rng = np.random.default_rng(seed)
    n = len(references)
    deltas = []
    for _ in range(resamples):
        index = rng.integers(0, n, n)
        pick = (lambda values: [values[i] for i in index]) if isinstance(references, list) else (lambda values: values[index])
        extra = {name: pick(value) for name, value in options.items() if name == "sources"}
        fixed = {name: value for name, value in options.items() if name != "sources"}
        scores = [compute(pick(system), pick(references), **extra, **fixed)[key] for system in (system_a, system_b)]
        deltas.append(scores[1] - scores[0])
    return np.array(deltas)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: check that it runs")
    args = parse(parser, argv, __file__)
    copies, n_labels, slow = (5, 20_000, 3) if args.quick else (91, 1_000_000, 5)
    agree = True
    report_load()
    for name, compute, key, references, system_a, system_b, options in (spelling(copies), classification(n_labels)):
        print(f"{name}: {len(references):,} examples, 1,000 resamples, {key} (alternating rounds, medians)")
        observed = compute(system_b, references, **options)[key] - compute(system_a, references, **options)[key]
        functions = {method: (lambda method=method: compare(name, references, system_a, system_b, method=method, seed=0, **options)) for method in ("bootstrap", "randomization")}
        functions["rerun"] = lambda: rerun(compute, key, references, system_a, system_b, options, slow)
        times = interleaved(functions, {"bootstrap": 3, "randomization": 3, "rerun": 1 if args.quick else 3})
        for method in ("bootstrap", "randomization"):
            seconds, result = times[method]
            agree &= abs(observed - result["difference"]) <= 1e-12
            interval = f"[{result['difference_low']:+.4f}, {result['difference_high']:+.4f}]"
            print(f"  {method:<14} {seconds:7.3f} s   difference {result['difference']:+.4f} {interval}  p = {result['p_value']:.4f}   (target <= 1 s)")
        per_resample, deltas = times["rerun"][0] / slow, times["rerun"][1]
        rerun_1000 = Median([seconds * 1000 / slow for seconds in times["rerun"][0].rounds])  # timed on `slow` resamples
        for method in ("bootstrap", "randomization"):
            record(f"compare, {name}, {method} vs re-running the metric", f"{len(references):,} examples", times[method][0], rerun_1000, reference_name=f"the metric re-run per resample (timed on {slow}, scaled to 1,000)", target="<= 1 s")
        print(f"  re-running the metric per resample: {per_resample * 1000:7.1f} s for 1,000 (timed on {slow})   ratio {per_resample * 1000 / times['bootstrap'][0]:,.0f}x the bootstrap")
        print(f"  its resampled differences: mean {deltas.mean():+.4f}, inside the interval above")
    return finish(0 if agree else 1)


if __name__ == "__main__":
    raise SystemExit(main())
