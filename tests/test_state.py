"""paperscore.state: merging shards' states equals one compute() over every example.

The oracle is the family's own compute() on the concatenated corpus (itself tested against
sklearn / ERASER elsewhere); states are built from random shardings, merged in any order,
round-tripped through JSON."""

import functools
import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
import coref_coval_fixtures
from hypothesis import given, settings, strategies as st
from test_rewards import TYPES as EVENT_TYPES, corrupt, event_completion, event_example, gold_texts, rationale_completion, rationale_example as quoted_example  # random model texts of each family

from paperscore import coref, csc_common, csc_sighan, micro_macro, quad, rationale, state

ROOT = Path(__file__).resolve().parent.parent
# rationale's means of per-example ratios are float sums added in another order
MEANS = {"example_precision", "example_recall", "example_f1", "iou_precision", "iou_recall", "iou_f1", "auprc"}


def shards(n, cuts, order):
    """Split range(n) at `cuts`, the pieces listed in `order` (a permutation seed)."""
    edges = sorted({0, n, *(c % (n + 1) for c in cuts)})
    pieces = [(a, b) for a, b in zip(edges, edges[1:])]
    return [pieces[i] for i in np.random.default_rng(order).permutation(len(pieces))]


def merged(family, options, predictions, references, pieces, keep_rows=False):
    states = []
    for a, b in pieces:
        s = state.new(family, keep_rows=keep_rows, **options)
        s.update(predictions[a:b], references[a:b])
        states.append(state.from_dict(json.loads(json.dumps(s.to_dict(), allow_nan=False))))
    return state.merge(*states) if states else state.new(family, keep_rows=keep_rows, **options)


def assert_same(got, expected, family):
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        if family == "rationale" and key.rstrip("_lowhigh") in MEANS or key in MEANS:
            assert got[key] == pytest.approx(value, rel=1e-12, abs=1e-15, nan_ok=True), key
        else:
            assert got[key] == value or (np.isnan(got[key]) and np.isnan(value)), key


labels = st.sampled_from([0, 1, 2, 3, 7, 40, 5000])
mm_options = st.fixed_dictionaries(
    {},
    optional={
        "convention": st.sampled_from([None, "maven", "jmee"]),
        "zero_division": st.sampled_from([0.0, 1.0, "nan"]),
        "labels": st.sampled_from([[0, 1, 2, 3], [3, 1], [0, 40, 7]]),
    },
)


@settings(max_examples=30, deadline=None)
@given(
    pairs=st.lists(st.tuples(labels, labels), max_size=40),
    cuts=st.lists(st.integers(0, 40), max_size=5),
    order=st.integers(0, 1000),
    options=mm_options,
)
def test_micro_macro_merging_shards_equals_one_pass(pairs, cuts, order, options):
    predictions, references = [p for p, _ in pairs], [r for _, r in pairs]
    if options.get("zero_division") == "nan":
        options["zero_division"] = float("nan")
    try:
        expected = micro_macro.compute(predictions, references, **options)
    except ValueError as error:  # e.g. maven's NA 0 absent: the state refuses the same way
        with pytest.raises(ValueError, match=str(error)[:30].replace("(", r"\(").replace("[", r"\[")):
            merged("micro_macro", options, predictions, references, shards(len(pairs), cuts, order)).compute()
        return
    got = merged("micro_macro", options, predictions, references, shards(len(pairs), cuts, order)).compute()
    assert_same(got, expected, "micro_macro")


@settings(max_examples=25, deadline=None)
@given(
    examples=st.lists(st.lists(st.tuples(st.sampled_from(["O", "B-x", "I-x", "B-y", "é"]), st.sampled_from(["O", "B-x", "I-x", "B-y"])), max_size=6), max_size=15),
    cuts=st.lists(st.integers(0, 15), max_size=4),
    order=st.integers(0, 1000),
)
def test_micro_macro_sequences_merge(examples, cuts, order):
    examples = [[("O", "O")]] + examples  # JMEE's NA present, as compute requires
    predictions = [[p for p, _ in e] for e in examples]
    references = [[r for _, r in e] for e in examples]
    pieces = shards(len(examples), cuts, order)
    expected = micro_macro.compute(predictions, references, convention="jmee")
    assert_same(merged("micro_macro", {"convention": "jmee"}, predictions, references, pieces).compute(), expected, "micro_macro")


def test_micro_macro_at_users_size():
    """10,000 str labels of 300 classes with repeats, 7 shards in shuffled order, against one pass."""
    rng = np.random.default_rng(0)
    names = [f"class-{i}" for i in range(299)] + ["None"]
    references = [names[i] for i in rng.zipf(1.3, 10_000) % 300]
    predictions = [r if rng.random() < 0.6 else names[rng.integers(300)] for r in references]
    pieces = shards(10_000, rng.integers(0, 10_000, 6).tolist(), 3)
    expected = micro_macro.compute(predictions, references, convention="maven")
    assert_same(merged("micro_macro", {"convention": "maven"}, predictions, references, pieces).compute(), expected, "micro_macro")


rationale_example = st.integers(0, 6).flatmap(
    lambda n: st.tuples(
        st.lists(st.sampled_from([0.0, 1.0, 0.2, 0.5, 0.9]), min_size=n, max_size=n),
        st.lists(st.sampled_from([0, 1, 1, -100]), min_size=n, max_size=n),
    )
)


@settings(max_examples=30, deadline=None)
@given(
    examples=st.lists(rationale_example, max_size=20),
    cuts=st.lists(st.integers(0, 20), max_size=4),
    order=st.integers(0, 1000),
    hard=st.booleans(),
    options=st.fixed_dictionaries({}, optional={"threshold_rule": st.sampled_from([">=", ">"]), "auprc": st.sampled_from([None, True, False]), "zero_division": st.sampled_from([0.0, 1.0])}),
)
def test_rationale_merging_shards_equals_one_pass(examples, cuts, order, hard, options):
    predictions = [[float(v >= 0.5) if hard else v for v in p] for p, _ in examples]
    references = [r for _, r in examples]
    pieces = shards(len(examples), cuts, order)
    expected = rationale.compute(predictions, references, **options)
    assert_same(merged("rationale", options, predictions, references, pieces).compute(), expected, "rationale")


@settings(max_examples=25, deadline=None)
@given(
    examples=st.lists(rationale_example, min_size=1, max_size=20),
    cuts=st.lists(st.integers(0, 20), max_size=4),
    order=st.integers(0, 1000),
)
def test_rationale_intervals_do_not_depend_on_sharding(examples, cuts, order):
    """keep_rows: the bootstrap resamples the distinct rows in sorted order, so any
    sharding and merge order draws the same intervals as one compute()."""
    predictions, references = [p for p, _ in examples], [r for _, r in examples]
    pieces = shards(len(examples), cuts, order)
    expected = rationale.compute(predictions, references, confidence_level=0.9, n_resamples=50, seed=5)
    got = merged("rationale", {}, predictions, references, pieces, keep_rows=True).compute(confidence_level=0.9, n_resamples=50, seed=5)
    assert_same(got, expected, "rationale")


def test_micro_macro_intervals_single_labels_any_order():
    """One label per example: the bootstrap reads confusion cells, so shards merged in any
    order give one compute()'s intervals."""
    rng = np.random.default_rng(1)
    references = rng.integers(0, 5, 500).tolist()
    predictions = [r if rng.random() < 0.7 else int(rng.integers(5)) for r in references]
    expected = micro_macro.compute(predictions, references, confidence_level=0.9, n_resamples=100, seed=2)
    got = merged("micro_macro", {}, predictions, references, shards(500, [17, 240, 499], 9), keep_rows=True)
    assert_same(got.compute(confidence_level=0.9, n_resamples=100, seed=2), expected, "micro_macro")


def test_micro_macro_intervals_sequences_in_corpus_order():
    """Sequences: the bootstrap resamples sequences in order; shards merged in corpus order
    give one compute()'s intervals."""
    rng = np.random.default_rng(4)
    references = [rng.integers(0, 4, rng.integers(0, 9)).tolist() for _ in range(300)]
    predictions = [[r if rng.random() < 0.7 else int(rng.integers(4)) for r in seq] for seq in references]
    expected = micro_macro.compute(predictions, references, confidence_level=0.9, n_resamples=100, seed=2)
    pieces = sorted(shards(300, [5, 120, 121], 0))
    got = merged("micro_macro", {}, predictions, references, pieces, keep_rows=True)
    assert_same(got.compute(confidence_level=0.9, n_resamples=100, seed=2), expected, "micro_macro")


def test_rationale_at_users_size():
    """10,000 examples, soft and hard, long and short, empty and padded, 5 shards."""
    rng = np.random.default_rng(2)
    lengths = rng.integers(0, 60, 10_000)
    references = [np.where(rng.random(n) < 0.1, -100, rng.random(n) < 0.3).astype(int).tolist() for n in lengths]
    predictions = [np.round(rng.random(n), 1).tolist() if i % 3 else (rng.random(n) < 0.3).astype(float).tolist() for i, n in enumerate(lengths)]
    pieces = shards(10_000, [100, 2500, 2501, 9000], 4)
    assert_same(merged("rationale", {}, predictions, references, pieces).compute(), rationale.compute(predictions, references), "rationale")


@settings(max_examples=25, deadline=None)
@given(
    examples=st.lists(rationale_example, max_size=20),
    cuts=st.lists(st.integers(0, 20), max_size=4),
    order=st.integers(0, 1000),
    ratio=st.sampled_from([0.0, 0.2, 0.5, 1.0]),
    zero_division=st.sampled_from([0.0, 1.0]),
)
def test_rationale_top_k_ratio_merges_to_one_pass(examples, cuts, order, ratio, zero_division):
    """A2R's top-k selection is made within each example: shards merged in any order give
    compute(top_k_ratio=...)'s figures and, with keep_rows, its intervals."""
    predictions, references = [p for p, _ in examples], [r for _, r in examples]
    pieces = shards(len(examples), cuts, order)
    options = {"top_k_ratio": ratio, "zero_division": zero_division}
    assert_same(merged("rationale", options, predictions, references, pieces).compute(), rationale.compute(predictions, references, **options), "rationale")
    if examples:
        expected = rationale.compute(predictions, references, confidence_level=0.9, n_resamples=50, seed=5, **options)
        got = merged("rationale", options, predictions, references, pieces, keep_rows=True).compute(confidence_level=0.9, n_resamples=50, seed=5)
        assert_same(got, expected, "rationale")


