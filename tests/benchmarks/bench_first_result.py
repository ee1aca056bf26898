"""A tiny file's first result: every `paperscore` command as a whole new process on a
tiny input (interpreter start-up and imports included), against `python -c "import numpy"`
and, when given, scorer.pl and the SIGHAN jar on their smallest inputs. Prints the times
and the ratios.

    python tests/benchmarks/bench_first_result.py --perl-scorer DIR --jar PATH
    python tests/benchmarks/bench_first_result.py --quick   # one round, to check it runs
    python tests/benchmarks/bench_first_result.py --clean-site   # also without site's .pth files

DIR: conll/reference-coreference-scorers (master); PATH: sighan15csc.jar (onebula/sighan_raw,
raw_data/sighan8csc_release1.0.zip, Tool/). Targets (issue 26): each command within 1.5x
`python -c "import numpy"`, and faster than scorer.pl and the jar on their smallest inputs.

It also times two floors no Python command can go below: the interpreter alone (`python -c
pass`, site and its .pth files included) and the least a command line imports without numpy
(`import argparse, json`); with --perl-scorer, their ratios to scorer.pl show whether any
numpy-free `paperscore coref` could answer before it (README: it could not here).

--clean-site times everything a second time, in the same rounds, as on a machine whose
site-packages runs no .pth file at start-up: `python -S` (no site) with PYTHONPATH naming
the worktree's shared/ and site-packages. Here a sandbox .pth imports certifi (and with it
pathlib, tempfile, zipfile, typing...) in every interpreter, which slows `import numpy` as
much as any command and hides the standard modules a command imports beyond numpy's.
"""

import argparse
import os
import site
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from timing import command, finish, interleaved, parse, record, report_load  # noqa: E402

TINY = {
    "labels_pred": "None\nAttack\n",
    "labels_gold": "None\nDie\n",
    "quad_pred": "food | great | food#quality | pos\n",
    "quad_gold": "food | good | food#quality | pos\n",
    "rationale_pred": "[0.2, 0.9, 0.4]\n",
    "rationale_gold": "[0, 1, 1]\n",
    "sources": "我門很好\n",
    "csc_pred": "我們很好\n",
    "csc_gold": "我們很好\n",
    "result": "A1-0001-1, 2, 們\n",
    "truth": "A1-0001-1, 2, 們\n",
    "conll": "#begin document d\nw\t(0)\nw\t-\nw\t(0\nw\t0)\n#end document\n",
    # one result line of ERASER's form (the sample pair's first, thresholds included)
    "eraser": (ROOT / "tests/data/rationale_eraser/movies_sample.a.jsonl").read_text(encoding="utf-8").split("\n")[0] + "\n",
}
COMMANDS = {
    "micro_macro": ["micro_macro", "--predictions", "{labels_pred}", "--references", "{labels_gold}"],
    "rationale": ["rationale", "--predictions", "{rationale_pred}", "--references", "{rationale_gold}"],
    "quad": ["quad", "--predictions", "{quad_pred}", "--references", "{quad_gold}"],
    "sighan -i -t": ["sighan", "-i", "{result}", "-t", "{truth}"],
    "csc": ["csc", "--sources", "{sources}", "--predictions", "{csc_pred}", "--references", "{csc_gold}", "--variant", "all"],
    "coref": ["coref", "{conll}", "{conll}"],
    "compare micro_macro": ["compare", "micro_macro", "--references", "{labels_gold}", "--system-a", "{labels_pred}", "--system-b", "{labels_gold}", "--seed", "0"],
    "compare rationale": ["compare", "rationale", "--references", "{rationale_gold}", "--system-a", "{rationale_pred}", "--system-b", "{rationale_gold}", "--seed", "0"],
    "compare quad": ["compare", "quad", "--references", "{quad_gold}", "--system-a", "{quad_pred}", "--system-b", "{quad_gold}", "--seed", "0"],
    "compare sighan": ["compare", "sighan", "--references", "{truth}", "--system-a", "{result}", "--system-b", "{truth}", "--seed", "0"],
    "compare csc": ["compare", "csc", "--sources", "{sources}", "--references", "{csc_gold}", "--system-a", "{csc_pred}", "--system-b", "{csc_gold}", "--seed", "0"],
    "compare coref": ["compare", "coref", "--references", "{conll}", "--system-a", "{conll}", "--system-b", "{conll}", "--seed", "0"],
    "faithfulness": ["faithfulness", "{eraser}"],
    "compare faithfulness": ["compare", "faithfulness", "--system-a", "{eraser}", "--system-b", "{eraser}", "--seed", "0"],
}
# What any Python command pays before its own work: the interpreter (with site), and the
# standard modules a command line needs at the least (no numpy).
FLOORS = {"python -c pass": "pass", "python -c 'import argparse, json'": "import argparse, json"}


