"""quad_match benchmark: the whole metric on 10,000 samples of DiaASQ quads; on 10,000
samples of random short Chinese strings (1-8 quads a side), with the batched ROUGE-L
against the same metric calling rouge-score once per distinct pair (the path before it);
and the optimal-assignment step against the card's brute-force enumeration of m!/(m-n)!
matchings on the samples with 7-8 quads on both sides. Prints the times, the ratios and
whether the results agree.

    python tests/benchmarks/bench_quad_match.py          # 10,000 samples
    python tests/benchmarks/bench_quad_match.py --quick  # 1,000 samples, to check it runs

Data: DiaASQ's Chinese and English test quads (tests/data/quad_match/, MIT), alternating.
Each reference takes 1-8 quads of one dialogue (topped up from others of the language);
its prediction drops 10% of them, shortens a target (15%) or an opinion (15%) by a
character or word, swaps an aspect (5%) or a polarity (10%), adds a quad of the same
dialogue 30% of the time, and is shuffled. Target: the whole corpus in <= 2 s with ROUGE-L
and its caches cold (the one-time import of scipy is printed apart).
Agreement: the matched totals equal those of a plain re-implementation (rouge-score called
per pair, matchings enumerated).

Exact match alone (issue 26), against ASQP's own way written plainly here (its
`compute_f1_scores`: each predicted tuple found in the gold list is a hit), on the DiaASQ
corpus, in alternating rounds (A, B, A, B, ...; medians; CPU times beside): from the quad
strings (ASQP decodes each output into a list of tuples, then loops; paperscore
`exact_only=True`), and from quads already decoded (ASQP's loop alone; paperscore given the
lists). Target: paperscore at least as fast as ASQP from the same input; the figures equal.
From lists the target is not met. Why, in figures: the same rounds time three floors, each
made of C-level calls alone (no Python loop). Comparing: ASQP's own membership test
(`map(operator.contains, ...)`, each predicted tuple against its sample's gold list,
nothing checked). Checking: one str.join a quad, the cheapest call found that reads every
element and refuses one that is no string (a pass of `set(map(type, ...))` costs more).
Both: that join and one dict look-up a quad (the keys _exact_lists reads). Comparing alone
costs about ASQP's whole loop and checking about as much again: ASQP's tuple comparisons
mostly end at the first element, so it never reads most elements, while paperscore checks
and normalises every one (strip, NULL, malformed quads) before comparing.

    python tests/benchmarks/bench_quad_match.py --exact  # the exact-match rounds alone

Random Chinese: targets and opinions of 1-5 characters drawn from 30, aspects from 3
categories, polarities from 2; predictions independent of references, so most pairs share
some characters (about 375,000 distinct ROUGE-L pairs, target and opinion). Target: <= 0.5 s, and every result
equal to the rouge-score path's.

Long elements (issue 39): ROUGE-L of two elements of 3,000 Chinese characters (600 with
--quick), the second an edit of the first, against rouge-score on the same pair, time and
peak memory. Target: under 50 ms and 1 MB (rouge-score: seconds and hundreds of MB), the F1
equal.
"""

import argparse
import itertools
import operator
import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "shared"))
sys.path.insert(0, str(ROOT / "tests"))

import diaasq  # noqa: E402
from paperscore import quad  # noqa: E402
from timing import finish, interleaved, parse, record, report_load, timed, traced_peak  # noqa: E402


def shorten(text, rng):
    """Drop a character (Chinese) or a word (English) at either end, as a span error does."""
    units = list(text) if not text.isascii() else text.split()
    if len(units) == 1:
        return text + ("的" if not text.isascii() else "s")
    units = units[1:] if rng.random() < 0.5 else units[:-1]
    return ("" if not text.isascii() else " ").join(units)


