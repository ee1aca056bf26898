"""Draw the benchmarks: one SVG chart per benchmark script, a headline chart, and the short
table the documentation shows, all from the results files (results/*.jsonl, one JSON line
per run, which the scripts append; the first lines of each hold the history the README's
table reported before the files existed).

    python tests/benchmarks/render.py          # writes docs/benchmarks/*.svg and table.md
    python tests/benchmarks/render.py --check  # exit 1 if those differ from what the results give

What a chart shows: for each benchmark and input size, the ratio reference ÷ paperscore on
a log scale (right of 1: paperscore faster, or smaller in memory), the latest run as a dot
with the spread of its rounds as a bar (each paperscore round against the reference round
beside it; for the older history, the range the README reported), earlier runs as grey
dots, and the target as a tick. A figure without a reference (an absolute target) is in
the table only. The SVG is written directly (no plotting library): plain text that
diffs, renders the same everywhere and costs no dependency.
"""

import argparse
import html
import json
import math
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
OUT = HERE.parent.parent / "docs" / "benchmarks"
# The headline chart (README and the Benchmarks page): one figure per family, latest runs.
HEADLINE = [
    ("bench_micro_macro", "micro_macro vs sklearn, 34 classes, NA excluded", "1,000,000 labels"),
    ("bench_csc_sighan", "csc_sighan vs the definition per sentence", "110,000 sentence triples"),
    ("bench_sighan_cli", "paperscore sighan vs sighan15csc.jar, whole processes", "110,000-line label pair"),
    ("bench_coref_conll", "coref_conll vs scorer.pl all (muc bcub ceafm ceafe blanc)", "300 documents"),
    ("bench_quad_match", "quad_match, batched ROUGE-L vs rouge-score per pair", "10,000 random Chinese samples"),
    ("bench_rationale_f1", "rationale_f1 AUPRC alone vs sklearn per example", "1e4 scored tokens"),
    ("bench_compare", "compare, micro_macro, bootstrap vs re-running the metric", "1,000,000 examples"),
    ("bench_evaluate_overhead", "micro_macro through evaluate compute() vs a no-op metric plus the package", "100,000 examples"),
]


def runs(path):
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def ratio(figure):
    """(reference ÷ paperscore, (low, high) spread or None) of one figure, or (None, None)
    without a reference. Rounds pair up in order (the rounds alternate: A, B, A, B, ...)."""
    ours, theirs = figure.get("paperscore"), figure.get("reference")
    if not (ours and theirs):  # the history may give a ratio, or its range, without the times
        return figure.get("ratio"), _spread(figure)
    value = theirs["median"] / ours["median"]
    pairs = list(zip(ours.get("rounds") or [], theirs.get("rounds") or []))
    if len(pairs) > 1:
        each = [b / a for a, b in pairs]
        return value, (min(each), max(each))
    return value, _spread(figure)


def _spread(figure):
    spread = figure.get("spread")
    return tuple(spread) if spread else None


def history(path):
    """{(benchmark, size): [(run, figure), ...]} in file order (oldest first)."""
    out = {}
    for run in runs(path):
        for figure in run["figures"]:
            out.setdefault((figure["benchmark"], figure["size"]), []).append((run, figure))
    return out


def when(run):
    """'2026-11-24, load 1.3' from a run: a script's (date, 1-minute load at start and end)
    or the history's (as written)."""
    date = run["date"][:10] if run["date"][:4].isdigit() else run["date"]
    if "load" in run:
        load = run["load"]
    elif run.get("load_start"):
        start, end = run["load_start"][0], run["load_end"][0]
        load = f"{start:.1f}" if abs(start - end) < 0.05 else f"{min(start, end):.1f}–{max(start, end):.1f}"
    else:
        load = None
    return f"{date}, load {load}" if load else date


def amount(value, unit):
    if value is None:
        return "—"
    if unit == "B":
        for size, name in ((2**30, "GiB"), (2**20, "MiB"), (2**10, "KiB")):
            if value >= size:
                return f"{value / size:.3g} {name}"
        return f"{value:.0f} B"
    for scale, name in ((1, "s"), (1e-3, "ms"), (1e-6, "µs")):
        if value >= scale or name == "µs":
            return f"{value / scale:.3g} {name}"


