"""Multi-class precision, recall and F1, micro, macro and weighted, exactly as sklearn's
`precision_recall_fscore_support` computes them, with the event-detection conventions
(MAVEN's NA class left out of the averages; JMEE's gold-event-only scoring) by name.

Statistics: one confusion matrix over every observed class (rows = references, columns =
predictions). Every number is a ratio of its cells, so shards merge by adding matrices and
the bootstrap resamples its cells.
"""

import collections
import io
import itertools

import numpy as np

from .core import (
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
    parse_value,
    prf,
    read_bytes,
    read_values,
    signature,
    STDIN,
    split_values,
)

CONVENTIONS = (None, "maven", "jmee")
# The NA class of each convention when negative_labels is not given: MAVEN's NA is id 0
# (its DMCNN baseline names it "None"); JMEE's is vocabulary index 0, "O" in practice.
DEFAULT_NEGATIVE = {"maven": (0, "None"), "jmee": (0, "O")}
KEYS = (
    "accuracy",
    "micro_precision", "micro_recall", "micro_f1",
    "macro_precision", "macro_recall", "macro_f1",
    "weighted_precision", "weighted_recall", "weighted_f1",
)  # fmt: skip
SPACE = "micro_macro"
# Two classes whose ids span more than this are encoded through a dict, not bincount.
DENSE_SPAN = 4096


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


def check_inputs(predictions, references):
    """Both corpora as compute() reads them (core.as_corpus: torch tensors and lists of them
    become numpy), with equal lengths, one label type and one layout (a label or a sequence
    of labels per example) on both sides, and int labels within 64 bits.

    Returns (predictions, references, (kind, nested)), kind "int" or "str". The metric
    script runs this before evaluate encodes a batch, because evaluate's int feature would
    silently truncate a float label and turn the string "5" into 5; int labels come back as
    int64 arrays."""
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


def _array(values, kind):
    """One side's labels as a 1-d array: int64, or objects (Python str) for str labels."""
    if kind == "int":
        return np.asarray(values, dtype=np.int64)
    return np.asarray(values).astype(object, copy=False)


def _flatten(predictions, references, ignore_index):
    """(predictions, references, kind, example): both sides as equal-length 1-d arrays,
    positions whose reference is ignore_index removed (Trainer pads label_ids with -100),
    and the example each kept label belongs to (None when each example is one label)."""
    _check_ignore_index(ignore_index)
    predictions, references, (kind, nested) = check_inputs(predictions, references)
    lengths = None
    if nested:
        lengths = np.array([len(r) for r in references], dtype=np.int64)
        for index, (p, r) in enumerate(zip(predictions, references)):
            if len(p) != len(r):
                raise input_error("predictions", index, f"has {len(p)} labels but references[{index}] has {len(r)}")
        if int(lengths.sum()):
            pred = np.concatenate([_array(p, kind) for p in predictions])
            ref = np.concatenate([_array(r, kind) for r in references])
        else:
            pred = ref = _array([], kind)
    else:
        pred, ref = _array(predictions, kind), _array(references, kind)
    example = None if lengths is None else np.repeat(np.arange(len(lengths)), lengths)
    if ignore_index is not None and _label_kind(ignore_index) == kind and len(ref) and (kind == "str" or _within(ignore_index, ref, pred)):
        keep = ref != ignore_index
        stray = np.flatnonzero(keep & (pred == ignore_index))
        if len(stray):
            raise input_error("predictions", position(stray[0], lengths), f"is ignore_index {ignore_index!r} where the reference is scored")
        if not keep.all():
            pred, ref = pred[keep], ref[keep]
            example = None if example is None else example[keep]
    return pred, ref, kind, example


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
    for index, value in enumerate(values):
        if _label_kind(value) != kind:
            raise input_error(argument, index, f"{value!r} is not a {kind} label like the data's")
        if kind == "int" and not INT64[0] <= value <= INT64[1]:
            raise input_error(argument, index, f"{value} is outside the 64-bit integer range of labels")
    values = [int(v) if kind == "int" else str(v) for v in values]
    if len(set(values)) != len(values):
        raise ValueError(f"{argument}: lists a label twice")
    return values


# ---------------------------------------------------------------------------------------
# The confusion matrix


