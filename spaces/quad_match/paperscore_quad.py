# GENERATED from shared/paperscore/quad.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""Sentiment quads (target | opinion | aspect | polarity) scored two ways: the exact-match
P/R/F1 of the quad-extraction papers (ASQP, ACOS, DiaASQ, each with its rule for duplicate
quads), and the optimal soft match of the yuyijiong/quad_match_score Space, where each
predicted quad earns the degree to which it matches its partner in the best one-to-one
assignment, with ROUGE-L over character tokens so that Chinese text is scored at all.

Statistics: per sample, the matched degree total S, the quad counts n and m, the exact
hits with the exact counts under the duplicate rule, and the sample's score. Every number
is a ratio of their sums, so shards merge by adding rows and the bootstrap resamples samples.

scipy is imported inside the functions that need it; ROUGE-L is computed here, equal to
rouge-score's (its Tokenizer class is what rouge-score would be called with).
"""

import copy
import functools
import inspect
import itertools
import re
import types
import warnings

import numpy as np

from .paperscore_core import (
    check_flags,
    as_corpus,
    bootstrap_options,
    check_bootstrap,
    check_choice,
    check_same_length,
    check_zero_division,
    dense_codes,
    divide,
    encode_rows,
    harmonic_mean,
    input_error,
    load_json,
    prf,
    read_json_values,
    read_lines,
    read_text,
    signature,
    with_references,
    split_values,
)
from .paperscore_family import Batch, Family, evaluate, paired_table, scoring_options
from .paperscore_parse import PARSERS, check_parser_options, get_parser, parse as parse_texts, parser_id

QUAD_SEP, ELEMENT_SEP = " & ", " | "
ELEMENTS = ("target", "opinion", "aspect", "polarity")
# Which elements a string holds, in order: "013" is target | opinion | polarity. The
# original's codes are these; any other set of the four digits works as well ("0" for
# targets alone, "12" for opinion-aspect pairs: the subtasks of ASQP, MvP and ACOS tables).
TUPLE_LENS = ("0123", "01", "012", "013", "023", "23", "03", "13", "3")
# Every subset of the four elements, the original's codes first (a choice list for the demo).
TUPLE_LEN_SUBSETS = TUPLE_LENS + tuple(s for n in (1, 2, 3) for s in map("".join, itertools.combinations("0123", n)) if s not in TUPLE_LENS)
FREE_TEXT = {0, 1}  # target and opinion are spans, compared by ROUGE-L; aspect and polarity are labels
SIMILARITIES = ("rouge_l", "exact")
DUPLICATES = ("multiset", "list", "set")
KEYS = (
    "optimal_precision", "optimal_recall", "optimal_f1", "optimal_score",
    "exact_precision", "exact_recall", "exact_f1",
)  # fmt: skip
SPACE = "quad_match"
# Columns of the per-sample statistics.
# repeated_hits: under duplicates="list", the hits beyond the gold copies a quad has (a gold
# quad found by two predicted copies is 2 hits); 0 under the other rules.
STATS = ("matched", "n", "m", "exact_hits", "exact_n", "exact_m", "repeated_hits", "score", "samples")

# ---------------------------------------------------------------------------------------
# ROUGE-L that sees Chinese

# One token per CJK character (Han, kana, Hangul) and per run of other letters and digits;
# anything else separates tokens. rouge-score's own tokenizer keeps only [a-z0-9] runs, so
# it turns every Chinese string into no tokens and scores even identical strings 0.
CJK_RANGES = ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0x20000, 0x2FA1F))
_CJK = "".join(f"{chr(low)}-{chr(high)}" for low, high in CJK_RANGES)
# Patterns, not compiled objects: re compiles each on its first use (and caches it), since a
# Unicode class takes milliseconds to compile and exact matching never uses them.
TOKEN = f"[{_CJK}]|[^\\W_{_CJK}]+"


@functools.lru_cache(maxsize=1 << 16)
def tokenize(text):
    """`服务很好 Wi-Fi 6` -> ('服', '务', '很', '好', 'Wi', 'Fi', '6'). Case is kept."""
    return tuple(re.findall(TOKEN, text))


class Tokenizer:
    """The tokenizer object rouge-score calls: RougeScorer(["rougeL"], tokenizer=Tokenizer())."""

    def tokenize(self, text):
        return list(tokenize(text))


def rouge_l(a, b):
    """ROUGE-L F1 of two strings, rouge-score's LCS F-measure over `tokenize`'s tokens:
    exactly 1.0 for identical strings (even ones without a token), 0.0 when they share no
    token."""
    return 1.0 if a == b else float(rouge_l_pairs([a, b], np.array([0]), np.array([1]))[0])


WORD = 64  # tokens of the shorter string that one machine word holds in the bit-parallel LCS
CELLS = 1 << 21  # (pair, token) cells of the longer strings held in memory at once


def rouge_l_pairs(strings, a, b):
    """ROUGE-L F1 of strings[a[i]] and strings[b[i]] for every i, equal to rouge-score's
    fmeasure bit for bit (same LCS length, same float operations; F1 is symmetric).

    The LCS length comes from the bit-parallel algorithm of Crochemore et al. (2001): the
    shorter string's tokens are the bits of a word V, and for each token of the longer
    one, with U = V & match(token), V = (V + U) | (V - U); the LCS length is the number of
    zero bits left in V. Pairs whose shorter string has at most WORD tokens run together
    in numpy words; longer ones one by one in Python integers of any width (_lcs_long),
    time and memory near-linear in the lengths where rouge-score's table is quadratic.
    Every string is tokenised, once."""
    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    flat, length = _token_ids(strings)
    flat = np.append(flat, np.zeros(WORD, flat.dtype))  # reading up to WORD tokens on from any start stays inside
    start = np.concatenate([[0], np.cumsum(length)[:-1]]).astype(np.int64)
    la, lb = length[a], length[b]
    x, y = np.where(la <= lb, a, b), np.where(la <= lb, b, a)  # x the shorter
    lx, ly = np.minimum(la, lb), np.maximum(la, lb)
    lcs = np.zeros(len(a), dtype=np.int64)
    fast = (lx > 0) & (lx <= WORD)
    for size in np.flatnonzero(np.bincount(ly[fast])).tolist():
        group = np.flatnonzero(fast & (ly == size))
        width = int(lx[group].max())
        step = max(1, CELLS // size)
        for begin in range(0, len(group), step):
            pairs = group[begin : begin + step]
            lcs[pairs] = _lcs_words(flat, start[x[pairs]], lx[pairs], start[y[pairs]], width, size)
    tokens = functools.cache(lambda i: flat[start[i] : start[i] + length[i]].tolist())
    long = functools.cache(lambda i, j: _lcs_long(tokens(i), tokens(j)))  # once per distinct pair
    for k in np.flatnonzero(lx > WORD).tolist():
        lcs[k] = long(x[k], y[k])
    out = np.zeros(len(a))
    found = lcs > 0
    precision, recall = lcs[found] / la[found], lcs[found] / lb[found]
    out[found] = 2 * precision * recall / (precision + recall)
    return out


def _lcs_long(x, y):
    """LCS length of two lists of token ids, by rouge_l_pairs' recurrence with V a Python
    integer of len(x) bits (carries run across machine words inside it): O(len(x) *
    len(y) / 30) digit operations, O(len(x) * distinct tokens) bits."""
    match = {}
    for i, token in enumerate(x):
        match[token] = match.get(token, 0) | 1 << i
    full = (1 << len(x)) - 1
    v = full
    for token in y:
        u = v & match.get(token, 0)
        v = ((v + u) | (v - u)) & full
    return len(x) - v.bit_count()


_TOKEN_OR_END = f"{TOKEN}|\x00"
_IS_CJK = np.zeros(0x110000, bool)  # by code point
for _low, _high in CJK_RANGES:
    _IS_CJK[_low : _high + 1] = True
_LONG = 0x110000  # ids of tokens longer than one character start above every code point


def _token_ids(texts):
    """(every text's token ids, concatenated; each text's token count). A one-character
    token's id is its code point. A text of CJK characters only is one token per character,
    read in one numpy pass over all such texts; the others go through the regular expression."""
    chars = np.fromiter(map(len, texts), np.int64, len(texts))
    codes = np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), np.int32)  # code points fit
    other = np.bincount(np.repeat(np.arange(len(texts)), chars)[~_IS_CJK[codes]], minlength=len(texts)) > 0  # texts with a character not CJK
    if not other.any():
        return codes, chars
    ids, counts = _matched_token_ids(list(itertools.compress(texts, other.tolist())))
    length = chars.copy()
    length[other] = counts
    flat = np.empty(length.sum(), np.int32)
    from_codes = np.repeat(~other, length)
    flat[from_codes], flat[~from_codes] = codes[np.repeat(~other, chars)], ids
    return flat, length


def _matched_token_ids(texts):
    """_token_ids by the regular expression: one pass over the texts joined by NUL, which is
    no token, unless a text holds one."""
    joined = "\x00".join(texts) + "\x00"
    if joined.count("\x00") != len(texts):
        tokens = [tokenize(text) for text in texts]
        pieces = [token for ts in tokens for token in (*ts, "\x00")]
    else:
        pieces = re.findall(_TOKEN_OR_END, joined)
    vocabulary = dict(zip(dict.fromkeys(pieces), itertools.count()))
    code = np.array([ord(token) if len(token) == 1 else _LONG + i for token, i in vocabulary.items()], np.int32)
    ids = code[np.fromiter(map(vocabulary.__getitem__, pieces), np.int64, len(pieces))]
    end = ids == 0
    owner = np.cumsum(end) - end
    return ids[~end], np.bincount(owner[~end], minlength=len(texts)).astype(np.int64)


def _lcs_words(flat, x_start, x_length, y_start, width, size):
    """LCS lengths of pairs of token runs in flat: x (at most width <= WORD tokens) and y
    (size tokens), by the bit-parallel recurrence in the narrowest unsigned word that holds
    width bits. Carries and borrows only move up, so bits at and above a pair's x_length
    (tokens read past the end of x, and carries out of the word) never reach the bits
    below, which alone are counted."""
    word = next(np.dtype(f"u{n}") for n in (1, 2, 4, 8) if 8 * n >= width)
    y = flat[y_start + np.arange(size)[:, None]]  # (size, pairs)
    match = np.zeros(y.shape, word)  # match[j]: bit i set where token i of x is token j of y
    for i in range(width):
        match |= (flat[x_start + i] == y).astype(word) << word.type(i)
    v = np.full(len(x_start), np.iinfo(word).max, word)
    for j in range(size):
        u = v & match[j]
        v = (v + u) | (v - u)
    low = np.where(x_length >= WORD, np.iinfo(np.uint64).max, np.left_shift(np.uint64(1), x_length.astype(np.uint64)) - np.uint64(1))
    return np.bitwise_count(~v & low.astype(word)).astype(np.int64)


def best_assignment(degrees):
    """(rows, columns) of the one-to-one matching with the largest total degree; min(n, m)
    pairs. The Hungarian algorithm, not the m!/(m-n)! enumeration the original card describes."""
    from scipy.optimize import linear_sum_assignment

    return linear_sum_assignment(degrees, maximize=True)


# ---------------------------------------------------------------------------------------
# Inputs: quad strings, or quads as data

IMPLICIT = "NULL"  # how ASQP and ACOS write an implicit target or opinion
SPAN = {"0", "1"}  # the tuple_len codes whose element may be implicit: target, opinion


_ELEMENT_TYPES = {str, type(None)}


def _is_quad(item):
    """A quad given as data: an object, or a non-empty list of strings (and nulls)."""
    if isinstance(item, dict):
        return True
    if not isinstance(item, (list, tuple)) or not len(item):
        return False
    return set(map(type, item)) <= _ELEMENT_TYPES or all(e is None or isinstance(e, str) for e in item)


def _is_data(example):
    return isinstance(example, (list, tuple, np.ndarray)) and all(map(_is_quad, example))


def _is_sequence(value):
    return isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray) and value.ndim > 0)


def reference_options(reference):
    """The references of one sample, and whether it gave several: a string or a list of
    quads is one reference; a list of strings, or of lists of quads, is several. An empty
    list is one reference without quads."""
    if isinstance(reference, str) or not _is_sequence(reference) or not len(reference) or any(map(_is_quad, reference)):
        return [reference], False
    return reference, True


def _check_example(example, argument, where):
    if isinstance(example, str):
        return
    if isinstance(example, dict) and "doc_id" in example:
        raise input_error(argument, where, "is a DiaASQ dialogue: its own table is convention=\"diaasq\" (quads read from its triplets as strings: the CLI's --format json)")
    if not _is_sequence(example):
        raise input_error(argument, where, f"expected a string of quads or a list of quads, got {type(example).__name__}")
    for number, quad in enumerate(example, 1):
        if not isinstance(quad, (dict, list, tuple)):
            raise input_error(argument, where, f"quad {number} is a {type(quad).__name__}: a quad is a list of strings or an object with keys {', '.join(ELEMENTS)}")
        if isinstance(quad, dict):
            unknown = [key for key in quad if key not in ELEMENTS]
            if unknown:
                raise input_error(argument, where, f"quad {number} has the key {unknown[0]!r}, not one of {', '.join(ELEMENTS)}")
        values = quad.values() if isinstance(quad, dict) else quad
        for value in values:
            if value is not None and not isinstance(value, str):
                raise input_error(argument, where, _not_an_element(number, value))


def _not_an_element(number, value):
    hint = "; span-index quads: spans='exclusive' or 'inclusive' with similarity='exact'" if _is_span(value) else ""
    return f"quad {number} holds {value!r}, not a string (or null for an implicit target or opinion){hint}"


def _is_span(value):
    """A [start, end] pair of integers (a span-index quad's target or opinion)."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    return isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in value)


def has_spans(*sides):
    """Whether any quad of these samples (one reference each) holds a [start, end] span:
    span-index quads, which compute(spans=...) checks."""
    for side in sides:
        for example in side:
            if _is_sequence(example) and not isinstance(example, str):
                for quad in example:
                    values = quad.values() if isinstance(quad, dict) else quad if isinstance(quad, (list, tuple)) else ()
                    if any(map(_is_span, values)):
                        return True
    return False


def check_inputs(predictions, references):
    """Each prediction is a quad string or a list of quads (each a list of strings in
    tuple_len order, or an object with keys target, opinion, aspect, polarity); each
    reference is one such value or a non-empty list of them (several references).

    The metric script runs this before evaluate encodes a batch, so that nothing is
    coerced silently."""
    check_same_length(predictions, references)
    data = [p for p in predictions if not isinstance(p, str)]  # a string is checked as it is split
    data += [o for r in references if not isinstance(r, str) for o in reference_options(r)[0] if not isinstance(o, str)]
    if _plain_data(data):
        return
    for index, prediction in enumerate(predictions):  # to name what is wrong
        if not isinstance(prediction, str):
            _check_example(prediction, "predictions", index)
    for index, reference in enumerate(references):
        if isinstance(reference, str):
            continue
        options, several = reference_options(reference)
        if several and not len(options):
            raise input_error("references", index, "is an empty list of references: give at least one")
        for number, option in enumerate(options):
            if several and isinstance(option, (list, tuple)) and any(isinstance(e, str) for e in option):  # a quad with a wrong element, not a reference
                raise input_error("references", index, _not_an_element(number + 1, next(e for e in option if e is not None and not isinstance(e, str))))
            _check_example(option, "references", f"{index}][{number}" if several else index)


def _plain_data(examples):
    """Whether every example is a list or tuple of quads that are lists or tuples of strings
    and nulls (all check_inputs accepts, but objects): told in a few passes over types."""
    if not set(map(type, examples)) <= {list, tuple}:
        return False
    quads = list(itertools.chain.from_iterable(examples))
    return set(map(type, quads)) <= {list, tuple} and set(map(type, itertools.chain.from_iterable(quads))) <= _ELEMENT_TYPES


def _listed(example, tuple_len):
    """A data example's quads as sequences of elements (an object's values in tuple_len
    order, a missing key as an empty element), not yet stripped."""
    return [[quad.get(ELEMENTS[int(code)], "") for code in tuple_len] if isinstance(quad, dict) else quad for quad in example]


# Span-index quads (as Span-ASTE and DiaASQ compare): a target or opinion is a (start, end)
# pair of token indices, named by its convention: end "exclusive" (DiaASQ, ACOS's files) or
# "inclusive" (Span-ASTE's triplets). Each becomes the element "start:end", end exclusive,
# so that equal spans are equal elements; (-1, -1) or null is an implicit element.
SPAN_CONVENTIONS = ("exclusive", "inclusive")


def _span_element(value, spans, where, quad, name):
    if value is None:
        return None
    if type(value) in (list, tuple) and len(value) == 2 and type(value[0]) is int and type(value[1]) is int:  # the usual case, told fast
        start, end = value
    elif _is_span(value):
        start, end = (int(v) for v in value)
    else:
        raise input_error(*where, f"quad {quad} {name} {value!r} is not a [start, end] pair of token indices (spans={spans!r}; null or [-1, -1]: implicit)")
    if (start, end) == (-1, -1):
        return None
    if start < 0 or end < start + (spans == "exclusive"):
        rule = "0 <= start < end, end exclusive" if spans == "exclusive" else "0 <= start <= end, end inclusive"
        raise input_error(*where, f"quad {quad} {name} {[start, end]} is not a token span ({rule}; [-1, -1]: implicit)")
    return f"{start}:{end + (spans == 'inclusive')}"


def span_quads(examples, argument, tuple_len, spans):
    """Samples of span-index quads (lists in tuple_len order or objects, target and opinion
    as [start, end]) as the quads the metric compares, each span the element "start:end"
    with the end exclusive. One reference per sample; a type that is not a span or a
    string is a ValueError naming the sample and quad."""
    out = []
    for index, example in enumerate(as_corpus(examples, argument)):
        if isinstance(example, (str, dict)) or not _is_sequence(example):
            raise input_error(argument, index, f"is a {type(example).__name__}: with spans={spans!r} a sample is a list of quads whose target and opinion are [start, end] token spans")
        quads = []
        for number, quad in enumerate(example, 1):
            if isinstance(quad, dict):
                unknown = [key for key in quad if key not in ELEMENTS]
                if unknown:
                    raise input_error(argument, index, f"quad {number} has the key {unknown[0]!r}, not one of {', '.join(ELEMENTS)}")
                values = [quad.get(ELEMENTS[int(code)], "") for code in tuple_len]
            elif isinstance(quad, (list, tuple)):
                values = list(quad)
            else:
                raise input_error(argument, index, f"quad {number} is a {type(quad).__name__}, not a list or an object")
            converted = []
            for position, value in enumerate(values):
                code = tuple_len[position] if position < len(tuple_len) else None
                if code in SPAN:
                    converted.append(_span_element(value, spans, (argument, index), number, ELEMENTS[int(code)]))
                elif value is None or isinstance(value, str):
                    converted.append(value)
                else:
                    raise input_error(argument, index, f"quad {number} holds {value!r}, not a string")
            quads.append(converted)
        out.append(quads)
    return out


def _span_sides(sides, tuple_len, similarity, spans):
    """Each side (argument name -> samples) of span-index quads read by span_quads, once
    the options are checked: spans are compared by position, so similarity must be exact."""
    check_choice("spans", spans, SPAN_CONVENTIONS)
    _check_tuple_len(tuple_len)
    if similarity != "exact":
        raise ValueError(f"similarity: {similarity!r}; spans are compared by position, exactly: pass similarity=\"exact\"")
    return [span_quads(examples, argument, tuple_len, spans) for argument, examples in sides.items()]


def _check_tuple_len(tuple_len):
    if not isinstance(tuple_len, str) or not tuple_len or not set(tuple_len) <= set("0123") or len(set(tuple_len)) < len(tuple_len):
        raise ValueError(f"tuple_len: {tuple_len!r} is not a string of distinct digits among 0 (target), 1 (opinion), 2 (aspect), 3 (polarity), such as '0123' or '013'")


def _check_weights(weights, tuple_len):
    if isinstance(weights, (str, bytes, set, frozenset, dict)) or not hasattr(weights, "__len__") or len(weights) != 4:
        raise ValueError(f"weights: {weights!r} is not 4 numbers (target, opinion, aspect, polarity) in order")
    for index, weight in enumerate(weights):
        if isinstance(weight, bool) or not isinstance(weight, (int, float, np.integer, np.floating)) or not 0 <= weight < float("inf"):
            raise input_error("weights", index, f"{weight!r} is not a finite number >= 0")
    used = np.array([weights[int(p)] for p in tuple_len], dtype=float)
    with np.errstate(over="ignore"):
        total = used.sum()
    if total == 0:
        raise ValueError(f"weights: every element of tuple_len {tuple_len!r} has weight 0")
    if not np.isfinite(total):  # the degree would be inf / inf = NaN
        raise ValueError(f"weights: {tuple(weights)!r} sum to {total} over tuple_len {tuple_len!r}: the sum must be a finite number")
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
    return [tuple(map(str.strip, piece.split(sep_token2))) for piece in text.split(sep_token1)]


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
    """Every quad of one side, flat, in example order: each example's first quad and
    number of quads, each quad's first element and number of elements, the elements
    (stripped); once identified, `good` marking the well-formed quads and their ids."""

    def __init__(self, examples, tuple_len, sep1, sep2):
        split = _split_strings(examples, sep1, sep2)
        data = None
        if split is None:
            pieces = [(example.split(sep1) if example.strip() else []) if isinstance(example, str) else _listed(example, tuple_len) for example in examples]
            self.count = np.fromiter(map(len, pieces), np.int64, len(pieces))
            data = ~np.fromiter(map(isinstance, itertools.chain.from_iterable(pieces), itertools.repeat(str)), bool)
            parts = [q.split(sep2) if isinstance(q, str) else q for q in itertools.chain.from_iterable(pieces)]
            self.width = np.fromiter(map(len, parts), np.int64, len(parts))
            elements = list(itertools.chain.from_iterable(parts))
            if None in elements:
                elements = ["" if e is None else e for e in elements]
        else:
            self.count, self.width, elements = split
        self.start, self.first = _starts(self.count), _starts(self.width)
        self.elements = list(map(str.strip, elements))
        if data is not None and data.any():  # quads given as data: a null or empty target or opinion is implicit
            span = _may_be_implicit(self.width, tuple_len)
            empty = np.fromiter(map(len, self.elements), np.int64, len(self.elements)) == 0
            for k in np.flatnonzero(np.repeat(data, self.width) & span & empty).tolist():
                self.elements[k] = IMPLICIT

    numbers = None  # a side read from a table: each quad's row in it (elements, width, first describe the rows)

    @classmethod
    def table(cls, quads, numbers, counts, tuple_len):
        """A side whose examples' quads are rows of one table of distinct quads (lists of
        strings and nulls, read as quads given as data): `numbers`, flat, the row of every
        quad, `counts` each example's number of quads. Each row is normalised once."""
        side = cls([quads], tuple_len, None, None)
        side.count, side.start, side.numbers = counts, _starts(counts), np.asarray(numbers, dtype=np.int64)
        return side

    def identify(self, ids, empty, width):
        """From the ids of the elements (`empty`: the id of ""), `good`: the quads of `width`
        elements, none empty, and `ids`: their element ids, one row a quad, -1 throughout a
        malformed quad, so that it matches nothing."""
        owner = np.repeat(np.arange(len(self.width)), self.width)
        self.good = (self.width == width) & (np.bincount(owner[ids == empty], minlength=len(self.width)) == 0)
        self.ids = np.full((len(self.good), width), -1, dtype=np.int64)
        self.ids[self.good] = ids[np.repeat(self.good, self.width)].reshape(-1, width)
        if self.numbers is not None:
            self.good, self.ids = self.good[self.numbers], self.ids[self.numbers]

    def quad(self, k):
        return self.row(k if self.numbers is None else self.numbers[k])

    def row(self, r):
        return tuple(self.elements[self.first[r] : self.first[r] + self.width[r]])

    def problem(self, k, width):
        return None if self.good[k] else malformation(self.quad(k), width)


def _may_be_implicit(width, tuple_len):
    """Over the flat elements of quads `width` elements long: whether each stands where
    tuple_len puts a target or opinion (blank there, a quad given as data means NULL)."""
    position = np.arange(int(width.sum())) - np.repeat(np.cumsum(width) - width, width)
    return np.array([code in SPAN for code in tuple_len] + [False])[np.minimum(position, len(tuple_len))]


_MARKS = ("\x00", "\x01", "\x02")


def _split_strings(examples, sep1, sep2):
    """split_quads over a corpus of strings in a few calls over one joined string: (quads
    per example, elements per quad, the elements unstripped), or None when an example is
    not a string or a text or separator holds a control character used as a mark (see
    _marked)."""
    found = _marked(examples, sep1, sep2)
    if found is None:
        return None
    filled, marked, codes = found
    count = np.zeros(len(examples), dtype=np.int64)
    if not filled.any():
        return count, np.zeros(0, np.int64), []
    count[filled], width = _quad_counts(codes)
    return count, width, marked.replace(_MARKS[0], _MARKS[2]).replace(_MARKS[1], _MARKS[2]).split(_MARKS[2])


def _marked(examples, sep1, sep2):
    """(which examples are not blank, those joined with marks, the joined text's code
    points), or None when an example is not a string or a text or separator holds a
    control character used as a mark. Marks stand for the example boundaries and the two
    separators; str.replace matches the same non-overlapping occurrences, left to right,
    as str.split."""
    if not all(map(isinstance, examples, itertools.repeat(str))):
        return None
    filled = np.fromiter(map(bool, map(str.strip, examples)), bool, len(examples))
    texts = list(itertools.compress(examples, filled.tolist()))
    joined = _MARKS[0].join(texts)
    if tuple(map(joined.count, _MARKS)) != (max(len(texts) - 1, 0), 0, 0) or any(mark in sep1 + sep2 for mark in _MARKS):
        return None
    marked = joined.replace(sep1, _MARKS[1]).replace(sep2, _MARKS[2])
    return filled, marked, np.frombuffer(marked.encode("utf-32-le", "surrogatepass"), np.uint32)


def _quad_counts(codes):
    """(quads per non-blank example, elements per quad), read from the sequence of marks."""
    marks = np.append(codes[codes <= 2], 0)  # every mark in order, and the end of the last example
    ends = np.flatnonzero(marks <= 1)  # the marks that end a quad
    return np.diff(np.flatnonzero(marks[ends] == 0), prepend=-1), np.diff(ends, prepend=-1)


@functools.cache
def _space_table():
    """str.isspace by code point, up to U+3000, the last white space character."""
    return np.array([chr(c).isspace() for c in range(0x3001)])


def _exact_quads(examples, sep1, sep2):
    """exact_only's reading of quad strings, without splitting them into elements: (quads
    per example, each quad's text with its elements stripped and joined by a mark,
    elements per quad, whether a quad has an empty element), or None as _marked. Each
    element is stripped on the code points: a character of white space goes when the
    nearest other character on its left or on its right is a mark or an end of the text,
    which is what str.strip removes from each element."""
    found = _marked(examples, sep1, sep2)
    if found is None:
        return None
    filled, marked, codes = found
    count = np.zeros(len(examples), dtype=np.int64)
    if not filled.any():
        return count, [], np.zeros(0, np.int64), np.zeros(0, bool)
    table = _space_table()
    space = table[np.minimum(codes, len(table) - 1)] & (codes < len(table))
    edge = np.append(codes <= 2, True)  # marks; the last entry stands for both ends (index -1 and len)
    if (space & (edge[1:] | np.roll(edge, 1)[:-1])).any():  # white space next to a mark or an end: some to strip
        at = np.arange(len(codes))
        left = np.maximum.accumulate(np.where(space, -1, at))  # the nearest other character on the left, or -1
        right = np.minimum.accumulate(np.where(space, len(codes), at)[::-1])[::-1]  # on the right, or len
        strip = space & (edge[left] | edge[right])
        if strip.any():
            codes = codes[~strip]
            marked = codes.tobytes().decode("utf-32-le", "surrogatepass")
    count[filled], width = _quad_counts(codes)
    length = np.diff(np.append(np.flatnonzero(codes <= 2), len(codes)), prepend=-1) - 1  # of every element, in order
    empty = np.bincount(np.repeat(np.arange(len(width)), width)[length == 0], minlength=len(width)) > 0
    return count, marked.replace(_MARKS[0], _MARKS[1]).split(_MARKS[1]), width, empty


def _exact_pairing(predictions, references, width, sep2):
    """exact_only over quad strings, each sample with one reference: what _exact_columns
    reads, each quad keyed by its stripped text (so a malformed one matches no reference
    quad, which is never malformed); None where the general path must run."""
    if not all(map(isinstance, references, itertools.repeat(str))):
        return None
    sides = [_exact_quads(side, *sep2) for side in (predictions, references)]
    if None in sides:
        return None
    (n, texts_p, _, _), (m, texts_r, width_r, empty_r) = sides
    bad = np.flatnonzero((width_r != width) | empty_r)
    if len(bad):  # a reference is gold data: a malformed quad is an error
        k = int(bad[0])
        index = int(np.searchsorted(np.cumsum(m), k, side="right"))
        quad = tuple(texts_r[k].split(_MARKS[2]))
        problem = f"quad {k - int(np.cumsum(m)[index] - m[index]) + 1} {sep2[1].join(quad)!r} {malformation(quad, width)}"
        raise input_error("references", index, problem)
    vocabulary = {}
    first = np.fromiter(map(vocabulary.setdefault, itertools.chain(texts_p, texts_r), itertools.count()), np.int64, len(texts_p) + len(texts_r))
    keys = dense_codes(first, len(first))[1]
    pred, ref = types.SimpleNamespace(key=keys[: len(texts_p)]), types.SimpleNamespace(key=keys[len(texts_p) :])
    return types.SimpleNamespace(pred=pred, ref=ref, n=n, m=m, p0=_starts(n), r0=_starts(m))


_LISTS = {list, tuple}


def _exact_lists(predictions, references, tuple_len):
    """exact_only over quads given as lists or tuples of strings and nulls, each sample with
    one reference: what _exact_columns reads, read as _Side and _Pairing do (elements
    stripped, a null or blank target or opinion NULL, a malformed prediction keyed by its
    elements) but normalising each distinct quad once, so the per-quad work is one str.join
    and one dict look-up (_distinct_texts), or one tuple and one look-up where an element is
    no string. None where the general path must run: any other input, or a malformed
    reference quad (the general path names it in its error)."""
    if not set(map(type, predictions)) | set(map(type, references)) <= _LISTS:
        return None
    n, m = np.fromiter(map(len, predictions), np.int64, len(predictions)), np.fromiter(map(len, references), np.int64, len(references))  # while the lists are in the cache
    quads = list(itertools.chain.from_iterable(itertools.chain(predictions, references)))
    if not set(map(type, quads)) <= _LISTS:
        return None
    read = _distinct_texts(quads) or _distinct_tuples(quads)
    if read is None:
        return None
    at, width, raw = read  # each quad's rank among the distinct quads, their widths and elements (flat, a null as "")
    elements = list(map(str.strip, raw))
    starts = np.cumsum(width) - width
    owner = np.repeat(np.arange(len(width)), width)
    span = _may_be_implicit(width, tuple_len)
    blank = np.fromiter(map(len, elements), np.int64, len(elements)) == 0
    for k in np.flatnonzero(span & blank).tolist():  # a null or blank target or opinion given as data is implicit
        elements[k] = IMPLICIT
    good = (width == len(tuple_len)) & (np.bincount(owner[blank & ~span], minlength=len(width)) == 0)
    n_p = int(n.sum())
    if not good[at[n_p:]].all():
        return None
    codes = np.arange(len(width))
    if elements != raw:  # quads equal once normalised: coded again (a malformed quad never equals a well-formed one)
        normal = {}
        quads = [tuple(elements[a:b]) for a, b in zip(starts.tolist(), (starts + width).tolist())]
        codes = np.fromiter(map(normal.setdefault, quads, itertools.count()), np.int64, len(quads))
    keys = codes[at]
    pred, ref = types.SimpleNamespace(key=keys[:n_p]), types.SimpleNamespace(key=keys[n_p:])
    return types.SimpleNamespace(pred=pred, ref=ref, n=n, m=m, p0=_starts(n), r0=_starts(m))


_NUL = "\x00"


def _distinct_texts(quads):
    """(each quad's rank among the distinct quads, their widths, their elements flat) with
    each quad keyed by its elements joined by NUL (which also checks that every element is
    a string); None where that key is not the quad: an element that is no string, or one
    holding NUL, or a quad of no element. A quad of width w >= 1 makes a key of w pieces
    between NULs, one more for each NUL inside an element, and the empty quad's key "" one
    piece: so the distinct keys, joined by NUL and split, give as many pieces as their
    first quads' widths add up to only when each key is its first quad's elements; a later
    quad of another width under the same key is told by its width."""
    try:
        keys = list(map(_NUL.join, quads))
    except TypeError:
        return None
    seen = {}
    first = np.fromiter(map(seen.setdefault, keys, itertools.count()), np.int64, len(keys))
    at = dense_codes(first, len(first))[1]
    widths = np.fromiter(map(len, quads), np.int64, len(quads))
    width = widths[first == np.arange(len(first))]  # of each distinct key's first quad, in seen's order
    raw = _NUL.join(seen).split(_NUL) if seen else []
    if len(raw) != width.sum() or (widths != width[at]).any():
        return None
    return at, width, raw


def _distinct_tuples(quads):
    """_distinct_texts with each quad keyed by its tuple of elements (strings and nulls), a
    null given as ""; None where an element is neither."""
    seen = {}
    try:  # an unhashable element (a span, an object) is not a plain string: the general path
        first = np.fromiter(map(seen.setdefault, map(tuple, quads), itertools.count()), np.int64, len(quads))
    except TypeError:
        return None
    distinct = list(seen)
    raw = list(itertools.chain.from_iterable(distinct))
    if not set(map(type, raw)) <= _ELEMENT_TYPES:
        return None
    return dense_codes(first, len(first))[1], np.fromiter(map(len, distinct), np.int64, len(distinct)), ["" if e is None else e for e in raw]


def _starts(counts):
    return np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)


