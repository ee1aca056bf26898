"""The demos as a visitor meets them (issue 37), beyond what tests/test_spaces.py drives on
every page: what is refused and how it says so, the standard sets a Space holds, the SIGHAN
test set as a visitor holds it, two systems and their paired test, what a visitor takes
home (the per-item table and the command that gives the same numbers, run here), and one
visitor's long request beside another's short one. Expected figures by hand, or from an
independent path (sklearn, paperscore.compare called directly, the command line)."""

import contextlib
import csv
import json
import math
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import DATA, LEFT_DRAWN, NOTHING_DRAWN, SPACES, SPACES_DIR, new_figure, open_page, open_raw_result, visit


def answers(app, **changes):
    """The page's outputs (respond: show()'s, then the comparison, downloads and command)."""
    return app.respond(**{**app.EXAMPLE, **changes})


def refusal(call):
    """The message of the page's error that `call()` raises."""
    import gradio as gr

    with pytest.raises(gr.Error) as raised:
        call()
    assert raised.value.duration is None  # shown until closed
    return raised.value.message


# ---------------------------------------------------------------------------------------
# Refusals: wrong forms, sizes, names and lengths in messages


CONLL = (DATA / "coref_conll" / "158_emma_brat.conll").read_text(encoding="utf-8")
JSON_FILE = (DATA / "rationale_eraser" / "movies_sample.eraser.json").read_text(encoding="utf-8")  # a JSON object over several lines
# What each family's boxes hold, as its messages name it.
FORMS = {
    "csc_sighan": "sentence or label line",
    "csc_common": "sentence or label line",
    "micro_macro": "label",
    "quad_match": "sample (quad strings or a JSON sample)",
    "rationale_f1": "example (0/1 selections, scores or a JSON list)",
}


@pytest.mark.parametrize("served", list(FORMS), indirect=True)
def test_a_document_of_another_form_is_refused_not_scored(served):
    """A CoNLL document or a JSON file in a box that holds one item per line is refused by
    name, in every box, before anything is scored (it was scored: F1 0 over 2,347 rows)."""
    space, app, _ = served
    for text in (CONLL, JSON_FILE, CONLL.replace("#begin document", "", 1)):  # tab-separated rows even without the header
        for box in ("predictions", "references", "sources"):
            if box in app.EXAMPLE:
                message = refusal(lambda: app.show(**{**app.EXAMPLE, box: text}))
                assert message.startswith(f"{box}: this is not one {FORMS[space]} per line"), (box, message)


def test_quoted_text_is_cut_and_uploads_named_by_their_names():
    from conftest import load_app

    app = load_app("micro_macro")
    label = "x" * 300_000
    message = refusal(lambda: app.show(**{**app.EXAMPLE, "predictions": label, "references": label, "convention": "maven"}))
    assert len(message) < 700 and re.search(r"\.\.\.\(300,00\d characters\)", message), message[:800]
    # a path in Gradio's upload folder is named by the file's own name
    import gradio as gr

    folder = gr.utils.get_upload_folder()
    assert app.page.readable(f"references: {folder}/3f2a9c/my file.conll is not UTF-8") == "references: my file.conll is not UTF-8"