def _raw_codes(pred, ref, kind):
    """Both sides as codes 0..span-1 and the label of each code."""
    if kind == "int" and len(ref):
        low = int(min(ref.min(), pred.min()))
        span = int(max(ref.max(), pred.max())) - low + 1
        if span <= DENSE_SPAN:  # small ids, the common case: codes by subtraction
            codes = (ref, pred) if low == 0 else (ref - low, pred - low)
            return codes[0], codes[1], np.arange(low, low + span).tolist()
    index = _coder()
    raw_ref = np.fromiter(map(index.__getitem__, ref.tolist()), np.int64, len(ref))
    raw_pred = np.fromiter(map(index.__getitem__, pred.tolist()), np.int64, len(pred))
    return raw_ref, raw_pred, list(index)


def _coder():
    """A dict that gives each new key the next code: map(coder.__getitem__, values) codes
    millions of labels without a Python-level step per label."""
    return collections.defaultdict(itertools.count().__next__)


def _class_order(raw, values, labels):
    """(classes, code -> class position): `labels` first in their order, then every other
    class that occurs in the raw (span x span) pair counts, sorted."""
    seen = np.flatnonzero(raw.sum(0) + raw.sum(1))
    given = set(labels or [])
    classes = list(labels or []) + sorted(values[i] for i in seen if values[i] not in given)
    place = {c: i for i, c in enumerate(classes)}
    position = np.full(len(values), -1, dtype=np.int64)
    position[seen] = [place[values[i]] for i in seen]
    return classes, position


def _pair_counts(raw_ref, raw_pred, span):
    pairs = raw_ref * span
    pairs += raw_pred
    return np.bincount(pairs, minlength=span * span).reshape(span, span)


def confusion(pred, ref, kind, labels=None):
    """(classes, matrix): `labels` first in their order, then every other observed class,
    sorted; matrix[i, j] counts references classes[i] predicted as classes[j]."""
    raw_ref, raw_pred, values = _raw_codes(pred, ref, kind)
    raw = _pair_counts(raw_ref, raw_pred, len(values))
    classes, position = _class_order(raw, values, labels)
    # Move the raw counts into class order: matrix = M^T raw M, M the one-hot code map.
    seen = np.flatnonzero(position >= 0)
    onehot = np.zeros((len(values), len(classes)), dtype=np.int64)
    onehot[seen, position[seen]] = 1
    return classes, onehot.T @ raw @ onehot


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
    """The statistics of one example in each confusion cell (ref * n_classes + pred):
    per scored class tp, predicted and gold flags, then correct and total; shape
    (len(cells), 3 * len(scored) + 2). A cell whose reference class is not `counted` (JMEE
    drops gold-NA tokens) is a row of zeros."""
    ref, pred = np.divmod(np.asarray(cells, dtype=np.int64), n_classes)
    width = len(scored)
    position = np.full(n_classes, -1)
    position[scored] = np.arange(width)
    rows = np.zeros((len(ref), 3 * width + 2))
    index = np.arange(len(ref))
    for offset, classes, where in ((0, ref, ref == pred), (width, pred, True), (2 * width, ref, True)):
        hit = where & (position[classes] >= 0)
        rows[index[hit], offset + position[classes[hit]]] = 1
    rows[:, -2] = ref == pred
    rows[:, -1] = 1
    rows[~counted[ref]] = 0
    return rows


def ratios(weights, rows, zero_division=0.0, observed_only=True, headline=False):
    """Every number for each row of example weights (r, len(rows)) over cell_rows
    statistics: arrays of shape (r,). observed_only: a class enters the macro and weighted
    means only where it is predicted or gold (sklearn without `labels`: every resample has
    its own observed classes). headline: add JMEE's precision, recall and f1."""
    sums = np.asarray(np.asarray(weights, dtype=float) @ rows)  # rows may be a scipy sparse matrix
    width = (rows.shape[1] - 2) // 3
    tp, predicted, gold = sums[:, :width], sums[:, width : 2 * width], sums[:, 2 * width : 3 * width]
    present = (predicted + gold) > 0 if observed_only else True
    out = {"accuracy": divide(sums[:, -2], sums[:, -1], zero_division)}
    micro = prf(tp.sum(-1), predicted.sum(-1), gold.sum(-1), zero_division)
    per_class = prf(tp, predicted, gold, zero_division)
    for name, value, values in zip(("precision", "recall", "f1"), micro, per_class):
        out[f"micro_{name}"] = value
        # no class at all (an empty corpus): the zero-division value, as every family gives
        out[f"macro_{name}"] = _average(values, mask=present, empty=zero_division)
        out[f"weighted_{name}"] = _average(values, gold, mask=present, empty=zero_division)
    out = {key: out[key] for key in KEYS}
    if headline:
        out.update(precision=out["macro_precision"], recall=out["macro_recall"], f1=out["micro_f1"])
    return out


