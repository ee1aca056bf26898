"""micro_macro against sklearn, its conventions, inputs, errors and command line."""

import json
import math
import warnings

import numpy as np
import pytest
from conftest import without_references
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import UndefinedMetricWarning
from scipy.sparse import csr_matrix
from sklearn.metrics import accuracy_score, confusion_matrix, precision_recall_fscore_support

from paperscore import cli
from paperscore import micro_macro
from paperscore.micro_macro import DENSE_SPAN, KEYS, compute

warnings.filterwarnings("ignore", category=UndefinedMetricWarning)
AVERAGES = ("micro", "macro", "weighted")
POLICIES = {0.0: 0.0, 1.0: 1.0, "nan": np.nan}


def same(a, b):
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= 1e-12


def sklearn_scores(y, p, labels, zero_division):
    out = {"accuracy": accuracy_score(y, p) if len(y) else None}
    for average in AVERAGES:
        values = precision_recall_fscore_support(y, p, labels=labels, average=average, zero_division=POLICIES[zero_division])
        out.update({f"{average}_{name}": v for name, v in zip(("precision", "recall", "f1"), values)})
    return out


def assert_equal_to_sklearn(result, expected):
    for key in KEYS:
        if expected[key] is not None:
            assert same(result[key], expected[key]), (key, result[key], expected[key])


cases = st.integers(1, 40).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 5), min_size=n, max_size=n),
        st.lists(st.integers(0, 5), min_size=n, max_size=n),
    )
)


@settings(max_examples=300, deadline=None)
@given(cases, st.sets(st.integers(0, 7), min_size=1, max_size=6), st.sampled_from(list(POLICIES)))
def test_equal_to_sklearn_on_any_label_subset(data, labels, zero_division):
    """Random labels, a random `labels` list (classes missing from the data included)
    under every zero-division policy, micro, macro and weighted."""
    y, p = data
    labels = sorted(labels)
    result = compute(p, y, labels=labels, zero_division=zero_division)
    assert_equal_to_sklearn(result, sklearn_scores(y, p, labels, zero_division))


@settings(max_examples=200, deadline=None)
@given(cases, st.sets(st.integers(0, 5), max_size=3), st.sampled_from(list(POLICIES)))
def test_negative_labels_equal_sklearn_labels_without_them(data, negatives, zero_division):
    """A negative label absent from the data is refused unless `labels` lists it; a corpus
    whose every class is negative (no event) scores as sklearn does for labels that never
    occur (MAVEN's evaluate.py passes labels=1..168 whatever the split holds)."""
    y, p = data
    occurring = set(y) | set(p)
    if negatives - occurring:
        with pytest.raises(ValueError, match="occurs in neither predictions nor references"):
            compute(p, y, negative_labels=sorted(negatives))
        labels = sorted(occurring | negatives)
        if not set(labels) - negatives:  # the user's own lists leave no class: refused, not guessed
            with pytest.raises(ValueError, match="negative_labels: every class in labels is negative"):
                compute(p, y, labels=labels, negative_labels=sorted(negatives))
            return
        result = compute(p, y, labels=labels, negative_labels=sorted(negatives), zero_division=zero_division)
        assert_equal_to_sklearn(result, sklearn_scores(y, p, sorted(set(labels) - negatives), zero_division))
        return
    scored = sorted(occurring - negatives)
    result = compute(p, y, negative_labels=sorted(negatives), zero_division=zero_division)
    assert_equal_to_sklearn(result, sklearn_scores(y, p, scored or [99], zero_division))


@settings(max_examples=100, deadline=None)
@given(cases, st.sampled_from(list(POLICIES)))
def test_per_class_and_confusion_matrix_equal_sklearn(data, zero_division):
    y, p = data
    result = compute(p, y, per_class=True, confusion_matrix=True, zero_division=zero_division)
    classes = sorted(set(y) | set(p))
    assert result["labels"] == classes
    assert result["confusion_matrix"] == confusion_matrix(y, p, labels=classes).tolist()
    precision, recall, f1, support = precision_recall_fscore_support(y, p, labels=classes, average=None, zero_division=POLICIES[zero_division])
    for i, label in enumerate(classes):
        row = result["per_class"][label]
        assert same(row["precision"], precision[i]) and same(row["recall"], recall[i]) and same(row["f1"], f1[i])
        assert row["support"] == support[i]


@settings(max_examples=100, deadline=None)
@given(cases, st.randoms(use_true_random=False))
def test_order_of_examples_does_not_matter(data, random):
    y, p = data
    order = list(range(len(y)))
    random.shuffle(order)
    assert compute([p[i] for i in order], [y[i] for i in order]) == compute(p, y)


@settings(max_examples=60, deadline=None)
@given(cases)
def test_strings_and_wide_ids_give_what_small_ids_give(data):
    """The bincount path (small ids), the dict path (strings; ids spanning more than
    DENSE_SPAN) and negative ids are one definition."""
    y, p = data
    expected = compute(p, y)
    names = "abcdef"
    assert compute([names[v] for v in p], [names[v] for v in y]) == expected
    wide = DENSE_SPAN * 10
    assert compute([v * wide for v in p], [v * wide for v in y]) == expected
    # negated ids reverse the class order, so the means add up in another order
    negated = compute([-v - 1 for v in p], [-v - 1 for v in y], ignore_index=None)
    assert negated == pytest.approx(expected, abs=1e-15)


def test_the_specs_sklearn_semantics():
    y, p = [0, 0, 1, 1, 2, 2, 2], [1, 1, 1, 0, 2, 0, 0]
    # All classes scored: micro P = R = F1 = accuracy = 2/7.
    r = compute(p, y)
    assert r["micro_precision"] == r["micro_recall"] == r["accuracy"] == pytest.approx(2 / 7)
    # NA = 0 left out: P = 2/4, R = 2/5; macro P = (1 + 1/3)/2, R = (1/2 + 1/3)/2, F mean of 2/3 and 1/2... per class:
    # class 1: tp 1, predicted 3, gold 2 -> P 1/3, R 1/2, F1 2/5; class 2: tp 1, predicted 1, gold 3 -> 1, 1/3, 1/2.
    r = compute(p, y, negative_labels=[0])
    assert (r["micro_precision"], r["micro_recall"]) == (0.5, 0.4)
    assert r["macro_precision"] == pytest.approx((1 / 3 + 1) / 2)
    assert r["macro_recall"] == pytest.approx((1 / 2 + 1 / 3) / 2)
    assert r["macro_f1"] == pytest.approx((2 / 5 + 1 / 2) / 2)  # not the F1 of macro P and R
    # weighted by gold support 2 and 3
    assert r["weighted_precision"] == pytest.approx((2 * 1 / 3 + 3 * 1) / 5)


def test_nan_policy_leaves_undefined_classes_out_of_the_means():
    # per-class P = [1, 2/3, nan (class 3 never predicted)] -> nan-mean 5/6
    r = compute([1, 2, 2, 2], [1, 1, 2, 2], labels=[1, 2, 3], zero_division="nan")
    assert r["macro_precision"] == pytest.approx(5 / 6)
    # every class undefined: the mean is NaN, as sklearn's
    r = compute([1, 1], [1, 1], labels=[5], zero_division="nan")
    assert math.isnan(r["macro_precision"]) and math.isnan(r["micro_precision"])


def test_maven_convention_leaves_na_out_and_requires_it():
    y, p = [0, 0, 1, 1, 2, 2, 2], [1, 1, 1, 0, 2, 0, 0]
    assert compute(p, y, convention="maven") == compute(p, y, negative_labels=[0])
    names = ["None", "Attack", "Move"]
    strings = compute([names[v] for v in p], [names[v] for v in y], convention="maven")
    assert strings == compute([names[v] for v in p], [names[v] for v in y], negative_labels=["None"])
    assert strings == compute(p, y, negative_labels=[0])
    with pytest.raises(ValueError, match="negative_labels"):
        compute(["O", "Attack"], ["O", "Attack"], convention="maven")
    assert compute(["O", "Attack"], ["O", "Attack"], convention="maven", negative_labels=["O"])["micro_f1"] == 1.0


