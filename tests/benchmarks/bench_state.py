"""paperscore.state across processes: memory and time against the naive alternatives,
measured in the same run.

    python tests/benchmarks/bench_state.py          # 10M labels over 4 workers, then on Ray; states of 1e3..1e5 sentences/documents
    python tests/benchmarks/bench_state.py --quick  # 1e5 labels over 2 workers, 1e2..1e3 sentences/documents, to check it runs

--quick leaves evaluate's way out: importing evaluate in its two workers costs CI more than
the rest of the quick run (tests/test_spaces.py checks that evaluate's multi-process mode
gives one process's figures).

1. micro_macro, N labels (MAVEN-like: 169 int classes, NA 0 on 70% of the references,
   predictions right 80% of the time), split over 4 worker processes running at once.
   Each worker makes its own shard (seeded by its rank), as a model's outputs would be:
   - state: the worker adds its shard to a state and writes to_dict() as JSON; one more
     process reads the 4 states, merges them and computes.
   - gather: the worker writes its shard's labels (.npz, uncompressed: the cheapest transfer);
     one more process loads all N labels and computes once (what gathering every
     prediction to rank 0 does).
   - evaluate: the micro_macro Space in evaluate's own multi-process mode (num_process=4,
     process_id=rank, a shared cache_dir): every worker add_batch()es its shard to an Arrow
     file, and process 0's compute() reads all N back. Its workers' peak RSS after
     evaluate.load (importing evaluate, datasets and the Space) is printed beside it.
   - floor: the worker only makes its shard (the memory every way starts from).
   Per worker: peak RSS (getrusage in the worker) and the bytes it hands on; for the
   process that computes: its peak RSS; the wall time of the whole run (alternating
   rounds, medians). Every way's figures must equal one compute() over all N labels.
2. The same on Ray Data (the README recipe's pipeline), a local cluster of 2 CPUs, N labels made on the
   workers from their ids (8 blocks): one driver process per run, whose peak RSS is
   measured. state: map_batches returns one state per block, merged on the driver.
   gather: every label comes to the driver (to_pandas), which computes once. Full runs
   only (--quick leaves it out: tests/test_distributed.py runs the recipe).
3. csc_sighan (SIGHAN15's 1,100 sentences repeated, predictions that fix, miss and
   over-correct) and coref (random documents of 0-30 mentions) at three corpus sizes: the
   state's to_dict() JSON size with and without keep_rows, against the examples' own JSON
   size (what a worker that returns its examples sends).
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "shared"))

from paperscore import coref, csc_sighan, micro_macro, state  # noqa: E402
from timing import finish, interleaved, parse, record, report_load  # noqa: E402

OPTIONS = {"negative_labels": [0]}
SPACE = ROOT / "spaces" / "micro_macro"


def shard(n, rank):
    """The rank's n labels (predictions, references) as int64 arrays."""
    rng = np.random.default_rng(rank)
    references = np.where(rng.random(n) < 0.7, 0, rng.integers(1, 169, n))
    predictions = np.where(rng.random(n) < 0.8, references, rng.integers(0, 169, n))
    return predictions, references


def peak_rss():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: kilobytes


def worker(way, rank, n, folder, workers):
    """One worker process's part; prints {"rss": ..., "sent": ..., "result": ...} as JSON."""
    folder = Path(folder)
    predictions, references = shard(n, rank)
    out = {}
    if way == "state":
        s = state.new("micro_macro", **OPTIONS).update(predictions, references)
        path = folder / f"state-{rank}.json"
        path.write_text(json.dumps(s.to_dict()))
        out["sent"], out["cells_bytes"] = path.stat().st_size, s.ref.nbytes + s.pred.nbytes + s.count.nbytes
    elif way == "gather":
        path = folder / f"labels-{rank}.npz"
        np.savez(path, predictions=predictions, references=references)
        out["sent"] = path.stat().st_size
    elif way == "evaluate":
        import evaluate

        metric = evaluate.load(str(SPACE), num_process=workers, process_id=rank, experiment_id="bench", cache_dir=str(folder / "cache"), timeout=1200)
        out["loaded_rss"] = peak_rss()
        metric.add_batch(predictions=predictions, references=references)
        out["sent"] = sum(p.stat().st_size for p in (folder / "cache").rglob(f"*-{workers}-{rank}.arrow"))
        out["result"] = metric.compute(**OPTIONS)  # None but on process 0
    out["rss"] = peak_rss()
    print(json.dumps(out))


