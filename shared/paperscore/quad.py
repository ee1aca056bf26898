"""Sentiment quads (target | opinion | aspect | polarity) scored two ways: the exact-match
P/R/F1 of the quad-extraction papers (ASQP, ACOS, DiaASQ, each with its rule for duplicate
quads), and the optimal soft match of the yuyijiong/quad_match_score Space, where each
predicted quad earns the degree to which it matches its partner in the best one-to-one
assignment, with ROUGE-L over character tokens so that Chinese text is scored at all.

Statistics: per sample, the matched degree total S, the quad counts n and m, the exact
hits with the exact counts under the duplicate rule, and the sample's score. Every number
is a ratio of their sums, so shards merge by adding rows and the bootstrap resamples samples.

scipy and rouge-score are imported inside the functions that need them.
"""

import functools
import re
from collections import Counter

import numpy as np

from .core import (
    as_floats,
    bootstrap_intervals,
    bootstrap_options,
    check_bootstrap,
    check_choice,
    check_same_length,
    check_zero_division,
    compress_rows,
    divide,
    encode_rows,
    input_error,
    parse_value,
    prf,
    read_lines,
    signature,
    split_values,
)

QUAD_SEP, ELEMENT_SEP = " & ", " | "
ELEMENTS = ("target", "opinion", "aspect", "polarity")
# Which elements a string holds, in order (the original's codes): "013" is target | opinion | polarity.
TUPLE_LENS = ("0123", "01", "012", "013", "023", "23", "03", "13", "3")
FREE_TEXT = {0, 1}  # target and opinion are spans, compared by ROUGE-L; aspect and polarity are labels
SIMILARITIES = ("rouge_l", "exact")
DUPLICATES = ("multiset", "list", "set")
KEYS = (
    "optimal_precision", "optimal_recall", "optimal_f1", "optimal_score",
    "exact_precision", "exact_recall", "exact_f1",
)  # fmt: skip
SPACE = "quad_match"
# Columns of the per-sample statistics.
STATS = ("matched", "n", "m", "exact_hits", "exact_n", "exact_m", "score", "samples")

# ---------------------------------------------------------------------------------------
# ROUGE-L that sees Chinese

# One token per CJK character (Han, kana, Hangul) and per run of other letters and digits;
# anything else separates tokens. rouge-score's own tokenizer keeps only [a-z0-9] runs, so
# it turns every Chinese string into no tokens and scores even identical strings 0.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002fa1f"
TOKEN = re.compile(f"[{_CJK}]|[^\\W_{_CJK}]+")


@functools.lru_cache(maxsize=1 << 16)
def tokenize(text):
    """`服务很好 Wi-Fi 6` -> ('服', '务', '很', '好', 'Wi', 'Fi', '6'). Case is kept."""
    return tuple(TOKEN.findall(text))


class Tokenizer:
    """The tokenizer object rouge-score calls: RougeScorer(["rougeL"], tokenizer=Tokenizer())."""

    def tokenize(self, text):
        return list(tokenize(text))


@functools.lru_cache(maxsize=1)
def _scorer():
    from rouge_score.rouge_scorer import RougeScorer

    return RougeScorer(["rougeL"], tokenizer=Tokenizer())


def rouge_l(a, b):
    """ROUGE-L F1 of two strings, by rouge-score over `tokenize`'s tokens: exactly 1.0 for
    identical strings (even ones without a token), 0.0 when they share no token."""
    if a == b:
        return 1.0
    return _rouge_l(*sorted((a, b)))  # F1 is symmetric: one cache entry per pair


@functools.lru_cache(maxsize=1 << 18)
def _rouge_l(a, b):
    if set(tokenize(a)).isdisjoint(tokenize(b)):
        return 0.0  # what rouge-score returns too (no common subsequence), without its table
    return _scorer().score(a, b)["rougeL"].fmeasure