def test_a_negative_label_absent_from_the_data_is_refused_unless_labels_lists_it():
    """Issue 28: "NA" where the data says "None" would leave NA averaged in, in silence."""
    refs = ["None", "None", "Attack", "Move", "Attack"]
    preds = ["None", "Attack", "Attack", "None", "Move"]
    for kwargs in ({"negative_labels": ["NA"]}, {"negative_labels": ["NA"], "convention": "maven"}, {"negative_labels": ["None", "NA"]}):
        with pytest.raises(ValueError, match=r"negative_labels\[\d\]: 'NA' occurs in neither predictions nor references, which hold 'Attack', 'Move', 'None'; if it is meant, list it in labels="):
            compute(preds, refs, **kwargs)
    # listed in labels, it is meant: NA is a class with no example, left out of the averages
    result = compute(preds, refs, labels=["Attack", "Move", "NA"], negative_labels=["NA"])
    assert_equal_to_sklearn(result, sklearn_scores(refs, preds, ["Attack", "Move"], 0.0))
    # the convention's own NA, absent without labels: refused, the occurring labels listed
    with pytest.raises(ValueError, match=r"leaves out the NA label 0, which occurs in neither predictions nor references \(they hold 1, 2, 3\)"):
        compute([1, 2, 3], [1, 2, 3], convention="maven")
    # an empty corpus has no label to misspell: the zero-division values
    assert compute([], [], negative_labels=[0]) == {key: 0.0 for key in KEYS}


# MAVEN's evaluate.py (THU-KEG/MAVEN-dataset @ 71151f6, labels=range(1, 169)) and OntoED's
# calculate_scores (231sm/Reasoning_In_EE @ 13cdcc0, OntoED/run_ontoed.py, dimE = 169) run
# in place from a scratch copy, each corpus one document (gold 0: a negative_triggers
# candidate). Their figures (MAVEN's printed x100, divided back), the two agreeing:
# micro P, R, F1, macro P, R, F1.
REFERENCE_CORPORA = [
    ([0, 0, 0], [0, 0, 0], [0.0] * 6),  # a split with no event
    ([0, 0, 0, 0], [0, 5, 0, 7], [0.0] * 6),  # no event, two false alarms
    ([1, 2, 3, 3, 5], [1, 2, 3, 0, 4], [0.75, 0.6, 0.6666666666666666, 0.017857142857142856, 0.01488095238095238, 0.015873015873015872]),  # no NA candidate
    ([1, 2, 3], [1, 2, 3], [1.0, 1.0, 1.0, 0.017857142857142856, 0.017857142857142856, 0.017857142857142856]),
]
SIX = [f"{a}_{m}" for a in ("micro", "macro") for m in ("precision", "recall", "f1")]


@pytest.mark.parametrize("references, predictions, expected", REFERENCE_CORPORA)
def test_corpora_the_references_score_are_scored_as_they_do(references, predictions, expected):
    """Issue 28: an all-NA split (a Trainer's dev set with no event must not stop) and
    convention="maven" with labels=1..168 on a corpus without an NA candidate."""
    result = compute(predictions, references, convention="maven", labels=list(range(1, 169)))
    assert [result[key] for key in SIX] == pytest.approx(expected, abs=1e-15)
    if 0 in references:  # without labels: the same where no event class goes unobserved
        assert [compute(predictions, references, convention="maven")[key] for key in SIX] == pytest.approx(expected, abs=1e-15)


def test_a_corpus_with_no_event_gives_the_zero_division_value_as_sklearn():
    events = list(range(1, 169))
    for zero_division, policy in POLICIES.items():
        result = compute([0, 0, 0], [0, 0, 0], convention="maven", zero_division=zero_division)
        expected = sklearn_scores([0, 0, 0], [0, 0, 0], events, zero_division)
        assert_equal_to_sklearn(result, expected)
        assert result["accuracy"] == 1.0
    through_evaluate = space_metric().fresh().compute(predictions=[0, 0], references=[0, 0], convention="maven")
    assert through_evaluate["micro_f1"] == 0.0 and through_evaluate["macro_f1"] == 0.0


@settings(max_examples=150, deadline=None)
@given(cases)
def test_jmee_convention_equals_sklearn_on_gold_event_tokens(data):
    """JMEE keeps tokens whose gold label is not NA and calls sklearn with every label."""
    y, p = data
    kept = [(a, b) for a, b in zip(y, p) if a != 0]
    if 0 not in set(y) | set(p):
        return
    classes = sorted(set(y) | set(p))
    r = compute(p, y, convention="jmee")
    y2, p2 = [a for a, _ in kept], [b for _, b in kept]
    expected = sklearn_scores(y2, p2, classes, 0.0) if kept else None
    if expected is None:
        assert r["accuracy"] == 0.0 and r["f1"] == 0.0
        return
    assert_equal_to_sklearn(r, expected)
    assert (r["precision"], r["recall"], r["f1"]) == (r["macro_precision"], r["macro_recall"], r["micro_f1"])


def test_token_classification_drops_ignore_index_positions():
    refs = [[0, 3, 3, -100], [0, 1, -100, -100]]
    preds = [[0, 3, 1, 5], [1, 1, 2, 2]]
    flat = compute([0, 3, 1, 1, 1], [0, 3, 3, 0, 1], per_class=True)
    assert compute(preds, refs, per_class=True) == flat
    assert compute(np.array(preds), np.array(refs), per_class=True) == flat
    assert compute([np.array(x) for x in preds], [np.array(x) for x in refs], per_class=True) == flat
    assert compute([["O", "B"], ["B"]], [["O", "O"], ["B"]])["accuracy"] == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    "predictions, references, kwargs, message",
    [
        ([0.7, 1], [0, 1], {}, r"predictions\[0\]: expected int or str, got float 0.7"),
        ([1, None], [0, 1], {}, r"predictions\[1\]: expected int like the labels before it, got NoneType"),
        (["a", 1], ["a", "b"], {}, r"predictions\[1\]: expected str"),
        ([1, 2], ["a", "b"], {}, "predictions are int labels but references are str labels"),
        ([1, 2], [1], {}, "differ in length: 2 against 1"),
        ([[1, 2], [1]], [[1, 2], [1, 2]], {}, r"predictions\[1\]: has 1 labels but references\[1\] has 2"),
        ([[1, 2], 1], [[1, 2], [1]], {}, r"predictions\[1\]: is a single label, but predictions\[0\] is not"),
        ([[1, -100]], [[1, 2]], {}, r"predictions\[0\]\[1\]: is ignore_index -100 where the reference is scored"),
        (np.array([0.5, 1.0]), np.array([0, 1]), {}, r"predictions\[0\]: expected int or str labels, got float64 values"),
        # issue 15: bare strings, numbers, None and bools where a list or a label belongs
        (["None", "A"], ["None", "A"], {"negative_labels": "None"}, r"negative_labels: expected a list of labels, got str 'None' \(for one label, pass \['None'\]\)"),
        (["A", "B"], ["A", "B"], {"labels": "AB"}, "labels: expected a list of labels, got str 'AB'"),
        ([1, 2], [1, 2], {"negative_labels": 0}, r"negative_labels: expected a list of labels, got int 0"),
        ([1, 2], [1, 2], {"ignore_index": True}, "ignore_index: True is not an int or str label"),
        ([-1], [2**64 - 1], {}, r"references\[0\]: 18446744073709551615 is outside the 64-bit integer range"),
        ([0, 2**63], [0, 1], {}, r"predictions\[1\]: 9223372036854775808 is outside the 64-bit"),
        ([[0, 1], [-(2**63) - 1]], [[0, 1], [0]], {}, r"predictions\[1\]\[0\]: -9223372036854775809 is outside"),
        (np.array([0, 2**64 - 1], dtype=np.uint64), np.array([0, 1]), {}, r"predictions\[1\]: 18446744073709551615 is outside"),
        ([1, 2], [1, 2], {"labels": [2**64]}, r"labels\[0\]: 18446744073709551616 is outside"),
        ([1, 2], [1, 2], {"confidence_level": 0.9, "seed": "abc"}, "seed: 'abc' is not a non-negative integer"),
        ([1, 2], [1, 2], {"labels": [1, 1]}, "lists a label twice"),
        ([1, 2], [1, 2], {"labels": ["1"]}, r"labels\[0\]: '1' is not a int label"),
        ([1, 2], [1, 2], {"convention": "ace"}, "convention: 'ace' is not one of"),
        ([1, 2], [1, 2], {"zero_division": "warn"}, "zero_division"),
        ([1, 2], [1, 2], {"labels": [1, 2], "negative_labels": [1, 2]}, "every class in labels is negative"),
        ([1, 2], [1, 2], {"labels": []}, r"labels: is empty \(None scores every class\), none is left to score"),
        (["None", "A"], ["None", "B"], {"negative_labels": ["NA"]}, r"negative_labels\[0\]: 'NA' occurs in neither predictions nor references, which hold 'A', 'B', 'None'"),
        ([1, 2], [[1], [2]], {}, r"predictions\[0\] is a single label but references\[0\] is a sequence of labels"),
        ([[1], [2, 3]], [1, 2], {}, r"predictions\[0\] is a sequence of labels but references\[0\] is a single label"),
        ([1, 2], [1, 2], {"ignore_index": 1.5}, "ignore_index: 1.5 is not an int or str label"),
        ([["A", "PAD"]], [["A", "B"]], {"ignore_index": "PAD"}, r"predictions\[0\]\[1\]: is ignore_index 'PAD' where the reference is scored"),
        ([1, 2], [1, 2], {"confidence_level": 95}, "confidence_level"),
    ],
)
def test_bad_input_is_a_value_error_that_says_where(predictions, references, kwargs, message):
    with pytest.raises(ValueError, match=message):
        compute(predictions, references, **kwargs)