def test_rationale_top_k_ratio_at_users_size_and_refusals():
    """10,000 soft examples, long and short, padded, 5 shards; top_k_ratio with a threshold
    is refused as compute refuses it."""
    rng = np.random.default_rng(4)
    lengths = rng.integers(0, 60, 10_000)
    references = [np.where(rng.random(n) < 0.1, -100, rng.random(n) < 0.3).astype(int).tolist() for n in lengths]
    predictions = [np.round(rng.random(n), 2).tolist() for n in lengths]
    pieces = shards(10_000, [100, 2500, 2501, 9000], 4)
    options = {"top_k_ratio": 0.3}
    assert_same(merged("rationale", options, predictions, references, pieces).compute(), rationale.compute(predictions, references, **options), "rationale")
    with pytest.raises(ValueError, match="threshold: not used with top_k_ratio"):
        state.new("rationale", top_k_ratio=0.3, threshold=0.7)
    with pytest.raises(ValueError, match="top_k_ratio"):
        state.new("rationale", top_k_ratio=1.5)


def test_merge_refuses_different_options_naming_them():
    a, b = state.new("micro_macro", convention="maven"), state.new("micro_macro", convention="jmee")
    with pytest.raises(ValueError, match="option convention is 'jmee' in argument 2 but 'maven' in argument 1"):
        state.merge(a, b)
    with pytest.raises(ValueError, match="keep_rows"):
        state.merge(state.new("rationale"), state.new("rationale", keep_rows=True))
    with pytest.raises(ValueError, match="rationale state"):
        state.merge(a, state.new("rationale"))


def test_refusals():
    with pytest.raises(ValueError, match="family: 'corefs' is not one of"):
        state.new("corefs")
    with pytest.raises(ValueError, match="confidence_level: .*keep_rows=True"):
        state.new("rationale").compute(confidence_level=0.9)
    with pytest.raises(ValueError, match="seed: not a micro_macro option"):
        state.new("micro_macro", seed=1)
    s = state.new("micro_macro").update([1, 2], [1, 1])
    with pytest.raises(ValueError, match="update: str labels, but the state holds int labels"):
        s.update(["a"], ["b"])
    with pytest.raises(ValueError, match="sequences of labels, but the state holds one label per example"):
        s.update([[1]], [[1]])
    with pytest.raises(ValueError, match=r"references\[1\]"):  # the family's own check, within the batch
        state.new("rationale").update([[1], [0]], [[1], [2]])


def test_integer_widths_checked():
    data = state.new("micro_macro").update([1, 2], [1, 1]).to_dict()  # cells (1, 1) and (1, 2), once each
    for bad in (2**63, -1, 1.0, True):
        broken = json.loads(json.dumps(data))
        broken["cells"][2][1] = bad
        with pytest.raises(ValueError, match=r"cells\[2\]\[1\]: .* is not a count"):
            state.from_dict(broken)
    data["cells"][2][0] = 2**63 - 2  # with the other cell's label, 2^63 - 1 labels in all
    big = state.from_dict(data)
    with pytest.raises(OverflowError, match="2\\^63"):
        state.merge(big, big)
    labels = state.new("micro_macro").update([2**62], [2**62]).to_dict()
    assert state.from_dict(labels).values == [2**62]  # 64-bit labels kept exactly


def test_empty_state_is_compute_of_nothing():
    assert state.new("micro_macro").compute() == micro_macro.compute([], [])
    assert state.new("rationale").compute() == rationale.compute([], [])


def test_torch_distributed_two_ranks(tmp_path):
    """Two gloo ranks, each scoring half: all_reduce gives every rank one pass's figures."""
    script = tmp_path / "rank.py"
    script.write_text(textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {str(ROOT / "shared")!r})
        import torch.distributed as dist
        from paperscore import state
        rank = int(sys.argv[1])
        dist.init_process_group("gloo", init_method="file://{tmp_path}/rendezvous", rank=rank, world_size=2)
        references = [[0, 1, 1, 2], [2, 2, 0]][rank]
        predictions = [[0, 1, 2, 2], [2, 1, 0]][rank]
        mine = state.new("micro_macro", convention="maven").update(predictions, references)
        print(json.dumps(state.all_reduce(mine).compute()))
        dist.destroy_process_group()
    """))
    env = {**os.environ, "GLOO_SOCKET_IFNAME": "lo"}
    ranks = [subprocess.Popen([sys.executable, str(script), str(r)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for r in range(2)]
    outputs = [r.communicate(timeout=120) for r in ranks]
    expected = micro_macro.compute([0, 1, 2, 2, 2, 1, 0], [0, 1, 1, 2, 2, 2, 0], convention="maven")
    for rank, (out, err) in zip(ranks, outputs):
        assert rank.returncode == 0, err
        assert json.loads(out) == expected


def test_datasets_map_recipe():
    """The README's recipe: datasets.map(num_proc=2) returns one state per batch, merged."""
    import datasets

    rng = np.random.default_rng(3)
    references = rng.integers(0, 4, 400).tolist()
    predictions = [r if rng.random() < 0.6 else int(rng.integers(4)) for r in references]
    dataset = datasets.Dataset.from_dict({"prediction": predictions, "reference": references})

    def score(batch):
        s = state.new("micro_macro").update(batch["prediction"], batch["reference"])
        return {"state": [json.dumps(s.to_dict())]}

    states = dataset.map(score, batched=True, batch_size=64, num_proc=2, remove_columns=dataset.column_names)
    assert len(states) == 8  # two workers' 200 examples each in batches of 64, 64, 64, 8
    total = state.merge(*(state.from_dict(json.loads(s)) for s in states["state"]))
    assert total.compute() == micro_macro.compute(predictions, references)


# ---------------------------------------------------------------------------------------
# quad_match: sums of quad.STATS rows (soft-matched totals and sample scores are floats)

QUAD_FLOATS = {"optimal_precision", "optimal_recall", "optimal_f1", "optimal_score"}  # sums of ROUGE-L degrees


def assert_quad_same(got, expected):
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        if key.rsplit("_", 1)[0] in QUAD_FLOATS or key in QUAD_FLOATS:
            assert got[key] == pytest.approx(value, rel=1e-12, abs=1e-15, nan_ok=True), key
        else:
            assert got[key] == value or (np.isnan(got[key]) and np.isnan(value)), key


quad_element = st.sampled_from(["battery", "battery life", "the battery life", "NULL", "屏幕", "屏幕很亮", "screen", "é"])
quad_label = st.sampled_from(["food quality", "service general", "POS", "NEG"])
quad_item = st.one_of(
    st.tuples(quad_element, quad_element, quad_label, quad_label).map(" | ".join),
    st.sampled_from(["battery | good", "x |  | food quality | POS"]),  # malformed: matches nothing
)
quad_sample = st.lists(quad_item, max_size=4).map(" & ".join)
quad_reference = st.lists(st.tuples(quad_element, quad_element, quad_label, quad_label).map(" | ".join), max_size=3).map(" & ".join)
quad_options = st.fixed_dictionaries(
    {},
    optional={
        "duplicates": st.sampled_from(["multiset", "list", "set"]),
        "similarity": st.sampled_from(["rouge_l", "exact"]),
        "exact_only": st.booleans(),
        "implicit_split": st.booleans(),  # ACOS's split by the gold quads' implicit (NULL) target / opinion
        "zero_division": st.sampled_from([0.0, 1.0]),
        "weights": st.sampled_from([(1, 1, 1, 1), (2, 0.5, 1, 0)]),
    },
)


@pytest.mark.filterwarnings("ignore:duplicates=")
@settings(max_examples=30, deadline=None)
@given(
    examples=st.lists(st.tuples(quad_sample, st.one_of(quad_reference, st.lists(quad_reference, min_size=1, max_size=2))), max_size=20),
    cuts=st.lists(st.integers(0, 20), max_size=4),
    order=st.integers(0, 1000),
    options=quad_options,
)
def test_quad_merging_shards_equals_one_pass(examples, cuts, order, options):
    predictions, references = [p for p, _ in examples], [r for _, r in examples]
    pieces = shards(len(examples), cuts, order)
    expected = quad.compute(predictions, references, **options)
    assert_quad_same(merged("quad_match", options, predictions, references, pieces).compute(), expected)


@settings(max_examples=15, deadline=None)
@given(
    examples=st.lists(st.tuples(quad_sample, quad_reference), min_size=1, max_size=20),
    cuts=st.lists(st.integers(0, 20), max_size=4),
    order=st.integers(0, 1000),
    implicit_split=st.booleans(),
)
def test_quad_intervals_do_not_depend_on_sharding(examples, cuts, order, implicit_split):
    """keep_rows: distinct STATS rows in sorted order, as compute compresses them (with
    implicit_split the state's rows are wider; the bootstrap reads their STATS part)."""
    predictions, references = [p for p, _ in examples], [r for _, r in examples]
    expected = quad.compute(predictions, references, confidence_level=0.9, n_resamples=50, seed=5, implicit_split=implicit_split)
    got = merged("quad_match", {"implicit_split": implicit_split}, predictions, references, shards(len(examples), cuts, order), keep_rows=True)
    assert_quad_same(got.compute(confidence_level=0.9, n_resamples=50, seed=5), expected)


def test_quad_at_users_size():
    """10,000 samples: many distinct words, empty samples, malformed quads, repeats, several
    references, 6 shards in shuffled order; span-index quads too."""
    rng = np.random.default_rng(5)
    words = [f"w{i}" for i in range(3000)] + ["屏幕", "很", "亮", "NULL"]
    labels_ = ["food quality", "service general", "ambience general", "price"]

    def phrase():  # an implicit (NULL) target or opinion now and then
        return "NULL" if rng.random() < 0.15 else " ".join(words[i] for i in rng.zipf(1.2, rng.integers(1, 4)) % len(words))

    def sample(size):
        quads = [f"{phrase()} | {phrase()} | {labels_[rng.integers(4)]} | {['POS', 'NEG', 'NEU'][rng.integers(3)]}" for _ in range(size)]
        return " & ".join(quads)

    references = [sample(rng.integers(0, 4)) if i % 50 else [sample(2), sample(1)] for i in range(10_000)]
    predictions = []
    for i, r in enumerate(references):
        r = r if isinstance(r, str) else r[0]
        predictions.append(r if i % 3 == 0 else (r + " & " + r.split(" & ")[0] if r and i % 7 == 0 else (sample(rng.integers(0, 3)) + (" & broken | quad" if i % 11 == 0 else ""))))
    pieces = shards(10_000, [10, 3000, 3001, 7000, 9999], 8)
    assert_quad_same(merged("quad_match", {}, predictions, references, pieces).compute(), quad.compute(predictions, references))
    split = {"implicit_split": True, "exact_only": True}
    expected = quad.compute(predictions, references, **split)
    assert {expected[f"exact_f1_{kind}"] > 0 for kind in quad.IMPLICITNESS} == {True}  # every kind occurs
    assert_quad_same(merged("quad_match", split, predictions, references, pieces).compute(), expected)