def best_assignment(degrees):
    """(rows, columns) of the one-to-one matching with the largest total degree; min(n, m)
    pairs. The Hungarian algorithm, not the m!/(m-n)! enumeration the original card describes."""
    from scipy.optimize import linear_sum_assignment

    return linear_sum_assignment(degrees, maximize=True)


# ---------------------------------------------------------------------------------------
# Inputs


def check_inputs(predictions, references):
    """Predictions are strings; references are all strings or all non-empty lists of
    strings (several references per sample).

    The metric script runs this before evaluate encodes a batch, because evaluate's string
    feature would silently turn a number or a list into its text."""
    check_same_length(predictions, references)
    for index, prediction in enumerate(predictions):
        if not isinstance(prediction, str):
            raise input_error("predictions", index, f"expected a string of quads, got {type(prediction).__name__}")
    nested = None
    for index, reference in enumerate(references):
        is_list = isinstance(reference, (list, tuple, np.ndarray))
        if nested is None:
            nested = is_list
        elif is_list != nested:
            shape = "a list of references" if is_list else "a single reference"
            raise input_error("references", index, f"is {shape}, but references[0] is not")
        if is_list and not len(reference):
            raise input_error("references", index, "is an empty list: give at least one reference")
        for position, text in enumerate(reference if is_list else (reference,)):
            if not isinstance(text, str):
                where = f"{index}][{position}" if is_list else index
                raise input_error("references", where, f"expected a string of quads, got {type(text).__name__}")
    return bool(nested)


def _check_weights(weights, tuple_len):
    if isinstance(weights, (str, bytes)) or not hasattr(weights, "__len__") or len(weights) != 4:
        raise ValueError(f"weights: {weights!r} is not 4 numbers (target, opinion, aspect, polarity)")
    for index, weight in enumerate(weights):
        if isinstance(weight, bool) or not isinstance(weight, (int, float, np.integer, np.floating)) or not 0 <= weight < float("inf"):
            raise input_error("weights", index, f"{weight!r} is not a finite number >= 0")
    used = np.array([weights[int(p)] for p in tuple_len], dtype=float)
    if used.sum() == 0:
        raise ValueError(f"weights: every element of tuple_len {tuple_len!r} has weight 0")
    return used


def _check_separators(sep_token1, sep_token2):
    for name, value in (("sep_token1", sep_token1), ("sep_token2", sep_token2)):
        if not isinstance(value, str) or not value:
            raise ValueError(f"{name}: {value!r} is not a non-empty string")
    if sep_token1 == sep_token2:
        raise ValueError(f"sep_token2: {sep_token2!r} is also sep_token1")


def split_quads(text, sep_token1=QUAD_SEP, sep_token2=ELEMENT_SEP):
    """`"a | b & c | d"` -> [("a", "b"), ("c", "d")], elements stripped of white space. A
    blank string has no quads; a separator at either end leaves an empty (malformed) quad,
    rather than sticking to its neighbour's last element."""
    if not text.strip():
        return []
    return [tuple(element.strip() for element in piece.split(sep_token2)) for piece in text.split(sep_token1)]


def malformation(quad, width):
    """Why a quad cannot be scored (wrong number of elements, an empty element), or None."""
    if len(quad) != width:
        return f"has {len(quad)} elements where tuple_len needs {width}"
    if "" in quad:
        return f"has an empty element {quad.index('') + 1}"
    return None


# ---------------------------------------------------------------------------------------
# Pairing the quads