# ---------------------------------------------------------------------------------------
# The metric


def _cell_codes(pred, ref, kind, labels):
    """(classes, the confusion cell ref * len(classes) + pred of each label pair)."""
    raw_ref, raw_pred, values = _raw_codes(pred, ref, kind)
    classes, place = _class_order(_pair_counts(raw_ref, raw_pred, len(values)), values, labels)
    return classes, place[raw_ref] * len(classes) + place[raw_pred]


def _resampled(cells, example, n_examples, n_classes, scored, counted):
    """(table, codes): what the bootstrap and paired tests resample, one code per example.
    One label per example (example is None): a row per distinct confusion cell. Sequences
    (token classification): a row per sequence, the sum of its labels' cell rows, so that
    sentences are resampled, not tokens. Sparse: a cell row has at most five non-zeros."""
    from scipy.sparse import csr_matrix

    distinct, codes = dense_codes(cells, n_classes**2)
    rows = csr_matrix(cell_rows(distinct, n_classes, scored, counted))
    if example is None:
        return rows, codes
    members = csr_matrix((np.ones(len(codes)), (example, codes)), shape=(n_examples, len(distinct)))
    return (members @ rows).tocsr(), np.arange(n_examples)


def _negatives(convention, negative_labels, kind, classes, labels):
    if negative_labels is not None:
        return _check_label_list("negative_labels", negative_labels, kind)
    if convention is None:
        return []
    na = DEFAULT_NEGATIVE[convention][0 if kind == "int" else 1]
    if na not in classes and na not in (labels or []):
        raise ValueError(
            f"convention={convention!r} leaves out the NA label {na!r}, which occurs in neither "
            "predictions nor references: pass negative_labels=[...] to name your NA label"
        )
    return [na]


def _scoring(classes, kind, labels, negative_labels, convention):
    """(indices of the classes in the averages, which reference classes are counted at
    all, the negative labels). JMEE counts only gold-event tokens and keeps NA a class;
    otherwise NA is counted and left out of the averages."""
    negatives = _negatives(convention, negative_labels, kind, classes, labels)
    jmee = convention == "jmee"
    counted = np.array([not (jmee and c in negatives) for c in classes], dtype=bool)
    in_labels = set(labels) if labels is not None else set(classes)
    scored = [i for i, c in enumerate(classes) if c in in_labels and (jmee or c not in negatives)]
    if classes and not scored:
        raise ValueError("negative_labels: every class is negative, none is left to score")
    return scored, counted, negatives


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
):
    """Accuracy and micro / macro / weighted precision, recall and F1.

    predictions, references: one label per example (int or str), or one sequence of labels
    per example (token classification), where reference positions equal to `ignore_index`
    are not scored. Lists, numpy arrays or torch tensors (int or bool dtypes), or lists of
    arrays / tensors.
    labels: the classes scored and their order (default: every observed class).
    negative_labels: classes left out of the micro, macro and weighted averages (an NA
    class); accuracy still counts every example. Both are lists: a bare string
    ("None") is an error, not its characters.
    convention: "maven" leaves NA (0 or "None") out of the averages; "jmee" scores only
    positions whose reference is not NA (0 or "O"), keeps NA in the averages, and adds
    JMEE's headline `precision` = macro P, `recall` = macro R, `f1` = micro F1.
    """
    check_choice("convention", convention, CONVENTIONS)
    check_flags(per_class=per_class, confusion_matrix=confusion_matrix, return_signature=return_signature)
    zero_division = check_zero_division(zero_division)
    if confidence_level is not None:
        check_bootstrap(confidence_level, n_resamples, seed)
    pred, ref, kind, example = _flatten(predictions, references, ignore_index)
    labels = _check_label_list("labels", labels, kind)
    classes, matrix = confusion(pred, ref, kind, labels)
    scored, counted, negatives = _scoring(classes, kind, labels, negative_labels, convention)
    reduce = _reducer(zero_division, labels, convention)
    cells = np.flatnonzero(matrix)
    result = as_floats({key: value[0] for key, value in reduce(matrix.ravel()[cells][None], cell_rows(cells, len(classes), scored, counted)).items()})
    if confidence_level is not None:
        table, codes = _resampled(_cell_codes(pred, ref, kind, classes)[1], example, len(references), len(classes), scored, counted)
        counts = np.bincount(codes, minlength=table.shape[0])
        result.update(bootstrap_intervals(counts, lambda weights: reduce(weights, table), confidence_level, n_resamples, seed))
    matrix = np.where(counted[:, None], matrix, 0)
    if per_class:
        p, r, f = prf(np.diagonal(matrix), matrix.sum(0), matrix.sum(1), zero_division)
        result["per_class"] = {
            classes[i]: {"precision": float(p[i]), "recall": float(r[i]), "f1": float(f[i]), "support": int(matrix[i].sum())}
            for i in scored
        }
    if confusion_matrix:
        result["labels"] = list(classes)
        result["confusion_matrix"] = matrix.tolist()
    if return_signature:
        result["signature"] = signature(
            "micro_macro",
            convention=convention,
            labels=len(labels) if labels is not None else "all",
            negative_labels=negatives,
            ignore_index=ignore_index,
            zero_division=zero_division,
            **bootstrap_options(confidence_level, n_resamples, seed),
        )
    return result


