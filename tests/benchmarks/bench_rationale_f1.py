"""rationale_f1 benchmark: paperscore against a straightforward per-example Python
implementation (tests/rationale_naive.py: plain loops, ERASER's sets of positions, AUPRC
from its definition), on soft scores as a Trainer passes them; then AUPRC alone against
sklearn per example. Prints the times, the ratios and whether the results agree.

    python tests/benchmarks/bench_rationale_f1.py          # 10,000 examples x 100 tokens
    python tests/benchmarks/bench_rationale_f1.py --quick  # 500 examples, to check it runs
    python tests/benchmarks/bench_rationale_f1.py --large  # also AUPRC over 1e7 tokens

Data: 2-D arrays of 100 positions, 60 to 100 of them scored (the rest -100 in both, as
the Trainer pads); gold rationales of 1 to 3 spans of 2 to 12 tokens; soft scores that
rise over the gold spans, with smoothed noise, so selections come in runs too.
Targets: every number but auprc in <= 50 ms; auprc included in <= 0.5 s.

AUPRC alone at 1e4, 1e5 and 1e6 scored tokens (1e7 with --large): paperscore's per-example
areas (rationale.example_auprc) against sklearn's precision_recall_curve + auc called per
example, as ERASER does, in alternating rounds (paperscore, sklearn, paperscore, ...;
medians), every area equal. Target: the cost per token flat from 1e5 tokens up (within
1.5x; 1e4 tokens run in the cache), and >= 20x sklearn.

evaluate compute() of the Space on 2,000 examples, as Python lists and as numpy arrays,
against a no-op metric with the same features, and against that floor plus the package's
compute() on the same input (the issue's "evaluate overhead"). Target: <= 1.2x.
"""

import argparse
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "tests")]

from paperscore.rationale import compute, example_auprc, scored_tokens  # noqa: E402
from rationale_naive import numbers, sklearn_auprc, unpad  # noqa: E402
from timing import Median, evaluate_floor, finish, interleaved, parse, record, report_load, traced_peak  # noqa: E402


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



def auprc_rows(sizes):
    """AUPRC alone per size of the corpus (examples of 100 positions, 60-100 scored)."""
    for tokens_wanted in sizes:
        scores, gold = corpus(max(1, int(tokens_wanted / 80)))
        values, truth, lengths = scored_tokens(scores, gold)
        examples = np.split(np.arange(len(values)), np.cumsum(lengths)[:-1])

        def theirs():
            return np.array([sklearn_auprc(values[i], truth[i]) for i in examples])

        slow_rounds = 1 if len(values) > 5e5 else 3  # sklearn: 95 s a round at 1e6 tokens
        times = interleaved({"paperscore": lambda: example_auprc(values, truth, lengths), "sklearn": theirs}, {"paperscore": 7, "sklearn": slow_rounds})
        (ours, areas), (reference, expected) = times["paperscore"], times["sklearn"]
        yield len(values), ours, reference, float(np.abs(areas - expected).max()), traced_peak(lambda: example_auprc(values, truth, lengths))


def against_floor(n, rounds):
    """evaluate compute() of the Space against a no-op metric with its features, and
    against that floor plus the package's own compute() on the same input (the issue's
    "evaluate overhead"), n examples as Python lists and as numpy arrays: {kind: (Space
    seconds, floor seconds, package seconds, equal to the direct call)}."""
    import tempfile

    import evaluate

    scores, gold = corpus(n, seed=1)
    out = {}
    with tempfile.TemporaryDirectory() as folder:
        floor = evaluate_floor(folder, "datasets.Features({'predictions': datasets.Sequence(datasets.Value('float64')), 'references': datasets.Sequence(datasets.Value('int64'))})")
        metric = evaluate.load(str(ROOT / "spaces" / "rationale_f1"), keep_in_memory=True)
        for kind, (p, r) in (("lists", (scores.tolist(), gold.tolist())), ("arrays", (scores, gold))):
            times = interleaved({"space": lambda: metric.compute(predictions=p, references=r), "floor": lambda: floor.compute(predictions=p, references=r), "package": lambda: compute(p, r)}, rounds)
            out[kind] = times["space"][0], times["floor"][0], times["package"][0], times["space"][1] == times["package"][1]
    return out


