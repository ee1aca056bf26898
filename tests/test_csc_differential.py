"""Issue 28: csc_sighan's counts (every year, both correction_match options) and
csc_common's classic presets on equal-length (source, prediction, reference) triples,
computed in one batch, against the plain per-sentence oracle of tests/csc_naive.py summed,
on a 12,000-triple corpus as diverse as real data; and each sentence's counts inside the
batch equal that sentence scored alone. The 2015 and realise figures are also checked
against the benchmarks' per-sentence implementations (tests/benchmarks/)."""

import random
import sys

import csc_naive as naive
import pytest
from conftest import ROOT

from paperscore import csc_common, csc_sighan

sys.path.insert(0, str(ROOT / "tests" / "benchmarks"))
import bench_csc_common  # noqa: E402
import bench_csc_sighan  # noqa: E402

N = 12_000
# Common characters, confusable pairs among them, and punctuation (。/， at the first
# position matters to SpellGCN's label writer).
CHARS = "的地得在再做作已以他她們们門门我你是不了人有这個个上来到时大地为子中说们生国年着就那和要出也得里后自以会家可下而过天去能对小多然于心学么之都好看起发当没成只如事把还用第样道想作种开美总从无情己面最女但现前些所同日手又行意动方期它头经长儿回位分爱老因很给名法间斯知世什两次使身者被高已亲其进此话常与活正感"
PUNCT = "。，、；：？！「」"
SIGHAN_OPTIONS = [
    ("2015", None, "subset"), ("2015", None, "exact"), ("2014", None, "subset"),
    ("2014", None, "exact"), ("2015", None, "set"), ("2013", 1, "subset"), ("2013", 2, "subset"),
]  # fmt: skip
# The csc_common presets whose counts, on equal-length triples without remove_de, are the
# plain position-by-position edits compared as the card states (their differences lie in
# the figures made from these counts, or in rules for other lengths); spellgcn also drops a
# predicted 。/， at the first position. Not here: the LLM presets (cllm projects away
# non-Chinese changes, simple_csc and msllm align every sentence, msllm drops punctuation),
# covered by tests/test_csc_common.py.
COMMON = ("realise", "scope", "spellgcn", "plome", "craspell", "pointer", "faspell", "faspell_nonstrict", "cscd_ns", "pycorrector", "paddle", "lemon")
CHANGE = ("lemon", "faspell_nonstrict")  # any change of an erroneous sentence detects it


def _other(c, rng):
    while True:
        x = rng.choice(CHARS + PUNCT)
        if x != c:
            return x


