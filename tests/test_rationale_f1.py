"""rationale_f1: hand-derived cases, sklearn as the oracle for the token-level numbers,
ERASER's definitions for IOU F1 and AUPRC, inputs as a Trainer passes them, every error,
and the command line."""

import json
import math
import re
import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from rationale_naive import area_under_pr, numbers, sklearn_auprc, unpad
from rationale_naive import corpus as naive_corpus
from rationale_naive import example_row as naive_row
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import auc, f1_score, precision_recall_curve, precision_recall_fscore_support

from paperscore import cli
from paperscore.rationale import COLUMNS, KEYS, compute, scored_tokens, statistics, summarise

warnings.filterwarnings("ignore", category=UndefinedMetricWarning)
POLICIES = {0.0: 0.0, 1.0: 1.0, "nan": np.nan}

# The seed's example (spec B4): rationale and annotation of one 10-token text.
SEED_PRED = [0, 0, 0, 1, 1, 0, 1, 1, 0, 0]
SEED_GOLD = [0, 0, 0, 1, 0, 1, 0, 1, 0, 0]


def same(a, b, tolerance=1e-12):
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= tolerance


# ---------------------------------------------------------------------------------------
# Hand derivations


def test_the_seed_example_gives_the_correct_f1s():
    r = compute([SEED_PRED], [SEED_GOLD])
    # Rationale class: TP = 2 (idx 3, 7), predicted 4, gold 3: P = 1/2, R = 2/3,
    # F1 = 2*2/(4+3) = 4/7 (the seed's table says 1/2, which is this class's precision).
    assert (r["precision"], r["recall"]) == (0.5, pytest.approx(2 / 3))
    assert r["f1"] == pytest.approx(4 / 7, abs=1e-15)
    assert r["sparsity"] == pytest.approx(4 / 10)
    # Both classes: 7 of 10 tokens right, so micro P = R = F1 = 0.7.
    assert r["micro_f1"] == pytest.approx(0.7, abs=1e-15)
    # Class 0: TP0 = 5, predicted 6, gold 7: F1 = 10/13 (the seed's 5/7 is its recall).
    assert r["macro_f1"] == pytest.approx((10 / 13 + 4 / 7) / 2, abs=1e-15)
    assert round(r["macro_f1"], 4) == 0.6703
    # one example: its means are the corpus numbers
    assert (r["example_precision"], r["example_f1"]) == pytest.approx((0.5, 4 / 7))


def test_the_seed_example_against_sklearn():
    r = compute([SEED_PRED], [SEED_GOLD])
    assert same(r["f1"], f1_score(SEED_GOLD, SEED_PRED))
    assert same(r["micro_f1"], f1_score(SEED_GOLD, SEED_PRED, average="micro"))
    assert same(r["macro_f1"], f1_score(SEED_GOLD, SEED_PRED, average="macro"))


def test_corpus_sums_and_per_example_means_differ():
    # Spec B4's second example: [1,1,0,0] against [1,0,0,0] is TP 1, predicted 2, gold 1
    # (F1 2/3). Corpus: TP 3, predicted 6, gold 4, F1 = 6/10; the mean of the two
    # examples' F1s is (4/7 + 2/3)/2 = 13/21 = 0.619.
    r = compute([SEED_PRED, [1, 1, 0, 0]], [SEED_GOLD, [1, 0, 0, 0]])
    assert r["f1"] == pytest.approx(0.6)
    assert r["example_f1"] == pytest.approx(13 / 21)
    assert r["example_precision"] == pytest.approx((1 / 2 + 1 / 2) / 2)
    assert r["example_recall"] == pytest.approx((2 / 3 + 1) / 2)


def test_threshold_at_exactly_one_half_under_both_rules():
    scores_, gold = [[0.5, 0.5, 0.7, 0.2]], [[1, 0, 1, 0]]
    # >= (DMR): tokens 0, 1, 2 selected; TP 2 of 3 predicted, 2 gold.
    r = compute(scores_, gold, threshold_rule=">=")
    assert (r["precision"], r["recall"], r["sparsity"]) == pytest.approx((2 / 3, 1.0, 3 / 4))
    # > (FR, MGR, DAR): only token 2; TP 1 of 1, gold 2.
    r = compute(scores_, gold, threshold_rule=">")
    assert (r["precision"], r["recall"], r["sparsity"]) == pytest.approx((1.0, 0.5, 1 / 4))
    # other thresholds: >= 0.7 keeps token 2 only
    assert compute(scores_, gold, threshold=0.7)["precision"] == 1.0
    # hard 0/1 selections do not depend on the rule at 0.5
    assert compute([SEED_PRED], [SEED_GOLD], threshold_rule=">") == compute([SEED_PRED], [SEED_GOLD])


def test_iou_partial_overlaps():
    # gold span [1,5). Prediction [3,6): intersection {3,4} = 2, union [1,6) = 5, IOU 0.4.
    r = compute([[0, 0, 0, 1, 1, 1, 0, 0]], [[0, 1, 1, 1, 1, 0, 0, 0]])
    assert (r["iou_precision"], r["iou_recall"], r["iou_f1"]) == (0.0, 0.0, 0.0)
    # Prediction [1,4): intersection 3, union 4, IOU 0.75 >= 0.5: P = R = 1.
    r = compute([[0, 1, 1, 1, 0, 0, 0, 0]], [[0, 1, 1, 1, 1, 0, 0, 0]])
    assert (r["iou_precision"], r["iou_recall"], r["iou_f1"]) == (1.0, 1.0, 1.0)
    assert r["f1"] == pytest.approx(2 * 3 / (3 + 4))  # the token F1 is partial


def test_iou_several_spans_and_the_threshold():
    # gold spans [0,2) [4,6) [8,10); predicted [0,2) IOU 1, [5,7) IOU 1/3 (union [4,7)),
    # [9,10) IOU 1/2 (union [8,10)): two matches at 0.5 (the last exactly at it).
    gold = [1, 1, 0, 0, 1, 1, 0, 0, 1, 1]
    pred = [1, 1, 0, 0, 0, 1, 1, 0, 0, 1]
    r = compute([pred], [gold])
    assert (r["iou_precision"], r["iou_recall"]) == pytest.approx((2 / 3, 2 / 3))
    assert r["iou_f1"] == pytest.approx(2 / 3)
    r = compute([pred], [gold], iou_threshold=0.6)  # only the exact span
    assert (r["iou_precision"], r["iou_recall"]) == pytest.approx((1 / 3, 1 / 3))
    r = compute([pred], [gold], per_example=True)
    assert {k: r["per_example"][0][k] for k in ("predicted_spans", "gold_spans", "matched_spans")} == {"predicted_spans": 3, "gold_spans": 3, "matched_spans": 2}


def test_iou_one_prediction_over_two_gold_spans():
    # gold [0,2) and [3,5); the prediction [0,5) covers both: IOU 2/5 with each, no match,
    # while the token F1 is 2*4/(5+4) = 8/9.
    r = compute([[1, 1, 1, 1, 1, 0]], [[1, 1, 0, 1, 1, 0]])
    assert (r["iou_precision"], r["iou_recall"], r["iou_f1"]) == (0.0, 0.0, 0.0)
    assert r["f1"] == pytest.approx(8 / 9)
    # gold [0,3) and [4,5); the prediction [0,5) has IOU 3/5 with the first: it matches one
    # gold span of two, so P = 1/1, R = 1/2, F1 = 2/3.
    r = compute([[1, 1, 1, 1, 1]], [[1, 1, 1, 0, 1]])
    assert (r["iou_precision"], r["iou_recall"], r["iou_f1"]) == pytest.approx((1.0, 0.5, 2 / 3))


def test_iou_averages_precision_and_recall_over_examples_then_takes_f1():
    # Example A: predicted spans [0,1) (matches gold [0,1)) and [2,3) (no gold): P 1/2, R 1/1.
    # Example B: no prediction, two gold spans: R 0/2, and no precision term.
    # ERASER's macro: P = 1/2 (A only), R = (1 + 0)/2 = 1/2, F1 of those = 1/2.
    r = compute([[1, 0, 1], [0, 0, 0]], [[1, 0, 0], [1, 0, 1]])
    assert (r["iou_precision"], r["iou_recall"], r["iou_f1"]) == pytest.approx((0.5, 0.5, 0.5))


def test_auprc_per_example_as_sklearn_and_eraser():
    # Example 1: scores [0.5, 0.5, 0.2, 0.9], gold [0, 1, 1, 0]. By descending score, the
    # points are (R, P) = (0, 0) at 0.9, (1/2, 1/3) at 0.5 (a tie: both tokens at once),
    # (1, 1/2) at 0.2. From (0, 1): 0 + (1/2)(1/3 + 0)/2 + (1/2)(1/2 + 1/3)/2 = 7/24.
    # Example 2: no gold token: sklearn sets recall to 1 at every point, so the area is
    # (1 - 0)(0 + 1)/2 = 1/2 whatever the scores. Example 3: gold ranked first: area 1.
    r = compute([[0.5, 0.5, 0.2, 0.9], [0.3, 0.8], [0.9, 0.4, 0.1]], [[0, 1, 1, 0], [0, 0], [1, 0, 0]], per_example=True)
    assert [row["auprc"] for row in r["per_example"]] == pytest.approx([7 / 24, 0.5, 1.0])
    assert r["auprc"] == pytest.approx((7 / 24 + 0.5 + 1) / 3)
    precision, recall, _ = precision_recall_curve([0, 1, 1, 0], [0.5, 0.5, 0.2, 0.9])
    assert auc(recall, precision) == pytest.approx(7 / 24)


def test_auprc_ties_minus_zero_with_zero_and_float32_with_float64():
    """-0.0 and 0.0 are one score (one point of the curve). Scores -0.0, 0.0, 1.0 against
    gold 0, 1, 1: points (recall 1/2, precision 1) at 1.0, then (1, 2/3) at 0; area
    (1/2)(1 + 1)/2 + (1/2)(1 + 2/3)/2 = 11/12, as sklearn has it."""
    r = compute([[-0.0, 0.0, 1.0]], [[0, 1, 1]], auprc=True)
    assert r["auprc"] == pytest.approx(11 / 12, abs=1e-15)
    assert auc(*precision_recall_curve([0, 1, 1], [-0.0, 0.0, 1.0])[1::-1]) == pytest.approx(11 / 12, abs=1e-15)
    scores32 = np.array([[0.1, 0.7, 0.7, 0.3]], dtype=np.float32)  # a float32 tie stays a tie
    assert compute(scores32, [[0, 1, 0, 1]], auprc=True) == compute(scores32.astype(np.float64), [[0, 1, 0, 1]], auprc=True)


def test_auprc_appears_for_soft_scores_or_on_request():
    assert "auprc" not in compute([SEED_PRED], [SEED_GOLD])
    assert "auprc" not in compute([[0.0, 1.0]], [[0, 1]])  # floats, but hard selections
    assert "auprc" in compute([[0.2, 0.9]], [[0, 1]])
    assert "auprc" not in compute([[0.2, 0.9]], [[0, 1]], auprc=False)
    # forced on 0/1 selections: a two-point curve. [1, 0, 1] against [1, 0, 0]: points
    # (1, 1/2) at score 1, then (1, 1/3); area (1 - 0)(1/2 + 1)/2 = 3/4.
    assert compute([[1, 0, 1]], [[1, 0, 0]], auprc=True)["auprc"] == pytest.approx(0.75)


