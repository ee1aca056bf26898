"""Test session set-up: offline, with a fresh Hugging Face cache and a local Hub stand-in.

The environment is fixed here, before any test imports evaluate or gradio (both read it at
import): no analytics, no Hub calls, no download counter, HF_HOME in a temporary folder,
and HF_ENDPOINT pointed at a 127.0.0.1 stand-in that serves spaces/ as org "paperscore".
"""

import atexit
import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "shared"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hub import HubStandIn  # noqa: E402

DATA = ROOT / "tests" / "data"
SPACES_DIR = ROOT / "spaces"
SPACES = sorted(p.name for p in SPACES_DIR.iterdir() if (p / f"{p.name}.py").is_file())
ORG = "paperscore"

_home = tempfile.mkdtemp(prefix="paperscore-hf-")
atexit.register(shutil.rmtree, _home, ignore_errors=True)
HUB = HubStandIn(SPACES_DIR, ORG)
atexit.register(shutil.rmtree, HUB.pushed, ignore_errors=True)  # what tests published
OFFLINE_ENV = {
    "GRADIO_ANALYTICS_ENABLED": "False",
    "HF_HUB_OFFLINE": "1",
    "HF_UPDATE_DOWNLOAD_COUNTS": "0",
    "HF_HOME": _home,
    "HF_ENDPOINT": HUB.url,
    "PYTHONPATH": os.pathsep.join([str(ROOT / "shared"), os.environ.get("PYTHONPATH", "")]),
}
os.environ.update(OFFLINE_ENV)
os.environ.pop("HF_EVALUATE_OFFLINE", None)  # it would block the stand-in on 127.0.0.1 too

# Every name lookup or connection this process makes to anything but loopback.
OUTBOUND = []
_LOCAL = {"127.0.0.1", "localhost", "::1", "0.0.0.0", None}


def _audit(event, args):
    if event == "socket.getaddrinfo" and args[0] not in _LOCAL:
        OUTBOUND.append((event, args[0]))
    elif event == "socket.connect" and isinstance(args[1], tuple) and args[1][0] not in _LOCAL:
        OUTBOUND.append((event, args[1][0]))


sys.addaudithook(_audit)


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def run_python(code, *args, env=None, cwd=None, timeout=600):
    """Run `code` in a fresh interpreter (the test session's offline environment plus
    `env`); return the JSON it prints on its last line."""
    full_env = {**os.environ, **(env or {})}
    done = subprocess.run(
        [sys.executable, "-c", code, *map(str, args)],
        env=full_env, cwd=cwd, capture_output=True, text=True, timeout=timeout,
    )
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stderr[-4000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="session")
def hub():
    return HUB


def page_modules(space):
    """The vendored modules only the page needs, which evaluate never fetches: those app.py
    imports (the page helpers, which import gradio), and those it imports into its
    metric's copy of the package (vendor.DEMO_MODULES and all they import, inside functions
    too, for the paired test) that the metric script does not need: paperscore_demo,
    paperscore_compare, paperscore_cli, paperscore_significance, ..."""
    import vendor

    package = ROOT / "shared" / "paperscore"
    app = (SPACES_DIR / space / "app.py").read_text(encoding="utf-8")
    script = (SPACES_DIR / space / f"{space}.py").read_text(encoding="utf-8")
    metric = vendor.closure(package, vendor.SCRIPT_IMPORT.findall(script))
    page = set(vendor.APP_IMPORT.findall(app)) | vendor.closure(package, vendor.DEMO_MODULES, vendor.CALLED_IMPORT)
    return {f"{vendor.PREFIX}{name}" for name in page - metric}


def load_app(space):
    """The Space's app.py imported as a fresh module (its demo built, not launched)."""
    spec = importlib.util.spec_from_file_location(f"app_{space}", SPACES_DIR / space / "app.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session", params=SPACES)
def served(request):
    """(space, its app module, url): the Space's demo launched once for the whole session in
    this process on a free port, for every gradio_client and browser test to share."""
    app = load_app(request.param)
    port = free_port()
    # as app.py launches it (Gradio's own upload limit, the MCP server)
    app.demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True, **app.page.launch_options(app.SESSIONS))
    yield request.param, app, f"http://127.0.0.1:{port}/"
    app.demo.close()


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"]