@pytest.mark.parametrize(
    "corpus, message",
    [
        ("abc", r"expected a list of examples, got a str \(to score one example"),
        (None, "expected a list of examples, got NoneType"),
        (True, "expected a list of examples, got bool"),
        (3, "expected a list of examples, got int"),
        ({1, 2, 3}, "expected a list of examples, got set"),
        ((label for label in [1, 2, 3]), "expected a list of examples, got generator"),
    ],
    ids=["str", "None", "bool", "int", "set", "generator"],
)
def test_a_corpus_that_is_not_a_list_is_refused_in_every_entry_point(corpus, message):
    """Issue 15: scored one character per example, or a TypeError, before."""
    with pytest.raises(ValueError, match="predictions: " + message):
        compute(corpus, [1, 2, 3])
    metric = space_metric().fresh()
    for call in (metric.compute, metric.add_batch):
        with pytest.raises(ValueError, match="predictions: " + message):
            call(predictions=corpus, references=[1, 2, 3])


def test_a_bare_negative_label_string_is_not_read_as_its_characters():
    """Issue 15's case, derived by hand: references None A A, predictions None A B, NA
    left out. A: tp 1, predicted 1, gold 2 -> P 1, R 1/2, F1 2/3. B: tp 0, predicted 1,
    gold 0 -> F1 0. macro F1 = (2/3 + 0) / 2 = 1/3 (not 0.556: N, o, n, e are no labels)."""
    result = compute(["None", "A", "B"], ["None", "A", "A"], negative_labels=["None"])
    assert result["macro_f1"] == pytest.approx(1 / 3, abs=1e-12)
    with pytest.raises(ValueError, match="negative_labels: expected a list of labels"):
        space_metric().fresh().compute(predictions=["None", "A", "B"], references=["None", "A", "A"], negative_labels="None")


def test_empty_input_gives_the_zero_division_value():
    r = compute([], [], labels=[0, 1])
    assert all(r[key] == 0.0 for key in KEYS)
    assert all(v == 1.0 for v in compute([], [], labels=[0], zero_division=1.0).values())
    # without labels and without data, and with only padding: nothing to score at all
    for predictions, references in (([], []), ([[0, 0]], [[-100, -100]])):
        assert compute(predictions, references) == {key: 0.0 for key in KEYS}
        assert compute(predictions, references, zero_division=1.0) == {key: 1.0 for key in KEYS}


def test_string_labels_have_their_own_ignore_index():
    # the PAD position is not scored: A and B right, so accuracy 1
    assert compute([["A", "B", "X"]], [["A", "B", "PAD"]], ignore_index="PAD")["accuracy"] == 1.0
    # an int ignore_index (the default -100) does not apply to string labels
    assert compute([["A", "X"]], [["A", "-100"]])["accuracy"] == 0.5


def test_sequences_are_resampled_whole():
    """Token classification resamples sentences, not tokens. Two sentences of 50 tokens,
    one all right and one all wrong: a resample holds both (accuracy 1/2, probability 1/2),
    twice the right one (1, probability 1/4) or twice the wrong one (0, probability 1/4),
    so the 95% interval of accuracy runs from 0 to 1."""
    references = [[1] * 50, [2] * 50]
    predictions = [[1] * 50, [3] * 50]
    r = compute(predictions, references, confidence_level=0.95, n_resamples=400, seed=0)
    assert r["accuracy"] == 0.5
    assert (r["accuracy_low"], r["accuracy_high"]) == (0.0, 1.0)
    # flat, the same 100 labels are 100 examples: a narrow interval around 1/2
    flat = compute(sum(predictions, []), sum(references, []), confidence_level=0.95, n_resamples=400, seed=0)
    assert 0.35 < flat["accuracy_low"] < 0.5 < flat["accuracy_high"] < 0.65


@pytest.mark.parametrize(
    "bad, message",
    [(2.5, "got float 2.5"), (2.0, "got float 2.0"), ("5", "got str '5'"), (None, "got NoneType None"), ([2], "is a sequence"), (2**70, "outside the 64-bit integer range")],
)
def test_a_flat_int_list_with_one_bad_label_is_refused_by_position(bad, message):
    """Lists that start with an int take the fast conversion; one bad label later on is
    still named (sklearn would read 2.0 as a class, numpy would truncate 2.5)."""
    predictions = [1, 0, 1, bad, 0]
    with pytest.raises(ValueError, match=r"predictions\[3\]: .*" + message.replace("[", r"\[").replace("(", r"\(")):
        compute(predictions, [1, 0, 1, 1, 0])
    # bools and numpy ints are ints, as in sklearn: counted as 1 and 3
    assert compute([1, True, np.int64(3)], [1, 1, 3])["accuracy"] == 1.0


@pytest.mark.parametrize("nested", [False, True])
def test_dense_and_sparse_resampling_tables_give_the_same_intervals(monkeypatch, nested):
    """Small resampling tables are numpy arrays, large ones scipy sparse: the same counts
    either way, so the same intervals to the bit (labels and sentences)."""
    rng = np.random.default_rng(2)
    y = rng.integers(0, 12, 3000)
    p = np.where(rng.random(3000) < 0.6, y, rng.integers(0, 12, 3000))
    if nested:
        y, p = [list(v) for v in y.reshape(300, 10)], [list(v) for v in p.reshape(300, 10)]
    options = dict(negative_labels=[0], confidence_level=0.9, n_resamples=300, seed=5)
    dense = compute(p, y, **options)
    monkeypatch.setattr(micro_macro, "DENSE_TABLE", 0)
    assert compute(p, y, **options) == dense


def test_bootstrap_intervals_are_reproducible_and_bracket_the_estimate():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 5, 2000)
    p = np.where(rng.random(2000) < 0.7, y, rng.integers(0, 5, 2000))
    r = compute(p, y, negative_labels=[0], confidence_level=0.95, n_resamples=400, seed=11)
    assert r == compute(p, y, negative_labels=[0], confidence_level=0.95, n_resamples=400, seed=11)
    for key in KEYS:
        assert r[f"{key}_low"] < r[key] < r[f"{key}_high"], key
    # the micro F1 spread is the binomial one, about sqrt(f(1-f)/n) on each side
    half_width = (r["micro_f1_high"] - r["micro_f1_low"]) / 2
    assert half_width == pytest.approx(1.96 * math.sqrt(r["micro_f1"] * (1 - r["micro_f1"]) / 1600), rel=0.25)