def test_quad_span_quads_and_refusals():
    """spans: the state reads span-index quads as compute does; options checked by compute."""
    references = [[[[0, 1], [2, 3], "food", "POS"]], [], [[None, [4, 6], "price", "NEG"]]]
    predictions = [[[[0, 1], [2, 3], "food", "POS"]], [[[1, 2], None, "food", "NEG"]], []]
    options = {"spans": "exclusive", "similarity": "exact"}
    expected = quad.compute(predictions, references, **options)
    assert_quad_same(merged("quad_match", options, predictions, references, [(2, 3), (0, 2)]).compute(), expected)
    with pytest.raises(ValueError, match="similarity"):
        state.new("quad_match", spans="exclusive")
    with pytest.raises(ValueError, match="details: not a quad_match option"):
        state.new("quad_match", details=True)
    with pytest.raises(ValueError, match=r"option weights is \[2, 1, 1, 1\] in argument 2 but \[1, 1, 1, 1\] in argument 1"):
        state.merge(state.new("quad_match"), state.new("quad_match", weights=(2, 1, 1, 1)))
    with pytest.raises(ValueError, match="references"):  # the family's own check within the batch
        state.new("quad_match").update(["a | b | c | POS"], ["a | b"])


def test_sums_state_integer_widths_checked():
    data = state.new("quad_match").update(["a | b | c | POS"], ["a | b | c | POS"]).to_dict()
    for bad in (2**63, -1, 1.5, True):
        broken = json.loads(json.dumps(data))
        broken["counts"][1] = bad
        with pytest.raises(ValueError, match=r"counts\[1\]: .* is not a count"):
            state.from_dict(broken)
    big = 2**63 - 1  # the one sample counted that many times: every sum that many times
    data["counts"], data["terms"] = [c * big for c in data["counts"]], [t * big for t in data["terms"]]
    big = state.from_dict(data)
    with pytest.raises(OverflowError, match="2\\^63"):
        state.merge(big, big)


# ---------------------------------------------------------------------------------------
# csc_sighan: sums of the per-sentence 0/1 rows of csc_sighan.COLUMNS (all counts)


def merged_sources(family, options, predictions, references, sources, pieces, keep_rows=False):
    """merged() for the families whose update takes sources."""
    states = []
    for a, b in pieces:
        s = state.new(family, keep_rows=keep_rows, **options).update(predictions[a:b], references[a:b], sources=sources[a:b])
        states.append(state.from_dict(json.loads(json.dumps(s.to_dict(), allow_nan=False))))
    return state.merge(*states) if states else state.new(family, keep_rows=keep_rows, **options)


def csc_sentence(draw_chars, edits):
    """(source, prediction, reference): a source, and two corrections of some of its characters."""
    source = "".join(draw_chars)
    return source, *("".join(c if e is None else e for c, e in zip(source, side)) for side in edits)


csc_chars = st.sampled_from("他在学校里读书的时候很认真再座")
csc_example = st.integers(0, 7).flatmap(
    lambda n: st.tuples(
        st.lists(csc_chars, min_size=n, max_size=n),
        st.tuples(*[st.lists(st.one_of(st.none(), st.none(), csc_chars), min_size=n, max_size=n)] * 2),
    ).map(lambda t: csc_sentence(*t))
)
sighan_options = st.sampled_from(
    [{}, {"correction_match": "exact"}, {"version": 2014, "zero_division": 1.0}, {"version": "2013", "subtask": 1}, {"version": "2013", "subtask": 2, "zero_division": "nan"}]
)


@settings(max_examples=30, deadline=None)
@given(examples=st.lists(csc_example, max_size=20), cuts=st.lists(st.integers(0, 20), max_size=4), order=st.integers(0, 1000), options=sighan_options)
def test_sighan_merging_shards_equals_one_pass(examples, cuts, order, options):
    sources, predictions, references = (list(side) for side in zip(*examples)) if examples else ([], [], [])
    expected = csc_sighan.compute(predictions, references, sources=sources, **options)
    got = merged_sources("csc_sighan", options, predictions, references, sources, shards(len(examples), cuts, order)).compute()
    assert_same(got, expected, "csc_sighan")


@settings(max_examples=15, deadline=None)
@given(examples=st.lists(csc_example, min_size=1, max_size=20), cuts=st.lists(st.integers(0, 20), max_size=4), order=st.integers(0, 1000), options=sighan_options)
def test_sighan_intervals_do_not_depend_on_sharding(examples, cuts, order, options):
    sources, predictions, references = (list(side) for side in zip(*examples))
    expected = csc_sighan.compute(predictions, references, sources=sources, **options, confidence_level=0.9, n_resamples=50, seed=5)
    got = merged_sources("csc_sighan", options, predictions, references, sources, shards(len(examples), cuts, order), keep_rows=True)
    assert_same(got.compute(confidence_level=0.9, n_resamples=50, seed=5), expected, "csc_sighan")


def csc_corpus(seed, n=10_000):
    """n sentences of 0-60 characters over 3,000 CJK characters (Zipf), a third error-free,
    predictions that fix, miss, over-correct or copy; repeats."""
    rng = np.random.default_rng(seed)
    alphabet = [chr(0x4E00 + i) for i in range(3000)]
    sources, predictions, references = [], [], []
    for i in range(n):
        if i % 97 == 1:  # a repeated sentence
            sources.append(sources[-1]), predictions.append(predictions[-1]), references.append(references[-1])
            continue
        source = [alphabet[j] for j in rng.zipf(1.3, rng.integers(0, 61)) % 3000]
        reference = [alphabet[rng.integers(3000)] if i % 3 and rng.random() < 0.05 else c for c in source]
        prediction = [r if rng.random() < 0.8 else (alphabet[rng.integers(3000)] if rng.random() < 0.05 else c) for c, r in zip(source, reference)]
        sources.append("".join(source)), references.append("".join(reference)), predictions.append("".join(prediction))
    return sources, predictions, references


def test_sighan_at_users_size():
    sources, predictions, references = csc_corpus(6)
    pieces = shards(10_000, [1, 4000, 4001, 9500], 2)
    for options in ({}, {"version": "2013", "subtask": 2}):
        expected = csc_sighan.compute(predictions, references, sources=sources, **options)
        assert_same(merged_sources("csc_sighan", options, predictions, references, sources, pieces).compute(), expected, "csc_sighan")


LABEL_MERGE = "label lines .* scored in one batch: .* a shard cannot tell a pid whose .*line is in another shard .* silently wrong"


@pytest.mark.parametrize("family", ["csc_sighan", "csc_common"])
def test_label_lines_are_one_batch(family):
    """Label lines pair by pid over the whole files: one update of them is compute()'s
    figures; a second batch, or a merge with other examples, is refused."""
    module = {"csc_sighan": csc_sighan, "csc_common": csc_common}[family]
    truth, result = ["A1, 2, 在", "A2, 0", "A3, 1, 他"], ["A2, 0", "A1, 2, 在", "A3, 0"]
    one = state.new(family).update(result, truth)
    assert one.compute() == module.compute(result, truth)
    with pytest.raises(ValueError, match=f"update: {LABEL_MERGE}"):
        one.update(["A4, 0"], ["A4, 0"])
    with pytest.raises(ValueError, match=f"merge: {LABEL_MERGE}"):
        state.merge(state.new(family).update(result, truth), state.new(family).update(["他"], ["他"], sources=["他"]))
    again = state.from_dict(json.loads(json.dumps(state.new(family).update(result, truth).to_dict())))
    assert state.merge(again, state.new(family)).compute() == one.compute()  # an empty state adds nothing


def test_sighan_refusals():
    with pytest.raises(ValueError, match="subtask"):
        state.new("csc_sighan", version="2013")
    with pytest.raises(ValueError, match="option correction_match is 'exact' in argument 2 but 'subset' in argument 1"):
        state.merge(state.new("csc_sighan"), state.new("csc_sighan", correction_match="exact"))
    with pytest.raises(ValueError, match="references"):  # the family's own length check, within the batch
        state.new("csc_sighan").update(["他在"], ["他"], sources=["他在"])
    assert state.merge(state.new("csc_sighan", version=2015), state.new("csc_sighan", version="2015")).options["version"] == "2015"


# ---------------------------------------------------------------------------------------
# csc_common: sums of the per-sentence table (a block of csc_common.COLUMNS per reading)

csc_common_options = st.fixed_dictionaries(
    {"variant": st.sampled_from(list(csc_common.VARIANTS) + ["all"])},
    optional={
        "char_subset": st.sampled_from(["all", "erroneous"]),
        "remove_de": st.booleans(),
        "zero_division": st.sampled_from([0.0, 1.0]),
        "normalize": st.sampled_from([["clean"], ["no_spaces", "drop_unequal"]]),
        "length_mismatch": st.sampled_from(["truncate", "whole", "align"]),
    },
)
# with a space, 地/得 (remove_de) and a sentence of another length now and then
csc_common_example = st.tuples(csc_example, st.sampled_from([None, None, None, "地", " 得", ""])).map(
    lambda t: t[0] if t[1] is None else (t[0][0], t[0][1] + t[1], t[0][2])
)


@settings(max_examples=40, deadline=None)
@given(examples=st.lists(csc_common_example, max_size=15), cuts=st.lists(st.integers(0, 15), max_size=4), order=st.integers(0, 1000), options=csc_common_options)
def test_csc_common_merging_shards_equals_one_pass(examples, cuts, order, options):
    sources, predictions, references = (list(side) for side in zip(*examples)) if examples else ([], [], [])
    pieces = shards(len(examples), cuts, order)
    try:
        expected = csc_common.compute(predictions, references, sources=sources, **options)
    except ValueError as error:  # options that do not go together, or lengths refused: the state refuses too
        with pytest.raises(ValueError, match=str(error)[:20].replace("(", r"\(").replace("[", r"\[").replace(".", r"\.")):
            merged_sources("csc_common", options, predictions, references, sources, [(0, len(examples))]).compute()
        return
    got = merged_sources("csc_common", options, predictions, references, sources, pieces).compute()
    assert_same(got, expected, "csc_common")


