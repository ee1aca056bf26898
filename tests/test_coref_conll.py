"""coref_conll: equal to the CoNLL reference scorer on its own published test cases, on
random partitions and on LitBank; hand derivations; properties; every input error; CLI.

Reference figures: printed by conll/reference-coreference-scorers v8.01 (master, f49f3f8)
`perl scorer.pl <metric> KEY RESPONSE none` for MUC, B3, CEAFm, CEAFe and BLANC, and by its
LEA-scorer branch (772e5a3) `perl scorer.pl lea KEY RESPONSE none` for LEA, run locally on
CoNLL files holding the inputs below (the scorer and its files are not part of this
project). Each metric's figures are listed as Perl prints them, in the order
[recall numerator, recall denominator, precision numerator, precision denominator]; BLANC's
as its coreference-link four, then its non-coreference-link four. "mentions" is the
scorer's "Identification of Mentions" line.
"""

import html
import json
import random
import re
import warnings
from collections import Counter

import numpy as np
import pytest
from conftest import DATA, without_references
from hypothesis import given, settings
from hypothesis import strategies as st

import coref_naive as naive
import coref_span_readings as span_readings
from coref_coval_fixtures import merge
from paperscore import coref
from paperscore.cli import main

LITBANK = DATA / "coref_conll"
ALL = coref.CHOICES  # the six metrics and mention identification


def counts(result):
    """{metric: [numerators and denominators]} from a result with return_counts=True."""
    return {metric: [value for pair in parts.values() for value in pair] for metric, parts in result["counts"].items()}


def assert_figures(result, expected):
    found = counts(result)
    for metric, values in expected.items():
        assert found[metric] == pytest.approx(values, abs=1e-9, rel=0), metric


def score(predictions, references, **kwargs):
    return coref.compute(predictions, references, metrics=ALL, return_counts=True, **kwargs)


# ---------------------------------------------------------------------------------------
# Random documents: CoNLL-representable partitions with singletons, nesting, twinless
# mentions, key spans repeated in the response and twinless spans repeated.


def _compatible(span, other):
    """Disjoint or nested: a CoNLL column cannot hold two crossing mentions of an entity."""
    (s, e), (a, b) = span, other
    return e < a or s > b or (a <= s and e <= b) or (s <= a and b <= e)


def _spans(rng, n_tokens, count, taken):
    out = []
    for _ in range(count * 6):
        if len(out) == count:
            break
        start = rng.randrange(n_tokens)
        span = (start, min(n_tokens - 1, start + rng.choice((0, 0, 0, 1, 2, 4))))
        if span not in taken and span not in out and all(_compatible(span, t) for t in taken + out):
            out.append(span)
    return out


def _partition(rng, mentions):
    mentions = list(mentions)
    rng.shuffle(mentions)
    clusters = []
    while mentions:
        size = 1 if rng.random() < 0.35 else min(len(mentions), 2 + int(rng.expovariate(0.6)))
        clusters.append(mentions[:size])
        mentions = mentions[size:]
    return clusters


def perturb(rng, key, n_tokens):
    """A response: the key with mentions dropped, entities split and merged, twinless
    mentions added (some twice), key spans repeated in other entities, order shuffled."""
    response = [[m for m in cluster if rng.random() > 0.15] for cluster in key]
    response = [c for c in response if c]
    for cluster in list(response):
        if len(cluster) > 1 and rng.random() < 0.25:
            cut = rng.randrange(1, len(cluster))
            response.remove(cluster)
            response += [cluster[:cut], cluster[cut:]]
    rng.shuffle(response)
    response = merge(rng, response)
    key_spans = [m for c in key for m in c]
    for span in _spans(rng, n_tokens, rng.randint(0, 4), key_spans):
        if response and rng.random() < 0.5:
            rng.choice(response).append(span)
        else:
            response.append([span])
        if rng.random() < 0.3:  # the same twinless span again, in any entity
            rng.choice(response).append(span)
    if key_spans and response and rng.random() < 0.5:  # a key span again, in any entity
        rng.choice(response).append(rng.choice(key_spans))
    rng.shuffle(response)
    return response


def random_documents(seed, n_docs=3):
    """[(n_tokens, key clusters, response clusters)]: spans as (start, end) tuples."""
    rng = random.Random(seed)
    documents = []
    for _ in range(n_docs):
        n_tokens = rng.randint(1, 30)
        key = _partition(rng, _spans(rng, n_tokens, rng.randint(0, 14), []))
        documents.append((n_tokens, key, perturb(rng, key, n_tokens)))
    return documents


def reading_order(clusters):
    """The clusters in the order the reference numbers the entities of to_conll's text:
    by first token, a one-token mention before an open, then by position in the list."""
    first = [min((s, s != e, i) for s, e in cluster) for i, cluster in enumerate(clusters)]
    return [clusters[i] for i in sorted(range(len(clusters)), key=first.__getitem__)]


def to_conll(name, n_tokens, clusters, rng=None):
    """A CoNLL document: one line per token, items joined with "|" (one-token mentions,
    then opens, then closes), with blank lines between random sentences."""
    cells = [[[], [], []] for _ in range(n_tokens)]
    for number, cluster in enumerate(clusters):
        for s, e in cluster:
            if s == e:
                cells[s][0].append(f"({number})")
            else:
                cells[s][1].append(f"({number}")
                cells[e][2].append(f"{number})")
    lines = [f"#begin document {name}"]
    for token, cell in enumerate(cells):
        if token and rng is not None and rng.random() < 0.2:
            lines.append("")
        lines.append(f"{name}\t0\t{token}\tw{token}\t{'|'.join(sum(cell, [])) or '-'}")
    return "\n".join(lines + ["#end document", ""])


# ---------------------------------------------------------------------------------------
# The reference scorer's published test cases (test/TestCases.README and test/DataFiles of
# conll/reference-coreference-scorers v8.01), written as clusters of mention ids: one
# letter per mention, "B" a mention nested in b, a repeated letter the same span again.
# Figures: Perl on the case's own TC-*.key / TC-*.response files.


def p(text):
    return [list(cluster) for cluster in text.split()]


OFFICIAL = {
    "TC-A-1": (p("a bc def"), p("a bc def"), {"mentions": [6, 6, 6, 6], "muc": [3, 3, 3, 3], "bcub": [6, 6, 6, 6], "ceafm": [6, 6, 6, 6], "ceafe": [3, 3, 3, 3], "blanc": [4, 4, 4, 4, 11, 11, 11, 11], "lea": [6, 6, 6, 6]}),
    "TC-A-2": (p("a bc def"), p("a de"), {"mentions": [3, 6, 3, 3], "muc": [1, 3, 1, 1], "bcub": [2.33333333333333, 6, 3, 3], "ceafm": [3, 6, 3, 3], "ceafe": [1.8, 3, 1.8, 2], "blanc": [1, 4, 1, 1, 2, 11, 2, 2], "lea": [2, 6, 3, 3]}),
    "TC-A-3": (p("a bc def"), p("a bcx defy z"), {"mentions": [6, 6, 6, 9], "muc": [3, 3, 3, 5], "bcub": [6, 6, 4.58333333333333, 9], "ceafm": [6, 6, 6, 9], "ceafe": [2.65714285714286, 3, 2.65714285714286, 4], "blanc": [4, 4, 4, 9, 11, 11, 11, 27], "lea": [6, 6, 4, 9]}),
    "TC-A-4": (p("a bc def"), p("a bcx dy z"), {"mentions": [4, 6, 4, 7], "muc": [1, 3, 1, 3], "bcub": [3.33333333333333, 6, 2.83333333333333, 7], "ceafm": [4, 6, 4, 7], "ceafe": [2.2, 3, 2.2, 4], "blanc": [1, 4, 1, 4, 5, 11, 5, 17], "lea": [3, 6, 2, 7]}),
    "TC-A-5": (p("a bc def"), p("a bcxB dy z"), {"mentions": [4, 6, 4, 8], "muc": [1, 3, 1, 4], "bcub": [3.33333333333333, 6, 2.5, 8], "ceafm": [4, 6, 4, 8], "ceafe": [2.06666666666667, 3, 2.06666666666667, 4], "blanc": [1, 4, 1, 7, 5, 11, 5, 21], "lea": [3, 6, 1.66666666666667, 8]}),
    "TC-A-6": (p("a bc def"), p("a bcx dy Bz"), {"mentions": [4, 6, 4, 8], "muc": [1, 3, 1, 4], "bcub": [3.33333333333333, 6, 2.83333333333333, 8], "ceafm": [4, 6, 4, 8], "ceafe": [2.2, 3, 2.2, 4], "blanc": [1, 4, 1, 5, 5, 11, 5, 23], "lea": [3, 6, 2, 8]}),
    "TC-A-7": (p("a bc def"), p("a bcxb dy z"), {"mentions": [4, 6, 4, 7], "muc": [1, 3, 1, 3], "bcub": [3.33333333333333, 6, 2.83333333333333, 7], "ceafm": [4, 6, 4, 7], "ceafe": [2.2, 3, 2.2, 4], "blanc": [1, 4, 1, 4, 5, 11, 5, 17], "lea": [3, 6, 2, 7]}),
    "TC-A-8": (p("a bc def"), p("a bcx dy bz"), {"mentions": [4, 6, 4, 7], "muc": [1, 3, 1, 3], "bcub": [3.33333333333333, 6, 2.83333333333333, 7], "ceafm": [4, 6, 4, 7], "ceafe": [2.2, 3, 2.2, 4], "blanc": [1, 4, 1, 4, 5, 11, 5, 17], "lea": [3, 6, 2, 7]}),
    "TC-A-9": (p("a bc def"), p("a bcx dy") + [["b"] * 10 + ["z"]], {"mentions": [4, 6, 4, 7], "muc": [1, 3, 1, 3], "bcub": [3.33333333333333, 6, 2.83333333333333, 7], "ceafm": [4, 6, 4, 7], "ceafe": [2.2, 3, 2.2, 4], "blanc": [1, 4, 1, 4, 5, 11, 5, 17], "lea": [3, 6, 2, 7]}),
    "TC-A-10": (p("a bc def"), p("a b c d e f"), {"mentions": [6, 6, 6, 6], "muc": [0, 3, 0, 0], "bcub": [3, 6, 6, 6], "ceafm": [3, 6, 3, 6], "ceafe": [2.16666666666667, 3, 2.16666666666667, 6], "blanc": [0, 4, 0, 0, 11, 11, 11, 15], "lea": [1, 6, 1, 6]}),
    "TC-A-11": (p("a bc def"), p("abcdef"), {"mentions": [6, 6, 6, 6], "muc": [3, 3, 3, 5], "bcub": [6, 6, 2.33333333333333, 6], "ceafm": [3, 6, 3, 6], "ceafe": [0.666666666666667, 3, 0.666666666666667, 1], "blanc": [4, 4, 4, 15, 0, 11, 0, 0], "lea": [5, 6, 1.6, 6]}),
    "TC-A-12": (p("a bc def"), p("a x y c d e z"), {"mentions": [4, 6, 4, 7], "muc": [0, 3, 0, 0], "bcub": [2.16666666666667, 6, 4, 7], "ceafm": [3, 6, 3, 7], "ceafe": [2.16666666666667, 3, 2.16666666666667, 7], "blanc": [0, 4, 0, 0, 5, 11, 5, 21], "lea": [1, 6, 1, 7]}),
    "TC-A-13": (p("a bc def"), p("axycdez"), {"mentions": [4, 6, 4, 7], "muc": [1, 3, 1, 6], "bcub": [2.83333333333333, 6, 0.857142857142857, 7], "ceafm": [2, 6, 2, 7], "ceafe": [0.4, 3, 0.4, 1], "blanc": [1, 4, 1, 21, 0, 11, 0, 0], "lea": [1, 6, 0.333333333333333, 7]}),
    "TC-B-1": (p("ab cde"), p("bcx de"), {"mentions": [4, 5, 4, 5], "muc": [1, 3, 1, 3], "bcub": [2.16666666666667, 5, 2.66666666666667, 5], "ceafm": [3, 5, 3, 5], "ceafe": [1.2, 2, 1.2, 2], "blanc": [1, 4, 1, 4, 2, 6, 2, 6], "lea": [1, 5, 2, 5]}),
    "TC-C-1": (p("ab cde fg"), p("bcx de fg"), {"mentions": [6, 7, 6, 7], "muc": [2, 4, 2, 4], "bcub": [4.16666666666667, 7, 4.66666666666667, 7], "ceafm": [5, 7, 5, 7], "ceafe": [2.2, 3, 2.2, 3], "blanc": [2, 5, 2, 5, 10, 16, 10, 16], "lea": [3, 7, 4, 7]}),
    "TC-D-1": (p("12345 67 89ABC"), p("12345 6789ABC"), {"mentions": [12, 12, 12, 12], "muc": [9, 9, 9, 10], "bcub": [12, 12, 9.14285714285714, 12], "ceafm": [10, 12, 10, 12], "ceafe": [1.83333333333333, 3, 1.83333333333333, 2], "blanc": [21, 21, 21, 31, 35, 45, 35, 35], "lea": [12, 12, 8.66666666666667, 12]}),
    "TC-E-1": (p("12345 67 89ABC"), p("1234589ABC 67"), {"mentions": [12, 12, 12, 12], "muc": [9, 9, 9, 10], "bcub": [12, 12, 7, 12], "ceafm": [7, 12, 7, 12], "ceafe": [1.66666666666667, 3, 1.66666666666667, 2], "blanc": [21, 21, 21, 46, 20, 45, 20, 20], "lea": [12, 12, 6.44444444444444, 12]}),
    "TC-F-1": (p("ABCD"), p("AB CD"), {"mentions": [4, 4, 4, 4], "muc": [2, 3, 2, 2], "bcub": [2, 4, 4, 4], "ceafm": [2, 4, 2, 4], "ceafe": [0.666666666666667, 1, 0.666666666666667, 2], "blanc": [2, 6, 2, 2, 0, 0, 0, 4], "lea": [1.33333333333333, 4, 4, 4]}),
    "TC-G-1": (p("AB CD"), p("ABCD"), {"mentions": [4, 4, 4, 4], "muc": [2, 2, 2, 3], "bcub": [4, 4, 2, 4], "ceafm": [2, 4, 2, 4], "ceafe": [0.666666666666667, 2, 0.666666666666667, 1], "blanc": [2, 2, 2, 6, 0, 4, 0, 0], "lea": [4, 4, 1.33333333333333, 4]}),
    "TC-H-1": (p("ABCD"), p("ABCD"), {"mentions": [4, 4, 4, 4], "muc": [3, 3, 3, 3], "bcub": [4, 4, 4, 4], "ceafm": [4, 4, 4, 4], "ceafe": [1, 1, 1, 1], "blanc": [6, 6, 6, 6, 0, 0, 0, 0], "lea": [4, 4, 4, 4]}),
    "TC-I-1": (p("ABCD"), p("AB CD"), {"mentions": [4, 4, 4, 4], "muc": [2, 3, 2, 2], "bcub": [2, 4, 4, 4], "ceafm": [2, 4, 2, 4], "ceafe": [0.666666666666667, 1, 0.666666666666667, 2], "blanc": [2, 6, 2, 2, 0, 0, 0, 4], "lea": [1.33333333333333, 4, 4, 4]}),
    "TC-J-1": (p("ABC"), p("AC"), {"mentions": [2, 3, 2, 2], "muc": [1, 2, 1, 1], "bcub": [1.33333333333333, 3, 2, 2], "ceafm": [2, 3, 2, 2], "ceafe": [0.8, 1, 0.8, 1], "blanc": [1, 3, 1, 1, 0, 0, 0, 0], "lea": [1, 3, 2, 2]}),
    "TC-K-1": (p("BCDEGHJ"), p("ABC DEF GHI"), {"mentions": [6, 7, 6, 9], "muc": [3, 6, 3, 6], "bcub": [1.71428571428571, 7, 4, 9], "ceafm": [2, 7, 2, 9], "ceafe": [0.4, 1, 0.4, 3], "blanc": [3, 21, 3, 9, 0, 0, 0, 27], "lea": [1, 7, 3, 9]}),
    "TC-L-1": (p("ABC DEFG"), p("AB CD FGH"), {"mentions": [6, 7, 6, 7], "muc": [2, 5, 2, 4], "bcub": [2.91666666666667, 7, 4.33333333333333, 7], "ceafm": [4, 7, 4, 7], "ceafe": [1.37142857142857, 2, 1.37142857142857, 3], "blanc": [2, 9, 2, 5, 8, 12, 8, 16], "lea": [1.66666666666667, 7, 3, 7]}),
    "TC-M-1": (p("abcdef"), p("abcdef"), {"mentions": [6, 6, 6, 6], "muc": [5, 5, 5, 5], "bcub": [6, 6, 6, 6], "ceafm": [6, 6, 6, 6], "ceafe": [1, 1, 1, 1], "blanc": [15, 15, 15, 15, 0, 0, 0, 0], "lea": [6, 6, 6, 6]}),
    "TC-M-2": (p("abcdef"), p("a b c d e f"), {"mentions": [6, 6, 6, 6], "muc": [0, 5, 0, 0], "bcub": [1, 6, 6, 6], "ceafm": [1, 6, 1, 6], "ceafe": [0.285714285714286, 1, 0.285714285714286, 6], "blanc": [0, 15, 0, 0, 0, 0, 0, 15], "lea": [0, 6, 0, 6]}),
    "TC-M-3": (p("abcdef"), p("ab cde f"), {"mentions": [6, 6, 6, 6], "muc": [3, 5, 3, 3], "bcub": [2.33333333333333, 6, 6, 6], "ceafm": [3, 6, 3, 6], "ceafe": [0.666666666666667, 1, 0.666666666666667, 3], "blanc": [4, 15, 4, 4, 0, 0, 0, 11], "lea": [1.6, 6, 5, 6]}),
    "TC-M-4": (p("abcdef"), p("abcxyz"), {"mentions": [3, 6, 3, 6], "muc": [2, 5, 2, 5], "bcub": [1.5, 6, 1.5, 6], "ceafm": [3, 6, 3, 6], "ceafe": [0.5, 1, 0.5, 1], "blanc": [3, 15, 3, 15, 0, 0, 0, 0], "lea": [1.2, 6, 1.2, 6]}),
    "TC-M-5": (p("abcdef"), p("a b c x y z"), {"mentions": [3, 6, 3, 6], "muc": [0, 5, 0, 0], "bcub": [0.5, 6, 3, 6], "ceafm": [1, 6, 1, 6], "ceafe": [0.285714285714286, 1, 0.285714285714286, 6], "blanc": [0, 15, 0, 0, 0, 0, 0, 15], "lea": [0, 6, 0, 6]}),
    "TC-M-6": (p("abcdef"), p("ab cxy z"), {"mentions": [3, 6, 3, 6], "muc": [1, 5, 1, 3], "bcub": [0.833333333333333, 6, 2.33333333333333, 6], "ceafm": [2, 6, 2, 6], "ceafe": [0.5, 1, 0.5, 3], "blanc": [1, 15, 1, 4, 0, 0, 0, 11], "lea": [0.4, 6, 2, 6]}),
    "TC-N-1": (p("a b c d e f"), p("a b c d e f"), {"mentions": [6, 6, 6, 6], "muc": [0, 0, 0, 0], "bcub": [6, 6, 6, 6], "ceafm": [6, 6, 6, 6], "ceafe": [6, 6, 6, 6], "blanc": [0, 0, 0, 0, 15, 15, 15, 15], "lea": [6, 6, 6, 6]}),
    "TC-N-2": (p("a b c d e f"), p("abcdef"), {"mentions": [6, 6, 6, 6], "muc": [0, 0, 0, 5], "bcub": [6, 6, 1, 6], "ceafm": [1, 6, 1, 6], "ceafe": [0.285714285714286, 6, 0.285714285714286, 1], "blanc": [0, 0, 0, 15, 0, 15, 0, 0], "lea": [0, 6, 0, 6]}),
    "TC-N-3": (p("a b c d e f"), p("ab cde f"), {"mentions": [6, 6, 6, 6], "muc": [0, 0, 0, 3], "bcub": [6, 6, 3, 6], "ceafm": [3, 6, 3, 6], "ceafe": [2.16666666666667, 6, 2.16666666666667, 3], "blanc": [0, 0, 0, 4, 11, 15, 11, 11], "lea": [1, 6, 1, 6]}),
    "TC-N-4": (p("a b c d e f"), p("a b c x y z"), {"mentions": [3, 6, 3, 6], "muc": [0, 0, 0, 0], "bcub": [3, 6, 3, 6], "ceafm": [3, 6, 3, 6], "ceafe": [3, 6, 3, 6], "blanc": [0, 0, 0, 0, 3, 15, 3, 15], "lea": [3, 6, 3, 6]}),
    "TC-N-5": (p("a b c d e f"), p("abcxyz"), {"mentions": [3, 6, 3, 6], "muc": [0, 0, 0, 5], "bcub": [3, 6, 0.5, 6], "ceafm": [1, 6, 1, 6], "ceafe": [0.285714285714286, 6, 0.285714285714286, 1], "blanc": [0, 0, 0, 15, 0, 15, 0, 0], "lea": [0, 6, 0, 6]}),
    "TC-N-6": (p("a b c d e f"), p("ab cxy z"), {"mentions": [3, 6, 3, 6], "muc": [0, 0, 0, 3], "bcub": [3, 6, 1.33333333333333, 6], "ceafm": [2, 6, 2, 6], "ceafe": [1.16666666666667, 6, 1.16666666666667, 3], "blanc": [0, 0, 0, 4, 2, 15, 2, 11], "lea": [0, 6, 0, 6]}),
}


