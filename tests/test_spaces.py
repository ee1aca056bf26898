"""The Space contract, checked for every spaces/<name>/ directory that has a metric script.

A new Space passes these by following the conventions: a card with the Space YAML and the
metric-card sections whose examples run; vendored copies of the package that are fresh and
imported on their own lines; a metric class `X(SpaceMetric, evaluate.Metric)` whose
`check_batch` guards what evaluate's features would coerce; `tests.py` with hand-derived `test_cases`, `demo_bad_input`
and `demo_error`; an app.py that builds `demo` on import (launching only as a script) and
defines `metric`, `EXAMPLE` (the demo's preloaded input values by parameter name) and
`compute_kwargs(**EXAMPLE)` (the metric keyword arguments those values mean), `score`
(the figures) and `show` (the page: built with the vendored page helpers, paperscore_demo).
The demo's first output is a dict of the headline numbers; its button is #compute-btn, its
first input #predictions and its first output #result (folded); the page shows #headline
(the family's figure, its name and paper), #signature, #figures, a "Metric card" tab and a
file input #<box>-file beside each box it fills.
"""

import doctest
import json
import re
import runpy
import shutil
import sys
from pathlib import Path

import pytest
import yaml
from conftest import HUB, LEFT_DRAWN, NAVIGATION_MS, NOTHING_DRAWN, ORG, OUTBOUND, ROOT, SPACES, SPACES_DIR, choose, open_page, open_raw_result, page_modules, run_python, visit

sys.path.insert(0, str(ROOT / "shared"))
import vendor  # noqa: E402

CARD_KEYS = {"title", "emoji", "colorFrom", "colorTo", "sdk", "sdk_version", "app_file", "pinned", "tags", "description"}
CARD_SECTIONS = [
    "# Metric Card for",
    "## Metric Description",
    "## How to Use",
    "### Inputs",
    "### Output Values",
    "### Examples",
    "## Limitations and Bias",
    "## Citation",
    "## Further References",
]


def card(space):
    text = (SPACES_DIR / space / "README.md").read_text(encoding="utf-8")
    match = re.match(r"^---\n(.*?)\n---\n(.*)$", text, re.S)
    assert match, f"{space}/README.md does not start with a YAML header"
    return yaml.safe_load(match[1]), match[2]


def space_tests(space):
    return runpy.run_path(str(SPACES_DIR / space / "tests.py"))


def pinned(requirements, package):
    text = Path(requirements).read_text(encoding="utf-8")
    match = re.search(rf"^{re.escape(package)}==(\S+)$", text, re.M | re.I)
    assert match, f"{requirements} does not pin {package}"
    return match[1]


def assert_results(result, expected, where):
    for key, value in expected.items():
        assert result[key] == pytest.approx(value, abs=1e-12), f"{where}: {key}"


@pytest.fixture(params=SPACES)
def space(request):
    return request.param


# ---------------------------------------------------------------------------------------
# The card


def test_card_has_the_space_yaml(space):
    meta, _ = card(space)
    assert CARD_KEYS <= set(meta), CARD_KEYS - set(meta)
    assert meta["sdk"] == "gradio"
    assert meta["app_file"] == "app.py"
    assert meta["pinned"] is False
    assert {"evaluate", "metric"} <= set(meta["tags"])
    assert meta["sdk_version"] == pinned(ROOT / "requirements.txt", "gradio")
    assert meta["title"] == space


def test_card_has_the_metric_card_sections_in_order(space):
    _, body = card(space)
    positions = [body.find("\n" + heading) if i else body.find(heading) for i, heading in enumerate(CARD_SECTIONS)]
    assert -1 not in positions, [h for h, p in zip(CARD_SECTIONS, positions) if p == -1]
    assert positions == sorted(positions)


def test_space_requirements_pin_what_the_project_pins(space):
    for package in ("evaluate", "datasets"):
        assert pinned(SPACES_DIR / space / "requirements.txt", package) == pinned(ROOT / "requirements.txt", package)


def test_card_examples_are_run_by_the_docs_harness(space):
    """The card's examples run as a reader pastes them in tests/test_docs.py (a page like
    every docs page: its published-Space line through the Hub stand-in, the clone form
    beside it); here, that the card is one of its pages and shows doctests."""
    import test_docs

    assert SPACES_DIR / space / "README.md" in test_docs.CARDS
    examples = [b for b in test_docs.blocks(SPACES_DIR / space / "README.md") if b.lang == "python"]
    assert any(b.code.lstrip().startswith(">>>") for b in examples), "the card has no doctest examples"
    assert any(b.kind == "published" for b in examples), "the card does not show the published Space's load"


def test_docstring_examples_run(space, hub):
    import evaluate

    metric = evaluate.load(str(SPACES_DIR / space))
    test = doctest.DocTestParser().get_doctest(metric.inputs_description, {"evaluate": evaluate}, space, space, 0)
    assert test.examples, "the metric's docstring has no examples"
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0


# ---------------------------------------------------------------------------------------
# Vendoring


def test_vendored_files_are_fresh():
    assert vendor.main(["--check"]) == 0, "run `python shared/vendor.py`"


def test_metric_script_imports_each_vendored_module_on_its_own_line(space):
    script = (SPACES_DIR / space / f"{space}.py").read_text(encoding="utf-8")
    imported = re.findall(r"^from \.(paperscore_\w+) import [\w, ]+$", script, re.M)
    vendored = sorted(p.stem for p in (SPACES_DIR / space).glob("paperscore_*.py") if p.stem not in page_modules(space))
    assert vendored and sorted(imported) == vendored
    # evaluate reads a comment after a relative import as a URL to fetch it from
    assert not re.search(r"^from \..*#", script, re.M)


