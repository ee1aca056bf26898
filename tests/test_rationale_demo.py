"""The rationale_f1 demo's numbers from issue 23: ERASER's IOU micro among the figures,
A2R's top-k selection as an option (scored and highlighted), and the ERASER faithfulness
section (results JSONL pasted or uploaded), by hand, against ERASER's own figures and in
Chromium."""

import json
import re

import pytest
from conftest import DATA, new_figure, open_page

SAMPLE = DATA / "rationale_eraser"
A = str(SAMPLE / "movies_sample.a.jsonl")
ERASER = json.loads((SAMPLE / "movies_sample.eraser.json").read_text(encoding="utf-8"))  # its score_classifications' output

# Soft scores against gold: the threshold 0.5 selects tokens 0, 1, 2 (P 2/3, R 1, F1 4/5);
# A2R's top_k_ratio 0.5 selects int(4 x 0.5) = 2 tokens, the highest, 0.9 and 0.7
# (tokens 0 and 2): both gold, P = R = F1 = 1; spans [0,1), [2,3) match the gold ones.
SOFT = dict(predictions="0.9 0.6 0.7 0.2", references="1 0 1 0", tokens="")


@pytest.fixture(scope="module")
def app():
    from conftest import load_app

    return load_app("rationale_f1")


def test_the_example_shows_erasers_iou_micro(app):
    # Spans of the example (0-based, end exclusive). 1: predicted [1,4), [8,12) against
    # gold [2,5), [7,10): IOU 2/4 (a match at 0.5) and 2/5 (none). 2: predicted [2,5), no
    # gold. 3: predicted [0,3), [9,11) against [0,3), [4,5), [8,11): IOU 1 and 2/3. Over
    # the corpus: 3 matched of 5 predicted and of 5 gold spans: P = R = F1 = 3/5.
    headline, _, _ = app.score(**app.EXAMPLE)
    assert (headline["iou_micro_precision"], headline["iou_micro_recall"], headline["iou_micro_f1"]) == pytest.approx((0.6, 0.6, 0.6))
    figures = app.show(**app.EXAMPLE)[3]
    assert "<td>iou_micro_f1</td><td>0.6</td>" in figures


def test_top_k_ratio_selects_and_highlights_as_a2r(app):
    inputs = {**app.EXAMPLE, **SOFT}
    by_threshold, _, _ = app.score(**inputs)
    assert by_threshold["f1"] == pytest.approx(0.8)
    headline, marked, table = app.score(**{**inputs, "top_k_ratio": "0.5"})
    assert (headline["precision"], headline["recall"], headline["f1"], headline["iou_micro_f1"]) == (1.0, 1.0, 1.0, 1.0)
    assert "|top_k_ratio:0.5|" in headline["signature"]
    assert [kind for _, kind in marked] == ["TP", None, "TP", None, None]
    assert table["data"][0][3] == 2  # predicted tokens
    for ratio, message in (("x", "top_k_ratio: 'x' is not a number"), ("1.5", "top_k_ratio: 1.5 is not a number in [0, 1]")):
        with pytest.raises(Exception, match=re.escape(message)):
            app.show(**{**inputs, "top_k_ratio": ratio})
    with pytest.raises(Exception, match="threshold_rule: not used with top_k_ratio"):
        app.show(**{**inputs, "top_k_ratio": "0.5", "threshold_rule": ">"})


def opened(browser, url, figure):
    """(context, page, the figure's locator) once the page has drawn the example's `figure`."""
    context, page = open_page(browser, url, figure=figure)
    return context, page, page.locator(f"{figure} .ps-value")


def _drive_top_k(browser, url):
    context, page, value = opened(browser, url, "#headline")
    try:
        before = value.inner_text()
        for box, text in SOFT.items():
            page.fill(f"#{box} textarea", text)
        page.fill("#top-k-ratio textarea", "0.5")
        page.click("#compute-btn")
        return {
            "headline": new_figure(page, before),
            "figures": page.locator("#figures").inner_text(),
            "signature": page.locator("#signature textarea").input_value(),
            "tp": page.locator("#highlighted .ps-tp").count(),
            "fp": page.locator("#highlighted .ps-fp").count(),
        }
    finally:
        context.close()


@pytest.mark.parametrize("served", ["rationale_f1"], indirect=True)
def test_top_k_ratio_in_chromium(served, in_chromium):
    _, _, url = served
    seen = in_chromium(_drive_top_k, url)
    assert seen["headline"] == "1" and "|top_k_ratio:0.5|" in seen["signature"]
    assert re.search(r"iou_micro_f1\s+1\b", seen["figures"]), seen["figures"]
    assert (seen["tp"], seen["fp"]) == (2, 0)


# ---------------------------------------------------------------------------------------
# The rationale_f1 demo's faithfulness section


def four_digits(value):
    """A figure as the page shows it: 4 significant digits (written out here, not the app's)."""
    return f"{value:.4g}"


