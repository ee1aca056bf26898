"""micro_macro benchmark: paperscore against sklearn, evaluate's compute() against the
same framework's floor, and the command line on two label files. Prints the times, the
ratios and whether the results agree.

    python tests/benchmarks/bench_micro_macro.py          # 1e6 labels; 1e5 through evaluate; 11M-line files
    python tests/benchmarks/bench_micro_macro.py --quick  # small sizes, to check it runs

Data: 34 classes, NA (0) on 60% of the references and a long tail over the 33 event types;
predictions right 70% of the time, otherwise a random class. NA is excluded (MAVEN).
The files: MAVEN-style string labels ("None" and 168 event type names), one per line,
two files of 11M lines and about 70 MB each (issue 15: 144 s and 3.9 GB before).
Also: 10,000 labels over 1,000 classes against sklearn (target >= 5x); MAVEN's 169 classes
and 10,000 candidates against the scoring of MAVEN's evaluate.py (target >= 20x); 1e7 labels
as lists of str against the same as ints (target: close to 1). Every row times both sides in
alternating rounds (A, B, A, B, ...) and reports medians (sklearn on the files, minutes long,
gets one round among three of the command line); the machine's load is printed.
Targets: paperscore >= 40x faster than sklearn's micro + macro calls; evaluate compute()
<= 1.2x a trivial metric with the same features; `paperscore micro_macro` on the files
<= 15 s and <= 1 GB peak resident memory (its own process, measured by getrusage).
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "shared"))

from paperscore.micro_macro import compute  # noqa: E402
from timing import evaluate_floor, finish, interleaved, parse, record, report_load, traced_peak  # noqa: E402

FEATURES = "[datasets.Features({'predictions': v, 'references': v}) for v in (datasets.Value('string'), datasets.Value('int64'), datasets.Sequence(datasets.Value('string')), datasets.Sequence(datasets.Value('int64')))]"


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

    (ours, result), (theirs, (micro, macro)) = alternating(lambda: compute(predictions, references, negative_labels=[0]), with_sklearn, {"A": repeat, "B": max(1, repeat // 3)})
    ours_values = [result[f"{a}_{m}"] for a in ("micro", "macro") for m in ("precision", "recall", "f1")]
    gap = max(abs(a - b) for a, b in zip(ours_values, list(micro) + list(macro)))
    return ours, theirs, gap


def alternating(first, second, rounds):
    """((median seconds, last result) of first, of second), timed in alternating rounds
    A, B, A, B, ... so that a busy machine weighs on both alike."""
    times = interleaved({"A": first, "B": second}, rounds)
    return times["A"], times["B"]


def many_classes(n, n_classes, rounds):
    """1,000 classes (issue 26: 3.6 s before, against sklearn's 15 ms): micro + macro, every
    class scored, against sklearn's two calls. (ours, sklearn, max |difference|)"""
    from sklearn.metrics import precision_recall_fscore_support

    rng = np.random.default_rng(3)
    references = rng.integers(0, n_classes, n)
    predictions = np.where(rng.random(n) < 0.7, references, rng.integers(0, n_classes, n))
    references, predictions = references.tolist(), predictions.tolist()

    def with_sklearn():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return [v for a in ("micro", "macro") for v in precision_recall_fscore_support(references, predictions, average=a, zero_division=0)[:3]]

    (ours, result), (theirs, _) = alternating(lambda: compute(predictions, references), with_sklearn, rounds)
    gap = max(abs(a - b) for a, b in zip([result[k] for k in SIX], with_sklearn()))
    return ours, theirs, gap


SIX = [f"{a}_{m}" for a in ("micro", "macro") for m in ("precision", "recall", "f1")]


def maven_scoring(labels, preds):
    """The scoring half of MAVEN's evaluate.py (THU-KEG/MAVEN-dataset, read, not copied):
    the candidates' gold and predicted type ids as arrays, then sklearn's precision, recall
    and F1, micro and macro, one call each, over the 168 event types."""
    from sklearn.metrics import f1_score, precision_score, recall_score

    events = list(range(1, 169))
    labels, preds = np.array(labels), np.array(preds)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [score(labels, preds, labels=events, average=a) for a in ("micro", "macro") for score in (precision_score, recall_score, f1_score)]


def maven_scale(n, rounds):
    """MAVEN's 169 classes, n candidates (70% NA), as Python lists: compute with
    convention="maven" and labels=1..168 against evaluate.py's scoring.
    (ours, MAVEN, max |difference|)"""
    rng = np.random.default_rng(4)
    references = np.where(rng.random(n) < 0.7, 0, rng.integers(1, 169, n))
    predictions = np.where(rng.random(n) < 0.8, references, rng.integers(0, 169, n))
    references, predictions = references.tolist(), predictions.tolist()
    events = list(range(1, 169))
    (ours, result), (theirs, _) = alternating(lambda: compute(predictions, references, convention="maven", labels=events), lambda: maven_scoring(references, predictions), rounds)
    gap = max(abs(a - b) for a, b in zip([result[k] for k in SIX], maven_scoring(references, predictions)))
    return ours, theirs, gap


def string_labels(n, rounds):
    """The same n labels (34 classes) as Python lists of str and of int (the floor):
    (str seconds, int seconds, equal results)."""
    predictions, references = labels(n, seed=5)
    names = np.array(["None"] + [f"Event{i:03d}" for i in range(1, 34)], dtype=object)
    as_str = names[predictions].tolist(), names[references].tolist()
    as_int = predictions.tolist(), references.tolist()
    (strings, result), (ints, _) = alternating(lambda: compute(*as_str, negative_labels=["None"]), lambda: compute(*as_int, negative_labels=[0]), rounds)
    peaks = traced_peak(lambda: compute(*as_str, negative_labels=["None"])), traced_peak(lambda: compute(*as_int, negative_labels=[0]))
    return strings, ints, result == compute(*as_int, negative_labels=[0]), peaks


def against_floor(n, repeat):
    import evaluate

    predictions, references = (a.tolist() for a in labels(n, seed=1))
    with tempfile.TemporaryDirectory() as folder:
        floor = evaluate_floor(folder, FEATURES)
        metric = evaluate.load(str(ROOT / "spaces" / "micro_macro"), keep_in_memory=True)
        floor.compute(predictions=predictions[:10], references=references[:10])  # warm up
        metric.compute(predictions=predictions[:10], references=references[:10])
        (ours, result), (base, _) = alternating(lambda: metric.compute(predictions=predictions, references=references, negative_labels=[0]), lambda: floor.compute(predictions=predictions, references=references), repeat)
    direct = compute(predictions, references, negative_labels=[0])
    return ours, base, result == direct


def write_label_files(folder, n, seed=2):
    """(predictions, references) files of n MAVEN-style string labels each."""
    rng = np.random.default_rng(seed)
    names = np.array(["None"] + [f"Event{i:03d}" for i in range(1, 169)], dtype=object)
    tail = 1 / np.arange(1, 169)
    references = rng.choice(169, size=n, p=np.concatenate([[0.7], 0.3 * tail / tail.sum()]))
    predictions = np.where(rng.random(n) < 0.8, references, rng.integers(0, 169, n))
    paths = []
    for name, codes in (("predictions.txt", predictions), ("references.txt", references)):
        path = Path(folder) / name
        path.write_text("\n".join(names[codes].tolist()) + "\n")
        paths.append(path)
    return paths


def command_line_on_files(n, rounds=3):
    """(seconds, CPU seconds, peak RSS in bytes, sklearn seconds, max |difference|, file
    MB): the command line, each call a child process of its own, and sklearn on the same
    labels (reading included) in alternating rounds; sklearn takes minutes, so it gets one
    round (command line, sklearn, command line, ...). The CPU time is the median call's."""
    from sklearn.metrics import accuracy_score, precision_recall_fscore_support

    cpu, peak, ours_rounds = [], [], []

    def ours():
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "shared")})
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        # a child's peak RSS starts from this process's at the fork; after sklearn's round
        # this process holds gigabytes, so the peak is the first call's (KB on Linux)
        peak.append(after.ru_maxrss * 1024)
        if done.returncode:
            raise SystemExit(done.stderr)
        return json.loads(done.stdout)

    def theirs():
        gold, pred = (path.read_text().split("\n")[:-1] for path in (references, predictions))
        events = sorted((set(gold) | set(pred)) - {"None"})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = {"accuracy": accuracy_score(gold, pred)}
            for average in ("micro", "macro"):
                values = precision_recall_fscore_support(gold, pred, labels=events, average=average, zero_division=0)[:3]
                result.update({f"{average}_{name}": value for name, value in zip(("precision", "recall", "f1"), values)})
        return result

    with tempfile.TemporaryDirectory() as folder:
        predictions, references = write_label_files(folder, n)
        size = predictions.stat().st_size / 1e6
        command = [sys.executable, "-m", "paperscore", "micro_macro", "--predictions", str(predictions), "--references", str(references), "--convention", "maven", "--json"]
        times = interleaved({"paperscore": ours, "sklearn": theirs}, {"paperscore": rounds, "sklearn": 1})
    (seconds, result), (sklearn_seconds, expected) = times["paperscore"], times["sklearn"]
    gap = max(abs(result[key] - value) for key, value in expected.items())
    return seconds, statistics.median(cpu), peak[0], sklearn_seconds, gap, size


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: check that it runs")
    parser.add_argument("--no-files", action="store_true", help="leave out the command line on two label files (sklearn takes minutes on them)")
    args = parse(parser, argv, __file__)
    n_labels, n_evaluate, n_lines, repeat = (10_000, 2_000, 20_000, 3) if args.quick else (1_000_000, 100_000, 11_000_000, 9)

    report_load()
    # first: the command line must be this process's only child for its peak memory
    file_gap = 0.0
    if not args.no_files:
        seconds, cpu, peak, sklearn_seconds, file_gap, size = command_line_on_files(n_lines)
        print(f"paperscore micro_macro on two files of {n_lines:,} string labels ({size:.0f} MB each), convention maven")
        print(f"  command line {seconds:8.2f} s    CPU {cpu:.2f} s   peak RSS {peak / 2**30:.2f} GB   (targets <= 15 s, <= 1 GB)")
        print(f"  sklearn      {sklearn_seconds:8.2f} s    (reading the lines, accuracy + micro + macro)")
        print(f"  ratio        {sklearn_seconds / seconds:8.1f}x   max |difference| {file_gap:.1e}")
        size_label = f"{n_lines:,} string labels, two files"
        record("paperscore micro_macro on label files vs sklearn", size_label, seconds, sklearn_seconds, reference_name="sklearn, reading included", target="<= 15 s and <= 1 GB", note=f"CPU {cpu:.2f} s")
        record("paperscore micro_macro on label files: peak RSS", size_label, peak, unit="B", target="<= 1 GB")

    ours, theirs, gap = against_sklearn(n_labels, repeat)
    print(f"micro_macro, {n_labels:,} labels, 34 classes, NA excluded, micro + macro (alternating rounds, medians)")
    print(f"  paperscore  {ours * 1e3:9.2f} ms")
    print(f"  sklearn     {theirs * 1e3:9.2f} ms   (precision_recall_fscore_support, micro and macro)")
    print(f"  ratio       {theirs / ours:9.1f}x   (target >= 40x)   max |difference| {gap:.1e}")
    record("micro_macro vs sklearn, 34 classes, NA excluded", f"{n_labels:,} labels", ours, theirs, reference_name="sklearn precision_recall_fscore_support, micro and macro", goal=40, target=">= 40x")

    rounds = 3 if args.quick else 15
    ours, theirs, classes_gap = many_classes(10_000, 1_000, rounds)
    print("micro_macro, 10,000 labels over 1,000 classes, micro + macro (alternating rounds, medians)")
    print(f"  paperscore  {ours * 1e3:9.2f} ms")
    print(f"  sklearn     {theirs * 1e3:9.2f} ms   (precision_recall_fscore_support, micro and macro)")
    print(f"  ratio       {theirs / ours:9.1f}x   (target >= 5x)   max |difference| {classes_gap:.1e}")
    record("micro_macro vs sklearn, 1,000 classes", "10,000 labels", ours, theirs, reference_name="sklearn precision_recall_fscore_support, micro and macro", goal=5, target=">= 5x")

    ours, theirs, maven_gap = maven_scale(10_000, rounds)
    print("MAVEN scale: 10,000 candidates, 169 classes, convention maven, labels=1..168 (alternating rounds, medians)")
    print(f"  paperscore  {ours * 1e3:9.2f} ms")
    print(f"  MAVEN       {theirs * 1e3:9.2f} ms   (evaluate.py's scoring: six sklearn calls)")
    print(f"  ratio       {theirs / ours:9.1f}x   (target >= 20x)   max |difference| {maven_gap:.1e}")
    record("micro_macro vs MAVEN's evaluate.py, 169 classes", "10,000 candidates", ours, theirs, reference_name="MAVEN evaluate.py's scoring (six sklearn calls)", goal=20, target=">= 20x")

    n_str = 100_000 if args.quick else 10_000_000
    strings, ints, same_strings, (str_peak, int_peak) = string_labels(n_str, 3 if args.quick else 5)
    print(f"micro_macro, {n_str:,} labels as Python lists, str against int (alternating rounds, medians; memory: traced peak beyond the lists)")
    print(f"  str labels  {strings:9.2f} s   {str_peak / 2**20:7.0f} MiB   {str_peak / n_str:5.1f} bytes a label pair (issue 26: 153 bytes a label before)")
    print(f"  int labels  {ints:9.2f} s   {int_peak / 2**20:7.0f} MiB   {int_peak / n_str:5.1f} bytes a label pair")
    print(f"  ratio       {strings / ints:9.2f}    (target: close to 1)   equal results: {same_strings}")
    record("micro_macro, str labels vs the same as int", f"{n_str:,} labels", strings, ints, reference_name="the same labels as int", target="close to 1x")
    record("micro_macro, str labels vs the same as int: traced memory", f"{n_str:,} labels", str_peak, int_peak, reference_name="the same labels as int", unit="B", target="close to 1x")

    through, floor, same = against_floor(n_evaluate, max(3, repeat // 2))
    print(f"evaluate compute(), {n_evaluate:,} labels as Python lists, keep_in_memory=True (alternating rounds, medians)")
    print(f"  micro_macro {through * 1e3:9.2f} ms")
    print(f"  floor       {floor * 1e3:9.2f} ms   (same features, _compute returns len)")
    print(f"  ratio       {through / floor:9.2f}    (target <= 1.2)   equal to the direct call: {same}")
    record("micro_macro through evaluate compute() vs a no-op metric", f"{n_evaluate:,} labels", through, floor, reference_name="a no-op metric with the same features", goal=1 / 1.2, target="<= 1.2x the floor")
    return finish(0 if max(gap, file_gap, classes_gap, maven_gap) <= 1e-12 and same and same_strings else 1)


if __name__ == "__main__":
    raise SystemExit(main())