def test_signature_names_the_convention_and_options():
    r = compute([1, 0], [1, 1], convention="maven", return_signature=True)
    assert without_references(r["signature"]).startswith("micro_macro|convention:maven|labels:all|negative_labels:0|ignore_index:-100|zero_division:0|paperscore:")


# ---------------------------------------------------------------------------------------
# Command line


def run_cli(argv, capsys):
    code = cli.main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cli_json_is_what_compute_returns(tmp_path, capsys):
    (tmp_path / "p.txt").write_text("None\nAttack\nAttack\nNone\n")
    (tmp_path / "r.txt").write_text("None\nAttack\nNone\nMove\n")
    code, out, _ = run_cli(["micro_macro", "--predictions", str(tmp_path / "p.txt"), "--references", str(tmp_path / "r.txt"), "--convention", "maven", "--json"], capsys)
    assert code == 0
    expected = compute(["None", "Attack", "Attack", "None"], ["None", "Attack", "None", "Move"], convention="maven", return_signature=True)
    assert json.loads(out) == expected


def test_cli_reads_json_lines_of_token_labels_and_prints_a_table(tmp_path, capsys):
    (tmp_path / "p.jsonl").write_text("[0, 3, 1, 5]\n[1, 1, 2, 2]\n")
    (tmp_path / "r.jsonl").write_text("[0, 3, 3, -100]\n[0, 1, -100, -100]\n")
    code, out, _ = run_cli(["micro_macro", "--predictions", str(tmp_path / "p.jsonl"), "--references", str(tmp_path / "r.jsonl"), "--negative-labels", "0", "--per-class", "--confusion-matrix"], capsys)
    assert code == 0
    assert "micro_f1" in out and f"{4 / 7:.6f}" in out
    assert "per_class" in out and "confusion_matrix (rows: references, columns: predictions)" in out
    assert "signature: micro_macro|convention:none|labels:all|negative_labels:0" in out


def test_cli_bootstrap_options_reach_compute(tmp_path, capsys):
    (tmp_path / "p.txt").write_text("1\n0\n1\n1\n0\n")
    (tmp_path / "r.txt").write_text("1\n0\n0\n1\n1\n")
    code, out, _ = run_cli(["micro_macro", "--predictions", str(tmp_path / "p.txt"), "--references", str(tmp_path / "r.txt"), "--confidence-level", "0.9", "--seed", "4", "--n-resamples", "50", "--json"], capsys)
    result = json.loads(out)
    assert code == 0 and "macro_f1_low" in result and "bootstrap:50@0.9|seed:4" in result["signature"]


@pytest.mark.parametrize(
    "pred_text, message",
    [
        ("1\n\n1\n", "--predictions: .* line 2 is empty"),
        ("1\n2\n", "differ in length: 2 against 3"),
        ("1\n2.5\n1\n", r"predictions\[1\]: expected int like the labels before it, got float 2.5"),
    ],
)
def test_cli_bad_files_exit_1_with_the_reason(tmp_path, capsys, pred_text, message):
    (tmp_path / "p.txt").write_text(pred_text)
    (tmp_path / "r.txt").write_text("1\n0\n1\n")
    code, out, err = run_cli(["micro_macro", "--predictions", str(tmp_path / "p.txt"), "--references", str(tmp_path / "r.txt")], capsys)
    assert code == 1 and out == ""
    assert err.startswith("paperscore micro_macro: error: ")
    assert __import__("re").search(message, err), err


@pytest.mark.parametrize(
    "pred_text, ref_text",
    [
        ("None\nAttack\nAttack\nNone\n", "None\nAttack\nNone\nMove\n"),
        ("\ufeffNone\r\nAttack\r\n Attack \r\nNone", "None\nAttack\nNone\nMove"),  # BOM, CRLF, spaces, no final newline
        ("1\n0\n2\n2\n-100\n", "1\n0\n2\n1\n-100\n"),
        ("[0, 3, 1, 5]\n[1, 1, 2, 2]\n", "[0, 3, 3, -100]\n[0, 1, -100, -100]\n"),
        ("true\n2\n0\n", "1\n2\n0\n"),  # a JSON bool is an int label, as before
        ("\"1\"\n2\nA\n", "1\n2\nA\n"),  # the JSON string "1" is the str label 1
        ("1\n 1\n2\n7\n", "1\n1 \n 2\n1\n"),  # distinct lines, one int label: one class
    ],
    ids=["strings", "bom-crlf", "ints", "json-lists", "bool", "json-string", "int-spaces"],
)
def test_cli_reads_label_files_as_read_values_does(tmp_path, capsys, pred_text, ref_text):
    """The command line reads each distinct line once (issue 15: 11M lines took 144 s);
    its numbers must be what compute() gives on core.read_values' lists."""
    from paperscore.core import read_values

    (tmp_path / "p.txt").write_text(pred_text, encoding="utf-8")
    (tmp_path / "r.txt").write_text(ref_text, encoding="utf-8")
    code, out, err = run_cli(["micro_macro", "--predictions", str(tmp_path / "p.txt"), "--references", str(tmp_path / "r.txt"), "--per-class", "--confusion-matrix", "--json"], capsys)
    try:
        expected = compute(read_values(tmp_path / "p.txt", "--predictions"), read_values(tmp_path / "r.txt", "--references"), per_class=True, confusion_matrix=True, return_signature=True)
    except ValueError as error:
        assert code == 1 and str(error) in err
        return
    assert code == 0, err
    assert json.loads(out) == json.loads(json.dumps(expected))


_metric = []


def space_metric():
    """The Space's metric through evaluate, loaded once for the property test below."""
    if not _metric:
        import evaluate
        from conftest import SPACES_DIR

        _metric.append(evaluate.load(str(SPACES_DIR / "micro_macro"), keep_in_memory=True))
    return _metric[0]


@settings(max_examples=25, deadline=None)
@given(cases, st.lists(st.integers(0, 40), max_size=3))
def test_batches_added_through_evaluate_equal_one_pass(data, cuts):
    y, p = data
    bounds = [0] + sorted(min(c, len(y)) for c in cuts) + [len(y)]
    metric = space_metric()
    for start, stop in zip(bounds, bounds[1:]):
        if stop > start:
            metric.add_batch(predictions=p[start:stop], references=y[start:stop])
    classes = set(y) | set(p)
    negatives = [0] if 0 in classes and len(classes) > 1 else None
    assert metric.compute(negative_labels=negatives) == compute(p, y, negative_labels=negatives)


def test_the_metric_script_takes_exactly_the_package_arguments():
    import inspect

    parameters = list(inspect.signature(type(space_metric())._compute).parameters.values())[1:]
    # **unknown: compute's own refusal of any other argument (the Space refuses them first)
    assert parameters == [p for p in inspect.signature(compute).parameters.values() if p.kind != p.VAR_KEYWORD]


def test_compute_refuses_sklearn_habits_as_the_space_does():
    """average= and pos_label=, which sklearn and evaluate's f1 take: a ValueError naming
    the argument and saying what to do, in the Space's words (one source, HABITS)."""
    from paperscore.micro_macro import HABITS

    with pytest.raises(ValueError) as raised:
        compute([1, 0], [1, 1], average="macro")
    assert str(raised.value).startswith("average: not an argument of paperscore.micro_macro.compute (it takes predictions, references, labels, ")
    assert str(raised.value).endswith("; " + HABITS["average"]) and "macro_f1" in HABITS["average"]
    assert type(space_metric()).habits == HABITS  # the vendored copy of the same dict
    with pytest.raises(ValueError, match=r"^beta: not an argument of paperscore\.micro_macro\.compute \(it takes [a-z_, ]+\)$"):
        compute([1, 0], [1, 1], beta=2)
    with pytest.raises(ValueError, match="^pos_label: .*negative_labels"):
        compute([1, 0], [1, 1], pos_label=1, spans="textee")


