"""paperscore.state for issue 23's numbers: micro_macro(spans=...) (span-level event
detection) and ERASER faithfulness. As in tests/test_state.py, the oracle is the family's
own compute() over the concatenated corpus (itself tested against TextEE / OneIE / ERASER
elsewhere); states are built from random shardings, merged in any order, round-tripped
through JSON."""

import json

import numpy as np
import pytest
from conftest import DATA
from hypothesis import given, settings, strategies as st
from test_state import assert_same, shards

from paperscore import faithfulness, micro_macro, state

# ---------------------------------------------------------------------------------------
# micro_macro(spans=...): windows are whole in a shard (TextEE's sets per window)


def span_example(rng, events, ids):
    """A random prediction and reference of one window: triggers (or events with
    arguments) from a few types over short offsets, so repeats and matches are common."""

    def spans(n, labels):
        out = []
        for _ in range(n):
            start = int(rng.integers(0, 8))
            out.append([start, start + int(rng.integers(1, 3)), labels[int(rng.integers(len(labels)))]])
        return out

    def side(n):
        triggers = spans(n, ["Attack", "Move", "Die", "攻击"])
        if not events:
            return {"triggers": triggers} if ids else triggers
        return {"events": [{"trigger": t, "arguments": spans(int(rng.integers(0, 3)), ["Agent", "Place", "Victim"])} for t in triggers]}

    gold = side(int(rng.integers(0, 4)))
    if rng.random() < 0.3:  # a copy of the gold: matches, and repeated tuples under "textee"
        pred = json.loads(json.dumps(gold))
        if not events and ids is None and pred:
            pred = pred + pred[:1]
    else:
        pred = side(int(rng.integers(0, 5)))
    if ids is not None:
        for example in (gold, pred):
            example.update(doc_id=ids[0], wnd_id=ids[1])
    return pred, gold


def windows_corpus(seed, n_windows, events, max_examples=3):
    """Windows of 1..max_examples examples (with ids: one TextEE window; some windows of
    examples without ids), as lists of (prediction, reference)."""
    rng = np.random.default_rng(seed)
    windows = []
    for w in range(n_windows):
        if rng.random() < 0.3:  # an example without ids: its own unit
            windows.append([span_example(rng, events, None)])
        else:
            doc = f"doc-{w // 3}" if rng.random() < 0.5 else w // 3
            windows.append([span_example(rng, events, (doc, w % 3)) for _ in range(int(rng.integers(1, max_examples + 1)))])
    return windows


def merged_windows(options, windows, pieces, keep_rows=False):
    """One state per piece of windows, each through JSON, merged in the pieces' order."""
    states = []
    for a, b in pieces:
        examples = [e for window in windows[a:b] for e in window]
        s = state.new("micro_macro", keep_rows=keep_rows, **options).update([p for p, _ in examples], [g for _, g in examples])
        states.append(state.from_dict(json.loads(json.dumps(s.to_dict(), allow_nan=False))))
    return state.merge(*states) if states else state.new("micro_macro", keep_rows=keep_rows, **options)


def flat(windows):
    examples = [e for window in windows for e in window]
    return [p for p, _ in examples], [g for _, g in examples]


# a random corpus (seed) of n windows, its shards (cuts, order) and the counting rule
SHARDED_SPANS = dict(seed=st.integers(0, 10_000), n=st.integers(0, 15), cuts=st.lists(st.integers(0, 15), max_size=4), order=st.integers(0, 1000), spans=st.sampled_from(["textee", "oneie"]))


@settings(max_examples=40, deadline=None)
@given(
    **SHARDED_SPANS,
    events=st.booleans(),
    zero_division=st.sampled_from([0.0, 1.0]),
    intervals=st.booleans(),
)
def test_spans_merging_shards_equals_one_pass(seed, n, cuts, order, spans, events, zero_division, intervals):
    """Any sharding of whole windows, merged in any order, gives compute()'s figures, and
    with keep_rows its intervals (the distinct rows are resampled in sorted order)."""
    windows = windows_corpus(seed, n, events)
    predictions, references = flat(windows)
    options = {"spans": spans, "zero_division": zero_division}
    bootstrap = {"confidence_level": 0.9, "n_resamples": 40, "seed": 3} if intervals else {}
    expected = micro_macro.compute(predictions, references, **options, **bootstrap)
    got = merged_windows(options, windows, shards(n, cuts, order), keep_rows=intervals).compute(**bootstrap)
    assert_same(got, expected, "micro_macro")