@pytest.mark.parametrize("case", OFFICIAL, ids=list(OFFICIAL))
def test_published_cases_equal_the_reference(case):
    key, response, figures = OFFICIAL[case]
    assert_figures(score([response], [key]), figures)


def test_published_cases_as_one_corpus_sum_their_counts():
    """Micro aggregation: the 36 cases as 36 documents give the sums of their counts."""
    result = score([r for _, r, _ in OFFICIAL.values()], [k for k, _, _ in OFFICIAL.values()])
    summed = {m: np.sum([f[m] for _, _, f in OFFICIAL.values()], axis=0) for m in ALL}
    assert_figures(result, summed)
    # the micro ratio, not a mean of per-document ratios
    assert result["bcub_recall"] == pytest.approx(summed["bcub"][0] / summed["bcub"][1], abs=1e-12)


# ---------------------------------------------------------------------------------------
# Random partitions, several documents each (random_documents above). Figures: Perl on the
# key and response files written by to_conll (blank lines by random.Random(seed)).

RANDOM = {
    0: {"mentions": [16, 19, 16, 26], "muc": [7, 11, 7, 16], "bcub": [12.75, 19, 12, 31], "ceafm": [14, 19, 14, 31], "ceafe": [5.23333333333333, 8, 5.23333333333333, 15], "blanc": [9, 20, 9, 24, 36, 61, 36, 93], "lea": [9.66666666666667, 19, 9.66666666666667, 31]},
    1: {"mentions": [15, 20, 15, 20], "muc": [9, 14, 9, 13], "bcub": [12.5, 20, 13.1666666666667, 21], "ceafm": [14, 20, 14, 21], "ceafe": [3.8, 6, 3.8, 8], "blanc": [30, 41, 30, 35, 17, 50, 17, 39], "lea": [11.6666666666667, 20, 12, 21]},
    2: {"mentions": [24, 27, 24, 28], "muc": [11, 13, 11, 15], "bcub": [22.75, 27, 20.6666666666667, 30], "ceafm": [23, 27, 23, 30], "ceafe": [10.7238095238095, 14, 10.7238095238095, 15], "blanc": [13, 17, 13, 21, 94, 119, 94, 154], "lea": [21, 27, 18, 30]},
    3: {"mentions": [19, 20, 19, 27], "muc": [12, 14, 12, 20], "bcub": [13.9333333333333, 20, 14.8666666666667, 30], "ceafm": [14, 20, 14, 30], "ceafe": [3.14393939393939, 6, 3.14393939393939, 10], "blanc": [20, 34, 20, 43, 20, 27, 20, 83], "lea": [11.8, 20, 13.8666666666667, 30]},
    4: {"mentions": [19, 21, 19, 27], "muc": [6, 9, 6, 15], "bcub": [16.0833333333333, 21, 13.25, 30], "ceafm": [16, 21, 16, 30], "ceafe": [8.13809523809524, 12, 8.13809523809524, 15], "blanc": [8, 16, 8, 27, 45, 60, 45, 104], "lea": [11, 21, 10.6666666666667, 30]},
    5: {"mentions": [23, 26, 23, 27], "muc": [6, 11, 6, 10], "bcub": [18.6, 26, 20.1666666666667, 27], "ceafm": [20, 26, 20, 27], "ceafe": [12.3166666666667, 15, 12.3166666666667, 17], "blanc": [8, 21, 8, 13, 72, 104, 72, 116], "lea": [13, 26, 15, 27]},
    6: {"mentions": [18, 21, 18, 21], "muc": [10, 12, 10, 15], "bcub": [17.125, 21, 14.7, 22], "ceafm": [17, 21, 17, 22], "ceafe": [6.16388888888889, 9, 6.16388888888889, 7], "blanc": [28, 36, 28, 43, 31, 55, 31, 48], "lea": [15, 21, 14, 22]},
    7: {"mentions": [17, 20, 17, 21], "muc": [9, 11, 9, 14], "bcub": [15.5333333333333, 20, 11.0714285714286, 22], "ceafm": [13, 20, 13, 22], "ceafe": [4.99047619047619, 9, 4.99047619047619, 8], "blanc": [14, 20, 14, 35, 21, 54, 21, 36], "lea": [14, 20, 9.66666666666667, 22]},
}


def random_texts(seed):
    layout = random.Random(seed)
    documents = random_documents(seed)
    names = [f"(random_{seed}_{d}); part 000" for d in range(len(documents))]
    keys = [to_conll(name, n, key, layout) for name, (n, key, _) in zip(names, documents)]
    responses = [to_conll(name, n, response, layout) for name, (n, _, response) in zip(names, documents)]
    return keys, responses


@pytest.mark.parametrize("seed", RANDOM)
def test_random_partitions_as_conll_equal_the_reference(seed):
    keys, responses = random_texts(seed)
    assert_figures(score(responses, keys), RANDOM[seed])


@pytest.mark.parametrize("seed", RANDOM)
def test_random_partitions_as_spans_and_as_ids_equal_the_reference(seed):
    documents = random_documents(seed)
    predictions = [[[list(m) for m in c] for c in reading_order(r)] for _, _, r in documents]
    references = [[[list(m) for m in c] for c in k] for _, k, _ in documents]
    assert_figures(score(predictions, references), RANDOM[seed])
    as_ids = [[[f"{s}-{e}" for s, e in c] for c in doc] for doc in predictions], [[[f"{s}-{e}" for s, e in c] for c in doc] for doc in references]
    assert_figures(score(*as_ids), RANDOM[seed])


@pytest.mark.parametrize("seed", list(RANDOM)[:3])
def test_random_partitions_from_files_on_the_command_line(seed, tmp_path, capsys):
    keys, responses = random_texts(seed)
    (tmp_path / "key").write_text("".join(keys))
    (tmp_path / "response").write_text("".join(responses))
    assert main(["coref", str(tmp_path / "key"), str(tmp_path / "response"), "--json"]) == 0
    assert_figures(json.loads(capsys.readouterr().out), RANDOM[seed])


# ---------------------------------------------------------------------------------------
# LitBank (tests/data/coref_conll, CC BY 4.0): the gold documents against a response made
# by perturb(random.Random(file name)). Figures: Perl on the two files concatenated as the
# key and the rendered responses.

LITBANK_FILES = ["158_emma_brat.conll", "1064_the_masque_of_the_red_death_brat.conll"]
LITBANK_FIGURES = {"mentions": [388, 450, 388, 391], "muc": [281, 344, 281, 300], "bcub": [301.918901481511, 450, 364.65404040404, 392], "ceafm": [339, 450, 339, 392], "ceafe": [75.2833725441979, 106, 75.2833725441979, 92], "blanc": [3140, 5757, 3140, 3200, 39516, 53479, 39516, 41469], "lea": [271.756739581798, 450, 345.916666666667, 392]}
# key against itself: 450 mentions (319 + 131), 106 entities, 344 MUC links
LITBANK_SELF = {"mentions": [450, 450, 450, 450], "muc": [344, 344, 344, 344], "ceafe": [106, 106, 106, 106], "blanc": [5757, 5757, 5757, 5757, 53479, 53479, 53479, 53479]}


def litbank():
    texts = [(LITBANK / name).read_text(encoding="utf-8") for name in LITBANK_FILES]
    responses = []
    for name, text in zip(LITBANK_FILES, texts):
        clusters = [[tuple(m) for m in c] for c in coref.conll_to_clusters(text)]
        n_tokens = max(e for c in clusters for _, e in c) + 1
        responses.append(reading_order(perturb(random.Random(name), clusters, n_tokens)))
    return texts, responses


def test_litbank_equals_the_reference():
    texts, responses = litbank()
    assert_figures(score(responses, texts), LITBANK_FIGURES)
    assert_figures(score(texts, texts), LITBANK_SELF)


# ---------------------------------------------------------------------------------------
# The CoNLL format, by the reference's reading rules. Figures: Perl on these two strings.

FORMAT_KEY = (
    "# written for paperscore's tests; lines before #begin document are ignored\n"
    "#begin document (format); part 000\n"
    "f\t0\t0\tAnna\t(0\n"
    "f\t0\t1\tBell\t0)\n"
    "f\t0\t2\tsaid\t_\n"
    "f\t0\t3\tshe\t(0)\n"
    "f\t0\t4\tand\t-\t\t\n"  # trailing empty fields are dropped
    "   \t \n"  # white space only: not a token
    "f\t1\t0\ther\t(1|(0)\n"
    "f\t1\t1\tsister\t1)\n"
    "f\t1\t2\t(\t-\n"  # a parenthesis in the word column is not an item
    "f\t1\t3\tx\t(2+3)|(2)\n"  # a split antecedent is discarded
    "f\t1\t4\ty\t(07)\n"
    "f\t1\t5\tz\t(7)\n"  # "7" is not "07"
    "\n"
    "f\t2\t0\tthey\t(3\n"
    "f\t2\t1\tthem\t(3)|3)\n"
    "#end document\n"
)
FORMAT_RESPONSE = (
    "#begin document (format); part 000\r\n"
    "f\t0\t0\tAnna\t(5(6\r\n"  # items without "|"; two entities on one key span
    "f\t0\t1\tBell\t6)5)\r\n"
    "f\t0\t2\tsaid\t-\r\n"
    "f\t0\t3\tshe\t(5)\r\n"
    "f\t0\t4\tand\t-\r\n"
    "\r\n"
    "f\t1\t0\ther\t(8)(5)\r\n"
    "f\t1\t1\tsister\t-\r\n"
    "f\t1\t2\t(\t(9\r\n"
    "f\t1\t3\tx\t9)\r\n"
    "f\t1\t4\ty\t(4(7)4)\r\n"  # the reference removes "(7)", then reads "(44)"
    "f\t1\t5\tz\t(7)\r\n"
    "f\t2\t0\tthey\t(3)\r\n"
    "f\t2\t1\tthem\t(3)\r\n"
    "#end document\r\n"
)
FORMAT_FIGURES = {"mentions": [6, 9, 6, 8], "muc": [2, 3, 2, 4], "bcub": [5.5, 9, 4.5, 8], "ceafm": [5, 9, 5, 8], "ceafe": [2.16666666666667, 6, 2.16666666666667, 4], "blanc": [3, 4, 3, 5, 11, 32, 11, 23], "lea": [3, 9, 3, 8]}


def test_conll_cells_are_read_as_the_reference_reads_them():
    # The reference's verbose output lists these entities (token spans) for the two files.
    assert coref.conll_to_clusters(FORMAT_KEY) == [[[0, 1], [3, 3], [5, 5]], [[5, 6]], [[8, 8]], [[9, 9]], [[10, 10]], [[12, 12], [11, 12]]]
    assert coref.conll_to_clusters(FORMAT_RESPONSE) == [[[0, 1], [3, 3], [5, 5]], [[0, 1]], [[5, 5]], [[7, 8]], [[9, 9], [10, 10]], [[9, 9]], [[11, 11], [12, 12]]]
    assert_figures(score([FORMAT_RESPONSE], [FORMAT_KEY]), FORMAT_FIGURES)


def test_a_document_string_needs_no_begin_line():
    body = FORMAT_KEY.split("part 000\n")[1].replace("#end document\n", "")
    assert coref.conll_to_clusters(body) == coref.conll_to_clusters(FORMAT_KEY)


# ---------------------------------------------------------------------------------------
# Hand derivations


def test_metric4coref_readme_example_by_hand():
    """The seed's example. Key K1={a,b,d} K2={c,e,f,g} K3={h,i,j,k}; response R1={a,b,c}
    R2={d,e,f,g} R3={h,i,j} R4={k}.
    MUC recall: each key entity is cut in 2 parts: (3-2)+(4-2)+(4-2) = 5 of (2+3+3) = 8
    links; precision: (3-2)+(4-2)+(3-1)+(1-1) = 5 of (2+3+2+0) = 7 (the seed's 7/12,
    7/15 are all-pairs link counts, not MUC).
    B3 recall: a,b 2/3; d 1/3; c 1/4; e,f,g 3/4; h,i,j 3/4; k 1/4: sum 20/3 of 11 mentions;
    precision: a,b 2/3, c 1/3; d 1/4, e,f,g 3/4; h,i,j 1; k 1: sum 49/6 of 11.
    CEAFe: phi4(K1,R1) = 4/6, phi4(K2,R2) = 6/8, phi4(K3,R3) = 6/7 is the best alignment
    (K1-R2 + K2-R1 = 2/7 + 2/7 is worse): 191/84 of 3 key and 4 response entities.
    CEAFm: 2 + 3 + 3 = 8 of 11 (the seed's "ceaf" 8/11 is this, not CEAFe)."""
    result = coref.compute([[["a", "b", "c"], ["d", "e", "f", "g"], ["h", "i", "j"], ["k"]]], [[["a", "b", "d"], ["c", "e", "f", "g"], ["h", "i", "j", "k"]]])
    expected = {
        "muc_recall": 5 / 8, "muc_precision": 5 / 7, "muc_f1": 2 * 5 / (8 + 7),
        "bcub_recall": 20 / 33, "bcub_precision": 49 / 66,
        "ceafe_recall": 191 / 84 / 3, "ceafe_precision": 191 / 84 / 4, "ceafe_f1": 2 * 191 / 84 / 7,
        "ceafm_recall": 8 / 11, "ceafm_precision": 8 / 11,
    }  # fmt: skip
    for key, value in expected.items():
        assert result[key] == pytest.approx(value, abs=1e-12), key
    bcub_f1 = 2 * (20 / 33) * (49 / 66) / (20 / 33 + 49 / 66)
    assert result["conll_f1"] == pytest.approx((10 / 15 + bcub_f1 + 2 * 191 / 84 / 7) / 3, abs=1e-12)


