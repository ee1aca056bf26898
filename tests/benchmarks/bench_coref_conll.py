"""coref_conll benchmark: paperscore against the reference Perl scorer and coval on one
synthetic key/response pair, timed in the same run. Prints the times, the ratios and the
per-metric counts, and whether they agree with the reference.

    python tests/benchmarks/bench_coref_conll.py            # 300 documents, 43.6k mentions a side
    python tests/benchmarks/bench_coref_conll.py --quick    # 20 documents, to check it runs
    python tests/benchmarks/bench_coref_conll.py --perl-scorer DIR --perl-lea-scorer DIR --coval DIR

Data: `gen_coref.py --docs 300 --clusters 60 --seed 1` (20 documents with --quick),
generated into a temporary folder. The reference tools are not part of the project: give
the folders where you extracted conll/reference-coreference-scorers (master, v8.01; and
its LEA-scorer branch) and ns-moosavi/coval to time them too. Without them the numbers are
still checked against the figures the Perl scorer printed for these files (stored below).
Target: paperscore parses both files and computes all six metrics in <= 0.5 s (median),
>= 100x faster than scorer.pl and >= 10x faster than coval.

Then the shapes off that path, each against its baseline in alternating rounds (A, B, A,
B, ...; medians), the machine's load printed first:
- one document of 3,000 entities (gen_coref.py --docs 1 --clusters 3000): CEAF's sparse
  alignment against the dense key x response matrix it replaced (target >= 5x);
- 20,000 singleton entities a side in one document: peak memory (target < 64 MB; the
  dense matrix needed 3.2 GB);
- compute() on the 300 documents as per-document CoNLL strings against the file path
  (target <= 1.2x);
- the first result of `paperscore coref` on a 4-token file against `python -c "import
  numpy"` (target <= 1.5x).
"""

import argparse
import hashlib
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "shared"))

from paperscore import coref  # noqa: E402
from timing import command, finish, interleaved, parse, record, report_load  # noqa: E402

# Printed by `perl scorer.pl <metric> KEY RESPONSE none` (v8.01; LEA: the LEA-scorer branch)
# on the generated files; per metric [recall num, recall den, precision num, precision den]
# (BLANC: coreference links, then non-coreference links).
ORACLE = {
    "full": {
        "md5": ("36777a0f5c310003fe11e4fe26dcda19", "34295298afe09542f9207e76740c30e0"),
        "counts": {"mentions": [38133, 43583, 38133, 43172], "muc": [19575, 25672, 19575, 24319], "bcub": [33376.7934537685, 43583, 33337.3729613524, 43172], "ceafm": [34272, 43583, 34272, 43172], "ceafe": [13668.1523294085, 17911, 13668.1523294085, 18853], "blanc": [39854, 56812, 39854, 56074, 2473515, 3242210, 2473515, 3185625], "lea": [29479.2389460213, 43583, 29207.2341967029, 43172]},
    },
    "quick": {
        "md5": ("ad31dd0b2b7ec6a53e2a09457d440d2f", "84a182d6d78845cfc6b835fa1f30782b"),
        "counts": {"mentions": [2537, 2881, 2537, 2849], "muc": [1280, 1683, 1280, 1568], "bcub": [2221.08041125541, 2881, 2264.51233766234, 2849], "ceafm": [2299, 2881, 2299, 2849], "ceafe": [944.856314292625, 1198, 944.856314292625, 1281], "blanc": [2523, 3637, 2523, 3406, 166912, 215349, 166912, 211213], "lea": [1964.73095238095, 2881, 1996.00476190476, 2849]},
    },
}
PERL_METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc")
COVAL_METRICS = ("mentions", "muc", "bcub", "ceafe", "lea")
NUMBER = r"\(([-\d.e+]+) / ([-\d.e+]+)\)"


def generate(folder, docs):
    prefix = Path(folder) / "syn"
    command = [sys.executable, str(Path(__file__).parent / "gen_coref.py"), str(prefix), "--docs", str(docs), "--clusters", "60", "--seed", "1"]
    subprocess.run(command, check=True, capture_output=True)
    return f"{prefix}.key.conll", f"{prefix}.response.conll"