@settings(max_examples=20, deadline=None)
@given(**SHARDED_SPANS)
def test_spans_bio_merge(seed, n, cuts, order, spans):
    rng = np.random.default_rng(seed)
    tags = ["O", "O", "B-Attack", "I-Attack", "B-Move", "I-Move"]
    references = [[tags[i] for i in rng.integers(0, 6, rng.integers(0, 9))] for _ in range(n)]
    predictions = [[t if rng.random() < 0.7 else tags[int(rng.integers(6))] for t in r] for r in references]
    options = {"spans": spans, "scheme": "bio"}
    expected = micro_macro.compute(predictions, references, **options, confidence_level=0.9, n_resamples=30, seed=1)
    windows = [[(p, r)] for p, r in zip(predictions, references)]
    assert_same(merged_windows(options, windows, shards(n, cuts, order), keep_rows=True).compute(confidence_level=0.9, n_resamples=30, seed=1), expected, "micro_macro")


@pytest.mark.parametrize("spans", ["textee", "oneie"])
def test_spans_at_users_size(spans):
    """10,000+ examples: events with arguments, windows of 1-4 examples (ids as strings and
    ints, repeated tuples), examples without ids, empty lists; 9 shards in shuffled order,
    against one pass; the intervals too."""
    windows = windows_corpus(7, 5_000, True, max_examples=4)
    predictions, references = flat(windows)
    assert len(predictions) > 10_000
    pieces = shards(len(windows), [1, 2, 700, 701, 2500, 4000, 4999, 4999], 5)
    options = {"spans": spans}
    expected = micro_macro.compute(predictions, references, **options, confidence_level=0.95, n_resamples=200, seed=0)
    got = merged_windows(options, windows, pieces, keep_rows=True).compute(confidence_level=0.95, n_resamples=200, seed=0)
    assert_same(got, expected, "micro_macro")
    assert expected["argument_cls_matched"] > 0 and expected["trigger_cls_matched"] < expected["trigger_cls_predicted"]


def test_spans_each_window_alone_equals_the_batch():
    """One state per window, merged, holds the batch's statistics (rows and their counts)."""
    windows = windows_corpus(3, 400, True)
    predictions, references = flat(windows)
    for spans in ("textee", "oneie"):
        batch = state.new("micro_macro", spans=spans, keep_rows=True).update(predictions, references)
        alone = [state.new("micro_macro", spans=spans, keep_rows=True).update(*flat([w])) for w in windows]
        assert state.merge(*alone) == batch, spans


def test_spans_window_split_across_shards_is_refused():
    """TextEE counts a window's tuples as one set: the same trigger in two examples of one
    window counts once. Across two states the sums would count it twice, so it is refused
    (by hand: one window, predicted [0, 1, Attack] in both examples: 1 predicted, 1 matched)."""
    p = [{"doc_id": "d", "wnd_id": 0, "triggers": [[0, 1, "Attack"]]}] * 2
    r = [{"doc_id": "d", "wnd_id": 0, "triggers": [[0, 1, "Attack"]]}] * 2
    one = micro_macro.compute(p, r, spans="textee")
    assert (one["trigger_cls_predicted"], one["trigger_cls_matched"]) == (1, 1)
    assert state.new("micro_macro", spans="textee").update(p, r).compute() == one
    a = state.new("micro_macro", spans="textee").update(p[:1], r[:1])
    b = state.new("micro_macro", spans="textee").update(p[1:], r[1:])
    with pytest.raises(ValueError, match=r"merge: the window doc_id, wnd_id \('d', 0\) is also in an earlier"):
        state.merge(a, b)
    with pytest.raises(ValueError, match=r"update: the window doc_id, wnd_id \('d', 0\)"):
        a.update(p[1:], r[1:])
    assert a.compute()["trigger_cls_predicted"] == 1  # the refused update left it unchanged
    # "oneie" counts per example: the same split is a sum (2 predicted, 2 matched)
    oneie = state.merge(*(state.new("micro_macro", spans="oneie").update(p[i : i + 1], r[i : i + 1]) for i in (0, 1))).compute()
    assert oneie == micro_macro.compute(p, r, spans="oneie") and oneie["trigger_cls_predicted"] == 2


