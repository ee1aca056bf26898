"""Write the corefud fixtures from ufal/corefud-scorer run in place (test-only; never run in CI).

    git clone https://github.com/ufal/corefud-scorer /tmp/corefud-refs/corefud-scorer   # 4fd7b0e
    pip install udapi==0.5.2 scipy
    python tests/data/corefud/make_fixtures.py /tmp/corefud-refs/corefud-scorer

    python tests/data/corefud/make_fixtures.py /tmp/corefud-refs/corefud-scorer --check 3000
    python tests/data/corefud/make_fixtures.py /tmp/corefud-refs/corefud-scorer --outputs

Writes scorer_tests.json.gz (the scorer's own CorefUD test files, MIT) and reference.json.gz:
per public test pair and each of the 12 settings, and per random case (tests/corefud_cases.py)
one setting, the raw numerators and denominators the scorer's evaluator sums, or "fails"
where the scorer raises. With --check N it writes nothing and instead compares
paperscore.corefud with the scorer on random cases 0..N-1 under all 12 settings each.
With --outputs it writes scorer_output.json.gz: what corefud-scorer.py prints (its main
path, run in this process with standard output captured) for the public pairs under every
setting with -m all, under two settings with each metric alone, and for random cases
0..N_OUTPUTS-1 under their setting.
"""

import gc
from importlib import metadata
import gzip
import itertools
import json
import logging
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))  # tests/
SETTINGS = list(itertools.product(["exact", "partial", "head"], [False, True], ["dependent", "linear"]))
N_RANDOM = 2400
N_OUTPUTS = 400


def reference(scorer, key, response, matching, keep_singletons, zero_matching):
    """The scorer's summed counts: for muc, bcub, ceafm, ceafe, lea, mor, zero (rn, rd, pn,
    pd); blanc both parts. Same calls as its corefud-scorer.py (CorefUDReader with keep_zeros)."""
    from scorer.corefud.reader import CorefUDReader
    from scorer.eval import evaluator

    reader = CorefUDReader(keep_singletons=keep_singletons, match={"partial": "partial-corefud"}.get(matching, matching), keep_zeros=True, zero_match_method=zero_matching)
    try:
        reader.get_coref_infos(key, response)
    except ZeroDivisionError:
        return "fails"
    # zero last: the scorer's als_zeros sorts the clusters' mentions in place
    metrics = {"muc": [evaluator.muc], "bcub": [evaluator.b_cubed], "ceafm": [evaluator.ceafm], "ceafe": [evaluator.ceafe], "blanc": [evaluator.blancc, evaluator.blancn], "lea": [evaluator.lea], "mor": [evaluator.mention_overlap], "zero": [evaluator.als_zeros]}
    out = {}
    for name, parts in metrics.items():
        out[name] = []
        for metric in parts:
            ev = evaluator.Evaluator(metric)
            for doc in reader.doc_coref_infos:
                ev.update(reader.doc_coref_infos[doc])
            pn, pd, rn, rd = ev.get_counts()
            out[name] += [float(rn), float(rd), float(pn), float(pd)]
    return out


def printed(key, response, matching, keep_singletons, zero_matching, metrics):
    """corefud-scorer.py's standard output, as its main() makes it (no argparse), or "fails"."""
    import contextlib
    import importlib
    import io

    cli = importlib.import_module("corefud-scorer")
    args = cli.corefud_to_ua_args({"key_file": key, "sys_file": response, "metrics": list(metrics), "keep_singletons": keep_singletons, "match": matching, "exact_match": False, "zero_match_method": zero_matching})
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            cli.uascorer.process_arguments(args)
            cli.uascorer.evaluate(args)
        except ZeroDivisionError:
            return "fails"
    return out.getvalue()


