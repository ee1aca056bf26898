"""paperscore.significance: many systems, seeds, test sets and clusters; corrections,
replicability, ASO, tables and the fingerprint of the references.

The systems are one-label classifiers over micro_macro's rows of confusion cells
(bench_significance.confusion_table); the slow oracles score the resampled labels
themselves (bench_significance.micro_f1), drawing with the same calls of the same
generator as the engine, so that p-values and intervals agree to the last bit or 1e-12.
"""

import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from conftest import DATA
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent / "benchmarks"))
from bench_significance import confusion_table, micro_f1, micro_reduce  # noqa: E402

from paperscore import significance  # noqa: E402
from paperscore.core import KNOWN_REFERENCES, fingerprint, known_copy  # noqa: E402
from paperscore.significance import adjust, aso, compare_systems, compare_test_sets, latex, markdown, replicability  # noqa: E402

K = 5
TABLE = confusion_table(K)


def labelled(n, accuracies, seeds=1, seed=0, k=K):
    """(references, {name: [predictions of each run]}): run j of system s right with
    probability accuracies[s], else a uniform label."""
    rng = np.random.default_rng(seed)
    references = rng.integers(0, k, n)
    return references, {f"S{s}": [np.where(rng.random(n) < a, references, rng.integers(0, k, n)) for _ in range(seeds)] for s, a in enumerate(accuracies)}


def as_systems(references, predictions, table=TABLE, k=K):
    return {name: [(table, references * k + own) for own in runs] for name, runs in predictions.items()}


