"""The documentation: the site builds offline with warnings as errors, and every example on
its pages runs as a reader pastes it.

The harness (also `python tests/test_docs.py PAGE.md ...`, to try any Markdown page, such
as README.md or a card) reads each page's fenced code blocks and runs them from a fresh
copy of the clone's layout (a temporary folder whose entries link to the clone's), one page
at a time, in order:

- ```python: in a fresh interpreter. A block starting with `>>>` is a doctest: its output
  must be what it shows (`...` matches anything, doctest's ELLIPSIS).
- ```bash: in bash, as one script (`set -e -o pipefail`); every command must succeed.
- ```console (or ```text starting with `$ `): each `$ command` in bash, its output
  (stdout, then stderr) compared with the lines under it, as for a doctest.
- any other language (text, bibtex, yaml, json): shown, not run.

A block is run on its own unless the line before its fence is a marker,
`<!-- example: KIND ... -->`:

- `continues`: it runs in the same interpreter (or shell) as the page's block of its
  language before it (the page says so: it goes on from the example above).
- `published`: it needs a published Space (`evaluate.load("paperscore/<name>")`); it runs
  against a local stand-in of the Hub that serves spaces/ as paperscore/<name>, and the
  block must give, in a comment, the line that works from a clone (`spaces/<name>`, with the
  words "from a clone"). An unmarked block that loads paperscore/<name> is an error (a
  reader with a clone would get one), and so is one that installs the released package.
- `release`: it needs a release on PyPI (`pip install paperscore`); not run, and the block
  must say what works from a clone.
- `install`: a set-up line (`pip install ...`, or the test command itself); not run here
  (.ci/run installs the same files), but each file it names must exist. A shell block that
  installs without this marker is an error, and the page is not run.
- `run as "COMMAND"`: a Python block saved as the file the command's last word names and
  run by that command (a launcher such as torchrun); the page must name the command.
- `tested by "tests/FILE.py::TEST"`: a recipe that a test runs as written, with the data,
  model or cluster it needs and an oracle for what it computes (test_distributed's Ray and
  accelerate recipes): not run again here; the test must exist and read this page.

The README's `<!-- test command ... -->` line (.ci/run runs the line after the fence below
it) counts as an `install` marker: the block is the whole test suite.

Imports: every module a Python block imports must come with what the repository's
requirements.txt installs or what the page itself says to `pip install`.
"""

import ast
import doctest
import functools
import html
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CARDS = sorted(ROOT.glob("spaces/*/README.md"))  # the metric cards, what the Hub shows on each Space
PAGES = [ROOT / "README.md", *CARDS, *sorted(p for p in DOCS.rglob("*.md") if p.parent.name != "benchmarks")]  # benchmarks/: render.py's tables

FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+)(?P<lang>[\w-]*)[^\n]*\n(?P<code>.*?)^(?P=indent)(?P=fence)[ \t]*$", re.M | re.S)
MARKER = re.compile(r"^\s*<!--\s*example:\s*(?P<kind>continues|published|release|install|run as|tested by)\s*(?P<argument>.*?)\s*-->\s*$")
TEST_COMMAND = re.compile(r"^\s*<!--\s*test command\b")  # README.md's, read by .ci/run: an install line
RUN = {"python", "bash", "console"}
SPACE_LOAD = re.compile(r"""evaluate\.load\(\s*["']paperscore/(\w+)""")
RELEASE_INSTALL = re.compile(r"""pip install [^\n#&;|]*?(?<![\w./-])["']?paperscore(\[|["']|\s|$)""", re.M)
DEAD_HUB = "http://127.0.0.1:9"  # the discard port: nothing answers, as for a Space not yet published


@dataclass
class Block:
    page: Path
    line: int
    lang: str
    code: str
    kind: str = ""  # the marker's, "" for none
    argument: str = ""

    @property
    def where(self):
        return f"{self.page.relative_to(ROOT) if self.page.is_relative_to(ROOT) else self.page}:{self.line}"


def blocks(page):
    """The fenced code blocks of a Markdown page, with the marker on the line before each."""
    text = Path(page).read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        marker = MARKER.match(before)
        code = "\n".join(row[len(match["indent"]) :] for row in match["code"].split("\n"))
        lang = match["lang"].lower()
        if lang in ("sh", "shell"):
            lang = "bash"
        if lang == "text" and code.startswith("$ "):
            lang = "console"
        kind = marker["kind"] if marker else "install" if TEST_COMMAND.match(before) else ""
        argument = marker["argument"].strip('"') if marker else ""
        found.append(Block(Path(page), line, lang, code, kind, argument))
    return found