MODES = {"": [], "clean site: ": ["-S"]}  # (a name's prefix, the interpreter's options)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one round: check that it runs")
    parser.add_argument("--rounds", type=int, default=7, help="alternating rounds (default 7)")
    parser.add_argument("--clean-site", action="store_true", help="also time every process without site's .pth files (python -S)")
    parser.add_argument("--perl-scorer", help="folder of conll/reference-coreference-scorers (scorer.pl)")
    parser.add_argument("--jar", help="path of sighan15csc.jar")
    args = parse(parser, argv, __file__)
    report_load()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "shared"), os.environ.get("PYTHONPATH", "")])}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its .pyc files
    # python -S finds numpy (and nothing a .pth file would add or run) through PYTHONPATH
    clean_env = {**env, "PYTHONPATH": os.pathsep.join([str(ROOT / "shared"), *site.getsitepackages()])}
    modes = {prefix: options for prefix, options in MODES.items() if args.clean_site or not options}
    with tempfile.TemporaryDirectory() as folder:
        paths = {name: Path(folder) / f"{name}.txt" for name in TINY}
        for name, text in TINY.items():
            paths[name].write_text(text, encoding="utf-8")
        functions = {}
        for prefix, options in modes.items():
            python, mode_env = [sys.executable, *options], clean_env if options else env
            functions[f"{prefix}import numpy"] = command([*python, "-c", "import numpy"], env=mode_env)
            functions.update((prefix + name, command([*python, "-c", code], env=mode_env)) for name, code in FLOORS.items())
            for name, argv_template in COMMANDS.items():
                functions[prefix + name] = command([*python, "-m", "paperscore"] + [a.format(**paths) for a in argv_template], env=mode_env)
        if args.perl_scorer:
            functions["scorer.pl all"] = command(["perl", str(Path(args.perl_scorer) / "scorer.pl"), "all", str(paths["conll"]), str(paths["conll"]), "none"])
        if args.jar:
            functions["sighan15csc.jar"] = command(["java", "-jar", args.jar, "-i", str(paths["result"]), "-t", str(paths["truth"])])
        for function in functions.values():
            function()  # untimed: writes the .pyc files, fills the disk cache
        rounds = 1 if args.quick else args.rounds
        times = interleaved(functions, rounds)
    for prefix in modes:
        report(times, prefix, rounds)
    for name, ours in (("scorer.pl all", "coref"), ("sighan15csc.jar", "sighan -i -t")):
        if name in times:
            print(f"  {name:<26s} {times[name][0] * 1e3:7.0f} ms   ratio {times[name][0] / times[ours][0]:5.2f}x paperscore {ours} (target > 1x)")
            record(f"first result, paperscore {ours} vs {name}", "a tiny input", times[ours][0], times[name][0], reference_name=name, goal=1, target="faster than the reference")
    return finish(0)


def report(times, prefix, rounds):
    """The table of one mode: each command's time and its ratio to `import numpy`'s."""
    floor = times[f"{prefix}import numpy"][0]
    print(f"{prefix}first result on a tiny input, whole processes (alternating rounds, medians of {rounds})")
    print(f"  python -c 'import numpy'  {floor * 1e3:7.0f} ms")
    worst = 0.0
    for name in COMMANDS:
        seconds = times[prefix + name][0]
        worst = max(worst, seconds / floor)
        print(f"  paperscore {name:<22s} {seconds * 1e3:5.0f} ms   ratio {seconds / floor:5.2f}x import numpy")
        record(f"{prefix}first result, paperscore {name} vs import numpy", "a tiny input", seconds, floor, reference_name="python -c 'import numpy'", goal=1 / 1.5, target="<= 1.5x import numpy")
    print(f"  largest ratio {worst:.2f}x   (target <= 1.5x)")
    for name in FLOORS:
        line = f"  floor {name:<37s} {times[prefix + name][0] * 1e3:5.0f} ms"
        if "scorer.pl all" in times:
            line += f"   ratio {times[prefix + name][0] / times['scorer.pl all'][0]:5.2f}x scorer.pl all"
        print(line)


if __name__ == "__main__":
    raise SystemExit(main())
