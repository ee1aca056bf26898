"""Publishing and release metadata.

`shared/publish.py` pushes the Spaces through the 127.0.0.1 Hub stand-in (tests/hub.py),
which keeps what was pushed; `evaluate.load("<org>/<name>")` in a fresh process must then
load exactly those files and compute the Space's tests.py cases. A stale vendored copy or
a failing contract check refuses the publication before anything reaches the Hub. The
release metadata keeps one version, and every card says where the code lives and how to
install the package it names.
"""

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
from conftest import HUB, ROOT, SPACES, SPACES_DIR, page_modules, run_python

from paperscore import core  # noqa: E402

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SOURCE = PYPROJECT["project"]["urls"]["Source"]


def run_publish(*args, root=ROOT):
    env = {**os.environ, "HF_HUB_OFFLINE": "0", "HF_ENDPOINT": HUB.url, "HF_HUB_DISABLE_PROGRESS_BARS": "1"}
    command = [sys.executable, str(ROOT / "shared" / "publish.py"), *args, "--root", str(root)]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)


def pushed_to(org):
    return {name for o, name in HUB.created if o == org}


LOAD_CASES = """
import json, runpy, sys
import evaluate
org, spaces_dir = sys.argv[1], sys.argv[2]
out = {}
for name in sys.argv[3:]:
    metric = evaluate.load(f"{org}/{name}")
    cases = runpy.run_path(f"{spaces_dir}/{name}/tests.py")["test_cases"]
    out[name] = [metric.compute(predictions=c["predictions"], references=c["references"], **c["kwargs"]) for c in cases]
print(json.dumps(out))
"""


def test_publish_then_evaluate_loads_exactly_what_was_pushed(tmp_path):
    org = "publish-test"
    done = run_publish("--org", org)
    assert done.returncode == 0, done.stderr[-4000:]
    assert pushed_to(org) == set(SPACES)
    for name in SPACES:
        payload = HUB.created[(org, name)]
        assert (payload["type"], payload["sdk"]) == ("space", "gradio")
        repo = HUB.repo(org, name)
        pushed = sorted(p.relative_to(repo) for p in repo.rglob("*") if p.is_file())
        tracked = subprocess.run(["git", "ls-files", f"spaces/{name}"], cwd=ROOT, capture_output=True, text=True).stdout.split()
        if tracked:  # in a git checkout: the Space's tracked files, nothing else (no caches)
            assert [p.as_posix() for p in pushed] == sorted(t.split("/", 2)[2] for t in tracked)
        for relative in pushed:
            assert (repo / relative).read_bytes() == (SPACES_DIR / name / relative).read_bytes(), relative

    home = tmp_path / "hf"
    results = run_python(LOAD_CASES, org, SPACES_DIR, *SPACES, env={"HF_HOME": str(home)})
    for name in SPACES:
        cache = [p for p in home.rglob("*.py") if f"{org}--{name}" in str(p) and p.name != "__init__.py"]
        # the metric and its vendored modules; not the page helpers only app.py imports
        vendored = {p.name for p in (SPACES_DIR / name).glob("paperscore_*.py") if p.stem not in page_modules(name)}
        assert {p.name for p in cache} == {f"{name}.py"} | vendored
        for path in cache:
            assert path.read_bytes() == (HUB.repo(org, name) / path.name).read_bytes(), path
        expected = [c["result"] for c in runpy.run_path(str(SPACES_DIR / name / "tests.py"))["test_cases"]]
        for number, (result, want) in enumerate(zip(results[name], expected)):
            assert {k: result[k] for k in want} == pytest.approx(want, abs=1e-12), f"{name} case {number}"