def sessions(page):
    """The page's runnable blocks grouped as they run, in order: a block marked `continues`
    joins the group of the page's block of its language before it; release and install
    blocks, and those a test runs, are not run."""
    groups = []
    for block in blocks(page):
        if block.lang not in RUN or block.kind in ("release", "install", "tested by"):
            continue
        if block.kind == "continues":
            same = [group for group in groups if group[0].lang == block.lang]
            assert same, f"{block.where}: `continues` follows no {block.lang} block"
            same[-1].append(block)
        else:
            groups.append([block])
    return groups


# ---------------------------------------------------------------------------------------
# What a page may import: the requirements' closure and what the page says to install


def _closure(requirements):
    """Every distribution name (normalised) that installing `requirements` brings."""
    seen, todo = set(), [Requirement(r) for r in requirements]
    while todo:
        requirement = todo.pop()
        name = _normal(requirement.name)
        key = (name, tuple(sorted(requirement.extras)))
        if key in seen:
            continue
        seen.add(key)
        try:
            needs = metadata.requires(requirement.name) or []
        except metadata.PackageNotFoundError:
            continue
        for need in map(Requirement, needs):
            if need.marker is None or any(need.marker.evaluate({"extra": extra}) for extra in ("", *requirement.extras)):
                todo.append(need)
    return {name for name, _ in seen}