class _Pairing:
    """Both sides' quads and every candidate: a (sample, reference) pair with its runs of
    n predicted and m reference quads, whose n x m block of degrees is compared."""

    def __init__(self, predictions, references, tuple_len, sep1, sep2, sides=None):
        self.tuple_len, self.sep2, width = tuple_len, sep2, len(tuple_len)
        if sides is None:
            self.pred = _Side(predictions, tuple_len, sep1, sep2)
            options = [reference_options(r) for r in references]
            self.ref = _Side([e for o, _ in options for e in o], tuple_len, sep1, sep2)
        else:  # sides read from tables (score_table): one reference a sample
            self.pred, self.ref = sides
            options = [([None], False)] * len(self.ref.count)
        sample = np.repeat(np.arange(len(options)), [len(o) for o, _ in options]).astype(np.int64)
        # self.strings holds the distinct elements of both sides in the order they first
        # occur, so an element's id is the rank of its first occurrence.
        vocabulary = {}
        shared = self.ref.elements is self.pred.elements  # both sides read from one table
        elements = self.pred.elements if shared else itertools.chain(self.pred.elements, self.ref.elements)
        first = np.fromiter(map(vocabulary.setdefault, elements, itertools.count()), np.int64)
        self.strings = list(vocabulary)
        ids = dense_codes(first, len(first))[1]
        empty = ids[vocabulary[""]] if "" in vocabulary else -1
        self.implicit = ids[vocabulary[IMPLICIT]] if IMPLICIT in vocabulary else -2  # the id of NULL
        self.pred.identify(ids[: len(self.pred.elements)], empty, width)
        self.ref.identify(ids[: len(self.pred.elements)] if shared else ids[len(self.pred.elements) :], empty, width)
        bad = np.flatnonzero(~self.ref.good)
        if len(bad):  # a reference is gold data: a malformed quad is an error
            k = int(bad[0])
            example = int(np.searchsorted(self.ref.start + self.ref.count, k, side="right"))
            index, number = int(sample[example]), example - int(np.searchsorted(sample, sample[example]))
            where = f"{index}][{number}" if options[index][1] else index
            problem = f"quad {k - self.ref.start[example] + 1} {self.text(self.ref, k)!r} {self.ref.problem(k, width)}"
            raise input_error("references", where, problem)
        self.sample = sample
        self.number = np.arange(len(sample)) - np.searchsorted(sample, sample)
        self.p0, self.n = self.pred.start[sample], self.pred.count[sample]
        self.r0, self.m = self.ref.start, self.ref.count
        # Quad keys are equal for equal quads and dense: below the number of quads, so that
        # (candidate, key) codes fit in int64 (_exact_columns). A malformed quad is keyed by
        # its elements, above every well-formed key.
        n_good = int(self.pred.good.sum())
        keys = _row_codes(np.concatenate([self.pred.ids[self.pred.good], self.ref.ids[self.ref.good]]), len(self.strings))
        keys = np.unique(keys, return_inverse=True)[1].ravel()
        above = int(keys.max(initial=-1)) + 1
        malformed = {}  # by elements, not text: ("a | b", "c") and ("a", "b | c") are two quads
        for side, key in ((self.pred, keys[:n_good]), (self.ref, keys[n_good:])):
            side.key = np.zeros(len(side.good), dtype=np.int64)
            side.key[side.good] = key
            bad = np.flatnonzero(~side.good)
            rows, at = np.unique(bad if side.numbers is None else side.numbers[bad], return_inverse=True)  # each malformed quad read once
            side.key[bad] = above + np.array([malformed.setdefault(side.row(r), len(malformed)) for r in rows.tolist()], np.int64)[at.ravel()]

    def text(self, side, k):
        return self.sep2.join(side.quad(k))

    def score_pairs(self, weights, similarity, soft):
        """Element similarities (self.sims) and degree (self.degree) of every pair of the
        candidates marked `soft`, flat; candidate c's block is row-major from self.offset[c]
        (empty where not soft)."""
        size = self.n * self.m * soft
        self.offset = np.concatenate([[0], np.cumsum(size)]).astype(np.int64)
        owner = np.repeat(np.arange(len(size)), size)
        local = np.arange(self.offset[-1]) - self.offset[owner]
        columns = np.maximum(self.m[owner], 1)
        self.pair_p = self.p0[owner] + local // columns
        self.pair_r = self.r0[owner] + local % columns
        a, b = self.pred.ids[self.pair_p], self.ref.ids[self.pair_r]
        self.sims = (a == b).astype(float)
        free = [j for j, element in enumerate(self.tuple_len) if int(element) in FREE_TEXT]
        if similarity == "rouge_l" and free:  # targets and opinions in one batch
            self.sims[:, free] = _pair_similarity(a[:, free].ravel(), b[:, free].ravel(), self.strings).reshape(-1, len(free))
        self.degree = self.sims @ weights / weights.sum()

    def block(self, c):
        return self.degree[self.offset[c] : self.offset[c + 1]].reshape(self.n[c], self.m[c])

    def alignment(self, c):
        """Candidate c's matched pairs (degree > 0) with each element's similarity, then its
        predicted and reference quads left unmatched."""
        block = self.block(c)
        rows, columns = best_assignment(block) if block.size else (np.zeros(0, np.int64), np.zeros(0, np.int64))
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
        row = {"prediction": None if p is None else self.text(self.pred, p), "reference": None if r is None else self.text(self.ref, r)}
        row.update(similarity=similarity, degree=float(degree))
        if p is not None and not self.pred.good[p]:
            row["malformed"] = self.pred.problem(p, len(self.tuple_len))
        return row