def test_a_twinless_response_singleton_by_hand():
    """Key {a c}; response {a c} {x}. MUC ignores x: 1. B3 precision (1 + 1 + 0)/3; CEAFe
    precision 1 of 2 response entities; CEAFm 2/3; LEA precision 2 of 3 (x's entity weighs
    1 and keeps nothing). BLANC: the key has no non-coreference link, so only the
    coreference part counts: link a-c, found once of once: 1."""
    result = coref.compute([[["a", "c"], ["x"]]], [[["a", "c"]]])
    expected = {"muc_f1": 1, "bcub_recall": 1, "bcub_precision": 2 / 3, "ceafe_precision": 1 / 2, "ceafm_precision": 2 / 3, "lea_precision": 2 / 3, "blanc_f1": 1}
    for key, value in expected.items():
        assert result[key] == pytest.approx(value, abs=1e-12), key


def test_a_key_span_repeated_in_the_response_is_dropped_from_its_later_entity():
    """Key {a b c}; response {a b} {a c} reads as {a b} {c}: MUC recall 1 of 2 links,
    precision 1 of 1; B3 recall (2/3 + 2/3 + 1/3) / 3 = 5/9; CEAFe recall phi4 = 2*2/5,
    precision 0.8 of 2 entities."""
    result = coref.compute([[["a", "b"], ["a", "c"]]], [[["a", "b", "c"]]])
    expected = {"muc_recall": 1 / 2, "muc_precision": 1, "bcub_recall": 5 / 9, "bcub_precision": 1, "ceafe_recall": 0.8, "ceafe_precision": 0.4}
    for key, value in expected.items():
        assert result[key] == pytest.approx(value, abs=1e-12), key


def test_a_twinless_span_repeated_is_counted_where_it_is():
    """Key {a} {b c}; response {a x x} {b x y} {c y}: x and y are twinless; x is twice in
    one entity and in another, y in two. They count in every entity holding them (B3, CEAF,
    LEA sizes 3, 3, 2), but once in the mention precision denominator (a b c x y: 5), and
    BLANC collects links as sets: coreference links a-x, x-x, b-x, b-y, x-y, c-y = 6;
    non-coreference: the 3 distinct cross pairs of a, b, c, their 6 pairs with x and y,
    x-y, x-x and y-y = 12. Figures: Perl on this partition."""
    result = score([[["a", "x", "x"], ["b", "x", "y"], ["c", "y"]]], [[["a"], ["b", "c"]]])
    assert_figures(result, {"mentions": [3, 3, 3, 5], "muc": [0, 1, 0, 5], "bcub": [2, 3, 1.16666666666667, 8], "ceafm": [2, 3, 2, 8], "ceafe": [1, 2, 1, 3], "blanc": [0, 1, 0, 6, 2, 2, 2, 12], "lea": [0, 3, 0, 8]})


def test_blanc_f1_is_the_mean_of_the_two_parts_f1():
    """TC-A-3: coreference links R 4/4, P 4/9, F 8/13; non-coreference links R 11/11,
    P 11/27, F 11/19. BLANC F = (8/13 + 11/19)/2 = 295/494, not 2RP/(R+P) = 46/77."""
    key, response, _ = OFFICIAL["TC-A-3"]
    result = coref.compute([response], [key], metrics=["blanc"])
    assert result["blanc_f1"] == pytest.approx(295 / 494, abs=1e-12)
    assert result["blanc_recall"] == 1 and result["blanc_precision"] == pytest.approx(23 / 54, abs=1e-12)


def test_singleton_keys_and_the_zero_division_policy():
    """Key = response = {a} {b} {c}: no MUC link anywhere (0/0), BLANC only has
    non-coreference links (3 of 3), every other metric is 1. With one mention in all,
    BLANC has no link at all."""
    singletons = [[["a"], ["b"], ["c"]]]
    result = coref.compute(singletons, singletons)
    assert (result["muc_recall"], result["muc_precision"], result["muc_f1"]) == (0, 0, 0)
    assert result["blanc_f1"] == 1 and result["bcub_f1"] == result["ceafe_f1"] == result["lea_f1"] == 1
    assert coref.compute(singletons, singletons, zero_division=1.0)["muc_f1"] == 1
    assert np.isnan(coref.compute(singletons, singletons, zero_division="nan")["muc_f1"])
    alone = coref.compute([[["a"]]], [[["a"]]])
    assert alone["blanc_f1"] == 0 and alone["bcub_f1"] == alone["ceafm_f1"] == alone["lea_f1"] == 1
    assert coref.compute([[["a"]]], [[["a"]]], zero_division=1.0)["blanc_f1"] == 1


@pytest.mark.parametrize("predictions, references", [([], []), ([[]], [[]]), ([[]], [[["a", "b"]]]), ([[["a", "b"]]], [[]]), ([""], [""])])
def test_empty_inputs_give_zero_without_dividing_by_zero(predictions, references):
    with np.errstate(all="raise"):
        result = coref.compute(predictions, references, metrics=ALL)
    assert set(result.values()) == {0.0}


def test_keep_singletons_false_removes_entities_of_one_mention_on_both_sides():
    """Key {a} {b c}; response {a} {b c} {x}: with singletons B3 precision (1 + 2 + 0)/4;
    without them both sides are {b c}: 1."""
    args = [[["a"], ["b", "c"], ["x"]]], [[["a"], ["b", "c"]]]
    assert coref.compute(*args)["bcub_precision"] == 3 / 4
    assert coref.compute(*args, keep_singletons=False)["bcub_precision"] == 1


# ---------------------------------------------------------------------------------------
# Properties


def _as_lists(documents):
    return [[[list(m) for m in c] for c in doc] for doc in documents]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9))
def test_bounds_and_perfect_response(seed):
    documents = random_documents(seed, n_docs=random.Random(seed).randint(1, 4))
    keys, responses = _as_lists(k for _, k, _ in documents), _as_lists(reading_order(r) for _, _, r in documents)
    result = coref.compute(responses, keys, metrics=ALL)
    assert all(0 <= v <= 1 for v in result.values())
    perfect = coref.compute(keys, keys, metrics=ALL)
    mentions = sum(len(c) for doc in keys for c in doc)
    links = sum(len(c) - 1 for doc in keys for c in doc)
    for metric in ("mentions", "bcub", "ceafm", "ceafe", "lea"):
        assert perfect[f"{metric}_f1"] == (1 if mentions else 0), metric
    assert perfect["muc_f1"] == (1 if links else 0)
    assert perfect["blanc_f1"] == pytest.approx(1 if max((sum(map(len, doc)) for doc in keys), default=0) > 1 else 0)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9))
def test_order_of_documents_clusters_and_mentions_does_not_matter(seed):
    """Without repeated spans in the response (whose first entity wins), order is free."""
    rng = random.Random(seed)
    documents = random_documents(seed, n_docs=3)
    keys = _as_lists(k for _, k, _ in documents)
    responses = []
    for _, _, response in documents:
        seen = set()
        responses.append([[list(m) for m in c if not (m in seen or seen.add(m))] for c in response])
        responses[-1] = [c for c in responses[-1] if c]
    before = coref.compute(responses, keys, metrics=ALL)
    for doc in responses + keys:
        rng.shuffle(doc)
        for cluster in doc:
            rng.shuffle(cluster)
    order = list(range(len(keys)))
    rng.shuffle(order)
    after = coref.compute([responses[i] for i in order], [keys[i] for i in order], metrics=ALL)
    assert after == pytest.approx(before, abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 4))
def test_shards_merge_by_adding_counts(seed, cut):
    documents = random_documents(seed, n_docs=5)
    keys, responses = _as_lists(k for _, k, _ in documents), _as_lists(reading_order(r) for _, _, r in documents)
    whole = score(responses, keys)
    parts = [counts(score(responses[s], keys[s])) for s in (slice(0, cut), slice(cut, None))]
    merged = {m: np.add(parts[0][m], parts[1][m]) for m in ALL}
    assert_figures(whole, merged)
    totals = np.concatenate([merged[m] for m in ALL])
    assert coref.scores(totals, ALL) == pytest.approx({k: v for k, v in whole.items() if k != "counts"}, abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9))
def test_conll_text_and_spans_agree(seed):
    documents = random_documents(seed, n_docs=2)
    texts = [(to_conll("d", n, k, random.Random(seed)), to_conll("d", n, r)) for n, k, r in documents]
    spans = _as_lists(k for _, k, _ in documents), _as_lists(reading_order(r) for _, _, r in documents)
    assert coref.compute([r for _, r in texts], [k for k, _ in texts]) == pytest.approx(coref.compute(spans[1], spans[0]), abs=1e-12)
    assert coref.compute(spans[1], [k for k, _ in texts]) == pytest.approx(coref.compute(spans[1], spans[0]), abs=1e-12)


# ---------------------------------------------------------------------------------------
# The plain oracle (tests/coref_naive.py, written from the definitions) against the
# vectorised path, at users' sizes; CEAF's sparse alignment against the dense one.


def test_the_oracle_equals_the_reference_on_its_published_cases():
    for case, (key, response, figures) in OFFICIAL.items():
        found = naive.document(key, response)
        for metric, values in figures.items():
            assert found[metric] == pytest.approx(values, abs=1e-9, rel=0), (case, metric)


def _chain(n_entities, offset=0):
    """Key {0 1} {2 3} ...; response {1 2} {3 4} ...: one connected component."""
    key = [[(offset + 2 * i, offset + 2 * i), (offset + 2 * i + 1, offset + 2 * i + 1)] for i in range(n_entities)]
    response = [[(offset + 2 * i + 1, offset + 2 * i + 1), (offset + 2 * i + 2, offset + 2 * i + 2)] for i in range(n_entities)]
    return key, response


def diverse_documents(seed, n_docs):
    """[(key, response)] of clusters of (start, end) tuples, as varied as real output:
    empty documents and sides, all singletons, perfect copies, drops, splits, merges,
    twinless and repeated spans (perturb), nesting and crossing, a few documents of many
    entities and a few long chains (one large CEAF component), offsets near 2**63."""
    rng = random.Random(seed)
    documents = []
    for _ in range(n_docs):
        roll = rng.random()
        if roll < 0.04:
            documents.append(rng.choice([([], []), ([], [[(0, 0)]]), ([[(0, 1), (3, 3)]], [])]))
            continue
        if roll < 0.06:
            documents.append(_chain(rng.randint(2, 40), rng.randint(0, 5)))
            continue
        large = roll > 0.99
        n_tokens = rng.randint(300, 900) if large else rng.randint(1, 40)
        count = rng.randint(150, 400) if large else rng.randint(0, 14)
        spans = list({(s, min(n_tokens - 1, s + rng.choice((0, 0, 0, 1, 2, 5)))) for s in (rng.randrange(n_tokens) for _ in range(count))})
        rng.shuffle(spans)
        key = _partition(rng, spans)
        if rng.random() < 0.05:
            key = [[m] for m in spans]
        response = [list(c) for c in key] if rng.random() < 0.1 else perturb(rng, key, n_tokens)
        if rng.random() < 0.02:  # offsets near the int64 limit: codes cannot be packed
            shift = 2**63 - 1 - n_tokens
            key, response = ([[(s + shift, e + shift) for s, e in c] for c in side] for side in (key, response))
        documents.append((key, response))
    return documents


def _rows(documents, keep_singletons=True):
    """The package's per-document statistics, one row per document, ALL's columns."""
    key, response = coref.read_examples(_as_lists(r for _, r in documents), _as_lists(k for k, _ in documents))
    stats = coref.statistics(key, response, ALL, keep_singletons)
    return np.concatenate([stats[m] for m in ALL], 1)


# Columns of ALL that hold sums of fractions (B3, LEA); the others are counts, or CEAF's
# exact (fsum) sums of the same aligned values, and must be equal.
_WIDTHS = np.cumsum([0] + [coref.WIDTH[m] for m in ALL])
FRACTIONS = np.zeros(_WIDTHS[-1], dtype=bool)
for _metric in ("bcub", "lea"):
    FRACTIONS[_WIDTHS[ALL.index(_metric)] : _WIDTHS[ALL.index(_metric) + 1]] = True


@pytest.mark.parametrize("keep_singletons", [True, False])
def test_thousands_of_documents_equal_the_plain_oracle(keep_singletons):
    documents = diverse_documents(11 if keep_singletons else 12, 10_000)
    sizes = [sum(map(len, side)) for doc in documents for side in doc]
    assert sum(sizes[0::2]) > 30_000 and sum(sizes[1::2]) > 30_000
    rows = _rows(documents, keep_singletons)
    oracle = np.array([np.concatenate(list(naive.document(k, r, ALL, keep_singletons).values())) for k, r in documents])
    assert np.array_equal(rows[:, ~FRACTIONS], oracle[:, ~FRACTIONS])
    np.testing.assert_allclose(rows[:, FRACTIONS], oracle[:, FRACTIONS], rtol=1e-13, atol=0)
    np.testing.assert_allclose(rows.sum(0), oracle.sum(0), rtol=1e-13, atol=0)
    # each document's row inside the batch is that document scored alone
    for number in range(0, len(documents), 23):
        assert np.array_equal(_rows(documents[number : number + 1], keep_singletons)[0], rows[number])


def test_thousands_of_conll_strings_are_read_as_their_spans():
    """compute()'s per-document CoNLL strings, read in one joined pass, against the same
    documents as clusters of spans (which the test above holds to the oracle)."""
    documents = random_documents(21, n_docs=2500)
    layout = random.Random(21)
    texts = [to_conll(f"d{i}", n, k, layout) for i, (n, k, _) in enumerate(documents)], [to_conll("d", n, r) for n, _, r in documents]
    spans = _as_lists(k for _, k, _ in documents), _as_lists(reading_order(r) for _, _, r in documents)
    assert sum(len(m) for doc in spans[0] for m in doc) > 10_000
    rows = []
    for key, response in (texts, spans):
        sides = coref.read_examples(response, key)
        stats = coref.statistics(*sides, ALL)
        rows.append(np.concatenate([stats[m] for m in ALL], 1))
    assert np.array_equal(rows[0][:, ~FRACTIONS], rows[1][:, ~FRACTIONS])
    np.testing.assert_allclose(rows[0][:, FRACTIONS], rows[1][:, FRACTIONS], rtol=1e-13, atol=0)


def test_ceaf_in_large_components_equals_the_dense_alignment(monkeypatch):
    """Components aligned on their sparse pairs (forced here for every component) give the
    dense optimum: exactly for CEAFm's counts, to rounding for CEAFe (the matching costs
    are 1 + max - value)."""
    documents = diverse_documents(13, 600)
    oracle = np.array([naive.ceafm(*naive.prepare(k, r)) + naive.ceafe(*naive.prepare(k, r)) for k, r in documents])
    monkeypatch.setattr(coref, "DENSE_CELLS", 0)
    key, response = coref.read_examples(_as_lists(r for _, r in documents), _as_lists(k for k, _ in documents))
    stats = coref.statistics(key, response, ("ceafm", "ceafe"))
    assert np.array_equal(stats["ceafm"], oracle[:, :4])
    np.testing.assert_allclose(stats["ceafe"], oracle[:, 4:], rtol=1e-14, atol=0)