def quietly(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


# ---------------------------------------------------------------------------------------
# Two systems: compare.paired_test is compare_systems of the two; its numbers are held by
# tests/test_compare.py's slow implementation and tests/test_family.py's recorded figures


def float_rows(n, seed):
    """Per-example float statistics (a score and a count of 1, one row per example), whose
    sums round differently in another order: a mean-of-scores metric."""
    rng = np.random.default_rng(seed)
    table = np.column_stack([rng.random(2 * n), np.ones(2 * n)])
    return (table, np.arange(n)), (table, np.arange(n, 2 * n) - rng.integers(0, 2, n) * n)


def mean_reduce(weights, table):
    sums = np.asarray(weights, dtype=float) @ table
    return {"mean": sums[:, 0] / sums[:, 1]}


def test_identical_systems_warn_as_compare_does():
    references, predictions = labelled(30, [0.6])
    systems = as_systems(references, {"A": predictions["S0"], "B": predictions["S0"]})
    with pytest.warns(UserWarning, match=r"^the two systems' outputs score the same on all 30 examples: there is nothing to test \(p = 1\)$"):
        got = compare_systems(systems, micro_reduce, "micro_f1", n_resamples=50, seed=0)
    assert got["comparisons"][0]["p_value"] == 1.0
    with pytest.warns(UserWarning) as record:
        compare_systems({**systems, "C": systems["A"]}, micro_reduce, "micro_f1", n_resamples=50, seed=0)
    assert [str(w.message).split(":")[0] for w in record] == [f"the outputs of {name} and A score the same on all 30 examples" for name in "BC"]


# ---------------------------------------------------------------------------------------
# Many systems, seeds: against direct implementations


def draws(codes, n_resamples, rng):
    """The examples of each resample, drawn as the engine draws them: over the distinct
    tuples of the runs' codes (in sorted order) by a multinomial when they are at most a
    quarter of the examples, else n example indices (core.resample_chunks, one chunk)."""
    n = len(codes[0])
    units, inverse, counts = np.unique(np.stack(codes, axis=1), axis=0, return_inverse=True, return_counts=True)
    if len(units) * 4 <= n:
        first = np.array([np.flatnonzero(inverse.ravel() == u)[0] for u in range(len(units))])
        return [np.repeat(first, row) for row in rng.multinomial(n, counts / n, size=n_resamples)]
    return list(rng.integers(0, n, size=(n_resamples, n)))


def direct(references, predictions, method, n_resamples, seed, confidence_level=0.95):
    """Each system's scores, differences, intervals and p-values the slow way: every
    resample's examples scored from their labels, each system's runs drawn with
    replacement after the examples (a mean of the drawn runs), then randomization's
    shuffles, comparison by comparison, swapping the labels of a binomial number of each
    pair of (baseline, system) labels' examples."""
    names = list(predictions)
    rng = np.random.default_rng(seed)
    examples = draws([references * K + run for runs in predictions.values() for run in runs], n_resamples, rng)
    means = {}
    for name, runs in predictions.items():
        scores = np.array([[micro_f1(references[e], run[e]) for e in examples] for run in runs])
        if len(runs) > 1:
            drawn = rng.multinomial(len(runs), np.full(len(runs), 1 / len(runs)), size=n_resamples)
            scores = (drawn * scores.T).sum(axis=1, keepdims=True).T / len(runs)
        means[name] = scores[0]
    observed = {name: np.mean([micro_f1(references, run) for run in runs]) for name, runs in predictions.items()}
    out = []
    for name in names[1:]:
        deltas = means[name] - means[names[0]]
        difference = observed[name] - observed[names[0]]
        if method == "bootstrap":
            null = deltas - deltas.mean()
        else:
            a, b = predictions[names[0]][0], predictions[name][0]
            pairs, inverse, counts = np.unique(np.stack([references * K + a, references * K + b], axis=1), axis=0, return_inverse=True, return_counts=True)
            differ = pairs[:, 0] != pairs[:, 1]
            members = [np.flatnonzero(inverse.ravel() == u) for u in np.flatnonzero(differ)]
            null = []
            for row in rng.binomial(counts[differ], 0.5, size=(n_resamples, differ.sum())):
                a2, b2 = a.copy(), b.copy()
                for own, k in zip(members, row):
                    a2[own[:k]], b2[own[:k]] = b[own[:k]], a[own[:k]]
                null.append(micro_f1(references, b2) - micro_f1(references, a2))
            null = np.array(null)
        p_value = (np.sum(np.abs(null) >= abs(difference) - 1e-12 * max(1, abs(difference))) + 1) / (n_resamples + 1)
        tail = (1 - confidence_level) / 2
        out.append((difference, *np.quantile(deltas, [tail, 1 - tail]), p_value))
    return out


@pytest.mark.parametrize(
    "n, accuracies, seeds, method",
    [
        (40, [0.5, 0.6, 0.75], 1, "bootstrap"),  # example indices
        (40, [0.5, 0.6, 0.75], 1, "randomization"),
        (3000, [0.9, 0.905, 0.912], 1, "bootstrap"),  # a multinomial over the tuples of rows
        (2000, [0.9, 0.905, 0.912], 1, "randomization"),
        (40, [0.5, 0.55, 0.7], 3, "bootstrap"),  # seeds: the two-level bootstrap
        (3000, [0.9, 0.905], 2, "bootstrap"),
    ],
)
def test_many_systems_equal_a_direct_slow_implementation(n, accuracies, seeds, method):
    references, predictions = labelled(n, accuracies, seeds, seed=n + seeds)
    got = quietly(compare_systems, as_systems(references, predictions), micro_reduce, "micro_f1", method=method, n_resamples=200, seed=4)
    expected = direct(references, predictions, method, 200, seed=4)
    telling = 0
    for comparison, (difference, low, high, p_value) in zip(got["comparisons"], expected):
        assert comparison["difference"] == pytest.approx(difference, abs=1e-12)
        assert (comparison["difference_low"], comparison["difference_high"]) == pytest.approx((low, high), abs=1e-12)
        assert comparison["p_value"] == pytest.approx(p_value, abs=1e-12)
        telling += 0.02 < p_value < 0.98
    assert telling  # a p-value away from both ends, so that the comparison tells
    for system, runs in zip(got["systems"], predictions.values()):
        scores = [micro_f1(references, run) for run in runs]
        assert system["run_scores"] == pytest.approx(scores, abs=1e-12) and system["score"] == pytest.approx(np.mean(scores), abs=1e-12)
        assert system["score_std"] == (pytest.approx(np.std(scores, ddof=1), abs=1e-12) if seeds > 1 else None)


def test_summed_weights_equal_paired_tests_arithmetic_at_users_sizes():
    """_scores_by_sums (the anchor, packed counts, sparse products) against
    _scores_by_rows (paired_test's weights times rows) on the same draws: 20,000 examples,
    8 runs over one table (an object and an equal copy: one anchor), a run over the table
    as a sparse matrix, and clusters; integer statistics, so the sums are exact both ways."""
    from scipy.sparse import csr_matrix

    references, predictions = labelled(20_000, [0.8, 0.85, 0.9, 0.95], seeds=2, seed=3)
    flat = [run for runs in as_systems(references, predictions).values() for run in runs]
    flat[1] = (TABLE.copy(), flat[1][1])
    flat.append((csr_matrix(TABLE), flat[2][1]))
    score = significance._scorer(micro_reduce, "micro_f1")
    tables = [table for table, _ in flat]
    groups = np.random.default_rng(0).integers(0, 3000, 20_000)
    cases = [(None, True), (None, False), (significance._clusters(groups, 20_000), True)]
    for clusters, tuples in cases:
        counts, members = significance._units(flat, 20_000, clusters, tuples)
        rows = significance._scores_by_rows(counts, members, tables, score, 150, np.random.default_rng(1))
        sums = significance._scores_by_sums(counts, members, tables, score, 150, np.random.default_rng(1))
        assert np.array_equal(rows, sums)
    _, recipes = significance._products(tables, [codes for _, codes in flat], 20_000)
    assert [anchored for _, _, anchored in recipes] == [True] * 8 + [False]


@pytest.mark.parametrize("counts", [[5, 3, 8, 4], [1, 2, 1, 3, 1], [0, 0]])  # a multinomial over units, example indices, no example
def test_draws_are_resample_chunks_numbers(monkeypatch, counts):
    """The summed path's draws, one resample at a time, are core.resample_chunks' weights
    (the same calls of the generator, over several chunks): per unit, or per example index
    in the units' order (summed per unit here)."""
    from paperscore import core

    for module in (core, significance):
        monkeypatch.setattr(module, "BOOTSTRAP_CELLS", 12)
    counts = np.array(counts)
    expected = np.concatenate(list(core.resample_chunks(counts, 37, np.random.default_rng(3))))
    drawn = np.array(list(significance._draws(counts, 37, np.random.default_rng(3))))
    if drawn.shape[1] != len(counts):
        drawn = np.add.reduceat(drawn, np.concatenate([[0], np.cumsum(counts)[:-1]]), axis=1)
    assert expected.shape == (37, len(counts)) and np.array_equal(drawn, expected)


def test_summed_weights_of_float_statistics_agree_to_rounding():
    (table, codes_a), (_, codes_b) = float_rows(5000, 8)
    flat = [(table, codes_a), (table, codes_b), (table, codes_a[::-1].copy())]
    score = significance._scorer(mean_reduce, "mean")
    counts, members = significance._units(flat, 5000, None, False)
    rows = significance._scores_by_rows(counts, members, [table] * 3, score, 100, np.random.default_rng(2))
    sums = significance._scores_by_sums(counts, members, [table] * 3, score, 100, np.random.default_rng(2))
    assert np.allclose(rows, sums, rtol=0, atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(8, 120), systems=st.integers(2, 4))
def test_bounds_and_order_invariance(seed, n, systems):
    """p-values in (0, 1], adjusted ones at least the raw ones, intervals ordered; the same
    numbers after shuffling the examples when the draws go over tuples of rows (two
    systems, or units at most a quarter of the examples)."""
    references, predictions = labelled(n, [0.5 + 0.1 * s for s in range(systems)], seed=seed, k=3)
    table = confusion_table(3)
    got = quietly(compare_systems, as_systems(references, predictions, table, 3), micro_reduce, "micro_f1", n_resamples=60, seed=seed)
    for c in got["comparisons"]:
        assert 0 < c["p_value"] <= c["p_value_adjusted"] <= 1
        assert c["difference_low"] <= c["difference_high"]
    for s in got["systems"]:
        assert 0 <= s["score_low"] <= s["score_high"] <= 1
    order = np.random.default_rng(seed).permutation(n)
    shuffled = quietly(compare_systems, as_systems(references[order], {k: [p[order] for p in v] for k, v in predictions.items()}, table, 3), micro_reduce, "micro_f1", n_resamples=60, seed=seed)
    units = len(np.unique(np.stack([references * 3 + p[0] for p in predictions.values()], axis=1), axis=0))
    if systems == 2 or units * 4 <= n:
        assert shuffled == got


def test_baseline_by_name_and_randomization_refuses_seeds():
    references, predictions = labelled(50, [0.5, 0.7], seeds=2)
    systems = as_systems(references, predictions)
    got = compare_systems(systems, micro_reduce, "micro_f1", baseline="S1", n_resamples=50, seed=0)
    assert got["baseline"] == "S1" and [s["name"] for s in got["systems"]] == ["S1", "S0"]
    assert got["comparisons"][0]["difference"] < 0
    with pytest.raises(ValueError, match=r"^method: randomization swaps two systems' outputs example by example and takes one run per system"):
        compare_systems(systems, micro_reduce, "micro_f1", method="randomization")


# ---------------------------------------------------------------------------------------
# ASO as deepsig computes it


@pytest.fixture(scope="module")
def deepsig():
    try:
        import deepsig
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("deepsig is not installed (pip install -r tests/requirements.txt)")
        pytest.skip("deepsig is not installed (pip install -r tests/requirements.txt)")
    return deepsig


@pytest.mark.parametrize(
    "a, b, options",
    [
        ([0.71, 0.73, 0.70, 0.74, 0.72], [0.69, 0.70, 0.72, 0.68, 0.70], {}),
        ([0.71, 0.73, 0.70], [0.69, 0.70, 0.72, 0.68, 0.70, 0.75, 0.71], {"confidence_level": 0.99}),
        ([0.5, 0.6, 0.55, 0.58], [0.52, 0.61, 0.5, 0.57], {"num_comparisons": 4}),
        ([0.6, 0.6, 0.6], [0.6, 0.6], {}),  # no difference at all: violation ratio 0.5
        ([0.8, 0.9], [0.1, 0.2, 0.15], {}),  # far apart
    ],
)
def test_aso_equals_deepsig(deepsig, a, b, options):
    options["num_bootstrap_iterations"] = 60  # deepsig's default 1,000 takes it 10 s
    theirs = quietly(deepsig.aso, np.array(a), np.array(b), seed=7, show_progress=False, **options)
    assert aso(a, b, seed=7, **options) == theirs


def test_table_aso_is_deepsigs_on_the_runs(deepsig):
    references, predictions = labelled(300, [0.6, 0.65, 0.7], seeds=4, seed=2)
    got = compare_systems(as_systems(references, predictions), micro_reduce, "micro_f1", n_resamples=60, seed=3)
    baseline = [micro_f1(references, run) for run in predictions["S0"]]
    for comparison, name in zip(got["comparisons"], ["S1", "S2"]):
        own = [micro_f1(references, run) for run in predictions[name]]
        expected = deepsig.aso(np.array(own), np.array(baseline), num_comparisons=2, num_bootstrap_iterations=60, seed=3, show_progress=False)
        assert comparison["aso_epsilon_min"] == pytest.approx(expected, abs=1e-12)
    assert compare_systems(as_systems(references, {k: v[:1] for k, v in predictions.items()}), micro_reduce, "micro_f1", n_resamples=20, seed=0)["comparisons"][0]["aso_epsilon_min"] is None


# ---------------------------------------------------------------------------------------
# Clusters


def clustered(documents, size, correlated, seed):
    """Documents of `size` examples. correlated: a system is right or wrong on a whole
    document at once (intra-cluster correlation 1); else on each example independently."""
    rng = np.random.default_rng(seed)
    n = documents * size
    references = rng.integers(1, K, n)
    groups = np.repeat(np.arange(documents), size)
    predictions = {}
    for name, accuracy in (("A", 0.6), ("B", 0.7)):
        right = rng.random(documents)[groups] < accuracy if correlated else rng.random(n) < accuracy
        predictions[name] = [np.where(right, references, (references % (K - 1)) + 1)]  # wrong: another class
    return references, predictions, groups


def width(comparison):
    return comparison["difference_high"] - comparison["difference_low"]


def test_clusters_widen_intervals_as_the_design_effect_predicts():
    """Resampling documents of 10 examples: when the examples of a document are right or
    wrong together, the variance of a mean is the design effect 1 + (10 - 1) x 1 = 10 times
    that of 10 independent examples, so the interval is about sqrt(10) = 3.2 times as wide
    as the one resampling examples; when they are independent, about as wide."""
    for correlated, bounds in ((True, (2.4, 4.0)), (False, (0.8, 1.25))):
        references, predictions, groups = clustered(400, 10, correlated, seed=5)
        systems = as_systems(references, predictions)
        per_example = compare_systems(systems, micro_reduce, "accuracy", n_resamples=1000, seed=1)
        per_document = compare_systems(systems, micro_reduce, "accuracy", n_resamples=1000, seed=1, groups=groups)
        assert per_document["groups"] == 400 and per_example["groups"] is None
        assert bounds[0] < width(per_document["comparisons"][0]) / width(per_example["comparisons"][0]) < bounds[1], correlated


@pytest.mark.parametrize("method", ["bootstrap", "randomization"])
def test_cluster_bootstrap_and_randomization_equal_a_direct_implementation(method):
    """Clusters drawn with replacement (n_clusters indices, resample_chunks' index draws)
    and every example of a drawn cluster taken; randomization swapping whole clusters (a
    binomial of 1 for each cluster whose summed rows differ)."""
    references, predictions, _ = clustered(30, 4, True, seed=25)
    groups = np.array([f"doc{g:02d}" for g in np.random.default_rng(2).integers(0, 25, 120)])
    got = quietly(compare_systems, as_systems(references, predictions), micro_reduce, "accuracy", method=method, n_resamples=300, seed=6, groups=groups)
    ids = np.unique(groups)
    members = [np.flatnonzero(groups == g) for g in ids]
    rng = np.random.default_rng(6)
    drawn = rng.integers(0, len(ids), size=(300, len(ids)))
    a, b = predictions["A"][0], predictions["B"][0]

    def accuracy(pred, index):
        return np.mean(pred[index] == references[index])

    deltas = np.array([accuracy(b, i) - accuracy(a, i) for i in (np.concatenate([members[c] for c in row]) for row in drawn)])
    observed = accuracy(b, np.arange(120)) - accuracy(a, np.arange(120))
    if method == "bootstrap":
        null = deltas - deltas.mean()
    else:
        sums = [(TABLE[references[m] * K + a[m]].sum(0), TABLE[references[m] * K + b[m]].sum(0)) for m in members]
        differ = [c for c, (x, y) in enumerate(sums) if not np.array_equal(x, y)]
        null = []
        for row in rng.binomial(np.ones(len(differ), dtype=np.int64), 0.5, size=(300, len(differ))):
            a2, b2 = a.copy(), b.copy()
            for c, swap in zip(differ, row):
                if swap:
                    a2[members[c]], b2[members[c]] = b[members[c]], a[members[c]]
            null.append(accuracy(b2, np.arange(120)) - accuracy(a2, np.arange(120)))
        null = np.array(null)
    comparison = got["comparisons"][0]
    p_value = (np.sum(np.abs(null) >= abs(observed) - 1e-12) + 1) / 301
    assert 0.02 < p_value < 0.98
    assert comparison["p_value"] == pytest.approx(p_value, abs=1e-12)
    assert (comparison["difference_low"], comparison["difference_high"]) == pytest.approx(tuple(np.quantile(deltas, [0.025, 0.975])), abs=1e-12)


# ---------------------------------------------------------------------------------------
# Corrections and replicability


def test_holm_and_bonferroni_by_hand():
    """p = 0.01, 0.04, 0.03, 0.005 (m = 4). Holm, sorted: 0.005 x 4 = 0.02, 0.01 x 3 =
    0.03, 0.03 x 2 = 0.06, 0.04 x 1 = 0.04 -> 0.06 (never below the one before).
    Bonferroni: each x 4. Capped at 1; a NaN stays NaN and weighs as p = 1."""
    assert adjust([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert adjust([0.01, 0.04, 0.03, 0.005], "bonferroni") == pytest.approx([0.04, 0.16, 0.12, 0.02])
    assert adjust([0.5, 0.6]) == [1.0, 1.0]
    assert adjust([0.02, 0.02, 0.5]) == pytest.approx([0.06, 0.06, 0.5])  # ties: 0.02 x 3, then max(0.02 x 2, 0.06)
    holm = adjust([0.01, float("nan"), 0.02])  # as [0.01, 1, 0.02]: 0.03, then max(0.04, 0.03), then 1
    assert np.isnan(holm[1]) and holm[0] == pytest.approx(0.03) and holm[2] == pytest.approx(0.04)
    with pytest.raises(ValueError, match="^correction: 'sidak' is not one of 'holm', 'bonferroni'$"):
        adjust([0.1], "sidak")


def test_the_table_marks_holms_adjusted_p_values():
    references, predictions = labelled(400, [0.55, 0.56, 0.7, 0.9], seed=3)
    systems = as_systems(references, predictions)
    holm = compare_systems(systems, micro_reduce, "micro_f1", n_resamples=200, seed=2)
    bonferroni = compare_systems(systems, micro_reduce, "micro_f1", n_resamples=200, seed=2, correction="bonferroni")
    raw = [c["p_value"] for c in holm["comparisons"]]
    assert [c["p_value"] for c in bonferroni["comparisons"]] == raw
    assert [c["p_value_adjusted"] for c in holm["comparisons"]] == adjust(raw)
    assert [c["p_value_adjusted"] for c in bonferroni["comparisons"]] == adjust(raw, "bonferroni")
    assert [c["significant"] for c in holm["comparisons"]] == [p <= 0.05 for p in adjust(raw)] == [False, True, True]


def test_replicability_counts_of_dror_et_al():
    """The example of Dror et al.'s replicability-analysis-NLP README: p = 0.168, 0.297,
    0.357, 0.019, 0.218, 0.001 at alpha 0.05 -> Bonferroni k = 1, Fisher k = 2, Holm
    rejects dataset 6. By hand, Bonferroni: u = 1: 6 x 0.001 = 0.006; u = 2: 5 x 0.019 =
    0.095 > 0.05 -> k = 1. Fisher u = 2: -2 (log .019 + log .168 + log .218 + log .297 +
    log .357) = 20.18 on 10 degrees of freedom -> p = 0.0276 <= 0.05; u = 3: without .019,
    12.24 on 8 -> 0.141 -> k = 2."""
    found = replicability([0.168, 0.297, 0.357, 0.019, 0.218, 0.001], 0.05)
    assert found == {"bonferroni": 1, "fisher": 2, "sets": [5]}
    assert replicability([0.001, 0.002, 0.003], 0.05) == {"bonferroni": 3, "fisher": 3, "sets": [0, 1, 2]}
    assert replicability([0.9, 0.8], 0.05) == {"bonferroni": 0, "fisher": 0, "sets": []}


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(1e-6, 1.0), min_size=1, max_size=8))
def test_fisher_partial_conjunction_is_the_chi_square_tail(p_values):
    from scipy.stats import chi2

    largest = np.sort(p_values)[::-1]
    expected = chi2.sf(-2 * np.log(largest).sum(), 2 * len(largest))
    assert significance._fisher_partial(largest) == pytest.approx(expected, rel=1e-9, abs=1e-300)


def test_test_sets_give_each_sets_table_and_the_replicability_counts():
    sets = {}
    for name, gap, seed in (("sighan13", 0.25, 1), ("sighan14", 0.2, 2), ("sighan15", 0.0, 3)):
        references, predictions = labelled(300, [0.6, 0.6 + gap, 0.6], seed=seed)
        sets[name] = {"systems": as_systems(references, predictions), "reduce": micro_reduce}
    got = quietly(compare_test_sets, sets, "micro_f1", n_resamples=200, seed=5)
    for own, (name, given_set) in zip(got["test_sets"], sets.items()):
        assert own == {"test_set": name, **quietly(compare_systems, given_set["systems"], micro_reduce, "micro_f1", n_resamples=200, seed=5)}
    for index, found in enumerate(got["replicability"]):
        adjusted = [t["comparisons"][index]["p_value_adjusted"] for t in got["test_sets"]]
        expected = replicability(adjusted, 0.05)
        assert (found["bonferroni"], found["fisher"], found["test_sets"]) == (expected["bonferroni"], expected["fisher"], 3)
        assert found["sets"] == [got["test_sets"][i]["test_set"] for i in expected["sets"]]
    assert got["replicability"][0]["system"] == "S1" and got["replicability"][0]["sets"] == ["sighan13", "sighan14"]
    with pytest.raises(ValueError, match=r"^test_sets\['other'\]: the systems differ from those of 'sighan13'$"):
        compare_test_sets({"sighan13": sets["sighan13"], "other": {"systems": {"S0": sets["sighan13"]["systems"]["S0"], "X": sets["sighan13"]["systems"]["S1"]}, "reduce": micro_reduce}}, "micro_f1", n_resamples=20)


# ---------------------------------------------------------------------------------------
# Tables: Markdown, LaTeX, JSON


@pytest.fixture(scope="module")
def tables():
    references, predictions = labelled(300, [0.6, 0.62, 0.8], seeds=3, seed=4)
    single = compare_systems(as_systems(references, {"base_line & co": predictions["S0"], "S1": predictions["S1"], "100%{~^}\\#$": predictions["S2"]}), micro_reduce, "micro_f1", n_resamples=200, seed=1)
    sets = {name: {"systems": as_systems(*labelled(200, [0.6, 0.7], seed=s)), "reduce": micro_reduce} for s, name in enumerate(["dev", "test_1"])}
    return single, quietly(compare_test_sets, sets, "micro_f1", n_resamples=100, seed=1)


def test_tables_round_trip_through_json(tables):
    for table in tables:
        text = json.dumps(table, allow_nan=False)
        again = json.loads(text)
        assert again == table
        assert markdown(again) == markdown(table) and latex(again) == latex(table)


def test_markdown_table(tables):
    single, sets = tables
    text = markdown(single)
    lines = text.splitlines()
    assert lines[0] == "| System | Runs | micro_f1 | 95% interval | Δ | 95% interval | p | p (Holm) | ASO ε_min |"
    assert lines[2].startswith("| base_line & co (baseline) | 3 | ") and lines[2].count("|") == 10
    c = single["comparisons"][1]
    assert c["significant"] and f"{c['difference']:+.4f}\\*" in lines[4] and lines[4].startswith("| 100%{~^}\\\\#$ | 3 |")
    assert f"| {c['p_value']:.4f} | {c['p_value_adjusted']:.4f} |" in lines[4]
    assert not single["comparisons"][0]["significant"] and "\\*" not in lines[3]
    assert "\\* p ≤ 0.05 after Holm's correction for 2 comparisons (paired bootstrap, 200 resamples of the examples, seed 1)" in text
    header = markdown(sets).splitlines()[0]
    assert header == "| System | dev: micro_f1 | dev: Δ | test_1: micro_f1 | test_1: Δ | Sets (Bonferroni) | Sets (Fisher) |"


def pdflatex():
    found = shutil.which("pdflatex")
    if not found:
        message = "pdflatex is not installed (apt-get install -y --no-install-recommends texlive-latex-base)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return found


def test_latex_compiles_as_is(tables, tmp_path):
    command = pdflatex()
    single, sets = tables
    assert "base\\_line \\& co (baseline)" in latex(single) and "100\\%\\{\\textasciitilde{}\\textasciicircum{}\\}\\textbackslash{}\\#\\$" in latex(single)
    for number, table in enumerate(tables):
        (tmp_path / f"t{number}.tex").write_text(latex(table, standalone=True), encoding="utf-8")
        done = subprocess.run([command, "-interaction=nonstopmode", "-halt-on-error", f"t{number}.tex"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout[-3000:]
        assert (tmp_path / f"t{number}.pdf").stat().st_size > 1000


def test_nan_scores_are_null_in_the_table():
    def nan_reduce(weights, table):
        return {"nan": np.full(len(np.atleast_2d(weights)), np.nan)}

    references, predictions = labelled(30, [0.5, 0.6])
    got = quietly(compare_systems, as_systems(references, predictions), nan_reduce, "nan", n_resamples=20, seed=0)
    assert got["systems"][0]["score"] is None and got["comparisons"][0]["p_value"] is None and not got["comparisons"][0]["significant"]
    assert "| S1 | 1 | — | — | — | — | — | — |" in markdown(got)


# ---------------------------------------------------------------------------------------
# Bad input


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda s: {"A": s["S0"]}, r"^systems: expected a baseline and at least one system to compare, got 1 system\(s\)$"),
        (lambda s: {**s, "S1": s["S1"][0]}, r"^systems\['S1'\]: expected a list of runs, each a \(table, codes\) pair"),
        (lambda s: {**s, "S1": [(TABLE, s["S1"][0][1] + 100)]}, r"^systems\['S1'\]\[0\]: a code lies outside the table's 25 rows$"),
        (lambda s: {**s, "S1": [(TABLE, s["S1"][0][1][:-1])]}, r"^systems\['S1'\]\[0\]: 19 examples, where the baseline's first run has 20$"),
        (lambda s: {**s, "S1": [(TABLE, s["S1"][0][1] * 1.0)]}, r"^systems\['S1'\]\[0\]: the codes are not a 1-d array of integers$"),
    ],
)
def test_bad_systems_are_value_errors(change, message):
    references, predictions = labelled(20, [0.5, 0.6])
    with pytest.raises(ValueError, match=message):
        compare_systems(change(as_systems(references, predictions)), micro_reduce, "micro_f1")


