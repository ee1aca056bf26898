"""ERASER's faithfulness from the shell: `paperscore faithfulness RESULTS.jsonl` and
`paperscore compare faithfulness`, on a sample pair of results files whose figures
ERASER's own metrics.py gave (tests/data/rationale_eraser/README.md), and every malformed
line refused with its number. (The numbers themselves: tests/test_rationale_f1.py; the
paired tests: tests/test_compare.py; the demo's section: tests/test_rationale_demo.py.)"""

import json
import re

import pytest
from conftest import DATA

from paperscore import cli, compare, faithfulness

SAMPLE = DATA / "rationale_eraser"
A, B = str(SAMPLE / "movies_sample.a.jsonl"), str(SAMPLE / "movies_sample.b.jsonl")
ERASER = json.loads((SAMPLE / "movies_sample.eraser.json").read_text(encoding="utf-8"))  # score_classifications' output
NUMBERS = ("comprehensiveness", "sufficiency", "comprehensiveness_entropy", "comprehensiveness_kl", "sufficiency_entropy", "sufficiency_kl", "comprehensiveness_aopc", "sufficiency_aopc")


def run(argv, capsys):
    code = cli.main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("system", ["a", "b"])
def test_json_is_erasers_figures(system, capsys):
    code, out, err = run(["faithfulness", str(SAMPLE / f"movies_sample.{system}.jsonl"), "--json"], capsys)
    assert code == 0, err
    ours, theirs = json.loads(out), ERASER[system]
    for key in NUMBERS:
        assert ours[key] == pytest.approx(theirs[key], rel=1e-12, abs=1e-12), key
    for key in ("comprehensiveness_aopc_points", "sufficiency_aopc_points", "aopc_thresholds"):
        assert ours[key] == pytest.approx(theirs[key], rel=1e-12, abs=1e-12), key
    assert ours["signature"].startswith("rationale_f1|measure:eraser_faithfulness|aopc_thresholds:0.01,0.05,0.1,0.2,0.5|")


def test_table_shows_aopc_at_each_threshold_and_score_only_the_headline(capsys):
    code, out, _ = run(["faithfulness", A], capsys)
    assert code == 0
    rows = {}
    for line in out.splitlines():
        if line.strip():
            rows.setdefault(line.split()[0], line.split()[1:])  # the numbers' rows come first
    assert float(rows["comprehensiveness"][0]) == pytest.approx(ERASER["a"]["comprehensiveness"], abs=5e-7)
    for i, k in enumerate(("k=0.01", "k=0.05", "k=0.1", "k=0.2", "k=0.5")):
        comprehensiveness, sufficiency = map(float, rows[k])
        assert comprehensiveness == pytest.approx(ERASER["a"]["comprehensiveness_aopc_points"][i], abs=5e-7)
        assert sufficiency == pytest.approx(ERASER["a"]["sufficiency_aopc_points"][i], abs=5e-7)
    code, out, _ = run(["faithfulness", A, "-b"], capsys)
    assert code == 0 and float(out) == pytest.approx(ERASER["a"]["comprehensiveness"], rel=1e-12)
    code, out, _ = run(["faithfulness", A, "-b", "--metric-key", "sufficiency_aopc"], capsys)
    assert code == 0 and float(out) == pytest.approx(ERASER["a"]["sufficiency_aopc"], rel=1e-12)


def test_chosen_thresholds_average_erasers_points_at_them(capsys):
    # AOPC over k in {0.1, 0.5}: the mean of ERASER's points at those two k (its 3rd and 5th).
    code, out, err = run(["faithfulness", A, "--aopc-thresholds", "0.1,0.5", "--json"], capsys)
    assert code == 0, err
    ours, points = json.loads(out), ERASER["a"]["comprehensiveness_aopc_points"]
    assert ours["comprehensiveness_aopc"] == pytest.approx((points[2] + points[4]) / 2, rel=1e-12)
    assert ours["aopc_thresholds"] == [0.1, 0.5] and "aopc_thresholds:0.1,0.5|" in ours["signature"]
    code, _, err = run(["faithfulness", A, "--aopc-thresholds", "0.3"], capsys)
    assert code == 1 and "RESULTS: " in err and "line 1 thresholded_scores lack the threshold 0.3" in err
    for bad in ("0.5,0.1", "0", "1.5", "a", "0.1,0.1"):
        code, _, err = run(["faithfulness", A, "--aopc-thresholds", bad], capsys)
        assert code == 2 and "distinct increasing fractions in (0, 1]" in err, bad