def test_the_space_refuses_a_batch_evaluate_would_convert():
    """evaluate stores every batch in the first batch's feature: after int labels, the
    string "2" would silently become the int 2."""
    metric = space_metric()
    metric.add_batch(predictions=[1, 2], references=[1, 2])
    with pytest.raises(ValueError, match="this batch holds str labels, but earlier batches held int labels"):
        metric.add_batch(predictions=["2"], references=["1"])
    with pytest.raises(ValueError, match="holds sequences of int labels, but earlier batches held int labels"):
        metric.add_batch(predictions=[[2]], references=[[1]])
    metric.add_batch(predictions=[], references=[])  # adds nothing
    assert metric.compute() == compute([1, 2], [1, 2])
    metric.add_batch(predictions=["a"], references=["b"])  # a new accumulation may differ
    assert metric.compute()["accuracy"] == 0.0


def test_cli_json_writes_nan_as_null(tmp_path, capsys):
    # class 5 never occurs: with zero_division nan its P and R are undefined; micro P is
    # still 1/1 (one prediction of class 1, right); JSON has no NaN, so null
    (tmp_path / "p.txt").write_text("1\n")
    (tmp_path / "r.txt").write_text("1\n")
    code, out, _ = run_cli(["micro_macro", "--predictions", str(tmp_path / "p.txt"), "--references", str(tmp_path / "r.txt"), "--labels", "5", "--zero-division", "nan", "--json"], capsys)
    printed = json.loads(out)
    assert code == 0 and printed["macro_precision"] is None and "NaN" not in out


# ---------------------------------------------------------------------------------------
# Tensors (issue 11 part 3): what a training loop hands over

INT_DTYPES = [torch.int64, torch.int32, torch.int16, torch.uint8]


def course_batches(dtype, n=60, classes=5, size=8):
    """The Hugging Face course's loop: logits, their argmax, batch["labels"]."""
    generator = torch.Generator().manual_seed(3)
    logits = torch.randn(n, classes, generator=generator)
    labels = torch.randint(0, classes, (n,), generator=generator).to(dtype)
    return [(torch.argmax(logits[s : s + size], -1).to(dtype), labels[s : s + size]) for s in range(0, n, size)]


def sklearn_of(batches, **kwargs):
    y = np.concatenate([labels.numpy() for _, labels in batches]).astype(np.int64)
    p = np.concatenate([predictions.numpy() for predictions, _ in batches]).astype(np.int64)
    return sklearn_scores(y.tolist(), p.tolist(), kwargs.get("labels"), 0.0)


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=str)
def test_the_course_loop_with_tensors_equals_sklearn(dtype):
    batches = course_batches(dtype)
    expected = sklearn_of(batches)
    metric = space_metric().fresh()
    for predictions, labels in batches:
        metric.add_batch(predictions=predictions, references=labels)
    assert_equal_to_sklearn(metric.compute(), expected)
    for predictions, labels in batches:  # add(): one 0-d tensor per example
        for prediction, label in zip(predictions, labels):
            metric.add(prediction=prediction, reference=label)
    assert_equal_to_sklearn(metric.compute(), expected)
    predictions = torch.cat([p for p, _ in batches])
    references = torch.cat([r for _, r in batches])
    assert_equal_to_sklearn(metric.compute(predictions=predictions, references=references), expected)
    assert_equal_to_sklearn(compute(predictions, references), expected)
    # lists of tensors, of numpy arrays, of numpy scalars
    assert_equal_to_sklearn(compute(list(predictions), list(references)), expected)
    assert_equal_to_sklearn(compute(predictions.numpy(), [np.int64(v) for v in references.tolist()]), expected)


def test_tensors_that_need_no_grad_or_hold_bools_are_labels():
    logits = torch.tensor([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]], requires_grad=True)
    # argmax: 1, 0, 1 against 1, 1, 1: sklearn's numbers for the same ints
    expected = sklearn_scores([1, 1, 1], [1, 0, 1], None, 0.0)
    assert_equal_to_sklearn(compute(torch.argmax(logits, -1), torch.ones(3, dtype=torch.int64)), expected)
    assert_equal_to_sklearn(compute(torch.tensor([True, False, True]), torch.tensor([True, True, True])), expected)


def test_token_classification_tensors_equal_the_list_form():
    """Trainer-style padded 2-D tensors and per-example 1-d tensors (ragged)."""
    predictions = torch.tensor([[1, 1, 2, 7], [0, 3, 3, 3]])
    references = torch.tensor([[1, 2, 2, -100], [0, -100, -100, -100]])
    as_lists = compute(predictions.tolist(), references.tolist())
    assert compute(predictions, references) == as_lists
    ragged = ([torch.tensor([1, 1, 2]), torch.tensor([0])], [torch.tensor([1, 2, 2]), torch.tensor([0])])
    assert compute(*ragged) == as_lists
    metric = space_metric().fresh()
    metric.add_batch(predictions=predictions, references=references)
    assert metric.compute() == as_lists
    for prediction, reference in zip(*ragged):
        metric.add(prediction=prediction, reference=reference)
    assert metric.compute() == as_lists


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64], ids=str)
def test_a_float_tensor_of_labels_is_refused_in_every_entry_point(dtype):
    predictions, references = torch.tensor([1.0, 2.0], dtype=dtype), torch.tensor([1, 2])
    message = r"predictions\[0\]: expected int or str labels, got float"
    with pytest.raises(ValueError, match=message):
        compute(predictions, references)
    metric = space_metric().fresh()
    for call in (metric.compute, metric.add_batch):
        with pytest.raises(ValueError, match=message):
            call(predictions=predictions, references=references)
    with pytest.raises(ValueError, match=r"predictions\[0\]: expected int or str, got float"):
        metric.add(prediction=predictions[0], reference=references[0])


# ---------------------------------------------------------------------------------------
# Configuration names (issue 11 part 3)


def test_config_maven_equals_sklearn_without_na_through_load_and_combine():
    import evaluate
    from conftest import SPACES_DIR

    y = [0, 0, 1, 1, 2, 2, 2, 0, 3]
    p = [1, 0, 1, 0, 2, 0, 2, 0, 3]
    # MAVEN: NA (0) left out of the averages, sklearn given the event classes
    expected = sklearn_scores(y, p, [1, 2, 3], 0.0)
    maven = evaluate.load(str(SPACES_DIR / "micro_macro"), config_name="maven", keep_in_memory=True)
    assert_equal_to_sklearn(maven.compute(predictions=p, references=y), expected)
    combined = evaluate.combine([maven]).compute(predictions=p, references=y)
    assert_equal_to_sklearn(combined, expected)
    assert maven.compute(predictions=p, references=y, convention=None)["micro_f1"] == pytest.approx(accuracy_score(y, p))


def test_config_jmee_scores_gold_events_only_as_sklearn():
    import evaluate
    from conftest import SPACES_DIR

    y = ["O", "O", "A", "A", "B", "B"]
    p = ["A", "O", "A", "O", "B", "A"]
    # JMEE: only gold-event positions (2..5), NA "O" stays a class; headline = macro P, macro R, micro F1
    kept = [i for i, label in enumerate(y) if label != "O"]
    gold, pred = [y[i] for i in kept], [p[i] for i in kept]
    jmee = evaluate.load(str(SPACES_DIR / "micro_macro"), config_name="jmee", keep_in_memory=True)
    result = evaluate.combine([jmee]).compute(predictions=p, references=y)
    macro = precision_recall_fscore_support(gold, pred, labels=["A", "B", "O"], average="macro", zero_division=0)
    micro = precision_recall_fscore_support(gold, pred, labels=["A", "B", "O"], average="micro", zero_division=0)
    assert (result["precision"], result["recall"], result["f1"]) == pytest.approx((macro[0], macro[1], micro[2]), abs=1e-12)