def test_spans_refusals_name_the_argument():
    with pytest.raises(ValueError, match="scheme: applies to span-level scoring"):
        state.new("micro_macro", scheme="bio")
    with pytest.raises(ValueError, match="spans: 'ace' is not one of"):
        state.new("micro_macro", spans="ace")
    with pytest.raises(ValueError, match="convention: applies to candidate or token labels, not to spans=.textee."):
        state.new("micro_macro", spans="textee", convention="maven")
    with pytest.raises(ValueError, match="scheme: 'iob' is not one of"):
        state.new("micro_macro", spans="oneie", scheme="iob")
    assert state.new("micro_macro", spans=None, scheme=None) == state.new("micro_macro")  # no spans: the label state
    s = state.new("micro_macro", spans="textee").update([[[0, 1, "A"]]], [[[0, 1, "A"]]])
    with pytest.raises(ValueError, match="update: the references hold events, but earlier ones hold triggers alone"):
        s.update([{"events": []}], [{"events": []}])
    events = state.new("micro_macro", spans="textee").update([{"events": []}], [{"events": []}])
    with pytest.raises(ValueError, match="merge: the references hold events"):
        state.merge(s, events)
    with pytest.raises(ValueError, match=r"references\[1\]: trigger 1 \[3, 3, 'A'\]: the span is empty"):  # the family's check, within the batch
        s.update([[], []], [[], [[3, 3, "A"]]])
    with pytest.raises(ValueError, match=r"merge: option"):
        state.merge(s, state.new("micro_macro", spans="oneie"))
    with pytest.raises(ValueError, match=r"merge: option"):
        state.merge(state.new("micro_macro"), s)
    data = state.new("micro_macro", spans="textee").update(*flat(windows_corpus(1, 6, False))).to_dict()
    for key, bad, message in (("windows", [["d", 0], ["d", 0]], "windows: lists a window twice"), ("windows", [["d", None]], r"windows\[0\]"), ("events", "yes", "records: .*'events': 'yes'"), ("events", 1, "records: .*'events': 1")):
        with pytest.raises(ValueError, match=message):
            state.from_dict({**data, "records": {**data["records"], key: bad}})
    with pytest.raises(ValueError, match=r"counts\[0\]"):
        state.from_dict({**data, "counts": [-1] * 18})


def test_spans_empty_state_is_compute_of_nothing():
    for spans in ("textee", "oneie"):
        assert state.new("micro_macro", spans=spans).compute() == micro_macro.compute([], [], spans=spans)


# ---------------------------------------------------------------------------------------
# faithfulness: ERASER's means as sums over a count of examples

SAMPLE = DATA / "rationale_eraser"


def probabilities(rng, shape):
    """Random probability rows (each summing to 1), some with zeros (an infinite KL), a few
    all zero (NaN entropy: scipy's scaling divides by 0), values at 0 and 1 exactly."""
    p = rng.dirichlet(np.ones(shape[-1]) * 0.5, size=shape[:-1])
    p[rng.random(shape) < 0.1] = 0.0
    p[rng.random(shape[:-1]) < 0.02] = 0.0
    one = rng.random(shape[:-1]) < 0.05
    p[one] = np.eye(shape[-1])[rng.integers(0, shape[-1], int(one.sum()))]
    return p


def faithfulness_inputs(seed, n, classes, aopc, given_predicted, k=3):
    rng = np.random.default_rng(seed)
    inputs = {name: probabilities(rng, (n, classes)) for name in ("full", "without", "alone")}
    if given_predicted:
        inputs["predicted"] = rng.integers(0, classes, n)
    if aopc:
        inputs.update({name: probabilities(rng, (n, k, classes)) for name in ("thresholded_without", "thresholded_alone")})
    return inputs


def same_means(got, expected):
    """Means of fractional terms are added in another order: equal to 1e-12; inf and NaN alike."""
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, rel=1e-12, abs=1e-15, nan_ok=True), key


def merged_faithfulness(options, inputs, pieces):
    states = []
    for a, b in pieces:
        s = state.new("faithfulness", **options).update(**{name: value[a:b] for name, value in inputs.items()})
        states.append(state.from_dict(json.loads(json.dumps(s.to_dict(), allow_nan=False))))
    return state.merge(*states)


