"""Paired significance: paired bootstrap and approximate randomization for every family."""

import json
import random

import numpy as np
import pytest
from conftest import DATA

from paperscore import cli, compare, micro_macro
from paperscore.compare import METHODS, paired_test

# ---------------------------------------------------------------------------------------
# Each family: references, a weak system A, and a clearly better system B.


def classification(n=400, seed=0):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 5, n)
    weak = np.where(rng.random(n) < 0.45, gold, rng.integers(0, 5, n))
    strong = np.where(rng.random(n) < 0.9, gold, rng.integers(0, 5, n))
    return "micro_macro", gold.tolist(), weak.tolist(), strong.tolist(), {"negative_labels": [0]}


def quads():
    gold = [f"t{i} | good | food#quality | pos & s{i} | slow | service#general | neg" for i in range(60)]
    weak = [f"t{i} | good | food#quality | neg" for i in range(60)]  # one quad, wrong polarity
    return "quad", gold, weak, list(gold), {}


def rationales(n=80, seed=1):
    rng = np.random.default_rng(seed)
    gold = (rng.random((n, 30)) < 0.3).astype(int)
    weak = np.clip(gold * 0.3 + rng.random((n, 30)) * 0.7, 0, 1)
    strong = np.clip(gold * 0.8 + rng.random((n, 30)) * 0.2, 0, 1)
    return "rationale", gold.tolist(), weak.tolist(), strong.tolist(), {}


def coreference():
    # Per document: 4 entities of 3 mentions; A merges everything, B is perfect.
    gold = [[[[10 * e + k, 10 * e + k] for k in range(3)] for e in range(4)] for _ in range(40)]
    weak = [[[m for cluster in doc for m in cluster]] for doc in gold]
    return "coref", gold, weak, [list(doc) for doc in gold], {}


def spelling(n=300):
    """SIGHAN15 test sentences: A changes nothing, B makes every gold correction."""
    from paperscore import csc
    from paperscore.core import read_lines

    pids, sources = csc.parse_test_input(read_lines(DATA / "sighan15" / "SIGHAN15_CSC_TestInput.txt", "input"), "input")
    truth_pids, gold = csc.parse_label_lines(read_lines(DATA / "sighan15" / "SIGHAN15_CSC_TestTruth.txt", "truth"), "truth")
    assert truth_pids == pids
    references = csc.apply_edits(sources, gold)[:n]
    return "csc_sighan", references, sources[:n], list(references), {"sources": sources[:n]}


def spelling_as_papers_count():
    """The same systems under ReaLiSe's convention (csc_common's default)."""
    return ("csc_common",) + spelling()[1:]


def event_windows(rule, n=60):
    """TextEE E2E windows: A gives every second trigger the wrong type and drops the
    arguments of every third event; B is the gold."""
    gold = [{"doc_id": f"d{i // 3}", "wnd_id": i % 3, "events": [{"trigger": [i % 7, i % 7 + 1, f"T{i % 4}"], "arguments": [[9, 10, "R"], [11, 13, f"S{i % 2}"]]}]} for i in range(n)]
    weak = [
        {**g, "events": [{"trigger": [*e["trigger"][:2], e["trigger"][2] if i % 2 else "Other"], "arguments": [] if i % 3 == 0 else e["arguments"]} for e in g["events"]]}
        for i, g in enumerate(gold)
    ]
    return "micro_macro", gold, weak, [dict(g) for g in gold], {"spans": rule}


def event_spans_textee():
    return event_windows("textee")


def event_spans_oneie():
    return event_windows("oneie")


def corefud_documents(n=40):
    """CorefUD CoNLL-U: the random key/response pairs of test_corefud (shifted spans, moved
    heads, split and merged entities, zeros), one file pair each; A the responses, B the keys."""
    import corefud_cases

    pairs = [corefud_cases.case(number) for number in range(4 * n)]
    pairs = [pair for pair in pairs if pair[0].count("# newdoc") == 1][:n]  # one document, one example each
    assert len(pairs) == n
    keys = [key for key, _ in pairs]
    return "coref", keys, [response for _, response in pairs], list(keys), {"matching": "head", "zero_matching": "linear"}


FAMILIES = [classification, quads, rationales, coreference, spelling, spelling_as_papers_count, event_spans_textee, event_spans_oneie, corefud_documents]


@pytest.fixture(params=FAMILIES, ids=lambda f: f.__name__)
def family(request):
    return request.param()


@pytest.mark.parametrize("method", METHODS)
def test_identical_systems_give_p_one_and_no_difference(family, method):
    metric, references, weak, _, options = family
    with pytest.warns(UserWarning, match=rf"^the two systems' outputs score the same on all {len(references)} examples: there is nothing to test \(p = 1\)$"):
        result = compare.compare(metric, references, weak, weak, method=method, n_resamples=300, seed=0, **options)
    assert result["score_a"] == result["score_b"]
    assert result["difference"] == result["difference_low"] == result["difference_high"] == 0.0
    assert result["p_value"] == 1.0


@pytest.mark.parametrize("method", METHODS)
def test_a_clearly_better_system_gives_a_small_p(family, method):
    metric, references, weak, strong, options = family
    result = compare.compare(metric, references, weak, strong, method=method, n_resamples=300, seed=0, **options)
    assert result["difference"] > 0.1
    assert 0 < result["difference_low"] <= result["difference"] <= result["difference_high"]
    assert 0 <= result["score_a"] < result["score_b"] <= 1
    assert result["p_value"] == pytest.approx(1 / 301)  # no resample as extreme: (0 + 1) / (300 + 1)
    swapped = compare.compare(metric, references, strong, weak, method=method, n_resamples=300, seed=0, **options)
    assert swapped["difference"] == -result["difference"] and swapped["p_value"] == result["p_value"]


def test_a_metric_goes_by_its_space_module_or_command_name():
    gold = [[["a", "b"], ["c"]]]
    with pytest.warns(UserWarning, match="differ on 1 of the 1 examples"):  # one document
        names = [compare.compare(name, gold, [[["a"], ["b"], ["c"]]], gold, n_resamples=20, seed=0) for name in ("coref_conll", "coref")]
    assert names[0] == names[1] and names[0]["signature"].startswith("compare|coref_conll|metric_key:conll_f1|")