@pytest.mark.parametrize("shape", ["same", "half", "chain"])
def test_ceaf_on_20000_mentions_a_side_stays_small(shape):
    """20,000 mentions a side in one document: 20,000 singleton entities matching one to one
    (CEAF = 20,000 of 20,000 both ways), every other one moved away (10,000), or one chain of
    10,000 two-mention entities a side where each key entity shares one mention with one
    response entity on each side: the best alignment takes 10,000 pairs of overlap 1
    (CEAFm 10,000 of 20,000) and phi4 = 2*1/(2+2) = 1/2 (CEAFe 5,000 of 10,000). A dense
    entity matrix would need 3.2 GB (800 MB for the chain)."""
    import tracemalloc

    n = 20_000
    if shape == "chain":
        key, response = _chain(n // 2)
        expected = {"ceafm": [n / 2, n, n / 2, n], "ceafe": [n / 4, n / 2, n / 4, n / 2]}
    else:
        shift = [0 if shape == "same" or i % 2 == 0 else n for i in range(n)]
        key, response = [[(i, i)] for i in range(n)], [[(i + shift[i], i + shift[i])] for i in range(n)]
        found = n if shape == "same" else n // 2
        expected = {"ceafm": [found, n, found, n], "ceafe": [found, n, found, n]}
    tracemalloc.start()
    try:
        result = coref.compute(_as_lists([response]), _as_lists([key]), metrics=["ceafm", "ceafe"], return_counts=True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert counts(result) == expected
    assert peak < 64 * 2**20


# ---------------------------------------------------------------------------------------
# The shapes today's systems write: jsonlines lines, predicted_clusters, span conventions

LINE = json.dumps({"doc_key": "x_0", "sentences": [["a", "b", "c"]], "clusters": [[[0, 0], [2, 2]]]})
# predict.py (e2e-coref, SpanBERT, coref-hoi) keeps the input's gold clusters beside its own
PREDICTED = json.dumps({"doc_key": "x_0", "sentences": [["a", "b", "c"]], "clusters": [[[0, 0], [2, 2]]], "predicted_clusters": [[[0, 0]], [[2, 2]]]})


def test_a_jsonlines_line_given_as_a_string_is_read_as_jsonlines():
    """Key = response = one entity {a c}: every metric 1 (it once read as an empty CoNLL
    document and gave 0)."""
    result = coref.compute(predictions=[LINE], references=[LINE], metrics=ALL)
    assert result["conll_f1"] == result["mentions_f1"] == result["blanc_f1"] == 1.0


def test_a_prediction_line_is_read_from_its_predicted_clusters():
    """Key {a c}; predicted {a} {c}: MUC recall 0 of 1 link, precision 0 of 0; B3 recall
    (1/2 + 1/2)/2, precision (1 + 1)/2. (Reading its gold clusters would give 1.)"""
    result = coref.compute(predictions=[PREDICTED], references=[PREDICTED], metrics=ALL)
    assert (result["muc_recall"], result["muc_precision"]) == (0.0, 0.0)
    assert (result["bcub_recall"], result["bcub_precision"]) == (0.5, 1.0)


def test_the_command_line_reads_predicted_clusters_in_a_response_file(tmp_path, capsys):
    (tmp_path / "gold.jsonl").write_text(LINE + "\n")
    (tmp_path / "predicted.jsonl").write_text(PREDICTED + "\n")
    assert cli_json(tmp_path / "gold.jsonl", tmp_path / "predicted.jsonl") == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["bcub_recall"], result["bcub_precision"], result["muc_recall"]) == (0.5, 1.0, 0.0)
    # the predict.py file as both key (its gold clusters) and response (its predictions)
    assert cli_json(tmp_path / "predicted.jsonl", tmp_path / "predicted.jsonl") == 0
    assert json.loads(capsys.readouterr().out)["bcub_recall"] == 0.5
    other = json.dumps({"doc_key": "y_0", "sentences": [["a"]], "clusters": [[[0, 0]]]})
    (tmp_path / "mixed.jsonl").write_text(PREDICTED + "\n" + other + "\n")
    assert main(["coref", str(tmp_path / "gold.jsonl"), str(tmp_path / "mixed.jsonl")]) == 1
    assert "line 2: the object has no predicted_clusters, but line 1 has" in capsys.readouterr().err


# fastcoref's README: FCoref().predict(texts=[TEXT])[0].get_clusters(as_strings=False),
# end-exclusive character offsets ("We" = TEXT[0:2], "our coref package" = TEXT[33:50]).
FASTCOREF_TEXT = "We are so happy to see you using our coref package. This package is very fast!"
FASTCOREF_TOKENS = ["We", "are", "so", "happy", "to", "see", "you", "using", "our", "coref", "package", ".", "This", "package", "is", "very", "fast", "!"]
FASTCOREF_CHARS = [[[0, 2], [33, 36]], [[33, 50], [52, 64]]]
# the same mentions as token positions, end included: We = 0, our = 8, "our coref
# package" = 8..10, "This package" = 12..13
FASTCOREF_KEY = [[[0, 0], [8, 8]], [[8, 10], [12, 13]]]
# Maverick's README: model.predict(TEXT)["clusters_char_offsets"] (end included: "Barack
# Obama" = (0, 11)) and its clusters_token_offsets over the README's word_tokenized list.
MAVERICK_TEXT = "Barack Obama is traveling to Rome. The city is sunny and the president plans to visit its most important attractions"
MAVERICK_TOKENS = ["Barack", "Obama", "is", "traveling", "to", "Rome", ".", "The", "city", "is", "sunny", "and", "the", "president", "plans", "to", "visit", "its", "most", "important", "attractions"]
MAVERICK_CHARS = [[[29, 32], [35, 42], [86, 88]], [[0, 11], [57, 69]]]
MAVERICK_TOKEN_OFFSETS = [[[5, 5], [7, 8], [17, 17]], [[0, 1], [12, 13]]]


@pytest.mark.parametrize(
    "chars, convention, key, tokens, text",
    [
        (FASTCOREF_CHARS, "char_exclusive", FASTCOREF_KEY, FASTCOREF_TOKENS, FASTCOREF_TEXT),
        (MAVERICK_CHARS, "char_inclusive", MAVERICK_TOKEN_OFFSETS, MAVERICK_TOKENS, MAVERICK_TEXT),
    ],
)
def test_character_offsets_of_the_readme_examples_meet_their_token_spans(chars, convention, key, tokens, text):
    result = coref.compute([chars], [key], metrics=ALL, span_convention=(convention, "token_inclusive"), tokens=[tokens], texts=[text])
    assert {k: v for k, v in result.items() if k.endswith("_f1")} == dict.fromkeys([f"{m}_f1" for m in ALL] + ["conll_f1"], 1.0)
    other = "char_inclusive" if convention == "char_exclusive" else "char_exclusive"
    with pytest.raises(ValueError, match=rf"predictions\[0\]: cluster 0 holds \[\d+, \d+\]: characters '.*' do not begin and end at token boundaries of document 0's text \(span_convention='{other}'\)"):
        coref.compute([chars], [key], span_convention=(other, "token_inclusive"), tokens=[tokens], texts=[text])


def test_end_exclusive_token_spans_as_spacy_and_wl_coref_write_them():
    """spaCy's Span.end and wl-coref's span_clusters end one token after the mention:
    Maverick's README clusters with every end + 1 are its token offsets."""
    exclusive = [[[s, e + 1] for s, e in cluster] for cluster in MAVERICK_TOKEN_OFFSETS]
    result = coref.compute([exclusive], [exclusive], span_convention="token_exclusive", metrics=ALL)
    assert result == coref.compute([MAVERICK_TOKEN_OFFSETS], [MAVERICK_TOKEN_OFFSETS], metrics=ALL)
    assert coref.compute([exclusive], [MAVERICK_TOKEN_OFFSETS], span_convention=("token_exclusive", "token_inclusive"))["conll_f1"] == 1.0


def test_spans_that_cannot_be_what_the_convention_says_are_refused():
    conll = "".join(f"w{i}\t-\n" for i in range(21))  # a key document of 21 tokens
    with pytest.raises(ValueError, match=r"predictions\[0\]: cluster 1 holds \[4, 4\]: an end-exclusive span needs end > start \(span_convention='token_exclusive'\)"):
        coref.compute([[[[0, 2]], [[4, 4]]]], [conll], span_convention="token_exclusive")
    with pytest.raises(ValueError, match=r"predictions\[0\]: cluster 1 holds \[86, 88\]: ends beyond the document's 21 tokens \(span_convention='token_inclusive'\)"):
        coref.compute([[[[0, 1]], [[86, 88]]]], [conll])
    with pytest.raises(ValueError, match=r"tokens: a character span_convention needs tokens"):
        coref.compute([FASTCOREF_CHARS], [FASTCOREF_KEY], span_convention=("char_exclusive", "token_inclusive"))
    with pytest.raises(ValueError, match=r"tokens\[0\]: token 1 'is' is not the next word of the text after character 6"):
        coref.compute([MAVERICK_CHARS], [MAVERICK_TOKEN_OFFSETS], span_convention=("char_inclusive", "token_inclusive"), tokens=[["Barack", "is"]], texts=[MAVERICK_TEXT])
    with pytest.raises(ValueError, match=r"span_convention: 'char' is not one of 'token_inclusive', 'token_exclusive', 'char_exclusive', 'char_inclusive'"):
        coref.compute([FASTCOREF_KEY], [FASTCOREF_KEY], span_convention="char")
    with pytest.raises(ValueError, match=r"span_convention: expected a name or a \(predictions, references\) pair"):
        coref.compute([FASTCOREF_KEY], [FASTCOREF_KEY], span_convention=("token_inclusive",))


KEY_PAIRS = [[[[4 * i, 4 * i + 1]] for i in range(12)]]  # twelve two-token mentions


def misread(read, n, fits, found, example="predictions[0] cluster 0", given=None):
    """The refusal's text, as a regular expression: `read` of the `n` predicted mentions
    key mentions as read, `found` under the convention that fits."""
    given = given or rf"span_convention=\('{fits}', 'token_inclusive'\)"
    return rf"{read} of the {n} predicted mentions are key mentions under span_convention='\w+'.*, {found} under '{fits}'.* \({re.escape(example)} holds one that only '{fits}' makes a key mention\): they are written in '{fits}'; give {given}$"


@pytest.mark.parametrize(
    "predictions, options, fits, n",
    [
        # written end-exclusive, read as the default: every end one token late
        ([[[[4 * i, 4 * i + 2]] for i in range(12)]], {}, "token_exclusive", 12),
        # written end-inclusive, read as end-exclusive: every end one token early
        (KEY_PAIRS, {"span_convention": ("token_exclusive", "token_inclusive")}, "token_inclusive", 12),
        # character offsets of one-letter tokens "a b c ..." (token i at character 2i), end
        # excluded, read as token positions: [8i, 8i + 3) is tokens [4i, 4i + 1]
        ([[[[8 * i, 8 * i + 3]] for i in range(12)]], {"tokens": [[chr(97 + t % 26) for t in range(96)]]}, "char_exclusive", 12),
        # a jsonlines line (wl-coref's end-exclusive spans) read as the default
        ([json.dumps({"doc_key": "d", "sentences": [["w"] * 48], "clusters": [[[4 * i, 4 * i + 2]] for i in range(12)]})], {}, "token_exclusive", 12),
        # six mentions are enough (MISREAD_GAIN)
        ([[[[4 * i, 4 * i + 2]] for i in range(6)]], {}, "token_exclusive", 6),
    ],
)
def test_span_predictions_in_another_convention_are_refused(predictions, options, fits, n):
    """None of the predicted mentions is a key mention, all are under the convention that
    fits: refused, naming it, a document and cluster, and the argument to give."""
    with pytest.raises(ValueError, match="^predictions: " + misread(0, n, fits, n)):
        coref.compute(predictions, KEY_PAIRS, **options)
    convention = (fits, "token_inclusive")
    assert coref.compute(predictions, KEY_PAIRS, **{**options, "span_convention": convention})["bcub_recall"] == n / 12


def test_span_predictions_another_convention_reads_only_somewhat_better_are_scored():
    """Below MISREAD_GAIN (6) more key mentions, or with the reading as given finding 1/2.5
    as many or more, the predictions are scored: with a warning when another reading finds
    WARN_GAIN (2) more and 2.5 times as many, or when of MIN_MISSING (10) or more mentions
    fewer than FIT_SHARE (10%) are key mentions under any reading."""
    exclusive = [[[4 * i, 4 * i + 2]] for i in range(12)]  # each one token long at the end
    with pytest.warns(UserWarning, match=r"^predictions: 0 of the 5 predicted mentions are key mentions under span_convention='token_inclusive', 5 under 'token_exclusive' \(predictions\[0\] cluster 0 holds one that only 'token_exclusive' makes a key mention\): if they are written in 'token_exclusive', give span_convention=\('token_exclusive', 'token_inclusive'\)$"):
        assert coref.compute([exclusive[:5]], KEY_PAIRS)["bcub_f1"] == 0.0
    # twelve mentions on the key's tokens but none of its spans under either reading
    # (fewer than FIT_SHARE, 10%): character offsets without tokens look like this
    near = [[[4 * i + 1, 4 * i + 1]] for i in range(12)]
    with pytest.warns(UserWarning, match=r"^predictions: 0 of the 12 predicted mentions are key mentions under span_convention='token_inclusive', 0 under 'token_exclusive': fewer than 10% under any reading\. Are they character offsets \(give span_convention='char_exclusive' or 'char_inclusive' with tokens=\), or positions over other tokens than the key's\?$"):
        assert coref.compute([near], KEY_PAIRS)["bcub_f1"] == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # ten mentions, one a key span as read, one under the other reading (a tenth fits): no warning
        assert coref.compute([near[:8] + [[[40, 42]], [[44, 45]]]], KEY_PAIRS)["bcub_recall"] == 1 / 12
        # one key mention found as read, one more under the other reading: no warning
        assert coref.compute([exclusive[:2] + [[[8, 9]]]], KEY_PAIRS)["bcub_recall"] == 1 / 12
        # a weak system in the right convention: 3 key mentions, 7 mentions one token too
        # long that end-exclusive reading would make key mentions: 7 < 2.5 x 3, scored
        weak = [[[4 * i, 4 * i + 1]] for i in range(3)] + exclusive[3:10]
        assert coref.compute([weak], KEY_PAIRS)["bcub_recall"] == 3 / 12


def litbank_gold():
    """The two LitBank documents: per document its CoNLL text, clusters and words."""
    texts = [(LITBANK / name).read_text(encoding="utf-8") for name in LITBANK_FILES]
    return texts, [coref.conll_to_clusters(text) for text in texts], [span_readings.document_words(text) for text in texts]


def test_litbank_gold_in_another_convention_is_refused():
    """LitBank's gold mentions written end-exclusive (spaCy, wl-coref) and read as the
    default: refused, as clusters and as jsonlines (the key mentions they meet as read are
    mentions one token longer than another sharing its start: 15 of Emma's 319 and 4 of the
    Masque's 131, counted below); read as written, CoNLL F1 1.0. As character offsets with
    tokens: refused while reading (the offsets run beyond the tokens); without tokens
    (which reading characters needs): scored with a warning that they fit no convention."""
    texts, clusters, words = litbank_gold()
    exclusive = [[[[s, e + 1] for s, e in cluster] for cluster in document] for document in clusters]
    keys = [{tuple(m) for c in d for m in c} for d in clusters]
    met = sum((s, e + 1) in key for key in keys for s, e in key)
    assert met == 19
    for predictions in (exclusive, [json.dumps({"doc_key": str(i), "sentences": [w], "clusters": d}) for i, (d, w) in enumerate(zip(exclusive, words))]):
        with pytest.raises(ValueError, match="^predictions: " + misread(met, 450, "token_exclusive", 450)):
            coref.compute(predictions, texts)
    assert coref.compute(exclusive, texts, span_convention=("token_exclusive", "token_inclusive"))["conll_f1"] == 1.0
    for convention in ("char_exclusive", "char_inclusive"):
        written = [[[span_readings.write(span, convention, span_readings.Words(w)) for span in cluster] for cluster in d] for d, w in zip(clusters, words)]
        with pytest.raises(ValueError, match=r"^predictions\[0\]: cluster \d+ holds \[\d+, \d+\]: ends beyond the document's 2063 tokens \(span_convention='token_inclusive'\); written end-exclusive, or in characters \(with tokens=\)\? give that span_convention$"):
            coref.compute(written, clusters, tokens=words)
        assert coref.compute(written, clusters, tokens=words, span_convention=(convention, "token_inclusive"))["conll_f1"] == 1.0
        # without tokens, characters cannot be read: scored, as fitting no convention
        with pytest.warns(UserWarning, match=r"^predictions: \d+ of the 450 predicted mentions .*: fewer than 10% under any reading\. Are they character offsets \(give span_convention="):
            coref.compute(written, clusters)


def test_span_reading_check_equals_its_oracle_on_weak_systems():
    """Weak systems' outputs on windows of LitBank's documents (20 tokens to a whole
    document, one to three a call; tests/coref_span_readings.py), written in each
    convention and read in each token convention: coref's decision equals a plain
    per-mention oracle's on every call, and no output read in the convention it is
    written in is refused."""
    texts, clusters, words = litbank_gold()
    documents = [({tuple(m) for c in d for m in c}, w) for d, w in zip(clusters, words)]
    rng = random.Random(5)
    outcomes = Counter()
    for _, _, call in span_readings.responses(documents, 120, seed=5):
        with_tokens = rng.random() < 0.5
        keys = [set(key) for key, _, _ in call]
        for truth in span_readings.CONVENTIONS:
            pairs = span_readings.written(call, truth)
            for claimed in ("token_inclusive", "token_exclusive"):
                expected = span_readings.oracle(keys, pairs, claimed, [w for _, _, w in call], with_tokens)
                assert span_readings.decide(call, truth, claimed, with_tokens) == expected, (truth, claimed, with_tokens)
                outcomes[truth == claimed, expected] += 1
    assert outcomes[True, "refuse"] == outcomes[True, "unreadable"] == 0
    assert outcomes[False, "refuse"] > 50 and outcomes[True, "score"] > 100  # both sides met


def test_model_text_a_parser_placed_is_not_read_in_another_convention():
    """A reply marking every mention one token too long (the gold's one-token mentions as
    [w0 w1], ...) was placed by the parser on the key's tokens: it has no span convention to
    mistake, so it is scored as placed (MUC 0: no mention matches) by compute() and by a
    state alike, not refused as end-exclusive spans."""
    from paperscore import state

    tokens = [f"w{i}" for i in range(30)]
    gold = [[[i, i] for i in range(0, 24, 2)]]
    markdown = " ".join(f"[w{i} w{i + 1}](#1)" for i in range(0, 24, 2)) + " w24 w25 w26 w27 w28 w29"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        expected = coref.compute([markdown], [gold], parse="coref_markdown", tokens=[tokens])
        running = state.new("coref", parse="coref_markdown")
        running.update([markdown], [gold], tokens=[tokens])
        assert running.compute() == expected and expected["muc_f1"] == 0.0


def test_the_command_line_refuses_a_jsonlines_response_in_another_convention(tmp_path, capsys):
    """`paperscore coref KEY RESPONSE` on Emma's gold written end-exclusive as jsonlines
    (wl-coref): exit 1 naming --span-convention, which then scores it 1.0; compare reads
    its systems so too."""
    texts, clusters, words = litbank_gold()
    line = json.dumps({"doc_key": "158_emma_brat_0", "sentences": [words[0]], "clusters": [[[s, e + 1] for s, e in c] for c in clusters[0]]})
    (tmp_path / "key.conll").write_text(texts[0], encoding="utf-8")
    (tmp_path / "wl.jsonl").write_text(line + "\n", encoding="utf-8")
    key, response = str(tmp_path / "key.conll"), str(tmp_path / "wl.jsonl")
    assert main(["coref", key, response, "-b"]) == 1
    n = sum(map(len, clusters[0]))
    example = "RESPONSE document '158_emma_brat_0' cluster 0"
    assert re.search("RESPONSE: " + re.escape(response) + ": " + misread(15, n, "token_exclusive", n, example, "--span-convention token_exclusive"), capsys.readouterr().err.strip())
    assert main(["coref", key, response, "-b", "--span-convention", "token_exclusive"]) == 0
    assert capsys.readouterr().out.strip() == "1.0"
    assert main(["compare", "coref", "--references", key, "--system-a", response, "--system-b", response, "--seed", "1"]) == 1
    assert "--system-a: " in capsys.readouterr().err
    assert main(["coref", key, key, "--span-convention", "token_exclusive"]) == 1
    assert "--span-convention token_exclusive: applies to a jsonlines response; RESPONSE is CoNLL" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------
# convention="e2e_coref": kentonl/e2e-coref's metrics.py (HEAD 9d1ee19), which SpanBERT,
# coref-hoi, s2e-coref, fastcoref and LingMess copy. Figures: its Evaluator(muc | b_cubed |
# ceafe | lea) run in place from a scratch copy (sklearn's removed linear_assignment given
# by scipy's linear_sum_assignment), fed each document's clusters as tuples and its
# mention-to-cluster dicts, on random_documents(seed, n_docs=6) with repeated response
# spans removed (e2e-coref has no rule for them), and on LitBank; as
# [recall num, recall den, precision num, precision den].

E2E = {
    0: {"muc": [15, 23, 15, 26], "bcub": [22.583333333333336, 34, 17.21428571428571, 36], "ceafe": [7.033333333333333, 17, 7.033333333333333, 10], "lea": [21.0, 34, 14.4, 36]},
    1: {"muc": [13, 24, 13, 22], "bcub": [19.0, 35, 17.300000000000004, 31], "ceafe": [5.538095238095238, 23, 5.538095238095238, 9], "lea": [17.333333333333332, 35, 14.833333333333334, 31]},
    2: {"muc": [20, 24, 20, 27], "bcub": [33.58333333333333, 40, 31.642857142857142, 43], "ceafe": [13.580219780219778, 21, 13.580219780219778, 16], "lea": [32.0, 40, 29.666666666666668, 43]},
    3: {"muc": [13, 18, 13, 21], "bcub": [16.266666666666666, 25, 19.8, 33], "ceafe": [6.5, 15, 6.5, 12], "lea": [14.6, 25, 18.166666666666664, 33]},
    4: {"muc": [5, 10, 5, 17], "bcub": [7.083333333333333, 15, 8.25, 26], "ceafe": [4.454761904761905, 17, 4.454761904761905, 9], "lea": [5.666666666666666, 15, 6.666666666666666, 26]},
    5: {"muc": [8, 16, 8, 13], "bcub": [10.933333333333334, 24, 12.833333333333332, 22], "ceafe": [6.916666666666666, 22, 6.916666666666666, 9], "lea": [10.0, 24, 12.0, 22]},
    "litbank": {"muc": [281, 344, 281, 299], "bcub": [238.7800125926226, 380, 309.01515151515156, 340], "ceafe": [32.38337254419788, 106, 32.38337254419788, 41], "lea": [231.75673958179763, 380, 305.91666666666663, 340]},
    # the gold against itself: CEAFe recall 36 of 106 (the 70 key singletons find no partner)
    "litbank_self": {"muc": [344, 344, 344, 344], "bcub": [380.0, 380, 380.0, 380], "ceafe": [36.0, 106, 36.0, 36], "lea": [380.0, 380, 380.0, 380]},
}


def _without_repeats(response):
    seen = set()
    return [c for c in ([m for m in cluster if not (m in seen or seen.add(m))] for cluster in response) if c]


@pytest.mark.parametrize("case", E2E)
def test_e2e_coref_convention_equals_its_metrics_py(case):
    keys, responses = _e2e_case(case)
    result = coref.compute(responses, keys, convention="e2e_coref", return_counts=True)
    assert_figures(result, E2E[case])
    assert set(counts(result)) == {"muc", "bcub", "ceafe", "lea"}


# convention="maverick": SapienzaNLP/maverick-coref (0dc6554) maverick/common/metrics.py,
# its OfficialEvaluator(muc | b_cubed | ceafe | lea) run in place from a scratch copy on the
# same cases as E2E, fed the same way. Its B3 and CEAFe keep singletons (the reference's
# figures), its LEA skips them (e2e-coref's). fastcoref (8888e51) fastcoref/utilities/
# metrics.py run the same way gave exactly the E2E figures above: it is e2e-coref's copy.
MAVERICK = {
    0: {"muc": [15, 23, 15, 26], "bcub": [27.416666666666668, 40, 22.797619047619047, 47], "ceafe": [9.6, 17, 9.6, 21], "lea": [21.0, 34, 14.4, 36]},
    1: {"muc": [13, 24, 13, 22], "bcub": [30.333333333333332, 47, 27.366666666666667, 42], "ceafe": [13.37142857142857, 23, 13.37142857142857, 20], "lea": [17.333333333333332, 35, 14.833333333333334, 31]},
    2: {"muc": [20, 24, 20, 27], "bcub": [38.083333333333336, 45, 36.14285714285714, 53], "ceafe": [17.246886446886446, 21, 17.246886446886446, 26], "lea": [32.0, 40, 29.666666666666668, 43]},
    3: {"muc": [13, 18, 13, 21], "bcub": [22.6, 33, 25.0, 40], "ceafe": [9.999999999999998, 15, 9.999999999999998, 19], "lea": [14.6, 25, 18.166666666666664, 33]},
    4: {"muc": [5, 10, 5, 17], "bcub": [18.583333333333332, 27, 16.0, 37], "ceafe": [10.12142857142857, 17, 10.12142857142857, 20], "lea": [5.666666666666666, 15, 6.666666666666666, 26]},
    5: {"muc": [8, 16, 8, 13], "bcub": [26.76666666666667, 38, 29.166666666666668, 37], "ceafe": [18.150000000000002, 22, 18.150000000000002, 24], "lea": [10.0, 24, 12.0, 22]},
    "litbank": {"muc": [281, 344, 281, 299], "bcub": [301.9189014815115, 450, 365.1540404040404, 391], "ceafe": [75.61670587753122, 106, 75.61670587753122, 92], "lea": [231.75673958179763, 380, 305.91666666666663, 340]},
    "litbank_self": {"muc": [344, 344, 344, 344], "bcub": [450.0, 450, 450.0, 450], "ceafe": [106.0, 106, 106.0, 106], "lea": [380.0, 380, 380.0, 380]},
}


def _e2e_case(case):
    if case in ("litbank", "litbank_self"):
        texts, responses = litbank()
        keys = [coref.conll_to_clusters(text) for text in texts]
        return keys, (keys if case == "litbank_self" else _as_lists(_without_repeats(r) for r in responses))
    documents = random_documents(case, n_docs=6)
    return _as_lists(k for _, k, _ in documents), _as_lists(_without_repeats(r) for _, _, r in documents)


@pytest.mark.parametrize("case", MAVERICK)
def test_maverick_convention_equals_its_metrics_py(case):
    keys, responses = _e2e_case(case)
    result = coref.compute(responses, keys, convention="maverick", return_counts=True)
    assert_figures(result, MAVERICK[case])
    assert set(counts(result)) == {"muc", "bcub", "ceafe", "lea"}


def test_maverick_convention_on_the_issue_example_by_hand():
    """Key = response = {a} {b c}: B3 and CEAFe keep the singleton (1, as the reference);
    LEA skips it: 2 of 2 (1); CoNLL 1. A response singleton {x} twinless: B3 precision
    3/4 (a 1, b 1, c 1, x 0); LEA untouched (1)."""
    clusters = [[[[0, 0]], [[1, 1], [2, 2]]]]
    result = coref.compute(clusters, clusters, convention="maverick", return_counts=True)
    assert result["conll_f1"] == 1.0 and counts(result)["lea"] == [2, 2, 2, 2]
    spurious = [[[[0, 0]], [[1, 1], [2, 2]], [[3, 3]]]]
    result = coref.compute(spurious, clusters, convention="maverick")
    assert result["bcub_precision"] == 0.75 and result["lea_precision"] == 1.0 and result["ceafe_precision"] == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match=r"metrics: convention='maverick' has no blanc"):
        coref.compute(clusters, clusters, convention="maverick", metrics=["blanc"])
    with pytest.raises(ValueError, match=r"keep_singletons: convention='maverick' decides per metric"):
        coref.compute(clusters, clusters, convention="maverick", keep_singletons=False)