def corpus(n_samples, seed=0):
    rng = np.random.default_rng(seed)
    pools = [diaasq.dialogues("en"), diaasq.dialogues("zh")]
    predictions, references = [], []
    for index in range(n_samples):
        pool = pools[index % 2]
        dialogue = pool[rng.integers(len(pool))]
        k = int(rng.integers(1, 9))
        gold = [dialogue[j] for j in rng.permutation(len(dialogue))[:k]]
        while len(gold) < k:
            other = pool[rng.integers(len(pool))]
            gold.append(other[rng.integers(len(other))])
        pred = []
        for target, opinion, aspect, polarity in gold:
            u = rng.random()
            if u < 0.10:
                continue
            if u < 0.25:
                target = shorten(target, rng)
            elif u < 0.40:
                opinion = shorten(opinion, rng)
            elif u < 0.45:
                aspect = dialogue[rng.integers(len(dialogue))][2]
            elif u < 0.55:
                polarity = "neg" if polarity == "pos" else "pos"
            pred.append((target, opinion, aspect, polarity))
        if rng.random() < 0.3:
            pred.append(dialogue[rng.integers(len(dialogue))])
        predictions.append(diaasq.quad_string([pred[j] for j in rng.permutation(len(pred))]))
        references.append(diaasq.quad_string(gold))
    return predictions, references


def plain_degrees(prediction, reference):
    """The degree matrix the slow, obvious way: rouge-score called for every pair."""
    scorer = rouge_scorer()

    def similarity(a, b, free_text):
        if a == b:
            return 1.0
        return scorer.score(b, a)["rougeL"].fmeasure if free_text else 0.0

    pred, gold = quad.split_quads(prediction), quad.split_quads(reference)
    return np.array([[sum(similarity(a, b, k < 2) for k, (a, b) in enumerate(zip(p, g))) / 4 for g in gold] for p in pred])


_INJECTIONS = {}


def enumerate_matchings(block):
    """The card's method: the best total over all m!/(m-n)! injections of the shorter side."""
    if block.shape[0] > block.shape[1]:
        block = block.T
    n, m = block.shape
    if (n, m) not in _INJECTIONS:
        _INJECTIONS[n, m] = np.array(list(itertools.permutations(range(m), n)))
    return block[np.arange(n), _INJECTIONS[n, m]].sum(1).max()



def cold_caches():
    quad.tokenize.cache_clear()


CHARACTERS = list("服务很好价格贵态度环境菜品味道一般不错太差电池屏幕拍照手机外观")


def random_chinese(n_samples, seed=0):
    rng = np.random.default_rng(seed)

    def text():
        return "".join(rng.choice(CHARACTERS, int(rng.integers(1, 6))))

    def sample():
        k = int(rng.integers(1, 9))
        return " & ".join(" | ".join([text(), text(), str(rng.choice(["服务#态度", "价格#水平", "食物#味道"])), str(rng.choice(["正面", "负面"]))]) for _ in range(k))

    return [sample() for _ in range(n_samples)], [sample() for _ in range(n_samples)]


def rouge_scorer():
    """rouge-score's ROUGE-L with the metric's tokenizer: the reference."""
    from rouge_score.rouge_scorer import RougeScorer

    return RougeScorer(["rougeL"], tokenizer=quad.Tokenizer())


def rouge_score_pairs(strings, a, b):
    """The path before the batched LCS: rouge-score called once per distinct pair."""
    scorer = rouge_scorer()
    scored = {}
    for pair in zip(a.tolist(), b.tolist()):
        if pair not in scored and pair[::-1] not in scored:
            scored[pair] = scorer.score(strings[pair[0]], strings[pair[1]])["rougeL"].fmeasure
    return np.array([scored.get(pair, scored.get(pair[::-1])) for pair in zip(a.tolist(), b.tolist())])


def compare_rouge_paths(n_samples, repeat):
    predictions, references = random_chinese(n_samples)
    batched = quad.rouge_l_pairs

    def with_rouge_score():
        quad.rouge_l_pairs = rouge_score_pairs
        try:
            return quad.compute(predictions, references)
        finally:
            quad.rouge_l_pairs = batched

    times = interleaved({"batched": lambda: quad.compute(predictions, references), "rouge-score": with_rouge_score}, {"batched": repeat, "rouge-score": min(repeat, 3)}, before=cold_caches)
    (ours, result), (theirs, expected) = times["batched"], times["rouge-score"]
    same = result == expected
    print(f"quad_match, {n_samples:,} samples of random short Chinese strings, 1-8 quads a side (alternating rounds, medians, caches cold)")
    print(f"  batched ROUGE-L   {ours * 1e3:9.1f} ms   (target <= 500 ms for 10,000 samples)")
    print(f"  rouge-score path  {theirs * 1e3:9.1f} ms   (one rouge-score call per distinct pair)")
    print(f"  ratio             {theirs / ours:9.1f}x   every number equal: {same}")
    record("quad_match, batched ROUGE-L vs rouge-score per pair", f"{n_samples:,} random Chinese samples", ours, theirs, reference_name="the same metric calling rouge-score once per distinct pair", target="<= 0.5 s")
    return same


