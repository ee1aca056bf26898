"""Each Space builds on the Hub as it is.

The Hub installs a Space's requirements.txt plus `gradio[oauth,mcp]==<sdk_version>` into a
fresh environment of the card's `python_version` (3.10 when the card names none), then
runs app.py. These tests check, per Space: every distribution that install pulls in
accepts the card's Python (installed metadata, no network); the metric script names every
third-party package its vendored code imports (evaluate checks only the script's imports
when loading, to tell the user what to install); and a real build in a fresh uv
environment (Spaces whose requirements are the same share one, and one process per
environment takes its Spaces in turn) imports app.py from a copy of the Space and scores the demo's example and the tests.py cases, with and without a
confidence interval. Last, the package's sdist and wheel build and the wheel runs alone.
"""

import ast
import functools
import importlib.util
import json
import os
import re
import runpy
import shutil
import subprocess
import sys
import tomllib
from importlib import metadata

import pytest
import yaml
from conftest import ROOT, SPACES, SPACES_DIR, page_modules
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

HUB_DEFAULT_PYTHON = "3.10"  # what the Hub runs when a card sets no python_version
RUNNING_PYTHON = f"{sys.version_info.major}.{sys.version_info.minor}"


def card_header(space):
    text = (SPACES_DIR / space / "README.md").read_text(encoding="utf-8")
    return re.match(r"^---\n(.*?)\n---\n", text, re.S)[1]


def card_python(space):
    return yaml.safe_load(card_header(space)).get("python_version", HUB_DEFAULT_PYTHON)


def hub_requirements(space):
    """What the Hub installs for the Space: its requirements.txt and gradio with extras."""
    lines = (SPACES_DIR / space / "requirements.txt").read_text(encoding="utf-8").splitlines()
    sdk = yaml.safe_load(card_header(space))["sdk_version"]
    return [line for line in lines if line.strip() and not line.startswith("#")] + [f"gradio[oauth,mcp]=={sdk}"]


def requirement_closure(requirements, python):
    """{distribution: Requires-Python} over the installed distributions `requirements`
    pull in on `python` (extras followed), and the names that are not installed."""
    environment = {"python_version": python, "python_full_version": f"{python}.0"}
    found, missing, seen = {}, set(), set()
    todo = [Requirement(r) for r in requirements]
    while todo:
        requirement = todo.pop()
        name = canonicalize_name(requirement.name)
        for extra in {"", *requirement.extras} - {e for n, e in seen if n == name}:
            seen.add((name, extra))
            try:
                distribution = metadata.distribution(name)
            except metadata.PackageNotFoundError:
                missing.add(name)
                continue
            found[name] = distribution.metadata.get("Requires-Python") or ""
            for line in distribution.requires or []:
                dependency = Requirement(line)
                marker = dependency.marker
                wanted = marker is None if not extra else marker is not None and "extra" in str(marker)
                if wanted and (marker is None or marker.evaluate({**environment, "extra": extra})):
                    todo.append(dependency)
    return found, missing


def outside(requirements, python):
    found, missing = requirement_closure(requirements, python)
    assert not missing, f"not installed here, so unchecked: {sorted(missing)} (pip install -r tests/requirements.txt)"
    return {name: spec for name, spec in found.items() if not SpecifierSet(spec).contains(python)}


@pytest.fixture(params=SPACES)
def space(request):
    return request.param


def test_card_declares_a_quoted_python_version(space):
    # Unquoted, YAML would read 3.10 as the float 3.1.
    match = re.search(r'^python_version: "(\d+\.\d+)"$', card_header(space), re.M)
    assert match, f'{space}/README.md: add python_version: "{RUNNING_PYTHON}" to the YAML header'


def test_every_pulled_distribution_accepts_the_card_python(space):
    assert outside(hub_requirements(space), card_python(space)) == {}


