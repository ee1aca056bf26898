"""Reward throughput (issue 24): 100,000 GRPO completions (8 per prompt, as GRPOTrainer
groups them) of ASQP paraphrase quads, scored by paperscore.rewards.quad_reward, against
the naive per-example loop measured in the same run, in alternating rounds (A, B, A, B,
...; medians).

    python tests/benchmarks/bench_rewards.py          # 100,000 completions
    python tests/benchmarks/bench_rewards.py --quick  # 10,000, to check it runs

Exact matching: the naive loop is the hand-written reward: each completion and its gold
text read by the same parser, multiset intersection by collections.Counter, F1 by the
definition; target <= 1 s for 100,000. The parser alone (parse.read_asqp_paraphrase on
every completion, text by text) is timed in the same rounds; the reward reads each distinct
piece and gold text once (parse.QuadReader), so it can be faster. Each call's CPU time is
printed beside its wall time: on a loaded machine the wall time also counts the waits for
a core. Soft matching (the optimal_f1 reward, ROUGE-L and
the optimal assignment): the naive loop is quad_match.compute called once per completion,
timed on the first 2,000 completions and scaled to the corpus (it would take minutes in
full); target <= 5 s for 100,000. Every reward is checked equal to the naive one.

Completions: a random mix of the gold, subsets, repeats, extra and changed quads,
another prompt's gold, junk and truncated text (tests/test_rewards.py's generator).
"""

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "shared"))
sys.path.insert(0, str(ROOT / "tests"))

from paperscore import quad, rewards  # noqa: E402
from paperscore.parse import get_parser  # noqa: E402
from test_rewards import capped, corrupt, gold_texts  # noqa: E402
from timing import Median, finish, interleaved, parse, record, report_load  # noqa: E402

PARSER = get_parser("asqp_paraphrase")
SOFT_SAMPLE = 2000


def corpus(n, seed=0):
    rng = random.Random(seed)
    golds = gold_texts(rng, n // 8)
    references = [g for g in golds for _ in range(8)]
    return [corrupt(rng, g, golds) for g in references], references


def naive_exact(completions, references):
    """What a hand-written reward does: parse both, count one-to-one hits, F1."""
    out = []
    for completion, reference in zip(completions, references):
        predicted = [tuple(q) for q in PARSER.read(completion)[0]]
        gold = [tuple(q) for q in PARSER.read(reference)[0]]
        # a piece the parser cannot read is an empty quad: a predicted quad that matches nothing
        hits = sum((Counter(q for q in predicted if all(q[2:])) & Counter(gold)).values())
        total = len(predicted) + len(gold)
        out.append(2 * hits / total if total else 1.0)
    return out


def naive_soft(completions, references):
    """quad_match.compute once per completion (its optimal F1 is that example's), on the
    quads the soft reward reads: copies beyond the gold's count left out (issue 39.5)."""
    out = []
    for c, r in zip(completions, references):
        gold = PARSER.read(r)[0]
        out.append(quad.compute([capped(PARSER.read(c)[0], gold)], [gold], tuple_len=PARSER.tuple_len)["optimal_f1"])
    return out


CPU = {}  # name -> this process's CPU seconds of each call (on a loaded machine, wall time also counts the waits for a core)


def cpu_timed(name, function):
    """function, recording the CPU time of each call under `name`."""

    def call():
        start = time.process_time()
        result = function()
        CPU.setdefault(name, []).append(time.process_time() - start)
        return result

    return call


def cpu(name):
    return statistics.median(CPU[name])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    quick = parse(parser, argv, __file__).quick
    report_load()
    n = 10_000 if quick else 100_000
    completions, references = corpus(n)
    exact = rewards.quad_reward("asqp_paraphrase")
    soft = rewards.quad_reward("asqp_paraphrase", metric="optimal_f1")
    rounds = 3 if quick else 5
    times = interleaved(
        {
            "rewards exact": cpu_timed("rewards exact", lambda: exact(completions=completions, reference=references)),
            "naive exact": cpu_timed("naive exact", lambda: naive_exact(completions, references)),
            "parser alone": cpu_timed("parser alone", lambda: [PARSER.read(text) for text in completions]),
        },
        rounds,
    )
    (ours, got), (theirs, want) = times["rewards exact"], times["naive exact"]
    print(f"the parser alone, text by text, on the {n:,} completions: {times['parser alone'][0]:.3f} s (CPU {cpu('parser alone'):.3f} s)")
    agree = np.allclose(got, want, rtol=0, atol=1e-12)
    print(f"exact, {n:,} completions: paperscore.rewards {ours:.3f} s (CPU {cpu('rewards exact'):.3f} s), naive loop {theirs:.3f} s (CPU {cpu('naive exact'):.3f} s), ratio {theirs / ours:.2f}x faster; agree: {agree}")
    print(f"  target <= 1 s per 100,000: {ours * 100_000 / n:.3f} s wall, {cpu('rewards exact') * 100_000 / n:.3f} s CPU")
    record("rewards.quad_reward exact F1 vs a naive per-example loop", f"{n:,} completions", ours, theirs, reference_name="parse both sides, Counter intersection, per completion", target="<= 1 s per 100,000", note=f"CPU {cpu('rewards exact'):.3f} s vs {cpu('naive exact'):.3f} s")
    k = min(SOFT_SAMPLE, n) // (20 if quick else 1)
    times = interleaved(
        {"rewards soft": cpu_timed("rewards soft", lambda: soft(completions=completions, reference=references)), "naive soft": lambda: naive_soft(completions[:k], references[:k])},
        {"rewards soft": rounds, "naive soft": 2},
    )
    (ours, got), (theirs, want) = times["rewards soft"], times["naive soft"]
    scaled = theirs * n / k
    soft_agree = np.allclose(got[:k], want, rtol=0, atol=1e-9)
    print(f"soft (optimal_f1), {n:,} completions: paperscore.rewards {ours:.3f} s (CPU {cpu('rewards soft'):.3f} s), naive loop {scaled:.1f} s (on {k:,}, scaled), ratio {scaled / ours:.0f}x faster; agree: {soft_agree}")
    print(f"  target <= 5 s per 100,000: {ours * 100_000 / n:.3f} s wall, {cpu('rewards soft') * 100_000 / n:.3f} s CPU")
    naive = Median([seconds * n / k for seconds in theirs.rounds])  # timed on k completions, scaled
    record("rewards.quad_reward optimal F1 vs quad_match.compute per completion", f"{n:,} completions", ours, naive, reference_name=f"quad_match.compute per completion (timed on {k:,}, scaled)", target="<= 5 s per 100,000", note=f"CPU {cpu('rewards soft'):.3f} s")
    return finish(0 if agree and soft_agree else 1)


if __name__ == "__main__":
    sys.exit(main())