@pytest.fixture(scope="module")
def in_chromium():
    """run(function, *args) -> function(browser, *args), on one headless Chromium that each
    test module using it starts once (and closes after its tests). Playwright's sync API runs an event loop in the thread that
    started it (asyncio.run would then fail there), so the browser lives in a thread of its
    own and every function using it runs in that thread; its exceptions reach the caller."""
    from concurrent.futures import ThreadPoolExecutor

    assert CHROMIUM.exists(), "browser tests need Chromium at /usr/bin/chromium (apt-get install -y chromium)"
    thread = ThreadPoolExecutor(1, thread_name_prefix="chromium")

    def start():
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        return playwright, playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)

    playwright, browser = thread.submit(start).result()
    yield lambda function, *args: thread.submit(function, browser, *args).result()
    thread.submit(lambda: (browser.close(), playwright.stop())).result()
    thread.shutdown()


# A page load's limit: the demo computes its examples on load, which took over Playwright's
# default 30 s once on a loaded 2-core machine.
NAVIGATION_MS = 90_000


def choose(page, element, value):
    """Pick `value` from the demo's dropdown #element."""
    page.click(f"#{element} input")
    page.get_by_role("option", name=value, exact=True).click()


# What of a result is drawn: everything the project's page helpers draw (every element with
# a ps- class: headline, tables, per-item views, the comparison; not the drop zones, a
# legend in the page's text, or rationale_f1's faithfulness section, a form of its own), the
# signature, the command, the downloads and the raw result.
LEFT_DRAWN = """() => ({
  drawn: Array.from(document.querySelectorAll('[class*="ps-"]')).filter(e => !e.closest('.ps-drop, [data-testid=markdown], [id^=faithfulness]')).map(e => e.className).slice(0, 5),
  signature: document.querySelector('#signature textarea').value,
  command: document.querySelector('#command textarea').value,
  downloads: Array.from(document.querySelectorAll('#downloads a')).map(a => a.innerText).join(''),
  result: (document.querySelector('#result')?.innerText ?? '').includes(':'),  // drawn only when its fold is open
})"""
NOTHING_DRAWN = {"drawn": [], "signature": "", "command": "", "downloads": "", "result": False}


def open_raw_result(page):
    """Open the page's fold of the raw result (its JSON is drawn only when open)."""
    page.get_by_text("Raw result (the dict compute() returns)").click()


def new_figure(page, old, figure="#headline", timeout=30_000):
    """Wait until the page draws `figure` again with a value other than `old` (Compute and
    an upload first empty every output); return that value."""
    page.wait_for_function(
        "([figure, old]) => { const v = document.querySelector(`${figure} .ps-value`); return v && v.innerText !== old; }",
        arg=[figure, old],
        timeout=timeout,
    )
    return page.locator(f"{figure} .ps-value").inner_text()


def visit(page, url=None, figure="#headline"):
    """Go to `url` (None: reload the page) and wait until the demo has drawn its example's
    `figure`, which it computes on load (so that nothing typed next races that computation).
    Not Playwright's "networkidle": a rationale_f1 page never reached it within 90 s in 3 of
    about 10 full runs under load, on a page that is idle in 3 s alone. A timeout names the
    requests still open."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    pending = set()
    handlers = {"request": lambda r: pending.add(r), "requestfinished": lambda r: pending.discard(r), "requestfailed": lambda r: pending.discard(r)}  # Playwright takes no builtins
    for event, handler in handlers.items():
        page.on(event, handler)
    try:
        if url is None:
            page.reload(wait_until="load")
        else:
            page.goto(url, wait_until="load")
        page.locator(f"{figure} .ps-value").wait_for(state="visible", timeout=NAVIGATION_MS)
    except PlaywrightTimeout as error:
        raise AssertionError(f"{page.url}: the example's {figure} not drawn; requests still open: {sorted(r.url for r in pending)}") from error
    finally:
        for event, handler in handlers.items():
            page.remove_listener(event, handler)


def open_page(browser, url, viewport=None, scheme=None, figure="#headline"):
    """(context, page): a new browser context on the demo at `url`, once the page has drawn
    its example's `figure` (the context closed again if it never does)."""
    options = {"viewport": viewport or {"width": 1366, "height": 900}}
    if scheme is not None:
        options["color_scheme"] = scheme
    context = browser.new_context(**options)
    context.set_default_navigation_timeout(NAVIGATION_MS)
    try:
        page = context.new_page()
        visit(page, url, figure)
    except BaseException:
        context.close()
        raise
    return context, page


def without_references(signature):
    """A signature without its `refs:<fingerprint>` field (tests of the other fields; the
    fingerprint's own tests are in test_significance and test_compare)."""
    import re

    assert re.search(r"\|refs:[0-9a-f]{16}\|paperscore:", signature), signature
    return re.sub(r"\|refs:[0-9a-f]{16}(?=\|paperscore:)", "", signature)