def gap(ours, theirs):
    return max(abs(ours[key] - theirs[key]) for key in theirs)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="500 examples: check that it runs")
    parser.add_argument("--large", action="store_true", help="AUPRC over 1e7 tokens too (sklearn takes minutes)")
    parser.add_argument("--sizes", help="the AUPRC sizes in scored tokens, e.g. 1e4,1e5 (sklearn: 95 s a round at 1e6)")
    args = parse(parser, argv, __file__)
    n, repeat = (500, 3) if args.quick else (10_000, 15)
    report_load()

    scores, gold = corpus(n)
    score_lists, gold_lists = scores.tolist(), gold.tolist()
    compute(scores[:10], gold[:10], auprc=True)  # warm up

    times = interleaved({
        "fast": lambda: compute(scores, gold, auprc=False),
        "fast_all": lambda: compute(scores, gold),
        "from_lists": lambda: compute(score_lists, gold_lists),
        "slow": lambda: numbers(unpad(score_lists, gold_lists)),
        "slow_all": lambda: numbers(unpad(score_lists, gold_lists), with_auprc=True),
    }, {"fast": repeat, "fast_all": repeat, "from_lists": max(3, repeat // 3), "slow": 3, "slow_all": 3})
    (fast, without), (fast_all, with_auprc), (from_lists, listed) = times["fast"], times["fast_all"], times["from_lists"]
    (slow, plain), (slow_all, plain_all) = times["slow"], times["slow_all"]

    differences = [gap(without, plain), gap(with_auprc, plain_all), gap(listed, plain_all)]
    tokens = int((gold != -100).sum())
    print(f"rationale_f1, {n:,} examples x 100 positions ({tokens:,} scored tokens), soft scores, 2-D arrays with -100 padding (alternating rounds, medians)")
    print(f"  every number but auprc   paperscore {fast * 1e3:8.1f} ms   plain Python {slow * 1e3:9.1f} ms   ratio {slow / fast:7.1f}x   (target <= 50 ms)")
    print(f"  auprc included           paperscore {fast_all * 1e3:8.1f} ms   plain Python {slow_all * 1e3:9.1f} ms   ratio {slow_all / fast_all:7.1f}x   (target <= 500 ms; AUPRC by its definition)")
    print(f"  auprc included, from Python lists   {from_lists * 1e3:8.1f} ms")
    print(f"  max |difference| from the plain implementation: {max(differences):.1e}")
    shape = f"{n:,} examples x 100 positions"
    record("rationale_f1, every number but AUPRC, vs plain Python", shape, fast, slow, reference_name="plain per-example Python", target="<= 50 ms")
    record("rationale_f1 with AUPRC vs plain Python", shape, fast_all, slow_all, reference_name="plain per-example Python with AUPRC", target="<= 0.5 s")
    sizes = (1e3, 1e4) if args.quick else (1e4, 1e5, 1e6, 1e7) if args.large else (1e4, 1e5, 1e6)
    sizes = tuple(map(float, args.sizes.split(","))) if args.sizes else sizes
    print("AUPRC alone (per-example areas), alternating rounds against sklearn per example:")
    per_token = []
    for wanted, (tokens, ours, reference, difference, peak) in zip(sizes, auprc_rows(sizes)):
        per_token.append(ours / tokens)
        differences.append(difference)
        record("rationale_f1 AUPRC alone vs sklearn per example", f"1e{round(math.log10(wanted))} scored tokens", ours, reference, reference_name="sklearn precision_recall_curve + auc per example (ERASER)", goal=20, target=">= 20x; flat from 1e5 tokens", note=f"{peak} bytes traced beyond the inputs")
        print(f"  {tokens:>10,} tokens   paperscore {ours * 1e3:9.1f} ms ({ours / tokens * 1e9:5.0f} ns a token, {peak / 2**20:6.1f} MiB traced beyond the inputs)   sklearn {reference * 1e3:10.1f} ms   ratio {reference / ours:7.1f}x   max |difference| {difference:.1e}")
    print(f"  cost a token, largest size / {sizes[1]:,.0f} tokens: {per_token[-1] / per_token[1]:.2f}x (target: within 1.5x from 1e5 tokens)")
    n_floor = 200 if args.quick else 2_000
    same = True
    print(f"evaluate compute(), {n_floor:,} examples x 100 positions, keep_in_memory=True, against a no-op metric with the same features (alternating rounds, medians)")
    for kind, (space, floor, package, equal) in against_floor(n_floor, 3 if args.quick else 11).items():
        same &= equal
        print(f"  as {kind:<6}  rationale_f1 {space * 1e3:8.1f} ms   floor {floor * 1e3:8.1f} ms   compute() alone {package * 1e3:7.1f} ms   "
              f"ratio to the floor {space / floor:5.2f}, to floor + compute() {space / (floor + package):5.2f}   (target <= 1.2)   equal to the direct call: {equal}")
        reference = Median([a + b for a, b in zip(floor.rounds, package.rounds)])  # round by round
        record(f"rationale_f1 through evaluate compute(), {kind}, vs a no-op metric plus the package", f"{n_floor:,} examples x 100 positions", space, reference, reference_name="a no-op metric with the same features, plus the package's compute()", goal=1 / 1.2, target="<= 1.2x")
    return finish(0 if max(differences) <= 1e-12 and same else 1)


if __name__ == "__main__":
    raise SystemExit(main())