def test_vendor_check_notices_edits_and_strays(tmp_path):
    shutil.copytree(ROOT / "shared", tmp_path / "shared", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(SPACES_DIR / "micro_macro", tmp_path / "spaces" / "micro_macro")
    copy = tmp_path / "spaces" / "micro_macro" / "paperscore_core.py"
    assert vendor.main(["--check"], root=tmp_path) == 0
    copy.write_text(copy.read_text() + "\n# hand edit\n")
    (copy.parent / "paperscore_stray.py").write_text("")
    assert vendor.main(["--check"], root=tmp_path) == 1
    assert vendor.main([], root=tmp_path) == 0
    assert vendor.main(["--check"], root=tmp_path) == 0
    assert not (copy.parent / "paperscore_stray.py").exists()
    script = copy.parent / "micro_macro.py"
    script.write_text(re.sub(r"^from \.paperscore_core import .*\n", "", script.read_text(), flags=re.M))
    assert vendor.main([], root=tmp_path) == 1  # the script no longer imports a needed module


# ---------------------------------------------------------------------------------------
# Loading: from the Space, from a copy elsewhere, through the Hub, in two processes


def test_metric_class_mixes_in_space_metric(space):
    import evaluate

    metric = evaluate.load(str(SPACES_DIR / space))
    bases = [cls.__name__ for cls in type(metric).__mro__]
    assert bases.index("SpaceMetric") < bases.index("Metric")  # its add/add_batch run first
    assert "check_batch" in type(metric).__dict__, "the Space states what it checks"
    assert callable(metric.trainer_metrics())


def test_an_empty_corpus_gives_zero_division_values_and_nothing_is_an_error(space):
    import evaluate

    metric = evaluate.load(str(SPACES_DIR / space), keep_in_memory=True)
    numbers = {k: v for k, v in metric.compute(predictions=[], references=[]).items() if isinstance(v, float)}
    assert numbers and set(numbers.values()) == {0.0}
    with pytest.raises(ValueError, match="nothing to compute"):
        metric.compute()


def _case_inputs(case):
    return {k: v for k, v in case.items() if k not in ("kwargs", "result")}


def test_config_names_are_the_spaces_presets_and_documented(space):
    import evaluate
    import inspect

    metric = evaluate.load(str(SPACES_DIR / space), keep_in_memory=True)
    assert metric.configs, f"{space} names no configurations (evaluate.load(..., config_name=...))"
    options = set(inspect.signature(type(metric)._compute).parameters) - set(metric._feature_names()) - {"self"}
    _, body = card(space)
    for name, preset in metric.configs.items():
        assert preset and set(preset) <= options, (name, preset)
        assert f'config_name="{name}"' in body or f"`{name}`" in body, f"the card does not document config {name!r}"
    assert "evaluator" in body, "the card says what works with evaluate's evaluator"


# Presets for another kind of input than the first test case's, each tested on such inputs
# against its reference in its family's file (test_event_spans, test_quad_match, test_corefud).
OTHER_INPUTS = {"micro_macro": ("textee", "oneie"), "quad_match": ("diaasq_table",), "coref_conll": ("crac24",)}


def test_a_config_name_computes_its_preset_and_explicit_arguments_win(space):
    import evaluate

    plain = evaluate.load(str(SPACES_DIR / space), keep_in_memory=True)
    case = space_tests(space)["test_cases"][0]
    for name, preset in plain.configs.items():
        if name in OTHER_INPUTS.get(space, ()):
            continue
        configured = evaluate.load(str(SPACES_DIR / space), config_name=name, keep_in_memory=True)
        assert configured.config_name == name
        expected = plain.compute(**_case_inputs(case), **{**preset, **case["kwargs"]})
        assert configured.compute(**_case_inputs(case), **case["kwargs"]) == expected, name
        # evaluate.combine passes no compute arguments: the configuration is all it has
        combined = evaluate.combine([configured]).compute(**_case_inputs(case))
        alone = plain.compute(**_case_inputs(case), **preset)
        assert {k: v for k, v in combined.items() if k in alone} == {k: v for k, v in alone.items() if not isinstance(v, (dict, list))}


def test_an_unknown_config_name_lists_the_valid_ones(space):
    import evaluate

    names = type(evaluate.load(str(SPACES_DIR / space))).configs
    with pytest.raises(ValueError, match="config_name: 'no-such-preset'") as raised:
        evaluate.load(str(SPACES_DIR / space), config_name="no-such-preset")
    for name in ["default", *names]:
        assert repr(name) in str(raised.value)


def _unstorable(value):
    """The value with its first text or number made one evaluate cannot store."""
    if isinstance(value, str):
        return value + "\ud800"  # a lone surrogate: not encodable as UTF-8
    if isinstance(value, list) and value:
        return [_unstorable(value[0]), *value[1:]]
    return 2**63  # beyond int64


def test_a_batch_evaluate_cannot_store_is_named_and_leaves_the_metric_clean(space):
    import evaluate

    metric = evaluate.load(str(SPACES_DIR / space), keep_in_memory=True)
    cases = space_tests(space)["test_cases"]
    for index, case in enumerate(cases):
        inputs = _case_inputs(case)
        broken = {name: [_unstorable(values[0]), *values[1:]] for name, values in inputs.items()}
        with pytest.raises(ValueError, match=r"(predictions|references)\[0\]"):
            metric.add_batch(**broken)
        # the next case (another input format, where the Space has several) is not refused
        following = cases[(index + 1) % len(cases)]
        assert_results(metric.compute(**_case_inputs(following), **following["kwargs"]), following["result"], f"{space} after a refused batch")


def test_loads_from_the_space_directory(space, monkeypatch):
    """As the card shows for a clone (issue 25): evaluate.load("spaces/<name>") from the
    repository's root, before the Space is published."""
    import evaluate

    _, body = card(space)
    assert f'evaluate.load("spaces/{space}")' in body, "the card does not show the local-path form"
    monkeypatch.chdir(ROOT)
    metric = evaluate.load(f"spaces/{space}")
    for number, case in enumerate(space_tests(space)["test_cases"]):
        result = metric.compute(predictions=case["predictions"], references=case["references"], **case["kwargs"])
        assert_results(result, case["result"], f"case {number}")


LOAD_EVERYWHERE = """
import json, runpy, sys, traceback
import evaluate
out = {}
for where, tests in zip(sys.argv[1::2], sys.argv[2::2]):
    try:
        metric = evaluate.load(where)
        cases = runpy.run_path(tests)["test_cases"]
        out[where] = [metric.compute(predictions=c["predictions"], references=c["references"], **c["kwargs"]) for c in cases]
    except Exception:
        out[where] = traceback.format_exc()
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def loaded_in_a_fresh_process(tmp_path_factory):
    """Every Space loaded by one fresh interpreter with an empty Hugging Face cache, from a
    copy of its directory elsewhere and as `paperscore/<name>` through the Hub stand-in
    (one process for all: each import of evaluate costs seconds). Returns
    {(way, space): the tests.py results or a traceback}, the cache and the Hub requests."""
    root = tmp_path_factory.mktemp("loading")
    where, arguments = {}, []
    for space in SPACES:
        copy = root / "elsewhere" / "deep" / space
        shutil.copytree(SPACES_DIR / space, copy, ignore=shutil.ignore_patterns("__pycache__"))
        where[("copy", space)], where[("hub", space)] = str(copy), f"{ORG}/{space}"
        arguments += [copy, copy / "tests.py", f"{ORG}/{space}", SPACES_DIR / space / "tests.py"]
    before = len(HUB.requests)
    out = run_python(LOAD_EVERYWHERE, *arguments, env={"HF_HOME": str(root / "hf")}, cwd=root)
    return {key: out[value] for key, value in where.items()}, root / "hf", HUB.requests[before:]


def assert_cases(results, space, where):
    assert isinstance(results, list), f"{space} {where}:\n{results}"
    cases = space_tests(space)["test_cases"]
    assert len(results) == len(cases)
    for number, (result, case) in enumerate(zip(results, cases)):
        assert_results(result, case["result"], f"{where} case {number}")


def test_loads_from_a_copy_elsewhere_with_a_fresh_cache(space, loaded_in_a_fresh_process):
    results, cache, _ = loaded_in_a_fresh_process
    assert_cases(results[("copy", space)], space, "from a copy")
    # the copy's module directory (a hub load's is named <org>--<name>)
    assert [p for p in cache.rglob(f"{space}.py") if p.parent.parent.name == space], "the module cache was not used"


def test_loads_as_org_name_through_the_hub(space, loaded_in_a_fresh_process):
    results, _, requests = loaded_in_a_fresh_process
    assert_cases(results[("hub", space)], space, "through the Hub")
    fetched = {path.rsplit("/", 1)[-1] for method, path in requests if method == "GET" and f"/{ORG}/{space}/" in path}
    vendored = {p.name for p in (SPACES_DIR / space).glob("paperscore_*.py") if p.stem not in page_modules(space)}
    assert fetched == {f"{space}.py"} | vendored


TWO_PROCESSES = """
import json, runpy, sys, traceback
from pathlib import Path
import evaluate
rank, cache = int(sys.argv[1]), sys.argv[2]
out = {}
for space, tests in zip(sys.argv[3::2], sys.argv[4::2]):
    name = Path(space).name
    try:
        out[name] = []
        for number, case in enumerate(runpy.run_path(tests)["test_cases"]):
            metric = evaluate.load(space, num_process=2, process_id=rank, experiment_id=f"{name}-case{number}", cache_dir=cache, timeout=120)
            half = (len(case["references"]) + 1) // 2
            part = slice(0, half) if rank == 0 else slice(half, None)
            metric.add_batch(predictions=case["predictions"][part], references=case["references"][part])
            out[name].append(metric.compute(**case["kwargs"]))
    except Exception:
        out[name] = traceback.format_exc()
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def two_processes(tmp_path_factory):
    """Ranks 0 and 1 of `num_process=2`, two processes that score every Space's tests.py
    cases, each rank adding its half of each case: {space: rank 0's results}, {space: rank 1's}."""
    import subprocess

    root = tmp_path_factory.mktemp("two-processes")
    script = root / "rank.py"
    script.write_text(TWO_PROCESSES)
    spaces = [str(part) for space in SPACES for part in (SPACES_DIR / space, SPACES_DIR / space / "tests.py")]
    ranks = [
        subprocess.Popen([sys.executable, str(script), str(rank), str(root / "cache"), *spaces], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for rank in (0, 1)
    ]
    try:  # a rank that fails leaves the other waiting for it: both are ended, not waited on
        outputs = [rank.communicate(timeout=300) for rank in ranks]
    except subprocess.TimeoutExpired:
        for rank in ranks:
            rank.kill()
        outputs = [rank.communicate() for rank in ranks]
        raise AssertionError("the two ranks did not finish in 300 s:\n" + "\n".join(err[-3000:] for _, err in outputs)) from None
    for rank, (out, err) in zip(ranks, outputs):
        assert rank.returncode == 0, err[-3000:]
    return [json.loads(out.strip().splitlines()[-1]) for out, _ in outputs]


def test_two_processes_give_what_one_gives(space, two_processes):
    cases = space_tests(space)["test_cases"]
    assert all(len(c["references"]) >= 2 for c in cases), "each case needs an example per process"
    merged, other = (rank[space] for rank in two_processes)
    assert other == [None] * len(cases), other
    assert_cases(merged, space, "two processes")


# ---------------------------------------------------------------------------------------
# The demo

BUILD_OFFLINE = """
import json, os, runpy, sys, traceback
hosts = []
sys.addaudithook(lambda event, args: hosts.append(str(args[0])) if event == "socket.getaddrinfo" else None)
out = {}
for app in sys.argv[1:]:
    hosts.clear()  # the first app also pays for importing gradio: its look-ups count there
    os.chdir(os.path.dirname(app))
    try:
        import gradio
        launched = []  # run as a script, with launch() only recording how it was called
        gradio.Blocks.launch = lambda self, **kwargs: launched.append((bool(self.is_running), kwargs))
        namespace = runpy.run_path(app, run_name="__main__")
        demo = namespace["demo"]
        out[app] = {"blocks": isinstance(demo, gradio.Blocks), "running": launched[0][0], "launch": launched[0][1],
                    "sessions": namespace.get("SESSIONS"), "hosts": list(hosts)}
    except Exception:
        out[app] = {"error": traceback.format_exc()}
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def built_offline():
    """Every app.py run as a script (its launch() recorded, not run) by one fresh interpreter, in its own directory,
    with the host names each one looked up: {space: what was built}."""
    apps = {space: str(SPACES_DIR / space / "app.py") for space in SPACES}
    out = run_python(BUILD_OFFLINE, *apps.values(), cwd=ROOT)
    return {space: out[app] for space, app in apps.items()}


def test_demo_builds_offline_without_launching(space, built_offline):
    built = built_offline[space]
    assert "error" not in built, built.get("error")
    assert built["blocks"] and not built["running"]
    assert [h for h in built["hosts"] if h not in ("127.0.0.1", "localhost")] == []


def test_demo_launched_as_a_script_keeps_few_sessions(space, built_offline):
    """Gradio keeps each visitor session's page state, 10,000 sessions by default: memory
    grew without bound under load (tests/test_rationale_f1.py drives one demo through it)."""
    built = built_offline[space]
    assert "error" not in built, built.get("error")
    assert built["launch"].get("state_session_capacity") == built["sessions"] <= 100


def expected_headline(app):
    return app.metric.compute(**app.compute_kwargs(**app.EXAMPLE))


class SharedMetricGuard:
    """Stands in for app.metric: a demo may only take fresh() instances from it, so that
    one request (or thread) cannot see another's batches."""

    def __init__(self, metric):
        self._metric = metric

    def fresh(self):
        return self._metric.fresh()

    def __getattr__(self, name):
        raise AssertionError(f"the demo used the shared module-level metric's {name!r}")


def _headline(output):
    return output[0] if isinstance(output, (tuple, list)) else output


def test_demo_requests_are_independent_and_thread_safe(served, monkeypatch):
    import gradio as gr
    from concurrent.futures import ThreadPoolExecutor

    space, app, _ = served
    checks = space_tests(space)
    monkeypatch.setattr(app, "metric", SharedMetricGuard(app.metric))
    expected = _headline(app.score(**app.EXAMPLE))
    requests = [
        (app.EXAMPLE, None),
        ({**app.EXAMPLE, **checks["demo_bad_input"]}, checks["demo_error"]),
        ({**app.EXAMPLE, **checks["demo_over_limit"]}, checks["demo_limit_error"]),
    ] * 6

    def answer(request):
        inputs, error = request
        if error is None:
            return _headline(app.score(**inputs)) == expected
        with pytest.raises(gr.Error, match=re.escape(error)):
            app.score(**inputs)
        return True

    with ThreadPoolExecutor(8) as pool:
        assert all(pool.map(answer, requests))


def test_demo_answers_gradio_client_and_survives_bad_input(served):
    from gradio_client import Client
    from gradio_client.exceptions import AppError

    space, app, url = served
    client = Client(url, verbose=False)
    output = client.predict(api_name="/compute")
    headline = output[0] if isinstance(output, (tuple, list)) else output
    numbers = {k: v for k, v in headline.items() if isinstance(v, float)}
    assert numbers, "the demo's first output shows no numbers"
    assert_results(expected_headline(app), numbers, f"{space} demo")
    checks = space_tests(space)
    with pytest.raises(AppError, match=re.escape(checks["demo_error"])):
        client.predict(**checks["demo_bad_input"], api_name="/compute")
    again = client.predict(api_name="/compute")
    assert (again[0] if isinstance(again, (tuple, list)) else again) == headline
    assert OUTBOUND == [], f"the demo reached out: {OUTBOUND}"


HOSTILE = '<img src=x onerror="window.__pwned=1"> <script>window.__pwned=1</script> <b id=pwned>x</b>'
# Elements (outside the text boxes themselves) that carry the hostile markup.
INJECTED = """Array.from(document.querySelectorAll('#pwned, script, img, [onerror]'))
    .filter(e => (e.outerHTML || '').includes('pwned')).map(e => e.outerHTML)"""


def test_demo_in_headless_chromium(served, in_chromium, tmp_path_factory):
    space, app, url = served
    checks = space_tests(space)
    numbers = {k: v for k, v in expected_headline(app).items() if isinstance(v, float)}
    shots = tmp_path_factory.mktemp(f"screenshots-{space}")
    viewport, scheme = VIEWS[SPACES.index(space) % len(VIEWS)]
    requested = in_chromium(_drive_the_demo, url, checks, numbers, shots, viewport, scheme)
    hosts = {re.match(r"\w+://([^/:]+)", u)[1] for u in requested if u.startswith("http")}
    assert hosts == {"127.0.0.1"}, hosts


def _figures_text(page):
    """The headline and the figures table as the page draws them."""
    return page.locator("#headline").inner_text() + "\n" + page.locator("#figures").inner_text()


# The sizes and colour schemes the pages are driven at, one per page in turn: each
# combination of a 1366 x 900 desktop or a 390 x 844 phone and light or dark (issue 37).
VIEWS = [({"width": 1366, "height": 900}, "light"), ({"width": 390, "height": 844}, "dark"), ({"width": 1366, "height": 900}, "dark"), ({"width": 390, "height": 844}, "light")]


def _drive_the_demo(browser, url, checks, numbers, shots, viewport, scheme):
    """The browser test's steps (run in the browser's thread) at `viewport` in `scheme`;
    the URLs the page requested."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport=viewport, color_scheme=scheme)
    context.set_default_navigation_timeout(NAVIGATION_MS)
    try:
        page = context.new_page()
        requested = []
        page.on("request", lambda request: requested.append(request.url))
        visit(page, url)
        open_raw_result(page)
        page.click("#compute-btn")
        first_key = next(iter(numbers)).split("/")[-1]  # a side-by-side table names it without its convention
        expect(page.locator("#figures")).to_contain_text(first_key, timeout=30_000)
        text = _figures_text(page)
        shown = [key for key in numbers if key.split("/")[-1] in text]
        assert shown, text
        for key in shown:
            assert four_digits(numbers[key]) in text, (key, four_digits(numbers[key]), text)
        page.screenshot(path=str(shots / "result.png"), full_page=True)
        drawn = page.evaluate(LEFT_DRAWN)
        assert drawn["drawn"] and drawn["signature"] and drawn["command"] and drawn["downloads"] and drawn["result"], drawn

        bad_field, bad_value = next(iter(checks["demo_bad_input"].items()))
        page.fill(f"#{bad_field} textarea", bad_value)
        page.click("#compute-btn")
        toast = page.locator('[data-testid="toast-text"]')
        expect(toast.first).to_contain_text(checks["demo_error"], timeout=30_000)
        # no result of the former inputs stays drawn beside the new ones (issue 37)
        assert page.evaluate(LEFT_DRAWN) == NOTHING_DRAWN
        page.screenshot(path=str(shots / "error.png"), full_page=True)

        # a stated limit, refused with a message
        visit(page)
        for field, value in checks["demo_over_limit"].items():
            page.fill(f"#{field} textarea", value)
        page.click("#compute-btn")
        expect(toast.first).to_contain_text(checks["demo_limit_error"], timeout=30_000)
        page.screenshot(path=str(shots / "limit.png"), full_page=True)

        # an empty box is refused, by name, not scored as an empty corpus
        visit(page)
        page.fill("#predictions textarea", "")
        page.click("#compute-btn")
        expect(toast.first).to_contain_text("predictions: ", timeout=30_000)

        # user text is shown, never run: every text box gets markup that would run
        visit(page)
        expect(page.locator("#figures")).to_contain_text(first_key, timeout=30_000)  # the example, drawn on load
        before = page.locator("#figures .ps-scroll").first.inner_text()  # the table (Gradio's timer writes beside it)
        boxes = page.locator("textarea:not([readonly]):not([disabled])")
        for i in range(boxes.count()):
            boxes.nth(i).fill(HOSTILE)
        page.click("#compute-btn")
        page.wait_for_function(
            "before => document.querySelector('[data-testid=\"toast-text\"]') || (document.querySelector('#figures .ps-scroll')?.innerText ?? before) !== before",
            arg=before,
            timeout=30_000,
        )
        page.wait_for_timeout(500)  # let any injected element load and fire
        assert page.evaluate("window.__pwned") is None
        assert page.evaluate(INJECTED) == [], "user text became markup"
        page.screenshot(path=str(shots / "hostile.png"), full_page=True)

        visit(page)  # the server keeps serving
        page.click("#compute-btn")
        expect(page.locator("#figures")).to_contain_text(first_key, timeout=30_000)
        return requested
    finally:
        context.close()


def four_digits(value):
    """A figure as the page shows it: 4 significant digits (written out here, not the app's)."""
    return "nan" if value != value else f"{value:.4g}"


# ---------------------------------------------------------------------------------------
# What a visitor sees first (issue 25): the headline figure, the signature box, the card
# tab, every drawn colour readable in both colour schemes, nothing clipped on a phone.

# The figure each family's page puts first, by the family's papers (not read from the app).
HEADLINE_KEYS = {
    "micro_macro": "micro_f1",
    "csc_sighan": "correction_f1",
    "csc_common": "realise/sentence_correction_f1",
    "coref_conll": "conll_f1",
    "quad_match": "exact_f1",
    "rationale_f1": "f1",
}
PHONE = {"width": 390, "height": 844}

# WCAG contrast of every element carrying one of the project's classes (ps-*) that has text
# of its own, against the first opaque background behind it: [class, text, ratio].
CONTRASTS = """() => {
  const channels = c => c.match(/[\\d.]+/g).map(Number);
  const luminance = c => {
    const [r, g, b] = channels(c).slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const opaque = c => { const v = channels(c); return v.length < 4 || v[3] > 0; };
  const behind = el => {
    for (let e = el; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor; if (opaque(c)) return c; }
    return 'rgb(255, 255, 255)';
  };
  const out = [];
  for (const el of document.querySelectorAll('[class*="ps-"]')) {
    const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.checkVisibility()) continue;
    const a = luminance(getComputedStyle(el).color), b = luminance(behind(el));
    out.push([el.className, el.textContent.trim().slice(0, 12), (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)]);
  }
  return out;
}"""

# Elements reaching past the viewport's right edge that no scrolling box of theirs holds.
CLIPPED = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('.gradio-container *')) {
    const r = el.getBoundingClientRect();
    if (!r.width || r.right <= innerWidth + 1 || !el.checkVisibility()) continue;
    let held = false;
    for (let e = el.parentElement; e && !held; e = e.parentElement) held = ['auto', 'scroll'].includes(getComputedStyle(e).overflowX);
    if (!held) bad.push(`${el.tagName}.${el.className} right ${Math.round(r.right)}`);
  }
  return bad.slice(0, 10);
}"""


def _look(browser, url, scheme, viewport):
    """The page after loading (the default example drawn), in `scheme` at `viewport`."""
    return open_page(browser, url, viewport, scheme)


# Where the first screen puts things: the headline figure's box, Compute's and the inputs'
# (the grid's first part), each {top, bottom, left, right}, and the viewport's height.
FIRST_SCREEN = """() => {
  const box = s => { const r = document.querySelector(s).getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  return {headline: box('#headline .ps-value'), compute: box('#compute-btn'), inputs: box('#ps-inputs'), height: innerHeight};
}"""
# Options cut short (the options part at a desktop's width): a control narrower than 140 px
# (nine options in one row left word stubs), or a value wider than its input: [id, text, px].
OPTIONS_CLIPPED = """() => {
  const pen = document.createElement('canvas').getContext('2d');
  const narrow = Array.from(document.querySelectorAll('#ps-options .block')).filter(e => e.checkVisibility() && e.getBoundingClientRect().width < 140)
    .map(e => [e.id, e.innerText.slice(0, 40), Math.round(e.getBoundingClientRect().width)]);
  const cut = Array.from(document.querySelectorAll('#ps-options input[type=text]')).filter(e => e.checkVisibility()).filter(e => {
    const style = getComputedStyle(e); pen.font = style.font;
    return pen.measureText(e.value).width > e.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) + 1;
  }).map(e => [e.id, e.value, e.clientWidth]);
  return narrow.concat(cut);
}"""
# Boxes that scroll sideways and cannot take the keyboard's focus (axe's scrollable-region-focusable).
UNFOCUSABLE = """() => Array.from(document.querySelectorAll('.ps-scroll')).filter(e => e.getAttribute('tabindex') !== '0').length"""


def _visit(browser, url, shots):
    """What the checks need, read in the browser's thread: the first screen at a desktop's
    and a phone's size, light and dark."""
    from playwright.sync_api import expect

    seen = {}
    context, page = _look(browser, url, "light", {"width": 1366, "height": 900})
    try:
        value = page.locator("#headline .ps-value")
        seen["headline"] = (value.get_attribute("data-key"), value.inner_text(), page.locator("#headline").inner_text())
        seen["headline_size"] = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#headline .ps-value')).fontSize)")
        seen["signature"] = page.locator("#signature textarea").input_value()
        seen["copy"] = page.locator("#signature button").count()
        seen["figures"] = page.locator("#figures").inner_text()
        seen["light"] = page.evaluate(CONTRASTS)
        seen[("desktop", "light")] = page.evaluate(FIRST_SCREEN)
        seen["options_clipped"] = page.evaluate(OPTIONS_CLIPPED)
        seen["unfocusable"] = page.evaluate(UNFOCUSABLE)
        page.screenshot(path=str(shots / "desktop.png"))
        page.get_by_role("tab", name="Metric card").click()
        expect(page.locator("#card")).to_contain_text("Metric Card for", timeout=10_000)
        seen["card"] = page.locator("#card").inner_text()
        page.screenshot(path=str(shots / "card.png"))
    finally:
        context.close()
    context, page = _look(browser, url, "dark", {"width": 1366, "height": 900})
    try:
        seen["dark_body"] = page.evaluate("document.body.classList.contains('dark')")
        seen["dark"] = page.evaluate(CONTRASTS)
        seen[("desktop", "dark")] = page.evaluate(FIRST_SCREEN)
        page.screenshot(path=str(shots / "dark.png"), full_page=True)
    finally:
        context.close()
    for scheme in ("light", "dark"):
        context, page = _look(browser, url, scheme, PHONE)
        try:
            seen[("phone", scheme)] = page.evaluate(FIRST_SCREEN)
            if scheme == "light":
                seen["phone_clipped"] = page.evaluate(CLIPPED)
                seen["phone_width"] = page.evaluate("document.documentElement.scrollWidth")
                seen["phone_signature"] = page.evaluate("(t => [t.scrollWidth, t.clientWidth])(document.querySelector('#signature textarea'))")
            page.screenshot(path=str(shots / f"phone-{scheme}.png"))
        finally:
            context.close()
    return seen


def test_demo_page_headline_signature_card_contrast_and_phone(served, in_chromium, tmp_path_factory):
    """The default example is computed on load: its headline figure first and large, named,
    on the first screen (issue 37): beside the inputs on a 1366 x 900 desktop, right under
    Compute on a 390 x 844 phone, in both colour schemes; the signature in its own box with
    a copy button; the card in a tab; every colour the project draws at >= 4.5:1 in the
    light and the dark scheme; no option label or value cut short; every box that scrolls
    sideways takes the keyboard's focus; on a 390 px phone nothing reaches past the screen
    outside a box of its own that scrolls."""
    space, app, url = served
    expected = app.metric.fresh().compute(**app.compute_kwargs(**app.EXAMPLE), return_signature=True)
    expected["signature"] = _headline(app.score(**app.EXAMPLE))["signature"]  # with the options the page adds
    seen = in_chromium(_visit, url, tmp_path_factory.mktemp(f"look-{space}"))
    key, value, whole = seen["headline"]
    assert key == HEADLINE_KEYS[space] and value == four_digits(expected[key]), seen["headline"]
    assert seen["headline_size"] >= 32, "the headline figure is not large"
    assert len(whole.split("\n")) >= 2, f"the headline names neither the figure nor its paper: {whole!r}"
    for scheme in ("light", "dark"):
        desktop, phone = seen[("desktop", scheme)], seen[("phone", scheme)]
        assert desktop["headline"]["bottom"] <= desktop["height"] and desktop["headline"]["left"] >= desktop["inputs"]["right"], (scheme, desktop)
        assert desktop["headline"]["top"] <= desktop["inputs"]["top"] + 50, (scheme, desktop)  # beside the inputs, at their top
        assert phone["headline"]["bottom"] <= phone["height"], (scheme, phone)
        assert 0 <= phone["headline"]["top"] - phone["compute"]["bottom"] <= 60, (scheme, phone)  # right under Compute
    assert seen["options_clipped"] == [], seen["options_clipped"]
    assert seen["unfocusable"] == 0
    assert seen["signature"] == expected["signature"] and seen["copy"] >= 1
    assert "Metric Card for" in seen["card"] and "---" not in seen["card"].split("\n", 1)[0]
    assert seen["dark_body"], "the dark scheme did not reach the page"
    for scheme in ("light", "dark"):
        assert seen[scheme], f"no drawn colour found in the {scheme} scheme"
        low = [c for c in seen[scheme] if c[2] < 4.5]
        assert low == [], f"{scheme}: below 4.5:1: {low[:5]}"
    assert seen["phone_clipped"] == [] and seen["phone_width"] <= PHONE["width"], seen["phone_clipped"]
    assert seen["phone_signature"][0] <= seen["phone_signature"][1], "the signature is cut off on a phone"


def test_demo_errors_stay_until_closed_in_the_users_terms(served):
    """An error stays until closed (duration None) and names examples as the tables do,
    from 1 (the package says predictions[0])."""
    import gradio as gr

    space, app, _ = served
    with pytest.raises(gr.Error) as raised:
        app.show(**{**app.EXAMPLE, **space_tests(space)["demo_bad_input"]})
    assert raised.value.duration is None
    assert not re.search(r"(predictions|references|sources|tokens)\[\d+\]", raised.value.message), raised.value.message


# Each family's standard test sets, uploaded into the page's file inputs ({input id: file}),
# after the boxes named in "clear" are emptied; and the per-item view whose drawn rows are
# counted (None: the view is no row table).
DATA = ROOT / "tests" / "data"
# the label-lines path of both CSC demos: Sources empty, the jar's truth as both result and truth
LABEL_LINES = ({"references-file": DATA / "sighan15" / "SIGHAN15_CSC_TestTruth.txt", "predictions-file": DATA / "sighan15" / "SIGHAN15_CSC_TestTruth.txt"}, ("sources",), "#per-sentence")
STANDARD_SETS = {
    "micro_macro": [({"predictions-file": DATA / "micro_macro" / "maven_sample.pred.txt", "references-file": DATA / "micro_macro" / "maven_sample.gold.txt"}, (), None)],
    # the example's Tokens box (three texts) is emptied by the upload, not by hand (issue 37)
    "rationale_f1": [({"predictions-file": DATA / "rationale_f1" / "sample.pred.jsonl", "references-file": DATA / "rationale_f1" / "sample.gold.jsonl"}, (), "#per-example")],
    "csc_sighan": [LABEL_LINES],
    "csc_common": [({f"{box}-file": DATA / "sighan15" / "SIGHAN15_CSC_TestInput.txt" for box in ("sources", "references", "predictions")}, (), "#per-sentence"), LABEL_LINES],
    "quad_match": [({"predictions-file": DATA / "quad_match" / "diaasq_zh_test.json", "references-file": DATA / "quad_match" / "diaasq_zh_test.json"}, (), "#alignment")],
    "coref_conll": [({"key-file": DATA / "coref_conll" / "158_emma_brat.conll", "response-file": DATA / "coref_conll" / "158_emma_brat.conll"}, (), None)],
}


def _upload_standard_set(browser, url, files, clear, view):
    from playwright.sync_api import expect

    context, page = open_page(browser, url, {"width": 1366, "height": 900})
    try:
        before = page.locator("#headline .ps-value").inner_text()  # the example's figure: each set's differs
        for box in clear:
            page.fill(f"#{box} textarea", "")
        for element, path in files.items():
            box = element.removesuffix("-file")
            page.set_input_files(f"#{element} input[type=file]", str(path))
            # uploaded (Gradio draws the name's stem and extension as two spans: a space between
            # them until its stylesheet arrives, late on a loaded machine)
            expect(page.locator(f"#{element}")).to_contain_text(re.compile(re.escape(path.stem) + r"\s*" + re.escape(path.suffix)), timeout=30_000)
            if page.locator(f"#{box} textarea").count():  # a box the file fills
                page.wait_for_function("box => document.querySelector(`#${box} textarea`).value.length > 2000", arg=box, timeout=30_000)
        boxes = {box: page.locator(f"#{box} textarea").input_value() for box in ("predictions", "references", "sources", "tokens") if page.locator(f"#{box} textarea").count()}
        page.click("#compute-btn")
        toast = page.locator('[data-testid="toast-text"]')
        page.wait_for_function(
            """([old, view]) => document.querySelector('[data-testid="toast-text"]') || (document.querySelector('#headline .ps-value')
                && document.querySelector('#headline .ps-value').innerText !== old && (!view || document.querySelectorAll(`${view} tr`).length > 60))""",
            arg=[before, view],
            timeout=60_000,
        )
        error = toast.first.inner_text() if toast.count() else None
        shown = None if error else page.locator("#headline .ps-value").inner_text()
        rows = None
        if view and not error:
            rows = page.evaluate(f"""() => {{
                const all = Array.from(document.querySelectorAll('{view} tr'));
                return [all.length, all.filter(r => r.checkVisibility()).length];
            }}""")
        return boxes, error, shown, rows
    finally:
        context.close()


def test_demo_takes_its_familys_standard_test_set_by_upload(served, in_chromium):
    """The standard test set goes through the page's file inputs (the limits count
    sentences, quads, tokens and labels, not characters); a long per-item view draws its
    first 50 rows and holds the rest behind a "show"."""
    space, app, url = served
    for files, clear, view in STANDARD_SETS[space]:
        boxes, error, shown, rows = in_chromium(_upload_standard_set, url, files, clear, view)
        assert error is None, error
        inputs = {**app.EXAMPLE, **dict.fromkeys(clear, ""), **boxes}
        inputs.update({name.replace("-", "_"): str(path) for name, path in files.items() if name in ("key-file", "response-file")})
        assert shown == four_digits(_headline(app.score(**inputs))[HEADLINE_KEYS[space]]), shown
        if "sources" in clear:  # label lines: SIGHAN15's 1,100 truth lines went through
            assert boxes["sources"] == "" and len(app.sentence_lines(boxes["references"])) == 1_100
        if "tokens" in boxes:  # emptied by the upload: the example's texts are not the file's
            assert boxes["tokens"] == ""
        if rows is not None:
            total, drawn = rows
            assert total > 60, f"{space}: only {total} rows in the per-item view"
            assert drawn <= 51 + 1, f"{space}: {drawn} of {total} rows drawn at once"


def test_demo_refuses_empty_boxes(served):
    import gradio as gr

    space, app, _ = served
    with pytest.raises(gr.Error):
        app.show(**{**app.EXAMPLE, "predictions": "", "references": ""})


# ---------------------------------------------------------------------------------------
# A demo's options beyond its example, chosen in Chromium as a visitor chooses them.


def _compute(page, signature_part):
    """Click Compute and wait for the signature naming the options chosen."""
    from playwright.sync_api import expect

    page.click("#compute-btn")
    expect(page.locator("#signature textarea")).to_have_value(re.compile(re.escape(signature_part)), timeout=30_000)
    return page.locator("#headline .ps-value").inner_text()


def _quad_options(browser, url):
    """quad_match: a tuple_len from the list and one typed, implicit_split, spans (refused
    with similarity rouge_l, then scored with exact). What the page showed."""
    from playwright.sync_api import expect

    context, page = open_page(browser, url, {"width": 1366, "height": 1400})
    seen = {}
    try:
        page.click("#tuple-len input")
        seen["choices"] = [text.replace("\u2713", "").strip() for text in page.get_by_role("option").all_inner_texts()]  # the chosen one ticked
        page.get_by_role("option", name="02", exact=True).click()
        page.fill("#predictions textarea", "food | food#taste\nstaff | service")
        page.fill("#references textarea", "food | food#taste & x | y\nstaff | service")
        seen["02"] = _compute(page, "|tuple_len:02|")
        page.fill("#tuple-len input", "20")
        page.keyboard.press("Enter")
        page.fill("#predictions textarea", "food#taste | food & x | y")
        page.fill("#references textarea", "food#taste | food")
        seen["20"] = _compute(page, "|tuple_len:20|")

        visit(page)
        page.check("#implicit-split input")
        page.fill("#predictions textarea", "NULL | good | food#taste | pos\nfood | NULL | food#taste | pos\nNULL | NULL | food#taste | pos")
        page.fill("#references textarea", "NULL | good | food#taste | pos\nfood | bad | food#taste | pos\nNULL | NULL | food#taste | pos")
        page.click("#compute-btn")
        expect(page.locator("#figures")).to_contain_text("IA&IO", timeout=30_000)
        seen["acos"] = page.evaluate("() => Array.from(document.querySelectorAll('#figures table')[0].rows).map(r => Array.from(r.cells).map(c => c.innerText))")
        seen["implicit_headline"] = page.locator("#headline .ps-value").inner_text()

        visit(page)
        choose(page, "spans", "inclusive")
        page.fill("#predictions textarea", '[[[0, 1], [3, 4], "food", "pos"], [[-1, -1], [6, 6], "price", "neg"]]')
        page.fill("#references textarea", '[[[0, 1], [3, 3], "food", "pos"], [null, [6, 6], "price", "neg"]]')
        page.click("#compute-btn")
        toast = page.locator('[data-testid="toast-text"]')
        expect(toast.first).to_contain_text("similarity", timeout=30_000)
        seen["spans_error"] = toast.first.inner_text()
        choose(page, "similarity", "exact")
        seen["spans"] = _compute(page, "|spans:inclusive|")
        return seen
    finally:
        context.close()


def _micro_macro_options(browser, url):
    """micro_macro: scheme bio with spans textee (BIO_EXAMPLE's tags typed), then bio without
    spans, refused."""
    from playwright.sync_api import expect

    context, page = open_page(browser, url, {"width": 1366, "height": 1400})
    seen = {}
    try:
        choose(page, "convention", "none")
        choose(page, "spans", "textee")
        choose(page, "scheme", "bio")
        page.fill("#predictions textarea", "O B-Attack I-Attack O B-Die\nB-Die O")
        page.fill("#references textarea", '["O", "B-Attack", "I-Attack", "O", "B-Attack"]\n["B-Die", "O"]')
        seen["bio"] = _compute(page, "|spans:textee|scheme:bio|")
        seen["key"] = page.locator("#headline .ps-value").get_attribute("data-key")
        seen["measures"] = page.evaluate("() => Array.from(document.querySelectorAll('#per-class table tr')).map(r => Array.from(r.cells).map(c => c.innerText))")
        choose(page, "spans", "none: labels")
        page.click("#compute-btn")
        toast = page.locator('[data-testid="toast-text"]')
        expect(toast.first).to_contain_text("scheme", timeout=30_000)
        seen["error"] = toast.first.inner_text()
        return seen
    finally:
        context.close()


def _check_quad_options(app, seen):
    from paperscore.quad import TUPLE_LEN_SUBSETS

    assert seen["choices"] == list(TUPLE_LEN_SUBSETS)  # the package's list, every subset
    # "02": 2 hits, n = 2, m = 3: F1 = 4/5; "20" typed: 1 hit, n = 2, m = 1: F1 = 2/3
    assert (seen["02"], seen["20"]) == ("0.8", "0.6667")
    # ACOS's rows (test_quad_match.test_demo_implicit_split_shows_acos_four_rows derives them)
    assert seen["acos"][1:] == [["EA&EO (ea_eo)", "0", "0", "0"], ["IA&EO (ia_eo)", "1", "1", "1"], ["EA&IO (ea_io)", "0", "0", "0"], ["IA&IO (ia_io)", "1", "1", "1"]]
    assert seen["implicit_headline"] == "0.6667"  # 2 hits of 3 and 3
    assert "pass similarity" in seen["spans_error"]
    assert seen["spans"] == "0.5"  # the card's span case: 1 exact hit of 2 and 2


def _check_micro_macro_options(app, seen):
    # Tri-C 2 of 3 (test_event_spans.test_the_demo_reads_bio_tags_with_scheme_bio derives it); Tri-I 3 of 3
    assert (seen["key"], seen["bio"]) == ("trigger_cls_f1", "0.6667")
    rows = {row[0]: row[1:] for row in seen["measures"][1:]}
    assert rows == {"trigger_id": ["1", "1", "1", "3", "3", "3"], "trigger_cls": ["0.6667", "0.6667", "0.6667", "3", "3", "2"]}
    assert "scheme: 'bio' reads tags into trigger spans" in seen["error"]


OPTION_DRIVES = {"quad_match": (_quad_options, _check_quad_options), "micro_macro": (_micro_macro_options, _check_micro_macro_options)}


@pytest.mark.parametrize("served", list(OPTION_DRIVES), indirect=True)
def test_demo_options_chosen_in_chromium(served, in_chromium):
    """Options a visitor picks from the page's lists (quad_match: every tuple_len subset,
    implicit_split, spans; micro_macro: scheme bio) give the hand-derived figures; a
    combination the package refuses is an error toast in the page's terms."""
    space, app, url = served
    drive, check = OPTION_DRIVES[space]
    check(app, in_chromium(drive, url))