def test_examples_without_gold_or_without_predicted_tokens():
    # A: gold none, one token predicted: P = 0/1, R undefined. B: two gold, none predicted:
    # P undefined, R = 0/2. C: neither, so it is no instance (ERASER) and enters no mean.
    preds, golds = [[0, 1, 0], [0, 0, 0], [0, 0]], [[0, 0, 0], [1, 1, 0], [0, 0]]
    r = compute(preds, golds)
    assert (r["precision"], r["recall"], r["f1"]) == (0.0, 0.0, 0.0)
    # 8 tokens: TN = 8 - 1 - 2 + 0 = 5; micro = 5/8; class 0 F1 = 2*5/(7 + 6) = 10/13.
    assert r["micro_f1"] == pytest.approx(5 / 8)
    assert r["macro_f1"] == pytest.approx((10 / 13 + 0) / 2)
    assert r["sparsity"] == pytest.approx(1 / 8)
    # per-example means over A and B, the undefined ratio taking zero_division
    assert (r["example_precision"], r["example_recall"], r["example_f1"]) == (0.0, 0.0, 0.0)
    r = compute(preds, golds, zero_division=1.0)
    assert (r["example_precision"], r["example_recall"], r["example_f1"]) == (0.5, 0.5, 0.0)
    r = compute(preds, golds, zero_division="nan")  # undefined ratios left out
    assert (r["example_precision"], r["example_recall"], r["example_f1"]) == (0.0, 0.0, 0.0)
    # IOU: A's span has no gold (P 0/1); B's gold spans have no match (R 0/1).
    assert (r["iou_precision"], r["iou_recall"], r["iou_f1"]) == (0.0, 0.0, 0.0)


def test_nothing_selected_anywhere_takes_the_zero_division_value():
    for zd, expected in ((0.0, 0.0), (1.0, 1.0)):
        r = compute([[0, 0], [0]], [[0, 0], [0]], zero_division=zd)
        assert r["precision"] == r["recall"] == r["f1"] == r["example_f1"] == r["iou_f1"] == expected
        # all 3 tokens right; class 0's F1 is 1, class 1's undefined
        assert r["micro_f1"] == 1.0 and r["macro_f1"] == (1.0 + expected) / 2
    r = compute([[0, 0]], [[0, 0]], zero_division="nan")
    # class 0's F1 is 1, class 1's undefined and left out of the macro mean; no instance
    assert math.isnan(r["f1"]) and r["macro_f1"] == 1.0 and math.isnan(r["example_f1"])
    assert all(v == 0.0 for v in compute([], []).values())


def test_minus_100_padding_is_not_scored_and_spans_run_over_scored_tokens():
    # Scored positions 0, 1, 3: gold [1, 0, 1], predicted [1, 1, 0] (the 0.9 at position 2
    # and the -100 at 4 are padding): TP 1, predicted 2, gold 2.
    padded = compute([[1, 1, 0.9, 0, -100]], [[1, 0, -100, 1, -100]])
    assert (padded["precision"], padded["recall"], padded["sparsity"]) == pytest.approx((0.5, 0.5, 2 / 3))
    # the same as the scored tokens alone, given aligned or compact, lists or arrays
    assert compute([[1, 1, 0]], [[1, 0, 1]]) == padded
    assert compute([[1, 1, 0]], [[1, 0, -100, 1, -100]]) == padded
    assert compute(np.array([[1, 1, 0.9, 0, -100]]), np.array([[1, 0, -100, 1, -100]])) == padded
    # A padded position inside a gold run does not split it: gold [1, -100, 1, 1] is one
    # span of 3 scored tokens; the prediction [1] at the first has IOU 1/3, no match.
    r = compute([[1, 0.2, 0, 0]], [[1, -100, 1, 1]])
    assert (r["iou_precision"], r["iou_recall"]) == (0.0, 0.0)
    assert compute([[0, 1]], [[1, 0]], ignore_index=None)["f1"] == 0.0


def test_a_trainer_batch_as_two_dimensional_arrays():
    # Trainer pads labels and, across batches, predictions with -100.
    predictions = np.array([[0.9, 0.2, 0.7, -100], [0.1, 0.6, 0.3, 0.8]], dtype=np.float32)
    label_ids = np.array([[1, 0, 0, -100], [0, 1, 1, 1]])
    r = compute(predictions, label_ids)
    lists = compute([[0.9, 0.2, 0.7], [0.1, 0.6, 0.3, 0.8]], [[1, 0, 0], [0, 1, 1, 1]])
    assert r == lists
    # float32 0.7 and 0.6 >= 0.5: selected tokens 0, 2 | 1, 3; TP 1 + 2, predicted 4, gold 4
    assert r["f1"] == pytest.approx(6 / 8)
    assert compute(label_ids.astype(bool) * 1, label_ids)["f1"] == 1.0


# ---------------------------------------------------------------------------------------
# sklearn and ERASER's definitions on random inputs

example = st.lists(
    st.tuples(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]) | st.floats(0, 1), st.sampled_from([0, 1, 1, -100])),
    max_size=12,
)
corpora = st.lists(example, min_size=1, max_size=8)


def split(corpus, hard):
    predictions = [[float(s >= 0.5) if hard else s for s, _ in tokens_] for tokens_ in corpus]
    references = [[r for _, r in tokens_] for tokens_ in corpus]
    return predictions, references


def flat_labels(predictions, references, threshold, rule):
    y, p = [], []
    for scores_, gold in unpad(predictions, references):
        y += [int(g) for g in gold]
        p += [int(s >= threshold if rule == ">=" else s > threshold) for s in scores_]
    return y, p


@settings(max_examples=300, deadline=None)
@given(corpora, st.booleans(), st.sampled_from([">=", ">"]), st.sampled_from([0.5, 0.3]), st.sampled_from(list(POLICIES)))
def test_token_numbers_equal_sklearn(corpus, hard, rule, threshold, zero_division):
    predictions, references = split(corpus, hard)
    r = compute(predictions, references, threshold=threshold, threshold_rule=rule, zero_division=zero_division)
    y, p = flat_labels(predictions, references, threshold, rule)
    zd = POLICIES[zero_division]
    if y:
        binary = precision_recall_fscore_support(y, p, labels=[1], average="micro", zero_division=zd)
        assert same(r["precision"], binary[0]) and same(r["recall"], binary[1]) and same(r["f1"], binary[2])
        assert same(r["micro_f1"], f1_score(y, p, labels=[0, 1], average="micro", zero_division=zd))
        assert same(r["macro_f1"], f1_score(y, p, labels=[0, 1], average="macro", zero_division=zd))
        assert same(r["sparsity"], sum(p) / len(p))
    # per-example means: sklearn's average="samples" over the examples with any gold or
    # predicted token, each a row of a token indicator matrix
    rows = [(g, s) for g, s in (split_example(e, threshold, rule) for e in unpad(predictions, references)) if any(g) or any(s)]
    if rows:
        width = max(2, max(len(g) for g, _ in rows))  # sklearn: multilabel needs 2 columns
        Y = np.array([g + [0] * (width - len(g)) for g, _ in rows])
        P = np.array([s + [0] * (width - len(s)) for _, s in rows])
        samples = precision_recall_fscore_support(Y, P, average="samples", zero_division=zd)
        for key, value in zip(("example_precision", "example_recall", "example_f1"), samples[:3]):
            assert same(r[key], value), key
    else:
        assert all(same(r[k], zd) for k in ("example_precision", "example_recall", "example_f1"))


def split_example(example_, threshold, rule):
    scores_, gold = example_
    return [int(g) for g in gold], [int(s >= threshold if rule == ">=" else s > threshold) for s in scores_]


@settings(max_examples=300, deadline=None)
@given(corpora, st.booleans(), st.sampled_from([">=", ">"]), st.sampled_from([0.5, 0.75, 1.0]))
def test_every_number_equals_the_plain_per_example_implementation(corpus, hard, rule, iou_threshold):
    """The plain loops of rationale_naive (ERASER's sets of positions, sklearn per example)."""
    predictions, references = split(corpus, hard)
    r = compute(predictions, references, threshold_rule=rule, iou_threshold=iou_threshold, auprc=True)
    expected = numbers(unpad(predictions, references), threshold_rule=rule, iou_threshold=iou_threshold, with_auprc=True)
    for key, value in expected.items():
        assert same(r[key], value), (key, r[key], value)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.floats(0, 1) | st.sampled_from([0.0, 0.5, 1.0]), min_size=1, max_size=15), min_size=1, max_size=6), st.data())