def checkout_copy(tmp_path):
    """The parts of the repository publish.py reads, to spoil without touching the real one."""
    root = tmp_path / "repo"
    for part in ("shared", "spaces"):
        shutil.copytree(ROOT / part, root / part, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    return root


def test_publish_refuses_a_stale_vendored_copy(tmp_path):
    root = checkout_copy(tmp_path)
    vendored = root / "spaces" / "micro_macro" / "paperscore_core.py"
    vendored.write_text(vendored.read_text(encoding="utf-8") + "\n# edited here\n", encoding="utf-8")
    done = run_publish("--org", "stale-test", root=root)
    assert done.returncode == 1
    assert "spaces/micro_macro/paperscore_core.py" in done.stderr and "refused" in done.stderr
    assert pushed_to("stale-test") == set()


def test_publish_refuses_a_space_that_fails_its_contract(tmp_path):
    root = checkout_copy(tmp_path)
    tests = root / "spaces" / "rationale_f1" / "tests.py"
    # A case now promises a number the metric does not give.
    tests.write_text(tests.read_text(encoding="utf-8").replace('"result": {', '"result": {"never_a_key": 0.5, ', 1), encoding="utf-8")
    done = run_publish("--org", "contract-test", "--space", "rationale_f1", "--space", "micro_macro", root=root)
    assert done.returncode == 1, done.stdout
    assert "rationale_f1: tests.py case 0: never_a_key" in done.stderr and "nothing was pushed" in done.stderr
    assert pushed_to("contract-test") == set()


def test_dry_run_lists_the_files_and_pushes_nothing():
    done = run_publish("--org", "dry-run-test", "--space", "micro_macro", "--dry-run")
    assert done.returncode == 0, done.stderr[-2000:]
    listed = set(done.stdout.split(": ", 1)[1].split())
    space = SPACES_DIR / "micro_macro"  # its files, and those of its data/ folder, by relative path
    assert listed == {p.relative_to(space).as_posix() for p in space.rglob("*") if p.is_file() and p.suffix != ".pyc" and "__pycache__" not in p.parts}
    assert pushed_to("dry-run-test") == set()


# ---------------------------------------------------------------------------------------
# Release metadata


def test_the_version_lives_in_core_and_everything_repeats_it():
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert citation["version"] == core.VERSION
    assert metadata.version("paperscore") == core.VERSION, "reinstall: pip install -e ."
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "paperscore.core.VERSION"}
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(r"^## \[Unreleased\]$", changelog, re.M)
    assert re.search(rf"^## \[{re.escape(core.VERSION)}\]", changelog, re.M), "CHANGELOG.md: a section for the version"


def test_citation_is_cff_1_2_0():
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert citation["cff-version"] == "1.2.0"
    for key in ("message", "title", "authors"):  # what CFF 1.2.0 requires
        assert citation.get(key), key
    assert all(isinstance(a, dict) and (a.get("name") or a.get("family-names")) for a in citation["authors"])
    assert isinstance(citation["version"], str)  # unquoted, 1.0 would be a float
    assert citation["repository-code"] == SOURCE
    assert citation["license"] == PYPROJECT["project"]["license"]


def test_pyproject_has_the_release_fields():
    project = PYPROJECT["project"]
    backend = PYPROJECT["build-system"]["requires"]
    assert any(re.fullmatch(r"setuptools>=(\d+).*", r) and int(re.match(r"setuptools>=(\d+)", r)[1]) >= 77 for r in backend)
    assert isinstance(project["license"], str) and project["authors"] and project["classifiers"]
    assert not [c for c in project["classifiers"] if c.startswith("License ::")], "an SPDX license excludes License classifiers"
    assert {"Homepage", "Source", "Issues", "Documentation"} <= set(project["urls"])


def test_every_card_says_where_the_code_lives_and_how_to_install_it():
    name = PYPROJECT["project"]["name"]
    for space in SPACES:
        text = (SPACES_DIR / space / "README.md").read_text(encoding="utf-8")
        assert SOURCE in text, f"{space}: the repository URL"
        assert f"pip install {name}" in text, f"{space}: pip install {name}"
        assert f'pip install "git+{SOURCE}"' in text, f"{space}: the git fallback"
