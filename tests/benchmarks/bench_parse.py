"""Parsers on the texts that were quadratic (issue 39), against the readers they replaced,
measured in the same run (alternating rounds, medians):

    python tests/benchmarks/bench_parse.py          # the issue's sizes
    python tests/benchmarks/bench_parse.py --quick  # small sizes, to check it runs

- GAS's annotation reader on 30,000 unclosed "[" (re.findall(r"\\[.*?\\]"), as GAS and
  paperscore@<0.2 read it: 87 s in the issue) against parse.bracketed;
- GEN-SCL-NAT's fields on "a| THE" + "IS" * n (the `parse` package's patterns as regular
  expressions) against parse.lazy_fields;
- quotes_fuzzy placing one 200-character paraphrased quote on a 560-token document (the
  direct search, every start with its full edit-distance table: about a minute in the
  issue) against parse.RATIONALE_POLICIES["quotes_fuzzy"].
Each pair must agree. Target: each well under a second at these sizes.
"""

import argparse
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "shared"))
sys.path.insert(0, str(ROOT / "tests"))

from paperscore import parse as P  # noqa: E402
from test_parse import direct_spans  # noqa: E402  the quotes_fuzzy search before issue 39
from timing import finish, interleaved, parse, record, report_load  # noqa: E402

GAS_ANNOTATION = re.compile(r"\[.*?\]")
GEN_SCL_NAT = re.compile(r"(.+?)\|(.+?)\|(.+?)\|(.+?)", re.S), re.compile(r"(.+?)\| THE(.+?)IS(.+?)\|(.+?)", re.S)


def regex_fields(piece):
    return next((list(match.groups()) for match in (pattern.fullmatch(piece) for pattern in GEN_SCL_NAT) if match), None)


def linear_fields(piece):
    return next((fields for fields in (P.lazy_fields(piece, separators) for separators in P.GEN_SCL_NAT_SEPARATORS) if fields), None)


def paraphrase(tokens, rng):
    """A document of `tokens` random words and a quote of about 200 characters from it, one
    character in ten changed."""
    words = ["".join(rng.choice("abcdefghij") for _ in range(rng.randint(2, 8))) for _ in range(tokens)]
    start = tokens // 5
    quote, k = "", start
    while len(quote) < 200 and k < tokens:
        quote, k = f"{quote} {words[k]}".strip(), k + 1
    return words, "".join(c if rng.random() > 0.1 else "x" for c in quote)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, to check it runs")
    quick = parse(parser, argv, __file__).quick
    report_load()
    agree = True
    brackets = "[" * (3_000 if quick else 30_000)
    times = interleaved({"bracketed": lambda: P.bracketed(brackets), "regex": lambda: GAS_ANNOTATION.findall(brackets)}, {"bracketed": 3, "regex": 1})
    (ours, got), (theirs, want) = times["bracketed"], times["regex"]
    agree &= got == want
    print(f'GAS annotation, {len(brackets):,} "[": parse.bracketed {ours:.4f} s, re.findall {theirs:.2f} s, ratio {theirs / ours:,.0f}x; agree: {got == want}')
    record("GAS annotation reader vs re.findall(r'\\[.*?\\]')", f'{len(brackets):,} unclosed "["', ours, theirs, reference_name="GAS's regular expression", target="well under a second")
    piece = "a| THE" + "IS" * (2_000 if quick else 20_000)
    times = interleaved({"linear": lambda: linear_fields(piece), "regex": lambda: regex_fields(piece)}, {"linear": 3, "regex": 1})
    (ours, got), (theirs, want) = times["linear"], times["regex"]
    agree &= got == want
    print(f'GEN-SCL-NAT fields, "a| THE" + "IS" * {(len(piece) - 6) // 2:,}: parse.lazy_fields {ours:.4f} s, the regular expressions {theirs:.2f} s, ratio {theirs / ours:,.0f}x; agree: {got == want}')
    record("GEN-SCL-NAT fields vs the parse package's patterns", f"{len(piece):,} characters", ours, theirs, reference_name="the patterns as regular expressions", target="well under a second")
    tokens, quote = paraphrase(56 if quick else 560, random.Random(39))
    fuzzy, direct = P.RATIONALE_POLICIES["quotes_fuzzy"][0], direct_spans()["quotes_fuzzy"]
    times = interleaved({"ours": lambda: fuzzy(quote, tokens), "direct": lambda: direct(quote, tokens)}, {"ours": 3, "direct": 1})
    (ours, got), (theirs, want) = times["ours"], times["direct"]
    agree &= got == want
    print(f"quotes_fuzzy, a {len(quote)}-character paraphrase on {len(tokens):,} tokens: {ours:.4f} s, the direct search {theirs:.2f} s, ratio {theirs / ours:,.0f}x; agree: {got == want}")
    record("quotes_fuzzy vs the direct search", f"a {len(quote)}-character quote on {len(tokens):,} tokens", ours, theirs, reference_name="every start with its full edit-distance table", target="well under a second")
    return finish(0 if agree else 1)


if __name__ == "__main__":
    sys.exit(main())