@settings(max_examples=15, deadline=None)
@given(examples=st.lists(csc_example, min_size=1, max_size=15), cuts=st.lists(st.integers(0, 15), max_size=4), order=st.integers(0, 1000), variant=st.sampled_from(["realise", "pointer", "all"]))
def test_csc_common_intervals_do_not_depend_on_sharding(examples, cuts, order, variant):
    """The state's table keeps a block per reading, compute's one per distinct one: the
    distinct rows, sorted, and their counts are the same, so the draws are too."""
    sources, predictions, references = (list(side) for side in zip(*examples))
    expected = csc_common.compute(predictions, references, sources=sources, variant=variant, confidence_level=0.9, n_resamples=30, seed=5)
    got = merged_sources("csc_common", {"variant": variant}, predictions, references, sources, shards(len(examples), cuts, order), keep_rows=True)
    assert_same(got.compute(confidence_level=0.9, n_resamples=30, seed=5), expected, "csc_common")


def test_csc_common_at_users_size():
    sources, predictions, references = csc_corpus(7)
    pieces = shards(10_000, [2, 5000, 5001, 8000], 5)
    for options in ({}, {"variant": "pointer", "char_subset": "erroneous"}):
        expected = csc_common.compute(predictions, references, sources=sources, **options)
        assert_same(merged_sources("csc_common", options, predictions, references, sources, pieces).compute(), expected, "csc_common")


def test_csc_common_refusals():
    with pytest.raises(ValueError, match="variant"):
        state.new("csc_common", variant="nope")
    with pytest.raises(ValueError, match="option variant is 'scope' in argument 2 but 'realise' in argument 1"):
        state.merge(state.new("csc_common"), state.new("csc_common", variant="scope"))
    with pytest.raises(ValueError, match="parse: not a corefud option"):
        state.new("corefud", parse="coref_markdown")


# ---------------------------------------------------------------------------------------
# coref: sums of the per-document numerators and denominators (float64, as compute sums them)

COREF_WHOLE = ("muc_", "ceafm_", "blanc_", "mentions_")  # ratios of whole counts: bit for bit


def assert_coref_same(got, expected):
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        if key.startswith(COREF_WHOLE):
            assert got[key] == value or (np.isnan(got[key]) and np.isnan(value)), key
        else:
            assert got[key] == pytest.approx(value, rel=1e-12, abs=1e-15, nan_ok=True), key


@st.composite
def coref_document(draw):
    """(prediction, reference): clusters of [start, end] spans over distinct mentions; the
    prediction regroups some key mentions and adds or drops others."""
    starts = draw(st.lists(st.integers(0, 12), max_size=7, unique=True))
    spans = [[s, s + draw(st.integers(1, 2))] for s in starts]
    reference = _clusters(spans, draw(st.lists(st.integers(0, 3), min_size=len(spans), max_size=len(spans))))
    kept = [span for span in spans if draw(st.booleans()) or draw(st.booleans())] + [[s, s + 1] for s in draw(st.lists(st.integers(20, 25), max_size=2, unique=True))]
    prediction = _clusters(kept, draw(st.lists(st.integers(0, 3), min_size=len(kept), max_size=len(kept))))
    return prediction, reference


def _clusters(spans, groups):
    out = {}
    for span, group in zip(spans, groups):
        out.setdefault(group, []).append(span)
    return list(out.values())


coref_options = st.sampled_from(
    [{}, {"keep_singletons": False}, {"metrics": ["muc", "blanc", "mentions"], "zero_division": 1.0}, {"convention": "e2e_coref"}, {"convention": "maverick"}, {"span_convention": "token_exclusive"}]
)


@settings(max_examples=30, deadline=None)
@given(documents=st.lists(coref_document(), max_size=12), cuts=st.lists(st.integers(0, 12), max_size=4), order=st.integers(0, 1000), options=coref_options)
def test_coref_merging_shards_equals_one_pass(documents, cuts, order, options):
    predictions, references = [p for p, _ in documents], [r for _, r in documents]
    expected = coref.compute(predictions, references, **options)
    assert_coref_same(merged("coref", options, predictions, references, shards(len(documents), cuts, order)).compute(), expected)


@settings(max_examples=15, deadline=None)
@given(documents=st.lists(coref_document(), min_size=1, max_size=12), cuts=st.lists(st.integers(0, 12), max_size=4), order=st.integers(0, 1000))
def test_coref_intervals_do_not_depend_on_sharding(documents, cuts, order):
    predictions, references = [p for p, _ in documents], [r for _, r in documents]
    expected = coref.compute(predictions, references, confidence_level=0.9, n_resamples=30, seed=5)
    got = merged("coref", {}, predictions, references, shards(len(documents), cuts, order), keep_rows=True)
    assert_coref_same(got.compute(confidence_level=0.9, n_resamples=30, seed=5), expected)


