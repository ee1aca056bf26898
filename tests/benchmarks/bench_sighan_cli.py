"""SIGHAN label files from the shell: `paperscore sighan -i RESULT -t TRUTH` and `paperscore
csc --predictions RESULT --references TRUTH` as whole processes (start-up and imports
included) on a 110,000-line pair of official label files, against the official
sighan15csc.jar run in the same session. Prints the times and the ratios.

    python tests/benchmarks/bench_sighan_cli.py --jar /tmp/sighan8csc_release1.0/Tool/sighan15csc.jar
    python tests/benchmarks/bench_sighan_cli.py            # no jar: checks the figures it printed
    python tests/benchmarks/bench_sighan_cli.py --quick    # 11,000 lines, to check it runs
    python tests/benchmarks/bench_sighan_cli.py --long-pid [--jar PATH]   # one long pid: time, memory

The jar: onebula/sighan_raw, raw_data/sighan8csc_release1.0.zip, Tool/sighan15csc.jar
(unzip it anywhere; java on PATH). Data (seeded, the same on every machine): pids
`B<k%7>-<k:06d>-<k%3+1>`; each truth line has 0-3 edits at distinct positions 1-60 with
characters drawn from 400 CJK ideographs; the result keeps the truth's edits on 40% of
the lines and draws 0-3 fresh edits on the others, its lines shuffled.
Targets: paperscore sighan and paperscore csc each >= 3x faster than the jar, and the
sighan figures line for line the jar's.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from timing import Median, finish, parse, record, report_load  # noqa: E402

# What sighan15csc.jar printed (Part 1) on the two generated pairs, run locally:
# java -jar sighan15csc.jar -i result.txt -t truth.txt
HEADING = "SIGHAN 2015 Bakeoff: Chinese Spelling Check Task\n\n" + "=" * 58 + "\nPart 1: Overall Performance\n" + "=" * 58 + "\n\n"
JAR_PRINTED = {
    110_000: HEADING + """\
False Positive Rate = 0.4514 (12515/27727)

Detection Level
\tAccuracy = 0.4368 (48048/110000)
\tPrecision = 0.724 (32836/45351)
\tRecall = 0.3991 (32836/82273)
\tF1-Score = 0.5146 ((2*0.724*0.3991)/(0.724+0.3991))

Correction Level
\tAccuracy = 0.4361 (47967/110000)
\tPrecision = 0.7235 (32755/45270)
\tRecall = 0.3981 (32755/82273)
\tF1-Score = 0.5136 ((2*0.7235*0.3981)/(0.7235+0.3981))
""" + "\n\n",
    11_000: HEADING + """\
False Positive Rate = 0.4517 (1248/2763)

Detection Level
\tAccuracy = 0.4435 (4879/11000)
\tPrecision = 0.7294 (3364/4612)
\tRecall = 0.4084 (3364/8237)
\tF1-Score = 0.5236 ((2*0.7294*0.4084)/(0.7294+0.4084))

