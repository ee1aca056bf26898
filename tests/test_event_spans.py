"""Span-level event detection (micro_macro spans=, paperscore.event_spans) against TextEE's
scorer, OneIE's score_graphs and seqeval's BIO reading run in place (fixtures), a plain
per-example oracle at users' sizes, by hand, and through the Space and the command line."""

import json
import random

import pytest
from conftest import ROOT, without_references

from paperscore import cli, event_spans
from paperscore.micro_macro import compute

REFERENCES = json.loads((ROOT / "tests" / "data" / "micro_macro" / "event_spans_references.json").read_text(encoding="utf-8"))
NAMES = {"trigger_id": "trigger_id", "trigger_cls": "trigger", "argument_id": "role_id", "argument_cls": "role"}


def figures(result, measure, rule):
    """Our figures in the repository's layout: TextEE's counts and percents, OneIE's percents."""
    percents = [result[f"{measure}_{name}"] * 100 for name in ("precision", "recall", "f1")]
    counts = [result[f"{measure}_{name}"] for name in event_spans.COUNTS]
    return counts + percents if rule == "textee" else percents


@pytest.mark.parametrize("rule", ["textee", "oneie"])
def test_equal_to_the_repositories_scorers_run_in_place(rule):
    """tests/data/micro_macro/README.md: TextEE's compute_scores("ED" / "E2E") and OneIE's
    score_graphs on random corpora (repeated windows, tuples, events and arguments; gold
    triggers sharing a span)."""
    for case in REFERENCES[rule]:
        result = compute(case["predictions"], case["references"], spans=rule)
        expected = case["repository_output"]
        measures = [m for m in event_spans.MEASURES if f"{m}_f1" in result]
        assert sorted(measures) == sorted(expected)
        for measure in measures:
            assert figures(result, measure, rule) == pytest.approx(expected[measure], abs=1e-9), (measure, case)


def test_bio_tags_are_read_as_seqeval_reads_them():
    for case in REFERENCES["bio"]:
        assert sorted(event_spans.bio_spans(case["tags"], "references", 0)) == case["repository_output"], case["tags"]


def test_by_hand_both_rules():
    gold = [{"events": [{"trigger": [1, 2, "Attack"], "arguments": [[3, 4, "Target"], [5, 6, "Place"]]}, {"trigger": [7, 8, "Die"], "arguments": [[3, 4, "Victim"]]}]}]
    pred = [{"events": [{"trigger": [1, 2, "Attack"], "arguments": [[3, 4, "Target"], [5, 6, "Target"]]}, {"trigger": [7, 8, "Attack"], "arguments": [[3, 4, "Victim"]]}, {"trigger": [7, 8, "Attack"], "arguments": []}]}]
    textee = compute(pred, gold, spans="textee")
    # TextEE, sets: trigger spans {1-2, 7-8} both sides -> Tri-I 2/2; typed {1-2 Attack,
    # 7-8 Attack} vs {1-2 Attack, 7-8 Die}: Tri-C 1 of 2. Arg-I keys (type, span):
    # predicted {Attack 3-4, Attack 5-6} (the Victim one is Attack 3-4 again), gold
    # {Attack 3-4, Attack 5-6, Die 3-4}: 2 of 2 predicted, of 3 gold. Arg-C (type, span,
    # role): predicted {Attack 3-4 Target, Attack 5-6 Target, Attack 3-4 Victim}, gold
    # {Attack 3-4 Target, Attack 5-6 Place, Die 3-4 Victim}: 1 of 3. Attached: keyed by the
    # trigger span too: predicted {1-2 Attack 3-4, 1-2 Attack 5-6, 7-8 Attack 3-4}, gold
    # {1-2 Attack 3-4, 1-2 Attack 5-6, 7-8 Die 3-4}: 2 of 3.
    assert [textee[f"{m}_matched"] for m in event_spans.MEASURES] == [2, 1, 2, 1, 2, 1]
    assert [textee[f"{m}_predicted"] for m in event_spans.MEASURES] == [2, 2, 2, 3, 3, 3]
    assert [textee[f"{m}_gold"] for m in event_spans.MEASURES] == [2, 2, 3, 3, 3, 3]
    oneie = compute(pred, gold, spans="oneie")
    # OneIE, lists: 3 predicted triggers, each span found in gold -> Tri-I 3 of 3 predicted
    # and "3 of 2 gold" (recall 1.5, as score_graphs gives); Tri-C: only 1-2 Attack has the
    # first gold type of its span. Arguments per example as sets of (span, event type,
    # role): the three above; identified by (span, type): all 3; classified: 1.
    assert (oneie["trigger_id_precision"], oneie["trigger_id_recall"], oneie["trigger_cls_matched"]) == (1.0, 1.5, 1)
    assert (oneie["argument_id_matched"], oneie["argument_id_predicted"], oneie["argument_cls_matched"]) == (3, 3, 1)
    assert "argument_attached_id_f1" not in oneie