def plain(lines, k):
    """Comprehensiveness and the AOPC points at threshold index k, straight from the lines
    (ERASER's definitions: p(ŷ | full) minus p(ŷ | without / alone), averaged)."""
    rows = [json.loads(line) for line in lines]
    mean = lambda values: sum(values) / len(values)  # noqa: E731
    y = [row["classification"] for row in rows]
    full = [row["classification_scores"][c] for row, c in zip(rows, y)]
    return {
        "comprehensiveness": mean([f - row["comprehensiveness_classification_scores"][c] for f, row, c in zip(full, rows, y)]),
        "comprehensiveness_point": mean([f - row["thresholded_scores"][k]["comprehensiveness_classification_scores"][c] for f, row, c in zip(full, rows, y)]),
        "sufficiency_point": mean([f - row["thresholded_scores"][k]["sufficiency_classification_scores"][c] for f, row, c in zip(full, rows, y)]),
    }


def test_demo_example_is_the_samples_first_lines_and_shows_their_numbers(app):
    lines = open(A, encoding="utf-8").read().splitlines()[:3]
    assert app.FAITHFULNESS_EXAMPLE["results"].splitlines() == lines
    headline, signature, figures, aopc, rows = app.show_faithfulness(**app.FAITHFULNESS_EXAMPLE)
    expected = plain(lines, 0)  # the sample's thresholds are written in ERASER's order: k = 0.01 first
    assert f'data-key="comprehensiveness">{four_digits(expected["comprehensiveness"])}<' in headline and "DeYoung" in headline
    assert signature.startswith("rationale_f1|measure:eraser_faithfulness|aopc_thresholds:0.01,0.05,0.1,0.2,0.5|")
    assert f"<tr><td>0.01</td><td>{four_digits(expected['comprehensiveness_point'])}</td><td>{four_digits(expected['sufficiency_point'])}</td></tr>" in aopc
    assert "<td>negR_902.txt</td>" in rows and "sufficiency_aopc" in figures


def test_demo_faithfulness_errors_stay_and_name_the_line(app):
    import gradio as gr

    lines = app.FAITHFULNESS_EXAMPLE["results"].splitlines()
    for results, thresholds, message in (
        ("\n" + lines[0] + "\n{oops", "0.01,0.05,0.1,0.2,0.5", "results: line 3 is not JSON"),
        (lines[0], "0.3", "results: line 1 thresholded_scores lack the threshold 0.3"),
        (lines[0], "0.5, 0.1", "aopc_thresholds: '0.5, 0.1' is not a comma-separated list"),
        ("", "0.1", "results: no lines"),
        ("<b>x</b>", "0.1", "results: line 1 is not JSON"),
    ):
        with pytest.raises(gr.Error) as raised:
            app.show_faithfulness(results, thresholds)
        assert raised.value.duration is None and message in raised.value.message, raised.value.message
    # without thresholded_scores: the numbers, and no AOPC said so
    bare = json.dumps({k: v for k, v in json.loads(lines[0]).items() if k != "thresholded_scores"})
    _, _, figures, aopc, _ = app.show_faithfulness(bare, "0.1")
    assert "No thresholded_scores" in aopc and "aopc" not in figures


def test_demo_refuses_more_results_than_it_states(app, monkeypatch):
    import gradio as gr

    monkeypatch.setattr(app, "MAX_RESULTS", 2)
    with pytest.raises(gr.Error, match="more than 2 lines"):
        app.show_faithfulness(**app.FAITHFULNESS_EXAMPLE)


def _drive_faithfulness(browser, url, upload):
    """In Chromium: the example's headline on load; a file uploaded and scored; a broken
    line's error toast. Returns what the page showed."""
    from playwright.sync_api import expect

    context, page, value = opened(browser, url, "#faithfulness-headline")
    try:
        seen = {"on_load": value.inner_text()}
        page.set_input_files("#results-file input[type=file]", str(upload))
        page.wait_for_function("() => document.querySelector('#results textarea').value.split('\\n').length >= 20", timeout=30_000)
        page.click("#faithfulness-btn")
        seen["uploaded"] = new_figure(page, seen["on_load"], "#faithfulness-headline")
        seen["aopc"] = page.locator("#faithfulness-aopc").inner_text()
        seen["signature"] = page.locator("#faithfulness-signature textarea").input_value()
        seen["rows"] = page.locator("#faithfulness-per-example tr").count()
        page.fill("#results textarea", '{"classification": "POS"')
        page.click("#faithfulness-btn")
        toast = page.locator('[data-testid="toast-text"]')
        expect(toast.first).to_contain_text("results: line 1 is not JSON", timeout=30_000)
        seen["toast"] = toast.first.inner_text()
        return seen
    finally:
        context.close()


@pytest.mark.parametrize("served", ["rationale_f1"], indirect=True)
def test_demo_faithfulness_in_chromium(served, in_chromium):
    _, app, url = served
    seen = in_chromium(_drive_faithfulness, url, SAMPLE / "movies_sample.b.jsonl")
    lines = app.FAITHFULNESS_EXAMPLE["results"].splitlines()
    assert seen["on_load"] == four_digits(plain(lines, 0)["comprehensiveness"])
    assert seen["uploaded"] == four_digits(ERASER["b"]["comprehensiveness"])  # ERASER's own figure for the file
    for k, c, s in zip(("0.01", "0.05", "0.1", "0.2", "0.5"), ERASER["b"]["comprehensiveness_aopc_points"], ERASER["b"]["sufficiency_aopc_points"]):
        assert f"{k}\t{four_digits(c)}\t{four_digits(s)}" in seen["aopc"], (k, seen["aopc"])
    assert seen["signature"].startswith("rationale_f1|measure:eraser_faithfulness|") and seen["rows"] == 21