def test_the_hub_default_python_is_refused_by_the_pins():
    # Without python_version the Hub uses 3.10; numpy 2.4.6 requires >= 3.11 (its metadata).
    assert "numpy" in outside(hub_requirements("micro_macro"), HUB_DEFAULT_PYTHON)


def test_the_package_declares_what_the_cards_run():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    requires = re.search(r'^requires-python = "(.+)"$', text, re.M)[1]
    assert all(SpecifierSet(requires).contains(card_python(space)) for space in SPACES)


# ---------------------------------------------------------------------------------------
# The metric script names what its vendored code imports


def third_party_imports(path, top_level_only=False):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else ast.walk(tree)
    names = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names - set(sys.stdlib_module_names) - {"__future__"}


def optional_extras():
    """The packages of pyproject's optional extras other than "spaces" (opencc, trl): a
    vendored module imports them only inside the option that needs them, and says which
    extra to install; a Space never depends on them."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    return {re.split(r"[\[<>=!~ ]", requirement)[0].lower() for name, requirements in extras.items() if name != "spaces" for requirement in requirements}


def test_metric_script_imports_what_its_vendored_code_needs(space):
    needed = set().union(*(third_party_imports(p) for p in (SPACES_DIR / space).glob("paperscore_*.py") if p.stem not in page_modules(space)))
    needed -= optional_extras()
    script = third_party_imports(SPACES_DIR / space / f"{space}.py", top_level_only=True)
    assert needed - script == set(), f"{space}/{space}.py: import these at top level"


def test_requirements_install_what_the_space_imports(space):
    """Each third-party module the metric script imports comes from a distribution named
    in requirements.txt (gradio's own dependencies cover the demo)."""
    providers = metadata.packages_distributions()
    pinned = {canonicalize_name(Requirement(r).name) for r in hub_requirements(space)}
    for module in third_party_imports(SPACES_DIR / space / f"{space}.py", top_level_only=True):
        distributions = {canonicalize_name(d) for d in providers.get(module, [module])}
        assert distributions & pinned, f"{space}/requirements.txt: add {sorted(distributions)} (for `import {module}`)"


# ---------------------------------------------------------------------------------------
# A real build, in a fresh environment with only what the Hub installs


def uv():
    """uv, as installed by tests/requirements.txt; a skip outside CI, a failure in it."""
    try:
        subprocess.run([sys.executable, "-m", "uv", "--version"], check=True, capture_output=True)
    except (subprocess.CalledProcessError, FileNotFoundError):
        message = "uv is not installed (pip install -r tests/requirements.txt)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return [sys.executable, "-m", "uv"]


@functools.cache
def pip_index_options(constraint="--constraint"):
    """pip's index configuration (pip.conf and PIP_* variables) as uv options: uv reads
    no pip.conf, and this machine's packages come from PyPI plus local folders. (`uv
    build` names its option --build-constraint.)"""
    listed = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True).stdout
    flags = {"index-url": "--default-index", "extra-index-url": "--index", "find-links": "--find-links", "constraint": constraint}
    options = []
    for line in listed.splitlines():
        key, _, value = line.partition("=")
        flag = flags.get(key.rsplit(".", 1)[-1])
        for item in ast.literal_eval(value).split() if flag else []:
            if [flag, item] not in [options[i : i + 2] for i in range(0, len(options), 2)]:
                options += [flag, item]
    # pip picks the best version across every index; uv's default stops at the first one.
    return options + ["--index-strategy", "unsafe-best-match"]