def paperscore(key, response):
    """What `paperscore coref KEY RESPONSE` computes: both files parsed, all metrics."""
    parser = argparse.ArgumentParser()
    coref.add_arguments(parser)  # the command's own options, so that new ones get their defaults
    args = parser.parse_args([key, response])
    args.common = {}
    return coref.run(args)


def flat(result):
    return {m: [v for pair in parts.values() for v in pair] for m, parts in result["counts"].items()}


def close(a, b):
    return len(a) == len(b) and all(abs(x - y) <= 1e-9 for x, y in zip(a, b))


def perl_totals(output, metric):
    """The counts of scorer.pl's TOTALS section for one metric."""
    totals = output.split("====== TOTALS =======")[-1]
    if metric == "blanc":
        parts = [re.search(f"{kind}: Recall: {NUMBER}.*?Precision: {NUMBER}", totals)[0] for kind in ("Coreference links", "Non-coreference links")]
    else:
        parts = [re.search(f"Coreference: Recall: {NUMBER}.*?Precision: {NUMBER}", totals)[0]]
    return [float(x) for part in parts for x in re.findall(NUMBER, part) for x in x]


def perl_command(folder, metrics, key, response):
    return command(["perl", str(Path(folder) / "scorer.pl"), "all" if len(metrics) > 1 else metrics[0], key, response, "none"])


def perl_counts(output, metrics):
    sections = re.split(r"\nMETRIC (\w+):", output)
    found = dict(zip(sections[1::2], sections[2::2])) if len(metrics) > 1 else {metrics[0]: output}
    return {m: perl_totals(found[m], m) for m in metrics}


def coval_rows(output):
    rows = {m[0]: m[1:] for m in re.findall(r"^(\w+)\s+Recall: ([\d.]+)\s+Precision: ([\d.]+)\s+F1: ([\d.]+)", output, re.M)}
    rows["conll"] = (re.search(r"CoNLL score: ([\d.]+)", output)[1],)
    return rows


def dense_ceaf(key, response):
    """CEAFm and CEAFe numerators by the former method: per document a dense key entity x
    response entity matrix and scipy's linear_sum_assignment."""
    from scipy.optimize import linear_sum_assignment

    out = []
    for k, r in zip(key, response):
        owner = {m: j for j, e in enumerate(r) for m in e}
        overlap = np.zeros((len(k), len(r)))
        for i, e in enumerate(k):
            for m in e:
                if m in owner:
                    overlap[i, owner[m]] += 1
        sizes = np.add.outer([len(e) for e in k], [len(e) for e in r])
        out.append([math.fsum(m[linear_sum_assignment(m, maximize=True)].tolist()) for m in (overlap, 2 * overlap / sizes)])
    return out


def rounds(a, b, repeat):
    """Medians of a() and b() timed in alternating rounds."""
    times = interleaved({"a": a, "b": b}, repeat)
    return times["a"][0], times["b"][0]