def test_standard_input_and_per_example_rows_named_by_line(capsys, monkeypatch):
    import io
    import sys

    lines = open(A, encoding="utf-8").read().splitlines()
    text = lines[0] + "\n\n" + lines[1] + "\n"  # a blank line 2: the second result is line 3
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8"))
    code, out, err = run(["faithfulness", "-", "--per-example", "--json"], capsys)
    assert code == 0, err
    rows = json.loads(out)["per_example"]
    assert [(row["line"], row["annotation_id"]) for row in rows] == [(1, "negR_900.txt"), (3, "posR_901.txt")]
    first = json.loads(lines[0])  # by hand: p(NEG | full) - p(NEG | without), - p(NEG | alone)
    assert rows[0]["comprehensiveness"] == pytest.approx(first["classification_scores"]["NEG"] - first["comprehensiveness_classification_scores"]["NEG"], abs=1e-15)
    assert rows[0]["sufficiency"] == pytest.approx(first["classification_scores"]["NEG"] - first["sufficiency_classification_scores"]["NEG"], abs=1e-15)


LINE = {
    "annotation_id": "x1", "classification": "POS", "classification_scores": {"NEG": 0.2, "POS": 0.8},
    "comprehensiveness_classification_scores": {"NEG": 0.7, "POS": 0.3}, "sufficiency_classification_scores": {"NEG": 0.3, "POS": 0.7},
    "rationales": [{"docid": "d", "hard_rationale_predictions": [{"start_token": 0, "end_token": 2}]}],
}  # fmt: skip
SCORES = {"NEG": 0.5, "POS": 0.5}
THRESHOLDED = [{"threshold": k, "comprehensiveness_classification_scores": SCORES, "sufficiency_classification_scores": SCORES} for k in faithfulness.AOPC_THRESHOLDS]


@pytest.mark.parametrize(
    "second, message",
    [
        ("{not json", "line 3 is not JSON"),
        ("[1, 2]", "line 3 is a JSON list, not an object"),
        ({**LINE, "annotation_id": "x2", "classification_scores": {"NEG": "0.2", "POS": 0.8}}, "line 3 classification_scores 'NEG': '0.2' is not a probability in [0, 1]"),
        ({**LINE, "annotation_id": "x2", "sufficiency_classification_scores": {"NEG": True, "POS": 0.7}}, "line 3 sufficiency_classification_scores 'NEG': True is not a probability"),
        ({**LINE, "annotation_id": "x2", "comprehensiveness_classification_scores": {"NEG": 1.2, "POS": -0.2}}, "line 3 comprehensiveness_classification_scores 'NEG': 1.2 is not a probability"),
        ({**LINE, "annotation_id": "x2", "classification_scores": [0.2, 0.8]}, "line 3 classification_scores has the classes [0.2, 0.8], not ['NEG', 'POS']"),
        ({**LINE, "annotation_id": "x2", "classification": 1}, "line 3 classification 1 is not one of ['NEG', 'POS']"),
        ({k: v for k, v in LINE.items() if k != "sufficiency_classification_scores"}, "line 3 lacks 'sufficiency_classification_scores'"),
        (LINE, "line 3 repeats the annotation_id 'x1' of line 1"),
        ({**LINE, "annotation_id": "x2", "thresholded_scores": THRESHOLDED}, "line 1 lacks 'thresholded_scores', which other lines have"),
        ({**LINE, "annotation_id": "x2", "rationales": [{"docid": "d", "hard_rationale_predictions": [{"start_token": 3, "end_token": 1}]}]}, "line 3 hard_rationale_predictions of 'd'"),
        ({**LINE, "annotation_id": "x2", "rationales": [{"docid": "d", "hard_rationale_predictions": [{"start_token": 0, "end_token": 5}, {"start_token": 4, "end_token": 6}]}]}, "the spans [0, 5) and [4, 6) overlap"),
        ({**LINE, "annotation_id": "x2", "rationales": [{"docid": "d"}, {"docid": "d"}]}, "line 3 rationales name the document 'd' twice"),
        ({**LINE, "annotation_id": "x2", "rationales": ["d"]}, "line 3 rationales: 'd' is not an object with a 'docid'"),
    ],
)
def test_a_malformed_line_is_bad_data_naming_it(second, message, tmp_path, capsys):
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps(LINE) + "\n\n" + (second if isinstance(second, str) else json.dumps(second)) + "\n", encoding="utf-8")
    code, out, err = run(["faithfulness", str(path)], capsys)
    assert code == 1 and out == "" and "Traceback" not in err
    assert err.startswith(f"paperscore faithfulness: error: RESULTS: {path} ") and message in err, err