@pytest.mark.parametrize("served", SPACES, indirect=True)
def test_an_upload_over_the_limit_or_not_utf8_is_refused_in_the_pages_units_by_its_name(served, tmp_path):
    space, app, _ = served
    limit = app.MAX_BYTES if space == "coref_conll" else app.page.MAX_FILE_BYTES
    big, bad = tmp_path / "big system.txt", tmp_path / "gbk.txt"
    big.write_bytes(b"a\n" * (limit // 2 + 1))
    bad.write_bytes("我今天很高兴\n".encode("gbk"))
    reader = app.checked_upload if space == "coref_conll" else app.upload if hasattr(app, "upload") else app.page.read_upload
    for path, says in ((big, f"{limit + 2:,} bytes"), (bad, "UTF-8")):
        with pytest.raises(ValueError) as raised:
            reader(str(path), "predictions")
        message = app.page.readable(str(raised.value))
        assert path.name in message and says in message and str(tmp_path) not in message, message
    if space != "coref_conll":  # the page's units: MB, as the page states its limit
        assert "2.0 MB" in str(raised.value) or "not UTF-8" in str(raised.value)
    # Gradio's own refusal (its units, a toast that vanishes) only far beyond the page's limit
    assert app.page.launch_options(app.SESSIONS)["max_file_size"] >= 10 * app.page.MAX_FILE_BYTES


@pytest.mark.parametrize("served", SPACES, indirect=True)
def test_every_page_states_its_limits(served):
    """The limits the page checks are written on it: files, boxes, time, concurrency."""
    _, app, _ = served
    text = " ".join(str(block.value) for block in app.demo.blocks.values() if type(block).__name__ == "Markdown")
    assert f"{app.page.TIME_LIMIT} s" in text and f"{app.page.CONCURRENCY} at once" in text
    assert "MB" in text and "characters" in text


def test_inputs_are_bounded_before_any_matching():
    """The inputs that made one request hold everyone (issue 37) are refused before any
    parsing or matching: a quad element the fast LCS cannot hold, a long reply for the
    coreference parser, quotes_fuzzy on more cells than the page takes."""
    from conftest import load_app

    quad = load_app("quad_match")
    long = "甲" * (quad.MAX_ELEMENT_TOKENS + 1)
    assert "an element of 65 tokens" in refusal(lambda: quad.show(**{**quad.EXAMPLE, "predictions": f"{long} | good | a#b | pos\nx\ny"}))
    coref = load_app("coref_conll")
    reply = "[Mary](#1) said . " * 2_000
    assert f"a reply of {len(reply):,} characters" in refusal(lambda: coref.show(reply, coref.EXAMPLE["references"], parse="coref_markdown"))
    rationale = load_app("rationale_f1")
    texts = "\n".join(["w " * 1_000] * 3)
    replies = "\n".join([json.dumps(["q" * 60] * 20)] * 3)  # 3 texts of 1,000 characters x 20 quotes of 60: 3 x 1,000 x 20 x 3,600
    references = "\n".join([json.dumps([0] * 1_000)] * 3)
    message = refusal(lambda: rationale.show(**{**rationale.EXAMPLE, "predictions": replies, "references": references, "tokens": texts, "parse": "quotes_fuzzy"}))
    assert "quotes_fuzzy would measure 216,000,000 cells" in message


def test_the_page_time_limit_stops_a_long_request_and_keeps_the_thread():
    """within_time: a request past the limit is the page's error, raised in its own thread;
    one that returns in time is never hit afterwards (the watchdog's exception taken back)."""
    import gradio as gr
    from conftest import load_app

    page = load_app("micro_macro").page

    def spin():
        while True:
            pass

    start = time.monotonic()
    with pytest.raises(gr.Error, match="took more than 0.3 s"):
        page.within_time(spin, 0.3)()
    assert time.monotonic() - start < 5
    # a limit reached before the watchdog has even started (a loaded machine): the value or
    # the page's error, never the watchdog's own exception escaping
    for _ in range(50):
        try:
            assert page.within_time(lambda: sum(range(2_000)), 0)() == 1_999_000
        except gr.Error as error:
            assert "took more than 0 s" in error.message
    quick = page.within_time(lambda n: sum(range(n)), 0.005)
    for _ in range(200):  # each returns near the limit; nothing is raised after it returned
        try:
            quick(20_000)
        except gr.Error:
            pass
        time.sleep(0.002)
    time.sleep(0.05)


# ---------------------------------------------------------------------------------------
# The SIGHAN test set as a visitor holds it


def sighan15_system():
    """(the test input's text, the truth's text, a system's sentences): the truth's
    corrections made on all but the first 100 erroneous sentences, and a spurious edit on
    the first 50 error-free ones. By hand: TP 450, FN 100, FP 50, TN 500 at both levels:
    detection and correction F1 = 900 / (900 + 50 + 100) = 6/7, FPR = 50/550 = 1/11."""
    test_input = (DATA / "sighan15" / "SIGHAN15_CSC_TestInput.txt").read_text(encoding="utf-8")
    truth = (DATA / "sighan15" / "SIGHAN15_CSC_TestTruth.txt").read_text(encoding="utf-8")
    sources = dict(re.fullmatch(r"\(pid=([^)]*)\)\t(.*)", line).groups() for line in test_input.splitlines())
    system, erroneous, clean = [], 0, 0
    edits = {fields[0]: fields[1:] for fields in ([f.strip() for f in line.split(",")] for line in truth.splitlines())}
    for pid, sentence in sources.items():
        chars = list(sentence)
        if edits[pid] == ["0"]:
            clean += 1
            if clean <= 50:
                chars[0] = "丁" if chars[0] != "丁" else "乙"
        else:
            erroneous += 1
            if erroneous > 100:
                for position, char in zip(edits[pid][::2], edits[pid][1::2]):
                    chars[int(position) - 1] = char
        system.append("".join(chars))
    assert (clean, erroneous) == (550, 550)
    return test_input, truth, "\n".join(system)


SIX_SEVENTHS = f"{6 / 7:.4g}"


def test_csc_sighan_takes_the_sighan15_test_set_as_a_visitor_holds_it(tmp_path):
    from conftest import load_app

    from paperscore import csc_sighan

    app = load_app("csc_sighan")
    test_input, truth, system = sighan15_system()
    boxes = {name: app.upload(str(path), name) for name, path in (("sources", DATA / "sighan15" / "SIGHAN15_CSC_TestInput.txt"), ("references", DATA / "sighan15" / "SIGHAN15_CSC_TestTruth.txt"))}
    out = answers(app, **boxes, predictions=system)
    figures = out[0]
    assert figures["correction_f1"] == pytest.approx(6 / 7, abs=1e-12) and figures["false_positive_rate"] == pytest.approx(1 / 11, abs=1e-12)
    # the command the page gives: the jar's form, the sentences written as its result lines
    command = out[-1]
    assert command.startswith("paperscore sighan -i predictions.labels.txt -t SIGHAN15_CSC_TestTruth.txt"), command
    run_command(out, tmp_path, figures)
    # the same with the 2014 name of the definition, and csc_common on the same boxes: the
    # package's figures from the label lines the page wrote
    written = (tmp_path / "predictions.labels.txt").read_text(encoding="utf-8").splitlines()
    assert csc_sighan.compute(predictions=written, references=truth.splitlines())["correction_f1"] == figures["correction_f1"]
    common = load_app("csc_common")
    assert common.respond(**{**common.EXAMPLE, **boxes, "predictions": system, "variant": "realise"})[0]["sentence_correction_f1"] > 0.8
    # a parser cannot read replies into label lines: the boxes to use are named
    assert "give them in References" in refusal(lambda: answers(app, **boxes, predictions=system, parse=app.PARSERS[1]))
    # label-line references with sentences but no pids: which boxes to use, exactly
    message = refusal(lambda: answers(app, sources="\n".join(line.split("\t")[1] for line in test_input.splitlines()), references=boxes["references"], predictions=system))
    assert "put the official test input" in message and "in Sources" in message


def test_each_standard_set_is_the_released_file_with_its_terms():
    """The copies a Space holds are the project's (tests/data: the releases' files), and
    its data/README.md gives their terms."""
    held = {
        "csc_sighan": {"SIGHAN15_CSC_TestInput.txt": DATA / "sighan15", "SIGHAN15_CSC_TestTruth.txt": DATA / "sighan15"},
        "csc_common": {"SIGHAN15_CSC_TestInput.txt": DATA / "sighan15", "SIGHAN15_CSC_TestTruth.txt": DATA / "sighan15"},
        "quad_match": {"diaasq_zh_test.json": DATA / "quad_match", "diaasq_en_test.json": DATA / "quad_match", "LICENSE-DiaASQ": DATA / "quad_match"},
        "coref_conll": {"158_emma_brat.conll": DATA / "coref_conll", "1064_the_masque_of_the_red_death_brat.conll": DATA / "coref_conll"},
        "micro_macro": {"maven_sample.gold.txt": DATA / "micro_macro"},
        "rationale_f1": {"sample.gold.jsonl": DATA / "rationale_f1"},
    }
    terms = {"csc_sighan": "distributed freely", "csc_common": "distributed freely", "quad_match": "MIT", "coref_conll": "CC BY 4.0", "micro_macro": "no licence restrictions", "rationale_f1": "no licence restrictions"}
    for space, files in held.items():
        data = SPACES_DIR / space / "data"
        assert sorted(p.name for p in data.iterdir()) == sorted([*files, "README.md", *(["FinalTest_SubTask2_Truth.txt"] if space == "csc_sighan" else [])])
        for name, folder in files.items():
            assert (data / name).read_bytes() == (folder / name).read_bytes(), (space, name)
        assert terms[space] in (data / "README.md").read_text(encoding="utf-8"), space
    # the SIGHAN 2013 truth: 1,000 label lines as released (checked against its sha256)
    import hashlib

    truth = (SPACES_DIR / "csc_sighan" / "data" / "FinalTest_SubTask2_Truth.txt").read_bytes()
    assert hashlib.sha256(truth).hexdigest() == "f7b6b07839e5e904690c6c7bfd33cb10c32c30de7da2f548a261162820fade8c"


def test_micro_macro_takes_mavens_169_classes():
    """MAVEN's 168 event types and None (the page took 40 classes): scored, equal to
    sklearn; the heatmap says where the matrix is, the per-class table lists all 169."""
    import random

    from conftest import load_app
    from sklearn.metrics import f1_score

    app = load_app("micro_macro")
    classes = ["None"] + [f"Type{i}" for i in range(168)]
    rng = random.Random(169)
    gold = classes + [rng.choice(classes) for _ in range(2_000)]
    predicted = [label if rng.random() < 0.7 else rng.choice(classes) for label in gold]
    out = answers(app, predictions=" ".join(predicted), references=" ".join(gold), convention="none")
    assert out[0]["micro_f1"] == pytest.approx(f1_score(gold, predicted, average="micro"), abs=1e-12)
    assert out[0]["macro_f1"] == pytest.approx(f1_score(gold, predicted, average="macro"), abs=1e-12)
    assert "169 classes: the matrix is drawn up to 40" in out[5]
    rows = list(csv.reader(open(out[7][0], encoding="utf-8")))
    assert len(rows) == 1 + 169


# ---------------------------------------------------------------------------------------
# Two systems, one p-value; take it home


# A second system for each page's example (the same form as its Predictions).
SYSTEM_B = {
    "csc_sighan": {"predictions_b": "\n".join(line for line in [
        "我起床的時候，吃早飯。", "我以前想要告訴你，可是我忘了。我真糊塗。", "我請你吃飯，可以嗎？", "真麻煩你了。希望你們好好的跳舞。",
        "我們看美國電影，我覺得很有意思。", "吃了早餐以後他去上課。", "我聽過她說的話了，我高興的不得了。", "我每天六點半起床。",
        "我覺得你們會好好的玩。", "身體健康。"])},  # fmt: skip
    "csc_common": {"predictions_b": "他們很好\n我們走吧\n吃了早餐\n今天很熱\n我很高興\n我们去公园\n身體健康\n我们去公园"},
    "micro_macro": {"predictions_b": "None Attack None Attack Movement None Movement Attack None None Attack None"},
    "quad_match": {"predictions_b": "food | good | food#taste | pos\n服务态度 | 好 | 服务#态度 | 正面\nfood | good | food#taste | pos"},
    "rationale_f1": {"predictions_b": "001110011100\n00000000000000\n11101000011"},
    "coref_conll": {},  # one document: no test can say anything (compare warns); the cluster example below
}


@pytest.mark.parametrize("served", SPACES, indirect=True)
def test_two_systems_get_the_paired_test_of_compare(served):
    """B - A with its interval and p-value on the page: the figures of
    paperscore.compare.compare (the public API, called here directly) on the same inputs."""
    from paperscore.compare import compare

    space, app, _ = served
    changes = SYSTEM_B[space]
    if space == "coref_conll":  # the cluster example, B one mention better
        changes = dict(predictions=app.EXAMPLES[list(app.EXAMPLES)[2]][0], references=app.EXAMPLES[list(app.EXAMPLES)[2]][1], predictions_b="[[[0, 1], [4, 4], [6, 6]], [[8, 9]]]")
    out = answers(app, **changes)
    kwargs = app.compute_kwargs(**{**app.EXAMPLE, **{k: v for k, v in changes.items() if k != "predictions_b"}})
    if space == "coref_conll":
        kwargs = app.prepare(**{**{k: app.EXAMPLE[k] for k in ("key_file", "response_file", "keep_singletons", "zero_division")}, **{k: v for k, v in changes.items() if k != "predictions_b"}})[0]
        system_b = app.prepare(changes["predictions_b"], changes["references"], None, None, True, "0")[0]["predictions"]
    else:
        system_b = app.compute_kwargs(**{**app.EXAMPLE, **{k: v for k, v in changes.items() if k != "predictions_b"}, "predictions": changes["predictions_b"]})["predictions"]
    options = {key: value for key, value in kwargs.items() if key not in ("predictions", "references", "legacy_keys")}
    if space == "csc_common":
        options["variant"] = "realise"
    key = re.search(r'data-key="([^"]+)"', out[1])[1].split("/")[-1]
    with pytest.warns(UserWarning) if space == "coref_conll" else contextlib.nullcontext():  # one document: compare warns
        expected = compare(space, kwargs["references"], kwargs["predictions"], system_b, metric_key=key, seed=0, n_resamples=1000, **options)
    shown = out[-3]
    assert f"{expected['difference']:+.4g}" in shown and f"p = {expected['p_value']:.3g}" in shown, (shown, expected)
    assert f"{expected['difference_low']:+.4g} to {expected['difference_high']:+.4g}" in shown


def run_command(out, folder, figures):
    """Run the command the page gives in `folder` on the files it offers (as JSON: the
    command line's --json, or the Python call's print); its figures must be the page's."""
    import shutil

    folder.mkdir(exist_ok=True)
    for path in out[-2][1:]:
        shutil.copy(path, folder / Path(path).name)
    words = shlex.split(out[-1])
    words = [sys.executable, "-m", "paperscore", *words[1:], "--json"] if words[0] == "paperscore" else [sys.executable, *words[1:]]
    done = subprocess.run(words, cwd=folder, capture_output=True, text=True, timeout=300, env=os.environ)
    assert done.returncode == 0, done.stderr[-3000:]
    given = json.loads(done.stdout)
    numbers = {key: value for key, value in figures.items() if isinstance(value, float)}
    assert numbers
    for key, value in numbers.items():
        assert (given[key] is None and math.isnan(value)) or given[key] == pytest.approx(value, abs=1e-12), key


# More inputs per page than its example: each mode's command differs.
TAKE_HOME = {
    "csc_sighan": [{}, {"sources": "", "predictions": (DATA / "sighan15" / "SIGHAN15_Toy_Result.txt").read_text(encoding="utf-8"), "references": (DATA / "sighan15" / "SIGHAN15_Toy_Truth.txt").read_text(encoding="utf-8")}],
    "csc_common": [{}],
    "micro_macro": [{}, "OMNIEVENT_EXAMPLE", "BIO_EXAMPLE"],
    "quad_match": [{}, "MVP_EXAMPLE"],
    "rationale_f1": [{}, "LLM_EXAMPLE"],
    "coref_conll": [{}, {"predictions": "[[[0, 1], [4, 4]], [[4, 4], [6, 6]], [[8, 9]]]", "references": "[[[0, 1], [4, 4], [6, 6]], [[2, 2]]]"}],
}


@pytest.mark.parametrize("served", SPACES, indirect=True)
def test_the_command_the_page_gives_computes_the_pages_numbers(served, tmp_path):
    """The per-item table as CSV (a row per item drawn on the page) and the command (or
    Python call) with the files it reads: run here, it prints the page's figures."""
    space, app, _ = served
    for number, changes in enumerate(TAKE_HOME[space]):
        changes = getattr(app, changes) if isinstance(changes, str) else changes
        out = answers(app, **changes)
        table = out[-2][0]
        assert Path(table).name == f"{space}_per_item.csv"
        rows = list(csv.reader(open(table, encoding="utf-8")))
        assert len(rows) >= 2 and all(len(row) == len(rows[0]) for row in rows)
        run_command(out, tmp_path / str(number), out[0])


# ---------------------------------------------------------------------------------------
# One visitor does not hold everyone


def large_quads():
    """40 samples of 50 quads each side, elements of 64 CJK characters: within the page's
    limits, the most matching they allow (seconds)."""
    import random

    rng = random.Random(37)
    chars = [chr(0x4E00 + i) for i in range(3_000)]
    element = lambda: "".join(rng.choice(chars) for _ in range(64))  # noqa: E731
    return "\n".join(" & ".join(f"{element()} | {element()} | a#b | pos" for _ in range(50)) for _ in range(40))


@pytest.mark.parametrize("served", ["quad_match"], indirect=True)
def test_a_cheap_request_is_answered_while_a_large_one_runs_and_a_long_one_is_stopped(served, monkeypatch):
    """Two visitors (two clients, each its own connection): the example asked three times
    while the other's large request runs, each answered before that one ends. "Within a
    second" (issue 37) on a quiet machine: the bound is a second or a fifth of the large
    request's own time, whichever is longer, so that a loaded machine (slowing both alike)
    does not fail it; waiting behind the large request would take most of its time."""
    from gradio_client import Client
    from gradio_client.exceptions import AppError

    _, app, url = served
    big = large_quads()
    expected = app.score(**app.EXAMPLE)[0]["exact_f1"]
    large, cheap = Client(url, verbose=False), Client(url, verbose=False)
    cheap.predict(api_name="/compute")  # the client's first request sets up its connection
    start = time.monotonic()
    job = large.submit(big, big, api_name="/compute")
    while job.status().code.name != "PROCESSING":  # the large request is computing
        assert time.monotonic() - start < 30
        time.sleep(0.05)
    answered = []  # (seconds, whether the large request had ended by then)
    for _ in range(3):
        asked = time.monotonic()
        answer = cheap.predict(api_name="/compute")
        answered.append((time.monotonic() - asked, job.done()))
        assert answer[0]["exact_f1"] == expected
    job.result(timeout=300)
    large_took = time.monotonic() - start
    print(f"large request {large_took:.2f} s; cheap ones {[round(t, 3) for t, _ in answered]} s")
    assert large_took > 2, f"the large request took {large_took:.2f} s: too short to show anything"
    assert not any(ended for _, ended in answered), ("the large request ended before a cheap one was answered", answered)
    assert max(t for t, _ in answered) < max(1.0, large_took / 5), (answered, large_took)
    # past the time limit: the page's error, and the server serves the next request
    monkeypatch.setattr(app.page, "TIME_LIMIT", 0.5)
    with pytest.raises(AppError, match="took more than 0.5 s"):
        large.predict(big, big, api_name="/compute")
    monkeypatch.undo()
    assert cheap.predict(api_name="/compute")[0]["exact_f1"] == expected


# ---------------------------------------------------------------------------------------
# In Chromium: the SIGHAN15 trio, a set picked, an upload over the limit, two systems


def _drive_csc_sighan(browser, url, folder):
    from playwright.sync_api import expect

    test_input, truth, system = sighan15_system()
    (folder / "my system.txt").write_text(system + "\n", encoding="utf-8")
    (folder / "too big.txt").write_bytes(b"a\n" * 1_000_001)
    seen = {}
    toast_text = '[data-testid="toast-text"]'
    # on a desktop, light: the SIGHAN15 trio as a visitor holds it, uploaded; a second system
    context, page = open_page(browser, url, {"width": 1366, "height": 900})
    try:
        toast = page.locator(toast_text)
        before = page.locator("#headline .ps-value").inner_text()
        for box, path in (("sources", DATA / "sighan15" / "SIGHAN15_CSC_TestInput.txt"), ("references", DATA / "sighan15" / "SIGHAN15_CSC_TestTruth.txt"), ("predictions", folder / "my system.txt")):
            page.set_input_files(f"#{box}-file input[type=file]", str(path))
            page.wait_for_function("box => document.querySelector(`#${box} textarea`).value.length > 5000", arg=box, timeout=30_000)
        page.click("#compute-btn")
        seen["trio"] = new_figure(page, before)
        seen["command"] = page.locator("#command textarea").input_value()
        seen["downloads"] = re.sub(r"\s+(?=\.(csv|txt)\b)", "", page.locator("#downloads").inner_text())  # a name's stem and extension are two spans
        page.fill("#predictions_b textarea", test_input.replace("\t", "").replace("(pid=", "").split(")")[0])  # one line: refused by length
        page.click("#compute-btn")
        expect(toast.first).to_contain_text("predictions B and sources differ in length: 1 against 1100", timeout=30_000)
        seen["b_error"] = page.evaluate(LEFT_DRAWN)
        page.locator('[data-testid="toast-close"]').first.click()
        page.fill("#predictions_b textarea", "\n".join(line.split("\t")[1] for line in test_input.splitlines()))
        page.click("#compute-btn")
        expect(page.locator("#comparison")).to_contain_text("B − A", timeout=30_000)
        seen["comparison"] = page.locator("#comparison").inner_text()
        # a standard set picked: the boxes filled; only the system's file brought
        visit(page)
        before = new_figure(page, "")
        page.click("#standard-set input")
        page.get_by_role("option", name=re.compile("SIGHAN 2015 test")).click()
        page.wait_for_function("() => document.querySelector('#references textarea').value.length > 10000", timeout=30_000)
        page.set_input_files("#predictions-file input[type=file]", str(folder / "my system.txt"))
        page.wait_for_function("() => document.querySelector('#predictions textarea').value.length > 5000", timeout=30_000)
        page.click("#compute-btn")
        seen["picked"] = new_figure(page, before)
    finally:
        context.close()
    # on a phone, dark: an upload over the page's limit beside a drawn result and comparison:
    # the page's message, lasting; the box and every output emptied
    context, page = open_page(browser, url, {"width": 390, "height": 844}, "dark")
    try:
        toast = page.locator(toast_text)
        open_raw_result(page)
        page.fill("#predictions_b textarea", page.locator("#predictions textarea").input_value())
        page.click("#compute-btn")
        expect(page.locator("#comparison")).to_contain_text("B − A", timeout=30_000)
        seen["drawn"] = page.evaluate(LEFT_DRAWN)
        page.set_input_files("#predictions-file input[type=file]", str(folder / "too big.txt"))
        expect(toast.first).to_contain_text("too big.txt", timeout=30_000)
        seen["too_big"] = toast.first.inner_text()
        seen["box_after"] = page.locator("#predictions textarea").input_value()
        seen["left_drawn"] = page.evaluate(LEFT_DRAWN)
        page.wait_for_timeout(11_000)  # Gradio's own toasts (10 s) were gone by now
        seen["still_there"] = toast.count()
        return seen
    finally:
        context.close()


@pytest.mark.parametrize("served", ["csc_sighan"], indirect=True)
def test_csc_sighan_in_chromium_trio_set_limit_and_two_systems(served, in_chromium, tmp_path):
    _, _, url = served
    seen = in_chromium(_drive_csc_sighan, url, tmp_path)
    assert seen["trio"] == SIX_SEVENTHS and seen["picked"] == SIX_SEVENTHS
    assert "-i 'my system.labels.txt' -t SIGHAN15_CSC_TestTruth.txt" in seen["command"], seen["command"]
    assert "csc_sighan_per_item.csv" in seen["downloads"] and "my system.labels.txt" in seen["downloads"]
    assert seen["b_error"] == NOTHING_DRAWN  # the error left no result drawn
    # B (the sources unchanged: no edits) against A: 450 TP and 50 FP lost, F1 6/7 -> 0
    assert "B − A on correction_f1: -0.8571" in seen["comparison"] and "p = 0.000999" in seen["comparison"], seen["comparison"]
    drawn = seen["drawn"]  # before the upload: the result and the comparison drawn
    assert drawn["drawn"] and drawn["signature"] and drawn["command"] and drawn["downloads"] and drawn["result"], drawn
    assert seen["too_big"] == "predictions file too big.txt: 2.0 MB (2,000,002 bytes), more than the 2 MB (2,000,000 bytes) this page takes"
    assert seen["box_after"] == "" and seen["left_drawn"] == NOTHING_DRAWN and seen["still_there"] == 1


def _pick_a_set(browser, url, name, system):
    """Pick the standard set `name` (a pattern), upload only the system's file `system`,
    compute: (the headline, the command)."""
    context, page = open_page(browser, url, {"width": 1366, "height": 900})
    try:
        before = page.locator("#headline .ps-value").inner_text()
        page.click("#standard-set input")
        page.get_by_role("option", name=re.compile(name)).click()
        page.wait_for_function("() => document.querySelector('#references textarea').value.length > 5000", timeout=30_000)  # the example's is short
        box = "predictions" if page.locator("#predictions-file").count() else "response"
        page.set_input_files(f"#{box}-file input[type=file]", str(system))
        if box == "predictions":
            page.wait_for_function("() => document.querySelector('#predictions textarea').value.length > 5000", timeout=30_000)
        else:
            page.locator("#response-file").get_by_text(system.suffix).wait_for(timeout=30_000)
        page.click("#compute-btn")
        return new_figure(page, before), page.locator("#command textarea").input_value()
    finally:
        context.close()


def picked_systems(folder):
    """{space: (the set's pattern, the system's file, the held file the command names, the
    headline expected)}: each Space's standard set (csc_sighan's: its Chromium test above)
    with a system's output, the headline derived without the package."""
    import diaasq
    import diaasq_reference
    from sklearn.metrics import f1_score

    from paperscore.quad import DIAASQ_ROWS

    gold, pred = ((DATA / "micro_macro" / f"maven_sample.{side}.txt").read_text(encoding="utf-8").split() for side in ("gold", "pred"))
    maven = f1_score(gold, pred, labels=sorted(set(gold + pred) - {"None"}), average="micro")  # MAVEN: NA left out
    gold, scores = ([json.loads(line) for line in (DATA / "rationale_f1" / f"sample.{side}.jsonl").read_text().splitlines()] for side in ("gold", "pred"))
    kept = [[label for label in row if label != -100] for row in gold]  # the padding is no token
    assert [len(row) for row in kept] == [len(row) for row in scores]
    rationale = f1_score(sum(kept, []), [int(score >= 0.5) for row in scores for score in row])  # the page's threshold_rule >= 0.5
    diaasq_system = folder / "diaasq system.json"  # random near misses of the test set, scored by DiaASQ's run_eval.py
    diaasq_system.write_text(json.dumps(diaasq_reference.released_predictions(diaasq.released("zh"), 0)["nudged"], ensure_ascii=False), encoding="utf-8")
    csc_system = folder / "my system.txt"
    csc_system.write_text(sighan15_system()[2] + "\n", encoding="utf-8")
    run_eval = json.loads((DATA / "quad_match" / "diaasq_reference.json").read_text(encoding="utf-8"))["released"]["zh"]["nudged"]
    return {
        "micro_macro": ("MAVEN-style sample", DATA / "micro_macro" / "maven_sample.pred.txt", "maven_sample.gold.txt", maven),
        "rationale_f1": ("200-example sample", DATA / "rationale_f1" / "sample.pred.jsonl", "sample.gold.jsonl", rationale),
        "quad_match": ("DiaASQ test, Chinese", diaasq_system, "diaasq_zh_test.json", run_eval[DIAASQ_ROWS.index("micro")][2]),
        "coref_conll": ("LitBank: Emma", DATA / "coref_conll" / "158_emma_brat.conll", "158_emma_brat.conll", 1.0),  # the key itself: every metric perfect
        "csc_common": ("SIGHAN 2015 test", csc_system, "SIGHAN15_CSC_TestInput.txt", 6 / 7),  # ReaLiSe's sentence-level figure: by hand above
    }


@pytest.mark.parametrize("served", [space for space in SPACES if space != "csc_sighan"], indirect=True)
def test_a_standard_set_picked_takes_only_the_systems_file(served, in_chromium, tmp_path):
    """Issue 37, item 10: a visitor picks the set the Space holds and brings only a system's
    file; the headline is the set's figure (sklearn, DiaASQ's run_eval.py, by hand), and the
    command names the held copy."""
    space, _, url = served
    name, system, held, expected = picked_systems(tmp_path)[space]
    shown, command = in_chromium(_pick_a_set, url, name, system)
    assert shown == f"{expected:.4g}", (shown, expected)
    assert held in command, command


def _drive_coref_upload(browser, url, paths):
    """Each file of `paths` uploaded as the key, on a fresh page with its example drawn:
    [(the page's message, what is left drawn)]."""
    from playwright.sync_api import expect

    seen = []
    for path in paths:
        context, page = open_page(browser, url, {"width": 1366, "height": 900}, "dark")
        try:
            page.set_input_files("#key-file input[type=file]", str(path))
            toast = page.locator('[data-testid="toast-text"]')
            expect(toast.first).to_contain_text(path.name, timeout=30_000)
            seen.append((toast.first.inner_text(), page.evaluate(LEFT_DRAWN)))
        finally:
            context.close()
    return seen


@pytest.mark.parametrize("served", ["coref_conll"], indirect=True)
def test_coref_names_a_refused_upload_by_its_file_name(served, in_chromium, tmp_path):
    """A key file that is not UTF-8, or over the page's limit, refused on upload: named by
    its name, not by the server's copy of it, the limit in the page's units (it states
    "1 MB (1,000,000 bytes)"), and the result emptied (desktop, dark)."""
    _, app, url = served
    gbk, big = tmp_path / "emma gbk.conll", tmp_path / "too big.conll"
    gbk.write_bytes("#begin document (x); part 000\n我\t(1)\n#end document\n".encode("gbk"))
    big.write_bytes(b"x\n" * (app.MAX_BYTES // 2 + 1))
    (not_utf8, drawn), (too_big, drawn_big) = in_chromium(_drive_coref_upload, url, [gbk, big])
    assert not_utf8.startswith("references file emma gbk.conll: not UTF-8") and "/tmp" not in not_utf8 and "gradio" not in not_utf8, not_utf8
    assert "1,000,000 bytes" in too_big and "too big.conll: 1.0 MB, 1,000,002 bytes" in too_big and "/tmp" not in too_big, too_big
    assert drawn == drawn_big == NOTHING_DRAWN