def shapes(folder, key, response, repeat, perl_scorer=None):
    """The rows for the shapes off the benchmarked path (the docstring's list); False when
    a figure differs (a missed time target is printed, not failed: machines are loaded)."""
    import tracemalloc

    ok = True
    print(f"shapes off that path, alternating rounds, medians of {repeat}:")
    prefix = Path(folder) / "one"
    subprocess.run([sys.executable, str(Path(__file__).parent / "gen_coref.py"), str(prefix), "--docs", "1", "--clusters", "3000", "--seed", "1"], check=True, capture_output=True)
    documents = [coref.read_documents(f"{prefix}.{side}.conll", side)[1] for side in ("key", "response")]
    clusters = [[[tuple(m) for m in c] for c in coref.document_clusters(d[0])] for d in documents]
    sides = coref.read_examples([clusters[1]], [clusters[0]])
    ours, dense = rounds(lambda: coref.statistics(*sides, ("ceafm", "ceafe")), lambda: dense_ceaf([clusters[0]], [clusters[1]]), repeat)
    stats = coref.statistics(*sides, ("ceafm", "ceafe"))
    equal = [stats["ceafm"][0, 0], stats["ceafe"][0, 0]] == dense_ceaf([clusters[0]], [clusters[1]])[0]
    print(f"  3,000 entities ({len(clusters[0])} key / {len(clusters[1])} response): CEAF {ours:.4f} s, dense matrix {dense:.4f} s: {dense / ours:.1f}x (target >= 5x), equal: {equal}")
    record("coref_conll CEAFm + CEAFe vs a dense entity matrix", "one document, 3,000 entities", ours, dense, reference_name="the dense key x response entity matrix and linear_sum_assignment", goal=5, target=">= 5x")
    ok &= equal
    singletons = [[[[i, i]] for i in range(20_000)]]
    tracemalloc.start()
    coref.compute(singletons, singletons)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    record("coref_conll, singleton entities: traced peak", "20,000 singletons a side", peak * 2**20, unit="B", target="< 64 MB")
    print(f"  20,000 singletons a side: peak {peak:.1f} MB traced (target < 64 MB)")
    texts = [[m[0] for m in re.finditer(r"#begin document .*?#end document\n", Path(p).read_text(), re.S)] for p in (key, response)]
    strings, files = rounds(lambda: coref.compute(texts[1], texts[0]), lambda: paperscore(key, response), repeat)
    print(f"  {len(texts[0])} per-document CoNLL strings: compute() {strings:.3f} s, the file path {files:.3f} s: {strings / files:.2f}x (target <= 1.2x)")
    record("coref_conll, per-document CoNLL strings vs the file path", f"{len(texts[0])} documents", strings, files, reference_name="the same documents read from the files", goal=1 / 1.2, target="<= 1.2x")
    tiny = Path(folder) / "tiny.conll"
    tiny.write_text("#begin document d\nw\t(0)\nw\t-\nw\t(0\nw\t0)\n#end document\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "shared")}
    functions = {"paperscore": command([sys.executable, "-m", "paperscore", "coref", str(tiny), str(tiny)], env=env), "numpy": command([sys.executable, "-c", "import numpy"])}
    if perl_scorer:
        functions["scorer.pl"] = perl_command(perl_scorer, PERL_METRICS, str(tiny), str(tiny))
    times = interleaved(functions, repeat)
    first, numpy_alone = times["paperscore"][0], times["numpy"][0]
    perl = f", scorer.pl all {times['scorer.pl'][0]:.3f} s ({times['scorer.pl'][0] / first:.2f}x ours)" if perl_scorer else ""
    print(f"  4-token file: first result {first:.3f} s, python -c 'import numpy' {numpy_alone:.3f} s: {first / numpy_alone:.2f}x (target <= 1.5x){perl}")
    record("paperscore coref, first result vs python -c 'import numpy'", "a 4-token file", first, numpy_alone, reference_name="python -c 'import numpy'", goal=1 / 1.5, target="<= 1.5x import numpy")
    if perl_scorer:
        record("paperscore coref, first result vs scorer.pl all", "a 4-token file", first, times["scorer.pl"][0], reference_name="scorer.pl all", goal=1, target="faster than scorer.pl")
    return ok


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="20 documents: check that it runs and agrees")
    parser.add_argument("--repeat", type=int, help="paperscore runs to take the median of (default 9, quick 3)")
    parser.add_argument("--perl-scorer", help="folder of conll/reference-coreference-scorers (master, v8.01)")
    parser.add_argument("--perl-lea-scorer", help="folder of its LEA-scorer branch")
    parser.add_argument("--coval", help="folder of ns-moosavi/coval")
    parser.add_argument("--reference-rounds", type=int, default=3, help="rounds for each reference tool (scorer.pl: about 40 s a round; default 3, quick 1)")
    args = parse(parser, argv, __file__)
    size = "quick" if args.quick else "full"
    repeat = args.repeat or (3 if args.quick else 9)
    agree = True
    report_load()
    with tempfile.TemporaryDirectory() as folder:
        key, response = generate(folder, 20 if args.quick else 300)
        digests = tuple(hashlib.md5(Path(p).read_bytes()).hexdigest() for p in (key, response))
        mentions = [sum(1 for _ in re.finditer(r"\(\d+\)|\(\d+", Path(p).read_text())) for p in (key, response)]
        print(f"coref_conll, gen_coref.py --docs {20 if args.quick else 300} --clusters 60 --seed 1: {mentions[0]:,} key / {mentions[1]:,} response mentions")
        if digests != ORACLE[size]["md5"]:
            print(f"  the generated files differ from those the stored figures come from (md5 {digests})")
            agree = False

        paperscore(key, response)  # warm up: imports scipy
        env = {**os.environ, "PYTHONPATH": str(ROOT / "shared")}
        functions = {"paperscore": lambda: paperscore(key, response), "process": command([sys.executable, "-m", "paperscore", "coref", key, response, "--json"], env=env)}
        if args.perl_scorer:
            functions["scorer.pl all (muc bcub ceafm ceafe blanc)"] = perl_command(args.perl_scorer, PERL_METRICS, key, response)
        if args.perl_lea_scorer:
            functions["scorer.pl lea (LEA-scorer branch)"] = perl_command(args.perl_lea_scorer, ("lea",), key, response)
        if args.coval:
            functions["coval scorer.py (mentions muc bcub ceafe lea)"] = command([sys.executable, str(Path(args.coval) / "scorer.py"), key, response])
        slow = 1 if args.quick else args.reference_rounds
        times = interleaved(functions, {name: repeat if name in ("paperscore", "process") else slow for name in functions})
        (ours, result), (cold, output) = times["paperscore"], times["process"]
        counts = flat(result)
        same_cli = flat(json.loads(output)) == counts
        print(f"  paperscore  {ours:8.3f} s   median of {repeat} alternating rounds, parse both files + all metrics (target <= 0.5 s)")
        print(f"  paperscore  {cold:8.3f} s   `paperscore coref KEY RESPONSE` as a new process (interpreter and numpy imports; scipy only where CEAF needs an assignment)")
        documents = f"{20 if args.quick else 300} documents"
        for metric, values in counts.items():
            print(f"    {metric:9s} " + "  ".join(f"{v:.15g}" for v in values))
        stored = all(close(counts[m], v) for m, v in ORACLE[size]["counts"].items())
        print(f"  equal to the stored scorer.pl figures (1e-9): {stored}   command line gives the same counts: {same_cli}")
        agree &= stored and same_cli

        for name, (seconds, output) in list(times.items())[2:]:
            if name.startswith("scorer.pl all"):
                perl = perl_counts(output, PERL_METRICS)
                equal, target = all(close(perl[m], counts[m]) for m in PERL_METRICS), 100
            elif name.startswith("scorer.pl lea"):
                equal, target = close(perl_counts(output, ("lea",))["lea"], counts["lea"]), None
            else:
                rows = coval_rows(output)
                mine = {m: [result[f"{m}_{p}"] for p in ("recall", "precision", "f1")] for m in COVAL_METRICS}
                mine["conll"] = [result["conll_f1"]]
                equal, target = all(abs(100 * a - float(b)) <= 0.0051 for m, values in mine.items() for a, b in zip(values, rows[m])), 10
            print(f"  {name}: {seconds:.2f} s (median of {slow} rounds), equal: {equal}")
            goal = f"   (target >= {target}x)" if target else ""
            print(f"    ratio {seconds / ours:8.1f}x the median, {seconds / cold:6.1f}x the new process{goal}")
            record(f"coref_conll vs {name}", documents, ours, seconds, reference_name=name, goal=target, target=f">= {target}x" if target else "")
            record(f"paperscore coref as a new process vs {name}", documents, cold, seconds, reference_name=name)
            agree &= equal
        if len(times) == 2:
            print("  ratio  n/a: give --perl-scorer, --perl-lea-scorer or --coval to time the reference tools in this run")
        agree &= shapes(folder, key, response, 3 if args.quick else 7, args.perl_scorer)
    return finish(0 if agree else 1)


if __name__ == "__main__":
    raise SystemExit(main())