def test_scores_are_the_familys_own(family):
    import importlib

    metric, references, weak, strong, options = family
    result = compare.compare(metric, references, weak, strong, n_resamples=50, seed=0, **options)
    module = importlib.import_module(f"paperscore.{metric}")
    key = module.headline(**options)
    assert result["score_a"] == pytest.approx(module.compute(weak, references, **options)[key], abs=1e-12)
    assert result["score_b"] == pytest.approx(module.compute(strong, references, **options)[key], abs=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_results_are_deterministic_for_a_seed(method):
    metric, references, weak, strong, options = classification(n=300, seed=4)
    # close systems, so that the p-value is not at its floor
    strong = weak[:150] + strong[150:160] + weak[160:]
    runs = [compare.compare(metric, references, weak, strong, method=method, n_resamples=400, seed=seed, **options) for seed in (7, 7, 8)]
    assert runs[0] == runs[1]
    assert runs[0]["p_value"] != runs[2]["p_value"]
    assert 0.01 < runs[0]["p_value"] < 1


def _naive(references, system_a, system_b, options, n_resamples, seed, key="micro_f1"):
    """The same two tests the slow way: re-run micro_macro.compute on every resample and
    every shuffle. Examples are taken in the order paired_test holds them (grouped by
    their pair of statistic rows; examples in a group are interchangeable), so that the
    same random draws select the same examples."""
    table_a, codes_a, table_b, codes_b, _ = compare.paired_statistics("micro_macro", references, system_a, system_b, **options)
    order = np.argsort(codes_a * table_b.shape[0] + codes_b, kind="stable")
    groups = np.split(order, np.flatnonzero(np.diff((codes_a * table_b.shape[0] + codes_b)[order])) + 1)
    counts = np.array([len(g) for g in groups])
    n = len(references)
    ref, a, b = (np.asarray(x)[order] for x in (references, system_a, system_b))

    def score(pred, gold):
        return micro_macro.compute(pred.tolist(), gold.tolist(), **options)[key]

    observed = score(b, ref) - score(a, ref)
    rng = np.random.default_rng(seed)
    assert len(counts) * 4 > n  # the index-drawing path of core.resample_weights
    drawn = rng.integers(0, n, size=(n_resamples, n))
    deltas = np.array([score(b[i], ref[i]) - score(a[i], ref[i]) for i in drawn])
    # Randomization: a group whose two systems agree is the same after a swap; the others
    # swap a binomial number of their examples.
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    differ = np.array([a[start] != b[start] for start in starts])
    swaps = rng.binomial(counts[differ], 0.5, size=(n_resamples, differ.sum()))
    shuffled = []
    for row in swaps:
        a2, b2 = a.copy(), b.copy()
        for start, count, k in zip(starts[differ], counts[differ], row):  # swap the first k examples of the group
            a2[start : start + k], b2[start : start + k] = b[start : start + k], a[start : start + k]
        shuffled.append(score(b2, ref) - score(a2, ref))
    return observed, deltas, np.array(shuffled)


def test_both_tests_equal_a_straightforward_slow_implementation():
    rng = np.random.default_rng(7)
    references = rng.integers(0, 6, 40).tolist()
    system_a = [r if rng.random() < 0.4 else p for r, p in zip(references, rng.integers(0, 6, 40).tolist())]
    # B revises some of A's labels: 15% to the reference, 15% to a random label
    revised = zip(references, system_a, rng.random(40), rng.integers(0, 6, 40).tolist())
    system_b = [r if u < 0.15 else (x if u < 0.3 else p) for r, p, u, x in revised]
    options = {"negative_labels": [0]}
    observed, deltas, shuffled = _naive(references, system_a, system_b, options, 200, seed=5)
    tail = np.abs(deltas - deltas.mean())
    for method, null in (("bootstrap", tail), ("randomization", np.abs(shuffled))):
        result = compare.compare("micro_macro", references, system_a, system_b, method=method, n_resamples=200, seed=5, **options)
        assert result["difference"] == pytest.approx(observed, abs=1e-12)
        low, high = np.quantile(deltas, [0.025, 0.975])
        assert (result["difference_low"], result["difference_high"]) == pytest.approx((low, high), abs=1e-12)
        expected_p = (np.sum(null >= abs(observed) - 1e-12) + 1) / 201
        assert 0.02 < expected_p < 0.98, (method, expected_p)  # away from both ends, so that it tells
        assert result["p_value"] == pytest.approx(expected_p, abs=1e-12), method


def test_token_classification_compares_whole_sentences():
    """Two sentences of 50 tokens; B is right on the first, A on neither. Resampling
    sentences, B's lead of 1/2 in accuracy is all or nothing: each resample holds the first
    sentence twice (difference 1), once (1/2) or not at all (0)."""
    references = [[1] * 50, [2] * 50]
    system_a, system_b = [[0] * 50, [0] * 50], [[1] * 50, [0] * 50]
    table_a, codes_a, table_b, codes_b, _ = compare.paired_statistics("micro_macro", references, system_a, system_b)
    assert table_a.shape[0] == table_b.shape[0] == 2 and list(codes_a) == list(codes_b) == [0, 1]
    with pytest.warns(UserWarning, match="differ on 1 of the 2 examples"):
        result = compare.compare("micro_macro", references, system_a, system_b, metric_key="accuracy", n_resamples=400, seed=0)
    assert result["difference"] == 0.5
    assert (result["difference_low"], result["difference_high"]) == (0.0, 1.0)


def test_paired_test_on_hand_made_statistics():
    """Three examples, counts (tp, total): A gets 0/1 right each, B 1/1 on the last two.
    Accuracy A = 1/3, B = 2/3; with no resampling noise left in the swaps of the first
    example (A and B agree there), randomization swaps the other two."""
    table = np.array([[0.0, 1.0], [1.0, 1.0]])
    codes_a, codes_b = np.array([1, 0, 0]), np.array([1, 1, 1])

    def reduce(weights, rows):
        sums = weights @ rows
        return {"accuracy": sums[:, 0] / sums[:, 1]}

    with pytest.warns(UserWarning, match="differ on 2 of the 3 examples"):
        result = paired_test(table, codes_a, table, codes_b, reduce, "accuracy", "randomization", n_resamples=2000, seed=0)
    assert (result["score_a"], result["score_b"]) == pytest.approx((1 / 3, 1))
    # Under the null, the two disagreeing examples swap independently: the shuffled
    # difference is 2/3 (neither swapped) or -2/3 (both) with probability 1/4 each, else 0;
    # so the p-value is about 1/2.
    assert result["p_value"] == pytest.approx(0.5, abs=0.04)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: compare.compare("bleu", [1], [1], [1]), "metric: 'bleu' is not one of coref_conll, csc_common, csc_sighan, faithfulness, micro_macro, quad_match, rationale_f1"),
        (lambda: compare.compare("micro_macro", [1, 0], [1, 0], [1, 0], method="sign"), "method: 'sign' is not one of"),
        (lambda: compare.compare("micro_macro", [1, 0], [1, 0], [1, 0], metric_key="bleu"), "metric_key: 'bleu' is not one of"),
        (lambda: compare.compare("micro_macro", [1, 0], [1, 0], [1]), "differ in length"),
        (lambda: compare.compare("micro_macro", [1, 0], [1, 0], [1, 0], n_resamples=0), "n_resamples"),
    ],
)
def test_bad_arguments_are_value_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_event_spans_by_hand():
    """Four windows, one gold trigger [0, 1, "Attack"] each; A finds every span with the
    wrong type, B gets each right. Trigger classification F1: A 0/4 -> 0, B 4/4 -> 1.
    Randomization: each window swaps A's and B's rows with probability 1/2; with k of the 4
    swapped, B scores (4 - k) / 4 and A k / 4, a difference (4 - 2k) / 4, as far from 0
    as the observed 1 only for k = 0 or 4: p = 2 / 16. Identification F1 is 1 for both:
    the difference is 0 and every shuffle ties it, p = 1."""
    gold = [{"doc_id": "d", "wnd_id": w, "triggers": [[0, 1, "Attack"]]} for w in range(4)]
    weak = [{"doc_id": "d", "wnd_id": w, "triggers": [[0, 1, "Die"]]} for w in range(4)]
    with pytest.warns(UserWarning, match="differ on 4 of the 4 examples"):
        result = compare.compare("micro_macro", gold, weak, gold, method="randomization", n_resamples=4000, seed=0, spans="textee")
    assert (result["metric_key"], result["score_a"], result["score_b"]) == ("trigger_cls_f1", 0.0, 1.0)
    assert result["p_value"] == pytest.approx(2 / 16, abs=0.015)
    with pytest.warns(UserWarning, match="differ on 4 of the 4 examples"):  # the rows differ in the classification counts
        same = compare.compare("micro_macro", gold, weak, gold, metric_key="trigger_id_f1", method="randomization", n_resamples=200, seed=0, spans="textee")
    assert (same["score_a"], same["score_b"], same["p_value"]) == (1.0, 1.0, 1.0)
    # TextEE: examples with the same (doc_id, wnd_id) are one window, resampled together:
    # the 4 examples in 2 windows are 2 units.
    paired = [{**g, "wnd_id": g["wnd_id"] // 2} for g in gold]
    with pytest.warns(UserWarning, match="differ on 2 of the 2 examples"):
        compare.compare("micro_macro", paired, [{**w, "wnd_id": w["wnd_id"] // 2} for w in weak], paired, method="randomization", n_resamples=50, seed=0, spans="textee")


@pytest.mark.parametrize(
    "options, message",
    [
        ({"spans": "ace"}, "spans: 'ace' is not one of"),
        ({"scheme": "bio"}, "scheme: applies to span-level scoring"),
        ({"spans": "textee", "convention": "maven"}, "convention: applies to candidate or token labels, not to spans='textee'"),
        ({"spans": "textee", "scheme": "iob"}, "scheme: 'iob' is not one of"),
        ({"spans": "oneie", "metric_key": "argument_attached_id_f1"}, "metric_key: 'argument_attached_id_f1' is not one of"),
    ],
)
def test_event_spans_bad_options_are_value_errors(options, message):
    gold = [{"events": [{"trigger": [0, 1, "Attack"], "arguments": [[2, 3, "Target"]]}]}]
    with pytest.raises(ValueError, match=message):
        compare.compare("micro_macro", gold, gold, gold, n_resamples=20, seed=0, **options)


@pytest.mark.parametrize("matching", ["exact", "partial", "head"])
def test_corefud_matching_by_hand(matching):
    """test_corefud's KEY: entity {"the big dog" (head dog), "it"}; its RESPONSE marks
    "big dog" (head dog) instead. Four documents, A the RESPONSE, B the KEY. exact: A's
    "big dog" matches nothing, so MUC R = P = 0 in each document (B: 1): MUC F1 0 against 1,
    and with k of the 4 documents swapped the difference is (4 - 2k) / 4 (MUC sums one
    link a document), as far as the observed 1 only for k = 0 or 4: p = 2 / 16.
    partial and head: "big dog" lies inside "the big dog" and holds its head, so A's
    documents count as the key's: identical MUC rows, p = 1 (MOR, in the default metrics,
    would still see "big dog" against "the big dog", whatever the matching)."""
    from test_corefud import KEY, RESPONSE

    with pytest.warns(UserWarning, match="differ on 4 of the 4 examples" if matching == "exact" else "score the same on all 4 examples"):
        result = compare.compare("coref", [KEY] * 4, [RESPONSE] * 4, [KEY] * 4, metrics=["muc"], metric_key="muc_f1", method="randomization", n_resamples=4000, seed=0, matching=matching)
    if matching == "exact":
        assert (result["score_a"], result["score_b"]) == (0.0, 1.0)
        assert result["p_value"] == pytest.approx(2 / 16, abs=0.015)
    else:
        assert (result["score_a"], result["score_b"], result["p_value"]) == (1.0, 1.0, 1.0)
    assert f"|matching:{matching}|" in result["signature"]


@pytest.mark.parametrize(
    "options, message",
    [
        ({"matching": "loose"}, "matching: 'loose' is not one of"),
        ({"matching": "head", "convention": "e2e_coref"}, "convention: 'e2e_coref' does not apply to CoNLL-U input"),
        ({"zero_matching": "nearest"}, "zero_matching: 'nearest' is not one of"),
        ({"metrics": ["muc"], "metric_key": "conll_f1"}, "metric_key: 'conll_f1' is not one of muc_recall"),
    ],
)
def test_corefud_bad_options_are_value_errors(options, message):
    from test_corefud import KEY, RESPONSE

    with pytest.raises(ValueError, match=message):
        compare.compare("coref", [KEY] * 2, [RESPONSE] * 2, [KEY] * 2, n_resamples=20, seed=0, **options)
    with pytest.raises(ValueError, match="CoNLL-U texts \\(CorefUD\\) mixed with other documents"):
        compare.compare("coref", [KEY], [RESPONSE], [[["a"], ["b"]]], n_resamples=20, seed=0)
    with pytest.raises(ValueError, match="matching='head' needs CoNLL-U texts"):
        compare.compare("coref", [[["a", "b"]]], [[["a"], ["b"]]], [[["a", "b"]]], n_resamples=20, seed=0, matching="head")


# ---------------------------------------------------------------------------------------
# Command line


def test_cli_compare_coref_conllu_equals_the_api(tmp_path, capsys):
    """--format conllu --matching: one CoNLL-U file a side (its documents the examples)."""
    _, keys, responses, _, _ = corefud_documents(20)
    for name, texts in (("r", keys), ("a", responses), ("b", keys)):
        (tmp_path / f"{name}.conllu").write_text("".join(texts))
    argv = ["compare", "coref", "--references", str(tmp_path / "r.conllu"), "--system-a", str(tmp_path / "a.conllu"), "--system-b", str(tmp_path / "b.conllu"), "--format", "conllu", "--seed", "1", "--n-resamples", "100", "--json"]
    assert cli.main(argv + ["--matching", "partial", "--zero-matching", "linear", "--remove-singletons"]) == 0
    printed = json.loads(capsys.readouterr().out)
    options = dict(matching="partial", zero_matching="linear", keep_singletons=False, metrics=("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mor", "zero"), convention="scorer_pl")
    assert printed == compare.compare("coref", "".join(keys), "".join(responses), "".join(keys), n_resamples=100, seed=1, **options)
    # system A's figure is the corefud scorer's on the same file
    from paperscore import corefud

    assert printed["score_a"] == pytest.approx(corefud.compute("".join(responses), "".join(keys), matching="partial", zero_matching="linear")["conll_f1"], abs=1e-12)
    assert "|format" not in printed["signature"] and "|matching:partial|" in printed["signature"]
    assert cli.main(argv[:-1] + ["--metric-key", "lea_f1", "--matching", "head"]) == 0
    assert "signature: compare|coref_conll|metric_key:lea_f1" in capsys.readouterr().out
    assert cli.main(argv[:8] + ["--matching", "head", "--seed", "1"]) == 1
    assert "--matching head needs --format conllu" in capsys.readouterr().err
    assert cli.main(argv + ["--convention", "maverick"]) == 1
    assert "convention: 'maverick' does not apply to CoNLL-U input" in capsys.readouterr().err


def test_cli_compare_micro_macro_spans_equals_the_api(tmp_path, capsys):
    """--spans: JSON records a line; --scheme bio: a JSON list of tags a line."""
    _, gold, weak, strong, _ = event_windows("oneie", n=30)
    for name, records in (("r", gold), ("a", weak), ("b", strong)):
        (tmp_path / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    argv = ["compare", "micro_macro", "--references", str(tmp_path / "r.jsonl"), "--system-a", str(tmp_path / "a.jsonl"), "--system-b", str(tmp_path / "b.jsonl"), "--seed", "2", "--n-resamples", "100", "--json"]
    assert cli.main(argv + ["--spans", "oneie", "--metric-key", "argument_cls_f1"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == compare.compare("micro_macro", gold, weak, strong, metric_key="argument_cls_f1", n_resamples=100, seed=2, spans="oneie", scheme=None)
    assert printed["score_a"] == pytest.approx(micro_macro.compute(weak, gold, spans="oneie")["argument_cls_f1"], abs=1e-12)
    assert "|spans:oneie" in printed["signature"]
    tags = [["B-Attack", "I-Attack", "O"], ["O", "B-Die", "O"], ["B-Die", "O", "B-Attack"]] * 5
    wrong = [["B-Attack", "O", "O"], ["O", "B-Attack", "O"], ["B-Die", "O", "O"]] * 5
    for name, records in (("r", tags), ("a", wrong), ("b", tags)):
        (tmp_path / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    assert cli.main(argv + ["--spans", "textee", "--scheme", "bio"]) == 0
    printed = json.loads(capsys.readouterr().out)
    # A: triggers [0,1,Attack] (gold [0,2,Attack]: wrong span), [1,2,Attack] (gold Die), [0,1,Die] right,
    # and misses [2,3,Attack]: 1 of 3 predicted, 1 of 4 gold per three sentences -> F1 2/7.
    assert (printed["metric_key"], printed["score_a"], printed["score_b"]) == ("trigger_cls_f1", pytest.approx(2 / 7), 1.0)
    assert cli.main(argv + ["--scheme", "bio"]) == 1
    assert "--scheme: applies with --spans only" in capsys.readouterr().err
    assert cli.main(argv + ["--spans", "textee", "--labels", "a,b"]) == 1
    assert "labels: applies to candidate or token labels" in capsys.readouterr().err


def test_cli_compare_micro_macro_json_equals_the_api(tmp_path, capsys):
    _, references, weak, strong, _ = classification(n=200)
    for name, values in (("r", references), ("a", weak), ("b", strong)):
        (tmp_path / f"{name}.txt").write_text("\n".join(map(str, values)) + "\n")
    argv = ["compare", "micro_macro", "--references", str(tmp_path / "r.txt"), "--system-a", str(tmp_path / "a.txt"), "--system-b", str(tmp_path / "b.txt")]
    assert cli.main(argv + ["--convention", "maven", "--method", "randomization", "--seed", "3", "--n-resamples", "200", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = compare.compare("micro_macro", references, weak, strong, method="randomization", n_resamples=200, seed=3, convention="maven", labels=None, negative_labels=None, ignore_index=-100)
    assert printed == expected
    assert printed["signature"].startswith("compare|micro_macro|metric_key:micro_f1|method:randomization|n_resamples:200")
    assert cli.main(argv + ["--metric-key", "macro_f1", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "p_value" in out and "signature: compare|micro_macro|metric_key:macro_f1" in out


def test_cli_compare_coref_reads_conll_files_as_the_scorer_does(tmp_path, capsys):
    """The key against itself and against a response that lost its last document's
    coreference (documents matched by name; a missing response document is empty)."""
    key = (DATA / "coref_conll" / "158_emma_brat.conll").read_text()
    (tmp_path / "key.conll").write_text(key)
    assert cli.main(["compare", "coref", "--references", str(tmp_path / "key.conll"), "--system-a", str(tmp_path / "key.conll"), "--system-b", str(tmp_path / "key.conll"), "--json", "--n-resamples", "50"]) == 0
    same = json.loads(capsys.readouterr().out)
    assert (same["score_a"], same["score_b"], same["p_value"]) == (1.0, 1.0, 1.0)
    (tmp_path / "empty.conll").write_text("#begin document (other); part 0\nx\t-\n#end document\n")
    assert cli.main(["compare", "coref", "--references", str(tmp_path / "key.conll"), "--system-a", str(tmp_path / "empty.conll"), "--system-b", str(tmp_path / "key.conll"), "--json", "--n-resamples", "50", "--seed", "1"]) == 0
    worse = json.loads(capsys.readouterr().out)
    assert worse["score_a"] == 0.0 and worse["score_b"] == 1.0 and worse["difference"] == 1.0


def test_cli_compare_coref_reads_jsonlines_and_lists_unmatched_documents(tmp_path, capsys):
    """LitBank's Emma as CoNLL key, system A the same document as jsonlines (doc_key
    "158_emma_brat_0", the e2e-coref name of "(158_emma_brat); part 0") plus a document not
    in the key, system B a CoNLL file without it: A scores 1, B 0 (the missing document is
    empty, as scorer.pl scores it), and both are listed; --strict refuses them."""
    from test_coref_conll import conll_to_jsonlines

    key = (DATA / "coref_conll" / "158_emma_brat.conll").read_text()
    (tmp_path / "key.conll").write_text(key)
    (tmp_path / "a.jsonl").write_text(conll_to_jsonlines(key) + '{"doc_key": "other_0", "sentences": [["x"]], "clusters": []}\n')
    (tmp_path / "b.conll").write_text("#begin document (other); part 0\nx\t-\n#end document\n")
    argv = ["compare", "coref", "--references", str(tmp_path / "key.conll"), "--system-a", str(tmp_path / "a.jsonl"), "--system-b", str(tmp_path / "b.conll"), "--n-resamples", "50", "--seed", "1"]
    assert cli.main(argv + ["--json"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert (result["score_a"], result["score_b"]) == (1.0, 0.0)
    assert result["missing_documents"] == {"system_a": [], "system_b": ["(158_emma_brat); part 0"]}
    assert result["extra_documents"] == {"system_a": ["other_0"], "system_b": ["(other); part 0"]}
    assert "--system-b: lacks 1 key document(s)" in captured.err and "--system-a: holds 1 document(s) not in the key" in captured.err
    assert cli.main(argv + ["--strict"]) == 1
    assert "(--strict)" in capsys.readouterr().err
    (tmp_path / "empty").write_text("no documents here\n")
    assert cli.main(argv[:5] + [str(tmp_path / "empty")] + argv[6:]) == 1
    assert f"--system-a: {tmp_path / 'empty'} holds no document" in capsys.readouterr().err


def test_cli_compare_reports_bad_files(tmp_path, capsys):
    (tmp_path / "r.txt").write_text("1\n0\n")
    (tmp_path / "a.txt").write_text("1\n\n0\n")
    code = cli.main(["compare", "micro_macro", "--references", str(tmp_path / "r.txt"), "--system-a", str(tmp_path / "a.txt"), "--system-b", str(tmp_path / "r.txt")])
    assert code == 1 and "--system-a: " in capsys.readouterr().err


# ---------------------------------------------------------------------------------------
# Few examples (issue 28). Derivation (compare's docstring): with d examples on which the
# systems differ, the 2^d swap patterns are equally likely under the null, and the observed
# pattern and its mirror are always at least as extreme, so the exact randomization
# p-value is at least 2 / 2^d; when every example favours B by the same margin it is
# exactly that. Below: 2^(1-d) > 0.05 for d <= 5, so nothing can be significant, and a
# bootstrap p-value under 2^(1-d) claims more than the examples hold.


def all_for_b(d):
    """d labels: B right and A wrong on each (every example favours B by the same margin)."""
    return list(range(d)), [x + 1 for x in range(d)], list(range(d))


def exact_randomization_p(references, system_a, system_b):
    """Every one of the 2^d swap patterns, enumerated (accuracy, by hand)."""
    import itertools

    def accuracy(system):
        return np.mean([s == r for s, r in zip(system, references)])

    observed = accuracy(system_b) - accuracy(system_a)
    extreme = 0
    patterns = list(itertools.product([False, True], repeat=len(references)))
    for swap in patterns:
        a = [b if s else a for a, b, s in zip(system_a, system_b, swap)]
        b = [a if s else b for a, b, s in zip(system_a, system_b, swap)]
        extreme += abs(accuracy(b) - accuracy(a)) >= abs(observed) - 1e-12
    return extreme / len(patterns)


def compared(references, system_a, system_b, **options):
    """(result, warning messages) of compare on micro_macro's accuracy."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = compare.compare("micro_macro", references, system_a, system_b, metric_key="accuracy", seed=0, **options)
    return result, [str(w.message) for w in caught]


@pytest.mark.parametrize("d", [5, 6])
def test_randomization_p_is_the_exact_floor_when_every_example_favours_b(d):
    exact = exact_randomization_p(*all_for_b(d))
    assert exact == 2 / 2**d  # the derivation's floor, reached
    result, warned = compared(*all_for_b(d), method="randomization", n_resamples=4000)
    assert result["p_value"] == pytest.approx(exact, abs=0.015)
    if d == 5:  # 1/16 > 0.05: no test can be significant
        assert warned == [f"the two systems differ on 5 of the 5 examples: no test can give a p-value below 0.0625 = 2^(1-5) from them, so none can reach 0.05"]
    else:  # 1/32 <= 0.05
        assert warned == []


def test_one_example_bootstrap_p_is_one_draw_and_is_flagged():
    """One example: every bootstrap resample is that example, so the shifted differences are
    all 0 and p = 1 / (resamples + 1); randomization's two patterns are both extreme: p = 1."""
    references, system_a, system_b = all_for_b(1)
    bootstrap, warned = compared(references, system_a, system_b, n_resamples=999)
    assert bootstrap["p_value"] == 1 / 1000
    assert len(warned) == 1 and "differ on 1 of the 1 examples" in warned[0] and 'p = 0.001 is below that floor (1) and means nothing here: use method="randomization"' in warned[0]
    randomization, warned = compared(references, system_a, system_b, method="randomization")
    assert randomization["p_value"] == 1.0 and len(warned) == 1 and "bootstrap" not in warned[0]


def test_the_issues_two_labels():
    """compare("micro_macro", [1, 2], [1, 2], [2, 1]): A right twice, B wrong twice. Of the
    4 swap patterns, 2 give |difference| 1 (none or both swapped), 2 give 0: p = 1/2."""
    assert exact_randomization_p([1, 2], [1, 2], [2, 1]) == 0.5
    randomization, warned = compared([1, 2], [1, 2], [2, 1], method="randomization", n_resamples=4000)
    assert randomization["p_value"] == pytest.approx(0.5, abs=0.03) and "below 0.5 = 2^(1-2)" in warned[0]
    bootstrap, warned = compared([1, 2], [1, 2], [2, 1])
    assert bootstrap["p_value"] < 0.01 and "the bootstrap's p" in warned[0]


@pytest.mark.parametrize("d, flagged", [(10, True), (12, False)])
def test_a_bootstrap_p_below_the_floor_is_flagged_at_any_size(d, flagged):
    """All d examples favour B equally: the bootstrap's differences never move, p = 1/1001,
    under the floor 2^(1-10) = 0.00195 but not under 2^(1-12) = 0.000488."""
    result, warned = compared(*all_for_b(d))
    assert result["p_value"] == 1 / 1001
    assert warned == ([f"the two systems differ on {d} of the {d} examples: the bootstrap's p = 0.000999 is below that floor ({2 ** (1 - d):.3g}) and means nothing here: use method=\"randomization\""] if flagged else [])


def test_examples_where_the_systems_agree_carry_no_evidence():
    """20 examples, 18 on which A and B give the same label: d = 2."""
    references, system_a, system_b = all_for_b(2)
    same = list(range(10, 28))
    _, warned = compared(references + same, system_a + same, system_b + same, method="randomization")
    assert warned and warned[0].startswith("the two systems differ on 2 of the 20 examples")


def test_cli_compare_prints_the_few_examples_warning(tmp_path, capsys):
    for name, values in zip("rab", ([1, 2], [1, 2], [2, 1])):
        (tmp_path / f"{name}.txt").write_text("\n".join(map(str, values)) + "\n")
    argv = ["compare", "micro_macro", "--references", str(tmp_path / "r.txt"), "--system-a", str(tmp_path / "a.txt"), "--system-b", str(tmp_path / "b.txt"), "--seed", "0"]
    assert cli.main(argv) == 0
    err = capsys.readouterr().err
    assert err.startswith("paperscore compare: warning: the two systems differ on 2 of the 2 examples: ") and err.count("\n") == 1


# ---------------------------------------------------------------------------------------
# ERASER faithfulness (paperscore.faithfulness): two systems' results on the same examples


def eraser_results(n=300, seed=0, aopc=False):
    """read_eraser_results' dict of random probabilities over 3 classes."""
    rng = np.random.default_rng(seed)
    out = {"annotation_ids": [f"e{i}" for i in range(n)], "full": rng.dirichlet([1, 1, 1], n), "without": rng.dirichlet([1, 1, 1], n), "alone": rng.dirichlet([1, 1, 1], n), "predicted": rng.integers(0, 3, n)}
    if aopc:
        out.update(thresholded_without=rng.dirichlet([1, 1, 1], (n, 5)), thresholded_alone=rng.dirichlet([1, 1, 1], (n, 5)))
    return out


@pytest.mark.parametrize("key", ["comprehensiveness", "sufficiency", "comprehensiveness_aopc", "sufficiency_entropy"])
def test_faithfulness_scores_are_computes(key):
    from paperscore import faithfulness

    a, b = eraser_results(seed=0, aopc=True), eraser_results(seed=1, aopc=True)
    b["annotation_ids"] = a["annotation_ids"]
    result = faithfulness.compare_results(a, b, metric_key=key, n_resamples=200, seed=0)
    inputs = lambda r: {k: v for k, v in r.items() if k != "annotation_ids"}  # noqa: E731
    assert result["score_a"] == pytest.approx(faithfulness.compute(**inputs(a))[key], abs=1e-12)
    assert result["score_b"] == pytest.approx(faithfulness.compute(**inputs(b))[key], abs=1e-12)
    with pytest.warns(UserWarning, match="score the same on all 300 examples"):
        same = faithfulness.compare_results(a, a, metric_key=key, method="randomization", n_resamples=200, seed=0)
    assert (same["difference"], same["p_value"]) == (0.0, 1.0)


def test_faithfulness_by_hand():
    """Four examples, p(full) = (0.75, 0.25), ŷ = 0. A's rationale removed changes nothing
    (without = full): comprehensiveness 0 each; B's drops p(ŷ) to 0.25: 0.5 each. Means 0
    and 0.5; with k of the 4 examples swapped the difference is 0.5 (4 - 2k) / 4, as far
    as the observed 0.5 only for k = 0 or 4: p = 2 / 16."""
    from paperscore import faithfulness

    full = [[0.75, 0.25]] * 4
    a = {"annotation_ids": list("abcd"), "full": full, "without": full, "alone": full}
    b = {**a, "without": [[0.25, 0.75]] * 4}
    with pytest.warns(UserWarning, match="differ on 4 of the 4 examples"):
        result = faithfulness.compare_results(a, b, method="randomization", n_resamples=4000, seed=0)
    assert (result["score_a"], result["score_b"], result["difference"]) == (0.0, 0.5, 0.5)
    assert result["p_value"] == pytest.approx(2 / 16, abs=0.015)


def test_faithfulness_bad_inputs_are_value_errors():
    from paperscore import faithfulness

    a, b = eraser_results(n=5), eraser_results(n=5, seed=1)
    b["annotation_ids"] = ["e0", "e1", "x", "e3", "e4"]
    with pytest.raises(ValueError, match="results_b: line 3 is annotation_id 'x', but results_a's is 'e2'"):
        faithfulness.compare_results(a, b)
    with pytest.raises(ValueError, match="results_b: 4 examples, but results_a has 5"):
        faithfulness.compare_results(a, {k: v[:4] for k, v in a.items()})
    with pytest.raises(ValueError, match="metric_key: 'f1' is not one of comprehensiveness"):
        faithfulness.compare_results(a, a, metric_key="f1", n_resamples=20)
    with pytest.raises(ValueError, match="one has thresholded_scores"):
        faithfulness.compare_results(eraser_results(n=5, aopc=True), a, metric_key="comprehensiveness", n_resamples=20)
    zero = {**a, "full": [[1.0, 0.0, 0.0]] * 5}  # KL(without || full) is infinite where full has a 0
    with pytest.raises(ValueError, match="results_a: line 1 has comprehensiveness_kl inf"):
        faithfulness.compare_results(zero, a, metric_key="comprehensiveness_kl", n_resamples=20)


def test_faithfulness_reads_eraser_results_jsonl(tmp_path):
    """Results JSONL lines (ERASER's fields): the same figures as the dicts they hold."""
    from paperscore import faithfulness

    def line(i, without):
        return json.dumps({"annotation_id": f"q{i}", "classification": "POS", "classification_scores": {"NEG": 0.2, "POS": 0.8}, "comprehensiveness_classification_scores": {"NEG": 1 - without, "POS": without}, "sufficiency_classification_scores": {"NEG": 0.4, "POS": 0.6}})

    for name, without in (("a", [0.8, 0.7, 0.6]), ("b", [0.1, 0.2, 0.3])):
        (tmp_path / f"{name}.jsonl").write_text("".join(line(i, w) + "\n" for i, w in enumerate(without)))
    with pytest.warns(UserWarning, match="differ on 3 of the 3 examples"):
        result = faithfulness.compare_results(str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), n_resamples=50, seed=0)
    # comprehensiveness = mean of 0.8 - p(POS | without): A (0 + 0.1 + 0.2) / 3, B (0.7 + 0.6 + 0.5) / 3
    assert (result["score_a"], result["score_b"]) == (pytest.approx(0.1), pytest.approx(0.6))



# ---------------------------------------------------------------------------------------
# Order: compare over the same paired examples in another order gives the same figures
# (test_state's test_compare_does_not_depend_on_sharding covers the other families). Each
# case: (metric, references, system_a, system_b, options) of random examples, and how to
# put them in another order.


def shuffled(values, order):
    return [values[i] for i in order]


def random_windows(rng, n):
    """TextEE / OneIE windows: 1-2 examples per (doc_id, wnd_id) under TextEE (a window is
    one unit), triggers and arguments drawn from few spans and types, so some repeat."""
    def events():
        out = []
        for _ in range(rng.integers(0, 4)):
            start = int(rng.integers(0, 6))
            trigger = [start, start + int(rng.integers(1, 3)), f"T{rng.integers(3)}"]
            arguments = [[a, a + 1, f"R{rng.integers(2)}"] for a in rng.integers(6, 10, rng.integers(0, 3)).tolist()]
            out.append({"trigger": trigger, "arguments": arguments})
        return out

    gold = [{"doc_id": f"d{i // 4}", "wnd_id": int(i % 4 // 2), "events": events()} for i in range(n)]
    systems = [[{**g, "events": g["events"] if rng.random() < p else events()} for g in gold] for p in (0.4, 0.7)]
    return gold, *systems


def order_case(name, rng, n=60):
    if name in ("textee", "oneie"):
        return ("micro_macro", *random_windows(rng, n), {"spans": name})
    if name == "corefud":
        import corefud_cases

        pairs = [pair for pair in (corefud_cases.case(number) for number in range(4 * n)) if pair[0].count("# newdoc") == 1][:n]
        keys = [key for key, _ in pairs]
        systems = [[key if rng.random() < p else response for key, response in pairs] for p in (0.3, 0.6)]
        return ("coref", keys, *systems, {"matching": "head"})
    if name == "diaasq":
        import diaasq

        seeded = random.Random(int(rng.integers(1 << 30)))
        gold = [diaasq.random_dialogue(seeded, f"dialogue-{i}") for i in range(n)]
        return ("quad_match", gold, *([diaasq.random_prediction(seeded, g) for g in gold] for _ in range(2)), {"convention": "diaasq"})
    raise AssertionError(name)


@pytest.mark.filterwarnings("ignore")  # few differing examples: compare's own warning
@pytest.mark.parametrize("name", ["textee", "oneie", "corefud", "diaasq"])
@pytest.mark.parametrize("method", METHODS)
def test_compare_does_not_depend_on_order(name, method):
    rng = np.random.default_rng(len(name))
    metric, references, system_a, system_b, options = order_case(name, rng)
    expected = compare.compare(metric, references, system_a, system_b, method=method, n_resamples=100, seed=7, **options)
    assert expected["score_a"] != expected["score_b"]  # the systems differ
    for _ in range(3):
        order = rng.permutation(len(references)).tolist()
        got = compare.compare(metric, shuffled(references, order), shuffled(system_a, order), shuffled(system_b, order), method=method, n_resamples=100, seed=7, **options)
        assert {k: v for k, v in got.items() if k != "signature"} == pytest.approx({k: v for k, v in expected.items() if k != "signature"}, rel=1e-12, abs=1e-15)


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("metric_key", ["comprehensiveness", "sufficiency_aopc"])
@pytest.mark.parametrize("method", METHODS)
def test_faithfulness_compare_does_not_depend_on_order(tmp_path, metric_key, method):
    """ERASER results lines (the movies sample's two systems) written in other orders."""
    rng = np.random.default_rng(3)
    lines = [(DATA / "rationale_eraser" / f"movies_sample.{name}.jsonl").read_text(encoding="utf-8").splitlines() for name in "ab"]
    paths = [tmp_path / "a.jsonl", tmp_path / "b.jsonl"]
    results = []
    for order in [list(range(len(lines[0])))] + [rng.permutation(len(lines[0])).tolist() for _ in range(3)]:
        for path, system in zip(paths, lines):
            path.write_text("".join(line + "\n" for line in shuffled(system, order)), encoding="utf-8")
        results.append(compare.compare("faithfulness", None, str(paths[0]), str(paths[1]), metric_key=metric_key, method=method, n_resamples=100, seed=7))
    assert results[0]["score_a"] != results[0]["score_b"]
    for got in results[1:]:
        assert {k: v for k, v in got.items() if k != "signature"} == pytest.approx({k: v for k, v in results[0].items() if k != "signature"}, rel=1e-12, abs=1e-15)


# ---------------------------------------------------------------------------------------
# Every compute() option (issue 36): model texts through parse=, sources=, exact_only; the
# numbers equal those of the outputs the parser reads, given as structures.


def test_compare_takes_parse_and_equals_the_parsed_structures():
    import test_rewards
    from paperscore.parse import get_parser, parse

    rng = random.Random(4)
    gold = test_rewards.gold_texts(rng, 200)
    a, b = ([test_rewards.corrupt(rng, g, gold) for g in gold] for _ in range(2))
    parser = get_parser("asqp_paraphrase")
    read = {name: parse(texts, parser)[0] for name, texts in (("gold", gold), ("a", a), ("b", b))}
    for method in METHODS:
        got = compare.compare("quad_match", gold, a, b, parse="asqp_paraphrase", method=method, n_resamples=200, seed=5)
        expected = compare.compare("quad_match", read["gold"], read["a"], read["b"], tuple_len=parser.tuple_len, method=method, n_resamples=200, seed=5)
        assert {k: v for k, v in got.items() if not k.startswith(("signature", "parse_failures"))} == {k: v for k, v in expected.items() if k != "signature"}
        assert got["parse_failures_a"] == parse(a, parser)[1]["parse_failures"] and "|parse:asqp_paraphrase@1|" in got["signature"]
    exact = compare.compare("quad_match", gold, a, b, parse="asqp_paraphrase", exact_only=True, n_resamples=100, seed=1)
    assert exact["metric_key"] == "exact_f1" and exact["score_a"] == pytest.approx(compare.compare("quad_match", gold, a, b, parse="asqp_paraphrase", metric_key="exact_f1", n_resamples=100, seed=1)["score_a"], abs=0)


@pytest.mark.parametrize("metric", ["csc_sighan", "csc_common"])
def test_compare_takes_csc_replies_and_sources(metric):
    import test_state

    sources, replies, references = test_state.csc_replies(3, 150)
    _, replies_b, _ = test_state.csc_replies(9, 150)
    from paperscore.parse import get_parser, parse

    sentences = {name: parse(texts, get_parser("csc_reply"))[0] for name, texts in (("a", replies), ("b", replies_b))}
    got = compare.compare(metric, references, replies, replies_b, sources=sources, parse="csc_reply", length_mismatch="align", n_resamples=100, seed=2)
    expected = compare.compare(metric, references, sentences["a"], sentences["b"], sources=sources, length_mismatch="align", n_resamples=100, seed=2)
    assert {k: got[k] for k in expected if k != "signature"} == {k: v for k, v in expected.items() if k != "signature"}


def test_compare_takes_rationale_replies_with_sources():
    import test_rewards

    rng = random.Random(6)
    examples = [test_rewards.rationale_example(rng) for _ in range(120)]
    sources, gold = [e[0] for e in examples], [e[1] for e in examples]
    a, b = ([test_rewards.rationale_completion(rng, *e) for e in examples] for _ in range(2))
    got = compare.compare("rationale_f1", gold, a, b, sources=sources, parse="quotes_normalized", n_resamples=100, seed=3)
    scored = [rationale_f1_compute(texts, gold, sources) for texts in (a, b)]
    assert (got["score_a"], got["score_b"]) == pytest.approx(scored, abs=1e-12)


def rationale_f1_compute(texts, gold, sources):
    from paperscore import rationale

    return rationale.compute(texts, gold, sources=sources, parse="quotes_normalized")["f1"]


# ---------------------------------------------------------------------------------------
# Results tables: many systems, seeds, the command line


def test_a_table_of_two_systems_is_compare():
    metric, references, weak, strong, options = classification(n=300, seed=8)
    pair = compare.compare(metric, references, weak, strong, n_resamples=300, seed=4, **options)
    table = compare.systems_table(metric, references, {"A": weak, "B": strong}, n_resamples=300, seed=4, **options)
    (a, b), (c,) = table["systems"], table["comparisons"]
    assert (a["score"], b["score"], c["difference"], c["difference_low"], c["difference_high"], c["p_value"]) == tuple(pair[k] for k in ("score_a", "score_b", "difference", "difference_low", "difference_high", "p_value"))
    assert c["p_value_adjusted"] == c["p_value"]  # one comparison: nothing to adjust
    assert table["references"]["fingerprint"] in table["signature"] and pair["signature"].endswith(f"|refs:{table['references']['fingerprint']}|paperscore:0.1.0")


def test_the_command_line_table_equals_the_api(tmp_path, capsys):
    metric, references, weak, strong, options = classification(n=250, seed=3)
    rng = np.random.default_rng(0)
    seeds = [[int(x) if rng.random() < 0.8 else int(rng.integers(0, 5)) for x in references] for _ in range(3)]
    files = {"r": references, "a": weak, "b": strong, **{f"s{i}": s for i, s in enumerate(seeds)}}
    for name, labels in files.items():
        (tmp_path / f"{name}.txt").write_text("\n".join(map(str, labels)) + "\n")
    argv = ["compare", "micro_macro", "--references", str(tmp_path / "r.txt"), "--system", f"weak={tmp_path / 'a.txt'}", "--system", f"strong={tmp_path / 'b.txt'}"]
    argv += ["--system", "seeds=" + ",".join(str(tmp_path / f"s{i}.txt") for i in range(3)), "--negative-labels", "0", "--seed", "2", "--n-resamples", "200", "--json"]
    assert cli.main(argv) == 0
    got = json.loads(capsys.readouterr().out)
    expected = compare.systems_table("micro_macro", references, {"weak": weak, "strong": strong, "seeds": compare.Runs(seeds)}, n_resamples=200, seed=2, **options)
    assert got["systems"] == expected["systems"] and got["comparisons"] == expected["comparisons"]
    assert got["systems"][2]["runs"] == 3 and got["comparisons"][1]["aso_epsilon_min"] is None  # ASO needs seeds on both sides
    assert cli.main(argv[:-1] + ["--latex"]) == 0 and "\\begin{tabular}" in capsys.readouterr().out
    assert cli.main(argv + ["--system-a", str(tmp_path / "a.txt")]) == 1
    assert "not both" in capsys.readouterr().err


def test_signatures_name_the_references_whatever_their_line_ends(tmp_path, capsys):
    """A BOM, CRLF and trailing blank lines change nothing; one character changes the
    fingerprint (sacrebleu's test-set field)."""
    lines = ["A1, 2, 在", "A2, 0"]
    results = []
    for name, text in (("lf", "\n".join(lines) + "\n"), ("crlf", "\ufeff" + "\r\n".join(lines) + "\r\n\r\n"), ("other", "\n".join(["A1, 2, 再", "A2, 0"]) + "\n")):
        (tmp_path / f"{name}.txt").write_text(text, encoding="utf-8")
        assert cli.main(["sighan", "-i", str(tmp_path / "lf.txt"), "-t", str(tmp_path / f"{name}.txt"), "--json"]) == 0
        results.append(json.loads(capsys.readouterr().out)["signature"].split("|refs:")[1])
    assert results[0] == results[1] != results[2]


@pytest.mark.filterwarnings("ignore")  # few differing examples: compare's own warning
@pytest.mark.parametrize("family", ["micro_macro", "rationale_f1", "quad_match", "csc_sighan", "csc_common", "coref_conll"])
def test_states_kept_with_rows_compare_as_the_corpora_do(family):
    """Issue 36: from states kept with keep_rows=True (merged in corpus order), the same
    figures as from the corpora; states of other references, or without rows, refused."""
    import test_state
    from paperscore import state

    rng = np.random.default_rng(5)
    references, a, b, options = test_state.compare_inputs(family, rng, 90)
    name = {"rationale_f1": "rationale", "coref_conll": "coref"}.get(family, family)

    def kept(outputs, refs=references, keep_rows=True):
        parts = [state.new(name, keep_rows=keep_rows).update(outputs[i : i + 30], refs[i : i + 30], **{k: v[i : i + 30] for k, v in options.items()}) for i in (0, 30, 60)]
        return state.from_dict(json.loads(json.dumps(state.merge(*parts).to_dict())))

    for method in METHODS:
        direct = compare.compare(family, references, a, b, method=method, n_resamples=150, seed=2, **options)
        via = compare.compare(family, None, kept(a), kept(b), method=method, n_resamples=150, seed=2)
        assert {k: via[k] for k in direct if k != "signature"} == {k: v for k, v in direct.items() if k != "signature"}
    table = compare.systems_table(family, None, {"A": kept(a), "B": kept(b)}, n_resamples=100, seed=1)
    assert table["systems"][1]["score"] == direct["score_b"]
    other = list(references)
    i = next(i for i in range(90) if b[i] != references[i])
    other[i] = b[i]  # another copy of the test set: one reference changed
    with pytest.raises(ValueError, match="system_b: scored against other references"):
        compare.compare(family, None, kept(a), kept(b, other))
    with pytest.raises(ValueError, match="system_b: a state made without keep_rows"):
        compare.compare(family, None, kept(a), kept(b, keep_rows=False))