@pytest.mark.filterwarnings("ignore:invalid value encountered")  # compute's own, on rows of zeros
@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(1, 20),
    classes=st.integers(1, 4),
    cuts=st.lists(st.integers(0, 20), max_size=4),
    order=st.integers(0, 1000),
    aopc=st.booleans(),
    given_predicted=st.booleans(),
    thresholds=st.sampled_from([(0.01, 0.05, 0.1, 0.2, 0.5), (0.5,), (0.1, 1)]),
)
def test_faithfulness_merging_shards_equals_one_pass(seed, n, classes, cuts, order, aopc, given_predicted, thresholds):
    inputs = faithfulness_inputs(seed, n, classes, aopc, given_predicted, k=len(thresholds))
    expected = faithfulness.compute(**inputs, aopc_thresholds=thresholds)
    same_means(merged_faithfulness({"aopc_thresholds": thresholds}, inputs, shards(n, cuts, order)).compute(), expected)


def test_faithfulness_results_lines_in_shards_are_erasers_figures():
    """ERASER's results JSONL in shards of lines (update_results) gives compute_results'
    numbers, which are ERASER's own (movies_sample.eraser.json, its metrics.py's output)."""
    eraser = json.loads((SAMPLE / "movies_sample.eraser.json").read_text(encoding="utf-8"))
    for system in ("a", "b"):
        lines = (SAMPLE / f"movies_sample.{system}.jsonl").read_text(encoding="utf-8").splitlines()
        parts = [state.new("faithfulness").update_results(lines[a:b]) for a, b in shards(len(lines), [1, len(lines) // 2], 3) if any(line.strip() for line in lines[a:b])]
        got = state.merge(*(state.from_dict(json.loads(json.dumps(p.to_dict(), allow_nan=False))) for p in parts)).compute()
        expected = faithfulness.compute_results(lines)
        same_means(got, {key: value for key, value in expected.items() if key != "signature"})
        for key in ("comprehensiveness", "sufficiency", "comprehensiveness_aopc", "sufficiency_aopc", "comprehensiveness_aopc_points"):
            assert got[key] == pytest.approx(eraser[system][key], rel=1e-12, abs=1e-12), key


@pytest.mark.filterwarnings("ignore:invalid value encountered")  # compute's own, on rows of zeros
def test_faithfulness_at_users_size():
    """12,000 examples of 2-5 classes (zeros, one-hot rows, all-zero rows: infinite KL and
    NaN entropy on purpose in one corpus, finite ones in another), 7 shards in shuffled
    order; and every example alone, merged, equals the batch."""
    rng = np.random.default_rng(11)
    for aopc in (True, False):
        classes = int(rng.integers(2, 6))
        inputs = faithfulness_inputs(int(rng.integers(1000)), 12_000, classes, aopc, given_predicted=not aopc, k=5)
        expected = faithfulness.compute(**inputs)
        same_means(merged_faithfulness({}, inputs, shards(12_000, rng.integers(0, 12_000, 6).tolist(), 2)).compute(), expected)
        finite = {name: np.clip(value, 0.01, 1) for name, value in inputs.items() if name != "predicted"}
        expected = faithfulness.compute(**finite)
        assert all(np.isfinite(expected[key]) for key in faithfulness.KEYS)
        same_means(merged_faithfulness({}, finite, shards(12_000, [3, 3, 5000, 11_999], 8)).compute(), expected)
    small = faithfulness_inputs(5, 300, 3, True, True, k=5)
    alone = state.merge(*(state.new("faithfulness").update(**{name: value[i : i + 1] for name, value in small.items()}) for i in range(300)))
    same_means(alone.compute(), state.new("faithfulness").update(**small).compute())


def test_faithfulness_by_hand():
    """Two examples of 2 classes (ŷ the argmax of full): comprehensiveness = mean of
    p(ŷ|full) - p(ŷ|without) = ((0.8 - 0.5) + (0.6 - 0.6)) / 2 = 0.15; sufficiency
    ((0.8 - 0.7) + (0.6 - 0.3)) / 2 = 0.2; in two shards."""
    full, without, alone = [[0.8, 0.2], [0.4, 0.6]], [[0.5, 0.5], [0.4, 0.6]], [[0.7, 0.3], [0.7, 0.3]]
    parts = [state.new("faithfulness").update(full[i : i + 1], without[i : i + 1], alone[i : i + 1]) for i in (1, 0)]
    got = state.merge(*parts).compute()
    assert (got["comprehensiveness"], got["sufficiency"]) == (pytest.approx(0.15), pytest.approx(0.2))


def test_faithfulness_refusals_name_the_argument():
    with pytest.raises(ValueError, match="keep_rows: faithfulness.compute has no bootstrap"):
        state.new("faithfulness", keep_rows=True)
    with pytest.raises(ValueError, match="per_example: not a faithfulness option"):
        state.new("faithfulness", per_example=True)
    with pytest.raises(ValueError, match="aopc_thresholds: .* are not distinct increasing"):
        state.new("faithfulness", aopc_thresholds=[0.5, 0.1])
    with pytest.raises(ValueError, match="full: no examples; the means are undefined"):
        state.new("faithfulness").compute()
    with pytest.raises(ValueError, match="confidence_level: faithfulness.compute has no bootstrap"):
        state.new("faithfulness").compute(confidence_level=0.9)
    s = state.new("faithfulness").update([[0.5, 0.5]], [[0.5, 0.5]], [[0.5, 0.5]])
    assert s.update([], [], []) == state.new("faithfulness").update([[0.5, 0.5]], [[0.5, 0.5]], [[0.5, 0.5]])  # an empty batch adds nothing
    with pytest.raises(ValueError, match="without: 1 examples, but full has none"):
        s.update([], [[0.5, 0.5]], [])
    with pytest.raises(ValueError, match="update: 3 classes, but earlier examples have 2"):
        s.update([[0.2, 0.3, 0.5]], [[0.2, 0.3, 0.5]], [[0.2, 0.3, 0.5]])
    with pytest.raises(ValueError, match="update: these examples have thresholded scores, but earlier ones have no"):
        s.update([[0.5, 0.5]], [[0.5, 0.5]], [[0.5, 0.5]], thresholded_without=[[[0.5, 0.5]] * 5], thresholded_alone=[[[0.5, 0.5]] * 5])
    with pytest.raises(ValueError, match=r"alone\[0\]: 1.5 is not a probability"):  # the family's own check
        s.update([[0.5, 0.5]], [[0.5, 0.5]], [[1.5, 0.5]])
    with pytest.raises(ValueError, match="merge: 3 classes"):
        state.merge(s, state.new("faithfulness").update([[0.2, 0.3, 0.5]], [[0.2, 0.3, 0.5]], [[0.2, 0.3, 0.5]]))
    with pytest.raises(ValueError, match="merge: option aopc_thresholds"):
        state.merge(s, state.new("faithfulness", aopc_thresholds=[0.5]))
    lines = (SAMPLE / "movies_sample.a.jsonl").read_text(encoding="utf-8").splitlines()
    relabelled = [line.replace('"POS"', '"GOOD"').replace('"NEG"', '"BAD"') for line in lines]
    one = state.new("faithfulness").update_results(lines[:2])
    with pytest.raises(ValueError, match=r"update: the classes are \['BAD', 'GOOD'\], but earlier lines' are \['NEG', 'POS'\]"):
        one.update_results(relabelled[2:4])
    data = one.to_dict()
    for key, bad, message in (("examples", -1, r"examples\[0\]"), ("sums", [0.0], "sums: 1 numbers, expected 6"), ("sums", ["x"] * 6, r"sums\[0\]"), ("aopc", 1, "aopc: 1"), ("classes", None, "examples: 2, but classes is None")):
        with pytest.raises(ValueError, match=message):
            state.from_dict({**data, key: bad})


@pytest.mark.filterwarnings("ignore:invalid value encountered")  # compute's own, on rows of zeros
def test_faithfulness_infinite_kl_round_trips_through_strict_json():
    """KL(without || full) with full = (1, 0), without = (.5, .5): .5 log(.5 / 0) = inf; a
    full of zeros scaled by its zero sum: NaN in KL(alone || full). Strict JSON has
    neither: the state writes them as text."""
    full, without, alone = [[1.0, 0.0], [0.0, 0.0]], [[0.5, 0.5], [0.0, 0.0]], [[1.0, 0.0], [0.5, 0.5]]
    expected = faithfulness.compute(full, without, alone)
    assert np.isinf(expected["comprehensiveness_kl"]) and np.isnan(expected["sufficiency_kl"])
    back = state.from_dict(json.loads(json.dumps(state.new("faithfulness").update(full, without, alone).to_dict(), allow_nan=False)))
    same_means(back.compute(), expected)