def triples(n, seed):
    """n (source, prediction, reference) triples of equal lengths 0..150: many distinct
    sentences, 0-5 gold errors, predictions that correct all or part, miss, over-correct,
    put a wrong character at a gold position, swap gold characters, repeat a gold character,
    change nothing, or are punctuation at the first position; about 5% exact repeats."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        if out and rng.random() < 0.05:
            out.append(rng.choice(out))
            continue
        length = rng.choice([0, 1, 2, 3, rng.randint(4, 30), rng.randint(4, 30), rng.randint(31, 150)])
        source = "".join(rng.choice(CHARS) if rng.random() < 0.9 else rng.choice(PUNCT) for _ in range(length))
        n_gold = min(length, rng.choice([0, 0, 0, 1, 1, 1, 2, 2, 3, 4, 5]))
        gold = dict.fromkeys(rng.sample(range(length), n_gold))
        for i in gold:
            gold[i] = _other(source[i], rng)
        reference = "".join(gold.get(i, c) for i, c in enumerate(source))
        pred = {}
        kind = rng.random()
        if kind < 0.3:  # the reference exactly
            pred = dict(gold)
        elif kind < 0.45:  # part of the gold edits
            pred = {i: gold[i] for i in gold if rng.random() < 0.5}
        elif kind < 0.55:  # a wrong character at a gold position
            pred = dict(gold)
            if gold:
                i = rng.choice(list(gold))
                pred[i] = next(c for c in iter(lambda: _other(gold[i], rng), None) if c != source[i])
        elif kind < 0.6:  # gold characters swapped or repeated at the gold positions
            values = list(gold.values())
            if rng.random() < 0.5:
                rng.shuffle(values)
            else:
                values = values[:1] * len(values)
            pred = dict(zip(gold, values))
        elif kind < 0.72:  # over-correction: gold plus edits elsewhere
            pred = dict(gold)
            for i in rng.sample(range(length), min(length, rng.randint(1, 3))):
                pred.setdefault(i, _other(source[i], rng))
        elif kind < 0.78:  # edits at wrong places only
            for i in rng.sample(range(length), min(length, rng.randint(1, 2))):
                if i not in gold:
                    pred[i] = _other(source[i], rng)
        elif kind < 0.81 and length:  # punctuation at the first position
            pred = dict(gold)
            pred[0] = rng.choice("。，") if source[0] not in "。，" else "的"
        # else: the source unchanged
        prediction = "".join(pred[i] if i in pred and pred[i] != source[i] else c for i, c in enumerate(source))
        out.append((source, prediction, reference))
    return out


@pytest.fixture(scope="module")
def corpus():
    data = triples(N, seed=28)
    sources, predictions, references = map(list, zip(*data))
    assert len(set(sources)) > 7_500 and max(map(len, sources)) == 150 and min(map(len, sources)) == 0
    return sources, predictions, references


def _counts(result, columns, prefix=""):
    return {name: result[prefix + name] for name in columns}


@pytest.mark.parametrize(("version", "subtask", "match"), SIGHAN_OPTIONS)
def test_sighan_batch_equals_per_sentence(corpus, version, subtask, match):
    sources, predictions, references = corpus
    kind = "2015" if version != "2013" else f"2013-{subtask}"
    columns = csc_sighan.COLUMNS[kind]
    options = dict(version=version, subtask=subtask, correction_match=match)
    batch = csc_sighan.compute(predictions, references, sources, return_counts=True, **options)
    rows = [naive.sighan(s, p, r, **options) for s, p, r in zip(sources, predictions, references)]
    if kind == "2015":  # the corpus reaches the containment quirk (swapped or repeated gold characters)
        for other in set(csc_sighan.CORRECTION_MATCH) - {match}:
            assert rows != [naive.sighan(s, p, r, **dict(options, correction_match=other)) for s, p, r in zip(sources, predictions, references)]
    assert _counts(batch, columns) == naive.summed(rows, columns)
    if kind == "2015" and match == "subset":  # the figures too, from the benchmark's implementation
        expected = bench_csc_sighan.per_sentence(predictions, references, sources)
        assert {k: batch[k] for k in expected} == pytest.approx(expected, abs=1e-12)
    for k in random.Random(version + str(subtask) + match).sample(range(N), 40):
        alone = csc_sighan.compute([predictions[k]], [references[k]], [sources[k]], return_counts=True, **options)
        assert _counts(alone, columns) == naive.summed([rows[k]], columns), k


def test_common_batch_equals_per_sentence(corpus):
    sources, predictions, references = corpus
    columns = csc_common.COLUMNS
    batch = csc_common.compute(predictions, references, sources, variant="all", return_counts=True)
    rows = {
        (v, change): [naive.common(*x, first_punctuation=v, change=change) for x in zip(sources, predictions, references)]
        for v, change in ((False, False), (True, False), (False, True))
    }  # fmt: skip
    # the corpus reaches the rules that set presets apart: Pointer-Net misses, SpellGCN's
    # dropped 。/，, a wrong change of an erroneous sentence (FASPell non-strict)
    assert naive.summed(rows[False, False], columns)["membership_misses"] > 0 and rows[False, False] != rows[True, False] != rows[False, True]

    def reading(variant):
        return variant == "spellgcn", variant in CHANGE

    for variant in COMMON:
        expected = naive.summed(rows[reading(variant)], columns)
        assert _counts(batch, columns, f"{variant}/") == expected, variant
    # ignore_chars: the edits of those source characters go on both sides, under every preset
    ignore = "的了。，我"
    ignored = csc_common.compute(predictions, references, sources, variant="all", return_counts=True, ignore_chars=ignore)
    sums = {
        key: naive.summed([naive.common(*x, first_punctuation=key[0], change=key[1], ignore=ignore) for x in zip(sources, predictions, references)], columns)
        for key in rows
    }  # fmt: skip
    for variant in COMMON:
        assert _counts(ignored, columns, f"{variant}/") == sums[reading(variant)] != _counts(batch, columns, f"{variant}/"), variant
    figures = bench_csc_common.per_sentence(predictions, references, sources)
    assert {k: batch[f"realise/{k}"] for k in figures} == pytest.approx(figures, abs=1e-12)
    for k in random.Random(5).sample(range(N), 40):
        alone = csc_common.compute([predictions[k]], [references[k]], [sources[k]], variant="all", return_counts=True)
        for variant in COMMON:
            assert _counts(alone, columns, f"{variant}/") == rows[reading(variant)][k], (k, variant)