class _Side:
    """Every quad of one side, flat, in sample order: its text, element ids (-1 throughout
    for a malformed quad, so that it matches nothing) and a key equal for equal quads."""

    def __init__(self, vocabulary, keys, width, sep2):
        self.vocabulary, self.keys, self.width, self.sep2 = vocabulary, keys, width, sep2
        self.text, self.ids, self.key, self.problem = [], [], [], []

    def add(self, quads):
        """Append one string's quads; return (index of the first, how many)."""
        start = len(self.text)
        for quad in quads:
            problem = malformation(quad, self.width)
            self.text.append(self.sep2.join(quad))
            self.problem.append(problem)
            if problem is None:
                self.ids.extend(self.vocabulary.setdefault(e, len(self.vocabulary)) for e in quad)
                self.key.append(self.keys.setdefault(quad, len(self.keys)))
            else:  # equal malformed texts are one item under duplicates="set"
                self.ids.extend([-1] * self.width)
                self.key.append(self.keys.setdefault((None, self.text[-1]), len(self.keys)))
        return start, len(quads)


class _Pairing:
    """Both sides' quads and every candidate: a (sample, reference) pair with its runs of
    n predicted and m reference quads, whose n x m block of degrees is compared."""

    def __init__(self, predictions, references, nested, tuple_len, sep1, sep2):
        vocabulary, keys, width = {}, {}, len(tuple_len)
        self.tuple_len, self.vocabulary = tuple_len, vocabulary
        self.pred, self.ref = _Side(vocabulary, keys, width, sep2), _Side(vocabulary, keys, width, sep2)
        spans = [self.pred.add(split_quads(text, sep1, sep2)) for text in predictions]
        rows = []
        for index, sample in enumerate(references):
            for number, text in enumerate(sample if nested else [sample]):
                r0, m = self.ref.add(split_quads(text, sep1, sep2))
                for k in range(r0, r0 + m):  # a reference is gold data: a malformed quad is an error
                    if self.ref.problem[k]:
                        where = f"{index}][{number}" if nested else index
                        raise input_error("references", where, f"quad {k - r0 + 1} {self.ref.text[k]!r} {self.ref.problem[k]}")
                rows.append((index, number, *spans[index], r0, m))
        self.sample, self.number, self.p0, self.n, self.r0, self.m = np.array(rows, dtype=np.int64).reshape(-1, 6).T

    def score_pairs(self, weights, similarity):
        """Element similarities (self.sims) and degree (self.degree) of every pair of every
        candidate, flat; candidate c's block is row-major from self.offset[c]."""
        size = self.n * self.m
        self.offset = np.concatenate([[0], np.cumsum(size)])
        owner = np.repeat(np.arange(len(size)), size)
        local = np.arange(self.offset[-1]) - self.offset[owner]
        columns = np.maximum(self.m[owner], 1)
        width = len(self.tuple_len)
        a = np.array(self.pred.ids, dtype=np.int64).reshape(-1, width)[self.p0[owner] + local // columns]
        b = np.array(self.ref.ids, dtype=np.int64).reshape(-1, width)[self.r0[owner] + local % columns]
        strings = list(self.vocabulary)
        self.sims = (a == b).astype(float)
        if similarity == "rouge_l":
            for j, element in enumerate(self.tuple_len):
                if int(element) in FREE_TEXT:
                    self.sims[:, j] = _pair_similarity(a[:, j], b[:, j], strings)
        self.degree = self.sims @ weights / weights.sum()

    def block(self, c):
        return self.degree[self.offset[c] : self.offset[c + 1]].reshape(self.n[c], self.m[c])

    def quad_keys(self, c):
        """The quad keys of candidate c's predicted and reference quads."""
        return self.pred.key[self.p0[c] : self.p0[c] + self.n[c]], self.ref.key[self.r0[c] : self.r0[c] + self.m[c]]

    def alignment(self, c, rows, columns):
        """Candidate c's matched pairs (degree > 0) with each element's similarity, then its
        predicted and reference quads left unmatched."""
        out, seen_p, seen_r = [], set(), set()
        for i, j in zip(rows.tolist(), columns.tolist()):
            pair = self.offset[c] + i * self.m[c] + j
            if self.degree[pair] > 0:
                seen_p.add(i)
                seen_r.add(j)
                similarity = {ELEMENTS[int(e)]: float(v) for e, v in zip(self.tuple_len, self.sims[pair])}
                out.append(self._row(self.p0[c] + i, self.r0[c] + j, similarity, self.degree[pair]))
        out += [self._row(self.p0[c] + i, None) for i in range(self.n[c]) if i not in seen_p]
        out += [self._row(None, self.r0[c] + j) for j in range(self.m[c]) if j not in seen_r]
        return out

    def _row(self, p, r, similarity=None, degree=0.0):
        row = {"prediction": None if p is None else self.pred.text[p], "reference": None if r is None else self.ref.text[r]}
        row.update(similarity=similarity, degree=float(degree))
        if p is not None and self.pred.problem[p]:
            row["malformed"] = self.pred.problem[p]
        return row


def _pair_similarity(a, b, strings):
    """ROUGE-L of the strings whose ids are a[i] and b[i]; each distinct pair scored once."""
    out = (a == b).astype(float)
    todo = np.flatnonzero((a != b) & (a >= 0))
    if len(todo):
        size = len(strings)
        low, high = np.minimum(a[todo], b[todo]), np.maximum(a[todo], b[todo])
        codes, inverse = np.unique(low * size + high, return_inverse=True)
        values = np.array([rouge_l(strings[code // size], strings[code % size]) for code in codes.tolist()])
        out[todo] = values[inverse]
    return out


def exact_counts(predicted, gold, duplicates="multiset"):
    """(hits, n, m) of exact match between two lists of quads (any hashable items)."""
    if duplicates == "multiset":  # one-to-one: a quad predicted twice is a hit once
        return sum((Counter(predicted) & Counter(gold)).values()), len(predicted), len(gold)
    if duplicates == "list":  # ASQP, MvP, ACOS: each predicted quad found in the gold list is a hit
        found = set(gold)
        return sum(quad in found for quad in predicted), len(predicted), len(gold)
    predicted, gold = set(predicted), set(gold)  # DiaASQ: both sides as sets
    return len(predicted & gold), len(predicted), len(gold)


def _statistics(pairing, duplicates):
    """One row of STATS per candidate, and each candidate's assignment."""
    rows = np.zeros((len(pairing.n), len(STATS)))
    assignments = []
    for c, (n, m) in enumerate(zip(pairing.n.tolist(), pairing.m.tolist())):
        block = pairing.block(c)
        assignment = best_assignment(block) if block.size else (np.zeros(0, np.int64), np.zeros(0, np.int64))
        matched = block[assignment].sum()
        score = matched / max(n, m) if max(n, m) else 1.0  # nothing to find and nothing found: perfect
        rows[c] = (matched, n, m, *exact_counts(*pairing.quad_keys(c), duplicates), score, 1)
        assignments.append(assignment)
    return rows, assignments


def _best_references(pairing, rows, n_samples):
    """Per sample, the candidate whose reference scores highest (ties to the first)."""
    best = [None] * n_samples
    score = rows[:, STATS.index("score")]
    for c, sample in enumerate(pairing.sample.tolist()):
        if best[sample] is None or score[c] > score[best[sample]]:
            best[sample] = c
    return best


def ratios(sums, zero_division=0.0):
    """The headline numbers from sums of STATS rows (shape (..., len(STATS)))."""
    matched, n, m, hits, exact_n, exact_m, score, samples = np.moveaxis(np.asarray(sums, dtype=float), -1, 0)
    out = {}
    for prefix, values in (("optimal", prf(matched, n, m, zero_division)), ("exact", prf(hits, exact_n, exact_m, zero_division))):
        out.update(zip((f"{prefix}_precision", f"{prefix}_recall", f"{prefix}_f1"), values))
    out["optimal_score"] = divide(score, samples, zero_division)
    return {key: out[key] for key in KEYS}


def legacy(result, weights):
    """The three keys of yuyijiong/quad_match_score, its exact F1 rounded to 4 places as it prints it."""
    suffix = str(tuple(weights))
    return {
        "f1 of exact match": round(result["exact_f1"], 4),
        f"f1 of optimal match of weight {suffix}": result["optimal_f1"],
        f"score of optimal match of weight {suffix}": result["optimal_score"],
    }


# ---------------------------------------------------------------------------------------
# The metric


def _score(predictions, references, weights, tuple_len, sep_token1, sep_token2, similarity, duplicates):
    """Checked inputs, paired and scored: (pairing, STATS row of every candidate, their
    assignments, the candidate chosen for each sample)."""
    check_choice("tuple_len", tuple_len, TUPLE_LENS)
    check_choice("similarity", similarity, SIMILARITIES)
    check_choice("duplicates", duplicates, DUPLICATES)
    used_weights = _check_weights(weights, tuple_len)
    _check_separators(sep_token1, sep_token2)
    nested = check_inputs(predictions, references)
    pairing = _Pairing(predictions, references, nested, tuple_len, sep_token1, sep_token2)
    pairing.score_pairs(used_weights, similarity)
    rows, assignments = _statistics(pairing, duplicates)
    return pairing, rows, assignments, _best_references(pairing, rows, len(predictions))


def headline(**options):
    """What `paperscore compare` compares by default."""
    return "optimal_f1"


def paired_statistics(references, system_a, system_b, weights=(1, 1, 1, 1), tuple_len="0123", sep_token1=QUAD_SEP, sep_token2=ELEMENT_SEP, similarity="rouge_l", duplicates="multiset", zero_division=0.0):
    """For paperscore.compare: each system's per-sample STATS rows and the reducer."""
    zero_division = check_zero_division(zero_division)
    tables = []
    for system in (system_a, system_b):
        _, rows, _, chosen = _score(system, references, weights, tuple_len, sep_token1, sep_token2, similarity, duplicates)
        tables += encode_rows(rows[chosen].reshape(-1, len(STATS)))
    return (*tables, lambda weights, rows: ratios(weights @ rows, zero_division))


def compute(
    predictions,
    references,
    weights=(1, 1, 1, 1),
    tuple_len="0123",
    sep_token1=QUAD_SEP,
    sep_token2=ELEMENT_SEP,
    similarity="rouge_l",
    duplicates="multiset",
    legacy_keys=False,
    details=False,
    zero_division=0.0,
    confidence_level=None,
    n_resamples=1000,
    seed=None,
    return_signature=False,
):
    """Optimal soft-match and exact-match precision, recall and F1 of sentiment quads.

    predictions: one string per sample, quads joined by sep_token1 (" & "), elements by
    sep_token2 (" | "); a blank string has no quads. Malformed quads (wrong number of
    elements, an empty element) count as predicted quads that match nothing.
    references: one string per sample, or a list of strings (several references: the one
    whose sample score is highest is counted, ties to the first). A malformed reference
    quad is an error.
    weights: of target, opinion, aspect, polarity in a pair's degree (0 drops an element).
    tuple_len: which elements the strings hold, in order ("0123" = all four; "013" =
    target | opinion | polarity; see TUPLE_LENS).
    similarity: "rouge_l" (target and opinion by ROUGE-L F1 over CJK characters and
    letter/digit runs; aspect and polarity exact) or "exact" (every element exact).
    duplicates: exact-match counting: "multiset" (one-to-one), "list" (ASQP/MvP/ACOS: each
    predicted quad found in the gold list is a hit) or "set" (DiaASQ).
    legacy_keys: add the original Space's three keys.
    details: add "samples": per sample the reference used, its score, the alignment of
    quads (each element's similarity and the pair's degree; unmatched and malformed quads
    marked).
    """
    zero_division = check_zero_division(zero_division)
    if confidence_level is not None:
        check_bootstrap(confidence_level, n_resamples)
    pairing, rows, assignments, chosen = _score(predictions, references, weights, tuple_len, sep_token1, sep_token2, similarity, duplicates)
    stats = rows[chosen].reshape(-1, len(STATS))

    result = as_floats(ratios(stats.sum(0), zero_division))
    if legacy_keys:
        result.update(legacy(result, weights))
    if confidence_level is not None:
        distinct, counts = compress_rows(stats)
        result.update(bootstrap_intervals(counts, lambda w: ratios(w @ distinct, zero_division), confidence_level, n_resamples, seed))
    if details:
        result["samples"] = [
            {
                "reference": int(pairing.number[c]),
                "score": float(rows[c, STATS.index("score")]),
                "matched": float(rows[c, 0]),
                "exact_hits": int(rows[c, STATS.index("exact_hits")]),
                "alignment": pairing.alignment(c, *assignments[c]),
            }
            for c in chosen
        ]
    if return_signature:
        result["signature"] = signature(
            "quad_match",
            tuple_len=tuple_len,
            weights=list(weights),
            similarity=f"{similarity}+cjk_char" if similarity == "rouge_l" else similarity,
            duplicates=duplicates,
            zero_division=zero_division,
            **bootstrap_options(confidence_level, n_resamples, seed),
        )
    return result


# ---------------------------------------------------------------------------------------
# Command line: paperscore quad --predictions FILE --references FILE

COMMAND = "quad"
HELP = "sentiment quads: optimal soft match (ROUGE-L over CJK characters) and exact-match P/R/F1"


def read_samples(path, argument):
    """One sample per line; an empty line has no quads; a line that is a JSON list holds
    several references (a JSON string is read as that string)."""
    return [parse_value(line) if line.lstrip()[:1] in ('[', '"') else line for line in read_lines(path, argument, allow_empty=True)]


def add_options(parser):
    """The scoring options, shared by this command and `paperscore compare quad`."""
    parser.add_argument("--tuple-len", default="0123", choices=TUPLE_LENS, help="which elements the strings hold (default 0123)")
    parser.add_argument("--weights", default="1,1,1,1", help="weights of target, opinion, aspect, polarity (default 1,1,1,1)")
    parser.add_argument("--sep-token1", default=QUAD_SEP, help="between quads (default ' & ')")
    parser.add_argument("--sep-token2", default=ELEMENT_SEP, help="between elements (default ' | ')")
    parser.add_argument("--similarity", default="rouge_l", choices=SIMILARITIES, help="soft match of target and opinion: rouge_l (ROUGE-L F1 over CJK characters and letter/digit runs) or exact")
    parser.add_argument("--duplicates", default="multiset", choices=DUPLICATES, help="exact-match counting of repeated quads")


def options(args):
    return dict(
        weights=tuple(split_values(args.weights)),
        tuple_len=args.tuple_len,
        sep_token1=args.sep_token1,
        sep_token2=args.sep_token2,
        similarity=args.similarity,
        duplicates=args.duplicates,
    )


def add_arguments(parser):
    parser.add_argument("--predictions", required=True, help="one sample per line: quads joined by ' & ', elements by ' | '")
    parser.add_argument("--references", required=True, help="same layout; a JSON list of strings per line for several references")
    add_options(parser)
    parser.add_argument("--legacy-keys", action="store_true", help="add the original Space's three keys")
    parser.add_argument("--details", action="store_true", help="add each sample's alignment")


def read_references(path, argument):
    """read_samples, where one JSON-list line makes every line a list of references."""
    references = read_samples(path, argument)
    if any(isinstance(r, list) for r in references):
        references = [r if isinstance(r, list) else [r] for r in references]
    return references


def run(args):
    return compute(
        read_samples(args.predictions, "--predictions"),
        read_references(args.references, "--references"),
        legacy_keys=args.legacy_keys,
        details=args.details,
        **options(args),
        **args.common,
    )


def read_compare(args):
    """The inputs of `paperscore compare quad`."""
    return dict(
        references=read_references(args.references, "--references"),
        system_a=read_samples(args.system_a, "--system-a"),
        system_b=read_samples(args.system_b, "--system-b"),
    )
