"""csc_common benchmark: every preset (variant="all") from Python lists of sentences,
against a straightforward per-sentence Python implementation of the single `realise`
preset, in one run. Prints the times, the ratio and whether the two agree.

    python tests/benchmarks/bench_csc_common.py          # 110,000 triples
    python tests/benchmarks/bench_csc_common.py --quick  # 11,000 triples, to check it runs

Data: csc_sighan's benchmark corpus (the SIGHAN 2015 test set replicated, with its seeded
synthetic system output; see bench_csc_sighan.corpus).
Targets: variant="all" <= 1 s, and faster than the per-sentence `realise`.

Then length_mismatch="align": the same corpus with 5% of the predictions changed in length
(a character inserted or deleted at a seeded random place), every preset, against the
equal-length corpus in the same run (target: within 1.5x), its realise figures checked
against the plain-loop alignment of tests/csc_align_naive.py.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from bench_csc_sighan import ROOT, corpus  # noqa: E402
from timing import finish, interleaved, parse, record, report_load  # noqa: E402

sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "tests")]

import csc_align_naive  # noqa: E402

from paperscore.csc_common import VARIANTS, compute  # noqa: E402


def per_sentence(predictions, references, sources):
    """ReaLiSe's sentence level written the obvious way: each sentence's sorted edit list
    by zip, compared with the gold one, then the ratios."""
    hit = chit = tp = ctp = targ_p = pred_p = 0
    for source, prediction, reference in zip(sources, predictions, references):
        if len(prediction) > len(source):
            raise ValueError("a longer prediction")
        gold = [(i, c) for i, (s, c) in enumerate(zip(source, reference), 1) if s != c]
        pred = [(i, c) for i, (s, c) in enumerate(zip(source, prediction), 1) if s != c]
        same_positions = [i for i, _ in pred] == [i for i, _ in gold]
        targ_p += bool(gold)
        pred_p += bool(pred)
        hit += same_positions
        chit += pred == gold
        tp += bool(pred) and same_positions
        ctp += bool(pred) and pred == gold

    def ratio(a, b):
        return a / b if b else 0.0

    out = {}
    for level, right, positive in (("detection", hit, tp), ("correction", chit, ctp)):
        p, r = ratio(positive, pred_p), ratio(positive, targ_p)
        out[f"sentence_{level}_accuracy"] = ratio(right, len(sources))
        out.update({f"sentence_{level}_precision": p, f"sentence_{level}_recall": r, f"sentence_{level}_f1": 2 * p * r / (p + r) if p + r else 0.0})
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: check that it runs")
    args = parse(parser, argv, __file__)
    copies, repeat = (10, 3) if args.quick else (100, 9)
    report_load()
    sources, predictions, references = corpus(copies)

    changed = length_changed(predictions)
    times = interleaved({
        "all": lambda: compute(predictions, references, sources, variant="all"),
        "realise": lambda: compute(predictions, references, sources),
        "per sentence": lambda: per_sentence(predictions, references, sources),
        "align": lambda: compute(changed, references, sources, variant="all", length_mismatch="align"),
    }, {"all": repeat, "realise": repeat, "per sentence": max(1, repeat // 3), "align": repeat})
    (ours, result), (single, _), (theirs, expected) = times["all"], times["realise"], times["per sentence"]
    gap = max(abs(result[f"realise/{key}"] - expected[key]) for key in expected)
    print(f"csc_common, {len(sources):,} SIGHAN15 triples as Python lists (alternating rounds, medians)")
    print(f"  paperscore, all {len(VARIANTS)} presets  {ours * 1e3:9.1f} ms   (target <= 1000 ms)")
    print(f"  paperscore, realise only      {single * 1e3:9.1f} ms")
    print(f"  per-sentence realise          {theirs * 1e3:9.1f} ms   (the same definition, one sentence at a time)")
    print(f"  ratio                         {theirs / ours:9.1f}x   (all presets against one, per sentence; target > 1x)   max |difference| {gap:.1e}")
    triples = f"{len(sources):,} sentence triples"
    record("csc_common, every preset vs one preset per sentence", triples, ours, theirs, reference_name="ReaLiSe's sentence level, one sentence at a time in Python", goal=1, target="<= 1 s and faster")

    (aligned, result), plain = times["align"], ours
    expected = csc_align_naive.realise(sources, changed, references)
    align_gap = max(abs(result[f"realise/{key}"] - expected[key]) for key in expected)
    share = sum(len(a) != len(b) for a, b in zip(changed, sources)) / len(sources)
    print(f"length_mismatch='align', {share:.1%} of the predictions of another length, all presets")
    print(f"  equal lengths                 {plain * 1e3:9.1f} ms")
    print(f"  align                         {aligned * 1e3:9.1f} ms")
    print(f"  ratio                         {aligned / plain:9.2f}x   (target <= 1.5x)   max |difference| from the plain-loop alignment {align_gap:.1e}")
    record("csc_common, length_mismatch='align' vs equal lengths", triples, aligned, plain, reference_name="the equal-length triples, every preset", goal=1 / 1.5, target="<= 1.5x")
    return finish(0 if gap <= 1e-12 and align_gap <= 1e-12 else 1)


def length_changed(predictions, share=0.05, seed=1):
    """The predictions with `share` of them one character longer or shorter (seeded)."""
    rng = np.random.default_rng(seed)
    out = list(predictions)
    for i in np.flatnonzero(rng.random(len(out)) < share).tolist():
        k, text = int(rng.integers(len(out[i]))), out[i]
        out[i] = text[:k] + "了" + text[k:] if rng.random() < 0.5 else text[:k] + text[k + 1 :]
    return out


if __name__ == "__main__":
    raise SystemExit(main())
