"""quad_match's numbers the straightforward way, one sample at a time in plain Python,
written from the definitions in the metric card (not from shared/paperscore/quad.py): the
tests' second opinion on the batched path at users' sizes.

Per sample (the reference with the highest sample score when there are several, ties to
the first): S, the total degree of the best one-to-one matching of predicted to reference
quads; n and m, the quad counts; the exact hits and exact counts under the duplicate rule;
the sample score S / max(n, m) (1 when both sides are empty). Every figure is a ratio of
sums of these over the corpus.

Tokens for ROUGE-L: each CJK character (Han, kana, Hangul: the code point ranges below) is
one token, each run of other letters and digits (str.isalnum) another; anything else only
separates. ROUGE-L F1 by a plain LCS table, as rouge-score computes it: P = lcs / len(a),
R = lcs / len(b), F = 2PR / (P + R), 0 without a common token; identical strings 1.
"""

import itertools
import math
from collections import Counter
from functools import lru_cache

CJK = ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0x20000, 0x2FA1F))
NAMES = ("target", "opinion", "aspect", "polarity")
FREE_TEXT = "01"  # target and opinion are compared by ROUGE-L; aspect and polarity exactly


def is_cjk(char):
    return any(low <= ord(char) <= high for low, high in CJK)


@lru_cache(maxsize=None)
def tokens(text):
    out, run = [], ""
    for char in text:
        if is_cjk(char) or not char.isalnum():
            if run:
                out.append(run)
                run = ""
            if is_cjk(char):
                out.append(char)
        else:
            run += char
    if run:
        out.append(run)
    return tuple(out)


def lcs(a, b):
    row = [0] * (len(b) + 1)
    for x in a:
        previous_diagonal = 0
        for j, y in enumerate(b, 1):
            previous_diagonal, row[j] = row[j], previous_diagonal + 1 if x == y else max(row[j], row[j - 1])
    return row[-1]


@lru_cache(maxsize=None)
def rouge_l(a, b):
    if a == b:
        return 1.0
    ta, tb = tokens(a), tokens(b)
    common = lcs(ta, tb)
    if common == 0:
        return 0.0
    precision, recall = common / len(ta), common / len(tb)
    return 2 * precision * recall / (precision + recall)


def span_element(value, spans):
    """A span-index quad's target or opinion: the pair (start, end) with the end exclusive
    (an inclusive end plus one), so that equal spans are equal; NULL when implicit (null or
    [-1, -1])."""
    if value is None or list(value) == [-1, -1]:
        return "NULL"
    start, end = (int(v) for v in value)
    return (start, end + 1 if spans == "inclusive" else end)


def parse(example, tuple_len, sep1=" & ", sep2=" | ", spans=None):
    """A sample's quads as tuples of stripped strings. A string: split on sep1, then sep2;
    a blank one has none. Data: a list per quad in tuple_len order, or an object (a missing
    key an empty element); a null or empty target or opinion is NULL. spans: the target
    and opinion are token spans (span_element)."""
    if isinstance(example, str):
        if not example.strip():
            return []
        return [tuple(e.strip() for e in piece.split(sep2)) for piece in example.split(sep1)]
    quads = []
    for quad in example:
        values = [quad.get(NAMES[int(code)]) for code in tuple_len] if isinstance(quad, dict) else list(quad)
        if spans:
            quads.append(tuple(span_element(v, spans) if i < len(tuple_len) and tuple_len[i] in FREE_TEXT else (v or "").strip() for i, v in enumerate(values)))
            continue
        values = [(v or "").strip() for v in values]
        quads.append(tuple("NULL" if i < len(tuple_len) and tuple_len[i] in FREE_TEXT and not v else v for i, v in enumerate(values)))
    return quads


def well_formed(quad, tuple_len):
    return len(quad) == len(tuple_len) and "" not in quad


def degree(p, r, tuple_len, weights, similarity):
    if not well_formed(p, tuple_len):
        return 0.0
    total = 0.0
    for k, (code, a, b) in enumerate(zip(tuple_len, p, r)):
        s = rouge_l(a, b) if similarity == "rouge_l" and code in FREE_TEXT else float(a == b)
        total += weights[int(code)] * s
    return total / sum(weights[int(code)] for code in tuple_len)


def best_total(matrix):
    """The largest total of a one-to-one matching: every injection of the shorter side
    when there are few, else the Hungarian algorithm."""
    if not matrix or not matrix[0]:
        return 0.0
    n, m = len(matrix), len(matrix[0])
    if math.perm(max(n, m), min(n, m)) <= 120:
        if n <= m:
            return max(sum(matrix[i][j] for i, j in enumerate(chosen)) for chosen in itertools.permutations(range(m), n))
        return max(sum(matrix[i][j] for j, i in enumerate(chosen)) for chosen in itertools.permutations(range(n), m))
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    block = np.array(matrix)
    return float(block[linear_sum_assignment(block, maximize=True)].sum())