Correction Level
\tAccuracy = 0.4428 (4871/11000)
\tPrecision = 0.7289 (3356/4604)
\tRecall = 0.4074 (3356/8237)
\tF1-Score = 0.5227 ((2*0.7289*0.4074)/(0.7289+0.4074))
""" + "\n\n",
}


def label_pair(n, seed=0):
    """(truth lines, result lines) as described in the module docstring."""
    rng = random.Random(seed)
    chars = [chr(code) for code in range(0x4E00, 0x4E00 + 400)]

    def edits():
        positions = sorted(rng.sample(range(1, 61), rng.randrange(4)))
        return [(p, rng.choice(chars)) for p in positions]

    def line(pid, pairs):
        return pid + ", " + (", ".join(f"{p}, {c}" for p, c in pairs) or "0")

    truth, result = [], []
    for k in range(n):
        pid = f"B{k % 7}-{k:06d}-{k % 3 + 1}"
        gold = edits()
        truth.append(line(pid, gold))
        result.append(line(pid, gold if rng.random() < 0.4 else edits()))
    rng.shuffle(result)
    return truth, result


def realise_figures(truth, result):
    """The paper-common sentence level (ReaLiSe's metric_core), written the obvious way on
    the label lines: the reference `paperscore csc` must print."""

    def read(lines):
        out = {}
        for text in lines:
            fields = [f.strip() for f in text.split(",")]
            out[fields[0]] = [] if fields[1:] == ["0"] else [(int(p), c) for p, c in zip(fields[1::2], fields[2::2])]
        return out

    gold, pred = read(truth), read(result)
    n = len(gold)
    pred_p = sum(1 for pid in gold if pred[pid])
    targ_p = sum(1 for pid in gold if gold[pid])
    figures = {}
    for level, same in (("detection", lambda a, b: [p for p, _ in a] == [p for p, _ in b]), ("correction", lambda a, b: a == b)):
        hits = sum(1 for pid in gold if pred[pid] and same(pred[pid], gold[pid]))
        accuracy = sum(1 for pid in gold if same(pred[pid], gold[pid])) / n
        precision, recall = hits / pred_p, hits / targ_p
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        figures.update({f"sentence_{level}_accuracy": accuracy, f"sentence_{level}_precision": precision, f"sentence_{level}_recall": recall, f"sentence_{level}_f1": f1})
    return figures


def run(commands, repeat, memory=None):
    """{name: (Median wall time, stdout of the last run)} of whole processes, run in
    interleaved rounds (one of each command per round), so that a machine whose speed
    drifts during the benchmark weighs on every command alike. `memory`, a dict, gets each
    command's largest peak resident size (bytes, from os.wait4)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "shared"), os.environ.get("PYTHONPATH", "")])}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its .pyc files
    times, printed = {name: [] for name in commands}, {}
    for _ in range(repeat):
        for name, command in commands.items():
            start = time.perf_counter()
            with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
                process = subprocess.Popen(command, stdout=out, stderr=err, env=env)
                _, status, usage = os.wait4(process.pid, 0)
                process.returncode = os.waitstatus_to_exitcode(status)
                times[name].append(time.perf_counter() - start)
                out.seek(0), err.seek(0)
                if process.returncode:
                    raise SystemExit(f"{command[:4]} failed: {err.read()[-2000:].decode(errors='replace')}")
                printed[name] = out.read().decode("utf-8")
            if memory is not None:
                memory[name] = max(memory.get(name, 0), usage.ru_maxrss * 1024)  # (KiB on Linux)
    return {name: (Median(times[name]), printed[name]) for name in commands}


def long_pid(args):
    """Issue 22: 1,000 short lines and one long pid (256 KB, 1 MB; the truth in order, the
    result reversed): time and peak memory of `paperscore sighan` against the jar. Targets:
    memory that grows with the file's bytes (a peak far below lines x longest pid, which
    was 3.1 GB for 1 MB), and no slower than the jar."""
    repeat = 1 if args.quick else 5
    for size in (256 << 10, 1 << 20):
        lines = [f"P{i}, {i % 50 + 1}, 甲" for i in range(1000)] + ["Q" * size + ", 0"]
        with tempfile.TemporaryDirectory() as folder:
            paths = {name: Path(folder) / f"{name}.txt" for name in ("truth", "result")}
            paths["truth"].write_text("\n".join(lines) + "\n", encoding="utf-8")
            paths["result"].write_text("\n".join(lines[::-1]) + "\n", encoding="utf-8")
            commands = {"sighan": [sys.executable, "-m", "paperscore", "sighan", "-i", str(paths["result"]), "-t", str(paths["truth"])]}
            if args.jar:
                commands["jar"] = ["java", "-jar", args.jar, "-i", str(paths["result"]), "-t", str(paths["truth"])]
            memory = {}
            timed = run(commands, repeat, memory)
            print(f"1,000 lines and one {size >> 10} KB pid (medians of {repeat} interleaved rounds; peak resident memory)")
            for name, (seconds, _) in timed.items():
                print(f"  {name:8s} {seconds * 1e3:9.1f} ms  {memory[name] / 2**20:7.1f} MiB")
            if args.jar:
                print(f"  ratio (jar / sighan) {timed['jar'][0] / timed['sighan'][0]:6.1f}x   (target >= 1x)")
            shape = f"1,000 lines and one {size >> 10} KB pid"
            jar = timed.get("jar", (None,))[0]
            record("paperscore sighan, long pid, vs sighan15csc.jar", shape, timed["sighan"][0], jar, reference_name="sighan15csc.jar" if jar else "", goal=1, target=">= 1x")
            record("paperscore sighan, long pid: peak RSS vs the jar's", shape, memory["sighan"], memory.get("jar"), reference_name="sighan15csc.jar" if jar else "", unit="B", target="grows with the bytes")
    return finish(0)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="11,000 lines, one run each: check that it runs")
    parser.add_argument("--jar", help="path of sighan15csc.jar: time it and compare its output")
    parser.add_argument("--lines", type=int, help="another size (no stored jar figures)")
    parser.add_argument("--long-pid", action="store_true", help="1,000 lines and one long pid instead (time and memory)")
    args = parse(parser, argv, __file__)
    report_load()
    if args.long_pid:
        return long_pid(args)
    n = args.lines or (11_000 if args.quick else 110_000)
    repeat = 1 if args.quick else 9
    truth, result = label_pair(n)
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        paths = {name: Path(folder) / f"{name}.txt" for name in ("truth", "result")}
        for name, lines in (("truth", truth), ("result", result)):
            paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
        python = [sys.executable, "-m", "paperscore"]
        sighan = python + ["sighan", "-i", str(paths["result"]), "-t", str(paths["truth"])]
        csc = python + ["csc", "--predictions", str(paths["result"]), "--references", str(paths["truth"]), "--json"]
        commands = {"sighan": sighan, "csc": csc}
        if args.jar:
            commands["jar"] = ["java", "-jar", args.jar, "-i", str(paths["result"]), "-t", str(paths["truth"])]
        run({"sighan": sighan}, 1)  # writes the .pyc files
        timed = run(commands, repeat)
        figures = timed["sighan"][1].split("signature: ")[0]
        print(f"SIGHAN label files, {n:,} lines each (pids shuffled), whole processes (medians of {repeat} interleaved rounds)")
        print(f"  paperscore sighan {timed['sighan'][0] * 1e3:9.1f} ms")
        print(f"  paperscore csc    {timed['csc'][0] * 1e3:9.1f} ms")
        expected = JAR_PRINTED.get(n)
        if args.jar:
            jar_time, expected = timed["jar"]
            print(f"  sighan15csc.jar   {jar_time * 1e3:9.1f} ms")
            print(f"  ratio (jar / sighan) {jar_time / timed['sighan'][0]:6.1f}x   (target >= 3x)")
            print(f"  ratio (jar / csc)    {jar_time / timed['csc'][0]:6.1f}x   (target >= 3x)")
        else:
            print("  ratio: pass --jar PATH to time sighan15csc.jar in the same run")
        jar = timed.get("jar", (None,))[0]
        for command in ("sighan", "csc"):
            record(f"paperscore {command} vs sighan15csc.jar, whole processes", f"{n:,}-line label pair", timed[command][0], jar, reference_name="sighan15csc.jar" if jar else "", goal=3, target=">= 3x")
        if expected is not None:
            same = figures == expected
            print(f"  sighan output {'line for line the jar' + chr(39) + 's' if same else 'DIFFERS from the jar'}")
            ok &= same
        got = json.loads(timed["csc"][1])
        reference = realise_figures(truth, result)
        gap = max(abs(got[key] - value) for key, value in reference.items())
        print(f"  csc figures against the line-by-line ReaLiSe definition: max |difference| {gap:.1e}")
        ok &= gap <= 1e-12
    return finish(0 if ok else 1)


if __name__ == "__main__":
    raise SystemExit(main())