def outputs(scorer):
    sys.path.insert(0, scorer)
    gc.collect = lambda *a, **k: 0
    logging.disable(logging.CRITICAL)
    import corefud_cases

    root = Path(scorer) / "tests" / "tests-corefud"
    files = {str(p.relative_to(root)) for p in root.rglob("*") if p.suffix in (".key", ".response")}
    pairs = [(key, response) for key in sorted(k for k in files if k.endswith(".key")) for response in sorted(r for r in files if r.startswith(key[:-4] + "-")) + [key]]
    runs = [(key, response, setting, ["all"]) for key, response in pairs for setting in SETTINGS]
    runs += [(key, response, setting, [metric]) for key, response in pairs for setting in (SETTINGS[8], SETTINGS[5]) for metric in ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero")]
    out = [{"key": k, "response": r, "setting": setting, "metrics": metrics, "stdout": printed(str(root / k), str(root / r), *setting, metrics)} for k, r, setting, metrics in runs]
    with tempfile.TemporaryDirectory() as tmp:
        for number in range(N_OUTPUTS):
            paths = [Path(tmp) / "key.conllu", Path(tmp) / "response.conllu"]
            for path, text in zip(paths, corefud_cases.case(number)):
                path.write_text(text, encoding="utf-8")
            setting = SETTINGS[number % len(SETTINGS)]
            out.append({"case": number, "setting": setting, "metrics": ["all"], "stdout": printed(*map(str, paths), *setting, ["all"])})
    with gzip.open(HERE / "scorer_output.json.gz", "wt", encoding="utf-8") as f:
        json.dump(out, f, separators=(",", ":"))
    print(f"{len(out)} outputs, {sum(o['stdout'] == 'fails' for o in out)} fail")


def main(scorer):
    sys.path.insert(0, scorer)
    gc.collect = lambda *a, **k: 0  # udapi collects after every file: time only
    logging.disable(logging.CRITICAL)
    import corefud_cases

    commit = subprocess.run(["git", "-C", scorer, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    root = Path(scorer) / "tests" / "tests-corefud"
    files = {str(p.relative_to(root)): p.read_text(encoding="utf-8") for p in sorted(root.rglob("*")) if p.suffix in (".key", ".response")}
    with gzip.open(HERE / "scorer_tests.json.gz", "wt", encoding="utf-8") as f:
        json.dump(files, f, sort_keys=True)
    public = []
    for key in (k for k in files if k.endswith(".key")):
        for response in sorted(r for r in files if r.startswith(key[:-4] + "-")) + [key]:
            for setting in SETTINGS:
                public.append({"key": key, "response": response, "setting": setting, "counts": reference(scorer, str(root / key), str(root / response), *setting)})
    random_cases = []
    with tempfile.TemporaryDirectory() as tmp:
        for number in range(N_RANDOM):
            key, response = corefud_cases.case(number)
            paths = [Path(tmp) / "key.conllu", Path(tmp) / "response.conllu"]
            for path, text in zip(paths, (key, response)):
                path.write_text(text, encoding="utf-8")
            setting = SETTINGS[number % len(SETTINGS)]
            random_cases.append({"case": number, "key_sha": corefud_cases.digest(key), "response_sha": corefud_cases.digest(response), "setting": setting, "counts": reference(scorer, *map(str, paths), *setting)})
    out = {"scorer": "ufal/corefud-scorer", "commit": commit, "udapi": metadata.version("udapi"), "public": public, "random": random_cases}
    with gzip.open(HERE / "reference.json.gz", "wt", encoding="utf-8") as f:
        json.dump(out, f, separators=(",", ":"))
    print(f"{len(public)} public runs, {len(random_cases)} random cases, scorer {commit}")


def check(scorer, n_cases):
    """Print every random case and setting where paperscore.corefud and the scorer differ."""
    sys.path.insert(0, scorer)
    sys.path.insert(0, str(HERE.parent.parent.parent / "shared"))
    gc.collect = lambda *a, **k: 0
    logging.disable(logging.CRITICAL)
    import corefud_cases
    import numpy as np
    from paperscore import corefud

    differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        for number in range(n_cases):
            texts = corefud_cases.case(number)
            paths = [Path(tmp) / "key.conllu", Path(tmp) / "response.conllu"]
            for path, text in zip(paths, texts):
                path.write_text(text, encoding="utf-8")
            for setting in SETTINGS:
                theirs = reference(scorer, *map(str, paths), *setting)
                try:
                    ours = corefud.statistics(*texts, *setting)[1].sum(0)
                except ValueError as error:
                    ours = error
                same = theirs == "fails" and isinstance(ours, ValueError) or (not isinstance(ours, ValueError) and theirs != "fails" and np.allclose(ours, [v for m in corefud.METRICS for v in theirs[m]], rtol=1e-9, atol=1e-9))
                if not same:
                    differ += 1
                    print(f"case {number} {setting}: scorer {theirs} paperscore {ours}")
    print(f"{n_cases} cases x {len(SETTINGS)} settings: {differ} differ")


if __name__ == "__main__":
    scorer = sys.argv[1] if len(sys.argv) > 1 else "/tmp/corefud-refs/corefud-scorer"
    if "--outputs" in sys.argv:
        outputs(scorer)
    elif "--check" in sys.argv:
        check(scorer, int(sys.argv[sys.argv.index("--check") + 1]))
    else:
        main(scorer)
