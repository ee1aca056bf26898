# GENERATED from shared/paperscore/micro_macro.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""Multi-class precision, recall and F1, micro, macro and weighted, exactly as sklearn's
`precision_recall_fscore_support` computes them, with the event-detection conventions
(MAVEN's NA class left out of the averages; JMEE's gold-event-only scoring) by name.

Statistics: one confusion matrix over every observed class (rows = references, columns =
predictions). Every number is a ratio of its cells, so shards merge by adding matrices and
the bootstrap resamples its cells.
"""

import array
import collections
import inspect
import io
import itertools
import os

import numpy as np

from .paperscore_core import (
    as_corpus,
    as_floats,
    bootstrap_intervals,
    bootstrap_options,
    check_bootstrap,
    check_choice,
    check_flags,
    check_same_length,
    check_zero_division,
    dense_codes,
    divide,
    from_tensor,
    INT64,
    input_error,
    position,
    load_json,
    parse_value,
    prf,
    read_bytes,
    read_json_values,
    read_lines,
    read_text,
    read_values,
    compared_files,
    signature,
    with_references,
    STDIN,
    split_values,
)
from . import paperscore_event_spans as event_spans
from .paperscore_family import Batch, Family, scoring_options
from .paperscore_parse import PARSERS, POLICY, check_parser_options, get_parser, parse as parse_texts, parser_id, place_triggers, plain_label
from .paperscore_state import State

CONVENTIONS = (None, "maven", "jmee", "omnievent")
# What users of evaluate's f1 and of sklearn pass out of habit, and what compute() does
# instead: its ValueError says so, and the Space's (its `habits`).
HABITS = {
    "average": (
        "every average is returned at once: micro_precision / micro_recall / micro_f1, macro_precision / macro_recall / macro_f1, "
        "weighted_precision / weighted_recall / weighted_f1 and accuracy; per_class=True adds each class's (sklearn's average=None)"
    ),
    "pos_label": "every class is scored: per_class=True gives each class's precision, recall and f1; negative_labels=[...] leaves classes (an NA label) out of the averages",
}
# The NA class of each convention when negative_labels is not given: MAVEN's NA is id 0
# (its DMCNN baseline names it "None"); JMEE's is vocabulary index 0, "O" in practice;
# OmniEvent's is "NA".
DEFAULT_NEGATIVE = {"maven": (0, "None"), "jmee": (0, "O"), "omnievent": (0, "NA")}
KEYS = (
    "accuracy",
    "micro_precision", "micro_recall", "micro_f1",
    "macro_precision", "macro_recall", "macro_f1",
    "weighted_precision", "weighted_recall", "weighted_f1",
)  # fmt: skip
SPACE = "micro_macro"
# Int ids within a range this wide are coded by subtraction; wider ranges by counting or sorting.
DENSE_SPAN = 4096
# Resampling tables (cell_rows) of at most this many entries (8 MB) are numpy arrays.
DENSE_TABLE = 1 << 20


# ---------------------------------------------------------------------------------------
# Inputs


def _label_kind(value):
    if isinstance(value, (str, np.str_)):
        return "str"
    if isinstance(value, (int, np.integer)):  # bool is an int, as in sklearn
        return "int"
    return None


def _array_kind(array):
    if array.dtype.kind in "iub":
        return "int"
    if array.dtype.kind == "U":
        return "str"
    return None


_INT_TYPES = {int, np.int64, np.int32, np.int16, np.int8, np.uint8, np.uint16, np.uint32, np.uint64, bool, np.bool_}
_FAST = {frozenset({str}): "str", frozenset({np.str_}): "str", frozenset({str, np.str_}): "str"}


def _fast_kind(types):
    """"int" or "str" when a set of Python types is plainly one kind, else None."""
    if types and types <= _INT_TYPES:
        return "int"
    return _FAST.get(frozenset(types))


def check_types(values, argument):
    """Every label is an int or every label is a str, flat or one level of nesting.

    Raises ValueError naming the first offending example: a float (a float tensor too:
    labels are class ids, not scores), None, a mix of ints and strings, or a mix of flat
    and nested examples. Returns "int" or "str" ("int" for an input with no labels at all)."""
    if isinstance(values, np.ndarray) and values.dtype != object:
        kind = _array_kind(values)
        if values.ndim > 2:
            raise input_error(argument, None, f"expected one label or one sequence of labels per example, got an array with {values.ndim} dimensions")
        if kind is None:
            first = "0][0" if values.ndim == 2 else 0
            raise input_error(argument, first if values.size else None, f"expected int or str labels, got {values.dtype} values (class ids come from logits.argmax(-1))")
        return kind
    outer = set(map(type, values))
    fast = _fast_kind(outer)
    if fast:
        return fast
    if outer <= {list, tuple}:  # nested Python lists: check the labels in one pass
        fast = _fast_kind(set(map(type, itertools.chain.from_iterable(values))))
        if fast:
            return fast
    return _check_types_slowly(values, argument)


def _check_types_slowly(values, argument):
    """check_types one label at a time, to name the first bad one."""
    kinds = set()
    nested = None
    for index, value in enumerate(values):
        is_seq = isinstance(value, (list, tuple, np.ndarray))
        if nested is None:
            nested = is_seq
        elif nested != is_seq:
            shape = "a sequence" if is_seq else "a single label"
            raise input_error(argument, index, f"is {shape}, but {argument}[0] is not")
        if isinstance(value, np.ndarray) and value.dtype != object:
            kind = _array_kind(value)
            if kind is None or value.ndim != 1:
                raise input_error(argument, index, f"expected a sequence of int or str labels, got {value.dtype} values in {value.ndim} dimensions")
            kinds.add(kind)
        else:
            for position, item in enumerate(value if is_seq else (value,)):
                kind = _label_kind(item)
                if kind is None or (kinds and kind not in kinds):
                    where = f"{index}][{position}" if is_seq else index
                    expected = f"{next(iter(kinds))} like the labels before it" if kinds else "int or str"
                    raise input_error(argument, where, f"expected {expected}, got {type(item).__name__} {item!r}")
                kinds.add(kind)
        if len(kinds) > 1:
            raise input_error(argument, index, "mixes int and str labels")
    return kinds.pop() if kinds else "int"


def _as_int64(values, argument, nested):
    """Int labels as int64 (one array, or one per example): converted once here, so that
    compute() and evaluate read the same numbers. A label beyond 64 bits is an error naming
    it, never wrapped around (numpy wraps a uint64 array to -1 silently)."""
    try:
        if nested and not isinstance(values, np.ndarray):
            out = [np.asarray(value, dtype=np.int64) for value in values]
        else:
            out = np.asarray(values, dtype=np.int64)
        wraps = any(_too_big(value) for value in (values if nested and not isinstance(values, np.ndarray) else [values]))
    except OverflowError:  # a Python int beyond 64 bits
        wraps = True
    if not wraps:
        return out
    for index, value in enumerate(values):
        for position, item in enumerate(value if nested else (value,)):
            if not INT64[0] <= item <= INT64[1]:
                raise input_error(argument, f"{index}][{position}" if nested else index, f"{item} is outside the 64-bit integer range of labels")
    raise input_error(argument, None, "holds a label outside the 64-bit integer range")


def _too_big(values):
    return isinstance(values, np.ndarray) and values.dtype.kind == "u" and values.size > 0 and values.max() > INT64[1]


def _nested(values):
    return len(values) > 0 and (
        (isinstance(values, np.ndarray) and values.ndim == 2) or isinstance(values[0], (list, tuple, np.ndarray))
    )


def _int_array(values):
    """A flat list of Python ints as one int64 array, converted in one C step (the common
    Trainer and evaluate case, several times faster than looking at each label's type);
    any other list unchanged, for check_types to read label by label and name the first
    bad one. array.array("q") takes ints (bools, numpy ints) only and refuses a float, a
    str, a list or an int beyond 64 bits (np.fromiter would truncate 2.5 and parse "5"),
    faster than np.asarray, which first looks for a common type."""
    if type(values) is not list or not values or type(values[0]) is not int:
        return values
    try:
        return np.frombuffer(array.array("q", values), dtype=np.int64)
    except (TypeError, OverflowError):  # not an int, or beyond 64 bits
        return values


def check_inputs(predictions, references):
    """Both corpora as compute() reads them (core.as_corpus: torch tensors and lists of them
    become numpy), with equal lengths, one label type and one layout (a label or a sequence
    of labels per example) on both sides, and int labels within 64 bits.

    Returns (predictions, references, (kind, nested)), kind "int" or "str". The metric
    script runs this before evaluate encodes a batch, because evaluate's int feature would
    silently truncate a float label and turn the string "5" into 5; int labels come back as
    int64 arrays."""
    predictions, references = _int_array(predictions), _int_array(references)
    predictions, references = as_corpus(predictions, "predictions"), as_corpus(references, "references")
    check_same_length(predictions, references)
    pred_kind = check_types(predictions, "predictions")
    ref_kind = check_types(references, "references")
    if len(references) and pred_kind != ref_kind:
        raise ValueError(f"predictions are {pred_kind} labels but references are {ref_kind} labels")
    nested = _nested(references)
    if len(references) and _nested(predictions) != nested:
        shape = {True: "a sequence of labels", False: "a single label"}
        raise ValueError(f"predictions[0] is {shape[not nested]} but references[0] is {shape[nested]}")
    if ref_kind == "int":
        predictions = _as_int64(predictions, "predictions", nested)
        references = _as_int64(references, "references", nested)
    return predictions, references, (ref_kind, nested)


def _check_ignore_index(ignore_index):
    if ignore_index is not None and (isinstance(ignore_index, (bool, np.bool_)) or _label_kind(ignore_index) is None):
        raise ValueError(f"ignore_index: {ignore_index!r} is not an int or str label (or None)")


def _flatten(predictions, references, ignore_index):
    """(pred, ref, values, kind, example): both sides as equal-length int64 codes into
    `values` (the distinct labels, Python ints or strs), positions whose reference is
    ignore_index removed (Trainer pads label_ids with -100), and the example each kept label
    belongs to (None when each example is one label). Str labels are coded straight from
    the lists through one dict: no '<U' array and no copy back to objects."""
    _check_ignore_index(ignore_index)
    if isinstance(references, Coded):
        return references.flatten(predictions, ignore_index)
    coded = _coded_str_labels(predictions, references)
    if coded:
        coder, ref, pred = coded
        return _str_ignored(pred, ref, coder, None, ignore_index, None)
    predictions, references, (kind, nested) = check_inputs(predictions, references)
    lengths = None
    if nested:
        lengths = np.array([len(r) for r in references], dtype=np.int64)
        for index, (p, r) in enumerate(zip(predictions, references)):
            if len(p) != len(r):
                raise input_error("predictions", index, f"has {len(p)} labels but references[{index}] has {len(r)}")
    example = None if lengths is None else np.repeat(np.arange(len(lengths)), lengths)
    ignored = ignore_index is not None and _label_kind(ignore_index) == kind
    if kind == "int":
        pred, ref = _int_labels(predictions, nested), _int_labels(references, nested)
        if ignored and len(ref) and _within(ignore_index, ref, pred):
            pred, ref, example = _drop_ignored(pred, ref, example, ignore_index, ignore_index, lengths)
        ref, pred, values = _int_codes(ref, pred)
        return pred, ref, values, kind, example
    coder = _coder()
    ref, pred = _str_codes(references, nested, coder), _str_codes(predictions, nested, coder)
    return _str_ignored(pred, ref, coder, example, ignore_index, lengths)


def _coded_str_labels(predictions, references):
    """(coder, ref, pred) for two flat lists (or object arrays) of str labels, coded
    without looking at each label's type: the distinct labels' types are all the labels'
    types, as nothing but a str equals a str. None for any other input, which check_inputs
    reads label by label (and names the first bad one)."""
    sides = [v.tolist() if isinstance(v, np.ndarray) and v.dtype == object and v.ndim == 1 else v for v in (references, predictions)]
    if not all(type(v) is list and v and type(v[0]) is str for v in sides) or len(sides[0]) != len(sides[1]):
        return None
    coder = _coder()
    try:
        ref, pred = (np.fromiter(map(coder.__getitem__, side), np.int64, len(side)) for side in sides)
    except TypeError:  # an unhashable label (a list)
        return None
    return (coder, ref, pred) if set(map(type, coder)) <= {str, np.str_} else None


def _str_ignored(pred, ref, coder, example, ignore_index, lengths):
    """_flatten's answer for str labels coded by `coder`: a str ignore_index removed."""
    if isinstance(ignore_index, str) and ignore_index in coder:  # `in` does not add it
        pred, ref, example = _drop_ignored(pred, ref, example, coder[ignore_index], ignore_index, lengths)
    return pred, ref, [str(value) for value in coder], "str", example  # np.str_ keys as str


class Coded:
    """Labels already coded (the command line's label files): `codes` into `values`, the
    list both sides share; one label per example."""

    def __init__(self, codes, values, kind):
        self.codes, self.values, self.kind = codes, values, kind

    def __len__(self):
        return len(self.codes)

    def canonical(self):
        """The labels, as core.fingerprint reads a corpus (ints as an int64 array)."""
        values = np.asarray(self.values, dtype=np.int64 if self.kind == "int" else object)
        return values[self.codes] if self.kind == "int" else values[self.codes].tolist()

    def flatten(self, predictions, ignore_index):
        """_flatten's answer for these references and coded predictions."""
        check_same_length(predictions, self)
        pred, ref, values = predictions.codes, self.codes, self.values
        index = {value: code for code, value in enumerate(values)}
        if _label_kind(ignore_index) == self.kind and ignore_index in index:
            pred, ref, _ = _drop_ignored(pred, ref, None, index[ignore_index], ignore_index, None)
        return pred, ref, values, self.kind, None


def _one_coding(*sides):
    """One code per distinct label across sides given as (codes, values): (each side's
    codes, the shared values). A label repeated in a side's values keeps one code."""
    index, recoded = {}, []
    for codes, values in sides:
        recode = np.array([index.setdefault(value, len(index)) for value in values], dtype=np.int64)
        recoded.append(recode[codes])
    return recoded, list(index)


def _drop_ignored(pred, ref, example, value, ignore_index, lengths):
    """The positions whose reference is `value` (ignore_index, or its code) removed; a
    prediction of it where the reference is scored is an error naming the position."""
    keep = ref != value
    stray = np.flatnonzero(keep & (pred == value))
    if len(stray):
        raise input_error("predictions", position(stray[0], lengths), f"is ignore_index {ignore_index!r} where the reference is scored")
    if keep.all():
        return pred, ref, example
    return pred[keep], ref[keep], None if example is None else example[keep]


def _int_labels(values, nested):
    """check_inputs' int64 labels (an array, or one per example) as one 1-d array."""
    if isinstance(values, np.ndarray):
        return values.ravel()
    parts = [value for value in values if len(value)] if nested else []
    return np.concatenate(parts) if parts else np.asarray(values if not nested else [], dtype=np.int64)


def _str_codes(values, nested, coder):
    """Each str label's code in `coder` (shared by both sides), read from the lists as
    they are: a str array is read through tolist, never copied to objects."""
    if isinstance(values, np.ndarray) and values.dtype != object:
        items = values.ravel().tolist()
    else:
        items = itertools.chain.from_iterable(values) if nested else values
    return np.fromiter(map(coder.__getitem__, items), np.int64)


def _int_codes(ref, pred):
    """(ref, pred, values): int labels as codes 0..k-1 in the order of their values: every
    id of the range when it spans at most DENSE_SPAN, else the distinct labels. Codes and
    counts are int64: k and every count are at most max(DENSE_SPAN, 2 * len(ref)), an array
    held in memory, far below 2^31 and 2^63."""
    if not len(ref):
        return ref, pred, []
    low = int(min(ref.min(), pred.min()))
    span = int(max(ref.max(), pred.max())) - low + 1  # Python ints: no int64 wrap-around
    if span > max(DENSE_SPAN, len(ref)):  # ids far apart: sort them
        values, codes = np.unique(np.concatenate([ref, pred]), return_inverse=True)
        codes = codes.ravel()
        return codes[: len(ref)], codes[len(ref) :], values.tolist()
    if low:  # ids in a range no wider than the data: count them, don't sort
        ref, pred = ref - low, pred - low
    if span <= DENSE_SPAN:  # a code for every id in the range, occurring or not
        return ref, pred, list(range(low, low + span))
    present = np.bincount(ref, minlength=span) > 0
    present |= np.bincount(pred, minlength=span) > 0
    values = (np.flatnonzero(present) + low).tolist()
    if len(values) == span:
        return ref, pred, values
    rank = np.cumsum(present) - 1
    return rank[ref], rank[pred], values


def _within(value, *arrays):
    """Whether value may occur in the arrays: a cheap range test before building a mask
    (ignore_index -100 lies below every label in practice)."""
    return any(value >= a.min() and value <= a.max() for a in arrays)


def _check_label_list(argument, values, kind):
    """labels / negative_labels: a list of labels of the data's kind, or None. A bare
    string is refused, not read as its characters ("None" as N, o, n, e)."""
    if values is None:
        return None
    values = from_tensor(values)
    if not isinstance(values, (list, tuple, np.ndarray)) or (isinstance(values, np.ndarray) and values.ndim != 1):
        single = f" (for one label, pass [{values!r}])" if _label_kind(values) else ""
        raise input_error(argument, None, f"expected a list of labels, got {type(values).__name__} {values!r:.40}{single}")
    types = set(map(type, values))
    if types == {int} and kind == "int" and INT64[0] <= min(values) and max(values) <= INT64[1]:
        values = list(values)  # plain ints (MAVEN's labels=1..168): nothing to convert
    elif types == {str} and kind == "str":
        values = list(values)
    else:
        values = _label_values(argument, values, kind)
    if len(set(values)) != len(values):
        raise ValueError(f"{argument}: lists a label twice")
    return values


def _label_values(argument, values, kind):
    """_check_label_list one label at a time, naming the first bad one."""
    for index, value in enumerate(values):
        if _label_kind(value) != kind:
            raise input_error(argument, index, f"{value!r} is not a {kind} label like the data's")
        if kind == "int" and not INT64[0] <= value <= INT64[1]:
            raise input_error(argument, index, f"{value} is outside the 64-bit integer range of labels")
    return [int(v) if kind == "int" else str(v) for v in values]


# ---------------------------------------------------------------------------------------
# Classes and counts


def _coder():
    """A dict that gives each new key the next code: map(coder.__getitem__, values) codes
    millions of labels without a Python-level step per label."""
    return collections.defaultdict(itertools.count().__next__)


class Pairs:
    """The (reference, prediction) code pairs and what every number reads from them. Few
    distinct codes (k^2 <= max(pairs, 4096)): one count of code pairs, a (k x k) table,
    rearranged into class order; many: the pairs counted per side, O(pairs + classes).
    Cell codes ref * k + pred and class cells stay below 2^63: k and the classes number at
    most len(labels) + 2 * pairs, lists held in memory, far below 2^31."""

    def __init__(self, pred, ref, values, weights=None):
        """weights: how many labels each (ref, pred) pair stands for (a state's cells)."""
        self.pred, self.ref, self.values, self.weights, k = pred, ref, values, weights, len(values)
        self.raw = None
        if k * k <= max(len(ref), 1 << 12):
            self.raw = _bincount(ref * k + pred, weights, k * k).reshape(k, k)
            self.occurs = np.flatnonzero(self.raw.sum(0) + self.raw.sum(1))
        else:
            self.occurs = np.flatnonzero(np.bincount(ref, minlength=k) + np.bincount(pred, minlength=k))

    def order(self, labels):
        """(classes, the labels that occur, sorted): `labels` first in their order, then
        every other label that occurs in predictions or references, sorted. Sets each
        code's class index."""
        values = self.values
        order = sorted(self.occurs.tolist(), key=values.__getitem__)  # int codes come sorted already
        observed = [values[i] for i in order]
        self.where = np.full(len(values), -1, dtype=np.int64)
        if labels is None:
            self.where[order] = np.arange(len(order))
            self.classes = observed
        else:
            given = set(labels)
            self.classes = labels + [value for value in observed if value not in given]
            place = {c: i for i, c in enumerate(self.classes)}
            self.where[order] = [place[value] for value in observed]
        return self.classes, observed

    def cells(self):
        """Each pair's confusion cell, ref class * classes + pred class."""
        return self.where[self.ref] * len(self.classes) + self.where[self.pred]

    def matrix(self, counted):
        """The (classes x classes) matrix, rows references, of the counted pairs."""
        n = len(self.classes)
        if self.raw is None:
            matrix = _bincount(self.cells(), self.weights, n * n).reshape(n, n)
        else:
            matrix = np.zeros((n, n), dtype=np.int64)
            placed = self.where[self.occurs]
            matrix[np.ix_(placed, placed)] = self.raw[np.ix_(self.occurs, self.occurs)]
        return np.where(counted[:, None], matrix, 0)

    def counts(self, counted):
        """(tp, predicted, gold) per class and (correct, total) of the counted pairs (JMEE
        drops gold-NA)."""
        n = len(self.classes)
        if self.raw is not None:  # summed per code, then placed: no (classes x classes) copy
            live = np.zeros(len(self.values), dtype=bool)
            live[self.occurs] = counted[self.where[self.occurs]]
            raw = np.where(live[:, None], self.raw, 0)
            per_class = []
            for per_code in (np.diagonal(raw), raw.sum(0), raw.sum(1)):
                placed = np.zeros(n, dtype=np.int64)
                placed[self.where[self.occurs]] = per_code[self.occurs]
                per_class.append(placed)
            return per_class, (int(np.trace(raw)), int(raw.sum()))
        ref, pred, weights = self.where[self.ref], self.where[self.pred], self.weights
        if not counted.all():
            keep = counted[ref]
            ref, pred, weights = ref[keep], pred[keep], None if weights is None else weights[keep]
        hit = ref == pred
        per_class = [_bincount(side, w, n) for side, w in ((ref[hit], None if weights is None else weights[hit]), (pred, weights), (ref, weights))]
        return per_class, (int(per_class[0].sum()), int(len(ref) if weights is None else weights.sum()))


def _bincount(codes, weights, size):
    """np.bincount as int64 counts; int64 weights summed exactly (bincount adds floats)."""
    if weights is None:
        return np.bincount(codes, minlength=size)
    out = np.zeros(size, dtype=np.int64)
    np.add.at(out, codes, weights)
    return out


def _average(values, weights=None, mask=True, empty=np.nan):
    """sklearn's _nanaverage over the last axis of the entries in `mask`: NaN entries
    (zero_division="nan") and their weights left out; all-zero weights fall back to the
    plain mean; nothing left gives `empty`."""
    keep = ~np.isnan(values) & mask
    plain = keep.astype(float)
    if weights is None:
        w = plain
    else:
        w = np.where(keep, weights, 0.0)
        w = np.where(w.sum(-1, keepdims=True) == 0, plain, w)
    total = w.sum(-1)
    summed = (np.where(keep, values, 0.0) * w).sum(-1)
    return np.where(keep.any(-1), summed / np.where(total == 0, 1.0, total), empty)


def cell_rows(cells, n_classes, scored, counted):
    """The statistics of one example in each confusion cell (ref * n_classes + pred), a
    (len(cells), 3 * len(scored) + 2) matrix: per scored class tp, predicted and gold
    flags, then correct and total. A cell whose reference class is not `counted` (JMEE
    drops gold-NA tokens) is a row of zeros. At most five non-zeros a row: a numpy array
    up to DENSE_TABLE entries, else scipy sparse (a dense table grows with the cube of the
    classes; small inputs skip importing scipy)."""
    ref, pred = np.divmod(np.asarray(cells, dtype=np.int64), n_classes)
    width = len(scored)
    column = np.full(n_classes, -1, dtype=np.int64)
    column[scored] = np.arange(width)
    live = counted[ref]
    right = live & (ref == pred)
    index = np.arange(len(ref))
    rows, columns = [index[right], index[live]], [np.full(right.sum(), 3 * width), np.full(live.sum(), 3 * width + 1)]
    for offset, classes, where in ((0, ref, right), (width, pred, live), (2 * width, ref, live)):
        hit = where & (column[classes] >= 0)
        rows.append(index[hit])
        columns.append(offset + column[classes[hit]])
    rows, columns = np.concatenate(rows), np.concatenate(columns)
    shape = (len(ref), 3 * width + 2)
    if shape[0] * shape[1] <= DENSE_TABLE:
        table = np.zeros(shape)
        table[rows, columns] = 1.0  # each (row, column) at most once: five distinct columns a row
        return table
    from scipy.sparse import csr_matrix

    return csr_matrix((np.ones(len(rows)), (rows, columns)), shape=shape)


def ratios(sums, zero_division=0.0, observed_only=True, headline=False):
    """Every number for each row of summed statistics (r, 3 * scored + 2), laid out as
    cell_rows: arrays of shape (r,). observed_only: a class enters the macro and weighted
    means only where it is predicted or gold (sklearn without `labels`: every resample has
    its own observed classes). headline: add JMEE's precision, recall and f1."""
    width = (sums.shape[1] - 2) // 3
    tp, predicted, gold = sums[:, :width], sums[:, width : 2 * width], sums[:, 2 * width : 3 * width]
    present = (predicted + gold) > 0 if observed_only else True
    out = {"accuracy": divide(sums[:, -2], sums[:, -1], zero_division)}
    micro = prf(tp.sum(-1), predicted.sum(-1), gold.sum(-1), zero_division)
    per_class = prf(tp, predicted, gold, zero_division)
    for name, value, values in zip(("precision", "recall", "f1"), micro, per_class):
        out[f"micro_{name}"] = value
        # no class at all (an empty corpus, or one with no event): the zero-division value,
        # as sklearn gives for labels that never occur (MAVEN's evaluate.py on such a split)
        out[f"macro_{name}"] = _average(values, mask=present, empty=zero_division)
        out[f"weighted_{name}"] = _average(values, gold, mask=present, empty=zero_division)
    out = {key: out[key] for key in KEYS}
    if headline:
        out.update(precision=out["macro_precision"], recall=out["macro_recall"], f1=out["micro_f1"])
    return out


# ---------------------------------------------------------------------------------------
# The metric


def _resampled(cells, example, n_examples, n_classes, scored, counted):
    """(table, codes): what the bootstrap and paired tests resample, one code per example.
    One label per example (example is None): a row per distinct confusion cell. Sequences
    (token classification): a row per sequence, the sum of its labels' cell rows, so that
    sentences are resampled, not tokens."""
    distinct, codes = dense_codes(cells, n_classes**2)
    rows = cell_rows(distinct, n_classes, scored, counted)
    if example is None:
        return rows, codes
    if isinstance(rows, np.ndarray) and len(codes) * rows.shape[1] <= DENSE_TABLE:
        table = np.zeros((n_examples, rows.shape[1]))
        np.add.at(table, example, rows[codes])
        return table, np.arange(n_examples)
    from scipy.sparse import csr_matrix

    members = csr_matrix((np.ones(len(codes)), (example, codes)), shape=(n_examples, len(distinct)))
    return (members @ csr_matrix(rows)).tocsr(), np.arange(n_examples)


def _listed(values, limit=20):
    shown = ", ".join(map(repr, values[:limit]))
    return shown + (f", ... ({len(values)} in all)" if len(values) > limit else "")


def _negatives(convention, negative_labels, kind, classes, labels, observed):
    """The negative labels. One that occurs in neither predictions, references nor
    `labels` is refused by name: a misspelt NA ("NA" where the data says "None") would be
    ignored and the real NA averaged in. A convention's own NA may be absent when `labels`
    is given (OntoED passes labels=1..dimE-1 whatever the split holds): the averages are
    then over `labels` either way."""
    if negative_labels is not None:
        negatives = _check_label_list("negative_labels", negative_labels, kind)
        for index, value in enumerate(negatives):
            if observed and value not in classes:
                raise input_error(
                    "negative_labels", index,
                    f"{value!r} occurs in neither predictions nor references, which hold {_listed(observed)}; "
                    "if it is meant, list it in labels= as well",
                )  # fmt: skip
        return negatives
    if convention is None:
        return []
    na = DEFAULT_NEGATIVE[convention][0 if kind == "int" else 1]
    if observed and labels is None and na not in classes:
        raise ValueError(
            f"convention={convention!r} leaves out the NA label {na!r}, which occurs in neither "
            f"predictions nor references (they hold {_listed(observed)}): pass negative_labels=[...] to name your NA label"
        )
    return [na]


def _scoring(classes, kind, labels, negative_labels, convention, observed, gold):
    """(indices of the classes in the averages, which reference classes are counted at
    all, the negative labels). JMEE counts only gold-event tokens and keeps NA a class;
    otherwise NA is counted and left out of the averages. OmniEvent (labels not given)
    scores only the classes of the references (`gold`: its labels=set(gold) - NA). A corpus
    whose every class is negative (a split with no event) scores nothing: the zero-division
    values, as MAVEN's evaluate.py and sklearn give."""
    negatives = _negatives(convention, negative_labels, kind, classes, labels, observed)
    jmee = convention == "jmee"
    counted = np.array([not (jmee and c in negatives) for c in classes], dtype=bool)
    in_labels = set(labels) if labels is not None else set(gold) if convention == "omnievent" else set(classes)
    scored = [i for i, c in enumerate(classes) if c in in_labels and (jmee or c not in negatives)]
    if labels is not None and not scored:  # the user's own lists leave nothing to score
        problem = "negative_labels: every class in labels is negative" if labels else "labels: is empty (None scores every class)"
        raise ValueError(f"{problem}, none is left to score")
    return scored, counted, negatives


def _statistics(pred, ref, values, kind, labels, negative_labels, convention):
    """(Pairs, scored, counted, negatives)."""
    pairs = Pairs(pred, ref, values)
    classes, observed = pairs.order(labels)
    gold = [values[code] for code in np.unique(ref).tolist()] if convention == "omnievent" else None
    return (pairs, *_scoring(classes, kind, labels, negative_labels, convention, observed, gold))


# ---------------------------------------------------------------------------------------
# Generated triggers: model texts read by a parser and put onto the candidates of
# OmniEvent's items

EVENT_PARSERS = sorted(name.split("@")[0] for name, parser in PARSERS.items() if parser.family == SPACE)


def omnievent_item(item, index):
    """(text, candidate [start, end] character offsets, plain labels) of one item of
    OmniEvent's unified JSON: every trigger of every event (its "type", plain_label'led as
    OmniEvent does), then every negative trigger ("NA"), in that order (get_ed_candidates)."""
    if not isinstance(item, dict) or not isinstance(item.get("text"), str):
        raise input_error("references", index, "is not an OmniEvent item (an object with \"text\", \"events\" and \"negative_triggers\")")
    positions, labels = [], []
    try:
        for event in item["events"]:
            for trigger in event["triggers"]:
                positions.append(trigger["position"])
                labels.append(plain_label(event["type"]))
        for trigger in item["negative_triggers"]:
            positions.append(trigger["position"])
            labels.append("NA")
    except (KeyError, TypeError, AttributeError) as error:
        raise input_error("references", index, f"is not an OmniEvent item with gold labels ({type(error).__name__} {error}): each event holds \"type\" and \"triggers\", each trigger a \"position\"") from None
    for number, position in enumerate(positions):
        if not (isinstance(position, (list, tuple)) and len(position) == 2 and all(_label_kind(v) == "int" and not isinstance(v, bool) for v in position)):
            raise input_error("references", index, f"candidate {number + 1}: position {position!r} is not [start, end] character offsets")
    return item["text"], [tuple(map(int, position)) for position in positions], labels


def _parsed(predictions, references, parse, strict, types):
    """(predicted labels, gold labels, report): per item, one label per candidate; the
    strict policy adds an (NA, type) pair for each generated trigger no candidate took."""
    parser = get_parser(parse, SPACE)
    predictions, references = as_corpus(predictions, "predictions"), as_corpus(references, "references")
    check_same_length(predictions, references)
    if types is not None:
        types = from_tensor(types)
        if isinstance(types, str) or not isinstance(types, (list, tuple)) or not all(isinstance(t, str) for t in types):
            raise ValueError(f"types: {types!r:.60} is not a list of type names")
        types = [plain_label(t) for t in types]
    pairs, report = parse_texts(predictions, parser, strict)
    items = [omnievent_item(item, index) for index, item in enumerate(references)]
    texts, positions, gold = zip(*items) if items else ((), (), ())
    placed = place_triggers(POLICY[parser.name], pairs, texts, positions, gold, types)
    keep = POLICY[parser.name] == "strict"
    predicted, expected, unplaced = [], [], 0
    for (labels, left), truth in zip(placed, gold):
        unplaced += len(left)
        extra = [kind for _, kind in left] if keep else []
        predicted.append(labels + extra)
        expected.append(truth + ["NA"] * len(extra))
    report["unplaced_triggers"] = unplaced
    report["types"] = None if types is None else len(types)
    return predicted, expected, report


def compute(
    predictions,
    references,
    labels=None,
    negative_labels=None,
    convention=None,
    zero_division=0.0,
    ignore_index=-100,
    per_class=False,
    confusion_matrix=False,
    confidence_level=None,
    n_resamples=1000,
    seed=None,
    return_signature=False,
    parse=None,
    strict=False,
    types=None,
    spans=None,
    scheme=None,
    **unknown,
):
    """Accuracy and micro / macro / weighted precision, recall and F1.

    predictions, references: one label per example (int or str), or one sequence of labels
    per example (token classification), where reference positions equal to `ignore_index`
    are not scored. Lists, numpy arrays or torch tensors (int or bool dtypes), or lists of
    arrays / tensors.
    labels: the classes scored and their order (default: every observed class).
    negative_labels: classes left out of the micro, macro and weighted averages (an NA
    class); accuracy still counts every example. Both are lists: a bare string
    ("None") is an error, not its characters. A negative label that occurs nowhere in the
    data is an error unless `labels` lists it too.
    convention: "maven" leaves NA (0 or "None") out of the averages; "jmee" scores only
    positions whose reference is not NA (0 or "O"), keeps NA in the averages, and adds
    JMEE's headline `precision` = macro P, `recall` = macro R, `f1` = micro F1;
    "omnievent" leaves NA ("NA" or 0) out and scores only the classes that occur in the
    references (OmniEvent's compute_unified_micro_f1: labels=set(gold) - NA).
    A corpus with no class left to average (every label NA) gives the zero-division value.
    parse: a parser name ("omnievent_s2s", "omnievent_s2s_strict"): predictions are model
    texts, references OmniEvent items ({"text", "events", "negative_triggers"}), each
    candidate scored once (one sequence of labels per item). "omnievent_s2s" puts the
    generated triggers onto the candidates as OmniEvent does (gold preferred; triggers no
    candidate takes are dropped); "omnievent_s2s_strict" by the strict offset policy (each
    trigger to the first free candidate of its text, in text order; gold never looked at;
    a trigger no candidate takes is a false positive, an extra (NA, type) pair). Adds
    "parse_failures", "parse_failure_examples" and "unplaced_triggers"; the signature
    names the parser. strict: a text the parser cannot read is a ValueError. types: the
    event types a trigger may carry (OmniEvent's type2id keys, plain_label'led; required by
    "omnievent_s2s").
    spans: "textee" or "oneie": span-level event detection instead (paperscore.event_spans:
    trigger and argument identification / classification over span tuples, counted as
    TextEE's scorer or OneIE's score_graphs count); scheme "bio": examples are BIO tags.
    Only zero_division, the bootstrap and return_signature apply there.
    Any other argument is a ValueError (sklearn's average and pos_label: saying what to do, HABITS).
    """
    if unknown:
        name = next(iter(unknown))
        taken = [p.name for p in inspect.signature(compute).parameters.values() if p.kind != p.VAR_KEYWORD]
        raise ValueError(f"{name}: not an argument of paperscore.micro_macro.compute (it takes {', '.join(taken)})" + (f"; {HABITS[name]}" if name in HABITS else ""))
    if spans is not None or scheme is not None:
        return _span_level(locals())
    given_references = references  # the signature names the test set as given
    check_choice("convention", convention, CONVENTIONS)
    check_parser_options(parse, strict, types=types is not None)
    report = None
    if parse is not None:
        predictions, references, report = _parsed(predictions, references, parse, strict, types)
    elif isinstance(references, (list, tuple)) and references and isinstance(references[0], dict):
        raise input_error("references", 0, f"is an object: OmniEvent items go with model texts read by a parser, parse=NAME ({', '.join(EVENT_PARSERS)})")
    check_flags(per_class=per_class, confusion_matrix=confusion_matrix, return_signature=return_signature)
    zero_division = check_zero_division(zero_division)
    if confidence_level is not None:
        check_bootstrap(confidence_level, n_resamples, seed)
    pred, ref, values, kind, example = _flatten(predictions, references, ignore_index)
    labels = _check_label_list("labels", labels, kind)
    pairs, scored, counted, negatives = _statistics(pred, ref, values, kind, labels, negative_labels, convention)
    classes = pairs.classes
    (tp, predicted, gold), (correct, total) = pairs.counts(counted)
    columns = np.array(scored, dtype=np.int64)
    sums = np.concatenate([tp[columns], predicted[columns], gold[columns], [correct, total]]).astype(float)
    reduce = _reducer(zero_division, labels, convention)
    result = as_floats({key: value[0] for key, value in reduce(sums[None]).items()})
    if confidence_level is not None:
        table, codes = _resampled(pairs.cells(), example, len(references), len(classes), scored, counted)
        counts = np.bincount(codes, minlength=table.shape[0])
        result.update(bootstrap_intervals(counts, lambda weights: reduce(weights, table), confidence_level, n_resamples, seed))
    if per_class:
        p, r, f = prf(tp, predicted, gold, zero_division)
        result["per_class"] = {
            classes[i]: {"precision": float(p[i]), "recall": float(r[i]), "f1": float(f[i]), "support": int(gold[i])}
            for i in scored
        }
    if confusion_matrix:
        result["labels"] = list(classes)
        result["confusion_matrix"] = pairs.matrix(counted).tolist()
    if report:
        result.update({key: report[key] for key in ("parse_failures", "parse_failure_examples", "unplaced_triggers")})
    if return_signature:
        parsing = {"parse": report["parser"], "types": report["types"]} if report else {}
        result["signature"] = signature(
            "micro_macro",
            **parsing,
            convention=convention,
            labels=len(labels) if labels is not None else "all",
            negative_labels=negatives,
            ignore_index=ignore_index,
            zero_division=zero_division,
            **bootstrap_options(confidence_level, n_resamples, seed),
        )
        result["signature"] = with_references(result["signature"], given_references)
    return result


SPAN_OPTIONS = ("predictions", "references", "zero_division", "confidence_level", "n_resamples", "seed", "return_signature")


def _span_level(arguments):
    """compute(spans=...): event_spans.compute, the candidate-level options refused."""
    if arguments["spans"] is None:
        raise ValueError("scheme: applies to span-level scoring; pass spans=\"textee\" or \"oneie\"")
    check_choice("spans", arguments["spans"], event_spans.RULES)
    for name, parameter in inspect.signature(compute).parameters.items():
        if parameter.kind == parameter.VAR_KEYWORD:
            continue
        value, default = arguments[name], parameter.default
        if name not in (*SPAN_OPTIONS, "spans", "scheme") and (value is not default if default is None or isinstance(default, bool) else value != default):
            raise ValueError(f"{name}: applies to candidate or token labels, not to spans={arguments['spans']!r}")
    return event_spans.compute(**{name: arguments[name] for name in SPAN_OPTIONS}, rule=arguments["spans"], scheme=arguments["scheme"])


def _reducer(zero_division, labels, convention):
    """reduce(sums) or reduce(weights, table): the numbers of summed cell_rows statistics,
    or of example weights over a table of them."""
    # JMEE hands sklearn its whole label vocabulary: every class counts, observed or not.
    observed_only = labels is None and convention != "jmee"

    def reduce(weights, table=None):
        sums = weights
        if table is not None:  # column-major as scipy's sparse product gives: the ratios'
            # sums then round alike for a dense and a sparse table (cell_rows)
            sums = np.asfortranarray(np.asarray(weights, dtype=float) @ table)
        return ratios(sums, zero_division, observed_only, convention == "jmee")

    return reduce


def headline(**options):
    """What `paperscore compare` compares by default."""
    return family(**{name: value for name, value in options.items() if name in SCORING + ("spans", "scheme")}).headline()


SCORING = ("labels", "negative_labels", "convention", "zero_division", "ignore_index", "parse", "strict", "types")
READING = ("parse", "strict", "types")  # compute(parse=...)'s options: how model texts become labels


def family(spans=None, scheme=None, **options):
    """micro_macro's statistics (paperscore.family) for compute()'s scoring options;
    with spans= (and scheme=) span-level event detection's (paperscore.event_spans)."""
    if spans is not None or scheme is not None:
        if spans is None:
            raise ValueError("scheme: applies to span-level scoring; pass spans=\"textee\" or \"oneie\"")
        check_choice("spans", spans, event_spans.RULES)
        defaults = inspect.signature(compute).parameters
        for name, value in options.items():
            default = defaults[name].default if name in SCORING else object()
            if name != "zero_division" and not (value is default or (type(value) is type(default) and value == default)):
                raise ValueError(f"{name}: applies to candidate or token labels, not to spans={spans!r}")
        return event_spans.family(spans, scheme, options.get("zero_division", 0.0))
    return LabelsFamily(scoring_options(compute, options, SCORING, "micro_macro"))


class Labels:
    """A batch of labels, flattened (_flatten): codes of both sides into `values`, the
    example of each label (None: one label per example), and the batch as given."""

    def __init__(self, predictions, references, ignore_index):
        self.pred, self.ref, self.values, self.kind, self.example = _flatten(predictions, references, ignore_index)
        self.n_examples = len(references)
        self.shape = (self.n_examples,)
        self.predictions, self.references = predictions, references


class LabelsFamily(Family):
    """micro_macro's statistics: a confusion matrix over the labels seen (rows references,
    columns predictions), kept sparse (the cells that occur), whatever the corpus; every
    figure is a ratio of its cells. The layout grows with the labels, so a batch's rows are
    its labels (Labels) and the state (LabelsState) keys cells by label; two systems are
    compared over one coding of both. With keep_rows, the examples' labels (for the
    bootstrap; sequences resampled in merge order)."""

    name = "micro_macro"
    REPORT_SUMS = ("unplaced_triggers",)

    def __init__(self, options):
        o = options
        o["zero_division"] = check_zero_division(o["zero_division"])
        check_choice("convention", o["convention"], CONVENTIONS)
        _check_ignore_index(o["ignore_index"])
        for name in ("labels", "negative_labels", "types"):
            if o[name] is not None and not isinstance(o[name], str):  # kind checked at compute time, against the data's
                values = from_tensor(o[name])
                if not isinstance(values, (list, tuple, np.ndarray)) or np.ndim(values) != 1:
                    raise ValueError(f"{name}: {o[name]!r:.60} is not a list of labels")
                o[name] = [v.item() if isinstance(v, np.generic) else v for v in values]
        check_parser_options(o["parse"], o["strict"], types=o["types"] is not None)
        if o["parse"] is not None:
            _parsed([], [], o["parse"], o["strict"], o["types"])  # compute's own checks of parse and types
            o["parse"] = parser_id(get_parser(o["parse"], SPACE))
        super().__init__(o)

    @property
    def State(self):
        return LabelsState

    def headline(self):
        return "micro_f1"

    def example_totals(self, table):
        raise ValueError("micro_macro: its figures are ratios over the corpus's classes, not sums of a fixed per-example row; for a per-example event reward use paperscore.rewards.event_reward")

    def rows(self, predictions, references):
        o, report = self.options, None
        if o["parse"] is not None:
            predictions, references, report = _parsed(predictions, references, o["parse"], o["strict"], o["types"])
        return Batch(Labels(predictions, references, o["ignore_index"]), report)

    def paired(self, *batches):
        """The systems' statistics over one class list (see _resampled: examples are
        labels, or sequences for token classification): one table of confusion cells
        shared by every system, or a row per sequence."""
        o = self.options
        sides = [batch.table for batch in batches]
        first = sides[0]
        for number, side in enumerate(sides[1:], 2):
            if side.kind != first.kind:
                raise ValueError(f"system {number} has {side.kind} labels but the first system has {first.kind} labels")
        labels = _check_label_list("labels", o["labels"], first.kind)
        coded, values = _one_coding(*((side.pred, side.values) for side in sides), *((side.ref, side.values) for side in sides))
        pred, ref = np.concatenate(coded[: len(sides)]), np.concatenate(coded[len(sides) :])
        pairs, scored, counted, _ = _statistics(pred, ref, values, first.kind, labels, o["negative_labels"], o["convention"])
        cells, classes = pairs.cells(), pairs.classes
        n, example, k = first.n_examples, first.example, len(sides)
        every = None if example is None else np.concatenate([example + i * n for i in range(k)])
        table, codes = _resampled(cells, every, k * n, len(classes), scored, counted)
        reduce = _reducer(o["zero_division"], labels, o["convention"])
        if example is not None:  # a row per sequence: each system's sequences in turn
            return [(table[i * n : (i + 1) * n], codes[:n]) for i in range(k)], reduce
        return [(table, part) for part in np.split(codes, k)], reduce

    def figures(self, values, kind, ref, pred, weights):
        """compute()'s figures of the labels `values` coded (ref, pred), each pair
        standing for `weights` labels (None: one)."""
        o = self.options
        labels = _check_label_list("labels", o["labels"], kind)
        pairs = Pairs(pred, ref, values, weights)
        classes, observed = pairs.order(labels)
        # convention="omnievent" scores the classes the references hold
        gold = [values[code] for code in np.unique(ref).tolist()] if o["convention"] == "omnievent" else None
        scored, counted, _ = _scoring(classes, kind, labels, o["negative_labels"], o["convention"], observed, gold)
        (tp, predicted, gold), (correct, total) = pairs.counts(counted)
        columns = np.array(scored, dtype=np.int64)
        sums = np.concatenate([tp[columns], predicted[columns], gold[columns], [correct, total]]).astype(float)
        reduce = _reducer(o["zero_division"], labels, o["convention"])
        return as_floats({key: value[0] for key, value in reduce(sums[None]).items()})


class LabelsState(State):
    """A micro_macro state: the confusion cells that occur, as (reference label, predicted
    label, count), sparse whatever the number of labels; with keep_rows the examples'
    labels (as given, JSON-safe)."""

    def __init__(self, fam, keep_rows):
        super().__init__(fam, keep_rows)
        self.kind = self.nested = None
        self.values, self.index = [], {}
        self.ref = self.pred = self.count = np.zeros(0, dtype=np.int64)  # the cells, codes into values
        self.rows = ([], []) if keep_rows else None  # the examples' predictions, references

    def _layout(self, kind, nested, where):
        """Refuse int labels after str ones, or sequences after single labels (compute
        refuses such a corpus); None: nothing seen yet."""
        shape = {True: "sequences of labels", False: "one label per example"}
        if None not in (self.kind, kind) and kind != self.kind:
            raise ValueError(f"{where}: {kind} labels, but the state holds {self.kind} labels")
        if None not in (self.nested, nested) and nested != self.nested:
            raise ValueError(f"{where}: {shape[nested]}, but the state holds {shape[self.nested]}")
        self.kind = self.kind if kind is None else kind
        self.nested = self.nested if nested is None else nested

    def _add_cells(self, values, ref, pred, count):
        """Add cells whose codes index `values`: recoded into the state's values, then
        equal cells summed (exactly, refusing a count past 2^63 - 1)."""
        from .paperscore_state import counts_sum

        codes = np.array([self.index.setdefault(v, len(self.index)) for v in values], dtype=np.int64)
        if len(self.index) > len(self.values):
            self.values = list(self.index)
        k = len(self.values)
        cells = np.concatenate([self.ref * k + self.pred, codes[ref] * k + codes[pred]]) if len(values) else self.ref * k + self.pred
        distinct, at = np.unique(cells, return_inverse=True)
        self.count = counts_sum(at.ravel(), np.concatenate([self.count, count]) if len(values) else self.count, len(distinct))
        self.ref, self.pred = np.divmod(distinct, k)

    def _add_batch(self, batch):
        labels = batch.table
        nested = None if not labels.n_examples else labels.example is not None
        self._layout(labels.kind if len(labels.ref) else None, nested, "update")  # no label: kind unknown (compute says "int")
        k = len(labels.values)
        cells, count = np.unique(labels.ref * k + labels.pred, return_counts=True) if k else (np.zeros(0, dtype=np.int64),) * 2
        self._add_cells(labels.values, *np.divmod(cells, max(k, 1)), count)
        if self.keep_rows:
            for side, corpus in zip(self.rows, (labels.predictions, labels.references)):
                side.extend(_plain(as_corpus(corpus, "predictions")))

    def _add(self, other):
        self._layout(other.kind, other.nested, "merge")
        self._add_cells(other.values, other.ref, other.pred, other.count)
        if self.keep_rows:
            for mine, theirs in zip(self.rows, other.rows):
                mine.extend(theirs)
        self._add_report(other.examples, other.report)

    def _cells(self):
        """{(reference label, predicted label): count}: the cells whatever the codes' order."""
        return {(self.values[r], self.values[p]): c for r, p, c in zip(self.ref.tolist(), self.pred.tolist(), self.count.tolist())}

    def _figures(self):
        return self.fam.figures(self.values, self.kind or "int", self.ref, self.pred, self.count)

    def _intervals(self, confidence_level, n_resamples, seed):
        scoring = {name: value for name, value in self.options.items() if name not in READING}  # rows are labels already read
        result = compute(*self.rows, **scoring, confidence_level=confidence_level, n_resamples=n_resamples, seed=seed)
        return {key: value for key, value in result.items() if key.endswith(("_low", "_high"))}

    def _dump(self):
        return {
            "kind": self.kind,
            "nested": self.nested,
            "values": list(self.values),
            "cells": [self.ref.tolist(), self.pred.tolist(), self.count.tolist()],
            "rows": None if self.rows is None else [list(side) for side in self.rows],
        }

    def _load(self, data):
        from .paperscore_state import counts, field

        values, kind = list(field(data, "values")), field(data, "kind")
        for i, value in enumerate(values):
            ok = isinstance(value, int) and not isinstance(value, bool) and INT64[0] <= value <= INT64[1] if kind == "int" else isinstance(value, str)
            if not ok:
                raise input_error("values", i, f"{value!r:.40} is not a {kind} label")
        if len(set(values)) != len(values):
            raise ValueError("values: lists a label twice")
        self._layout(kind, field(data, "nested"), "from_dict")
        cells = field(data, "cells")
        if not (isinstance(cells, list) and len(cells) == 3 and all(isinstance(c, list) for c in cells)):
            raise ValueError("cells: not three lists (reference codes, predicted codes, counts)")
        ref, pred, count = (counts(c, f"cells[{i}]", (len(cells[0]),)) for i, c in enumerate(cells))
        if ((ref >= len(values)) | (pred >= len(values))).any() or (count == 0).any():
            raise ValueError("cells: a code past the values, or a cell of no label")
        if len(np.unique(ref * max(len(values), 1) + pred)) != len(ref):
            raise ValueError("cells: a cell is listed twice")
        self._add_cells(values, ref, pred, count)
        rows = field(data, "rows")
        if self.keep_rows:
            if not (isinstance(rows, list) and len(rows) == 2 and all(isinstance(side, list) for side in rows)):
                raise ValueError("rows: not the examples' predictions and references")
            kept = LabelsFamily(dict(self.options, parse=None, strict=False, types=None)).rows(*rows).table
            again = LabelsState(self.fam, False)
            again._add_batch(Batch(kept))
            if again._cells() != self._cells() or (kept.n_examples and again.kind != self.kind):
                raise ValueError("rows: the kept labels do not give the state's confusion cells")
            self.rows = (list(rows[0]), list(rows[1]))
        elif rows is not None:
            raise ValueError("rows: labels given in a state made without keep_rows")


def _plain(corpus):
    """A corpus as JSON-safe Python lists (numpy ints as int)."""
    return np.asarray(corpus).tolist() if isinstance(corpus, np.ndarray) else [np.asarray(v).tolist() if isinstance(v, np.ndarray) else (v.item() if isinstance(v, np.generic) else v) for v in corpus]


# ---------------------------------------------------------------------------------------
# Command line: paperscore micro_macro --predictions FILE --references FILE

COMMAND = "micro_macro"
HELP = "multi-class P/R/F1, micro / macro / weighted (sklearn, MAVEN, JMEE)"


def add_options(parser):
    """The scoring options, shared by this command and `paperscore compare micro_macro`."""
    parser.add_argument("--labels", help="comma-separated classes to score, in order")
    parser.add_argument("--negative-labels", help="comma-separated classes left out of the averages (NA)")
    parser.add_argument("--convention", choices=[c for c in CONVENTIONS if c], help="a paper's convention: maven leaves the NA class out of the averages, jmee scores gold events only (default: none, sklearn's numbers)")
    parser.add_argument("--ignore-index", type=int, default=-100, help="reference label marking padding: those positions are not scored")
    parser.add_argument("--spans", choices=event_spans.RULES, help="span-level event detection: the files hold one JSON record a line (triggers, or TextEE's {\"events\": ...}), counted as TextEE's scorer (textee) or OneIE's score_graphs (oneie)")
    parser.add_argument("--scheme", choices=[s for s in event_spans.SCHEMES if s], help="with --spans: each line is a JSON list of BIO tags")


def options(args):
    """The scoring options of compute(); with --spans, spans, scheme and only the label
    options given (which span-level scoring then refuses by name)."""
    if args.scheme is not None and args.spans is None:
        raise ValueError("--scheme: applies with --spans only")
    found = dict(
        labels=split_values(args.labels),
        negative_labels=split_values(args.negative_labels),
        convention=args.convention,
        ignore_index=args.ignore_index,
    )
    if args.spans is None:
        return found
    given = {name: value for name, value in found.items() if value is not None and not (name == "ignore_index" and value == -100)}
    return {**given, "spans": args.spans, "scheme": args.scheme}


def read_compare(args):
    """The inputs of `paperscore compare micro_macro`: with --spans, JSON records."""
    if args.spans is None:
        return {name: read_values(path, flag) for name, path, flag in compared_files(args)}
    return {name: read_records(getattr(args, name), flag) for name, flag in (("references", "--references"), ("system_a", "--system-a"), ("system_b", "--system-b"))}


def add_arguments(parser):
    parser.add_argument("--predictions", required=True, help="one label per line, or a JSON list of labels per line")
    parser.add_argument("--references", required=True, help="same layout as --predictions")
    add_options(parser)
    parser.add_argument("--per-class", action="store_true", help="add each class's precision, recall, F1 and support")
    parser.add_argument("--confusion-matrix", action="store_true", help="add the confusion matrix (rows: references, columns: predictions)")
    parser.add_argument("--parse", choices=EVENT_PARSERS, metavar="NAME", help=f"--predictions holds model texts, one a line, and --references OmniEvent items (JSON lines), read by this parser: {', '.join(EVENT_PARSERS)}")
    parser.add_argument("--types", help="with --parse: the event types, comma-separated, or a JSON file of them (a list, or OmniEvent's type2id.json: its keys)")
    parser.add_argument("--strict", action="store_true", help="with --parse: a prediction the parser cannot read is an error")


def read_labels(path, argument):
    """core.read_values for a label file, with each distinct line parsed once: a file of
    11M labels has a few hundred distinct lines. Int or str labels come back as Coded
    labels (codes into the distinct labels), anything else as read_values' list. A file
    read_values would refuse (an empty line, not UTF-8) goes to read_values for its exact
    message, and so does standard input (-), which cannot be read twice."""
    if str(path) == STDIN:
        return read_values(path, argument)
    distinct = _coder()  # lines one at a time (no list of 11M lines), each coded in C
    codes = np.fromiter(map(distinct.__getitem__, io.BytesIO(read_bytes(path, argument))), np.int64)
    texts = []
    for line in distinct:
        line = line[:-1] if line.endswith(b"\n") else line
        try:
            texts.append((line[:-1] if line.endswith(b"\r") else line).decode("utf-8"))
        except UnicodeDecodeError:
            return read_values(path, argument)
        if not texts[-1].strip():
            return read_values(path, argument)
    try:
        values = [parse_value(text) for text in texts]
    except ValueError:  # read_values names the file and the line
        return read_values(path, argument)
    types = set(map(type, values))
    if types == {int} and INT64[0] <= min(values) and max(values) <= INT64[1]:
        return Coded(codes, values, "int")
    if types == {str}:
        return Coded(codes, values, "str")
    return [values[code] for code in codes.tolist()]


def _as_labels(read):
    """A label file's Coded labels as the list compute() reads."""
    return [read.values[code] for code in read.codes.tolist()] if isinstance(read, Coded) else read


def read_types(value):
    """--types: a JSON file's list or object keys, else comma-separated names."""
    if value is None:
        return None
    if not os.path.isfile(value):
        if value.endswith(".json") or "/" in value:  # a mistyped path would be one type name
            raise ValueError(f"--types: {value} is not a file")
        return value.split(",")
    types = load_json(read_text(value, "--types"), f"--types: {value}")
    if isinstance(types, dict):
        types = list(types)
    if not isinstance(types, list):
        raise ValueError(f"--types: {value} holds a JSON {type(types).__name__}, not a list of types or an object keyed by them")
    return types


def read_records(path, argument):
    """--parse references (OmniEvent items) and --spans files: JSON lines, or one JSON array
    of objects."""
    return read_json_values(path, argument, objects=True)


def run(args):
    if args.parse is not None:
        predictions = read_lines(args.predictions, "--predictions", allow_empty=True)
        return compute(predictions, read_records(args.references, "--references"), parse=args.parse, strict=args.strict, types=read_types(args.types), per_class=args.per_class, confusion_matrix=args.confusion_matrix, **options(args), **args.common)
    if args.strict or args.types is not None:
        raise ValueError(f"{'--strict' if args.strict else '--types'}: applies with --parse NAME only")
    if args.spans is not None or args.scheme is not None:
        if args.spans is None:
            raise ValueError("--scheme: applies with --spans only")
        records = [read_records(path, flag) for path, flag in ((args.predictions, "--predictions"), (args.references, "--references"))]
        return compute(*records, spans=args.spans, scheme=args.scheme, **args.common)
    predictions = read_labels(args.predictions, "--predictions")
    references = read_labels(args.references, "--references")
    if isinstance(predictions, Coded) and isinstance(references, Coded) and predictions.kind == references.kind:
        # both files coded already: one shared coding, not labels expanded and coded again
        (pred, ref), values = _one_coding((predictions.codes, predictions.values), (references.codes, references.values))
        predictions, references = Coded(pred, values, predictions.kind), Coded(ref, values, references.kind)
    else:  # anything else as lists, for compute's own checks and messages
        predictions, references = _as_labels(predictions), _as_labels(references)
    return compute(
        predictions,
        references,
        per_class=args.per_class,
        confusion_matrix=args.confusion_matrix,
        **options(args),
        **args.common,
    )