def test_auprc_equals_sklearn_per_example(scores_, data):
    gold = [data.draw(st.lists(st.sampled_from([0, 1]), min_size=len(s), max_size=len(s))) for s in scores_]
    r = compute(scores_, gold, auprc=True, per_example=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        areas = [auc(*precision_recall_curve(g, s)[1::-1]) for g, s in zip(gold, scores_)]
    assert [row["auprc"] for row in r["per_example"]] == pytest.approx(areas, abs=1e-12)
    assert same(r["auprc"], sum(areas) / len(areas))


@settings(max_examples=200, deadline=None)
@given(corpora, st.booleans(), st.sampled_from(list(POLICIES)))
def test_numbers_lie_in_the_unit_interval(corpus, hard, zero_division):
    r = compute(*split(corpus, hard), zero_division=zero_division, auprc=True)
    for key, value in r.items():
        assert math.isnan(value) or 0.0 <= value <= 1.0, key


@settings(max_examples=150, deadline=None)
@given(corpora)
def test_a_perfect_prediction_scores_one(corpus):
    references = [[r for _, r in tokens_] for tokens_ in corpus]
    if not any(r == 1 for ref in references for r in ref) or not any(r == 0 for ref in references for r in ref):
        return  # a class absent: its F1 takes the zero-division value
    # gold tokens scored 0.9, others 0.1 (padding whatever)
    predictions = [[0.9 if r == 1 else 0.1 for r in ref] for ref in references]
    r = compute(predictions, references)
    for key in KEYS:
        assert r[key] == 1.0 or key == "sparsity", key
    # AUPRC: 1 for every example with gold; 1/2 for one without (sklearn's convention)
    with_tokens = [ref for ref in references if any(x != -100 for x in ref)]
    expected = sum(1.0 if 1 in ref else 0.5 for ref in with_tokens) / len(with_tokens)
    assert r["auprc"] == pytest.approx(expected)


@settings(max_examples=150, deadline=None)
@given(corpora, st.randoms(use_true_random=False))
def test_order_of_examples_does_not_matter(corpus, random):
    predictions, references = split(corpus, False)
    order = list(range(len(corpus)))
    random.shuffle(order)
    shuffled = compute([predictions[i] for i in order], [references[i] for i in order], auprc=True)
    assert shuffled == pytest.approx(compute(predictions, references, auprc=True), abs=1e-12, nan_ok=True)


@settings(max_examples=150, deadline=None)
@given(corpora, st.integers(0, 8))
def test_shards_merge_by_adding_rows(corpus, cut):
    predictions, references = split(corpus, False)
    cut = min(cut, len(corpus))
    rows = []
    for part in (slice(0, cut), slice(cut, None)):
        rows.append(statistics(*scored_tokens(predictions[part], references[part]))[0])
    merged = summarise(np.ones((1, len(corpus))), np.concatenate(rows))
    whole = compute(predictions, references, auprc=True)
    for key, value in merged.items():
        assert same(float(value[0]), whole[key]), key


# ---------------------------------------------------------------------------------------
# Bootstrap, details, signature


def test_bootstrap_is_reproducible_and_brackets_the_estimate():
    rng = np.random.default_rng(0)
    gold = (rng.random((400, 30)) < 0.3).astype(int)
    predictions = np.clip(gold * 0.35 + rng.random((400, 30)) * 0.65, 0, 1)
    r = compute(predictions, gold, confidence_level=0.9, n_resamples=300, seed=3)
    assert r == compute(predictions, gold, confidence_level=0.9, n_resamples=300, seed=3)
    for key in KEYS + ("auprc",):
        assert r[f"{key}_low"] < r[key] < r[f"{key}_high"], key
    assert r != compute(predictions, gold, confidence_level=0.9, n_resamples=300, seed=4)


def test_bootstrap_resamples_examples():
    # 50 copies of one example: every resample is the same corpus, so the interval is a
    # point; two kinds of example in equal numbers spread it.
    r = compute([SEED_PRED] * 50, [SEED_GOLD] * 50, confidence_level=0.95, n_resamples=200, seed=0)
    assert r["f1_low"] == pytest.approx(4 / 7) and r["f1_high"] == pytest.approx(4 / 7)
    r = compute([SEED_PRED, [1, 1, 0, 0]] * 25, [SEED_GOLD, [1, 0, 0, 0]] * 25, confidence_level=0.95, n_resamples=200, seed=0)
    assert r["example_f1_low"] < 13 / 21 < r["example_f1_high"]


def test_per_example_details():
    r = compute([SEED_PRED, [1, 1, 0, 0]], [SEED_GOLD, [1, 0, 0, 0]], per_example=True)
    assert r["per_example"] == [
        {"tokens": 10, "gold": 3, "predicted": 4, "tp": 2, "precision": 0.5, "recall": 2 / 3, "f1": 4 / 7, "predicted_spans": 2, "gold_spans": 3, "matched_spans": 2},
        {"tokens": 4, "gold": 1, "predicted": 2, "tp": 1, "precision": 0.5, "recall": 1.0, "f1": 2 / 3, "predicted_spans": 1, "gold_spans": 1, "matched_spans": 1},
    ]


def test_signature_names_the_options():
    r = compute([SEED_PRED], [SEED_GOLD], threshold_rule=">", return_signature=True)
    assert without_references(r["signature"]).startswith("rationale_f1|threshold:0.5|threshold_rule:>|iou_threshold:0.5|ignore_index:-100|zero_division:0|paperscore:")


# ---------------------------------------------------------------------------------------
# Bad input


@pytest.mark.parametrize(
    "predictions, references, kwargs, message",
    [
        ([[1, 0]], [[1, 2]], {}, r"references\[0\]\[1\]: 2 is not 0, 1 or ignore_index -100"),
        ([[1, 0]], [[1, 0.5]], {}, r"references\[0\]\[1\]: 0.5 is not 0, 1 or ignore_index -100"),
        ([[1, 0], [0, 1.5]], [[1, 0], [0, 1]], {}, r"predictions\[1\]\[1\]: 1.5 is not a 0/1 selection or a score in \[0, 1\]"),
        ([[float("nan")]], [[1]], {}, r"predictions\[0\]\[0\]: nan is not a 0/1"),
        ([[-100, 1]], [[1, 1]], {}, r"predictions\[0\]\[0\]: -100 is not a 0/1"),
        ([[1, 0], [1, 0, 1]], [[1, 0], [1, 0, 0, -100, 1]], {}, r"predictions\[1\]: has 3 tokens but references\[1\] has 5 \(4 once ignore_index"),
        ([[1]], [[1], [0]], {}, "differ in length: 1 against 2"),
        ([[1], 1], [[1], [1]], {}, r"predictions\[1\]: expected a sequence of numbers, got int 1"),
        (["0110"], [[0, 1, 1, 0]], {}, r"predictions\[0\]: expected a sequence of numbers, got str"),
        ([[1, "1"]], [[1, 1]], {}, r"predictions\[0\]\[1\]: expected a number, got str '1'"),
        ([[1], [None]], [[1], [1]], {}, r"predictions\[1\]\[0\]: expected a number, got NoneType None"),
        ([[1, [0, 1]]], [[1, 1]], {}, r"predictions\[0\]\[1\]: expected a number, got list"),
        # tokens nested in lists, every example as long (once read as one token each)
        ([[[1]]], [[1]], {}, r"predictions\[0\]\[0\]: expected a number, got list \[1\]"),
        ([[[1, 0]], [[0, 1]]], [[1], [0]], {}, r"predictions\[0\]\[0\]: expected a number, got list \[1, 0\]"),
        ([[1], [0]], [[[1]], [[0]]], {}, r"references\[0\]\[0\]: expected a number, got list \[1\]"),
        (np.zeros((2, 3, 2)), np.zeros((2, 3)), {}, r"predictions: expected one sequence .* got an array of shape \(2, 3, 2\); pass the rationale class's scores"),
        (np.zeros(3), np.zeros(3), {}, r"predictions: expected one sequence of tokens per example \(2 dimensions\), got an array of shape \(3,\)"),
        ([[1]], [[1]], {"threshold_rule": "=>"}, "threshold_rule: '=>' is not one of '>=', '>'"),
        ([[1]], [[1]], {"threshold": 1.5}, r"threshold: 1.5 is not a number in \[0, 1\]"),
        ([[1]], [[1]], {"threshold": "0.5"}, "threshold: '0.5' is not a number"),
        ([[1]], [[1]], {"iou_threshold": 0.3}, r"iou_threshold: 0.3 is not a number in \[0.5, 1\]: below 0.5"),
        ([[1]], [[1]], {"auprc": "yes"}, "auprc: 'yes' is not None, True or False"),
        ([[1]], [[1]], {"auprc": 1}, "auprc: 1 is not None, True or False"),  # 1 == True
        ([[1]], [[1]], {"ignore_index": True}, "ignore_index: True is not an integer or None"),
        ([[1]], [[1]], {"confidence_level": 0.9, "seed": "abc"}, "seed: 'abc' is not a non-negative integer"),
        ([[1]], [[1]], {"confidence_level": 0.9, "seed": 1.5}, "seed: 1.5 is not a non-negative integer"),
        ([[1]], [[1]], {"threshold": None}, "threshold: None is not a number"),
        ([[1]], [[1]], {"iou_threshold": [1]}, r"iou_threshold: \[1\] is not a number"),
        ([[1]], [[1]], {"confidence_level": 0.9, "n_resamples": "9"}, "n_resamples: '9' is not an integer from 1 to 1,000,000"),
        ([[1, 0]], [[1, 2**70]], {}, r"references\[0\]\[1\]: 1180591620717411303424 is outside the 64-bit integer range"),
        ([[1, 2**64 - 1]], [[1, 0]], {}, r"predictions\[0\]\[1\]: [0-9.e+]+ is not a 0/1 selection"),
        ([[1]], [[1]], {"ignore_index": "-100"}, "ignore_index: '-100' is not an integer or None"),
        ([[1]], [[1]], {"zero_division": "warn"}, "zero_division"),
        ([[1]], [[1]], {"confidence_level": 95}, "confidence_level"),
    ],
)
def test_bad_input_is_a_value_error_that_says_where(predictions, references, kwargs, message):
    with pytest.raises(ValueError, match=message):
        compute(predictions, references, **kwargs)


@pytest.mark.parametrize(
    "corpus, message",
    [
        ("0110", r"expected a list of examples, got a str \(to score one example"),
        (None, "expected a list of examples, got NoneType"),
        (True, "expected a list of examples, got bool"),
        (3, "expected a list of examples, got int"),
        ({1, 2}, "expected a list of examples, got set"),
        (([1, 0] for _ in range(2)), "expected a list of examples, got generator"),
    ],
    ids=["str", "None", "bool", "int", "set", "generator"],
)
def test_a_corpus_that_is_not_a_list_is_refused_in_every_entry_point(corpus, message):
    """Issue 15: a TypeError (has no len()) before, or characters as examples."""
    references = [[1, 0], [0, 1]]
    with pytest.raises(ValueError, match="predictions: " + message):
        compute(corpus, references)
    metric = space_metric().fresh()
    for call in (metric.compute, metric.add_batch):
        with pytest.raises(ValueError, match="predictions: " + message):
            call(predictions=corpus, references=references)


# ---------------------------------------------------------------------------------------
# Command line


def run_cli(argv, capsys):
    code = cli.main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return str(path)


def test_cli_json_is_what_compute_returns(tmp_path, capsys):
    preds = [[0.1, 0.9, 0.5, 0.2], [0.8, 0.3, -100]]
    golds = [[0, 1, 0, 1], [1, 0, -100]]
    argv = ["rationale", "--predictions", write_jsonl(tmp_path / "p.jsonl", preds), "--references", write_jsonl(tmp_path / "r.jsonl", golds)]
    code, out, _ = run_cli(argv + ["--threshold-rule", ">", "--json"], capsys)
    assert code == 0
    assert json.loads(out) == compute(preds, golds, threshold_rule=">", return_signature=True)
    code, out, _ = run_cli(argv + ["--no-auprc", "--json"], capsys)
    assert "auprc" not in json.loads(out)


def test_cli_prints_a_table_with_per_example_rows_and_the_signature(tmp_path, capsys):
    argv = ["rationale", "--predictions", write_jsonl(tmp_path / "p.jsonl", [SEED_PRED]), "--references", write_jsonl(tmp_path / "r.jsonl", [SEED_GOLD])]
    code, out, _ = run_cli(argv + ["--per-example", "--iou-threshold", "0.75"], capsys)
    assert code == 0
    assert re.search(r"^f1 +0\.571429$", out, re.M) and re.search(r"^macro_f1 +0\.670330$", out, re.M)
    assert "per_example" in out and re.search(r"^0 +10 +3 +4 +2 ", out, re.M)
    assert without_references(out.rstrip()).endswith("|zero_division:0|paperscore:0.1.0") and "iou_threshold:0.75" in out


def test_cli_bootstrap_options_reach_compute(tmp_path, capsys):
    argv = ["rationale", "--predictions", write_jsonl(tmp_path / "p.jsonl", [SEED_PRED, [1, 0]]), "--references", write_jsonl(tmp_path / "r.jsonl", [SEED_GOLD, [1, 1]])]
    code, out, _ = run_cli(argv + ["--confidence-level", "0.9", "--n-resamples", "50", "--seed", "2", "--json"], capsys)
    result = json.loads(out)
    assert code == 0 and "example_f1_low" in result and "bootstrap:50@0.9|seed:2" in result["signature"]


def test_cli_scores_the_sample_files_as_the_plain_implementation(capsys):
    """200 Trainer-style references padded with -100, soft predictions of the scored
    tokens only (tests/data/rationale_f1/README.md)."""
    from conftest import DATA

    pred, gold = DATA / "rationale_f1" / "sample.pred.jsonl", DATA / "rationale_f1" / "sample.gold.jsonl"
    code, out, _ = run_cli(["rationale", "--predictions", str(pred), "--references", str(gold), "--threshold-rule", ">", "--json"], capsys)
    assert code == 0
    result = json.loads(out)
    rows = [[json.loads(line) for line in path.read_text().splitlines()] for path in (pred, gold)]
    expected = numbers(unpad(*rows), threshold_rule=">", with_auprc=True)
    assert set(result) == set(expected) | {"signature"}
    for key, value in expected.items():
        assert same(result[key], value), key


@pytest.mark.parametrize(
    "pred_text, message",
    [
        ("[1, 0]\n\n[1]\n", "--predictions: .* line 2 is empty"),
        ("[1, 0]\n[1, 2]\n", r"predictions\[1\]\[1\]: 2 is not a 0/1 selection"),
        ("1 0\n[1, 0]\n", r"predictions\[0\]: expected a sequence of numbers, got str '1 0'"),
        ("[1, 0]\n", "differ in length: 1 against 2"),
    ],
)
def test_cli_bad_files_exit_1_with_the_reason(tmp_path, capsys, pred_text, message):
    (tmp_path / "p.jsonl").write_text(pred_text)
    argv = ["rationale", "--predictions", str(tmp_path / "p.jsonl"), "--references", write_jsonl(tmp_path / "r.jsonl", [[1, 0], [1, 0]])]
    code, out, err = run_cli(argv, capsys)
    assert code == 1 and out == ""
    assert err.startswith("paperscore rationale: error: ") and re.search(message, err), err


# ---------------------------------------------------------------------------------------
# Through evaluate

_metric = []


def space_metric():
    """The Space's metric through evaluate, loaded once."""
    if not _metric:
        import evaluate
        from conftest import SPACES_DIR

        _metric.append(evaluate.load(str(SPACES_DIR / "rationale_f1"), keep_in_memory=True))
    return _metric[0]


@settings(max_examples=20, deadline=None)
@given(corpora, st.lists(st.integers(0, 8), max_size=3))
def test_batches_added_through_evaluate_equal_one_pass(corpus, cuts):
    predictions, references = split(corpus, False)
    bounds = [0] + sorted(min(c, len(corpus)) for c in cuts) + [len(corpus)]
    metric = space_metric()
    for start, stop in zip(bounds, bounds[1:]):
        if stop > start:
            metric.add_batch(predictions=predictions[start:stop], references=references[start:stop])
    assert metric.compute(auprc=True) == compute(predictions, references, auprc=True)


def test_the_stored_columns_read_as_arrow_are_the_values_as_given():
    """The Space reads evaluate's stored columns as pyarrow (space.from_arrow) instead of
    Python lists: the same values, whatever the shape of the batches."""
    import pyarrow as pa

    from paperscore.space import from_arrow

    ragged = [[0.25, 1.0], [], [0.5, 0.0, 0.75]]
    chunked = pa.chunked_array([pa.array(ragged[:2], pa.list_(pa.float64())), pa.array(ragged[2:], pa.list_(pa.float64()))])
    assert [list(example) for example in from_arrow(chunked)] == ragged
    square = pa.array([[1, -100], [0, 1], [-100, -100]], pa.list_(pa.int64()))
    assert from_arrow(square).tolist() == [[1, -100], [0, 1], [-100, -100]] and from_arrow(square).dtype == np.int64
    assert from_arrow(square.slice(1, 2)).tolist() == [[0, 1], [-100, -100]]  # offsets not from 0
    assert from_arrow(pa.array([[], []], pa.list_(pa.float64()))).shape == (2, 0)
    assert from_arrow(pa.array([2**62 + 1], pa.int64())) == [2**62 + 1]  # not a list column: Python values
    assert from_arrow(pa.chunked_array([pa.array(["a", "b"])])) == ["a", "b"]
    assert from_arrow(pa.array([[0.5], None], pa.list_(pa.float64()))) == [[0.5], None]  # nulls as evaluate gives them
    assert from_arrow(pa.array([[0.5, None]], pa.list_(pa.float64()))) == [[0.5, None]]
    assert from_arrow([[1, 0]]) == [[1, 0]]
    # at users' sizes: 10,000 examples of 0 to 120 tokens in three chunks, against
    # to_pylist (what evaluate's default format gives), each example alone too
    rng = np.random.default_rng(3)
    lengths = rng.integers(0, 121, 10_000)
    lengths[::97] = 0
    examples = [rng.random(k).round(rng.integers(1, 4)).tolist() for k in lengths]
    column = pa.chunked_array([pa.array(examples[a:b], pa.list_(pa.float64())) for a, b in ((0, 10), (10, 6000), (6000, 10_000))])
    read = from_arrow(column)
    assert len(read) == 10_000 and all(list(got) == want for got, want in zip(read, column.to_pylist()))
    assert [list(example) for example in from_arrow(column[4321:4322])] == [examples[4321]]
    # through evaluate, ragged and square batches and both sides' dtypes
    metric = space_metric()
    references = [rng.integers(0, 2, k).tolist() for k in lengths]
    metric.add_batch(predictions=examples[:3000], references=references[:3000])
    assert metric.compute(predictions=examples[3000:], references=references[3000:]) == compute(examples, references)
    for predictions, references in (([[1, 0, 1], [0.5]], [[1, 1, -100], [0]]), ([[0.2, 0.9]] * 3, [[0, 1]] * 3), ([[], [1]], [[], [1]])):
        metric.add_batch(predictions=predictions[:1], references=references[:1])
        metric.add_batch(predictions=predictions[1:], references=references[1:])
        assert metric.compute(per_example=True) == compute(predictions, references, per_example=True)


def test_the_metric_script_takes_exactly_the_package_arguments():
    import inspect

    parameters = list(inspect.signature(type(space_metric())._compute).parameters.values())[1:]
    assert parameters == list(inspect.signature(compute).parameters.values())


@pytest.mark.parametrize(
    "predictions, references, message",
    [
        # evaluate's int feature would truncate 0.5 to 0, its float feature read "0.5" as 0.5
        ([[0.2, 0.9]], [[0.5, 1]], r"references\[0\]\[0\]: 0.5 is not 0, 1 or an ignore_index"),
        ([["0.5", 0.9]], [[0, 1]], r"predictions\[0\]\[0\]: expected a number, got str '0.5'"),
        ([[0.2, 0.9]], [["0", "1"]], r"references\[0\]\[0\]: expected a number, got str '0'"),
    ],
)
def test_evaluate_add_batch_refuses_what_its_features_would_coerce(predictions, references, message):
    metric = space_metric()
    with pytest.raises(ValueError, match=message):
        metric.add_batch(predictions=predictions, references=references)
    with pytest.raises(ValueError, match=message):
        metric.add(prediction=predictions[0], reference=references[0])
    assert metric.compute(predictions=[[0.2, 0.9]], references=[[0, 1]])["f1"] == 1.0


# ---------------------------------------------------------------------------------------
# Tensors (issue 11 part 3): what a training loop hands over


def tensor_batches(score_dtype, label_dtype, n=12, length=9, size=4):
    """A token-selection head's loop: per-token probabilities (or their 0/1 decision) and
    batch["labels"] padded with -100 after each text's own length."""
    generator = torch.Generator().manual_seed(5)
    scores = torch.rand(n, length, generator=generator)
    labels = torch.randint(0, 2, (n, length), generator=generator)
    for i, stop in enumerate(torch.randint(3, length + 1, (n,), generator=generator).tolist()):
        labels[i, stop:] = -100
    scores = (scores >= 0.5) if score_dtype == torch.bool else scores.to(score_dtype)
    return [(scores[s : s + size], labels[s : s + size].to(label_dtype)) for s in range(0, n, size)]


def as_lists(batches):
    return [row for p, _ in batches for row in p.tolist()], [row for _, r in batches for row in r.tolist()]


@pytest.mark.parametrize(
    "score_dtype, label_dtype",
    [(torch.float32, torch.int64), (torch.float64, torch.int32), (torch.float16, torch.int16), (torch.bool, torch.int64), (torch.int64, torch.int64)],
    ids=str,
)
def test_tensors_in_every_entry_point_equal_the_list_form(score_dtype, label_dtype):
    if score_dtype == torch.int64:  # 0/1 selections as an int tensor
        batches = [(p.to(torch.int64), r) for p, r in tensor_batches(torch.bool, label_dtype)]
    else:
        batches = tensor_batches(score_dtype, label_dtype)
    predictions, references = as_lists(batches)
    expected = compute(predictions, references)
    assert compute(torch.cat([p for p, _ in batches]), torch.cat([r for _, r in batches])) == expected
    assert compute([row for p, _ in batches for row in p], [row for _, r in batches for row in r]) == expected
    metric = space_metric().fresh()
    for p, r in batches:
        metric.add_batch(predictions=p, references=r)
    assert metric.compute() == expected
    for p, r in batches:
        for prediction, reference in zip(p, r):
            metric.add(prediction=prediction, reference=reference)
    assert metric.compute() == expected


def test_bool_masks_on_both_sides_are_selections():
    """A bool rationale mask against a bool annotation: True = selected / gold. The seed's
    example as masks gives the seed's numbers (F1 4/7, see the first test)."""
    predictions = torch.tensor([SEED_PRED], dtype=torch.bool)
    references = torch.tensor([SEED_GOLD], dtype=torch.bool)
    assert compute(predictions, references)["f1"] == pytest.approx(4 / 7, abs=1e-12)
    metric = space_metric().fresh()
    metric.add_batch(predictions=predictions, references=references)
    assert metric.compute() == compute([SEED_PRED], [SEED_GOLD])


def test_a_fractional_float_tensor_of_references_is_refused_in_every_entry_point():
    predictions, references = torch.tensor([[0.2, 0.9]]), torch.tensor([[0.5, 1.0]])
    message = r"references\[0\]\[0\]: 0.5 is not 0, 1"
    with pytest.raises(ValueError, match=message):
        compute(predictions, references)
    metric = space_metric().fresh()
    for call in (metric.compute, metric.add_batch):
        with pytest.raises(ValueError, match=message):
            call(predictions=predictions, references=references)
    with pytest.raises(ValueError, match=message):
        metric.add(prediction=predictions[0], reference=references[0])


# ---------------------------------------------------------------------------------------
# Configuration names (issue 11 part 3)


def test_configs_select_each_papers_rule_through_load_and_combine():
    """Scores at exactly 0.5: [0.5, 0.5, 0.9, 0.1] against [1, 0, 1, 0]. ">=" (DMR,
    ERASER) selects tokens 0, 1, 2: TP 2, predicted 3, gold 2 -> F1 4/5. ">" (FR, MGR,
    DAR) selects token 2 only: TP 1, predicted 1, gold 2 -> F1 2/3."""
    import evaluate
    from conftest import SPACES_DIR

    predictions, references = [[0.5, 0.5, 0.9, 0.1]], [[1, 0, 1, 0]]
    expected = {"dmr": 4 / 5, "eraser": 4 / 5, "fr": 2 / 3, "mgr": 2 / 3, "dar": 2 / 3}
    names = type(space_metric()).configs
    assert set(names) == set(expected)
    for name, f1 in expected.items():
        configured = evaluate.load(str(SPACES_DIR / "rationale_f1"), config_name=name, keep_in_memory=True)
        assert configured.compute(predictions=predictions, references=references)["f1"] == pytest.approx(f1, abs=1e-12), name
        assert evaluate.combine([configured]).compute(predictions=predictions, references=references)["f1"] == pytest.approx(f1, abs=1e-12), name
    # an explicit argument wins over the configuration
    assert configured.compute(predictions=predictions, references=references, threshold_rule=">=")["f1"] == pytest.approx(4 / 5)
    with pytest.raises(ValueError, match=r"config_name: 'a2r' .*'dmr', 'fr', 'mgr', 'dar', 'eraser'"):
        evaluate.load(str(SPACES_DIR / "rationale_f1"), config_name="a2r")


# ---------------------------------------------------------------------------------------
# The batch against the plain per-example definition at users' sizes (issue 28): 10,000
# examples as diverse as real data, every option. Integer widths: the counts are int64
# sums of at most the corpus's tokens, held as float64 in the rows, exact up to 2^53
# tokens (more than memory holds); checked equal to the plain counts below.


def realistic_corpus(n=10_000, seed=0):
    """Predictions and references as lists: empty examples, 1-5 tokens, 20-120 tokens and
    a few of 400-1,500; gold rationales of 1-3 spans, all-annotated and unannotated
    examples; hard masks near the gold, all- and none-selected masks, soft scores rounded
    to 1-3 decimals (ties) with values exactly at 0.5; -100 padding after the tokens, the
    prediction either aligned with it (any value under the padding) or compact."""
    rng = np.random.default_rng(seed)
    predictions, references = [], []
    for _ in range(n):
        kind = rng.random()
        length = 0 if kind < 0.03 else int(rng.integers(1, 6)) if kind < 0.2 else int(rng.integers(20, 121)) if kind < 0.98 else int(rng.integers(400, 1501))
        gold = np.zeros(length, dtype=int)
        shape = rng.random()
        if shape < 0.1:
            gold[:] = 1
        elif shape >= 0.2 and length:
            for _ in range(int(rng.integers(1, 4))):
                start = int(rng.integers(0, length))
                gold[start : start + int(rng.integers(1, 13))] = 1
        mode = rng.random()
        if mode < 0.35:
            scores_ = np.where(rng.random(length) < 0.85, gold, 1 - gold).astype(float)
        elif mode < 0.45:
            scores_ = np.full(length, float(rng.random() < 0.5))
        else:
            scores_ = np.clip(gold * 0.5 + rng.random(length) * 0.6, 0, 1).round(int(rng.integers(1, 4)))
            scores_[rng.random(length) < 0.05] = 0.5
        pad = int(rng.integers(1, 6)) if rng.random() < 0.5 else 0
        compact = pad and rng.random() < 0.5
        predictions.append(scores_.tolist() + ([] if compact else rng.random(pad).round(2).tolist()))
        references.append(gold.tolist() + [-100] * pad)
    return predictions, references


@pytest.fixture(scope="module")
def realistic():
    predictions, references = realistic_corpus()
    return predictions, references, unpad(predictions, references)


OPTIONS = [
    dict(threshold=0.5, threshold_rule=">=", iou_threshold=0.5, zero_division=0.0, auprc=True),
    dict(threshold=0.5, threshold_rule=">", iou_threshold=1.0, zero_division="nan", auprc=False),
    dict(threshold=0.0, threshold_rule=">=", iou_threshold=0.75, zero_division=1.0, auprc=None),  # every token selected
    dict(threshold=0.3, threshold_rule=">", iou_threshold=0.5, zero_division="nan", auprc=True),
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_ten_thousand_real_looking_examples_equal_the_plain_definition(realistic, options):
    predictions, references, examples = realistic
    zd = POLICIES[options["zero_division"]]
    with_auprc = options["auprc"] is not False  # None: the corpus holds soft scores
    plain = [
        naive_row(scores_, truth, options["threshold"], options["threshold_rule"], options["iou_threshold"], zd, with_auprc)
        for scores_, truth in examples
    ]  # fmt: skip
    # the batch equals the plain definition summed
    r = compute(predictions, references, per_example=True, **options)
    expected = naive_corpus(plain, zd, with_auprc)
    assert set(r) - {"per_example"} == set(expected)
    for key, value in expected.items():
        assert same(r[key], value), (key, r[key], value)
    # each example's row in the batch is the plain one, exactly (counts and ratios alike)
    rows, spans_ = statistics(*scored_tokens(predictions, references), options["threshold"], options["threshold_rule"], options["iou_threshold"], zd, with_auprc)
    assert (rows[:, :4] == rows[:, :4].round()).all() and rows[:, 3].sum() == sum(len(s) for s, _ in examples)
    for i, row in enumerate(plain):
        assert np.array_equal([row[c] for c in COLUMNS], rows[i], equal_nan=True), (i, row, rows[i])
        assert all(spans_[key][i] == row[key] for key in spans_), i
    for detail, row in zip(r["per_example"], plain):
        assert {k: detail[k] for k in ("tokens", "gold", "predicted", "tp")} == {k: row[k] for k in ("tokens", "gold", "predicted", "tp")}
    # and to that example scored alone (every 10th example, each kind among them)
    for i in range(0, len(predictions), 10):
        alone, _ = statistics(*scored_tokens(predictions[i : i + 1], references[i : i + 1]), options["threshold"], options["threshold_rule"], options["iou_threshold"], zd, with_auprc)
        assert np.array_equal(alone[0], rows[i], equal_nan=True), i


def test_the_plain_auprc_is_sklearns(realistic):
    """The plain definition of AUPRC (rationale_naive.area_under_pr) against sklearn's
    precision_recall_curve + auc on 500 of the examples."""
    _, _, examples = realistic
    checked = [(s, g) for s, g in examples[:2000] if s][:500]
    assert any(not any(g) for _, g in checked) and any(all(g) for _, g in checked)
    for scores_, truth in checked:
        assert area_under_pr(scores_, truth) == pytest.approx(sklearn_auprc(scores_, truth), abs=1e-12)


# ---------------------------------------------------------------------------------------
# The demo as the Space runs it (python app.py), under hostile and heavy use (issue 28)


def visit(url, session, inputs):
    """One request to the demo's compute endpoint over plain HTTP, in session `session`."""
    import urllib.request

    ask = urllib.request.Request(f"{url}gradio_api/call/compute", json.dumps({"data": inputs, "session_hash": session}).encode(), {"Content-Type": "application/json"})
    event = json.load(urllib.request.urlopen(ask, timeout=30))["event_id"]
    answer = urllib.request.urlopen(f"{url}gradio_api/call/compute/{event}", timeout=30).read().decode()
    return json.loads(answer.split("event: complete\ndata: ", 1)[1])


def test_the_demo_refuses_deep_json_keeps_serving_and_holds_few_sessions(monkeypatch):
    """`"[" * 5000` is a message, not a RecursionError, and the server answers the next
    request; each visitor session holds a copy of the page's state, and the demo as
    launched keeps the SESSIONS most recent ones, not Gradio's 10,000 (the memory that
    grew from 532 MB to 3.1 GB under 50 clients)."""
    import runpy

    import gradio as gr
    from conftest import SPACES_DIR, free_port
    from gradio_client import Client
    from gradio_client.exceptions import AppError

    port, launch = free_port(), gr.Blocks.launch
    monkeypatch.setattr(gr.Blocks, "launch", lambda self, **kwargs: launch(self, server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True, **kwargs))
    app = runpy.run_path(str(SPACES_DIR / "rationale_f1" / "app.py"), run_name="__main__")
    demo, url = app["demo"], f"http://127.0.0.1:{port}/"
    try:
        client = Client(url, verbose=False)
        with pytest.raises(AppError, match=re.escape("predictions (example 1): a JSON list nested too deeply to read")):
            client.predict(predictions="[" * 5000, api_name="/compute")
        expected = client.predict(api_name="/compute")[0]
        assert expected["f1"] > 0
        for i in range(app["SESSIONS"] + 5):  # visitors, each in a session of their own
            assert visit(url, f"visitor-{i}", ["1 0", "1 1", "", ">=", 0.5, "0", app["NO_PARSER"], ""])[0]["f1"] == 2 / 3
        assert len(demo.state_holder.session_data) == app["SESSIONS"] < 60
    finally:
        demo.close()


# ---------------------------------------------------------------------------------------
# Model replies that quote the input (parse=): the project's own three policies, checked
# against the card's definitions (by hand, and a brute force over every run of tokens in
# rationale_naive), then scored as the 0/1 masks they give.

from paperscore import parse as P  # noqa: E402
from rationale_naive import place_quote, place_reply, plain_quotes  # noqa: E402

BEER = "Pours a hazy , golden color with a thick white head . Don 't miss it".split()


def test_replies_are_read_as_their_quotes():
    assert P.read_quotes('```json\n["hazy golden", "thick", 3]\n```\nBecause...') == (["hazy golden", "thick"], ["item 3 3 is not a string"])
    assert P.read_quotes('"a single JSON string"') == (["a single JSON string"], [])
    assert P.read_quotes('The words "hazy golden" and “thick” and 「很好」.') == (["hazy golden", "thick", "很好"], [])
    assert P.read_quotes("- hazy\n* thick white\n2. head\n3) miss\n•  it\n-no bullet") == (["hazy", "thick white", "head", "miss", "it", "-no bullet"], [])
    assert P.read_quotes("  \n ") == ([], [])
    assert P.read_quotes('{"rationale": ["a"]}') == ([], ["JSON dict, not a list of quotes"])
    assert P.read_quotes("```\n42") == ([], ["JSON int, not a list of quotes"])  # an open fence runs to the end


def test_each_policy_places_quotes_as_the_card_says():
    exact, normalized, fuzzy = (P.RATIONALE_POLICIES[name][0] for name in ("quotes_exact", "quotes_normalized", "quotes_fuzzy"))
    # exact: words equal tokens; "hazy , golden" is tokens 2-4, "hazy, golden" is no token run
    assert exact("hazy , golden", BEER) == (2, 5) and exact("hazy, golden", BEER) is None and exact("pours", BEER) is None
    # normalized: "hazygolden" = "hazy" + "" + "golden" (the comma token has no text left);
    # "don't" = "do" + "nt"; "Pours" and "pours" fold to one; "." alone has no text: nowhere
    assert normalized("hazy, golden", BEER) == (2, 5) and normalized("DON'T", BEER) == (12, 14)
    assert normalized("pours", BEER) == (0, 1) and normalized(".", BEER) is None and normalized("olden", BEER) is None
    # fuzzy: "golden colour" -> "goldencolour" (12) against tokens 4-5 "goldencolor" (11):
    # one deletion, similarity 1 - 1/12 >= 4/5. "thik whit head" -> "thikwhithead" (12)
    # against "thickwhitehead" (14, tokens 8-10): distance 2, 1 - 2/14 = 0.857; against
    # "athickwhitehead" (tokens 7-10): distance 3, 1 - 3/15 = 0.8, lower: tokens 8-10.
    assert fuzzy("golden colour", BEER) == (4, 6) and fuzzy("thik whit head", BEER) == (8, 11)
    # "zzzz" is nothing like any run; "goldn" (5) vs "golden" (6): 1 - 1/6 = 0.83 passes,
    # "gldn" vs "golden": 1 - 2/6 = 0.67 does not
    assert fuzzy("zzzz", BEER) is None and fuzzy("goldn", BEER) == (4, 5) and fuzzy("gldn", BEER) is None
    for quote in ("hazy , golden", "DON'T", "golden colour", "thik whit head", "goldn", "gldn", "."):
        for name, (find, _) in P.RATIONALE_POLICIES.items():
            assert find(quote, BEER) == place_quote(quote, BEER, name), (quote, name)


def render(rng, quotes):
    """Quotes written as an LLM might: a JSON list (fenced or not), quoted prose, bullets."""
    style = rng.integers(0, 5)
    if style == 0:
        return json.dumps(quotes, ensure_ascii=False)
    if style == 1:
        return "Here you go:\n```json\n" + json.dumps(quotes, ensure_ascii=False) + "\n```\nThese show the aspect."
    if not quotes:  # nothing to quote: in prose, nothing
        return ""
    if style == 2:
        return "The rationale: " + ", ".join(f"“{q}”" for q in quotes) + "."
    if style == 3:
        return "\n".join(f"{i}. {q}" for i, q in enumerate(quotes, 1))
    return "\n".join(f"- {q}" for q in quotes)


WORDS = [f"{a}{b}{c}" for a in "bcdfgklmnprstvz" for b in "aeiou" for c in "bdgklmnprst"]


def gold_runs(rng, tokens, avoid=()):
    """A 0/1 mask of 0-3 runs of 1-4 tokens, each starting and ending on a token outside
    `avoid`, and the runs as lists of token indices."""
    mask, runs = [0] * len(tokens), []
    for _ in range(int(rng.integers(0, 4))):
        start = int(rng.integers(0, len(tokens)))
        stop = min(len(tokens), start + int(rng.integers(1, 5)))
        while stop > start and tokens[stop - 1] in avoid:
            stop -= 1
        if stop <= start or tokens[start] in avoid or any(mask[max(0, start - 1) : stop + 1]):
            continue
        mask[start:stop] = [1] * (stop - start)
        runs.append(list(range(start, stop)))
    return mask, runs


def test_gold_rationales_rendered_as_replies_read_back_to_the_same_tokens():
    """Distinct tokens (so every run has one place): each policy gives back the gold mask
    from the runs written as they are (exact), recased with punctuation glued on
    (normalized), and with one letter of a long quote changed (fuzzy: similarity >= 4/5)."""
    rng = np.random.default_rng(7)
    for _ in range(300):
        tokens = list(rng.choice(WORDS, int(rng.integers(3, 30)), replace=False))
        tokens = [t if rng.random() > 0.1 else "," for t in tokens]
        mask, runs = gold_runs(rng, tokens, avoid={","})
        plain = [" ".join(tokens[i] for i in run) for run in runs]
        recased = ["".join(tokens[i].upper() if rng.random() < 0.5 else tokens[i] for i in run[:1]) + " " + " ".join(tokens[i] + "!" for i in run[1:]) for run in runs]
        typo = [q if len(q.replace(" ", "")) < 10 else q[:2] + ("x" if q[2] != "x" else "y") + q[3:] for q in plain]
        for name, quotes in (("quotes_exact", plain), ("quotes_normalized", recased), ("quotes_fuzzy", typo)):
            masks, report = P.parse_rationales([render(rng, quotes)], [tokens], name)
            assert masks == [mask] and report["unmatched_quotes"] == 0, (name, quotes, tokens)


PIECES = ["hazy", "Hazy", "golden", "gold", "en", "color", "colour", ",", ".", "!", "'t", "don", "do", "n't", "很", "好", "很好", "，", "the", "the", "ＡＢ", "ab", "-", "1."]


def random_reply(rng, tokens):
    """A reply quoting pieces of its tokens (runs, recased, cut, misspelt) or other text, in
    any of the written styles, or malformed: broken JSON, JSON objects and numbers, items
    that are not strings, empty and blank replies, stray quote marks, fences left open."""
    quotes = []
    for _ in range(int(rng.integers(0, 4))):
        start = int(rng.integers(0, len(tokens)))
        run = tokens[start : start + int(rng.integers(1, 4))]
        kind = rng.random()
        text = " ".join(run) if kind < 0.4 else "".join(run) if kind < 0.5 else " ".join(run).upper() if kind < 0.6 else " ".join(run)[1:] if kind < 0.7 else " ".join(rng.choice(PIECES, int(rng.integers(1, 3))))
        quotes.append(text)
    roll = rng.random()
    if roll < 0.75:
        return render(rng, quotes)
    return str(rng.choice([
        "", "   ", "[", '["a", 1, null, ["b"]]', '{"rationale": ["hazy"]}', "42", '"unclosed', "```\n[\"hazy\"]", "“open", '"a\nb"',
        "- \n* \n1.", "1.hazy", '["很好", "ＡＢ"]', "```json\n\"the\"\n```", '"the" "the"',
    ]))  # fmt: skip


def replies_corpus(n, seed):
    rng = np.random.default_rng(seed)
    replies, sources = [], []
    for _ in range(n):
        length = int(rng.integers(1, 14)) if rng.random() < 0.97 else int(rng.integers(60, 200))
        tokens = list(rng.choice(PIECES, length)) if rng.random() < 0.5 else list(rng.choice(WORDS[:40] + PIECES, length))
        sources.append(tokens)
        replies.append(random_reply(rng, tokens))
    return replies, sources


@pytest.fixture(scope="module")
def replies():
    return replies_corpus(10_000, 11)


def test_quotes_are_read_as_the_plain_definition(replies):
    texts, _ = replies
    for text in texts:
        quotes, problems = P.read_quotes(text)
        assert (quotes, len(problems)) == plain_quotes(text), text


@pytest.mark.parametrize("name", ["quotes_exact", "quotes_normalized", "quotes_fuzzy"])
def test_ten_thousand_replies_placed_as_the_brute_force_and_scored_as_their_masks(replies, name):
    """Every reply's mask and counts equal the brute force (fuzzy: the 1,500 first of at
    most 13 tokens, as its brute force measures every run); the corpus scored with parse=
    equals the masks scored directly, the report counts what the brute force counts, and
    each example's numbers in the batch are its numbers alone."""
    texts, sources = replies
    if name == "quotes_fuzzy":
        texts, sources = map(list, zip(*[pair for pair in zip(texts, sources) if len(pair[1]) <= 13][:1_500]))
    n = len(texts)
    rng = np.random.default_rng(3)
    gold = [list(rng.integers(0, 2, len(tokens))) for tokens in sources]
    expected = [place_reply(text, tokens, name) for text, tokens in zip(texts, sources)]
    masks, report = P.parse_rationales(texts, sources, name)
    assert masks == [mask for mask, _, _ in expected]
    failed = [i for i, (_, _, missed) in enumerate(expected) if missed]
    assert report == {
        "parser": f"{name}@1", "parse_failures": len(failed), "parse_failure_examples": failed[:5],
        "quotes": sum(count for _, count, _ in expected), "unmatched_quotes": sum(missed for _, _, missed in expected),
    }  # fmt: skip
    assert 0.05 * n < len(failed) < 0.95 * n  # both kinds are well represented
    result = compute(texts, gold, sources=sources, parse=name, per_example=True)
    direct = compute(masks, gold, per_example=True)
    assert {key: result[key] for key in direct} == direct
    assert {key: result[key] for key in ("parse_failures", "quotes", "unmatched_quotes")} == {key: report[key] for key in ("parse_failures", "quotes", "unmatched_quotes")}
    for i in rng.choice(n, 20, replace=False):
        alone = compute([texts[i]], [gold[i]], sources=[sources[i]], parse=name, per_example=True)
        assert alone["per_example"][0] == result["per_example"][i]


SOURCES = ["pours a hazy golden color with a thick white head", "smells of citrus and pine , the taste is bitter"]
REPLIES = ['["hazy golden", "Thick white head"]', "- citrus\n- oak"]
GOLD = [[0, 0, 1, 1, 0, 0, 0, 1, 1, 1], [0, 0, 1, 0, 1, 0, 0, 0, 0, 0]]


def test_compute_with_a_parser_by_hand():
    # quotes_normalized: "hazy golden" -> tokens 2-3, "Thick white head" -> 7-9 (case
    # folded); "citrus" -> token 2, "oak" nowhere (reported). Selected 5 + 1, gold 5 + 2,
    # TP 5 + 1: P = 6/6, R = 6/7. quotes_exact misses "Thick white head" too: TP 3,
    # predicted 3: P = 1, R = 3/7, two failures of 4 quotes.
    r = compute(REPLIES, GOLD, sources=SOURCES, parse="quotes_normalized", return_signature=True)
    assert (r["precision"], r["recall"]) == (1.0, pytest.approx(6 / 7))
    assert {k: r[k] for k in ("parse_failures", "parse_failure_examples", "quotes", "unmatched_quotes")} == {"parse_failures": 1, "parse_failure_examples": [1], "quotes": 4, "unmatched_quotes": 1}
    assert r["signature"].startswith("rationale_f1|parse:quotes_normalized@1|threshold:0.5|")
    r = compute(REPLIES, GOLD, sources=[s.split() for s in SOURCES], parse="quotes_exact@1")
    assert (r["precision"], r["recall"], r["parse_failures"], r["unmatched_quotes"]) == (1.0, pytest.approx(3 / 7), 2, 2)
    # gold given as quotes (a seq2seq model's labels): placed by the same parser, strictly
    r = compute(REPLIES, ['"hazy golden color"', '["citrus", "pine"]'], sources=SOURCES, parse="quotes_normalized", return_signature=True)
    # gold tokens 2-4 and 2, 4: TP 2 + 1 of predicted 5 + 1, gold 3 + 2
    assert (r["precision"], r["recall"]) == (pytest.approx(3 / 6), pytest.approx(3 / 5))
    assert "|parse:quotes_normalized@1|references:quotes|" in r["signature"]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(references=GOLD, sources=SOURCES, parse="quotes_exact", strict=True), r"predictions\[0\]: quotes_exact@1 cannot place it: quote 2 'Thick white head' matches no run of tokens"),
        (dict(references=['"hazy"', '"oak"'], sources=SOURCES, parse="quotes_exact"), r"references\[1\]: quotes_exact@1 cannot place it: quote 1 'oak'"),
        (dict(references=['"hazy"', [0] * 10], sources=SOURCES, parse="quotes_exact"), r"references\[1\]: is a list but references\[0\] is a text"),
        (dict(references=GOLD, parse="quotes_exact"), "sources: parse= places the quotes on the input's tokens"),
        (dict(references=GOLD, sources=SOURCES[:1], parse="quotes_exact"), "sources and predictions differ in length: 1 against 2"),
        (dict(references=GOLD, sources=[SOURCES[0], [1, 2]], parse="quotes_exact"), r"sources\[1\]: expected a text or a list of token strings"),
        (dict(references=[GOLD[0], [0, 1]], sources=SOURCES, parse="quotes_exact"), r"references\[1\]: has 2 entries but sources\[1\] has 10 tokens"),
        (dict(references=GOLD, sources=SOURCES, parse="mvp"), "parse: unknown parser 'mvp' for rationale_f1; known: quotes_exact@1, quotes_fuzzy@1, quotes_normalized@1"),
        (dict(references=GOLD, sources=SOURCES), "sources: applies to model texts read by a parser; pass parse=NAME"),
        (dict(references=GOLD, strict=True), "strict: applies to model texts read by a parser"),
    ],
)
def test_parse_errors_name_the_argument_and_example(kwargs, message):
    predictions = kwargs.pop("predictions", REPLIES)
    with pytest.raises(ValueError, match=message):
        compute(predictions, **kwargs)
    with pytest.raises(ValueError, match=r"predictions\[0\]: is a list, not a model reply"):
        compute(GOLD, GOLD, sources=SOURCES, parse="quotes_exact")