def test_e2e_coref_convention_on_the_issue_example_by_hand():
    """Key = response = {a} {b c}: MUC 1; B3 skips the singleton: 1; CEAFe drops the
    response singleton: recall 1 of 2 key entities, precision 1 of 1, F1 2/3; CoNLL 8/9
    (scorer_pl: 1)."""
    clusters = [[[[0, 0]], [[1, 1], [2, 2]]]]
    result = coref.compute(clusters, clusters, convention="e2e_coref")
    assert result["conll_f1"] == pytest.approx(8 / 9, abs=1e-15) and result["ceafe_recall"] == 0.5
    assert coref.compute(clusters, clusters)["conll_f1"] == 1.0
    with pytest.raises(ValueError, match=r"metrics: convention='e2e_coref' has no blanc"):
        coref.compute(clusters, clusters, convention="e2e_coref", metrics=["muc", "blanc"])
    with pytest.raises(ValueError, match=r"keep_singletons: convention='e2e_coref' decides per metric"):
        coref.compute(clusters, clusters, convention="e2e_coref", keep_singletons=False)
    with pytest.raises(ValueError, match=r"convention: 'e2e' is not one of 'scorer_pl', 'e2e_coref', 'maverick'"):
        coref.compute(clusters, clusters, convention="e2e")