def test_thresholded_scores_broken_or_repeated_are_named(tmp_path, capsys):
    cases = [
        ({**LINE, "thresholded_scores": THRESHOLDED + THRESHOLDED[:1]}, "line 1 thresholded_scores give the threshold 0.01 twice"),
        ({**LINE, "thresholded_scores": [{"threshold": "0.01"}]}, "line 1 thresholded_scores: {'threshold': '0.01'} is not an object with a numeric 'threshold'"),
        ({**LINE, "thresholded_scores": [{**t, "sufficiency_classification_scores": {"NEG": 1.0}} for t in THRESHOLDED]}, "line 1 thresholded_scores[0.01] sufficiency_classification_scores has the classes ['NEG']"),
        ({**LINE, "thresholded_scores": [{"threshold": t["threshold"]} for t in THRESHOLDED]}, "line 1 thresholded_scores[0.01] lacks 'comprehensiveness_classification_scores'"),
    ]
    for line, message in cases:
        path = tmp_path / "results.jsonl"
        path.write_text(json.dumps(line) + "\n", encoding="utf-8")
        code, _, err = run(["faithfulness", str(path)], capsys)
        assert code == 1 and message in err, (message, err)
    (tmp_path / "empty.jsonl").write_text("\n\n", encoding="utf-8")
    code, _, err = run(["faithfulness", str(tmp_path / "empty.jsonl")], capsys)
    assert code == 1 and "RESULTS: no lines" in err


@pytest.mark.parametrize("method", ["bootstrap", "randomization"])
def test_compare_is_compare_results(method, capsys):
    argv = ["compare", "faithfulness", "--system-a", A, "--system-b", B, "--method", method, "--seed", "3", "--n-resamples", "400"]
    code, out, err = run(argv + ["--metric-key", "sufficiency_aopc", "--json"], capsys)
    assert code == 0, err
    expected = faithfulness.compare_results(A, B, metric_key="sufficiency_aopc", method=method, n_resamples=400, seed=3)
    assert json.loads(out) == expected
    # each system's score is ERASER's figure for it
    assert (expected["score_a"], expected["score_b"]) == pytest.approx((ERASER["a"]["sufficiency_aopc"], ERASER["b"]["sufficiency_aopc"]), rel=1e-12)
    code, out, _ = run(argv + ["-b"], capsys)
    assert code == 0 and float(out) == faithfulness.compare_results(A, B, method=method, n_resamples=400, seed=3)["p_value"]
    assert compare.compare("faithfulness", None, A, B, method=method, n_resamples=400, seed=3) == faithfulness.compare_results(A, B, method=method, n_resamples=400, seed=3)


def test_compare_takes_no_references_and_names_the_file_of_a_bad_line(tmp_path, capsys):
    code, _, err = run(["compare", "faithfulness", "--references", A, "--system-a", A, "--system-b", B], capsys)
    assert code == 2 and "--references" in err
    code, _, err = run(["compare", "faithfulness", "--system-a", A, "--system-b", B, "--zero-division", "1"], capsys)
    assert code == 2 and "--zero-division" in err
    with pytest.raises(ValueError, match="references: faithfulness compares the two systems' own results"):
        compare.compare("faithfulness", [1], A, B)
    lines = open(B, encoding="utf-8").read().splitlines()
    lines[4] = lines[4].replace('"classification": "NEG"', '"classification": "neg"').replace('"classification": "POS"', '"classification": "pos"')
    broken = tmp_path / "b.jsonl"
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(["compare", "faithfulness", "--system-a", A, "--system-b", str(broken), "--seed", "0"], capsys)
    assert code == 1 and out == "" and f"--system-b: {broken} line 5 classification" in err, err
    shuffled = tmp_path / "shuffled.jsonl"
    shuffled.write_text("\n".join(lines[1::-1] + open(B, encoding="utf-8").read().splitlines()[2:]) + "\n", encoding="utf-8")
    code, _, err = run(["compare", "faithfulness", "--system-a", A, "--system-b", str(shuffled), "--seed", "0"], capsys)
    assert code == 1 and "line 1 is annotation_id 'posR_901.txt', but results_a's is 'negR_900.txt'" in err, err