@pytest.mark.parametrize(
    "options, message",
    [
        ({"baseline": "S9"}, r"^baseline: 'S9' is not one of the systems \('S0', 'S1'\)$"),
        ({"correction": "sidak"}, r"^correction: 'sidak' is not one of 'holm', 'bonferroni'$"),
        ({"groups": [1, 2]}, r"^groups: 2 ids for 20 examples$"),
        ({"groups": [0.5] * 20}, r"^groups: expected one id \(an int or a str\) per example$"),
        ({"metric_key": "bleu"}, r"^metric_key: 'bleu' is not one of micro_f1, accuracy$"),
        ({"n_resamples": 0}, r"^n_resamples: 0 is not an integer"),
    ],
)
def test_bad_options_are_value_errors(options, message):
    references, predictions = labelled(20, [0.5, 0.6])
    options = {"metric_key": "micro_f1", **options}
    with pytest.raises(ValueError, match=message):
        compare_systems(as_systems(references, predictions), micro_reduce, **options)


# ---------------------------------------------------------------------------------------
# Fingerprint of the references


def test_fingerprint_is_sha256_of_canonical_json():
    import hashlib

    # by hand: strings normalised, keys sorted, no spaces, non-ASCII as is, tuples as lists
    written = '[{"a":[1,2.5,true,null],"b":"x\\ny"},"語"]'
    assert fingerprint([{"b": "\ufeffx\r\ny\n\n", "a": (1, 2.5, True, None)}, "語"]) == hashlib.sha256(written.encode()).hexdigest()[:16]