def _reducer(zero_division, labels, convention):
    """reduce(weights, table): the numbers of weighted cell_rows statistics."""
    # JMEE hands sklearn its whole label vocabulary: every class counts, observed or not.
    observed_only = labels is None and convention != "jmee"
    return lambda weights, table: ratios(weights, table, zero_division, observed_only, convention == "jmee")


def headline(**options):
    """What `paperscore compare` compares by default."""
    return "micro_f1"


def paired_statistics(references, system_a, system_b, labels=None, negative_labels=None, convention=None, zero_division=0.0, ignore_index=-100):
    """For paperscore.compare: both systems' statistics over one class list (see
    _resampled: examples are labels, or sequences for token classification)."""
    check_choice("convention", convention, CONVENTIONS)
    zero_division = check_zero_division(zero_division)
    pred_a, ref, kind, example = _flatten(system_a, references, ignore_index)
    pred_b, _, kind_b, _ = _flatten(system_b, references, ignore_index)
    if kind_b != kind:
        raise ValueError(f"system_a has {kind} labels but system_b has {kind_b} labels")
    labels = _check_label_list("labels", labels, kind)
    classes, cells = _cell_codes(np.concatenate([pred_a, pred_b]), np.concatenate([ref, ref]), kind, labels)
    scored, counted, _ = _scoring(classes, kind, labels, negative_labels, convention)
    n = len(references)
    both = None if example is None else np.concatenate([example, example + n])
    table, codes = _resampled(cells, both, 2 * n, len(classes), scored, counted)
    if example is not None:  # a row per sequence: system A's sequences, then system B's
        return table[:n], codes[:n], table[n:], codes[:n], _reducer(zero_division, labels, convention)
    return table, codes[: len(ref)], table, codes[len(ref) :], _reducer(zero_division, labels, convention)


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


def options(args):
    return dict(
        labels=split_values(args.labels),
        negative_labels=split_values(args.negative_labels),
        convention=args.convention,
        ignore_index=args.ignore_index,
    )


def add_arguments(parser):
    parser.add_argument("--predictions", required=True, help="one label per line, or a JSON list of labels per line")
    parser.add_argument("--references", required=True, help="same layout as --predictions")
    add_options(parser)
    parser.add_argument("--per-class", action="store_true", help="add each class's precision, recall, F1 and support")
    parser.add_argument("--confusion-matrix", action="store_true", help="add the confusion matrix (rows: references, columns: predictions)")


def read_labels(path, argument):
    """core.read_values for a label file, with each distinct line parsed once: a file of
    11M labels has a few hundred distinct lines. Int or str labels come back as one numpy
    array (int64, or objects), anything else as read_values' list. A file read_values
    would refuse (an empty line, not UTF-8) goes to read_values for its exact message, and
    so does standard input (-), which cannot be read twice."""
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
        return np.array(values, dtype=np.int64)[codes]
    if types == {str}:
        return np.array(values, dtype=object)[codes]
    return [values[code] for code in codes.tolist()]


def run(args):
    return compute(
        read_labels(args.predictions, "--predictions"),
        read_labels(args.references, "--references"),
        per_class=args.per_class,
        confusion_matrix=args.confusion_matrix,
        **options(args),
        **args.common,
    )