def test_the_docs_command_prints_what_the_page_shows(capsys):
    from conftest import ROOT

    page = (ROOT / "docs" / "families" / "rationale_f1.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```console\n(.*?)```", page, re.S) if "paperscore faithfulness" in b)
    command, *shown = [line for line in block.strip().splitlines() if line != "..."]  # "...": lines left out
    argv = [str(ROOT / a) if a.startswith("tests/") else a for a in command.split()[2:]]
    code, out, _ = run(argv, capsys)
    assert code == 0 and len(shown) >= 6
    for line in shown:
        assert line in out.splitlines(), line  # as printed, column widths included
    # the comparison the page quotes: the command's figures (the scores are ERASER's)
    r = faithfulness.compare_results(A, B, seed=0)
    assert (r["score_a"], r["score_b"]) == pytest.approx((ERASER["a"]["comprehensiveness"], ERASER["b"]["comprehensiveness"]), rel=1e-12)
    quoted = f"B's comprehensiveness is {r['score_b']:.3f} against A's {r['score_a']:.3f}, difference\n{r['difference']:.3f}, 95 % interval [{r['difference_low']:.3f}, {r['difference_high']:.3f}], p = {r['p_value']:.3f}"
    assert quoted in page, quoted


def test_issue_23s_rationale_numbers_compare_from_the_shell(tmp_path, capsys):
    """ERASER's IOU micro and A2R's top-k selection reach `paperscore compare rationale`:
    each system's score is ERASER's partial-match figure / derived by hand."""
    cases = json.loads((SAMPLE / "eraser_metrics.json").read_text(encoding="utf-8"))["iou"]
    case = max(cases, key=lambda c: len(c["references"]))  # ERASER's partial_match_score run in place on it
    paths = {}
    for name, rows in (("gold", case["references"]), ("a", case["predictions"]), ("b", case["references"])):
        paths[name] = tmp_path / f"{name}.jsonl"
        paths[name].write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    argv = ["compare", "rationale", "--references", str(paths["gold"]), "--system-a", str(paths["a"]), "--system-b", str(paths["b"]), "--seed", "0", "--n-resamples", "50", "--json"]
    code, out, err = run(argv + ["--metric-key", "iou_micro_f1"], capsys)
    assert code == 0, err
    result = json.loads(out)
    assert result["score_a"] == pytest.approx(case["eraser"]["iou_micro_f1"], rel=1e-12) and result["score_b"] == 1.0
    soft = [[0.9, 0.6, 0.7, 0.2], [0.1, 0.8, 0.3]]  # top 50 %: tokens 0 and 2; int(3 x 0.5) = 1: token 1
    (tmp_path / "soft.jsonl").write_text("".join(json.dumps(row) + "\n" for row in soft), encoding="utf-8")
    (tmp_path / "soft_gold.jsonl").write_text("[1, 0, 1, 0]\n[0, 1, 0]\n", encoding="utf-8")
    argv = ["compare", "rationale", "--references", str(tmp_path / "soft_gold.jsonl"), "--system-a", str(tmp_path / "soft.jsonl"), "--system-b", str(tmp_path / "soft_gold.jsonl"), "--seed", "0", "--n-resamples", "50", "--json"]
    code, out, err = run(argv + ["--top-k-ratio", "0.5"], capsys)
    assert code == 0, err
    assert json.loads(out)["score_a"] == 1.0 and "top_k_ratio:0.5" in json.loads(out)["signature"]
    code, out, _ = run(argv, capsys)  # by the threshold: tokens 0, 1, 2 and 1: P 3/4, R 1, F1 6/7
    assert json.loads(out)["score_a"] == pytest.approx(6 / 7)