def test_coref_at_users_size():
    """10,000 documents of 0-30 mentions (empty, singleton-only, long), 5 shards shuffled."""
    rng = np.random.default_rng(8)
    predictions, references = [], []
    for d in range(10_000):
        n = int(rng.integers(0, 31)) if d % 10 else 0
        starts = np.sort(rng.choice(400, n, replace=False))
        spans = [[int(s), int(s + rng.integers(0, 3))] for s in starts]
        references.append(_clusters(spans, rng.integers(0, max(n // 3, 1), n).tolist()))
        noisy = [span for span in spans if rng.random() < 0.85] + [[int(s), int(s)] for s in rng.integers(500, 600, rng.integers(0, 3))]
        noisy = list({tuple(span): span for span in noisy}.values())
        predictions.append(_clusters(noisy, rng.integers(0, max(n // 3, 1), len(noisy)).tolist()))
    pieces = shards(10_000, [3, 2000, 2001, 7777], 6)
    assert_coref_same(merged("coref", {}, predictions, references, pieces).compute(), coref.compute(predictions, references))


def test_coref_refusals():
    with pytest.raises(ValueError, match="remove_nested: coval's options apply to convention='scorer_pl' only"):
        state.new("coref", remove_nested=True, convention="e2e_coref")
    with pytest.raises(ValueError, match="keep_singletons"):
        state.new("coref", convention="e2e_coref", keep_singletons=False)
    with pytest.raises(ValueError, match="option convention is 'maverick' in argument 2 but 'scorer_pl' in argument 1"):
        state.merge(state.new("coref"), state.new("coref", convention="maverick"))
    with pytest.raises(ValueError, match="references"):  # the family's own check within the batch
        state.new("coref").update([[[[0, 0]]]], [[[[0, 0]], [[0, 0]]]])


def test_coref_character_spans_with_tokens_per_batch():
    """tokens= goes with its batch's documents: character spans read over each document's tokens."""
    tokens = [["Anna", "saw", "her", "dog"], ["It", "ran", "to", "Bob", "and", "him"]]
    references = [[[[0, 4], [9, 12]]], [[[10, 13], [18, 21]], [[0, 2]]]]  # Anna/her; Bob/him, It
    predictions = [[[[0, 4], [9, 12], [13, 16]]], [[[10, 13], [18, 21], [0, 2]]]]
    options = {"span_convention": "char_exclusive"}
    expected = coref.compute(predictions, references, tokens=tokens, **options)
    parts = [state.new("coref", **options).update(predictions[i : i + 1], references[i : i + 1], tokens=tokens[i : i + 1]) for i in (1, 0)]
    assert_coref_same(state.merge(*parts).compute(), expected)
    # the spans read as meant: MUC recall (2 key links, both found) 2/2; precision: each
    # response entity of 3 mentions has 2 links and spans 2 key partitions, so 1 right: 2/4
    assert (expected["muc_recall"], expected["muc_precision"]) == (1.0, 0.5)


@pytest.mark.filterwarnings("ignore:duplicates=")
def test_every_example_alone_equals_one_pass():
    """One state per example, merged: each example's statistics scored alone sum to the batch's."""
    rng = np.random.default_rng(9)
    sources, predictions, references = csc_corpus(10, n=120)
    for family, options, inputs in (
        ("csc_sighan", {}, {"sources": sources}),
        ("csc_common", {"variant": "all"}, {"sources": sources}),
    ):
        alone = [state.new(family, **options).update(predictions[i : i + 1], references[i : i + 1], **{k: v[i : i + 1] for k, v in inputs.items()}) for i in range(120)]
        batch = state.new(family, **options).update(predictions, references, **inputs)
        assert state.merge(*alone) == batch, family
    quads = ["a | b | food | POS & c | d | price | NEG", "", "a | b | food | POS", "x | y", "屏幕 | 亮 | screen | POS"]
    predictions = [quads[i] for i in rng.integers(0, 5, 200)]
    references = [quads[i] if i != 3 else [quads[0], quads[4]] for i in rng.integers(0, 5, 200)]
    alone = [state.new("quad_match", duplicates="list").update(predictions[i : i + 1], references[i : i + 1]) for i in range(200)]
    batch = state.new("quad_match", duplicates="list").update(predictions, references)
    assert state.merge(*alone).counts.tolist() == batch.counts.tolist()
    assert state.merge(*alone).terms == pytest.approx(batch.terms, rel=1e-12)


# ---------------------------------------------------------------------------------------
# coref under coval's remove_nested, NP_only and min_span: applied within each document
# (the key's parse trees), so per-document rows still sum. Inputs: the 300 parsed
# documents of tests/coref_coval_fixtures.py, whose figures coval itself gives
# (test_coref_conll.py checks compute() against them).

COVAL_LABELS = [",".join(name for name in coref.MENTION_OPTIONS if flags[name]) + ("" if flags["keep_singletons"] else ",no_singletons") for flags in coref_coval_fixtures.COMBINATIONS]


def coval_options(label):
    names = label.split(",")
    return dict(keep_singletons="no_singletons" not in names, **{name: name in names for name in coref.MENTION_OPTIONS})


@functools.lru_cache(maxsize=1)
def coval_documents():
    """(key CoNLL texts with parse trees, response clusters, key clusters) of the fixture's 300 documents."""
    parsed = json.loads((ROOT / "tests" / "data" / "coref_coval" / "expected.json").read_text())["inputs"]["parsed"]
    documents = coref_coval_fixtures.parsed_documents()
    keys = [coref_coval_fixtures.conll_document(name, sentences, parsed["keys"][name]) for name, sentences, _, _ in documents]
    return keys, [parsed["responses"][name] for name, *_ in documents], [parsed["keys"][name] for name, *_ in documents]


@settings(max_examples=20, deadline=None)
@given(picks=st.lists(st.integers(0, 299), max_size=12), cuts=st.lists(st.integers(0, 12), max_size=4), order=st.integers(0, 1000), label=st.sampled_from(COVAL_LABELS))
def test_coref_coval_options_merge(picks, cuts, order, label):
    keys, responses, _ = coval_documents()
    references, predictions = [keys[i] for i in picks], [responses[i] for i in picks]
    options = coval_options(label)
    expected = coref.compute(predictions, references, **options, confidence_level=0.9, n_resamples=30, seed=4)
    got = merged("coref", options, predictions, references, shards(len(picks), cuts, order), keep_rows=True)
    assert_coref_same(got.compute(confidence_level=0.9, n_resamples=30, seed=4), expected)


def test_coref_coval_options_at_users_size():
    """10,200 documents: each fixture key (as clusters) 34 times, against responses made of
    random subsets of its key and response mentions in random entities (some empty), 6
    shards shuffled; remove_nested, which needs no parse tree (NP_only and min_span, at
    about 1 ms a document in coref itself, are checked above on the parsed documents)."""
    _, responses, key_clusters = coval_documents()
    rng = np.random.default_rng(12)
    references, predictions = [], []
    for copy in range(34):
        for response, gold in zip(responses, key_clusters):
            mentions = list({tuple(m): list(m) for cluster in gold + response for m in cluster}.values())
            kept = [m for m in mentions if rng.random() < (0.9 if copy % 2 else 0.5)]
            references.append(gold)
            predictions.append(response if copy == 0 else _clusters(kept, rng.integers(0, max(len(kept) // 2, 1), len(kept)).tolist()))
    pieces = shards(len(references), [5, 3000, 3001, 6000, 10_000], 3)
    options = {"remove_nested": True, "keep_singletons": False}
    assert_coref_same(merged("coref", options, predictions, references, pieces).compute(), coref.compute(predictions, references, **options))


# ---------------------------------------------------------------------------------------
# corefud: CoNLL-U texts (tests/corefud_cases.py's random key/response pairs: empty nodes,
# discontinuous, nested and zero mentions), each file's documents corefud's rows


@functools.lru_cache(maxsize=1)
def corefud_texts(n=600):
    import corefud_cases

    pairs = [corefud_cases.case(number) for number in range(n)]
    return [key for key, _ in pairs], [response for _, response in pairs]


def assert_close(got, expected):
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, rel=1e-12, abs=1e-15), key


corefud_options = st.sampled_from(
    [{}, {"matching": "exact", "keep_singletons": True}, {"matching": "partial"}, {"zero_matching": "linear"}, {"metrics": ["muc", "lea"], "zero_division": 1.0}]
)


@settings(max_examples=20, deadline=None)
@given(picks=st.lists(st.integers(0, 39), min_size=1, max_size=8), cuts=st.lists(st.integers(0, 8), max_size=4), order=st.integers(0, 1000), options=corefud_options)
def test_corefud_merging_shards_equals_one_pass(picks, cuts, order, options):
    keys, responses = corefud_texts()
    references, predictions = [keys[i] for i in picks], [responses[i] for i in picks]
    from paperscore import corefud

    expected = corefud.compute(predictions, references, **options, confidence_level=0.9, n_resamples=30, seed=2)
    got = merged("corefud", options, predictions, references, shards(len(picks), cuts, order), keep_rows=True)
    assert_close(got.compute(confidence_level=0.9, n_resamples=30, seed=2), expected)


def test_corefud_at_users_size_and_through_coref():
    """600 key/response file pairs (1,207 documents; corefud scores about 2 ms a document,
    so 10,000 would take most of a minute here), 5 shards shuffled; coref.compute's reading
    of CoNLL-U is the corefud state with exact matching and singletons kept."""
    from paperscore import corefud

    keys, responses = corefud_texts()
    pieces = shards(len(keys), [1, 200, 201, 450], 4)
    assert_close(merged("corefud", {}, responses, keys, pieces).compute(), corefud.compute(responses, keys))
    through = {"matching": "exact", "keep_singletons": True}
    assert_close(merged("corefud", through, responses[:100], keys[:100], [(50, 100), (0, 50)]).compute(), coref.compute(responses[:100], keys[:100]))
    with pytest.raises(ValueError, match='CoNLL-U texts .* use paperscore.state.new\\("corefud"'):
        state.new("coref").update(responses[:1], keys[:1])
    with pytest.raises(ValueError, match="matching"):
        state.new("corefud", matching="heads")
    with pytest.raises(ValueError, match="option matching is 'exact' in argument 2 but 'head' in argument 1"):
        state.merge(state.new("corefud"), state.new("corefud", matching="exact"))


# ---------------------------------------------------------------------------------------
# quad_match(convention="diaasq"): DiaASQ's table, per dialogue (hits, predicted, gold) of
# each row (tests/diaasq.py's random dialogues: nudged, repeated, made-up triplets, element
# and pair lists with near misses)


@functools.lru_cache(maxsize=1)
def diaasq_corpus(n=2000):
    import diaasq

    rng = random.Random(31)
    gold = [diaasq.random_dialogue(rng, f"{i:05d}" if i % 3 else i) for i in range(n)]  # str and int doc_ids
    return gold, [diaasq.random_prediction(rng, g) for g in gold], [diaasq.random_prediction(rng, g, lists=False) for g in gold]


def merged_diaasq(options, predictions, references, pieces, keep_rows=False):
    """Each shard's predictions in another order than its gold (DiaASQ pairs them by doc_id)."""
    states = []
    for a, b in pieces:
        s = state.new("quad_match", keep_rows=keep_rows, **options).update(predictions[a:b][::-1], references[a:b])
        states.append(state.from_dict(json.loads(json.dumps(s.to_dict(), allow_nan=False))))
    return state.merge(*states) if states else state.new("quad_match", keep_rows=keep_rows, **options)


@settings(max_examples=20, deadline=None)
@given(n=st.integers(0, 15), start=st.integers(0, 1000), cuts=st.lists(st.integers(0, 15), max_size=4), order=st.integers(0, 1000), lists=st.booleans(), zero_division=st.sampled_from([0.0, 1.0]))
def test_diaasq_merging_shards_equals_one_pass(n, start, cuts, order, lists, zero_division):
    gold, with_lists, triplets_only = diaasq_corpus()
    references, predictions = gold[start : start + n], (with_lists if lists else triplets_only)[start : start + n]
    options = {"convention": "diaasq", "zero_division": zero_division}
    pieces = shards(len(references), cuts, order)
    expected = quad.compute(predictions, references, **options)
    assert merged_diaasq(options, predictions, references, pieces).compute() == expected  # counts: bit for bit
    if n:
        expected = quad.compute(predictions, references, **options, confidence_level=0.9, n_resamples=30, seed=3)
        assert merged_diaasq(options, predictions, references, pieces, keep_rows=True).compute(confidence_level=0.9, n_resamples=30, seed=3) == expected


def test_diaasq_at_users_size_and_refusals():
    """2,000 dialogues (DiaASQ's test sets hold 100 each; building and scoring 10,000 random
    ones takes 20 s here), 6 shards shuffled; what compute refuses over the whole corpus the
    merge refuses."""
    gold, with_lists, triplets_only = diaasq_corpus()
    options = {"convention": "diaasq"}
    pieces = shards(len(gold), [7, 500, 501, 1200, 1999], 9)
    assert merged_diaasq(options, with_lists, gold, pieces).compute() == quad.compute(with_lists, gold, **options)
    mixed = with_lists[:10] + triplets_only[10:20]
    with pytest.raises(ValueError, match="gives '[a-z]+' but predictions\\[10\\] does not"):
        quad.compute(mixed, gold[:20], **options)
    a = state.new("quad_match", **options).update(mixed[:10], gold[:10])
    b = state.new("quad_match", **options).update(mixed[10:], gold[10:20])
    with pytest.raises(ValueError, match="merge: the predictions do not give 'targets' but earlier ones do: give it in every prediction"):
        state.merge(a, b)
    with pytest.raises(ValueError, match="update: the predictions do not give 'targets' but earlier ones do"):
        a.update(mixed[10:], gold[10:20])
    with pytest.raises(ValueError, match="doc_id '00001' is also that of references\\[0\\]"):
        quad.compute(with_lists[1:2] * 2, gold[1:2] * 2, **options)
    with pytest.raises(ValueError, match="merge: gold doc_id '00001' is also in an earlier shard"):
        state.merge(*(state.new("quad_match", **options).update(with_lists[1:2], gold[1:2]) for _ in range(2)))
    with pytest.raises(ValueError, match="weights: does not apply with convention='diaasq'"):
        state.new("quad_match", convention="diaasq", weights=(1, 1, 1, 1))
    with pytest.raises(ValueError, match="option convention is 'diaasq' in argument 2"):
        state.merge(state.new("quad_match"), state.new("quad_match", convention="diaasq"))
    assert state.new("quad_match", **options).compute() == quad.compute([], [], **options)
    plain = ["a | b | food | POS", "NULL | b | food | NEG"]
    assert state.new("quad_match", convention=None).update(plain, plain[::-1]).compute() == quad.compute(plain, plain[::-1], convention=None)


# ---------------------------------------------------------------------------------------
# paperscore compare on sharded corpora. Its tests read each example's pair of statistic
# rows (system A's, system B's). Where a family's paired statistics code examples by their
# distinct rows (sorted), the p-value and interval depend on the multiset of paired
# examples alone, so shards put back together in any order give the same figures: quad,
# rationale, both CSC families, coref (a row per document), micro_macro with one label per
# example. micro_macro sequences (a row per sequence) code examples by position: the same
# figures only in corpus order (README, state's docstring).


def compare_inputs(family, rng, n):
    """(references, system_a, system_b, options) of n random examples of `family`."""
    if family == "micro_macro":
        refs = [int(x) for x in rng.integers(0, 4, n)]
        return refs, [x if rng.random() < 0.6 else 0 for x in refs], [x if rng.random() < 0.7 else 1 for x in refs], {}
    if family == "rationale_f1":
        refs = [[int(x) for x in rng.integers(0, 2, rng.integers(1, 6))] for _ in range(n)]
        return refs, [[x if rng.random() < 0.7 else 1 - x for x in r] for r in refs], [[x if rng.random() < 0.8 else 1 - x for x in r] for r in refs], {}
    if family == "quad_match":
        refs = [" & ".join(f"t{rng.integers(5)} | o{rng.integers(3)} | food | POS" for _ in range(rng.integers(0, 3))) for _ in range(n)]
        return refs, [r if rng.random() < 0.5 else "t1 | o1 | food | POS" for r in refs], [r if rng.random() < 0.6 else "t2 | o 1 | food | NEG" for r in refs], {}
    if family == "coref_conll":  # documents of six one-token mentions in 1-3 entities; systems move some
        def document(entities):
            return [[[m, m] for m in range(6) if entities[m] == e] for e in sorted(set(entities))]

        refs = [rng.integers(0, rng.integers(1, 4), 6).tolist() for _ in range(n)]
        moved = [[[e if rng.random() < p else int(rng.integers(0, 4)) for e in r] for r in refs] for p in (0.6, 0.8)]
        return [document(r) for r in refs], [document(r) for r in moved[0]], [document(r) for r in moved[1]], {}
    sources, predictions, references = csc_corpus(int(rng.integers(1000)), n=n)
    other = [r if rng.random() < 0.5 else p for p, r in zip(predictions, references)]
    return references, predictions, other, {"sources": sources}


@pytest.mark.filterwarnings("ignore")  # few differing examples: compare's own warning
@pytest.mark.parametrize("family", ["micro_macro", "rationale_f1", "quad_match", "csc_sighan", "csc_common", "coref_conll"])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 1000), method=st.sampled_from(["bootstrap", "randomization"]))
def test_compare_does_not_depend_on_sharding(family, seed, method):
    from paperscore.compare import compare

    rng = np.random.default_rng(seed)
    references, system_a, system_b, options = compare_inputs(family, rng, 60)
    expected = compare(family, references, system_a, system_b, method=method, n_resamples=100, seed=7, **options)
    order = [i for a, b in shards(60, rng.integers(0, 60, 4).tolist(), seed) for i in range(a, b)]  # shards, put back in another order
    moved = {name: [value[i] for i in order] for name, value in options.items()}
    got = compare(family, [references[i] for i in order], [system_a[i] for i in order], [system_b[i] for i in order], method=method, n_resamples=100, seed=7, **moved)
    assert {k: v for k, v in got.items() if k != "signature"} == pytest.approx({k: v for k, v in expected.items() if k != "signature"}, rel=1e-12, abs=1e-15)



# ---------------------------------------------------------------------------------------
# quad_match(parse=...): model texts read as compute reads them (test_rewards' random ASQP
# paraphrase completions: subsets, repeats, junk, half pieces). The oracle is compute() over
# the examples in merge order: the same figures in any order, and the same parse report's
# first failing indices (corpus order when the shards are merged in corpus order).


def merge_order_oracle(predictions, references, pieces):
    order = [i for a, b in pieces for i in range(a, b)]
    return [predictions[i] for i in order], [references[i] for i in order]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 1000), n=st.integers(0, 25), cuts=st.lists(st.integers(0, 25), max_size=4), order=st.integers(0, 1000), options=st.sampled_from([{}, {"exact_only": True}, {"duplicates": "set", "implicit_split": True}]))
def test_quad_parse_merges(seed, n, cuts, order, options):
    rng = random.Random(seed)
    references = gold_texts(rng, n)
    predictions = [corrupt(rng, gold, references) for gold in references]
    options = {"parse": "asqp_paraphrase", **options}
    pieces = shards(n, cuts, order)
    got = merged("quad_match", options, predictions, references, pieces, keep_rows=True)
    assert_quad_same(got.compute(), quad.compute(*merge_order_oracle(predictions, references, pieces), **options))
    if n:
        expected = quad.compute(predictions, references, **options, confidence_level=0.9, n_resamples=30, seed=1)
        result = got.compute(confidence_level=0.9, n_resamples=30, seed=1)  # intervals in any merge order
        assert_quad_same({k: v for k, v in result.items() if k != "parse_failure_examples"}, {k: v for k, v in expected.items() if k != "parse_failure_examples"})


def test_quad_parse_at_users_size():
    """10,000 completions, 5 shards: merged shuffled, the figures of one pass in corpus order
    and the first failing indices of the examples in merge order (each text's failure: the
    parser leaves a piece unread); merged in corpus order, one pass's report too."""
    from paperscore.parse import get_parser

    rng = random.Random(21)
    references = gold_texts(rng, 10_000)
    predictions = [corrupt(rng, gold, references) for gold in references]
    pieces = shards(10_000, [3, 2500, 2501, 9000], 11)
    parts = {(a, b): state.new("quad_match", parse="asqp_paraphrase").update(predictions[a:b], references[a:b]) for a, b in pieces}
    expected = quad.compute(predictions, references, parse="asqp_paraphrase")
    assert expected["parse_failures"] > 500
    in_order = state.merge(*(parts[piece] for piece in sorted(pieces))).compute()
    assert_quad_same(in_order, expected)
    shuffled = state.merge(*(parts[piece] for piece in pieces)).compute()
    read = get_parser("asqp_paraphrase").read
    failing = [k for k, i in enumerate(i for a, b in pieces for i in range(a, b)) if read(predictions[i])[1]]
    assert_quad_same(shuffled, {**expected, "parse_failure_examples": failing[:5]})
    data = parts[max(pieces, key=lambda piece: piece[1] - piece[0])].to_dict()
    data["parse_failure_examples"] = data["parse_failure_examples"][::-1]
    with pytest.raises(ValueError, match="parse_failure_examples: .* are not the first indices of"):
        state.from_dict(data)
    with pytest.raises(ValueError, match="tuple_len"):
        state.new("quad_match", parse="asqp_paraphrase", tuple_len="013")



def csc_replies(seed, n):
    """csc_corpus's sentences as a corrector's replies (csc_reply): labelled, bare, and now
    and then empty (a parse failure, scored as the empty sentence read)."""
    sources, predictions, references = csc_corpus(seed, n)
    rng = random.Random(seed)
    replies = [rng.choice([f"修改后：“{p}”", p, f"修改后：{p}", "修改后：", ""]) for p in predictions]
    return sources, replies, references


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 1000), n=st.integers(0, 20), cuts=st.lists(st.integers(0, 20), max_size=4), order=st.integers(0, 1000), family=st.sampled_from(["csc_sighan", "csc_common"]))
def test_csc_parse_merges(seed, n, cuts, order, family):
    sources, replies, references = csc_replies(seed, n)
    options = {"parse": "csc_reply", "length_mismatch": "align"}
    module = {"csc_sighan": csc_sighan, "csc_common": csc_common}[family]
    pieces = shards(n, cuts, order)
    got = merged_sources(family, options, replies, references, sources, pieces, keep_rows=True)
    order_ = [i for a, b in pieces for i in range(a, b)]
    assert_same(got.compute(), module.compute([replies[i] for i in order_], [references[i] for i in order_], sources=[sources[i] for i in order_], **options), family)
    if n:
        expected = module.compute(replies, references, sources=sources, **options, confidence_level=0.9, n_resamples=30, seed=1)
        result = got.compute(confidence_level=0.9, n_resamples=30, seed=1)
        assert_same({k: v for k, v in result.items() if k != "parse_failure_examples"}, {k: v for k, v in expected.items() if k != "parse_failure_examples"}, family)


def test_csc_parse_at_users_size():
    sources, replies, references = csc_replies(13, 10_000)
    pieces = shards(10_000, [2, 4000, 4001, 8000], 7)
    for family, module, rule in (("csc_sighan", csc_sighan, {"length_mismatch": "align"}), ("csc_common", csc_common, {})):  # sighan's default refuses an empty reply's length
        options = {"parse": "csc_reply", **rule}
        expected = module.compute(replies, references, sources=sources, **options)
        assert expected["parse_failures"] > 2000
        assert_same(merged_sources(family, options, replies, references, sources, sorted(pieces)).compute(), expected, family)
    with pytest.raises(ValueError, match="parse: csc_reply@2 reads a corrector's replies, which are sentences: pass sources"):
        state.new("csc_common", parse="csc_reply").update(replies[:2], references[:2])



# ---------------------------------------------------------------------------------------
# coref(parse=...): markdown replies placed on each document's tokens; mentions on words
# the model changed stay in their entities, matching nothing, and are reported


def coref_replies(seed, n):
    """(tokens, gold clusters of one-token mentions, coref_markdown replies): replies mark
    most gold mentions, mark words not in the text (unplaced), or are junk."""
    rng = random.Random(seed)
    words = ["John", "Mary", "saw", "he", "she", "the", "dog", "left", ".", "it", "Anna", "park"]
    tokens, golds, replies = [], [], []
    for _ in range(n):
        toks = [rng.choice(words) for _ in range(rng.randint(1, 14))]
        entity = {i: rng.randint(1, 3) for i in rng.sample(range(len(toks)), rng.randint(0, min(5, len(toks))))}
        gold = {}
        for i in sorted(entity):
            gold.setdefault(entity[i], []).append([i, i])
        reply = []
        for i, word in enumerate(toks):
            roll = rng.random()
            if i in entity and roll < 0.7:
                reply.append(f"[{word}](#{entity[i] if roll < 0.6 else rng.randint(1, 3)})")
            elif roll < 0.08:
                reply.append(f"[zzz](#{rng.randint(1, 3)})")
            else:
                reply.append(word)
        tokens.append(toks)
        golds.append(list(gold.values()))
        replies.append(" ".join(reply) if rng.random() > 0.05 else rng.choice(["", "junk [x", "[John](#"]))
    return tokens, golds, replies


def merged_coref_parse(options, replies, golds, tokens, pieces, keep_rows=False):
    states = []
    for a, b in pieces:
        s = state.new("coref", keep_rows=keep_rows, **options).update(replies[a:b], golds[a:b], tokens=tokens[a:b])
        states.append(state.from_dict(json.loads(json.dumps(s.to_dict(), allow_nan=False))))
    return state.merge(*states) if states else state.new("coref", keep_rows=keep_rows, **options)


@pytest.mark.filterwarnings("ignore:predictions. none of the")
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 1000), n=st.integers(0, 20), cuts=st.lists(st.integers(0, 20), max_size=4), order=st.integers(0, 1000), options=st.sampled_from([{}, {"keep_singletons": False}, {"remove_nested": True}, {"convention": "e2e_coref"}]))
def test_coref_parse_merges(seed, n, cuts, order, options):
    tokens, golds, replies = coref_replies(seed, n)
    options = {"parse": "coref_markdown", **options}
    pieces = shards(n, cuts, order)
    got = merged_coref_parse(options, replies, golds, tokens, pieces, keep_rows=True)
    moved = [i for a, b in pieces for i in range(a, b)]
    expected = coref.compute([replies[i] for i in moved], [golds[i] for i in moved], tokens=[tokens[i] for i in moved], **options)
    assert_coref_same(got.compute(), expected)
    if n:
        expected = coref.compute(replies, golds, tokens=tokens, **options, confidence_level=0.9, n_resamples=30, seed=1)
        result = {k: v for k, v in got.compute(confidence_level=0.9, n_resamples=30, seed=1).items() if not k.endswith("_examples")}
        assert_coref_same(result, {k: v for k, v in expected.items() if not k.endswith("_examples")})


@pytest.mark.filterwarnings("ignore:predictions. none of the")
def test_coref_parse_at_users_size():
    tokens, golds, replies = coref_replies(17, 10_000)
    pieces = shards(10_000, [4, 3000, 3001, 6500], 12)
    options = {"parse": "coref_markdown", "metrics": ["muc", "mentions"]}  # every metric: the property test above
    expected = coref.compute(replies, golds, tokens=tokens, **options)
    assert expected["parse_failures"] > 100 and expected["mentions_on_changed_text"] > 1000
    assert_coref_same(merged_coref_parse(options, replies, golds, tokens, sorted(pieces)).compute(), expected)
    with pytest.raises(ValueError, match="span_convention"):  # compute's own rule: the references' convention alone
        state.new("coref", parse="coref_markdown", span_convention=("token_exclusive", "token_inclusive"))


# ---------------------------------------------------------------------------------------
# micro_macro(parse=...): OmniEvent seq2seq texts put onto the candidates of OmniEvent
# items (test_rewards' random examples and completions: gold, guess-everything, made-up
# triggers and types, junk, repeats). The oracle is compute() over the examples in merge
# order: the figures in any order, and the report's first failing indices of that order.


def event_corpus(seed, n):
    """(model texts, OmniEvent items) of n random examples; types now and then written as
    OmniEvent's dotted names (plain_label reads "Conflict.Attack" as "attack")."""
    rng = random.Random(seed)
    texts, items = [], []
    for _ in range(n):
        text, spans, gold = event_example(rng)
        texts.append(event_completion(rng, text, spans, gold))
        dotted = {"attack": "Conflict.Attack", "die": "Life.Die"}
        events = [{"type": dotted.get(g, g) if rng.random() < 0.3 else g, "triggers": [{"position": list(s)}]} for s, g in zip(spans, gold) if g != "NA"]
        items.append({"text": text, "events": events, "negative_triggers": [{"position": list(s)} for s, g in zip(spans, gold) if g == "NA"]})
    return texts, items


EVENT_OPTIONS = [
    {"parse": "omnievent_s2s", "types": EVENT_TYPES},
    {"parse": "omnievent_s2s", "types": EVENT_TYPES, "convention": "omnievent"},
    {"parse": "omnievent_s2s_strict", "negative_labels": ["NA"]},
    {"parse": "omnievent_s2s_strict", "types": ["Conflict.Attack"], "zero_division": 1.0},
]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 1000), n=st.integers(0, 25), cuts=st.lists(st.integers(0, 25), max_size=4), order=st.integers(0, 1000), options=st.sampled_from(EVENT_OPTIONS))
def test_micro_macro_parse_merges(seed, n, cuts, order, options):
    texts, items = event_corpus(seed, n)
    pieces = shards(n, cuts, order)
    try:
        expected = micro_macro.compute(*merge_order_oracle(texts, items, pieces), **options)
    except ValueError as error:  # NA nowhere with negative_labels=["NA"]: the state refuses as compute
        with pytest.raises(ValueError, match=str(error)[:30].replace("(", r"\(").replace("[", r"\[")):
            merged("micro_macro", options, texts, items, pieces).compute()
        return
    assert_same(merged("micro_macro", options, texts, items, pieces).compute(), expected, "micro_macro")
    if n:  # sequences: one compute()'s intervals when the shards are merged in corpus order
        expected = micro_macro.compute(texts, items, **options, confidence_level=0.9, n_resamples=30, seed=1)
        got = merged("micro_macro", options, texts, items, sorted(pieces), keep_rows=True)
        assert_same(got.compute(confidence_level=0.9, n_resamples=30, seed=1), expected, "micro_macro")


def test_micro_macro_parse_at_users_size():
    """10,000 texts, 5 shards: merged shuffled, one pass's figures in merge order; merged in
    corpus order, one pass's report too; each example alone sums to the batch."""
    from paperscore.parse import read_omnievent_s2s

    texts, items = event_corpus(22, 10_000)
    pieces = shards(10_000, [3, 2500, 2501, 9000], 13)
    for options in (EVENT_OPTIONS[0], EVENT_OPTIONS[2]):  # each placement policy
        expected = micro_macro.compute(texts, items, **options)
        assert expected["parse_failures"] > 500 and expected["unplaced_triggers"] > 500
        parts = {(a, b): state.new("micro_macro", **options).update(texts[a:b], items[a:b]) for a, b in pieces}
        assert_same(state.merge(*(parts[piece] for piece in sorted(pieces))).compute(), expected, "micro_macro")
        failing = [k for k, i in enumerate(i for a, b in pieces for i in range(a, b)) if read_omnievent_s2s(texts[i])[1]]
        assert_same(state.merge(*(parts[piece] for piece in pieces)).compute(), {**expected, "parse_failure_examples": failing[:5]}, "micro_macro")
    options = EVENT_OPTIONS[2]
    alone = state.merge(*(state.new("micro_macro", **options).update(texts[i : i + 1], items[i : i + 1]) for i in range(300)))
    assert alone.to_dict() == state.new("micro_macro", **options).update(texts[:300], items[:300]).to_dict()


def test_micro_macro_parse_refusals():
    texts, items = event_corpus(3, 4)
    with pytest.raises(ValueError, match="types: OmniEvent's conversion keeps only pairs whose type is in the schema"):
        state.new("micro_macro", parse="omnievent_s2s")
    with pytest.raises(ValueError, match="types: applies to model texts read by a parser"):
        state.new("micro_macro", types=EVENT_TYPES)
    with pytest.raises(ValueError, match="parse: unknown parser 'csc_reply' for micro_macro"):
        state.new("micro_macro", parse="csc_reply")
    with pytest.raises(ValueError, match=r"references\[0\]: expected int or str, got dict"):
        state.new("micro_macro").update(texts, items)
    with pytest.raises(ValueError, match=r"predictions\[\d\]: omnievent_s2s@1 cannot read it"):
        state.new("micro_macro", parse="omnievent_s2s", types=EVENT_TYPES, strict=True).update(["junk"] * 4, items)
    with pytest.raises(ValueError, match="option types is"):
        state.merge(state.new("micro_macro", parse="omnievent_s2s", types=EVENT_TYPES), state.new("micro_macro", parse="omnievent_s2s", types=EVENT_TYPES[:2]))
    data = state.new("micro_macro", parse="omnievent_s2s_strict").update(["junk"] * 4, items).to_dict()
    data["parse_failure_examples"] = [3, 0]
    with pytest.raises(ValueError, match="parse_failure_examples: .* are not the first indices of 4 examples"):
        state.from_dict(data)


# ---------------------------------------------------------------------------------------
# rationale(parse=...): replies quoting the input placed on its tokens (test_rewards' random
# examples and replies: gold, the whole input, repeats, junk, JSON that is no list, upper
# case, bullets); references gold quotes or 0/1 per token


def rationale_corpus(seed, n, gold_quotes=True):
    """(replies, references, sources): sources a text or a list of tokens."""
    rng = random.Random(seed)
    replies, references, sources = [], [], []
    for _ in range(n):
        tokens, gold = quoted_example(rng)
        replies.append(rationale_completion(rng, tokens, gold))
        mask = [rng.choice([0, 0, 1, -100]) for _ in tokens]
        references.append(gold if gold_quotes else mask)
        sources.append(" ".join(tokens) if rng.random() < 0.5 and all(t.strip() == t and t for t in tokens) else tokens)
    return replies, references, sources


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 1000),
    n=st.integers(0, 25),
    cuts=st.lists(st.integers(0, 25), max_size=4),
    order=st.integers(0, 1000),
    gold_quotes=st.booleans(),
    options=st.sampled_from([{"parse": "quotes_exact"}, {"parse": "quotes_normalized", "iou_threshold": 1.0}, {"parse": "quotes_fuzzy", "zero_division": 1.0}]),
)
def test_rationale_parse_merges(seed, n, cuts, order, gold_quotes, options):
    replies, references, sources = rationale_corpus(seed, n, gold_quotes)
    pieces = shards(n, cuts, order)
    got = merged_sources("rationale", options, replies, references, sources, pieces, keep_rows=True)
    order_ = [i for a, b in pieces for i in range(a, b)]
    expected = rationale.compute([replies[i] for i in order_], [references[i] for i in order_], sources=[sources[i] for i in order_], **options)
    assert_same(got.compute(), expected, "rationale")
    if n:  # intervals in any merge order
        expected = rationale.compute(replies, references, sources=sources, **options, confidence_level=0.9, n_resamples=30, seed=1)
        result = got.compute(confidence_level=0.9, n_resamples=30, seed=1)
        assert_same({k: v for k, v in result.items() if k != "parse_failure_examples"}, {k: v for k, v in expected.items() if k != "parse_failure_examples"}, "rationale")