def test_an_unknown_config_is_refused_with_the_names():
    import evaluate
    from conftest import SPACES_DIR

    with pytest.raises(ValueError, match=r"config_name: 'ace' .*'default', 'maven', 'jmee'"):
        evaluate.load(str(SPACES_DIR / "micro_macro"), config_name="ace")


# ---------------------------------------------------------------------------------------
# The batch against the plain per-pair definition (tests/micro_macro_naive.py), at the
# sizes users run (issue 28): 10,000+ examples, int and str labels, tens to a thousand
# classes, NA-heavy, sequences with padding and empty ones, wide and extreme int ids.

MAVEN_NAMES = ["None"] + [f"Event.{i:03d}" for i in range(1, 169)]
STR_NAMES = ["None", "O", "出行-Travel", "Attack ", "attack", "é", "e\u0301", "-100", "PAD?", ""] + [f"T{i}" for i in range(290)]
EXTREME = [-(2**63), 2**63 - 1, -1, 0, 1, 2**31, -(2**31) - 1, 2**32 + 7, 4096, 4097]


def draw(rng, names, n, na_share, nested, pad=None, right=0.7):
    """n examples over `names` (names[0] NA, a long tail over the rest): references, then
    predictions right `right` of the time; sequences of 0-30 labels (a tenth empty), a
    tenth of them padded at the end with `pad` (never a label otherwise)."""
    names = [x for x in names if x != pad]
    tail = 1 / np.arange(1, len(names))
    weights = np.concatenate([[na_share], (1 - na_share) * tail / tail.sum()])
    sizes = np.where(rng.random(n) < 0.9, rng.integers(0, 31, n), 0) if nested else np.ones(n, dtype=int)
    codes = rng.choice(len(names), size=int(sizes.sum()), p=weights)
    guesses = np.where(rng.random(len(codes)) < right, codes, rng.integers(0, len(names), len(codes)))
    references, predictions = [names[c] for c in codes], [names[c] for c in guesses]
    if not nested:
        return references, predictions
    ends = np.cumsum(sizes).tolist()
    references = [references[end - size : end] for end, size in zip(ends, sizes.tolist())]
    predictions = [predictions[end - size : end] for end, size in zip(ends, sizes.tolist())]
    for r, size in zip(references, sizes.tolist()):
        if pad is not None and size and rng.random() < 0.1:
            cut = int(rng.integers(0, size))
            r[cut:] = [pad] * (size - cut)
    return references, predictions


DIFFERENTIAL = [
    # (names, examples, NA share, sequences, padding, options)
    (list(range(169)), 10_000, 0.7, False, None, {"convention": "maven"}),
    (MAVEN_NAMES, 10_000, 0.7, False, None, {"convention": "maven", "zero_division": "nan"}),
    (list(range(40)), 10_000, 0.6, True, -100, {"negative_labels": [0], "zero_division": 1.0}),
    (STR_NAMES[:60], 10_000, 0.5, True, "PAD", {"convention": "jmee", "negative_labels": ["O"], "ignore_index": "PAD"}),
    (list(range(1000)), 10_000, 0.0, False, None, {}),
    (EXTREME + [v * 2**40 - 2**61 for v in range(290)], 10_000, 0.3, False, None, {"labels": [0, 5, 2**63 - 1, 123], "negative_labels": [0], "zero_division": "nan"}),
    (STR_NAMES, 12_000, 0.4, False, None, {"labels": ["NA", "T5", "é", "e\u0301", "T999", "None"], "negative_labels": ["NA", "None"], "convention": "maven"}),
    (list(range(1, 30)) + [0], 10_000, 0.5, True, -100, {"convention": "jmee", "labels": list(range(35)), "zero_division": 1.0}),
    (list(range(-5, 300)), 10_000, 0.5, True, 7, {"ignore_index": 7, "negative_labels": [-5]}),
]


def close(a, b):
    return (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b)) or abs(a - b) <= 1e-12


@pytest.mark.parametrize("case", range(len(DIFFERENTIAL)))
def test_the_batch_equals_the_plain_definition_at_users_sizes(case):
    from micro_macro_naive import scores

    from paperscore.compare import paired_statistics

    names, n, na_share, nested, pad, options = DIFFERENTIAL[case]
    references, predictions = draw(np.random.default_rng(case), names, n, na_share, nested, pad)
    small = len(names) <= 300
    result = compute(predictions, references, per_class=True, confusion_matrix=small, **options)
    naive = scores(predictions, references, with_matrix=small, **options)
    for key in KEYS + (("precision", "recall", "f1") if options.get("convention") == "jmee" else ()):
        assert close(result[key], naive[key]), (key, result[key], naive[key])
    assert list(result["per_class"]) == list(naive["per_class"])
    for label, values in naive["per_class"].items():
        assert result["per_class"][label]["support"] == values["support"]
        assert all(close(result["per_class"][label][k], values[k]) for k in ("precision", "recall", "f1")), label
    if small:
        assert result["labels"] == naive["labels"] and result["confusion_matrix"] == naive["confusion_matrix"]
    # each example's statistics inside the batch (the rows the bootstrap and the paired
    # tests resample) equal that example's own, counted alone
    table, codes, *_ = paired_statistics("micro_macro", references, predictions, predictions, **{k: v for k, v in options.items() if k != "per_class"})
    table = csr_matrix(table)  # a numpy array, or scipy sparse for a large table
    if nested:
        row_of = [(example, example) for example in range(n)]
    else:
        row_of = [(int(codes[j]), pair[0]) for j, pair in enumerate(naive["pairs"])]
    assert len(codes) == (n if nested else len(naive["pairs"]))
    for row, example in row_of:
        start, end = table.indptr[row], table.indptr[row + 1]
        found = {int(c): v for c, v in zip(table.indices[start:end], table.data[start:end]) if v}
        assert found == naive["rows"][example], example


# ---------------------------------------------------------------------------------------
# Generated triggers (parse=): OmniEvent's seq2seq texts put onto OmniEvent items' candidates

FIRED = {
    "text": "troops fired and fired again ; two died",
    "events": [
        {"type": "Conflict.Attack", "triggers": [{"trigger_word": "fired", "position": [7, 12]}, {"trigger_word": "fired", "position": [17, 22]}]},
        {"type": "Life.Die", "triggers": [{"trigger_word": "died", "position": [35, 39]}]},
    ],
    "negative_triggers": [{"trigger_word": "troops", "position": [0, 6]}],
}
FIRED_REPLY = "<extra_id_0> attack: fired <extra_id_1><extra_id_0> die: troops<extra_id_1><extra_id_0> die: died <extra_id_1><extra_id_0> die: died <extra_id_1> junk</s>"
FIRED_TYPES = ["Conflict.Attack", "Life.Die"]


def test_parse_puts_generated_triggers_onto_the_candidates_by_hand():
    # candidates in OmniEvent's order: fired (attack), fired (attack), died (die), troops (NA);
    # pairs: (fired, attack), (troops, die), (died, die), (died, die); "junk" is no pair.
    # OmniEvent: fired -> attack (pair used), fired -> no pair left -> NA, died -> die (one
    # used), troops -> die; one (died, die) left over, dropped. Classes attack, die (NA out):
    # tp 2 (fired, died), predicted 3, gold 3: P = R = F1 = 2/3.
    result = compute([FIRED_REPLY], [FIRED], parse="omnievent_s2s", types=FIRED_TYPES, convention="omnievent", return_signature=True)
    assert (result["micro_precision"], result["micro_recall"]) == (pytest.approx(2 / 3), pytest.approx(2 / 3))
    assert (result["parse_failures"], result["parse_failure_examples"], result["unplaced_triggers"]) == (1, [0], 1)
    assert result["signature"].startswith("micro_macro|parse:omnievent_s2s@1|types:2|convention:omnievent|")
    # strict offset policy, gold never looked at: each pair takes the first free candidate of
    # its word in text order: fired@7 attack, troops die, died die; the last (died, die)
    # finds none: an extra (NA, die) pair. tp 2, predicted 4, gold 3: P 1/2, R 2/3, F1 4/7.
    result = compute([FIRED_REPLY], [FIRED], parse="omnievent_s2s_strict", types=FIRED_TYPES, convention="omnievent")
    assert (result["micro_precision"], result["micro_recall"], result["micro_f1"]) == (0.5, pytest.approx(2 / 3), pytest.approx(4 / 7))
    assert result["unplaced_triggers"] == 1