def _row_codes(ids, size):
    """A code per row of ids (values in [0, size)), equal for equal rows: the row read as a
    number in base `size`, renumbered densely whenever the next column could overflow."""
    code, bound = np.zeros(len(ids), dtype=np.int64), 1
    for column in ids.T:
        if bound * max(size, 1) >= 2**62:
            code = np.unique(code, return_inverse=True)[1].ravel()
            bound = int(code.max(initial=0)) + 1
        code, bound = code * size + column, bound * size
    return code


def _pair_similarity(a, b, strings):
    """ROUGE-L of the strings whose ids are a[i] and b[i] (1 where the ids are equal, 0 where
    a quad is malformed)."""
    out = (a == b).astype(float)
    todo = np.flatnonzero((a != b) & (a >= 0))
    if len(todo):
        out[todo] = rouge_l_pairs(strings, a[todo], b[todo])
    return out


def _exact_columns(pairing, duplicates):
    """Exact-match counts of every candidate at once: (hits, n, m, repeated hits) arrays.
    Each side's quads are coded candidate * n_keys + quad key and sorted; each distinct
    predicted code finds its reference copies by binary search. Keys are dense (below the
    number of quads), so codes stay below candidates x quads, inside int64 for any corpus
    that fits in memory; past 2^63 they would wrap silently, hence the check."""
    n_keys = int(max(pairing.pred.key.max(initial=-1), pairing.ref.key.max(initial=-1))) + 1
    if len(pairing.n) * n_keys >= 2**63:
        raise ValueError(f"{len(pairing.n):,} candidates x {n_keys:,} distinct quads do not fit the int64 codes of exact match")
    size, none = len(pairing.n), np.zeros(len(pairing.n))
    code_p, code_r = (_pair_codes(side.key, count, start, n_keys) for side, count, start in ((pairing.pred, pairing.n, pairing.p0), (pairing.ref, pairing.m, pairing.r0)))
    first = np.flatnonzero(np.diff(code_p, prepend=-1))  # codes are >= 0
    values, count_p = code_p[first], np.diff(first, append=len(code_p))
    count_r = np.searchsorted(code_r, values, "right") - np.searchsorted(code_r, values, "left")
    owner = values // n_keys
    one_to_one = np.bincount(owner, weights=np.minimum(count_p, count_r), minlength=size)
    if duplicates == "multiset":
        return one_to_one, pairing.n, pairing.m, none
    if duplicates == "list":  # every predicted copy of a gold quad is a hit
        hits = np.bincount(owner, weights=count_p * (count_r > 0), minlength=size)
        return hits, pairing.n, pairing.m, hits - one_to_one
    distinct_r = code_r[np.flatnonzero(np.diff(code_r, prepend=-1))]
    return np.bincount(owner[count_r > 0], minlength=size), np.bincount(owner, minlength=size), np.bincount(distinct_r // n_keys, minlength=size), none


def _pair_codes(key, count, start, n_keys):
    """The sorted codes candidate * n_keys + quad key of every candidate's quads (count[c]
    of them, from start[c] in key)."""
    owner = np.repeat(np.arange(len(count)), count)
    at = np.arange(len(owner)) + np.repeat(start - (np.cumsum(count) - count), count)
    return np.sort(owner * n_keys + key[at])


def _line_optima(pairing, blocks):
    """The optimal matched total of each of these candidates' blocks where it needs no
    Hungarian algorithm, NaN elsewhere. Degrees are >= 0, so no matching beats the sum of
    the rows' maxima; when the rows whose maximum is above 0 have their first maxima in
    distinct columns, those pairs are a matching that reaches it, so it is the optimum.
    Likewise with the columns for rows. Totals are summed line by line, in order."""
    size = pairing.n[blocks] * pairing.m[blocks]
    owner = np.repeat(np.arange(len(blocks)), size)
    local = np.arange(int(size.sum())) - np.repeat(np.cumsum(size) - size, size)
    values = pairing.degree[pairing.offset[blocks][owner] + local]
    row, column = np.divmod(local, pairing.m[blocks][owner])
    above = int(max(pairing.n[blocks].max(), pairing.m[blocks].max())) + 1
    out = np.full(len(blocks), np.nan)
    for line, other in ((row, column), (column, row)):
        order = np.lexsort((other, line, owner))
        block, line, other, value = owner[order], line[order], other[order], values[order]
        starts = np.flatnonzero(np.r_[True, (block[1:] != block[:-1]) | (line[1:] != line[:-1])])
        best = np.maximum.reduceat(value, starts)
        ties = np.flatnonzero(value == np.repeat(best, np.diff(np.r_[starts, len(value)])))
        line_of = np.searchsorted(starts, ties, side="right") - 1
        partner = other[ties[np.r_[True, line_of[1:] != line_of[:-1]]]]  # each line's first maximum
        owners = block[starts]
        taken = np.sort((owners * above + partner)[best > 0])  # below blocks x (quads + 1): int64
        solved = np.ones(len(blocks), bool)
        solved[taken[1:][taken[1:] == taken[:-1]] // above] = False  # two lines want one partner
        total = np.bincount(owners, weights=best, minlength=len(blocks))
        fill = solved & np.isnan(out)
        out[fill] = total[fill]
    return out


def _statistics(pairing, duplicates, soft):
    """One row of STATS per candidate. The matched total is the block's maximum where one
    side has a single quad, the sum of its lines' maxima where they pick distinct partners
    (_line_optima), the Hungarian optimum elsewhere, and 0 where not `soft`."""
    n, m = pairing.n, pairing.m
    matched = np.zeros(len(n))
    filled = np.diff(pairing.offset) > 0
    if filled.any():  # blocks are consecutive, so each maximum runs from one block's start to the next's
        matched[filled] = np.maximum.reduceat(pairing.degree, pairing.offset[:-1][filled])
    several = np.flatnonzero((np.minimum(n, m) > 1) & soft)
    if len(several):
        matched[several] = _line_optima(pairing, several)
    for c in several[np.isnan(matched[several])].tolist():
        block = pairing.block(c)
        matched[c] = block[best_assignment(block)].sum()
    most = np.maximum(n, m)
    score = np.where(most > 0, matched / np.maximum(most, 1), 1.0)  # nothing to find and nothing found: perfect
    return np.column_stack([matched, n, m, *_exact_columns(pairing, duplicates), score, np.ones(len(n))])


def _best_references(pairing, rows, n_samples):
    """Per sample, the candidate whose reference scores highest (ties to the first)."""
    order = np.lexsort((-rows[:, STATS.index("score")], pairing.sample))  # stable: ties keep the first
    first = np.ones(len(order), dtype=bool)
    first[1:] = pairing.sample[order][1:] != pairing.sample[order][:-1]
    return order[first]


EXACT_KEYS = tuple(key for key in KEYS if key.startswith("exact"))
# ACOS's split of the exact figures (NUSTM/ACOS measureQuad_imp): explicit or implicit
# aspect term (our target) and opinion, in its order EA&EO, IA&EO, EA&IO, IA&IO.
IMPLICITNESS = ("ea_eo", "ia_eo", "ea_io", "ia_io")


def _implicitness(pairing):
    """Per candidate, which of the IMPLICITNESS kinds its reference's quads include, as ACOS
    types a sentence by its gold quads: a (candidates, 4) bool array. A sample counts, whole,
    in every kind it includes; one without gold quads in none."""
    columns = [pairing.tuple_len.index("0"), pairing.tuple_len.index("1")]
    implicit = pairing.ref.ids[:, columns] == pairing.implicit  # reference quads are never malformed
    present = np.zeros((len(pairing.m), len(IMPLICITNESS)), bool)
    present[np.repeat(np.arange(len(pairing.m)), pairing.m), implicit[:, 0] + 2 * implicit[:, 1]] = True
    return present


def ratios(sums, zero_division=0.0, keys=KEYS):
    """The headline numbers (`keys`) from sums of STATS rows (shape (..., len(STATS)))."""
    matched, n, m, hits, exact_n, exact_m, _, score, samples = np.moveaxis(np.asarray(sums, dtype=float), -1, 0)
    out = {}
    for prefix, values in (("optimal", prf(matched, n, m, zero_division)), ("exact", prf(hits, exact_n, exact_m, zero_division))):
        out.update(zip((f"{prefix}_precision", f"{prefix}_recall", f"{prefix}_f1"), values))
    out["optimal_score"] = divide(score, samples, zero_division)
    return {key: out[key] for key in keys}


def legacy(result, weights):
    """The three keys of yuyijiong/quad_match_score, its exact F1 rounded to 4 places as it prints it."""
    suffix = str(tuple(weights))
    return {
        "f1 of exact match": round(result["exact_f1"], 4),
        f"f1 of optimal match of weight {suffix}": result["optimal_f1"],
        f"score of optimal match of weight {suffix}": result["optimal_score"],
    }


# ---------------------------------------------------------------------------------------
# DiaASQ's own table: unikcc/DiaASQ src/run_eval.py, Template.forward's 13 calls of
# compute_score, over its own dialogue files.
#
# What it compares, per dialogue, as sets (duplicates collapse): token spans (start, end),
# end exclusive, never texts. A triplet [t_s, t_e, a_s, a_e, o_s, o_e, polarity, target,
# aspect, opinion] with -1 among its six span indices (an implicit element) is left out of
# every quad row; every polarity but "pos" and "neg" is "other". The element rows compare
# the (start, end) of the dialogue's "targets", "aspects", "opinions" lists; the pair rows
# the prediction's "ta", "to", "ao" lists (its model writes them) against the gold
# triplets' pairs without -1. The thread rows keep the quads whose three utterances lie
# within a reply distance: the largest distance between the utterances of the target's,
# aspect's and opinion's first tokens, in the threads get_token_thread cuts.

DIAASQ_ROWS = ("target", "aspect", "opinion", "ta", "to", "ao", "micro", "iden", "intra", "inter", "cross_1", "cross_2", "cross_3")
DIAASQ_NAMES = ("Target", "Aspect", "Opinion", "TA", "TO", "AO", "Micro", "Iden", "Intra", "Inter", "Cross-1", "Cross-2", "Cross-3")  # as it prints them
DIAASQ_KEYS = tuple(f"{row}_{figure}" for row in DIAASQ_ROWS for figure in ("precision", "recall", "f1"))
CONVENTIONS = ("diaasq",)
DIAASQ_OPTIONS = ("predictions", "references", "zero_division", "confidence_level", "n_resamples", "seed", "return_signature", "convention")
# The lists each of the first six rows reads from a prediction (gold elements from the same
# keys; gold pairs from the triplets), and for a pair the span indices of a triplet it takes.
DIAASQ_LISTS = {"target": "targets", "aspect": "aspects", "opinion": "opinions", "ta": "ta", "to": "to", "ao": "ao"}
DIAASQ_PAIRS = {"ta": (0, 1, 2, 3), "to": (0, 1, 4, 5), "ao": (2, 3, 4, 5)}
# The reply distance each thread row keeps (lowest, highest).
DIAASQ_DISTANCES = {"intra": (0, 0), "inter": (1, float("inf")), "cross_1": (1, 1), "cross_2": (2, 2), "cross_3": (3, float("inf"))}


def _is_index(value):
    return type(value) is int  # DiaASQ asserts int; a JSON true would pass there as 1


def _check_triplets(dialogue, argument, index, tokens):
    """DiaASQ's triplets: 10 entries, six span indices (ints, -1 for an implicit element),
    a polarity string (any value where a span index is -1: such a triplet is no quad). A
    quad's first token indices must fall in the dialogue, whose utterance DiaASQ looks up."""
    triplets = dialogue["triplets"]
    if not isinstance(triplets, list):
        raise input_error(argument, index, f"triplets is a {type(triplets).__name__}, not a list")
    for number, t in enumerate(triplets, 1):
        if not isinstance(t, (list, tuple)) or len(t) != 10:
            raise input_error(argument, index, f"triplet {number} {_short_json(t)} is not a list of 10 entries [t_start, t_end, a_start, a_end, o_start, o_end, polarity, target, aspect, opinion]")
        bad = [v for v in t[:6] if not _is_index(v) or v < -1]
        if bad:
            raise input_error(argument, index, f"triplet {number} has the span index {bad[0]!r}: span indices are integers >= 0, or -1 for an implicit element")
        if -1 in t[:6]:
            continue
        if not isinstance(t[6], str):
            raise input_error(argument, index, f"triplet {number} has the polarity {t[6]!r}, not a string (DiaASQ asserts one in every triplet without a -1 span index)")
        far = [v for v in t[:6:2] if v >= tokens]
        if far:
            raise input_error(argument, index, f"triplet {number} starts a span at token {far[0]}, past the {tokens} tokens of the gold dialogue's sentences (DiaASQ would fail looking up its utterance)")


def _short_json(value, width=80):
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _check_spans(dialogue, key, width, argument, index):
    """A list of spans (element lists: [start, end, ...]; pair lists: 4 indices first)."""
    spans = dialogue[key]
    if not isinstance(spans, list):
        raise input_error(argument, index, f"{key} is a {type(spans).__name__}, not a list")
    for number, span in enumerate(spans, 1):
        if not isinstance(span, (list, tuple)) or len(span) < width or not all(map(_is_index, span[:width])):
            raise input_error(argument, index, f"{key} entry {number} {_short_json(span)} does not start with {width} integer token indices")


def _thread_places(replies):
    """Each utterance's (thread, position), as get_token_thread cuts the dialogue: utterance 0
    alone is thread 0; utterance 1 opens a thread, and each later one continues the current
    thread when its reply index is above the previous utterance's, or opens a new one."""
    places, thread, position = [(0, 0)], 0, 0
    for i in range(1, len(replies)):
        if i > 1 and replies[i] > replies[i - 1]:
            position += 1
        else:
            thread, position = thread + 1, 0
        places.append((thread, position))
    return places


def _reply_distance(places, a, b):
    """get_token_thread's distance of utterances a and b: apart within a thread; through the
    root (thread 0) one step more; between two other threads two more."""
    (ta, pa), (tb, pb) = places[a], places[b]
    if ta == tb:
        return abs(pa - pb)
    return pa + pb + (1 if ta == 0 or tb == 0 else 2)


def _diaasq_quads(triplets):
    """The quads compute_score keeps: (six span indices, polarity merged), skipping -1."""
    return [(*t[:6], t[6] if t[6] in ("pos", "neg") else "other") for t in triplets if -1 not in t[:6]]


def diaasq_counts(prediction, gold, rows=DIAASQ_ROWS):
    """One dialogue's (hits, predicted, gold) set sizes for each of `rows`, as compute_score
    adds them: an int array of shape (len(rows), 3). Inputs checked (check_dialogues)."""
    sentence = [i for i, text in enumerate(gold["sentences"]) for _ in text.split()]  # utterance of each token
    places = _thread_places(gold["replies"])

    def distance(quad):
        a, b, c = (sentence[quad[k]] for k in (0, 2, 4))
        return max(_reply_distance(places, a, b), _reply_distance(places, b, c), _reply_distance(places, a, c))

    sides = []
    for side, is_gold in ((prediction, False), (gold, True)):
        quads = _diaasq_quads(side["triplets"])
        far = [distance(q) for q in quads]
        sets = {}
        for row in rows:
            if row in ("target", "aspect", "opinion"):
                sets[row] = {tuple(span[:2]) for span in side[DIAASQ_LISTS[row]]}
            elif row in DIAASQ_PAIRS:
                if is_gold:
                    pick = DIAASQ_PAIRS[row]
                    sets[row] = {tuple(t[k] for k in pick) for t in side["triplets"] if all(t[k] != -1 for k in pick)}
                else:
                    sets[row] = {tuple(span[:4]) for span in side[row]}
            elif row == "micro":
                sets[row] = set(quads)
            elif row == "iden":
                sets[row] = {q[:6] for q in quads}
            else:
                low, high = DIAASQ_DISTANCES[row]
                sets[row] = {q for q, d in zip(quads, far) if low <= d <= high}
        sides.append(sets)
    return np.array([(len(sides[0][r] & sides[1][r]), len(sides[0][r]), len(sides[1][r])) for r in rows], dtype=np.int64)


def is_dialogues(predictions, references):
    """Whether every example is an object with a doc_id: DiaASQ's dialogues."""
    return all(isinstance(d, dict) and "doc_id" in d for side in (predictions, references) for d in side)


def check_dialogues(predictions, references):
    """DiaASQ's prediction and gold files' dialogues, checked, predictions put in the
    references' order by doc_id: (predictions, the rows they can be scored on). Where
    DiaASQ would fail (a missing key, a span index past the dialogue) or keep one of two
    dialogues with the same doc_id, this is a ValueError naming the dialogue."""
    check_same_length(predictions, references)
    for argument, side in (("predictions", predictions), ("references", references)):
        for index, dialogue in enumerate(side):
            if not isinstance(dialogue, dict) or "doc_id" not in dialogue:
                raise input_error(argument, index, f"is {_short_json(dialogue)}, not a DiaASQ dialogue (an object with doc_id and triplets)")
            need = ("triplets", "sentences", "replies") if argument == "references" else ("triplets",)
            missing = [key for key in need if key not in dialogue]
            if missing:
                raise input_error(argument, index, f"(doc_id {dialogue['doc_id']!r}) has no {missing[0]!r}, which DiaASQ reads")
    at = {}
    for index, gold in enumerate(references):
        doc_id = gold["doc_id"]
        if not isinstance(doc_id, (str, int)):
            raise input_error("references", index, f"doc_id {doc_id!r} is not a string or an integer")
        if doc_id in at:
            raise input_error("references", index, f"doc_id {doc_id!r} is also that of references[{at[doc_id]}]: DiaASQ keys dialogues by it and would keep only the last")
        at[doc_id] = index
    order = [None] * len(references)
    for index, dialogue in enumerate(predictions):
        place = at.get(dialogue["doc_id"]) if isinstance(dialogue["doc_id"], (str, int)) else None
        if place is None or order[place] is not None:
            problem = "is not among the references'" if place is None else f"is also that of predictions[{order[place]}]"
            raise input_error("predictions", index, f"doc_id {dialogue['doc_id']!r} {problem}: DiaASQ scores each gold dialogue against the prediction with its doc_id")
        order[place] = index
    # The element and pair rows read lists a prediction may lack (a generative model's
    # output has triplets alone): a row is scored when every prediction gives its list.
    rows = [row for row in DIAASQ_ROWS if DIAASQ_LISTS.get(row) is None or all(DIAASQ_LISTS[row] in p for p in predictions)]
    for key in sorted({DIAASQ_LISTS[row] for row in DIAASQ_LISTS if row not in rows}):
        given = [index for index, p in enumerate(predictions) if key in p]
        if given:
            raise input_error("predictions", given[0], f"gives {key!r} but predictions[{next(i for i, p in enumerate(predictions) if key not in p)}] does not: give it in every prediction (its rows) or in none")
    for index, gold in enumerate(references):
        sentences, replies = gold["sentences"], gold["replies"]
        if not isinstance(sentences, list) or not all(isinstance(s, str) for s in sentences):
            raise input_error("references", index, "sentences is not a list of strings (utterances, tokens split on white space)")
        if not isinstance(replies, list) or not all(map(_is_index, replies)) or len(replies) < len(sentences):
            raise input_error("references", index, f"replies is not a list of integers, one per sentence ({len(sentences)})")
        tokens = sum(len(s.split()) for s in sentences)
        _check_triplets(gold, "references", index, tokens)
        _check_triplets(predictions[order[index]], "predictions", order[index], tokens)
        for row in rows:
            if row in ("target", "aspect", "opinion"):
                if DIAASQ_LISTS[row] not in gold:
                    raise input_error("references", index, f"has no {DIAASQ_LISTS[row]!r}, which DiaASQ's {row} row reads")
                _check_spans(gold, DIAASQ_LISTS[row], 2, "references", index)
                _check_spans(predictions[order[index]], DIAASQ_LISTS[row], 2, "predictions", order[index])
            elif row in DIAASQ_PAIRS:
                _check_spans(predictions[order[index]], row, 4, "predictions", order[index])
    return [predictions[i] for i in order], rows


def diaasq_ratios(sums, rows, zero_division=0.0):
    """P, R, F1 of each row from summed (hits, predicted, gold), as compute_score divides:
    F1 = 2PR / (P + R), 0 when P + R = 0."""
    sums = np.asarray(sums, dtype=float)
    out = {}
    for j, row in enumerate(rows):
        hits, predicted, gold = np.moveaxis(sums[..., j, :], -1, 0)
        p, r = divide(hits, predicted, zero_division), divide(hits, gold, zero_division)
        out.update({f"{row}_precision": p, f"{row}_recall": r, f"{row}_f1": harmonic_mean(p, r)})
    return out


def diaasq_compute(predictions, references, zero_division=0.0, confidence_level=None, n_resamples=1000, seed=None, return_signature=False):
    """DiaASQ's table (compute_score of every row of Template.forward) over dialogues as its
    prediction and gold files hold them: keys <row>_precision, <row>_recall, <row>_f1 for
    the rows of DIAASQ_ROWS (the element and pair rows only when the predictions give their
    lists)."""
    fam = DiaasqFamily({"convention": "diaasq", "zero_division": check_zero_division(zero_division)})
    if confidence_level is not None:
        check_bootstrap(confidence_level, n_resamples)
    result = evaluate(fam, fam.rows(predictions, references), confidence_level, n_resamples, seed)
    if return_signature:
        result["signature"] = with_references(signature("quad_match", convention="diaasq", zero_division=fam.options["zero_division"], **bootstrap_options(confidence_level, n_resamples, seed)), references)
    return result


class DiaasqFamily(Family):
    """quad_match(convention="diaasq"): per gold dialogue the (hits, predicted, gold) counts
    of every row of DIAASQ_ROWS (0 for a row the predictions give no list for). Its records
    keep compute()'s corpus-wide rules across batches: which element and pair lists the
    predictions give (a row is scored when every prediction gives its list: a list given in
    one part and not in another is refused, as compute refuses it) and the gold doc_ids (one
    doc_id in two parts is refused: DiaASQ would keep only the last). A state's shard holds
    each dialogue's prediction with its gold (paired by doc_id). Two systems are compared on
    the rows both can be scored on."""

    name = "quad_match"
    counts = (True,) * (3 * len(DIAASQ_ROWS))

    def headline(self):
        return "micro_f1"

    def rows(self, predictions, references):
        predictions, references = as_corpus(predictions, "predictions"), as_corpus(references, "references")
        ordered, rows = check_dialogues(predictions, references)
        table = np.zeros((len(references), len(DIAASQ_ROWS), 3), dtype=np.int64)
        at = [DIAASQ_ROWS.index(row) for row in rows]
        for i, (p, g) in enumerate(zip(ordered, references)):
            table[i, at] = diaasq_counts(p, g, rows)
        given = {DIAASQ_LISTS[row]: row in rows for row in DIAASQ_LISTS} if len(predictions) else {}
        return Batch(table.reshape(len(references), 3 * len(DIAASQ_ROWS)).astype(float), None, {"given": given, "doc_ids": [gold["doc_id"] for gold in references]})

    def scored(self, records):
        given = (records or {}).get("given", {})
        return [row for row in DIAASQ_ROWS if row not in DIAASQ_LISTS or given.get(DIAASQ_LISTS[row], True)]

    def columns(self, records):
        return np.array([3 * DIAASQ_ROWS.index(row) + k for row in self.scored(records) for k in range(3)], dtype=np.int64)

    def reduce(self, totals, records=None):
        rows = self.scored(records)
        totals = np.asarray(totals, dtype=float)
        return diaasq_ratios(totals[..., self.columns(records)].reshape(*totals.shape[:-1], len(rows), 3), rows, self.options["zero_division"])

    def resampling(self, table, counts, records=None):
        table, counts = paired_table(table, counts, self.columns(records))  # compute's rows hold the scored rows alone
        rows = self.scored(records)
        return counts, lambda weights: diaasq_ratios((weights @ table).reshape(*np.shape(weights)[:-1], len(rows), 3), rows, self.options["zero_division"])

    def _merge_records(self, mine, theirs, where):
        for key, value in theirs["given"].items():
            if mine["given"].get(key, value) != value:
                raise ValueError(f"{where}: the predictions {'give' if value else 'do not give'} {key!r} but earlier ones {'do' if mine['given'][key] else 'do not'}: give it in every prediction (its rows) or in none, as compute requires")
        seen = set(mine["doc_ids"])
        again = next((doc_id for doc_id in theirs["doc_ids"] if doc_id in seen), None)
        if again is not None:
            raise ValueError(f"{where}: gold doc_id {again!r} is also in an earlier shard: DiaASQ keys dialogues by it and would keep only the last")
        return {"given": {**mine["given"], **theirs["given"]}, "doc_ids": mine["doc_ids"] + theirs["doc_ids"]}

    def paired_records(self, *records):
        """The rows every system can be scored on (the gold doc_ids are the same)."""
        keys = {key for r in records for key in r["given"]}
        return {"given": {key: all(r["given"].get(key, True) for r in records) for key in keys}, "doc_ids": records[0]["doc_ids"]}

    def paired(self, *batches):
        records = self.paired_records(*(batch.records for batch in batches))
        columns, rows = self.columns(records), self.scored(records)
        return [encode_rows(batch.table[:, columns]) for batch in batches], lambda weights, table: diaasq_ratios((weights @ table).reshape(*np.shape(weights)[:-1], len(rows), 3), rows, self.options["zero_division"])

    def load_records(self, data):
        if data is None:
            return None
        if not isinstance(data, dict) or set(data) != {"given", "doc_ids"}:
            raise ValueError(f"records: {data!r:.80} is not DiaASQ's given lists and doc_ids")
        given, doc_ids = data["given"], data["doc_ids"]
        if not isinstance(given, dict) or not all(key in DIAASQ_LISTS.values() and isinstance(v, bool) for key, v in given.items()):
            raise ValueError(f"given: {given!r:.80} is not a map of DiaASQ list names to true or false")
        if not isinstance(doc_ids, list) or not all(isinstance(d, (str, int)) and not isinstance(d, bool) for d in doc_ids) or len(set(doc_ids)) != len(doc_ids):
            raise ValueError("doc_ids: not a list of distinct DiaASQ doc_ids (strings or integers)")
        return {"given": dict(given), "doc_ids": list(doc_ids)}

    def check(self, totals, where):
        hits, predicted, gold = np.moveaxis(np.asarray(totals).reshape(len(totals), -1, 3), -1, 0)
        if ((hits > predicted) | (hits > gold)).any():
            raise ValueError(f"{where}: DiaASQ hits above the predicted or gold count")


# ---------------------------------------------------------------------------------------
# The metric


def _score(predictions, references, weights, tuple_len, sep_token1, sep_token2, similarity, duplicates, exact_only=False, by_text=True):
    """Checked inputs, paired and scored: (pairing, STATS row of every candidate, the
    candidate chosen for each sample). exact_only: the soft match (pair degrees, Hungarian)
    runs only for samples with several references, to choose the one that counts, so the
    exact counts are those of the full run; the other rows' matched total and score are 0.
    by_text=False: not the exact_only path over quad texts (which returns no pairing)."""
    _check_tuple_len(tuple_len)
    check_choice("similarity", similarity, SIMILARITIES)
    check_choice("duplicates", duplicates, DUPLICATES)
    used_weights = _check_weights(weights, tuple_len)
    _check_separators(sep_token1, sep_token2)
    predictions, references = as_corpus(predictions, "predictions"), as_corpus(references, "references")
    check_same_length(predictions, references)
    fast = _exact_lists(predictions, references, tuple_len) if exact_only and by_text else None  # checks as it reads
    if fast is None:
        check_inputs(predictions, references)
    if fast is None and exact_only and by_text:
        fast = _exact_pairing(predictions, references, len(tuple_len), (sep_token1, sep_token2))
    if fast is not None:  # no element ids, no soft match: the exact counts from quad texts
        none = np.zeros(len(predictions))
        rows = np.column_stack([none, fast.n, fast.m, *_exact_columns(fast, duplicates), none, np.ones(len(predictions))])
        _warn_repeated_hits(rows)
        return None, rows, np.arange(len(predictions))
    pairing = _Pairing(predictions, references, tuple_len, sep_token1, sep_token2)
    soft = np.bincount(pairing.sample, minlength=len(predictions))[pairing.sample] > 1 if exact_only else np.ones(len(pairing.n), bool)
    pairing.score_pairs(used_weights, similarity, soft)
    rows = _statistics(pairing, duplicates, soft)
    chosen = _best_references(pairing, rows, len(predictions))
    _warn_repeated_hits(rows[chosen])
    return pairing, rows, chosen


def score_table(quads, predicted, n, referenced, m, weights=(1, 1, 1, 1), tuple_len="0123", similarity="rouge_l", duplicates="multiset"):
    """The STATS row of each sample whose quads are rows of one table of distinct quads
    (lists of strings and nulls in tuple_len order, read as quads given as data), such as
    parse.QuadReader gives: `predicted` and `referenced` the rows of every predicted and
    reference quad, flat, `n` and `m` each sample's counts; one reference a sample. Each
    row is normalised once. The rows equal _score's of the same quads given as lists."""
    _check_tuple_len(tuple_len)
    check_choice("similarity", similarity, SIMILARITIES)
    check_choice("duplicates", duplicates, DUPLICATES)
    used_weights = _check_weights(weights, tuple_len)
    pred = _Side.table(quads, predicted, np.asarray(n, dtype=np.int64), tuple_len)
    ref = copy.copy(pred)
    ref.count, ref.start, ref.numbers = np.asarray(m, dtype=np.int64), _starts(m), np.asarray(referenced, dtype=np.int64)
    pairing = _Pairing(None, None, tuple_len, QUAD_SEP, ELEMENT_SEP, sides=(pred, ref))
    soft = np.ones(len(pairing.n), bool)
    pairing.score_pairs(used_weights, similarity, soft)
    return _statistics(pairing, duplicates, soft)


def _warn_repeated_hits(rows):
    """The list rule's figure is the papers', kept, but never silently: name the samples
    where a repeated predicted quad earned more hits than its gold copies."""
    repeated = rows[:, STATS.index("repeated_hits")]
    where = np.flatnonzero(repeated > 0)
    if len(where):
        shown = ", ".join(f"predictions[{i}]" for i in where[:5].tolist()) + (f" and {len(where) - 5:,} more samples" if len(where) > 5 else "")
        warnings.warn(
            f'duplicates="list" (the ASQP, MvP and ACOS count): {int(repeated.sum()):,} exact hits come from predicted quads '
            f"repeated beyond their gold copies ({shown}); exact precision and recall count each copy, so recall can pass 1 "
            '(result key "exact_repeated_hits"; duplicates="multiset" counts one-to-one)',
            stacklevel=4,
        )


SCORING = ("weights", "tuple_len", "sep_token1", "sep_token2", "similarity", "duplicates", "exact_only", "implicit_split", "spans", "parse", "parse_references", "strict", "zero_division")


def headline(**options):
    """What `paperscore compare` compares by default: DiaASQ's Micro F1 under its
    convention, the optimal F1 (exact F1 with exact_only)."""
    return family(**{name: value for name, value in options.items() if name in SCORING or name == "convention"}).headline()


def family(convention=None, **options):
    """quad_match's statistics (paperscore.family) for compute()'s scoring options."""
    if convention is not None:
        check_choice("convention", convention, CONVENTIONS)
        for name in options:
            if name != "zero_division":
                raise ValueError(f"{name}: does not apply with convention={convention!r} (DiaASQ's table takes zero_division alone; bootstrap options go to compute())")
        return DiaasqFamily({"convention": convention, "zero_division": check_zero_division(options.get("zero_division", 0.0))})
    return QuadFamily(scoring_options(compute, options, SCORING, "quad_match"))


class QuadFamily(Family):
    """quad_match's statistics: per sample its STATS row (matched and score are sums of
    ROUGE-L degrees, floats; the rest count). With implicit_split a row is STATS, then STATS
    once per IMPLICITNESS kind (the sample's row where its reference includes that kind,
    else 0): ACOS's split is a sum too. The bootstrap resamples the STATS columns alone, as
    compute() does."""

    name = "quad_match"

    def __init__(self, options):
        o = options
        o["zero_division"] = check_zero_division(o["zero_division"])
        check_parser_options(o["parse"], o["strict"], parse_references=o["parse_references"] is not True)
        check_flags(exact_only=o["exact_only"], implicit_split=o["implicit_split"], parse_references=o["parse_references"])
        tuple_len = o["tuple_len"]
        if o["parse"] is not None:
            parser = get_parser(o["parse"], "quad_match")
            if tuple_len is not None and tuple_len != parser.tuple_len:
                raise ValueError(f"tuple_len: {tuple_len!r}, but the parser {parser_id(parser)} writes {parser.tuple_len!r} tuples; leave tuple_len out")
            if o["spans"] is not None:
                raise ValueError("spans: a parser reads text, not span indices; leave one of parse and spans out")
            o["parse"], tuple_len = parser_id(parser), parser.tuple_len
        self.tuple_len = "0123" if tuple_len is None else tuple_len
        _check_tuple_len(self.tuple_len)
        if o["spans"] is not None:
            _span_sides({}, self.tuple_len, o["similarity"], o["spans"])  # checks spans and similarity
        check_choice("similarity", o["similarity"], SIMILARITIES)
        check_choice("duplicates", o["duplicates"], DUPLICATES)
        _check_weights(o["weights"], self.tuple_len)
        _check_separators(o["sep_token1"], o["sep_token2"])
        if o["implicit_split"] and not {"0", "1"} <= set(self.tuple_len):
            raise ValueError(f"implicit_split: tuple_len {self.tuple_len!r} must hold the target (0) and the opinion (1), whose implicitness it splits by")
        super().__init__(o)
        self.blocks = 1 + len(IMPLICITNESS) * bool(o["implicit_split"])
        self.counts = tuple(name not in ("matched", "score") for _ in range(self.blocks) for name in STATS)
        self.bounded = o["duplicates"] != "list"  # the list rule's recall can pass 1

    def headline(self):
        return "exact_f1" if self.options["exact_only"] else "optimal_f1"

    def read(self, predictions, references):
        """(Batch, pairing, every candidate's row, the candidate chosen for each sample)."""
        o, report = self.options, None
        if o["parse"] is not None:
            predictions, references, _, report = _parsed(predictions, references, o["parse"], o["parse_references"], o["strict"], None)
        if o["spans"] is not None:
            predictions, references = _span_sides({"predictions": predictions, "references": references}, self.tuple_len, o["similarity"], o["spans"])
        pairing, rows, chosen = _score(predictions, references, o["weights"], self.tuple_len, o["sep_token1"], o["sep_token2"], o["similarity"], o["duplicates"], o["exact_only"], by_text=not o["implicit_split"])
        stats = rows[chosen].reshape(-1, len(STATS))
        if o["implicit_split"]:
            present = _implicitness(pairing)[chosen]
            stats = np.concatenate([stats] + [stats * present[:, [j]] for j in range(present.shape[1])], axis=1)
        return Batch(stats, report), pairing, rows, chosen

    def rows(self, predictions, references):
        return self.read(predictions, references)[0]

    def reduce(self, totals, records=None):
        size, zd = len(STATS), self.options["zero_division"]
        out = ratios(totals[..., :size], zd, EXACT_KEYS if self.options["exact_only"] else KEYS)
        for j, kind in enumerate(IMPLICITNESS[: self.blocks - 1]):
            part = ratios(totals[..., (j + 1) * size : (j + 2) * size], zd, EXACT_KEYS)
            out.update({f"{key}_{kind}": value for key, value in part.items()})
        return out

    def extras(self, totals, records=None):
        return {"exact_repeated_hits": int(totals[STATS.index("repeated_hits")])} if self.options["duplicates"] == "list" else {}

    def resampling(self, table, counts, records=None):
        table, counts = paired_table(table, counts, np.arange(len(STATS)))  # compute resamples the STATS rows alone
        keys = EXACT_KEYS if self.options["exact_only"] else KEYS
        return counts, lambda weights: ratios(weights @ table, self.options["zero_division"], keys)

    def check(self, totals, where):
        size = len(STATS)
        for b in range(self.blocks):
            c = dict(zip(STATS, np.moveaxis(np.asarray(totals)[:, b * size : (b + 1) * size], -1, 0)))
            if (c["matched"] > np.minimum(c["n"], c["m"]) + 1e-9).any() or (c["score"] > c["samples"] + 1e-9).any():
                raise ValueError(f"{where}: a matched degree above the quads matched, or a score above the samples")
            if self.options["duplicates"] != "list" and ((c["exact_hits"] > c["exact_n"]) | (c["exact_hits"] > c["exact_m"])).any():
                raise ValueError(f"{where}: exact hits above the predicted or gold quads")


def _parsed(predictions, references, parse, parse_references, strict, tuple_len):
    """(predictions, references, tuple_len, report) with the model texts read by the
    parser `parse`: every prediction, and with parse_references each reference (a string,
    or a list of strings: several references), strictly, since a gold text the parser
    cannot read is a broken reference. A parser's elements are in its own tuple_len order
    and spelling (MvP's "null", ASQP's "great"), so references given as quads are refused
    unless parse_references=False says they are written so."""
    parser = get_parser(parse, "quad_match")
    if tuple_len is not None and tuple_len != parser.tuple_len:
        raise ValueError(f"tuple_len: {tuple_len!r}, but the parser {parser_id(parser)} writes {parser.tuple_len!r} tuples; leave tuple_len out")
    check_flags(parse_references=parse_references)
    predictions = as_corpus(predictions, "predictions")
    structures, report = parse_texts(predictions, parser, strict)
    if parse_references:
        texts, where, shape = [], [], []  # every gold text, its place, each sample's count (None: one)
        for index, reference in enumerate(as_corpus(references, "references")):
            options, several = reference_options(reference)
            if not all(isinstance(option, str) for option in options) or (several and not options):
                raise input_error("references", index, f"is not model text (a string, or a list of strings) for the parser {parser_id(parser)}; references given as quads in its order and spelling: parse_references=False")
            texts += options
            where += [f"{index}][{number}" if several else index for number in range(len(options))]
            shape.append(len(options) if several else None)
        gold, gold_report = parse_texts(texts, parser)
        if gold_report["parse_failures"]:
            first = gold_report["parse_failure_examples"][0]
            raise input_error("references", where[first], f"{parser_id(parser)} cannot read it: {parser.read(texts[first])[1][0]}")
        references, start = [], 0
        for count in shape:
            references.append(gold[start] if count is None else gold[start : start + count])
            start += count or 1
    return structures, references, parser.tuple_len, report


def compute(
    predictions,
    references,
    weights=(1, 1, 1, 1),
    tuple_len=None,
    sep_token1=QUAD_SEP,
    sep_token2=ELEMENT_SEP,
    similarity="rouge_l",
    duplicates="multiset",
    exact_only=False,
    implicit_split=False,
    legacy_keys=False,
    details=False,
    zero_division=0.0,
    confidence_level=None,
    n_resamples=1000,
    seed=None,
    return_signature=False,
    parse=None,
    parse_references=True,
    strict=False,
    convention=None,
    spans=None,
):
    """Optimal soft-match and exact-match precision, recall and F1 of sentiment quads.

    predictions: one string per sample, quads joined by sep_token1 (" & "), elements by
    sep_token2 (" | "); a blank string has no quads. Malformed quads (wrong number of
    elements, an empty element) count as predicted quads that match nothing.
    references: one string per sample, or a list of strings (several references: the one
    whose sample score is highest is counted, ties to the first). A malformed reference
    quad is an error.
    weights: of target, opinion, aspect, polarity in a pair's degree (0 drops an element).
    tuple_len: which elements the strings hold, in order ("0123" = all four, the default;
    "013" = target | opinion | polarity; any string of distinct digits 0-3, in any order).
    similarity: "rouge_l" (target and opinion by ROUGE-L F1 over CJK characters and
    letter/digit runs; aspect and polarity exact) or "exact" (every element exact).
    duplicates: exact-match counting: "multiset" (one-to-one), "list" (ASQP/MvP/ACOS: each
    predicted quad found in the gold list is a hit) or "set" (DiaASQ).
    exact_only: return the exact-match figures alone, without running the soft match
    (except to choose among several references); the figures equal the full run's.
    implicit_split: add ACOS's split of the exact figures by the implicitness of the gold
    quads' target and opinion (NULL): exact_{precision,recall,f1}_{ea_eo,ia_eo,ea_io,ia_io};
    a sample counts in every kind its reference includes (measureQuad_imp).
    legacy_keys: add the original Space's three keys.
    details: add "samples": per sample the reference used, its score, the alignment of
    quads (each element's similarity and the pair's degree; unmatched and malformed quads
    marked).
    parse: a parser name of paperscore.parse ("mvp", "asqp_paraphrase", "llm_json", ...):
    predictions are model texts, read by it; tuple_len is the parser's. The result adds
    "parse_failures" (how many predictions had a piece the parser could not read: it
    counts as a predicted quad that matches nothing, as in the parser's repository) and
    "parse_failure_examples" (the first 0-based indices); the signature names the parser.
    parse_references: references are model text too (the gold target texts), read by the
    same parser, strictly (default True); False: references are quads already written in
    the parser's order and spelling.
    strict: a prediction the parser cannot read is a ValueError instead.
    spans: "exclusive" or "inclusive": span-index quads, as Span-ASTE and DiaASQ compare:
    each sample a list of quads whose target and opinion are [start, end] token indices
    (end exclusive or inclusive, as named; null or [-1, -1]: implicit), compared by
    position, exactly (similarity="exact" must be given); one reference per sample.
    convention: "diaasq": DiaASQ's own table (see diaasq_compute): predictions and
    references are the dialogues of DiaASQ's prediction and gold files, compared by token
    spans; only zero_division, the bootstrap and return_signature apply.
    """
    if convention is not None:
        check_choice("convention", convention, CONVENTIONS)
        given = locals()
        for name, parameter in inspect.signature(compute).parameters.items():
            value, default = given[name], parameter.default
            if name not in DIAASQ_OPTIONS and value is not default and not (type(value) is type(default) and value == default):
                raise ValueError(f"{name}: does not apply with convention={convention!r} (DiaASQ's table takes {', '.join(DIAASQ_OPTIONS[2:-1])})")
        return diaasq_compute(predictions, references, zero_division, confidence_level, n_resamples, seed, return_signature)
    given = locals()
    fam = QuadFamily({name: given[name] for name in SCORING})
    zero_division, tuple_len = fam.options["zero_division"], fam.tuple_len
    if confidence_level is not None:
        check_bootstrap(confidence_level, n_resamples)
    for name, value in (("legacy_keys", legacy_keys), ("details", details)):
        if exact_only and value:
            raise ValueError(f"{name}: shows the soft match, which exact_only=True does not compute")
    batch, pairing, rows, chosen = fam.read(predictions, references)
    report = batch.report
    result = evaluate(fam, batch, confidence_level, n_resamples, seed)
    if legacy_keys:
        result.update(legacy(result, weights))
    if details:
        result["samples"] = [
            {
                "reference": int(pairing.number[c]),
                "score": float(rows[c, STATS.index("score")]),
                "matched": float(rows[c, 0]),
                "exact_hits": int(rows[c, STATS.index("exact_hits")]),
                "alignment": pairing.alignment(c),
            }
            for c in chosen.tolist()
        ]
    if report:
        result.update(parse_failures=report["parse_failures"], parse_failure_examples=report["parse_failure_examples"])
    if return_signature:
        parsing = {"parse": report["parser"]} if report else {}
        if report and not parse_references:
            parsing["parse_references"] = False
        result["signature"] = signature(
            "quad_match",
            **parsing,
            **({"spans": spans} if spans is not None else {}),
            tuple_len=tuple_len,
            weights=list(weights),
            similarity=f"{similarity}+cjk_char" if similarity == "rouge_l" else similarity,
            duplicates=duplicates,
            zero_division=zero_division,
            **bootstrap_options(confidence_level, n_resamples, seed),
        )
        result["signature"] = with_references(result["signature"], references)
    return result


# ---------------------------------------------------------------------------------------
# Command line: paperscore quad --predictions FILE --references FILE

COMMAND = "quad"
QUAD_PARSERS = sorted({parser.name for parser in PARSERS.values() if parser.family == "quad_match"})
HELP = "sentiment quads: optimal soft match (ROUGE-L over CJK characters) and exact-match P/R/F1"


FORMATS = ("text", "json")


def read_samples(path, argument, format="text"):
    """format "text": one sample per line (_text_sample); an empty line has no quads; a
    line that is a JSON list holds several references.
    format "json": a file that is one JSON array holds the samples; otherwise it is JSON
    lines, one sample a line (blank lines skipped), split on "\n" only: U+2028 or U+0085 may
    stand inside a JSON string; see json_sample for what a sample may be."""
    if format == "json":
        return [json_sample(sample) for sample in read_json_values(path, argument)]
    return [_text_sample(line, f"{argument}: {path} line {number}") for number, line in enumerate(read_lines(path, argument, allow_empty=True), 1)]


def _text_sample(line, where):
    """One line of the text format: a JSON list of references when it begins with "[" (an
    error naming `where` when it is not JSON); the string a line holds when the whole line
    is one JSON string; else the quad text as written, which may begin with a quotation
    mark (`"Nokia 3310" | great | phone#general | pos`)."""
    head = line.lstrip()[:1]
    if head == "[":
        return load_json(line, where)
    if head == '"':
        try:
            return load_json(line, where)
        except ValueError:
            pass
    return line


def json_sample(sample):
    """A sample read from JSON, as compute() takes it: a list of quads (or of references)
    as it is; an object holding them under "quads"; or a DiaASQ dialogue, whose "triplets"
    [t_start, t_end, a_start, a_end, o_start, o_end, polarity, target, aspect, opinion]
    become quads (polarity -1 marks a target-aspect pair without an opinion, not a quad;
    an empty aspect is implicit, "NULL", as ASQP writes one)."""
    if not isinstance(sample, dict):
        return sample
    if "quads" in sample:
        return sample["quads"]
    if "triplets" in sample:
        return [
            {"target": t[7], "opinion": t[9], "aspect": t[8] or IMPLICIT, "polarity": t[6]} if isinstance(t, list) and len(t) == 10 else t
            for t in sample["triplets"]
            if not (isinstance(t, list) and len(t) == 10 and t[6] == -1)
        ]
    return sample


def add_options(parser):
    """The scoring options, shared by this command and `paperscore compare quad`."""
    parser.add_argument("--tuple-len", help="which elements the strings hold, in order: distinct digits of 0 target, 1 opinion, 2 aspect, 3 polarity (default 0123)")
    parser.add_argument("--weights", default="1,1,1,1", help="weights of target, opinion, aspect, polarity (default 1,1,1,1)")
    parser.add_argument("--sep-token1", default=QUAD_SEP, help="between quads (default ' & ')")
    parser.add_argument("--sep-token2", default=ELEMENT_SEP, help="between elements (default ' | ')")
    parser.add_argument("--similarity", default="rouge_l", choices=SIMILARITIES, help="soft match of target and opinion: rouge_l (ROUGE-L F1 over CJK characters and letter/digit runs) or exact")
    parser.add_argument("--duplicates", default="multiset", choices=DUPLICATES, help="exact-match counting of repeated quads (default multiset)")
    parser.add_argument("--convention", choices=CONVENTIONS, help="diaasq: DiaASQ's own table (its run_eval.py) over its prediction and gold files (JSON arrays of dialogues), by token spans; no other scoring option applies")
    parser.add_argument("--spans", choices=SPAN_CONVENTIONS, help="with --format json and --similarity exact: span-index quads, target and opinion as [start, end] token indices, end exclusive or inclusive")
    parser.add_argument("--implicit-split", action="store_true", help="add ACOS's exact figures by implicit target/opinion (EA&EO, IA&EO, EA&IO, IA&IO; compare: --metric-key exact_f1_ia_io, ...)")
    parser.add_argument("--format", default="text", choices=FORMATS, help="text: quad strings, one sample a line; json: a JSON array or JSON lines of quads as lists or objects, or DiaASQ dialogues (default text)")
    parser.add_argument("--parse", choices=QUAD_PARSERS, metavar="NAME", help=f"the files hold model text, one per line (--format json: JSON strings), read by this parser: {', '.join(QUAD_PARSERS)}")
    parser.add_argument("--references-as-quads", action="store_true", help="with --parse: the references are quads in the parser's order and spelling, not model text")
    parser.add_argument("--strict", action="store_true", help="with --parse: a prediction the parser cannot read is an error")


def options(args):
    """The scoring options of compute() (the file format is not one); under --convention,
    the convention alone, the others checked to be left out."""
    if args.convention is not None:
        _check_convention_arguments(args)
        return {"convention": args.convention}
    if args.parse is None and (args.strict or args.references_as_quads):
        raise ValueError(f"{'--strict' if args.strict else '--references-as-quads'}: applies with --parse NAME only")
    parsing = {"parse": args.parse, "parse_references": not args.references_as_quads, "strict": args.strict}
    return dict(
        weights=tuple(split_values(args.weights)),
        tuple_len=args.tuple_len or (None if args.parse else "0123"),  # a parser writes its own
        sep_token1=args.sep_token1,
        sep_token2=args.sep_token2,
        similarity=args.similarity,
        duplicates=args.duplicates,
        **({"spans": args.spans} if args.spans is not None else {}),
        **({"implicit_split": True} if args.implicit_split else {}),
        **(parsing if args.parse else {}),
    )


def add_arguments(parser):
    parser.add_argument("--predictions", required=True, help="one sample per line: quads joined by ' & ', elements by ' | '")
    parser.add_argument("--references", required=True, help="same layout; a JSON list of strings per line for several references")
    add_options(parser)
    parser.add_argument("--exact-only", action="store_true", help="the exact-match figures alone, without the soft match")
    parser.add_argument("--legacy-keys", action="store_true", help="add the original Space's three keys")
    parser.add_argument("--details", action="store_true", help="add each sample's alignment")


def read_references(path, argument, format="text"):
    """read_samples; in the text format one JSON-list line makes every line a list of references."""
    references = read_samples(path, argument, format)
    if format == "text" and any(isinstance(r, list) for r in references):
        for number, r in enumerate(references, 1):
            if isinstance(r, list) and not (r and all(isinstance(x, str) for x in r)):
                raise ValueError(f"{argument}: {path} line {number} is not a non-empty JSON list of quad strings (quads as data: --format json)")
        references = [r if isinstance(r, list) else [r] for r in references]
    return references


def read_model_texts(path, argument, format):
    """--parse: one model text a line, as it is (text), or the samples of a JSON file."""
    return read_samples(path, argument, format) if format == "json" else read_lines(path, argument, allow_empty=True)


def run(args):
    if args.convention is not None:
        return run_convention(args)
    scoring = options(args)
    predictions, references = _read_files(args, args.predictions, "--predictions")
    return compute(
        predictions,
        references,
        exact_only=args.exact_only,
        legacy_keys=args.legacy_keys,
        details=args.details,
        **scoring,
        **args.common,
    )


def _check_convention_arguments(args):
    defaults = {"tuple_len": None, "weights": "1,1,1,1", "sep_token1": QUAD_SEP, "sep_token2": ELEMENT_SEP, "similarity": "rouge_l", "duplicates": "multiset", "format": "text",
                "exact_only": False, "implicit_split": False, "legacy_keys": False, "details": False, "parse": None, "references_as_quads": False, "strict": False, "spans": None}  # fmt: skip
    for name, default in defaults.items():
        if getattr(args, name, default) != default:
            raise ValueError(f"--{name.replace('_', '-')}: does not apply with --convention {args.convention} (DiaASQ's files are JSON arrays of dialogues)")


def read_dialogues(path, argument):
    """A DiaASQ prediction or gold file: one JSON array of dialogues, as DiaASQ reads it."""
    dialogues = load_json(read_text(path, argument), f"{argument}: {path}")
    if not isinstance(dialogues, list):
        raise ValueError(f"{argument}: {path} is not a JSON array of DiaASQ dialogues")
    return dialogues


def run_convention(args):
    """--convention diaasq: both files read as DiaASQ reads them (one JSON array each)."""
    _check_convention_arguments(args)
    return compute(read_dialogues(args.predictions, "--predictions"), read_dialogues(args.references, "--references"), convention=args.convention, **args.common)


def _read_files(args, path, flag):
    """(a system's samples, the references), as `paperscore quad` reads its two files:
    with --parse, model text (the references too, unless --references-as-quads)."""
    if args.parse is None:
        return read_samples(path, flag, args.format), read_references(args.references, "--references", args.format)
    references = read_references(args.references, "--references", args.format) if args.references_as_quads else read_model_texts(args.references, "--references", args.format)
    return read_model_texts(path, flag, args.format), references


def read_compare(args):
    """The inputs of `paperscore compare quad`."""
    if args.convention is not None:
        return {name: read_dialogues(getattr(args, name), flag) for name, flag in (("references", "--references"), ("system_a", "--system-a"), ("system_b", "--system-b"))}
    if args.parse is not None:
        (system_a, references), (system_b, _) = _read_files(args, args.system_a, "--system-a"), _read_files(args, args.system_b, "--system-b")
        return dict(references=references, system_a=system_a, system_b=system_b)
    return dict(
        references=read_references(args.references, "--references", args.format),
        system_a=read_samples(args.system_a, "--system-a", args.format),
        system_b=read_samples(args.system_b, "--system-b", args.format),
    )