def test_windows_with_the_same_ids_are_one_window_under_textee_only():
    # TextEE's EAE instances: one trigger each, two of them in window (d, 0). The second
    # instance's prediction repeats the first's argument: TextEE's set sees it once.
    gold = [{"doc_id": "d", "wnd_id": 0, "events": [{"trigger": [0, 1, "Attack"], "arguments": [[2, 3, "Target"]]}]}] * 2
    pred = [gold[0], {"doc_id": "d", "wnd_id": 0, "events": [{"trigger": [0, 1, "Attack"], "arguments": [[2, 3, "Target"], [4, 5, "Place"]]}]}]
    textee = compute(pred, gold, spans="textee")
    assert (textee["argument_cls_predicted"], textee["argument_cls_gold"], textee["argument_cls_matched"]) == (2, 1, 1)
    oneie = compute(pred, gold, spans="oneie")  # each example its own graph
    assert (oneie["argument_cls_predicted"], oneie["argument_cls_gold"], oneie["argument_cls_matched"]) == (3, 2, 2)


@pytest.mark.parametrize(
    "predictions, references, kwargs, message",
    [
        ([[[0, 1]]], [[]], {}, r"predictions\[0\]: trigger 1 \[0, 1\] is not \[start, end, label\]"),
        ([[[2, 1, "A"]]], [[]], {}, r"predictions\[0\]: trigger 1 \[2, 1, 'A'\]: the span is empty, reversed or negative"),
        ([[[0, 1.0, "A"]]], [[]], {}, r"is not \[int start, int end, str label\]"),
        ([{"events": []}], [[]], {}, r"predictions\[0\]: holds events but references\[0\] holds triggers"),
        ([{"events": [{"trigger": [0, 1, "A"]}]}], [{"events": []}], {}, r"event 1 .* is not \{\"trigger\""),
        ([{"triggers": [], "doc_id": "a", "wnd_id": 0}], [{"triggers": [], "doc_id": "b", "wnd_id": 0}], {}, r"predictions\[0\]: doc_id, wnd_id \('a', 0\) differ"),
        ([{"triggers": [], "doc_id": "a"}], [[]], {}, r"predictions\[0\]: doc_id and wnd_id \('a', None\) are not both strings or ints"),
        ([{"trigger": []}], [[]], {}, r"is an object with the keys \['trigger'\]"),
        ([["B-A", "X"]], [["O", "O"]], {"scheme": "bio"}, r"predictions\[0\]\[1\]: 'X' is not a BIO tag"),
        ([["B-A"]], [["O", "O"]], {"scheme": "bio"}, r"predictions\[0\]: has 1 tags but references\[0\] has 2"),
        ([[]], [[]], {"spans": "nope"}, "spans: 'nope' is not one of 'textee', 'oneie'"),
        ([[]], [[]], {"convention": "maven"}, "convention: applies to candidate or token labels, not to spans='textee'"),
    ],
)
def test_bad_records_are_refused_by_name(predictions, references, kwargs, message):
    with pytest.raises(ValueError, match=message):
        compute(predictions, references, **{"spans": "textee", **kwargs})


