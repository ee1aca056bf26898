"""Write each Space's flat copies of the scoring package: spaces/<name>/paperscore_<module>.py.

A Space is deployed alone and `evaluate.load` copies only the metric script and the
sibling .py files it imports relatively at top level, so a package directory cannot
travel with it. The metric script names its roots (`from .paperscore_micro_macro import
compute`); this command copies those modules and every package module they import,
rewriting `from .core import x` into `from .paperscore_core import x` (inside functions too), and removes copies
no longer needed. The demo's app.py names its own (`import paperscore_demo as page`): those
run as top-level modules beside app.py, so they may not import the package; a demo also
gets DEMO_MODULES, which it imports into its metric's copy of the package.

    python shared/vendor.py           # regenerate
    python shared/vendor.py --check   # exit 1 and list the stale files
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PREFIX = "paperscore_"
SCRIPT_IMPORT = re.compile(rf"^from \.{PREFIX}(\w+) import ", re.M)
APP_IMPORT = re.compile(rf"^import {PREFIX}(\w+) as ", re.M)
PACKAGE_IMPORT = re.compile(r"^from \.(\w+) import |^from \. import (\w+)", re.M)
# With the imports inside functions: what a module may import once its functions run.
CALLED_IMPORT = re.compile(r"^\s*from \.(\w+) import |^\s*from \. import (\w+)", re.M)
# Package modules a demo imports into its metric's copy of the package (paperscore_demo's
# compare_module, for the page's paired test): copied beside app.py with all they import,
# inside functions too (the paired test runs them).
DEMO_MODULES = ("compare", "cli")


def closure(package, roots, imports=PACKAGE_IMPORT):
    """The package modules that `roots` need (by the `imports` they make), themselves included."""
    needed, todo = set(), list(roots)
    while todo:
        module = todo.pop()
        if module not in needed:
            path = package / f"{module}.py"
            if not path.is_file():
                raise SystemExit(f"vendor: no module shared/paperscore/{module}.py")
            needed.add(module)
            todo.extend(a or b for a, b in imports.findall(path.read_text(encoding="utf-8")))
    return needed


def vendored_text(package, module):
    source = (package / f"{module}.py").read_text(encoding="utf-8")
    # indented imports too (inside a function): they run where the module is vendored
    source = re.sub(r"^(\s*)from \.(\w+) import ", rf"\1from .{PREFIX}\2 import ", source, flags=re.M)
    source = re.sub(r"^(\s*)from \. import (\w+)$", rf"\1from . import {PREFIX}\2 as \2", source, flags=re.M)
    header = (
        f"# GENERATED from shared/paperscore/{module}.py by shared/vendor.py: do not edit here;\n"
        "# edit the package and run `python shared/vendor.py`.\n"
    )
    return header + source


def plan(root, space):
    """(files to write {path: text}, stale files to delete, problems) for one Space."""
    package = root / "shared" / "paperscore"
    script = space / f"{space.name}.py"
    problems = []
    if not script.is_file():
        return {}, [], [f"{space.name}: no metric script {script.name}"]
    roots = set(SCRIPT_IMPORT.findall(script.read_text(encoding="utf-8")))
    needed = closure(package, roots)
    for module in sorted(needed - roots):
        problems.append(
            f"{script.relative_to(root)}: add `from .{PREFIX}{module} import ...` on its own line "
            "(evaluate copies only the files the metric script imports)"
        )
    app = space / "app.py"
    page = set(APP_IMPORT.findall(app.read_text(encoding="utf-8"))) if app.is_file() else set()
    for module in sorted(page):
        if closure(package, [module]) != {module}:
            problems.append(f"shared/paperscore/{module}.py: app.py imports it as a top-level module, so it may not import the package")
        needed.add(module)
    if "demo" in page:
        needed |= closure(package, DEMO_MODULES, CALLED_IMPORT)
    wanted = {space / f"{PREFIX}{m}.py": vendored_text(package, m) for m in sorted(needed)}
    stale = [p for p in space.glob(f"{PREFIX}*.py") if p not in wanted]
    return wanted, stale, problems


def main(argv=None, root=ROOT):
    check = "--check" in (argv if argv is not None else sys.argv[1:])
    out_of_date, problems = [], []
    spaces = sorted(p for p in (root / "spaces").iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
    for space in spaces:
        wanted, stale, space_problems = plan(root, space)
        problems += space_problems
        for path, text in wanted.items():
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                out_of_date.append(path)
                if not check:
                    path.write_text(text, encoding="utf-8")
        for path in stale:
            out_of_date.append(path)
            if not check:
                path.unlink()
    for problem in problems:
        print(problem, file=sys.stderr)
    if check and out_of_date:
        print("stale vendored files (run `python shared/vendor.py`):", file=sys.stderr)
        for path in out_of_date:
            print(f"  {path.relative_to(root)}", file=sys.stderr)
    return 1 if problems or (check and out_of_date) else 0


if __name__ == "__main__":
    raise SystemExit(main())