def _normal(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_lines(path):
    """The requirements a requirements file names (`-e .` as the project's own)."""
    lines = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line in ("-e .", "."):
            lines.append("paperscore")
        elif line.startswith("-r "):
            lines += _requirement_lines(Path(path).parent / line[3:].strip())
        elif line and not line.startswith("-"):
            lines.append(line)
    return lines


@functools.cache
def installed_by(commands):
    """The distributions a reader has after the set-up (requirements.txt) and the page's own
    `pip install` commands (their arguments)."""
    wanted = _requirement_lines(ROOT / "requirements.txt")
    for command in commands:
        words = shlex.split(command.split("#")[0].split("&&")[0])
        for previous, word in zip([""] + words, words):
            if previous == "-r":
                wanted += _requirement_lines(ROOT / word)
            elif word.startswith("."):  # the clone itself, `-e ".[rewards]"`
                wanted.append("paperscore" + word[1:])
            elif not word.startswith(("-", "git+")):
                wanted.append(word)
    return _closure(wanted)


@functools.cache
def _owners():
    return metadata.packages_distributions()


def imported(block):
    """The top-level modules a Python block imports."""
    code = block.code
    if code.lstrip().startswith(">>>"):
        code = "\n".join(example.source for example in doctest.DocTestParser().get_examples(code))
    modules = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            modules |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            modules.add(node.module.split(".")[0])
    return modules


def missing_installs(page):
    """[(block, module)] of the imports the page's reader would not have installed."""
    have = installed_by(tuple(re.findall(r"pip install ([^\n`]+)", Path(page).read_text(encoding="utf-8"))))
    owners = _owners()
    missing = []
    for block in blocks(page):
        if block.lang != "python":
            continue
        for module in sorted(imported(block) - set(sys.stdlib_module_names)):
            if not {_normal(d) for d in owners.get(module, [module])} & have:
                missing.append((block.where, module))
    return missing


def marking_problems(page):
    """What the markers demand and the blocks do not give: [(where, problem)]."""
    problems, text = [], Path(page).read_text(encoding="utf-8")
    for block in blocks(page):
        loads = SPACE_LOAD.findall(block.code)
        releases = RELEASE_INSTALL.search(block.code)
        if block.kind in ("published", "release"):
            if "from a clone" not in block.code:
                problems.append((block.where, f"a {block.kind} block must say what works from a clone"))
            for space in loads:
                if f"spaces/{space}" not in block.code:
                    problems.append((block.where, f"paperscore/{space} needs its clone form spaces/{space} beside it"))
        elif loads:
            problems.append((block.where, f"loads paperscore/{loads[0]}, a published Space: mark it <!-- example: published --> and give the clone form"))
        elif releases:
            problems.append((block.where, "installs the released package: mark it <!-- example: release --> and give the clone form"))
        elif block.lang in ("bash", "console") and "pip install" in block.code and block.kind != "install":
            problems.append((block.where, "installs packages: mark it <!-- example: install --> (the tests never change their environment)"))
        if block.kind == "install":
            for file in re.findall(r"-r\s+(\S+)", block.code):
                if not (ROOT / file).is_file():
                    problems.append((block.where, f"installs from {file}, which does not exist"))
        if block.kind == "tested by":
            file, _, test = block.argument.partition("::")
            source = (ROOT / file).read_text(encoding="utf-8") if (ROOT / file).is_file() else ""
            here = Path(page).resolve()
            if not re.search(rf"^def {re.escape(test)}\(", source, re.M) or not here.is_relative_to(ROOT) or str(here.relative_to(ROOT)) not in source:
                problems.append((block.where, f"{block.argument}: no such test reading {Path(page).name}"))
        if block.kind == "run as":
            rest = text.replace(f'<!-- example: run as "{block.argument}" -->', "")
            if block.argument not in rest:
                problems.append((block.where, f"the page must name the command it runs as: {block.argument}"))
    return problems


# ---------------------------------------------------------------------------------------
# Running a page

PYTHON_RUNNER = r"""
import doctest, json, sys
globs = {"__name__": "__main__"}
parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
for where, code in json.load(open(sys.argv.pop(1), encoding="utf-8")):
    if code.lstrip().startswith(">>>"):
        test = parser.get_doctest(code, globs, where, where, 0)
        if runner.run(test, clear_globs=False).failed:
            sys.exit(f"{where}: the output above differs from the page's")
        globs.update(test.globs)
    else:
        exec(compile(code, where, "exec"), globs)
"""


def clone_layout(folder):
    """`folder` made to look like the clone's root: a link to each of its entries (new files
    land in `folder`, never in the clone)."""
    for entry in ROOT.iterdir():
        if entry.name not in (".git",):
            (Path(folder) / entry.name).symlink_to(entry)


def environment(kind):
    """The offline environment (tests/conftest.py's); the Hub stand-in only for a block that
    needs a published Space."""
    env = dict(os.environ)
    if kind != "published":
        env["HF_ENDPOINT"] = DEAD_HUB
    return env


def run_session(group, folder, timeout=900):
    """Run one group of blocks in `folder`; return (exit status, what it printed)."""
    first = group[0]
    env = environment(first.kind)
    if first.lang == "python" and first.kind == "run as":
        script = shlex.split(first.argument)[-1]
        (Path(folder) / script).write_text(first.code, encoding="utf-8")
        return _run(["bash", "-c", first.argument], folder, env, timeout)
    if first.lang == "python":
        job = Path(folder) / ".blocks.json"
        job.write_text(json.dumps([(b.where, b.code) for b in group]), encoding="utf-8")
        return _run([sys.executable, "-c", PYTHON_RUNNER, str(job)], folder, env, timeout)
    if first.lang == "bash":
        return _run(["bash", "-e", "-o", "pipefail", "-c", "\n".join(b.code for b in group)], folder, env, timeout)
    return _run_console(group, folder, env, timeout)


def _run(argv, folder, env, timeout):
    done = subprocess.run(argv, cwd=folder, env=env, capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout + done.stderr


def _run_console(group, folder, env, timeout):
    checker = doctest.OutputChecker()
    for block in group:
        for command, want in re.findall(r"^\$ (.*)\n((?:(?!\$ ).*\n?)*)", block.code, re.M):
            done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=folder, env=env, capture_output=True, text=True, timeout=timeout)
            got = done.stdout + done.stderr
            if done.returncode or not checker.check_output(want.rstrip("\n") + "\n", got, doctest.ELLIPSIS):
                return done.returncode or 1, f"{block.where}: $ {command}\nexit {done.returncode}; the page shows:\n{want}\nit printed:\n{got}"
    return 0, ""


def run_page(page):
    """[(where, exit status, output)] of the page's groups that failed, run in order in one
    folder laid out as the clone. A page whose markers are wrong is not run at all (an
    unmarked install line would change the environment)."""
    problems = marking_problems(page)
    if problems:
        raise ValueError(f"{page}: fix the markers first: {problems}")
    failures = []
    with tempfile.TemporaryDirectory(prefix="paperscore-docs-") as folder:
        clone_layout(folder)
        for group in sessions(page):
            status, output = run_session(group, folder)
            if status:
                failures.append((group[0].where, status, output[-6000:]))
    return failures


# ---------------------------------------------------------------------------------------
# The tests


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_page_examples_run_as_pasted(page):
    assert not marking_problems(page)
    assert not missing_installs(page), "imports the page does not say to install"
    failures = run_page(page)
    assert not failures, "\n\n".join(f"{where} (exit {status}):\n{output}" for where, status, output in failures)


def test_the_pages_have_examples_of_every_kind():
    found = [block for page in PAGES for block in blocks(page)]
    assert {"python", "bash", "console"} <= {b.lang for b in found}
    assert any(b.code.lstrip().startswith(">>>") for b in found)
    assert {"continues", "published", "run as"} <= {b.kind for b in found}


def test_the_readme_and_cards_stay_short_and_send_the_rest_to_the_family_pages():
    """A landing README of at most about 12 KB and cards of at most 12.5 KiB (issue 38: they were
    62 KB and 26-42 KB): what grows goes to the family's docs page, which README and card link."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode()) <= 12 * 1024
    for card in CARDS:
        space = card.parent.name
        assert card.stat().st_size <= 12.5 * 1024, f"{space}'s card: move what a Space visitor can do without to docs/families/{space}.md"
        assert (DOCS / "families" / f"{space}.md").is_file() and f"(docs/families/{space}.md)" in readme
        assert f"https://paperscore.github.io/paperscore/families/{space}/" in card.read_text(encoding="utf-8")


def test_site_builds_offline_with_warnings_as_errors(tmp_path):
    """mkdocs build --strict: a broken link, a missing page, an unknown reference or a
    docstring mkdocstrings cannot render fails. The generated references hold every
    command's help and every family's compute()."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "HF_ENDPOINT": DEAD_HUB, "HTTP_PROXY": DEAD_HUB, "HTTPS_PROXY": DEAD_HUB}  # offline: a download would fail
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-6000:]
    assert "WARNING" not in done.stderr, done.stderr
    cli_page = html.unescape(re.sub(r"<[^>]+>", "", (tmp_path / "site" / "reference" / "cli" / "index.html").read_text(encoding="utf-8")))
    sys.path.insert(0, str(ROOT / "shared"))
    from paperscore import cli

    for command, module in cli.commands().items():
        assert f"usage: paperscore {command}" in cli_page and module.HELP.split("(")[0].strip()[:40] in cli_page, command
    api_page = (tmp_path / "site" / "reference" / "api" / "index.html").read_text(encoding="utf-8")
    for family in ("micro_macro", "csc_sighan", "csc_common", "coref", "corefud", "quad", "rationale", "faithfulness"):
        assert f'id="paperscore.{family}.compute"' in api_page, family
    assert not list((tmp_path / "site").glob("*.py")), "the hooks are not pages"