def test_a_mix_of_forms_is_refused():
    with pytest.raises(ValueError, match="some examples hold events and others only triggers"):
        compute([[], {"events": []}], [[], {"events": []}], spans="textee")


# ---------------------------------------------------------------------------------------
# The plain oracle at users' sizes


def random_corpus(rng, n):
    """n windows as diverse as real ones: ids repeated (several instances of one window),
    empty windows, long and short ones, repeated and overlapping spans, gold spans with two
    types, predictions copied from gold and perturbed."""
    types, roles = [f"T{i}" for i in range(40)], [f"R{i}" for i in range(12)]

    def span():
        start = rng.randint(0, 60)
        return [start, start + rng.randint(1, 4)]

    pred, gold = [], []
    for _ in range(n):
        size = rng.choice([0, 0, 1, 2, 3, 5, 12])
        events = [{"trigger": span() + [rng.choice(types)], "arguments": [span() + [rng.choice(roles)] for _ in range(rng.randint(0, 4))]} for _ in range(size)]
        if events and rng.random() < 0.1:
            events.append({"trigger": events[0]["trigger"][:2] + [rng.choice(types)], "arguments": []})  # a span with two types
        guess = []
        for event in events:
            if rng.random() < 0.7:
                trigger = event["trigger"] if rng.random() < 0.8 else event["trigger"][:2] + [rng.choice(types)]
                arguments = [a if rng.random() < 0.8 else a[:2] + [rng.choice(roles)] for a in event["arguments"] if rng.random() < 0.8]
                guess.append({"trigger": trigger, "arguments": arguments + arguments[: rng.randint(0, 1)]})
        guess += [{"trigger": span() + [rng.choice(types)], "arguments": [span() + [rng.choice(roles)]]} for _ in range(rng.randint(0, 2))]
        ids = {"doc_id": f"doc{rng.randint(0, n // 3)}", "wnd_id": rng.randint(0, 2)} if rng.random() < 0.5 else {}
        gold.append({"events": events, **ids})
        pred.append({"events": guess, **ids})
    return pred, gold


@pytest.fixture(scope="module")
def corpus():
    return random_corpus(random.Random(7), 10_000)


@pytest.mark.parametrize("rule", ["textee", "oneie"])
def test_the_batch_equals_the_plain_oracle_at_users_sizes(corpus, rule):
    from event_spans_naive import oneie_one, scores, textee

    pred, gold = corpus
    result = compute(pred, gold, spans=rule)
    rows, measures = event_spans.statistics(pred, gold, rule)
    if rule == "textee":
        totals, windows = textee(pred, gold)
        # each window's row inside the batch equals that window's own counts
        order = list(dict.fromkeys(("ids", g.get("doc_id"), g.get("wnd_id")) if "doc_id" in g else ("example", i) for i, g in enumerate(gold)))
        assert len(order) == len(rows) and len(order) < len(gold)  # some windows merged
        for row, key in zip(rows.tolist(), order):
            assert row == [c for m in measures for c in windows[(key, m)]], key
    else:
        per_example = [oneie_one(p, g) for p, g in zip(pred, gold)]
        totals = {m: tuple(sum(counts[m][c] for counts in per_example) for c in range(3)) for m in measures}
        for row, counts in zip(rows.tolist(), per_example):  # each example's row = the example alone
            assert row == [c for m in measures for c in counts[m]]
        alone = [event_spans.statistics([p], [g], rule)[0][0].tolist() for p, g in zip(pred[:300], gold[:300])]
        assert alone == rows[:300].tolist()
    expected = scores({m: totals[m] for m in measures})
    for measure in measures:
        assert [result[f"{measure}_{c}"] for c in event_spans.COUNTS] == list(totals[measure])
        for name, value in zip(("precision", "recall", "f1"), expected[measure]):
            assert result[f"{measure}_{name}"] == pytest.approx(value, abs=1e-12), (measure, name)