def test_replies_through_evaluate_add_batch_add_and_compute():
    metric = space_metric()
    expected = compute(REPLIES, GOLD, sources=SOURCES, parse="quotes_fuzzy", return_signature=True)
    assert metric.compute(predictions=REPLIES, references=GOLD, sources=SOURCES, parse="quotes_fuzzy", return_signature=True) == expected
    metric.add_batch(predictions=REPLIES[:1], references=GOLD[:1], sources=[SOURCES[0].split()])
    metric.add(prediction=REPLIES[1], reference=GOLD[1], sources=SOURCES[1])
    assert metric.compute(parse="quotes_fuzzy", return_signature=True) == expected
    gold_quotes = ['"hazy golden color"', '["citrus", "pine"]']
    assert metric.compute(predictions=REPLIES, references=gold_quotes, sources=SOURCES, parse="quotes_exact") == compute(REPLIES, gold_quotes, sources=SOURCES, parse="quotes_exact")
    with pytest.raises(ValueError, match="sources: model replies .* need each example's input"):
        metric.compute(predictions=REPLIES, references=GOLD)
    with pytest.raises(ValueError, match="sources: apply to model replies read by a parser"):
        metric.compute(predictions=GOLD, references=GOLD, sources=SOURCES)
    with pytest.raises(ValueError, match="parse: unknown parser 'nope' for rationale_f1"):
        metric.trainer_metrics(parse="nope")


