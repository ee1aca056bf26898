"""Significance tables benchmark: 10 systems x 5 seeds over 1e6 labels (34 classes, one
label per example, NA 60%), 1,000 bootstrap resamples, the systems' runs erring
independently (each run right with its own probability, else a uniform label), against
today's compare.paired_test for one pair of such runs, timed in the same run.

    python tests/benchmarks/bench_significance.py          # full sizes
    python tests/benchmarks/bench_significance.py --quick  # small sizes, to check it runs

What is resampled: the 1e6 examples with replacement, the same resamples for all 50 runs
(and each system's 5 runs with replacement: the two-level bootstrap). The statistics are
micro_macro's one-label rows (per scored class tp, predicted and gold flags, then correct
and total), built here so that the benchmark does not depend on a family's interface.
Target: the whole table (statistics given) in under a minute. CPU seconds are printed
beside the wall time: on a shared machine the wall time follows the load.
Exit status 1 when the table's differences or its two-system case disagree with their
references (paired_test to the last bit; the mean over seeds of each run's F1 from the labels).
"""

import argparse
import resource
import sys
import time
from pathlib import Path

import numpy as np

BENCHMARKS = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCHMARKS.parents[1] / "shared"))
sys.path.insert(0, str(BENCHMARKS))

from bench_micro_macro import labels  # noqa: E402
from timing import finish, interleaved, parse, record, report_load  # noqa: E402

from paperscore.compare import paired_test  # noqa: E402
from paperscore.significance import compare_systems  # noqa: E402


def confusion_table(k):
    """The rows of a one-label example in each confusion cell ref * k + pred: for classes
    1..k-1 (class 0 is the negative one) tp, predicted and gold flags, then correct and total."""
    ref, pred = np.divmod(np.arange(k * k), k)
    table, rows = np.zeros((k * k, 3 * (k - 1) + 2)), np.arange(k * k)
    for offset, classes, where in ((0, ref, (ref == pred) & (ref > 0)), (k - 1, pred, pred > 0), (2 * (k - 1), ref, ref > 0)):
        table[rows[where], offset + classes[where] - 1] = 1
    table[:, -2], table[:, -1] = ref == pred, 1
    return table


def micro_reduce(weights, table):
    """micro F1 (2 tp / (predicted + gold), 0 for 0/0) and accuracy of example weights over the table."""
    sums = np.asarray(weights, dtype=float) @ table
    width = (table.shape[1] - 2) // 3
    tp, predicted, gold = (sums[:, i * width : (i + 1) * width].sum(axis=1) for i in range(3))
    both = predicted + gold
    return {"micro_f1": np.where(both > 0, 2 * tp / np.where(both > 0, both, 1), 0.0), "accuracy": sums[:, -2] / sums[:, -1]}


def micro_f1(references, predictions):
    """The same micro F1 from the labels themselves."""
    tp = np.sum((references == predictions) & (references > 0))
    both = np.sum(predictions > 0) + np.sum(references > 0)
    return 2 * tp / both if both else 0.0


def runs(references, n_systems, seeds, k=34, seed=1):
    """Each system's runs' predictions: right with probability 0.70 + 0.01 x system, else a
    uniform label, independently for every run."""
    rng = np.random.default_rng(seed)
    n = len(references)
    return {f"S{s}": [np.where(rng.random(n) < 0.70 + 0.01 * s, references, rng.integers(0, k, n)) for _ in range(seeds)] for s in range(n_systems)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: check that it runs")
    args = parse(parser, argv, __file__)
    n, n_systems, seeds, resamples = (20_000, 3, 2, 200) if args.quick else (1_000_000, 10, 5, 1000)
    report_load()
    k = 34
    _, references = labels(n)
    predictions = runs(references, n_systems, seeds, k)
    table = confusion_table(k)
    systems = {name: [(table, references * k + own) for own in preds] for name, preds in predictions.items()}
    pair = {name: systems[name][:1] for name in ("S0", "S1")}
    print(f"{n_systems} systems x {seeds} seeds, {n:,} labels ({k} classes), {resamples:,} resamples, micro_f1")

    def table_of_all():
        start = time.process_time()
        return compare_systems(systems, micro_reduce, "micro_f1", n_resamples=resamples, seed=0), time.process_time() - start

    functions = {
        "table": table_of_all,
        "pair": lambda: compare_systems(pair, micro_reduce, "micro_f1", n_resamples=resamples, seed=0),
        "paired_test": lambda: paired_test(*pair["S0"][0], *pair["S1"][0], micro_reduce, "micro_f1", n_resamples=resamples, seed=0),
    }
    times = interleaved(functions, 1)
    (seconds, (result, cpu)), (pair_seconds, two), (reference, expected) = times["table"], times["pair"], times["paired_test"]
    agree = all(two["comparisons"][0][key] == expected[key] for key in ("difference", "difference_low", "difference_high", "p_value"))
    for comparison, own in zip(result["comparisons"], list(predictions.values())[1:]):
        direct = np.mean([micro_f1(references, p) for p in own]) - np.mean([micro_f1(references, p) for p in predictions["S0"]])
        agree &= abs(comparison["difference"] - direct) <= 1e-12
    runs_total = n_systems * seeds
    print(f"  the table, {runs_total} runs: {seconds:7.2f} s wall, {cpu:.2f} s CPU (target < 60 s)")
    print(f"  two systems, one run each: {pair_seconds:7.2f} s (compare_systems), {reference:.2f} s (paired_test, today): equal to the last bit: {agree}")
    print(f"  ratio: the table of {runs_total} runs costs {seconds / reference:.1f}x one pair under paired_test ({runs_total - 1} pairs would cost {runs_total - 1}x)")
    size = f"{n_systems} systems x {seeds} seeds, {n:,} labels"
    record("significance, the whole table vs one pair under paired_test", size, seconds, reference, reference_name="paired_test on one pair of runs", target="< 60 s", note=f"CPU {cpu:.2f} s; {runs_total - 1} pairs would cost {runs_total - 1}x one pair")
    record("significance, compare_systems on one pair vs paired_test", size, pair_seconds, reference, reference_name="paired_test on the same pair", target="equal to the last bit")
    print(f"  peak resident memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MB")
    last = result["comparisons"][-1]
    print(f"  e.g. {last['system']} - S0: {last['difference']:+.4f} [{last['difference_low']:+.4f}, {last['difference_high']:+.4f}], p = {last['p_value']:.4f}, Holm {last['p_value_adjusted']:.4f}")
    return finish(0 if agree else 1)


if __name__ == "__main__":
    raise SystemExit(main())
