"""Writes cases.json: small random label files (a truth and a result, 2-5 lines each) with
one white space character put in one field position, and what the official jars printed
for each, run as black boxes. Every character below is put before and after the pid, a
position, the 0 of `pid, 0` and a correction character, in the truth, the result or both, for each of the
2015, 2014 and 2013 (subtasks 1 and 2) jars (subtask 1 has no character field).

    python tests/data/sighan_spaces/generate.py /path/to/jars

/path/to/jars holds sighan15csc.jar, clp14csc.jar and sighan7csc.jar, as unpacked from the
onebula/sighan_raw zips (raw_data/sighan8csc_release1.0.zip Tool/, clp14csc_release1.1.zip
Tool/, sighan7csc_release1.0.zip EvaluationTool/); java on PATH. Seeded: the same files on
every run. The jar's standard output is kept when it exits 0 and prints figures; else
"failed" (an exception, or the 2014/2015 jars' "[Error] Unbalanced!" and no figures).
"""

import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

# Characters Java's String.trim removes (controls up to U+0020: NUL, SOH, tab, VT, FF, CR,
# the separators 1C-1F, space), every other Unicode White_Space character, and two format
# characters often taken for spaces (zero-width space, byte-order mark).
SPACES = ["\x00", "\x01", "\t", "\x0b", "\x0c", "\r", "\x1c", "\x1f", " "] + [
    "\x85", "\xa0", "\u1680", *map(chr, range(0x2000, 0x200B)), "\u2028", "\u2029", "\u202f", "\u205f", "\u3000",
    "\u200b", "\ufeff",
]  # fmt: skip
JARS = {
    "2015": ("sighan15csc.jar", []),
    "2014": ("clp14csc.jar", []),
    "2013-1": ("sighan7csc.jar", ["-s", "1"]),
    "2013-2": ("sighan7csc.jar", ["-s", "2"]),
}


def labels(rng, positions_only):
    """A truth and a result (lists of fields per line, `pid, 0` for no error): the same
    pids, the result right on about half of the lines, its characters drawn from two."""
    truth, result = [], []
    for k in range(rng.randint(2, 5)):
        gold = sorted(rng.sample(range(1, 10), rng.randint(0, 2)))
        guess = gold if rng.random() < 0.5 else sorted(rng.sample(range(1, 10), rng.randint(0, 2)))
        for lines, positions in ((truth, gold), (result, guess)):
            line = [f"P{k + 1}"]
            for p in positions:
                line += [str(p)] if positions_only else [str(p), rng.choice("甲乙")]
            lines.append(line if positions else line + ["0"])
    return truth, result


def text(lines):
    return "".join(", ".join(line) + "\n" for line in lines)


def put(lines, rng, field, where, space, positions_only):
    """Puts `space` before or after a random field of kind `field` (pid, zero: the 0 of
    `pid, 0`, position, char); False when no line has one."""
    if field == "pid":
        candidates = [(i, 0) for i in range(len(lines))]
    elif field == "zero":
        candidates = [(i, 1) for i, line in enumerate(lines) if line[1:] == ["0"]]
    else:
        candidates = [
            (i, j) for i, line in enumerate(lines) if line[1:] != ["0"]
            for j in range(1, len(line)) if positions_only or (j % 2 == 1) == (field == "position")
        ]  # fmt: skip
    if not candidates:
        return False
    i, j = rng.choice(candidates)
    lines[i][j] = space + lines[i][j] if where == "before" else lines[i][j] + space
    return True


def run(jar, options, result, truth):
    done = subprocess.run(["java", "-jar", jar, *options, "-i", result, "-t", truth], capture_output=True, timeout=60)
    out = done.stdout.decode("utf-8", "replace")
    if done.returncode or "Accuracy" not in out:
        return "failed"
    return out


def main(folder):
    rng = random.Random(2026)
    cases = []
    with tempfile.TemporaryDirectory() as scratch:
        for version, (jar, options) in JARS.items():
            positions_only = version == "2013-1"
            fields = ["pid", "zero", "position"] + ([] if positions_only else ["char"])
            for space in SPACES if version != "2014" else SPACES[::3]:
                for field in fields:
                    for where in ("before", "after"):
                        while True:
                            truth, result = labels(rng, positions_only)
                            side = rng.choice(["truth", "result", "both"])
                            targets = [truth, result] if side == "both" else [truth if side == "truth" else result]
                            if all(put(lines, rng, field, where, space, positions_only) for lines in targets):
                                break
                        paths = [Path(scratch) / name for name in ("result.txt", "truth.txt")]
                        for path, lines in zip(paths, (result, truth)):
                            path.write_text(text(lines), encoding="utf-8")
                        printed = run(str(Path(folder) / jar), options, *map(str, paths))
                        cases.append({"version": version, "space": f"U+{ord(space):04X}", "field": field, "where": where, "side": side, "result": text(result), "truth": text(truth), "jar": printed})
            print(version, len(cases), file=sys.stderr)
    out = Path(__file__).with_name("cases.json")
    out.write_text(json.dumps(cases, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