def test_cli_parse_reads_replies_sources_and_gold_quotes(tmp_path, capsys):
    (tmp_path / "pred.txt").write_text("\n".join(json.dumps(r) if "\n" in r else r for r in REPLIES) + "\n", encoding="utf-8")
    write_jsonl(tmp_path / "gold.jsonl", GOLD)
    (tmp_path / "src.txt").write_text("\n".join(SOURCES) + "\n", encoding="utf-8")
    argv = ["rationale", "--predictions", str(tmp_path / "pred.txt"), "--references", str(tmp_path / "gold.jsonl"), "--sources", str(tmp_path / "src.txt"), "--parse", "quotes_normalized", "--json"]
    code, out, _ = run_cli(argv, capsys)
    assert code == 0
    result = json.loads(out)
    expected = compute(REPLIES, GOLD, sources=SOURCES, parse="quotes_normalized", return_signature=True)
    assert result == expected
    code, _, err = run_cli(argv + ["--strict"], capsys)
    assert code == 1 and "predictions[1]: quotes_normalized@1 cannot place it: quote 2 'oak'" in err
    code, _, err = run_cli([a for a in argv if a not in ("--parse", "quotes_normalized")], capsys)
    assert code == 1 and "--sources: applies with --parse NAME only" in err


@pytest.mark.parametrize("mode", ["concat", "batch_eval"])  # per_batch: as quad_match's test
def test_trainer_metrics_parse_generated_quotes_with_sources_from_the_inputs(tmp_path, mode):
    """Seq2SeqTrainer: the generated text, the decoded labels (gold quotes) and the decoded
    inputs (sources) reach compute(parse=...); the parse report is among the numbers."""
    from test_trainer import assert_plain_floats, predict, run, seq2seq_data
    from transformers import DataCollatorForSeq2Seq, Seq2SeqTrainer, Seq2SeqTrainingArguments

    def target(rng):  # gold quotes of source-like words: '" r3 r4 " " r7 "'
        return " ".join(f'" {" ".join(rng.choice([f"r{i}" for i in range(20)], int(rng.integers(1, 3)), replace=False))} "' for _ in range(int(rng.integers(1, 3))))

    tokenizer, model, data = seq2seq_data(['"'], target, 6)
    # the gold quotes must lie in the source: write each source as the review of its quotes
    for example in data:
        words = [w for w in tokenizer.decode(example["labels"], skip_special_tokens=True).split() if w != '"']
        example["input_ids"] = tokenizer(" ".join(["review"] + words + ["r19"]))["input_ids"] + [tokenizer.eos_token_id]
    compute_metrics = space_metric().trainer_metrics(tokenizer=tokenizer, parse="quotes_exact")
    generation = dict(predict_with_generate=True, generation_max_length=12, include_for_metrics=["inputs"])
    trainer, metrics, ours = run(Seq2SeqTrainer, Seq2SeqTrainingArguments, tmp_path, model, data, DataCollatorForSeq2Seq(tokenizer, model=model), compute_metrics, mode, **generation)
    assert ours == []
    prediction = predict(trainer, data)

    def decode(ids):
        return tokenizer.batch_decode(np.where(ids == -100, tokenizer.pad_token_id, ids).tolist(), skip_special_tokens=True)

    sources = [tokenizer.decode(example["input_ids"], skip_special_tokens=True) for example in data]
    references = decode(prediction.label_ids)
    assert references[0].startswith('" r') and sources[0].startswith("review r")
    expected = compute(decode(prediction.predictions), references, sources=sources, parse="quotes_exact")
    assert_plain_floats(metrics, KEYS)
    for key in (*KEYS, "parse_failures", "quotes", "unmatched_quotes"):
        assert metrics[f"eval_{key}"] == pytest.approx(expected[key], abs=1e-12), key