def test_rationale_parse_at_users_size():
    """10,000 replies, 5 shards: merged shuffled, one pass's figures in merge order and the
    first failing indices of that order (a reply with a quote or item placed nowhere, by
    the naive placement of tests/rationale_naive.py); merged in corpus order, one pass's
    report too."""
    from rationale_naive import place_reply

    replies, references, sources = rationale_corpus(23, 10_000)
    pieces = shards(10_000, [3, 2500, 2501, 9000], 14)
    options = {"parse": "quotes_normalized"}
    expected = rationale.compute(replies, references, sources=sources, **options)
    assert expected["parse_failures"] > 1000 and expected["quotes"] > 5000
    parts = {(a, b): state.new("rationale", **options).update(replies[a:b], references[a:b], sources=sources[a:b]) for a, b in pieces}
    assert_same(state.merge(*(parts[piece] for piece in sorted(pieces))).compute(), expected, "rationale")
    tokens = [s.split() if isinstance(s, str) else s for s in sources]
    order = [i for a, b in pieces for i in range(a, b)]
    failing = [k for k, i in enumerate(order) if place_reply(replies[i], tokens[i], "quotes_normalized")[2]]
    assert_same(state.merge(*(parts[piece] for piece in pieces)).compute(), {**expected, "parse_failure_examples": failing[:5]}, "rationale")
    alone = state.merge(*(state.new("rationale", **options).update(replies[i : i + 1], references[i : i + 1], sources=sources[i : i + 1]) for i in range(300)))
    batch = state.new("rationale", **options).update(replies[:300], references[:300], sources=sources[:300])
    assert (alone.counts.tolist(), alone.report) == (batch.counts.tolist(), batch.report)  # counts: token and span counts, and each mean's examples
    assert alone.terms == pytest.approx(batch.terms, rel=1e-12)


