"""evaluate overhead of every Space: `metric.compute()` through evaluate against a no-op
metric with the Space's own features (every layout it declares, the same stored columns)
plus the package's compute() on the same input, in alternating rounds (Space, floor,
package, ...; medians). Prints the times and the ratios, and whether the Space's result
equals the package's.

    python tests/benchmarks/bench_evaluate_overhead.py          # the sizes below
    python tests/benchmarks/bench_evaluate_overhead.py --quick  # a tenth, to check it runs

Data: micro_macro 1e5 int labels (bench_micro_macro.labels); rationale_f1 2,000 examples
x 100 positions as Python lists (bench_rationale_f1.corpus); csc_sighan and csc_common
the 1,100 SIGHAN15 triples (bench_csc_sighan.corpus); quad_match 2,000 DiaASQ quad strings
(bench_quad_match.corpus); coref_conll 100 synthetic CoNLL documents (gen_coref.py) as one
CoNLL text a document. Target (issue 26): Space <= 1.2x (floor + package).
"""

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent
ROOT = BENCHMARKS.parents[1]
sys.path[:0] = [str(BENCHMARKS), str(ROOT / "shared"), str(ROOT / "tests")]

from timing import Median, finish, interleaved, parse, record, report_load  # noqa: E402

from paperscore import coref, csc_common, csc_sighan, micro_macro, quad, rationale  # noqa: E402

FLOOR = '''
import evaluate
from datasets import *  # the names the features' repr uses


class Floor(evaluate.Metric):
    """A Space's features, a _compute that does nothing."""

    def _info(self):
        features = {features}
        features = [Features(f) for f in features] if isinstance(features, list) else Features(features)
        return evaluate.MetricInfo(description="", citation="", inputs_description="", features=features)

    def _compute(self, **columns):
        return {{"n": len(columns["predictions"])}}
'''


def floor_of(metric, folder):
    """A no-op metric declaring `metric`'s features (from their repr), loaded in memory."""
    import evaluate

    path = Path(folder) / f"floor_{metric.name}"
    path.mkdir()
    (path / f"floor_{metric.name}.py").write_text(FLOOR.format(features=repr(metric.info.features)))
    return evaluate.load(str(path), keep_in_memory=True)


def conll_documents(folder, docs):
    subprocess.run([sys.executable, str(BENCHMARKS / "gen_coref.py"), f"{folder}/syn", "--docs", str(docs), "--clusters", "60", "--seed", "1"], check=True, capture_output=True)

    def split(path):
        return ["#begin document" + part for part in Path(path).read_text().split("#begin document")[1:]]

    return split(f"{folder}/syn.response.conll"), split(f"{folder}/syn.key.conll")


def cases(scale, folder):
    """(Space, package compute, inputs, extra floor columns, options) per Space."""
    from bench_csc_sighan import corpus as sighan
    from bench_micro_macro import labels
    from bench_quad_match import corpus as quads
    from bench_rationale_f1 import corpus as rationales

    p, r = (a.tolist() for a in labels(int(100_000 * scale), seed=1))
    yield "micro_macro", micro_macro.compute, {"predictions": p, "references": r}, {}, {"negative_labels": [0]}
    scores, gold = rationales(int(2_000 * scale), seed=1)
    p, r = scores.tolist(), gold.tolist()
    yield "rationale_f1", rationale.compute, {"predictions": p, "references": r}, {"sources": [""] * len(p)}, {}
    s, p, r = sighan(1)
    s, p, r = s[: int(1_100 * scale)], p[: int(1_100 * scale)], r[: int(1_100 * scale)]
    yield "csc_sighan", csc_sighan.compute, {"predictions": p, "references": r, "sources": s}, {}, {}
    yield "csc_common", csc_common.compute, {"predictions": p, "references": r, "sources": s}, {}, {}
    p, r = quads(int(2_000 * scale))
    yield "quad_match", quad.compute, {"predictions": p, "references": r}, {"sources": ["null"] * len(p)}, {}  # the Space stores absent sources as JSON null
    p, r = conll_documents(folder, max(2, int(100 * scale)))
    yield "coref_conll", coref.compute, {"predictions": p, "references": r}, {}, {}


def main(argv=None):
    import evaluate

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the sizes, 3 rounds: check that it runs")
    args = parse(parser, argv, __file__)
    scale, rounds = (0.1, 3) if args.quick else (1.0, 9)
    report_load()
    print("evaluate compute(), keep_in_memory=True, against a no-op metric with the same features plus the package's compute() (alternating rounds, medians)")
    same = True
    with tempfile.TemporaryDirectory() as folder:
        for name, package, inputs, extra, options in cases(scale, folder):
            metric = evaluate.load(str(ROOT / "spaces" / name), keep_in_memory=True)
            floor = floor_of(metric, folder)
            times = interleaved({
                "space": lambda: metric.compute(**inputs, **options),
                "floor": lambda: floor.compute(**inputs, **extra),
                "package": lambda: package(**inputs, **options),
            }, rounds)  # fmt: skip
            (space, result), (base, _), (alone, expected) = times["space"], times["floor"], times["package"]
            same &= result == expected
            print(
                f"  {name:<12} {len(inputs['predictions']):7,} examples   Space {space * 1e3:8.1f} ms   floor {base * 1e3:8.1f} ms   package {alone * 1e3:8.1f} ms   "
                f"ratio {space / (base + alone):5.2f}   (target <= 1.2; to the floor alone {space / base:5.2f})   equal results: {result == expected}",
                flush=True,
            )
            reference = Median([a + b for a, b in zip(base.rounds, alone.rounds)])  # round by round
            record(f"{name} through evaluate compute() vs a no-op metric plus the package", f"{len(inputs['predictions']):,} examples", space, reference, reference_name="a no-op metric with the Space's features, plus the package's compute()", goal=1 / 1.2, target="<= 1.2x")
    return finish(0 if same else 1)


if __name__ == "__main__":
    raise SystemExit(main())