def test_the_readme_generative_example_is_what_the_command_prints(capsys):
    from conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```text\n(.*?)```", readme, re.S) if "--parse quotes_fuzzy" in b)
    command, *shown = block.strip().splitlines()
    argv = [str(ROOT / a) if a.startswith("tests/") else a for a in command.split()[2:]]
    code, out, _ = run_cli(argv, capsys)
    assert code == 0 and len(shown) == 7
    for line in shown:
        assert line in out.splitlines(), line  # as printed, column widths included


def test_the_demo_scores_model_replies_with_a_chosen_parser():
    """The demo's generative example: replies in the predictions box (the third, of
    several lines, as a JSON string), the parser from the list; what compute gives, and
    the tokens highlighted from the placed quotes."""
    from conftest import load_app

    app = load_app("rationale_f1")
    assert app.PARSERS[1:] == ["quotes_exact", "quotes_fuzzy", "quotes_normalized"]
    headline, marked, _ = app.score(app.LLM_EXAMPLE["predictions"], app.EXAMPLE["references"], app.EXAMPLE["tokens"], ">=", 0.5, "0", "quotes_normalized")
    sources = [row.split() for row in app.EXAMPLE["tokens"].splitlines()]
    replies = ['["hazy golden", "Thick white head"]', "- citrus\n- oak", "[]"]
    gold = [[int(c) for c in row] for row in app.EXAMPLE["references"].splitlines()]
    expected = compute(replies, gold, sources=sources, parse="quotes_normalized", return_signature=True)
    assert {key: headline[key] for key in ("f1", "parse_failures", "unmatched_quotes", "signature")} == {key: expected[key] for key in ("f1", "parse_failures", "unmatched_quotes", "signature")}
    assert [word for word, kind in marked[:10]] == ["pours ", "a ", "hazy ", "golden ", "color ", "with ", "a ", "thick ", "white ", "head "]
    assert [kind for _, kind in marked[2:5]] == ["TP", "TP", "FN"]  # "hazy golden" placed; "color" gold only
    with pytest.raises(Exception, match="tokens: a parser places the replies"):
        app.score(app.LLM_EXAMPLE["predictions"], app.EXAMPLE["references"], "", ">=", 0.5, "0", "quotes_exact")