def compare_long_elements(n_chars):
    """Two elements of n_chars characters as a visitor may paste them (Chinese, the second
    an edit of the first): ROUGE-L against rouge-score on the same pair, time and peak
    memory (tracemalloc), alternating rounds."""
    rng = np.random.default_rng(7)
    alphabet = np.array(list("服务很好价格便宜环境不错菜品一般"))
    first = alphabet[rng.integers(len(alphabet), size=n_chars)]
    second = np.where(rng.random(n_chars) < 0.2, alphabet[rng.integers(len(alphabet), size=n_chars)], first)
    a, b = "".join(first), "".join(second[rng.random(n_chars) > 0.1])
    scorer = rouge_scorer()
    functions = {"paperscore": lambda: quad.rouge_l(a, b), "rouge-score": lambda: scorer.score(a, b)["rougeL"].fmeasure}
    times = interleaved(functions, {"paperscore": 5, "rouge-score": 1})
    (ours, got), (theirs, expected) = times["paperscore"], times["rouge-score"]
    peaks = {name: traced_peak(function) for name, function in functions.items()}
    print(f"ROUGE-L of two elements of {len(a):,} and {len(b):,} Chinese characters (medians)")
    print(f"  paperscore   {ours * 1e3:10.2f} ms   peak {peaks['paperscore'] / 2**20:8.2f} MB   (bit-parallel LCS over Python integers)")
    print(f"  rouge-score  {theirs * 1e3:10.2f} ms   peak {peaks['rouge-score'] / 2**20:8.2f} MB   (its LCS table of Python ints)")
    print(f"  ratio        {theirs / ours:10.1f}x   memory {peaks['rouge-score'] / max(peaks['paperscore'], 1):.0f}x   F1 equal: {got == expected}")
    size = f"two elements of {len(a):,} and {len(b):,} Chinese characters"
    record("quad_match, ROUGE-L of two long elements vs rouge-score", size, ours, theirs, reference_name="rouge-score's LCS table", target="< 50 ms")
    record("quad_match, ROUGE-L of two long elements vs rouge-score, peak memory", size, peaks["paperscore"], peaks["rouge-score"], reference_name="rouge-score's LCS table", unit="B", target="< 1 MB")
    return got == expected


def asqp_decode(text):
    """An output string as ASQP's decoder leaves it: a list of tuples (here split on the
    separators paperscore reads, elements stripped)."""
    return [tuple(e.strip() for e in q.split(quad.ELEMENT_SEP)) for q in text.split(quad.QUAD_SEP)] if text.strip() else []


def asqp_scores(pred_pt, gold_pt):
    """ASQP's compute_f1_scores, plainly: list membership, micro P/R/F1."""
    n_tp, n_gold, n_pred = 0, 0, 0
    for pred, gold in zip(pred_pt, gold_pt):
        n_gold += len(gold)
        n_pred += len(pred)
        for t in pred:
            if t in gold:
                n_tp += 1
    precision = n_tp / n_pred if n_pred else 0
    recall = n_tp / n_gold if n_gold else 0
    return {"exact_precision": precision, "exact_recall": recall, "exact_f1": 2 * precision * recall / (precision + recall) if precision or recall else 0}


def membership_floor(decoded_p, decoded_r):
    """ASQP's membership test with no Python loop: each predicted tuple looked up in its
    sample's gold list by C-level calls alone (no check, no normalising)."""
    golds = itertools.chain.from_iterable(map(itertools.repeat, decoded_r, map(len, decoded_p)))
    return sum(map(operator.contains, golds, itertools.chain.from_iterable(decoded_p)))