@pytest.mark.parametrize("convention", ["e2e_coref", "maverick"])
def test_e2e_coref_convention_on_the_command_line(tmp_path, capsys, convention):
    keys, responses = random_texts(0)
    (tmp_path / "key").write_text("".join(keys))
    (tmp_path / "response").write_text("".join(responses))
    assert main(["coref", str(tmp_path / "key"), str(tmp_path / "response"), "--convention", convention, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    alone = coref.compute(responses, keys, convention=convention)
    assert {k: result[k] for k in alone} == alone and "blanc_f1" not in result


# ---------------------------------------------------------------------------------------
# scorer.pl's argument form, `paperscore coref METRIC KEY RESPONSE none`: its TOTALS lines.
# Expected: the stdout of `perl scorer.pl METRIC key response none` (v8.01, f49f3f8; lea:
# the LEA-scorer branch, 772e5a3) on random_texts(1) written as files, without its first
# lines "version: ..." and "Repeated mention in the response: ..." (diagnostics).

RULE = "-" * 74
MENTIONS_LINE = "Identification of Mentions: Recall: (15 / 20) 75%\tPrecision: (15 / 20) 75%\tF1: 75%\n" + RULE + "\n"
PERL_TOTALS = {
    "muc": "Coreference: Recall: (9 / 14) 64.28%\tPrecision: (9 / 13) 69.23%\tF1: 66.66%\n" + RULE + "\n",
    "bcub": "Coreference: Recall: (12.5 / 20) 62.5%\tPrecision: (13.1666666666667 / 21) 62.69%\tF1: 62.59%\n" + RULE + "\n",
    "blanc": "\nCoreference:\nCoreference links: Recall: (30 / 41) 73.17%\tPrecision: (30 / 35) 85.71%\tF1: 78.94%\n" + RULE + "\n"
    "Non-coreference links: Recall: (17 / 50) 34%\tPrecision: (17 / 39) 43.58%\tF1: 38.2%\n" + RULE + "\n"
    "BLANC: Recall: (0.535853658536585 / 1) 53.58%\tPrecision: (0.646520146520146 / 1) 64.65%\tF1: 58.57%\n" + RULE + "\n",
    "lea": "Coreference: Recall: (11.6666666666667 / 20) 58.33%\tPrecision: (12 / 21) 57.14%\tF1: 57.73%\n" + RULE + "\n",
}
# SpanBERT's / coref-hoi's conll.py (and e2e-coref's) read scorer.pl's output with this
COREF_RESULTS_REGEX = re.compile(r".*Coreference: Recall: \([0-9.]+ / [0-9.]+\) ([0-9.]+)%\tPrecision: \([0-9.]+ / [0-9.]+\) ([0-9.]+)%\tF1: ([0-9.]+)%.*", re.DOTALL)


@pytest.fixture
def random_files(tmp_path):
    keys, responses = random_texts(1)
    (tmp_path / "key").write_text("".join(keys))
    (tmp_path / "response").write_text("".join(responses))
    return str(tmp_path / "key"), str(tmp_path / "response")


@pytest.mark.parametrize("metric", PERL_TOTALS)
def test_scorer_pl_argument_form_prints_its_totals(metric, random_files, capsys):
    assert main(["coref", metric, *random_files, "none"]) == 0
    out = capsys.readouterr().out
    assert out.lstrip("\n") == "====== TOTALS =======\n" + MENTIONS_LINE + PERL_TOTALS[metric]
    if metric != "blanc":
        assert COREF_RESULTS_REGEX.match(out).groups() == re.search(r"Coreference: Recall: \S+ \S+ \S+ ([\d.]+)%\tPrecision: \S+ \S+ \S+ ([\d.]+)%\tF1: ([\d.]+)%", PERL_TOTALS[metric]).groups()


def test_scorer_pl_all_and_what_it_scores_rather_than_refuses(random_files, tmp_path, capsys):
    assert main(["coref", "all", *random_files, "none"]) == 0
    out = capsys.readouterr().out
    assert re.findall(r"METRIC (\w+):", out) == ["muc", "bcub", "ceafm", "ceafe", "blanc"]
    assert "\nMETRIC bcub:\n\n====== TOTALS =======\n" + MENTIONS_LINE + PERL_TOTALS["bcub"] in out
    # an empty response, or one without #begin document: scorer.pl scores no documents
    # (recall 0 of the key's 20 mentions and 14 MUC links, precision 0 of 0)
    for content in ("", "w\t(1)\nw\t-\n"):
        (tmp_path / "other").write_text(content)
        assert main(["coref", "muc", random_files[0], str(tmp_path / "other"), "none"]) == 0
        assert "Coreference: Recall: (0 / 14) 0%\tPrecision: (0 / 0) 0%\tF1: 0%" in capsys.readouterr().out
    # the usual form still refuses it
    assert main(["coref", random_files[0], str(tmp_path / "other")]) == 1
    assert "holds no document" in capsys.readouterr().err
    # one document by name, as scorer.pl's fourth argument
    assert main(["coref", "muc", *random_files, "(random_1_0); part 000", "--json"]) == 0
    alone = coref.compute(*[[t] for t in reversed([random_texts(1)[0][0], random_texts(1)[1][0]])], metrics=["muc"])
    assert json.loads(capsys.readouterr().out)["muc_f1"] == alone["muc_f1"]
    assert main(["coref", "muc", *random_files, "nothing"]) == 1
    assert "KEY: " in capsys.readouterr().err
    assert main(["coref", *random_files, "extra"]) == 1
    assert "unexpected arguments 'extra'" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------
# Details: per document, counts, bootstrap, signature


def test_per_document_numbers_are_each_document_alone():
    keys, responses = random_texts(2)
    result = coref.compute(responses, keys, per_document=True)
    assert [d["document"] for d in result["per_document"]] == [0, 1, 2]
    for number, entry in enumerate(result["per_document"]):
        alone = coref.compute([responses[number]], [keys[number]])
        assert {k: v for k, v in entry.items() if k != "document"} == pytest.approx(alone, abs=1e-12)


def test_bootstrap_intervals_resample_documents():
    keys, responses = random_texts(4)
    result = coref.compute(responses, keys, confidence_level=0.9, n_resamples=300, seed=3)
    again = coref.compute(responses, keys, confidence_level=0.9, n_resamples=300, seed=3)
    assert result == again
    for key in coref.scores(np.zeros(28), coref.METRICS):
        assert result[f"{key}_low"] <= result[key] + 1e-12 <= result[f"{key}_high"] + 2e-12, key
    # one document: every resample is that document
    one = coref.compute(responses[:1], keys[:1], confidence_level=0.9, n_resamples=50, seed=0)
    assert one["muc_f1_low"] == one["muc_f1"] == one["muc_f1_high"]


def test_signature_names_the_options():
    result = coref.compute([[["a"]]], [[["a"]]], metrics=["muc", "lea"], keep_singletons=False, return_signature=True)
    assert without_references(result["signature"]) == "coref_conll|metrics:muc,lea|keep_singletons:no|zero_division:0|paperscore:0.1.0"
    assert set(result) == {"muc_recall", "muc_precision", "muc_f1", "lea_recall", "lea_precision", "lea_f1", "signature"}


def test_import_paperscore_stays_light():
    from conftest import run_python

    code = "import json, sys, paperscore, paperscore.coref; print(json.dumps(sorted(m for m in ('scipy', 'evaluate', 'datasets') if m in sys.modules)))"
    assert run_python(code) == []


# ---------------------------------------------------------------------------------------
# Input errors: ValueError naming the argument, the example and the problem

BAD_INPUTS = [
    ("a", [[["a"]]], r"predictions: expected a list of examples, got a str"),
    (None, [[["a"]]], r"predictions: expected a list of examples, got NoneType"),
    ([[["a"]]], (d for d in [[["a"]]]), r"references: expected a list of examples, got generator"),
    ([[["a"]]], {"a": 1}, r"references: expected a list of examples, got dict"),
    ([[["a"]]], [[["a"]], [["b"]]], r"differ in length"),
    ([5], [[["a"]]], r"predictions\[0\]: expected a CoNLL document string or a list of clusters, got int"),
    ([[[]]], [[["a"]]], r"predictions\[0\]: cluster 0 is empty"),
    ([["a"]], [[["a"]]], r"predictions\[0\]: cluster 0 is a str, not a list of mentions"),
    ([[[1.5]]], [[["a"]]], r"predictions\[0\]: cluster 0 holds 1.5"),
    ([[[[0, 1.0]]]], [[[[0, 1]]]], r"predictions\[0\]: cluster 0 holds \[0, 1.0\]"),
    ([[[[True, 1]]]], [[[[0, 1]]]], r"predictions\[0\]: cluster 0 holds \[True, 1\]"),
    ([[[[2, 1]]]], [[[[0, 1]]]], r"0 <= start <= end"),
    ([[[[-1, 1]]]], [[[[0, 1]]]], r"0 <= start <= end"),
    ([[[[0, 1, 2]]]], [[[[0, 1]]]], r"a \[start, end\] pair"),
    ([[[[0, 1]], [[0, 2**63]]]], [[[[0, 1]]]], r"predictions\[0\]: cluster 1 holds \[0, 9223372036854775808\]: a token position must be below 2\*\*63"),
    ([[[[0, 1]]], []], [[], [[[2**64, 2**64]]]], r"references\[1\]: cluster 0 holds \[18446744073709551616, 18446744073709551616\]: a token position must be below 2\*\*63"),
    ([[["a", [0, 1]]]], [[["a"]]], r"predictions\[0\]: cluster 0 mixes mention ids and spans"),
    ([[["a"]], [[[0, 1]]]], [[["a"]], [["a"]]], r"predictions\[1\]: is clusters of \[start, end\] spans, but predictions\[0\] is clusters of mention ids"),
    ([[["a"]]], [[[[0, 1]]]], r"mention ids compare only with mention ids"),
    ([[["a"]]], ["x\t(0)\n"], r"mention ids compare only with mention ids"),
    ([[["a"]]], [[["a", "b"], ["b"]]], r"references\[0\]: mention 'b' is in two entities \(0 and 1\)"),
    ([[["a"]]], [[["a"], ["b", "b"]]], r"references\[0\]: mention 'b' is twice in entity 1"),
    ([[[[0, 1]]]], [[[[4, 6]], [[0, 0], [4, 6]]]], r"references\[0\]: mention \[4, 6\] is in two entities \(0 and 1\)"),
    (["a\t(1\nb\t-\n"], ["a\t(1)\n"], r"predictions\[0\]: a mention is opened but not closed: entity 1 \(line 1, token 0\)"),
    (["a\t-\nb\t(1)\nc\t2)\n"], ["a\t(1)\n"], r"predictions\[0\]: a mention is closed but was not opened: entity 2 \(line 3, token 2\)"),
    (["a\t(e0)\n"], ["a\t(1)\n"], r"predictions\[0\]: unreadable coreference cell '\(e0\)' \(line 1, token 0\)"),
    # the strings of a corpus are read together; an error still names its string, line and token
    (["a\t(1)\n"] * 3, ["a\t(1)\n", "#begin document x\na\t(1)\n#end document\n", "x\t-\n\ny\t(2\n"], r"references\[2\]: a mention is opened but not closed: entity 2 \(line 3, token 1\)"),
    (["#begin document x\n#end document\n#begin document y\n#end document\n"], ["a\t(1)\n"], r"predictions\[0\]: holds 2 documents"),
    (["#begin document x\na\t-\n#begin document y\n#end document\n"], ["a\t(1)\n"], r"document 'x' has no #end document before the next #begin document"),
]


@pytest.mark.parametrize("predictions, references, message", BAD_INPUTS)
def test_bad_input_is_a_value_error(predictions, references, message):
    with pytest.raises(ValueError, match=message):
        coref.compute(predictions, references)


def test_a_key_span_in_two_entities_is_an_error_even_as_a_singleton():
    with pytest.raises(ValueError, match=r"references\[0\]: mention 'b' is in two entities \(0 and 1\)"):
        coref.compute([[["a"]]], [[["b"], ["a", "b"]]], keep_singletons=False)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"metrics": ["muc", "b3"]}, r"metrics: 'b3' is not one of"),
        ({"metrics": []}, r"metrics: no metric named"),
        ({"metrics": 5}, r"metrics: expected a metric name or a list of names, got int"),
        ({"keep_singletons": "no"}, r"keep_singletons: expected True or False, got str 'no'"),
        ({"zero_division": 0.5}, r"zero_division"),
        ({"confidence_level": 1.5}, r"confidence_level"),
        ({"confidence_level": 0.9, "n_resamples": 0}, r"n_resamples"),
    ],
)
def test_bad_options_are_value_errors(options, message):
    with pytest.raises(ValueError, match=message):
        coref.compute([[["a"]]], [[["a"]]], **options)


def test_a_document_name_twice_in_a_file_is_an_error():
    text = "#begin document x\na\t(1)\n#end document\n" * 2
    with pytest.raises(ValueError, match=r"key: document 'x' occurs more than once"):
        coref.parse_conll(text, "key")


def test_a_document_name_must_be_utf8():
    with pytest.raises(ValueError, match=r"key: the document name on line 2 is not UTF-8"):
        coref.parse_conll(b"# x\n#begin document \xff\na\t(1)\n#end document\n", "key")


# ---------------------------------------------------------------------------------------
# OntoNotes jsonlines, as the e2e-coref family writes it: {"doc_key", "sentences",
# "clusters"} a line, a CoNLL document "(NAME); part N" becoming doc_key "NAME_N"
# (kentonl/e2e-coref conll.py: BEGIN_DOCUMENT_REGEX, get_doc_key). The conversions below
# are the tests' own; every figure is Perl's on the CoNLL side of the conversion.

E2E_BEGIN = re.compile(r"#begin document \((.*)\); part (\d+)")


def conll_to_jsonlines(text):
    """CoNLL documents as jsonlines objects: words from the fourth column, sentences split
    at blank lines, clusters in the reference's entity order (each cell read as it reads
    one: one-token mentions, then opens, then closes)."""
    documents = []
    for line in text.split("\n"):
        if line.startswith("#begin document"):
            match = E2E_BEGIN.match(line)
            sentences, clusters, opened, token = [[]], {}, {}, 0
        elif line.startswith("#end document"):
            documents.append({"doc_key": f"{match[1]}_{int(match[2])}", "sentences": [s for s in sentences if s], "clusters": list(clusters.values())})
        elif not line.strip():
            sentences.append([])
        elif not line.startswith("#"):
            cells = line.rstrip("\t").split("\t")
            sentences[-1].append(cells[3])
            items = [item for item in cells[-1].split("|") if "(" in item or ")" in item]
            kind = {True: 0, False: 1}  # "(N)" first, then "(N", then "N)"
            for item in sorted(items, key=lambda i: kind[i.endswith(")")] if i.startswith("(") else 2):
                number = item.strip("()")
                if item.startswith("(") and item.endswith(")"):
                    clusters.setdefault(number, []).append([token, token])
                elif item.startswith("("):
                    clusters.setdefault(number, [])
                    opened.setdefault(number, []).append(token)
                else:
                    clusters[number].append([opened[number].pop(), token])
            token += 1
    return "".join(json.dumps(document) + "\n" for document in documents)


def jsonlines_of(name, n_tokens, clusters, rng):
    """One jsonlines object: tokens w0, w1, ... in random sentences, clusters as given."""
    breaks = [t for t in range(1, n_tokens) if rng.random() < 0.2]
    bounds = [0] + breaks + [n_tokens]
    sentences = [[f"w{t}" for t in range(a, b)] for a, b in zip(bounds, bounds[1:])]
    return json.dumps({"doc_key": name, "sentences": sentences, "clusters": [[list(m) for m in c] for c in clusters]}) + "\n"


def write_forms(tmp_path, key, response):
    """{form: path} of the key and the response written as CoNLL and as jsonlines."""
    paths = {}
    for side, text in (("key", key), ("response", response)):
        for form, content in (("conll", text), ("jsonlines", conll_to_jsonlines(text))):
            paths[side, form] = tmp_path / f"{side}.{form}"
            paths[side, form].write_text(content)
    return paths


def cli_json(*argv):
    return main(["coref", *map(str, argv), "--json"])


FORMS = [("conll", "jsonlines"), ("jsonlines", "conll"), ("jsonlines", "jsonlines")]


@pytest.mark.parametrize("key_form, response_form", FORMS)
def test_litbank_as_jsonlines_equals_the_reference(key_form, response_form, tmp_path, capsys):
    """LitBank's two documents and litbank()'s responses, written as CoNLL files (the
    figures are Perl's on those files) and converted to jsonlines."""
    texts, responses = litbank()
    sizes = [sum(map(len, json.loads(conll_to_jsonlines(text))["sentences"])) for text in texts]
    names = [E2E_BEGIN.match(text)[0].removeprefix("#begin document ") for text in texts]
    response = "".join(to_conll(name, n, clusters) for name, n, clusters in zip(names, sizes, responses))
    paths = write_forms(tmp_path, "".join(texts), response)
    assert cli_json(paths["key", key_form], paths["response", response_form]) == 0
    result = json.loads(capsys.readouterr().out)
    assert_figures(result, LITBANK_FIGURES)
    assert result["missing_documents"] == result["extra_documents"] == []


# tests/benchmarks/gen_coref.py --docs 12 --clusters 12 --seed 5: Perl on the two files.
GEN_FIGURES = {"mentions": [263, 308, 263, 298], "muc": [128, 170, 128, 164], "bcub": [232.295238095238, 308, 226.19880952381, 298], "ceafm": [238, 308, 238, 298], "ceafe": [100.329642579643, 138, 100.329642579643, 134], "blanc": [254, 365, 254, 371, 2661, 3799, 2661, 3529], "lea": [202.688888888889, 308, 196.019047619048, 298]}


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    import subprocess
    import sys

    from conftest import ROOT

    prefix = tmp_path_factory.mktemp("gen") / "syn"
    subprocess.run([sys.executable, str(ROOT / "tests" / "benchmarks" / "gen_coref.py"), str(prefix), "--docs", "12", "--clusters", "12", "--seed", "5"], check=True, capture_output=True)
    return prefix.parent


@pytest.mark.parametrize("key_form, response_form", [("conll", "conll")] + FORMS)
def test_gen_coref_files_in_either_form_equal_the_reference(generated, key_form, response_form, tmp_path, capsys):
    paths = write_forms(tmp_path, (generated / "syn.key.conll").read_text(), (generated / "syn.response.conll").read_text())
    assert cli_json(paths["key", key_form], paths["response", response_form]) == 0
    assert_figures(json.loads(capsys.readouterr().out), GEN_FIGURES)


@pytest.mark.parametrize("seed", list(RANDOM)[:4])
@pytest.mark.parametrize("key_form, response_form", FORMS)
def test_random_partitions_written_as_jsonlines_equal_the_reference(seed, key_form, response_form, tmp_path, capsys):
    """random_documents written as jsonlines (response clusters in perturb's order, which
    the reader renumbers as the reference numbers their CoNLL writing), against
    random_texts's CoNLL files (the RANDOM figures)."""
    rng = random.Random(seed)
    keys, responses = random_texts(seed)
    files = {("key", "conll"): "".join(keys), ("response", "conll"): "".join(responses)}
    documents = random_documents(seed)
    files["key", "jsonlines"] = "".join(jsonlines_of(f"random_{seed}_{d}_0", n, key, rng) for d, (n, key, _) in enumerate(documents))
    files["response", "jsonlines"] = "".join(jsonlines_of(f"random_{seed}_{d}_0", n, response, rng) for d, (n, _, response) in enumerate(documents))
    for (side, form), text in files.items():
        (tmp_path / f"{side}.{form}").write_text(text)
    assert cli_json(tmp_path / f"key.{key_form}", tmp_path / f"response.{response_form}") == 0
    assert_figures(json.loads(capsys.readouterr().out), RANDOM[seed])


def test_document_key_is_e2e_corefs():
    assert coref.document_key("(bc/cctv/00/cctv_0000); part 000") == "bc/cctv/00/cctv_0000_0"
    assert coref.document_key("(nw/xinhua/00/chtb_0009); part 012") == "nw/xinhua/00/chtb_0009_12"
    assert coref.document_key("(a (b)); part 3 ") == "a (b)_3"  # as e2e-coref's greedy pattern reads it
    assert coref.document_key("plain name") == "plain name"


ONE_KEY = '{"doc_key": "bc/cctv/00/cctv_0000_0", "sentences": [["He", "said"], ["it", "."]], "clusters": [[[0, 0], [2, 2]]]}\n'


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"doc_key": "d", "sentences": [["a"]]}\n', r"line 1: the object has no clusters"),
        ('{"doc_key": "d", "sentences": [["a"]], "clusters": [[[0, 1]]]}\n', r"line 1 \(doc_key 'd'\): cluster 0 holds \[0, 1\]: ends beyond the document's 1 tokens \(span_convention='token_inclusive'\)"),
        ('{"doc_key": "d", "sentences": [["a"]], "clusters": [["a"]]}\n', r"clusters is not a list of clusters of \[start, end\] token spans"),
        ('{"doc_key": "d", "sentences": [["a", "b"]], "clusters": [[[1, 0]]]}\n', r"0 <= start <= end"),
        ('{"doc_key": 3, "sentences": [], "clusters": []}\n', r"doc_key is int, not a string"),
        ('{"doc_key": "d", "sentences": "a b", "clusters": []}\n', r"sentences is not a list of lists of tokens"),
        ('{"doc_key": "d", "sentences": [["a"], ["b", 7]], "clusters": []}\n', r"line 1 \(doc_key 'd'\): token 2 \(counted from 0 over the sentences\) is int 7, not a string"),
        ("\n" + ONE_KEY + "[1]\n", r"line 3: expected a JSON object"),
        (ONE_KEY + "{x\n", r"line 2: not JSON"),
        (ONE_KEY * 2, r"doc_key 'bc/cctv/00/cctv_0000_0' occurs more than once"),
        ("{" + "[" * 100_000 + "]" * 100_000 + "}\n", r"line 1: "),
        ('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}\n", r"line 1: JSON nested too deeply"),
    ],
)
def test_bad_jsonlines_are_value_errors_naming_file_line_and_document(content, message, tmp_path, capsys):
    (tmp_path / "response.jsonl").write_text(content)
    (tmp_path / "key.jsonl").write_text(ONE_KEY)
    assert main(["coref", str(tmp_path / "key.jsonl"), str(tmp_path / "response.jsonl")]) == 1
    err = capsys.readouterr().err
    assert re.search(r"RESPONSE: \S*response\.jsonl:? .*" + message, err), err


def test_token_counts_must_agree_and_the_message_names_the_document(tmp_path, capsys):
    (tmp_path / "key.jsonl").write_text(ONE_KEY)
    (tmp_path / "response.conll").write_text("#begin document (bc/cctv/00/cctv_0000); part 000\nx\t(1)\ny\t-\nz\t(1)\n#end document\n")
    assert main(["coref", str(tmp_path / "key.jsonl"), str(tmp_path / "response.conll")]) == 1
    err = capsys.readouterr().err
    assert "document 'bc/cctv/00/cctv_0000_0': KEY holds 4 tokens, RESPONSE 3" in err, err
    # one token more and the CoNLL name meets the doc_key: the same entity, all 1.0
    (tmp_path / "response.conll").write_text("#begin document (bc/cctv/00/cctv_0000); part 000\nx\t(1)\ny\t-\nz\t(1)\nw\t-\n#end document\n")
    assert cli_json(tmp_path / "key.jsonl", tmp_path / "response.conll") == 0
    result = json.loads(capsys.readouterr().out)
    assert result["muc_f1"] == result["ceafe_f1"] == 1.0 and result["missing_documents"] == []