# ---------------------------------------------------------------------------------------
# ERASER's faithfulness numbers (paperscore.faithfulness) and its micro partial match:
# by hand, against ERASER's metrics.py run in place (fixtures, tests/data/rationale_eraser/),
# a plain per-example oracle on 10,000 examples, and its results JSONL.

from paperscore import faithfulness  # noqa: E402
from conftest import DATA, without_references  # noqa: E402
from rationale_naive import plain_faithfulness  # noqa: E402

ERASER_FIXTURES = json.loads((DATA / "rationale_eraser" / "eraser_metrics.json").read_text(encoding="utf-8"))


def test_faithfulness_by_hand():
    # Two examples, classes (NEG, POS). ŷ = argmax of full: POS (0.8), NEG (0.6).
    # comprehensiveness: (0.8 - 0.3) and (0.6 - 0.5): mean 0.3. sufficiency: (0.8 - 0.7)
    # and (0.6 - 0.6): mean 0.05. AOPC at two thresholds: deltas (0.8-0.4, 0.8-0.2) and
    # (0.6-0.6, 0.6-0.1): mean (0.4 + 0.6 + 0 + 0.5)/4 = 0.375; points 0.2 and 0.55.
    full, without, alone = [[0.2, 0.8], [0.6, 0.4]], [[0.7, 0.3], [0.5, 0.5]], [[0.3, 0.7], [0.6, 0.4]]
    tw = [[[0.6, 0.4], [0.8, 0.2]], [[0.6, 0.4], [0.1, 0.9]]]
    r = faithfulness.compute(full, without, alone, thresholded_without=tw, thresholded_alone=tw, aopc_thresholds=(0.1, 0.5), return_signature=True)
    assert (r["comprehensiveness"], r["sufficiency"], r["comprehensiveness_aopc"]) == pytest.approx((0.3, 0.05, 0.375))
    assert r["comprehensiveness_aopc_points"] == pytest.approx([0.2, 0.55])
    # entropy: H(0.2, 0.8) - H(0.7, 0.3) and H(0.6, 0.4) - H(0.5, 0.5), natural logs
    h = lambda *p: -sum(x * math.log(x) for x in p)  # noqa: E731
    assert r["comprehensiveness_entropy"] == pytest.approx(((h(0.2, 0.8) - h(0.7, 0.3)) + (h(0.6, 0.4) - h(0.5, 0.5))) / 2)
    assert r["sufficiency_kl"] == pytest.approx((0.3 * math.log(0.3 / 0.2) + 0.7 * math.log(0.7 / 0.8) + 0) / 2)
    assert r["signature"].startswith("rationale_f1|measure:eraser_faithfulness|aopc_thresholds:0.1,0.5|")
    # a given ŷ overrides the argmax (ERASER reads the line's "classification")
    assert faithfulness.compute(full, without, alone, predicted=[0, 0])["comprehensiveness"] == pytest.approx(((0.2 - 0.7) + (0.6 - 0.5)) / 2)