def test_rationale_parse_refusals():
    replies, quotes, sources = rationale_corpus(5, 6)
    _, masks, _ = rationale_corpus(5, 6, gold_quotes=False)
    with pytest.raises(ValueError, match=r"references\[3\]: is a list but references\[0\] is a text"):  # compute's own check, within a batch
        rationale.compute(replies, quotes[:3] + masks[3:], sources=sources, parse="quotes_exact")
    with pytest.raises(ValueError, match=r"references\[3\]: is a list but references\[0\] is a text"):
        state.new("rationale", parse="quotes_exact").update(replies, quotes[:3] + masks[3:], sources=sources)
    a = state.new("rationale", parse="quotes_exact").update(replies[:3], quotes[:3], sources=sources[:3])
    b = state.new("rationale", parse="quotes_exact").update(replies[3:], masks[3:], sources=sources[3:])
    with pytest.raises(ValueError, match="merge: references are 0/1 per token, but the state holds references given as gold quotes"):
        state.merge(a, b)
    with pytest.raises(ValueError, match="update: references are 0/1 per token, but the state holds references given as gold quotes"):
        a.update(replies[3:], masks[3:], sources=sources[3:])
    assert state.merge(a, state.new("rationale", parse="quotes_exact"), state.new("rationale", parse="quotes_exact")).records["gold_quotes"] is True  # empty states hold no kind
    with pytest.raises(ValueError, match="sources: parse= places the quotes on the input's tokens"):
        state.new("rationale", parse="quotes_exact").update(replies, quotes)
    with pytest.raises(ValueError, match="sources: applies to model texts read by a parser"):
        state.new("rationale").update(masks, masks, sources=sources)
    with pytest.raises(ValueError, match="parse: unknown parser 'csc_reply' for rationale_f1"):
        state.new("rationale", parse="csc_reply")
    with pytest.raises(ValueError, match="strict: applies to model texts read by a parser"):
        state.new("rationale", strict=True)
    data = a.to_dict()
    data["records"]["gold_quotes"] = 1
    with pytest.raises(ValueError, match="records: .*'gold_quotes': 1.* is not .*true, false or null"):
        state.from_dict(data)