def test_fingerprint_ignores_bom_crlf_and_trailing_blank_lines_only():
    conll = "#begin document (d); part 0\nd 0 0 The (0)\nd 0 1 dog 0)\n#end document\n"
    same = [conll, "\ufeff" + conll.replace("\n", "\r\n"), conll + "\n \n\t\n", conll.rstrip("\n")]
    assert len({fingerprint(text) for text in same}) == 1
    assert len({fingerprint([text]) for text in same}) == 1
    base = fingerprint(conll)
    for changed in (conll.replace("dog", "dug"), conll.replace("(0)", "(1)"), " " + conll, conll.replace("\n", "\n ", 1), conll.replace("\n", "\r", 1), conll + "x"):
        assert fingerprint(changed) != base
    assert fingerprint(["a", "b"]) != fingerprint(["a", "b", ""]) != fingerprint(["a\nb"])  # an empty example counts


def test_fingerprint_follows_what_a_metric_reads():
    assert fingerprint([1, 2, 3]) == fingerprint((1, 2, 3)) == fingerprint(np.array([1, 2, 3])) == fingerprint(np.array([1, 2, 3], dtype=np.int32))
    assert fingerprint([1, 2, 3]) != fingerprint(["1", "2", "3"]) != fingerprint([1.0, 2.0, 3.0])
    assert fingerprint([{"events": [], "doc_id": "d"}]) == fingerprint([{"doc_id": "d", "events": []}])
    assert fingerprint([[[0, 1], [2, 3]]]) != fingerprint([[[0, 1], [2, 4]]])
    assert fingerprint(np.array(["甲", "乙"])) == fingerprint(["甲", "乙"])
    for bad, message in (([{1: "x"}], r"^references\[0\]: a dict key 1 is not a string$"), ([[0, {2}]], r"^references\[0\]\[1\]: a set is not something a metric reads")):
        with pytest.raises(ValueError, match=message):
            fingerprint(bad)