def test_faithfulness_equals_eraser_run_in_place():
    """ERASER's score_classifications on its own results lines (random corpora of 1-6
    instances, 2-4 classes, predicted class not always the argmax, thresholds in any order
    plus one ERASER filters out), its figures written into the fixture."""
    cases = ERASER_FIXTURES["faithfulness"]
    assert len(cases) >= 100
    for case in cases:
        read = faithfulness.read_eraser_results([json.dumps(line) for line in case["results"]])
        ours = faithfulness.compute(**{key: read[key] for key in ("full", "without", "alone", "predicted", "thresholded_without", "thresholded_alone")})
        for key, value in case["eraser"].items():
            assert ours[key] == pytest.approx(value, rel=1e-12, abs=1e-12), key


def test_iou_micro_and_macro_equal_eraser_run_in_place():
    """ERASER's partial_match_score at 0.5 on the maximal runs of random masks."""
    cases = ERASER_FIXTURES["iou"]
    assert len(cases) >= 150
    for case in cases:
        ours = compute(case["predictions"], case["references"])
        for key, value in case["eraser"].items():
            assert ours[key] == pytest.approx(value, rel=1e-12, abs=1e-12), key


def test_iou_micro_by_hand():
    # Example A: predicted spans [0,1) (matches gold [0,1)) and [2,3) (no gold); example B:
    # no prediction, two gold spans. Micro: 1 matched of 2 predicted, of 3 gold: P 1/2,
    # R 1/3, F1 2/5 (macro, averaged per example first: 1/2, 1/2, 1/2).
    r = compute([[1, 0, 1], [0, 0, 0]], [[1, 0, 0], [1, 0, 1]])
    assert (r["iou_micro_precision"], r["iou_micro_recall"], r["iou_micro_f1"]) == pytest.approx((1 / 2, 1 / 3, 2 / 5))


def test_faithfulness_ten_thousand_examples_equal_the_plain_oracle():
    rng = np.random.default_rng(5)
    n, classes = 10_000, 3
    draw = lambda *shape: rng.dirichlet(np.ones(classes) * 0.5, size=shape)  # noqa: E731
    full, without, alone = draw(n), draw(n), draw(n)
    full[rng.random(n) < 0.05] = np.eye(classes)[0]  # certain predictions: zeros in the rows
    without[:100] = full[:100]  # nothing removed changes nothing
    tw, ta = draw(n, 5), draw(n, 5)
    predicted = np.where(rng.random(n) < 0.1, rng.integers(0, classes, n), full.argmax(1))
    ours = faithfulness.compute(full, without, alone, predicted=predicted, thresholded_without=tw, thresholded_alone=ta, per_example=True)
    plain = plain_faithfulness(full.tolist(), without.tolist(), alone.tolist(), predicted.tolist(), tw.tolist(), ta.tolist())
    for key, value in plain["corpus"].items():
        assert ours[key] == pytest.approx(value, rel=1e-12, abs=1e-12), key
    for mine, theirs in zip(ours["per_example"], plain["examples"]):
        assert mine == pytest.approx(theirs, rel=1e-12, abs=1e-12)
    alone_5 = faithfulness.compute(full[5:6], without[5:6], alone[5:6], predicted=predicted[5:6], thresholded_without=tw[5:6], thresholded_alone=ta[5:6])
    assert alone_5["comprehensiveness_aopc"] == pytest.approx(ours["per_example"][5]["comprehensiveness_aopc"], abs=1e-15)


def test_eraser_results_jsonl_is_read_and_refused_where_broken():
    line = {"annotation_id": "a1", "classification": "POS", "classification_scores": {"POS": 0.8, "NEG": 0.2},
            "comprehensiveness_classification_scores": {"POS": 0.3, "NEG": 0.7}, "sufficiency_classification_scores": {"NEG": 0.3, "POS": 0.7},
            "rationales": [{"docid": "d1", "hard_rationale_predictions": [{"start_token": 0, "end_token": 2}, {"start_token": 2, "end_token": 3}]}]}  # fmt: skip
    read = faithfulness.read_eraser_results([json.dumps(line), ""])
    assert read["labels"] == ["NEG", "POS"] and read["full"] == [[0.2, 0.8]] and read["predicted"] == [1]
    assert read["hard_rationales"] == [{"d1": [(0, 2), (2, 3)]}]  # adjacent spans kept as ERASER gives them
    assert faithfulness.compute(read["full"], read["without"], read["alone"], read["predicted"])["sufficiency"] == pytest.approx(0.1)
    for broken, message in (
        ({**line, "classification": "neu"}, "line 2 classification 'neu' is not one of"),
        ({**line, "sufficiency_classification_scores": {"POS": 1.0}}, r"line 2 sufficiency_classification_scores has the classes \['POS'\], not \['NEG', 'POS'\]"),
        ({k: v for k, v in line.items() if k != "classification_scores"}, "line 2 lacks 'classification_scores'"),
        ({**line, "thresholded_scores": []}, "line 1 lacks 'thresholded_scores', which other lines have"),
    ):
        with pytest.raises(ValueError, match=message):
            faithfulness.read_eraser_results([json.dumps(line), json.dumps({**broken, "annotation_id": "a2"})])
    with pytest.raises(ValueError, match=r"full\[1\]: 1.5 is not a probability in \[0, 1\]"):
        faithfulness.compute([[0.5, 0.5], [1.5, 0.0]], [[0.5, 0.5]] * 2, [[0.5, 0.5]] * 2)
    with pytest.raises(ValueError, match=r"without: has shape \(1, 2\), expected \(2, 2\)"):
        faithfulness.compute([[0.5, 0.5]] * 2, [[0.5, 0.5]], [[0.5, 0.5]] * 2)
    with pytest.raises(ValueError, match="AOPC needs both"):
        faithfulness.compute([[0.5, 0.5]], [[0.5, 0.5]], [[0.5, 0.5]], thresholded_without=[[[0.5, 0.5]] * 5])


def test_top_k_ratio_by_hand():
    # Width 5 (padding included, as A2R's padded batch): int(5 * 0.5) = 2 tokens, the
    # scores 0.9 and 0.7 (tokens 0 and 3), both gold: P = R = 1. Width 10 at 0.29:
    # int(2.9) = 2; at 0.3: int(10 * 0.3) = int(3.0000000000000004) = 3.
    r = compute([[0.9, 0.1, 0.5, 0.7, -100]], [[1, 0, 0, 1, -100]], top_k_ratio=0.5, per_example=True, return_signature=True)
    assert (r["precision"], r["recall"], r["per_example"][0]["predicted"]) == (1.0, 1.0, 2)
    assert "|top_k_ratio:0.5|iou_threshold:0.5|" in r["signature"] and "threshold_rule" not in r["signature"]
    scores_ = [[0.1 * i for i in range(10)]]
    assert compute(scores_, [[0] * 10], top_k_ratio=0.29, per_example=True)["per_example"][0]["predicted"] == 2
    assert compute(scores_, [[0] * 10], top_k_ratio=0.3, per_example=True)["per_example"][0]["predicted"] == 3
    # ties: the earlier token first; fewer scored tokens than k: all of them
    r = compute([[0.5, 0.5, 0.5, 0.2], [0.3]], [[0, 1, 0, 0], [1, -100, -100, -100]], top_k_ratio=0.5, per_example=True)
    assert [row["predicted"] for row in r["per_example"]] == [2, 1] and r["per_example"][0]["tp"] == 1
    with pytest.raises(ValueError, match="threshold_rule: not used with top_k_ratio"):
        compute(scores_, [[0] * 10], top_k_ratio=0.3, threshold_rule=">")
    with pytest.raises(ValueError, match=r"top_k_ratio: 1.5 is not a number in \[0, 1\]"):
        compute(scores_, [[0] * 10], top_k_ratio=1.5)


def test_top_k_ratio_equals_a2r_run_in_place():
    """A2R's _eval_att_rationale (its notebook cell executed as it is, torch.topk of
    int(padded width * ratio)) on random padded batches of distinct scores: the tokens it
    selects and hits in each example, written into the fixture."""
    cases = json.loads((DATA / "rationale_eraser" / "a2r_top_k.json").read_text())
    assert len(cases) >= 50
    for case in cases:
        r = compute(case["predictions"], case["references"], top_k_ratio=case["top_k_ratio"], per_example=True)
        assert [row["predicted"] for row in r["per_example"]] == case["a2r_selected"]
        assert [row["tp"] for row in r["per_example"]] == case["a2r_tp"]


def test_top_k_ratio_on_ten_thousand_examples_equals_a_sort_per_example(realistic):
    """Each example's selection: its scored tokens sorted by falling score (stable), the
    first int(width * ratio) kept; counted by hand against the vectorised selection."""
    predictions, references, examples = realistic
    r = compute(predictions, references, top_k_ratio=0.15, per_example=True)
    for row, (scores_, truth), reference in zip(r["per_example"], examples, references):
        keep = sorted(range(len(scores_)), key=lambda i: -scores_[i])[: int(len(reference) * 0.15)]
        assert (row["predicted"], row["tp"]) == (len(keep), sum(truth[i] for i in keep))


def test_cli_top_k_ratio_in_rationale_and_compare(tmp_path, capsys):
    preds = [[0.9, 0.1, 0.5, 0.7], [0.2, 0.8, 0.4]]
    golds = [[1, 0, 0, 1], [0, 1, -100]]
    pred, gold = write_jsonl(tmp_path / "p.jsonl", preds), write_jsonl(tmp_path / "g.jsonl", golds)
    code, out, _ = run_cli(["rationale", "--predictions", pred, "--references", gold, "--top-k-ratio", "0.5", "--json"], capsys)
    assert code == 0 and json.loads(out) == compute(preds, golds, top_k_ratio=0.5, return_signature=True)
    code, out, err = run_cli(["compare", "rationale", "--references", gold, "--system-a", pred, "--system-b", gold, "--top-k-ratio", "0.5", "--seed", "1", "--n-resamples", "20", "--json"], capsys)
    assert code == 0, err
    assert "top_k_ratio:0.5" in out