def combine(way, folder, workers):
    """The process that computes: merges the states, or loads every label."""
    folder = Path(folder)
    if way == "state":
        total = state.merge(*(state.from_dict(json.loads((folder / f"state-{r}.json").read_text())) for r in range(workers)))
        result = total.compute()
    else:
        parts = [np.load(folder / f"labels-{r}.npz") for r in range(workers)]
        result = micro_macro.compute(np.concatenate([p["predictions"] for p in parts]), np.concatenate([p["references"] for p in parts]), **OPTIONS)
    print(json.dumps({"rss": peak_rss(), "result": result}))


def sizes(n, workers):
    return [n // workers + (r < n % workers) for r in range(workers)]


def run(way, n, workers):
    """A whole run of `way`: the workers at once, then the computing process.
    {"workers": [their stats], "combine": its stats or None}"""
    with tempfile.TemporaryDirectory(prefix="bench-state-") as folder:
        ranks = [spawn("--worker", way, r, size, folder, workers) for r, size in enumerate(sizes(n, workers))]
        stats = [read(p) for p in ranks]
        combined = read(spawn("--combine", way, 0, 0, folder, workers)) if way in ("state", "gather") else None
    return {"workers": stats, "combine": combined}


def spawn(*args):
    return subprocess.Popen([sys.executable, __file__, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def read(process):
    out, err = process.communicate(timeout=1800)
    if process.returncode:
        raise SystemExit(f"a worker failed (exit {process.returncode}): {err[-3000:]}")
    return json.loads(out.strip().splitlines()[-1])


def mb(n):
    return f"{n / 2**20:.1f} MiB"


def distributed(n, workers, rounds, ways=("state", "gather", "evaluate", "floor")):
    times = interleaved({way: (lambda way=way: run(way, n, workers)) for way in ways}, rounds)
    expected = micro_macro.compute(*(np.concatenate(side) for side in zip(*(shard(size, r) for r, size in enumerate(sizes(n, workers))))), **OPTIONS)
    print(f"\nmicro_macro, {n:,} labels over {workers} worker processes ({rounds} alternating rounds, medians; memory of the last round)")
    agree = True
    for way in ways:
        seconds, got = times[way]
        rss = [w["rss"] for w in got["workers"]]
        line = f"  {way:8s} {seconds:6.2f} s  worker peak RSS {mb(min(rss))}–{mb(max(rss))}"
        if way != "floor":
            line += f", hands on {max(w['sent'] for w in got['workers']):,} bytes a worker"
        if "cells_bytes" in got["workers"][0]:
            line += f" (the confusion matrix's non-zero cells: {got['workers'][0]['cells_bytes']:,} bytes)"
        result = got["combine"]["result"] if got["combine"] else next((w["result"] for w in got["workers"] if w.get("result")), None)
        if got["combine"]:
            line += f"; the computing process: {mb(got['combine']['rss'])}"
        elif way == "evaluate":
            line += f" ({mb(max(w['loaded_rss'] for w in got['workers']))} after evaluate.load); process 0 (computes): {mb(got['workers'][0]['rss'])}"
        if way != "floor":
            same = result == expected
            agree &= same
            line += f"; figures {'equal' if same else 'DIFFER from'} one compute()"
        print(line)
    floor = max(w["rss"] for w in times["floor"][1]["workers"])
    ours = max(w["rss"] for w in times["state"][1]["workers"])
    gatherer = times["gather"][1]["combine"]["rss"]
    print(f"  ratio: a state worker's peak RSS is {ours / floor:.2f}x the floor's; the gathering process {gatherer / ours:.1f}x a state worker's", end="")
    if "evaluate" in times:
        print(f", evaluate's process 0 {times['evaluate'][1]['workers'][0]['rss'] / ours:.1f}x", end="")
    shape = f"{n:,} labels over {workers} workers"
    record("state: a worker's peak RSS vs a worker that only makes its labels", shape, ours, floor, reference_name="a worker that only makes its labels", unit="B", target="O(classes^2) a worker")
    record("state: the merging process's peak RSS vs gathering every label", shape, times["state"][1]["combine"]["rss"], gatherer, reference_name="one process gathering every label (.npz)", unit="B")
    record("state: wall time vs gathering every label", shape, times["state"][0], times["gather"][0], reference_name="one process gathering every label (.npz)")
    if "evaluate" in times:
        record("state: wall time vs evaluate's multi-process mode", shape, times["state"][0], times["evaluate"][0], reference_name="evaluate num_process=4 (the micro_macro Space)")
        record("state: the merging process's peak RSS vs evaluate's process 0", shape, times["state"][1]["combine"]["rss"], times["evaluate"][1]["workers"][0]["rss"], reference_name="evaluate num_process=4, process 0", unit="B")
    print(f"\n  ratio of wall times: gather / state {times['gather'][0] / times['state'][0]:.2f}" + (f", evaluate / state {times['evaluate'][0] / times['state'][0]:.1f}" if "evaluate" in times else ""))
    return agree


def labels_of(ids):
    """Labels as a function of their ids alone (a multiplicative hash), as shard() draws them:
    NA on 70% of the references, predictions right 80% of the time."""
    h = (np.asarray(ids, dtype=np.uint64) * np.uint64(0x9E3779B1)) % np.uint64(2**32)
    references = np.where(h % 10 < 7, 0, 1 + (h >> np.uint64(8)) % 168).astype(np.int64)
    predictions = np.where((h >> np.uint64(16)) % 10 < 8, references, (h >> np.uint64(20)) % 169).astype(np.int64)
    return predictions, references


def ray_driver(way, n):
    """One Ray Data run as the driver (its own process): prints its peak RSS and result."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)

    def make(batch):
        predictions, references = labels_of(batch["id"])
        return {"prediction": predictions, "reference": references}

    def score(batch):
        return {"state": [json.dumps(state.new("micro_macro", **OPTIONS).update(batch["prediction"], batch["reference"]).to_dict())]}

    outputs = ray.data.range(n, override_num_blocks=8).map_batches(make, batch_size=None, batch_format="numpy")
    if way == "state":
        parts = outputs.map_batches(score, batch_size=None, batch_format="numpy").to_pandas()
        result, sent = state.merge(*(state.from_dict(json.loads(s)) for s in parts["state"])).compute(), int(parts["state"].str.len().sum())
    else:
        table = outputs.to_pandas()
        result, sent = micro_macro.compute(table["prediction"].to_numpy(), table["reference"].to_numpy(), **OPTIONS), int(table.memory_usage(index=False).sum())
    print(json.dumps({"rss": peak_rss(), "sent": sent, "result": result}))


def on_ray(n, rounds):
    # loopback only, no usage statistics; the workers import this checkout's paperscore
    env = {**os.environ, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_USAGE_STATS_ENABLED": "0", "PYTHONPATH": os.pathsep.join([str(ROOT / "shared"), os.environ.get("PYTHONPATH", "")])}

    def run_driver(way):
        return read(subprocess.Popen([sys.executable, __file__, "--ray", way, str(n)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env))

    times = interleaved({way: (lambda way=way: run_driver(way)) for way in ("state", "gather")}, rounds)
    expected = micro_macro.compute(*labels_of(np.arange(n)), **OPTIONS)
    print(f"\nRay Data, micro_macro, {n:,} labels made on 2 CPUs' workers in 8 blocks ({rounds} alternating rounds, medians; each a new driver process with ray.init)")
    agree = True
    for way in times:
        seconds, got = times[way]
        same = got["result"] == expected
        agree &= same
        print(f"  {way:8s} {seconds:6.2f} s  driver peak RSS {mb(got['rss'])}, receives {got['sent']:,} bytes; figures {'equal' if same else 'DIFFER from'} one compute()")
    shape = f"{n:,} labels on Ray Data, 8 blocks"
    record("state on Ray Data: the driver's peak RSS vs every label to the driver", shape, times["state"][1]["rss"], times["gather"][1]["rss"], reference_name="every label to the driver (to_pandas)", unit="B")
    record("state on Ray Data: wall time vs every label to the driver", shape, times["state"][0], times["gather"][0], reference_name="every label to the driver (to_pandas)")
    print(f"  ratio: the gathering driver's peak RSS {times['gather'][1]['rss'] / times['state'][1]['rss']:.1f}x the merging driver's; wall times gather / state {times['gather'][0] / times['state'][0]:.2f}")
    return agree


def json_size(value):
    return len(json.dumps(value, ensure_ascii=False).encode())


def coref_documents(n, seed=8):
    """n documents of 0-30 mentions (every tenth empty), the prediction dropping,
    adding and regrouping mentions."""
    rng = np.random.default_rng(seed)
    predictions, references = [], []
    for d in range(n):
        k = int(rng.integers(0, 31)) if d % 10 else 0
        starts = np.sort(rng.choice(400, k, replace=False))
        spans = [[int(s), int(s + rng.integers(0, 3))] for s in starts]
        references.append(clusters(spans, rng.integers(0, max(k // 3, 1), k)))
        kept = [span for span in spans if rng.random() < 0.85] + [[int(s), int(s)] for s in np.unique(rng.integers(500, 600, rng.integers(0, 3)))]
        predictions.append(clusters(kept, rng.integers(0, max(k // 3, 1), len(kept))))
    return predictions, references


def clusters(spans, groups):
    out = {}
    for span, group in zip(spans, groups):
        out.setdefault(int(group), []).append(span)
    return list(out.values())


def state_sizes(sizes):
    from bench_csc_sighan import corpus

    print("\nstate sizes: to_dict() as JSON, without / with keep_rows, against the examples' own JSON")
    ok = True
    for family, make in (("csc_sighan", lambda n: corpus(n // 1100 + 1)), ("coref", coref_documents)):
        for n in sizes:
            data = [side[:n] for side in make(n)]
            inputs = {"sources": data[0]} if family == "csc_sighan" else {}
            predictions, references = data[-2:] if family == "csc_sighan" else data
            plain, rows = (state.new(family, keep_rows=k).update(predictions, references, **inputs) for k in (False, True))
            module = csc_sighan if family == "csc_sighan" else coref
            expected = module.compute(predictions, references, **inputs)
            same = plain.compute() == expected or family == "coref" and all(np.isclose(plain.compute()[k], v, rtol=1e-12, equal_nan=True) for k, v in expected.items())
            ok &= same
            examples = json_size([predictions, references, *inputs.values()])
            record(f"state size, {family}, keep_rows vs the examples' JSON", f"{n:,} examples", json_size(rows.to_dict()), examples, reference_name="the examples' own JSON", unit="B", note=f"without keep_rows: {json_size(plain.to_dict())} bytes")
            print(f"  {family:10s} {n:>7,} examples: {json_size(plain.to_dict()):>10,} bytes / {json_size(rows.to_dict()):>10,} bytes ({len(rows.weights):,} distinct rows, {rows.table.nbytes + rows.weights.nbytes:,} bytes as arrays); the examples: {examples:>11,} bytes; ratio {examples / json_size(rows.to_dict()):.1f}x smaller with rows{'' if same else '; figures DIFFER from compute()'}")
    return ok


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, to check it runs")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds of the 10M-label runs (default 3)")
    parser.add_argument("--ray-labels", type=int, default=10**7, help=argparse.SUPPRESS)
    parser.add_argument("--parts", default="processes,ray,sizes", help="which of the full run's parts to run (default: processes,ray,sizes)")
    parser.add_argument("--worker", nargs=5, metavar=("WAY", "RANK", "N", "FOLDER", "WORKERS"), help=argparse.SUPPRESS)
    parser.add_argument("--combine", nargs=5, metavar=("WAY", "RANK", "N", "FOLDER", "WORKERS"), help=argparse.SUPPRESS)
    parser.add_argument("--ray", nargs=2, metavar=("WAY", "N"), help=argparse.SUPPRESS)
    args = parse(parser, argv, __file__)
    if args.worker:
        way, rank, n, folder, workers = args.worker
        return worker(way, int(rank), int(n), folder, int(workers))
    if args.combine:
        return combine(args.combine[0], args.combine[3], int(args.combine[4]))
    if args.ray:
        return ray_driver(args.ray[0], int(args.ray[1]))
    report_load()
    if args.quick:
        agree = distributed(10**5, 2, 1, ("state", "gather", "floor")) & state_sizes([100, 1000])
    else:
        parts = args.parts.split(",")
        agree = True
        agree &= distributed(10**7, 4, args.rounds) if "processes" in parts else True
        agree &= on_ray(args.ray_labels, args.rounds) if "ray" in parts else True
        agree &= state_sizes([1_000, 10_000, 100_000]) if "sizes" in parts else True
    if not agree:
        raise SystemExit("a way's figures differ from one compute()")
    return finish(0)


if __name__ == "__main__":
    sys.exit(main())