# ---------------------------------------------------------------------------------------
# coref(parse=...) with coval's NP_only and min_span: markdown replies over the fixture's
# 300 parsed key documents (their words), marking the response's or the key's mentions,
# with junk, blanks and repeats. A document with a mention the parser cannot place has no
# parse tree for it: compute refuses the corpus, the state the batch.


def markdown(tokens, clusters):
    """A coref_markdown reply: the tokens, with the mentions of `clusters` that cross no
    mention marked before them as [words](#entity number)."""
    kept = []
    for number, cluster in enumerate(clusters):
        for s, e in cluster:
            if all(e < a or s > b or (a <= s and e <= b) or (s <= a and b <= e) for a, b, _ in kept):
                kept.append((s, e, number))
    opens, closes = {}, {}
    for s, e, number in sorted(kept, key=lambda m: (m[0], -m[1])):  # outer mentions open first
        opens[s] = opens.get(s, "") + "["
    for s, e, number in sorted(kept, key=lambda m: (-m[0], m[1])):  # inner mentions close first
        closes[e] = closes.get(e, "") + f"](#{number})"
    return " ".join(opens.get(i, "") + token + closes.get(i, "") for i, token in enumerate(tokens))


@functools.lru_cache(maxsize=1)
def coval_replies():
    """(key CoNLL texts, replies): each of the 300 keys 4 times, its reply marking the
    response's mentions, the key's in shuffled entities, either with a stray close or an
    unclosed "[" (parse failures on unchanged words), or blank; none on changed words."""
    from paperscore.parse import parse_coref

    keys, responses, key_clusters = coval_documents()
    words = coref.source_tokens(keys, None)
    rng = random.Random(41)
    references, replies = [], []
    for copy in range(4):
        for key, tokens, response, gold in zip(keys, words, responses, key_clusters):
            shuffled = [[m for m in cluster if rng.random() < 0.8] for cluster in gold]
            rng.shuffle(shuffled)
            reply = [markdown(tokens, response), markdown(tokens, shuffled), rng.choice(["](#7) ", ""]) + markdown(tokens, response) + rng.choice([" [oops", ""]), rng.choice(["", markdown(tokens, gold)])][copy]
            references.append(key)
            replies.append(reply)
    _, report = parse_coref(replies, "coref_markdown", coref.source_tokens(references, None))
    assert report["mentions_on_changed_text"] == 0 and report["parse_failures"] > 200
    return references, replies


@pytest.mark.filterwarnings("ignore:predictions. none of the")
@settings(max_examples=20, deadline=None)
@given(picks=st.lists(st.integers(0, 1199), max_size=12), cuts=st.lists(st.integers(0, 12), max_size=4), order=st.integers(0, 1000), label=st.sampled_from([label for label in COVAL_LABELS if "NP_only" in label or "min_span" in label]))
def test_coref_parse_with_parse_trees_merges(picks, cuts, order, label):
    keys, replies = coval_replies()
    references, predictions = [keys[i] for i in picks], [replies[i] for i in picks]
    options = {"parse": "coref_markdown", **coval_options(label)}
    pieces = shards(len(picks), cuts, order)
    got = merged("coref", options, predictions, references, pieces, keep_rows=True)
    assert_coref_same(got.compute(), coref.compute(*merge_order_oracle(predictions, references, pieces), **options))
    if picks:
        expected = coref.compute(predictions, references, **options, confidence_level=0.9, n_resamples=30, seed=1)
        result = {k: v for k, v in got.compute(confidence_level=0.9, n_resamples=30, seed=1).items() if not k.endswith("_examples")}
        assert_coref_same(result, {k: v for k, v in expected.items() if not k.endswith("_examples")})


@pytest.mark.filterwarnings("ignore:predictions. none of the")
def test_coref_parse_with_parse_trees_at_size_and_refusals():
    """1,200 documents (the parse reading and the trees take about 1 ms a document in
    coref.compute itself, so 10,000 would take most of a minute here; the reading alone is
    checked at 10,000 above), 5 shards shuffled, against one pass in merge order; a batch
    with a mention on changed words is refused as compute refuses the corpus."""
    keys, replies = coval_replies()
    pieces = shards(len(keys), [3, 400, 401, 900], 15)
    options = {"parse": "coref_markdown", "NP_only": True, "min_span": True}
    got = merged("coref", options, replies, keys, pieces).compute()
    expected = coref.compute(*merge_order_oracle(replies, keys, pieces), **options)
    assert expected["parse_failures"] > 200 and expected["muc_f1"] < 1
    assert_coref_same(got, expected)
    picks = range(0, 1200, 24)  # each document alone sums to the batch
    alone = state.merge(*(state.new("coref", **options).update(replies[i : i + 1], keys[i : i + 1]) for i in picks))
    batch = state.new("coref", **options).update([replies[i] for i in picks], [keys[i] for i in picks])
    assert (alone.counts.tolist(), alone.report) == (batch.counts.tolist(), batch.report)
    assert alone.terms == pytest.approx(batch.terms, rel=1e-12)
    changed = replies[:3] + [replies[3].replace("[", "[zzz ", 1)]
    assert "[zzz " in changed[3]
    message = r"predictions\[3\]: NP_only and min_span read each mention's parse tree, and 1 mention\(s\) here are not on the source tokens"
    with pytest.raises(ValueError, match=message):
        coref.compute(changed, keys[:4], **options)
    with pytest.raises(ValueError, match=message):
        state.new("coref", **options).update(changed, keys[:4])


def test_micro_macro_state_is_sparse_in_the_labels():
    """Issue 39.9: 20,000 distinct labels (each example its own class, a third predicted
    wrong). A dense matrix would hold 20,000^2 cells (3.2 GB); the state keeps the cells
    that occur, and its figures are compute()'s."""
    n = 20_000
    references = [f"type-{i}" for i in range(n)]
    predictions = [r if i % 3 else f"type-{(i + 1) % n}" for i, r in enumerate(references)]
    parts = [state.new("micro_macro").update(predictions[a:b], references[a:b]) for a, b in ((0, 7000), (7000, n))]
    merged = state.merge(*parts)
    assert merged.compute() == micro_macro.compute(predictions, references)
    data = merged.to_dict()
    assert len(data["values"]) == n and len(data["cells"][0]) == n  # one cell per example here: n of them, not n^2
    assert state.from_dict(json.loads(json.dumps(data))).compute() == merged.compute()


def test_micro_macro_state_with_rows_reads_back_whatever_order_labels_came_in():
    """Labels first seen in another order get other codes: the kept labels are checked
    against the cells by label (a merged state, or several updates, read back)."""
    s = state.new("micro_macro", keep_rows=True).update([2], [2]).update([1], [0])
    again = state.from_dict(json.loads(json.dumps(s.to_dict())))
    assert again.compute() == micro_macro.compute([2, 1], [2, 0])
    merged = state.merge(state.new("micro_macro", keep_rows=True).update(["b"], ["b"]), state.new("micro_macro", keep_rows=True).update(["a"], ["c"]))
    assert state.from_dict(json.loads(json.dumps(merged.to_dict()))).compute(confidence_level=0.9, seed=1) == micro_macro.compute(["b", "a"], ["b", "c"], confidence_level=0.9, seed=1)