def test_bootstrap_resamples_windows_and_brackets_the_estimate(corpus):
    pred, gold = corpus[0][:2000], corpus[1][:2000]
    result = compute(pred, gold, spans="textee", confidence_level=0.9, n_resamples=200, seed=3, return_signature=True)
    assert result["trigger_cls_f1_low"] <= result["trigger_cls_f1"] <= result["trigger_cls_f1_high"]
    assert result == compute(pred, gold, spans="textee", confidence_level=0.9, n_resamples=200, seed=3, return_signature=True)
    assert without_references(result["signature"]) == "micro_macro|spans:textee|scheme:none|zero_division:0|bootstrap:200@0.9|seed:3|paperscore:0.1.0"


# ---------------------------------------------------------------------------------------
# The Space and the command line


def test_the_space_stores_span_records_and_tags():
    import evaluate
    from conftest import SPACES_DIR

    metric = evaluate.load(str(SPACES_DIR / "micro_macro"), keep_in_memory=True)
    case = REFERENCES["textee"][0]
    half = len(case["references"]) // 2
    metric.add_batch(predictions=case["predictions"][:half], references=case["references"][:half])
    metric.add_batch(predictions=case["predictions"][half:], references=case["references"][half:])
    with pytest.raises(ValueError, match="this batch holds int labels, but earlier batches held span records"):
        metric.add_batch(predictions=[1], references=[1])
    assert metric.compute(spans="textee") == compute(case["predictions"], case["references"], spans="textee")
    tags = [["B-Attack", "I-Attack", "O"], ["O", "I-Die"]]
    assert metric.compute(predictions=tags, references=[["B-Attack", "O", "O"], ["O", "B-Die"]], spans="oneie", scheme="bio") == compute(
        tags, [["B-Attack", "O", "O"], ["O", "B-Die"]], spans="oneie", scheme="bio"
    )