OMNIEVENT_CORPORA = json.loads((__import__("pathlib").Path(__file__).parent / "data" / "parse" / "omnievent_corpora.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", range(len(OMNIEVENT_CORPORA)))
def test_parse_equals_omnievents_conversion_and_micro_f1(case):
    """OmniEvent's own get_trigger_detection_s2s and compute_unified_micro_f1, run in place
    on these corpora (tests/data/parse/README.md), in percent."""
    from paperscore import parse as P

    corpus = OMNIEVENT_CORPORA[case]
    result = compute(corpus["texts"], corpus["items"], parse="omnievent_s2s", types=corpus["types"], convention="omnievent")
    expected = corpus["compute_unified_micro_f1"]
    for key, theirs in (("micro_precision", "precision"), ("micro_recall", "recall"), ("micro_f1", "micro_f1")):
        assert result[key] * 100 == pytest.approx(expected[theirs], abs=1e-9), key
    pairs, _ = P.parse(corpus["texts"], "omnievent_s2s")
    from paperscore.micro_macro import omnievent_item

    texts, positions, gold = zip(*(omnievent_item(item, i) for i, item in enumerate(corpus["items"])))
    placed = P.place_triggers("omnievent", pairs, texts, positions, gold, [P.plain_label(t) for t in corpus["types"]])
    assert [label for labels, _ in placed for label in labels] == corpus["omnievent_results"]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"parse": "omnievent_s2s"}, "types: OmniEvent's conversion keeps only pairs whose type is in the schema"),
        ({"parse": "omnievent_s2s", "types": "Life.Die"}, "types: 'Life.Die' is not a list of type names"),
        ({"parse": "mvp", "types": FIRED_TYPES}, "parse: unknown parser 'mvp' for micro_macro"),
        ({"types": FIRED_TYPES}, "types: applies to model texts read by a parser; pass parse=NAME"),
        ({"strict": True}, "strict: applies to model texts read by a parser"),
        ({"parse": "omnievent_s2s", "types": FIRED_TYPES, "strict": True}, r"predictions\[0\]: omnievent_s2s@1 cannot read it: piece 9 'junk' is not 'type: trigger'"),
    ],
)
def test_parse_options_are_checked(kwargs, message):
    references = [FIRED] if "parse" in kwargs else ["attack"]
    predictions = [FIRED_REPLY] if "parse" in kwargs else ["attack"]
    with pytest.raises(ValueError, match=message):
        compute(predictions, references, **kwargs)


@pytest.mark.parametrize(
    "item, message",
    [
        ("attack", r"references\[0\]: is not an OmniEvent item"),
        ({"text": "a", "events": [{"type": "X"}], "negative_triggers": []}, r"references\[0\]: is not an OmniEvent item with gold labels \(KeyError 'triggers'\)"),
        ({"text": "a", "events": [], "negative_triggers": [{"position": [0]}]}, r"references\[0\]: candidate 1: position \[0\] is not \[start, end\]"),
        ({"text": "a", "events": [], "negative_triggers": [{"position": [0, 2]}]}, r"positions\[0\]\[0\]: \(0, 2\) is not inside the text of 1 characters"),
    ],
)
def test_a_malformed_item_is_named(item, message):
    with pytest.raises(ValueError, match=message):
        compute(["x"], [item], parse="omnievent_s2s_strict")


def test_items_without_a_parser_are_refused_by_name():
    with pytest.raises(ValueError, match=r"references\[0\]: is an object: OmniEvent items go with model texts read by a parser, parse=NAME \(omnievent_s2s, omnievent_s2s_strict\)"):
        compute([FIRED_REPLY], [FIRED])


def test_the_space_takes_model_texts_and_items_in_batches():
    import evaluate
    from conftest import SPACES_DIR

    metric = evaluate.load(str(SPACES_DIR / "micro_macro"), keep_in_memory=True)
    second = {**FIRED, "negative_triggers": []}
    metric.add_batch(predictions=[FIRED_REPLY], references=[FIRED])
    metric.add_batch(predictions=["", FIRED_REPLY], references=[second, second])
    with pytest.raises(ValueError, match="this batch holds int labels, but earlier batches held model texts with OmniEvent items"):
        metric.add_batch(predictions=[1], references=[1])
    options = dict(parse="omnievent_s2s", types=FIRED_TYPES, convention="omnievent", return_signature=True)
    assert metric.compute(**options) == compute([FIRED_REPLY, "", FIRED_REPLY], [FIRED, second, second], **options)
    with pytest.raises(ValueError, match="parse: unknown parser 'mvp' for micro_macro"):
        metric.trainer_metrics(parse="mvp")


def test_the_command_line_reads_model_texts_items_and_a_type2id_file(tmp_path, capsys):
    (tmp_path / "p.txt").write_text(FIRED_REPLY + "\n\n", encoding="utf-8")
    (tmp_path / "items.jsonl").write_text(json.dumps(FIRED) + "\n" + json.dumps(FIRED) + "\n", encoding="utf-8")
    (tmp_path / "type2id.json").write_text(json.dumps({"NA": 0, "Conflict.Attack": 1, "Life.Die": 2}), encoding="utf-8")
    argv = ["micro_macro", "--parse", "omnievent_s2s", "--predictions", str(tmp_path / "p.txt"), "--references", str(tmp_path / "items.jsonl"), "--convention", "omnievent"]
    code, out, _ = run_cli(argv + ["--types", str(tmp_path / "type2id.json"), "--json"], capsys)
    expected = compute([FIRED_REPLY, ""], [FIRED, FIRED], parse="omnievent_s2s", types=["NA", *FIRED_TYPES], convention="omnievent", return_signature=True)
    assert code == 0 and json.loads(out) == expected
    code, out, _ = run_cli(argv + ["--types", "Conflict.Attack,Life.Die", "--json"], capsys)
    assert json.loads(out)["micro_f1"] == expected["micro_f1"]
    code, _, err = run_cli(["micro_macro", "--predictions", str(tmp_path / "p.txt"), "--references", str(tmp_path / "p.txt"), "--strict"], capsys)
    assert code == 1 and "--strict: applies with --parse NAME only" in err
    code, _, err = run_cli(argv + ["--types", str(tmp_path / "type2id.jsn")], capsys)
    assert code == 1 and "--types: " in err and "type2id.jsn is not a file" in err