# ---------------------------------------------------------------------------------------
# The benchmarks' pictures


def test_benchmark_charts_and_tables_are_drawn_from_the_results_files():
    """docs/benchmarks/ is what render.py draws from tests/benchmarks/results/ (as a stale
    vendored copy fails, a chart that no longer shows the results fails)."""
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "benchmarks" / "render.py"), "--check"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_every_results_line_says_when_where_and_against_what():
    for path in sorted((ROOT / "tests" / "benchmarks" / "results").glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            run = json.loads(line)
            assert run["date"] and run["machine"] and run["figures"], f"{path.name}:{number}"
            assert ("load" in run and "source" in run) or (run["load_start"] and run["load_end"]), f"{path.name}:{number}: no load"
            for figure in run["figures"]:
                assert figure["benchmark"] and figure["size"] and figure["unit"] in ("s", "B"), f"{path.name}:{number}"
                assert figure["paperscore"] or figure.get("ratio") or figure.get("spread") or figure["note"], f"{path.name}:{number}: {figure['benchmark']} holds no figure"


def test_render_draws_the_ratio_of_medians_and_the_spread_of_paired_rounds(tmp_path):
    sys.path.insert(0, str(ROOT / "tests" / "benchmarks"))
    import render

    figure = {"benchmark": "b", "size": "n", "unit": "s", "paperscore": {"median": 2, "rounds": [1, 2, 4]}, "reference": {"median": 10, "rounds": [10, 10, 10]}, "goal": 8}
    # medians 10 / 2 = 5; the rounds side by side: 10/1, 10/2, 10/4
    assert render.ratio(figure) == (5, (2.5, 10))
    run = {"date": "2026-11-30T10:00:00+00:00", "machine": {}, "load_start": [1.5, 1, 1], "load_end": [2.5, 1, 1], "figures": [figure]}
    old = {"date": "2026-11-01", "load": "3", "source": "by hand", "figures": [{**figure, "paperscore": None, "reference": None, "spread": [4, 6]}]}
    (tmp_path / "bench_x.jsonl").write_text(json.dumps(old) + "\n" + json.dumps(run) + "\n")
    table = render.table([(tmp_path / "bench_x.jsonl", ("b", "n"))])
    assert table.splitlines()[2] == "| b (`bench_x.py`) | n | 2 s | 10 s | 5× faster (2.5–10× faster) | — | 2026-11-30, load 1.5–2.5 |"
    svg = render.chart("t", render.rows_of(tmp_path / "bench_x.jsonl"))
    assert 'fill="#d33"' in svg  # 5x is short of its goal of 8: red
    assert svg.count("<circle") == 1 and "4-6" not in svg  # the old run is a range: a grey bar, no dot
    assert render.verdict(0.8, "s") == "1.25× slower" and render.verdict(40, "B") == "40× smaller"


# ---------------------------------------------------------------------------------------
# The harness can fail: pages with a wrong output, a failing block, a missing marker


def _page(tmp_path, text):
    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    return page


def test_harness_compares_doctest_and_console_output(tmp_path):
    page = _page(tmp_path, "```python\n>>> 1 + 1\n3\n\n```\n\n```console\n$ echo hi\nho\n```\n\n```console\n$ echo hi\nhi\n```\n")
    failures = run_page(page)
    assert [where.rsplit(":", 1)[1] for where, _, _ in failures] == ["1", "7"]
    assert "Expected:\n    3\nGot:\n    2" in failures[0][2]
    assert "ho" in failures[1][2] and "it printed:\nhi" in failures[1][2]


def test_harness_runs_each_block_fresh_unless_it_continues(tmp_path):
    page = _page(tmp_path, "```python\nimport json\nx = 1\n```\n\n<!-- example: continues -->\n```python\nassert x == 1\n```\n\n```python\njson.dumps(x)\n```\n")
    assert [len(group) for group in sessions(page)] == [2, 1]
    failures = run_page(page)
    assert len(failures) == 1 and failures[0][0].endswith(":11") and "NameError: name 'json' is not defined" in failures[0][2]


def test_harness_runs_shell_blocks_and_launchers_in_a_clone_layout(tmp_path):
    page = _page(
        tmp_path,
        "```bash\ntest -f requirements.txt && touch made.txt\nfalse\necho never\n```\n\n"
        'Run it with `python hello.py`.\n<!-- example: run as "python hello.py" -->\n```python\nimport sys; sys.exit(3)\n```\n',
    )
    failures = run_page(page)
    assert [(where.rsplit(":", 1)[1], status) for where, status, _ in failures] == [("1", 1), ("9", 3)]
    assert not (ROOT / "made.txt").exists() and not (ROOT / "hello.py").exists()


def test_harness_requires_markers_and_the_clone_form(tmp_path):
    page = _page(
        tmp_path,
        '```python\nimport evaluate\nevaluate.load("paperscore/micro_macro")\n```\n\n'
        '<!-- example: published -->\n```python\nimport evaluate\nevaluate.load("paperscore/quad_match")  # published\n```\n\n'
        "```bash\npip install paperscore\n```\n\n"
        "<!-- example: install -->\n```bash\npip install -r no-such-file.txt\n```\n\n"
        "```bash\npip install torch\n```\n\n"
        '<!-- example: tested by "tests/test_docs.py::test_no_such_test" -->\n```python\nraise SystemExit(1)\n```\n',
    )
    problems = [problem.split(":")[0] for _, problem in marking_problems(page)]
    assert problems == [
        "loads paperscore/micro_macro, a published Space",
        "a published block must say what works from a clone",
        "paperscore/quad_match needs its clone form spaces/quad_match beside it",
        "installs the released package",
        "installs from no-such-file.txt, which does not exist",
        "installs packages",
        "tests/test_docs.py",  # ::test_no_such_test: no such test reading page.md
    ]
    with pytest.raises(ValueError, match="fix the markers first"):
        run_page(page)  # nothing of it runs


def test_harness_names_imports_the_page_does_not_install(tmp_path):
    code = "```python\nimport numpy, json\nimport transformers\nfrom trl import GRPOConfig\n```\n"
    assert [(where.rsplit("/", 1)[-1], module) for where, module in missing_installs(_page(tmp_path, code))] == [("page.md:1", "transformers"), ("page.md:1", "trl")]
    assert missing_installs(_page(tmp_path, 'Install: `pip install "paperscore[rewards]" transformers`\n\n' + code)) == []


if __name__ == "__main__":  # python tests/test_docs.py PAGE.md ...: try the harness on any page
    import conftest  # noqa: F401 (the tests' offline environment and Hub stand-in)

    for path in sys.argv[1:]:
        problems = marking_problems(path) + missing_installs(path)
        for where, problem in problems:
            print(f"{where}: {problem}")
        for where, status, output in [] if marking_problems(path) else run_page(path):
            print(f"{where}: exit {status}\n{output}\n")
