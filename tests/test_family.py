"""The layers over each family's statistics (compute, states, compare, rewards) give the
figures recorded before the families' statistics became one interface (issue 34)."""

import json
import math
import re

import pytest

import interface_corpus

RECORDED = json.loads(interface_corpus.RECORDED.read_text(encoding="utf-8"))


# Figures from sums of fractional terms (state's docstring): a state fed in several batches
# adds them in another order than before, so they may move in the last bits.
FRACTIONAL = re.compile(r"\.state\.(figures|intervals)\.(example_|iou_|auprc|optimal_|bcub_|ceafe_|lea_|conll_|mor_|zero_)")


def same(got, expected, where):
    """Equal, floats to the last bit (NaN and infinities recorded as text), but for the
    figures of FRACTIONAL sums, equal to relative 1e-12."""
    if isinstance(expected, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(expected), f"{where}: keys {sorted(got)} != {sorted(expected)}"
        for key in expected:
            same(got[key], expected[key], f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected), f"{where}: {got!r:.200} != {expected!r:.200}"
        for i, (g, e) in enumerate(zip(got, expected)):
            same(g, e, f"{where}[{i}]")
    elif isinstance(expected, float) or isinstance(got, float):
        close = FRACTIONAL.search(where) and math.isclose(got, expected, rel_tol=1e-12, abs_tol=1e-15)
        assert isinstance(got, (int, float)) and (got == expected or close or (math.isnan(got) and math.isnan(expected))), f"{where}: {got!r} != {expected!r}"
    else:
        assert got == expected, f"{where}: {got!r} != {expected!r}"


@pytest.fixture(scope="module")
def now():
    return json.loads(json.dumps(interface_corpus._plain(interface_corpus.record())))


@pytest.mark.parametrize("case", sorted(RECORDED))
def test_every_recorded_figure_is_unchanged(now, case):
    # a layer that refused a case before (compare with parse= or exact_only) is not compared here
    same({layer: now[case][layer] for layer in RECORDED[case]}, RECORDED[case], case)


# ---------------------------------------------------------------------------------------
# One interface: a family written here, implementing only paperscore.family.Family, gets
# a state, compare and a reward without touching any other module.

import collections  # noqa: E402
import random  # noqa: E402

import numpy as np  # noqa: E402
from hypothesis import given, settings, strategies as st  # noqa: E402

from paperscore import compare, family, harness, rewards, state  # noqa: E402
from paperscore.core import check_zero_division, prf  # noqa: E402


class WordsFamily(family.Family):
    """Bag-of-words F1: per example the words both texts hold (as multisets), the
    predicted words and the gold words; P, R and F1 of their sums."""

    name = "words"
    counts = (True, True, True)

    def rows(self, predictions, references):
        table = []
        for p, r in zip(predictions, references):
            a, b = collections.Counter(p.split()), collections.Counter(r.split())
            table.append([sum((a & b).values()), sum(a.values()), sum(b.values())])
        return family.Batch(np.array(table, dtype=float).reshape(-1, 3))

    def reduce(self, totals, records=None):
        p, r, f = prf(totals[..., 0], totals[..., 1], totals[..., 2], self.options["zero_division"])
        return {"precision": p, "recall": r, "f1": f}

    def check(self, totals, where):
        if (totals[:, 0] > np.minimum(totals[:, 1], totals[:, 2])).any():
            raise ValueError(f"{where}: more words in common than in a text")


def words(zero_division=0.0):
    return WordsFamily({"zero_division": check_zero_division(zero_division)})


family.register("words", words)
VOCABULARY = "the cat sat on a mat and dog ran".split()


def words_corpus(seed, n):
    rng = random.Random(seed)
    gold = [" ".join(rng.choices(VOCABULARY, k=rng.randint(0, 6))) for _ in range(n)]
    a = [" ".join(w for w in g.split() if rng.random() < 0.8) + rng.choice(["", " dog"]) for g in gold]
    b = [" ".join(w for w in g.split() if rng.random() < 0.6) for g in gold]
    return gold, a, b


def words_oracle(predictions, references):
    """The figures by the definition, from the words themselves."""
    hits = sum(sum((collections.Counter(p.split()) & collections.Counter(r.split())).values()) for p, r in zip(predictions, references))
    predicted, gold = sum(len(p.split()) for p in predictions), sum(len(r.split()) for r in references)
    precision, recall = (hits / predicted if predicted else 0.0), (hits / gold if gold else 0.0)
    return {"precision": precision, "recall": recall, "f1": 2 * precision * recall / (precision + recall) if precision + recall else 0.0}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(0, 30), cuts=st.lists(st.integers(0, 30), max_size=4))
