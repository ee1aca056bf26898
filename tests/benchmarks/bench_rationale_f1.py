"""rationale_f1 benchmark: paperscore against a straightforward per-example Python
implementation (tests/rationale_naive.py: plain loops, ERASER's sets of positions,
sklearn's precision_recall_curve + auc per example), on soft scores as a Trainer passes
them. Prints the times, the ratios and whether the results agree.

    python tests/benchmarks/bench_rationale_f1.py          # 10,000 examples x 100 tokens
    python tests/benchmarks/bench_rationale_f1.py --quick  # 500 examples, to check it runs

Data: 2-D arrays of 100 positions, 60 to 100 of them scored (the rest -100 in both, as
the Trainer pads); gold rationales of 1 to 3 spans of 2 to 12 tokens; soft scores that
rise over the gold spans, with smoothed noise, so selections come in runs too.
Targets: every number but auprc in <= 50 ms; auprc included in <= 0.5 s.
"""

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "tests")]

from paperscore.rationale import compute  # noqa: E402
from rationale_naive import numbers, unpad  # noqa: E402
from timing import timed  # noqa: E402


def corpus(n, width=100, seed=0):
    rng = np.random.default_rng(seed)
    lengths = rng.integers(60, width + 1, n)
    gold = np.zeros((n, width), dtype=np.int64)
    for i, length in enumerate(lengths):
        for _ in range(rng.integers(1, 4)):
            size = rng.integers(2, 13)
            start = rng.integers(0, length - size)
            gold[i, start : start + size] = 1
    noise = rng.normal(size=(n, width + 2))
    smooth = (noise[:, :-2] + noise[:, 1:-1] + noise[:, 2:]) / 3
    scores = 1 / (1 + np.exp(-(3.0 * gold - 1.6 + 2.0 * smooth)))
    padding = np.arange(width)[None, :] >= lengths[:, None]
    return np.where(padding, -100.0, scores), np.where(padding, -100, gold)



def gap(ours, theirs):
    return max(abs(ours[key] - theirs[key]) for key in theirs)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="500 examples: check that it runs")
    args = parser.parse_args(argv)
    n, repeat = (500, 3) if args.quick else (10_000, 15)

    scores, gold = corpus(n)
    score_lists, gold_lists = scores.tolist(), gold.tolist()
    compute(scores[:10], gold[:10], auprc=True)  # warm up

    fast, without = timed(lambda: compute(scores, gold, auprc=False), repeat)
    fast_all, with_auprc = timed(lambda: compute(scores, gold), repeat)
    from_lists, listed = timed(lambda: compute(score_lists, gold_lists), max(3, repeat // 3))
    slow, plain = timed(lambda: numbers(unpad(score_lists, gold_lists)), 1)
    slow_all, plain_all = timed(lambda: numbers(unpad(score_lists, gold_lists), with_auprc=True), 1)

    differences = [gap(without, plain), gap(with_auprc, plain_all), gap(listed, plain_all)]
    tokens = int((gold != -100).sum())
    print(f"rationale_f1, {n:,} examples x 100 positions ({tokens:,} scored tokens), soft scores, 2-D arrays with -100 padding")
    print(f"  every number but auprc   paperscore {fast * 1e3:8.1f} ms   plain Python {slow * 1e3:9.1f} ms   ratio {slow / fast:7.1f}x   (target <= 50 ms)")
    print(f"  auprc included           paperscore {fast_all * 1e3:8.1f} ms   plain Python {slow_all * 1e3:9.1f} ms   ratio {slow_all / fast_all:7.1f}x   (target <= 500 ms; sklearn per example)")
    print(f"  auprc included, from Python lists   {from_lists * 1e3:8.1f} ms")
    print(f"  max |difference| from the plain implementation: {max(differences):.1e}")
    return 0 if max(differences) <= 1e-12 else 1


if __name__ == "__main__":
    raise SystemExit(main())