def test_fingerprint_of_a_file_as_read(tmp_path):
    from paperscore.core import read_lines

    lines = (DATA / "sighan15" / "SIGHAN15_CSC_TestTruth.txt").read_text(encoding="utf-8").splitlines()
    (tmp_path / "crlf.txt").write_bytes(b"\xef\xbb\xbf" + "\r\n".join(lines).encode() + b"\r\n")
    assert fingerprint(read_lines(tmp_path / "crlf.txt", "t")) == fingerprint(lines)
    assert known_copy(fingerprint(read_lines(tmp_path / "crlf.txt", "t"))).endswith("the truth label lines, traditional")


def test_known_copies_are_named_from_the_files():
    from opencc import OpenCC

    from paperscore import csc
    from paperscore.core import read_lines

    t2s = OpenCC("t2s").convert
    truth15 = read_lines(DATA / "sighan15" / "SIGHAN15_CSC_TestTruth.txt", "t")
    pids, sources = csc.read_sources(DATA / "sighan15" / "SIGHAN15_CSC_TestInput.txt")
    truth_pids, edits = csc.parse_label_lines(truth15, "t")
    assert truth_pids == pids and len(pids) == 1100
    sentences = csc.apply_edits(sources, edits)
    truth13 = read_lines(DATA / "sighan13" / "FinalTest_SubTask2_Truth.txt", "t")
    assert len(truth13) == 1000
    named = {
        "SIGHAN 2015 CSC test set (sighan8csc_release1.0 Test/, 1,100 sentences): the truth label lines, traditional": truth15,
        "SIGHAN 2015 CSC test set (sighan8csc_release1.0 Test/, 1,100 sentences): the corrected sentences, traditional": sentences,
        "SIGHAN 2013 CSC subtask 2 final test (sighan7csc_release1.0 FinalTest/, 1,000 sentences): the truth label lines, traditional": truth13,
    }
    for name, traditional in list(named.items()):
        named[name.replace("traditional", "simplified (OpenCC t2s)")] = [t2s(text) for text in traditional]
    assert {known_copy(fingerprint(references)) for references in named.values()} == set(named) == set(KNOWN_REFERENCES.values())
    assert known_copy(fingerprint(sentences[:-1])) is None  # 1,099 sentences: another test set
    fixed = next(i for i, text in enumerate(sentences) if "地" in text)  # one 地 made 的, as some copies "fix" it
    assert known_copy(fingerprint(sentences[:fixed] + [sentences[fixed].replace("地", "的", 1)] + sentences[fixed + 1 :])) is None