def build_venv(requirements, venv):
    """A fresh environment at `venv` with exactly `requirements` installed as the Hub
    installs them; its python."""
    command = uv()
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never"}
    subprocess.run([*command, "venv", "-q", "--python", sys.executable, str(venv)], check=True, env=env)
    python = venv / "bin" / "python"
    install = [*command, "pip", "install", "-q", "--python", str(python), *pip_index_options(), *requirements]
    done = subprocess.run(install, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"the Hub's install of {requirements} fails:\n{done.stderr[-4000:]}"
    return python


SCORE_IN_BUILD = """
import importlib, importlib.util, json, os, runpy, sys, traceback
def score(app, kwargs):
    return app.metric.fresh().compute(**kwargs)
out = {}
for copy in sys.argv[1:]:
    os.chdir(copy)
    sys.path[0] = copy
    sys.modules.pop("app", None)  # each Space's own app.py
    try:
        app = importlib.import_module("app")
        assert importlib.util.find_spec("paperscore") is None, "the repository package leaked into the build"
        demo = app.compute_kwargs(**app.EXAMPLE)
        cases = runpy.run_path("tests.py")["test_cases"]
        found = {"demo": score(app, demo), "demo_ci": score(app, {**demo, "confidence_level": 0.9, "seed": 0}), "cases": [], "cases_ci": []}
        for case in cases:
            kwargs = {"predictions": case["predictions"], "references": case["references"], **case["kwargs"]}
            found["cases"].append(score(app, kwargs))
            found["cases_ci"].append(score(app, {**kwargs, "confidence_level": 0.9, "seed": 0}))
    except Exception:
        found = {"error": traceback.format_exc()}
    out[os.path.basename(copy)] = found
    for name, module in list(sys.modules.items()):  # the next Space cannot lean on this one's files
        if (getattr(module, "__file__", None) or "").startswith(copy + os.sep):
            del sys.modules[name]
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """{space: what app.py and the tests.py cases gave in the Hub's environment for the
    Space}, from copies of the Spaces: one environment per distinct requirement list, and
    one process per environment importing each of its Spaces' app.py in turn."""
    root = tmp_path_factory.mktemp("hub-builds")
    groups = {}
    for space in SPACES:
        assert card_python(space) == RUNNING_PYTHON, f"{space}: the build runs on this interpreter: the card must name it"
        groups.setdefault(tuple(sorted(hub_requirements(space))), []).append(space)
    found = {}
    for number, (requirements, spaces) in enumerate(groups.items()):
        python = build_venv(requirements, root / f"venv{number}")
        copies = [shutil.copytree(SPACES_DIR / space, root / f"copies{number}" / space, ignore=shutil.ignore_patterns("__pycache__")) for space in spaces]
        # The repository's package stays out; bytecode is written so a shared venv's next import is quick.
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
        env.update(HF_HOME=str(root / f"hf{number}"), VIRTUAL_ENV=str(python.parent.parent))
        done = subprocess.run([str(python), "-c", SCORE_IN_BUILD, *map(str, copies)], cwd=root, env=env, capture_output=True, text=True, timeout=1200)
        assert done.returncode == 0, f"{spaces}: the scoring process fails in the Hub's environment:\n{done.stderr[-4000:]}"
        found.update(json.loads(done.stdout.strip().splitlines()[-1]))
    return found


def in_process(space):
    """The demo example scored here, in the development environment, for comparison."""
    spec = importlib.util.spec_from_file_location(f"build_app_{space}", SPACES_DIR / space / "app.py")
    app = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(app)
    kwargs = app.compute_kwargs(**app.EXAMPLE)
    return app.metric.fresh().compute(**kwargs), app.metric.fresh().compute(**kwargs, confidence_level=0.9, seed=0)


def assert_same(got, expected, where):
    numbers = {k: v for k, v in expected.items() if isinstance(v, (int, float))}
    assert numbers, f"{where}: no numbers"
    assert {k: got.get(k) for k in numbers} == pytest.approx(numbers, abs=1e-12, nan_ok=True), where


def test_space_builds_and_scores_as_on_the_hub(space, built):
    built = built[space]
    assert "error" not in built, f"{space}: app.py fails in the Hub's environment:\n{built.get('error')}"

    cases = [case["result"] for case in runpy.run_path(str(SPACES_DIR / space / "tests.py"))["test_cases"]]
    for number, (result, result_ci, expected) in enumerate(zip(built["cases"], built["cases_ci"], cases)):
        assert_same(result, expected, f"{space} tests.py case {number}")
        assert_same(result_ci, expected, f"{space} tests.py case {number} with confidence_level")
        key = next(iter(expected))
        assert result_ci[f"{key}_low"] <= result_ci[key] <= result_ci[f"{key}_high"], f"{space} case {number}: {key} interval"
    demo, demo_ci = in_process(space)
    assert_same(built["demo"], demo, f"{space} demo example")
    assert_same(built["demo_ci"], demo_ci, f"{space} demo example with confidence_level")
    assert any(key.endswith("_low") for key in built["demo_ci"]), f"{space}: no interval in the demo example"


# ---------------------------------------------------------------------------------------
# The package: sdist and wheel build, and the wheel installs and runs on its own

PACKAGE_RUN = """
import json
from importlib import metadata
from paperscore.micro_macro import compute
# NA = 0 left out: 4 non-NA predictions, 2 right -> P = 1/2; 5 non-NA gold -> R = 2/5.
r = compute([1, 1, 1, 0, 2, 0, 0], [0, 0, 1, 1, 2, 2, 2], negative_labels=[0])
m = metadata.metadata("paperscore")
print(json.dumps({"p": r["micro_precision"], "r": r["micro_recall"], "version": m["Version"],
                  "license": m["License-Expression"], "urls": m.get_all("Project-URL")}))
"""


def test_sdist_and_wheel_build_and_the_wheel_runs_alone(tmp_path):
    import tarfile
    import zipfile

    from paperscore import core

    command = uv()
    source = shutil.copytree(ROOT, tmp_path / "source", ignore=shutil.ignore_patterns(".git", "__pycache__", "*.egg-info", "build", "dist"))
    out = tmp_path / "dist"
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never"}
    env.pop("PYTHONPATH", None)
    built = subprocess.run([*command, "build", "-q", "--python", sys.executable, "--out-dir", str(out), *pip_index_options("--build-constraint"), str(source)],
                           env=env, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-4000:]
    (sdist,), (wheel,) = out.glob("*.tar.gz"), out.glob("*.whl")
    assert sdist.name == f"paperscore-{core.VERSION}.tar.gz"

    # The sdist is the package alone (the tests need the Spaces, fixtures and a browser).
    with tarfile.open(sdist) as archive:
        names = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    assert {"LICENSE", "README.md", "pyproject.toml", "shared/paperscore/core.py"} <= names
    assert not {n for n in names if n.startswith(("tests/", "spaces/")) or "__pycache__" in n}
    assert {f"shared/paperscore/{p.name}" for p in (ROOT / "shared" / "paperscore").glob("*.py")} <= names
    tasks = [p.name for p in (ROOT / "shared" / "paperscore" / "lm_eval_tasks").iterdir()]
    with zipfile.ZipFile(wheel) as archive:  # lm-eval's ready-made tasks are package data
        assert {f"paperscore/lm_eval_tasks/{name}" for name in tasks} <= set(archive.namelist())

    venv = tmp_path / "venv"
    subprocess.run([*command, "venv", "-q", "--python", sys.executable, str(venv)], check=True, env=env)
    python = venv / "bin" / "python"
    installed = subprocess.run([*command, "pip", "install", "-q", "--python", str(python), *pip_index_options(), str(wheel)],
                               env=env, capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr[-4000:]
    version = subprocess.run([str(venv / "bin" / "paperscore"), "--version"], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert version.stdout.strip() == f"paperscore {core.VERSION}", version.stderr
    run = subprocess.run([str(python), "-c", PACKAGE_RUN], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-4000:]
    result = json.loads(run.stdout)
    assert (result["p"], result["r"]) == (pytest.approx(1 / 2), pytest.approx(2 / 5))
    assert result["version"] == core.VERSION and result["license"] == "MIT"
    assert any(url.startswith("Source, https://github.com/paperscore/paperscore") for url in result["urls"])