def test_a_new_family_gets_a_state_whose_shards_merge_to_one_pass(seed, n, cuts):
    gold, predictions, _ = words_corpus(seed, n)
    bounds = sorted({0, n, *(min(c, n) for c in cuts)})
    parts = [state.from_dict(json.loads(json.dumps(state.new("words", keep_rows=True).update(predictions[a:b], gold[a:b]).to_dict()))) for a, b in zip(bounds, bounds[1:])]
    merged = state.merge(*parts) if parts else state.new("words", keep_rows=True)
    expected = words_oracle(predictions, gold)
    got = merged.compute()
    assert got == pytest.approx(expected, abs=1e-15)
    one = state.new("words", keep_rows=True).update(predictions, gold)
    if n:  # intervals do not depend on the sharding
        assert merged.compute(confidence_level=0.9, n_resamples=50, seed=1) == one.compute(confidence_level=0.9, n_resamples=50, seed=1)


def test_a_new_family_refuses_a_tampered_state():
    gold, predictions, _ = words_corpus(3, 20)
    data = state.new("words", keep_rows=True).update(predictions, gold).to_dict()
    data["counts"][0] = data["counts"][1] + 1  # more hits than predicted words
    with pytest.raises(ValueError, match="more words in common"):
        state.from_dict(data)


def test_a_new_family_gets_compare_and_a_reward():
    gold, a, b = words_corpus(5, 200)
    family.MODULES  # the built-in names are untouched
    fam = family.get("words")
    ((table_a, codes_a), (table_b, codes_b)), reduce = fam.paired(fam.rows(a, gold), fam.rows(b, gold))
    result = compare.paired_test(table_a, codes_a, table_b, codes_b, reduce, "f1", n_resamples=200, seed=3)
    # the observed scores are the definition's; the interval holds the observed difference
    assert result["score_a"] == pytest.approx(words_oracle(a, gold)["f1"], abs=1e-15)
    assert result["score_b"] == pytest.approx(words_oracle(b, gold)["f1"], abs=1e-15)
    assert result["difference_low"] <= result["difference"] <= result["difference_high"]
    reward = rewards.reward("words", metric="f1")
    got = reward(completions=a, reference=gold)
    expected = [words_oracle([p], [r])["f1"] if (p.split() or r.split()) else 1.0 for p, r in zip(a, gold)]
    assert got == pytest.approx(expected, abs=1e-15)
    totals, rows = reward.statistics(a, reference=gold)
    assert rows == list(range(200)) and fam.figures(totals.sum(0))["f1"] == pytest.approx(words_oracle(a, gold)["f1"], abs=1e-15)


def test_a_new_family_gets_the_harness_aggregation():
    """What every harness integration sends per document and merges at the end."""
    gold, a, _ = words_corpus(7, 150)
    documents = [json.loads(json.dumps(harness.document("words", p, r))) for p, r in zip(a, gold)]
    result = harness.corpus(documents, n_resamples=200, seed=1)
    assert {k: result[k] for k in ("precision", "recall", "f1")} == pytest.approx(words_oracle(a, gold), abs=1e-15)
    assert result["f1_low"] <= result["f1"] <= result["f1_high"]