def test_trainer_metrics_parse_generated_triggers():
    """What Seq2SeqTrainer(predict_with_generate=True) hands compute_metrics, generated ids
    padded with -100, in one call and batch by batch as torch tensors: decoded with T5's
    markers kept (only the end and padding tokens removed, as OmniEvent's get_pred_s2s),
    read by the parser and put onto the evaluation set's OmniEvent items, given in order."""
    from test_trainer import SPECIALS
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import EvalPrediction, PreTrainedTokenizerFast

    words = ["fired", "died", "troops", "attack:", "die:", "again", "two"]
    markers = ["<extra_id_0>", "<extra_id_1>"]
    model = Tokenizer(models.WordLevel({w: i for i, w in enumerate(SPECIALS + markers + words)}, unk_token="[UNK]"))
    model.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=model, pad_token="[PAD]", unk_token="[UNK]", eos_token="</s>", additional_special_tokens=markers)
    rng = np.random.default_rng(5)
    items, generated = [], []
    for _ in range(20):
        sentence = [str(w) for w in rng.choice(["fired", "died", "troops", "again", "two"], int(rng.integers(2, 6)))]
        starts = np.cumsum([0] + [len(w) + 1 for w in sentence[:-1]]).tolist()
        spans = [(w, [s, s + len(w)]) for w, s in zip(sentence, starts)]
        events = [{"type": "Life.Die" if w == "died" else "Conflict.Attack", "triggers": [{"trigger_word": w, "position": p}]} for w, p in spans if w in ("fired", "died")]
        items.append({"text": " ".join(sentence), "events": events, "negative_triggers": [{"trigger_word": w, "position": p} for w, p in spans if w not in ("fired", "died")]})
        # a model that writes some pairs right, some with the other type, some for any word
        pairs = [(str(rng.choice(["attack:", "die:"])), w) for w in sentence if rng.random() < 0.6]
        text = "".join(f"<extra_id_0> {kind} {w} <extra_id_1>" for kind, w in pairs)
        generated.append(tokenizer(text)["input_ids"] + [tokenizer.eos_token_id])
    width = max(map(len, generated)) + 2
    ids = np.array([row + [-100] * (width - len(row)) for row in generated])
    labels = np.zeros((20, 3), dtype=np.int64)  # not read: the items are the references
    import evaluate
    from conftest import SPACES_DIR

    metric = evaluate.load(str(SPACES_DIR / "micro_macro"), keep_in_memory=True)
    options = dict(parse="omnievent_s2s", types=FIRED_TYPES, convention="omnievent")
    # the texts a word-level tokenizer decodes: tokens joined by spaces, "</s>" and pad removed
    decoded = [" ".join(tokenizer.convert_ids_to_tokens(row)) for row in generated]
    expected = compute([text.replace("</s>", "") for text in decoded], items, **options)
    assert 0 < expected["micro_f1"] < 1 and expected["parse_failures"] == 0 and "<extra_id_0>" in "".join(decoded)
    whole = metric.trainer_metrics(tokenizer=tokenizer, references=items, **options)(EvalPrediction(ids, labels))
    by_batch = metric.trainer_metrics(tokenizer=tokenizer, references=items, **options)
    for start in range(0, 20, 8):
        stop = min(start + 8, 20)
        out = by_batch(EvalPrediction(torch.tensor(ids[start:stop]), torch.tensor(labels[start:stop])), compute_result=stop == 20)
    for key in (*KEYS, "parse_failures", "unplaced_triggers"):
        assert whole[key] == pytest.approx(expected[key], abs=1e-12) and out[key] == whole[key], key
    with pytest.raises(ValueError, match="references: 19 given, but the evaluation set holds 20 examples"):
        metric.trainer_metrics(tokenizer=tokenizer, references=items[:19], **options)(EvalPrediction(ids, labels))


def test_the_demo_reads_model_texts_with_a_parser_chosen_from_its_list():
    from conftest import load_app

    app = load_app("micro_macro")
    assert app.PARSERS[1:] == ["omnievent_s2s", "omnievent_s2s_strict"]
    headline, table, _ = app.score(**{**app.EXAMPLE, **app.OMNIEVENT_EXAMPLE})
    # item 1: fired -> attack, died -> die (both right), troops NA; item 2: "die: troops"
    # puts die on troops (gold NA), fired gets nothing. attack tp 1 / predicted 1 / gold 2,
    # die tp 1 / predicted 2 / gold 1: micro P = R = 2/3
    assert headline["micro_precision"] == headline["micro_recall"] == pytest.approx(2 / 3)
    assert headline["parse_failures"] == 0 and headline["signature"].startswith("micro_macro|parse:omnievent_s2s@1|types:2|")
    # both texts read, every trigger on a candidate: the page's report line says so
    assert '<p id="parse-report">Parse failures: 0; unplaced triggers: 0</p>' in app.show(**{**app.EXAMPLE, **app.OMNIEVENT_EXAMPLE})[3]
    with pytest.raises(Exception, match="references: line 1 is not JSON"):
        app.score(**{**app.EXAMPLE, **app.OMNIEVENT_EXAMPLE, "references": "{nope"})
    with pytest.raises(Exception, match="parse: 'mvp' is not one of"):
        app.compute_kwargs(**{**app.EXAMPLE, "parse": "mvp"})


def test_the_readmes_generative_example_prints_what_it_shows(capsys):
    import re
    import shlex

    from conftest import ROOT

    block = re.search(r"```text\n\$ (paperscore micro_macro --parse .*?)\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    argv = [str(ROOT / arg) if arg.startswith("tests/") else arg for arg in shlex.split(block[1])[1:]]
    code, out, _ = run_cli(argv, capsys)
    assert code == 0 and out == block[2]
    # by hand (README): OmniEvent's rule on item 1 as in the card (2 right of 3 predicted
    # attack/die); item 2 died right; item 3 met right, Paris (NA) given attack: 4 right of
    # 6 predicted, of 5 gold: P 2/3, R 4/5, F1 8/11
    assert "micro_precision     0.666667\nmicro_recall        0.800000\nmicro_f1            0.727273" in out


# The command line's coded path (read_labels: each distinct line parsed once, both files put
# into one coding) against the plain definition, on label files of users' sizes.
def _line(rng, value):
    """One way a user's file may hold `value`: bare, as JSON, padded with blanks; a
    text that would read as another type (a number, JSON) is always written as JSON."""
    if isinstance(value, list):
        return json.dumps(value)
    text = json.dumps(value, ensure_ascii=bool(rng.random() < 0.5))
    if isinstance(value, str) and value.strip() == value and value:
        try:
            json.loads(value)
        except ValueError:
            text = value if rng.random() < 0.6 else text  # most lines bare, as files hold them
    return text if rng.random() < 0.8 else f"  {text}\t"


CLI_DIFFERENTIAL = [
    # (names, lines, NA share, sequences, pad, line end, options: as flags, as compute() options)
    (STR_NAMES, 12_000, 0.4, False, None, "\n", (["--negative-labels", "None,O"], {"negative_labels": ["None", "O"]})),
    (MAVEN_NAMES, 12_000, 0.7, False, None, "\r\n", (["--convention", "maven"], {"convention": "maven"})),
    (EXTREME + list(range(-3, 200)), 12_000, 0.3, False, None, "\n", (["--labels", "0,1,4096,-3,9223372036854775807"], {"labels": [0, 1, 4096, -3, 2**63 - 1]})),
    (list(range(40)), 10_000, 0.6, True, -100, "\n", (["--negative-labels", "0"], {"negative_labels": [0]})),
]


@pytest.mark.parametrize("case", range(len(CLI_DIFFERENTIAL)))
def test_cli_label_files_equal_the_plain_definition_at_users_sizes(case, tmp_path, capsys):
    from micro_macro_naive import scores

    names, n, na_share, nested, pad, end, (flags, options) = CLI_DIFFERENTIAL[case]
    rng = np.random.default_rng(100 + case)
    references, predictions = draw(rng, names, n, na_share, nested, pad)
    if not nested:  # padding lines in the references: -100 is not scored (the default ignore_index)
        references = [-100 if isinstance(r, int) and rng.random() < 0.02 else r for r in references]
    for name, values in (("p.txt", predictions), ("r.txt", references)):
        (tmp_path / name).write_bytes(end.join(_line(rng, v) for v in values).encode("utf-8") + end.encode())
    code, out, err = run_cli(["micro_macro", "--predictions", str(tmp_path / "p.txt"), "--references", str(tmp_path / "r.txt"), "--per-class", "--json", *flags], capsys)
    assert code == 0, err
    result = json.loads(out)
    naive = scores(predictions, references, with_matrix=False, **options)
    for key in KEYS:
        assert close(result[key], naive[key]), (key, result[key], naive[key])
    assert list(result["per_class"]) == [str(label) if not isinstance(label, str) else label for label in naive["per_class"]]
    for (label, values), found in zip(naive["per_class"].items(), result["per_class"].values()):
        assert found["support"] == values["support"], label
        assert all(close(found[k], values[k]) for k in ("precision", "recall", "f1")), label