# ---------------------------------------------------------------------------------------
# Command line: paperscore coref KEY RESPONSE

# Key: documents 0-3 of random_documents(11, n_docs=4); response: documents 3, 0, 2 (1 is
# missing, so empty) and an extra document that is not scored. Figures: Perl on the two files.
CLI_FIGURES = {"mentions": [11, 23, 11, 17], "muc": [6, 15, 6, 16], "bcub": [7.16666666666667, 23, 6.125, 21], "ceafm": [8, 23, 8, 21], "ceafe": [1.43571428571429, 8, 1.43571428571429, 5], "blanc": [16, 41, 16, 44, 28, 82, 28, 56], "lea": [5.28571428571429, 23, 4.78571428571429, 21]}


@pytest.fixture
def cli_files(tmp_path):
    documents = random_documents(11, n_docs=4)
    names = [f"(cli_{d}); part 000" for d in range(4)]
    key = "".join(to_conll(name, *doc[:2]) for name, doc in zip(names, documents))
    response = "".join(to_conll(names[d], documents[d][0], documents[d][2]) for d in (3, 0, 2))
    response += to_conll("(extra); part 000", 5, [[(0, 0), (1, 1)]])
    (tmp_path / "key.conll").write_text(key)
    (tmp_path / "response.conll").write_text(response)
    return str(tmp_path / "key.conll"), str(tmp_path / "response.conll")