def test_the_command_line_reads_json_lines_of_records(tmp_path, capsys):
    case = REFERENCES["oneie"][0]
    for name, records in (("p.jsonl", case["predictions"]), ("g.jsonl", case["references"])):
        (tmp_path / name).write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    code = cli.main(["micro_macro", "--spans", "oneie", "--predictions", str(tmp_path / "p.jsonl"), "--references", str(tmp_path / "g.jsonl"), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out == compute(case["predictions"], case["references"], spans="oneie", return_signature=True)
    (tmp_path / "t.jsonl").write_text('["B-A", "I-A"]\n["O"]\n', encoding="utf-8")
    code = cli.main(["micro_macro", "--spans", "textee", "--scheme", "bio", "--predictions", str(tmp_path / "t.jsonl"), "--references", str(tmp_path / "t.jsonl"), "--json"])
    assert code == 0 and json.loads(capsys.readouterr().out)["trigger_cls_f1"] == 1.0
    code = cli.main(["micro_macro", "--scheme", "bio", "--predictions", str(tmp_path / "t.jsonl"), "--references", str(tmp_path / "t.jsonl")])
    assert code == 1 and "--scheme: applies with --spans only" in capsys.readouterr().err
    # a file of one line of tags is one sentence, not a list of records; CRLF line ends read
    # alike. Hand derivation: predicted trigger (0, 1, A), gold (0, 2, A): no hit, F1 0.
    (tmp_path / "one.jsonl").write_text('["B-A", "O"]\n', encoding="utf-8")
    (tmp_path / "gold.jsonl").write_text('["B-A", "I-A"]\r\n', encoding="utf-8")
    code = cli.main(["micro_macro", "--spans", "textee", "--scheme", "bio", "--predictions", str(tmp_path / "one.jsonl"), "--references", str(tmp_path / "gold.jsonl"), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and (out["trigger_cls_predicted"], out["trigger_cls_gold"], out["trigger_cls_matched"], out["trigger_cls_f1"]) == (1, 1, 0, 0.0)
    # one JSON array of records reads as its JSON lines do
    (tmp_path / "p.json").write_text(json.dumps(case["predictions"]), encoding="utf-8")
    code = cli.main(["micro_macro", "--spans", "oneie", "--predictions", str(tmp_path / "p.json"), "--references", str(tmp_path / "g.jsonl"), "--json"])
    assert code == 0 and json.loads(capsys.readouterr().out) == compute(case["predictions"], case["references"], spans="oneie", return_signature=True)


@pytest.mark.parametrize("rule", ["textee", "oneie"])
def test_the_demo_scores_span_records_as_the_repositories_scorers(rule, tmp_path):
    """The micro_macro demo with spans=: records typed one JSON line each, the per-measure
    table's P/R/F1 and the headline Tri-C F1 as TextEE's compute_scores / OneIE's
    score_graphs printed them (tests/data/micro_macro), at the page's 4 digits."""
    import re

    import gradio as gr
    from conftest import load_app

    app = load_app("micro_macro")
    assert app.SPANS[1:] == list(event_spans.RULES)
    case = next(c for c in REFERENCES[rule] if "argument_cls" in c["repository_output"])
    lines = {side: "\n".join(json.dumps(record) for record in case[side]) for side in ("predictions", "references")}
    inputs = {**app.EXAMPLE, **lines, "convention": "none", "spans": rule}
    for side, text in lines.items():  # a file of records goes into the box as it is
        upload = tmp_path / f"{side}.jsonl"
        upload.write_text(text + "\n", encoding="utf-8")
        assert app.upload(str(upload), side) == text
    _, top, _, _, table, matrix = app.show(**inputs)
    expected = case["repository_output"]
    percents = {m: figures[-3:] for m, figures in expected.items()}  # TextEE's rows start with its counts
    assert f">{percents['trigger_cls'][2] / 100:.4g}<" in top and 'data-key="trigger_cls_f1"' in top and rule.replace("textee", "TextEE").replace("oneie", "OneIE") in top
    cells = [re.findall(r"<t[dh]>(.*?)</t[dh]>", row) for row in re.findall(r"<tr>(.*?)</tr>", table)]
    assert sorted(row[0] for row in cells[1:]) == sorted(expected)
    for row in cells[1:]:
        assert row[1:4] == [f"{p / 100:.4g}" for p in percents[row[0]]], row
        if rule == "textee":  # its counts: predicted, gold, matched
            assert row[4:] == [str(c) for c in expected[row[0]][:3]], row
    assert matrix == ""
    # by hand (the card's example): OneIE counts 3 predicted triggers, one with the first
    # gold type of its span: Tri-C P = 1/3, R = 1/2, F1 = 2 (1/3)(1/2) / (1/3 + 1/2) = 0.4;
    # TextEE's sets: 1 of 2 each way, F1 = 0.5
    hand = {**app.EXAMPLE, **app.SPANS_EXAMPLE, "spans": rule}
    assert app.score(**hand)[0]["trigger_cls_f1"] == pytest.approx(0.4 if rule == "oneie" else 0.5, abs=1e-15)
    # refusals in the page's terms: records counted from 1, the label options named
    with pytest.raises(gr.Error, match=r"predictions \(record 2\)"):
        app.score(**{**hand, "predictions": '[[1, 2, "Attack"]]\n[[2, 1, "Attack"]]', "references": '[]\n[]'})
    with pytest.raises(gr.Error, match="predictions line 2: not a JSON span record"):
        app.score(**{**hand, "predictions": '[]\n[oops', "references": '[]\n[]'})
    with pytest.raises(gr.Error, match="convention: applies to candidate or token labels"):
        app.score(**{**hand, "convention": "maven"})
    with pytest.raises(gr.Error, match="at most 200,000 per box"):
        app.score(**{**hand, "predictions": json.dumps([[0, 1, "A"]] * 200_001)})


def test_the_demo_reads_bio_tags_with_scheme_bio():
    """scheme "bio" (the package's list): one example a line, tags separated by spaces or as
    a JSON list. BIO_EXAMPLE by hand: gold triggers (1, 3, Attack), (4, 5, Attack) and
    (0, 1, Die) in example 2; predicted (1, 3, Attack), (4, 5, Die), (0, 1, Die). Tri-I: 3 of 3
    spans; Tri-C: 2 of 3 typed right, P = R = F1 = 2/3; the same as those spans typed as
    records."""
    import html

    import gradio as gr
    from conftest import load_app

    app = load_app("micro_macro")
    assert app.SCHEMES[1:] == [s for s in event_spans.SCHEMES if s is not None] == ["bio"]
    for rule in event_spans.RULES:  # no repeated trigger: both rules count alike
        inputs = {**app.EXAMPLE, **app.BIO_EXAMPLE, "spans": rule}
        _, top, signature, _, _, _ = app.show(**inputs)
        headline = app.score(**inputs)[0]
        assert (headline["trigger_id_f1"], headline["trigger_cls_f1"]) == pytest.approx((1.0, 2 / 3), abs=1e-15)
        assert (headline["trigger_cls_predicted"], headline["trigger_cls_gold"], headline["trigger_cls_matched"]) == (3, 3, 2)
        assert f"|spans:{rule}|scheme:bio|" in signature and ">0.6667<" in top and "BIO tags" in top
        records = {"predictions": '[[1, 3, "Attack"], [4, 5, "Die"]]\n[[0, 1, "Die"]]', "references": '[[1, 3, "Attack"], [4, 5, "Attack"]]\n[[0, 1, "Die"]]'}
        by_records = app.score(**{**inputs, **records, "scheme": app.NO_SCHEME})[0]
        assert {k: v for k, v in headline.items() if k != "signature"} == {k: v for k, v in by_records.items() if k != "signature"}
        as_json = "\n".join(json.dumps(line.split()) for line in app.BIO_EXAMPLE["predictions"].split("\n"))
        assert app.score(**{**inputs, "predictions": as_json})[0]["trigger_cls_f1"] == headline["trigger_cls_f1"]
    hand = {**app.EXAMPLE, **app.BIO_EXAMPLE}
    for change, message in [
        ({"spans": app.NO_SPANS}, "scheme: 'bio' reads tags into trigger spans for span-level scoring; choose spans textee or oneie"),
        ({"predictions": "O B-Attack I-Attack O X\nB-Die O"}, "predictions (example 1)[4]: 'X' is not a BIO tag"),
        ({"predictions": "O B-Attack\nB-Die O"}, "predictions (example 1): has 2 tags but references (example 1) has 5"),
        ({"predictions": '["O", "B-Attack"\nB-Die O'}, "predictions line 1: starts with [ but is not a JSON list of BIO tags"),
        ({"scheme": "iob"}, "scheme: 'iob' is not one of"),
        ({"predictions": "O " * 200_001}, "predictions: 200,001 tags; this demo takes at most 200,000 per box"),
    ]:
        with pytest.raises(gr.Error) as raised:
            app.score(**{**hand, **change})
        assert message in html.unescape(raised.value.message), raised.value.message


@pytest.mark.parametrize("rule", ["textee", "oneie"])
def test_config_name_is_the_rule(rule):
    """evaluate.load(micro_macro, config_name=rule) scores span records as compute(spans=rule):
    the repository's own figures (fixtures), also through evaluate.combine (no arguments);
    an explicit spans= still wins."""
    import evaluate
    from conftest import SPACES_DIR

    metric = evaluate.load(str(SPACES_DIR / "micro_macro"), config_name=rule, keep_in_memory=True)
    other = "oneie" if rule == "textee" else "textee"
    for case in REFERENCES[rule][:5]:
        result = metric.compute(predictions=case["predictions"], references=case["references"])
        assert result == compute(case["predictions"], case["references"], spans=rule)
        for measure, expected in case["repository_output"].items():
            assert figures(result, measure, rule) == pytest.approx(expected, abs=1e-9), (measure, case)
        combined = evaluate.combine([metric]).compute(predictions=case["predictions"], references=case["references"])
        assert {k: v for k, v in combined.items() if k in result} == result
        assert metric.compute(predictions=case["predictions"], references=case["references"], spans=other) == compute(case["predictions"], case["references"], spans=other)
