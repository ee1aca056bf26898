"""Create or update the Spaces on the Hugging Face Hub under an organisation (maintainers).

    python shared/publish.py --org paperscore                     # all six Spaces
    python shared/publish.py --org paperscore --space micro_macro --dry-run
    python shared/publish.py --org paperscore --full-tests        # run the test suite's Space checks first

Refuses, before pushing anything, when `shared/vendor.py --check` finds a stale vendored
copy or when a Space fails its contract check. The default check loads exactly the files
to be pushed with `evaluate.load` in a fresh process and computes every case of the
Space's tests.py against its hand-derived results (a few seconds a Space); `--full-tests`
also runs `pytest tests/test_spaces.py tests/test_build.py -k <space>` (minutes, browser
tests included). Then, per Space: `create_repo(repo_type="space", space_sdk="gradio",
exist_ok=True)` and one `upload_folder` of the Space's files (no caches), deleting remote
files the Space no longer has. The token comes from --token, else HF_TOKEN or the login
of `hf auth login`; --endpoint (default: HF_ENDPOINT or the Hub) allows a stand-in.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import vendor  # noqa: E402

SKIPPED = {"__pycache__", ".ipynb_checkpoints", ".pytest_cache"}

CHECK = """
import json, math, runpy, sys
from pathlib import Path
import evaluate
failures = {}
for space in map(Path, sys.argv[1:]):
    failures[space.name] = []
    try:
        metric = evaluate.load(str(space / f"{space.name}.py"), keep_in_memory=True)
        cases = runpy.run_path(str(space / "tests.py"))["test_cases"]
        for number, case in enumerate(cases):
            result = metric.compute(predictions=case["predictions"], references=case["references"], **case["kwargs"])
            for key, want in case["result"].items():
                got = result.get(key)
                same = isinstance(got, (int, float)) and (math.isclose(got, want, abs_tol=1e-9) or math.isnan(got) and math.isnan(want))
                if not same:
                    failures[space.name].append(f"tests.py case {number}: {key} = {got!r}, expected {want!r}")
    except Exception as error:
        failures[space.name].append(f"{type(error).__name__}: {error}")
print(json.dumps(failures))
"""

def space_files(space_dir):
    """The files a Space consists of, relative paths: everything but caches and hidden files."""
    files = []
    for path in sorted(space_dir.rglob("*")):
        relative = path.relative_to(space_dir)
        if path.is_file() and not SKIPPED & set(relative.parts) and not relative.name.startswith(".") and path.suffix != ".pyc":
            files.append(relative)
    return files


def stage(space_dir, where):
    """Copy the Space's files into `where`/<name>: what is checked is what is pushed."""
    target = where / space_dir.name
    for relative in space_files(space_dir):
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(space_dir / relative, target / relative)
    return target


def contract_failures(staged):
    """{name: problems}: each staged Space's tests.py cases, computed through evaluate in
    one fresh process that sees only the staged files."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_UPDATE_DOWNLOAD_COUNTS": "0", "GRADIO_ANALYTICS_ENABLED": "False"}
    env.pop("PYTHONPATH", None)  # the Space must work from its own files
    with tempfile.TemporaryDirectory(prefix="publish-check-") as home:
        env["HF_HOME"] = home
        done = subprocess.run([sys.executable, "-c", CHECK, *map(str, staged)], cwd=home, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        return {"check": [f"the contract check did not run:\n{done.stderr[-2000:]}"]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def full_test_failures(root, names):
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               str(root / "tests" / "test_spaces.py"), str(root / "tests" / "test_build.py"), "-k", " or ".join(names)]
    done = subprocess.run(command, cwd=root)
    return [] if done.returncode == 0 else [f"`{' '.join(command)}` failed (exit {done.returncode})"]


def main(argv=None):
    parser = argparse.ArgumentParser(description="Create or update the paperscore Spaces on the Hugging Face Hub.")
    parser.add_argument("--org", required=True, help="the organisation (or user) that owns the Spaces")
    parser.add_argument("--space", action="append", dest="spaces", metavar="NAME", help="a Space to publish (repeatable; default: all)")
    parser.add_argument("--token", help="a Hub token with write access (default: HF_TOKEN or the stored login)")
    parser.add_argument("--endpoint", default=os.environ.get("HF_ENDPOINT"), help="the Hub's address (default: HF_ENDPOINT or the Hub)")
    parser.add_argument("--dry-run", action="store_true", help="check and list the files, push nothing")
    parser.add_argument("--full-tests", action="store_true", help="also run the Space tests of tests/ (needs the test tools)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository checkout (default: this one)")
    args = parser.parse_args(argv)

    root = args.root.resolve()
    available = sorted(p.name for p in (root / "spaces").iterdir() if (p / f"{p.name}.py").is_file())
    names = args.spaces or available
    unknown = sorted(set(names) - set(available))
    if unknown:
        parser.error(f"no Space named {', '.join(unknown)} (available: {', '.join(available)})")

    if vendor.main(["--check"], root=root) != 0:
        print("publish: refused, the vendored copies are stale (see above; run `python shared/vendor.py`)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="publish-") as where:
        staged = {name: stage(root / "spaces" / name, Path(where)) for name in names}
        problems = contract_failures(staged.values())
        if args.full_tests and not any(problems.values()):
            problems["tests"] = full_test_failures(root, names)
        if any(problems.values()):
            for name, failures in problems.items():
                for failure in failures:
                    print(f"publish: {name}: {failure}", file=sys.stderr)
            print("publish: refused, nothing was pushed", file=sys.stderr)
            return 1
        if args.dry_run:
            for name, path in staged.items():
                print(f"{args.org}/{name}: " + " ".join(p.as_posix() for p in space_files(path)))
            return 0

        from huggingface_hub import HfApi

        api = HfApi(endpoint=args.endpoint, token=args.token)
        for name, path in staged.items():
            repo_id = f"{args.org}/{name}"
            api.create_repo(repo_id, repo_type="space", space_sdk="gradio", exist_ok=True)
            api.upload_folder(
                repo_id=repo_id, repo_type="space", folder_path=path, delete_patterns="*",
                commit_message=f"Publish {name} from paperscore",
            )
            print(f"published {repo_id} ({len(space_files(path))} files)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
