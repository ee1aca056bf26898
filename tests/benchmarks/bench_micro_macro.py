"""micro_macro benchmark: paperscore against sklearn, and evaluate's compute() against
the same framework's floor. Prints the times, the ratios and whether the results agree.

    python tests/benchmarks/bench_micro_macro.py          # 1e6 labels; 1e5 through evaluate
    python tests/benchmarks/bench_micro_macro.py --quick  # small sizes, to check it runs

Data: 34 classes, NA (0) on 60% of the references and a long tail over the 33 event types;
predictions right 70% of the time, otherwise a random class. NA is excluded (MAVEN).
Targets: paperscore >= 40x faster than sklearn's micro + macro calls; evaluate compute()
<= 1.2x a trivial metric with the same features.
"""

import argparse
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "shared"))

from paperscore.micro_macro import compute  # noqa: E402
from timing import timed  # noqa: E402

FLOOR_SCRIPT = '''
import datasets
import evaluate


class Floor(evaluate.Metric):
    """The framework's floor: micro_macro's features, a _compute that does nothing."""

    def _info(self):
        values = (datasets.Value("string"), datasets.Value("int64"), datasets.Sequence(datasets.Value("string")), datasets.Sequence(datasets.Value("int64")))
        return evaluate.MetricInfo(description="", citation="", inputs_description="",
            features=[datasets.Features({"predictions": v, "references": v}) for v in values])

    def _compute(self, predictions, references):
        return {"n": len(predictions)}
'''


def labels(n, seed=0):
    rng = np.random.default_rng(seed)
    tail = 1 / np.arange(1, 34)
    weights = np.concatenate([[0.6], 0.4 * tail / tail.sum()])
    references = rng.choice(34, size=n, p=weights)
    predictions = np.where(rng.random(n) < 0.7, references, rng.integers(0, 34, n))
    return predictions, references



def against_sklearn(n, repeat):
    from sklearn.metrics import precision_recall_fscore_support

    predictions, references = labels(n)
    events = list(range(1, 34))

    def with_sklearn():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return [precision_recall_fscore_support(references, predictions, labels=events, average=a, zero_division=0)[:3] for a in ("micro", "macro")]

    ours, result = timed(lambda: compute(predictions, references, negative_labels=[0]), repeat)
    theirs, (micro, macro) = timed(with_sklearn, max(1, repeat // 3))
    ours_values = [result[f"{a}_{m}"] for a in ("micro", "macro") for m in ("precision", "recall", "f1")]
    gap = max(abs(a - b) for a, b in zip(ours_values, list(micro) + list(macro)))
    return ours, theirs, gap


def against_floor(n, repeat):
    import evaluate

    predictions, references = (a.tolist() for a in labels(n, seed=1))
    with tempfile.TemporaryDirectory() as folder:
        floor_dir = Path(folder) / "floor"
        floor_dir.mkdir()
        (floor_dir / "floor.py").write_text(FLOOR_SCRIPT)
        floor = evaluate.load(str(floor_dir), keep_in_memory=True)
        metric = evaluate.load(str(ROOT / "spaces" / "micro_macro"), keep_in_memory=True)
        floor.compute(predictions=predictions[:10], references=references[:10])  # warm up
        metric.compute(predictions=predictions[:10], references=references[:10])
        ours, result = timed(lambda: metric.compute(predictions=predictions, references=references, negative_labels=[0]), repeat)
        base, _ = timed(lambda: floor.compute(predictions=predictions, references=references), repeat)
    direct = compute(predictions, references, negative_labels=[0])
    return ours, base, result == direct


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: check that it runs")
    args = parser.parse_args(argv)
    n_labels, n_evaluate, repeat = (10_000, 2_000, 3) if args.quick else (1_000_000, 100_000, 9)

    ours, theirs, gap = against_sklearn(n_labels, repeat)
    print(f"micro_macro, {n_labels:,} labels, 34 classes, NA excluded, micro + macro")
    print(f"  paperscore  {ours * 1e3:9.2f} ms")
    print(f"  sklearn     {theirs * 1e3:9.2f} ms   (precision_recall_fscore_support, micro and macro)")
    print(f"  ratio       {theirs / ours:9.1f}x   (target >= 40x)   max |difference| {gap:.1e}")

    through, floor, same = against_floor(n_evaluate, max(3, repeat // 2))
    print(f"evaluate compute(), {n_evaluate:,} labels as Python lists, keep_in_memory=True")
    print(f"  micro_macro {through * 1e3:9.2f} ms")
    print(f"  floor       {floor * 1e3:9.2f} ms   (same features, _compute returns len)")
    print(f"  ratio       {through / floor:9.2f}    (target <= 1.2)   equal to the direct call: {same}")
    return 0 if gap <= 1e-12 and same else 1


if __name__ == "__main__":
    raise SystemExit(main())
