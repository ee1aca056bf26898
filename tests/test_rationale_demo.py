"""The rationale_f1 demo's numbers from issue 23: ERASER's IOU micro among the figures and
A2R's top-k selection as an option (scored and highlighted), by hand and in Chromium.
(Its faithfulness section: tests/test_faithfulness.py.)"""

import re

import pytest

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


def _drive_top_k(browser, url):
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1366, "height": 900})
    try:
        page = context.new_page()
        page.goto(url, wait_until="networkidle")
        value = page.locator("#headline .ps-value")
        expect(value).to_be_visible(timeout=30_000)
        before = value.inner_text()
        for box, text in SOFT.items():
            page.fill(f"#{box} textarea", text)
        page.fill("#top-k-ratio textarea", "0.5")
        page.click("#compute-btn")
        page.wait_for_function("old => document.querySelector('#headline .ps-value').innerText !== old", arg=before, timeout=30_000)
        return {
            "headline": value.inner_text(),
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