def test_cli_scores_the_key_documents_by_name(cli_files, capsys):
    assert main(["coref", *cli_files, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert_figures(result, CLI_FIGURES)
    assert result["signature"].startswith("coref_conll|metrics:mentions,muc,bcub,ceafm,ceafe,blanc,lea|")


def test_cli_lists_missing_and_extra_documents_and_strict_refuses_them(cli_files, capsys):
    assert main(["coref", *cli_files, "--json"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert result["missing_documents"] == ["(cli_1); part 000"] and result["extra_documents"] == ["(extra); part 000"]
    assert "RESPONSE: lacks 1 key document(s), scored as empty as scorer.pl does: '(cli_1); part 000'" in captured.err
    assert "RESPONSE: holds 1 document(s) not in the key, not scored: '(extra); part 000'" in captured.err
    assert main(["coref", *cli_files]) == 0
    assert "missing documents: '(cli_1); part 000'" in capsys.readouterr().out
    assert main(["coref", *cli_files, "--strict"]) == 1
    assert re.search(r"error: RESPONSE: lacks 1 key document.*\(--strict\)", capsys.readouterr().err)
    # a key against itself: nothing to say
    assert main(["coref", cli_files[0], cli_files[0], "--strict", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["missing_documents"] == [] and captured.err == ""


def test_cli_names_differing_only_in_part_do_not_match_between_conll_files(tmp_path, capsys):
    """scorer.pl matches whole names: "part 0" is not "part 000" (nothing is scored)."""
    (tmp_path / "key").write_text("#begin document (d); part 000\nx\t(1)\ny\t(1)\n#end document\n")
    (tmp_path / "response").write_text("#begin document (d); part 0\nx\t(1)\ny\t(1)\n#end document\n")
    assert cli_json(tmp_path / "key", tmp_path / "response") == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert result["muc_recall"] == 0 and result["missing_documents"] == ["(d); part 000"] and result["extra_documents"] == ["(d); part 0"]
    assert "'(d); part 000'" in captured.err


@pytest.mark.parametrize(
    "content, found",
    [
        ("", "is empty"),
        ("x\t(1)\ny\t(1)\n", "holds no document: no #begin document line, and not jsonlines"),  # lost #begin lines
        ("plain text, not coreference\n", "holds no document"),
    ],
)
@pytest.mark.parametrize("side", ["KEY", "RESPONSE"])
def test_a_file_without_documents_is_an_error_naming_it(cli_files, content, found, side, tmp_path, capsys):
    (tmp_path / "bad.txt").write_text(content)
    files = [str(tmp_path / "bad.txt"), cli_files[1]] if side == "KEY" else [cli_files[0], str(tmp_path / "bad.txt")]
    assert main(["coref", *files]) == 1
    assert f"error: {side}: {tmp_path / 'bad.txt'} {found}" in capsys.readouterr().err
    with pytest.raises(ValueError, match=f"KEY: {re.escape(str(tmp_path / 'bad.txt'))} {found}"):
        coref.read_documents(tmp_path / "bad.txt", "KEY")


def test_cli_reads_standard_input_and_drops_a_byte_order_mark(cli_files, tmp_path, capsys, monkeypatch):
    import io
    import sys

    data = b"\xef\xbb\xbf" + open(cli_files[1], "rb").read()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["coref", cli_files[0], "-", "--json"]) == 0
    assert_figures(json.loads(capsys.readouterr().out), CLI_FIGURES)
    assert main(["coref", "-", "-"]) == 1
    assert "only one file can be read from standard input" in capsys.readouterr().err


def test_cli_table_prints_numerators_and_denominators(cli_files, capsys):
    assert main(["coref", *cli_files]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^bcub\s+recall\s+0\.3115942028985507\d*\s+7\.1666666666666\d*\s+23$", out, re.M), out
    assert re.search(r"^blanc\s+non_coreference_precision\s+0\.5\s+28\s+56$", out, re.M), out
    assert re.search(r"^conll\s+f1\s+0\.\d+$", out, re.M) and "signature: coref_conll|" in out


def test_cli_one_metric_and_per_document(cli_files, capsys):
    assert main(["coref", *cli_files, "--metric", "muc", "--per-document", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result["counts"]) == {"mentions", "muc"}
    assert_figures(result, {"muc": CLI_FIGURES["muc"]})
    assert [d["document"] for d in result["per_document"]] == [f"(cli_{d}); part 000" for d in range(4)]
    assert result["per_document"][1]["muc_recall"] == 0  # its response document is missing


def test_cli_remove_singletons_and_bootstrap(cli_files, capsys):
    assert main(["coref", *cli_files, "--remove-singletons", "--confidence-level", "0.9", "--seed", "1", "--n-resamples", "100", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert "keep_singletons:no" in result["signature"] and "conll_f1_low" in result


@pytest.mark.parametrize(
    "content, message",
    [
        (None, r"KEY: cannot read .*: No such file"),
        ("#begin document (cli_0); part 000\na\t(3\n#end document\n", r"key\.conll document '\(cli_0\); part 000': a mention is opened but not closed: entity 3 \(line 2, token 0\)"),
    ],
)
def test_cli_errors_exit_1_with_the_message(cli_files, content, message, capsys, tmp_path):
    key = cli_files[0]
    if content is None:
        key = str(tmp_path / "missing.conll")
    else:
        (tmp_path / "key.conll").write_text(content)
    assert main(["coref", key, cli_files[1]]) == 1
    assert re.search(message, capsys.readouterr().err)


# ---------------------------------------------------------------------------------------
# Through evaluate: every document is checked, and stored in the feature of its form
# (evaluate alone picks a feature from the first document and would store the span [0, 1]
# as the mention id "[0, 1]").


@pytest.fixture(scope="module")
def metric():
    import evaluate
    from conftest import SPACES_DIR

    return evaluate.load(str(SPACES_DIR / "coref_conll"), keep_in_memory=True)


def test_evaluate_stores_each_form_as_it_is(metric):
    spans = [[[[0, 1], [3, 3]], [[5, 5]]]]
    ids = [[["0-1", "3-3"], ["5-5"]]]
    expected = coref.compute(spans, spans)
    assert metric.compute(predictions=spans, references=spans) == expected
    assert metric.compute(predictions=ids, references=ids) == expected
    # an empty first document does not decide the feature
    assert metric.compute(predictions=[[]] + spans, references=[[]] + spans) == coref.compute([[]] + spans, [[]] + spans)
    text = to_conll("d", 6, [[(0, 1), (3, 3)], [(5, 5)]])
    assert metric.compute(predictions=spans, references=[text]) == expected
    assert metric.compute(predictions=[text], references=spans) == expected
    for document in spans + [[]]:
        metric.add(prediction=document, reference=document)
    assert metric.compute() == coref.compute(spans + [[]], spans + [[]])


@pytest.mark.parametrize(
    "first, then, message",
    [
        ([[["a"]]], [[[[0, 1]]]], r"predictions: this batch is clusters of \[start, end\] spans, but earlier batches were clusters of mention ids"),
        (["w\t(1)\n"], [[]], r"predictions: this batch is lists without clusters, but earlier batches were a CoNLL document"),
    ],
)
def test_evaluate_batches_keep_their_form(metric, first, then, message):
    metric.add_batch(predictions=first, references=first)
    with pytest.raises(ValueError, match=message):
        metric.add_batch(predictions=then, references=then)
    metric.compute()  # the first batch is still scored


def test_the_metric_script_takes_exactly_the_package_arguments(metric):
    import inspect

    parameters = list(inspect.signature(type(metric)._compute).parameters.values())[1:]
    assert parameters == list(inspect.signature(coref.compute).parameters.values())


def test_the_space_reads_jsonlines_lines_their_conventions_and_coval_options(metric, coval_inputs):
    """Through evaluate: a jsonlines line against itself gives 1 (it once gave 0); a
    predict.py line is read from predicted_clusters (B3 recall 1/2, precision 1, as by
    hand above); end-exclusive jsonlines with span_convention; coval's options equal to
    coval run in place."""
    assert metric.compute(predictions=[LINE], references=[LINE])["conll_f1"] == 1.0
    result = metric.compute(predictions=[PREDICTED], references=[PREDICTED])
    assert (result["bcub_recall"], result["bcub_precision"]) == (0.5, 1.0)
    exclusive = json.dumps({"doc_key": "x_0", "sentences": [["a", "b", "c"]], "clusters": [[[0, 1], [2, 3]]]})
    assert metric.compute(predictions=[exclusive], references=[LINE], span_convention=("token_exclusive", "token_inclusive"))["conll_f1"] == 1.0
    keys, responses, _ = coval_inputs["parsed"]
    label = "remove_nested,NP_only,min_span"
    result = metric.compute(predictions=responses, references=keys, metrics=["mentions", "muc", "bcub", "ceafe", "lea"], return_counts=True, **_coval_options(label))
    assert_figures(result, COVAL["figures"]["parsed"][label])


@pytest.mark.parametrize("predictions", [[[[[0, 1.5]]]], [[["a", 1]]], [[[[0, True]]]]])
def test_evaluate_rejects_what_it_would_coerce(metric, predictions):
    with pytest.raises(ValueError, match=r"predictions\[0\]: cluster 0"):
        metric.compute(predictions=predictions, references=[[[[0, 1]]]])


# ---------------------------------------------------------------------------------------
# Configurations (evaluate.load(..., config_name=...)) and the demo's files and limits


@pytest.mark.parametrize(
    "config, expected",
    [
        # RANDOM[0] (Perl): MUC 7/11 and 7/16, B3 12.75/19 and 12/31, CEAFe 5.2333/8 and 5.2333/15
        ("conll", {"muc_recall": 7 / 11, "muc_precision": 7 / 16, "bcub_recall": 12.75 / 19, "ceafe_precision": 5.23333333333333 / 15}),
        ("scorer_pl", {"mentions_precision": 16 / 26, "ceafm_recall": 14 / 19, "blanc_precision": (9 / 24 + 36 / 93) / 2}),
    ],
)
def test_configs_are_the_named_metric_sets(config, expected):
    import evaluate
    from conftest import SPACES_DIR

    metric = evaluate.load(str(SPACES_DIR / "coref_conll"), config_name=config, keep_in_memory=True)
    keys, responses = random_texts(0)
    result = metric.compute(predictions=responses, references=keys)
    names = {"conll": ["muc", "bcub", "ceafe"], "scorer_pl": ["mentions", "muc", "bcub", "ceafm", "ceafe", "blanc"]}[config]
    assert {k.rsplit("_", 1)[0] for k in result} == set(names) | {"conll"} - ({"conll"} if "muc" not in names else set())
    assert result == pytest.approx({**result, **expected}, abs=1e-12)


def test_config_without_singletons():
    """The card's hand-derived example: key {[0,1] [4,4]} {[6,6]}, response {[0,1] [4,4]
    [8,9]}; without singletons MUC P 1/2, B3 P (2/3 + 2/3 + 0)/3, LEA P 1/3."""
    import evaluate
    from conftest import SPACES_DIR

    metric = evaluate.load(str(SPACES_DIR / "coref_conll"), config_name="without_singletons", keep_in_memory=True)
    result = metric.compute(predictions=[[[[0, 1], [4, 4], [8, 9]]]], references=[[[[0, 1], [4, 4]], [[6, 6]]]])
    assert (result["muc_precision"], result["bcub_precision"], result["lea_precision"]) == pytest.approx((1 / 2, 4 / 9, 1 / 3), abs=1e-12)
    with pytest.raises(ValueError, match="'conll2012' is not a configuration of this metric .*'conll', 'scorer_pl', 'without_singletons'"):
        evaluate.load(str(SPACES_DIR / "coref_conll"), config_name="conll2012")


@pytest.fixture(scope="module")
def app():
    import importlib.util

    from conftest import SPACES_DIR

    spec = importlib.util.spec_from_file_location("app_coref_conll_files", SPACES_DIR / "coref_conll" / "app.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def demo(app, predictions="", references="", key_file=None, response_file=None, document=1):
    return app.score(predictions, references, key_file and str(key_file), response_file and str(response_file), True, "0", document)


def test_demo_scores_uploaded_files_in_either_form(app, tmp_path):
    """LitBank's key as CoNLL, litbank()'s responses as jsonlines: Perl's LITBANK_FIGURES;
    with the first response document removed it is listed as missing (and an extra one)."""
    texts, responses = litbank()
    sizes = [sum(map(len, json.loads(conll_to_jsonlines(text))["sentences"])) for text in texts]
    names = [E2E_BEGIN.match(text)[0].removeprefix("#begin document ") for text in texts]
    (tmp_path / "key.conll").write_text("".join(texts))
    response = conll_to_jsonlines("".join(to_conll(n, size, c) for n, size, c in zip(names, sizes, responses)))
    (tmp_path / "response.jsonl").write_text(response)
    headline, table, key_html, _ = demo(app, key_file=tmp_path / "key.conll", response_file=tmp_path / "response.jsonl")
    f = LITBANK_FIGURES
    assert headline["muc_recall"] == pytest.approx(f["muc"][0] / f["muc"][1], abs=1e-12)
    assert headline["bcub_precision"] == pytest.approx(f["bcub"][2] / f["bcub"][3], abs=1e-9)
    assert headline["missing_documents"] == headline["extra_documents"] == []
    assert "document (158_emma_brat); part 0 (1 of 2)" in key_html
    lines = response.splitlines()
    (tmp_path / "response.jsonl").write_text(lines[1] + "\n" + lines[0].replace("158_emma_brat_0", "other_0") + "\n")
    headline = demo(app, key_file=tmp_path / "key.conll", response_file=tmp_path / "response.jsonl")[0]
    assert headline["missing_documents"] == ["(158_emma_brat); part 0"] and headline["extra_documents"] == ["other_0"]
    # a file in a text box works too (one document a side is a pair, whatever the names)
    one = demo(app, predictions=lines[1] + "\n", references=texts[1])[0]
    assert one["missing_documents"] == [] and 0 < one["muc_recall"] < 1


def test_demo_reads_jsonlines_spans_in_the_chosen_convention(app, tmp_path):
    """The Masque document's key as CoNLL, its own clusters as an end-exclusive jsonlines
    response (wl-coref's shape): token_exclusive reads the key itself (every figure 1);
    the default would read every end one token later, and is refused, naming the
    convention that fits; the check follows the convention: [e, e] is no end-exclusive
    span, [s, n_tokens] no inclusive one."""
    import gradio as gr

    text = (LITBANK / LITBANK_FILES[1]).read_text(encoding="utf-8")
    line = json.loads(conll_to_jsonlines(text))
    line["clusters"] = [[[s, e + 1] for s, e in cluster] for cluster in line["clusters"]]
    (tmp_path / "key.conll").write_text(text)
    (tmp_path / "response.jsonl").write_text(json.dumps(line) + "\n")
    files = dict(key_file=str(tmp_path / "key.conll"), response_file=str(tmp_path / "response.jsonl"))
    exclusive = app.score("", "", **files, span_convention="token_exclusive")
    assert all(v == 1.0 for k, v in exclusive[0].items() if isinstance(v, float)) and exclusive[0]["conll_f1"] == 1.0
    with pytest.raises(gr.Error, match=r"predictions \(document 1\) cluster 0 holds one that only 'token_exclusive' makes a key mention\): they are written in 'token_exclusive'"):
        app.score("", "", **files)
    n_tokens = sum(map(len, line["sentences"]))
    for clusters, convention, message in [
        ([[[3, 3]]], "token_exclusive", "cluster 0 holds [3, 3]: an end-exclusive span needs end &gt; start (span_convention='token_exclusive')"),
        ([[[0, 0]], [[5, n_tokens]]], "token_inclusive", f"cluster 1 holds [5, {n_tokens}]: ends beyond the document's {n_tokens} tokens (span_convention='token_inclusive')"),
    ]:
        (tmp_path / "response.jsonl").write_text(json.dumps({**line, "clusters": clusters}) + "\n")
        with pytest.raises(gr.Error, match=re.escape(message)):
            app.score("", "", **files, span_convention=convention)
    (tmp_path / "response.jsonl").write_text(json.dumps({**line, "clusters": [[[5, n_tokens]]]}) + "\n")
    assert app.score("", "", **files, span_convention="token_exclusive")[0]["conll_f1"] < 1  # the last token: accepted
    # JSON clusters in a text box are token_inclusive: another choice is refused
    with pytest.raises(gr.Error, match=re.escape("references: span_convention='token_exclusive' applies to jsonlines input")):
        app.score("[[[0, 1]]]", "[[[0, 0]]]", span_convention="token_exclusive")


def test_jsonlines_strings_follow_span_convention():
    """compute()'s jsonlines lines: [0, 2] end-exclusive and [0, 12] characters of
    "Barack Obama is here" are the tokens [0, 1]."""
    words = ["Barack", "Obama", "is", "here"]
    key = json.dumps({"doc_key": "d", "sentences": [words], "clusters": [[[0, 1], [3, 3]]]})
    for convention, clusters in [("token_exclusive", [[[0, 2], [3, 4]]]), ("char_exclusive", [[[0, 12], [16, 20]]]), ("char_inclusive", [[[0, 11], [16, 19]]])]:
        response = json.dumps({"doc_key": "d", "sentences": [words], "clusters": clusters})
        assert coref.compute([response], [key], span_convention=(convention, "token_inclusive"))["conll_f1"] == 1.0
    with pytest.raises(ValueError, match=re.escape("predictions[0] line 1 (doc_key 'd'): cluster 0 holds [0, 10]: characters 'Barack Obam' do not begin and end at token boundaries")):
        coref.compute([json.dumps({"doc_key": "d", "sentences": [words], "clusters": [[[0, 10]]]})], [key], span_convention=("char_inclusive", "token_inclusive"))


def test_demo_draws_the_document_picked(app, tmp_path):
    """Two LitBank documents uploaded: document 2 draws the second one (its name, its first
    words, its entities), the scores still cover both; a number outside 1..2 is refused."""
    import gradio as gr

    texts, _ = litbank()
    (tmp_path / "key.conll").write_text("".join(texts))
    names = [E2E_BEGIN.match(text)[0].removeprefix("#begin document ") for text in texts]
    words = [[line.split("\t")[3] for line in text.splitlines()[1:6] if line.strip()] for text in texts]
    first = demo(app, key_file=tmp_path / "key.conll", response_file=tmp_path / "key.conll")
    second = demo(app, key_file=tmp_path / "key.conll", response_file=tmp_path / "key.conll", document=2.0)
    assert first[0] == second[0] and second[0]["conll_f1"] == 1.0
    assert f"document {names[1]} (2 of 2)" in second[2] and f"document {names[1]} (2 of 2)" in second[3]
    assert names[0] not in second[2] and names[0] in first[2]
    drawn = re.sub(r"<[^>]*>|\[|\]", " ", second[2].split("</h3>", 1)[1]).split()
    assert [w for w in drawn if not w.isdigit()][:4] == [html.escape(w) for w in words[1] if not w.isdigit()][:4] != words[0][:4]
    for bad in (0, 3, 1.5, None):
        with pytest.raises(gr.Error, match=r"document: .* is not a document number from 1 to 2"):
            demo(app, key_file=tmp_path / "key.conll", response_file=tmp_path / "key.conll", document=bad)


@pytest.mark.parametrize(
    "inputs, message",
    [
        ({"predictions": "[[[0, 99999]]]", "references": "[[[0, 100000]]]"}, "references: a document reaches token 100,000, beyond the demo's limit of 100,000 tokens"),
        ({"predictions": json.dumps([[[i, i] for i in range(20_001)]]), "references": "[]"}, "predictions: 20,001 mentions, beyond the demo's limit of 20,000"),
        ({"predictions": "[" * 100_000 + "]" * 100_000, "references": "[]"}, "predictions: JSON nested too deeply"),
        ({"predictions": " " * 1_000_001, "references": "[]"}, "predictions: the text is longer than the demo's limit of 1,000,000 characters"),
        ({"predictions": "[[[0, 0]]]", "references": "x\t(1)\n"}, None),
        # 20,000 singleton entities a side, at the limit (once a dense 20,000 x 20,000 CEAF matrix)
        ({"predictions": json.dumps([[[i, i]] for i in range(20_000)]), "references": json.dumps([[[i, i]] for i in range(20_000)])}, None),
    ],
)
def test_demo_limits_are_refused_before_the_work(app, inputs, message):
    import gradio as gr

    if message is None:  # within the limits
        assert demo(app, **inputs)[0]["bcub_recall"] == 1.0
        return
    with pytest.raises(gr.Error, match=re.escape(message)):
        demo(app, **inputs)


def test_demo_refuses_a_large_upload_and_escapes_words(app, tmp_path):
    import gradio as gr

    (tmp_path / "big.conll").write_text("#begin document d\n" + "x\t-\n" * 400_000 + "#end document\n")
    with pytest.raises(gr.Error, match=r"references: the file is larger than the demo's limit of 1,000,000 bytes"):
        demo(app, predictions="[]", key_file=tmp_path / "big.conll")
    hostile = '{"doc_key": "<b>d</b>", "sentences": [["<img src=x onerror=alert(1)>", "it"]], "clusters": [[[0, 0], [1, 1]]]}\n'
    (tmp_path / "k.jsonl").write_text(hostile)
    _, _, key_html, response_html = demo(app, predictions="[[[0, 0], [1, 1]]]", key_file=tmp_path / "k.jsonl")
    assert "<img" not in key_html and "&lt;img src=x" in key_html and "<b>d</b>" not in key_html


def test_demo_says_when_plain_prose_is_no_format_it_reads(app):
    import gradio as gr

    with pytest.raises(gr.Error, match=r"predictions: the format was not recognised: give CoNLL lines"):
        demo(app, predictions="The cat sat on the mat. It was happy.", references="x\t(1)\n")
    # a CoNLL line without tabs that holds a mention is still CoNLL
    assert demo(app, predictions="(1)\n", references="x\t(1)\n")[0]["bcub_f1"] == 1.0


def test_a_tiny_file_is_scored_without_importing_scipy(tmp_path):
    """Only a component with two entities on each side needs scipy's alignment."""
    from conftest import run_python

    code = (
        "import json, sys; from paperscore.cli import main; "
        "open('tiny.conll', 'w').write('#begin document d\\nw\\t(0)\\nw\\t-\\nw\\t(0\\nw\\t0)\\n#end document\\n'); "
        "main(['coref', 'tiny.conll', 'tiny.conll', '--json']); print(json.dumps(sorted(m for m in sys.modules if m.startswith('scipy'))))"
    )
    assert run_python(code, cwd=tmp_path) == []


def test_demo_refuses_jsonlines_tokens_that_are_not_strings(app, tmp_path):
    import gradio as gr

    (tmp_path / "k.jsonl").write_text('{"doc_key": "d", "sentences": [[1, 2]], "clusters": [[[0, 0], [1, 1]]]}\n')
    with pytest.raises(gr.Error, match=r"references file k.jsonl line 1 \(doc_key 'd'\): token 0 \(counted from 0 over the sentences\) is int 1, not a string"):
        demo(app, predictions="[[[0, 0], [1, 1]]]", key_file=tmp_path / "k.jsonl")


def test_the_committed_jsonlines_file_is_the_conversion_of_its_conll_file():
    """tests/data/coref_conll/158_emma_brat.jsonlines (the README's jsonlines command) is
    conll_to_jsonlines of the LitBank file beside it."""
    text = (LITBANK / "158_emma_brat.conll").read_text(encoding="utf-8")
    assert (LITBANK / "158_emma_brat.jsonlines").read_text(encoding="utf-8") == conll_to_jsonlines(text)


# ---------------------------------------------------------------------------------------
# coval's remove_nested, NP_only and min_span. Figures: ns-moosavi/coval (87071a6) run in
# place from a scratch copy by tests/coref_coval_fixtures.py on its inputs (see
# tests/data/coref_coval/README.md).

COVAL = json.loads((DATA / "coref_coval" / "expected.json").read_text())
COVAL_CASES = [(name, label) for name, figures in COVAL["figures"].items() for label in figures]


@pytest.fixture(scope="module")
def coval_inputs():
    """{set name: (key texts, response clusters)} of the fixture's inputs."""
    import coref_coval_fixtures as fixtures

    parsed = COVAL["inputs"]["parsed"]
    documents = fixtures.parsed_documents()
    keys = [fixtures.conll_document(name, sentences, parsed["keys"][name]) for name, sentences, _, _ in documents]
    litbank = fixtures.litbank_documents()
    return {
        "parsed": (keys, [parsed["responses"][name] for name, *_ in documents], documents),
        "litbank": ([text for _, text, _ in litbank], [COVAL["inputs"]["litbank"]["responses"][name] for name, _, _ in litbank], None),
    }


def _coval_options(label):
    names = label.split(",")
    return dict(keep_singletons="remove_singletons" not in names, **{name: name in names for name in coref.MENTION_OPTIONS})


@pytest.mark.parametrize("name, label", COVAL_CASES)
def test_coval_options_equal_coval_run_in_place(coval_inputs, name, label):
    keys, responses, _ = coval_inputs[name]
    result = coref.compute(responses, keys, metrics=["mentions", "muc", "bcub", "ceafe", "lea"], return_counts=True, **_coval_options(label))
    assert_figures(result, COVAL["figures"][name][label])


def test_coval_options_change_the_figures_they_are_checked_on(coval_inputs):
    """The fixture exercises each option: each changes the parsed set's figures."""
    keys, responses, _ = coval_inputs["parsed"]
    plain = counts(coref.compute(responses, keys, metrics=["mentions", "muc"], return_counts=True))
    for label in ("remove_nested", "NP_only", "min_span"):
        assert plain != {m: COVAL["figures"]["parsed"][label][m] for m in ("mentions", "muc")}, label


def test_coval_options_on_the_command_line(coval_inputs, tmp_path, capsys):
    import coref_coval_fixtures as fixtures

    keys, responses, documents = coval_inputs["parsed"]
    (tmp_path / "key").write_text("".join(keys))
    (tmp_path / "response").write_text("".join(fixtures.conll_document(name, sentences, r) for (name, sentences, _, _), r in zip(documents, responses)))
    paths = [str(tmp_path / "key"), str(tmp_path / "response")]
    assert main(["coref", *paths, "--remove-nested", "--min-span", "--np-only", "--remove-singletons", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert_figures(result, COVAL["figures"]["parsed"]["remove_nested,NP_only,min_span,remove_singletons"])
    assert result["signature"].startswith("coref_conll|metrics:mentions,muc,bcub,ceafm,ceafe,blanc,lea|keep_singletons:no|remove_nested:yes|NP_only:yes|min_span:yes|")
    # LitBank has no parse trees: refused, naming the document and the line
    litbank = str(LITBANK / LITBANK_FILES[0])
    assert main(["coref", litbank, litbank, "--np-only"]) == 1
    assert "document '(158_emma_brat); part 0': NP_only and min_span need the key's parse trees (CoNLL column 6, such as '(NP*'); line 2 has '_'" in capsys.readouterr().err


# "The dog of the king barked ." with its parse: by coval's rules (mention.py) the minimum
# span of [0, 4] "The dog of the king" is the terminal "The dog" at 1 (the NP inside the
# outer NP; the PP is not searched), the same as that of [0, 1] "The dog"; [3, 4] "the
# king" is itself; [5, 5] "barked" is a VP.
KING = ([("The", "DT", "(TOP(S(NP(NP*"), ("dog", "NN", "*)"), ("of", "IN", "(PP*"), ("the", "DT", "(NP*"), ("king", "NN", "*)))"), ("barked", "VBD", "(VP*)"), (".", ".", "*))")],)


def king(clusters):
    import coref_coval_fixtures as fixtures

    return fixtures.conll_document("king", [tuple(map(list, zip(*sentence))) for sentence in KING], clusters)


def coval_counts(predictions, references, metrics, **options):
    return counts(coref.compute(predictions, references, metrics=metrics, return_counts=True, **options))


def test_min_span_and_np_only_by_hand():
    key = king([[[0, 4]], [[3, 4]], [[5, 5]]])
    response = [[[0, 1]], [[3, 4]], [[5, 5]]]
    # spans: [3, 4] and [5, 5] found of 3 each way
    assert coval_counts([response], [key], metrics=["mentions"])["mentions"] == [2, 3, 2, 3]
    # min_span: [0, 1] is [0, 4]
    assert coval_counts([response], [key], metrics=["mentions"], min_span=True)["mentions"] == [3, 3, 3, 3]
    # NP_only: the VP singleton goes from both sides
    assert coval_counts([response], [key], metrics=["mentions"], NP_only=True)["mentions"] == [1, 2, 1, 2]
    # a chain that loses its VP keeps the rest when two or more are left (the key's
    # [0, 4], [3, 4]: 2 mentions, 1 MUC link), else goes (the response's [0, 4]: nothing left)
    key = king([[[0, 4], [3, 4], [5, 5]]])
    assert coval_counts([[[[0, 4], [5, 5]]]], [key], metrics=["mentions", "muc"], NP_only=True) == {"mentions": [0, 2, 0, 0], "muc": [0, 1, 0, 0]}


def test_remove_nested_by_hand():
    # [1, 2] inside [0, 3] in one entity: removing it would leave one mention, so the
    # entity stays whole (keep_singletons) or goes (keep_singletons=False)
    nested = [[[0, 3], [1, 2]]]
    assert coval_counts([nested], [nested], metrics=["mentions", "muc"], remove_nested=True) == {"mentions": [2, 2, 2, 2], "muc": [1, 1, 1, 1]}
    assert coval_counts([nested], [nested], metrics=["mentions", "muc"], remove_nested=True, keep_singletons=False) == {"mentions": [0, 0, 0, 0], "muc": [0, 0, 0, 0]}
    # A=[0,5] > B=[1,4] > C=[2,3], D=[7,7]: pairs mark B (in A), C (in A), C (in B): three
    # marks on four mentions "leave one", so the key stays whole: against {A, D} MUC recall
    # (4 - 3 parts) / 3 = 1/3, precision 1/1
    key = [[[0, 5], [1, 4], [2, 3], [7, 7]]]
    assert coval_counts([[[[0, 5], [7, 7]]]], [key], metrics=["muc"], remove_nested=True)["muc"] == [1, 3, 1, 1]
    # A > B > C alone: three marks on three mentions; B and C go and A stays, a singleton
    # even under keep_singletons=False (coval removes singletons before nested mentions)
    three = [[[0, 5], [1, 4], [2, 3]]]
    assert coval_counts([three], [three], metrics=["mentions", "bcub"], remove_nested=True, keep_singletons=False) == {"mentions": [1, 1, 1, 1], "bcub": [1, 1, 1, 1]}


@pytest.mark.parametrize(
    "predictions, references, options, message",
    [
        ([[[[0, 1]]]], [[[[0, 1]]]], {"NP_only": True}, r"references\[0\]: NP_only and min_span need the key's parse trees: give each reference as a CoNLL document string"),
        ([LINE], [LINE], {"min_span": True}, r"references\[0\]: NP_only and min_span need the key's parse trees"),
        ([[[[0, 1]]]], ["#begin document (x); part 0\nx\t0\t0\tw\t_\t_\t(0\nx\t0\t1\tw\t_\t_\t0)\n#end document\n"], {"NP_only": True}, r"references\[0\] document '\(x\); part 0': NP_only and min_span need the key's parse trees \(CoNLL column 6, such as '\(NP\*'\); line 2 has '_'"),
        ([[[[0, 1]]]], [king([[[0, 4]], [[0, 1]]])], {"min_span": True}, r"references\[0\]: mentions \[0, 4\] and \[0, 1\] have the same minimum span"),
        ([[[[0, 1]]]], [king([[[0, 4]]])], {"remove_nested": "yes"}, r"remove_nested: expected True or False, got str 'yes'"),
        ([[["a", "b"]]], [[["a", "b"]]], {"remove_nested": True}, r"remove_nested: coval's options read mentions as token spans, not mention ids"),
        ([[[[0, 1]]]], [king([[[0, 4]]])], {"remove_nested": True, "convention": "e2e_coref"}, r"remove_nested: coval's options apply to convention='scorer_pl' only"),
    ],
)
def test_coval_options_refuse_what_they_cannot_read(predictions, references, options, message):
    with pytest.raises(ValueError, match=message):
        coref.compute(predictions, references, **options)


def test_np_only_refuses_a_mention_across_sentences():
    import coref_coval_fixtures as fixtures

    sentence = tuple(map(list, zip(*KING[0])))
    key = fixtures.conll_document("two", [sentence, sentence], [[[5, 8]]])
    with pytest.raises(ValueError, match=r"references\[0\]: cluster 0 holds \[5, 8\], which crosses a sentence boundary"):
        coref.compute([[[[5, 8]]]], [key], NP_only=True)