def join_floor(lists_p, lists_r):
    """One str.join a quad: reads every element, refuses one that is no string."""
    return list(map("\x00".join, itertools.chain.from_iterable(itertools.chain(lists_p, lists_r))))


def key_floor(lists_p, lists_r):
    """One str.join and one dict look-up a quad (no check, no normalising, no counting)."""
    seen = {}
    return list(map(seen.setdefault, map("\x00".join, itertools.chain.from_iterable(itertools.chain(lists_p, lists_r))), itertools.count()))


def compare_exact_match(predictions, references, rounds):
    warnings.simplefilter("ignore")  # the list rule's warning about repeated quads, once per call
    decoded_p, decoded_r = [asqp_decode(t) for t in predictions], [asqp_decode(t) for t in references]
    lists_p, lists_r = [[list(q) for q in s] for s in decoded_p], [[list(q) for q in s] for s in decoded_r]
    cpu = {}

    def timed_cpu(name, function):  # also this thread's CPU time: on a loaded machine wall time counts the waits for a core
        def call():
            start = time.thread_time()  # not the process's: BLAS threads left spinning by a matrix product would count
            result = function()
            cpu.setdefault(name, []).append(time.thread_time() - start)
            return result

        return call

    functions = {
        "strings": lambda: quad.compute(predictions, references, duplicates="list", exact_only=True),
        "ASQP decode + loop": lambda: asqp_scores([asqp_decode(t) for t in predictions], [asqp_decode(t) for t in references]),
        "lists": lambda: quad.compute(lists_p, lists_r, duplicates="list", exact_only=True),
        "ASQP loop": lambda: asqp_scores(decoded_p, decoded_r),
        "membership": lambda: membership_floor(decoded_p, decoded_r),
        "join": lambda: join_floor(lists_p, lists_r),
        "keys": lambda: key_floor(lists_p, lists_r),
    }
    times = interleaved({name: timed_cpu(name, function) for name, function in functions.items()}, rounds)
    (ours, theirs, ours_data, loop, *_), results = zip(*times.values())
    full, full_result = timed(lambda: quad.compute(predictions, references, duplicates="list"), 1)  # apart: its BLAS threads spin for a while after
    c = {name: statistics.median(values) for name, values in cpu.items()}
    expected = results[1]
    same = all(abs(r[k] - expected[k]) <= 1e-12 for r in (results[0], results[2], results[3], full_result) for k in expected)
    same = same and times["membership"][1] == round(expected["exact_precision"] * sum(map(len, decoded_p)))
    print(f"exact match alone, {len(predictions):,} DiaASQ samples, alternating rounds (median of {rounds}; CPU time in brackets)")
    print(f"  from strings   exact_only {ours * 1e3:8.1f} ms ({c['strings'] * 1e3:6.1f})   ASQP decode + loop {theirs * 1e3:8.1f} ms ({c['ASQP decode + loop'] * 1e3:6.1f})   ratio {theirs / ours:5.2f}x (target >= 1)")
    print(f"  from lists     exact_only {ours_data * 1e3:8.1f} ms ({c['lists'] * 1e3:6.1f})   ASQP loop alone    {loop * 1e3:8.1f} ms ({c['ASQP loop'] * 1e3:6.1f})   ratio {loop / ours_data:5.2f}x (target >= 1; CPU {c['ASQP loop'] / c['lists']:.2f}x)")
    print("  floors, by C-level calls alone (time as a multiple of ASQP's loop, CPU in brackets):")
    for name, what in (("membership", "comparing: ASQP's test, no Python loop"), ("join", "checking: one str.join a quad"), ("keys", "both: that join and one dict look-up")):
        print(f"    {what:42s} {times[name][0] * 1e3:7.1f} ms ({c[name] * 1e3:6.1f})   {times[name][0] / loop:5.2f}x ({c[name] / c['ASQP loop']:.2f}x)")
    print(f"  the full metric (soft match too) from strings, once after the rounds: {full * 1e3:.1f} ms   figures equal: {same}")
    samples = f"{len(predictions):,} DiaASQ samples"
    record("quad_match exact match from strings vs ASQP's decode and loop", samples, ours, theirs, reference_name="ASQP's compute_f1_scores after its decoding", goal=1, target=">= 1x", note=f"CPU {c['strings'] * 1e3:.1f} ms vs {c['ASQP decode + loop'] * 1e3:.1f} ms")
    record("quad_match exact match from decoded lists vs ASQP's loop", samples, ours_data, loop, reference_name="ASQP's loop alone on tuples", goal=1, target=">= 1x", note=f"CPU {c['lists'] * 1e3:.1f} ms vs {c['ASQP loop'] * 1e3:.1f} ms")
    return same


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: check that it runs")
    parser.add_argument("--exact", action="store_true", help="only the exact-match rounds against ASQP (issue 26)")
    args = parse(parser, argv, __file__)
    n_samples, n_large, repeat = (1_000, 20, 2) if args.quick else (10_000, None, 5)
    report_load()
    predictions, references = corpus(n_samples)

    start = time.perf_counter()
    quad.compute(["t | very good | a | pos"], ["t | good | a | pos"])  # imports scipy
    imports = time.perf_counter() - start
    if args.exact:
        return finish(0 if compare_exact_match(predictions, references, 2 * repeat + 1) else 1)
    cold, result = timed(lambda: quad.compute(predictions, references), repeat, before=cold_caches)
    warm, _ = timed(lambda: quad.compute(predictions, references), repeat)
    n_quads = sum(len(quad.split_quads(t)) for t in predictions + references)
    print(f"quad_match, {n_samples:,} DiaASQ samples (zh + en), {n_quads:,} quads, 1-8 reference quads each")
    print(f"  compute      {cold * 1e3:9.1f} ms   caches cold (target <= 2000 ms); warm caches {warm * 1e3:.1f} ms")
    print(f"  one-time import of scipy: {imports * 1e3:.0f} ms")
    record("quad_match, DiaASQ samples, caches cold", f"{n_samples:,} samples", cold, target="<= 2 s", note=f"{n_quads:,} quads")
    print(f"  optimal_f1 {result['optimal_f1']:.4f}   optimal_score {result['optimal_score']:.4f}   exact_f1 {result['exact_f1']:.4f}")

    large = [i for i, (p, r) in enumerate(zip(predictions, references)) if min(len(quad.split_quads(p)), len(quad.split_quads(r))) >= 7]
    large = large[:n_large]
    blocks = [plain_degrees(predictions[i], references[i]) for i in large]

    def hungarian():
        return [block[quad.best_assignment(block)].sum() for block in blocks]

    times = interleaved({"hungarian": hungarian, "enumeration": lambda: [enumerate_matchings(block) for block in blocks]}, {"hungarian": repeat, "enumeration": 1})
    (ours, totals), (theirs, enumerated) = times["hungarian"], times["enumeration"]
    details = quad.compute([predictions[i] for i in large], [references[i] for i in large], details=True)["samples"]
    gap = max(max(abs(a - b), abs(a - d["matched"])) for a, b, d in zip(totals, enumerated, details))
    print(f"optimal assignment, {len(large)} samples with 7-8 quads on both sides (alternating rounds, medians)")
    print(f"  Hungarian    {ours * 1e3:9.2f} ms   (scipy linear_sum_assignment)")
    print(f"  enumeration  {theirs * 1e3:9.2f} ms   (all m!/(m-n)! matchings, numpy-vectorised)")
    print(f"  ratio        {theirs / ours:9.1f}x   max |difference| of the totals (and of compute's) {gap:.1e}")
    record("quad_match optimal assignment, Hungarian vs enumeration", f"{len(large):,} samples with 7-8 quads", ours, theirs, reference_name="the card's m!/(m-n)! enumeration, numpy")
    same = compare_rouge_paths(n_samples, repeat)
    long_same = compare_long_elements(600 if args.quick else 3000)
    exact_same = compare_exact_match(predictions, references, 2 * repeat + 1)
    return finish(0 if gap <= 1e-9 and same and long_same and exact_same else 1)


if __name__ == "__main__":
    raise SystemExit(main())