def exact(predicted, gold, duplicates):
    """(hits, n, m, repeated hits). A malformed predicted quad is a predicted item that
    equals no gold quad (references hold none), so it is never a hit; under "set" equal
    ones are one. Repeated hits (the list rule only): hits beyond one-to-one counting."""
    one_to_one = sum((Counter(predicted) & Counter(gold)).values())
    if duplicates == "multiset":
        return one_to_one, len(predicted), len(gold), 0
    if duplicates == "list":
        hits = sum(1 for q in predicted if q in gold)
        return hits, len(predicted), len(gold), hits - one_to_one
    p, g = set(predicted), set(gold)
    return len(p & g), len(p), len(g), 0


def is_quad(item):
    """A quad as data: an object, or a non-empty list of strings and nulls."""
    return isinstance(item, dict) or (isinstance(item, (list, tuple)) and len(item) > 0 and all(e is None or isinstance(e, str) for e in item))


def references_of(reference):
    """A string or a list of quads is one reference; a list of strings or of lists of
    quads is several; an empty list is one reference without quads."""
    if isinstance(reference, str) or not reference or any(map(is_quad, reference)):
        return [reference]
    return list(reference)


RULES = ("multiset", "list", "set")  # the duplicates rules of exact match


def sample_statistics(prediction, reference, tuple_len="0123", weights=(1, 1, 1, 1), similarity="rouge_l", soft=True, spans=None):
    """One sample: its matched total S, quad counts n and m, score, the number of the
    reference that counts, and per duplicates rule the exact (hits, n, m, repeated hits).
    soft=False: the first reference's exact counts alone (S and score left at 0).
    spans: span-index quads (one reference), their spans compared as spans."""
    if spans:
        reference = [reference]
    predicted = parse(prediction, tuple_len, spans=spans)
    best = None
    for number, option in enumerate(references_of(reference)):
        gold = parse(option, tuple_len, spans=spans)
        n, m = len(predicted), len(gold)
        s = best_total([[degree(p, r, tuple_len, weights, similarity) for r in gold] for p in predicted]) if soft else 0.0
        score = s / max(n, m) if n or m else 1.0
        if best is None or score > best["score"]:
            best = {"matched": s, "n": n, "m": m, "score": score, "reference": number, "exact": {rule: exact(predicted, gold, rule) for rule in RULES}, "kinds": kinds(gold, tuple_len)}
        if not soft:
            break
    return best


KINDS = ("ea_eo", "ia_eo", "ea_io", "ia_io")  # ACOS: explicit/implicit aspect term (our target) and opinion


def kinds(gold, tuple_len):
    """ACOS's types of a sentence (getTextType): the kinds of its gold quads, by whether
    the target and the opinion are NULL (implicit)."""
    if "0" not in tuple_len or "1" not in tuple_len:
        return set()
    t, o = tuple_len.index("0"), tuple_len.index("1")
    return {KINDS[(q[t] == "NULL") + 2 * (q[o] == "NULL")] for q in gold}


def figures(rows, duplicates="multiset", zero_division=0.0, implicit_split=False):
    """The headline numbers, and the list rule's repeated hits, from sample_statistics rows;
    implicit_split: ACOS's exact figures of the samples of each kind (measureQuad_imp)."""
    if implicit_split:
        out = figures(rows, duplicates, zero_division)
        for kind in KINDS:
            part = figures([row for row in rows if kind in row["kinds"]], duplicates, zero_division)
            out.update({f"{key}_{kind}": part[key] for key in ("exact_precision", "exact_recall", "exact_f1")})
        return out
    s, n, m, score = (sum(row[key] for row in rows) for key in ("matched", "n", "m", "score"))
    hits, en, em, repeated = (sum(row["exact"][duplicates][k] for row in rows) for k in range(4))

    def ratio(a, b):
        return a / b if b else zero_division

    return {
        "optimal_precision": ratio(s, n),
        "optimal_recall": ratio(s, m),
        "optimal_f1": ratio(2 * s, n + m),
        "optimal_score": ratio(score, len(rows)),
        "exact_precision": ratio(hits, en),
        "exact_recall": ratio(hits, em),
        "exact_f1": ratio(2 * hits, en + em),
        **({"exact_repeated_hits": repeated} if duplicates == "list" else {}),
    }