def times(value):
    return f"{value:.3g}×" if value < 100 else f"{value:,.0f}×"


def verdict(value, unit):
    """A ratio reference ÷ paperscore in words: '47× faster', '1.14× slower' (memory:
    smaller, larger)."""
    better, worse = ("smaller", "larger") if unit == "B" else ("faster", "slower")
    if 0.995 <= value < 1.005:
        return "1× (the same)"
    return f"{times(value)} {better}" if value >= 1 else f"{times(1 / value)} {worse}"


def span(low, high, unit):
    """A spread of ratios in words: '26–66× faster', or '1.1× slower to 1.2× faster'."""
    (a, word_a), (b, word_b) = (verdict(v, unit).split(" ", 1) for v in (low, high))
    if word_a != word_b:
        return f"{a} {word_a} to {b} {word_b}"
    a, b = sorted((a, b), key=lambda t: float(t[:-1].replace(",", "")))
    return f"{a[:-1]}–{b} {word_a}"


def in_words(value, spread, unit):
    """'47× faster (26–66× faster)': the ratio and the spread of its rounds (or runs)."""
    words = [verdict(value, unit)] if value is not None else []
    if spread:
        words.append(f"({span(*spread, unit)})" if words else span(*spread, unit))
    return " ".join(words) or "—"


# ---------------------------------------------------------------------------------------
# The tables


def table(rows):
    """A Markdown table of the latest figure of each (results file, (benchmark, size))."""
    lines = [
        "| benchmark | input | paperscore | reference | paperscore is (spread) | target | measured |",
        "|---|---|---|---|---|---|---|",
    ]
    for path, key in rows:
        run, figure = history(path)[key][-1]
        ours, reference = (figure.get(side) or {} for side in ("paperscore", "reference"))
        cells = [
            f"{key[0]} (`{path.stem}.py`)", key[1], amount(ours.get("median"), figure["unit"]), amount(reference.get("median"), figure["unit"]),
            in_words(*ratio(figure), figure["unit"]), figure.get("target") or "—", when(run),
        ]  # fmt: skip
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# The charts

LINE, LEFT, PLOT, RIGHT, TOP, WRAP = 14, 330, 250, 175, 62, 46


