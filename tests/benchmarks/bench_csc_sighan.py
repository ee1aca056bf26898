"""csc_sighan benchmark: every SIGHAN 2015 figure from Python lists of sentences, against a
straightforward per-sentence Python implementation of the same definition, in one run.
Prints the times, the ratio and whether the two agree.

    python tests/benchmarks/bench_csc_sighan.py          # 110,000 triples
    python tests/benchmarks/bench_csc_sighan.py --quick  # 11,000 triples, to check it runs

Data: the SIGHAN 2015 test set (1,100 sentences; references = the input with the truth
corrections applied) replicated to 110,000 triples, with a synthetic system output (seeded):
on erroneous sentences about a third corrected, a tenth with a wrong character at a gold
position, a tenth with an edit at a wrong position, the rest untouched; false alarms on
about a tenth of the error-free sentences.
Targets: paperscore <= 0.3 s and >= 5x the per-sentence implementation.
"""

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "shared"))

from paperscore.core import read_lines  # noqa: E402
from paperscore.csc import apply_edits, parse_label_lines, parse_test_input  # noqa: E402
from paperscore.csc_sighan import compute  # noqa: E402
from timing import finish, interleaved, parse, record, report_load, timed  # noqa: E402

DATA = ROOT / "tests" / "data" / "sighan15"
CONFUSABLE = "的地得在再做作已以他她們门"


def corpus(copies, seed=0):
    _, sources = parse_test_input(read_lines(DATA / "SIGHAN15_CSC_TestInput.txt", "input"), "input")
    _, gold = parse_label_lines(read_lines(DATA / "SIGHAN15_CSC_TestTruth.txt", "truth"), "truth")
    references = apply_edits(sources, gold)
    sources, references = sources * copies, references * copies
    rng = np.random.default_rng(seed)
    draws = rng.random(len(sources))
    predictions = []
    for source, reference, draw in zip(sources, references, draws):
        if source == reference:
            predictions.append(_change(source, rng) if draw < 0.1 else source)
        elif draw < 0.33:
            predictions.append(reference)
        elif draw < 0.43:  # a wrong character at the first gold position
            i = next(k for k, (a, b) in enumerate(zip(source, reference)) if a != b)
            predictions.append(reference[:i] + _other(reference[i], source[i], rng=rng) + reference[i + 1 :])
        elif draw < 0.53:
            predictions.append(_change(source, rng))
        else:
            predictions.append(source)
    return sources, predictions, references


def _other(*avoid, rng):
    return next(c for c in rng.permutation(list(CONFUSABLE)) if c not in avoid)


def _change(source, rng):
    i = int(rng.integers(len(source)))
    return source[:i] + _other(source[i], rng=rng) + source[i + 1 :]


def per_sentence(predictions, references, sources):
    """The 2014/2015 jar's definition, written the obvious way: edits by zip, then the
    confusion-matrix cell of each sentence, then the ratios."""
    tp = fp = tn = fn = ctp = cfn = 0
    for source, prediction, reference in zip(sources, predictions, references):
        if len(prediction) != len(source):
            raise ValueError("length mismatch")
        gold = {i: c for i, (s, c) in enumerate(zip(source, reference)) if s != c}
        result = {i: c for i, (s, c) in enumerate(zip(source, prediction)) if s != c}
        if not gold:
            if result:
                fp += 1
            else:
                tn += 1
        elif result and result.keys() == gold.keys():
            tp += 1
            if set(result.values()) <= set(gold.values()):
                ctp += 1
            else:
                cfn += 1
        else:
            fn += 1
            cfn += 1

    def ratio(a, b):
        return a / b if b else 0.0

    def f1(p, r):
        return 2 * p * r / (p + r) if p + r else 0.0

    n = tp + fp + tn + fn
    out = {"false_positive_rate": ratio(fp, fp + tn)}
    for level, t, f in (("detection", tp, fn), ("correction", ctp, cfn)):
        p, r = ratio(t, t + fp), ratio(t, t + f)
        out.update({f"{level}_accuracy": ratio(t + tn, n), f"{level}_precision": p, f"{level}_recall": r, f"{level}_f1": f1(p, r)})
    return out



def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: check that it runs")
    args = parse(parser, argv, __file__)
    copies, repeat = (10, 3) if args.quick else (100, 9)
    sources, predictions, references = corpus(copies)

    report_load()
    times = interleaved({"paperscore": lambda: compute(predictions, references, sources), "per sentence": lambda: per_sentence(predictions, references, sources)}, {"paperscore": repeat, "per sentence": max(1, repeat // 3)})
    (ours, result), (theirs, expected) = times["paperscore"], times["per sentence"]
    gap = max(abs(result[key] - expected[key]) for key in expected)
    print(f"csc_sighan, {len(sources):,} SIGHAN15 triples as Python lists, all 2015 figures (alternating rounds, medians)")
    print(f"  paperscore     {ours * 1e3:9.1f} ms   (target <= 300 ms)")
    print(f"  per-sentence   {theirs * 1e3:9.1f} ms   (the same definition, one sentence at a time)")
    print(f"  ratio          {theirs / ours:9.1f}x   (target >= 5x)   max |difference| {gap:.1e}")
    record("csc_sighan vs the definition per sentence", f"{len(sources):,} sentence triples", ours, theirs, reference_name="the same definition, one sentence at a time in Python", goal=5, target="<= 0.3 s and >= 5x")
    for version, subtask in (("2013", 1), ("2013", 2)):
        elapsed, _ = timed(lambda: compute(predictions, references, sources, version=version, subtask=subtask), repeat)
        print(f"  SIGHAN 2013 subtask {subtask}  {elapsed * 1e3:7.1f} ms")
    return finish(0 if gap <= 1e-12 else 1)


if __name__ == "__main__":
    raise SystemExit(main())