def test_results_on_different_copies_warn_and_name_the_known_one():
    import evaluate
    from conftest import SPACES_DIR
    from opencc import OpenCC

    from paperscore.compare import check_results
    from paperscore.core import read_lines

    csc_sighan = evaluate.load(str(SPACES_DIR / "csc_sighan"), keep_in_memory=True)  # results as users hold them, signed
    truth = read_lines(DATA / "sighan15" / "SIGHAN15_CSC_TestTruth.txt", "t")
    simplified = [OpenCC("t2s").convert(line) for line in truth]
    traditional_result = csc_sighan.compute(predictions=truth, references=truth, return_signature=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # two results on one copy: silent
        same = check_results({"a": traditional_result, "b": csc_sighan.compute(predictions=truth[::-1], references=truth, return_signature=True)["signature"]})
    assert same == {"a": fingerprint(truth), "b": fingerprint(truth)}
    with pytest.warns(UserWarning, match=r"different references.*a: refs:eb5cd622e864e8f2 \(SIGHAN 2015 .*traditional\); b: refs:950053cb970313db \(SIGHAN 2015 .*simplified"):
        check_results({"a": traditional_result, "b": csc_sighan.compute(predictions=simplified, references=simplified, return_signature=True)})
    with pytest.raises(ValueError, match=r"^results\['old'\]: its signature names no test set"):
        check_results({"a": traditional_result, "old": {"signature": "csc_sighan|level:detection|paperscore:0.1.0"}})