def chart(title, rows):
    """An SVG chart of `rows`: (benchmark, size, [(ratio, spread) of earlier runs], (ratio,
    spread) of the latest, goal or None, unit)."""
    values = [v for *_, older, latest, goal, _ in rows for v, s in [*older, latest] for v in (v, *(s or ())) if v]
    values += [goal for *_, goal, _ in rows if goal] + [1.0]
    low, high = math.floor(math.log10(min(values)) * 2) / 2, math.ceil(math.log10(max(values)) * 2) / 2
    high = max(high, low + 1)

    def x(value):
        return LEFT + (math.log10(value) - low) / (high - low) * PLOT

    labels = [[*textwrap.wrap(benchmark, WRAP), size] for benchmark, size, *_ in rows]
    tops = [TOP + LINE * sum(len(label) + 1 for label in labels[:i]) for i in range(len(rows) + 1)]
    width, height = LEFT + PLOT + RIGHT, tops[-1] + 36
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="10" y="20" font-size="14" font-weight="bold">{html.escape(title)}</text>',
        '<text x="10" y="38" fill="#555">reference ÷ paperscore, log scale: right of 1× paperscore is faster (or smaller), left slower.</text>',
        '<text x="10" y="53" fill="#555">Dot: the latest run (red: short of its target); bar: its spread; grey dots: earlier runs; black tick: the target.</text>',
    ]
    for decade in range(math.ceil(low), math.floor(high) + 1):
        gx = x(10**decade)
        out.append(f'<line x1="{gx:.1f}" y1="{TOP - 4}" x2="{gx:.1f}" y2="{tops[-1]}" stroke="{"#888" if decade == 0 else "#ddd"}"/>')
        out.append(f'<text x="{gx:.1f}" y="{tops[-1] + 16}" text-anchor="middle" fill="#555">{times(10.0**decade)}</text>')
    for (benchmark, size, older, (value, spread), goal, unit), label, top in zip(rows, labels, tops):
        y = top + LINE * len(label) / 2 + 2
        for number, line in enumerate(label):
            colour = ' fill="#777"' if number == len(label) - 1 else ""
            out.append(f'<text x="{LEFT - 8}" y="{top + LINE * (number + 1):.1f}" text-anchor="end"{colour}>{html.escape(line)}</text>')
        for old, old_spread in older:
            if old:
                out.append(f'<circle cx="{x(old):.1f}" cy="{y:.1f}" r="3" fill="#bbb"/>')
            elif old_spread:  # a range the history gives without its median
                out.append(f'<line x1="{x(old_spread[0]):.1f}" y1="{y + 5:.1f}" x2="{x(old_spread[1]):.1f}" y2="{y + 5:.1f}" stroke="#bbb" stroke-width="2"/>')
        if goal:
            out.append(f'<line x1="{x(goal):.1f}" y1="{y - 8:.1f}" x2="{x(goal):.1f}" y2="{y + 8:.1f}" stroke="#222" stroke-width="2"/>')
        if spread:
            out.append(f'<line x1="{x(spread[0]):.1f}" y1="{y:.1f}" x2="{x(spread[1]):.1f}" y2="{y:.1f}" stroke="#2a6fdb" stroke-width="4" opacity="0.45"/>')
        if value:
            met = goal is None or value >= goal
            out.append(f'<circle cx="{x(value):.1f}" cy="{y:.1f}" r="5" fill="{"#2a6fdb" if met else "#d33"}"/>')
        words = verdict(value, unit) if value else span(*spread, unit) if spread else ""
        out.append(f'<text x="{LEFT + PLOT + 8}" y="{y + 4:.1f}">{words}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def rows_of(path, keys=None):
    """Chart rows of a results file's figures (`keys`, or every one that has a ratio)."""
    seen_by_key = history(path)
    rows = []
    for key in keys or seen_by_key:
        seen = seen_by_key[key]
        latest = ratio(seen[-1][1])
        if latest == (None, None):
            continue  # no reference: the table only
        older = [ratio(figure) for _, figure in seen[:-1]]
        rows.append((*key, older, latest, seen[-1][1].get("goal"), seen[-1][1]["unit"]))
    return rows


def render(results=RESULTS):
    """{file name: text}: a chart per results file, the headline chart and its short table
    (table.md), and the table of every figure (all.md)."""
    paths = sorted(Path(results).glob("*.jsonl"))
    files = {f"{path.stem}.svg": chart(f"{path.stem}.py", rows) for path in paths if (rows := rows_of(path))}
    headline = []
    for stem, benchmark, size in HEADLINE:
        path = Path(results) / f"{stem}.jsonl"
        if not path.is_file() or (benchmark, size) not in history(path):
            raise ValueError(f"HEADLINE: {stem} has no figure {benchmark!r} at {size!r}")
        headline.append((path, (benchmark, size)))
    files["headline.svg"] = chart("paperscore against each reference (latest runs)", [row for path, key in headline for row in rows_of(path, [key])])
    files["table.md"] = table(headline)
    files["all.md"] = table([(path, key) for path in paths for key in history(path)])
    return files


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file differs from what the results give")
    args = parser.parse_args(argv)
    files = render()
    stale = [name for name, text in files.items() if not (OUT / name).is_file() or (OUT / name).read_text(encoding="utf-8") != text]
    stale += [path.name for path in OUT.glob("*") if path.name not in files]
    if args.check:
        for name in stale:
            print(f"{OUT / name} is stale: run python tests/benchmarks/render.py", file=sys.stderr)
        return 1 if stale else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for path in OUT.glob("*"):
        if path.name not in files:
            path.unlink()
    for name, text in files.items():
        (OUT / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(files)} files to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
